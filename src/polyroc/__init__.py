"""polyroc: evaluate multiclass classifiers from their predicted scores and tune their decisions.

The flat namespace holds what most users reach for:

- the label-level metrics under scikit-learn's names and meanings
  (``f1_score``, ``roc_auc_score``, ``roc_curve`` ...; all of them in
  :mod:`polyroc.metrics`);
- :func:`evaluate`, every score of a classifier with intervals, and
  :func:`compare_scores`, paired and omnibus tests of models on the same rows
  (:func:`cochran_q` for their accuracies);
- the simplex threshold rule: :func:`tune_thresholds`, :func:`apply_thresholds`,
  :class:`SimplexThresholdClassifier`, :func:`roc_cloud`, :func:`compare_rules`;
- ROC-DMF (:func:`roc_dmf`, :func:`compare_models`) and the Gini-weighted ROC
  (:func:`gini_roc`);
- calibration: :func:`calibration_error`, :func:`squared_calibration_error`,
  :func:`smooth_calibration_error`, :func:`reliability_curve` and :func:`calibration_test`;
- decisions: :func:`expected_cost`, :func:`bayes_decision`,
  :class:`CostSensitiveClassifier`, and under prior shift
  :func:`estimate_priors` and :func:`adjust_to_priors`;
- :func:`build_report`, the HTML report.

The submodules hold the rest: :mod:`polyroc.counts` (metrics on confusion
counts of any leading shape), :mod:`polyroc.curves` (one-vs-rest curves),
:mod:`polyroc.thresholds`, :mod:`polyroc.dmf`, :mod:`polyroc.gini`, :mod:`polyroc.calibration`,
:mod:`polyroc.decisions`, :mod:`polyroc.plotting` (Displays), :mod:`polyroc.report`, :mod:`polyroc.io`.

Names are imported on first use, so ``import polyroc`` is fast. One table,
:data:`_LOCATIONS` (public name -> the module that defines it), gives
``__all__``, ``dir(polyroc)`` and the lazy attributes; the imports for type
checkers below are checked against it by the tests. This module is the top
layer: it also hands the result registry (:mod:`polyroc._displays`) the loader
that imports :mod:`polyroc.plotting` the first time a result is drawn, so that
no module of the core imports a Display.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from polyroc import _displays
from polyroc._lazy import lazy_attributes
from polyroc._version import __version__ as __version__

#: Public name -> the module that defines it: the one table of the flat namespace.
_LOCATIONS: dict[str, str] = {
    "accuracy_score": "polyroc.metrics",
    "average_precision_score": "polyroc.metrics",
    "balanced_accuracy_score": "polyroc.metrics",
    "brier_score_loss": "polyroc.metrics",
    "classification_report": "polyroc.metrics",
    "cohen_kappa_score": "polyroc.metrics",
    "confusion_matrix": "polyroc.metrics",
    "det_curve": "polyroc.metrics",
    "f1_score": "polyroc.metrics",
    "fbeta_score": "polyroc.metrics",
    "log_loss": "polyroc.metrics",
    "matthews_corrcoef": "polyroc.metrics",
    "precision_recall_curve": "polyroc.metrics",
    "precision_recall_fscore_support": "polyroc.metrics",
    "precision_score": "polyroc.metrics",
    "recall_score": "polyroc.metrics",
    "roc_auc_score": "polyroc.metrics",
    "roc_curve": "polyroc.metrics",
    "specificity_score": "polyroc.metrics",
    "top_k_accuracy_score": "polyroc.metrics",
    "youden_score": "polyroc.metrics",
    "ovr_precision_recall_curve": "polyroc.curves",
    "ovr_roc_curve": "polyroc.curves",
    "Evaluation": "polyroc.evaluation",
    "evaluate": "polyroc.evaluation",
    "CochranQ": "polyroc.comparison",
    "ScoreComparison": "polyroc.comparison",
    "cochran_q": "polyroc.comparison",
    "compare_scores": "polyroc.comparison",
    "SimplexThresholdClassifier": "polyroc.thresholds",
    "apply_thresholds": "polyroc.thresholds",
    "compare_rules": "polyroc.thresholds",
    "roc_cloud": "polyroc.thresholds",
    "tune_thresholds": "polyroc.thresholds",
    "compare_models": "polyroc.dmf",
    "roc_dmf": "polyroc.dmf",
    "gini_roc": "polyroc.gini",
    "CalibrationTest": "polyroc.calibration",
    "Calibrator": "polyroc.calibration",
    "ReliabilityCurve": "polyroc.calibration",
    "calibration_error": "polyroc.calibration",
    "calibration_test": "polyroc.calibration",
    "fit_calibrator": "polyroc.calibration",
    "reliability_curve": "polyroc.calibration",
    "smooth_calibration_error": "polyroc.calibration",
    "squared_calibration_error": "polyroc.calibration",
    "CostSensitiveClassifier": "polyroc.decisions",
    "PriorEstimate": "polyroc.decisions",
    "adjust_to_priors": "polyroc.decisions",
    "bayes_decision": "polyroc.decisions",
    "estimate_priors": "polyroc.decisions",
    "expected_cost": "polyroc.decisions",
    "build_report": "polyroc.report",
    "one_hot": "polyroc.probability",
    "softmax": "polyroc.probability",
    "ConvergenceWarning": "polyroc.exceptions",
    "IntervalWarning": "polyroc.exceptions",
    "UndefinedMetricWarning": "polyroc.exceptions",
}

__all__ = ["__version__", *_LOCATIONS]


__getattr__, __dir__ = lazy_attributes("polyroc", globals(), _LOCATIONS)


def _load_displays() -> object:
    """Import :mod:`polyroc.plotting`, which registers the Display of each result type."""
    return importlib.import_module("polyroc.plotting")


_displays.set_display_loader(_load_displays)

if TYPE_CHECKING:  # static type checkers and IDEs see the names directly; ``name as name`` re-exports them
    from polyroc.calibration import CalibrationTest as CalibrationTest
    from polyroc.calibration import Calibrator as Calibrator
    from polyroc.calibration import ReliabilityCurve as ReliabilityCurve
    from polyroc.calibration import calibration_error as calibration_error
    from polyroc.calibration import calibration_test as calibration_test
    from polyroc.calibration import fit_calibrator as fit_calibrator
    from polyroc.calibration import reliability_curve as reliability_curve
    from polyroc.calibration import smooth_calibration_error as smooth_calibration_error
    from polyroc.calibration import squared_calibration_error as squared_calibration_error
    from polyroc.comparison import CochranQ as CochranQ
    from polyroc.comparison import ScoreComparison as ScoreComparison
    from polyroc.comparison import cochran_q as cochran_q
    from polyroc.comparison import compare_scores as compare_scores
    from polyroc.curves import ovr_precision_recall_curve as ovr_precision_recall_curve
    from polyroc.curves import ovr_roc_curve as ovr_roc_curve
    from polyroc.decisions import CostSensitiveClassifier as CostSensitiveClassifier
    from polyroc.decisions import PriorEstimate as PriorEstimate
    from polyroc.decisions import adjust_to_priors as adjust_to_priors
    from polyroc.decisions import bayes_decision as bayes_decision
    from polyroc.decisions import estimate_priors as estimate_priors
    from polyroc.decisions import expected_cost as expected_cost
    from polyroc.dmf import compare_models as compare_models
    from polyroc.dmf import roc_dmf as roc_dmf
    from polyroc.evaluation import Evaluation as Evaluation
    from polyroc.evaluation import evaluate as evaluate
    from polyroc.exceptions import ConvergenceWarning as ConvergenceWarning
    from polyroc.exceptions import IntervalWarning as IntervalWarning
    from polyroc.exceptions import UndefinedMetricWarning as UndefinedMetricWarning
    from polyroc.gini import gini_roc as gini_roc
    from polyroc.metrics import accuracy_score as accuracy_score
    from polyroc.metrics import average_precision_score as average_precision_score
    from polyroc.metrics import balanced_accuracy_score as balanced_accuracy_score
    from polyroc.metrics import brier_score_loss as brier_score_loss
    from polyroc.metrics import classification_report as classification_report
    from polyroc.metrics import cohen_kappa_score as cohen_kappa_score
    from polyroc.metrics import confusion_matrix as confusion_matrix
    from polyroc.metrics import det_curve as det_curve
    from polyroc.metrics import f1_score as f1_score
    from polyroc.metrics import fbeta_score as fbeta_score
    from polyroc.metrics import log_loss as log_loss
    from polyroc.metrics import matthews_corrcoef as matthews_corrcoef
    from polyroc.metrics import precision_recall_curve as precision_recall_curve
    from polyroc.metrics import precision_recall_fscore_support as precision_recall_fscore_support
    from polyroc.metrics import precision_score as precision_score
    from polyroc.metrics import recall_score as recall_score
    from polyroc.metrics import roc_auc_score as roc_auc_score
    from polyroc.metrics import roc_curve as roc_curve
    from polyroc.metrics import specificity_score as specificity_score
    from polyroc.metrics import top_k_accuracy_score as top_k_accuracy_score
    from polyroc.metrics import youden_score as youden_score
    from polyroc.probability import one_hot as one_hot
    from polyroc.probability import softmax as softmax
    from polyroc.report import build_report as build_report
    from polyroc.thresholds import SimplexThresholdClassifier as SimplexThresholdClassifier
    from polyroc.thresholds import apply_thresholds as apply_thresholds
    from polyroc.thresholds import compare_rules as compare_rules
    from polyroc.thresholds import roc_cloud as roc_cloud
    from polyroc.thresholds import tune_thresholds as tune_thresholds
