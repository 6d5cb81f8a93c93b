"""The binned calibration errors of :func:`polyroc.evaluate`: mergeable bin totals, their ECEs and intervals.

:class:`CalibrationBins` holds, for the top-label column and each class
column (:func:`polyroc._engine.binning.calibration_columns`), the totals of
the rows in each of the 15 uniform bins: rows of positive weight, weight,
weighted sums of scores and hits, and the sum of squared weights (Kish's
effective size of the bin). Uniform bins do not depend on the data, so the
totals of disjoint rows add up: batches and partitions are binned apart.
Their ECEs are those of :func:`polyroc.calibration.calibration_error`
(``norm="l1"``, ``n_bins=15``, ``strategy="uniform"``).

The interval (:func:`ece_intervals`) rests on the totals alone, so a stream
and a cluster give it too: the draws of the bins of
:mod:`polyroc.intervals._calibration_draws` (``"bin-draws"``), the classwise
draws scaled by the ratio of the delta-method standard deviations with and
without the cross moments of the class columns
(:meth:`CalibrationBins.design_factor`; the cross moments of pairs of columns
are summed over a fixed eighth of the rows, chosen by a hash of each row's
largest score and its class, so that their cost stays a fraction of the
binning's).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._engine.binning import BinTotals, ReplicateBinner, bin_rows, binned_errors
from polyroc.evaluation._plan import INTERVAL_METHODS
from polyroc.intervals._calibration_draws import ECE_METHOD, ECE_SCORES, ece_bounds

__all__ = ["ECE_BINS", "CalibrationBins", "ReplicateBins", "ece_intervals", "eces_of_sums"]

#: Uniform bins of the ECEs, as :func:`polyroc.calibration.calibration_error`'s default.
ECE_BINS = 15

#: Beyond this many classes the cross moments of the class columns (m^2 15^2 numbers) are not kept.
CROSS_CLASSES = 32

#: Scores binned at a time: blocks of ``BLOCK_SCORES // m`` rows, so that each temporary (2 MiB of float64)
#: stays in the caches and is not fetched afresh from the system for every block.
BLOCK_SCORES = 2**18


def block_rows(n_classes: int) -> int:
    """The rows of one block of :meth:`CalibrationBins.of`: :data:`BLOCK_SCORES` scores, at least one row.

    >>> block_rows(10), block_rows(10**6)
    (26214, 1)
    """
    return max(BLOCK_SCORES // max(n_classes, 1), 1)


_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9))


def _sampled_rows(scores: np.ndarray) -> np.ndarray:
    """Whether each row is in the fixed eighth of rows that the cross moments sum over: a hash of its scores.

    The hash is that of the row's largest score, on a grid of 2^-20, and of
    its column (the first largest), so that scores a rounding apart
    (rescaled rows, another dtype) almost always pick the same rows.
    """
    scores = np.asarray(scores, dtype=np.float64)
    predicted = scores.argmax(axis=1)
    return _sampled_of(scores[np.arange(scores.shape[0]), predicted], predicted)


def _sampled_of(top: np.ndarray, predicted: np.ndarray) -> np.ndarray:
    """:func:`_sampled_rows` from each row's largest score and its column."""
    grid = np.floor(top * 2.0**20).astype(np.uint64)
    grid += predicted.astype(np.uint64) << np.uint64(40)  # the column, as a salt
    return (_mixed(_mixed(grid)) >> np.uint64(61)) == 0


def _mixed(values: np.ndarray) -> np.ndarray:
    """A 64-bit mixing of each value (multiply, xor-shift)."""
    values = values * _MIX[0]
    values ^= values >> np.uint64(29)
    values *= _MIX[1]
    values ^= values >> np.uint64(32)
    return values


#: The method of the ECE intervals: the reading of the draws (``"union"`` of
#: :mod:`polyroc.intervals._calibration_draws`) and the bins' sizes.
_LABEL = f"{INTERVAL_METHODS[ECE_METHOD]} (Kish effective sizes)"


