"""Analytic proportion intervals against scipy's binomial test, and their promised coverage by exact enumeration."""

import numpy as np
import pytest
from scipy.stats import binom, binomtest

from polyroc.intervals import proportion_interval

SCIPY_METHODS = {"wilson": "wilson", "clopper-pearson": "exact"}


@pytest.mark.parametrize("method", sorted(SCIPY_METHODS))
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_bounds_equal_scipy_binomtest(method, confidence):
    cases = [(k, n) for n in (1, 2, 4, 7, 30) for k in range(n + 1)] + [(k, 1000) for k in (0, 1, 500, 999, 1000)]
    successes, trials = np.array(cases).T
    low, high = proportion_interval(successes, trials, method=method, confidence=confidence)
    for k, n, lo, hi in zip(successes, trials, low, high):
        expected = binomtest(int(k), int(n)).proportion_ci(confidence, method=SCIPY_METHODS[method])
        assert lo == pytest.approx(expected.low, abs=1e-12)
        assert hi == pytest.approx(expected.high, abs=1e-12)


def test_zero_successes_in_four_trials_is_wide_not_a_point():
    wilson = proportion_interval(0, 4)
    exact = proportion_interval(0, 4, method="clopper-pearson")
    assert wilson[0] == 0.0 and 0.48 < wilson[1] < 0.50
    assert exact[0] == 0.0 and 0.60 < exact[1] < 0.61


@pytest.mark.parametrize("n", [4, 10, 25])
def test_clopper_pearson_never_covers_less_than_promised(n):
    """Exact coverage: the sum of binomial probabilities of the outcomes whose interval holds p."""
    k = np.arange(n + 1)
    low, high = proportion_interval(k, np.full(n + 1, n), method="clopper-pearson")
    for p in np.linspace(0.01, 0.99, 99):
        covered = (low <= p) & (p <= high)
        assert binom.pmf(k, n, p)[covered].sum() >= 0.95 - 1e-12


def test_undefined_and_bad_counts():
    low, high = proportion_interval([0, 1], [0, 2])
    assert np.isnan(low[0]) and np.isnan(high[0]) and 0 < low[1] < 0.5 < high[1] < 1
    with pytest.raises(ValueError, match="successes must not exceed trials"):
        proportion_interval(3, 2)
    with pytest.raises(ValueError, match="successes must be non-negative whole numbers"):
        proportion_interval(1.5, 2)
    with pytest.raises(ValueError, match="trials must be non-negative whole numbers"):
        proportion_interval(1, -2)
    with pytest.raises(ValueError, match="method must be one of"):
        proportion_interval(1, 2, method="wald")
    with pytest.raises(ValueError, match="confidence"):
        proportion_interval(1, 2, confidence=1.0)
