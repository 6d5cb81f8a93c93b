"""Label-level classification metrics under scikit-learn's names and meanings.

Each function takes labels (or scores) like its ``sklearn.metrics`` namesake,
validates them, builds one confusion-counts matrix with the counts engine and
calls the matching metric of :mod:`polyroc.counts`. polyroc's own extras
(``specificity_score``, ``youden_score``, ``heidke_skill_score``) follow the
same conventions.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np

from polyroc._counts import confusion_counts
from polyroc._validation import (
    ScaledWeights,
    Targets,
    as_array,
    check_option,
    check_positive_int,
    check_real,
    check_scores,
    check_targets,
    check_zero_division,
    scale_weights,
)
from polyroc.counts import (
    _OPTION_CHECKS,
    NORMALIZE_OPTIONS,
    accuracy,
    balanced_accuracy,
    cohen_kappa,
    f1,
    fbeta,
    heidke_skill,
    precision,
    recall,
    specificity,
    support,
    youden,
)
from polyroc.counts import matthews_corrcoef as _counts_matthews_corrcoef
from polyroc.curves import average_precision_score, roc_auc_score
from polyroc.exceptions import UndefinedMetricWarning

__all__ = [
    "accuracy_score",
    "average_precision_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "classification_report",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1_score",
    "fbeta_score",
    "heidke_skill_score",
    "log_loss",
    "matthews_corrcoef",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "roc_auc_score",
    "specificity_score",
    "top_k_accuracy_score",
    "youden_score",
]



class _LabelCounts(NamedTuple):
    """Validated targets, their confusion counts (m, m) and the weight scaling.

    The counts accumulate the weights scaled by a power of two
    (:func:`polyroc._validation.scale_weights`), which leaves every metric
    unchanged and keeps it finite for weights of any scale; ``scale.restore``
    turns counts into the user's weight units for outputs that are weighted
    counts.
    """

    targets: Targets
    counts: np.ndarray
    scale: ScaledWeights


def _label_counts(y_true, y_pred, labels, sample_weight):
    targets = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    scale = scale_weights(targets.sample_weight)
    counts = confusion_counts(targets.y_true, targets.y_pred, targets.classes.size, scale.weights)
    return _LabelCounts(targets, counts, scale)


def _score_labels(metric, y_true, y_pred, labels, sample_weight, **options):
    """Run a counts metric on labels: check the options, count, then compute."""
    for name, value in options.items():
        _OPTION_CHECKS[name](value)
    return metric(_label_counts(y_true, y_pred, labels, sample_weight).counts, **options)


def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix C[true, predicted] of labels, optionally normalized.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (m,), optional
        The classes in the order of the rows and columns; by default the sorted
        union of ``y_true`` and ``y_pred``. Must contain every label present.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.
    normalize : {None, "true", "pred", "all"}, default=None
        Divide by the row sums, the column sums or the total (0/0 gives 0).

    Returns
    -------
    ndarray of shape (m, m)
        Integer counts without weights or normalization, else float64. With
        ``sample_weight`` and ``normalize=None`` each cell is the sum of the
        weights of its samples, as in scikit-learn (the weights are scaled by a
        power of two while counting and the sums scaled back, which is exact).

    Raises
    ------
    ValueError
        If the label arrays are empty, not 1-D, of different lengths or hold
        NaN; if a label is not in ``labels``; if fewer than 2 classes result;
        if ``sample_weight`` is bad; or if ``normalize`` is not an option.
    TypeError
        If labels mix strings and numbers.

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
    _, counts, scale = _label_counts(y_true, y_pred, labels, sample_weight)
    if normalize is None:
        return scale.restore(counts)
    axis = {"true": -1, "pred": -2, "all": (-2, -1)}[normalize]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nan_to_num(counts / counts.sum(axis=axis, keepdims=True))


_LABEL_PARAMETERS = """y_true : array-like of shape (n_samples,)
        True labels (numbers or strings); a column vector (n_samples, 1) is
        raveled with a ``DataConversionWarning``, as in scikit-learn.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (m,), optional
        The classes to count (averages are over all of them); by default the
        sorted union of ``y_true`` and ``y_pred``. Must contain every label
        present.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights."""

_LABEL_RAISES = """ValueError
        If the label arrays are empty, not 1-D, of different lengths or hold
        NaN or missing values (None, pd.NA); if a label is not in ``labels``
        or ``labels`` repeats one; if fewer than 2 classes result; if
        ``sample_weight`` is bad (wrong length, negative, all zero); or if
        an option is not one of its allowed values.
    TypeError
        If labels mix strings and numbers (``[1, "1"]`` is refused, not
        merged), or hold bytes or other objects."""


def _documented(function):
    function.__doc__ = function.__doc__.format(label_parameters=_LABEL_PARAMETERS, label_raises=_LABEL_RAISES)
    return function


@_documented
def accuracy_score(y_true, y_pred, *, labels=None, sample_weight=None, normalize=True):
    """Fraction (or number) of correct predictions; see :func:`accuracy`.

    Parameters
    ----------
    {label_parameters}
    normalize : bool, default=True
        Return the (weighted) fraction of correct predictions; ``False``
        returns their number (the sum of their weights), as scikit-learn.

    Returns
    -------
    float
        The (weighted) fraction of samples with ``y_pred == y_true``, or
        their (weighted) number.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> accuracy_score(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    0.75
    >>> accuracy_score(["a", "b", "b", "c"], ["a", "b", "c", "c"], normalize=False)
    3.0
    """
    check_option("normalize", normalize, (True, False))
    if normalize:
        return _score_labels(accuracy, y_true, y_pred, labels, sample_weight)
    _, counts, scale = _label_counts(y_true, y_pred, labels, sample_weight)
    return float(scale.restore(np.trace(counts)))


@_documented
def precision_score(
    y_true, y_pred, *, labels=None, sample_weight=None, average="macro", zero_division="warn"
):
    """Precision of labels; see :func:`precision`.

    Parameters
    ----------
    {label_parameters}
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value for a class never predicted.

    Returns
    -------
    float or ndarray of shape (m,)
        The precision.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> precision_score([0, 1, 2, 2], [0, 2, 2, 2], average=None, zero_division=0.0).round(6)
    array([1.      , 0.      , 0.666667])
    """
    return _score_labels(
        precision, y_true, y_pred, labels, sample_weight, average=average, zero_division=zero_division
    )


@_documented
def recall_score(y_true, y_pred, *, labels=None, sample_weight=None, average="macro", zero_division="warn"):
    """Recall of labels; see :func:`recall`.

    Parameters
    ----------
    {label_parameters}
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value for a class with no true samples.

    Returns
    -------
    float or ndarray of shape (m,)
        The recall.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> recall_score([0, 1, 2, 2], [0, 2, 2, 2], average=None)
    array([1., 0., 1.])
    """
    return _score_labels(
        recall, y_true, y_pred, labels, sample_weight, average=average, zero_division=zero_division
    )


@_documented
def specificity_score(
    y_true, y_pred, *, labels=None, sample_weight=None, average="macro", zero_division="warn"
):
    """Specificity of labels; see :func:`specificity`.

    Parameters
    ----------
    {label_parameters}
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value for a class that every sample belongs to.

    Returns
    -------
    float or ndarray of shape (m,)
        The specificity.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> specificity_score([0, 1, 2, 2], [0, 2, 2, 2], average=None).round(6)
    array([1. , 1. , 0.5])
    """
    return _score_labels(
        specificity, y_true, y_pred, labels, sample_weight, average=average, zero_division=zero_division
    )


@_documented
def fbeta_score(
    y_true, y_pred, *, beta, labels=None, sample_weight=None, average="macro", zero_division="warn"
):
    """F-beta score of labels; see :func:`fbeta`.

    Parameters
    ----------
    {label_parameters}
    beta : float
        Non-negative weight of recall relative to precision.
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value for a class neither present nor predicted.

    Returns
    -------
    float or ndarray of shape (m,)
        The F-beta score.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> round(fbeta_score([0, 1, 2, 2], [0, 2, 2, 2], beta=0.5), 6)
    0.571429
    """
    return _score_labels(
        fbeta, y_true, y_pred, labels, sample_weight, beta=beta, average=average, zero_division=zero_division
    )


@_documented
def f1_score(y_true, y_pred, *, labels=None, sample_weight=None, average="macro", zero_division="warn"):
    """F1 score of labels; see :func:`f1`.

    Parameters
    ----------
    {label_parameters}
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value for a class neither present nor predicted.

    Returns
    -------
    float or ndarray of shape (m,)
        The F1 score.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> f1_score([0, 1, 2, 2], [0, 2, 2, 2], average="micro")
    0.75
    """
    return _score_labels(
        f1, y_true, y_pred, labels, sample_weight, average=average, zero_division=zero_division
    )


@_documented
def youden_score(y_true, y_pred, *, labels=None, sample_weight=None, average="macro", zero_division="warn"):
    """Youden's J (TSS) of labels; see :func:`youden`.

    Parameters
    ----------
    {label_parameters}
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value for a class with no true or no negative samples.

    Returns
    -------
    float or ndarray of shape (m,)
        Youden's J.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> youden_score([0, 1, 2, 2], [0, 2, 2, 2], average=None)
    array([1. , 0. , 0.5])
    """
    return _score_labels(
        youden, y_true, y_pred, labels, sample_weight, average=average, zero_division=zero_division
    )


@_documented
def heidke_skill_score(
    y_true, y_pred, *, labels=None, sample_weight=None, average="macro", zero_division="warn"
):
    """Heidke skill score of labels; see :func:`heidke_skill`.

    Parameters
    ----------
    {label_parameters}
    average : {{"macro", "micro", "weighted", None}}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value where the denominator is 0.

    Returns
    -------
    float or ndarray of shape (m,)
        The Heidke skill score.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> heidke_skill_score([0, 1, 2, 2], [0, 2, 2, 2], average=None)
    array([1. , 0. , 0.5])
    """
    return _score_labels(
        heidke_skill, y_true, y_pred, labels, sample_weight, average=average, zero_division=zero_division
    )


@_documented
def balanced_accuracy_score(y_true, y_pred, *, labels=None, sample_weight=None, adjusted=False):
    """Balanced accuracy of labels; see :func:`balanced_accuracy`.

    Parameters
    ----------
    {label_parameters}
    adjusted : bool, default=False
        Rescale so that chance gives 0.

    Returns
    -------
    float
        The mean recall over the classes with true samples.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> balanced_accuracy_score([0, 1, 2, 2], [0, 2, 2, 2])
    0.6666666666666666
    """
    return _score_labels(balanced_accuracy, y_true, y_pred, labels, sample_weight, adjusted=adjusted)


@_documented
def cohen_kappa_score(y_true, y_pred, *, labels=None, sample_weight=None, weights=None, zero_division="warn"):
    """Cohen's kappa of labels; see :func:`cohen_kappa`.

    Parameters
    ----------
    {label_parameters}
    weights : {{None, "linear", "quadratic"}}, default=None
        Disagreement weights for ordinal classes (in the order of ``labels``).
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value when kappa is undefined (chance agreement 1).

    Returns
    -------
    float
        Cohen's kappa.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> round(cohen_kappa_score([0, 1, 2, 2], [0, 2, 2, 2]), 6)
    0.555556
    """
    return _score_labels(
        cohen_kappa, y_true, y_pred, labels, sample_weight, weights=weights, zero_division=zero_division
    )


@_documented
def matthews_corrcoef(y_true, y_pred, *, labels=None, sample_weight=None):
    """Matthews correlation coefficient of labels; see :func:`matthews_corrcoef`.

    Parameters
    ----------
    {label_parameters}

    Returns
    -------
    float
        The multiclass MCC (0 when undefined).

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> round(matthews_corrcoef([0, 1, 2, 2], [0, 2, 2, 2]), 6)
    0.645497
    """
    return _score_labels(_counts_matthews_corrcoef, y_true, y_pred, labels, sample_weight)


def _precision_recall_fscore(counts, beta, average, zero_division):
    """Precision, recall, F-beta and support (None when averaged) of one counts matrix."""
    options = {"average": average, "zero_division": zero_division}
    return (
        precision(counts, **options),
        recall(counts, **options),
        fbeta(counts, beta=beta, **options),
        support(counts) if average is None else None,
    )


@_documented
def precision_recall_fscore_support(
    y_true, y_pred, *, labels=None, sample_weight=None, beta=1.0, average=None, zero_division="warn"
):
    """Precision, recall, F-beta score and support of labels, from one counts matrix.

    Parameters
    ----------
    {label_parameters}
    beta : float, default=1.0
        Non-negative weight of recall in the F score.
    average : {{"macro", "micro", "weighted", None}}, default=None
        How to combine the per-class values; None returns them.
    zero_division : {{"warn", 0.0, 1.0, np.nan}}, default="warn"
        Value of each ratio where its denominator is 0.

    Returns
    -------
    precision, recall, fbeta : float or ndarray of shape (m,)
        The three scores.
    support : ndarray of shape (m,) or None
        True samples per class (the sum of their weights with
        ``sample_weight``, as scikit-learn); None when ``average`` is not None.

    Raises
    ------
    {label_raises}

    Examples
    --------
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 2], [0, 1, 2, 2])
    >>> p.tolist(), r.tolist(), s.tolist()
    ([1.0, 1.0, 0.5], [1.0, 0.5, 1.0], [1, 2, 1])
    """
    for name, value in {"beta": beta, "average": average, "zero_division": zero_division}.items():
        _OPTION_CHECKS[name](value)
    _, counts, scale = _label_counts(y_true, y_pred, labels, sample_weight)
    *scores, class_support = _precision_recall_fscore(counts, beta, average, zero_division)
    return (*scores, None if class_support is None else scale.restore(class_support))


# --------------------------------------------------------------------------- report

_REPORT_HEADERS = ("precision", "recall", "f1-score", "support")


def _report_text(class_rows, average_rows, digits):
    """scikit-learn's classification report layout; rows are (name, p, r, f, support)."""
    width = max(max(len(row[0]) for row in class_rows), len("weighted avg"), digits)
    row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    accuracy_format = "{:>{width}s} " + " {:>9}" * 2 + " {:>9.{digits}f} {:>9}\n"
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
    y_true,
    y_pred,
    *,
    labels=None,
    target_names=None,
    sample_weight=None,
    digits=2,
    output_dict=False,
    zero_division="warn",
):
    """Text (or dict) report of precision, recall, F1 and support per class.

    The layout and values are scikit-learn's for single-label data: one row per
    class, then ``accuracy``, ``macro avg`` and ``weighted avg``. Everything is
    computed from a single counts matrix.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (m,), optional
        The classes, in the order of the rows; by default the sorted union of
        ``y_true`` and ``y_pred``.
    target_names : sequence of str of length m, optional
        Display names of the classes; by default ``str`` of the labels.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.
    digits : int, default=2
        Digits shown for the scores (text form only).
    output_dict : bool, default=False
        Return a dict ``{name: {"precision": ..., "recall": ..., "f1-score":
        ..., "support": ...}, "accuracy": float, ...}`` instead of text.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of each ratio where its denominator is 0.

    Returns
    -------
    str or dict
        The report.

    Raises
    ------
    ValueError
        For bad labels or weights (as :func:`confusion_matrix`), if
        ``target_names`` does not have one name per class, if ``digits`` is
        negative, or if ``zero_division`` is not an option.
    TypeError
        If labels mix strings and numbers, or ``digits`` is not an integer.

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
    zero_division = check_zero_division(zero_division)
    targets, counts, scale = _label_counts(y_true, y_pred, labels, sample_weight)
    names = (
        [str(label) for label in targets.classes] if target_names is None else [str(n) for n in target_names]
    )
    if len(names) != targets.classes.size:
        raise ValueError(f"target_names has {len(names)} names but there are {targets.classes.size} classes")
    *class_scores, class_support = _precision_recall_fscore(counts, 1.0, None, zero_division)
    per_class = (*class_scores, scale.restore(class_support))
    total = per_class[3].sum()
    class_rows = list(zip(names, *per_class))
    average_rows = [
        (name, *_precision_recall_fscore(counts, 1.0, average, zero_division)[:3], total)
        for name, average in [("accuracy", "micro"), ("macro avg", "macro"), ("weighted avg", "weighted")]
    ]
    if not output_dict:
        return _report_text(class_rows, average_rows, digits)
    report = {
        name: dict(zip(_REPORT_HEADERS, map(float, values))) for name, *values in class_rows + average_rows
    }
    report["accuracy"] = report["accuracy"]["precision"]
    return report


# --------------------------------------------------------------------------- score-based


def log_loss(
    y_true,
    y_score,
    *,
    normalize=True,
    labels=None,
    sample_weight=None,
    eps="auto",
    normalize_rows=False,
    from_logits=False,
):
    """Cross-entropy: the mean (or sum) of -log p(true class), p clipped to [eps, 1 - eps].

    Equal to ``sklearn.metrics.log_loss``, including its ``normalize``: the
    mean by default, the (weighted) sum with ``normalize=False``. scikit-learn
    clips at the machine epsilon of the scores' dtype, our ``eps="auto"``; it
    computes in that dtype too, polyroc in float64, so float32 and float16
    scores agree with it to their own precision.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, m)
        Probabilities, one column per class in the order of ``labels`` (by
        default the sorted distinct values of ``y_true``). Rows must sum to 1.
    normalize : bool, default=True
        Return the (weighted) mean loss per sample; ``False`` returns the sum
        of the per-sample losses (each times its weight), as scikit-learn.
    labels : array-like of shape (m,), optional
        The classes, in the order of the columns.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.
    eps : "auto" or float, default="auto"
        Clipping bound in (0, 0.5); "auto" is the machine epsilon of the
        floating dtype of ``y_score`` (float64 for integer scores).
    normalize_rows : bool, default=False
        Divide each row of ``y_score`` by its sum first (for scores that are
        proportional to probabilities).
    from_logits : bool, default=False
        Treat ``y_score`` as logits and map the rows through softmax.

    Returns
    -------
    float
        The (weighted) mean cross-entropy in nats, or the (weighted) sum with
        ``normalize=False``.

    Raises
    ------
    ValueError
        For bad labels, weights or scores (NaN, negative, rows not summing to
        1, wrong number of columns), ``eps`` outside (0, 0.5), or
        ``normalize`` not a bool.
    TypeError
        If ``y_score`` is not numeric or ``eps`` is not a number.

    Examples
    --------
    >>> P = [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.3, 0.5]]
    >>> round(log_loss([0, 1, 2], P), 6), round(log_loss([0, 1, 2], P, normalize=False), 6)
    (0.34055, 1.021651)
    >>> round(log_loss([0, 1], [[2.0, 2.0], [1.0, 3.0]], normalize_rows=True), 6)
    0.490415
    """
    check_option("normalize", normalize, (True, False))
    scores = as_array("y_score", y_score)
    auto = isinstance(eps, str) and eps == "auto"
    eps = _machine_epsilon(scores.dtype) if auto else check_real("eps", eps, low=0.0, high=0.5)
    targets = check_scores(
        y_true,
        scores,
        labels=labels,
        sample_weight=sample_weight,
        normalize_rows=normalize_rows,
        from_logits=from_logits,
    )
    losses = _sample_log_losses(targets.y_true, targets.y_score, eps)
    return _mean_or_sum(losses, scale_weights(targets.sample_weight), normalize)


def _machine_epsilon(dtype):
    """Machine epsilon of a floating dtype; float64's for any other dtype."""
    return float(np.finfo(dtype if dtype.kind == "f" else np.float64).eps)


