"""One-vs-rest ROC and precision-recall curves, ROC AUC (OvR, Hand & Till OvO), average precision.

Everything here is rank based: each score column is sorted once and the
weighted counts of positives and negatives above every distinct score come from
cumulative sums; nothing loops over thresholds.

Conventions shared by every function of this module:

- **Scores** may be any finite real numbers (probabilities, logits, decision
  values): these quantities depend only on the order of the values within each
  column. Unlike scikit-learn's multiclass ``roc_auc_score``, rows need not sum
  to 1; transform the scores first (e.g. softmax) if you want the AUC of
  another score.
- **Curves and per-class values** are those of scikit-learn's binary functions
  applied to ``y_true == k`` against ``y_score[:, k]``: same arrays, same
  handling of ties and of sample weights (samples of zero weight are dropped).
- **A class without samples** of positive weight in ``y_true`` (possible when
  ``labels`` names it) has no positives, so its ROC curve, AUC and average
  precision are undefined: they are NaN, an :class:`~polyroc.exceptions.UndefinedMetricWarning`
  is issued, and averages are taken over the defined classes (for OvO, over the
  pairs of classes that have samples, as scikit-learn does). scikit-learn gives
  NaN for such a class's AUC (so a NaN macro average) and 0 for its average
  precision.
- ``y_true`` with fewer than two classes of positive weight raises ``ValueError``.
- **Sample weights** mean relative importance: multiplying them all by a
  constant changes nothing, however small or large the constant (they are
  scaled by a power of two before any sum is taken).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from polyroc._ranking import (
    average_classes,
    class_counts,
    hand_till,
    micro_auc,
    micro_counts,
    ovr_auc,
    pairwise_wins,
    pr_points,
    roc_points,
    step_area,
    trapezoid_area,
    vertical_average,
)
from polyroc._validation import (
    _describe,
    check_class_support,
    check_option,
    check_scores,
    scale_weights,
)
from polyroc.exceptions import UndefinedMetricWarning

__all__ = [
    "OvrPrecisionRecallCurves",
    "OvrRocCurves",
    "average_precision_score",
    "macro_roc_curve",
    "ovr_precision_recall_curve",
    "ovr_roc_curve",
    "roc_auc_score",
]

MULTI_CLASS_OPTIONS = ("ovr", "ovo")
OVR_AVERAGES = ("macro", "weighted", "micro", None)
OVO_AVERAGES = ("macro", "weighted")


@dataclass(frozen=True, eq=False)
class OvrRocCurves:
    """One-vs-rest ROC curve of each class, and the micro-average ROC curve.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in the order of the score columns.
    fpr, tpr, thresholds : tuple of ndarray
        One array per class, equal to those of
        ``sklearn.metrics.roc_curve(y_true == k, y_score[:, k])``: the curve
        starts at (0, 0) with ``thresholds[0] = inf``; point ``i`` classifies
        as positive the samples with score ``>= thresholds[i]``.
    auc : ndarray of shape (n_classes,)
        Area under each curve (trapezoid rule); NaN for a class without samples.
    micro_fpr, micro_tpr, micro_thresholds : ndarray or None
        The curve of every (sample, class) cell of the binarized labels against
        the raveled scores; None when computed with ``micro=False``.
    micro_auc : float
        Area under the micro-average curve (NaN with ``micro=False``).
    drop_intermediate : bool
        Whether collinear points were dropped.
    """

    classes: np.ndarray
    fpr: tuple
    tpr: tuple
    thresholds: tuple
    auc: np.ndarray
    micro_fpr: np.ndarray
    micro_tpr: np.ndarray
    micro_thresholds: np.ndarray
    micro_auc: float
    drop_intermediate: bool


@dataclass(frozen=True, eq=False)
class OvrPrecisionRecallCurves:
    """One-vs-rest precision-recall curve of each class, and the micro-average curve.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in the order of the score columns.
    precision, recall, thresholds : tuple of ndarray
        One array per class, equal to those of
        ``sklearn.metrics.precision_recall_curve(y_true == k, y_score[:, k])``:
        thresholds increase, recall decreases, and the last point is
        (recall 0, precision 1) without a threshold.
    average_precision : ndarray of shape (n_classes,)
        Average precision of each class; NaN for a class without samples.
    micro_precision, micro_recall, micro_thresholds : ndarray
        The curve of every (sample, class) cell of the binarized labels against
        the raveled scores.
    micro_average_precision : float
        Average precision of the micro-average curve.
    drop_intermediate : bool
        Whether points that do not change the recall were dropped.
    """

    classes: np.ndarray
    precision: tuple
    recall: tuple
    thresholds: tuple
    average_precision: np.ndarray
    micro_precision: np.ndarray
    micro_recall: np.ndarray
    micro_thresholds: np.ndarray
    micro_average_precision: float
    drop_intermediate: bool


def ovr_roc_curve(y_true, y_score, *, labels=None, sample_weight=None, drop_intermediate=True, micro=True):
    """One-vs-rest ROC curve of every class, plus the micro-average curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; any finite
        real values (see the module notes).
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the columns of ``y_score``. Default: the
        sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=True
        Drop the points that lie on a straight segment between their
        neighbours, as scikit-learn does; they do not change the curve.
    micro : bool, default=True
        Also compute the micro-average curve (one sort of all n × m scores,
        the most expensive part); ``False`` leaves its fields None / NaN.

    Returns
    -------
    OvrRocCurves
        Per-class ``fpr``, ``tpr``, ``thresholds`` and ``auc``, and the
        micro-average curve.

    Raises
    ------
    ValueError
        Bad ``y_true``, ``y_score``, ``labels`` or ``sample_weight`` (see
        :func:`polyroc._validation.check_scores`), or fewer than two classes
        with samples of positive weight in ``y_true``.
    TypeError
        Non-numeric ``y_score`` or ``sample_weight``, or labels of mixed kinds.

    Warns
    -----
    UndefinedMetricWarning
        A class of ``labels`` has no samples; its ``tpr`` and ``auc`` are NaN.

    Examples
    --------
    >>> y = ["cat", "cat", "dog", "dog"]
    >>> scores = [[0.9, 0.1], [0.4, 0.6], [0.65, 0.35], [0.2, 0.8]]
    >>> curves = ovr_roc_curve(y, scores)
    >>> curves.fpr[1], curves.tpr[1]
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    >>> curves.thresholds[1]
    array([ inf, 0.8 , 0.6 , 0.35, 0.1 ])
    >>> curves.auc
    array([0.75, 0.75])
    """
    check_option("drop_intermediate", drop_intermediate, (True, False))
    check_option("micro", micro, (True, False))
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    counts = class_counts(y, scores, weights)
    per_class = [roc_points(*class_counts, drop_intermediate) for class_counts in counts]
    micro = roc_points(*micro_counts(y, scores, weights), drop_intermediate) if micro else (None,) * 3
    _warn_undefined(classes, support, "ROC curve")
    fpr, tpr, thresholds = zip(*per_class)
    return OvrRocCurves(
        classes=classes,
        fpr=fpr,
        tpr=tpr,
        thresholds=thresholds,
        auc=np.array([trapezoid_area(f, t) for f, t in zip(fpr, tpr)]),
        micro_fpr=micro[0],
        micro_tpr=micro[1],
        micro_thresholds=micro[2],
        micro_auc=np.nan if micro[0] is None else trapezoid_area(micro[0], micro[1]),
        drop_intermediate=drop_intermediate,
    )


def ovr_precision_recall_curve(
    y_true, y_score, *, labels=None, sample_weight=None, drop_intermediate=False
):
    """One-vs-rest precision-recall curve of every class, plus the micro-average curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; any finite
        real values.
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the columns of ``y_score``. Default: the
        sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Keep only the first and last point of each run of equal recall, as
        scikit-learn does.

    Returns
    -------
    OvrPrecisionRecallCurves
        Per-class ``precision``, ``recall``, ``thresholds`` and
        ``average_precision``, and the micro-average curve. A point where no
        sample is predicted positive has precision 0, as in scikit-learn.

    Raises
    ------
    ValueError
        Bad ``y_true``, ``y_score``, ``labels`` or ``sample_weight``, or fewer
        than two classes with samples of positive weight in ``y_true``.
    TypeError
        Non-numeric ``y_score`` or ``sample_weight``, or labels of mixed kinds.

    Warns
    -----
    UndefinedMetricWarning
        A class of ``labels`` has no samples; its ``recall`` and
        ``average_precision`` are NaN.

    Examples
    --------
    >>> y = [0, 0, 1, 1]
    >>> scores = [[0.9, 0.1], [0.6, 0.4], [0.65, 0.35], [0.2, 0.8]]
    >>> curves = ovr_precision_recall_curve(y, scores)
    >>> curves.precision[1]
    array([0.5       , 0.66666667, 0.5       , 1.        , 1.        ])
    >>> curves.recall[1]
    array([1. , 1. , 0.5, 0.5, 0. ])
    >>> curves.thresholds[1]
    array([0.1 , 0.35, 0.4 , 0.8 ])
    >>> curves.average_precision
    array([0.83333333, 0.83333333])
    """
    check_option("drop_intermediate", drop_intermediate, (True, False))
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    counts = class_counts(y, scores, weights)
    per_class = [pr_points(*class_counts, drop_intermediate) for class_counts in counts]
    micro = pr_points(*micro_counts(y, scores, weights), drop_intermediate)
    _warn_undefined(classes, support, "precision-recall curve")
    precision, recall, thresholds = zip(*per_class)
    return OvrPrecisionRecallCurves(
        classes=classes,
        precision=precision,
        recall=recall,
        thresholds=thresholds,
        average_precision=np.array([step_area(p, r) for p, r in zip(precision, recall)]),
        micro_precision=micro[0],
        micro_recall=micro[1],
        micro_thresholds=micro[2],
        micro_average_precision=step_area(micro[0], micro[1]),
        drop_intermediate=drop_intermediate,
    )


def roc_auc_score(
    y_true, y_score, *, labels=None, sample_weight=None, multi_class="ovr", average="macro"
):
    """Area under the ROC curve: one-vs-rest, or one-vs-one (Hand & Till's M).

    One-vs-rest, the AUC of class k is that of ``y_true == k`` against
    ``y_score[:, k]``. One-vs-one, for each pair of classes (a, b) restricted to
    their samples, ``A(a|b)`` is the probability that a sample of class a has a
    higher column-a score than a sample of class b (ties count half); the pair
    scores ``(A(a|b) + A(b|a)) / 2``, and Hand & Till's M is their mean. With
    sample weights, ``A(a|b) = sum w_i w_j ([s_i > s_j] + [s_i = s_j] / 2) /
    (W_a W_b)`` over ``i`` in a and ``j`` in b (scikit-learn refuses weights
    for one-vs-one). Values equal scikit-learn's ``roc_auc_score`` with the same
    ``multi_class`` and ``average``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; any finite
        real values (rows need not sum to 1).
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the columns of ``y_score``. Default: the
        sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights (also for ``multi_class="ovo"``).
    multi_class : {"ovr", "ovo"}, default="ovr"
        One-vs-rest or one-vs-one (Hand & Till).
    average : {"macro", "weighted", "micro"} or None, default="macro"
        ``"macro"``: unweighted mean over classes (OvR) or pairs (OvO).
        ``"weighted"``: OvR, mean weighted by each class's (weighted) number
        of samples; OvO, mean weighted by each pair's share of the samples.
        ``"micro"`` (OvR only): AUC of the binarized labels against the
        raveled scores. ``None`` (OvR only): the per-class AUCs.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged AUC, or the per-class AUCs when ``average=None``.

    Raises
    ------
    ValueError
        Unknown ``multi_class`` or ``average`` (or ``"micro"``/``None`` with
        ``"ovo"``); bad ``y_true``, ``y_score``, ``labels`` or
        ``sample_weight``; fewer than two classes with samples of positive
        weight in ``y_true``.
    TypeError
        Non-numeric ``y_score`` or ``sample_weight``, or labels of mixed kinds.

    Warns
    -----
    UndefinedMetricWarning
        A class of ``labels`` has no samples: its AUC is NaN and it is left
        out of the averages.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> roc_auc_score(y, P, average=None)
    array([0.9, 0.7, 1. ])
    >>> round(roc_auc_score(y, P), 6), round(roc_auc_score(y, P, average="weighted"), 6)
    (0.866667, 0.885714)
    >>> round(roc_auc_score(y, P, multi_class="ovo"), 6)
    0.861111
    """
    check_option("multi_class", multi_class, MULTI_CLASS_OPTIONS)
    check_option(
        f"average (with multi_class={multi_class!r})",
        average,
        OVR_AVERAGES if multi_class == "ovr" else OVO_AVERAGES,
    )
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    if average == "micro":
        return micro_auc(y, scores, weights)
    wins = pairwise_wins(y, scores, weights)
    if multi_class == "ovo":
        _warn_undefined(classes, support, "one-vs-one AUC with any class")
        return hand_till(wins, support, average)
    per_class = ovr_auc(wins, support)
    _warn_undefined(classes, support, "ROC AUC")
    return average_classes(per_class, support, average)


def average_precision_score(y_true, y_score, *, labels=None, sample_weight=None, average="macro"):
    """Average precision of each class against the rest, or an average of them.

    The average precision of a curve is ``sum_n (R_n - R_{n-1}) P_n`` over its
    thresholds (no interpolation); values equal scikit-learn's
    ``average_precision_score(label_binarize(y_true, classes=labels), y_score,
    average=average)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; any finite
        real values.
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the columns of ``y_score``. Default: the
        sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    average : {"macro", "weighted", "micro"} or None, default="macro"
        ``"macro"``: unweighted mean over classes. ``"weighted"``: mean
        weighted by each class's (weighted) number of samples. ``"micro"``:
        average precision of the binarized labels against the raveled scores.
        ``None``: the per-class values.

    Returns
    -------
    float or ndarray of shape (n_classes,)
        The averaged value, or the per-class values when ``average=None``.

    Raises
    ------
    ValueError
        Unknown ``average``; bad ``y_true``, ``y_score``, ``labels`` or
        ``sample_weight``; fewer than two classes with samples of positive
        weight in ``y_true``.
    TypeError
        Non-numeric ``y_score`` or ``sample_weight``, or labels of mixed kinds.

    Warns
    -----
    UndefinedMetricWarning
        A class of ``labels`` has no samples: its value is NaN and it is left
        out of the averages (scikit-learn counts it as 0).

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> average_precision_score(y, P, average=None).round(6)
    array([0.833333, 0.45    , 1.      ])
    >>> round(average_precision_score(y, P), 6), round(average_precision_score(y, P, average="micro"), 6)
    (0.761111, 0.703846)
    """
    check_option("average", average, OVR_AVERAGES)
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    if average == "micro":
        precision, recall, _ = pr_points(*micro_counts(y, scores, weights), False)
        return step_area(precision, recall)
    curves = [pr_points(*counts, False) for counts in class_counts(y, scores, weights)]
    per_class = np.array([step_area(precision, recall) for precision, recall, _ in curves])
    _warn_undefined(classes, support, "average precision")
    return average_classes(per_class, support, average)


def _checked(y_true, y_score, labels, sample_weight):
    """Validated (encoded y_true, scores, classes, weights, weighted support per class).

    The weights are scaled by a power of two (:func:`polyroc._validation.scale_weights`):
    every output of this module is a ratio of weighted counts, unchanged by
    the scaling, and the sums and products of class weights stay finite for
    weights of any scale.
    """
    y, scores, classes, weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight, require_simplex=False
    )
    weights = scale_weights(weights).weights
    return y, scores, classes, weights, check_class_support(y, classes, weights)


def _warn_undefined(classes, support, what):
    absent = classes[support == 0]
    if absent.size:
        warnings.warn(
            f"labels {_describe(absent)} have no samples of positive weight in y_true; "
            f"their {what} is undefined (NaN) and left out of averages",
            UndefinedMetricWarning,
            stacklevel=3,
        )


def macro_roc_curve(curves):
    """Macro-average ROC curve: the mean TPR of the classes on the union FPR grid.

    The grid is the union of the FPR values of every class with samples. At
    each grid value the curve has two points, the mean over classes of their
    lowest and of their highest TPR there (they differ where some class's
    curve is vertical); in between, each class's curve is linear, so the mean
    is exact (no resampling on a fixed grid) and its area equals the mean of
    the per-class AUCs, i.e. ``roc_auc_score(average="macro")``. Classes without
    samples (NaN curve) are left out.

    Parameters
    ----------
    curves : OvrRocCurves
        From :func:`polyroc.curves.ovr_roc_curve`.

    Returns
    -------
    fpr, tpr : ndarray
        The curve, from (0, 0) to (1, 1).
    auc : float
        Its area (trapezoid rule).

    Examples
    --------
    >>> from polyroc.curves import ovr_roc_curve
    >>> curves = ovr_roc_curve([0, 0, 1, 1, 2, 2], [[.6, .3, .1], [.3, .4, .3], [.2, .5, .3],
    ...                                         [.4, .4, .2], [.1, .2, .7], [.3, .3, .4]])
    >>> fpr, tpr, auc = macro_roc_curve(curves)
    >>> round(auc, 6) == round(float(curves.auc.mean()), 6)
    True
    """
    defined = ~np.isnan(curves.auc)
    weights = np.where(defined, 1.0 / defined.sum(), 0.0)
    fpr, tpr, _ = vertical_average(curves.fpr, curves.tpr, weights)
    return fpr, tpr, trapezoid_area(fpr, tpr)
