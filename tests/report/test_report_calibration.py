"""The report's calibration section: its numbers equal the library called directly and brute-force bins, its
reading says over- or under-confident as scores made so by construction are, and it is present, absent or
skipped as the data allow."""

import numpy as np
import pytest
from markupsafe import escape
from scipy.special import softmax
from scipy.stats import norm
from sklearn.metrics import accuracy_score, log_loss

import polyroc.report._analysis as analysis_module
import polyroc.report._calibration_readings as calibration_readings
from polyroc.calibration import (
    calibration_error,
    calibration_test,
    fit_calibrator,
    reliability_curve,
    squared_calibration_error,
)
from polyroc.comparison import compare_scores
from polyroc.evaluation import evaluate
from polyroc.report import build_report
from polyroc.report._calibration_readings import BIN_ROWS, DRIVING_SHARE, driving_bins
from polyroc.report._readings import model_readings, verdicts
from tests.report.report_steps import run_report_steps


def _calibrated(rng, n, m, strength=1.5):
    """Calibrated scores q and labels drawn from them: each row's class is drawn with probabilities q."""
    q = softmax(rng.normal(size=(n, m)) + strength * np.eye(m)[rng.integers(0, m, n)], axis=1)
    y = (rng.random(n)[:, None] > np.cumsum(q, axis=1)).sum(axis=1)
    return np.minimum(y, m - 1), q


def _tempered(q, temperature):
    """softmax(log q / temperature): over-confident below 1, under-confident above 1."""
    return softmax(np.log(q) / temperature, axis=1)


def _results(y, scores, *, n_boot=20, **options):
    """The results document of one model named "model", from the report's metrics and calibration steps."""
    return run_report_steps(y, scores, steps=("metrics", "calibration"), n_boot=n_boot, **options)[2]


def _brute_force_ece(hit, confidence, n_bins=15):
    """ECE over uniform bins [k/n, (k+1)/n), the last one closed, by a loop over the bins."""
    total = 0.0
    for k in range(n_bins):
        inside = (confidence >= k / n_bins) & ((confidence < (k + 1) / n_bins) | (k == n_bins - 1))
        if inside.any():
            total += inside.mean() * abs(hit[inside].mean() - confidence[inside].mean())
    return total


@pytest.fixture(scope="module")
def over_confident():
    rng = np.random.default_rng(1)
    y, q = _calibrated(rng, 1500, 4)
    y_val, q_val = _calibrated(rng, 1000, 4)
    scores, val_scores = _tempered(q, 0.5), _tempered(q_val, 0.5)
    results = _results(y, scores, y_val=y_val, val_scores=val_scores)
    return y, scores, y_val, val_scores, results


def test_calibration_record_equals_the_library_called_directly(over_confident):
    y, scores, y_val, val_scores, results = over_confident
    record = results["models"]["model"]["calibration"]
    assert record["ece"]["top_label"]["estimate"] == pytest.approx(calibration_error(y, scores), abs=1e-12)
    assert record["ece"]["classwise"]["estimate"] == pytest.approx(
        calibration_error(y, scores, kind="classwise"), abs=1e-12
    )
    assert record["squared_error"]["debiased"] == pytest.approx(squared_calibration_error(y, scores), abs=1e-12)
    assert record["squared_error"]["plain"] == pytest.approx(
        squared_calibration_error(y, scores, debiased=False), abs=1e-12
    )
    assert record["accuracy"] == pytest.approx(accuracy_score(y, scores.argmax(axis=1)), abs=1e-12)
    assert record["mean_confidence"] == pytest.approx(scores.max(axis=1).mean(), abs=1e-12)
    calibrator = fit_calibrator(y_val, val_scores, method="temperature")
    assert record["temperature"]["temperature"] == pytest.approx(calibrator.temperature, rel=1e-12)
    assert record["temperature"]["loss_after"] == pytest.approx(calibrator.loss_after, rel=1e-12)
    assert "coef" not in record["temperature"]
    after = reliability_curve(y, calibrator.transform(scores))
    assert record["calibrated_reliability"]["calibration_error"] == pytest.approx(after.calibration_error, abs=1e-12)


def test_ece_intervals_are_the_evaluations_with_their_method(over_confident):
    y, scores, *_, results = over_confident
    record = results["models"]["model"]["calibration"]["ece"]
    evaluation = evaluate(y, scores, n_boot=20, random_state=0)  # the report's options
    for kind, key in (("top_label", "ece_top_label"), ("classwise", "ece_classwise")):
        interval = evaluation.intervals[key]
        assert (record[kind]["estimate"], record[kind]["low"], record[kind]["high"]) == (
            interval.estimate,
            interval.low,
            interval.high,
        )
        assert record[kind]["method"].startswith(interval.settings["interval_method"])
        assert record[kind]["low"] < record[kind]["high"]  # a width: the data do not determine the ECE
    assert record["top_label"]["estimate"] == pytest.approx(calibration_error(y, scores), abs=1e-12)
    reading = model_readings(results["models"]["model"], results)["calibration"]
    top = record["top_label"]
    assert f"Top-label ECE {top['estimate']:.3f} [{top['low']:.3f}, {top['high']:.3f}]" in reading


