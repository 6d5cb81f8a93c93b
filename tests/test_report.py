"""The report: its numbers equal independent computations, its HTML is self-contained, writing is atomic."""

import json
import re

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, f1_score, roc_auc_score

import polyroc.report._document as document_module
from polyroc.dmf import roc_dmf
from polyroc.gini import WhiteningWarning, gini_roc
from polyroc.report import build_report
from polyroc.report._readings import comparison_reading, model_readings
from polyroc.thresholds import apply_thresholds, roc_cloud, tune_thresholds

CLASSES = np.array(["ant", "bee", "cow", "doe"])


def _scores(rng, y, strength):
    raw = rng.dirichlet(np.ones(CLASSES.size), y.size) + strength * np.eye(CLASSES.size)[y]
    return raw / raw.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    y_val = rng.choice(4, 160, p=[0.4, 0.3, 0.2, 0.1])
    y_test = rng.choice(4, 200, p=[0.4, 0.3, 0.2, 0.1])
    return {
        "y_val": CLASSES[y_val], "y_test": CLASSES[y_test],
        "val": {"good": _scores(rng, y_val, 1.2), "weak": _scores(rng, y_val, 0.4)},
        "test": {"good": _scores(rng, y_test, 1.2), "weak": _scores(rng, y_test, 0.4)},
    }


@pytest.fixture(scope="module")
def report(data):
    return build_report(data["y_test"], data["test"], y_val=data["y_val"], val_scores=data["val"],
                        metric="f1_macro", n_boot=60, random_state=3)


def test_data_summary_counts_the_test_and_validation_rows(report, data):
    section = report.results["data"]
    counts = {c: int(np.sum(data["y_test"] == c)) for c in CLASSES}
    assert section["test"]["class_counts"] == counts
    assert section["test"]["imbalance_ratio"] == max(counts.values()) / min(counts.values())
    assert section["validation"]["n_samples"] == 160


def test_metrics_equal_scikit_learn(report, data):
    y = data["y_test"]
    for name, scores in data["test"].items():
        metrics = report.results["models"][name]["metrics"]
        predicted = CLASSES[scores.argmax(axis=1)]
        values = metrics["scores"]
        assert values["accuracy"]["estimate"] == pytest.approx(accuracy_score(y, predicted), abs=1e-12)
        assert values["f1_macro"]["estimate"] == pytest.approx(
            f1_score(y, predicted, average="macro", zero_division=0), abs=1e-12)
        assert values["roc_auc_ovr_macro"]["estimate"] == pytest.approx(
            roc_auc_score(y, scores, labels=CLASSES, multi_class="ovr"), abs=1e-12)
        np.testing.assert_array_equal(metrics["confusion_matrix"], confusion_matrix(y, predicted, labels=CLASSES))
        for record in values.values():
            assert record["low"] <= record["high"]


def test_tuning_section_equals_tuning_and_applying_directly(report, data):
    for name in data["test"]:
        tuning = report.results["models"][name]["tuning"]
        direct = tune_thresholds(data["y_val"], data["val"][name], metric="f1_macro", labels=CLASSES)
        np.testing.assert_allclose([tuning["threshold"][c] for c in CLASSES], direct.best_threshold, atol=0)
        assert tuning["validation"]["tuned"] == pytest.approx(direct.best_score, abs=1e-12)
        tuned = apply_thresholds(data["test"][name], direct.best_threshold, labels=CLASSES)
        argmax = CLASSES[data["test"][name].argmax(axis=1)]
        difference = (f1_score(data["y_test"], tuned, average="macro", zero_division=0)
                      - f1_score(data["y_test"], argmax, average="macro", zero_division=0))
        assert tuning["test_difference"]["estimate"] == pytest.approx(difference, abs=1e-12)
        assert tuning["rules"]["test"]["tuned"] == pytest.approx(tuning["test"]["tuned"]["estimate"], abs=1e-12)


def test_clouds_dmf_and_gini_equal_the_library_called_directly(report, data):
    y = data["y_test"]
    for name, scores in data["test"].items():
        model = report.results["models"][name]
        cloud = roc_cloud(y, scores, labels=CLASSES)
        assert model["roc_cloud"]["dfp_overall"] == pytest.approx(cloud.dfp_overall, abs=1e-12)
        dmf = roc_dmf(y, scores, labels=CLASSES)
        assert model["dmf"]["D"]["estimate"] == pytest.approx(dmf.D, abs=1e-9)
        with pytest.warns(WhiteningWarning, match="singular"):  # probability rows, as in the report
            gini = gini_roc(y, scores, labels=CLASSES)
        assert model["gini"]["auc"]["estimate"] == pytest.approx(gini.auc_agg, abs=1e-12)
    ranking = report.results["model_comparison"]["ranking_probabilities"]
    assert sum(row["probability"] for row in ranking) == pytest.approx(1.0)


