"""polyroc: evaluate multiclass classifiers from their predicted scores and tune their decisions.

The flat namespace holds what most users reach for:

- the label-level metrics under scikit-learn's names and meanings
  (``f1_score``, ``roc_auc_score``, ``roc_curve`` ...; all of them in
  :mod:`polyroc.metrics`);
- :func:`evaluate`, every score of a classifier with intervals, and
  :func:`compare_scores`, paired tests of models on the same rows;
- the simplex threshold rule: :func:`tune_thresholds`, :func:`apply_thresholds`,
  :class:`SimplexThresholdClassifier`, :func:`roc_cloud`, :func:`compare_rules`;
- ROC-DMF (:func:`roc_dmf`, :func:`compare_models`) and the Gini-weighted ROC
  (:func:`gini_roc`);
- :func:`build_report`, the HTML report.

The submodules hold the rest: :mod:`polyroc.counts` (metrics on confusion
counts of any leading shape), :mod:`polyroc.curves` (one-vs-rest curves),
:mod:`polyroc.thresholds`, :mod:`polyroc.dmf`, :mod:`polyroc.gini`,
:mod:`polyroc.plotting` (Displays), :mod:`polyroc.report`, :mod:`polyroc.io`.

Names are imported on first use, so ``import polyroc`` is fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from polyroc._version import __version__

#: Public name -> the module that defines it.
_LOCATIONS = {
    **dict.fromkeys(
        [
            "accuracy_score",
            "average_precision_score",
            "balanced_accuracy_score",
            "brier_score_loss",
            "classification_report",
            "cohen_kappa_score",
            "confusion_matrix",
            "det_curve",
            "f1_score",
            "fbeta_score",
            "log_loss",
            "matthews_corrcoef",
            "precision_recall_curve",
            "precision_recall_fscore_support",
            "precision_score",
            "recall_score",
            "roc_auc_score",
            "roc_curve",
            "specificity_score",
            "top_k_accuracy_score",
            "youden_score",
        ],
        "polyroc.metrics",
    ),
    "ovr_roc_curve": "polyroc.curves",
    "ovr_precision_recall_curve": "polyroc.curves",
    "Evaluation": "polyroc.evaluation",
    "evaluate": "polyroc.evaluation",
    "ScoreComparison": "polyroc.comparison",
    "compare_scores": "polyroc.comparison",
    "SimplexThresholdClassifier": "polyroc.thresholds",
    "apply_thresholds": "polyroc.thresholds",
    "compare_rules": "polyroc.thresholds",
    "roc_cloud": "polyroc.thresholds",
    "tune_thresholds": "polyroc.thresholds",
    "compare_models": "polyroc.dmf",
    "roc_dmf": "polyroc.dmf",
    "gini_roc": "polyroc.gini",
    "build_report": "polyroc.report",
    "one_hot": "polyroc.probability",
    "softmax": "polyroc.probability",
    "ConvergenceWarning": "polyroc.exceptions",
    "IntervalWarning": "polyroc.exceptions",
    "UndefinedMetricWarning": "polyroc.exceptions",
}

__all__ = [
    "ConvergenceWarning",
    "Evaluation",
    "IntervalWarning",
    "ScoreComparison",
    "SimplexThresholdClassifier",
    "UndefinedMetricWarning",
    "__version__",
    "accuracy_score",
    "apply_thresholds",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "build_report",
    "classification_report",
    "cohen_kappa_score",
    "compare_models",
    "compare_rules",
    "compare_scores",
    "confusion_matrix",
    "det_curve",
    "evaluate",
    "f1_score",
    "fbeta_score",
    "gini_roc",
    "log_loss",
    "matthews_corrcoef",
    "one_hot",
    "ovr_precision_recall_curve",
    "ovr_roc_curve",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "roc_cloud",
    "roc_curve",
    "roc_dmf",
    "softmax",
    "specificity_score",
    "top_k_accuracy_score",
    "tune_thresholds",
    "youden_score",
]


def __getattr__(name: str) -> Any:
    module = _LOCATIONS.get(name)
    if module is None:
        raise AttributeError(f"module 'polyroc' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LOCATIONS))


if TYPE_CHECKING:  # static type checkers and IDEs see the names directly
    from polyroc.comparison import ScoreComparison, compare_scores
    from polyroc.curves import ovr_precision_recall_curve, ovr_roc_curve
    from polyroc.dmf import compare_models, roc_dmf
    from polyroc.evaluation import Evaluation, evaluate
    from polyroc.exceptions import ConvergenceWarning, IntervalWarning, UndefinedMetricWarning
    from polyroc.gini import gini_roc
    from polyroc.metrics import (
        accuracy_score,
        average_precision_score,
        balanced_accuracy_score,
        brier_score_loss,
        classification_report,
        cohen_kappa_score,
        confusion_matrix,
        det_curve,
        f1_score,
        fbeta_score,
        log_loss,
        matthews_corrcoef,
        precision_recall_curve,
        precision_recall_fscore_support,
        precision_score,
        recall_score,
        roc_auc_score,
        roc_curve,
        specificity_score,
        top_k_accuracy_score,
        youden_score,
    )
    from polyroc.probability import one_hot, softmax
    from polyroc.report import build_report
    from polyroc.thresholds import (
        SimplexThresholdClassifier,
        apply_thresholds,
        compare_rules,
        roc_cloud,
        tune_thresholds,
    )