def test_without_the_metrics_the_ece_has_no_interval(monkeypatch):
    def undefined(*args, **kwargs):
        raise ValueError("no metrics here")

    monkeypatch.setattr(analysis_module, "evaluate", undefined)
    rng = np.random.default_rng(9)
    y, q = _calibrated(rng, 300, 3)
    results = _results(y, q)
    model = results["models"]["model"]
    assert model["metrics"] is None and "metrics" in model["skipped"]
    record = model["calibration"]["ece"]["top_label"]
    assert record == {
        "estimate": pytest.approx(calibration_error(y, q), abs=1e-12),
        "low": None,
        "high": None,
        "method": None,
    }
    reading = model_readings(model, results)["calibration"]
    assert reading.startswith(f"Top-label ECE {record['estimate']:.3f}, classwise ECE")
    assert "with no interval of accuracy to tell whether that is noise" in reading


def test_calibration_test_equals_the_library_and_spiegelhalters_formula(over_confident):
    y, scores, *_, results = over_confident
    record = results["models"]["model"]["calibration"]
    direct = calibration_test(y, scores)
    assert record["test"]["classes"] == [0, 1, 2, 3, "top-label"]
    np.testing.assert_allclose(record["test"]["p_holm"], direct.p_holm, atol=1e-12)
    np.testing.assert_allclose(record["test"]["statistic"], direct.statistic, atol=1e-12)
    confidence, hit = scores.max(axis=1), (scores.argmax(axis=1) == y).astype(float)
    z = np.sum((hit - confidence) * (1 - 2 * confidence)) / np.sqrt(
        np.sum((1 - 2 * confidence) ** 2 * confidence * (1 - confidence))
    )
    assert record["test"]["statistic"][-1] == pytest.approx(z, rel=1e-9)
    assert record["test"]["p_value"][-1] == pytest.approx(2 * norm.sf(abs(z)), rel=1e-9)
    # over-confident by construction: the top label is rejected, and the reading names it
    reading = model_readings(results["models"]["model"], results)["calibration"]
    assert record["test"]["p_holm"][-1] < 0.05 and record["test"]["direction"][-1] == "over-confident"
    assert "the top label (over-confident, Holm p < 0.001)" in reading


def test_before_after_equals_the_library_and_scikit_learn(over_confident):
    y, scores, y_val, val_scores, results = over_confident
    record = results["models"]["model"]["calibration"]
    scaled = fit_calibrator(y_val, val_scores).transform(scores)
    rows = {row["quantity"]: row for row in record["before_after"]["comparisons"]}
    assert list(rows) == ["log_loss", "brier_score", "ece_top_label"]
    assert {(row["model"], row["other"]) for row in rows.values()} == {("temperature-scaled", "as given")}
    assert rows["log_loss"]["difference"] == pytest.approx(log_loss(y, scaled) - log_loss(y, scores), abs=1e-9)
    brier = np.mean(np.sum((scaled - np.eye(4)[y]) ** 2, axis=1) - np.sum((scores - np.eye(4)[y]) ** 2, axis=1))
    assert rows["brier_score"]["difference"] == pytest.approx(brier, abs=1e-12)
    assert rows["ece_top_label"]["difference"] == pytest.approx(
        calibration_error(y, scaled) - calibration_error(y, scores), abs=1e-12
    )
    direct = compare_scores(
        y,
        {"as given": scores, "temperature-scaled": scaled},
        quantities=["log_loss", "brier_score", "ece_top_label"],
        baseline="as given",
        n_boot=20,
        random_state=0,
    )
    assert record["before_after"]["comparisons"] == direct.to_dict()["comparisons"]
    reading = model_readings(results["models"]["model"], results)["calibration"]
    low, high = -rows["log_loss"]["high"], -rows["log_loss"]["low"]
    assert high > 0 and f"lowers log loss by {-rows['log_loss']['difference']:.3f} [{low:.3f}, {high:.3f}]" in reading


