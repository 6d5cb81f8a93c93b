"""One-vs-rest label metrics.

Precision, recall, F-scores and support, specificity, Youden's J and Heidke's skill score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc import counts as _counts
from polyroc._engine.numeric import nan_average, zero_division_value
from polyroc._validation import (
    LabelPair,
    check_label_pair_sklearn,
    check_labels_argument_sklearn,
    check_option,
    check_zero_division,
)
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.metrics._multilabel import delegated
from polyroc.metrics._tables import ovr_tables, support_dtype

AVERAGE_OPTIONS = (None, "micro", "macro", "weighted", "samples", "binary")


PRF_METRICS = ("precision", "recall", "f-score")


def _check_averaging(average, pos_label, pair: LabelPair, labels):
    """scikit-learn's set-wise label checks: the labels scored (None: all present)."""
    check_labels_argument_sklearn(labels)
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
    return check_labels_argument_sklearn(labels)


def _positive_class(metric: Callable, tables: np.ndarray, **options) -> np.ndarray:
    """A counts metric of the positive class of each 2x2 table, NaN where its ratio is 0/0."""
    return metric(tables, average=None, zero_division=np.nan, **options)[..., 1]


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
    average: Literal["micro", "macro", "weighted", "samples", "binary"] | None = None,
    warn_for: Sequence[str] = PRF_METRICS,
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
) -> tuple[float | np.ndarray, float | np.ndarray, float | np.ndarray, np.ndarray | None]:
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
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator" or average == "samples":
        return delegated(
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
    tables, support = ovr_tables(pair, labels)
    scores = prf_of_tables(tables, support, beta, average, warn_for, zero_division)
    if average is not None:
        return (*scores, None)
    return (*scores, support.astype(support_dtype(pair, sample_weight)))


def prf_of_tables(tables: np.ndarray, support: np.ndarray, beta, average, warn_for, zero_division) -> list:
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
    average: Literal["micro", "macro", "weighted", "samples", "binary"] | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
    average: Literal["micro", "macro", "weighted", "samples", "binary"] | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
    average: Literal["micro", "macro", "weighted", "samples", "binary"] | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
    average: Literal["micro", "macro", "weighted", "samples", "binary"] | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator":
        raise ValueError(f"multilabel-indicator targets are not supported by {metric.__name__}")
    labels = _check_averaging(average, pos_label, pair, labels)
    tables, support = ovr_tables(pair, labels)
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
    average: Literal["micro", "macro", "weighted", "binary"] | None = "macro",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
    average: Literal["micro", "macro", "weighted", "binary"] | None = "macro",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
    average: Literal["micro", "macro", "weighted", "binary"] | None = "macro",
    sample_weight: ArrayLike | None = None,
    zero_division: Literal["warn"] | float = "warn",
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