def test_results_are_strict_json(report):
    def refuse(constant):
        raise AssertionError(f"non-standard JSON constant {constant}")

    text = json.dumps(report.results, allow_nan=False)
    assert json.loads(text, parse_constant=refuse) == report.results


def test_html_is_self_contained_and_shows_every_figure(report):
    html = report.to_html()
    assert "<script" not in html.lower()
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", html)
    n_figures = sum(len(figures) for figures in report.figures.values()) + len(report.shared_figures)
    assert html.count('src="data:image/png;base64,') == n_figures == 2 * 5 + 1
    good = report.results["models"]["good"]["metrics"]["scores"]["accuracy"]
    assert f'{good["estimate"]:.3f}' in html and f'{good["low"]:.3f}' in html
    for reading in report.readings["good"].values():
        assert reading.replace("'", "&#39;") in html


def test_without_validation_there_is_no_tuning_section(data):
    single = build_report(data["y_test"], {"good": data["test"]["good"]}, n_boot=20)
    model = single.results["models"]["good"]
    assert model["tuning"] is None and single.results["model_comparison"] is None
    assert [f.key for f in single.figures["good"]] == ["confusion", "roc_pr", "clouds", "gini"]
    assert "Threshold tuning: argmax" not in single.to_html()


def test_progress_is_reported_step_by_step(data):
    calls = []
    build_report(data["y_test"], {"good": data["test"]["good"]}, n_boot=10,
                 progress=lambda *args: calls.append(args))
    assert [done for _, done, _ in calls] == list(range(len(calls)))
    assert {total for _, _, total in calls} == {len(calls)}


def _difference(low, high):
    return {"metric": "f1_macro", "validation": {"argmax": 0.5, "tuned": 0.6},
            "test_difference": {"estimate": (low + high) / 2, "low": low, "high": high}}


@pytest.mark.parametrize("low, high, phrase", [
    (0.01, 0.05, "better on new data too"),
    (-0.02, 0.04, "cannot tell the tuned rule from argmax"),
    (-0.06, -0.01, "overfitted the validation data"),
])
def test_tuning_reading_follows_the_interval(report, low, high, phrase):
    model = dict(report.results["models"]["good"], tuning=_difference(low, high))
    assert phrase in model_readings(model, report.results)["tuning"]


def test_comparison_reading_names_an_unclear_winner():
    results = {"model_comparison": {"ranking_probabilities": [
        {"ranking": ["a", "b"], "probability": 0.55}, {"ranking": ["b", "a"], "probability": 0.45}]}}
    reading = comparison_reading(results)
    assert "a > b (55% of replicates)" in reading and "not a clear winner" in reading


def test_write_creates_report_json_and_figures(report, tmp_path):
    out = report.write(tmp_path / "out")
    assert sorted(p.name for p in out.iterdir()) == ["figures", "report.html", "results.json"]
    assert json.loads((out / "results.json").read_text()) == report.results
    assert len(list((out / "figures").glob("*.png"))) == 11
    report.write(out)  # an earlier report is replaced
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_write_refuses_a_foreign_directory(report, tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "thesis.tex").write_text("keep me")
    with pytest.raises(FileExistsError, match="not an earlier polyroc output"):
        report.write(tmp_path / "out")
    assert (tmp_path / "out" / "thesis.tex").read_text() == "keep me"


def test_failing_write_leaves_nothing(report, tmp_path, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(document_module.json, "dumps", broken)
    with pytest.raises(OSError, match="disk full"):
        report.write(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("change, error, match", [
    ({"val_scores": None}, ValueError, "y_val and val_scores go together"),
    ({"val_scores": {"good": None}}, ValueError, "same models"),
    ({"n_boot": 0}, ValueError, "n_boot must be >= 1"),
    ({"random_state": None}, TypeError, "random_state must be an integer seed"),
    ({"metric": "nope"}, ValueError, "nope"),
    ({"confidence": 1.5}, ValueError, r"confidence must be a finite number in \(0, 1\)"),
    ({"test_scores": {"good": np.full((200, 4), 0.3)}}, ValueError, "test scores of model 'good'"),
    ({"test_scores": {}}, TypeError, "non-empty mapping"),
])
def test_bad_inputs_fail_before_any_work(data, change, error, match, monkeypatch):
    monkeypatch.setattr(document_module, "analysis_steps", lambda *a: pytest.fail("work started"))
    arguments = {"y_test": data["y_test"], "test_scores": data["test"], "y_val": data["y_val"],
                     "val_scores": data["val"], "n_boot": 10}
    arguments.update(change)
    with pytest.raises(error, match=match):
        build_report(**arguments)
