"""Exact AUC wins of partitioned rows: range partitioning by score, then one local sort per range.

The scores of one ranking (a score column, or the raveled cells for the
micro average) are cut at edges taken from a sample's quantiles. A score
equal to an edge lies in that edge's *point cell*; every other score in the
*open cell* between two edges. Cells are disjoint ranges in score order, so a
pair of rows in different cells is ordered by its cells alone: class k beats
class j across cells in ``sum_c W_k(c) * W_j(cells below c)`` pairs, from
per-cell class weights. Within an open cell the rows (gathered from every
partition) are sorted and counted exactly (:func:`polyroc._engine.ranking.count_wins`);
within a point cell all scores tie, so k and j share ``W_k W_j / 2``. Summed,
these are exactly the pairwise wins of the whole column, ties included, as
one sort of all the rows would count them.

A point cell needs only its class weights, so heavy ties on a sample quantile
(scores of exactly 0 or 1) are never moved between workers.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from polyroc._engine.ranking import count_wins
from polyroc.dask._poisson import poisson_multiplicities
from polyroc.dask._rows import PartitionRows

#: Entries of a sort task's weight batch (rows x replicates) at a time.
BATCH_ENTRIES = 2**23


@dataclass(frozen=True)
class Axis:
    """One ranking: score column ``column`` against the true classes, or (None) the raveled cells."""

    column: int | None
    n_classes: int

    @property
    def n_codes(self) -> int:
        return 2 if self.column is None else self.n_classes

    @property
    def positive(self) -> int:
        return 1 if self.column is None else self.column

    def entries(self, rows: PartitionRows, sampled_rows=None):
        """Scores, codes, weights (or None), row ids (or None) and which are sampled (given ``sampled_rows``).

        Only entries of positive weight are kept.
        """
        m = self.n_classes
        if self.column is None:
            values = rows.scores.ravel()
            codes = (rows.codes[:, None] == np.arange(m)).ravel().astype(np.uint8)
            weights = None if rows.weights is None else np.repeat(rows.weights, m)
            ids = None if rows.row_ids is None else np.repeat(rows.row_ids, m)
            sampled = None if sampled_rows is None else np.repeat(sampled_rows, m)
        else:
            values, codes, weights, ids = rows.scores[:, self.column], rows.codes, rows.weights, rows.row_ids
            sampled = sampled_rows
        if rows.score_dtype.kind == "f" and rows.score_dtype.itemsize < 8:
            values = values.astype(rows.score_dtype)  # exact: the scores were given in this dtype
        if weights is not None:
            kept = weights > 0
            values, codes, weights = values[kept], codes[kept], weights[kept]
            ids = None if ids is None else ids[kept]
            sampled = None if sampled is None else sampled[kept]
        return values, codes, weights, ids, sampled


def sample_values(values: np.ndarray, size: int) -> np.ndarray:
    """Up to ``size`` of ``values`` at evenly spaced positions (a deterministic sample)."""
    if values.size <= size:
        return values.copy()
    return values[np.linspace(0, values.size - 1, size).astype(np.intp)]


def quantile_edges(sample: np.ndarray, n_groups: int) -> np.ndarray:
    """Distinct sample quantiles at levels 1/G, ..., (G-1)/G: the edges of at most G open cells."""
    if n_groups <= 1 or sample.size == 0:
        return np.empty(0, dtype=sample.dtype)
    levels = np.arange(1, n_groups) / n_groups
    return np.unique(np.quantile(sample, levels, method="inverted_cdf"))


@dataclass(frozen=True)
class Replicates:
    """Poisson bootstrap replicates ``numbers`` of seed ``seed`` (row ids required)."""

    seed: int
    numbers: np.ndarray


def _weight_batch(weights, ids, replicates):
    """Weights (n, b) of the entries in the replicates (times the sample weights)."""
    batch = poisson_multiplicities(replicates.seed, ids, replicates.numbers).T.astype(np.float64)
    if weights is not None:
        batch *= weights[:, None]
    return batch


def _class_weights(codes, weights, n_codes, batch=None):
    """Weight of each code, (n_codes,) or (n_codes, b) with a weight batch."""
    if batch is not None:
        return np.stack([np.bincount(codes, weights=column, minlength=n_codes) for column in batch.T], axis=1)
    return np.bincount(codes, weights=weights, minlength=n_codes).astype(np.float64)


class Piece(NamedTuple):
    """A partition's entries in one open cell: scores, codes, weights (or None), row ids (or None),
    and the positions and row ids of the entries sampled for DeLong's variance (or None)."""

    values: np.ndarray
    codes: np.ndarray
    weights: np.ndarray | None
    ids: np.ndarray | None
    sampled: np.ndarray | None
    sampled_ids: np.ndarray | None