@dataclass
class CalibrationBins:
    """Per column (top-label, then each class: (1 + m, 15) arrays) and uniform bin: the totals of the rows.

    ``rows``: rows of positive weight; ``weight``: sum of weights;
    ``score`` and ``hits``: weighted sums of scores and hits; ``square``:
    sum of squared weights; ``spread``: sum of ``w^2 e^2``, ``e = hit -
    score``. ``cross`` (m, 15, m, 15): for each pair of distinct class columns
    and their bins, the sum of ``w^2 e_j e_k`` over a fixed eighth of the rows
    (those whose scores hash into it, whatever the batches), and
    ``sampled`` (1,) the number of those rows of positive weight; both empty
    beyond :data:`CROSS_CLASSES` classes.
    """

    rows: np.ndarray
    weight: np.ndarray
    score: np.ndarray
    hits: np.ndarray
    square: np.ndarray
    spread: np.ndarray
    cross: np.ndarray
    sampled: np.ndarray

    @classmethod
    def of(cls, y: np.ndarray, scores: np.ndarray, weights: np.ndarray | None) -> CalibrationBins:
        """The totals of checked rows: class codes (n,), float64 scores (n, m), weights or None.

        Blocks of about :data:`BLOCK_SCORES` scores at a time (:func:`block_rows`
        rows): the memory is a few arrays of that many scores.
        """
        found = cls.empty(scores.shape[1])
        rows = block_rows(scores.shape[1])
        with np.errstate(over="ignore"):  # squares of huge weights, as the loss moments'
            for start in range(0, y.size, rows):
                block = slice(start, start + rows)
                found._add(y[block], scores[block], None if weights is None else weights[block])
        return found

    @classmethod
    def empty(cls, n_classes: int) -> CalibrationBins:
        """The totals of no rows."""
        crossed = n_classes <= CROSS_CLASSES
        cross = np.zeros((n_classes, ECE_BINS) * 2 if crossed else (0,))
        shape = (n_classes + 1, ECE_BINS)
        rows, weight, score, hits, square, spread = (np.zeros(shape) for _ in range(6))
        return cls(rows, weight, score, hits, square, spread, cross, np.zeros(1 if crossed else 0))

    def _add(self, y: np.ndarray, scores: np.ndarray, weights: np.ndarray | None) -> None:
        """Add a block of rows: per total, one ``bincount`` of the top-label column and one of the class columns.

        The class columns are binned in the rows' own layout (row-major, no
        transpose): each bin belongs to one column, so its rows are summed in
        row order either way and the totals are those of column-major sums
        bit for bit; the top-label and class bins are disjoint, so adding the
        two ``bincount`` s is exact. The flat bin indices of the class columns
        are made once and serve every total and the cross moments; a row's
        entries of its largest score and of its class are reached by their
        flat positions (``i m + j``).
        """
        scores = np.ascontiguousarray(scores)  # the flat positions below are those of row-major rows
        n_rows, n_classes = scores.shape
        starts = np.arange(0, n_rows * n_classes, n_classes)  # flat position of each row's first entry
        own = starts + y  # ... and of its entry of its class
        predicted = scores.argmax(axis=1)
        largest = starts + predicted  # ... and of its largest score
        top = scores.ravel()[largest]
        top_hit = predicted == y
        flat_rows = bin_rows(scores.reshape(1, -1), ECE_BINS, "uniform", None)[0].reshape(-1)
        top_codes = flat_rows[largest]  # the top-label score's bin is that of its entry (before the offsets)
        flat = flat_rows.reshape(n_rows, n_classes)
        flat += np.arange(1, n_classes + 1) * ECE_BINS  # in place: column j + 1's bins
        size = (n_classes + 1) * ECE_BINS
        errors = np.negative(scores)  # e = hit - score, 1 - score at the row's class
        errors.reshape(-1)[own] += 1.0
        top_errors = top_hit - top
        # the hits' bins: the top-label column's hit rows, then each row in the column of its class
        hit_codes = np.concatenate((top_codes[top_hit], flat_rows[own]))

        def summed(top_values, values) -> np.ndarray:
            found = np.bincount(top_codes, weights=top_values, minlength=size)
            found += np.bincount(flat_rows, weights=values, minlength=size)
            return found.reshape(self.rows.shape)

        squared_top, squared = top_errors**2, errors.ravel() ** 2
        if weights is None:
            count = summed(None, None)
            self.rows += count
            self.weight += count
            self.square += count
            self.score += summed(top, scores.ravel())
            self.hits += np.bincount(hit_codes, minlength=size).reshape(self.rows.shape)
            self.spread += summed(squared_top, squared)
        else:
            row_weights = np.repeat(weights, n_classes)
            self.rows += summed(weights > 0, row_weights > 0)
            self.weight += summed(weights, row_weights)
            self.square += summed(weights * weights, row_weights * row_weights)
            self.score += summed(top * weights, scores.ravel() * row_weights)
            hit_weights = np.concatenate((weights[top_hit], weights))
            self.hits += np.bincount(hit_codes, weights=hit_weights, minlength=size).reshape(self.rows.shape)
            self.spread += summed(squared_top * weights * weights, squared * row_weights * row_weights)
        if self.cross.size:
            sampled = _sampled_of(top, predicted)
            if weights is not None:
                sampled &= weights > 0
            rows = np.flatnonzero(sampled)
            self._add_cross(
                None if weights is None else weights[rows],
                np.ascontiguousarray((flat[rows] - np.arange(1, n_classes + 1) * ECE_BINS).T),
                np.ascontiguousarray(errors[rows].T),
            )

    def _add_cross(self, weights, codes, errors) -> None:
        """The cross moments of the pairs of class columns over the sampled rows (m, k): one ``bincount`` per column."""
        if weights is not None:
            errors = errors * weights  # w e_j: each product carries w^2
        self.sampled += codes.shape[1]
        n_classes = codes.shape[0]
        block = ECE_BINS * ECE_BINS
        for j in range(n_classes - 1):
            others = n_classes - j - 1
            paired = codes[j] * ECE_BINS + codes[j + 1 :] + (np.arange(others) * block)[:, None]
            values = errors[j + 1 :] * errors[j]
            found = np.bincount(paired.ravel(), weights=values.ravel(), minlength=others * block)
            found = found.reshape(others, ECE_BINS, ECE_BINS)
            self.cross[j, :, j + 1 :, :] += found.transpose(1, 0, 2)
            self.cross[j + 1 :, :, j, :] += found.transpose(0, 2, 1)

    def merged(self, other: CalibrationBins) -> CalibrationBins:
        """The totals of both sets of rows."""
        return CalibrationBins(*(mine + theirs for mine, theirs in zip(self.arrays(), other.arrays())))

    def arrays(self) -> tuple[np.ndarray, ...]:
        """The arrays, in field order."""
        return self.rows, self.weight, self.score, self.hits, self.square, self.spread, self.cross, self.sampled

    def design_factor(self) -> float:
        """How much the dependence of the class columns widens the classwise ECE: ``sqrt(var / var_independent)``.

        The first-order (delta-method) variance of ``sum_j sum_b |E_jb|``
        (``E_jb`` the weighted sum of ``e_j`` in bin b) is that of the sum
        over the rows of ``u = w sum_j sign(E_jb(row)) e_j``; the factor
        compares it with the same variance when the columns are taken as
        independent. 1 without the cross moments or without spread.
        """
        if not self.cross.size or not self.sampled[0]:
            return 1.0
        signs = np.sign(self.hits[1:] - self.score[1:])
        sums = signs * (self.hits[1:] - self.score[1:])
        rows = max(float(self.rows[1].sum()), 1.0)
        # the pairs of distinct columns from the sampled rows, scaled up to all rows; each column's own exactly
        between = np.einsum("jb,jbkc,kc->", signs, self.cross, signs) * rows / self.sampled[0]
        independent = (signs * signs * self.spread[1:]).sum() - (sums.sum(axis=1) ** 2).sum() / rows
        full = independent + between - (sums.sum() ** 2 - (sums.sum(axis=1) ** 2).sum()) / rows
        if not (independent > 0 and full > 0):
            return 1.0
        return float(np.sqrt(full / independent))

    def totals(self) -> BinTotals:
        """The :class:`~polyroc._engine.binning.BinTotals` (1 + m, 15), with Kish's effective size of each bin."""
        with np.errstate(divide="ignore", invalid="ignore"):
            effective = np.where(self.weight > 0, self.weight * self.weight / self.square, 0.0)
        return BinTotals(self.rows, self.weight, self.score, self.hits, effective)

    def errors(self) -> dict[str, float]:
        """The ECEs: the l1 error of the top-label column, and the mean of the class columns' errors."""
        return dict(zip(ECE_SCORES, map(float, column_eces(binned_errors(self.totals(), "l1")))))


