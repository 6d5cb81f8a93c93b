"""evaluate's expected cost (``cost_matrix``) and its metrics at deployment priors (``target_priors``).

Oracles: polyroc.decisions.expected_cost and cost_of_counts (the cost of the argmax decisions),
scikit-learn's metrics with the reweighted rows' weights computed here (w * pi'_k / pi-hat_k), the sum
of the target priors times scikit-learn's recalls, scipy's t quantile and paired t test, and the
evaluation of the same rows in memory (stream, dask).
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn import metrics as sk

import polyroc
from polyroc.comparison import compare_scores
from polyroc.decisions import expected_cost
from polyroc.intervals import paired_loss_difference, stratified_mean_interval
from polyroc.streaming import EvaluationAccumulator
from tests.evaluation.checks import COSTS, TARGET, M, assert_same_evaluation
from tests.evaluation.checks import shifted_problem as data


def reweighted(y, weights, priors):
    """The oracle's weights at the target priors: w * priors_k / (W_k / W)."""
    w = np.ones(y.size) if weights is None else weights
    totals = np.array([w[y == k].sum() for k in range(M)])
    return w * priors[y] / (totals[y] / totals.sum())


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("priors", [None, TARGET])
def test_expected_cost_is_that_of_the_argmax_decisions(weighted, priors):
    y, scores, weights = data(1, weighted=weighted)
    result = polyroc.evaluate(y, scores, sample_weight=weights, cost_matrix=COSTS, target_priors=priors, n_boot=0)
    oracle = expected_cost(y, scores.argmax(axis=1), cost_matrix=COSTS, priors=priors, sample_weight=weights)
    assert result.scores["expected_cost"] == pytest.approx(oracle, rel=1e-12, abs=1e-12)
    plain = expected_cost(y, scores.argmax(axis=1), cost_matrix=COSTS, sample_weight=weights)
    assert (result.scores["expected_cost"] == pytest.approx(plain, rel=1e-12)) == (priors is None)


def test_a_cost_matrix_as_a_dataframe_is_put_in_class_order():
    pd = pytest.importorskip("pandas")
    y, scores, _ = data(2)
    labels = np.array(["a", "b", "c", "d"])
    order = [2, 0, 3, 1]
    frame = pd.DataFrame(COSTS[np.ix_(order, order)], index=labels[order], columns=labels[order])
    result = polyroc.evaluate(labels[y], scores, cost_matrix=frame, n_boot=0)
    oracle = expected_cost(y, scores.argmax(axis=1), cost_matrix=COSTS)
    assert result.scores["expected_cost"] == pytest.approx(oracle, rel=1e-12)
    assert result.settings["cost_matrix"] == COSTS.tolist()


@pytest.mark.parametrize("weighted", [False, True])
def test_accuracy_at_target_priors_is_their_mix_of_the_recalls(weighted):
    y, scores, weights = data(3, weighted=weighted)
    result = polyroc.evaluate(y, scores, sample_weight=weights, target_priors=TARGET, n_boot=0)
    recalls = sk.recall_score(y, scores.argmax(axis=1), average=None, sample_weight=weights)
    assert result.scores["accuracy"] == pytest.approx(float(TARGET @ recalls), rel=1e-12, abs=1e-12)
    found = [result.report[str(k)]["recall"] for k in range(M)]
    np.testing.assert_allclose(found, recalls, rtol=1e-12)  # per-class recall does not move


