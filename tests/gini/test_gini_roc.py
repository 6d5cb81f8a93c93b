"""gini_roc: weights, aggregated curve and area against independent oracles; invariances; errors."""

import json
import warnings

import matplotlib
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

import polyroc.exceptions
import polyroc.gini
from polyroc._results import Result
from polyroc.gini import GiniRoc, ScoreScaleWarning, WhiteningWarning, gini_roc

matplotlib.use("Agg")


def scored_sample(n, k, seed, *, simplex=True, decimals=None):
    """Labels and informative scores; softmax rows or unnormalised positive scores."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    logits = rng.normal(size=(n, k)) + 1.2 * np.eye(k)[y]
    scores = np.exp(logits)
    if simplex:
        scores /= scores.sum(axis=1, keepdims=True)
    if decimals is not None:
        scores = np.round(scores, decimals)
    return y, scores


def quiet_gini_roc(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        warnings.simplefilter("ignore", ScoreScaleWarning)
        return gini_roc(*args, **kwargs)


def tpr_interval(f, fpr, tpr):
    """Lowest and highest TPR of a piecewise-linear ROC curve at FPR f (by scanning its points)."""
    at = [t for x, t in zip(fpr, tpr) if x == f]
    if at:
        return min(at), max(at)
    for j in range(len(fpr) - 1):
        if fpr[j] < f < fpr[j + 1]:
            value = tpr[j] + (tpr[j + 1] - tpr[j]) * (f - fpr[j]) / (fpr[j + 1] - fpr[j])
            return value, value
    raise AssertionError(f"{f} outside the curve")


def mann_whitney_auc(positive, score):
    """P(score of a positive > score of a negative) + half the ties, by a double loop."""
    pos, neg = score[positive], score[~positive]
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (pos.size * neg.size)


@pytest.mark.parametrize("simplex", [True, False])
@pytest.mark.parametrize("grid", [None, 100])
def test_aggregated_curve_lies_between_the_class_curves(simplex, grid):
    y, P = scored_sample(120, 4, 0, simplex=simplex, decimals=2)
    result = quiet_gini_roc(y, P, grid=grid, n_boot=0)
    assert np.all(result.weights >= 0) and result.weights.sum() == pytest.approx(1, abs=1e-12)
    curves = [sk_roc_curve(y == i, P[:, i])[:2] for i in range(4)]
    for f, t in zip(result.fpr, result.tpr):
        intervals = [tpr_interval(f, *curve) for curve in curves]
        assert min(low for low, _ in intervals) - 1e-12 <= t <= max(high for _, high in intervals) + 1e-12
    assert np.all(np.diff(result.fpr) >= 0) and np.all(np.diff(result.tpr) >= -1e-12)
    assert result.fpr[-1] == 1 and result.tpr[-1] == pytest.approx(1)


def test_grid_curve_is_weighted_upper_tpr_at_equispaced_fpr():
    y, P = scored_sample(90, 3, 1, decimals=1)
    result = quiet_gini_roc(y, P, grid=100, n_boot=0)
    grid = np.linspace(0, 1, 100)
    curves = [sk_roc_curve(y == i, P[:, i])[:2] for i in range(3)]
    expected = [sum(w * tpr_interval(f, *c)[1] for w, c in zip(result.weights, curves)) for f in grid]
    np.testing.assert_allclose(result.fpr, grid)
    np.testing.assert_allclose(result.tpr, expected, atol=1e-12)


def test_exact_area_is_the_weighted_mean_of_mann_whitney_aucs():
    y, P = scored_sample(80, 4, 2, decimals=2)  # ties: diagonal segments
    result = quiet_gini_roc(y, P, n_boot=0)
    aucs = np.array([mann_whitney_auc(y == i, P[:, i]) for i in range(4)])
    np.testing.assert_allclose(result.class_auc, aucs, atol=1e-12)
    assert result.auc_agg == pytest.approx(result.weights @ aucs, abs=1e-12)
    assert aucs.min() <= result.auc_agg <= aucs.max()
    assert abs(quiet_gini_roc(y, P, grid=100, n_boot=0).auc_agg - result.auc_agg) < 0.01


def test_limit_weights_on_probabilities_are_sigma_shares():
    y, P = scored_sample(150, 5, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)  # rows summing to 1: expected, so silent
        result = gini_roc(y, P, n_boot=0)
    sigma = P.std(axis=0, ddof=1)
    np.testing.assert_allclose(result.weights, sigma / sigma.sum(), rtol=1e-9)
    assert result.degenerate and result.g1 == 0 and result.auc_theory == 0.5
    assert result.settings["whitening"] == "limit" and result.settings["singular"] == "limit"


def test_invariant_to_positive_column_scaling():
    for simplex in (True, False):
        y, P = scored_sample(100, 4, 4, simplex=simplex)
        base = quiet_gini_roc(y, P, n_boot=0)
        scaled = quiet_gini_roc(y, P * np.array([2.0, 0.1, 30.0, 1.0]), n_boot=0)
        np.testing.assert_allclose(scaled.weights, base.weights, rtol=1e-8)
        assert scaled.g1 == pytest.approx(base.g1, rel=1e-8, abs=1e-12)
        assert scaled.auc_agg == pytest.approx(base.auc_agg, rel=1e-12)


def test_class_permutation_permutes_weights_and_keeps_the_aggregate():
    y, P = scored_sample(100, 4, 5, simplex=False, decimals=2)
    names = np.array(["a", "b", "c", "d"])
    base = quiet_gini_roc(names[y], P, labels=names, n_boot=0)
    perm = np.array([2, 0, 3, 1])
    permuted = quiet_gini_roc(names[y], P[:, perm], labels=names[perm], n_boot=0)
    np.testing.assert_allclose(permuted.weights, base.weights[perm], rtol=1e-9)
    np.testing.assert_allclose(permuted.class_auc, base.class_auc[perm])
    np.testing.assert_allclose(permuted.fpr, base.fpr)
    np.testing.assert_allclose(permuted.tpr, base.tpr, atol=1e-12)
    rows = np.random.default_rng(0).permutation(100)
    shuffled = quiet_gini_roc(names[y][rows], P[rows], labels=names, n_boot=0)
    np.testing.assert_allclose(shuffled.weights, base.weights, rtol=1e-9)
    assert shuffled.auc_agg == pytest.approx(base.auc_agg, abs=1e-12)


def test_two_classes_reduce_to_the_binary_auc():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 200)
    p1 = np.round(1 / (1 + np.exp(-(rng.normal(size=200) + 1.5 * y))), 2)
    result = quiet_gini_roc(y, np.column_stack([1 - p1, p1]), n_boot=0)
    np.testing.assert_allclose(result.weights, [0.5, 0.5], atol=1e-12)
    assert result.auc_agg == pytest.approx(roc_auc_score(y, p1), abs=1e-12)


def test_perfect_scores_give_one_and_random_scores_cover_one_half():
    y, P = scored_sample(60, 3, 7)
    perfect = np.eye(3)[y] * 0.8 + 0.1 * P
    assert quiet_gini_roc(y, perfect, n_boot=0).auc_agg == pytest.approx(1.0)
    rng = np.random.default_rng(7)
    noise = rng.dirichlet(np.ones(3), size=300)
    result = quiet_gini_roc(rng.integers(0, 3, 300), noise, n_boot=200, random_state=0)
    ci = result.bootstrap.auc
    assert ci.low <= 0.5 <= ci.high and ci.low > 1 / 3


def test_bootstrap_is_seeded_and_consistent():
    y, P = scored_sample(90, 3, 8, decimals=2)
    first = quiet_gini_roc(y, P, n_boot=50, random_state=3)
    second = quiet_gini_roc(y, P, n_boot=50, random_state=3)
    boot = first.bootstrap
    np.testing.assert_array_equal(boot.tpr_low, second.bootstrap.tpr_low)
    assert boot.auc.low == second.bootstrap.auc.low and boot.auc.estimate == first.auc_agg
    assert boot.auc.low <= first.auc_agg <= boot.auc.high and boot.auc_se > 0
    assert np.all(boot.tpr_low <= boot.tpr_high) and boot.fpr.size == 101
    assert np.all(boot.weights_low <= first.weights + 1e-12)
    assert np.all(first.weights <= boot.weights_high + 1e-12)
    assert "bootstrap" in boot.auc.method and boot.auc.n_boot == 50


def test_monotone_transform_changes_weights_not_the_class_curve():
    y, P = scored_sample(100, 3, 9, simplex=False)
    transformed = P.copy()
    transformed[:, 0] = np.log(P[:, 0]) + 10
    base, other = quiet_gini_roc(y, P, n_boot=0), quiet_gini_roc(y, transformed, n_boot=0)
    np.testing.assert_allclose(other.class_fpr[0], base.class_fpr[0])
    np.testing.assert_allclose(other.class_tpr[0], base.class_tpr[0])
    assert not np.allclose(other.weights, base.weights)


def test_reference_scores_fit_the_whitening():
    _, train = scored_sample(300, 4, 10)
    y_test, test = scored_sample(80, 4, 11)
    result = quiet_gini_roc(y_test, test, reference_scores=train, n_boot=0)
    sigma = train.std(axis=0, ddof=1)  # limit weights on simplex rows: σ of the *fitting* set
    np.testing.assert_allclose(result.weights, sigma / sigma.sum(), rtol=1e-8)
    assert result.settings["fitted_on"] == "reference_scores"


def test_constant_score_column_warns_and_gets_weight_zero():
    y, P = scored_sample(60, 4, 12, simplex=False)
    P[:, 1] = 0.5
    with pytest.warns(WhiteningWarning, match=r"classes \[1\] are constant"):
        result = gini_roc(y, P, n_boot=0)
    assert result.weights[1] == 0 and result.settings["constant_classes"] == [1]
    assert 1 not in result.classes_used and result.class_auc[1] == 0.5
    with pytest.raises(ValueError, match="constant"):
        gini_roc(y, P, constant="raise", n_boot=0)


def test_absent_class_raises_or_is_dropped():
    y, P = scored_sample(60, 4, 13, simplex=False)
    y[y == 2] = 0
    with pytest.raises(ValueError, match=r"labels \[2\] have no samples"):
        gini_roc(y, P, labels=[0, 1, 2, 3], n_boot=0)
    result = quiet_gini_roc(y, P, labels=[0, 1, 2, 3], absent="drop", n_boot=0)
    assert result.weights[2] == 0 and result.weights.sum() == pytest.approx(1)
    assert result.settings["absent_classes"] == [2] and 2 not in result.classes_used
    assert result.auc_agg == pytest.approx(np.nansum(result.weights * result.class_auc), abs=1e-12)


def test_singular_handling_is_recorded():
    y, P = scored_sample(50, 3, 14)
    with pytest.raises(ValueError, match="singular"):
        gini_roc(y, P, singular="raise", n_boot=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)  # the one null direction of probability rows
        result = gini_roc(y, P, singular="diagonal", n_boot=0)
    assert result.settings["whitening"] == "diagonal" and not result.degenerate
    assert np.isinf(result.settings["condition_number"]) or result.settings["condition_number"] > 1e8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full_rank = gini_roc(*scored_sample(50, 3, 14, simplex=False), n_boot=0)
    assert full_rank.settings["whitening"] == "exact"


@pytest.mark.parametrize(
    "y, P, kwargs, match",
    [
        ([0, 1], [[np.nan, 0.5], [0.5, 0.5]], {}, "NaN or infinity"),
        (
            [0, 1, 1],
            [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]],
            {"reference_scores": [[0.1, np.inf]] * 3},
            "reference_scores contains NaN",
        ),
        (
            [0, 1, 1],
            [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]],
            {"reference_scores": [[0.1, 0.9]]},
            "reference_scores has 1 sample;",
        ),
        (
            [0, 1, 1],
            [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]],
            {"reference_scores": [[0.1, 0.2, 0.7]] * 3},
            "must have 2 columns",
        ),
        (
            [0, 1, 1],
            [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]],
            {"grid": 1},
            r"^grid must be None or an int in \[2, inf\); got 1$",
        ),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"absent": "keep"}, "absent must be one of"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"compat": "paper"}, "compat must be one of"),
        (
            [0, 1, 1],
            [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]],
            {"compat": "reference", "grid": 50},
            "compat='reference' fixes",
        ),
    ],
)
def test_bad_input_raises(y, P, kwargs, match):
    with pytest.raises(ValueError, match=match):
        quiet_gini_roc(y, P, **kwargs, n_boot=0)


def test_fewer_than_two_samples_raise():
    with pytest.raises(ValueError, match="y_score has 1 sample; at least 2 are needed"):
        gini_roc(["a"], [[0.3, 0.7]], labels=["a", "b"], n_boot=0)


def test_result_is_frozen_and_plot_delegates_to_the_display(monkeypatch):
    import polyroc.plotting  # noqa: F401 (registers the Displays)
    from polyroc import _displays

    y, P = scored_sample(60, 3, 15, decimals=2)
    result = quiet_gini_roc(y, P, n_boot=20, random_state=0)
    assert isinstance(result, GiniRoc) and isinstance(result, Result) and isinstance(result.bootstrap, Result)
    with pytest.raises(AttributeError):
        result.g1 = 1.0
    calls = []

    class Display:
        @classmethod
        def from_result(cls, result, *, ax=None, **kwargs):
            calls.append((result, ax, kwargs))
            return "drawn"

    monkeypatch.setitem(_displays._DRAWERS, type(result), Display.from_result)  # what plot() looks up
    assert result.plot("axes", show_classes=False) == "drawn"
    assert calls == [(result, "axes", {"show_classes": False})]


def test_result_protocol_json_and_frame():
    y, P = scored_sample(60, 3, 15, decimals=2)
    result = quiet_gini_roc(y, P, n_boot=20, random_state=0)
    record = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert record["type"] == "GiniRoc" and record["auc_agg"] == result.auc_agg
    assert record["bootstrap"]["auc"]["low"] == result.bootstrap.auc.low
    assert record["bootstrap"]["settings"] == {
        "n_boot": 20,
        "confidence": 0.95,
        "random_state": 0,
        "interval_method": "stratified percentile bootstrap",
        "stratify": True,
    }
    assert record["settings"]["n_boot"] == 20 and record["settings"]["averaging"] == "vertical"
    frame = result.to_frame()
    assert list(frame["class"]) == result.classes.tolist()
    np.testing.assert_array_equal(frame["weight"], result.weights)
    np.testing.assert_array_equal(frame["auc"], result.class_auc)
    assert len(result.bootstrap.to_frame()) == result.bootstrap.fpr.size


def test_default_is_a_bootstrap_of_1000_replicates():
    y, P = scored_sample(30, 3, 16, decimals=2)
    result = quiet_gini_roc(y, P, random_state=0)
    assert result.bootstrap.auc.n_boot == 1000 and result.settings["n_boot"] == 1000
    assert quiet_gini_roc(y, P, n_boot=0).bootstrap is None


def curve_range(f, fpr, values, tol=1e-12):
    """Lowest and highest value of a piecewise-linear curve at FPR f (points within tol count as at f)."""
    near = np.abs(fpr - f) <= tol
    if near.any():
        return values[near].min(), values[near].max()
    right = int(np.searchsorted(fpr, f))
    share = (f - fpr[right - 1]) / (fpr[right] - fpr[right - 1])
    value = values[right - 1] + share * (values[right] - values[right - 1])
    return value, value


def assert_same_curve(fpr, values, other_fpr, other_values, atol, name):
    """Every point of each curve lies on the other (their point lists may differ by collinear points)."""
    for (f, v), (g, w) in (((fpr, values), (other_fpr, other_values)), ((other_fpr, other_values), (fpr, values))):
        assert f[0] == g[0] == 0 and f[-1] == pytest.approx(1, abs=atol) and g[-1] == pytest.approx(1, abs=atol)
        for x, y in zip(f, v):
            low, high = curve_range(x, g, w, tol=atol)
            assert low - atol <= y <= high + atol, (name, x, y, low, high)


def assert_same_result(result, expected, *, atol=1e-12, scale_free_only=False):
    """The numbers and curves of two GiniRoc results agree to ``atol`` (NaN where NaN).

    ``scale_free_only`` leaves out m* and Δ, which scale with W (its ddof=1
    covariance divisor is Σw - Σw²/Σw for weights, n - 1 for repeated rows).
    """
    np.testing.assert_allclose(result.weights, expected.weights, rtol=0, atol=atol, err_msg="weights")
    np.testing.assert_allclose(result.class_auc, expected.class_auc, rtol=0, atol=atol, err_msg="class_auc")
    # m* and Δ are unbounded and, in the singular limit, go through P's null eigenvector, whose
    # rounding error grows as the eigenvalue gap shrinks: compared relatively, more loosely
    for name in () if scale_free_only else ("whitened_mean", "mean_difference"):
        np.testing.assert_allclose(getattr(result, name), getattr(expected, name), rtol=1e-9, atol=atol, err_msg=name)
    assert_same_curve(result.fpr, result.tpr, expected.fpr, expected.tpr, atol, "tpr")
    assert_same_curve(result.fpr, result.dispersion, expected.fpr, expected.dispersion, atol, "dispersion")
    for i, (f, t, g, u) in enumerate(zip(result.class_fpr, result.class_tpr, expected.class_fpr, expected.class_tpr)):
        assert_same_curve(f, t, g, u, atol, f"class {i}")
    assert result.g1 == pytest.approx(expected.g1, rel=atol, abs=atol)
    assert result.auc_agg == pytest.approx(expected.auc_agg, abs=atol)


def assert_same_bootstrap(result, expected, *, atol=1e-12):
    got, want = result.bootstrap, expected.bootstrap
    for name in ("fpr", "tpr_low", "tpr_high", "weights_low", "weights_high"):
        np.testing.assert_allclose(getattr(got, name), getattr(want, name), rtol=0, atol=atol, err_msg=name)
    assert (got.auc.low, got.auc.high) == pytest.approx((want.auc.low, want.auc.high), abs=atol)
    assert got.auc_se == pytest.approx(want.auc_se, abs=atol)


averagings = st.sampled_from(["vertical", "threshold"])
kinds = st.sampled_from(["simplex", "scores"])


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), kinds, averagings)
def test_integer_weights_equal_repeated_rows(seed, kind, averaging):
    y, P = scored_sample(40, 3, seed, simplex=kind == "simplex", decimals=2)
    counts = np.random.default_rng(seed).integers(0, 4, size=40)
    counts[:3] = [1, 2, 3]  # every class keeps a row
    options = {"averaging": averaging, "gini_norm": "plugin"}  # plugin: same pairs, same total
    weighted = quiet_gini_roc(y, P, sample_weight=counts, **options, n_boot=0)
    repeated = quiet_gini_roc(np.repeat(y, counts), np.repeat(P, counts, axis=0), **options, n_boot=0)
    assert_same_result(weighted, repeated, atol=1e-10, scale_free_only=True)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    kinds,
    averagings,
    st.sampled_from([1e-300, 1e-150, 1e-8, 0.37, 3.0, 1e8, 1e150, 1e300, "sum to 1"]),
)
def test_sample_weights_are_scale_free(seed, kind, averaging, scale):
    y, P = scored_sample(30, 3, seed, simplex=kind == "simplex", decimals=2)
    weights = np.random.default_rng(seed).uniform(0.1, 3.0, size=30)
    scaled = weights / weights.sum() if scale == "sum to 1" else scale * weights
    options = {"averaging": averaging, "n_boot": 15, "random_state": seed}
    base = quiet_gini_roc(y, P, sample_weight=weights, **options)
    other = quiet_gini_roc(y, P, sample_weight=scaled, **options)
    assert_same_result(other, base)
    assert_same_bootstrap(other, base)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), kinds, averagings)
def test_zero_weight_removes_the_row_bootstrap_included(seed, kind, averaging):
    y, P = scored_sample(40, 3, seed, simplex=kind == "simplex", decimals=2)
    rng = np.random.default_rng(seed)
    keep = rng.random(40) < 0.7
    keep[:3] = True
    weights = rng.uniform(0.5, 2.0, size=40)
    options = {"averaging": averaging, "n_boot": 15, "random_state": seed}
    zeroed = quiet_gini_roc(y, P, sample_weight=np.where(keep, weights, 0.0), **options)
    removed = quiet_gini_roc(y[keep], P[keep], sample_weight=weights[keep], **options)
    assert_same_result(zeroed, removed)
    assert_same_bootstrap(zeroed, removed)


def test_weights_summing_to_one_give_the_unweighted_result():
    y, P = scored_sample(60, 3, 16, simplex=False, decimals=2)
    plain = quiet_gini_roc(y, P, n_boot=0)
    uniform = np.full(60, 1 / 60)
    nudged = uniform.copy()
    nudged[0] += 2e-16  # a total of 1 + 2e-16 once gave G1 ≈ 8e15
    for weights in (uniform, nudged):
        assert_same_result(quiet_gini_roc(y, P, sample_weight=weights, n_boot=0), plain, atol=1e-12)
    with pytest.raises(ValueError, match="sample_weight gives positive weight to 1 of the 60 samples"):
        gini_roc(y, P, sample_weight=np.eye(60)[0], n_boot=0)


def brute_force_threshold_average(y, P, sample_weight, weights):
    """Points (Σ w_i FPR_i(t), Σ w_i TPR_i(t)) for t in the scores ∪ {±inf}, by loops; the area."""
    involved = [i for i in range(P.shape[1]) if weights[i] > 0]
    thresholds = [np.inf, *sorted({P[r, i] for r in range(len(y)) for i in involved}, reverse=True), -np.inf]
    points = []
    for t in thresholds:
        fpr = tpr = 0.0
        for i in involved:
            positive = sum(sample_weight[r] for r in range(len(y)) if y[r] == i)
            negative = sum(sample_weight[r] for r in range(len(y)) if y[r] != i)
            tpr += weights[i] * sum(sample_weight[r] for r in range(len(y)) if y[r] == i and P[r, i] >= t) / positive
            fpr += weights[i] * sum(sample_weight[r] for r in range(len(y)) if y[r] != i and P[r, i] >= t) / negative
        points.append((fpr, tpr))
    points.sort()
    distinct = [p for j, p in enumerate(points) if j == 0 or not np.allclose(p, points[j - 1], atol=1e-14)]
    fpr, tpr = np.array(distinct).T
    return fpr, tpr, sum((fpr[j + 1] - fpr[j]) * (tpr[j + 1] + tpr[j]) / 2 for j in range(len(fpr) - 1))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10**6), st.booleans(), st.sampled_from([3, 5, 10]))
def test_threshold_averaging_equals_brute_force(k, seed, weighted, denominator):
    rng = np.random.default_rng(seed)
    n = 4 * k
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    votes = rng.multinomial(denominator, np.ones(k) / k, size=n) + denominator * np.eye(k, dtype=int)[y]
    P = votes / (2 * denominator)  # k-NN-like scores: few values, many ties
    sample_weight = rng.integers(1, 4, n).astype(float) if weighted else np.ones(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        result = gini_roc(y, P, sample_weight=sample_weight if weighted else None, averaging="threshold", n_boot=0)
        vertical = gini_roc(y, P, sample_weight=sample_weight if weighted else None, n_boot=0)
    np.testing.assert_allclose(result.weights, vertical.weights, rtol=1e-12)
    fpr, tpr, area = brute_force_threshold_average(y, P, sample_weight, result.weights)
    np.testing.assert_allclose(result.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(result.tpr, tpr, atol=1e-12)
    assert result.auc_agg == pytest.approx(area, abs=1e-12)
    assert result.settings["averaging"] == "threshold"


def test_threshold_averaging_on_a_grid_bootstrap_and_dispersion():
    y, P = scored_sample(90, 3, 17, decimals=2)
    exact = quiet_gini_roc(y, P, averaging="threshold", n_boot=0)
    on_grid = quiet_gini_roc(y, P, averaging="threshold", grid=50, n_boot=0)
    grid = np.linspace(0, 1, 50)
    np.testing.assert_allclose(on_grid.tpr, np.interp(grid, exact.fpr, exact.tpr), atol=1e-15)
    assert on_grid.auc_agg == pytest.approx(np.trapezoid(on_grid.tpr, grid), abs=1e-15)
    assert abs(on_grid.auc_agg - exact.auc_agg) < 0.01
    # dispersion at each threshold: spread of the class TPRs at that threshold, by loops
    t = np.sort(np.unique(P))[::-1][20]
    index = int(
        np.flatnonzero(np.isclose(exact.fpr, sum(w * np.mean(P[y != i, i] >= t) for i, w in enumerate(exact.weights))))[
            0
        ]
    )
    class_tpr = np.array([np.mean(P[y == i, i] >= t) for i in range(3)])
    spread = np.sqrt(exact.weights @ (class_tpr - exact.weights @ class_tpr) ** 2)
    assert exact.dispersion[index] == pytest.approx(spread, abs=1e-12)
    boot = quiet_gini_roc(y, P, averaging="threshold", n_boot=40, random_state=1).bootstrap
    again = quiet_gini_roc(y, P, averaging="threshold", n_boot=40, random_state=1).bootstrap
    assert boot.auc.low == again.auc.low and boot.auc.low <= exact.auc_agg <= boot.auc.high
    assert np.all(boot.tpr_low <= boot.tpr_high)


def test_threshold_averaging_warns_when_the_columns_share_no_scale():
    y, P = scored_sample(60, 3, 18)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        warnings.simplefilter("error", ScoreScaleWarning)
        gini_roc(y, P, averaging="threshold", n_boot=0)  # probabilities: one scale
        gini_roc(y, P * [1.0, 100.0, 1.0], n_boot=0)  # vertical averaging is not affected
        with pytest.warns(ScoreScaleWarning, match=r"ranges differ a lot \(class [02]: \[.*class 1: \["):
            gini_roc(y, P * [1.0, 100.0, 1.0], averaging="threshold", n_boot=0)
        with pytest.warns(ScoreScaleWarning, match="no value lies in every range"):
            gini_roc(y, P + np.array([0.0, 0.0, 5.0]), averaging="threshold", n_boot=0)  # same spans, disjoint ranges


@pytest.mark.parametrize("averaging", ["vertical", "threshold"])
@pytest.mark.parametrize("grid", [None, 20])
def test_constant_scores_give_the_diagonal_and_undefined_weights(averaging, grid):
    y = np.repeat([0, 1, 2], [5, 3, 2])
    prior = np.tile([0.5, 0.3, 0.2], (10, 1))  # a class-prior baseline
    with pytest.warns(WhiteningWarning, match="every column of y_score is constant.*AUC 0.5"):
        result = gini_roc(y, prior, averaging=averaging, grid=grid, n_boot=20, random_state=0)
    for i in range(3):  # every one-vs-rest curve is the chance diagonal
        assert result.class_auc[i] == roc_auc_score(y == i, prior[:, i]) == 0.5
    assert result.auc_agg == 0.5 and np.all(np.isnan(result.weights))
    np.testing.assert_array_equal(result.tpr, result.fpr)
    assert result.fpr[0] == 0 and result.fpr[-1] == 1 and (grid is None or result.fpr.size == grid)
    assert result.g1 == 0 and result.auc_theory == 0.5 and result.classes_used == ()
    assert (result.bootstrap.auc.low, result.bootstrap.auc.high) == (0.5, 0.5)
    assert "constant" in result.settings["whitening"]


def test_constant_scores_with_raise_or_a_constant_reference():
    y = np.repeat([0, 1, 2], [5, 3, 2])
    prior = np.tile([0.5, 0.3, 0.2], (10, 1))
    with pytest.raises(ValueError, match="every column of y_score is constant"):
        gini_roc(y, prior, constant="raise", n_boot=0)
    y_other, P = scored_sample(10, 3, 19)
    with pytest.raises(ValueError, match="every column of reference_scores is constant"):
        gini_roc(y_other, P, reference_scores=prior, n_boot=0)
    _, train = scored_sample(200, 3, 20)
    fitted = quiet_gini_roc(y, prior, reference_scores=train, n_boot=0)  # weights from the reference's fit
    sigma = train.std(axis=0, ddof=1)
    np.testing.assert_allclose(fitted.weights, sigma / sigma.sum(), rtol=1e-8)
    assert fitted.auc_agg == 0.5
    weighted = quiet_gini_roc(np.r_[y, 0], np.vstack([prior, P[:1]]), sample_weight=np.r_[np.ones(10), 0], n_boot=0)
    assert weighted.auc_agg == 0.5 and np.all(np.isnan(weighted.weights))  # the row of weight 0 is gone


def test_the_warning_classes_are_those_of_polyroc_exceptions():
    assert polyroc.gini.ScoreScaleWarning is polyroc.exceptions.ScoreScaleWarning
    assert polyroc.gini.WhiteningWarning is polyroc.exceptions.WhiteningWarning
    assert issubclass(polyroc.exceptions.WhiteningWarning, UserWarning)
