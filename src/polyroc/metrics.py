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

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import issparse
from sklearn import metrics as _sklearn_metrics
from sklearn.utils import check_array, column_or_1d
from sklearn.utils.multiclass import type_of_target, unique_labels

from polyroc import _warnings
from polyroc import counts as _counts
from polyroc._counts import confusion_counts, per_class_counts
from polyroc._numeric import nan_average, zero_division_value
from polyroc._ranking import (
    binary_counts,
    class_counts,
    drop_flat_recall,
    hand_till,
    micro_counts,
    micro_from_wins,
    ovr_auc,
    pr_points,
    ranking_wins,
    roc_points,
    step_area,
    trapezoid_area,
    without_zero_weights,
)
from polyroc._text import count_noun
from polyroc._validation import (
    _numeric_array,
    as_array,
    check_boolean,
    check_label_vector,
    check_option,
    check_positive_int,
    check_real,
    check_real_or_nan,
    check_sample_weight,
    check_zero_division,
    scale_weights,
    warn_column_order,
    with_unique_values,
)
from polyroc.exceptions import UndefinedMetricWarning

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

AVERAGE_OPTIONS = (None, "micro", "macro", "weighted", "samples", "binary")
NORMALIZE_OPTIONS = (None, "true", "pred", "all")
MULTI_CLASS_OPTIONS = ("raise", "ovr", "ovo")
PRF_METRICS = ("precision", "recall", "f-score")

# --------------------------------------------------------------------------- label checks


class _LabelPair(NamedTuple):
    """Checked label vectors: their kind, the labels present (sorted) and the weights."""

    kind: str
    y_true: np.ndarray
    y_pred: np.ndarray
    present: np.ndarray
    sample_weight: np.ndarray | None


def _label_input(name: str, y: Any) -> np.ndarray:
    """Labels as a numpy array, refused with a message naming ``name`` when they cannot be labels.

    Tensors are detached first. One label per sample (1-D, or a column vector
    raveled with a ``DataConversionWarning``) goes through polyroc's label
    check: a list mixing strings and numbers (``[1, "1"]``, which numpy would
    merge) and bytes are a ``TypeError``; missing values (None, NaN, pd.NA),
    an empty array, a 0-d value and a sequence of sequences (scikit-learn's
    former multilabel format) a ``ValueError``. 2-D indicator arrays, sparse
    ones too, are returned as they are, for scikit-learn's ``type_of_target``;
    other sparse input is a ``TypeError``, as scikit-learn.
    """
    if y is None:
        raise ValueError(f"{name} is required, got None")
    if issparse(y):
        if y.shape[1] > 1:
            return y
        raise TypeError(f"{name} is sparse: sparse input is only supported when targets are of multilabel type")
    array = as_array(name, y)
    if array.dtype == object and array.ndim == 1 and array.size and isinstance(array[0], (list, tuple, np.ndarray)):
        raise ValueError(f"{name} is a sequence of sequences: multilabel targets must be an indicator array")
    if array.ndim == 0:
        raise ValueError(f"{name} must be 1-D (one label per sample), got shape ()")
    if array.ndim == 2 and array.shape[1] > 1:
        return array
    return check_label_vector(name, y if isinstance(y, (list, tuple)) else array)


def _labels_argument(labels: Any) -> np.ndarray | None:
    """``labels=`` as a 1-D array of distinct labels (None stays None)."""
    if labels is None:
        return None
    classes = check_label_vector("labels", labels)
    unique, counts = np.unique(classes, return_counts=True)
    if np.any(counts > 1):
        raise ValueError(f"labels must be distinct; repeated: {unique[counts > 1].tolist()}")
    return classes


def _score_input(name: str, y_score: Any) -> np.ndarray:
    """Scores as a numeric numpy array (tensors detached), refused with a message naming ``name``.

    Missing values and NaN or infinite scores, strings and complex numbers
    are a ``ValueError`` (as scikit-learn), other objects a ``TypeError``.
    """
    if y_score is None:
        raise ValueError(f"{name} is required, got None")
    array = _numeric_array(name, as_array(name, y_score))
    if array.ndim == 0:
        raise ValueError(f"{name} must be 1-D or 2-D (one row per sample), got shape ()")
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got dtype {array.dtype}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity")
    return array


def _weights_input(sample_weight: Any, n_samples: int) -> np.ndarray | None:
    """Checked weights (non-negative, positive sum, one per sample) or None; complex ones a ValueError."""
    if sample_weight is None:
        return None
    if as_array("sample_weight", sample_weight).dtype.kind == "c":
        raise ValueError("sample_weight must be real, got complex numbers")
    return check_sample_weight(sample_weight, n_samples)


def _check_label_pair(y_true, y_pred, sample_weight, names=("y_true", "y_pred")) -> _LabelPair:
    """Check two label vectors as scikit-learn does; kind "binary", "multiclass" or "multilabel-indicator"."""
    y_true, y_pred = _label_input(names[0], y_true), _label_input(names[1], y_pred)
    if y_true.shape[0] != y_pred.shape[0]:
        raise ValueError(
            f"inconsistent numbers of samples: {names[0]} has {y_true.shape[0]}, {names[1]} has {y_pred.shape[0]}"
        )
    weights = _weights_input(sample_weight, y_true.shape[0])
    true_checked, pred_checked = with_unique_values(y_true), with_unique_values(y_pred)  # one np.unique each
    kinds = {type_of_target(true_checked, input_name=names[0]), type_of_target(pred_checked, input_name=names[1])}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(f"Classification metrics can't handle a mix of {' and '.join(sorted(kinds))} targets")
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} targets are not supported ({names[0]}, {names[1]})")
    if kind == "multilabel-indicator":
        return _LabelPair(kind, y_true, y_pred, np.arange(0), weights)
    present = np.asarray(unique_labels(true_checked, pred_checked))
    if kind == "binary" and present.size > 2:
        kind = "multiclass"
    return _LabelPair(kind, y_true, y_pred, present, weights)


#: scikit-learn's functions as polyroc found them: one replaced in ``sklearn.metrics`` by polyroc's does not loop
_SKLEARN_FUNCTIONS = {name: getattr(_sklearn_metrics, name) for name in __all__ if hasattr(_sklearn_metrics, name)}


def _delegated(name: str, *args, **kwargs):
    """The scikit-learn function ``name`` on multilabel input (outside polyroc's scope)."""
    return _SKLEARN_FUNCTIONS[name](*args, **kwargs)


def _encode(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Index of each label of ``y`` in ``classes``; -1 for a label not among them."""
    if (y.dtype.kind in "OUS") != (np.asarray(classes).dtype.kind in "OUS"):
        return np.full(y.shape[0], -1, dtype=np.intp)
    if y.dtype.kind in "iu" and np.array_equal(classes, np.arange(classes.size)):
        # labels 0, 1, ..., m - 1 are their own codes
        return np.where((y >= 0) & (y < classes.size), y, -1).astype(np.intp)
    order = np.argsort(classes, kind="stable")
    ordered = classes[order]
    position = np.clip(np.searchsorted(ordered, y), 0, ordered.size - 1)
    found = ordered[position] == y
    return np.where(found, order[position], -1).astype(np.intp)


class _Counted(NamedTuple):
    """Confusion counts (m, m) over ``classes`` (scaled weights) and the weight scaling."""

    classes: np.ndarray
    counts: np.ndarray
    scale: Any


def _count(pair: _LabelPair, classes: np.ndarray) -> _Counted:
    """Confusion counts over ``classes``; samples with a label outside them are left out."""
    true_codes, pred_codes = _encode(pair.y_true, classes), _encode(pair.y_pred, classes)
    keep = (true_codes >= 0) & (pred_codes >= 0)
    scale = scale_weights(pair.sample_weight)
    weights = None if scale.weights is None else scale.weights[keep]
    counts = confusion_counts(true_codes[keep], pred_codes[keep], classes.size, weights)
    return _Counted(classes, counts, scale)


def _at_least_two(counts: np.ndarray) -> np.ndarray:
    """Counts padded with an empty class when one class only is counted (the metrics need m >= 2)."""
    if counts.shape[-1] >= 2:
        return counts
    return np.pad(counts, ((0, 1), (0, 1)))


def _matrix_counts(pair: _LabelPair, labels) -> _Counted:
    """Counts of ``confusion_matrix``: over ``labels`` (samples outside are dropped) or the labels present."""
    if pair.kind not in ("binary", "multiclass"):
        raise ValueError(f"{pair.kind} is not supported")
    if labels is None:
        classes = pair.present
    else:
        classes = _labels_argument(labels)
        if not np.any(_encode(pair.y_true, classes) >= 0):
            raise ValueError("At least one label specified must be in y_true (labels shares none with it)")
    counted = _count(pair, classes)
    if counted.counts.shape == (1, 1):
        _warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the "
            "correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning,
        )
    return counted


def _integer_weights(sample_weight) -> bool:
    return sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub"


def _integer_weight_counts(pair: _LabelPair, classes: np.ndarray, sample_weight) -> np.ndarray:
    """Confusion counts of integer weights summed in int64: exact, wrapping around on overflow as scikit-learn's."""
    true_codes, pred_codes = _encode(pair.y_true, classes), _encode(pair.y_pred, classes)
    keep = (true_codes >= 0) & (pred_codes >= 0)
    counts = np.zeros(classes.size * classes.size, dtype=np.int64)
    weights = as_array("sample_weight", sample_weight).astype(np.int64)
    np.add.at(counts, true_codes[keep] * classes.size + pred_codes[keep], weights[keep])
    return counts.reshape(classes.size, classes.size)


def confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize: str | None = None,
) -> np.ndarray:
    """Confusion matrix ``C[true, predicted]`` of labels, as ``sklearn.metrics.confusion_matrix``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_classes,), default=None
        The rows and columns, in this order; samples whose true or predicted
        label is not among them are left out. By default the sorted labels
        present in ``y_true`` or ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    normalize : {"true", "pred", "all"}, default=None
        Divide by the row sums, the column sums or the total (0/0 gives 0).

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        int64 counts without weights (or with integer weights) and without
        normalization, else float64; with weights each cell is the sum of
        the weights of its samples.

    Raises
    ------
    ValueError
        If ``normalize`` is not an option; if the labels have different
        lengths, are empty, continuous, multilabel or of mixed types; if
        ``labels`` is empty or shares no label with ``y_true``; or if
        ``sample_weight`` is bad.
    TypeError
        If a list mixes strings and numbers.

    Warns
    -----
    UserWarning
        If the matrix is 1x1 (one label only), as scikit-learn.

    See Also
    --------
    classification_report : Precision, recall and F1 of each label, from the same counts.
    polyroc.counts : Metrics computed on a confusion-counts matrix.
    polyroc.plotting.ConfusionMatrixDisplay : Draw the matrix.

    Examples
    --------
    >>> confusion_matrix(["cat", "dog", "dog"], ["cat", "cat", "dog"])
    array([[1, 0],
           [1, 1]])
    >>> confusion_matrix([0, 1, 1], [0, 0, 1], normalize="true")
    array([[1. , 0. ],
           [0.5, 0.5]])
    """
    check_option("normalize", normalize, NORMALIZE_OPTIONS)
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    classes, counts, scale = _matrix_counts(pair, labels)
    if normalize is None and sample_weight is not None and _integer_weights(sample_weight):
        if pair.sample_weight.max() * pair.sample_weight.size >= 2**53:  # float64 sums could round
            return _integer_weight_counts(pair, classes, sample_weight)
    if normalize is None:
        counts = scale.restore(counts)
        return counts.astype(np.int64) if _integer_weights(sample_weight) else counts.astype(np.float64)
    axis = {"true": 1, "pred": 0, "all": (0, 1)}[normalize]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(counts / counts.sum(axis=axis, keepdims=True))