def split_by_cell(rows: PartitionRows, axis: Axis, edges: np.ndarray, groups: range, replicates=None, placements=None):
    """A partition's share of a pass: the weights of its cells and its entries in each open cell of ``groups``.

    Returns ``(totals, pieces, tied)``. Without replicates ``totals`` is the
    (2 n_edges + 1, n_codes) weight of each code in every cell, in score
    order (open cell 0, the point cell of edge 0, open cell 1, ...); with
    replicates, only when ``groups`` starts at 0, the (n_edges, n_codes, b)
    weights on the edges (else None). ``pieces``: one :class:`Piece` per open
    cell of ``groups``; with ``placements`` (a :class:`~polyroc.dask._delong.PlacementPlan`)
    each piece says which of its entries are in DeLong's sample, and (when
    ``groups`` starts at 0) ``tied`` gives the sampled entries on an edge
    (edge index, row ids, codes, weights), else None.
    """
    sampled_rows = None if placements is None else placements.sampled_rows(rows)
    values, codes, weights, ids, sampled = axis.entries(rows, sampled_rows)
    # the cell's group as the smallest integer type: numpy's stable argsort of small integers is a radix sort
    low = np.searchsorted(edges, values, side="left").astype(np.min_scalar_type(edges.size))
    on_edge = edges[np.minimum(low, max(edges.size - 1, 0))] == values if edges.size else np.zeros(values.size, bool)
    totals = None
    if replicates is None:
        cells = 2 * low.astype(np.intp) + on_edge
        size = (2 * edges.size + 1) * axis.n_codes
        flat = np.bincount(cells * axis.n_codes + codes, weights=weights, minlength=size)
        totals = flat.reshape(2 * edges.size + 1, axis.n_codes).astype(np.float64)
    elif groups.start == 0:
        at = on_edge
        cell_codes = low[at] * axis.n_codes + codes[at]
        size = edges.size * axis.n_codes
        batch = _weight_batch(None if weights is None else weights[at], ids[at], replicates)
        totals = _class_weights(cell_codes, None, size, batch).reshape(edges.size, axis.n_codes, batch.shape[1])
    tied = None
    if sampled is not None and groups.start == 0:
        at = np.flatnonzero(on_edge & sampled)
        tied = (low[at], ids[at], codes[at], None if weights is None else weights[at])
    inside = ~on_edge & (low >= groups.start) & (low < groups.stop)
    order = np.flatnonzero(inside)
    order = order[np.argsort(low[order], kind="stable")]
    bounds = np.searchsorted(low[order], np.arange(groups.start, groups.stop + 1))
    pieces = []
    for start, stop in itertools.pairwise(bounds):
        taken = order[start:stop]
        chosen = None if sampled is None else np.flatnonzero(sampled[taken])
        pieces.append(
            Piece(
                values[taken],
                codes[taken],
                None if weights is None else weights[taken],
                None if ids is None or replicates is None else ids[taken],
                chosen,
                None if chosen is None else ids[taken[chosen]],
            )
        )
    return totals, pieces, tied


def cell_offsets(partition_totals) -> np.ndarray:
    """The weight of each code in all the cells below each cell, (n_cells, n_codes), from every partition's totals."""
    totals = np.sum(partition_totals, axis=0)
    return np.cumsum(totals, axis=0) - totals


