"""``evaluate(...).class_intervals["roc_auc"]``: each class's AUC with DeLong's interval, against pROC and scikit-learn.

pROC's figures are those of ``tests/_oracles/proc_class_figures.py`` (the R
script is in its docstring).
"""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import polyroc
from polyroc.streaming import EvaluationAccumulator
from tests._oracles.proc_class_figures import PROC_CLASS_FIGURES, wine_scores
from tests.evaluation.checks import assert_same_evaluation


def test_per_class_intervals_have_procs_standard_errors():
    y, models = wine_scores()
    result = polyroc.evaluate(y, models["A"], random_state=0)
    per_class = result.class_intervals["roc_auc"]
    assert list(per_class) == [0, 1, 2]
    for k, figures in enumerate(PROC_CLASS_FIGURES):
        assert per_class[k].estimate == pytest.approx(figures["auc_a"], abs=1e-12)
        assert per_class[k].settings["standard_error"] == pytest.approx(np.sqrt(figures["var_a"]), rel=1e-10)
        assert per_class[k].method == "DeLong (logit)"
        assert per_class[k].low < per_class[k].estimate < per_class[k].high


def test_weighted_per_class_estimates_are_scikit_learns_and_the_averages_record_their_standard_error():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, 400)
    P = rng.dirichlet(np.ones(4), 400) + 0.5 * np.eye(4)[y]
    P /= P.sum(axis=1, keepdims=True)
    weights = rng.integers(0, 4, 400).astype(float)
    result = polyroc.evaluate(y, P, sample_weight=weights, random_state=0)
    for k, interval in result.class_intervals["roc_auc"].items():
        assert interval.estimate == pytest.approx(roc_auc_score(y == k, P[:, k], sample_weight=weights), abs=1e-12)
    for name in ("roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovr_micro", "roc_auc_ovo_macro"):
        settings = result.intervals[name].settings
        assert settings["standard_error"] > 0 and settings["df"] > 1


def test_every_view_shows_the_per_class_aucs():
    y, models = wine_scores()
    result = polyroc.evaluate(np.array(["a", "b", "c"])[y], models["B"], random_state=0)
    per_class = result.class_intervals["roc_auc"]
    frame = result.to_frame(per_class=True)
    assert frame["roc_auc"].tolist() == [per_class[label].estimate for label in "abc"]
    assert frame["roc_auc_low"].tolist() == [per_class[label].low for label in "abc"]
    assert frame["roc_auc_high"].tolist() == [per_class[label].high for label in "abc"]
    text = result.to_text()
    header = next(line for line in text.splitlines() if line.startswith("class "))
    assert header.split() == ["class", "precision", "recall", "f1-score", "roc_auc"]
    assert "  roc_auc: DeLong (logit)" in text
    row_a = next(line for line in text.splitlines() if line.startswith("a "))
    assert row_a.split()[-3:] == [
        f"{per_class['a'].estimate:.4f}",
        f"[{per_class['a'].low:.4f},",
        f"{per_class['a'].high:.4f}]",
    ]
    document = result.to_dict()["class_intervals"]["roc_auc"]
    assert set(document) == {"a", "b", "c"}
    assert document["a"]["settings"]["standard_error"] == per_class["a"].settings["standard_error"]
    html = result._repr_html_()
    assert "<th>roc_auc</th>" in html and "roc_auc: DeLong (logit)" in html


def test_no_per_class_aucs_without_delong():
    y, models = wine_scores()
    assert polyroc.evaluate(y, models["A"], n_boot=0).class_intervals == {}
    bootstrapped = polyroc.evaluate(y, models["A"], ci="bootstrap", n_boot=20, random_state=0)
    assert list(bootstrapped.class_intervals) == ["precision", "recall", "f1-score"]
    mapped = polyroc.evaluate(y, models["A"], ci={"roc_auc_ovr_macro": "bootstrap"}, n_boot=20, random_state=0)
    assert "roc_auc" not in mapped.class_intervals


def test_a_stream_leaves_the_per_class_aucs_out_and_agrees_on_the_rest():
    y, models = wine_scores()
    expected = polyroc.evaluate(y, models["A"], random_state=0)
    accumulator = EvaluationAccumulator([0, 1, 2])
    for rows in np.array_split(np.arange(y.size), 3):
        accumulator.update(y[rows], models["A"][rows])
    found = accumulator.compute(random_state=0)
    assert "roc_auc" in expected.class_intervals and "roc_auc" not in found.class_intervals
    assert_same_evaluation(found, expected, delong=False)
