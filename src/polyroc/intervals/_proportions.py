"""Intervals of proportions and of paired differences of proportions (public path: :mod:`polyroc.intervals`)."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.effective_sizes import class_effective_sizes
from polyroc._validation import as_array, check_sample_weight, scale_weights
from polyroc._validation._params import ConstraintLike, Options, validate_params
from polyroc.intervals._delong import roc_auc_interval
from polyroc.intervals._posterior import posterior_interval, stratified_mean_interval
from polyroc.intervals._resampling import CONFIDENCE

__all__ = [
    "PROPORTION_METHODS",
    "effective_sample_size",
    "paired_difference_interval",
    "posterior_interval",
    "proportion_interval",
    "roc_auc_interval",
    "stratified_mean_interval",
    "weighted_proportion_interval",
]

#: ``method`` of :func:`proportion_interval` -> the name an interval carries.
PROPORTION_METHODS = {
    "wilson": "Wilson score interval",
    "clopper-pearson": "Clopper-Pearson exact interval",
    "jeffreys": "Jeffreys interval",
}

#: The ``method`` options of the proportion intervals (the keys of :data:`PROPORTION_METHODS`).
ProportionMethod = Literal["wilson", "clopper-pearson", "jeffreys"]

#: The name of :func:`paired_difference_interval`'s interval.
TANGO_INTERVAL = "Tango score interval"


#: The declared ``method`` and ``confidence`` of the proportion intervals.
_PROPORTION_PARAMS: dict[str, list[ConstraintLike]] = {
    "method": [Options(PROPORTION_METHODS)],
    "confidence": [CONFIDENCE],
}


@validate_params(_PROPORTION_PARAMS)
def proportion_interval(
    successes: ArrayLike, trials: ArrayLike, *, method: ProportionMethod = "wilson", confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided confidence interval of a binomial proportion ``successes / trials``.

    Parameters
    ----------
    successes : array-like of int
        Numbers of successes, ``0 <= successes <= trials``.
    trials : array-like of int
        Numbers of trials, broadcast against ``successes``; a proportion
        with 0 trials is undefined and gets NaN bounds.
    method : {"wilson", "clopper-pearson", "jeffreys"}, default="wilson"
        ``"wilson"``: the score interval, which keeps close to its nominal
        coverage at small n. ``"clopper-pearson"``: the exact interval from
        beta quantiles, which never covers less than promised (and often more).
        ``"jeffreys"``: the equal-tailed interval of the posterior
        Beta(successes + 1/2, trials - successes + 1/2) under Jeffreys' prior,
        with the lower bound 0 when there is no success and the upper bound 1
        when there is no failure (Brown, Cai & DasGupta 2001).
    confidence : float, default=0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    low, high : ndarray
        The bounds, of the broadcast shape of the inputs, within [0, 1].

    Raises
    ------
    ValueError
        If ``method`` is unknown, ``confidence`` is not in (0, 1), the
        counts are negative, not whole numbers or not finite, or
        ``successes`` exceeds ``trials``.
    TypeError
        If ``confidence`` is not a real number.

    See Also
    --------
    weighted_proportion_interval : The same intervals for a weighted proportion of hits.
    posterior_interval : Intervals of composites of counts (precision, F1, kappa ...).
    polyroc.resampling.percentile_interval : The percentile bootstrap interval.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and
    statistical inference. Journal of the American Statistical Association 22,
    209-212. doi:10.1080/01621459.1927.10502953

    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial
    limits illustrated in the case of the binomial. Biometrika 26, 404-413.
    doi:10.1093/biomet/26.4.404

    Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a
    binomial proportion. Statistical Science 16, 101-133.
    doi:10.1214/ss/1009213286

    Examples
    --------
    >>> low, high = proportion_interval([0, 4, 12], [4, 8, 12])
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.2152, 0.7575], [0.4899, 0.7848, 1.0])
    >>> low, high = proportion_interval(0, 4, method="clopper-pearson")
    >>> float(low), round(float(high), 4)
    (0.0, 0.6024)
    """
    confidence = float(confidence)
    successes, trials = np.broadcast_arrays(
        _counts("successes", successes).astype(np.float64), _counts("trials", trials).astype(np.float64)
    )
    if np.any(successes > trials):
        raise ValueError("successes must not exceed trials")
    return checked_proportion_bounds(successes, trials, method=method, confidence=confidence)