def test_every_counts_metric_is_scikit_learns_on_the_reweighted_rows():
    y, scores, weights = data(4, weighted=True)
    result = polyroc.evaluate(y, scores, sample_weight=weights, target_priors=TARGET, n_boot=0)
    w = reweighted(y, weights, TARGET)
    predicted = scores.argmax(axis=1)
    oracles = {
        "accuracy": sk.accuracy_score(y, predicted, sample_weight=w),
        "balanced_accuracy": sk.balanced_accuracy_score(y, predicted, sample_weight=w),
        "f1_macro": sk.f1_score(y, predicted, average="macro", sample_weight=w),
        "cohen_kappa": sk.cohen_kappa_score(y, predicted, sample_weight=w),
        "matthews_corrcoef": sk.matthews_corrcoef(y, predicted, sample_weight=w),
        "log_loss": sk.log_loss(y, scores, sample_weight=w),
        "roc_auc_ovr_macro": sk.roc_auc_score(y, scores, multi_class="ovr", sample_weight=w),
        "roc_auc_ovr_weighted": sk.roc_auc_score(y, scores, multi_class="ovr", average="weighted", sample_weight=w),
    }
    for name, oracle in oracles.items():
        assert result.scores[name] == pytest.approx(oracle, rel=1e-12), name
    precision = sk.precision_score(y, predicted, average=None, sample_weight=w)
    np.testing.assert_allclose([result.report[str(k)]["precision"] for k in range(M)], precision, rtol=1e-12)
    np.testing.assert_allclose(result.confusion_matrix, sk.confusion_matrix(y, predicted, sample_weight=w), rtol=1e-12)


def test_which_aucs_move_with_the_priors():
    """One-vs-one AUCs compare two classes at a time and stay; one-vs-rest AUCs mix the rest and move."""
    y, scores, _ = data(5)
    plain = polyroc.evaluate(y, scores, n_boot=0).scores
    shifted = polyroc.evaluate(y, scores, target_priors=TARGET, n_boot=0).scores
    assert shifted["roc_auc_ovo_macro"] == pytest.approx(plain["roc_auc_ovo_macro"], rel=1e-12)
    for name in ("roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovr_micro"):
        assert abs(shifted[name] - plain[name]) > 1e-4, name


def test_at_the_evaluated_shares_nothing_moves():
    y, scores, _ = data(6)
    shares = np.bincount(y, minlength=M) / y.size
    plain = polyroc.evaluate(y, scores, cost_matrix=COSTS, n_boot=0)
    same = polyroc.evaluate(y, scores, cost_matrix=COSTS, target_priors=shares, n_boot=0)
    for name, value in plain.scores.items():
        assert same.scores[name] == pytest.approx(value, rel=1e-9, abs=1e-12), name
    assert same.settings["evaluated_priors"] == pytest.approx(dict(enumerate(shares)), rel=1e-12)


def stratified_t(values, y, weights, confidence=0.95):
    """The oracle t interval of a weighted mean with the class-stratified variance, written out."""
    w = np.ones(values.size) if weights is None else weights
    total = w.sum()
    mean = float(w @ values / total)
    influence = w * (values - mean) / total
    variance = 0.0
    for k in np.unique(y):
        d = influence[y == k]
        variance += d.size / (d.size - 1) * np.sum((d - d.mean()) ** 2)
    half = stats.t.ppf(0.5 + confidence / 2, values.size - np.unique(y).size) * np.sqrt(variance)
    return mean, mean - half, mean + half


def plain_t(values, weights, confidence=0.95):
    """The oracle t interval of a weighted mean with the plain variance (all rows one stratum), written out.

    Influences ``D_s = w_s (v_s - mean) / W`` (they sum to 0), ``Var = n / (n - 1) sum D_s^2``, t with
    n - 1 degrees of freedom; without weights ``Var = s^2 / n``.
    """
    w = np.ones(values.size) if weights is None else weights
    total = w.sum()
    mean = float(w @ values / total)
    influence = w * (values - mean) / total
    variance = values.size / (values.size - 1) * np.sum(influence**2)
    half = stats.t.ppf(0.5 + confidence / 2, values.size - 1) * np.sqrt(variance)
    return mean, mean - half, mean + half


@pytest.mark.parametrize("priors", [None, TARGET])
def test_the_cost_interval_is_the_t_interval_of_the_per_row_costs(priors):
    y, scores, weights = data(7, weighted=True)
    result = polyroc.evaluate(y, scores, sample_weight=weights, cost_matrix=COSTS, target_priors=priors, random_state=0)
    interval = result.intervals["expected_cost"]
    costs = COSTS[y, scores.argmax(axis=1)]
    if priors is None:  # the rows an i.i.d. sample: the plain variance
        estimate, low, high = plain_t(costs, weights)
        assert interval.method == "t interval (plain variance)"
    else:  # the target priors fix the class shares: the stratified variance
        w = reweighted(y, weights, priors)
        estimate, low, high = stratified_t(costs, y, w)
        assert interval.method == "t interval (stratified variance)"
        assert (interval.low, interval.high) == pytest.approx(stratified_mean_interval(costs, y, M, w)[1:], rel=1e-10)
    assert (interval.estimate, interval.low, interval.high) == pytest.approx((estimate, low, high), rel=1e-10)
    assert result.settings["interval_methods"]["expected_cost"] == interval.method


