"""The report's numbers as one JSON-ready document (``results.json``); the HTML reads the same.

Each section is the ``to_dict()`` of the library result behind it
(:class:`~polyroc.evaluation.Evaluation`, :class:`~polyroc.thresholds.RuleComparison`
and :class:`~polyroc.resampling.PairedRuleScores`, :class:`~polyroc.thresholds.RocCloud`,
:class:`~polyroc.dmf.DmfRoc`, :class:`~polyroc.gini.GiniRoc`,
:class:`~polyroc.dmf.ModelComparison`), less the bulky arrays listed in
:data:`OMITTED` (and in the document's ``omitted``): per-threshold clouds and
surfaces, per-replicate values, fitted matrices and full-resolution curves,
which the figures draw and the library functions return.

Beside the library's fields, ``roc_cloud`` has ``n_thresholds`` and
``ovr_auc`` (the area under each class's one-vs-rest ROC curve, which the
cloud holds), and the document has ``warnings``: each warning raised while
computing, once, with the ``models`` it concerns (see
:func:`~polyroc.report._analysis.report_warnings`); each model's
``warnings`` keep its own.

A model's ``calibration`` is assembled here from the library results of
its calibration step: ``ece`` (top-label and classwise, each ``estimate``,
``low``, ``high`` and ``method``), ``squared_error`` (the top-label squared
l2 error, ``debiased`` and ``plain``), ``mean_confidence`` and ``accuracy``
(weighted means of the top-label probability and of its hit), ``reliability``
(the top-label and classwise :class:`~polyroc.calibration.ReliabilityCurve`
records, whose per-bin arrays are replaced by ``bins``: per curve, the
non-empty bins as columns), ``test`` (the
:class:`~polyroc.calibration.CalibrationTest`), and, with validation data,
``temperature`` (the :class:`~polyroc.calibration.Calibrator`),
``calibrated_reliability`` and ``before_after`` (the
:class:`~polyroc.comparison.ScoreComparison` of the scores as given and
temperature-scaled); null without validation data.

With a cost matrix, each model has ``decisions`` (see
:mod:`polyroc.report._decisions`): ``costs`` (the expected cost on test of
``argmax``, ``bayes`` and, with validation data, ``tuned``, each with its
interval and method), ``differences`` (each rule minus argmax, paired),
``thresholds`` (the tuned tau), ``decision_counts`` and ``at_priors`` (the
target priors, their intervals when estimated, and the costs and
differences at them); ``settings`` then records ``cost_matrix`` and
``target_priors``.

A section that could not be computed is null, and ``skipped`` (per model, and
at the top for the model comparison) maps its name to the reason. A model
whose scores are the same on every row (a constant baseline, e.g. a
class-prior classifier) has ``constant_scores: true``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from polyroc._results import jsonable
from polyroc._version import __version__
from polyroc.calibration import ReliabilityCurve
from polyroc.report._analysis import ModelAnalysis, SkippedComparison, report_warnings
from polyroc.report._decisions import decisions_record
from polyroc.report._inputs import ReportInputs

if TYPE_CHECKING:
    from polyroc.comparison import ScoreComparison
    from polyroc.dmf import ModelComparison
    from polyroc.evaluation import Evaluation

__all__ = ["OMITTED", "compact", "results_document"]

#: Result type -> fields left out of ``results.json`` (the library result has them).
OMITTED = {
    "TuningResult": ("thresholds", "scores"),
    "RocCloud": ("thresholds", "fpr", "tpr", "ovr_curves"),
    "DmfRoc": ("cutoffs", "tpr_matrix", "fpr_matrix", "intercept", "slope", "fitted", "weights", "n_trials"),
    "DmfBootstrap": ("D", "fpr", "tpr", "n_iter"),
    "GiniRoc": ("fpr", "tpr", "dispersion", "class_fpr", "class_tpr"),
    "ModelComparison": ("results", "replicates"),
    "ReliabilityCurve": ("edges", "count", "mean_score", "observed", "observed_low", "observed_high"),
    "Calibrator": ("coef", "intercept", "knots", "knot_values"),
}

#: The per-bin arrays of a reliability curve, kept in ``results.json`` for its non-empty bins only.
BIN_FIELDS = ("count", "mean_score", "observed", "observed_low", "observed_high")


def compact(record: Any) -> Any:
    """A ``to_dict()`` record without the fields :data:`OMITTED` lists for its type (nested records too).

    >>> compact({"type": "RocCloud", "dfp": [0.5], "fpr": [[0.1]], "inner": {"type": "TuningResult", "scores": []}})
    {'type': 'RocCloud', 'dfp': [0.5], 'inner': {'type': 'TuningResult'}}
    """
    if isinstance(record, dict):
        dropped = OMITTED.get(record.get("type", ""), ())
        return {key: compact(value) for key, value in record.items() if key not in dropped}
    if isinstance(record, list):
        return [compact(value) for value in record]
    return record


def _record(result: Any, **derived: Any) -> dict[str, Any] | None:
    """``result.to_dict()`` made compact, with ``derived`` values added; None for a skipped step."""
    return None if result is None else {**compact(result.to_dict()), **jsonable(derived)}


def _curve_record(curve: ReliabilityCurve | None) -> dict[str, Any] | None:
    """A reliability curve's record with ``bins``: per curve, its non-empty bins as columns (``bin`` numbers them)."""
    if curve is None:
        return None
    bins = []
    for row, name in enumerate(curve.classes.tolist()):
        kept = np.flatnonzero(curve.count[row] > 0)
        columns = {field: getattr(curve, field)[row, kept] for field in BIN_FIELDS}
        edges = curve.edges[row]
        bins.append({"class": name, "bin": kept, "low_edge": edges[kept], "high_edge": edges[kept + 1], **columns})
    return _record(curve, bins=bins)