def _mean_or_sum(values, scale, normalize=True):
    """(Weighted) mean of per-sample values, or their (weighted) sum in the user's units.

    ``scale`` holds the weights scaled by a power of two
    (:func:`polyroc._validation.scale_weights`): the mean does not depend on
    it, and the sum is scaled back exactly. Same arithmetic as scikit-learn
    (a dot product for the weighted sum).
    """
    if normalize:
        return float(np.average(values, weights=scale.weights))
    if scale.weights is None:
        return float(np.sum(values))
    return float(scale.restore(np.dot(values, scale.weights)))


def _sample_log_losses(y, scores, eps):
    """-log p(true class) of each sample (encoded ``y``), probabilities clipped to [eps, 1 - eps]."""
    true_probability = scores[np.arange(y.size), y]
    return -np.log(np.clip(true_probability, eps, 1 - eps))


def brier_score_loss(
    y_true, y_score, *, labels=None, sample_weight=None, normalize_rows=False, from_logits=False
):
    """Multiclass Brier score: the mean over samples of Σ_k (p_k - y_k)², y one-hot.

    Ranges over [0, 2]; this is ``sklearn.metrics.brier_score_loss`` with
    ``scale_by_half=False`` (its default halves the value for two classes).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, m)
        Probabilities, one column per class in the order of ``labels`` (by
        default the sorted distinct values of ``y_true``). Rows must sum to 1.
    labels : array-like of shape (m,), optional
        The classes, in the order of the columns.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.
    normalize_rows : bool, default=False
        Divide each row of ``y_score`` by its sum first.
    from_logits : bool, default=False
        Treat ``y_score`` as logits and map the rows through softmax.

    Returns
    -------
    float
        The (weighted) mean squared distance to the one-hot truth.

    Raises
    ------
    ValueError
        For bad labels, weights or scores (NaN, negative, rows not summing to
        1, wrong number of columns).
    TypeError
        If ``y_score`` is not numeric.

    Examples
    --------
    >>> round(brier_score_loss([0, 1], [[0.8, 0.2], [0.4, 0.6]]), 6)
    0.2
    """
    targets = check_scores(
        y_true,
        y_score,
        labels=labels,
        sample_weight=sample_weight,
        normalize_rows=normalize_rows,
        from_logits=from_logits,
    )
    losses = _sample_brier_losses(targets.y_true, targets.y_score)
    return _mean_or_sum(losses, scale_weights(targets.sample_weight))