@pytest.mark.parametrize("seed", [18, 19, 20])
def test_the_unweighted_cost_interval_is_scipys_one_sample_t_interval(seed):
    y, scores, _ = data(seed, n=80)
    result = polyroc.evaluate(y, scores, cost_matrix=COSTS, n_boot=10, random_state=0)
    interval = result.intervals["expected_cost"]
    oracle = stats.ttest_1samp(COSTS[y, scores.argmax(axis=1)], 0.0).confidence_interval(0.95)
    assert (interval.low, interval.high) == pytest.approx((oracle.low, oracle.high), rel=1e-12, abs=1e-12)


def test_the_log_loss_and_brier_keep_the_stratified_variance_under_a_cost_matrix():
    y, scores, _ = data(21)
    result = polyroc.evaluate(y, scores, cost_matrix=COSTS, n_boot=10, random_state=0)
    one_hot = np.eye(M)[y]
    losses = {"log_loss": -np.log(scores[np.arange(y.size), y]), "brier_score": ((scores - one_hot) ** 2).sum(axis=1)}
    for name, values in losses.items():
        interval = result.intervals[name]
        assert interval.method == "t interval (stratified variance)"
        assert (interval.estimate, interval.low, interval.high) == pytest.approx(
            stratified_t(values, y, None), rel=1e-10
        )


def test_the_bootstrap_also_bounds_the_cost():
    y, scores, _ = data(8)
    result = polyroc.evaluate(
        y, scores, cost_matrix=COSTS, ci={"expected_cost": "bootstrap"}, n_boot=200, random_state=0
    )
    interval = result.intervals["expected_cost"]
    assert interval.method.startswith("stratified percentile bootstrap")
    assert interval.low < result.scores["expected_cost"] < interval.high


def test_the_cost_is_in_every_view():
    y, scores, _ = data(9)
    result = polyroc.evaluate(y, scores, cost_matrix=COSTS, target_priors=TARGET, random_state=0)
    frame = result.to_frame().set_index("score")
    assert frame.loc["expected_cost", "estimate"] == result.scores["expected_cost"]
    assert frame.loc["expected_cost", "method"] == "t interval (stratified variance)"
    assert "expected_cost" in result.to_text()
    assert "expected_cost" in result._repr_html_()
    loaded = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert loaded["scores"]["expected_cost"] == result.scores["expected_cost"]
    assert loaded["settings"]["target_priors"] == {str(k): p for k, p in enumerate(TARGET)}
    assert "expected_cost" not in polyroc.evaluate(y, scores, n_boot=0).scores


@pytest.mark.parametrize("weighted", [False, True])
def test_a_stream_gives_the_cost_of_the_rows_in_memory(weighted):
    y, scores, weights = data(10, weighted=weighted)
    expected = polyroc.evaluate(y, scores, sample_weight=weights, cost_matrix=COSTS, random_state=3)
    acc = EvaluationAccumulator(np.arange(M), cost_matrix=COSTS)
    halves = np.array_split(np.arange(y.size), 3)
    for part in halves:
        acc.update(y[part], scores[part], None if weights is None else weights[part])
    found = acc.compute(random_state=3)
    assert_same_evaluation(found, expected, delong=False)
    assert found.settings["cost_matrix"] == COSTS.tolist()
    interval = found.intervals["expected_cost"]
    assert interval.method == "t interval (plain variance)"
    oracle = plain_t(COSTS[y, scores.argmax(axis=1)], weights)
    assert (interval.estimate, interval.low, interval.high) == pytest.approx(oracle, rel=1e-10)


