"""The one-dimensional Gini mean difference and Gini index, in O(n log n) by sorting.

With sample weights ``w`` (frequency weights: an integer weight counts as that
many repeated samples, as in scikit-learn) and total weight ``W = sum(w)``,

    Δ = sum over ordered pairs (a, b) of w_a w_b |x_a - x_b|  /  D,

with ``D = W (W - 1)`` (``norm="unbiased"``, the U-statistic estimate of
``E|X - X'|``; ``n (n - 1)`` without weights) or ``D = W**2`` (``norm="plugin"``).
The Gini index is ``G = Δ / (2 |μ|)`` with ``μ`` the weighted mean.

Sorted ascending, the pair sum is ``2 sum_i c_i x_(i)`` with
``c_i = w_(i) (2 C_i - w_(i) - W)`` and ``C_i`` the cumulative weight through
``i`` (``c_i = 2i - n - 1`` without weights). The coefficients sum to 0, so the
values are centred first to reduce cancellation.
"""

from __future__ import annotations

import numpy as np

from polyroc._validation import check_option, check_real_array, check_sample_weight

__all__ = ["gini_index", "gini_mean_difference"]

GINI_NORMS = ("unbiased", "plugin")


def gini_mean_difference(x, *, sample_weight=None, norm="unbiased"):
    """Gini mean difference: the mean absolute difference of two draws, in O(n log n).

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_columns)
        Finite values; a 2-D array gives one value per column.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    norm : {"unbiased", "plugin"}, default="unbiased"
        Divide the weighted sum over ordered pairs by ``W (W - 1)`` (the
        U-statistic, ``n (n - 1)`` without weights) or by ``W**2``.

    Returns
    -------
    float or ndarray of shape (n_columns,)

    Raises
    ------
    ValueError
        ``x`` not 1-D or 2-D, with NaN/infinity or fewer than 2 samples; bad
        ``sample_weight``; unknown ``norm``; ``norm="unbiased"`` with a total
        weight of at most 1.
    TypeError
        Non-numeric ``x`` or ``sample_weight``.

    Examples
    --------
    >>> gini_mean_difference([1.0, 2.0, 4.0])  # (1 + 3 + 2) * 2 / (3 * 2)
    2.0
    >>> gini_mean_difference([1.0, 2.0, 4.0], norm="plugin")  # 12 / 9
    1.3333333333333333
    >>> gini_mean_difference([1.0, 2.0], sample_weight=[2, 1])  # as [1, 1, 2]
    0.6666666666666666
    """
    values = check_real_array("x", x, ndims=(1, 2), min_samples=2)
    weights = check_sample_weight(sample_weight, values.shape[0])
    check_option("norm", norm, GINI_NORMS)
    columns = values.reshape(values.shape[0], -1)
    result = _ordered_pair_sum(columns, weights) / _pair_total(weights, columns.shape[0], norm)
    return float(result[0]) if values.ndim == 1 else result


def gini_index(x, *, sample_weight=None, norm="unbiased"):
    """Gini index ``Δ / (2 |μ|)``: the Gini mean difference over twice the absolute mean.

    For non-negative ``x`` it lies in [0, 1] (``"unbiased"``) or in
    [0, (n - 1) / n] (``"plugin"``); a constant non-zero vector gives 0.

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_columns)
        Finite values; a 2-D array gives one index per column.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative frequency weights.
    norm : {"unbiased", "plugin"}, default="unbiased"
        Normalisation of the mean difference (see :func:`gini_mean_difference`).

    Returns
    -------
    float or ndarray of shape (n_columns,)

    Raises
    ------
    ValueError
        Everything :func:`gini_mean_difference` raises, and a (column) mean of
        zero, for which the index is undefined.
    TypeError
        Non-numeric ``x`` or ``sample_weight``.

    Examples
    --------
    >>> gini_index([0.0, 0.0, 0.0, 1.0])  # one holds everything
    1.0
    >>> gini_index([0.0, 0.0, 0.0, 1.0], norm="plugin")
    0.75
    >>> gini_index([[2.0, 1.0], [2.0, 3.0]])
    array([0. , 0.5])
    """
    difference = gini_mean_difference(x, sample_weight=sample_weight, norm=norm)
    values = np.asarray(x, dtype=np.float64)
    mean = np.abs(np.average(values, axis=0, weights=sample_weight))
    if np.any(mean == 0):
        raise ValueError(
            "x has a mean of 0 (in column(s) "
            f"{np.flatnonzero(np.atleast_1d(mean == 0)).tolist()}); the Gini index Δ/(2|μ|) is undefined"
        )
    index = difference / (2 * mean)
    return float(index) if np.ndim(index) == 0 else index


def _ordered_pair_sum(columns, weights):
    """Per column, ``sum_{a,b} w_a w_b |x_a - x_b|`` over ordered pairs (one sort)."""
    centred = columns - columns.mean(axis=0)
    order = np.argsort(centred, axis=0, kind="stable")
    ordered = np.take_along_axis(centred, order, axis=0)
    if weights is None:
        n_samples = columns.shape[0]
        coefficients = 2.0 * np.arange(1, n_samples + 1) - n_samples - 1
        return 2.0 * (coefficients @ ordered)
    ordered_weights = weights[order]
    cumulative = np.cumsum(ordered_weights, axis=0)
    coefficients = ordered_weights * (2.0 * cumulative - ordered_weights - weights.sum())
    return 2.0 * np.sum(coefficients * ordered, axis=0)


def _pair_total(weights, n_samples, norm):
    """The divisor ``W (W - 1)`` or ``W**2`` of the ordered-pair sum."""
    total = float(n_samples if weights is None else weights.sum())
    if norm == "plugin":
        return total * total
    if total <= 1:
        raise ValueError(
            f"sample_weight sums to {total:g}; norm='unbiased' needs a total weight above 1 "
            "(weights count repeated samples); use norm='plugin'"
        )
    return total * (total - 1)
