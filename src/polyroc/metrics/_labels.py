"""Metrics of the whole confusion matrix: ``confusion_matrix``, accuracy, balanced accuracy, MCC and Cohen's kappa."""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc import counts as _counts
from polyroc._validation import (
    LabelPair,
    as_array,
    check_boolean,
    check_label_pair_sklearn,
    check_option,
    check_real_or_nan,
    encode_labels_allowing_unknown,
)
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.metrics._multilabel import delegated
from polyroc.metrics._tables import at_least_two, matrix_counts

NORMALIZE_OPTIONS = (None, "true", "pred", "all")


def _integer_weights(sample_weight) -> bool:
    return sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub"


def _integer_weight_counts(pair: LabelPair, classes: np.ndarray, sample_weight) -> np.ndarray:
    """Confusion counts of integer weights summed in int64: exact, wrapping around on overflow as scikit-learn's."""
    true_codes, pred_codes = (
        encode_labels_allowing_unknown(pair.y_true, classes),
        encode_labels_allowing_unknown(pair.y_pred, classes),
    )
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
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    classes, counts, scale = matrix_counts(pair, labels)
    if normalize is None and pair.sample_weight is not None and _integer_weights(sample_weight):
        if pair.sample_weight.max() * pair.sample_weight.size >= 2**53:  # float64 sums could round
            return _integer_weight_counts(pair, classes, sample_weight)
    if normalize is None:
        counts = scale.restore(counts)
        return counts.astype(np.int64) if _integer_weights(sample_weight) else counts.astype(np.float64)
    axes: dict[str, int | tuple[int, int]] = {"true": 1, "pred": 0, "all": (0, 1)}
    axis = axes[normalize]
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
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator":
        return delegated("accuracy_score", y_true, y_pred, normalize=normalize, sample_weight=sample_weight)
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
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    counts = matrix_counts(pair, None).counts
    if np.any(counts.sum(axis=1) == 0):
        _warnings.warn("y_pred contains classes not in y_true", UndefinedMetricWarning)
    if adjusted and np.count_nonzero(counts.sum(axis=1)) == 1:
        # chance is 1 with one class in y_true: (score - 1) / 0, -inf or NaN, as scikit-learn
        with np.errstate(divide="ignore", invalid="ignore"):
            return float(np.float64(_counts._balanced_accuracy(at_least_two(counts), warn=False) - 1.0) / 0.0)
    return float(_counts._balanced_accuracy(at_least_two(counts), adjusted, warn=False))


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
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    counts = matrix_counts(pair, None).counts
    return float(_counts.matthews_corrcoef(at_least_two(counts)))


def cohen_kappa_score(
    y1: ArrayLike,
    y2: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    weights: Literal["linear", "quadratic"] | None = None,
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
    pair = check_label_pair_sklearn(y1, y2, sample_weight, names=("y1", "y2"))
    try:
        counts = matrix_counts(pair, labels).counts
    except ValueError as error:
        if "At least one label specified" in str(error):
            raise ValueError("At least one label in `labels` must be present in `y1`.") from error
        raise
    kappa = _counts.cohen_kappa(at_least_two(counts), weights=weights, zero_division=np.nan)
    if np.isnan(kappa):
        _warnings.warn(
            "cohen_kappa_score is undefined (chance agreement 1); it is set to replace_undefined_by",
            UndefinedMetricWarning,
        )
        return replace_undefined_by
    return float(kappa)
