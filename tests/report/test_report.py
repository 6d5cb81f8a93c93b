"""The report: its numbers equal independent computations, its HTML is self-contained, writing is atomic."""

import contextlib
import json
import re
import warnings

import numpy as np
import pytest
from markupsafe import escape
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    log_loss,
    roc_auc_score,
)
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import polyroc.report._analysis as analysis_module
import polyroc.report._document as document_module
from polyroc.datasets import load_glass
from polyroc.dmf import roc_dmf
from polyroc.gini import WhiteningWarning, gini_roc
from polyroc.report import build_report
from polyroc.report._readings import comparison_reading, model_readings
from polyroc.thresholds import apply_thresholds, roc_cloud, tune_thresholds

pytestmark = pytest.mark.slow  # builds whole reports: not in the quick run (-m "not slow")

CLASSES = np.array(["ant", "bee", "cow", "doe"])


@contextlib.contextmanager
def _no_whitening_warning():
    """Probability rows make the whitening singular, as expected: no WhiteningWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)
        yield


def _scores(rng, y, strength):
    raw = rng.dirichlet(np.ones(CLASSES.size), y.size) + strength * np.eye(CLASSES.size)[y]
    return raw / raw.sum(axis=1, keepdims=True)


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(11)
    y_val = rng.choice(4, 160, p=[0.4, 0.3, 0.2, 0.1])
    y_test = rng.choice(4, 200, p=[0.4, 0.3, 0.2, 0.1])
    return {
        "y_val": CLASSES[y_val],
        "y_test": CLASSES[y_test],
        "val": {"good": _scores(rng, y_val, 1.2), "weak": _scores(rng, y_val, 0.4)},
        "test": {"good": _scores(rng, y_test, 1.2), "weak": _scores(rng, y_test, 0.4)},
    }


@pytest.fixture(scope="module")
def report(data):
    return build_report(
        data["y_test"],
        data["test"],
        y_val=data["y_val"],
        val_scores=data["val"],
        metric="f1_macro",
        n_boot=60,
        random_state=3,
    )


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
        values = metrics["intervals"]
        assert values["accuracy"]["estimate"] == pytest.approx(accuracy_score(y, predicted), abs=1e-12)
        assert values["f1_macro"]["estimate"] == pytest.approx(
            f1_score(y, predicted, average="macro", zero_division=0), abs=1e-12
        )
        assert values["roc_auc_ovr_macro"]["estimate"] == pytest.approx(
            roc_auc_score(y, scores, labels=CLASSES, multi_class="ovr"), abs=1e-12
        )
        np.testing.assert_array_equal(metrics["confusion_matrix"], confusion_matrix(y, predicted, labels=CLASSES))
        for record in values.values():
            assert record["low"] <= record["estimate"] <= record["high"]
            assert record["settings"]["n_boot"] is None  # ci="auto": no metric interval resamples
        assert metrics["scores"]["accuracy"] == values["accuracy"]["estimate"]


def test_tuning_section_equals_tuning_and_applying_directly(report, data):
    for name in data["test"]:
        comparison = report.results["models"][name]["tuning"]["comparison"]
        test_scores = report.results["models"][name]["tuning"]["test_scores"]
        direct = tune_thresholds(data["y_val"], data["val"][name], metric="f1_macro", labels=CLASSES)
        np.testing.assert_allclose(comparison["tuning"]["best_threshold"], direct.best_threshold, atol=0)
        assert comparison["tuning"]["best_score"] == pytest.approx(direct.best_score, abs=1e-12)
        tuned = apply_thresholds(data["test"][name], direct.best_threshold, labels=CLASSES)
        argmax = CLASSES[data["test"][name].argmax(axis=1)]
        difference = f1_score(data["y_test"], tuned, average="macro", zero_division=0) - f1_score(
            data["y_test"], argmax, average="macro", zero_division=0
        )
        assert test_scores["differences"]["tuned"]["estimate"] == pytest.approx(difference, abs=1e-12)
        assert comparison["rows"]["test"]["tuned"] == pytest.approx(
            test_scores["scores"]["tuned"]["estimate"], abs=1e-12
        )


def test_clouds_dmf_and_gini_equal_the_library_called_directly(report, data):
    y = data["y_test"]
    for name, scores in data["test"].items():
        model = report.results["models"][name]
        cloud = roc_cloud(y, scores, labels=CLASSES)
        assert model["roc_cloud"]["dfp_overall"] == pytest.approx(cloud.dfp_overall, abs=1e-12)
        dmf = roc_dmf(y, scores, labels=CLASSES)
        assert model["dmf"]["D"] == model["dmf"]["ci"]["estimate"] == pytest.approx(dmf.D, abs=1e-9)
        with _no_whitening_warning():  # probability rows, as in the report
            gini = gini_roc(y, scores, labels=CLASSES)
        assert model["gini"]["bootstrap"]["auc"]["estimate"] == pytest.approx(gini.auc_agg, abs=1e-12)
    ranking = report.results["model_comparison"]["ranking_probabilities"]
    assert sum(row["probability"] for row in ranking) == pytest.approx(1.0)


def test_paired_tests_are_delong_and_mcnemar_on_the_test_rows(report, data):
    """The DeLong difference is checked against scikit-learn's AUCs, McNemar's against the discordant rows."""
    from scipy.stats import binomtest

    y = data["y_test"]
    rows = {row["quantity"]: row for row in report.results["paired_tests"]["comparisons"]}
    assert list(rows) == ["roc_auc_ovr_macro", "roc_auc_ovo_macro", "roc_auc_per_class", "accuracy", "f1_macro"]
    per_class = [row for row in report.results["paired_tests"]["comparisons"] if row["quantity"] == "roc_auc_per_class"]
    assert [row["class"] for row in per_class] == list(CLASSES)
    for row in per_class:  # each class against the rest, as scikit-learn's binary AUC
        k = list(CLASSES).index(row["class"])
        expected = roc_auc_score(y == row["class"], data["test"]["good"][:, k]) - roc_auc_score(
            y == row["class"], data["test"]["weak"][:, k]
        )
        assert row["difference"] == pytest.approx(expected, abs=1e-12)
    for label, interval in report.results["models"]["good"]["metrics"]["class_intervals"]["roc_auc"].items():
        k = list(map(str, CLASSES)).index(str(label))
        assert interval["estimate"] == pytest.approx(roc_auc_score(y == CLASSES[k], data["test"]["good"][:, k]))
    good, weak = data["test"]["good"], data["test"]["weak"]
    for quantity, multi_class in (("roc_auc_ovr_macro", "ovr"), ("roc_auc_ovo_macro", "ovo")):
        expected = roc_auc_score(y, good, labels=CLASSES, multi_class=multi_class) - roc_auc_score(
            y, weak, labels=CLASSES, multi_class=multi_class
        )
        assert (rows[quantity]["model"], rows[quantity]["other"]) == ("good", "weak")
        assert rows[quantity]["difference"] == pytest.approx(expected, abs=1e-12)
        assert rows[quantity]["low"] < rows[quantity]["difference"] < rows[quantity]["high"]
    right_good, right_weak = CLASSES[good.argmax(1)] == y, CLASSES[weak.argmax(1)] == y
    only_good, only_weak = int(np.sum(right_good & ~right_weak)), int(np.sum(right_weak & ~right_good))
    assert rows["accuracy"]["p_value"] == pytest.approx(binomtest(only_good, only_good + only_weak).pvalue, abs=1e-12)
    assert rows["f1_macro"]["method"].startswith("paired stratified percentile bootstrap")
    html = report.to_html()
    assert 'id="paired-tests"' in html and "McNemar exact test" in html
    assert f"ROC AUC, class vs rest (class {CLASSES[0]})" in html and "<th>AUC (one-vs-rest)</th>" in html
    assert report.readings["paired_tests"].startswith(("After Holm", "No pair"))


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
    assert html.count('src="data:image/png;base64,') == n_figures == 2 * 8 + 1
    good = report.results["models"]["good"]["metrics"]["intervals"]["accuracy"]
    assert f"{good['estimate']:.3f}" in html and f"{good['low']:.3f}" in html
    for reading in report.readings["good"].values():
        assert escape(reading) in html  # as the template escapes it


def test_without_validation_there_is_no_tuning_section(data):
    single = build_report(data["y_test"], {"good": data["test"]["good"]}, n_boot=20)
    model = single.results["models"]["good"]
    assert model["tuning"] is None and single.results["model_comparison"] is None
    assert [f.key for f in single.figures["good"]] == [
        "confusion",
        "roc_pr",
        "reliability",
        "classwise",
        "clouds",
        "gini",
    ]
    assert "Threshold tuning: argmax" not in single.to_html()


def test_progress_is_reported_step_by_step(data):
    calls = []
    build_report(data["y_test"], {"good": data["test"]["good"]}, n_boot=10, progress=lambda *args: calls.append(args))
    assert [done for _, done, _ in calls] == list(range(len(calls)))
    assert {total for _, _, total in calls} == {len(calls)}


def _difference(low, high):
    return {
        "comparison": {
            "metric": "f1_macro",
            "tuning": {
                "argmax_score": 0.5,
                "best_score": 0.6,
                "best_threshold": [0.3, 0.2, 0.25, 0.25],
                "n_thresholds": 24805,
                "settings": {"search": "lattice", "resolution": 51, "domain": "simplex"},
            },
        },
        "test_scores": {"differences": {"tuned": {"estimate": (low + high) / 2, "low": low, "high": high}}},
    }


@pytest.mark.parametrize(
    "low, high, phrase",
    [
        (0.01, 0.05, "better on new data too"),
        (-0.02, 0.04, "cannot tell the tuned rule from argmax"),
        (-0.06, -0.01, "overfitted the validation data"),
    ],
)
def test_tuning_reading_follows_the_interval(report, low, high, phrase):
    model = dict(report.results["models"]["good"], tuning=_difference(low, high))
    assert phrase in model_readings(model, report.results)["tuning"]


def test_comparison_reading_names_an_unclear_winner():
    results = {
        "model_comparison": {
            "ranking_probabilities": [
                {"ordering": ["a", "b"], "probability": 0.55},
                {"ordering": ["b", "a"], "probability": 0.45},
            ]
        }
    }
    reading = comparison_reading(results)
    assert "a > b (55% of replicates)" in reading and "not a clear winner" in reading


def test_write_creates_report_json_and_figures(report, tmp_path):
    out = report.write(tmp_path / "out")
    assert sorted(p.name for p in out.iterdir()) == [".polyroc-manifest.json", "figures", "report.html", "results.json"]
    assert json.loads((out / "results.json").read_text()) == report.results
    assert len(list((out / "figures").glob("*.png"))) == 17
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


@pytest.mark.parametrize(
    "change, error, match",
    [
        ({"val_scores": None}, ValueError, "y_val and val_scores go together"),
        ({"val_scores": {"good": None}}, ValueError, "same models"),
        ({"n_boot": 0}, ValueError, "n_boot must be >= 1"),
        ({"random_state": -1}, ValueError, "random_state must be a non-negative integer seed"),
        ({"random_state": "seed"}, TypeError, "random_state must be None, an integer seed"),
        ({"metric": "nope"}, ValueError, "nope"),
        ({"ci": "none"}, ValueError, r"^ci='none' does not apply to a report: its tables and readings quote"),
        ({"ci": "exact"}, ValueError, "ci must be one of 'auto', 'analytic', 'bayes', 'bootstrap', 'none' or"),
        ({"confidence": 1.5}, ValueError, r"confidence must be a finite number in \(0, 1\)"),
        ({"y_score": {"good": np.full((200, 4), 0.3)}}, ValueError, "test scores of model 'good'"),
        ({"y_score": {}}, TypeError, "y_score must name at least one model"),
        ({"y_score": "scores.csv"}, TypeError, "y_score must be a score matrix or a mapping"),
        ({"sample_weight": -np.ones(200)}, ValueError, "sample_weight"),
        ({"sample_weight": np.ones(3)}, ValueError, "sample_weight"),
        ({"val_sample_weight": np.ones(7)}, ValueError, "sample_weight"),
        # the labels and weights belong to every model: their errors name them and blame no model
        ({"y_true": [0, "a"] * 100}, TypeError, r"^y_true mixes strings and numbers: Mix of label input types"),
        ({"y_val": [0, "a"] * 80}, TypeError, r"^y_val mixes strings and numbers: Mix of label input types"),
        ({"sample_weight": np.full(200, 1e308)}, ValueError, r"^sample_weight sums past the largest float64"),
        ({"val_sample_weight": np.full(160, 1e308)}, ValueError, r"^val_sample_weight sums past the largest float64"),
        ({"val_sample_weight": -np.ones(160)}, ValueError, r"^val_sample_weight must be non-negative"),
        (
            {"y_val": None, "val_scores": None, "val_sample_weight": np.ones(160)},
            ValueError,
            "val_sample_weight weighs validation rows",
        ),
    ],
)
def test_bad_inputs_fail_before_any_work(data, change, error, match, monkeypatch):
    monkeypatch.setattr(document_module, "analysis_steps", lambda *a: pytest.fail("work started"))
    arguments = {
        "y_true": data["y_test"],
        "y_score": data["test"],
        "y_val": data["y_val"],
        "val_scores": data["val"],
        "n_boot": 10,
    }
    arguments.update(change)
    with pytest.raises(error, match=match):
        build_report(**arguments)


@pytest.fixture(scope="module")
def glass_with_baseline():
    """Glass split 50/25/25 (seed 0): a logistic regression and a class-prior DummyClassifier."""
    glass = load_glass()
    X_train, X_rest, y_train, y_rest = train_test_split(
        glass.data, glass.target, train_size=0.5, stratify=glass.target, random_state=0
    )
    X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=0)
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        "prior": DummyClassifier(strategy="prior"),
    }
    val, test = {}, {}
    for name, model in models.items():
        model.fit(X_train, y_train)
        val[name], test[name] = model.predict_proba(X_val), model.predict_proba(X_test)
    return {"y_val": y_val, "y_test": y_test, "val": val, "test": test, "classes": models["prior"].classes_}


@pytest.fixture(scope="module")
def baseline_report(glass_with_baseline):
    data = glass_with_baseline
    return build_report(
        data["y_test"], data["test"], y_val=data["y_val"], val_scores=data["val"], n_boot=30, random_state=0
    )


def test_a_class_prior_baseline_is_accepted_beside_a_real_model(baseline_report, glass_with_baseline):
    data, results = glass_with_baseline, baseline_report.results
    prior, logistic = results["models"]["prior"], results["models"]["logistic"]
    assert np.all(data["test"]["prior"] == data["test"]["prior"][0])  # the same scores on every row
    assert prior["constant_scores"] and not logistic["constant_scores"]
    assert prior["skipped"] == {} and logistic["skipped"] == {} and results["skipped"] == {}
    y, scores = data["y_test"], data["test"]["prior"]
    metrics = prior["metrics"]["intervals"]
    assert (
        metrics["roc_auc_ovr_macro"]["estimate"]
        == pytest.approx(roc_auc_score(y, scores, labels=data["classes"], multi_class="ovr"), abs=1e-12)
        == 0.5
    )
    assert metrics["log_loss"]["estimate"] == pytest.approx(log_loss(y, scores, labels=data["classes"]), abs=1e-12)
    assert metrics["accuracy"]["estimate"] == pytest.approx(np.mean(y == data["classes"][scores[0].argmax()]))
    # every threshold gives every row one class: each (FPR, TPR) is (0, 0) or (1, 1), Youden 0, DFP 1
    assert prior["roc_cloud"]["dfp_overall"] == pytest.approx(1.0, abs=1e-12)
    # the Gini section: every class curve is the diagonal, so AUC 0.5; the weights are 0/0 (null)
    gini = prior["gini"]
    auc = gini["bootstrap"]["auc"]
    assert (auc["estimate"], auc["low"], auc["high"]) == (0.5, 0.5, 0.5)
    assert all(w is None for w in gini["weights"])
    assert set(gini["class_auc"]) == {0.5}
    readings = baseline_report.readings["prior"]
    assert "undefined" in readings["gini"] and "floor the other models must beat" in readings["baseline"]
    # the real model is untouched by its neighbour
    assert all(w is not None for w in logistic["gini"]["weights"])
    with _no_whitening_warning():
        direct = gini_roc(y, data["test"]["logistic"], labels=data["classes"])
    assert logistic["gini"]["bootstrap"]["auc"]["estimate"] == pytest.approx(direct.auc_agg, abs=1e-12)
    html = baseline_report.to_html()
    assert readings["baseline"] in html and "(constant baseline)" in html
    assert readings["gini"].replace("'", "&#39;") in html
    assert json.loads(json.dumps(results, allow_nan=False)) == results


def test_a_section_undefined_for_the_scores_is_skipped_with_its_reason(glass_with_baseline):
    data = glass_with_baseline
    nearly_constant = data["test"]["prior"].copy()  # one ulp apart on every other row: ranks rows, no spread
    nearly_constant[::2, 0] = np.nextafter(nearly_constant[::2, 0], 1)
    nearly_constant[::2, 1] = np.nextafter(nearly_constant[::2, 1], 0)
    nearly = {"logistic": data["test"]["logistic"], "nearly constant": nearly_constant}
    report = build_report(data["y_test"], nearly, n_boot=20, random_state=0)
    model = report.results["models"]["nearly constant"]
    assert model["gini"] is None and not model["constant_scores"]
    assert "every column of y_score is constant" in model["skipped"]["gini"]
    assert model["metrics"] is not None and model["roc_cloud"] is not None and model["dmf"] is not None
    reading = report.readings["nearly constant"]["gini"]
    assert reading.startswith("This section was skipped: Gini ROC could not be computed")
    assert [f.key for f in report.figures["nearly constant"]] == [
        "confusion",
        "roc_pr",
        "reliability",
        "classwise",
        "clouds",
    ]
    assert report.results["models"]["logistic"]["gini"] is not None
    html = report.to_html()
    assert reading.replace("'", "&#39;") in html


def test_a_comparison_that_cannot_be_computed_is_skipped_and_each_model_keeps_its_dmf(data, monkeypatch):
    def undefined(*args, **kwargs):
        raise ValueError("the ranking is undefined here")

    monkeypatch.setattr(analysis_module, "compare_models", undefined)
    report = build_report(data["y_test"], data["test"], n_boot=20, random_state=0)
    assert report.results["model_comparison"] is None
    assert "the ranking is undefined here" in report.results["skipped"]["model_comparison"]
    assert "This section was skipped" in report.readings["comparison"]
    for name, scores in data["test"].items():
        assert report.results["models"][name]["dmf"]["ci"]["estimate"] == pytest.approx(
            roc_dmf(data["y_test"], scores, labels=CLASSES).D, abs=1e-9
        )
    assert report.readings["comparison"] in report.to_html()


def test_bad_baseline_scores_fail_before_any_work(glass_with_baseline, monkeypatch):
    monkeypatch.setattr(document_module, "analysis_steps", lambda *a: pytest.fail("work started"))
    data = glass_with_baseline
    broken = data["test"]["prior"].copy()
    broken[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"test scores of model 'prior'.*NaN"):
        build_report(data["y_test"], {"logistic": data["test"]["logistic"], "prior": broken}, n_boot=10)


def test_sections_are_the_results_to_dict_less_the_bulky_arrays(report):
    from polyroc.report._results import OMITTED, compact

    for analysis in report.analyses:
        model = report.results["models"][analysis.name]
        assert model["metrics"] == compact(analysis.evaluation.to_dict()) == analysis.evaluation.to_dict()
        assert model["tuning"]["test_scores"] == analysis.test_rules.to_dict()
        assert model["dmf"] == compact(analysis.dmf.to_dict())
        assert "tpr_matrix" not in model["dmf"] and "fpr" not in model["dmf"]["bootstrap"]
        assert model["roc_cloud"]["n_thresholds"] == analysis.cloud.thresholds.shape[0]
        assert "thresholds" not in model["tuning"]["comparison"]["tuning"]
    assert report.results["omitted"] == {kind: list(fields) for kind, fields in OMITTED.items()}
    assert "results" not in report.results["model_comparison"]


def test_one_score_array_is_a_model_named_model_and_no_seed_is_accepted(data):
    single = build_report(
        data["y_test"], data["test"]["good"], y_val=data["y_val"], val_scores=data["val"]["good"], n_boot=10
    )
    assert list(single.results["models"]) == ["model"]
    assert single.results["settings"]["random_state"] is None
    assert "no fixed seed" in single.to_html()
    with pytest.raises(ValueError, match="same models"):
        build_report(data["y_test"], data["test"]["good"], y_val=data["y_val"], val_scores=data["val"], n_boot=10)


@pytest.fixture(scope="module")
def weighted(data):
    rng = np.random.default_rng(5)
    weights = rng.integers(0, 4, data["y_test"].size).astype(float)
    val_weights = rng.integers(1, 4, data["y_val"].size).astype(float)
    report = build_report(
        data["y_test"],
        {"good": data["test"]["good"]},
        y_val=data["y_val"],
        val_scores={"good": data["val"]["good"]},
        sample_weight=weights,
        val_sample_weight=val_weights,
        n_boot=20,
        random_state=1,
    )
    return report, weights, val_weights


def test_sample_weights_enter_the_metrics_as_scikit_learn_weights_them(weighted, data):
    report, weights, _ = weighted
    y, scores = data["y_test"], data["test"]["good"]
    predicted = CLASSES[scores.argmax(axis=1)]
    metrics = report.results["models"]["good"]["metrics"]
    assert metrics["scores"]["accuracy"] == pytest.approx(accuracy_score(y, predicted, sample_weight=weights))
    assert metrics["scores"]["roc_auc_ovr_macro"] == pytest.approx(
        roc_auc_score(y, scores, labels=CLASSES, multi_class="ovr", sample_weight=weights), abs=1e-12
    )
    np.testing.assert_allclose(
        metrics["confusion_matrix"], confusion_matrix(y, predicted, labels=CLASSES, sample_weight=weights)
    )
    assert report.results["data"]["test"]["class_weights"] == {c: weights[y == c].sum() for c in CLASSES}
    assert report.results["settings"]["weighted"] and "sample weights" in report.readings["data"]


def test_sample_weights_enter_every_other_section(weighted, data):
    report, weights, val_weights = weighted
    y, scores = data["y_test"], data["test"]["good"]
    model = report.results["models"]["good"]
    direct = tune_thresholds(
        data["y_val"], data["val"]["good"], metric="f1_macro", labels=CLASSES, sample_weight=val_weights
    )
    np.testing.assert_array_equal(model["tuning"]["comparison"]["tuning"]["best_threshold"], direct.best_threshold)
    tuned = apply_thresholds(scores, direct.best_threshold, labels=CLASSES)
    argmax = CLASSES[scores.argmax(axis=1)]
    difference = f1_score(y, tuned, average="macro", zero_division=0, sample_weight=weights) - f1_score(
        y, argmax, average="macro", zero_division=0, sample_weight=weights
    )
    assert model["tuning"]["test_scores"]["differences"]["tuned"]["estimate"] == pytest.approx(difference, abs=1e-12)
    cloud = roc_cloud(y, scores, labels=CLASSES, sample_weight=weights)
    assert model["roc_cloud"]["dfp_overall"] == pytest.approx(cloud.dfp_overall, abs=1e-12)
    assert cloud.dfp_overall != pytest.approx(roc_cloud(y, scores, labels=CLASSES).dfp_overall, abs=1e-6)
    assert model["dmf"]["D"] == pytest.approx(roc_dmf(y, scores, labels=CLASSES, sample_weight=weights).D, abs=1e-9)
    with _no_whitening_warning():
        gini = gini_roc(y, scores, labels=CLASSES, sample_weight=weights)
    assert model["gini"]["auc_agg"] == pytest.approx(gini.auc_agg, abs=1e-12)
