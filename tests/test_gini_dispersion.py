"""1-D Gini mean difference and Gini index: the sorted O(n log n) form against the O(n²) definition."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from polyroc.gini import gini_index, gini_mean_difference


def brute_force_mean_difference(x, weights=None, norm="unbiased"):
    """Σ_{a,b} w_a w_b |x_a - x_b| over ordered pairs, by a double loop, divided by the pair total."""
    n = len(x)
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    total = 0.0
    for a in range(n):
        for b in range(n):
            total += w[a] * w[b] * abs(x[a] - x[b])
    size = w.sum()
    return total / (size * (size - 1) if norm == "unbiased" else size * size)


values = arrays(np.float64, st.integers(2, 60), elements=st.floats(-1e3, 1e3, allow_nan=False))


@settings(max_examples=60, deadline=None)
@given(values, st.sampled_from(["unbiased", "plugin"]))
def test_fast_equals_double_loop(x, norm):
    expected = brute_force_mean_difference(x, norm=norm)
    assert gini_mean_difference(x, norm=norm) == pytest.approx(expected, rel=1e-12, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(values, st.data())
def test_fast_equals_double_loop_with_weights(x, data):
    weights = data.draw(arrays(np.float64, x.size, elements=st.floats(0.0, 5.0)))
    weights[0] += 1.5  # total above 1
    expected = brute_force_mean_difference(x, weights)
    assert gini_mean_difference(x, sample_weight=weights) == pytest.approx(expected, rel=1e-12, abs=1e-9)


def test_integer_weights_equal_repeated_samples():
    rng = np.random.default_rng(3)
    x = rng.normal(size=40)
    counts = rng.integers(0, 4, size=40)
    counts[0] = 2
    repeated = np.repeat(x, counts)
    assert gini_mean_difference(x, sample_weight=counts) == pytest.approx(
        gini_mean_difference(repeated), rel=1e-12
    )


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
    if x.mean() == 0:  # all zero, or subnormals whose mean underflows: the index is undefined
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
    with pytest.raises(ValueError, match="total weight above 1"):
        gini_mean_difference([1.0, 2.0], sample_weight=[0.5, 0.5])
    with pytest.raises(ValueError, match="mean of 0"):
        gini_index([-1.0, 1.0])
    with pytest.raises(TypeError, match="numeric"):
        gini_mean_difference(["a", "b"])
