"""The ranking engine: sort once, count per class, curve points, areas, averages.

Every rank statistic of polyroc (ROC and precision-recall curves, OvR and
Hand & Till AUCs, average precision, their bootstrap replicates, the
Gini-weighted and macro-average curves) is computed by these functions. They
take validated, encoded inputs (``y`` class codes, ``scores`` (n, m), weights
or None) and never check them; the public modules check first.
"""

from __future__ import annotations

import numpy as np

from polyroc._numeric import divide, finish, nan_average


def tie_ends(sorted_score):
    """Index of the last element of each run of equal values in a sorted array."""
    return np.append(np.flatnonzero(np.diff(sorted_score)), sorted_score.size - 1)


def binary_counts(positive, score, weight=None):
    """Weighted false and true positives at each distinct score, highest score first: (fps, tps, cut-offs).

    Like scikit-learn's binary curve core: ``fps[i]`` and ``tps[i]`` count the
    samples with ``score >= cutoffs[i]``. Zero-weight samples must have been
    removed, since scikit-learn does not let them create thresholds.
    """
    order = np.argsort(-score, kind="stable")
    score = score[order]
    positive = positive[order]
    ends = tie_ends(score)
    if weight is None:
        tps = np.cumsum(positive, dtype=np.float64)[ends]
        fps = 1.0 + ends - tps
    else:
        weight = weight[order]
        tps = np.cumsum(positive * weight)[ends]
        fps = np.cumsum(~positive * weight)[ends]
    return fps, tps, score[ends]


def without_zero_weights(y, scores, weights):
    if weights is None:
        return y, scores, weights
    keep = weights > 0
    return y[keep], scores[keep], weights[keep]


def class_counts(y, scores, weights):
    """``binary_counts`` of each class against the rest."""
    y, scores, weights = without_zero_weights(y, scores, weights)
    return [binary_counts(y == k, scores[:, k], weights) for k in range(scores.shape[1])]


def micro_counts(y, scores, weights):
    """``binary_counts`` of the binarized labels against the raveled scores."""
    y, scores, weights = without_zero_weights(y, scores, weights)
    n_classes = scores.shape[1]
    cells = (y[:, None] == np.arange(n_classes)).ravel()
    cell_weights = None if weights is None else np.repeat(weights, n_classes)
    return binary_counts(cells, scores.ravel(), cell_weights)


def rate(counts):
    """Counts divided by their final (total) value; NaN when the total is zero."""
    return divide(counts, counts[-1])


def roc_points(fps, tps, cutoffs, drop_intermediate):
    """(fpr, tpr, cut-offs) from binary counts, as scikit-learn's ``roc_curve`` (first cut-off ``inf``)."""
    if drop_intermediate and fps.size > 2:
        corner = np.logical_or(np.diff(fps, 2), np.diff(tps, 2))
        keep = np.concatenate(([True], corner, [True]))
        fps, tps, cutoffs = fps[keep], tps[keep], cutoffs[keep]
    fpr = rate(np.concatenate(([0.0], fps)))
    tpr = rate(np.concatenate(([0.0], tps)))
    return fpr, tpr, np.concatenate(([np.inf], cutoffs))


def drop_flat_recall(fps, tps, cutoffs):
    """Keep the first and last point of each run of equal true positives (scikit-learn's ``drop_intermediate``)."""
    if fps.size <= 2:
        return fps, tps, cutoffs
    recall_changes = np.logical_or(np.diff(tps[:-1]), np.diff(tps[1:]))
    keep = np.concatenate(([True], recall_changes, [True]))
    return fps[keep], tps[keep], cutoffs[keep]


def pr_points(fps, tps, cutoffs, drop_intermediate):
    """(precision, recall, cut-offs) from binary counts, as scikit-learn's ``precision_recall_curve``."""
    if drop_intermediate:
        fps, tps, cutoffs = drop_flat_recall(fps, tps, cutoffs)
    predicted = tps + fps
    precision = divide(tps, predicted, zero_division=0.0)
    recall = rate(tps)
    return np.append(precision[::-1], 1.0), np.append(recall[::-1], 0.0), cutoffs[::-1]


def trapezoid_area(fpr, tpr):
    return float(np.trapezoid(tpr, fpr))


def step_area(precision, recall):
    """Average precision ``sum (R_n - R_{n-1}) P_n`` of a curve from ``pr_points``."""
    if np.isnan(recall[0]):
        return np.nan
    return max(0.0, float(-np.sum(np.diff(recall) * precision[:-1])))


def count_wins(sorted_score, sorted_class, sorted_weight, positive, n_classes):
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
        cumulative = np.zeros((positive_at.size + 1, *sorted_weight.shape[1:]))
        np.cumsum(sorted_weight[positive_at], axis=0, out=cumulative[1:])
    ends = tie_ends(sorted_score)
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
    return sum_per_class(per_sample, sorted_class, n_classes)


def sum_per_class(values, classes, n_classes):
    """Sum of ``values`` (n,) per class code, or of each column of a batch (n, b): (n_classes, b)."""
    if values.ndim == 1:
        return np.bincount(classes, weights=values, minlength=n_classes)
    return (classes == np.arange(n_classes)[:, None]).astype(np.float64) @ values


