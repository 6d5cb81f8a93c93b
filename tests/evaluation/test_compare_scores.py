"""compare_scores: DeLong's paired test (pROC's figures), McNemar's exact test with Tango's interval, the paired
bootstrap, Holm."""

import itertools

import numpy as np
import pytest
from scipy.special import expit
from scipy.stats import binomtest, norm

from polyroc import compare_scores
from polyroc.comparison import holm_adjusted
from polyroc.resampling import paired_rule_scores
from tests._oracles.proc_figures import PROC_PAIR, SCORE_A, SCORE_B, Y
from tests._oracles.tango import tango_interval


def _two_columns(score):
    """A binary score as two probability columns (same ranking)."""
    positive = expit(score)
    return np.column_stack([1 - positive, positive])


def _dirichlet_models(n_models=3, n=150, m=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    models = {}
    for k in range(n_models):
        alpha = np.ones((n, m))
        alpha[np.arange(n), y] += 0.5 + k
        scores = rng.gamma(alpha)
        models[f"model{k}"] = scores / scores.sum(axis=1, keepdims=True)
    return y, models


def test_binary_auc_difference_is_procs_delong_paired_test():
    result = compare_scores(
        Y, {"a": _two_columns(SCORE_A), "b": _two_columns(SCORE_B)}, quantities=["roc_auc_ovr_macro"]
    )
    (row,) = result.comparisons
    assert row["difference"] == pytest.approx(PROC_PAIR["auc_a"] - PROC_PAIR["auc_b"], abs=1e-12)
    assert row["p_value"] == pytest.approx(PROC_PAIR["p"], abs=1e-9)
    assert row["p_holm"] == row["p_value"]  # one comparison: nothing to adjust
    assert result.estimates["roc_auc_ovr_macro"] == pytest.approx(
        {"a": PROC_PAIR["auc_a"], "b": PROC_PAIR["auc_b"]}, abs=1e-12
    )
    assert row["method"] == "DeLong paired test"


def test_accuracy_is_mcnemars_exact_test_with_tangos_unconditional_interval():
    y, models = _dirichlet_models(n_models=2, seed=3)
    result = compare_scores(y, models, quantities=["accuracy"], confidence=0.9)
    (row,) = result.comparisons
    right = {name: P.argmax(1) == y for name, P in models.items()}
    only_first = int(np.sum(right["model0"] & ~right["model1"]))
    only_second = int(np.sum(right["model1"] & ~right["model0"]))
    discordant = only_first + only_second
    assert discordant > 0
    assert row["difference"] == pytest.approx((only_first - only_second) / y.size, abs=1e-15)
    assert row["p_value"] == pytest.approx(binomtest(only_first, discordant).pvalue, abs=1e-15)
    # the score interval by a grid scan of Tango's statistic with a numerical restricted maximum likelihood
    expected = tango_interval(only_first, only_second, y.size, confidence=0.9)
    assert (row["low"], row["high"]) == pytest.approx(expected, abs=1e-6)
    assert row["low"] <= row["difference"] <= row["high"]
    assert result.estimates["accuracy"] == {name: float(hit.mean()) for name, hit in right.items()}


def test_other_metrics_use_the_paired_bootstrap_of_paired_rule_scores():
    y, models = _dirichlet_models(n_models=2, seed=4)
    result = compare_scores(y, models, quantities=["f1_macro"], n_boot=200, random_state=5)
    (row,) = result.comparisons
    predictions = {name: P.argmax(1) for name, P in models.items()}
    reference = paired_rule_scores(y, predictions, metric="f1_macro", baseline="model1", n_boot=200, random_state=5)
    expected = reference.differences["model0"]
    assert (row["difference"], row["low"], row["high"]) == pytest.approx(
        (expected.estimate, expected.low, expected.high), abs=1e-12
    )
    assert 0 <= row["p_value"] <= 1 and row["method"] == "paired stratified percentile bootstrap, B=200"


def test_three_models_compare_every_pair_with_holm_adjusted_p_values():
    y, models = _dirichlet_models(n_models=3, seed=6)
    result = compare_scores(y, models, quantities=["roc_auc_ovo_macro", "accuracy"])
    pairs = list(itertools.combinations(models, 2))
    for quantity in ("roc_auc_ovo_macro", "accuracy"):
        rows = [row for row in result.comparisons if row["quantity"] == quantity]
        assert [(row["model"], row["other"]) for row in rows] == pairs
        np.testing.assert_array_equal([row["p_holm"] for row in rows], holm_adjusted([row["p_value"] for row in rows]))
        assert all(row["p_holm"] >= row["p_value"] for row in rows)
    against = compare_scores(y, models, quantities=["accuracy"], baseline="model2")
    assert [(row["model"], row["other"]) for row in against.comparisons] == [("model0", "model2"), ("model1", "model2")]
    accuracy = against.estimates["accuracy"]
    for row in against.comparisons:  # each model minus the baseline, as paired_rule_scores
        assert row["difference"] == pytest.approx(accuracy[row["model"]] - accuracy["model2"], abs=1e-12)
    frame = result.to_frame()
    assert list(frame.columns[:4]) == ["quantity", "model", "other", "difference"] and len(frame) == 6


def _holm_rejects(p_values, alpha):
    """Holm's step-down procedure as first written: which hypotheses it rejects at level alpha."""
    order = np.argsort(p_values, kind="stable")
    rejected = np.zeros(len(p_values), bool)
    for step, index in enumerate(order):
        if p_values[index] > alpha / (len(p_values) - step):
            break
        rejected[index] = True
    return rejected


def test_holm_adjusted_p_values_reject_exactly_what_the_step_down_procedure_rejects():
    rng = np.random.default_rng(0)
    for _ in range(200):
        p = rng.choice([0.001, 0.01, 0.02, 0.04, 0.2, 0.5], size=rng.integers(1, 7)) * rng.uniform(0.5, 1.5)
        p = np.minimum(p, 1.0)
        adjusted = holm_adjusted(p)
        for alpha in (0.01, 0.05, 0.1, 0.3):
            np.testing.assert_array_equal(adjusted <= alpha, _holm_rejects(p, alpha))
    assert np.isnan(holm_adjusted([0.01, np.nan, 0.02])[1])
    with pytest.raises(ValueError, match=r"p_values must lie in \[0, 1\]"):
        holm_adjusted([0.5, 1.5])


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        ({"scores": [[0.5, 0.5]]}, TypeError, "scores must be a mapping"),
        ({"scores": {"only": [[0.6, 0.4], [0.3, 0.7]]}}, ValueError, "scores must hold at least 2 models, got 1"),
        (
            {"scores": {"a": [[0.6, 0.4], [0.3, 0.7]], 1: [[0.2, 0.8], [0.3, 0.7]]}},
            TypeError,
            r"model names must be strings \(the keys of scores\), got int 1",
        ),
        ({"baseline": "c"}, ValueError, "baseline 'c' is not one of the models"),
        ({"quantities": ["auc"]}, ValueError, "unknown quantity 'auc'"),
        ({"quantities": "accuracy"}, ValueError, "quantities must be a non-empty sequence"),
        ({"confidence": 1.0}, ValueError, "confidence must be"),
        ({"scores": {"a": [[0.6, 0.4], [0.3, 0.7]], "b": [[0.6, 0.4], [0.3]]}}, ValueError, "scores of model 'b'"),
    ],
)
def test_bad_input_is_named(arguments, error, message):
    options = {"scores": {"a": [[0.6, 0.4], [0.3, 0.7]], "b": [[0.2, 0.8], [0.3, 0.7]]}, **arguments}
    with pytest.raises(error, match=message):
        compare_scores([0, 1], **options)


