"""polyroc: evaluate multiclass classifiers from their predicted scores and tune their decisions.

The flat namespace holds what most users need; the submodules hold the rest:
``polyroc.metrics`` (metrics on confusion counts and on labels), ``polyroc.curves``
(ROC / precision-recall curves and AUCs), ``polyroc.probability`` (softmax, one-hot).
"""

from polyroc.curves import (
    average_precision,
    precision_recall_curve,
    roc_auc,
    roc_curve,
)
from polyroc.evaluation import Evaluation, evaluate
from polyroc.exceptions import ConvergenceWarning, UndefinedMetricWarning
from polyroc.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    brier_score,
    classification_report,
    cohen_kappa_score,
    confusion_matrix,
    f1_score,
    get_counts_metric,
    log_loss,
    matthews_corrcoef_score,
    precision_recall_fscore_support,
    top_k_accuracy,
)
from polyroc.probability import one_hot, softmax

__version__ = "0.1.0"

__all__ = [
    "ConvergenceWarning",
    "Evaluation",
    "UndefinedMetricWarning",
    "__version__",
    "accuracy_score",
    "average_precision",
    "balanced_accuracy_score",
    "brier_score",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "evaluate",
    "f1_score",
    "get_counts_metric",
    "log_loss",
    "matthews_corrcoef_score",
    "one_hot",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "roc_auc",
    "roc_curve",
    "softmax",
    "top_k_accuracy",
]
