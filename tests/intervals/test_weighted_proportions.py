"""Kish-weighted proportion intervals against scipy's binomial test and the unweighted intervals."""

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from polyroc.intervals import effective_sample_size, proportion_interval, weighted_proportion_interval

SCIPY_METHODS = {"wilson": "wilson", "clopper-pearson": "exact"}


def test_kish_effective_size_by_hand():
    assert effective_sample_size([1, 1, 1, 3]) == 3.0  # 6^2 / 12
    assert effective_sample_size([1, 1, 1, 3, 0, 0]) == 3.0  # rows of weight 0 do not count
    assert effective_sample_size([1.0, 2.0]) == pytest.approx(9 / 5, rel=1e-15)
    assert effective_sample_size(np.full(7, 0.1)) == 7.0  # equal weights: the count, exactly
    assert effective_sample_size([5e-200, 1e-200]) == pytest.approx(36 / 26, rel=1e-14)
    assert effective_sample_size([1e200, 1e200, 2e200]) == pytest.approx(16 / 6, rel=1e-14)


@pytest.mark.parametrize("method", sorted(SCIPY_METHODS))
@pytest.mark.parametrize("weight", [None, 1.0, 2.5, 0.1])
def test_equal_weights_give_the_unweighted_interval_exactly(method, weight):
    for hits in ([False] * 4, [True] * 4, [True, False, False, True, True], [True] * 29 + [False] * 20):
        hits = np.array(hits)
        weights = None if weight is None else np.full(hits.size, weight)
        estimate, low, high = weighted_proportion_interval(hits, weights, method=method, confidence=0.9)
        expected = proportion_interval(hits.sum(), hits.size, method=method, confidence=0.9)
        assert estimate == hits.sum() / hits.size
        assert (low, high) == (expected[0], expected[1])


def test_rows_of_weight_zero_are_left_out():
    hits = np.array([True, False, True, True, False])
    with_zeros = weighted_proportion_interval(hits, [1.0, 0.0, 1.0, 1.0, 0.0])
    assert with_zeros == weighted_proportion_interval(hits[[0, 2, 3]])


def _integer_cases():
    """Weights in {1, 2, 3} (not all equal) whose n_eff is whole, with hit sets giving whole successes."""
    for size in range(2, 6):
        for weights in itertools.product((1, 2, 3), repeat=size):
            weights = np.array(weights, dtype=float)
            n_eff = weights.sum() ** 2 / (weights**2).sum()
            if len(set(weights)) == 1 or abs(n_eff - round(n_eff)) > 1e-12:
                continue
            for pattern in itertools.product((False, True), repeat=size):
                successes = n_eff * weights[list(pattern)].sum() / weights.sum()
                if abs(successes - round(successes)) < 1e-12:
                    yield np.array(pattern), weights, round(successes), round(n_eff)


INTEGER_CASES = list(_integer_cases())


def test_the_integer_cases_are_not_trivial():
    assert len(INTEGER_CASES) > 20
    assert {n for _, _, _, n in INTEGER_CASES} >= {3, 4}


@pytest.mark.slow
@pytest.mark.parametrize("method", sorted(SCIPY_METHODS))
@pytest.mark.parametrize("confidence", [0.8, 0.95])
def test_whole_effective_counts_match_scipy_binomtest(method, confidence):
    for hits, weights, successes, trials in INTEGER_CASES:
        estimate, low, high = weighted_proportion_interval(hits, weights, method=method, confidence=confidence)
        expected = binomtest(successes, trials).proportion_ci(confidence, method=SCIPY_METHODS[method])
        assert estimate == pytest.approx(successes / trials, abs=1e-12)
        assert low == pytest.approx(expected.low, abs=1e-9)
        assert high == pytest.approx(expected.high, abs=1e-9)


@given(
    st.lists(st.tuples(st.booleans(), st.floats(0.01, 100.0)), min_size=1, max_size=40),
    st.sampled_from(sorted(SCIPY_METHODS)),
)
def test_interval_holds_the_estimate_within_zero_one(rows, method):
    hits = np.array([h for h, _ in rows])
    weights = np.array([w for _, w in rows])
    estimate, low, high = weighted_proportion_interval(hits, weights, method=method)
    assert 0.0 <= low <= estimate <= high <= 1.0
    assert high > low  # never a point, even at 0 or all hits
    scaled = weighted_proportion_interval(hits, weights * 2.0**-40, method=method)
    assert scaled == (estimate, low, high)


def test_errors():
    with pytest.raises(TypeError, match="sample_weight must be an array"):
        effective_sample_size(None)
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        effective_sample_size([0.0, 0.0])
    with pytest.raises(ValueError, match="sample_weight must be non-negative"):
        effective_sample_size([1.0, -1.0])
    with pytest.raises(ValueError, match="non-empty 1-D"):
        effective_sample_size([])
    with pytest.raises(ValueError, match="hits must be boolean"):
        weighted_proportion_interval([0, 2, 1])
    with pytest.raises(ValueError, match="hits must be a non-empty 1-D array"):
        weighted_proportion_interval([[True]])
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(2,\)"):
        weighted_proportion_interval([True, False], [1.0])
    with pytest.raises(ValueError, match="method must be one of"):
        weighted_proportion_interval([True, False], method="wald")
    with pytest.raises(ValueError, match="confidence"):
        weighted_proportion_interval([True, False], confidence=0.0)