def checked_proportion_bounds(
    successes: np.ndarray, trials: np.ndarray, *, method: ProportionMethod, confidence: float
) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of :func:`proportion_interval` on checked float arrays; fractional counts are admitted.

    ``successes`` and ``trials`` have one shape, ``0 <= successes <=
    trials``; a proportion with 0 trials gets NaN bounds. Fractional counts
    (a weighted proportion times an effective size) give the formulas'
    continuous extension: Wilson's is algebraic, Clopper–Pearson's and
    Jeffreys' bounds are beta quantiles.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        low, high = _BOUNDS[method](successes, trials, 1.0 - confidence)
    undefined = trials == 0
    return np.where(undefined, np.nan, low), np.where(undefined, np.nan, high)


def _counts(name, values):
    values = np.asarray(values, dtype=np.float64)
    if not np.all(np.isfinite(values)) or np.any(values < 0) or np.any(values != np.round(values)):
        raise ValueError(f"{name} must be non-negative whole numbers")
    return values


def _wilson(successes, trials, alpha):
    from scipy.stats import norm

    z = norm.ppf(1.0 - alpha / 2)
    z2 = z * z
    centre = (successes + z2 / 2) / (trials + z2)
    half = z / (trials + z2) * np.sqrt(successes * (trials - successes) / trials + z2 / 4)
    # exactly 0 (1) with no success (failure): the formula leaves a rounding error there
    low = np.where(successes == 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    high = np.where(successes == trials, 1.0, np.clip(centre + half, 0.0, 1.0))
    return low, high


def _clopper_pearson(successes, trials, alpha):
    from scipy.stats import beta

    low = np.where(successes == 0, 0.0, beta.ppf(alpha / 2, successes, trials - successes + 1))
    high = np.where(successes == trials, 1.0, beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    return low, high


def _jeffreys(successes, trials, alpha):
    from scipy.stats import beta

    low = np.where(successes == 0, 0.0, beta.ppf(alpha / 2, successes + 0.5, trials - successes + 0.5))
    high = np.where(successes == trials, 1.0, beta.ppf(1 - alpha / 2, successes + 0.5, trials - successes + 0.5))
    return low, high


#: ``method`` -> the function of the bounds ``(successes, trials, alpha) -> (low, high)``.
_BOUNDS = {"wilson": _wilson, "clopper-pearson": _clopper_pearson, "jeffreys": _jeffreys}


def effective_sample_size(sample_weight: ArrayLike) -> float:
    """Kish's effective sample size ``(sum w)^2 / sum w^2`` of weighted rows.

    It is the number of unweighted rows that would give a mean the same
    variance. Rows of weight 0 do not count; equal positive weights give
    their number exactly.

    Parameters
    ----------
    sample_weight : array-like of shape (n,)
        Non-negative weights, not all 0.

    Returns
    -------
    float
        The effective size, between 1 and the number of positive weights.

    Raises
    ------
    ValueError
        If ``sample_weight`` is not 1-D, is empty, holds negative or
        non-finite values, or sums to 0 or past the float64 range.
    TypeError
        If ``sample_weight`` is None or not numeric.

    See Also
    --------
    weighted_proportion_interval : A weighted proportion's interval at this size.
    posterior_interval : Uses each class's effective size for the posterior's spread.

    References
    ----------
    Kish, L. (1965). Survey Sampling. New York: Wiley.

    Examples
    --------
    >>> effective_sample_size([1, 1, 1, 3])  # 6**2 / 12
    3.0
    >>> effective_sample_size([2.5, 2.5, 0.0])
    2.0
    """
    weights = _weights(sample_weight)
    return float(class_effective_sizes(np.zeros(weights.size, dtype=np.intp), 1, weights)[0])


def _weights(sample_weight):
    if sample_weight is None:
        raise TypeError("sample_weight must be an array of weights, got None (without weights n_eff is n)")
    array = as_array("sample_weight", sample_weight)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"sample_weight must be a non-empty 1-D array, got shape {array.shape}")
    return check_sample_weight(array, array.size)


def _hits(hits):
    array = as_array("hits", hits)
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"hits must be a non-empty 1-D array, got shape {array.shape}")
    if array.dtype.kind not in "biuf":
        raise TypeError(f"hits must be boolean, got dtype {array.dtype}")
    if array.dtype.kind != "b" and not np.all((array == 0) | (array == 1)):
        raise ValueError("hits must be boolean (or 0 and 1)")
    return array.astype(bool)