def pairwise_wins(y, scores, weights):
    """Matrix ``wins[k, j]``: correctly ranked (class k, class j) pairs on column k.

    One sort per column; with the class sizes W, ``wins[k, j] / (W_k W_j)`` is
    Hand & Till's ``A(k|j)``, and row k summed over ``j != k`` is the
    numerator of the one-vs-rest AUC of class k.
    """
    n_classes = scores.shape[1]
    codes = y.astype(np.min_scalar_type(n_classes))
    wins = np.empty((n_classes, n_classes))
    for k, column in enumerate(np.ascontiguousarray(scores.T)):
        order = np.argsort(column)  # unstable is fine: ties are grouped in wins
        sorted_weight = None if weights is None else weights[order]
        wins[k] = count_wins(column[order], codes[order], sorted_weight, k, n_classes)
    return wins


def micro_auc(y, scores, weights):
    """AUC of the binarized labels against the raveled scores."""
    n_classes = scores.shape[1]
    cells = (y[:, None] == np.arange(n_classes)).ravel().view(np.uint8)
    flat = scores.ravel()
    order = np.argsort(flat)
    cell_weights = None if weights is None else np.repeat(weights, n_classes)[order]
    wins = count_wins(flat[order], cells[order], cell_weights, 1, 2)
    total = y.size if weights is None else weights.sum()
    return float(wins[0] / (total * total * (n_classes - 1)))


def ovr_auc(wins, support):
    """Per-class one-vs-rest AUC from the pairwise wins; NaN for a class without samples.

    Works on leading batch axes: ``wins`` (..., m, m) and ``support`` (..., m).
    """
    correct = wins.sum(axis=-1) - np.diagonal(wins, axis1=-2, axis2=-1)
    return divide(correct, support * (support.sum(axis=-1, keepdims=True) - support))


def pair_aucs(wins, support):
    """``(A(a|b) + A(b|a)) / 2`` of every pair a < b (NaN for a pair with an empty class) and the pair's support.

    Works on leading batch axes: ``wins`` (..., m, m) and ``support`` (..., m);
    both outputs are (..., m (m - 1) / 2), pairs in ``np.triu_indices`` order.
    """
    pairwise = divide(wins, support[..., :, None] * support[..., None, :])
    first, second = np.triu_indices(support.shape[-1], 1)
    pair_auc = (pairwise[..., first, second] + pairwise[..., second, first]) / 2
    return pair_auc, support[..., first] + support[..., second]


def hand_till(wins, support, average):
    """Mean over pairs of classes with samples of ``(A(a|b) + A(b|a)) / 2``.

    Works on leading batch axes: ``wins`` (..., m, m) and ``support`` (..., m).
    """
    pair_auc, pair_support = pair_aucs(wins, support)
    return finish(nan_average(pair_auc, pair_support if average == "weighted" else None))


def average_classes(per_class, support, average):
    """Per-class values, or their macro / support-weighted mean over defined classes.

    Works on leading batch axes: ``per_class`` and ``support`` (..., m).
    """
    if average is None:
        return per_class
    return finish(nan_average(per_class, support if average == "weighted" else None))


def vertical_average(fpr_of, tpr_of, weights, grid=None):
    """Weighted vertical average of ROC curves: ``TPR(f) = sum_i w_i TPR_i(f)``.

    ``fpr_of`` and ``tpr_of`` hold one curve per class; classes with weight 0
    take no part (their curves may be NaN). ``grid=None`` gives the exact
    average: the union of the breakpoints, with the lower and the upper value
    at each vertical jump, so that between points every class curve is linear
    and the trapezoid area is exactly ``sum_i w_i AUC_i``. An integer ``grid``
    samples that many equispaced FPR values, upper value at jumps (as
    ``np.interp``).

    Returns ``(fpr, tpr, dispersion)``, the dispersion being the weighted
    standard deviation of the class TPRs at each point. The weights of the
    involved classes should sum to 1.
    """
    weights = np.asarray(weights, dtype=np.float64)
    involved = np.flatnonzero(weights > 0)
    fpr_of = [np.asarray(fpr_of[i]) for i in involved]
    tpr_of = [np.asarray(tpr_of[i]) for i in involved]
    if grid is None:
        fpr, class_tpr = _exact_points(fpr_of, tpr_of)
    else:
        fpr = np.linspace(0.0, 1.0, grid)
        class_tpr = np.array([np.interp(fpr, f, t) for f, t in zip(fpr_of, tpr_of)])
    share = weights[involved]
    tpr = share @ class_tpr
    dispersion = np.sqrt(np.maximum(share @ (class_tpr - tpr) ** 2, 0.0))
    return fpr, tpr, dispersion


def _exact_points(fpr_of, tpr_of):
    """Union of the breakpoints, each with the lower and upper TPR of every class.

    A breakpoint keeps its lower point only where some class jumps there.
    """
    breakpoints = np.unique(np.concatenate(fpr_of))
    upper = np.array([np.interp(breakpoints, f, t) for f, t in zip(fpr_of, tpr_of)])
    lower = np.array([np.interp(-breakpoints, -f[::-1], t[::-1]) for f, t in zip(fpr_of, tpr_of)])
    jumps = np.any(lower != upper, axis=0)
    fpr = np.concatenate((breakpoints[jumps], breakpoints))
    class_tpr = np.concatenate((lower[:, jumps], upper), axis=1)
    order = np.lexsort((np.concatenate((np.zeros(jumps.sum()), np.ones(breakpoints.size))), fpr))
    return fpr[order], class_tpr[:, order]
