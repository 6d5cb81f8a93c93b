"""gini_roc: weights, aggregated curve and area against independent oracles; invariances; errors."""

import warnings

import matplotlib
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from polyroc.gini import GiniRoc, WhiteningWarning, gini_roc

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
    result = quiet_gini_roc(y, P, grid=grid)
    assert np.all(result.weights >= 0) and result.weights.sum() == pytest.approx(1, abs=1e-12)
    curves = [sk_roc_curve(y == i, P[:, i])[:2] for i in range(4)]
    for f, t in zip(result.fpr, result.tpr):
        intervals = [tpr_interval(f, *curve) for curve in curves]
        assert min(low for low, _ in intervals) - 1e-12 <= t <= max(high for _, high in intervals) + 1e-12
    assert np.all(np.diff(result.fpr) >= 0) and np.all(np.diff(result.tpr) >= -1e-12)
    assert result.fpr[-1] == 1 and result.tpr[-1] == pytest.approx(1)


def test_grid_curve_is_weighted_upper_tpr_at_equispaced_fpr():
    y, P = scored_sample(90, 3, 1, decimals=1)
    result = quiet_gini_roc(y, P, grid=100)
    grid = np.linspace(0, 1, 100)
    curves = [sk_roc_curve(y == i, P[:, i])[:2] for i in range(3)]
    expected = [sum(w * tpr_interval(f, *c)[1] for w, c in zip(result.weights, curves)) for f in grid]
    np.testing.assert_allclose(result.fpr, grid)
    np.testing.assert_allclose(result.tpr, expected, atol=1e-12)


def test_exact_area_is_the_weighted_mean_of_mann_whitney_aucs():
    y, P = scored_sample(80, 4, 2, decimals=2)  # ties: diagonal segments
    result = quiet_gini_roc(y, P)
    aucs = np.array([mann_whitney_auc(y == i, P[:, i]) for i in range(4)])
    np.testing.assert_allclose(result.class_auc, aucs, atol=1e-12)
    assert result.auc_agg == pytest.approx(result.weights @ aucs, abs=1e-12)
    assert aucs.min() <= result.auc_agg <= aucs.max()
    assert abs(quiet_gini_roc(y, P, grid=100).auc_agg - result.auc_agg) < 0.01


def test_limit_weights_on_probabilities_are_sigma_shares():
    y, P = scored_sample(150, 5, 3)
    with pytest.warns(WhiteningWarning, match="singular"):
        result = gini_roc(y, P)
    sigma = P.std(axis=0, ddof=1)
    np.testing.assert_allclose(result.weights, sigma / sigma.sum(), rtol=1e-9)
    assert result.degenerate and result.g1 == 0 and result.auc_theory == 0.5
    assert result.settings["whitening"] == "limit" and result.settings["singular"] == "limit"


def test_invariant_to_positive_column_scaling():
    for simplex in (True, False):
        y, P = scored_sample(100, 4, 4, simplex=simplex)
        base = quiet_gini_roc(y, P)
        scaled = quiet_gini_roc(y, P * np.array([2.0, 0.1, 30.0, 1.0]))
        np.testing.assert_allclose(scaled.weights, base.weights, rtol=1e-8)
        assert scaled.g1 == pytest.approx(base.g1, rel=1e-8, abs=1e-12)
        assert scaled.auc_agg == pytest.approx(base.auc_agg, rel=1e-12)


def test_class_permutation_permutes_weights_and_keeps_the_aggregate():
    y, P = scored_sample(100, 4, 5, simplex=False, decimals=2)
    names = np.array(["a", "b", "c", "d"])
    base = quiet_gini_roc(names[y], P, labels=names)
    perm = np.array([2, 0, 3, 1])
    permuted = quiet_gini_roc(names[y], P[:, perm], labels=names[perm])
    np.testing.assert_allclose(permuted.weights, base.weights[perm], rtol=1e-9)
    np.testing.assert_allclose(permuted.class_auc, base.class_auc[perm])
    np.testing.assert_allclose(permuted.fpr, base.fpr)
    np.testing.assert_allclose(permuted.tpr, base.tpr, atol=1e-12)
    rows = np.random.default_rng(0).permutation(100)
    shuffled = quiet_gini_roc(names[y][rows], P[rows], labels=names)
    np.testing.assert_allclose(shuffled.weights, base.weights, rtol=1e-9)
    assert shuffled.auc_agg == pytest.approx(base.auc_agg, abs=1e-12)


def test_two_classes_reduce_to_the_binary_auc():
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 200)
    p1 = np.round(1 / (1 + np.exp(-(rng.normal(size=200) + 1.5 * y))), 2)
    result = quiet_gini_roc(y, np.column_stack([1 - p1, p1]))
    np.testing.assert_allclose(result.weights, [0.5, 0.5], atol=1e-12)
    assert result.auc_agg == pytest.approx(roc_auc_score(y, p1), abs=1e-12)