def test_streams_with_other_costs_do_not_merge():
    first = EvaluationAccumulator(np.arange(M), cost_matrix=COSTS)
    with pytest.raises(ValueError, match="different cost matrices"):
        first.merge(EvaluationAccumulator(np.arange(M)))
    with pytest.raises(ValueError, match="different cost matrices"):
        first.merge(EvaluationAccumulator(np.arange(M), cost_matrix=2 * COSTS))


@pytest.mark.parametrize("priors", [None, TARGET])
def test_dask_gives_the_cost_and_the_priors_of_the_rows_in_memory(priors):
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    from polyroc.dask import evaluate as dask_evaluate

    y, scores, weights = data(11, n=150, weighted=True)
    classes = ["a", "b", "c", "d"]
    frame = pd.DataFrame(scores, columns=classes)
    frame["label"], frame["w"] = np.array(classes)[y], weights
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the same warnings on both sides
        found = dask_evaluate(
            dd.from_pandas(frame, npartitions=3),
            sample_weight_col="w",
            cost_matrix=COSTS,
            target_priors=priors,
            n_boot=0,
        )
        expected = polyroc.evaluate(
            np.array(classes)[y],
            scores,
            labels=classes,
            sample_weight=weights,
            cost_matrix=COSTS,
            target_priors=priors,
            n_boot=0,
        )
        interval = dask_evaluate(
            dd.from_pandas(frame, npartitions=3),
            sample_weight_col="w",
            cost_matrix=COSTS,
            target_priors=priors,
            n_boot=10,
            random_state=0,
        ).intervals["expected_cost"]
    assert_same_evaluation(found, expected, intervals=False)
    costs = COSTS[y, scores.argmax(axis=1)]
    if priors is not None:
        assert found.settings["target_priors"] == expected.settings["target_priors"]
        oracle, variance = stratified_t(costs, y, reweighted(y, weights, priors)), "stratified"
    else:
        oracle, variance = plain_t(costs, weights), "plain"
    assert interval.method == f"t interval ({variance} variance)"
    assert (interval.estimate, interval.low, interval.high) == pytest.approx(oracle, rel=1e-10)


@pytest.mark.parametrize(
    ("target_priors", "message"),
    [
        ([0.5, 0.5, 0.0], r"target_priors must have shape \(4,\)"),
        ([0.5, 0.5, 0.5, 0.5], "target_priors must be a distribution"),
        ([0.5, -0.1, 0.3, 0.3], "target_priors must be a distribution"),
        ([0.5, np.nan, 0.25, 0.25], "target_priors contains NaN"),
        ({0: 0.5, 1: 0.5, 7: 0.0, 2: 0.0}, "target_priors's keys holds? labels that are not the classes"),
    ],
)
def test_bad_target_priors_are_named(target_priors, message):
    y, scores, _ = data(12)
    with pytest.raises(ValueError, match=message):
        polyroc.evaluate(y, scores, target_priors=target_priors)


def test_a_positive_prior_on_a_class_without_rows_is_refused():
    y, scores, _ = data(13)
    scores = scores[y != 2]
    y = y[y != 2]
    with pytest.raises(ValueError, match=r"target_priors gives class 2 the prior 0\.3, but no evaluated row"):
        polyroc.evaluate(y, scores, labels=np.arange(M), target_priors=TARGET)
    # a prior of 0 on it is fine: the class counts for nothing
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = polyroc.evaluate(y, scores, labels=np.arange(M), target_priors=[0.5, 0.25, 0.0, 0.25], n_boot=0)
    recalls = sk.recall_score(y, scores.argmax(axis=1), labels=[0, 1, 3], average=None)
    assert result.scores["accuracy"] == pytest.approx(float([0.5, 0.25, 0.25] @ recalls), rel=1e-12)


@pytest.mark.parametrize(
    ("cost_matrix", "error", "message"),
    [
        (np.ones((3, 3)), ValueError, r"cost_matrix must have shape \(4, 4\)"),
        (-COSTS, ValueError, "cost_matrix must be non-negative"),
        (np.where(COSTS == 10, np.inf, COSTS), ValueError, "cost_matrix contains NaN or infinity"),
        ([["a"] * 4] * 4, TypeError, "cost_matrix"),
    ],
)
def test_bad_cost_matrices_are_named(cost_matrix, error, message):
    y, scores, _ = data(14)
    with pytest.raises(error, match=message):
        polyroc.evaluate(y, scores, cost_matrix=cost_matrix)
    with pytest.raises(error, match=message):
        EvaluationAccumulator(np.arange(M), cost_matrix=cost_matrix)