def column_eces(errors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-label and classwise ECEs (...,) of the errors of the columns (..., 1 + m)."""
    return errors[..., 0], errors[..., 1:].mean(axis=-1)


def ece_intervals(
    quantities: list[str],
    bins: CalibrationBins,
    values: dict[str, float],
    *,
    confidence: float,
    n_draws: int,
    rng: np.random.Generator,
    random_state: int | np.random.Generator | None,
):
    """The :class:`~polyroc.intervals.ConfidenceInterval` of each ECE of ``quantities`` (the library's rule)."""
    from polyroc.intervals._resampling import ConfidenceInterval

    totals, factor = bins.totals(), bins.design_factor()
    bounds = ece_bounds(totals, confidence=confidence, n_draws=n_draws, rng=rng, design_factor=factor)
    return {
        name: ConfidenceInterval.from_bounds(
            values[name],
            *bounds[name],
            confidence=confidence,
            interval_method=_LABEL,
            n_draws=n_draws,
            random_state=random_state,
        )
        for name in quantities
    }


class ReplicateBins:
    """The ECEs of many replicates (weight rows (b, n)) of fixed rows, by sparse products built once.

    The rows' bins in the top-label column and each class column are found
    once; a chunk of replicates then costs one sparse product of a
    :class:`polyroc._engine.binning.ReplicateBinner` (the weight, score and
    hit sums of every bin).
    """

    def __init__(self, y: np.ndarray, scores: np.ndarray) -> None:
        n_classes = scores.shape[1]
        predicted = scores.argmax(axis=1)
        columns = np.vstack((np.take_along_axis(scores, predicted[:, None], axis=1).T, scores.T))
        hits = np.vstack(((predicted == y)[None, :], y[None, :] == np.arange(n_classes)[:, None]))
        codes = bin_rows(columns, ECE_BINS, "uniform", None)[0]
        self.binner = ReplicateBinner.of(codes, columns, hits, ECE_BINS)

    def errors(self, rows: np.ndarray) -> dict[str, np.ndarray]:
        """``{"ece_top_label", "ece_classwise"}`` of each weight row of ``rows`` (b, n), each (b,)."""
        return eces_of_sums(self.sums(rows))

    def sums(self, rows: np.ndarray) -> np.ndarray:
        """The weight, score and hit sums of every bin under each weight row: (b, 3, 1 + m, 15), additive."""
        totals = self.binner.totals(rows, sizes=False)
        return np.stack([totals.weight, totals.score, totals.hits], axis=1)


def eces_of_sums(sums: np.ndarray) -> dict[str, np.ndarray]:
    """The ECEs of replicate sums (b, 3, 1 + m, 15) of :meth:`ReplicateBins.sums`."""
    weight, score, hits = sums[:, 0], sums[:, 1], sums[:, 2]
    totals = BinTotals(weight, weight, score, hits, weight)
    return dict(zip(ECE_SCORES, column_eces(binned_errors(totals, "l1"))))
