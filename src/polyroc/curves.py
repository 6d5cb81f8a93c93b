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

from polyroc._validation import (
    _describe,
    check_class_support,
    check_option,
    check_scores,
    scale_weights,
)
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.metrics import _finish, _nan_average

__all__ = [
    "OvrPrecisionRecallCurves",
    "OvrRocCurves",
    "average_precision",
    "precision_recall_curve",
    "roc_auc",
    "roc_curve",
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


def roc_curve(y_true, y_score, *, labels=None, sample_weight=None, drop_intermediate=True, micro=True):
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
    >>> curves = roc_curve(y, scores)
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
    counts = _class_counts(y, scores, weights)
    per_class = [_roc_points(*class_counts, drop_intermediate) for class_counts in counts]
    micro = _roc_points(*_micro_counts(y, scores, weights), drop_intermediate) if micro else (None,) * 3
    _warn_undefined(classes, support, "ROC curve")
    fpr, tpr, thresholds = zip(*per_class)
    return OvrRocCurves(
        classes=classes,
        fpr=fpr,
        tpr=tpr,
        thresholds=thresholds,
        auc=np.array([_trapezoid_area(f, t) for f, t in zip(fpr, tpr)]),
        micro_fpr=micro[0],
        micro_tpr=micro[1],
        micro_thresholds=micro[2],
        micro_auc=np.nan if micro[0] is None else _trapezoid_area(micro[0], micro[1]),
        drop_intermediate=drop_intermediate,
    )


def precision_recall_curve(
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
    >>> curves = precision_recall_curve(y, scores)
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
    counts = _class_counts(y, scores, weights)
    per_class = [_pr_points(*class_counts, drop_intermediate) for class_counts in counts]
    micro = _pr_points(*_micro_counts(y, scores, weights), drop_intermediate)
    _warn_undefined(classes, support, "precision-recall curve")
    precision, recall, thresholds = zip(*per_class)
    return OvrPrecisionRecallCurves(
        classes=classes,
        precision=precision,
        recall=recall,
        thresholds=thresholds,
        average_precision=np.array([_step_area(p, r) for p, r in zip(precision, recall)]),
        micro_precision=micro[0],
        micro_recall=micro[1],
        micro_thresholds=micro[2],
        micro_average_precision=_step_area(micro[0], micro[1]),
        drop_intermediate=drop_intermediate,
    )


def roc_auc(
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
    >>> roc_auc(y, P, average=None)
    array([0.9, 0.7, 1. ])
    >>> round(roc_auc(y, P), 6), round(roc_auc(y, P, average="weighted"), 6)
    (0.866667, 0.885714)
    >>> round(roc_auc(y, P, multi_class="ovo"), 6)
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
        return _micro_auc(y, scores, weights)
    wins = _pairwise_wins(y, scores, weights)
    if multi_class == "ovo":
        _warn_undefined(classes, support, "one-vs-one AUC with any class")
        return _hand_till(wins, support, average)
    per_class = _ovr_auc(wins, support)
    _warn_undefined(classes, support, "ROC AUC")
    return _average(per_class, support, average)


def average_precision(y_true, y_score, *, labels=None, sample_weight=None, average="macro"):
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
    >>> average_precision(y, P, average=None).round(6)
    array([0.833333, 0.45    , 1.      ])
    >>> round(average_precision(y, P), 6), round(average_precision(y, P, average="micro"), 6)
    (0.761111, 0.703846)
    """
    check_option("average", average, OVR_AVERAGES)
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    if average == "micro":
        precision, recall, _ = _pr_points(*_micro_counts(y, scores, weights), False)
        return _step_area(precision, recall)
    curves = [_pr_points(*counts, False) for counts in _class_counts(y, scores, weights)]
    per_class = np.array([_step_area(precision, recall) for precision, recall, _ in curves])
    _warn_undefined(classes, support, "average precision")
    return _average(per_class, support, average)


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


def _tie_ends(sorted_score):
    """Index of the last element of each run of equal values in a sorted array."""
    return np.append(np.flatnonzero(np.diff(sorted_score)), sorted_score.size - 1)


def _binary_counts(positive, score, weight=None):
    """Weighted false and true positives at each distinct score, highest score first.

    Like scikit-learn's binary curve core: ``fps[i]`` and ``tps[i]`` count the
    samples with ``score >= thresholds[i]``. Zero-weight samples must have been
    removed, since scikit-learn does not let them create thresholds.
    """
    order = np.argsort(-score, kind="stable")
    score = score[order]
    positive = positive[order]
    ends = _tie_ends(score)
    if weight is None:
        tps = np.cumsum(positive, dtype=np.float64)[ends]
        fps = 1.0 + ends - tps
    else:
        weight = weight[order]
        tps = np.cumsum(positive * weight)[ends]
        fps = np.cumsum(~positive * weight)[ends]
    return fps, tps, score[ends]


def _without_zero_weights(y, scores, weights):
    if weights is None:
        return y, scores, weights
    keep = weights > 0
    return y[keep], scores[keep], weights[keep]


def _class_counts(y, scores, weights):
    """``_binary_counts`` of each class against the rest."""
    y, scores, weights = _without_zero_weights(y, scores, weights)
    return [_binary_counts(y == k, scores[:, k], weights) for k in range(scores.shape[1])]


def _micro_counts(y, scores, weights):
    """``_binary_counts`` of the binarized labels against the raveled scores."""
    y, scores, weights = _without_zero_weights(y, scores, weights)
    n_classes = scores.shape[1]
    cells = (y[:, None] == np.arange(n_classes)).ravel()
    cell_weights = None if weights is None else np.repeat(weights, n_classes)
    return _binary_counts(cells, scores.ravel(), cell_weights)


def _rate(counts):
    """Counts divided by their final (total) value; NaN when the total is zero."""
    if counts[-1] <= 0:
        return np.full(counts.shape, np.nan)
    return counts / counts[-1]


def _roc_points(fps, tps, thresholds, drop_intermediate):
    """(fpr, tpr, thresholds) from binary counts, as scikit-learn's ``roc_curve``."""
    if drop_intermediate and fps.size > 2:
        corner = np.logical_or(np.diff(fps, 2), np.diff(tps, 2))
        keep = np.concatenate(([True], corner, [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    fpr = _rate(np.concatenate(([0.0], fps)))
    tpr = _rate(np.concatenate(([0.0], tps)))
    return fpr, tpr, np.concatenate(([np.inf], thresholds))


def _pr_points(fps, tps, thresholds, drop_intermediate):
    """(precision, recall, thresholds) from binary counts, as scikit-learn's curve."""
    if drop_intermediate and fps.size > 2:
        recall_changes = np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:]))
        keep = np.concatenate(([True], recall_changes, [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    predicted = tps + fps
    precision = np.divide(tps, predicted, out=np.zeros_like(tps), where=predicted != 0)
    recall = _rate(tps)
    return np.append(precision[::-1], 1.0), np.append(recall[::-1], 0.0), thresholds[::-1]


def _trapezoid_area(fpr, tpr):
    return float(np.trapezoid(tpr, fpr))


def _step_area(precision, recall):
    """Average precision ``sum (R_n - R_{n-1}) P_n`` of a curve from ``_pr_points``."""
    if np.isnan(recall[0]):
        return np.nan
    return max(0.0, float(-np.sum(np.diff(recall) * precision[:-1])))


def _wins(sorted_score, sorted_class, sorted_weight, positive, n_classes):
    """Per class j, the weighted count of (positive-class, class-j) pairs ranked correctly.

    Scores are sorted ascending. A pair counts 1 when the positive-class sample
    scores higher and 1/2 on a tie. Each sample gets the positive weight strictly
    above its score plus half the positive weight tied with it, then these are
    summed per class. The cumulative positive weight runs over the positive
    samples only and is read at the end of each run of tied scores.

    ``sorted_weight`` may also be a batch (n, b) of weights, one column per
    replicate (sorted along axis 0 like the scores); the wins are then (n_classes, b).
    """
    positive_at = np.flatnonzero(sorted_class == positive)
    if sorted_weight is None:
        cumulative = np.arange(positive_at.size + 1, dtype=np.float64)
    else:
        cumulative = np.zeros((positive_at.size + 1,) + sorted_weight.shape[1:])
        np.cumsum(sorted_weight[positive_at], axis=0, out=cumulative[1:])
    ends = _tie_ends(sorted_score)
    positives_up_to = np.searchsorted(positive_at, ends, side="right")
    positives_below = np.concatenate(([0], positives_up_to[:-1]))
    # total - (below + up_to) / 2, in place: a batch makes these (n_ties, b) arrays
    above_plus_half_tied = cumulative[positives_up_to]
    above_plus_half_tied += cumulative[positives_below]
    above_plus_half_tied *= -0.5
    above_plus_half_tied += cumulative[-1]
    per_sample = np.repeat(above_plus_half_tied, np.diff(ends, prepend=-1), axis=0)
    if sorted_weight is not None:
        per_sample *= sorted_weight
    return _sum_per_class(per_sample, sorted_class, n_classes)


def _sum_per_class(values, classes, n_classes):
    """Sum of ``values`` (n,) per class code, or of each column of a batch (n, b): (n_classes, b)."""
    if values.ndim == 1:
        return np.bincount(classes, weights=values, minlength=n_classes)
    return (classes == np.arange(n_classes)[:, None]).astype(np.float64) @ values


def _pairwise_wins(y, scores, weights):
    """Matrix ``wins[k, j]``: correctly ranked (class k, class j) pairs on column k.

    One sort per column; with the class sizes W, ``wins[k, j] / (W_k W_j)`` is
    Hand & Till's ``A(k|j)``, and row k summed over ``j != k`` is the
    numerator of the one-vs-rest AUC of class k.
    """
    n_classes = scores.shape[1]
    codes = y.astype(np.min_scalar_type(n_classes))
    wins = np.empty((n_classes, n_classes))
    for k, column in enumerate(np.ascontiguousarray(scores.T)):
        order = np.argsort(column)  # unstable is fine: ties are grouped in _wins
        sorted_weight = None if weights is None else weights[order]
        wins[k] = _wins(column[order], codes[order], sorted_weight, k, n_classes)
    return wins


def _micro_auc(y, scores, weights):
    """AUC of the binarized labels against the raveled scores."""
    n_classes = scores.shape[1]
    cells = (y[:, None] == np.arange(n_classes)).ravel().view(np.uint8)
    flat = scores.ravel()
    order = np.argsort(flat)
    cell_weights = None if weights is None else np.repeat(weights, n_classes)[order]
    wins = _wins(flat[order], cells[order], cell_weights, 1, 2)
    total = y.size if weights is None else weights.sum()
    return float(wins[0] / (total * total * (n_classes - 1)))


def _ovr_auc(wins, support):
    """Per-class one-vs-rest AUC from the pairwise wins; NaN for a class without samples.

    Works on leading batch axes: ``wins`` (..., m, m) and ``support`` (..., m).
    """
    correct = wins.sum(axis=-1) - np.diagonal(wins, axis1=-2, axis2=-1)
    return _ratio(correct, support * (support.sum(axis=-1, keepdims=True) - support))


def _hand_till(wins, support, average):
    """Mean over pairs of classes with samples of ``(A(a|b) + A(b|a)) / 2``.

    Works on leading batch axes: ``wins`` (..., m, m) and ``support`` (..., m).
    """
    pairwise = _ratio(wins, support[..., :, None] * support[..., None, :])
    first, second = np.triu_indices(support.shape[-1], 1)
    pair_auc = (pairwise[..., first, second] + pairwise[..., second, first]) / 2
    prevalence = support[..., first] + support[..., second] if average == "weighted" else None
    return _finish(_nan_average(pair_auc, prevalence))


def _ratio(numerator, denominator):
    """Elementwise ratio, NaN where the denominator is zero."""
    out = np.full(np.shape(numerator), np.nan)
    return np.divide(numerator, denominator, out=out, where=denominator > 0)


def _average(per_class, support, average):
    """Per-class values, or their macro / support-weighted mean over defined classes.

    Works on leading batch axes: ``per_class`` and ``support`` (..., m).
    """
    if average is None:
        return per_class
    return _finish(_nan_average(per_class, support if average == "weighted" else None))