def accuracy_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, normalize: bool = True, sample_weight: ArrayLike | None = None
) -> float:
    """Fraction (or number) of correct predictions, as ``sklearn.metrics.accuracy_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings); multilabel indicators are handed
        to scikit-learn.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    normalize : bool, default=True
        Return the (weighted) fraction of correct predictions; ``False``
        returns their (weighted) number.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    float
        The accuracy.

    Raises
    ------
    ValueError
        If the labels have different lengths, are empty, continuous or of
        mixed types, or ``sample_weight`` is bad (wrong length, negative,
        NaN, summing to 0 or past the float64 range), or ``normalize`` is not
        a bool.
    TypeError
        If a list mixes strings and numbers, or ``sample_weight`` is not
        numeric.

    See Also
    --------
    balanced_accuracy_score : The mean recall, insensitive to class imbalance.
    top_k_accuracy_score : A hit when the true class is among the k highest scores.
    polyroc.counts.accuracy : The same ratio on confusion counts.
    polyroc.intervals.weighted_proportion_interval : The accuracy with its confidence interval.

    Examples
    --------
    >>> accuracy_score(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    0.75
    >>> accuracy_score(["a", "b", "b", "c"], ["a", "b", "c", "c"], normalize=False)
    3.0
    """
    check_option("normalize", normalize, (True, False))
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator":
        return _delegated("accuracy_score", y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
    hits = pair.y_true == pair.y_pred  # every label is among those present: no encoding needed
    if pair.sample_weight is None:
        return float(np.mean(hits)) if normalize else float(np.count_nonzero(hits))
    if normalize:
        return float(np.average(hits, weights=pair.sample_weight))
    return float(hits @ pair.sample_weight)


def balanced_accuracy_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None, adjusted: bool = False
) -> float:
    """Mean recall over the classes of ``y_true``, as ``sklearn.metrics.balanced_accuracy_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    adjusted : bool, default=False
        Rescale so that chance (1 / number of classes) gives 0.

    Returns
    -------
    float
        The balanced accuracy (NaN adjusted with a single class).

    Raises
    ------
    ValueError
        For bad labels or weights (as :func:`confusion_matrix`).
    TypeError
        If a list mixes strings and numbers.
    sklearn.utils._param_validation.InvalidParameterError
        If ``adjusted`` is not a bool (or numpy bool), as scikit-learn; it
        is both a ``ValueError`` and a ``TypeError``.

    Warns
    -----
    UndefinedMetricWarning
        If ``y_pred`` has classes that ``y_true`` lacks (left out of the mean).

    See Also
    --------
    accuracy_score : The plain fraction of correct predictions.
    recall_score : Per-class recall; its macro average when every predicted class is in ``y_true``.
    polyroc.counts.balanced_accuracy : The same score on confusion counts.

    References
    ----------
    Brodersen, K. H., Ong, C. S., Stephan, K. E. & Buhmann, J. M. (2010). The
    balanced accuracy and its posterior distribution. Proceedings of the 20th
    International Conference on Pattern Recognition, 3121-3124.
    doi:10.1109/ICPR.2010.764

    Examples
    --------
    >>> balanced_accuracy_score([0, 1, 2, 2], [0, 2, 2, 2])
    0.6666666666666666
    """
    adjusted = check_boolean("adjusted", adjusted)
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    counts = _matrix_counts(pair, None).counts
    if np.any(counts.sum(axis=1) == 0):
        _warnings.warn("y_pred contains classes not in y_true", UndefinedMetricWarning)
    if adjusted and np.count_nonzero(counts.sum(axis=1)) == 1:
        # chance is 1 with one class in y_true: (score - 1) / 0, -inf or NaN, as scikit-learn
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(np.float64(_counts._balanced_accuracy(_at_least_two(counts), warn=False) - 1.0) / 0.0)
    return float(_counts._balanced_accuracy(_at_least_two(counts), adjusted, warn=False))


def matthews_corrcoef(y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None) -> float:
    """Multiclass Matthews correlation coefficient, as ``sklearn.metrics.matthews_corrcoef``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    float
        The MCC in [-1, 1]; 0 where undefined (one class in truth or predictions).

    Raises
    ------
    ValueError
        For bad labels or weights, or multilabel targets.
    TypeError
        If a list mixes strings and numbers.

    See Also
    --------
    cohen_kappa_score : Another chance-corrected agreement of two labelings.
    polyroc.counts.matthews_corrcoef : The same coefficient on confusion counts.

    References
    ----------
    Matthews, B. W. (1975). Comparison of the predicted and observed secondary
    structure of T4 phage lysozyme. Biochimica et Biophysica Acta 405, 442-451.
    doi:10.1016/0005-2795(75)90109-9

    Gorodkin, J. (2004). Comparing two K-category assignments by a K-category
    correlation coefficient. Computational Biology and Chemistry 28, 367-374.
    doi:10.1016/j.compbiolchem.2004.09.006

    Examples
    --------
    >>> round(matthews_corrcoef([0, 1, 2, 2], [0, 2, 2, 2]), 6)
    0.645497
    """
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    counts = _matrix_counts(pair, None).counts
    return float(_counts.matthews_corrcoef(_at_least_two(counts)))


def cohen_kappa_score(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    weights: str | None = None,
    sample_weight: ArrayLike | None = None,
    replace_undefined_by: float = np.nan,
) -> float:
    """Cohen's kappa of two raters' labels, as ``sklearn.metrics.cohen_kappa_score``.

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
        Labels of the two raters (kappa is symmetric in them).
    labels : array-like of shape (n_classes,), default=None
        The classes counted (samples with other labels are left out); at
        least one must be in ``y1``.
    weights : {None, "linear", "quadratic"}, default=None
        Disagreement weights for ordinal classes (in the order of ``labels``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    replace_undefined_by : float in [-1, 1] or np.nan, default=np.nan
        Value returned when kappa is undefined (chance agreement 1).

    Returns
    -------
    float
        Cohen's kappa.

    Raises
    ------
    ValueError
        For bad labels or weights, ``weights`` not an option, or no label
        of ``labels`` in ``y1``.
    TypeError
        If a list mixes strings and numbers.
    sklearn.utils._param_validation.InvalidParameterError
        If ``replace_undefined_by`` is neither a real number in [-1, 1] nor
        NaN, as scikit-learn; it is both a ``ValueError`` and a
        ``TypeError``.

    Warns
    -----
    UndefinedMetricWarning
        When kappa is undefined.

    See Also
    --------
    matthews_corrcoef : Another chance-corrected agreement, symmetric in the classes.
    heidke_skill_score : Kappa of each label's one-vs-rest table.
    polyroc.counts.cohen_kappa : The same kappa on confusion counts.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational
    and Psychological Measurement 20, 37-46. doi:10.1177/001316446002000104

    Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for
    scaled disagreement or partial credit. Psychological Bulletin 70, 213-220.
    doi:10.1037/h0026256

    Examples
    --------
    >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 2]), 6)
    0.555556
    """
    check_option("weights", weights, (None, "linear", "quadratic"))
    check_real_or_nan("replace_undefined_by", replace_undefined_by, low=-1.0, high=1.0)
    pair = _check_label_pair(y1, y2, sample_weight, names=("y1", "y2"))
    try:
        counts = _matrix_counts(pair, labels).counts
    except ValueError as error:
        if "At least one label specified" in str(error):
            raise ValueError("At least one label in `labels` must be present in `y1`.") from error
        raise
    kappa = _counts.cohen_kappa(_at_least_two(counts), weights=weights, zero_division=np.nan)
    if np.isnan(kappa):
        _warnings.warn(
            "cohen_kappa_score is undefined (chance agreement 1); it is set to replace_undefined_by",
            UndefinedMetricWarning,
        )
        return replace_undefined_by
    return float(kappa)


# --------------------------------------------------------------------------- precision, recall and friends


def _check_averaging(average, pos_label, pair: _LabelPair, labels):
    """scikit-learn's set-wise label checks: the labels scored (None: all present)."""
    _labels_argument(labels)
    if average == "binary":
        if pair.kind == "binary":
            if pos_label not in pair.present.tolist() and pair.present.size >= 2:
                raise ValueError(
                    f"pos_label={pos_label!r} is not a valid label: it should be one of {pair.present.tolist()}"
                )
            return np.asarray([pos_label])
        options = [option for option in AVERAGE_OPTIONS if option not in ("binary", "samples")]
        raise ValueError(
            f"Target is {pair.kind} but average='binary'. Please choose another average setting, one of {options}."
        )
    if pos_label not in (None, 1):
        _warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != 'binary' "
            f"(got {average!r}). You may use labels=[pos_label] to specify a single positive class.",
            UserWarning,
        )
    return _labels_argument(labels)


class _Tables(NamedTuple):
    """One-vs-rest 2x2 tables [[TN, FP], [FN, TP]] of the labels scored, and their support (user units)."""

    tables: np.ndarray
    support: np.ndarray


def _ovr_tables(pair: _LabelPair, labels) -> _Tables:
    """One-vs-rest tables of the labels scored (scaled weights) and their support.

    As scikit-learn's ``multilabel_confusion_matrix``: the counts run over
    ``labels`` followed by the other labels present, and the tables of the
    first ``len(labels)`` are kept. The support is the (weighted) count of
    each label in ``y_true``, summed in sample order as scikit-learn does.
    """
    if labels is None:
        classes, n_scored = pair.present, pair.present.size
    else:
        same_kind = (labels.dtype.kind in "OUS") == (pair.present.dtype.kind in "OUS")
        extra = np.setdiff1d(pair.present, labels) if same_kind else pair.present
        classes, n_scored = np.concatenate([labels, extra]) if extra.size else labels, labels.size
    _, counts, scale = _count(pair, classes)
    tp, fp, fn, tn = (values[:n_scored] for values in per_class_counts(_at_least_two(counts)))
    tables = np.stack([np.stack([tn, fp], axis=-1), np.stack([fn, tp], axis=-1)], axis=-2)
    # unweighted counts are exact integers: their row sums are the support whatever the order of summation
    support = counts.sum(axis=1)[:n_scored] if scale.weights is None else _support(pair, classes, scale)[:n_scored]
    return _Tables(tables.astype(np.float64), support)


