"""Analytic confidence intervals, beside the bootstrap of :mod:`polyroc.resampling`.

:func:`proportion_interval` bounds a proportion with a fixed denominator (a
per-class recall, a specificity, an accuracy) by the Wilson score interval
(Wilson, 1927, doi:10.1080/01621459.1927.10502953) or the exact
Clopper–Pearson interval (Clopper & Pearson, 1934, doi:10.1093/biomet/26.4.404).
Neither collapses to zero width at 0 or n successes, where a percentile
bootstrap does: 0 hits in 4 trials give [0, 0.49] (Wilson) or [0, 0.60]
(Clopper–Pearson) at 95%.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import check_real

__all__ = ["PROPORTION_METHODS", "proportion_interval"]

#: ``method`` of :func:`proportion_interval` -> the name an interval carries.
PROPORTION_METHODS = {"wilson": "Wilson score interval", "clopper-pearson": "Clopper-Pearson exact interval"}


def proportion_interval(
    successes: ArrayLike, trials: ArrayLike, *, method: str = "wilson", confidence: float = 0.95
) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided confidence interval of a binomial proportion ``successes / trials``.

    Parameters
    ----------
    successes : array-like of int
        Numbers of successes, ``0 <= successes <= trials``.
    trials : array-like of int
        Numbers of trials, broadcast against ``successes``; a proportion
        with 0 trials is undefined and gets NaN bounds.
    method : {"wilson", "clopper-pearson"}, default="wilson"
        ``"wilson"``: the score interval, which keeps close to its nominal
        coverage at small n. ``"clopper-pearson"``: the exact interval from
        beta quantiles, which never covers less than promised (and often more).
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

    Examples
    --------
    >>> low, high = proportion_interval([0, 4, 12], [4, 8, 12])
    >>> low.round(4).tolist(), high.round(4).tolist()
    ([0.0, 0.2152, 0.7575], [0.4899, 0.7848, 1.0])
    >>> low, high = proportion_interval(0, 4, method="clopper-pearson")
    >>> float(low), round(float(high), 4)
    (0.0, 0.6024)
    """
    if method not in PROPORTION_METHODS:
        raise ValueError(f"method must be one of {sorted(PROPORTION_METHODS)}, got {method!r}")
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    successes, trials = np.broadcast_arrays(
        _counts("successes", successes).astype(np.float64), _counts("trials", trials).astype(np.float64)
    )
    if np.any(successes > trials):
        raise ValueError("successes must not exceed trials")
    alpha = 1.0 - confidence
    with np.errstate(invalid="ignore", divide="ignore"):
        if method == "wilson":
            low, high = _wilson(successes, trials, alpha)
        else:
            low, high = _clopper_pearson(successes, trials, alpha)
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
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def _clopper_pearson(successes, trials, alpha):
    from scipy.stats import beta

    low = np.where(successes == 0, 0.0, beta.ppf(alpha / 2, successes, trials - successes + 1))
    high = np.where(successes == trials, 1.0, beta.ppf(1 - alpha / 2, successes + 1, trials - successes))
    return low, high
