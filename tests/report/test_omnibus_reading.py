"""The paired tests' first line (report._readings.omnibus_reading): the omnibus tests in plain words, never
claiming a difference the test does not support; results.json carries the tests."""

import json

import numpy as np
from scipy.stats import chi2

from polyroc.comparison import compare_scores
from polyroc.probability import softmax
from polyroc.report._readings import omnibus_reading


def _scores(n, strengths, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    shared = rng.normal(size=(n, 3)) + np.eye(3)[y]
    return y, {name: softmax(shared + s * np.eye(3)[y] + rng.normal(size=(n, 3))) for name, s in strengths.items()}


def _record(y, scores):
    result = compare_scores(y, scores, quantities=["roc_auc_ovr_macro", "accuracy", "log_loss"])
    return {"paired_tests": json.loads(json.dumps(result.to_dict(), allow_nan=False)), "skipped": {}}


def test_three_models_that_differ_are_said_to_differ_with_the_test_figures():
    y, scores = _scores(400, {"a": 0.0, "b": 0.0, "c": 2.0}, seed=0)
    results = _record(y, scores)
    reading = omnibus_reading(results)
    auc, accuracy, _ = results["paired_tests"]["omnibus_tests"]
    assert auc["p_value"] < 0.001 and accuracy["p_value"] < 0.001
    assert reading.startswith(
        f"The three models' one-vs-rest macro AUCs differ (DeLong χ² = {auc['statistic']:.1f}, df 2, p < 0.001)"
    )
    assert (
        f"the three models' accuracies differ (Cochran's Q = {accuracy['statistic']:.1f}, df 2, p < 0.001)" in reading
    )
    assert "log" not in reading  # a quantity without an omnibus test is not read


def test_exchangeable_models_are_not_said_to_differ():
    y, scores = _scores(300, {"a": 0.0, "b": 0.0, "c": 0.0}, seed=3)
    results = _record(y, scores)
    auc, accuracy, _ = results["paired_tests"]["omnibus_tests"]
    assert auc["p_value"] >= 0.05 and accuracy["p_value"] >= 0.05  # this seed: no rejection, as in 95% of data sets
    reading = omnibus_reading(results)
    assert "differ (" not in reading
    p_text = f"{auc['p_value']:.3f}"
    assert reading.startswith("The test data cannot tell the three models' one-vs-rest macro AUCs apart (DeLong χ² = ")
    assert f"df 2, p = {p_text})" in reading
    assert float(p_text) == round(chi2.sf(auc["statistic"], 2), 3)


def test_no_reading_without_paired_tests_or_omnibus_tests():
    assert omnibus_reading({"paired_tests": None, "skipped": {}}) is None
    y, scores = _scores(100, {"a": 0.0, "b": 1.0}, seed=1)
    result = compare_scores(y, scores, quantities=["log_loss"])
    assert omnibus_reading({"paired_tests": result.to_dict(), "skipped": {}}) is None


def test_two_models_read_the_auc_test_and_leave_accuracy_to_the_exact_mcnemar_row():
    y, scores = _scores(200, {"a": 0.0, "b": 1.5}, seed=2)
    results = _record(y, scores)
    auc, accuracy, _ = results["paired_tests"]["omnibus_tests"]
    assert accuracy["p_value"] is not None and auc["df"] == 1
    reading = omnibus_reading(results)
    assert reading.startswith("The two models' one-vs-rest macro AUCs")
    assert "accuracies" not in reading and "Cochran" not in reading
