"""Target priors in a stream: per-class statistics, reweighted when the evaluated class shares are known.

:func:`polyroc.evaluate` weights each row of class k by ``pi'_k / pi_k``
(:mod:`polyroc.evaluation._priors`), ``pi`` the weighted class shares of the
rows. A stream knows ``pi`` only when it is computed, so
:class:`ClassSummaries` keeps the summary statistics of each true class
apart and multiplies them by their class's factor then. Every statistic is
a sum over rows of a weight (or its square) times a function of the row, so
scaling the weights of one class by a constant scales its sums by that
constant (or its square): the confusion counts, the weight and loss moments,
the smallest and largest weights, and the calibration bins, which mix the
classes (the top-label bins, each class column's bins and the cross moments
of the class columns) and so are kept per true class. The AUCs scale per
class pair from the ranking's wins (:meth:`RankingAccumulator._aucs`,
:func:`polyroc._engine.sorted_runs.micro_wins` with ``factors``). The result
equals :func:`polyroc.evaluate` with ``target_priors`` on the same rows, up
to the order of floating-point sums.

Memory: m summaries in place of one. Each holds m^2 counts, a few
numbers per class and loss, 6 (m + 1) 15 bin totals and, up to 32 classes,
the (15 m)^2 cross moments, so the extra state is about ``1800 m^3`` bytes
(1.8 MB for 10 classes, 59 MB for 32).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from polyroc.evaluation._calibration import CalibrationBins
from polyroc.evaluation._priors import Deployment, prior_factors
from polyroc.evaluation._summary import SummaryStatistics
from polyroc.intervals._moments import ClassMoments

__all__ = ["ClassSummaries", "scaled_bins", "summary_nbytes"]


def summary_nbytes(summary: SummaryStatistics) -> int:
    """Bytes held by the arrays of a summary."""
    moments = (array for class_moments in summary.losses.values() for array in vars(class_moments).values())
    arrays = (summary.counts, summary.smallest, summary.largest, *moments, *summary.calibration_bins.arrays())
    return sum(int(array.nbytes) for array in arrays)


def scaled_bins(column_bins: np.ndarray, factors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A binned ranking's per-class bins (m, n_bins, m) with class k's weights times ``factors[k]``, and its cells.

    The cells (n_bins, 2) are the negative and the positive cells of the
    raveled problem per bin: column j's positives are its rows of class j.

    >>> bins = np.array([[[1.0, 2.0], [0.0, 1.0]], [[3.0, 0.0], [1.0, 1.0]]])
    >>> column_bins, cells = scaled_bins(bins, np.array([2.0, 0.5]))
    >>> cells.tolist()
    [[7.0, 2.0], [2.5, 0.5]]
    """
    column_bins = column_bins * factors
    m = factors.size
    positives = column_bins[np.arange(m), :, np.arange(m)].sum(axis=0)
    negatives = column_bins.sum(axis=(0, 2)) - positives
    return column_bins, np.stack([negatives, positives], axis=1)


def _scaled_moments(moments: ClassMoments, factor: float) -> ClassMoments:
    """The moments of one class's rows with every weight times ``factor``."""
    kept = 1.0 if factor > 0 else 0.0  # a factor 0 takes the rows out, as rows of weight 0
    return ClassMoments(
        rows=moments.rows * kept,
        weight=moments.weight * factor,
        weighted_sum=moments.weighted_sum * factor,
        square=moments.square * factor**2,
        square_mean=moments.square_mean * kept,
        square_spread=moments.square_spread * factor**2,
    )


def _scaled_calibration(bins: CalibrationBins, factor: float) -> CalibrationBins:
    """The bin totals of one class's rows with every weight times ``factor``.

    A bin of one row keeps the square of its weight exactly (its effective
    size is 1, as that of the reweighted row): the bin draws take another
    gamma sampler at a concentration of exactly 1, so a last-bit difference
    there would change every draw after it.
    """
    kept = 1.0 if factor > 0 else 0.0
    square = factor**2
    weight = bins.weight * factor
    return CalibrationBins(
        rows=bins.rows * kept,
        weight=weight,
        score=bins.score * factor,
        hits=bins.hits * factor,
        square=np.where(bins.rows == 1, weight * weight, bins.square * square),
        spread=bins.spread * square,
        cross=bins.cross * square,
        sampled=bins.sampled * kept,
    )


def _scaled(summary: SummaryStatistics, factor: float) -> SummaryStatistics:
    """The statistics of one class's rows with every weight times ``factor`` (weighted rows, then)."""
    positive = factor > 0
    return SummaryStatistics(
        summary.n_classes,
        summary.counts * factor,
        summary.smallest * factor if positive else np.full(summary.n_classes, np.inf),
        summary.largest * factor,
        {name: _scaled_moments(moments, factor) for name, moments in summary.losses.items()},
        True,
        _scaled_calibration(summary.calibration_bins, factor),
    )


@dataclass(frozen=True)
class ClassSummaries:
    """The :class:`SummaryStatistics` of the rows of each true class, apart (``per_class[k]``: class k's rows)."""

    per_class: tuple[SummaryStatistics, ...]

    @classmethod
    def empty(cls, n_classes: int, losses: tuple[str, ...] = ()) -> ClassSummaries:
        """Statistics of no rows (``losses`` as :meth:`SummaryStatistics.empty`)."""
        return cls(tuple(SummaryStatistics.empty(n_classes, losses) for _ in range(n_classes)))

    def added(
        self, y: np.ndarray, scores: np.ndarray, weights: np.ndarray | None, losses: dict[str, np.ndarray]
    ) -> ClassSummaries:
        """These statistics and those of checked rows (class codes, float64 scores, weights or None, per-row losses)."""
        found = list(self.per_class)
        for k in np.unique(y):
            rows = y == k
            batch = SummaryStatistics.of(
                y[rows],
                scores[rows],
                None if weights is None else weights[rows],
                {name: values[rows] for name, values in losses.items()},
            )
            found[k] = found[k].merged(batch)
        return ClassSummaries(tuple(found))

    def merged(self, other: ClassSummaries) -> ClassSummaries:
        """The statistics of both sets of rows."""
        return ClassSummaries(tuple(mine.merged(theirs) for mine, theirs in zip(self.per_class, other.per_class)))

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return sum(summary_nbytes(summary) for summary in self.per_class)

    def totals(self) -> np.ndarray:
        """The weight of each class's rows."""
        return np.array([summary.counts[k].sum() for k, summary in enumerate(self.per_class)])

    def at_priors(self, deployment: Deployment) -> tuple[SummaryStatistics, Deployment, np.ndarray]:
        """The statistics of the rows reweighted to ``deployment.priors``, the deployment with the shares, the factors.

        Raises
        ------
        ValueError
            If no weighted row was added, or a class of positive target
            prior has no row of positive weight (as :func:`polyroc.evaluate`).
        """
        assert deployment.priors is not None  # kept only under target priors
        totals = self.totals()
        if not totals.any():
            raise ValueError("no weighted rows were added: the scores are undefined")
        factors, shares = prior_factors(totals, deployment.priors, deployment.classes)
        scaled = (_scaled(summary, float(factor)) for summary, factor in zip(self.per_class, factors))
        summary = functools.reduce(SummaryStatistics.merged, scaled)
        return summary, Deployment(deployment.classes, deployment.costs, deployment.priors, shares), factors
