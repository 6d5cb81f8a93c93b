"""Confusion metrics on counts: one function per metric, vectorised over leading axes.

Every metric here takes confusion counts of shape (..., m, m) with
``counts[..., true, predicted]`` and returns one value per leading index: a
batch of M rules gives M values in one call. The label-level functions of
:mod:`polyroc.metrics` (scikit-learn's names and meanings) count once and call
these.

One-vs-rest metrics (precision, recall, F-beta, specificity, Youden's J, the
Heidke skill score) are ratios of the per-class TP, FP, FN and TN. ``average``
chooses how the m per-class values are combined:

- ``None``: the per-class values, shape (..., m);
- ``"macro"``: their plain mean;
- ``"weighted"``: their mean weighted by the support (true samples per class);
- ``"micro"``: the ratio of the TP, FP, FN and TN pooled over classes (for
  single-label data micro precision = micro recall = micro F = accuracy).

A ratio whose denominator is 0 takes the ``zero_division`` value: ``"warn"``
gives 0.0 and an :class:`~polyroc.exceptions.UndefinedMetricWarning`; 0.0, 1.0
or ``np.nan`` give that value silently, and NaN values are left out of the
macro and weighted means, as in scikit-learn.

:data:`METRICS` names the metrics usable for threshold tuning;
:func:`get_metric` resolves a name or a callable.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from types import MappingProxyType
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.counts import per_class_counts
from polyroc._engine.numeric import divide, finish, nan_average
from polyroc._validation import check_counts, check_zero_division
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.exceptions import UndefinedMetricWarning

__all__ = [
    "METRICS",
    "accuracy",
    "balanced_accuracy",
    "cohen_kappa",
    "f1",
    "fbeta",
    "get_metric",
    "heidke_skill",
    "matthews_corrcoef",
    "metric_name",
    "precision",
    "recall",
    "specificity",
    "support",
    "youden",
]

AVERAGE_OPTIONS = ("macro", "micro", "weighted", None)
KAPPA_WEIGHTS = (None, "linear", "quadratic")
NORMALIZE_OPTIONS = (None, "true", "pred", "all")

#: The ``average`` options other than None (no average: one value per class).
Average = Literal["macro", "micro", "weighted"]


# --------------------------------------------------------------------------- helpers


#: The declared ``average`` option of the one-vs-rest metrics.
_AVERAGE = {"average": [Options(AVERAGE_OPTIONS)]}


def _float_counts(counts):
    return check_counts(counts).astype(np.float64, copy=False)


def _ovr_score(counts, ratio, *, average, zero_division, undefined):
    """Average the one-vs-rest ratio ``ratio(tp, fp, fn, tn) -> (num, den)`` over classes (``average`` checked)."""
    zero_division = check_zero_division(zero_division)
    tp, fp, fn, tn = per_class_counts(_float_counts(counts))
    class_support = tp + fn
    if average == "micro":
        tp, fp, fn, tn = (a.sum(axis=-1, keepdims=True) for a in (tp, fp, fn, tn))
    values = divide(*ratio(tp, fp, fn, tn), zero_division, undefined)
    if average == "micro":
        values = values[..., 0]
    elif average == "macro":
        values = nan_average(values)
    elif average == "weighted":
        values = nan_average(values, class_support)
    return finish(values)


def _precision_ratio(tp, fp, fn, tn):
    return tp, tp + fp


def _recall_ratio(tp, fp, fn, tn):
    return tp, tp + fn


def _specificity_ratio(tp, fp, fn, tn):
    return tn, tn + fp


def _fbeta_ratio(tp, fp, fn, tn, *, beta2):
    return (1 + beta2) * tp, beta2 * (tp + fn) + (tp + fp)


def _youden_ratio(tp, fp, fn, tn):
    return tp * tn - fp * fn, (tp + fn) * (fp + tn)


def _heidke_ratio(tp, fp, fn, tn):
    return 2 * (tp * tn - fp * fn), (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)


# --------------------------------------------------------------------------- counts metrics


def support(counts: ArrayLike) -> np.ndarray:
    """Number (or weight) of true samples of each class: the row sums of the counts.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.

    Returns
    -------
    ndarray of shape (..., m)
        The support of each class, in the dtype of ``counts``.

    Raises
    ------
    ValueError
        If ``counts`` is not of shape (..., m, m) with m >= 2, or holds negative,
        NaN or infinite values.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    polyroc.metrics.confusion_matrix : Counts of labels, the input of every function here.
    recall : The true positives divided by the support.

    Examples
    --------
    >>> support([[8, 1, 1], [2, 6, 0], [1, 1, 7]]).tolist()
    [10, 8, 9]
    """
    return check_counts(counts).sum(axis=-1)


def accuracy(counts: ArrayLike) -> float | np.ndarray:
    """Fraction of correct predictions: trace / total.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.

    Returns
    -------
    float or ndarray of shape (...)
        The accuracy; NaN for an all-zero counts matrix.

    Raises
    ------
    ValueError
        If ``counts`` is not of shape (..., m, m) with m >= 2, or holds negative,
        NaN or infinite values.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    balanced_accuracy : The mean recall, insensitive to class imbalance.
    polyroc.metrics.accuracy_score : The same ratio from labels.

    Examples
    --------
    >>> round(accuracy([[8, 1, 1], [2, 6, 0], [1, 1, 7]]), 6)
    0.777778
    >>> accuracy([[[1, 0], [0, 1]], [[0, 1], [1, 0]]])
    array([1., 0.])
    """
    table = _float_counts(counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        return finish(np.trace(table, axis1=-2, axis2=-1) / table.sum(axis=(-2, -1)))


@validate_params(_AVERAGE)
def precision(
    counts: ArrayLike, *, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """Precision TP / (TP + FP): the fraction of the predictions of a class that are right.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values (see the module notes); None
        returns them.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a class never predicted (TP + FP = 0); ``"warn"`` gives 0.0
        and an ``UndefinedMetricWarning``.

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        The precision.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array (shape (..., m, m) with
        m >= 2, non-negative, finite), or ``average`` or ``zero_division`` is
        not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    recall : The fraction of each class that is found.
    f1 : The harmonic mean of precision and recall.
    polyroc.metrics.precision_score : The same ratio from labels.

    Examples
    --------
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> precision(counts, average=None).round(6)
    array([0.727273, 0.75    , 0.875   ])
    >>> round(precision(counts), 6)
    0.784091
    """
    return _ovr_score(
        counts,
        _precision_ratio,
        average=average,
        zero_division=zero_division,
        undefined="Precision is ill-defined for classes with no predicted samples",
    )


@validate_params(_AVERAGE)
def recall(
    counts: ArrayLike, *, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """Recall (sensitivity, TPR) TP / (TP + FN): the fraction of a class that is found.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a class with no true samples (TP + FN = 0).

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        The recall.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, or ``average`` or
        ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    precision : The fraction of each class's predictions that are right.
    specificity : The recall of the other classes.
    balanced_accuracy : The macro recall over the classes with true samples.
    polyroc.metrics.recall_score : The same ratio from labels.

    Examples
    --------
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> recall(counts, average=None).round(6)
    array([0.8     , 0.75    , 0.777778])
    >>> round(recall(counts, average="weighted"), 6)
    0.777778
    """
    return _ovr_score(
        counts,
        _recall_ratio,
        average=average,
        zero_division=zero_division,
        undefined="Recall is ill-defined for classes with no true samples",
    )


@validate_params(_AVERAGE)
def specificity(
    counts: ArrayLike, *, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """Specificity (TNR) TN / (TN + FP): the fraction of the other classes not predicted as the class.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values; None returns them. ``"weighted"``
        weights by the support of each class, like the other metrics.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a class that every sample belongs to (TN + FP = 0).

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        The specificity.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, or ``average`` or
        ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    recall : The true positive rate.
    youden : Recall + specificity - 1.
    polyroc.metrics.specificity_score : The same ratio from labels.

    Examples
    --------
    >>> specificity([[8, 1, 1], [2, 6, 0], [1, 1, 7]], average=None).round(6)
    array([0.823529, 0.894737, 0.944444])
    """
    return _ovr_score(
        counts,
        _specificity_ratio,
        average=average,
        zero_division=zero_division,
        undefined="Specificity is ill-defined for classes with no negative samples",
    )


@validate_params({"beta": [Interval("real", 0, None, closed="left")], **_AVERAGE})
def fbeta(
    counts: ArrayLike, *, beta: float, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """F-beta score (1 + b²)·TP / ((1 + b²)·TP + b²·FN + FP): recall weighted b times precision.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    beta : float
        Non-negative weight of recall; 1 gives F1 and 0 gives the precision.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values; None returns them. Macro F is the
        mean of the per-class F values, not the F of macro precision and recall.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a class neither present nor predicted (TP + FP + FN = 0).
        A class with precision or recall undefined but not both gets F = 0.

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        The F-beta score.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, ``beta`` is negative or not
        finite, or ``average`` or ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric or ``beta`` is not a real number.

    See Also
    --------
    f1 : The case beta = 1.
    precision, recall : The two ratios it combines.
    polyroc.metrics.fbeta_score : The same score from labels.

    Examples
    --------
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> fbeta(counts, beta=2.0, average=None).round(6)
    array([0.784314, 0.75    , 0.795455])
    """
    return _fbeta(counts, float(beta) ** 2, average, zero_division)


def _fbeta(counts, beta2, average, zero_division):
    """F-beta of checked options: ``beta2`` is beta squared."""
    return _ovr_score(
        counts,
        functools.partial(_fbeta_ratio, beta2=beta2),
        average=average,
        zero_division=zero_division,
        undefined="F-score is ill-defined for classes with no true nor predicted samples",
    )


@validate_params(_AVERAGE)
def f1(
    counts: ArrayLike, *, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """F1 score 2·TP / (2·TP + FP + FN), the harmonic mean of precision and recall.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a class neither present nor predicted (TP + FP + FN = 0).

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        The F1 score.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, or ``average`` or
        ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    fbeta : Recall weighted beta times precision.
    precision, recall : The two ratios it combines.
    polyroc.metrics.f1_score : The same score from labels.

    Examples
    --------
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> f1(counts, average=None).round(6)
    array([0.761905, 0.75    , 0.823529])
    >>> round(f1(counts), 6), round(f1(counts, average="weighted"), 6)
    (0.778478, 0.778919)
    """
    return _fbeta(counts, 1.0, average, zero_division)


@validate_params(_AVERAGE)
def youden(
    counts: ArrayLike, *, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """Youden's J (true skill statistic, TSS) per class: recall + specificity - 1.

    Equal to (TP·TN - FP·FN) / ((TP + FN)·(FP + TN)) on the one-vs-rest table.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values; None returns them. ``"micro"`` is
        J of the one-vs-rest tables summed over classes.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value for a class with no true samples or no negative samples.

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        Youden's J, in [-1, 1].

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, or ``average`` or
        ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    recall, specificity : The two rates it combines.
    heidke_skill : Another skill score of the one-vs-rest tables.
    polyroc.metrics.youden_score : The same score from labels.

    References
    ----------
    Youden, W. J. (1950). Index for rating diagnostic tests. Cancer 3, 32-35.
    doi:10.1002/1097-0142(1950)3:1<32::AID-CNCR2820030106>3.0.CO;2-3

    Examples
    --------
    >>> youden([[8, 1, 1], [2, 6, 0], [1, 1, 7]], average=None).round(6)
    array([0.623529, 0.644737, 0.722222])
    """
    return _ovr_score(
        counts,
        _youden_ratio,
        average=average,
        zero_division=zero_division,
        undefined="Youden's J is ill-defined for classes with no true or no negative samples",
    )


@validate_params(_AVERAGE)
def heidke_skill(
    counts: ArrayLike, *, average: Average | None = "macro", zero_division: str | float = "warn"
) -> float | np.ndarray:
    """Heidke skill score per class from its one-vs-rest 2×2 table.

    HSS = 2(TP·TN - FP·FN) / ((TP + FN)(FN + TN) + (TP + FP)(FP + TN)): the
    agreement beyond chance (Cohen's kappa of the one-vs-rest table).

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    average : {"macro", "micro", "weighted", None}, default="macro"
        How to combine the per-class values; None returns them.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value where the denominator is 0 (a class absent from both truth and
        predictions, or present and predicted in every sample).

    Returns
    -------
    float or ndarray of shape (...) or (..., m)
        The Heidke skill score, at most 1.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, or ``average`` or
        ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    cohen_kappa : Kappa of the whole m x m table.
    youden : Another skill score of the one-vs-rest tables.
    polyroc.metrics.heidke_skill_score : The same score from labels.

    References
    ----------
    Heidke, P. (1926). Berechnung des Erfolges und der Güte der
    Windstärkevorhersagen im Sturmwarnungsdienst. Geografiska Annaler 8, 301-349.

    Examples
    --------
    >>> heidke_skill([[8, 1, 1], [2, 6, 0], [1, 1, 7]], average=None).round(6)
    array([0.610951, 0.644737, 0.742857])
    """
    return _ovr_score(
        counts,
        _heidke_ratio,
        average=average,
        zero_division=zero_division,
        undefined="Heidke skill score is ill-defined for classes with a zero denominator",
    )


def _balanced_accuracy(counts, adjusted=False, *, warn=True):
    counts = _float_counts(counts)
    class_support = counts.sum(axis=-1)
    present = class_support > 0
    if warn and not np.all(present):
        _warnings.warn(
            "balanced accuracy ignores classes with no true samples",
            UndefinedMetricWarning,
        )
    tp = np.diagonal(counts, axis1=-2, axis2=-1)
    n_present = present.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(present, tp / np.where(present, class_support, 1.0), 0.0).sum(axis=-1)
        score = score / n_present
        if adjusted:
            chance = 1.0 / n_present
            score = np.where(n_present > 1, (score - chance) / (1 - chance), np.nan)
    return finish(score)


def balanced_accuracy(counts: ArrayLike, *, adjusted: bool = False) -> float | np.ndarray:
    """Balanced accuracy: the mean recall over the classes that have true samples.

    Classes with no true samples are left out, with a warning, as in
    scikit-learn. With ``adjusted=True`` the score is rescaled so that chance
    (1 / number of classes present) gives 0 and a perfect rule 1.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    adjusted : bool, default=False
        Rescale for chance.

    Returns
    -------
    float or ndarray of shape (...)
        The balanced accuracy; NaN if no class has true samples (or, adjusted,
        fewer than two).

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array.
    TypeError
        If ``counts`` is not numeric.

    Warns
    -----
    UndefinedMetricWarning
        If some class has no true samples.

    See Also
    --------
    accuracy : The plain fraction of correct predictions.
    recall : The per-class recalls it averages.
    polyroc.metrics.balanced_accuracy_score : The same score from labels.

    References
    ----------
    Brodersen, K. H., Ong, C. S., Stephan, K. E. & Buhmann, J. M. (2010). The
    balanced accuracy and its posterior distribution. Proceedings of the 20th
    International Conference on Pattern Recognition, 3121-3124.
    doi:10.1109/ICPR.2010.764

    Examples
    --------
    >>> balanced_accuracy([[1000, 0, 0], [50, 0, 0], [10, 0, 0]])
    0.3333333333333333
    >>> balanced_accuracy([[1000, 0, 0], [50, 0, 0], [10, 0, 0]], adjusted=True)
    0.0
    """
    return _balanced_accuracy(counts, adjusted)


def _kappa_weight_matrix(n_classes, weights):
    index = np.arange(n_classes, dtype=np.float64)
    distance = index[:, None] - index[None, :]
    if weights == "linear":
        return np.abs(distance)
    if weights == "quadratic":
        return distance**2
    return (distance != 0).astype(np.float64)


@validate_params({"weights": [Options(KAPPA_WEIGHTS)]})
def cohen_kappa(
    counts: ArrayLike, *, weights: str | None = None, zero_division: str | float = "warn"
) -> float | np.ndarray:
    """Cohen's kappa (p_o - p_e) / (1 - p_e): agreement beyond chance.

    With ``weights`` the disagreements are weighted by the distance between
    the class indices (ordinal classes): kappa = 1 - Σ w·C / Σ w·E, E being the
    counts expected from the marginals.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    weights : {None, "linear", "quadratic"}, default=None
        Disagreement weights: none (0/1), ``|i - j|`` or ``(i - j)²``.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value when kappa is undefined (chance agreement p_e = 1, e.g. a single
        class in both truth and predictions).

    Returns
    -------
    float or ndarray of shape (...)
        Cohen's kappa, at most 1.

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array, or ``weights`` or
        ``zero_division`` is not one of its options.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    matthews_corrcoef : Another chance-corrected agreement of the whole table.
    heidke_skill : Kappa of each class's one-vs-rest table.
    polyroc.metrics.cohen_kappa_score : The same kappa from labels.

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. Educational
    and Psychological Measurement 20, 37-46. doi:10.1177/001316446002000104

    Cohen, J. (1968). Weighted kappa: nominal scale agreement with provision for
    scaled disagreement or partial credit. Psychological Bulletin 70, 213-220.
    doi:10.1037/h0026256

    Examples
    --------
    >>> from fractions import Fraction
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> Fraction(cohen_kappa(counts)).limit_denominator(1000)
    Fraction(107, 161)
    >>> round(cohen_kappa(counts, weights="quadratic"), 6)
    0.682353
    """
    zero_division = check_zero_division(zero_division)
    table = _float_counts(counts)
    weight_matrix = _kappa_weight_matrix(table.shape[-1], weights)
    true_totals, predicted_totals = table.sum(axis=-1), table.sum(axis=-2)
    total = true_totals.sum(axis=-1)
    observed = (weight_matrix * table).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = np.einsum("...i,ij,...j->...", true_totals, weight_matrix, predicted_totals) / total
    expected = np.where(total == 0, 0.0, expected)
    undefined = "Cohen's kappa is ill-defined when the chance agreement is 1 (a single class)"
    return finish(divide(expected - observed, expected, zero_division, undefined))


def matthews_corrcoef(counts: ArrayLike) -> float | np.ndarray:
    """Matthews correlation coefficient, multiclass (Gorodkin's R_K).

    (c·s - Σ p_k t_k) / sqrt((s² - Σ p_k²)(s² - Σ t_k²)), with s the total,
    c the trace, p the predicted and t the true totals per class. It is 0 when
    the denominator is 0 (one class only in the truth or in the predictions),
    as in scikit-learn.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.

    Returns
    -------
    float or ndarray of shape (...)
        The MCC, in [-1, 1].

    Raises
    ------
    ValueError
        If ``counts`` is not a valid counts array.
    TypeError
        If ``counts`` is not numeric.

    See Also
    --------
    cohen_kappa : Another chance-corrected agreement of the whole table.
    polyroc.metrics.matthews_corrcoef : The same coefficient from labels.

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
    >>> round(matthews_corrcoef([[8, 1, 1], [2, 6, 0], [1, 1, 7]]), 6)
    0.665981
    >>> matthews_corrcoef([[90, 0, 0], [5, 0, 0], [5, 0, 0]])
    0.0
    """
    table = _float_counts(counts)
    true_totals, predicted_totals = table.sum(axis=-1), table.sum(axis=-2)
    total = true_totals.sum(axis=-1)
    correct = np.trace(table, axis1=-2, axis2=-1)
    covariance = correct * total - (true_totals * predicted_totals).sum(axis=-1)
    variances = (total**2 - (predicted_totals**2).sum(axis=-1)) * (total**2 - (true_totals**2).sum(axis=-1))
    degenerate = variances == 0
    return finish(np.where(degenerate, 0.0, covariance / np.sqrt(np.where(degenerate, 1.0, variances))))


# --------------------------------------------------------------------------- registry


def _registry():
    """The named metrics: their options are fixed and valid, so they call the undeclared functions (scored per
    chunk of thresholds, they skip the per-call check)."""
    quiet = {"zero_division": 0.0}
    kappa = inspect.unwrap(cohen_kappa)
    metrics = {
        "accuracy": accuracy,
        "balanced_accuracy": functools.partial(_balanced_accuracy, warn=False),
        "cohen_kappa": functools.partial(kappa, **quiet),
        "cohen_kappa_linear": functools.partial(kappa, weights="linear", **quiet),
        "cohen_kappa_quadratic": functools.partial(kappa, weights="quadratic", **quiet),
        "matthews_corrcoef": matthews_corrcoef,
    }
    for name, metric in [
        ("precision", precision),
        ("recall", recall),
        ("f1", f1),
        ("specificity", specificity),
        ("youden", youden),
        ("heidke_skill", heidke_skill),
    ]:
        for average in ("macro", "micro", "weighted"):
            metrics[f"{name}_{average}"] = functools.partial(inspect.unwrap(metric), average=average, **quiet)
    aliases = {"mcc": "matthews_corrcoef", "tss": "youden_macro", "hss": "heidke_skill_macro"}
    metrics.update({alias: metrics[name] for alias, name in aliases.items()})
    return MappingProxyType(dict(sorted(metrics.items())))


#: Metrics usable by name for tuning: name -> callable(counts (..., m, m)) -> (...).
#: None of them warns: undefined ratios are 0.0.
METRICS = _registry()


def metric_name(metric: str | Callable) -> str:
    """The name of a metric given as a name or as a callable on counts (its ``__name__``).

    Parameters
    ----------
    metric : str or callable
        A metric name, or a callable on counts.

    Returns
    -------
    str
        ``metric`` itself for a string, else the callable's ``__name__`` (its
        ``repr`` when it has none).

    Raises
    ------
    Nothing: any object has a name or a ``repr``.

    See Also
    --------
    get_metric : The metric a name stands for.
    METRICS : The registered names.

    Examples
    --------
    >>> metric_name("f1_macro"), metric_name(accuracy)
    ('f1_macro', 'accuracy')
    """
    return metric if isinstance(metric, str) else getattr(metric, "__name__", repr(metric))


@validate_params({"metric": [str, "callable"]})
def get_metric(metric: str | Callable) -> Callable:
    """Return the counts metric named ``metric`` (or ``metric`` itself if callable).

    Parameters
    ----------
    metric : str or callable
        A key of :data:`METRICS` (e.g. ``"f1_macro"``, ``"mcc"``), or a
        callable taking counts of shape (..., m, m) and returning shape (...).

    Returns
    -------
    callable
        The metric, taking counts (..., m, m) and returning values (...).

    Raises
    ------
    ValueError
        If ``metric`` is a string naming no registered metric (the message
        lists the valid names).
    TypeError
        If ``metric`` is neither a string nor callable.

    See Also
    --------
    METRICS : The registered names and their metrics.
    metric_name : The name of a metric given as a name or a callable.
    polyroc.intervals.posterior_interval : A metric of predictions with its posterior interval.
    polyroc.resampling.paired_rule_scores : A metric of several rules with bootstrap intervals.

    Examples
    --------
    >>> get_metric("f1_micro")([[[8, 1, 1], [2, 6, 0], [1, 1, 7]]]).round(6)
    array([0.777778])
    """
    if callable(metric):
        return metric
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}; valid names are: {', '.join(METRICS)}")
    return METRICS[metric]