def test_reliability_bins_are_the_non_empty_bins_of_a_brute_force_binning(over_confident):
    y, scores, *_, results = over_confident
    curve = results["models"]["model"]["calibration"]["reliability"]["top_label"]
    (bins,) = curve["bins"]
    confidence, hit = scores.max(axis=1), scores.argmax(axis=1) == y
    index = np.minimum((confidence * 15).astype(int), 14)
    occupied = np.unique(index)
    assert bins["bin"] == occupied.tolist() and bins["class"] == "top-label"
    assert bins["count"] == [int(np.sum(index == k)) for k in occupied]
    np.testing.assert_allclose(bins["observed"], [hit[index == k].mean() for k in occupied], atol=1e-12)
    np.testing.assert_allclose(bins["mean_score"], [confidence[index == k].mean() for k in occupied], atol=1e-12)
    np.testing.assert_allclose(bins["low_edge"], occupied / 15, atol=1e-12)
    assert all(lo <= obs <= hi for lo, obs, hi in zip(bins["observed_low"], bins["observed"], bins["observed_high"]))
    assert curve["calibration_error"] == pytest.approx(_brute_force_ece(hit, confidence), abs=1e-12)
    classwise = results["models"]["model"]["calibration"]["reliability"]["classwise"]["bins"]
    assert [b["class"] for b in classwise] == [0, 1, 2, 3]
    assert "edges" not in curve and "observed" not in curve  # the full arrays are in bins, once


def test_driving_bins_are_the_fewest_neighbours_holding_half_the_ece_by_brute_force():
    rng = np.random.default_rng(4)
    for _ in range(200):
        k = int(rng.integers(1, 12))
        bins = {
            "bin": list(range(k)),
            "low_edge": list(np.arange(k) / k),
            "high_edge": list(np.arange(1, k + 1) / k),
            "count": rng.integers(1, 40, k).tolist(),
            "mean_score": rng.random(k).tolist(),
            "observed": rng.random(k).tolist(),
        }
        bins["observed_low"] = [max(0.0, o - 0.1) for o in bins["observed"]]
        bins["observed_high"] = [min(1.0, o + 0.1) for o in bins["observed"]]
        total = sum(bins["count"])
        parts = [c / total * abs(o - s) for c, o, s in zip(bins["count"], bins["observed"], bins["mean_score"])]
        over = [o < s for o, s in zip(bins["observed"], bins["mean_score"])]
        windows = [  # every window of one sign, enough rows and half the ECE: (bins, -part, first)
            (last - first, -sum(parts[first : last + 1]), first, last)
            for first in range(k)
            for last in range(first, k)
            if len(set(over[first : last + 1])) == 1
            and sum(bins["count"][first : last + 1]) >= BIN_ROWS
            and sum(parts[first : last + 1]) >= DRIVING_SHARE * sum(parts)
        ]
        window = driving_bins(bins)
        if not windows:
            assert window is None
            continue
        _, part, first, last = min(windows)
        assert (window["low_edge"], window["high_edge"]) == (bins["low_edge"][first], bins["high_edge"][last])
        assert window["of_gap"] == pytest.approx(-part / sum(parts))
        hits = sum(bins["observed"][b] * bins["count"][b] for b in range(first, last + 1))
        assert window["observed"] == pytest.approx(hits / sum(bins["count"][first : last + 1]))
        assert (window["gap"] < 0) == over[first]


def test_over_confident_scores_read_over_confident_and_a_temperature_above_one_softens_them(over_confident):
    *_, results = over_confident
    model = results["models"]["model"]
    record = model["calibration"]
    assert record["mean_confidence"] > record["accuracy"] + 0.05  # the truth, by construction
    reading = model_readings(model, results)["calibration"]
    assert "over-confident overall (observed below predicted)" in reading
    assert "under-confident" not in reading
    assert "of the ECE comes from" in reading and reading.count(", over-confident") == 1
    assert record["temperature"]["temperature"] == pytest.approx(2.0, abs=0.3)  # the inverse of 0.5
    assert "softens the scores" in reading


def test_under_confident_scores_read_under_confident_and_a_temperature_below_one_sharpens_them():
    rng = np.random.default_rng(2)
    y, q = _calibrated(rng, 1500, 3, strength=2.5)
    y_val, q_val = _calibrated(rng, 1000, 3, strength=2.5)
    results = _results(y, _tempered(q, 2.0), y_val=y_val, val_scores=_tempered(q_val, 2.0))
    model = results["models"]["model"]
    assert model["calibration"]["mean_confidence"] < model["calibration"]["accuracy"] - 0.05
    reading = model_readings(model, results)["calibration"]
    assert "under-confident overall (observed above predicted)" in reading
    assert "over-confident" not in reading and ", under-confident" in reading
    assert model["calibration"]["temperature"]["temperature"] == pytest.approx(0.5, abs=0.1)
    assert "sharpens the scores" in reading


def test_calibrated_scores_are_not_read_as_leaning_either_way():
    rng = np.random.default_rng(3)
    y, q = _calibrated(rng, 2000, 3)
    results = _results(y, q)
    model = results["models"]["model"]
    reading = model_readings(model, results)["calibration"]
    assert "no overall lean either way" in reading
    assert "over-confident overall" not in reading and "under-confident overall" not in reading
    assert model["calibration"]["temperature"] is None and "Temperature" not in reading  # no validation


