"""The plain and stratified variance of a mean of per-row values, from per-class moments.

Oracles: scipy's one-sample t (``ttest_1samp``) on unweighted values, the moments of the rows taken
as one class computed directly, and the plain influence variance of a weighted mean written out here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from polyroc.intervals._moments import ClassMoments
from polyroc.intervals._posterior import mean_t_test


def rows(seed, n, m, weighted):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    values = rng.exponential(1.0 + y, n) + 10.0 * y  # class means far apart: the between-class spread counts
    weights = rng.uniform(0.1, 4.0, n) if weighted else None
    return values, y, weights


@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
    m=st.integers(1, 5),
    weighted=st.booleans(),
    parts=st.integers(1, 4),
)
def test_pooled_moments_of_merged_batches_are_the_moments_of_the_rows_as_one_class(seed, n, m, weighted, parts):
    values, y, weights = rows(seed, n, m, weighted)
    merged = None
    for part in np.array_split(np.arange(n), parts):
        batch = ClassMoments.of(values[part], y[part], m, None if weights is None else weights[part])
        merged = batch if merged is None else merged.merged(batch)
    pooled = merged.pooled()
    direct = ClassMoments.of(values, np.zeros(n, dtype=np.intp), 1, weights)
    for name in ("rows", "weight", "weighted_sum", "square", "square_mean", "square_spread"):
        np.testing.assert_allclose(getattr(pooled, name), getattr(direct, name), rtol=1e-9, atol=1e-9, err_msg=name)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("m", [1, 3])
def test_the_plain_t_interval_is_scipys_one_sample_t(seed, m):
    values, y, _ = rows(seed, 50, m, False)
    mean, low, high, p_value = mean_t_test(ClassMoments.of(values - 12.0, y, m, None), confidence=0.9, variance="plain")
    test = stats.ttest_1samp(values - 12.0, 0.0)
    interval = test.confidence_interval(0.9)
    assert (mean, low, high) == pytest.approx((np.mean(values) - 12.0, interval.low, interval.high), rel=1e-12)
    assert p_value == pytest.approx(test.pvalue, rel=1e-12)


def test_the_weighted_plain_variance_is_that_of_the_influences():
    values, y, weights = rows(5, 40, 3, True)
    mean, low, high, _ = mean_t_test(ClassMoments.of(values, y, 3, weights), confidence=0.95, variance="plain")
    oracle_mean = np.sum(weights * values) / np.sum(weights)
    influence = weights * (values - oracle_mean) / np.sum(weights)
    half = stats.t.ppf(0.975, 39) * np.sqrt(40 / 39 * np.sum(influence**2))
    assert (mean, low, high) == pytest.approx((oracle_mean, oracle_mean - half, oracle_mean + half), rel=1e-12)


def test_the_plain_variance_counts_the_spread_between_the_classes():
    values, y, _ = rows(6, 90, 3, False)
    moments = ClassMoments.of(values, y, 3, None)
    plain = mean_t_test(moments, confidence=0.95, variance="plain")
    stratified = mean_t_test(moments, confidence=0.95, variance="stratified")
    assert plain[2] - plain[1] > 2 * (stratified[2] - stratified[1])  # class means 10 apart, spreads about 1-3


def test_values_that_do_not_vary_give_a_zero_width_and_no_p_value():
    moments = ClassMoments.of(np.full(5, 2.0), np.array([0, 1, 0, 1, 1]), 2, None)
    mean, low, high, p_value = mean_t_test(moments, confidence=0.95, variance="plain")
    assert (mean, low, high) == (2.0, 2.0, 2.0) and np.isnan(p_value)
