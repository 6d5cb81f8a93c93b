"""Jeffreys' interval of a proportion against scipy's beta quantiles."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import beta

from polyroc.intervals import PROPORTION_METHODS, proportion_interval, weighted_proportion_interval


@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_jeffreys_is_the_equal_tailed_beta_posterior_interval(confidence):
    trials = np.array([1, 5, 5, 5, 20, 137, 137])
    successes = np.array([0, 0, 2, 5, 7, 1, 136])
    low, high = proportion_interval(successes, trials, method="jeffreys", confidence=confidence)
    alpha = 1 - confidence
    expected_low = np.where(successes == 0, 0.0, beta.ppf(alpha / 2, successes + 0.5, trials - successes + 0.5))
    expected_high = np.where(
        successes == trials, 1.0, beta.ppf(1 - alpha / 2, successes + 0.5, trials - successes + 0.5)
    )
    np.testing.assert_allclose(low, expected_low, atol=1e-13)
    np.testing.assert_allclose(high, expected_high, atol=1e-13)


def test_jeffreys_is_named_and_weighted_like_the_others():
    assert PROPORTION_METHODS["jeffreys"] == "Jeffreys interval"
    estimate, low, high = weighted_proportion_interval([True, False, True, True], method="jeffreys")
    assert estimate == 0.75
    assert (low, high) == pytest.approx((beta.ppf(0.025, 3.5, 1.5), beta.ppf(0.975, 3.5, 1.5)), abs=1e-13)
    with pytest.raises(ValueError, match="method"):
        proportion_interval(1, 2, method="jefreys")