def _support(pair: _LabelPair, classes: np.ndarray, scale) -> np.ndarray:
    """(Weighted) count of each class in ``y_true`` in the user's units, summed as scikit-learn sums it.

    scikit-learn's support is TP + FN = TP + (true count - TP), with the
    counts accumulated in sample order; the same operations give the same
    bits (the weight scaling is a power of two, exact).
    """
    codes, right = _encode(pair.y_true, classes), pair.y_true == pair.y_pred
    weights = scale.weights
    true_sum = np.bincount(codes, weights=weights, minlength=classes.size)
    tp_sum = np.bincount(codes[right], weights=None if weights is None else weights[right], minlength=classes.size)
    return scale.restore(tp_sum + (true_sum - tp_sum))


def _positive_class(metric: Callable, tables: np.ndarray, **options) -> np.ndarray:
    """A counts metric of the positive class of each 2x2 table, NaN where its ratio is 0/0."""
    return metric(tables, average=None, zero_division=np.nan, **options)[..., 1]


#: The ratios whose 0/0 case warns by default (scikit-learn's ``warn_for``).
_WARN_FOR = ("precision", "recall", "f-score")


def _fill_undefined(values: np.ndarray, metric: str, warn_for, zero_division, what: tuple[str, str]) -> np.ndarray:
    """NaN (0/0) values replaced by the ``zero_division`` value, warning in scikit-learn's words.

    ``what`` is the metric's name and the condition that makes it 0/0 (``("Precision", "no predicted samples")``).
    """
    undefined = np.isnan(values)
    if not np.any(undefined):
        return values
    if isinstance(zero_division, str) and zero_division == "warn" and metric in warn_for:
        where = "due to" if values.size == 1 else "in labels with"
        _warnings.warn(
            f"{what[0]} is ill-defined and being set to 0.0 {where} {what[1]}. "
            "Use `zero_division` parameter to control this behavior.",
            UndefinedMetricWarning,
        )
    return np.where(undefined, zero_division_value(check_zero_division(zero_division)), values)


def _average_scores(values: np.ndarray, average, support: np.ndarray):
    """Per-class values, or their NaN-ignoring (support-weighted) mean as a float."""
    if average is None:
        return values
    return float(nan_average(values, support if average == "weighted" else None))


def _prf_options(beta, average, zero_division) -> None:
    if not (isinstance(beta, (int, float, np.integer, np.floating)) and not isinstance(beta, bool)):
        raise TypeError(f"beta must be a real number, got {type(beta).__name__}")
    if not beta >= 0:
        raise ValueError(f"beta must be >= 0, got {beta!r}")
    check_option("average", average, AVERAGE_OPTIONS)
    check_zero_division(zero_division)


