"""Confusion-based metrics on counts, their label wrappers, and score-based losses.

Every confusion metric is written once, on a counts array of shape (..., m, m)
with ``counts[..., true, predicted]``, and is vectorised over the leading axes:
a batch of M rules gives M values in one call. The label wrappers
(``precision_score`` and friends, with scikit-learn's signatures) validate the
labels, build one counts matrix and call the counts metric.

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
macro and weighted means. This follows scikit-learn exactly, so values agree
with it when it is given ``labels=`` all classes.
"""

from __future__ import annotations

import functools
import warnings
from types import MappingProxyType
from typing import NamedTuple

import numpy as np

from polyroc._counts import confusion_counts, per_class_counts
from polyroc._validation import (
    ScaledWeights,
    Targets,
    as_array,
    check_counts,
    check_option,
    check_positive_int,
    check_real,
    check_scores,
    check_targets,
    check_zero_division,
    scale_weights,
)
from polyroc.exceptions import UndefinedMetricWarning

__all__ = [
    "COUNTS_METRICS",
    "accuracy",
    "accuracy_score",
    "balanced_accuracy",
    "balanced_accuracy_score",
    "brier_score",
    "classification_report",
    "cohen_kappa",
    "cohen_kappa_score",
    "confusion_matrix",
    "f1",
    "f1_score",
    "fbeta",
    "fbeta_score",
    "get_counts_metric",
    "heidke_skill",
    "heidke_skill_score",
    "log_loss",
    "matthews_corrcoef",
    "matthews_corrcoef_score",
    "metric_name",
    "precision",
    "precision_recall_fscore_support",
    "precision_score",
    "recall",
    "recall_score",
    "specificity",
    "specificity_score",
    "support",
    "top_k_accuracy",
    "youden",
    "youden_score",
]

AVERAGE_OPTIONS = ("macro", "micro", "weighted", None)
KAPPA_WEIGHTS = (None, "linear", "quadratic")
NORMALIZE_OPTIONS = (None, "true", "pred", "all")


# --------------------------------------------------------------------------- helpers


def _check_average(average):
    return check_option("average", average, AVERAGE_OPTIONS)


def _check_kappa_weights(weights):
    return check_option("weights", weights, KAPPA_WEIGHTS)


def _check_beta(beta):
    return check_real("beta", beta, low=0.0, closed="low")


#: The checks of the options a label wrapper passes on, run before any counting.
_OPTION_CHECKS = {
    "average": _check_average,
    "zero_division": check_zero_division,
    "beta": _check_beta,
    "weights": _check_kappa_weights,
    "adjusted": bool,  # any value is taken for its truth
}


def _finish(values):
    """A Python float for a single value, else the array."""
    return float(values) if values.ndim == 0 else values


def _float_counts(counts):
    return check_counts(counts).astype(np.float64, copy=False)


def _zero_division_value(zero_division):
    return {"warn": 0.0, "nan": np.nan}.get(zero_division, zero_division)


def _divide(numerator, denominator, zero_division, undefined):
    """numerator / denominator, with ``zero_division`` where the denominator is 0.

    ``undefined`` describes the 0/0 case for the warning (``zero_division="warn"``).
    """
    mask = denominator == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        values = numerator / np.where(mask, 1.0, denominator)
    if not np.any(mask):
        return values
    if zero_division == "warn":
        warnings.warn(
            f"{undefined}; it is set to 0.0 there (pass zero_division to choose the value)",
            UndefinedMetricWarning,
            stacklevel=4,
        )
    return np.where(mask, _zero_division_value(zero_division), values)


def _nan_average(values, weights=None):
    """Mean of the last axis ignoring NaN (weighted, unless the weights sum to 0)."""
    valid = ~np.isnan(values)
    used = valid if weights is None else np.where(valid, weights, 0.0)
    total = used.sum(axis=-1, keepdims=True)
    used = np.where(total == 0, valid, used)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.where(valid, values, 0.0) * used).sum(axis=-1) / used.sum(axis=-1)


