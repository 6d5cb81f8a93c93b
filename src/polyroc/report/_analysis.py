"""The computations behind a report, one step at a time, each with its warnings recorded.

Every step returns library result objects (kept for the figures); the numbers
of the report are read off those objects by :mod:`polyroc.report._results`.

Errors in the inputs are found by :func:`~polyroc.report._inputs.check_report_inputs`
before any work. A step that still raises ``ValueError`` met scores its method
is not defined for (e.g. scores that are constant up to rounding have no Gini
weights): the section is skipped, the method's message is recorded as the
reason (``ModelAnalysis.skipped``), and the other sections run.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from polyroc._engine.score_orders import ScoreOrders, shared_orders
from polyroc.calibration import (
    CalibrationTest,
    Calibrator,
    ReliabilityCurve,
    calibration_test,
    fit_calibrator,
    reliability_curve,
    squared_calibration_error,
)
from polyroc.comparison import ScoreComparison, compare_scores
from polyroc.dmf import DmfRoc, compare_models, roc_dmf
from polyroc.evaluation import Evaluation, evaluate
from polyroc.gini import GiniRoc, gini_roc
from polyroc.report._decisions import DecisionAnalysis, decision_analysis
from polyroc.report._inputs import ReportInputs
from polyroc.resampling import PairedRuleScores, paired_rule_scores
from polyroc.thresholds import RocCloud, RuleComparison, compare_rules, roc_cloud

__all__ = ["CalibrationAnalysis", "ModelAnalysis", "SkippedComparison", "analysis_steps", "report_warnings"]


#: Section of the report that each step fills (keys of ``ModelAnalysis.skipped``).
SECTIONS = {
    "metrics": "metrics",
    "calibration": "calibration",
    "threshold tuning": "tuning",
    "ROC clouds": "roc_cloud",
    "Gini ROC": "gini",
    "ROC-DMF": "dmf",
    "decisions": "decisions",
}


@dataclass
class CalibrationAnalysis:
    """Calibration of one model's test scores, and of its temperature-scaled scores when it has validation scores.

    ``top_label`` and ``classwise`` are the reliability curves (their bins
    are those of the ECEs); ``squared_error`` and ``plain_squared_error``
    the top-label squared l2 error with and without its noise removed
    (Kumar, Liang & Ma 2019, arXiv:1909.10155), the check of the ECE on few
    rows; ``test`` the per-class calibration test (Spiegelhalter's Z, Holm's
    p-values). ``calibrator`` is the temperature map fitted on validation,
    ``calibrated`` the top-label curve of the test scores it maps.
    """

    top_label: ReliabilityCurve
    classwise: ReliabilityCurve
    squared_error: float
    plain_squared_error: float
    test: CalibrationTest
    calibrator: Calibrator | None = None
    calibrated: ReliabilityCurve | None = None
    before_after: ScoreComparison | None = None


@dataclass
class ModelAnalysis:
    """Library results of one model; None for a step that was not run.

    ``skipped`` maps a section (``"metrics"``, ``"calibration"``, ``"tuning"``,
    ``"roc_cloud"``, ``"dmf"``, ``"gini"``) to the reason it could not be computed.
    ``orders`` holds the sorts of the test scores that the steps and the
    figures share (see :mod:`polyroc._engine.score_orders`); the figures
    release it.
    """

    name: str
    evaluation: Evaluation | None = None
    comparison: RuleComparison | None = None
    test_rules: PairedRuleScores | None = None
    calibration: CalibrationAnalysis | None = None
    cloud: RocCloud | None = None
    dmf: DmfRoc | None = None
    gini: GiniRoc | None = None
    decisions: DecisionAnalysis | None = None
    warnings: list[dict[str, str]] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)
    orders: ScoreOrders | None = field(default=None, repr=False, compare=False)


def _recorded(analysis, step, function):
    """Run ``function()``, appending the warnings it raises to ``analysis.warnings``."""
    with warnings.catch_warnings(record=True) as caught, shared_orders(analysis.orders):
        warnings.simplefilter("always")
        value = function()
    seen = {(w["step"], w["message"]) for w in analysis.warnings}
    for warning in caught:
        record = {"step": step, "category": warning.category.__name__, "message": str(warning.message)}
        if (step, record["message"]) not in seen:
            seen.add((step, record["message"]))
            analysis.warnings.append(record)
    return value


def _section(analysis, step, function):
    """``_recorded`` for one section; a ``ValueError`` skips the section with its message as reason.

    Returns the step's value, or None when it was skipped.
    """
    try:
        return _recorded(analysis, step, function)
    except ValueError as error:
        analysis.skipped[SECTIONS[step]] = f"{step} could not be computed for these scores: {error}"
        return None


def _bootstrap_options(inputs):
    """The bootstrap options every interval of the report shares."""
    return {"n_boot": inputs.n_boot, "confidence": inputs.confidence, "random_state": inputs.random_state}


def _evaluation_step(inputs, analysis):
    if inputs.evaluations is not None:
        analysis.evaluation = inputs.evaluations[analysis.name]
        return
    scores = inputs.test[analysis.name]
    analysis.evaluation = _section(
        analysis,
        "metrics",
        lambda: evaluate(
            inputs.y_test,
            scores,
            labels=inputs.classes,
            sample_weight=inputs.sample_weight,
            ci=inputs.ci,
            **_bootstrap_options(inputs),
        ),
    )


#: What the before/after comparison of the temperature map compares on test (lower is better for each).
CALIBRATION_QUANTITIES = ("log_loss", "brier_score", "ece_top_label")


def _calibration_step(inputs, analysis):
    """Reliability curves, errors and the per-class test on test; the temperature map fitted on validation."""
    y, scores, classes, weights = inputs.y_test, inputs.test[analysis.name], inputs.classes, inputs.sample_weight
    curve = partial(reliability_curve, y, labels=classes, sample_weight=weights, confidence=inputs.confidence)
    squared = partial(squared_calibration_error, y, scores, labels=classes, sample_weight=weights)

    def calibrate():
        result = CalibrationAnalysis(
            top_label=curve(scores),
            classwise=curve(scores, kind="classwise"),
            squared_error=squared(),
            plain_squared_error=squared(debiased=False),
            test=calibration_test(y, scores, labels=classes, sample_weight=weights),
        )
        if inputs.validation is not None:
            result.calibrator = fit_calibrator(
                inputs.y_val,
                inputs.validation[analysis.name],
                method="temperature",
                labels=classes,
                sample_weight=inputs.val_sample_weight,
            )
            scaled = result.calibrator.transform(scores)
            result.calibrated = curve(scaled)
            result.before_after = compare_scores(
                y,
                {"as given": scores, "temperature-scaled": scaled},
                quantities=CALIBRATION_QUANTITIES,
                baseline="as given",
                labels=classes,
                sample_weight=weights,
                **_bootstrap_options(inputs),
            )
        return result

    analysis.calibration = _section(analysis, "calibration", calibrate)


def _tuning_step(inputs, analysis):
    name, classes = analysis.name, inputs.classes

    def tune_and_compare():
        comparison = compare_rules(
            inputs.y_test,
            inputs.test[name],
            y_val=inputs.y_val,
            val_scores=inputs.validation[name],
            metric=inputs.metric,
            labels=classes,
            sample_weight=inputs.sample_weight,
            val_sample_weight=inputs.val_sample_weight,
            random_state=inputs.random_state,
            return_surface=classes.size == 3,
        )
        scores = inputs.test[name]
        predictions = {"argmax": classes[np.argmax(scores, axis=1)], "tuned": comparison.tuning.predict(scores)}
        rules = paired_rule_scores(
            inputs.y_test,
            predictions,
            metric=inputs.metric,
            labels=classes,
            baseline="argmax",
            sample_weight=inputs.sample_weight,
            **_bootstrap_options(inputs),
        )
        return comparison, rules

    analysis.comparison, analysis.test_rules = _section(analysis, "threshold tuning", tune_and_compare) or (None, None)


def _decisions_step(inputs, analysis):
    analysis.decisions = _section(analysis, "decisions", lambda: decision_analysis(inputs, analysis.name))


def _cloud_step(inputs, analysis):
    analysis.cloud = _section(
        analysis,
        "ROC clouds",
        lambda: roc_cloud(
            inputs.y_test,
            inputs.test[analysis.name],
            labels=inputs.classes,
            sample_weight=inputs.sample_weight,
        ),
    )


def _gini_step(inputs, analysis):
    analysis.gini = _section(
        analysis,
        "Gini ROC",
        lambda: gini_roc(
            inputs.y_test,
            inputs.test[analysis.name],
            labels=inputs.classes,
            sample_weight=inputs.sample_weight,
            absent="drop",
            **_bootstrap_options(inputs),
        ),
    )


@dataclass(frozen=True)
class SkippedComparison:
    """The ROC-DMF model comparison could not be computed; ``reason`` says why."""

    reason: str


def _dmf_options(inputs):
    return {
        "labels": inputs.classes,
        "sample_weight": inputs.sample_weight,
        "bootstrap": "stratified",
        **_bootstrap_options(inputs),
    }


def _single_dmf(inputs, analysis):
    analysis.dmf = _section(
        analysis, "ROC-DMF", lambda: roc_dmf(inputs.y_test, inputs.test[analysis.name], **_dmf_options(inputs))
    )


def _dmf_step(inputs, analyses):
    """ROC-DMF of every model with a stratified bootstrap; ranking probabilities for several.

    Returns the comparison (None for one model). When the paired comparison
    cannot be computed, each model gets its own ROC-DMF and the comparison is
    a :class:`SkippedComparison` with the reason.
    """
    first = analyses[0]
    if len(analyses) == 1:
        _single_dmf(inputs, first)
        return None
    step = "ROC-DMF (all models, paired bootstrap)"
    try:
        with shared_orders(*(analysis.orders for analysis in analyses[1:])):  # the first's: in _recorded
            comparison = _recorded(
                first, step, lambda: compare_models(inputs.y_test, inputs.test, **_dmf_options(inputs))
            )
    except ValueError as error:
        for analysis in analyses:
            _single_dmf(inputs, analysis)
        return SkippedComparison(f"the paired ROC-DMF comparison could not be computed: {error}")
    shared = [record for record in first.warnings if record["step"] == step]
    for analysis in analyses:
        analysis.dmf = comparison.results[analysis.name]
        if analysis is not first:
            analysis.warnings.extend(shared)
    return comparison


#: What the paired tests of several models compare, beside the tuning metric.
PAIRED_QUANTITIES = ("roc_auc_ovr_macro", "roc_auc_ovo_macro", "roc_auc_per_class", "accuracy")


def _paired_tests_step(inputs, analyses):
    """DeLong, McNemar and paired bootstrap tests of every pair of models; a skipped reason on failure."""
    quantities = tuple(dict.fromkeys([*PAIRED_QUANTITIES, inputs.metric]))
    step = "paired tests of the models"
    try:
        return _recorded(
            analyses[0],
            step,
            lambda: compare_scores(
                inputs.y_test,
                inputs.test,
                quantities=quantities,
                labels=inputs.classes,
                sample_weight=inputs.sample_weight,
                **_bootstrap_options(inputs),
            ),
        )
    except ValueError as error:
        return SkippedComparison(f"the paired tests could not be computed: {error}")


def analysis_steps(inputs: ReportInputs, analyses: list[ModelAnalysis]) -> list[tuple[str, Callable[[], Any]]]:
    """The report's work as ``(description, callable)`` pairs, in order.

    The last step returns the ROC-DMF model comparison (None for one model);
    with several models the step before it returns their paired tests
    (:class:`~polyroc.comparison.ScoreComparison`, or a
    :class:`SkippedComparison`); the others fill ``analyses`` in place.

    Parameters
    ----------
    inputs : ReportInputs
        The checked inputs.
    analyses : list of ModelAnalysis
        One per model, filled in place by the steps.

    Returns
    -------
    list of (str, callable)
    """
    steps: list[tuple[str, Callable[[], Any]]] = []
    for analysis in analyses:
        name = analysis.name
        analysis.orders = ScoreOrders(inputs.test[name])
        steps.append((f"{name}: metrics with intervals", partial(_evaluation_step, inputs, analysis)))
        steps.append((f"{name}: calibration", partial(_calibration_step, inputs, analysis)))
        if inputs.validation is not None:
            steps.append((f"{name}: threshold tuning", partial(_tuning_step, inputs, analysis)))
        if inputs.cost_matrix is not None:
            steps.append((f"{name}: decisions under the cost matrix", partial(_decisions_step, inputs, analysis)))
        steps.append((f"{name}: ROC clouds", partial(_cloud_step, inputs, analysis)))
        steps.append((f"{name}: Gini-weighted ROC", partial(_gini_step, inputs, analysis)))
    if len(analyses) > 1:
        steps.append(("paired tests of the models", lambda: _paired_tests_step(inputs, analyses)))
    steps.append(("ROC-DMF with bootstrap", lambda: _dmf_step(inputs, analyses)))
    return steps


def _warning_kind(record):
    """What makes two warnings the same: step, category and message with its numbers blanked."""
    return record["step"], record["category"], re.sub(r"\d+(\.\d+)?(e[-+]?\d+)?", "#", record["message"])


def report_warnings(analyses: list[ModelAnalysis]) -> list[dict[str, Any]]:
    """Each warning of the report once, with the models it concerns.

    Warnings of the same step and category whose messages differ only in
    their numbers (a deviance, a count of replicates) are one warning; its
    ``message`` is the first model's, and ``messages`` maps each model to its
    own when they differ.

    Parameters
    ----------
    analyses : list of ModelAnalysis
        The models' analyses, with their recorded warnings.

    Returns
    -------
    list of dict
        ``step``, ``category``, ``message``, ``models`` (names, in model
        order) and ``messages`` (model -> message, or None when all agree),
        in the order first raised.
    """
    grouped: dict[tuple[str, str, str], dict[str, Any]] = {}
    for analysis in analyses:
        for record in analysis.warnings:
            entry = grouped.setdefault(_warning_kind(record), {**record, "models": [], "messages": {}})
            if analysis.name not in entry["models"]:
                entry["models"].append(analysis.name)
                entry["messages"][analysis.name] = record["message"]
    for entry in grouped.values():
        if len(set(entry["messages"].values())) == 1:
            entry["messages"] = None
    return list(grouped.values())