def precision_recall_fscore_support(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float = 1.0,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = None,
    warn_for: Sequence[str] = _WARN_FOR,
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> tuple:
    """Precision, recall, F-beta and support, as ``sklearn.metrics.precision_recall_fscore_support``.

    Computed from one counts matrix: the one-vs-rest table of each label
    gives TP, FP and FN, and the ratios are those of :mod:`polyroc.counts`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; multilabel indicators (and ``average="samples"``) are
        handed to scikit-learn.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    beta : float, default=1.0
        Non-negative weight of recall in the F score (``inf`` gives recall).
    labels : array-like, default=None
        The labels scored and their order (absent labels score with zero
        support; present labels left out are not averaged). By default the
        sorted labels present.
    pos_label : int, float, bool or str, default=1
        The class scored with ``average="binary"`` (binary targets only).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default=None
        None returns per-label values; ``"binary"`` the values of
        ``pos_label``; ``"micro"`` the ratios of the pooled counts;
        ``"macro"``/``"weighted"`` the (support-weighted) mean of the
        per-label values, ignoring NaN.
    warn_for : tuple of str, default=("precision", "recall", "f-score")
        Which undefined ratios warn (with ``zero_division="warn"``).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a ratio whose denominator is 0 (``"warn"``: 0.0 and a warning).

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
        The scores.
    support : ndarray of shape (n_labels,) or None
        True samples per label (sum of their weights with ``sample_weight``);
        None when averaged.

    Raises
    ------
    ValueError
        For bad labels or weights; ``average`` or ``zero_division`` not an
        option; ``beta`` negative; ``average="binary"`` with multiclass
        targets, or ``average="samples"`` with targets that are not
        multilabel; ``pos_label`` not a label of binary targets; ``labels``
        repeating a label.
    TypeError
        If a list mixes strings and numbers, or ``beta`` is not a number.

    Warns
    -----
    UndefinedMetricWarning
        For a 0/0 ratio named in ``warn_for`` with ``zero_division="warn"``.

    See Also
    --------
    precision_score, recall_score, fbeta_score : One of the three scores.
    classification_report : The same numbers as a text or dict report.
    polyroc.counts.precision : The ratios on confusion counts.

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 2], [0, 1, 2, 2])
    >>> p.tolist(), r.tolist(), s.tolist()
    ([1.0, 1.0, 0.5], [1.0, 0.5, 1.0], [1, 2, 1])
    >>> precision_recall_fscore_support(["n", "y", "y"], ["y", "y", "n"], pos_label="y", average="binary")
    (0.5, 0.5, 0.5, None)
    """
    _prf_options(beta, average, zero_division)
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator" or average == "samples":
        return _delegated(
            "precision_recall_fscore_support",
            y_true,
            y_pred,
            beta=beta,
            labels=labels,
            pos_label=pos_label,
            average=average,
            warn_for=warn_for,
            sample_weight=sample_weight,
            zero_division=zero_division,
        )
    labels = _check_averaging(average, pos_label, pair, labels)
    tables, support = _ovr_tables(pair, labels)
    scores = _prf_of_tables(tables, support, beta, average, warn_for, zero_division)
    if average is not None:
        return (*scores, None)
    return (*scores, support.astype(_support_dtype(pair, sample_weight)))


def _support_dtype(pair: _LabelPair, sample_weight) -> type:
    """Integer supports without weights, except when no sample is right at all (scikit-learn's dtypes)."""
    return np.int64 if sample_weight is None and bool(np.any(pair.y_true == pair.y_pred)) else np.float64


def _prf_of_tables(tables: np.ndarray, support: np.ndarray, beta, average, warn_for, zero_division) -> list:
    """Precision, recall and F-beta of one-vs-rest tables, averaged as ``average`` asks."""
    if average == "micro":
        tables = tables.sum(axis=0, keepdims=True)
    precision = _fill_undefined(
        _positive_class(_counts.precision, tables),
        "precision",
        warn_for,
        zero_division,
        ("Precision", "no predicted samples"),
    )
    recall = _fill_undefined(
        _positive_class(_counts.recall, tables),
        "recall",
        warn_for,
        zero_division,
        ("Recall", "no true samples"),
    )
    if np.isposinf(beta):
        f_score = recall
    elif beta == 0:
        f_score = precision
    else:
        f_score = _fill_undefined(
            _positive_class(_counts.fbeta, tables, beta=float(beta)),
            "f-score",
            warn_for,
            zero_division,
            ("F-score", "no true nor predicted samples"),
        )
    return [_average_scores(values, average, support) for values in (precision, recall, f_score)]


def _prf_doc(metric: str, what: str) -> Callable:
    """Shared docstring of the functions returning one of precision, recall and F."""

    def decorate(function):
        if function.__doc__ is None:  # docstrings stripped (python -OO)
            return function
        function.__doc__ = function.__doc__.format(
            metric=metric,
            what=what,
            parameters="""y_true : array-like of shape (n_samples,)
        True labels (numbers or strings); multilabel indicators are handed
        to scikit-learn.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like, default=None
        The labels scored and their order (see
        :func:`precision_recall_fscore_support`).
    pos_label : int, float, bool or str, default=1
        The class scored with ``average="binary"`` (binary targets only).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default="binary"
        None returns per-label values; ``"binary"`` the value of
        ``pos_label``; ``"micro"`` the ratio of the pooled counts;
        ``"macro"``/``"weighted"`` the (support-weighted) mean of the
        per-label values, ignoring NaN.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value where the ratio is 0/0 (``"warn"``: 0.0 and a warning).""",
            raises="""ValueError
        For bad labels or weights; ``average`` or ``zero_division`` not an
        option; ``average="binary"`` with multiclass targets, or
        ``average="samples"`` with targets that are not multilabel;
        ``pos_label`` not a label of binary targets; ``labels`` repeating a
        label.
    TypeError
        If a list mixes strings and numbers.""",
        )
        return function

    return decorate


@_prf_doc("precision", "TP / (TP + FP)")
def precision_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """The {metric} {what}, as ``sklearn.metrics.precision_score``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The {metric}.

    Raises
    ------
    {raises}

    See Also
    --------
    recall_score : The fraction of each class that is found.
    f1_score : The harmonic mean of precision and recall.
    precision_recall_fscore_support : Precision, recall, F and support at once.
    polyroc.counts.precision : The same ratio on confusion counts.

    Examples
    --------
    >>> precision_score([0, 1, 1, 0], [0, 1, 0, 1])
    0.5
    >>> precision_score([0, 1, 2, 2], [0, 2, 2, 2], average=None, zero_division=0.0).round(6)
    array([1.      , 0.      , 0.666667])
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("precision",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[0]


@_prf_doc("recall", "TP / (TP + FN)")
def recall_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """The {metric} {what}, as ``sklearn.metrics.recall_score``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The {metric}.

    Raises
    ------
    {raises}

    See Also
    --------
    precision_score : The fraction of each class's predictions that are right.
    specificity_score : The recall of the other classes.
    balanced_accuracy_score : The macro-averaged recall of the classes of ``y_true``.
    polyroc.counts.recall : The same ratio on confusion counts.

    Examples
    --------
    >>> recall_score([0, 1, 2, 2], [0, 2, 2, 2], average=None)
    array([1., 0., 1.])
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("recall",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[1]


@_prf_doc("F1 score", "2 TP / (2 TP + FP + FN)")
def f1_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """The {metric} {what}, as ``sklearn.metrics.f1_score``.

    Parameters
    ----------
    {parameters}

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The {metric}.

    Raises
    ------
    {raises}

    See Also
    --------
    fbeta_score : Recall weighted beta times precision.
    precision_recall_fscore_support : Precision, recall, F and support at once.
    classification_report : F1 of every label with its averages.
    polyroc.counts.f1 : The same score on confusion counts.

    Examples
    --------
    >>> f1_score([0, 1, 2, 2], [0, 2, 2, 2], average="micro")
    0.75
    """
    return fbeta_score(
        y_true,
        y_pred,
        beta=1,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )


@_prf_doc("F-beta score", "(1 + b²) TP / ((1 + b²) TP + b² FN + FP)")
def fbeta_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """The {metric} {what}, as ``sklearn.metrics.fbeta_score``.

    Parameters
    ----------
    {parameters}
    beta : float
        Non-negative weight of recall relative to precision (0 gives the
        precision, ``inf`` the recall).

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The {metric}.

    Raises
    ------
    {raises}
    ValueError
        If ``beta`` is negative.
    TypeError
        If ``beta`` is not a real number.

    See Also
    --------
    f1_score : The case beta = 1.
    precision_recall_fscore_support : Precision, recall, F-beta and support at once.
    polyroc.counts.fbeta : The same score on confusion counts.

    Examples
    --------
    >>> round(fbeta_score([0, 1, 2, 2], [0, 2, 2, 2], beta=0.5, average="macro"), 6)
    0.571429
    """
    return precision_recall_fscore_support(
        y_true,
        y_pred,
        beta=beta,
        labels=labels,
        pos_label=pos_label,
        average=average,
        warn_for=("f-score",),
        sample_weight=sample_weight,
        zero_division=zero_division,
    )[2]


def _one_vs_rest_label_score(
    metric: Callable, what: tuple[str, str], y_true, y_pred, labels, pos_label, average, sample_weight, zero_division
):
    """A one-vs-rest counts metric of labels, with the label handling of ``precision_score``."""
    check_option("average", average, tuple(option for option in AVERAGE_OPTIONS if option != "samples"))
    check_zero_division(zero_division)
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator":
        raise ValueError(f"multilabel-indicator targets are not supported by {metric.__name__}")
    labels = _check_averaging(average, pos_label, pair, labels)
    tables, support = _ovr_tables(pair, labels)
    if average == "micro":
        tables = tables.sum(axis=0, keepdims=True)
    values = _fill_undefined(_positive_class(metric, tables), "score", ("score",), zero_division, what)
    return _average_scores(values, average, support)


def specificity_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """Specificity TN / (TN + FP) of labels; see :func:`polyroc.counts.specificity`.

    Same conventions as :func:`precision_score` (scikit-learn has no such
    function); the default ``average`` is ``"macro"``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels, pos_label, average, sample_weight, zero_division
        As :func:`precision_score`; ``zero_division`` is the value for a
        label that every sample has.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The specificity.

    Raises
    ------
    ValueError
        As :func:`precision_score`, and for multilabel targets.
    TypeError
        If a list mixes strings and numbers.

    See Also
    --------
    recall_score : The true positive rate of each label.
    youden_score : Recall + specificity - 1.
    polyroc.counts.specificity : The same ratio on confusion counts.

    Examples
    --------
    >>> specificity_score([0, 1, 2, 2], [0, 2, 2, 2], average=None).round(6)
    array([1. , 1. , 0.5])
    """
    return _one_vs_rest_label_score(
        _counts.specificity,
        ("Specificity", "no negative samples"),
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
    )


def youden_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """Youden's J (TSS) = recall + specificity - 1 of labels; see :func:`polyroc.counts.youden`.

    Same conventions as :func:`precision_score` (scikit-learn has no such
    function); the default ``average`` is ``"macro"``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels, pos_label, average, sample_weight, zero_division
        As :func:`precision_score`; ``zero_division`` is the value for a
        label without true or without negative samples.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        Youden's J, in [-1, 1].

    Raises
    ------
    ValueError
        As :func:`precision_score`, and for multilabel targets.
    TypeError
        If a list mixes strings and numbers.

    See Also
    --------
    specificity_score, recall_score : The two rates it combines.
    heidke_skill_score : Another skill score of the one-vs-rest tables.
    polyroc.counts.youden : The same score on confusion counts.

    References
    ----------
    Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3, 32-35.
    doi:10.1002/1097-0142(1950)3:1<32::AID-CNCR2820030106>3.0.CO;2-3

    Examples
    --------
    >>> youden_score([0, 1, 2, 2], [0, 2, 2, 2], average=None)
    array([1. , 0. , 0.5])
    """
    return _one_vs_rest_label_score(
        _counts.youden,
        ("Youden's J", "no true or no negative samples"),
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
    )


def heidke_skill_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: float | bool | str = 1,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    zero_division: str | float = "warn",
) -> float | np.ndarray:
    """Heidke skill score of each label's one-vs-rest table; see :func:`polyroc.counts.heidke_skill`.

    Same conventions as :func:`precision_score` (scikit-learn has no such
    function); the default ``average`` is ``"macro"``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        True and predicted labels.
    labels, pos_label, average, sample_weight, zero_division
        As :func:`precision_score`; ``zero_division`` is the value where the
        denominator is 0.

    Returns
    -------
    float or ndarray of shape (n_labels,)
        The Heidke skill score, at most 1.

    Raises
    ------
    ValueError
        As :func:`precision_score`, and for multilabel targets.
    TypeError
        If a list mixes strings and numbers.

    See Also
    --------
    cohen_kappa_score : Kappa of the whole m x m table.
    youden_score : Another skill score of the one-vs-rest tables.
    polyroc.counts.heidke_skill : The same score on confusion counts.

    References
    ----------
    Heidke, P. (1926). Berechnung des Erfolges und der Güte der
    Windstärkevorhersagen im Sturmwarnungsdienst. Geografiska Annaler 8, 301-349.

    Examples
    --------
    >>> heidke_skill_score([0, 1, 2, 2], [0, 2, 2, 2], average=None)
    array([1. , 0. , 0.5])
    """
    return _one_vs_rest_label_score(
        _counts.heidke_skill,
        ("Heidke skill score", "a zero denominator"),
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
    )


# --------------------------------------------------------------------------- report

_REPORT_HEADERS = ("precision", "recall", "f1-score", "support")


def _report_text(class_rows, average_rows, digits):
    """scikit-learn's classification report layout; rows are (name, p, r, f, support)."""
    names = [row[0] for row in class_rows]
    width = max(max(len(name) for name in names), len("weighted avg"), digits)
    row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    accuracy_format = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
    text = ("{:>{width}s} " + " {:>9}" * 4).format("", *_REPORT_HEADERS, width=width) + "\n\n"
    text += "".join(row_format.format(*row, width=width, digits=digits) for row in class_rows)
    text += "\n"
    for name, *values in average_rows:
        if name == "accuracy":
            text += accuracy_format.format(name, "", "", *values[2:], width=width, digits=digits)
        else:
            text += row_format.format(name, *values, width=width, digits=digits)
    return text


def classification_report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    target_names: Sequence[str] | None = None,
    sample_weight: ArrayLike | None = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: str | float = "warn",
) -> str | dict:
    """Text (or dict) report of precision, recall, F1 and support, as ``sklearn.metrics.classification_report``.

    One row per label, then ``accuracy`` (``micro avg`` when ``labels``
    leaves out a label present), ``macro avg`` and ``weighted avg``; each
    row from :func:`precision_recall_fscore_support`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; multilabel indicators are handed to scikit-learn.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_labels,), default=None
        The labels reported, in this order.
    target_names : sequence of str of length n_labels, default=None
        Display names of the labels; by default ``"%s" % label``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    digits : int, default=2
        Digits shown for the scores (text only).
    output_dict : bool, default=False
        Return a dict ``{name: {"precision": ..., "recall": ..., "f1-score":
        ..., "support": ...}, "accuracy": float, ...}`` instead of text.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a ratio whose denominator is 0.

    Returns
    -------
    str or dict
        The report.

    Raises
    ------
    ValueError
        For bad labels or weights, ``digits`` negative, ``zero_division``
        not an option, or ``target_names`` of the wrong length without
        ``labels``.
    TypeError
        If a list mixes strings and numbers or ``digits`` is not an integer.

    Warns
    -----
    UserWarning
        If ``target_names`` and the given ``labels`` differ in length.
    UndefinedMetricWarning
        For 0/0 ratios with ``zero_division="warn"``.

    See Also
    --------
    precision_recall_fscore_support : The numbers of the report as arrays.
    confusion_matrix : The counts behind every row.
    polyroc.evaluate : The report of a score matrix's argmax, with AUCs and intervals.

    Examples
    --------
    >>> print(classification_report(["a", "b", "b", "c"], ["a", "b", "c", "c"]))
                  precision    recall  f1-score   support
    <BLANKLINE>
               a       1.00      1.00      1.00         1
               b       1.00      0.50      0.67         2
               c       0.50      1.00      0.67         1
    <BLANKLINE>
        accuracy                           0.75         4
       macro avg       0.83      0.83      0.78         4
    weighted avg       0.88      0.75      0.75         4
    <BLANKLINE>
    """
    digits = check_positive_int("digits", digits, minimum=0)
    check_zero_division(zero_division)
    pair = _check_label_pair(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator":
        return _delegated(
            "classification_report",
            y_true,
            y_pred,
            labels=labels,
            target_names=target_names,
            sample_weight=sample_weight,
            digits=digits,
            output_dict=output_dict,
            zero_division=zero_division,
        )
    labels_given = labels is not None
    labels = _labels_argument(labels) if labels_given else pair.present
    micro_is_accuracy = not labels_given or set(labels.tolist()) >= set(pair.present.tolist())
    if target_names is not None and len(labels) != len(target_names):
        if not labels_given:
            raise ValueError(
                f"Number of classes, {len(labels)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter"
            )
        _warnings.warn(
            f"labels size, {len(labels)}, does not match size of target_names, {len(target_names)}",
            UserWarning,
        )
    names = [f"{label}" for label in labels] if target_names is None else list(target_names)
    # one count for every row: the per-class tables, then their averages
    tables, support = _ovr_tables(pair, labels if labels_given else None)
    support = support.astype(_support_dtype(pair, sample_weight))
    return _report_of_tables(names, tables, support, micro_is_accuracy, zero_division, digits, output_dict)


def _report_of_counts(
    counts, names, *, weighted: bool, digits: int = 2, output_dict: bool = False, zero_division=0.0, restore=None
):
    """:func:`classification_report` of the rows whose confusion counts (m, m) are ``counts``.

    ``weighted`` says whether the counts are sums of sample weights (float
    supports) or row counts (integer supports, as scikit-learn's unless no
    row is right). ``restore`` maps counts of scaled weights back to the
    given units (:meth:`polyroc._validation.ScaledWeights.restore`) for the
    supports, the only counts the report shows: its micro average sums m
    one-vs-rest tables, m times the total, which must stay in float range.

    >>> print(_report_of_counts(np.array([[1, 0], [1, 2]]), ["a", "b"], weighted=False).splitlines()[2])
               a       0.50      1.00      0.67         1
    """
    counts = np.asarray(counts)
    tp, fp, fn, tn = per_class_counts(_at_least_two(counts))
    tables = np.stack([np.stack([tn, fp], axis=-1), np.stack([fn, tp], axis=-1)], axis=-2).astype(np.float64)
    integer = not weighted and bool(np.trace(counts) > 0)
    support = counts.sum(axis=1).astype(np.int64 if integer else np.float64)
    if restore is not None:
        support = restore(support)
    return _report_of_tables(list(names), tables, support, True, zero_division, digits, output_dict)


def _report_of_tables(names, tables, support, micro_is_accuracy, zero_division, digits, output_dict):
    """The report (text or dict) of one-vs-rest tables [[TN, FP], [FN, TP]] and the supports."""
    precision, recall, f_score = _prf_of_tables(tables, support, 1.0, None, _WARN_FOR, zero_division)
    class_rows = list(zip(names, precision, recall, f_score, support))
    average_rows = []
    for average in ("micro", "macro", "weighted"):
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        scores = _prf_of_tables(tables, support, 1.0, average, _WARN_FOR, zero_division)
        average_rows.append((heading, *scores, np.sum(support)))
    if not output_dict:
        return _report_text(class_rows, average_rows, digits)
    report = {name: dict(zip(_REPORT_HEADERS, map(float, values))) for name, *values in class_rows}
    report.update({name: dict(zip(_REPORT_HEADERS, map(float, values))) for name, *values in average_rows})
    if "accuracy" in report:
        report["accuracy"] = report["accuracy"]["precision"]
    return report


# --------------------------------------------------------------------------- probabilities


def _float_scores(y_proba) -> np.ndarray:
    """Scores as a float array (float16/32/64 kept, others float64), finite, as scikit-learn's check."""
    return check_array(y_proba, ensure_2d=False, dtype=[np.float64, np.float32, np.float16])


def _check_same_length(y_true: np.ndarray, scores: np.ndarray, name: str) -> None:
    if scores.shape[0] != y_true.shape[0]:
        raise ValueError(f"inconsistent numbers of samples: y_true has {y_true.shape[0]}, {name} has {scores.shape[0]}")


def _check_probability_range(y_proba: np.ndarray) -> None:
    if np.max(y_proba) > 1:
        raise ValueError(f"y_proba contains values greater than 1: {np.max(y_proba)}")
    if np.min(y_proba) < 0:
        raise ValueError(f"y_proba contains values lower than 0: {np.min(y_proba)}")


class _Probabilities(NamedTuple):
    """Encoded true classes, the probability matrix (n, m) and the checked weights."""

    y: np.ndarray
    y_proba: np.ndarray
    sample_weight: np.ndarray | None


def _multiclass_probabilities(y_true, y_proba: np.ndarray, sample_weight, labels) -> _Probabilities:
    """scikit-learn's checks of a probability matrix against labels; one column per sorted class."""
    y_true = _label_input("y_true", y_true)
    weights = _weights_input(sample_weight, y_true.shape[0])
    _check_probability_range(y_proba)
    _check_same_length(y_true, y_proba, "y_proba")
    if labels is not None:
        given = _labels_argument(labels)
        classes = unique_labels(given)
        if classes.shape != given.shape or not np.all(classes == given):
            _warnings.warn(
                f"labels {given.tolist()} are not sorted; the columns of y_proba are taken to follow "
                f"the sorted labels {classes.tolist()}",
                UserWarning,
            )
        unknown = np.setdiff1d(y_true, classes)
        if unknown.size:
            raise ValueError(f"y_true contains values {set(unknown.tolist())} not in labels {given.tolist()}")
    else:
        classes = unique_labels(y_true)
    if classes.size == 1:
        raise ValueError(
            f"y_true contains only one label ({classes[0]}); pass every class label through labels"
            if labels is None
            else f"labels must name at least two classes, got {classes.tolist()}"
        )
    if y_proba.ndim == 1:
        y_proba = y_proba[:, None]
    if y_proba.shape[1] == 1:
        y_proba = np.concatenate([1 - y_proba, y_proba], axis=1)
    eps = np.finfo(y_proba.dtype).eps
    if not np.all(np.isclose(y_proba.sum(axis=1), 1, rtol=np.sqrt(eps))):
        _warnings.warn("The y_proba rows do not sum to one. Make sure to pass probabilities.", UserWarning)
    if classes.size != y_proba.shape[1]:
        source = "y_true" if labels is None else "labels"
        raise ValueError(
            f"y_proba has {count_noun(y_proba.shape[1], 'column')} but {source} has "
            f"{count_noun(classes.size, 'class')} {classes.tolist()}"
            + ("; pass every class label through labels" if labels is None else "")
        )
    return _Probabilities(_encode(y_true, classes), y_proba, weights)


def _mean_or_sum(values: np.ndarray, weights: np.ndarray | None, normalize: bool = True) -> float:
    """(Weighted) mean of per-sample values, or their (weighted) sum in the user's weight units.

    The weights are scaled by a power of two first (exact, so the mean does
    not change and the sum is scaled back exactly), which keeps sums finite
    for weights of any scale.
    """
    scale = scale_weights(weights)
    if normalize:
        return float(np.average(values, weights=scale.weights))
    if scale.weights is None:
        return float(np.sum(values))
    return float(scale.restore(np.dot(values, scale.weights)))


def _sample_log_losses(y: np.ndarray, scores: np.ndarray, eps: float) -> np.ndarray:
    """-log p(true class) of each sample (encoded ``y``), probabilities clipped to [eps, 1 - eps]."""
    true_probability = scores[np.arange(y.size), y]
    return -np.log(np.clip(true_probability, eps, 1 - eps))


def _machine_epsilon(dtype: np.dtype) -> float:
    """Machine epsilon of a floating dtype; float64's for any other dtype."""
    return float(np.finfo(dtype if dtype.kind == "f" else np.float64).eps)


def log_loss(
    y_true: ArrayLike,
    y_proba: ArrayLike | None = None,
    *,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    y_pred: Any = "deprecated",
) -> float:
    """Cross-entropy -log p(true class), as ``sklearn.metrics.log_loss``.

    Probabilities are clipped to [eps, 1 - eps], eps the machine epsilon of
    their dtype, and the loss is computed in that dtype, as scikit-learn.
    For logits or unnormalised scores, map them first (e.g.
    :func:`polyroc.probability.softmax`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities, one column per class in sorted label order; one
        column (or 1-D) is the probability of the greater of two classes.
    normalize : bool, default=True
        The (weighted) mean loss; ``False`` gives the (weighted) sum.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like, default=None
        The classes (sorted), when ``y_true`` lacks some.
    y_pred : array-like, default="deprecated"
        Former name of ``y_proba`` (``FutureWarning``), as scikit-learn 1.9.

    Returns
    -------
    float
        The mean (or summed) cross-entropy in nats.

    Raises
    ------
    ValueError
        If the probabilities hold NaN or values outside [0, 1], the lengths
        differ, ``y_true`` has one class only (without ``labels``), a label
        is outside ``labels``, the column count differs from the number of
        classes, or both ``y_pred`` and ``y_proba`` are given, or
        ``normalize`` is not a bool.
    TypeError
        If the probabilities are not numbers, or a list of labels mixes
        strings and numbers.

    Warns
    -----
    UserWarning
        If rows do not sum to one, or ``labels`` is not sorted; or if
        ``y_proba`` is a DataFrame whose column names are the class labels
        in another order than the sorted labels (the columns are taken by
        position, as scikit-learn does).

    See Also
    --------
    brier_score_loss : The squared-error counterpart.
    polyroc.probability.softmax : Map logits to probabilities first.
    polyroc.intervals.stratified_mean_interval : A confidence interval of a mean loss.

    Examples
    --------
    >>> P = [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.3, 0.5]]
    >>> round(log_loss([0, 1, 2], P), 6), round(log_loss([0, 1, 2], P, normalize=False), 6)
    (0.34055, 1.021651)
    """
    check_option("normalize", normalize, (True, False))
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`; `y_pred` is deprecated, use `y_proba`.")
        _warnings.warn("`y_pred` was renamed to `y_proba`; use `y_proba` instead.", FutureWarning)
        y_proba = y_pred
    warn_column_order(y_true, y_proba, labels, "y_proba")
    y_proba = _float_scores(_score_input("y_proba", y_proba))
    if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
        return _delegated("log_loss", y_true, y_proba, normalize=normalize, sample_weight=sample_weight, labels=labels)
    y, y_proba, weights = _multiclass_probabilities(y_true, y_proba, sample_weight, labels)
    losses = _sample_log_losses(y, y_proba, np.finfo(y_proba.dtype).eps)
    return _mean_or_sum(losses, weights, normalize)


def _sample_brier_losses(y: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Squared distance of each score row to the one-hot truth (encoded ``y``).

    Blocks of rows bound the temporary copies to :data:`BRIER_BLOCK_ROWS` rows.
    """
    losses = np.empty(y.size, dtype=scores.dtype)
    for start in range(0, y.size, BRIER_BLOCK_ROWS):
        block = slice(start, start + BRIER_BLOCK_ROWS)
        errors = scores[block].copy()
        errors[np.arange(errors.shape[0]), y[block]] -= 1.0
        np.square(errors, out=errors)
        losses[block] = errors.sum(axis=1)
    return losses


#: Rows of a block of :func:`_sample_brier_losses`.
BRIER_BLOCK_ROWS = 1 << 16


def _check_positive_label(pos_label, y_true: np.ndarray):
    """``pos_label``, or 1 when it is None and the labels are {0, 1}, {-1, 1} or a subset (else ValueError)."""
    if pos_label is not None:
        return pos_label
    classes = np.unique(y_true)
    usual = ([0, 1], [-1, 1], [0], [-1], [1])
    if classes.dtype.kind in "OUS" or not any(np.array_equal(classes, option) for option in usual):
        raise ValueError(
            f"y_true takes value in {{{', '.join(repr(c) for c in classes.tolist())}}} and pos_label is not "
            "specified: either make y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


def _binary_probabilities(y_true, y_proba: np.ndarray, sample_weight, pos_label) -> _Probabilities:
    """scikit-learn's checks of one probability per sample (of the positive class); two columns out."""
    y_true = _label_input("y_true", y_true)
    y_proba = column_or_1d(y_proba, input_name="y_proba")
    weights = _weights_input(sample_weight, y_true.shape[0])
    _check_same_length(y_true, y_proba, "y_proba")
    kind = type_of_target(y_true, input_name="y_true")
    if kind != "binary":
        raise ValueError(f"y_true is {kind} but y_proba has one probability per sample: it must be binary")
    _check_probability_range(y_proba)
    try:
        pos_label = _check_positive_label(pos_label, y_true)
    except ValueError:
        classes = np.unique(y_true)
        if classes.dtype.kind in "OUS":
            raise
        pos_label = classes[-1]
    y = (y_true == pos_label).astype(np.intp)
    return _Probabilities(y, np.stack([1 - y_proba, y_proba], axis=1), weights)


def brier_score_loss(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: float | bool | str | None = None,
    labels: ArrayLike | None = None,
    scale_by_half: bool | str = "auto",
) -> float:
    """Brier score: mean squared distance of the probabilities to the one-hot truth, as scikit-learn.

    Binary (1-D ``y_proba``, the probability of ``pos_label``) or
    multiclass (one column per sorted class), as
    ``sklearn.metrics.brier_score_loss`` (scikit-learn >= 1.7).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        True labels; a 2-D indicator array (one-hot or multilabel) is handed
        to scikit-learn's function.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The positive class of binary targets (default: 1 for {0, 1} or
        {-1, 1} labels, else the greater label of numeric labels).
    labels : array-like, default=None
        The classes of multiclass probabilities, when ``y_true`` lacks some.
    scale_by_half : bool or "auto", default="auto"
        Halve the score (range [0, 1]); "auto" halves it for two classes.

    Returns
    -------
    float
        The (weighted) mean squared distance (halved when scaled).

    Raises
    ------
    ValueError
        As :func:`log_loss`; if ``scale_by_half`` is not True, False or
        "auto"; for 1-D ``y_proba`` also if ``y_true`` is not binary or
        string labels come without ``pos_label``.
    TypeError
        As :func:`log_loss`.

    Warns
    -----
    UserWarning
        As :func:`log_loss`.

    See Also
    --------
    log_loss : The cross-entropy of the same probabilities.
    polyroc.probability.one_hot : The indicator rows the probabilities are compared with.
    polyroc.intervals.stratified_mean_interval : A confidence interval of a mean loss.

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of
    probability. Monthly Weather Review 78, 1-3.
    doi:10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2

    Examples
    --------
    >>> round(brier_score_loss([0, 1], [[0.8, 0.2], [0.4, 0.6]]), 6)
    0.1
    >>> round(brier_score_loss([0, 1, 2], [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6]]), 6)
    0.186667
    """
    check_option("scale_by_half", scale_by_half, (True, False, "auto"))
    warn_column_order(y_true, y_proba, labels, "y_proba")
    y_proba = _float_scores(_score_input("y_proba", y_proba))
    if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
        return _delegated(
            "brier_score_loss",
            y_true,
            y_proba,
            sample_weight=sample_weight,
            pos_label=pos_label,
            labels=labels,
            scale_by_half=scale_by_half,
        )
    if y_proba.ndim == 1 or y_proba.shape[1] == 1:
        y, y_proba, weights = _binary_probabilities(y_true, y_proba, sample_weight, pos_label)
    else:
        y, y_proba, weights = _multiclass_probabilities(y_true, y_proba, sample_weight, labels)
    score = _mean_or_sum(_sample_brier_losses(y, y_proba), weights)
    half = y_proba.shape[1] < 3 if scale_by_half == "auto" else scale_by_half
    return float(score * 0.5) if half else score


def _sample_top_k_hits(y: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """Whether each sample's true class (encoded ``y``) ranks among its k highest scores.

    Among equal scores the class with the higher index ranks first, as scikit-learn.
    """
    true_score = scores[np.arange(y.size), y][:, None]
    tied_ahead = (scores == true_score) & (np.arange(scores.shape[1]) > y[:, None])
    rank = (scores > true_score).sum(axis=1) + tied_ahead.sum(axis=1)
    return rank < k


def _ordered_labels(labels, y_true: np.ndarray, n_columns: int, what: str) -> np.ndarray:
    """scikit-learn's checks of ``labels`` naming the score columns: unique, sorted, one per column."""
    given = _labels_argument(labels)
    classes = np.unique(given)
    if not np.array_equal(classes, given):
        raise ValueError(f"Parameter 'labels' must be ordered (sorted), got {given.tolist()}")
    if classes.size != n_columns:
        raise ValueError(f"Number of given labels, {classes.size}, not equal to the number of {what}, {n_columns}")
    if np.setdiff1d(y_true, classes).size:
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes


def top_k_accuracy_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
) -> float:
    """Fraction of samples whose true class is among the k highest scores, as scikit-learn.

    Among equal scores the class with the higher index ranks first, as
    ``sklearn.metrics.top_k_accuracy_score``. Binary targets take one score
    per sample (of the greater class).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, n_classes) or (n_samples,)
        Scores (any real values), one column per sorted class.
    k : int, default=2
        Number of top-ranked classes that count as a hit.
    normalize : bool, default=True
        The (weighted) fraction of hits; ``False`` their (weighted) number.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like, default=None
        The classes (unique, sorted), one per column.

    Returns
    -------
    float
        The top-k accuracy.

    Raises
    ------
    ValueError
        For NaN scores, different lengths, non-classification targets,
        ``labels`` not unique, not sorted or not one per column, or a column
        count that differs from the number of classes; ``k`` < 1 or
        ``normalize`` not a bool.
    TypeError
        If ``k`` is not an integer, or a list of labels mixes strings and
        numbers.

    Warns
    -----
    UndefinedMetricWarning
        If ``k`` >= the number of classes (every sample is a hit).
    UserWarning
        If ``y_score`` is a DataFrame whose column names are the class labels in
        another order than the sorted labels (the columns are taken by
        position, as scikit-learn does).

    See Also
    --------
    accuracy_score : The top-1 accuracy of predicted labels.
    roc_auc_score : A threshold-free measure of how the scores rank the classes.

    Examples
    --------
    >>> scores = [[0.5, 0.2, 0.3], [0.3, 0.4, 0.3], [0.2, 0.4, 0.4], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score([0, 1, 2, 2], scores, k=1), top_k_accuracy_score([0, 1, 2, 2], scores, k=2)
    (0.75, 0.75)
    """
    k = check_positive_int("k", k)
    check_option("normalize", normalize, (True, False))
    y_true = column_or_1d(_label_input("y_true", y_true), input_name="y_true")
    kind = type_of_target(y_true, input_name="y_true")
    if kind == "binary" and labels is not None and len(labels) > 2:
        kind = "multiclass"
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    warn_column_order(y_true, y_score, labels)
    y_score = _score_input("y_score", y_score)
    if kind == "binary":
        if y_score.ndim == 2 and y_score.shape[1] != 1:
            raise ValueError(
                f"y_true is binary while y_score is 2-D with {y_score.shape[1]} classes; if y_true lacks "
                "some labels, pass them through labels"
            )
        y_score = column_or_1d(y_score)
    elif y_score.ndim != 2:
        raise ValueError(f"y_score must be of shape (n_samples, n_classes) for multiclass y_true, got {y_score.shape}")
    weights = _weights_input(sample_weight, y_true.shape[0])
    _check_same_length(y_true, y_score, "y_score")
    n_columns = y_score.shape[1] if y_score.ndim == 2 else 2
    if labels is None:
        classes = np.unique(y_true)
        if classes.size != n_columns:
            raise ValueError(
                f"Number of classes in 'y_true' ({classes.size}) not equal to the number of classes in "
                f"'y_score' ({n_columns}); pass every class through labels"
            )
    else:
        classes = _ordered_labels(labels, y_true, n_columns, "classes in 'y_score'")
    if k >= classes.size:
        _warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({classes.size}) gives a perfect score",
            UndefinedMetricWarning,
        )
    y = _encode(y_true, classes)
    if kind == "binary":
        threshold = 0.5 if y_score.min() >= 0 and y_score.max() <= 1 else 0
        hits = (y_score > threshold).astype(np.intp) == y if k == 1 else np.ones(y.size, dtype=bool)
    else:
        hits = _sample_top_k_hits(y, y_score, k)
    return _mean_or_sum(hits.astype(np.float64), weights, bool(normalize))


# --------------------------------------------------------------------------- binary curves


class _BinaryCounts(NamedTuple):
    """Weighted false and true positives at each distinct score (highest first), and those scores."""

    fps: np.ndarray
    tps: np.ndarray
    cutoffs: np.ndarray


def _binary_curve_counts(y_true, y_score, pos_label, sample_weight) -> _BinaryCounts:
    """scikit-learn's checks of a binary curve's input, then the counts of the ranking engine."""
    y_true, y_score = _label_input("y_true", y_true), _score_input("y_score", y_score)
    kind = type_of_target(y_true, input_name="y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise ValueError(f"y_true is {kind}: a binary curve needs binary labels (or pos_label)")
    y_score = column_or_1d(y_score, input_name="y_score")
    weights = _weights_input(sample_weight, y_true.shape[0])
    _check_same_length(y_true, y_score, "y_score")
    if y_score.dtype.kind not in "iuf":
        y_score = y_score.astype(np.float64)
    positive = y_true == _check_positive_label(pos_label, y_true)
    positive, score, weights = without_zero_weights(positive, y_score, scale_weights(weights).weights)
    return _BinaryCounts(*binary_counts(positive, score, weights))


def _warn_missing_class(counts: _BinaryCounts) -> None:
    if counts.fps[-1] <= 0:
        _warnings.warn(
            "No negative samples in y_true: the false positive rate is undefined (NaN)",
            UndefinedMetricWarning,
        )
    if counts.tps[-1] <= 0:
        _warnings.warn(
            "No positive samples in y_true: the true positive rate is undefined (NaN)",
            UndefinedMetricWarning,
        )


def roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: float | bool | str | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = True,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ROC curve of binary labels, as ``sklearn.metrics.roc_curve``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; binary unless ``pos_label`` is given.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class (any real values).
    pos_label : int, float, bool or str, default=None
        The positive class; by default 1 for labels {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights (zero-weight samples make no threshold).
    drop_intermediate : bool, default=True
        Drop the points on straight segments between their neighbours.

    Returns
    -------
    fpr, tpr : ndarray
        Rates at each threshold, from (0, 0) to (1, 1); NaN for a rate whose
        class has no samples.
    thresholds : ndarray
        Decreasing score cut-offs, the first one ``inf``: point ``i`` calls
        positive the samples with score >= ``thresholds[i]``.

    Raises
    ------
    ValueError
        If ``y_true`` is not binary (without ``pos_label``), labels are not
        {0, 1}/{-1, 1} without ``pos_label``, lengths differ, ``y_score`` is
        not 1-D, the scores hold NaN or infinity, or ``sample_weight`` is bad.
    TypeError
        If a list of labels mixes strings and numbers.
    sklearn.utils._param_validation.InvalidParameterError
        If ``drop_intermediate`` is not a bool (or numpy bool), as
        scikit-learn; it is both a ``ValueError`` and a ``TypeError``.

    Warns
    -----
    UndefinedMetricWarning
        If ``y_true`` has no positive or no negative samples.

    See Also
    --------
    roc_auc_score : The area under the curve.
    det_curve : The false negative rate against the false positive rate.
    precision_recall_curve : Precision against recall at the same thresholds.
    polyroc.curves.ovr_roc_curve : One curve per class of multiclass scores.

    Examples
    --------
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr, thresholds
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]), array([ inf, 0.8 , 0.4 , 0.35, 0.1 ]))
    """
    drop_intermediate = check_boolean("drop_intermediate", drop_intermediate)
    counts = _binary_curve_counts(y_true, y_score, pos_label, sample_weight)
    _warn_missing_class(counts)
    fpr, tpr, thresholds = roc_points(*counts, drop_intermediate)
    return fpr, tpr, thresholds.astype(np.float64)


def _precision_recall_points(counts: _BinaryCounts, drop_intermediate: bool):
    """(precision, recall, thresholds) as scikit-learn: recall 1 everywhere (and a warning) without positives."""
    precision, recall, thresholds = pr_points(*counts, drop_intermediate)
    if counts.tps[-1] == 0:
        _warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
        )
        recall = np.append(np.ones(recall.size - 1), 0.0)
    return precision, recall, thresholds


def precision_recall_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    pos_label: float | bool | str | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Precision-recall curve of binary labels, as ``sklearn.metrics.precision_recall_curve``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; binary unless ``pos_label`` is given.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The positive class; by default 1 for labels {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Keep only the first and last point of each run of equal recall.

    Returns
    -------
    precision, recall : ndarray
        Values at increasing thresholds, ending with (precision 1, recall 0);
        a threshold where nothing is predicted positive has precision 0.
    thresholds : ndarray
        Increasing score cut-offs (one fewer than the points).

    Raises
    ------
    ValueError
        As :func:`roc_curve`.
    TypeError
        If a list of labels mixes strings and numbers.
    sklearn.utils._param_validation.InvalidParameterError
        If ``drop_intermediate`` is not a bool (or numpy bool), as
        scikit-learn; it is both a ``ValueError`` and a ``TypeError``.

    Warns
    -----
    UserWarning
        If ``y_true`` has no positive sample (recall is set to 1).

    See Also
    --------
    average_precision_score : The step area under the curve.
    roc_curve : The true against the false positive rate.
    polyroc.curves.ovr_precision_recall_curve : One curve per class of multiclass scores.

    Examples
    --------
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(4), recall, thresholds
    (array([0.5   , 0.6667, 0.5   , 1.    , 1.    ]), array([1. , 1. , 0.5, 0.5, 0. ]), array([0.1 , 0.35, 0.4 , 0.8 ]))
    """
    drop_intermediate = check_boolean("drop_intermediate", drop_intermediate)
    counts = _binary_curve_counts(y_true, y_score, pos_label, sample_weight)
    return _precision_recall_points(counts, drop_intermediate)


def det_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    pos_label: float | bool | str | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Detection error tradeoff curve (false positive and false negative rates), as ``sklearn.metrics.det_curve``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; binary unless ``pos_label`` is given.
    y_score : array-like of shape (n_samples,)
        Scores of the positive class.
    pos_label : int, float, bool or str, default=None
        The positive class; by default 1 for labels {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Keep only the first and last point of each run of equal miss rate.

    Returns
    -------
    fpr, fnr : ndarray
        False positive and false negative rates at increasing thresholds.
    thresholds : ndarray
        Increasing score cut-offs.

    Raises
    ------
    ValueError
        As :func:`roc_curve`, and if ``y_true`` has a single class.
    TypeError
        If a list of labels mixes strings and numbers.
    sklearn.utils._param_validation.InvalidParameterError
        If ``drop_intermediate`` is not a bool (or numpy bool), as
        scikit-learn; it is both a ``ValueError`` and a ``TypeError``.

    See Also
    --------
    roc_curve : The same trade-off as true against false positive rate.
    precision_recall_curve : Precision against recall.

    Examples
    --------
    >>> fpr, fnr, thresholds = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, fnr, thresholds
    (array([0.5, 0.5, 0. ]), array([0. , 0.5, 0.5]), array([0.35, 0.4 , 0.8 ]))
    """
    drop_intermediate = check_boolean("drop_intermediate", drop_intermediate)
    counts = _binary_curve_counts(y_true, y_score, pos_label, sample_weight)
    fps, tps = np.concatenate(([0.0], counts.fps)), np.concatenate(([0.0], counts.tps))
    cutoffs = np.concatenate(([np.inf], counts.cutoffs.astype(np.float64)))
    if drop_intermediate and fps.size > 2:
        fps, tps, cutoffs = drop_flat_recall(fps, tps, cutoffs)
    if np.unique(column_or_1d(y_true)).size != 2:
        raise ValueError("Only one class is present in y_true; the detection error tradeoff curve is undefined")
    fns = tps[-1] - tps
    first = np.searchsorted(fps, fps[0], side="right") - 1
    last = np.searchsorted(tps, tps[-1]) + 1
    part = slice(first if first > 0 else None, last)
    return fps[part][::-1] / fps[-1], fns[part][::-1] / tps[-1], cutoffs[part][::-1]


# --------------------------------------------------------------------------- areas


def _binary_roc_auc(counts: _BinaryCounts, max_fpr: float | None, two_labels: bool = True) -> float:
    """(Partial, McClish-standardised) area under the ROC curve of binary counts, as scikit-learn.

    NaN (and a warning) when ``y_true`` has one label only. When zero
    weights leave one class, the curve's undefined rate is NaN (with
    :func:`roc_curve`'s warning) and so is the area; a partial area then
    needs two points below ``max_fpr`` and raises without them.
    """
    if not two_labels:
        _warnings.warn(
            "Only one class is present in y_true. ROC AUC score is not defined in that case.",
            UndefinedMetricWarning,
        )
        return np.nan
    _warn_missing_class(counts)
    fpr, tpr, _ = roc_points(*counts, True)
    if max_fpr is None or max_fpr == 1:
        return trapezoid_area(fpr, tpr)
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    tpr = np.append(tpr[:stop], np.interp(max_fpr, [fpr[stop - 1], fpr[stop]], [tpr[stop - 1], tpr[stop]]))
    fpr = np.append(fpr[:stop], max_fpr)
    if fpr.size < 2:
        raise ValueError(
            "the partial ROC curve below max_fpr has fewer than 2 points (sample_weight leaves one class of y_true)"
        )
    partial_auc = trapezoid_area(fpr, tpr)
    min_area, max_area = 0.5 * max_fpr**2, max_fpr
    return float(0.5 * (1 + (partial_auc - min_area) / (max_area - min_area)))


class _ScoredClasses(NamedTuple):
    """Encoded labels, the score matrix (n, m), the classes, the scaled weights and the class supports."""

    y: np.ndarray
    scores: np.ndarray
    classes: np.ndarray
    weights: np.ndarray | None
    support: np.ndarray


def _scored_classes(y_true: np.ndarray, y_score: np.ndarray, labels, sample_weight) -> _ScoredClasses:
    """scikit-learn's checks of multiclass scores against ``labels``; the encoded inputs."""
    if labels is not None:
        classes = _ordered_labels(labels, y_true, y_score.shape[1], "columns in 'y_score'")
    else:
        classes = np.unique(y_true)
        if classes.size != y_score.shape[1]:
            raise ValueError(
                f"Number of classes in y_true ({classes.size}) not equal to the number of columns in 'y_score' "
                f"({y_score.shape[1]})"
            )
    weights = scale_weights(_weights_input(sample_weight, y_true.shape[0])).weights
    y = _encode(y_true, classes)
    support = np.bincount(y, weights=weights, minlength=classes.size).astype(np.float64)
    return _ScoredClasses(y, y_score.astype(np.float64), classes, weights, support)


def _warn_classes_without_samples(classes: np.ndarray, support: np.ndarray, what: str) -> None:
    """Warn (at the user's line) that the one-vs-rest ``what`` of the classes with no weight, or all of it, is NaN."""
    total = support.sum()
    undefined = (support == 0) | (support == total)
    if np.any(undefined):
        _warnings.warn(
            f"labels {classes[undefined].tolist()} have no samples, or all of them, in y_true: "
            f"their {what} is undefined (NaN)",
            UndefinedMetricWarning,
        )


def _average_class_scores(per_class: np.ndarray, support: np.ndarray, average):
    """scikit-learn's averages of per-class binary scores (NaN propagates; weighted: empty classes count 0)."""
    if average is None:
        return per_class
    if average == "weighted":
        if np.isclose(support.sum(), 0.0):
            return 0.0
        per_class = np.where(support == 0, 0.0, per_class)
        return float(np.average(per_class, weights=support))
    return float(np.average(per_class))


def _multiclass_roc_auc(y_true, y_score, labels, multi_class, average, sample_weight):
    if y_score.ndim != 2:
        raise ValueError(f"y_score must be of shape (n_samples, n_classes) for multiclass y_true, got {y_score.shape}")
    if not np.allclose(1, y_score.sum(axis=1)):
        raise ValueError("y_score must hold probabilities for a multiclass roc_auc_score: its rows must sum to 1")
    options = ("micro", "macro", "weighted", None) if multi_class == "ovr" else ("macro", "weighted", None)
    if average not in options:
        raise ValueError(f"average must be one of {options} for multiclass problems, got {average!r}")
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    _check_same_length(y_true, y_score, "y_score")
    scored = _scored_classes(y_true, y_score, labels, sample_weight)
    return _multiclass_aucs(scored, [(multi_class, average)])[multi_class, average]


def _multiclass_aucs(scored: _ScoredClasses, keys, ranked=None) -> dict:
    """AUCs of checked multiclass scores for each (multi_class, average) of ``keys``, each column sorted once.

    ``ranked`` is the (pairwise wins, micro wins) of these scores when their
    columns were sorted already (:func:`polyroc._delong.ranked_influences`).
    """
    micro = ("ovr", "micro") in keys
    pairwise = any(key != ("ovr", "micro") for key in keys)
    if ranked is None:
        ranked = ranking_wins(scored.y, scored.scores, scored.weights, pairwise=pairwise, micro=micro)
    wins, micro_wins = ranked
    aucs = {}
    if micro:
        aucs["ovr", "micro"] = micro_from_wins(micro_wins, scored.y, scored.weights, scored.classes.size)
    if pairwise:
        if any(multi_class == "ovr" and average != "micro" for multi_class, average in keys):
            _warn_classes_without_samples(scored.classes, scored.support, "ROC AUC")
            per_class = ovr_auc(wins, scored.support)
        for multi_class, average in keys:
            if multi_class == "ovo":  # over the pairs of classes present in y_true, as scikit-learn
                aucs[multi_class, average] = hand_till(wins, scored.support, average)
            elif average != "micro":
                aucs[multi_class, average] = _average_class_scores(per_class, scored.support, average)
    return {key: aucs[key] for key in keys}


def _multiclass_ranking_scores(y_true, y_score, *, labels, sample_weight, keys) -> dict:
    """:func:`roc_auc_score` of probability scores (n, m > 2) for several (multi_class, average) keys at once.

    Equal to calling :func:`roc_auc_score` once per key, with each score
    column sorted once instead of once per key. Inputs must have been checked
    (e.g. by :func:`polyroc._validation.check_scores`).
    """
    scored = _scored_classes(y_true, np.asarray(y_score), labels, sample_weight)
    return _multiclass_aucs(scored, list(keys))


def _encoded_ranking_scores(y, scores, classes, weights, keys, ranked) -> dict:
    """:func:`_multiclass_ranking_scores` of encoded, checked inputs from their pairwise and micro wins."""
    support = np.bincount(y, weights=weights, minlength=classes.size).astype(np.float64)
    return _multiclass_aucs(_ScoredClasses(y, scores, classes, weights, support), list(keys), ranked)


def roc_auc_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: ArrayLike | None = None,
) -> float | np.ndarray:
    """Area under the ROC curve: binary, one-vs-rest or one-vs-one, as ``sklearn.metrics.roc_auc_score``.

    With a binary ``y_true``, ``y_score`` holds one score per sample (of the
    greater label); with a multiclass ``y_true``, a probability matrix, and
    ``multi_class`` must be set. One-vs-rest, the AUC of class k is that of
    ``y_true == k`` against ``y_score[:, k]``; one-vs-one (Hand & Till's
    M), each pair of classes scores ``(A(a|b) + A(b|a)) / 2`` on its
    samples, with ``A(a|b)`` the probability that a sample of a has a higher
    column-a score than one of b (ties count half). Multilabel indicators are handed to scikit-learn.

    Departures from scikit-learn (only where it raises): ``multi_class="ovo"``
    accepts ``sample_weight`` (``A(a|b) = sum w_i w_j ([s_i > s_j] +
    [s_i = s_j] / 2) / (W_a W_b)``, pairs weighted by their share of the
    weight); and a binary ``y_true`` with two score columns and
    ``multi_class`` set is scored as a two-class multiclass problem.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of the greater label (binary), or probabilities (rows sum to
        1), one column per sorted class.
    average : {"micro", "macro", "weighted"} or None, default="macro"
        Multiclass: ``"macro"`` plain mean over classes (or pairs, OvO),
        ``"weighted"`` mean weighted by class support (pair share, OvO),
        ``"micro"`` (OvR) AUC of the binarized labels against the raveled
        scores, None (OvR) the per-class AUCs. Ignored for binary targets.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    max_fpr : float in (0, 1], default=None
        Binary only: the McClish-standardised partial AUC up to this FPR.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Required for multiclass targets.
    labels : array-like, default=None
        Multiclass: the classes (unique, sorted), one per column.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The AUC (NaN where undefined: one class only, or a class without samples).

    Raises
    ------
    ValueError
        For NaN scores, different lengths, ``multi_class`` or ``average``
        not an option, ``max_fpr`` outside (0, 1], multiclass targets with
        ``multi_class="raise"`` or ``max_fpr``, rows not summing to 1, bad
        ``labels``, or a column count that differs from the number of classes.
    TypeError
        If ``max_fpr`` is not a real number, or a list of labels mixes
        strings and numbers.
    NotImplementedError
        For ``average=None`` with ``multi_class="ovo"``.

    Warns
    -----
    UndefinedMetricWarning
        If a class has no samples (or all of them).
    UserWarning
        If ``y_score`` is a DataFrame whose column names are the class labels in
        another order than the sorted labels (the columns are taken by
        position, as scikit-learn does).

    See Also
    --------
    roc_curve : The binary curve whose area this is.
    polyroc.curves.ovr_roc_curve : The one-vs-rest curves of multiclass scores.
    polyroc.intervals.roc_auc_interval : The AUC with DeLong's confidence interval.
    polyroc.comparison.compare_scores : Test the difference of two models' AUCs.

    References
    ----------
    Hand, D. J. & Till, R. J. (2001). A simple generalisation of the area under
    the ROC curve for multiple class classification problems. Machine Learning 45,
    171-186. doi:10.1023/A:1010920819831

    McClish, D. K. (1989). Analyzing a portion of the ROC curve. Medical Decision
    Making 9, 190-195. doi:10.1177/0272989X8900900307

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> roc_auc_score(y, P, multi_class="ovr", average=None)
    array([0.9, 0.7, 1. ])
    >>> round(roc_auc_score(y, P, multi_class="ovo"), 6)
    0.861111
    """
    check_option("multi_class", multi_class, MULTI_CLASS_OPTIONS)
    check_option("average", average, ("micro", "macro", "samples", "weighted", None))
    if max_fpr is not None:
        check_real("max_fpr", max_fpr, low=0.0, high=1.0, closed="high")
    warn_column_order(y_true, y_score, labels)
    y_true, y_score = _label_input("y_true", y_true), _score_input("y_score", y_score)
    kind = type_of_target(y_true, input_name="y_true")
    two_columns = kind == "binary" and y_score.ndim == 2 and y_score.shape[1] == 2 and multi_class != "raise"
    if kind == "multiclass" or (kind == "binary" and y_score.ndim == 2 and y_score.shape[1] > 2) or two_columns:
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError("Partial AUC (max_fpr) is not available for multiclass targets; set max_fpr=None")
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr') for multiclass targets")
        return _multiclass_roc_auc(y_true, y_score, labels, multi_class, average, sample_weight)
    if kind != "binary":
        return _delegated(
            "roc_auc_score",
            y_true,
            y_score,
            average=average,
            sample_weight=sample_weight,
            max_fpr=max_fpr,
            multi_class=multi_class,
            labels=labels,
        )
    present = np.unique(y_true)
    counts = _binary_curve_counts(y_true, y_score, present[-1], sample_weight)
    return _binary_roc_auc(counts, max_fpr, two_labels=present.size == 2)


def _binary_average_precision(counts: _BinaryCounts) -> float:
    precision, recall, _ = _precision_recall_points(counts, False)
    return step_area(precision, recall)


def _samples_average_precision(scored: _ScoredClasses) -> float:
    """Mean over samples of the average precision of ranking its classes: 1 / #{k: s_k >= s_true}."""
    true_score = scored.scores[np.arange(scored.y.size), scored.y][:, None]
    per_sample = 1.0 / (scored.scores >= true_score).sum(axis=1)
    return float(np.average(per_sample, weights=scored.weights))


def average_precision_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    pos_label: float | bool | str = 1,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Average precision ``sum_n (R_n - R_{n-1}) P_n``, as ``sklearn.metrics.average_precision_score``.

    Binary ``y_true`` takes the scores of ``pos_label``; multiclass
    ``y_true`` one column per sorted class present, each class against the
    rest. Multilabel indicators are handed to scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores (any real values).
    average : {"micro", "samples", "weighted", "macro"} or None, default="macro"
        Multiclass: ``"macro"`` plain mean over classes, ``"weighted"`` mean
        weighted by class support, ``"micro"`` AP of the binarized labels
        against the raveled scores, ``"samples"`` mean over samples of the
        AP of ranking their classes, None the per-class values.
    pos_label : int, float, bool or str, default=1
        The positive class of binary targets (must stay 1 for multiclass).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The average precision.

    Raises
    ------
    ValueError
        For NaN scores, different lengths, ``average`` not an option,
        ``pos_label`` not a label of binary targets (or not 1 for
        multiclass), or a score shape that does not match the classes.
    TypeError
        If a list of labels mixes strings and numbers.

    Warns
    -----
    UserWarning
        If a binary ``y_true`` has no positive sample, or ``y_score`` is a
        DataFrame whose column names are the class labels in another order
        than the sorted labels (the columns are taken by position, as
        scikit-learn does).

    See Also
    --------
    precision_recall_curve : The curve whose step area this is.
    roc_auc_score : The area under the ROC curve.
    polyroc.curves.ovr_precision_recall_curve : The one-vs-rest curves and their average precision.

    Examples
    --------
    >>> average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.8333333333333333
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> average_precision_score(y, P, average=None).round(6)
    array([0.833333, 0.45    , 1.      ])
    """
    check_option("average", average, ("micro", "samples", "weighted", "macro", None))
    warn_column_order(y_true, y_score)
    y_true, y_score = _label_input("y_true", y_true), _score_input("y_score", y_score)
    kind = type_of_target(y_true, input_name="y_true")
    present = np.unique(y_true) if kind in ("binary", "multiclass") else None
    if kind == "binary":
        if present.size == 2 and pos_label not in present.tolist():
            raise ValueError(f"pos_label={pos_label!r} is not a valid label: it should be one of {present.tolist()}")
        return _binary_average_precision(_binary_curve_counts(y_true, y_score, pos_label, sample_weight))
    if kind != "multiclass":
        return _delegated(
            "average_precision_score",
            y_true,
            y_score,
            average=average,
            pos_label=pos_label,
            sample_weight=sample_weight,
        )
    if pos_label != 1:
        raise ValueError("Parameter pos_label is fixed to 1 for multiclass y_true. Do not set pos_label.")
    if y_score.shape != (y_true.shape[0], present.size):
        raise ValueError(
            f"y_score must be of shape (n_samples, n_classes) = {(y_true.shape[0], present.size)} since y_true "
            f"has {count_noun(present.size, 'class')}; got {y_score.shape}"
        )
    scored = _scored_classes(y_true, y_score, None, sample_weight)
    if average == "micro":
        return _binary_average_precision(_BinaryCounts(*micro_counts(scored.y, scored.scores, scored.weights)))
    if average == "samples":
        return _samples_average_precision(scored)
    per_class = np.array(
        [
            _binary_average_precision(_BinaryCounts(*counts))
            for counts in class_counts(scored.y, scored.scores, scored.weights)
        ]
    )
    return _average_class_scores(per_class, scored.support, average)