def _ovr_score(counts, ratio, *, average, zero_division, undefined):
    """Average the one-vs-rest ratio ``ratio(tp, fp, fn, tn) -> (num, den)`` over classes."""
    average = _check_average(average)
    zero_division = check_zero_division(zero_division)
    tp, fp, fn, tn = per_class_counts(_float_counts(counts))
    class_support = tp + fn
    if average == "micro":
        tp, fp, fn, tn = (a.sum(axis=-1, keepdims=True) for a in (tp, fp, fn, tn))
    values = _divide(*ratio(tp, fp, fn, tn), zero_division, undefined)
    if average == "micro":
        values = values[..., 0]
    elif average == "macro":
        values = _nan_average(values)
    elif average == "weighted":
        values = _nan_average(values, class_support)
    return _finish(values)


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


def support(counts):
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

    Examples
    --------
    >>> support([[8, 1, 1], [2, 6, 0], [1, 1, 7]]).tolist()
    [10, 8, 9]
    """
    return check_counts(counts).sum(axis=-1)


def accuracy(counts):
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

    Examples
    --------
    >>> round(accuracy([[8, 1, 1], [2, 6, 0], [1, 1, 7]]), 6)
    0.777778
    >>> accuracy([[[1, 0], [0, 1]], [[0, 1], [1, 0]]])
    array([1., 0.])
    """
    counts = _float_counts(counts)
    with np.errstate(divide="ignore", invalid="ignore"):
        return _finish(np.trace(counts, axis1=-2, axis2=-1) / counts.sum(axis=(-2, -1)))


def precision(counts, *, average="macro", zero_division="warn"):
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


def recall(counts, *, average="macro", zero_division="warn"):
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


def specificity(counts, *, average="macro", zero_division="warn"):
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


def fbeta(counts, *, beta, average="macro", zero_division="warn"):
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

    Examples
    --------
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> fbeta(counts, beta=2.0, average=None).round(6)
    array([0.784314, 0.75    , 0.795455])
    """
    beta2 = _check_beta(beta) ** 2
    return _ovr_score(
        counts,
        functools.partial(_fbeta_ratio, beta2=beta2),
        average=average,
        zero_division=zero_division,
        undefined="F-score is ill-defined for classes with no true nor predicted samples",
    )


def f1(counts, *, average="macro", zero_division="warn"):
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

    Examples
    --------
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> f1(counts, average=None).round(6)
    array([0.761905, 0.75    , 0.823529])
    >>> round(f1(counts), 6), round(f1(counts, average="weighted"), 6)
    (0.778478, 0.778919)
    """
    return fbeta(counts, beta=1.0, average=average, zero_division=zero_division)


def youden(counts, *, average="macro", zero_division="warn"):
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


