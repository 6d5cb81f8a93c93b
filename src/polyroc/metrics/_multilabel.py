"""scikit-learn's functions, to which multilabel-indicator input (outside polyroc's scope) is handed."""

from __future__ import annotations

from sklearn import metrics as _sklearn_metrics

#: The functions of :mod:`polyroc.metrics` that hand multilabel input to scikit-learn's function of the same name.
DELEGATED = (
    "accuracy_score",
    "average_precision_score",
    "brier_score_loss",
    "classification_report",
    "log_loss",
    "precision_recall_fscore_support",
    "roc_auc_score",
)

#: scikit-learn's functions as polyroc found them: one replaced in ``sklearn.metrics`` by polyroc's does not loop
SKLEARN_FUNCTIONS = {name: getattr(_sklearn_metrics, name) for name in DELEGATED}


def delegated(name: str, *args, **kwargs):
    """The scikit-learn function ``name`` on multilabel input (outside polyroc's scope)."""
    return SKLEARN_FUNCTIONS[name](*args, **kwargs)
