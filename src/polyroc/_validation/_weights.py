"""Checks of sample weights and their exact power-of-two scaling.

:func:`check_sample_weight` is polyroc's rule; :func:`check_sample_weight_sklearn`
adds scikit-learn's refusal of complex weights (a ``ValueError``) for the
functions of :mod:`polyroc.metrics`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation._arrays import as_array, numeric_array


def check_sample_weight(sample_weight, n_samples, name="sample_weight"):
    """Return the weights as float64 (or None), after checking length and values (messages name ``name``)."""
    if sample_weight is None:
        return None
    weights = numeric_array(name, as_array(name, sample_weight))
    if weights.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {weights.dtype}")
    weights = weights.astype(np.float64)
    if weights.ndim != 1 or weights.shape[0] != n_samples:
        raise ValueError(f"{name} must have shape ({n_samples},) to match the samples, got {weights.shape}")
    if not np.all(np.isfinite(weights)):
        raise ValueError(f"{name} contains NaN or infinity")
    if np.any(weights < 0):
        row = int(np.flatnonzero(weights < 0)[0])
        raise ValueError(f"{name} must be non-negative (index {row} is {weights[row]})")
    with np.errstate(over="ignore"):
        total = weights.sum()  # of finite non-negative weights: 0 exactly when every weight is 0
    if total == 0:
        raise ValueError(f"{name} sums to zero; at least one sample must have weight")
    check_weight_total(name, total)
    return weights


def check_weight_total(name, total):
    """Raise unless the total ``total`` of the weights ``name`` is finite (non-negative weights: no overflow).

    Weighted counts (a confusion matrix, a support) are sums of the weights
    in their own units; a total past the float64 range would reach the
    scores as infinity, far from its cause.
    """
    if not np.isfinite(total):
        raise ValueError(
            f"{name} sums past the largest float64 ({np.finfo(np.float64).max:.4g}): their total overflows; "
            "weights are relative, so divide them by a common factor (e.g. their maximum)"
        )


class ScaledWeights(NamedTuple):
    """Sample weights divided by 2**exponent, so that the largest lies in [0.5, 1).

    Made by :func:`scale_weights`, which leaves the weights as given (exponent
    0) when the division would not be exact.

    Weights mean relative importance: every ratio of weighted counts is
    unchanged by the scaling, since a power of two multiplies exactly (integer
    weights stay exact relative to each other, and equal repeated rows bit for
    bit). Accumulating the scaled weights keeps sums, squares and products of
    sums far from overflow and underflow whatever the scale of the input
    (1e-300 or 1e300). :meth:`restore` maps a weighted sum computed with the
    scaled weights back to the user's units, for outputs with scikit-learn's
    meaning of a weighted count (``confusion_matrix``, supports).
    """

    weights: np.ndarray | None
    exponent: int

    def restore(self, sums):
        """Weighted sums of the scaled weights, in the units of the given weights (exact)."""
        return sums if self.weights is None else np.ldexp(sums, self.exponent)


def scale_weights(weights):
    """Divide checked weights (or None) by the power of two that puts their maximum in [0.5, 1).

    The scaling is used only if it is exact for every weight; weights spanning
    more than the normal float64 range (the smallest positive one below about
    2**-1021 times the largest, where the scaling would round it or make it
    0) are left as given.

    >>> scaled = scale_weights(np.array([3.0, 1e300]))
    >>> float(scaled.weights.max()) < 1 <= 2 * float(scaled.weights.max()), scaled.exponent
    (True, 997)
    >>> float(scaled.restore(scaled.weights.sum())) == 3.0 + 1e300
    True
    >>> scale_weights(np.array([1.0, 5e-324])).exponent  # 5e-324 / 2 would be 0
    0
    """
    if weights is None:
        return ScaledWeights(None, 0)
    exponent = int(np.frexp(weights.max())[1])
    scaled = np.ldexp(weights, -exponent)
    if not np.array_equal(np.ldexp(scaled, exponent), weights):
        return ScaledWeights(weights, 0)
    return ScaledWeights(scaled, exponent)


def with_scaled_weights(targets):
    """The same targets with their weights scaled by :func:`scale_weights`, for scale-free results."""
    return targets._replace(sample_weight=scale_weights(targets.sample_weight).weights)


def check_sample_weight_sklearn(sample_weight: ArrayLike | None, n_samples: int) -> np.ndarray | None:
    """Checked weights (non-negative, positive sum, one per sample) or None; complex ones a ValueError.

    :func:`check_sample_weight` with scikit-learn's error for complex weights
    (a ``ValueError``, where polyroc's own functions raise ``TypeError``).
    """
    if sample_weight is None:
        return None
    if as_array("sample_weight", sample_weight).dtype.kind == "c":
        raise ValueError("sample_weight must be real, got complex numbers")
    return check_sample_weight(sample_weight, n_samples)
