"""The one-dimensional Gini mean difference and Gini index, in O(n log n) by sorting.

Sample weights mean relative importance, as in scikit-learn: multiplying all of
them by a positive constant changes nothing, and a zero weight removes the
sample. They are rescaled by a power of 2 (exactly) before anything is summed,
so weights of any scale (1e-300 or 1e300, or summing to 1) give the same
numbers. With weights ``w`` and ``W = sum(w)``,

    Δ = sum over ordered pairs (a, b), a ≠ b, of w_a w_b |x_a - x_b|  /  D,

with ``D = sum_{a ≠ b} w_a w_b = W² - sum(w²)`` (``norm="unbiased"``) or
``D = W²`` (``norm="plugin"``). Without weights these are ``n (n - 1)`` and
``n²``. The unbiased ``D`` is the one for which ``E[Δ] = E|X - X'|`` when the
samples are independent draws carrying fixed weights (the "reliability
weights" correction, numpy's ``aweights``; ``W² / sum(w²)`` is Kish's effective
sample size). Repeated rows are not independent draws, so integer weights equal
repeated rows exactly for ``norm="plugin"`` (the pair sums are the same), while
the unbiased divisors differ: ``W² - sum(w²)`` against ``W (W - 1)``.

Sorted ascending, the pair sum is ``2 sum_i c_i x_(i)`` with
``c_i = w_(i) (B_i - A_i)``, where ``B_i`` and ``A_i`` are the weights before and
after ``i`` (``c_i = 2i - n - 1`` without weights), and ``D = 2 sum_i w_(i) B_i``:
sums of non-negative terms, so a dominant weight does not cancel the others.
The coefficients sum to 0, so the values are centred first (at their
weighted mean) to reduce cancellation.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import check_real_array, check_sample_weight, scale_weights
from polyroc._validation._params import Options, validate_params

__all__ = ["gini_index", "gini_mean_difference"]

GINI_NORMS = ("unbiased", "plugin")


@validate_params({"norm": [Options(GINI_NORMS)]})
def gini_mean_difference(
    x: ArrayLike, *, sample_weight: ArrayLike | None = None, norm: str = "unbiased"
) -> float | np.ndarray:
    """Gini mean difference: the mean absolute difference of two draws, in O(n log n).

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_columns)
        Finite values; a 2-D array gives one value per column.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance (scale-free; see the
        module notes).
    norm : {"unbiased", "plugin"}, default="unbiased"
        Divide the weighted sum over ordered pairs by ``W² - sum(w²)`` (the
        U-statistic, ``n (n - 1)`` without weights) or by ``W²``.

    Returns
    -------
    float or ndarray of shape (n_columns,)

    Raises
    ------
    ValueError
        ``x`` not 1-D or 2-D, with NaN/infinity or fewer than 2 samples; bad
        ``sample_weight``; unknown ``norm``; ``norm="unbiased"`` with fewer
        than 2 samples of positive weight.
    TypeError
        Non-numeric ``x`` or ``sample_weight``.

    See Also
    --------
    gini_index : The mean difference over twice the absolute mean.
    multidimensional_gini : Uses it on each whitened score column.

    References
    ----------
    Gini, C. (1914). Sulla misura della concentrazione e della variabilità
    dei caratteri. Atti del Reale Istituto Veneto di Scienze, Lettere ed Arti
    73, 1203–1248.

    Auricchio, G., Giudici, P. & Toscani, G. (2024). Extending the Gini
    index to higher dimensions via whitening processes. arXiv:2409.10119.
    Its multidimensional index combines these one-dimensional ones.

    Examples
    --------
    >>> gini_mean_difference([1.0, 2.0, 4.0])  # (1 + 3 + 2) * 2 / (3 * 2)
    2.0
    >>> gini_mean_difference([1.0, 2.0, 4.0], norm="plugin")  # 12 / 9
    1.3333333333333333
    >>> gini_mean_difference([1.0, 2.0, 4.0], sample_weight=[2e-9, 2e-9, 4e-9])  # scale-free
    2.2
    >>> gini_mean_difference([1.0, 2.0, 4.0], sample_weight=[1, 1, 2], norm="plugin")  # as [1, 2, 4, 4]
    1.375
    """
    values = check_real_array("x", x, ndims=(1, 2), min_samples=2)
    weights = relative_weights(sample_weight, values.shape[0])
    columns = values.reshape(values.shape[0], -1)
    pair_total = _pair_total(weights, columns.shape[0], norm)
    if weights is not None:  # rows of weight 0 take no part (not even in the centring)
        columns, weights = columns[weights > 0], weights[weights > 0]
    result = _ordered_pair_sum(columns, weights) / pair_total
    return float(result[0]) if values.ndim == 1 else result


@validate_params({"norm": [Options(GINI_NORMS)]})
def gini_index(x: ArrayLike, *, sample_weight: ArrayLike | None = None, norm: str = "unbiased") -> float | np.ndarray:
    """Gini index ``Δ / (2 |μ|)``: the Gini mean difference over twice the absolute mean.

    For non-negative ``x`` it lies in [0, 1] (``"unbiased"``) or in
    [0, (n - 1) / n] (``"plugin"``); a constant non-zero vector gives 0.

    Parameters
    ----------
    x : array-like of shape (n_samples,) or (n_samples, n_columns)
        Finite values; a 2-D array gives one index per column.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance (scale-free).
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

    See Also
    --------
    gini_mean_difference : The numerator Δ.
    multidimensional_gini : The weighted combination of the indices of whitened columns.

    References
    ----------
    Gini, C. (1914). Sulla misura della concentrazione e della variabilità
    dei caratteri. Atti del Reale Istituto Veneto di Scienze, Lettere ed Arti
    73, 1203–1248.

    Auricchio, G., Giudici, P. & Toscani, G. (2024). Extending the Gini
    index to higher dimensions via whitening processes. arXiv:2409.10119.
    Its multidimensional index combines these one-dimensional ones.

    Examples
    --------
    >>> gini_index([0.0, 0.0, 0.0, 1.0])  # one holds everything
    1.0
    >>> gini_index([0.0, 0.0, 0.0, 1.0], norm="plugin")
    0.75
    >>> gini_index([[2.0, 1.0], [2.0, 3.0]])
    array([0. , 0.5])
    """
    values = _power_of_two_scaled(check_real_array("x", x, ndims=(1, 2), min_samples=2))
    difference = gini_mean_difference(values, sample_weight=sample_weight, norm=norm)
    weights = relative_weights(sample_weight, values.shape[0])
    mean = np.abs(np.average(values, axis=0, weights=weights))
    if np.any(mean == 0):
        raise ValueError(
            "x has a mean of 0 (in column(s) "
            f"{np.flatnonzero(np.atleast_1d(mean == 0)).tolist()}); the Gini index Δ/(2|μ|) is undefined"
        )
    index = difference / (2 * mean)
    return float(index) if np.ndim(index) == 0 else index


def _power_of_two_scaled(values: np.ndarray) -> np.ndarray:
    """``values`` times a power of two per column that brings its largest magnitude into [1, 2).

    The Gini index does not depend on the scale, and a power of two scales
    every sum, difference and product exactly, so the index is the same to the
    last bit for values of normal magnitude; subnormal values (below 2.2e-308),
    whose mean keeps only a few significant bits, are brought to full precision.
    """
    _, exponent = np.frexp(np.max(np.abs(values), axis=0))
    return np.ldexp(values, -exponent + 1)


def relative_weights(sample_weight, n_samples):
    """Checked weights scaled by :func:`polyroc._validation.scale_weights` (None stays None).

    >>> relative_weights([2.0**-1000, 2.0**-999], 2).tolist()
    [0.25, 0.5]
    """
    return scale_weights(check_sample_weight(sample_weight, n_samples)).weights


def _weight_before_and_after(ordered_weights):
    """Total weight strictly before and strictly after each position, along axis 0.

    Exclusive cumulative sums (no subtraction), so a dominant weight cannot
    round the small ones away.
    """
    zeros = np.zeros((1, *ordered_weights.shape[1:]))
    before = np.concatenate((zeros, np.cumsum(ordered_weights[:-1], axis=0)))
    after = np.concatenate((np.cumsum(ordered_weights[:0:-1], axis=0)[::-1], zeros))
    return before, after


def _ordered_pair_sum(columns, weights):
    """Per column, ``sum_{a,b} w_a w_b |x_a - x_b|`` over ordered pairs (one sort)."""
    centred = columns - np.average(columns, axis=0, weights=weights)
    order = np.argsort(centred, axis=0, kind="stable")
    ordered = np.take_along_axis(centred, order, axis=0)
    if weights is None:
        n_samples = columns.shape[0]
        coefficients = 2.0 * np.arange(1, n_samples + 1) - n_samples - 1
        return 2.0 * (coefficients @ ordered)
    ordered_weights = weights[order]
    before, after = _weight_before_and_after(ordered_weights)
    return 2.0 * np.sum(ordered_weights * (before - after) * ordered, axis=0)


def _pair_total(weights, n_samples, norm):
    """The divisor ``sum_{a≠b} w_a w_b`` (``"unbiased"``) or ``W²`` of the ordered-pair sum."""
    if weights is None:
        return float(n_samples * (n_samples - 1) if norm == "unbiased" else n_samples * n_samples)
    if norm == "plugin":
        return float(weights.sum()) ** 2
    if np.count_nonzero(weights) < 2:
        raise ValueError(
            "sample_weight gives positive weight to fewer than 2 samples; norm='unbiased' "
            "averages over pairs of distinct samples (use norm='plugin')"
        )
    before, _ = _weight_before_and_after(np.sort(weights))
    return 2.0 * float(np.sort(weights) @ before)
