"""ROC-DMF end to end: the paper's properties, the weights, the result object, errors and warnings."""

import dataclasses
import json
import warnings

import numpy as np
import pytest
from scipy.special import softmax
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

import polyroc.dmf
import polyroc.exceptions
from polyroc._results import Result
from polyroc.dmf import NonMonotoneCurveWarning, majority_cost_weights, roc_dmf
from polyroc.exceptions import ConvergenceWarning, UndefinedMetricWarning
from tests._oracles.dmf_simulation import simulate_paper_design


def _informative(seed, n=150, k=3, signal=0.5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), size=n) + signal * np.eye(k)[y]
    return y, P / P.sum(axis=1, keepdims=True)


# --- properties stated by the paper --------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1])
def test_argmax_labelled_sharp_scores_give_d_near_one(seed):
    # the continuity correction caps a rate of n ≈ 500 samples at 1 - 1/(2(n + 1)) ≈ 0.999
    P = softmax(5 * np.random.default_rng(seed).normal(size=(2000, 4)), axis=1)
    y = P.argmax(axis=1)
    assert roc_dmf(y, P).D >= 0.997


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_label_independent_scores_give_one_half(seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, 5000)
    P = rng.dirichlet(np.ones(3), size=5000)
    assert abs(roc_dmf(y, P).D - 0.5) < 0.02


def test_d_increases_with_informative_covariates_in_the_paper_simulation():
    # Sec. 5.1 (smaller n): logistic regression on the first d covariates, in-sample
    sim = simulate_paper_design(2000, 10, 5, random_state=1)
    noise = np.random.default_rng(2).normal(size=sim.X.shape)
    random_scores = LogisticRegression(max_iter=500).fit(noise, sim.y).predict_proba(noise)
    areas, hand_till = [roc_dmf(sim.y, random_scores).D], []
    for d in (1, 2, 5, 10):
        P = LogisticRegression(max_iter=500).fit(sim.X[:, :d], sim.y).predict_proba(sim.X[:, :d])
        areas.append(roc_dmf(sim.y, P).D)
        hand_till.append(roc_auc_score(sim.y, P, multi_class="ovo"))
    assert np.all(np.diff(areas) > 0), areas
    assert abs(areas[0] - 0.5) < 0.06
    np.testing.assert_allclose(areas[1:], hand_till, atol=0.04)  # D tracks Hand & Till's M


def test_balanced_cutoffs_make_d_invariant_to_class_sizes_up_to_the_correction():
    # the balanced rates are identical (test_dmf_rates); D moves only through the continuity
    # correction, which shifts a rate of n samples by at most 1/(2(n + 1)) (here n >= 79)
    y, P = _informative(3, n=240)
    repeat = np.where(y == 1, 3, 1)
    a = roc_dmf(y, P, cutoff_grid="balanced")
    b = roc_dmf(np.repeat(y, repeat), np.repeat(P, repeat, axis=0), cutoff_grid="balanced")
    np.testing.assert_array_equal(a.tpr_matrix, b.tpr_matrix)
    assert abs(a.D - b.D) < 1 / (2 * (np.bincount(y).min() + 1))


def test_weight_scale_leaves_the_intercepts_unchanged():
    y, P = _informative(4)
    q = np.random.default_rng(0).uniform(0.5, 2.0, 6)
    a = roc_dmf(y, P, weighting=q)
    b = roc_dmf(y, P, weighting=7.5 * q)
    np.testing.assert_allclose(a.intercept, b.intercept, rtol=1e-10, atol=1e-10)


def test_algorithm1_is_close_to_the_intercept_model_for_ordinary_scores():
    y, P = _informative(5, n=600)
    assert abs(roc_dmf(y, P).D - roc_dmf(y, P, method="algorithm1").D) < 0.02


# --- weights ---------------------------------------------------------------------------------