def test_perfect_scores_give_one_and_random_scores_cover_one_half():
    y, P = scored_sample(60, 3, 7)
    perfect = np.eye(3)[y] * 0.8 + 0.1 * P
    assert quiet_gini_roc(y, perfect).auc_agg == pytest.approx(1.0)
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
    base, other = quiet_gini_roc(y, P), quiet_gini_roc(y, transformed)
    np.testing.assert_allclose(other.class_fpr[0], base.class_fpr[0])
    np.testing.assert_allclose(other.class_tpr[0], base.class_tpr[0])
    assert not np.allclose(other.weights, base.weights)


def test_reference_scores_fit_the_whitening():
    y_train, train = scored_sample(300, 4, 10)
    y_test, test = scored_sample(80, 4, 11)
    result = quiet_gini_roc(y_test, test, reference_scores=train)
    sigma = train.std(axis=0, ddof=1)  # limit weights on simplex rows: σ of the *fitting* set
    np.testing.assert_allclose(result.weights, sigma / sigma.sum(), rtol=1e-8)
    assert result.settings["fitted_on"] == "reference_scores"


def test_constant_score_column_warns_and_gets_weight_zero():
    y, P = scored_sample(60, 4, 12, simplex=False)
    P[:, 1] = 0.5
    with pytest.warns(WhiteningWarning, match=r"classes \[1\] are constant"):
        result = gini_roc(y, P)
    assert result.weights[1] == 0 and result.settings["constant_classes"] == [1]
    assert 1 not in result.classes_used and result.class_auc[1] == 0.5
    with pytest.raises(ValueError, match="constant"):
        gini_roc(y, P, constant="raise")


def test_absent_class_raises_or_is_dropped():
    y, P = scored_sample(60, 4, 13, simplex=False)
    y[y == 2] = 0
    with pytest.raises(ValueError, match=r"labels \[2\] have no samples"):
        gini_roc(y, P, labels=[0, 1, 2, 3])
    result = quiet_gini_roc(y, P, labels=[0, 1, 2, 3], absent="drop")
    assert result.weights[2] == 0 and result.weights.sum() == pytest.approx(1)
    assert result.settings["absent_classes"] == [2] and 2 not in result.classes_used
    assert result.auc_agg == pytest.approx(np.nansum(result.weights * result.class_auc), abs=1e-12)


def test_singular_handling_is_recorded():
    y, P = scored_sample(50, 3, 14)
    with pytest.raises(ValueError, match="singular"):
        gini_roc(y, P, singular="raise")
    with pytest.warns(WhiteningWarning, match="applied 'diagonal'"):
        result = gini_roc(y, P, singular="diagonal")
    assert result.settings["whitening"] == "diagonal" and not result.degenerate
    assert np.isinf(result.settings["condition_number"]) or result.settings["condition_number"] > 1e8
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        full_rank = gini_roc(*scored_sample(50, 3, 14, simplex=False))
    assert full_rank.settings["whitening"] == "exact"


@pytest.mark.parametrize(
    "y, P, kwargs, match",
    [
        ([0, 1], [[np.nan, 0.5], [0.5, 0.5]], {}, "NaN or infinity"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"reference_scores": [[0.1, np.inf]] * 3},
         "reference_scores contains NaN"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"reference_scores": [[0.1, 0.9]]},
         "reference_scores has 1 samples"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"reference_scores": [[0.1, 0.2, 0.7]] * 3},
         "must have 2 columns"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"grid": 1}, "grid must be >= 2"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"absent": "keep"}, "absent must be one of"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"compat": "paper"}, "compat must be one of"),
        ([0, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], {"compat": "reference", "grid": 50},
         "compat='reference' fixes"),
    ],
)
def test_bad_input_raises(y, P, kwargs, match):
    with pytest.raises(ValueError, match=match):
        quiet_gini_roc(y, P, **kwargs)


def test_fewer_than_two_samples_raise():
    with pytest.raises(ValueError, match="y_score has 1 samples; at least 2 are needed"):
        gini_roc(["a"], [[0.3, 0.7]], labels=["a", "b"])


def test_result_is_frozen_and_plots_without_showing():
    import matplotlib.pyplot as plt

    y, P = scored_sample(60, 3, 15, decimals=2)
    result = quiet_gini_roc(y, P, n_boot=20, random_state=0)
    assert isinstance(result, GiniRoc)
    with pytest.raises(AttributeError):
        result.g1 = 1.0
    ax = result.plot()
    labels = [line.get_label() for line in ax.get_lines()]
    assert any(label.startswith("Gini-weighted ROC") for label in labels)
    assert any(label.startswith("chance") for label in labels) and len(ax.get_lines()) == 5
    fig, ax2 = plt.subplots()
    assert result.plot(ax=ax2, show_classes=False) is ax2
    plt.close("all")


def test_sample_weights_equal_repeated_rows():
    y, P = scored_sample(60, 3, 16, simplex=False, decimals=2)
    counts = np.random.default_rng(16).integers(1, 4, size=60)
    weighted = quiet_gini_roc(y, P, sample_weight=counts)
    repeated = quiet_gini_roc(np.repeat(y, counts), np.repeat(P, counts, axis=0))
    np.testing.assert_allclose(weighted.weights, repeated.weights, rtol=1e-10)
    assert weighted.g1 == pytest.approx(repeated.g1, rel=1e-10)
    assert weighted.auc_agg == pytest.approx(repeated.auc_agg, abs=1e-12)