def _ece_record(evaluation: Evaluation | None, key: str, curve: ReliabilityCurve) -> dict[str, Any]:
    """An ECE with its interval and the interval's method, from the evaluation (the metrics section).

    Without an evaluation (the metrics section was skipped), the curve's ECE
    (the same bins) without an interval.
    """
    if evaluation is None:
        return {"estimate": curve.calibration_error, "low": None, "high": None, "method": None}
    interval = evaluation.intervals[key]
    settings = interval.settings
    method = settings["interval_method"]
    if settings.get("n_boot"):  # a bootstrap (ci="bootstrap")
        method += f", B = {settings['n_boot']}"
    elif settings.get("n_draws"):  # draws of the bins (ci="auto")
        method += f", {settings['n_draws']} draws"
    return {"estimate": interval.estimate, "low": interval.low, "high": interval.high, "method": method}


def _calibration_section(analysis: ModelAnalysis, inputs: ReportInputs) -> dict[str, Any] | None:
    calibration = analysis.calibration
    if calibration is None:
        return None
    top_label, classwise = calibration.top_label, calibration.classwise
    scores = inputs.test[analysis.name]
    hits = inputs.classes[np.argmax(scores, axis=1)] == inputs.y_test
    return {
        "mean_confidence": np.average(scores.max(axis=1), weights=inputs.sample_weight),
        "accuracy": np.average(hits, weights=inputs.sample_weight),
        "ece": {
            "top_label": _ece_record(analysis.evaluation, "ece_top_label", top_label),
            "classwise": _ece_record(analysis.evaluation, "ece_classwise", classwise),
        },
        "squared_error": {
            "debiased": calibration.squared_error,
            "plain": calibration.plain_squared_error,
            "kind": "top-label",
        },
        "reliability": {"top_label": _curve_record(top_label), "classwise": _curve_record(classwise)},
        "test": _record(calibration.test),
        "temperature": _record(calibration.calibrator),
        "calibrated_reliability": _curve_record(calibration.calibrated),
        "before_after": _record(calibration.before_after),
    }


def _data_section(inputs: ReportInputs) -> dict[str, Any]:
    def split(y, weights):
        counts = {str(c): int(np.sum(y == c)) for c in inputs.classes}
        present = [n for n in counts.values() if n > 0]
        weighted = None if weights is None else {str(c): float(weights[y == c].sum()) for c in inputs.classes}
        return {
            "n_samples": int(y.size),
            "class_counts": counts,
            "class_weights": weighted,
            "imbalance_ratio": max(present) / min(present),
        }

    test = split(inputs.y_test, inputs.sample_weight)
    if inputs.population is not None:  # the rows the metrics cover; the other sections use these
        present = [n for n in inputs.population["class_counts"].values() if n > 0]
        test = {**inputs.population, "imbalance_ratio": max(present) / min(present), "sample": test}
    return {
        "classes": [str(c) for c in inputs.classes],
        "test": test,
        "validation": None if inputs.y_val is None else split(inputs.y_val, inputs.val_sample_weight),
    }


