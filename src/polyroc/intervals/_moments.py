"""Per-class moments of a per-row value under weights: what the mean of a loss and its interval are made of.

:class:`ClassMoments` holds the additive moments of one per-row value by true
class; two sets of rows merge by Chan's pairwise update, so the moments of
batches and partitions add up to those of all rows, and the classes pool into
one stratum the same way (:meth:`ClassMoments.pooled`, the moments of the
plain variance). Kish's effective
sizes are :mod:`polyroc._engine.effective_sizes`'.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class ClassMoments:
    """Per-class moments of a per-row value v under weights w (rows of positive weight only).

    ``rows``: number of rows; ``weight``: sum of w; ``weighted_sum``: sum of
    w v; ``square``: sum of w^2; ``square_mean``: sum of w^2 v / sum of w^2;
    ``square_spread``: sum of w^2 (v - square_mean)^2. The last three merge
    by Chan's update, which keeps the spread accurate when the mean is large.
    """

    rows: np.ndarray
    weight: np.ndarray
    weighted_sum: np.ndarray
    square: np.ndarray
    square_mean: np.ndarray
    square_spread: np.ndarray

    @classmethod
    def of(cls, values: np.ndarray, codes: np.ndarray, n_classes: int, weights: np.ndarray | None) -> ClassMoments:
        """Moments of ``values`` per class code (rows of weight 0 left out)."""
        if weights is None:
            weights = np.ones(values.shape[0])
        else:
            kept = weights > 0
            values, codes, weights = values[kept], codes[kept], weights[kept]
        squares = weights * weights

        def per_class(x):
            return np.bincount(codes, weights=x, minlength=n_classes)

        square = per_class(squares)
        with np.errstate(invalid="ignore", divide="ignore"):
            square_mean = np.nan_to_num(per_class(squares * values) / square)
        spread = per_class(squares * (values - square_mean[codes]) ** 2)
        return cls(
            rows=np.bincount(codes, minlength=n_classes).astype(np.float64),
            weight=per_class(weights),
            weighted_sum=per_class(weights * values),
            square=square,
            square_mean=square_mean,
            square_spread=spread,
        )

    def merged(self, other: ClassMoments) -> ClassMoments:
        """The moments of both sets of rows."""
        square = self.square + other.square
        with np.errstate(invalid="ignore", divide="ignore"):
            share = np.where(square > 0, other.square / square, 0.0)
        delta = other.square_mean - self.square_mean
        return ClassMoments(
            rows=self.rows + other.rows,
            weight=self.weight + other.weight,
            weighted_sum=self.weighted_sum + other.weighted_sum,
            square=square,
            square_mean=self.square_mean + delta * share,
            square_spread=self.square_spread + other.square_spread + delta * delta * self.square * share,
        )

    def pooled(self) -> ClassMoments:
        """The moments of all rows as one class (one stratum): the spread is the within-class plus the between-class.

        ``square_spread`` of the pool is ``sum_c square_spread_c + sum_c
        square_c (square_mean_c - square_mean)^2``, Chan's update over the
        classes, so the pool of merged moments is the moments of the merged
        rows taken as one class.
        """
        square = self.square.sum(keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            square_mean = np.nan_to_num((self.square * self.square_mean).sum(keepdims=True) / square)
        between = (self.square * (self.square_mean - square_mean) ** 2).sum(keepdims=True)
        return ClassMoments(
            rows=self.rows.sum(keepdims=True),
            weight=self.weight.sum(keepdims=True),
            weighted_sum=self.weighted_sum.sum(keepdims=True),
            square=square,
            square_mean=square_mean,
            square_spread=self.square_spread.sum(keepdims=True) + between,
        )

    def mean(self) -> float:
        """The weighted mean of v over all rows."""
        return float(self.weighted_sum.sum() / self.weight.sum())

    def influence_spread(self, mean: float) -> np.ndarray:
        """Per class, ``sum (D_s - mean_c D)^2`` of the influences ``D_s = w_s (v_s - mean) / W``.

        It is ``sum D_s^2 - (sum D_s)^2 / n_c``; a difference below the
        rounding error of its terms (``4 n_c eps sum D_s^2``, the error bound
        of sums of n_c terms) is 0: the influences do not vary, as when every
        row of the class has the same value and weight, and rounding alone
        would give a spread of order ``sqrt(eps)`` on the scale of the interval.
        """
        total = self.weight.sum()
        squares = (self.square_spread + self.square * (self.square_mean - mean) ** 2) / (total * total)
        sums = (self.weighted_sum - mean * self.weight) / total
        with np.errstate(invalid="ignore", divide="ignore"):
            spread = squares - sums * sums / self.rows
        rounding = 4 * self.rows * np.finfo(np.float64).eps * squares
        return np.where((self.rows > 0) & (spread > rounding), spread, 0.0)