def test_weight_forms_and_presets_agree():
    y, P = _informative(6)
    T = 9
    q = np.random.default_rng(1).uniform(0.5, 2.0, 6)
    vector = roc_dmf(y, P, n_levels=T, weighting=q)
    pair = roc_dmf(y, P, n_levels=T, weighting=np.vstack([q, q]))
    full = roc_dmf(y, P, n_levels=T, weighting=np.tile(q, (2 * T, 1)))
    np.testing.assert_array_equal(vector.intercept, pair.intercept)
    np.testing.assert_array_equal(vector.intercept, full.intercept)
    assert vector.settings["weighting"] == "custom"
    n = np.bincount(y)
    sizes = np.array([n[a] * n[b] for a in range(3) for b in range(3) if a != b], dtype=float)
    weighted = roc_dmf(y, P, n_levels=T, weighting="weighted")
    np.testing.assert_array_equal(weighted.weights, np.tile(sizes, (2 * T, 1)))
    np.testing.assert_allclose(roc_dmf(y, P, n_levels=T, weighting=np.ones(6)).D, weighted.D, atol=1e-12)
    unweighted = roc_dmf(y, P, n_levels=T)
    assert np.all(unweighted.weights == 1)
    np.testing.assert_allclose(roc_dmf(y, P, n_levels=T, weighting=1 / sizes).D, unweighted.D, atol=1e-9)


def test_marginal_trials():
    y, P = _informative(7)
    result = roc_dmf(y, P, n_levels=5, trials="marginal", weighting="weighted")
    np.testing.assert_array_equal(result.n_trials[:5], np.tile(result.n_pos, (5, 1)))
    np.testing.assert_array_equal(result.n_trials[5:], np.tile(result.n_neg, (5, 1)))


def test_majority_cost_weights_follow_the_paper_example():
    # k = 3, majority class first: tp = (c, c, 1/c, 1, 1/c, 1), fp = (1/c, 1/c, c, 1, c, 1)
    y = np.repeat([0, 1, 2], [50, 20, 30])
    c = 4.0
    q = majority_cost_weights(y, c)
    sizes = np.array([50 * 20, 50 * 30, 20 * 50, 20 * 30, 30 * 50, 30 * 20])
    np.testing.assert_allclose(q[0] * sizes, [c, c, 1 / c, 1, 1 / c, 1])
    np.testing.assert_allclose(q[1] * sizes, [1 / c, 1 / c, c, 1, c, 1])
    P = np.random.default_rng(0).dirichlet(np.ones(3), size=100)
    result = roc_dmf(y, P, n_levels=9, weighting=q)
    np.testing.assert_allclose(result.weights[:9], np.tile([c, c, 1 / c, 1, 1 / c, 1], (9, 1)))
    neutral = roc_dmf(y, P, n_levels=9, weighting=majority_cost_weights(y, 1.0))
    assert abs(neutral.D - roc_dmf(y, P, n_levels=9).D) < 1e-9
    assert 0.45 <= neutral.D <= 0.55  # naive (label-independent) classifier at c = 1


# --- the result object -----------------------------------------------------------------------


def test_result_holds_the_fit_and_the_settings():
    y, P = _informative(8)
    result = roc_dmf(y, P, n_levels=19)
    assert result.fpr.shape == result.tpr.shape == (19,)
    assert result.tpr_matrix.shape == result.fpr_matrix.shape == result.cutoffs.shape == (19, 6)
    assert result.fitted.shape == result.weights.shape == (38, 6)
    assert np.all(np.diff(result.levels) < 0) and np.all(np.diff(result.cutoffs, axis=0) <= 0)
    assert abs(result.pair_effect.sum()) < 1e-10 and result.pair_effect[0] >= 0
    assert result.converged and result.n_iter >= 1 and result.deviance >= 0
    settings = result.settings
    assert (settings["method"], settings["cutoff_grid"], settings["weighting"], settings["trials"]) == (
        "intercept",
        "pooled",
        "unweighted",
        "pairs",
    )
    assert (settings["n_levels"], settings["bootstrap"], settings["n_boot"]) == (19, None, 0)
    assert result.bootstrap is None and result.ci is None
    # the curve is expit of the row intercepts, and D its trapezoid area with the endpoints
    x = np.concatenate([[0], 1 / (1 + np.exp(-result.intercept[19:])), [1]])
    yy = np.concatenate([[0], 1 / (1 + np.exp(-result.intercept[:19])), [1]])
    assert result.D == pytest.approx(np.trapezoid(yy, x), abs=1e-12)
    # the intercept is the row mean of the fitted logits (V is centred)
    logits = result.intercept[:, None] + result.slope[:, None] * result.pair_effect[None, :]
    np.testing.assert_allclose(result.fitted, 1 / (1 + np.exp(-logits)), rtol=1e-12)
    np.testing.assert_allclose(result.intercept, logits.mean(axis=1), atol=1e-10)