def test_compare_scores_tests_the_difference_of_expected_costs():
    y, first, _ = data(15)
    _, second, _ = data(16)
    result = compare_scores(y, {"a": first, "b": second}, quantities=["expected_cost"], cost_matrix=COSTS)
    row = result.comparisons[0]
    cost_a = expected_cost(y, first.argmax(axis=1), cost_matrix=COSTS)
    cost_b = expected_cost(y, second.argmax(axis=1), cost_matrix=COSTS)
    assert result.estimates["expected_cost"] == pytest.approx({"a": cost_a, "b": cost_b}, rel=1e-12)
    assert row["difference"] == pytest.approx(cost_a - cost_b, rel=1e-12)
    oracle = stats.ttest_rel(COSTS[y, first.argmax(axis=1)], COSTS[y, second.argmax(axis=1)])
    interval = oracle.confidence_interval(0.95)
    assert (row["low"], row["high"]) == pytest.approx((interval.low, interval.high), rel=1e-12)
    assert row["p_value"] == pytest.approx(oracle.pvalue, rel=1e-12)
    assert row["method"] == "paired t (plain variance)"
    with pytest.raises(ValueError, match="'expected_cost', which needs a cost_matrix"):
        compare_scores(y, {"a": first, "b": second}, quantities=["expected_cost"])


@pytest.mark.parametrize("strata", [1, 3])
def test_paired_loss_difference_is_the_paired_t_test_by_default(strata):
    rng = np.random.default_rng(17)
    first, second = rng.exponential(1.0, 50), rng.exponential(1.2, 50)
    y = rng.integers(0, strata, 50)
    difference, low, high, p_value = paired_loss_difference(first, second, y, strata)
    test = stats.ttest_rel(first, second)
    interval = test.confidence_interval(0.95)
    assert difference == pytest.approx(np.mean(first - second), rel=1e-12)
    assert (low, high) == pytest.approx((interval.low, interval.high), rel=1e-12)
    assert p_value == pytest.approx(test.pvalue, rel=1e-12)


def test_paired_loss_difference_under_the_stratified_variance():
    rng = np.random.default_rng(22)
    first, second = rng.exponential(1.0, 60), rng.exponential(1.2, 60)
    y = rng.integers(0, 3, 60)
    weights = rng.uniform(0.2, 3.0, 60)
    for w in (None, weights):
        found = paired_loss_difference(first, second, y, 3, w, variance="stratified")
        assert found[:3] == pytest.approx(stratified_t(first - second, y, w), rel=1e-10)


def test_the_weighted_paired_difference_takes_the_plain_variance_of_the_hand_formula():
    rng = np.random.default_rng(23)
    first, second = rng.exponential(1.0, 40), rng.exponential(1.2, 40)
    y, weights = rng.integers(0, 2, 40), rng.uniform(0.2, 3.0, 40)
    difference, low, high, p_value = paired_loss_difference(first, second, y, 2, weights)
    estimate, oracle_low, oracle_high = plain_t(first - second, weights)
    assert (difference, low, high) == pytest.approx((estimate, oracle_low, oracle_high), rel=1e-10)
    scale = (oracle_high - estimate) / stats.t.ppf(0.975, 39)
    assert p_value == pytest.approx(2 * stats.t.sf(abs(estimate) / scale, 39), rel=1e-10)


def test_paired_loss_difference_checks_its_inputs():
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        paired_loss_difference([1.0, 2.0], [1.0], [0, 1], 2)
    with pytest.raises(ValueError, match="y must hold class codes"):
        paired_loss_difference([1.0, 2.0], [1.0, 0.0], [0, 2], 2)
    with pytest.raises(ValueError, match="confidence"):
        paired_loss_difference([1.0, 2.0], [1.0, 0.0], [0, 1], 2, confidence=1.5)
    with pytest.raises(ValueError, match="variance"):
        paired_loss_difference([1.0, 2.0], [1.0, 0.0], [0, 1], 2, variance="pooled")