def _sample_brier_losses(y, scores):
    """Squared distance of each score row to the one-hot truth (encoded ``y``)."""
    errors = scores.copy()
    errors[np.arange(y.size), y] -= 1.0
    return (errors**2).sum(axis=1)


def top_k_accuracy_score(y_true, y_score, *, k=2, labels=None, sample_weight=None):
    """Fraction of samples whose true class is among the k highest scores.

    Ties are broken as in ``sklearn.metrics.top_k_accuracy_score``: among equal
    scores the class with the higher index ranks first. Scores need not be
    probabilities (logits or decision values work).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, m)
        Scores, one column per class in the order of ``labels`` (by default the
        sorted distinct values of ``y_true``).
    k : int, default=2
        Number of top-ranked classes that count as a hit.
    labels : array-like of shape (m,), optional
        The classes, in the order of the columns.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative sample weights.

    Returns
    -------
    float
        The (weighted) top-k accuracy.

    Raises
    ------
    ValueError
        For bad labels, weights or scores (NaN, wrong number of columns), or
        ``k`` < 1.
    TypeError
        If ``k`` is not an integer or ``y_score`` is not numeric.

    Warns
    -----
    UndefinedMetricWarning
        If ``k`` >= m (every sample is a hit), as scikit-learn does.

    Examples
    --------
    >>> scores = [[0.5, 0.2, 0.3], [0.3, 0.4, 0.3], [0.2, 0.4, 0.4], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score([0, 1, 2, 2], scores, k=1), top_k_accuracy_score([0, 1, 2, 2], scores, k=2)
    (0.75, 0.75)
    """
    k = check_positive_int("k", k)
    targets = check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight, require_simplex=False)
    scores, y = targets.y_score, targets.y_true
    if k >= scores.shape[1]:
        warnings.warn(
            f"k ({k}) >= the number of classes ({scores.shape[1]}) gives a perfect score",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    return _mean_or_sum(_sample_top_k_hits(y, scores, k), scale_weights(targets.sample_weight))


def _sample_top_k_hits(y, scores, k):
    """Whether each sample's true class (encoded ``y``) ranks among its k highest scores.

    Among equal scores the class with the higher index ranks first, as scikit-learn.
    """
    true_score = scores[np.arange(y.size), y][:, None]
    tied_ahead = (scores == true_score) & (np.arange(scores.shape[1]) > y[:, None])
    rank = (scores > true_score).sum(axis=1) + tied_ahead.sum(axis=1)
    return rank < k
