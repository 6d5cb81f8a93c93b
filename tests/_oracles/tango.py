"""Tango's score interval of a paired difference of proportions, restated from its definition.

Tango (1998, Statistics in Medicine 17, 891-902): the interval is the set of differences d whose score statistic
lies within ±z, the statistic using the maximum-likelihood cell probabilities under d. Here that maximum is found
numerically by scipy (no closed form), the set is located by a dense grid scan of d and its ends refined by root
finding on the oracle's own statistic.
"""

import numpy as np
from scipy.optimize import brentq, minimize_scalar
from scipy.stats import norm


def restricted_cell(b, c, n, d):
    """P(only the second succeeds) maximising the multinomial likelihood given p(first only) - p(second only) = d."""
    low, high = max(0.0, -d), (1.0 - d) / 2

    def negative_log_likelihood(q):
        terms = [(b, q + d), (c, q), (n - b - c, 1 - 2 * q - d)]
        return -sum(count * np.log(max(p, 1e-300)) for count, p in terms if count)

    if high - low < 1e-15:
        return low
    found = minimize_scalar(negative_log_likelihood, bounds=(low, high), method="bounded", options={"xatol": 1e-13})
    # the bounded search never returns an end itself: compare with both ends
    return min((low, found.x, high), key=negative_log_likelihood)


def score_statistic(b, c, n, d):
    """Tango's score statistic of the difference d, at the restricted maximum-likelihood cell probability."""
    q = restricted_cell(b, c, n, d)
    variance = n * (2 * q + d * (1 - d))
    numerator = b - c - n * d
    if variance <= 0:
        return 0.0 if numerator == 0 else np.sign(numerator) * np.inf
    return numerator / np.sqrt(variance)


def tango_interval(b, c, n, confidence=0.95, points=801):
    """The interval of d whose score statistic is within ±z: a grid scan of d, its ends refined by root finding."""
    z = norm.ppf(0.5 + confidence / 2)
    grid = np.linspace(-1, 1, points)
    inside = np.array([abs(score_statistic(b, c, n, d)) <= z for d in grid])
    first, last = np.flatnonzero(inside)[[0, -1]]
    assert inside[first : last + 1].all()  # one interval

    def end(outside, within, sign):
        return brentq(lambda d: score_statistic(b, c, n, d) - sign * z, outside, within, xtol=1e-13)

    low = -1.0 if first == 0 else end(grid[first - 1], grid[first], 1)
    high = 1.0 if last == points - 1 else end(grid[last], grid[last + 1], -1)
    return low, high