def test_monotone_curve():
    y, P = _informative(9, n=60)
    result = roc_dmf(y, P, monotone=True)
    assert np.all(np.diff(result.fpr) >= 0) and np.all(np.diff(result.tpr) >= 0)


def _iris_tree():
    from sklearn.datasets import load_iris
    from sklearn.model_selection import train_test_split
    from sklearn.tree import DecisionTreeClassifier

    X, y = load_iris(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    return y_test, DecisionTreeClassifier(max_depth=5, random_state=0).fit(X_train, y_train).predict_proba(X_test)


def test_a_decreasing_curve_is_reported_and_explained():
    # a tree's tied scores: at one row a single pair's TPR is 0 among rates near 1, the row is
    # fitted with a steep slope and its intercept drops at the next row
    y, P = _iris_tree()
    with pytest.warns(NonMonotoneCurveWarning, match=r"TPR decreases by 0\.0\d\d from row \d+ .* slopes"):
        result = roc_dmf(y, P)
    drops = np.concatenate([-np.diff(result.fpr), -np.diff(result.tpr)])
    assert result.max_reversal == pytest.approx(drops.max(), abs=1e-15) and result.max_reversal > 0.01
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        smoothed = roc_dmf(y, P, monotone=True)
    assert np.all(np.diff(smoothed.tpr) >= 0) and smoothed.max_reversal == result.max_reversal


def test_a_monotone_curve_has_no_reversal():
    y, P = _informative(15, n=600)
    with warnings.catch_warnings():
        warnings.simplefilter("error", NonMonotoneCurveWarning)
        result = roc_dmf(y, P)
    drops = np.concatenate([-np.diff(result.fpr), -np.diff(result.tpr), [0.0]])
    assert result.max_reversal == pytest.approx(drops.max(), abs=1e-15)
    assert result.max_reversal <= 0.01


def test_plot_delegates_to_the_display(monkeypatch):
    import polyroc.plotting  # noqa: F401 (registers the Displays)
    from polyroc import _displays

    calls = []

    class Display:
        @classmethod
        def from_result(cls, result, *, ax=None, **kwargs):
            calls.append((result, ax, kwargs))
            return "drawn"

    y, P = _informative(10)
    result = roc_dmf(y, P, n_levels=9)
    monkeypatch.setitem(_displays._DRAWERS, type(result), Display.from_result)  # what plot() looks up
    assert result.plot("axes", name="model", color="C1") == "drawn"
    assert calls == [(result, "axes", {"name": "model", "color": "C1"})]


def test_result_protocol_json_and_frame():
    y, P = _informative(10)
    result = roc_dmf(y, P, n_levels=9, bootstrap="stratified", n_boot=10, random_state=0)
    assert isinstance(result, Result) and isinstance(result.bootstrap, Result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.D = 0.0
    record = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert record["type"] == "DmfRoc" and record["D"] == result.D
    assert record["cutoffs"] == result.cutoffs.tolist() and record["ci"]["low"] == result.ci.low
    assert record["bootstrap"]["settings"]["interval_method"] == "stratified percentile bootstrap"
    assert record["settings"]["cutoff_grid"] == "pooled" and record["settings"]["n_boot"] == 10
    frame = result.to_frame()
    assert list(frame.columns) == ["level", "fpr", "tpr"]
    np.testing.assert_array_equal(frame["fpr"], result.fpr)
    np.testing.assert_array_equal(frame["level"], result.levels)
    assert len(result.bootstrap.to_frame()) == 10


# --- errors and warnings -----------------------------------------------------------------------


def test_missing_class_pairs_are_dropped_with_a_warning():
    y, P = _informative(11, k=3)
    keep = y != 2
    with pytest.warns(UndefinedMetricWarning, match=r"\[2\] have no samples.*4 class pairs"):
        result = roc_dmf(y[keep], P[keep], labels=[0, 1, 2], n_levels=9)
    assert result.pairs.tolist() == [[0, 1]]  # two classes left: the binary ROC of the first
    assert result.dropped_pairs == ((0, 2), (1, 2), (2, 0), (2, 1))


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"weighting": -np.ones(6)}, ValueError, r"weighting must be finite and positive; entry \(0,\)"),
        ({"weighting": np.ones(5)}, ValueError, r"weighting must have shape \(6,\) or \(2, 6\) or \(18, 6\)"),
        ({"weighting": np.ones((3, 6))}, ValueError, "weighting must have shape"),
        ({"weighting": [1, 1, 1, 1, 1, np.nan]}, ValueError, "finite and positive"),
        ({"weighting": "prior"}, ValueError, "weighting must be one of 'unweighted', 'weighted'"),
        ({"n_levels": 1}, ValueError, "n_levels must be >= 2"),
        ({"levels": [0.2, 1.5]}, ValueError, r"levels must lie strictly inside \(0, 1\)"),
        ({"levels": [-0.1, 0.5]}, ValueError, r"levels must lie strictly inside \(0, 1\)"),
        ({"method": "svd"}, ValueError, "method must be one of"),
        ({"trials": "n"}, ValueError, "trials must be one of"),
        ({"cutoff_grid": "all"}, ValueError, "cutoff_grid must be one of"),
        ({"bootstrap": "jackknife"}, ValueError, "bootstrap must be one of"),
        (
            {"bootstrap": "parametric", "n_boot": 0},
            ValueError,
            r"^n_boot must be an int in \[1, inf\) with bootstrap='parametric'; got 0$",
        ),
        ({"n_boot": -1}, ValueError, r"^n_boot must be an int in \[0, inf\); got -1$"),
        ({"confidence": 1.0}, ValueError, "confidence must be"),
        ({"monotone": "yes"}, TypeError, r"^monotone must be a bool; got str 'yes'$"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs, error, match):
    y, P = _informative(12)
    kwargs.setdefault("n_levels", 9)
    with pytest.raises(error, match=match):
        roc_dmf(y, P, **kwargs)