def test_weighted_calibration_weighs_the_rows():
    rng = np.random.default_rng(6)
    y, q = _calibrated(rng, 600, 3)
    scores = _tempered(q, 0.6)
    weights = rng.integers(0, 4, y.size).astype(float)
    record = _results(y, scores, sample_weight=weights)["models"]["model"]["calibration"]
    expected = calibration_error(y, scores, sample_weight=weights)
    assert record["ece"]["top_label"]["estimate"] == pytest.approx(expected, abs=1e-12)
    assert expected != pytest.approx(calibration_error(y, scores), abs=1e-6)
    repeated = np.repeat(np.arange(y.size), weights.astype(int))  # integer weights are copies of rows
    assert record["ece"]["top_label"]["estimate"] == pytest.approx(
        _brute_force_ece(scores[repeated].argmax(axis=1) == y[repeated], scores[repeated].max(axis=1)), abs=1e-12
    )
    assert record["accuracy"] == pytest.approx(
        accuracy_score(y, scores.argmax(axis=1), sample_weight=weights), abs=1e-12
    )


@pytest.mark.slow
def test_the_section_is_present_absent_of_the_map_or_skipped_in_the_page(monkeypatch):
    rng = np.random.default_rng(8)
    y, q = _calibrated(rng, 120, 3)
    y_val, q_val = _calibrated(rng, 90, 3)
    with_val = build_report(y, {"m": q}, y_val=y_val, val_scores={"m": q_val}, n_boot=10, random_state=0)
    html = with_val.to_html()
    assert 'id="calibration-m1-m"' in html and 'href="#calibration-m1-m"' in html
    assert "Temperature scaling" in html
    assert escape(with_val.readings["m"]["calibration"]) in html

    without = build_report(y, {"m": q}, n_boot=10, random_state=0)
    assert without.results["models"]["m"]["calibration"]["temperature"] is None
    assert 'id="calibration-m1-m"' in without.to_html() and "Temperature scaling" not in without.to_html()

    def undefined(*args, **kwargs):
        raise ValueError("no bins here")

    monkeypatch.setattr(analysis_module, "reliability_curve", undefined)
    skipped = build_report(y, {"m": q}, n_boot=10, random_state=0)
    model = skipped.results["models"]["m"]
    assert model["calibration"] is None and model["metrics"] is not None and model["gini"] is not None
    assert model["skipped"]["calibration"] == "calibration could not be computed for these scores: no bins here"
    reading = skipped.readings["m"]["calibration"]
    assert reading.startswith("This section was skipped: calibration could not be computed")
    page = skipped.to_html()
    assert escape(reading) in page and 'href="#calibration-m1-m"' in page
    assert not any(f.key in ("reliability", "classwise", "recalibrated") for f in skipped.figures["m"])


@pytest.mark.parametrize("m", [2, 22])
def test_two_and_many_classes_give_a_record_per_class_and_a_reading(m):
    rng = np.random.default_rng(m)
    y, q = _calibrated(rng, 40 * m, m)
    y_val, q_val = _calibrated(rng, 30 * m, m)
    results = _results(y, q, y_val=y_val, val_scores=q_val)
    record = results["models"]["model"]["calibration"]
    classwise = record["reliability"]["classwise"]["bins"]
    assert [b["class"] for b in classwise] == list(range(m))
    assert record["ece"]["classwise"]["estimate"] == pytest.approx(calibration_error(y, q, kind="classwise"))
    reading = model_readings(results["models"]["model"], results)["calibration"]
    assert reading.startswith("Top-label ECE ") and "Temperature T = " in reading


def test_the_summary_line_names_the_rejections_and_the_clear_gain_of_the_map(over_confident):
    *_, results = over_confident
    (line,) = [line for line in verdicts(results) if line.startswith("model: ")]
    test = results["models"]["model"]["calibration"]["test"]
    named = [f"class {c}" for c, p in zip(test["classes"][:-1], test["p_holm"]) if p < 0.05] + ["the top label"]
    words = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    assert f"the calibration test rejects {words} (Holm)" in line
    assert "temperature scaling lowers log loss by" in line


def test_a_change_whose_interval_holds_zero_reads_as_no_clear_change():
    change = calibration_readings._change_text
    row = {"quantity": "log_loss", "difference": -0.01, "low": -0.03, "high": 0.01}
    assert change(row) == "brings no clear change in log loss (-0.010 [-0.030, 0.010])"
    assert change({**row, "high": -0.002}) == "lowers log loss by 0.010 [0.002, 0.030]"
    assert change({**row, "difference": 0.02, "low": 0.01, "high": 0.03}) == "raises log loss by 0.020 [0.010, 0.030]"
    assert change({**row, "difference": 0.0, "low": 0.0, "high": 0.0}).startswith("brings no clear change")
