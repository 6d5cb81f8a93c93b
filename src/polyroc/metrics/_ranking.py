"""Ranking metrics of scores.

ROC, precision-recall and DET curves, ``roc_auc_score`` and ``average_precision_score``.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import column_or_1d
from sklearn.utils.multiclass import type_of_target

from polyroc import _warnings
from polyroc._engine.ranking import (
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
    check_boolean,
    check_column_labels_sklearn,
    check_label_input_sklearn,
    check_option,
    check_positive_label_sklearn,
    check_real,
    check_same_length,
    check_sample_weight_sklearn,
    check_score_input_sklearn,
    encode_labels_allowing_unknown,
    scale_weights,
    warn_column_order,
)
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.metrics._multilabel import delegated

MULTI_CLASS_OPTIONS = ("raise", "ovr", "ovo")


class _BinaryCounts(NamedTuple):
    """Weighted false and true positives at each distinct score (highest first), and those scores."""

    fps: np.ndarray
    tps: np.ndarray
    cutoffs: np.ndarray


def _binary_curve_counts(y_true, y_score, pos_label, sample_weight) -> _BinaryCounts:
    """scikit-learn's checks of a binary curve's input, then the counts of the ranking engine."""
    y_true, y_score = check_label_input_sklearn("y_true", y_true), check_score_input_sklearn("y_score", y_score)
    kind = type_of_target(y_true, input_name="y_true")
    if not (kind == "binary" or (kind == "multiclass" and pos_label is not None)):
        raise ValueError(f"y_true is {kind}: a binary curve needs binary labels (or pos_label)")
    y_score = column_or_1d(y_score, input_name="y_score")
    weights = check_sample_weight_sklearn(sample_weight, y_true.shape[0])
    check_same_length(y_true=y_true, y_score=y_score)
    if y_score.dtype.kind not in "iuf":
        y_score = y_score.astype(np.float64)
    positive = y_true == check_positive_label_sklearn(pos_label, y_true)
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
        classes = check_column_labels_sklearn(labels, y_true, y_score.shape[1], "columns in 'y_score'")
    else:
        classes = np.unique(y_true)
        if classes.size != y_score.shape[1]:
            raise ValueError(
                f"Number of classes in y_true ({classes.size}) not equal to the number of columns in 'y_score' "
                f"({y_score.shape[1]})"
            )
    weights = scale_weights(check_sample_weight_sklearn(sample_weight, y_true.shape[0])).weights
    y = encode_labels_allowing_unknown(y_true, classes)
    support = np.bincount(y, weights=weights, minlength=classes.size).astype(np.float64)
    return _ScoredClasses(y, y_score.astype(np.float64), classes, weights, support)


def warn_classes_without_samples(classes: np.ndarray, support: np.ndarray, what: str) -> None:
    """Warn (at the user's line) that the one-vs-rest ``what`` of the classes with no weight, or all of it, is NaN."""
    total = support.sum()
    undefined = (support == 0) | (support == total)
    if np.any(undefined):
        _warnings.warn(
            f"labels {classes[undefined].tolist()} have no samples, or all of them, in y_true: "
            f"their {what} is undefined (NaN)",
            UndefinedMetricWarning,
        )


def average_class_scores(per_class: np.ndarray, support: np.ndarray, average):
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
    check_same_length(y_true=y_true, y_score=y_score)
    scored = _scored_classes(y_true, y_score, labels, sample_weight)
    return _multiclass_aucs(scored, [(multi_class, average)])[multi_class, average]


def _multiclass_aucs(scored: _ScoredClasses, keys, ranked=None) -> dict:
    """AUCs of checked multiclass scores for each (multi_class, average) of ``keys``, each column sorted once.

    ``ranked`` is the (pairwise wins, micro wins) of these scores when their
    columns were sorted already (:func:`polyroc.intervals._delong.ranked_influences`).
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
            warn_classes_without_samples(scored.classes, scored.support, "ROC AUC")
            per_class = ovr_auc(wins, scored.support)
        for multi_class, average in keys:
            if multi_class == "ovo":  # over the pairs of classes present in y_true, as scikit-learn
                aucs[multi_class, average] = hand_till(wins, scored.support, average)
            elif average != "micro":
                aucs[multi_class, average] = average_class_scores(per_class, scored.support, average)
    return {key: aucs[key] for key in keys}


def multiclass_ranking_scores(y_true, y_score, *, labels, sample_weight, keys) -> dict:
    """:func:`roc_auc_score` of probability scores (n, m > 2) for several (multi_class, average) keys at once.

    Equal to calling :func:`roc_auc_score` once per key, with each score
    column sorted once instead of once per key. Inputs must have been checked
    (e.g. by :func:`polyroc._validation.check_scores`).
    """
    scored = _scored_classes(y_true, np.asarray(y_score), labels, sample_weight)
    return _multiclass_aucs(scored, list(keys))


def encoded_ranking_scores(y, scores, classes, weights, keys, ranked) -> dict:
    """:func:`multiclass_ranking_scores` of encoded, checked inputs from their pairwise and micro wins."""
    support = np.bincount(y, weights=weights, minlength=classes.size).astype(np.float64)
    return _multiclass_aucs(_ScoredClasses(y, scores, classes, weights, support), list(keys), ranked)


def roc_auc_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: Literal["micro", "macro", "samples", "weighted"] | None = "macro",
    sample_weight: ArrayLike | None = None,
    max_fpr: float | None = None,
    multi_class: Literal["raise", "ovr", "ovo"] = "raise",
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
    y_true, y_score = check_label_input_sklearn("y_true", y_true), check_score_input_sklearn("y_score", y_score)
    kind = type_of_target(y_true, input_name="y_true")
    two_columns = kind == "binary" and y_score.ndim == 2 and y_score.shape[1] == 2 and multi_class != "raise"
    if kind == "multiclass" or (kind == "binary" and y_score.ndim == 2 and y_score.shape[1] > 2) or two_columns:
        if max_fpr is not None and max_fpr != 1.0:
            raise ValueError("Partial AUC (max_fpr) is not available for multiclass targets; set max_fpr=None")
        if multi_class == "raise":
            raise ValueError("multi_class must be in ('ovo', 'ovr') for multiclass targets")
        return _multiclass_roc_auc(y_true, y_score, labels, multi_class, average, sample_weight)
    if kind != "binary":
        return delegated(
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
    average: Literal["micro", "samples", "weighted", "macro"] | None = "macro",
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
    y_true, y_score = check_label_input_sklearn("y_true", y_true), check_score_input_sklearn("y_score", y_score)
    kind = type_of_target(y_true, input_name="y_true")
    if kind not in ("binary", "multiclass"):
        return delegated(
            "average_precision_score",
            y_true,
            y_score,
            average=average,
            pos_label=pos_label,
            sample_weight=sample_weight,
        )
    present = np.unique(y_true)
    if kind == "binary":
        if present.size == 2 and pos_label not in present.tolist():
            raise ValueError(f"pos_label={pos_label!r} is not a valid label: it should be one of {present.tolist()}")
        return _binary_average_precision(_binary_curve_counts(y_true, y_score, pos_label, sample_weight))
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
    return average_class_scores(per_class, scored.support, average)