def test_n_boot_zero_without_a_bootstrap_means_no_interval():
    y, P = _informative(12)
    result = roc_dmf(y, P, n_levels=9, n_boot=0)
    assert result.ci is None and result.settings["n_boot"] == 0
    assert result.D == roc_dmf(y, P, n_levels=9).D


def test_fewer_than_two_classes_is_refused():
    with pytest.raises(ValueError, match="at least 2"):
        roc_dmf([0, 0, 0], [[0.7, 0.3], [0.6, 0.4], [0.9, 0.1]], labels=[0, 1])
    with pytest.raises(ValueError, match="y_true has 1 class "):
        roc_dmf([0, 0, 0], [[0.7, 0.3], [0.6, 0.4], [0.9, 0.1]])


def test_non_convergence_warns():
    y, P = _informative(13)
    with pytest.warns(ConvergenceWarning, match="did not converge within max_iter=1"):
        result = roc_dmf(y, P, max_iter=1)
    assert not result.converged and result.n_iter == 1


def test_no_warning_on_ordinary_data():
    y, P = _informative(14, n=400)  # classes of at least SMALL_CLASS_ROWS
    assert np.bincount(y).min() >= 100  # SmallClassWarning below
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        roc_dmf(y, P)


def test_the_warning_class_is_the_one_of_polyroc_exceptions():
    assert polyroc.dmf.NonMonotoneCurveWarning is polyroc.exceptions.NonMonotoneCurveWarning
    assert issubclass(polyroc.exceptions.NonMonotoneCurveWarning, UserWarning)
