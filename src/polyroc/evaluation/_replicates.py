"""The stratified bootstrap replicates of :func:`polyroc.evaluate`: every score of each replicate, in chunks.

A replicate draws each class's rows with replacement within the class
(:func:`polyroc.resampling.stratum_multiplicities`), so its intervals are
conditional on the class counts. :func:`bootstrap_replicates` groups the rows
by class once and scores chunks of replicates on every core.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from polyroc._engine.counts import confusion_cells
from polyroc._engine.parallel import chunk_map
from polyroc._engine.progress import task
from polyroc._engine.replicates import GroupedRankings, grouped_chunk_rows, integer_weights_are_exact
from polyroc.evaluation._calibration import ReplicateBins
from polyroc.evaluation._summary import class_scores, counts_scores
from polyroc.intervals._resampling import stratum_multiplicities

__all__ = ["bootstrap_replicates"]


def bootstrap_replicates(y, scores, weights, losses, n_boot, rng):
    """Every score (B,) and per-class score (B, m) of each stratified bootstrap replicate.

    The samples are grouped by class, so that a replicate's draws
    (:func:`polyroc.resampling.stratum_multiplicities`, the draws of
    :func:`polyroc.resampling.bootstrap_multiplicities`) fill each class's block
    of columns of the weight rows (b, n) directly. Chunks of replicates run on every core
    (:func:`polyroc._engine.parallel.chunk_map`); each chunk depends only on its
    generators, so the results do not depend on the number of threads.
    """
    grouped = np.argsort(y, kind="stable")
    y, scores = y[grouped], scores[grouped]
    predicted = np.argmax(scores, axis=1)
    weights = None if weights is None else weights[grouped]
    n_classes = scores.shape[1]
    engine = _ReplicateEngine(
        sizes=np.bincount(y, minlength=n_classes).tolist(),
        cells=confusion_cells(y, predicted, n_classes),
        weights=weights,
        losses=np.column_stack([loss[grouped] for loss in losses.values()]),
        loss_names=tuple(losses),
        rankings=GroupedRankings.of(y, scores),
        integer_auc_rows=weights is None and integer_weights_are_exact(y.size, n_classes),
        bins=ReplicateBins(y, scores),
    )
    seeds = rng.spawn(n_boot)
    step = grouped_chunk_rows(y.size)
    work = task("bootstrap replicates", n_boot)
    chunks = []
    for chunk in chunk_map(engine.replicates, (seeds[start : start + step] for start in range(0, n_boot, step))):
        chunks.append(chunk)
        work.advance(chunk["accuracy"].size)
    return {name: np.concatenate([chunk[name] for chunk in chunks]) for name in chunks[0]}


@dataclass(frozen=True, eq=False)
class _ReplicateEngine:
    """Everything a chunk of replicates needs, for samples grouped by class (shared read-only by the threads)."""

    sizes: list[int]
    cells: Any
    weights: np.ndarray | None
    losses: np.ndarray
    loss_names: tuple[str, ...]
    rankings: GroupedRankings
    integer_auc_rows: bool  # no sample weights, and sizes where integers give the float64 bits
    bins: ReplicateBins

    def replicates(self, seeds):
        """Every score of the replicates drawn from ``seeds``, one generator per replicate."""
        counted, rows = self._weight_rows(seeds)
        n_classes = len(self.sizes)
        counts = (self.cells @ rows.T).T.reshape(-1, n_classes, n_classes)
        aucs = self.rankings.aucs(counted, counts.sum(axis=-1))
        means = np.einsum("bn,nl->lb", rows, self.losses) / rows.sum(axis=1)  # not BLAS: no nested thread pool
        return {
            **counts_scores(counts),
            **{ranking_name(key): value for key, value in aucs.items()},
            **dict(zip(self.loss_names, means)),
            **self.bins.errors(rows),
            **class_scores(counts),
        }

    def _weight_rows(self, seeds):
        """The weight rows (b, n) of the replicates for the AUCs, and as float64 for the counts and means.

        Without sample weights the AUCs take the multiplicities themselves as
        small integers (uint8 unless a count exceeds 255): their gathers move
        a fraction of the memory of float64 rows, for the same bits
        (:func:`polyroc._engine.replicates.integer_weights_are_exact`).
        """
        if not self.integer_auc_rows:
            rows = stratum_multiplicities(seeds, self.sizes)
            if self.weights is not None:
                rows *= self.weights
            return rows, rows
        counted = stratum_multiplicities(seeds, self.sizes, dtype=np.int32)
        if counted.max(initial=0) <= np.iinfo(np.uint8).max:
            counted = counted.astype(np.uint8)
        return counted, counted.astype(np.float64)


def ranking_name(key):
    """Name of the AUC with ``key`` = (multi_class, average) in the scores."""
    multi_class, average = key
    return f"roc_auc_{multi_class}_{average}"
