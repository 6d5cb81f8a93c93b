"""ROC-DMF with sample weights: weighted shares, repeated rows, scale-free weights, effective sizes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polyroc.dmf import compare_models, majority_cost_weights, pairwise_rates, roc_dmf
from polyroc.dmf._rates import _weighted_type7_quantile


def _scores(seed, n=90, k=3, decimals=None):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    P = rng.dirichlet(np.ones(k), size=n) + 0.7 * np.eye(k)[y]
    P /= P.sum(axis=1, keepdims=True)
    return y, (np.round(P, decimals) if decimals else P)


def _weighted_shares(y, P, w, pairs, cutoffs, classes):
    """Brute force: weighted share of each class of a pair whose column score is above the cut-off."""
    index = {label: i for i, label in enumerate(classes)}
    tpr, fpr = np.empty(cutoffs.shape), np.empty(cutoffs.shape)
    for j, (a, b) in enumerate(pairs):
        column = P[:, index[a]]
        for t, cutoff in enumerate(cutoffs[:, j]):
            above = column > cutoff
            tpr[t, j] = w[(y == a) & above].sum() / w[y == a].sum()
            fpr[t, j] = w[(y == b) & above].sum() / w[y == b].sum()
    return tpr, fpr


@pytest.mark.parametrize("decimals", [None, 1])
def test_integer_weights_give_the_rates_of_repeated_rows_on_the_balanced_grid(decimals):
    y, P = _scores(0, decimals=decimals)
    counts = np.random.default_rng(1).integers(1, 5, y.size)
    weighted = pairwise_rates(y, P, sample_weight=counts, n_levels=19, cutoff_grid="balanced")
    repeated = pairwise_rates(np.repeat(y, counts), np.repeat(P, counts, axis=0), n_levels=19, cutoff_grid="balanced")
    np.testing.assert_array_equal(weighted.cutoffs, repeated.cutoffs)
    np.testing.assert_array_equal(weighted.tpr, repeated.tpr)
    np.testing.assert_array_equal(weighted.fpr, repeated.fpr)


@pytest.mark.parametrize("grid", ["pooled", "column", "balanced"])
def test_weighted_rates_are_weighted_shares_and_repeated_rows_at_the_same_cutoffs(grid):
    y, P = _scores(2, decimals=2)
    counts = np.random.default_rng(3).integers(1, 4, y.size)
    result = pairwise_rates(y, P, sample_weight=counts * 0.1, n_levels=9, cutoff_grid=grid)
    tpr, fpr = _weighted_shares(y, P, counts.astype(float), result.pairs, result.cutoffs, result.classes)
    np.testing.assert_allclose(result.tpr, tpr, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.fpr, fpr, rtol=0, atol=1e-12)
    y_rep, P_rep = np.repeat(y, counts), np.repeat(P, counts, axis=0)
    ones = np.ones(y_rep.size)
    tpr_rep, fpr_rep = _weighted_shares(y_rep, P_rep, ones, result.pairs, result.cutoffs, result.classes)
    np.testing.assert_allclose(result.tpr, tpr_rep, rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.fpr, fpr_rep, rtol=0, atol=1e-12)


@pytest.mark.parametrize("scale", [2.0**-1000, 0.37, 1.0, 3.0, 1e300])
def test_uniform_weights_change_nothing(scale):
    y, P = _scores(4)
    weights = np.full(y.size, scale)
    options = {"n_levels": 19, "bootstrap": "stratified", "n_boot": 8, "random_state": 0}
    plain, weighted = roc_dmf(y, P, **options), roc_dmf(y, P, sample_weight=weights, **options)
    assert weighted.D == plain.D
    np.testing.assert_array_equal(weighted.bootstrap.D, plain.bootstrap.D)
    np.testing.assert_array_equal(weighted.n_pos, plain.n_pos)
    rates = pairwise_rates(y, P, sample_weight=weights, n_levels=9)
    np.testing.assert_array_equal(rates.tpr, pairwise_rates(y, P, n_levels=9).tpr)
    _, other = _scores(5)
    models = {"a": P, "b": other}
    compared = compare_models(y, models, sample_weight=weights, n_levels=9, n_boot=5, random_state=0)
    np.testing.assert_array_equal(compared.D, compare_models(y, models, n_levels=9, n_boot=5, random_state=0).D)


def test_weights_are_scale_free():
    y, P = _scores(6)
    w = np.random.default_rng(7).uniform(0.2, 3.0, y.size)
    base = roc_dmf(y, P, sample_weight=w, n_levels=19)
    for factor in (1e-9, 7.0, 1e12):
        scaled = roc_dmf(y, P, sample_weight=w * factor, n_levels=19)
        assert scaled.D == pytest.approx(base.D, abs=1e-12)
        np.testing.assert_allclose(scaled.cutoffs, base.cutoffs, rtol=1e-12)


def test_zero_weight_removes_the_sample():
    y, P = _scores(8)
    w = np.random.default_rng(9).uniform(0.5, 2.0, y.size)
    w[::7] = 0.0
    keep = w > 0
    with_zeros = roc_dmf(y, P, sample_weight=w, n_levels=19)
    subset = roc_dmf(y[keep], P[keep], sample_weight=w[keep], n_levels=19)
    assert with_zeros.D == subset.D


def test_sizes_are_kish_effective_sizes_and_weights_move_d():
    y, P = _scores(10)
    w = np.random.default_rng(11).uniform(0.1, 5.0, y.size)
    result = roc_dmf(y, P, sample_weight=w, n_levels=19)
    kish = {c: w[y == c].sum() ** 2 / (w[y == c] ** 2).sum() for c in range(3)}
    np.testing.assert_allclose(result.n_pos, [kish[a] for a, _ in result.pairs], rtol=1e-12)
    np.testing.assert_allclose(result.n_neg, [kish[b] for _, b in result.pairs], rtol=1e-12)
    assert result.D != roc_dmf(y, P, n_levels=19).D


@pytest.mark.parametrize("kind", ["parametric", "stratified"])
def test_weighted_bootstrap_is_seeded_and_brackets_d(kind):
    y, P = _scores(12, n=150)
    w = np.random.default_rng(13).uniform(0.5, 2.0, y.size)
    a = roc_dmf(y, P, sample_weight=w, n_levels=19, bootstrap=kind, n_boot=40, random_state=1)
    b = roc_dmf(y, P, sample_weight=w, n_levels=19, bootstrap=kind, n_boot=40, random_state=1)
    np.testing.assert_array_equal(a.bootstrap.D, b.bootstrap.D)
    assert a.ci.low <= a.D <= a.ci.high


def test_majority_costs_use_effective_sizes():
    y = np.array([0, 0, 0, 1, 1, 2])
    plain = majority_cost_weights(y, 2.0)
    np.testing.assert_array_equal(majority_cost_weights(y, 2.0, sample_weight=np.full(6, 0.3)), plain)
    w = np.array([1.0, 2.0, 3.0, 1.0, 1.0, 1.0])
    kish = np.array([36 / 14, 2.0, 1.0])
    pairs = [(a, b) for a in range(3) for b in range(3) if a != b]
    weighted = majority_cost_weights(y, 2.0, sample_weight=w)
    costs = weighted[0] * [kish[a] * kish[b] for a, b in pairs]
    np.testing.assert_allclose(costs, [2.0, 2.0, 0.5, 1.0, 0.5, 1.0])


@pytest.mark.parametrize(
    ("sample_weight", "error"),
    [([1.0] * 5, ValueError), ([-1.0] + [1.0] * 89, ValueError), ([np.nan] * 90, ValueError), (["a"] * 90, TypeError)],
)
def test_bad_sample_weight_is_named(sample_weight, error):
    y, P = _scores(14)
    with pytest.raises(error, match="sample_weight"):
        roc_dmf(y, P, sample_weight=sample_weight)


def _akinshin_type7(x, w, p):
    """Weighted type-7 by its definition: sum of x_i times the Uniform-window mass of its weight share."""
    order = np.argsort(x, kind="stable")
    x, w = x[order], w[order] / w.sum()
    n = 1 / (w @ w)
    h = (n - 1) * p + 1
    edges = np.concatenate(([0.0], np.cumsum(w)))
    mass = np.clip(edges * n - h + 1, 0, 1)
    return float(np.diff(mass) @ x)


@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(st.integers(0, 20), min_size=2, max_size=30),
    weights=st.lists(st.integers(1, 9), min_size=30, max_size=30),
    level=st.floats(0.01, 0.99),
)
def test_weighted_type7_matches_its_definition(values, weights, level):
    x = np.sort(np.array(values, dtype=float) / 20)
    w = np.array(weights[: x.size], dtype=float)
    got = _weighted_type7_quantile(x, w, np.array([level]))[0]
    assert got == pytest.approx(_akinshin_type7(x, w, level), abs=1e-9)
    equal = _weighted_type7_quantile(x, np.full(x.size, 0.3), np.array([level]))[0]
    assert equal == pytest.approx(float(np.quantile(x, level)), abs=1e-12)