@validate_params(_PROPORTION_PARAMS)
def weighted_proportion_interval(
    hits: ArrayLike,
    sample_weight: ArrayLike | None = None,
    *,
    method: ProportionMethod = "wilson",
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """Weighted proportion of hits with its Wilson, Clopper–Pearson or Jeffreys interval at Kish's effective size.

    The estimate is the weighted mean p of ``hits``; the interval is
    :func:`proportion_interval`'s formula for p * n_eff successes in n_eff
    trials (both may be fractional: Wilson's formula is algebraic and
    Clopper–Pearson's bounds are beta quantiles), n_eff being
    :func:`effective_sample_size`. Without weights, or with equal ones, it is
    exactly ``proportion_interval(hits.sum(), n)`` over the rows of positive
    weight.

    Parameters
    ----------
    hits : array-like of bool, shape (n,)
        Whether each row is a success.
    sample_weight : array-like of shape (n,), default=None
        Non-negative weights, not all 0.
    method : {"wilson", "clopper-pearson", "jeffreys"}, default="wilson"
        The interval, as in :func:`proportion_interval`.
    confidence : float, default=0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    estimate, low, high : float
        The weighted proportion and its bounds, within [0, 1].

    Raises
    ------
    ValueError
        If ``hits`` is not a non-empty 1-D array of booleans (or 0/1), the
        weights are invalid (shape, negative, non-finite, all 0, a sum past
        the float64 range), ``method``
        is unknown, or ``confidence`` is not in (0, 1).
    TypeError
        If ``hits`` or the weights are not numeric, or ``confidence`` is not
        a real number.

    See Also
    --------
    proportion_interval : The interval of ``successes`` in ``trials``.
    effective_sample_size : Kish's n_eff of the weights.
    polyroc.metrics.accuracy_score : The weighted proportion of right predictions.

    References
    ----------
    Wilson, E. B. (1927). Probable inference, the law of succession, and
    statistical inference. Journal of the American Statistical Association 22,
    209-212. doi:10.1080/01621459.1927.10502953

    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial
    limits illustrated in the case of the binomial. Biometrika 26, 404-413.
    doi:10.1093/biomet/26.4.404

    Kish, L. (1965). Survey Sampling. New York: Wiley.

    Examples
    --------
    >>> estimate, low, high = weighted_proportion_interval([False, True, True, False], [1, 1, 1, 3])
    >>> estimate, round(low, 4), round(high, 4)  # 1 success in n_eff = 3 trials
    (0.3333333333333333, 0.0615, 0.7923)
    >>> bool(weighted_proportion_interval([False] * 4)[2] == proportion_interval(0, 4)[1])
    True
    """
    hit_flags = _hits(hits)
    weights = check_sample_weight(sample_weight, hit_flags.size)
    confidence = float(confidence)
    if weights is None or np.all(weights[weights > 0] == weights.max()):
        counted = hit_flags if weights is None else hit_flags[weights > 0]
        successes, trials = float(counted.sum()), float(counted.size)
        return proportion_bounds(successes, trials, trials, method=method, confidence=confidence)
    weights = scale_weights(weights).weights
    return proportion_bounds(
        weights[hit_flags].sum(), weights.sum(), effective_sample_size(weights), method=method, confidence=confidence
    )


def proportion_bounds(
    hit_weight: float, total_weight: float, trials: float, *, method: ProportionMethod, confidence: float
) -> tuple[float, float, float]:
    """The proportion ``hit_weight / total_weight`` and its interval for that share of ``trials`` (checked inputs).

    ``trials`` is the (effective) number of rows; the successes are the
    proportion times ``trials`` (exactly the hits when the weights are
    equal).
    """
    estimate = float(hit_weight / total_weight)
    successes = float(hit_weight) if trials == total_weight else min(estimate * trials, trials)
    bounds = _BOUNDS[method]
    with np.errstate(invalid="ignore", divide="ignore"):
        low, high = bounds(np.float64(successes), np.float64(trials), 1.0 - confidence)
    return estimate, float(low), float(high)


@validate_params({"confidence": [CONFIDENCE]})
def paired_difference_interval(
    only_first: int, only_second: int, n: int, *, confidence: float = 0.95
) -> tuple[float, float]:
    """Tango's score interval of a difference of two proportions measured on the same ``n`` rows.

    The difference is ``(only_first - only_second) / n``: the rows where
    only the first succeeds (e.g. only the first model is right) less those
    where only the second does. The interval is the set of differences d
    whose score statistic (Tango 1998)

    ``(only_first - only_second - n d) / sqrt(n (2 q(d) + d (1 - d)))``

    lies within ``±z``, ``q(d)`` being the maximum-likelihood probability of
    the cell "only the second succeeds" under the difference d (a root of a
    quadratic). It is unconditional: unlike an exact interval
    of ``only_first / (only_first + only_second)`` scaled by the observed
    share of discordant rows, it lets that share vary, so it stays near its
    nominal coverage when every discordant row favours one side, and it has
    a positive width when no row is discordant (``±z^2 / (n + z^2)``). At
    d = 0 the statistic is McNemar's ``(only_first - only_second) /
    sqrt(only_first + only_second)``.

    Parameters
    ----------
    only_first, only_second : int
        Rows where only the first, or only the second, succeeds.
    n : int
        All rows, ``>= only_first + only_second`` and ``>= 1``.
    confidence : float, default=0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    low, high : float
        The bounds, within [-1, 1].

    Raises
    ------
    ValueError
        If a count is negative, not a whole number or not finite, ``n`` is 0
        or smaller than ``only_first + only_second``, or ``confidence`` is
        not in (0, 1). Weighted counts (fractions) are refused: the interval
        is defined for counts of rows.
    TypeError
        If ``confidence`` is not a real number.

    See Also
    --------
    proportion_interval : The interval of one proportion.
    polyroc.comparison.compare_scores : Uses it for differences of accuracy, with McNemar's exact test.

    References
    ----------
    Tango, T. (1998). Equivalence test and confidence interval for the
    difference in proportions for the paired-sample design. Statistics in
    Medicine 17, 891-902.
    doi:10.1002/(SICI)1097-0258(19980430)17:8<891::AID-SIM780>3.0.CO;2-B

    Examples
    --------
    >>> [round(bound, 4) for bound in paired_difference_interval(492, 0, 14500)]
    [0.0311, 0.037]
    >>> [round(bound, 4) for bound in paired_difference_interval(0, 0, 100)]  # ±z²/(n + z²)
    [-0.037, 0.037]
    """
    from scipy.optimize import brentq
    from scipy.stats import norm

    confidence = float(confidence)
    b, c, rows = (
        float(_counts(name, value))
        for name, value in zip(("only_first", "only_second", "n"), (only_first, only_second, n))
    )
    if rows < 1 or b + c > rows:
        raise ValueError(f"n must be at least 1 and at least only_first + only_second, got n={rows:g} for {b + c:g}")
    z = float(norm.ppf(0.5 + confidence / 2))
    estimate = (b - c) / rows

    def bound_gap(d, sign):
        return b - c - rows * d + sign * z * np.sqrt(rows * max(2 * _tango_cell(b, c, rows, d) + d * (1 - d), 0.0))

    # where the statistic's variance vanishes (no discordant row, or all rows discordant one way) it is 0/0 at
    # the estimate; half of z^2 / (n + z^2) away it already has its sign (the outer root is z^2 / (n + z^2) away)
    step = 0.0 if b + c and abs(estimate) < 1 else 0.5 * z * z / (rows + z * z)
    high = 1.0 if estimate >= 1 else brentq(bound_gap, estimate + step, 1.0, args=(1,), xtol=1e-15)
    low = -1.0 if estimate <= -1 else brentq(bound_gap, -1.0, estimate - step, args=(-1,), xtol=1e-15)
    return float(low), float(high)


def _tango_cell(b, c, n, d):
    """Maximum-likelihood probability of the "only the second succeeds" cell given the difference d (Tango 1998).

    The positive root of ``2 n q^2 + w q - c d (1 - d) = 0`` with
    ``w = (2 n - b + c) d - (b + c)``, in the form free of cancellation.
    """
    w = (2 * n - b + c) * d - (b + c)
    root = np.sqrt(max(w * w + 8 * n * c * d * (1 - d), 0.0))
    if w <= 0:
        return (root - w) / (4 * n)
    return 2 * c * d * (1 - d) / (w + root)