@pytest.mark.parametrize(
    ("y", "weights", "error", "message"),
    [
        ([0, "a"], None, TypeError, r"^y_true mixes strings and numbers: Mix of label input types"),
        ([0, 1], [1e308, 1e308], ValueError, r"^sample_weight sums past the largest float64"),
        ([0, 1], [1.0, -1.0], ValueError, r"^sample_weight must be non-negative"),
    ],
)
def test_errors_of_the_shared_labels_and_weights_name_no_model(y, weights, error, message):
    """y_true and sample_weight belong to every model: their errors do not blame the first one."""
    scores = {"a": [[0.6, 0.4], [0.3, 0.7]], "b": [[0.2, 0.8], [0.3, 0.7]]}
    with pytest.raises(error, match=message):
        compare_scores(y, scores, sample_weight=weights)


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ([[0.6, 0.6], [0.3, 0.7]], r"scores of model 'b': rows of scores\['b'\] must sum to 1 .*; rescale them"),
        ([[1.2, -0.2], [0.3, 0.7]], r"scores of model 'b': scores\['b'\] has negative values .* softmax first"),
    ],
)
def test_scores_off_the_simplex_suggest_no_option_it_lacks(scores, message):
    """compare_scores has no normalize_rows or from_logits: the message does not suggest them."""
    with pytest.raises(ValueError, match=message) as raised:
        compare_scores([0, 1], {"a": [[0.6, 0.4], [0.3, 0.7]], "b": scores})
    assert "normalize_rows" not in str(raised.value) and "from_logits" not in str(raised.value)


def test_two_perfect_models_get_a_wide_interval_not_a_zero_width_one():
    """Both AUCs are 1 and both models always right: no variance, yet the differences are not determined."""
    y = np.repeat([0, 1, 2], 10)
    sharp, soft = np.eye(3)[y] * 0.8 + 0.2 / 3, np.eye(3)[y] * 0.6 + 0.4 / 3
    rows = {row["quantity"]: row for row in compare_scores(y, {"a": sharp, "b": soft}).comparisons}
    # each AUC's exact bound at level 1 - 0.05/2 from 10 disjoint pairs: [0.0125 ** (1/10), 1]
    bound = 1 - 0.0125 ** (1 / 10)
    for quantity in ("roc_auc_ovr_macro", "roc_auc_ovo_macro"):
        assert (rows[quantity]["low"], rows[quantity]["high"]) == pytest.approx((-bound, bound), abs=1e-12)
        assert rows[quantity]["difference"] == 0 and rows[quantity]["p_value"] == 1
    # no discordant row among 30: Tango's score interval is |difference| <= z^2 / (n + z^2) (Tango 1998)
    z2 = norm.ppf(0.975) ** 2
    most = z2 / (30 + z2)
    assert (rows["accuracy"]["low"], rows["accuracy"]["high"]) == pytest.approx((-most, most), abs=1e-12)
    same = compare_scores(y, {"a": sharp, "copy": sharp.copy()}).comparisons
    assert all(row["low"] == row["high"] == 0 for row in same if row["quantity"] != "accuracy")  # determined


def test_a_class_with_one_row_gives_no_delong_test_and_says_so():
    from polyroc.exceptions import IntervalWarning

    y = np.array([0] * 10 + [1] * 10 + [2])
    rng = np.random.default_rng(8)
    models = {name: rng.dirichlet(np.ones(3), y.size) for name in ("a", "b")}
    with pytest.warns(IntervalWarning, match=r"class 2 \(1 row\)"):
        (row,) = compare_scores(y, models, quantities=["roc_auc_ovo_macro"]).comparisons
    assert np.isnan(row["low"]) and np.isnan(row["high"]) and np.isnan(row["p_value"])
