"""Label- and score-level metrics: a drop-in for ``sklearn.metrics``.

Every scikit-learn function here has scikit-learn's name, signature (parameter
names, order, keyword-only-ness, defaults) and meaning, so that replacing
``from sklearn import metrics`` by ``from polyroc import metrics`` changes no
result: the same values (to rounding), the same warning categories (polyroc's
:class:`~polyroc.exceptions.UndefinedMetricWarning` subclasses scikit-learn's)
and the same exception types for the same bad inputs.

How the numbers are computed:

- label metrics count once with polyroc's counts engine and take the ratios of
  :mod:`polyroc.counts` on the one-vs-rest 2x2 tables of the labels asked for
  (scikit-learn's ``multilabel_confusion_matrix``);
- curves and areas come from polyroc's ranking engine (one sort per score
  column, cumulative sums at the distinct scores);
- targets are classified with scikit-learn's ``type_of_target`` (binary,
  multiclass, multilabel, continuous), so that both libraries accept and
  refuse the same inputs with the same exception types; polyroc's own checks
  come first and name the argument at fault (tensors are detached first).

Scope and deliberate departures:

- **multilabel-indicator** targets (outside polyroc's scope) are handed to the
  scikit-learn function of the same name; so is ``average="samples"`` for the
  precision/recall family, which only multilabel targets accept.
- ``sample_weight`` must be non-negative with a positive, finite sum (scikit-learn
  also takes negative weights); a list mixing strings and numbers (``[1, "1"]``)
  is refused with ``TypeError`` instead of being merged into strings; labels
  with missing values (None, NaN, pd.NA) and a ``labels=`` argument repeating
  a label are refused with ``ValueError``.
- ``roc_auc_score(multi_class="ovo")`` accepts ``sample_weight`` (scikit-learn
  raises); and with ``multi_class`` set, a binary ``y_true`` with a two-column
  ``y_score`` is scored as a two-class multiclass problem (scikit-learn raises).

polyroc's own label metrics ``specificity_score``, ``youden_score`` and
``heidke_skill_score`` follow the conventions of ``precision_score`` (``labels``,
``pos_label``, ``zero_division``), with ``average="macro"`` by default since
scikit-learn has no such functions.
"""

# The option tuples (NORMALIZE_OPTIONS, AVERAGE_OPTIONS, ...) stay importable from here, outside __all__.
from polyroc.metrics._labels import NORMALIZE_OPTIONS as NORMALIZE_OPTIONS
from polyroc.metrics._labels import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    matthews_corrcoef,
)
from polyroc.metrics._prf import AVERAGE_OPTIONS as AVERAGE_OPTIONS
from polyroc.metrics._prf import PRF_METRICS as PRF_METRICS
from polyroc.metrics._prf import (
    f1_score,
    fbeta_score,
    heidke_skill_score,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
    specificity_score,
    youden_score,
)
from polyroc.metrics._ranking import MULTI_CLASS_OPTIONS as MULTI_CLASS_OPTIONS
from polyroc.metrics._ranking import (
    average_precision_score,
    det_curve,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from polyroc.metrics._report import classification_report
from polyroc.metrics._scores import BRIER_BLOCK_ROWS as BRIER_BLOCK_ROWS
from polyroc.metrics._scores import brier_score_loss, log_loss, top_k_accuracy_score

__all__ = [
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
    "heidke_skill_score",
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
]