def cell_wins(pieces, axis: Axis, replicates=None, placements=None, below=None):
    """Class weights and wins of the positive class over each code within one open cell.

    Returns ``(totals, wins, sampled)``: totals and wins each (n_codes,), or
    (n_codes, b) with replicates; ``sampled`` the DeLong terms of the
    sampled entries (:meth:`~polyroc.dask._delong.PlacementPlan.terms`, given
    ``placements`` and ``below``, the weight of each code in the cells
    below this one), else None.
    """
    values = np.concatenate([piece.values for piece in pieces])
    codes = np.concatenate([piece.codes for piece in pieces])
    weighted = pieces[0].weights is not None
    weights = np.concatenate([piece.weights for piece in pieces]) if weighted else None
    order = np.argsort(values)
    values, codes = values[order], codes[order]
    weights = None if weights is None else weights[order]
    if replicates is None:
        totals = _class_weights(codes, weights, axis.n_codes)
        wins = count_wins(values, codes, weights, axis.positive, axis.n_codes)
        sampled = None
        if placements is not None:
            starts = np.cumsum([0, *(piece.values.size for piece in pieces[:-1])])
            positions = np.concatenate([start + piece.sampled for start, piece in zip(starts, pieces)])
            rank = np.empty(order.size, dtype=np.intp)
            rank[order] = np.arange(order.size)
            ids = np.concatenate([piece.sampled_ids for piece in pieces])
            sampled = placements.terms(axis, values, codes, weights, rank[positions], ids, below)
        return totals, wins, sampled
    ids = np.concatenate([piece.ids for piece in pieces])[order]
    step = max(1, BATCH_ENTRIES // max(values.size, 1))
    totals, wins = [], []
    for start in range(0, replicates.numbers.size, step):
        chunk = Replicates(replicates.seed, replicates.numbers[start : start + step])
        batch = _weight_batch(weights, ids, chunk)
        totals.append(_class_weights(codes, None, axis.n_codes, batch))
        wins.append(count_wins(values, codes, batch, axis.positive, axis.n_codes))
    return np.concatenate(totals, axis=1), np.concatenate(wins, axis=1), None


def cell_runs(pieces, axis: Axis, replicates=None, placements=None, below=None):
    """The distinct scores of one open cell, ascending, with the weight of the positive code and of the others.

    Returns ``(scores, positives, negatives)``; the other arguments are those
    of :func:`cell_wins` and are not used.
    """
    values = np.concatenate([piece.values for piece in pieces])
    codes = np.concatenate([piece.codes for piece in pieces])
    weights = np.concatenate([piece.weights for piece in pieces]) if pieces[0].weights is not None else None
    distinct, inverse = np.unique(values, return_inverse=True)
    w = np.ones(values.size) if weights is None else weights
    positive = codes == axis.positive
    positives = np.bincount(inverse, weights=np.where(positive, w, 0.0), minlength=distinct.size)
    negatives = np.bincount(inverse, weights=np.where(positive, 0.0, w), minlength=distinct.size)
    return distinct, positives, negatives


def combine_cells(open_cells, totals, axis: Axis):
    """Wins of the positive class over each code on the whole axis, from every cell, in score order.

    ``open_cells`` is the list of (totals, wins, ...) of the open cells in
    order; ``totals`` the summed weights of every cell (n_cells, n_codes), or
    with replicates those of the point cells (n_edges, n_codes, b).
    Returns (wins, class weights): wins (n_codes[, b]).
    """
    points = totals[1::2] if totals.ndim == 2 else totals
    n_cells = len(open_cells) + points.shape[0]
    shape = (n_cells, *points.shape[1:])
    cells = np.zeros(shape)
    within = np.zeros(shape)
    cells[0::2] = np.stack([cell[0] for cell in open_cells])
    within[0::2] = np.stack([cell[1] for cell in open_cells])
    cells[1::2] = points
    within[1::2] = 0.5 * points[:, axis.positive][:, None] * points
    below = np.cumsum(cells, axis=0) - cells
    wins = within.sum(axis=0) + (cells[:, axis.positive][:, None] * below).sum(axis=0)
    return wins, cells.sum(axis=0)
