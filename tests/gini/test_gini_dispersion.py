"""1-D Gini mean difference and Gini index: the sorted O(n log n) form against the O(n²) definition."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from polyroc.gini import gini_index, gini_mean_difference


def brute_force_mean_difference(x, weights=None, norm="unbiased"):
    """Σ_{a≠b} w_a w_b |x_a - x_b| over ordered pairs, by a double loop, over the pair weight.

    The pair weight is Σ_{a≠b} w_a w_b (unbiased: n (n - 1) without weights) or (Σ w)² (plugin).
    """
    n = len(x)
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    total = pairs = 0.0
    for a in range(n):
        for b in range(n):
            if a != b:
                total += w[a] * w[b] * abs(x[a] - x[b])
                pairs += w[a] * w[b]
    return total / (pairs if norm == "unbiased" else w.sum() ** 2)


values = arrays(np.float64, st.integers(2, 60), elements=st.floats(-1e3, 1e3, allow_nan=False))
scales = st.sampled_from([1e-300, 1e-150, 1e-8, 0.37, 3.0, 1e8, 1e150, 1e300])
#: Weights are 0 or normal floats of moderate size (times 1e-300 they stay normal).
weight_values = st.one_of(st.just(0.0), st.floats(1e-3, 5.0))


@settings(max_examples=60, deadline=None)
@given(values, st.sampled_from(["unbiased", "plugin"]))
def test_fast_equals_double_loop(x, norm):
    expected = brute_force_mean_difference(x, norm=norm)
    assert gini_mean_difference(x, norm=norm) == pytest.approx(expected, rel=1e-12, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(values, st.data(), st.sampled_from(["unbiased", "plugin"]))
def test_fast_equals_double_loop_with_weights(x, data, norm):
    weights = data.draw(arrays(np.float64, x.size, elements=weight_values))
    assume(np.count_nonzero(weights) >= 2)
    expected = brute_force_mean_difference(x, weights, norm)
    assert gini_mean_difference(x, sample_weight=weights, norm=norm) == pytest.approx(expected, rel=1e-12, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(values, st.data(), scales, st.sampled_from(["unbiased", "plugin"]))
def test_weights_are_scale_free(x, data, scale, norm):
    weights = data.draw(arrays(np.float64, x.size, elements=weight_values))
    assume(np.count_nonzero(weights) >= 2)
    base = gini_mean_difference(x, sample_weight=weights, norm=norm)
    for scaled in (scale * weights, weights / weights.sum()):
        assert gini_mean_difference(x, sample_weight=scaled, norm=norm) == pytest.approx(base, rel=1e-12, abs=1e-12)
    if np.average(x, weights=weights) != 0:
        assert gini_index(x, sample_weight=scale * weights, norm=norm) == pytest.approx(
            gini_index(x, sample_weight=weights, norm=norm), rel=1e-12, abs=1e-12
        )


@settings(max_examples=60, deadline=None)
@given(values, st.data())
def test_integer_weights_equal_repeated_samples(x, data):
    counts = data.draw(arrays(np.int64, x.size, elements=st.integers(0, 4)))
    assume(np.count_nonzero(counts) >= 2)
    repeated = np.repeat(x, counts)
    # plugin: the same pair sum over the same total, so exactly the repeated sample's value
    assert gini_mean_difference(x, sample_weight=counts, norm="plugin") == pytest.approx(
        gini_mean_difference(repeated, norm="plugin"), rel=1e-12, abs=1e-9
    )
    # unbiased: the same pair sum, divided by Σ_{a≠b} w_a w_b instead of W (W - 1)
    total, squares = counts.sum(), (counts**2).sum()
    assert gini_mean_difference(x, sample_weight=counts) * (total**2 - squares) == pytest.approx(
        gini_mean_difference(repeated) * total * (total - 1), rel=1e-12, abs=1e-9
    )


@settings(max_examples=60, deadline=None)
@given(values, st.data(), st.sampled_from(["unbiased", "plugin"]))
def test_zero_weight_removes_the_sample(x, data, norm):
    keep = data.draw(arrays(bool, x.size))
    assume(keep.sum() >= 2)
    assert gini_mean_difference(x, sample_weight=keep.astype(float), norm=norm) == pytest.approx(
        gini_mean_difference(x[keep], norm=norm), rel=1e-12, abs=1e-9
    )


def test_a_dominant_weight_does_not_cancel_the_others():
    # two values: every pair differs by 1, so Δ = 1 exactly for any positive weights
    for weights in ([1e-17, 1.0], [1.0, 1e-17], [1.0, 1e-17, 1e-17]):
        assert gini_mean_difference(
            np.arange(len(weights)) % 2 * 1.0, sample_weight=weights, norm="unbiased"
        ) == pytest.approx(brute_force_mean_difference(np.arange(len(weights)) % 2 * 1.0, weights), rel=1e-12)


def test_large_n_against_double_loop_with_ties():
    rng = np.random.default_rng(0)
    x = np.round(rng.gamma(2.0, size=500), 2)  # many ties
    weights = rng.uniform(0, 3, size=500)
    assert gini_mean_difference(x) == pytest.approx(brute_force_mean_difference(x), rel=1e-12)
    assert gini_mean_difference(x, sample_weight=weights) == pytest.approx(
        brute_force_mean_difference(x, weights), rel=1e-12
    )


def test_columns_of_a_matrix_are_independent():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 3))
    w = rng.uniform(size=30) + 0.1
    got = gini_mean_difference(X, sample_weight=w, norm="plugin")
    for j in range(3):
        assert got[j] == pytest.approx(brute_force_mean_difference(X[:, j], w, "plugin"), rel=1e-12)


def test_gini_index_is_mean_difference_over_twice_the_mean():
    x = np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
    assert gini_index(x) == pytest.approx(brute_force_mean_difference(x) / (2 * x.mean()), rel=1e-12)
    # negative mean: |μ| keeps the index non-negative
    assert gini_index(-x) == pytest.approx(gini_index(x), rel=1e-12)


@settings(max_examples=60, deadline=None)
@given(arrays(np.float64, st.integers(2, 40), elements=st.floats(0.0, 100.0)))
def test_gini_index_of_non_negative_data_is_in_unit_interval(x):
    if not np.any(x):  # all zero: the index is undefined (subnormal values whose mean underflows are not)
        return
    n = x.size
    assert -1e-12 <= gini_index(x) <= 1 + 1e-12
    assert -1e-12 <= gini_index(x, norm="plugin") <= (n - 1) / n + 1e-12


def test_extremes_of_the_gini_index():
    assert gini_index(np.full(7, 2.5)) == 0.0
    assert gini_index([0, 0, 0, 0, 1.0]) == pytest.approx(1.0)
    assert gini_index([0, 0, 0, 0, 1.0], norm="plugin") == pytest.approx(4 / 5)


def test_scale_invariance_of_the_index():
    x = np.array([0.2, 0.5, 0.1, 0.9, 0.4])
    assert gini_index(1e4 * x) == pytest.approx(gini_index(x), rel=1e-12)


@pytest.mark.parametrize(
    "x, match",
    [
        ([1.0], "at least 2"),
        ([1.0, np.nan, 2.0], "NaN or infinity"),
        ([1.0, np.inf], "NaN or infinity"),
        (np.ones((2, 2, 2)), "1-D or 2-D"),
    ],
)
def test_bad_values_raise(x, match):
    with pytest.raises(ValueError, match=match):
        gini_mean_difference(x)


def test_bad_options_raise():
    with pytest.raises(ValueError, match="norm must be one of"):
        gini_mean_difference([1.0, 2.0], norm="biased")
    assert gini_mean_difference([1.0, 2.0], sample_weight=[0.5, 0.5]) == 1.0  # weights summing to 1
    with pytest.raises(ValueError, match="positive weight to fewer than 2 samples"):
        gini_mean_difference([1.0, 2.0], sample_weight=[0.0, 1.0])
    with pytest.raises(ValueError, match="mean of 0"):
        gini_index([-1.0, 1.0])
    with pytest.raises(TypeError, match="numeric"):
        gini_mean_difference(["a", "b"])


@pytest.mark.parametrize("value", [5e-324, 1e-320, 1e-310, 2e-308, 3.0, 1e300])
@pytest.mark.parametrize("n", [2, 8, 16, 40])
def test_gini_index_of_one_nonzero_value_is_exact_at_any_magnitude(value, n):
    # one non-zero value among n: the plug-in index is (n - 1) / n and the unbiased one is 1, exactly;
    # subnormal values (a mean with a few significant bits) gave 0.9405 for 15/16 = 0.9375
    x = np.zeros(n)
    x[-1] = value
    assert gini_index(x, norm="plugin") == pytest.approx((n - 1) / n, rel=1e-15, abs=0)
    assert gini_index(x) == pytest.approx(1.0, rel=1e-15, abs=0)
