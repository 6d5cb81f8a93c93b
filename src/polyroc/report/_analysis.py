"""The computations behind a report, one step at a time, each with its warnings recorded.

Every step returns library result objects (kept for the figures); the numbers
of the report are read off those objects by :mod:`polyroc.report._results`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np

from polyroc.dmf import compare_models, roc_dmf
from polyroc.evaluation import evaluate
from polyroc.gini import gini_roc
from polyroc.resampling import paired_rule_scores
from polyroc.thresholds import compare_rules, roc_cloud

__all__ = ["ModelAnalysis", "analysis_steps"]


@dataclass
class ModelAnalysis:
    """Library results of one model; None for a step that was not run."""

    name: str
    evaluation: object = None
    comparison: object = None
    test_rules: dict = None
    cloud: object = None
    dmf: object = None
    gini: object = None
    warnings: list = field(default_factory=list)


def _recorded(analysis, step, function):
    """Run ``function()``, appending the warnings it raises to ``analysis.warnings``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function()
    seen = {(w["step"], w["message"]) for w in analysis.warnings}
    for warning in caught:
        record = {"step": step, "category": warning.category.__name__, "message": str(warning.message)}
        if (step, record["message"]) not in seen:
            seen.add((step, record["message"]))
            analysis.warnings.append(record)
    return value


def _evaluation_step(inputs, analysis):
    scores = inputs.test[analysis.name]
    analysis.evaluation = _recorded(analysis, "metrics", lambda: evaluate(
        inputs.y_test, scores, labels=inputs.classes, n_boot=inputs.n_boot,
        confidence=inputs.confidence, random_state=inputs.random_state,
    ))


def _tuning_step(inputs, analysis):
    name, classes = analysis.name, inputs.classes

    def tune_and_compare():
        comparison = compare_rules(
            inputs.y_val, inputs.validation[name], inputs.y_test, inputs.test[name],
            metric=inputs.metric, labels=classes, random_state=inputs.random_state,
            return_surface=classes.size == 3,
        )
        scores = inputs.test[name]
        predictions = {"argmax": classes[np.argmax(scores, axis=1)],
                       "tuned": comparison.tuning.predict(scores)}
        rules = paired_rule_scores(
            inputs.y_test, predictions, metric=inputs.metric, labels=classes, baseline="argmax",
            n_boot=inputs.n_boot, confidence=inputs.confidence, random_state=inputs.random_state,
        )
        return comparison, rules

    analysis.comparison, analysis.test_rules = _recorded(analysis, "threshold tuning", tune_and_compare)


def _cloud_step(inputs, analysis):
    analysis.cloud = _recorded(analysis, "ROC clouds", lambda: roc_cloud(
        inputs.y_test, inputs.test[analysis.name], labels=inputs.classes,
    ))


def _gini_step(inputs, analysis):
    analysis.gini = _recorded(analysis, "Gini ROC", lambda: gini_roc(
        inputs.y_test, inputs.test[analysis.name], labels=inputs.classes, absent="drop",
        n_boot=inputs.n_boot, confidence=inputs.confidence, random_state=inputs.random_state,
    ))


def _dmf_step(inputs, analyses):
    """ROC-DMF of every model with a stratified bootstrap; ranking probabilities for several."""
    first = analyses[0]
    options = {"labels": inputs.classes, "bootstrap": "stratified", "n_boot": inputs.n_boot,
                   "confidence": inputs.confidence, "random_state": inputs.random_state}
    if len(analyses) == 1:
        first.dmf = _recorded(first, "ROC-DMF", lambda: roc_dmf(
            inputs.y_test, inputs.test[first.name], **options))
        return None
    step = "ROC-DMF (all models, paired bootstrap)"
    comparison = _recorded(first, step, lambda: compare_models(inputs.y_test, inputs.test, **options))
    shared = [record for record in first.warnings if record["step"] == step]
    for analysis in analyses:
        analysis.dmf = comparison.results[analysis.name]
        if analysis is not first:
            analysis.warnings.extend(shared)
    return comparison


def analysis_steps(inputs, analyses):
    """The report's work as ``(description, callable)`` pairs, in order.

    The last step returns the ROC-DMF model comparison (None for one model);
    the others fill ``analyses`` in place.
    """
    steps = []
    for analysis in analyses:
        name = analysis.name
        steps.append((f"{name}: metrics with bootstrap intervals", lambda a=analysis: _evaluation_step(inputs, a)))
        if inputs.validation is not None:
            steps.append((f"{name}: threshold tuning", lambda a=analysis: _tuning_step(inputs, a)))
        steps.append((f"{name}: ROC clouds", lambda a=analysis: _cloud_step(inputs, a)))
        steps.append((f"{name}: Gini-weighted ROC", lambda a=analysis: _gini_step(inputs, a)))
    steps.append(("ROC-DMF with bootstrap", lambda: _dmf_step(inputs, analyses)))
    return steps
