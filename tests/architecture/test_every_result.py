"""Every result object of polyroc follows one protocol.

Each is a frozen dataclass deriving from ``polyroc._results.Result`` with a
``settings`` dict; ``to_dict()`` is strict JSON (no NaN, no infinity) and
names its type; ``to_frame()`` is a non-empty pandas table; ``_repr_html_``
names the class and shows the result before its settings, which it folds. Settings use one vocabulary:
no key of the old names (``sampler``, ``ties``, ``thresholds`` for a mode).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import pkgutil
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

import polyroc
import polyroc.calibration
import polyroc.decisions
from polyroc import dmf, gini
from polyroc._results import Drawable, Result
from polyroc.curves import ovr_precision_recall_curve, ovr_roc_curve
from polyroc.resampling import paired_rule_scores
from polyroc.thresholds import coordinate_profile, cross_validated_tuning

OLD_SETTING_NAMES = {"sampler", "ties", "thresholds", "threshold_mode", "kind"}


def _problem(n=240, m=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = rng.normal(size=(n, m)) + 1.5 * np.eye(m)[y]
    scores = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y, scores


def _results():
    y, P = _problem()
    y_val, P_val = _problem(seed=1)
    quick = {"n_boot": 30, "random_state": 0}
    evaluation = polyroc.evaluate(y, P, **quick)
    tuning = polyroc.tune_thresholds(y_val, P_val, metric="f1_macro")
    dmf_roc = polyroc.roc_dmf(y, P, bootstrap="stratified", **quick)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rows summing to 1 make the whitening singular, as documented
        gini_roc = polyroc.gini_roc(y, P, **quick)
        mgini = gini.multidimensional_gini(P)
        whitening = gini.zca_cor_whitening(P)
    return {
        "Evaluation": evaluation,
        "ConfidenceInterval": evaluation.intervals["accuracy"],
        "PairedRuleScores": paired_rule_scores(y, {"argmax": P.argmax(1), "tuned": tuning.predict(P)}, **quick),
        "TuningResult": tuning,
        "RocCloud": polyroc.roc_cloud(y, P, resolution=6),
        "RuleComparison": polyroc.compare_rules(y, P, y_val=y_val, val_scores=P_val),
        "CoordinateProfile": coordinate_profile(y_val, P_val, tuning.best_threshold),
        "CrossValidatedTuning": cross_validated_tuning(LogisticRegression(), P, y, cv=3, resolution=10),
        "OvrRocCurves": ovr_roc_curve(y, P),
        "OvrPrecisionRecallCurves": ovr_precision_recall_curve(y, P),
        "DmfRoc": dmf_roc,
        "DmfBootstrap": dmf_roc.bootstrap,
        "ModelComparison": polyroc.compare_models(y, {"a": P, "b": np.roll(P, 1, axis=1)}, **quick),
        "ScoreComparison": polyroc.compare_scores(y, {"a": P, "b": np.roll(P, 1, axis=1)}, **quick),
        "CochranQ": polyroc.cochran_q(y, {"a": P.argmax(1), "b": np.roll(P, 1, axis=1).argmax(1)}),
        "PairwiseRates": dmf.pairwise_rates(y, P),
        "GiniRoc": gini_roc,
        "GiniBootstrap": gini_roc.bootstrap,
        "MultidimensionalGini": mgini,
        "Whitening": whitening,
        "Calibrator": polyroc.calibration.fit_calibrator(y_val, P_val),
        "ReliabilityCurve": polyroc.reliability_curve(y, P),
        "CalibrationTest": polyroc.calibration_test(y, P),
        "PriorEstimate": polyroc.estimate_priors(P, train_priors=np.full(3, 1 / 3), **quick),
        "RejectOptionSummary": polyroc.decisions.reject_option_summary(
            y,
            polyroc.bayes_decision(P, cost_matrix=1 - np.eye(3), reject_cost=0.4),
            cost_matrix=1 - np.eye(3),
            reject_cost=0.4,
        ),
    }


RESULTS = _results()


def _result_types() -> set[str]:
    """The name of every concrete result class of polyroc (every module imported first)."""
    for module in pkgutil.walk_packages(polyroc.__path__, "polyroc."):
        importlib.import_module(module.name)
    found, stack = set(), [Result]
    while stack:
        for subclass in stack.pop().__subclasses__():
            stack.append(subclass)
            if subclass.__module__.startswith("polyroc.") and subclass is not Drawable:
                found.add(subclass.__name__)
    return found


def test_every_result_type_is_covered():
    assert set(RESULTS) == _result_types()
    assert all(type(result).__name__ == name for name, result in RESULTS.items())


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_result_is_a_frozen_dataclass_with_settings(name):
    result = RESULTS[name]
    assert isinstance(result, Result) and dataclasses.is_dataclass(result)
    assert isinstance(result.settings, dict)
    assert not OLD_SETTING_NAMES & set(result.settings)
    field = dataclasses.fields(result)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(result, field, None)


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_to_dict_is_strict_json_naming_the_type(name):
    document = RESULTS[name].to_dict()
    assert document["type"] == name
    assert "settings" in document
    json.dumps(document, allow_nan=False)  # raises on NaN, infinity or a non-JSON object


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_to_frame_and_notebook_view(name):
    frame = RESULTS[name].to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) >= 1
    view = RESULTS[name]._repr_html_()
    assert view.startswith(f"<div class='polyroc-result'><strong>{name}</strong>")
    assert "<table>" in view and view.index("<table>") < view.index("<details><summary>settings</summary>")


@pytest.mark.parametrize("name", sorted(RESULTS))
def test_repr_is_one_short_line(name):
    text = repr(RESULTS[name])
    assert text.startswith(f"{name}(") and "\n" not in text
    assert len(text) < 1500  # names arrays by shape instead of printing them


DRAWN = sorted(name for name, result in RESULTS.items() if callable(getattr(result, "plot", None)))


@pytest.mark.parametrize("name", DRAWN)
def test_plot_draws_a_result_made_with_default_settings(name):
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    display = RESULTS[name].plot()
    try:
        assert isinstance(display.figure_, Figure) and display.ax_ is not None
    finally:
        plt.close(display.figure_)


def test_the_readme_names_the_results_that_draw_and_when_the_lattice_is_searched():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    paragraph = readme[readme.index("The results that draw have") :]
    paragraph = paragraph[: paragraph.index("\n\n")]
    named = {name for name in re.findall(r"`(\w+)`", paragraph) if name in RESULTS}
    assert named == set(DRAWN)
    assert "# lattice (≤ 4 classes) or coordinate ascent" in readme
    searches = {}
    for m in (3, 4, 5, 6):
        y, P = _problem(n=60, m=m, seed=m)
        searches[m] = polyroc.tune_thresholds(y, P).settings["search"]
    assert searches == {3: "lattice", 4: "lattice", 5: "coordinate", 6: "coordinate"}