def heidke_skill(counts, *, average="macro", zero_division="warn"):
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
        warnings.warn(
            "balanced accuracy ignores classes with no true samples",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    tp = np.diagonal(counts, axis1=-2, axis2=-1)
    n_present = present.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        score = np.where(present, tp / np.where(present, class_support, 1.0), 0.0).sum(axis=-1)
        score = score / n_present
        if adjusted:
            chance = 1.0 / n_present
            score = np.where(n_present > 1, (score - chance) / (1 - chance), np.nan)
    return _finish(score)


def balanced_accuracy(counts, *, adjusted=False):
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


def cohen_kappa(counts, *, weights=None, zero_division="warn"):
    """Cohen's kappa (p_o - p_e) / (1 - p_e): agreement beyond chance.

    With ``weights`` the disagreements are weighted by the distance between
    the class indices (ordinal classes): kappa = 1 - Σ w·C / Σ w·E, E being the
    counts expected from the marginals.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, predicted]``.
    weights : {None, "linear", "quadratic"}, default=None
        Disagreement weights: none (0/1), |i - j| or (i - j)².
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

    Examples
    --------
    >>> from fractions import Fraction
    >>> counts = [[8, 1, 1], [2, 6, 0], [1, 1, 7]]
    >>> Fraction(cohen_kappa(counts)).limit_denominator(1000)
    Fraction(107, 161)
    >>> round(cohen_kappa(counts, weights="quadratic"), 6)
    0.682353
    """
    weights = _check_kappa_weights(weights)
    zero_division = check_zero_division(zero_division)
    counts = _float_counts(counts)
    weight_matrix = _kappa_weight_matrix(counts.shape[-1], weights)
    true_totals, predicted_totals = counts.sum(axis=-1), counts.sum(axis=-2)
    total = true_totals.sum(axis=-1)
    observed = (weight_matrix * counts).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        expected = np.einsum("...i,ij,...j->...", true_totals, weight_matrix, predicted_totals) / total
    expected = np.where(total == 0, 0.0, expected)
    undefined = "Cohen's kappa is ill-defined when the chance agreement is 1 (a single class)"
    return _finish(_divide(expected - observed, expected, zero_division, undefined))


def matthews_corrcoef(counts):
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

    Examples
    --------
    >>> round(matthews_corrcoef([[8, 1, 1], [2, 6, 0], [1, 1, 7]]), 6)
    0.665981
    >>> matthews_corrcoef([[90, 0, 0], [5, 0, 0], [5, 0, 0]])
    0.0
    """
    counts = _float_counts(counts)
    true_totals, predicted_totals = counts.sum(axis=-1), counts.sum(axis=-2)
    total = true_totals.sum(axis=-1)
    correct = np.trace(counts, axis1=-2, axis2=-1)
    covariance = correct * total - (true_totals * predicted_totals).sum(axis=-1)
    variances = (total**2 - (predicted_totals**2).sum(axis=-1)) * (total**2 - (true_totals**2).sum(axis=-1))
    degenerate = variances == 0
    return _finish(np.where(degenerate, 0.0, covariance / np.sqrt(np.where(degenerate, 1.0, variances))))


# --------------------------------------------------------------------------- registry


def _registry():
    quiet = {"zero_division": 0.0}
    metrics = {
        "accuracy": accuracy,
        "balanced_accuracy": functools.partial(_balanced_accuracy, warn=False),
        "cohen_kappa": functools.partial(cohen_kappa, **quiet),
        "cohen_kappa_linear": functools.partial(cohen_kappa, weights="linear", **quiet),
        "cohen_kappa_quadratic": functools.partial(cohen_kappa, weights="quadratic", **quiet),
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
            metrics[f"{name}_{average}"] = functools.partial(metric, average=average, **quiet)
    aliases = {"mcc": "matthews_corrcoef", "tss": "youden_macro", "hss": "heidke_skill_macro"}
    metrics.update({alias: metrics[name] for alias, name in aliases.items()})
    return MappingProxyType(dict(sorted(metrics.items())))


#: Metrics usable by name for tuning: name -> callable(counts (..., m, m)) -> (...).
#: None of them warns: undefined ratios are 0.0.
COUNTS_METRICS = _registry()


def metric_name(metric):
    """The name of a metric given as a name or as a callable on counts (its ``__name__``).

    >>> metric_name("f1_macro"), metric_name(accuracy)
    ('f1_macro', 'accuracy')
    """
    return metric if isinstance(metric, str) else getattr(metric, "__name__", repr(metric))


def get_counts_metric(metric):
    """Return the counts metric named ``metric`` (or ``metric`` itself if callable).

    Parameters
    ----------
    metric : str or callable
        A key of :data:`COUNTS_METRICS` (e.g. ``"f1_macro"``, ``"mcc"``), or a
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

    Examples
    --------
    >>> get_counts_metric("f1_micro")([[[8, 1, 1], [2, 6, 0], [1, 1, 7]]]).round(6)
    array([0.777778])
    """
    if callable(metric):
        return metric
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name or a callable, got {type(metric).__name__}")
    if metric not in COUNTS_METRICS:
        raise ValueError(f"unknown metric {metric!r}; valid names are: {', '.join(COUNTS_METRICS)}")
    return COUNTS_METRICS[metric]


# --------------------------------------------------------------------------- label wrappers


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
def matthews_corrcoef_score(y_true, y_pred, *, labels=None, sample_weight=None):
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
    >>> round(matthews_corrcoef_score([0, 1, 2, 2], [0, 2, 2, 2]), 6)
    0.645497
    """
    return _score_labels(matthews_corrcoef, y_true, y_pred, labels, sample_weight)


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


def brier_score(
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
    >>> round(brier_score([0, 1], [[0.8, 0.2], [0.4, 0.6]]), 6)
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


def top_k_accuracy(y_true, y_score, *, k=2, labels=None, sample_weight=None):
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
    >>> top_k_accuracy([0, 1, 2, 2], scores, k=1), top_k_accuracy([0, 1, 2, 2], scores, k=2)
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
