"""The report's numbers as one JSON-ready document (``results.json``); the HTML reads the same.

A section that could not be computed is null, and ``skipped`` (per model, and
at the top for the model comparison) maps its name to the reason. A model
whose scores are the same on every row (a constant baseline, e.g. a
class-prior classifier) has ``constant_scores: true``.
"""

from __future__ import annotations

import math

import numpy as np

import polyroc
from polyroc.report._analysis import SkippedComparison

__all__ = ["interval_record", "jsonable", "results_document"]


def jsonable(value):
    """``value`` with numpy types as Python ones and NaN/inf as None (strict JSON).

    >>> jsonable({"a": np.float64("nan"), "b": np.arange(2), "c": (np.int64(3),)})
    {'a': None, 'b': [0, 1], 'c': [3]}
    """
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [jsonable(item) for item in value]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def interval_record(interval):
    """A :class:`~polyroc.resampling.ConfidenceInterval` as ``{estimate, low, high}``."""
    return {"estimate": interval.estimate, "low": interval.low, "high": interval.high}


def _data_section(inputs):
    def split(y):
        counts = {str(c): int(np.sum(y == c)) for c in inputs.classes}
        present = [n for n in counts.values() if n > 0]
        return {"n_samples": int(y.size), "class_counts": counts,
                "imbalance_ratio": max(present) / min(present)}

    return {"classes": [str(c) for c in inputs.classes], "test": split(inputs.y_test),
            "validation": None if inputs.y_val is None else split(inputs.y_val)}


def _metrics_section(evaluation):
    return {
        "scores": {name: interval_record(ci) for name, ci in evaluation.intervals.items()},
        "per_class": {
            metric: {str(label): interval_record(ci) for label, ci in by_class.items()}
            for metric, by_class in evaluation.class_intervals.items()
        },
        "support": {str(c): evaluation.report[str(c)]["support"] for c in evaluation.classes},
        "confusion_matrix": evaluation.confusion_matrix,
    }


def _tuning_section(comparison, test_rules):
    tuning = comparison.tuning
    return {
        "metric": comparison.metric,
        "threshold": dict(zip(map(str, tuning.classes), tuning.best_threshold)),
        "search": {"method": tuning.search, "resolution": tuning.resolution,
                   "n_thresholds": tuning.n_thresholds, "domain": tuning.domain},
        "validation": {"argmax": tuning.argmax_score, "tuned": tuning.best_score},
        "test": {name: interval_record(ci) for name, ci in test_rules.scores.items()},
        "test_difference": interval_record(test_rules.differences["tuned"]),
        "rules": comparison.rows,
        "inflated_argmax_eps": comparison.eps,
    }


def _cloud_section(cloud):
    return {"dfp": dict(zip(map(str, cloud.classes), cloud.dfp)), "dfp_overall": cloud.dfp_overall,
            "settings": {k: v for k, v in cloud.settings.items() if k != "random_state"}}


def _dmf_section(dmf):
    return {"D": interval_record(dmf.ci), "converged": dmf.converged, "n_levels": int(dmf.levels.size),
            "pairs_used": int(dmf.pairs.shape[0]),
            "dropped_pairs": [list(map(str, pair)) for pair in dmf.dropped_pairs]}


def _gini_section(gini):
    return {
        "auc": interval_record(gini.bootstrap.auc),
        "weights": dict(zip(map(str, gini.classes), gini.weights)),
        "weights_defined": bool(np.all(np.isfinite(gini.weights))),
        "class_auc": dict(zip(map(str, gini.classes), gini.class_auc)),
        "g1": gini.g1, "whitening": gini.settings.get("whitening"),
        "degenerate": gini.degenerate,
    }


def _optional(build, *results):
    """``build(*results)``, or None when the step was skipped (its result is None)."""
    return None if results[0] is None else build(*results)


def _model_section(analysis, scores):
    return {
        "constant_scores": bool(np.all(scores == scores[0])),
        "metrics": _optional(_metrics_section, analysis.evaluation),
        "tuning": _optional(_tuning_section, analysis.comparison, analysis.test_rules),
        "roc_cloud": _optional(_cloud_section, analysis.cloud),
        "dmf": _optional(_dmf_section, analysis.dmf),
        "gini": _optional(_gini_section, analysis.gini),
        "skipped": dict(analysis.skipped),
        "warnings": analysis.warnings,
    }


def _comparison_section(dmf_comparison):
    if dmf_comparison is None or isinstance(dmf_comparison, SkippedComparison):
        return None
    names = list(dmf_comparison.names)
    return {
        "ranking_probabilities": [
            {"ranking": list(order), "probability": p}
            for order, p in dmf_comparison.ranking_probabilities.items()
        ],
        "pairwise": {a: {b: dmf_comparison.pairwise[i, j] for j, b in enumerate(names) if j != i}
                     for i, a in enumerate(names)},
    }


def results_document(inputs, analyses, dmf_comparison, *, title, source, notes):
    """Every number of the report, JSON-ready (NaN as null)."""
    return jsonable({
        "title": title,
        "source": source,
        "notes": list(notes),
        "polyroc_version": polyroc.__version__,
        "settings": {"metric": inputs.metric, "n_boot": inputs.n_boot, "confidence": inputs.confidence,
                     "random_state": inputs.random_state, "bootstrap": "stratified percentile"},
        "data": _data_section(inputs),
        "models": {analysis.name: _model_section(analysis, inputs.test[analysis.name]) for analysis in analyses},
        "model_comparison": _comparison_section(dmf_comparison),
        "skipped": ({"model_comparison": dmf_comparison.reason}
                    if isinstance(dmf_comparison, SkippedComparison) else {}),
    })