def _tuning_section(analysis: ModelAnalysis) -> dict[str, Any] | None:
    if analysis.comparison is None:
        return None
    return {"comparison": _record(analysis.comparison), "test_scores": _record(analysis.test_rules)}


def _model_section(analysis: ModelAnalysis, inputs: ReportInputs) -> dict[str, Any]:
    cloud, scores = analysis.cloud, inputs.test[analysis.name]
    decisions = (
        {} if inputs.cost_matrix is None else {"decisions": decisions_record(analysis.decisions, inputs.classes)}
    )
    return {
        "constant_scores": bool(np.all(scores == scores[0])),
        "metrics": _record(analysis.evaluation),
        "calibration": _calibration_section(analysis, inputs),
        "tuning": _tuning_section(analysis),
        "roc_cloud": None
        if cloud is None
        else _record(cloud, n_thresholds=cloud.n_thresholds, ovr_auc=cloud.ovr_curves.auc),
        "dmf": _record(analysis.dmf),
        "gini": _record(analysis.gini),
        **decisions,
        "skipped": dict(analysis.skipped),
        "warnings": analysis.warnings,
    }


def _comparison_section(comparison: Any) -> dict[str, Any] | None:
    if comparison is None or isinstance(comparison, SkippedComparison):
        return None
    return _record(comparison)


def results_document(
    inputs: ReportInputs,
    analyses: list[ModelAnalysis],
    dmf_comparison: ModelComparison | SkippedComparison | None,
    paired_tests: ScoreComparison | SkippedComparison | None = None,
    *,
    title: str,
    source: str,
    notes: Sequence[str],
) -> dict[str, Any]:
    """Every number of the report, JSON-ready (NaN as null).

    Parameters
    ----------
    inputs : ReportInputs
        The checked inputs.
    analyses : list of ModelAnalysis
        The library results of each model.
    dmf_comparison : ModelComparison, SkippedComparison or None
        The ROC-DMF comparison of the models (None for one model).
    paired_tests : ScoreComparison, SkippedComparison or None, default=None
        The paired tests of the models (None for one model).
    title, source : str
        Shown at the top of the report.
    notes : sequence of str
        Remarks shown under the title.

    Returns
    -------
    dict
        ``title``, ``source``, ``notes``, ``polyroc_version``, ``settings``,
        ``data``, ``models`` (name -> sections), ``model_comparison``,
        ``paired_tests``,
        ``skipped``, ``warnings`` (each once, with its models) and
        ``omitted`` (:data:`OMITTED`).
    """
    settings = {
        "metric": inputs.metric,
        "n_boot": inputs.n_boot,
        "confidence": inputs.confidence,
        "random_state": inputs.random_state,
        "ci": inputs.ci,
        "weighted": inputs.sample_weight is not None,
    }
    if inputs.cost_matrix is not None:
        settings["cost_matrix"] = {"classes": [str(c) for c in inputs.classes], "costs": inputs.cost_matrix}
        settings["target_priors"] = (
            inputs.target_priors
            if inputs.target_priors is None or isinstance(inputs.target_priors, str)
            else dict(zip((str(c) for c in inputs.classes), inputs.target_priors.tolist()))
        )
    return jsonable(
        {
            "title": title,
            "source": source,
            "notes": list(notes),
            "polyroc_version": __version__,
            "settings": settings,
            "data": _data_section(inputs),
            "models": {analysis.name: _model_section(analysis, inputs) for analysis in analyses},
            "model_comparison": _comparison_section(dmf_comparison),
            "paired_tests": _comparison_section(paired_tests),
            "skipped": {
                key: comparison.reason
                for key, comparison in (("model_comparison", dmf_comparison), ("paired_tests", paired_tests))
                if isinstance(comparison, SkippedComparison)
            },
            "warnings": report_warnings(analyses),
            "omitted": {kind: list(fields) for kind, fields in OMITTED.items()},
        }
    )
