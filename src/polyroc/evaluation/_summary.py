"""Additive statistics of scored rows, from which an :class:`~polyroc.Evaluation` is built without the rows.

:class:`SummaryStatistics` holds, per true class, the weighted confusion
counts of the argmax rule, the weight moments that give Kish's effective
sizes, and the moments of each per-row loss that give its mean and the
variance of that mean (stratified by class, or plain: the classes pooled). Two summaries of disjoint rows merge by
addition (the loss moments by Chan's pairwise update), so batches and
partitions can be summarised apart. :func:`evaluation_fields` turns a summary
and the AUCs into the fields of the :class:`~polyroc.Evaluation` that
:func:`polyroc.evaluate` gives for the same rows: the same scores, report and,
for the quantities whose intervals rest on these statistics (Wilson and
Clopper–Pearson proportions, the Dirichlet posterior, the t interval of the
losses), the same intervals.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from polyroc._engine.counts import confusion_counts
from polyroc._engine.effective_sizes import effective_sizes
from polyroc.counts import f1, get_metric, precision, recall
from polyroc.evaluation._calibration import CalibrationBins
from polyroc.intervals._moments import ClassMoments
from polyroc.intervals._resampling import ConfidenceInterval
from polyroc.metrics._report import report_of_counts
from polyroc.metrics._scores import sample_brier_losses, sample_log_losses, sample_top_k_hits

__all__ = ["SummaryStatistics", "evaluation_fields"]

#: Counts metrics of the summary, by their name in :data:`polyroc.counts.METRICS`.
COUNTS_SCORES = ("accuracy", "balanced_accuracy", "f1_macro", "cohen_kappa", "matthews_corrcoef")

#: Per-class scores that get intervals (argmax predictions, zero_division 0).
CLASS_SCORES = {"precision": precision, "recall": recall, "f1-score": f1}


@dataclass
class SummaryStatistics:
    """Mergeable statistics of scored rows: confusion counts, weight moments and per-row loss moments.

    ``counts``: (m, m) weight of (true, argmax) pairs. ``smallest`` and
    ``largest``: per class, the smallest positive and the largest weight
    (equal positive weights give Kish's size as a row count exactly).
    ``losses``: each per-row score of :func:`row_losses` -> its
    :class:`ClassMoments`. ``weighted``: whether sample weights were given.
    ``bins``: the totals of the calibration bins (top-label and each class
    column, 15 uniform bins), which give the ECEs.
    """

    n_classes: int
    counts: np.ndarray
    smallest: np.ndarray
    largest: np.ndarray
    losses: dict[str, ClassMoments] = field(default_factory=dict)
    weighted: bool = False
    bins: CalibrationBins | None = None

    def __post_init__(self) -> None:
        if self.bins is None:
            self.bins = CalibrationBins.empty(self.n_classes)

    @classmethod
    def of(
        cls, y: np.ndarray, scores: np.ndarray, weights: np.ndarray | None, losses: dict[str, np.ndarray]
    ) -> SummaryStatistics:
        """Statistics of checked rows: class codes, float64 scores (n, m), weights or None, :func:`row_losses`."""
        n_classes = scores.shape[1]
        counts = confusion_counts(y, np.argmax(scores, axis=1), n_classes, weights).astype(np.float64)
        if weights is None:
            present = np.bincount(y, minlength=n_classes) > 0
            smallest, largest = np.where(present, 1.0, np.inf), np.where(present, 1.0, 0.0)
        else:
            largest = np.zeros(n_classes)
            np.maximum.at(largest, y, weights)
            smallest = np.full(n_classes, np.inf)
            positive = weights > 0
            np.minimum.at(smallest, y[positive], weights[positive])
        moments = {name: ClassMoments.of(values, y, n_classes, weights) for name, values in losses.items()}
        bins = CalibrationBins.of(y, scores, weights)
        return cls(n_classes, counts, smallest, largest, moments, weights is not None, bins)

    @classmethod
    def empty(cls, n_classes: int, losses: tuple[str, ...] = ()) -> SummaryStatistics:
        """Statistics of no rows; ``losses`` names the losses beyond those of :func:`row_losses`."""
        zeros = np.zeros(n_classes)
        moments = ClassMoments(*(zeros.copy() for _ in range(6)))
        names = ("log_loss", "brier_score", *(("top_2_accuracy",) if n_classes > 2 else ()), *losses)
        return cls(
            n_classes,
            np.zeros((n_classes, n_classes)),
            np.full(n_classes, np.inf),
            zeros.copy(),
            dict.fromkeys(names, moments),
        )

    def merged(self, other: SummaryStatistics) -> SummaryStatistics:
        """The statistics of both sets of rows."""
        return SummaryStatistics(
            self.n_classes,
            self.counts + other.counts,
            np.minimum(self.smallest, other.smallest),
            np.maximum(self.largest, other.largest),
            {name: moments.merged(other.losses[name]) for name, moments in self.losses.items()},
            self.weighted or other.weighted,
            self.calibration_bins.merged(other.calibration_bins),
        )

    @property
    def calibration_bins(self) -> CalibrationBins:
        """The totals of the calibration bins."""
        assert self.bins is not None  # set by __post_init__
        return self.bins

    @property
    def class_moments(self) -> ClassMoments:
        """Weight moments per class (those of any loss)."""
        return next(iter(self.losses.values()))

    def effective_sizes(self) -> np.ndarray:
        """Kish's effective size of each class (its row count when its positive weights are equal)."""
        moments = self.class_moments
        return effective_sizes(moments.rows, moments.weight, moments.square, self.smallest, self.largest)

    def effective_size(self) -> float:
        """Kish's effective size of all rows."""
        moments = self.class_moments
        return float(
            effective_sizes(
                moments.rows.sum(),
                moments.weight.sum(),
                moments.square.sum(),
                self.smallest.min(),
                self.largest.max(),
            )
        )


def row_losses(y: np.ndarray, scores: np.ndarray, eps: float) -> dict[str, np.ndarray]:
    """Per-row loss of each score-based metric of the summary; the metric is its weighted mean.

    The log loss clips at ``eps``, as :func:`polyroc.metrics.log_loss` with ``eps="auto"``.
    """
    losses = {
        "log_loss": sample_log_losses(y, scores, eps),
        "brier_score": sample_brier_losses(y, scores),
    }
    if scores.shape[1] > 2:
        losses["top_2_accuracy"] = sample_top_k_hits(y, scores, 2).astype(np.float64)
    return losses


def counts_scores(counts):
    """The counts metrics of counts (..., m, m), each of shape (...)."""
    return {name: get_metric(name)(counts) for name in COUNTS_SCORES}


def class_scores(counts):
    """Per-class precision, recall and F1 of counts (..., m, m), each of shape (..., m)."""
    return {name: score(counts, average=None, zero_division=0.0) for name, score in CLASS_SCORES.items()}


def class_score(name):
    """The per-class score ``name`` of :data:`CLASS_SCORES` (average=None, zero_division 0) of counts."""
    return functools.partial(CLASS_SCORES[name], average=None, zero_division=0.0)


def summary_values(summary: SummaryStatistics) -> dict[str, float]:
    """The counts metrics, the mean losses and the ECEs of a summary."""
    values = {name: float(value) for name, value in counts_scores(summary.counts).items()}
    values.update({name: moments.mean() for name, moments in summary.losses.items()})
    values.update(summary.calibration_bins.errors())
    return values


def evaluation_fields(
    summary: SummaryStatistics,
    classes: np.ndarray,
    values: dict[str, float],
    intervals: dict[str, ConfidenceInterval],
    class_intervals: dict[str, dict[Any, ConfidenceInterval]],
    *,
    settings: dict[str, Any],
    digits: int = 3,
    restore: Callable[[np.ndarray], np.ndarray] | None = None,
) -> dict[str, Any]:
    """The fields of the :class:`~polyroc.Evaluation` of a summary, its scores in the order of :func:`polyroc.evaluate`.

    ``Evaluation(**evaluation_fields(...))`` is the evaluation: this module,
    below :mod:`polyroc.evaluation`, computes what the evaluation holds and
    does not name its class. ``restore`` maps the counts of ``summary`` (of
    scaled weights) back to the given weights for the confusion matrix and
    the report's supports.
    """
    names = [str(c) for c in classes]
    report = functools.partial(
        report_of_counts, summary.counts, names, weighted=summary.weighted, zero_division=0.0, restore=restore
    )
    counts = summary.counts if restore is None else restore(summary.counts)
    return {
        "classes": tuple(classes.tolist()),
        "confusion_matrix": counts if summary.weighted else counts.astype(np.int64),
        "report": report(output_dict=True),
        "report_text": report(digits=digits),
        "scores": values,
        "intervals": intervals,
        "class_intervals": class_intervals,
        "settings": settings,
    }
