"""The ranking engine: sort once, count per class, curve points, areas, averages.

Every rank statistic of polyroc (ROC and precision-recall curves, OvR and
Hand & Till AUCs, average precision, their bootstrap replicates, the
Gini-weighted and macro-average curves) is computed by these functions. They
take validated, encoded inputs (``y`` class codes, ``scores`` (n, m), weights
or None) and never check them; the public modules check first.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from polyroc._engine.numeric import divide, finish, nan_average
from polyroc._engine.parallel import chunk_map
from polyroc._engine.score_orders import descending_order, known_order, offer_order, shared_counts

#: Fewer samples than this sort their score columns in this thread (a thread pool costs more than it saves).
PARALLEL_MIN_SAMPLES = 20_000

#: Weighted false and true positives at each distinct score, and those scores (the cut-offs), highest first.
BinaryCounts = tuple[NDArray[np.float64], NDArray[np.float64], np.ndarray]


def tie_ends(sorted_score):
    """Index of the last element of each run of equal values in a sorted array."""
    return np.append(np.flatnonzero(np.diff(sorted_score)), sorted_score.size - 1)


#: Most grid points (from the lowest to the highest score) for :func:`grid_codes` to count instead of sorting.
MAX_GRID_POINTS = 1 << 16

#: The grids tried: scores that are multiples of 1 / d (rounded probabilities, integer scores).
GRID_DENOMINATORS = (1, 10, 100, 1000, 10_000)

#: Values drawn (evenly spaced) from a column to find its grid before checking every element.
GRID_SAMPLE = 4096


def grid_codes(column):
    """(grid values, index of each element among them) for scores on a grid of 1 / d, else None.

    Scores with few distinct values are usually rounded: each element is
    then ``c / d`` for an integer ``c`` and ``d`` among
    :data:`GRID_DENOMINATORS`, and is counted per grid point (``bincount``)
    rather than sorted, for a cost that falls with the number of grid
    points instead of growing with ``n log n``. The grid is guessed from an
    evenly spaced sample and then checked on every element: ``c / d``
    must give back the element exactly. Grid values hold every point from
    the lowest score to the highest (:data:`MAX_GRID_POINTS` at most);
    points without samples count zero.
    """
    if column.size <= GRID_SAMPLE or column.dtype != np.float64:
        return None
    sample = column[:: column.size // GRID_SAMPLE]
    with np.errstate(invalid="ignore", over="ignore"):
        for denominator in GRID_DENOMINATORS:
            points = np.rint(sample * denominator)
            if np.array_equal(points / denominator, sample):
                break
        else:
            return None
        scaled = column * denominator
        np.rint(scaled, out=scaled)
        low, high = scaled.min(), scaled.max()
        if not (high - low < MAX_GRID_POINTS and abs(low) < 2**52 and abs(high) < 2**52):
            return None
        if not np.array_equal(scaled / denominator, column):
            return None
    scaled -= low
    codes = scaled.astype(np.intp)
    return (np.arange(int(high - low) + 1) + low) / denominator, codes


def binary_counts(positive, score, weight=None) -> BinaryCounts:
    """Weighted false and true positives at each distinct score, highest score first: (fps, tps, cut-offs).

    Like scikit-learn's binary curve core: ``fps[i]`` and ``tps[i]`` count the
    samples with ``score >= cutoffs[i]``. Zero-weight samples must have been
    removed, since scikit-learn does not let them create thresholds. Scores
    on a grid are counted per grid point (:func:`grid_codes`), others sorted.
    """
    grid = grid_codes(score)
    if grid is not None:
        values, codes = grid
        everyone = np.bincount(codes, weights=weight, minlength=values.size)[::-1]
        hits = np.bincount(codes, weights=positive if weight is None else positive * weight, minlength=values.size)
        present = everyone > 0
        tps = np.cumsum(hits[::-1], dtype=np.float64)[present]
        return np.cumsum(everyone, dtype=np.float64)[present] - tps, tps, values[::-1][present]
    return shared_counts(score, positive, weight, lambda: _sorted_counts(positive, score, weight))  # type: ignore[return-value]


def _sorted_counts(positive, score, weight):
    """``binary_counts`` by a sort of the scores (shared with the steps of a report, see score_orders)."""
    order = descending_order(score)
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


def class_counts(y, scores, weights) -> list[BinaryCounts]:
    """``binary_counts`` of each class against the rest."""
    y, scores, weights = without_zero_weights(y, scores, weights)
    return [binary_counts(y == k, scores[:, k], weights) for k in range(scores.shape[1])]


def micro_counts(y, scores, weights) -> BinaryCounts:
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


#: Positions per block of :func:`sum_per_class` and :meth:`Positives.above`: bounds their index copies.
BLOCK = 1 << 20


def sum_per_class(values, classes, n_classes):
    """Sum of ``values`` (n,) per class code, or of each column of a batch (n, b): (n_classes, b).

    One-dimensional values are summed in blocks of :data:`BLOCK` positions, so
    that ``bincount``'s copy of small-integer codes as ``intp`` stays small.
    """
    if values.ndim == 1:
        sums = np.zeros(n_classes)
        for start in range(0, values.size, BLOCK):
            sums += np.bincount(classes[start : start + BLOCK], values[start : start + BLOCK], n_classes)
        return sums
    return (classes == np.arange(n_classes)[:, None]).astype(np.float64) @ values


class RankedColumn:
    """Score column k sorted once (ascending): its classes, weights, runs of ties and class-k weight above.

    ``k_above[i]`` is the class-k weight above sorted position i plus half the
    class-k weight tied with it, and ``wins[j]`` its sum (times the weight)
    over the class-j samples: ``wins[j] / (W_k W_j)`` is Hand & Till's
    ``A(k|j)``. ``k_count`` counts the class-k samples before each position
    (length n + 1). Without ties no run is built: the per-position bounds of
    the runs are views of the cumulative arrays.
    """

    def __init__(self, k, column, codes, weights, n_classes):
        self.order, self.score, self.ends = _ascending(column)
        self.classes = codes.take(self.order)
        self.weight = None if weights is None else weights.take(self.order)
        self.is_k = self.classes == k
        # counts fit int32 below 2**31 cells of class_weight_below: half the memory of intp
        self.k_count = cumulative(self.is_k, np.int32 if (column.size + 1) * n_classes < 2**31 else np.intp)
        self.k_weight = k_weight = (
            self.k_count if self.weight is None else cumulative(np.where(self.is_k, self.weight, 0.0))
        )
        below, up_to = self.run_bounds(k_weight)
        self.k_above = np.add(below, up_to, dtype=np.float64)
        self.k_above *= -0.5
        self.k_above += k_weight[-1]
        weighted = self.k_above if self.weight is None else self.k_above * self.weight
        self.wins = sum_per_class(weighted, self.classes, n_classes)

    def everyone_half_below(self, positions):
        """At sorted ``positions`` (increasing): the weight of all samples below the run plus half within it."""
        if self.weight is not None:
            return self.half_below(cumulative(self.weight), positions)
        if self.ends is None:
            return positions + 0.5
        runs = np.searchsorted(self.ends, positions)
        first = np.concatenate(([0], self.ends[:-1] + 1))[runs]
        return (first + self.ends[runs] + 1) * 0.5

    def run_bounds(self, values):
        """Per sorted position, a cumulative ``values`` (n + 1,) before its run of ties and at the run's end."""
        if self.ends is None:
            return values[:-1], values[1:]
        sizes = np.diff(self.ends, prepend=-1)
        return np.repeat(values[self.ends - sizes + 1], sizes), np.repeat(values[self.ends + 1], sizes)

    def half_below(self, values, positions):
        """At sorted ``positions`` (increasing): cumulative ``values`` below the run plus half within it."""
        if self.ends is None:
            return (values[positions] + values[positions + 1]) * 0.5
        runs = np.searchsorted(self.ends, positions)
        first = np.concatenate(([0], self.ends[:-1] + 1))[runs]
        return (values[first] + values[self.ends[runs] + 1]) * 0.5

    def class_weight_below(self, n_classes):
        """(n_k, n_classes): each class's weight below every class-k sample plus half the tied (class k: 0).

        A sample of another class is below the t-th class-k sample (in sorted
        order) when the class-k samples up to its run's end number at most t,
        and tied with it when those before its run do; so the counts come from
        one ``bincount`` of those numbers per class and a cumulative sum.
        """
        others = ~self.is_k
        n_k = int(self.k_count[-1])
        weight = None if self.weight is None else self.weight[others]
        classes = self.classes[others]
        below, up_to = self.run_bounds(self.k_count)
        cells = (n_k + 1) * n_classes

        def class_cells(bounds):
            cells_of = bounds[others]
            cells_of *= n_classes
            cells_of += classes
            return cells_of

        counts = np.bincount(class_cells(up_to), weights=weight, minlength=cells)
        if self.ends is not None:
            counts = counts + np.bincount(class_cells(below), weights=weight, minlength=cells)
        found = np.cumsum(counts.reshape(n_k + 1, n_classes)[:n_k], axis=0, dtype=np.float64)
        return found if self.ends is None else found * 0.5


def _ascending(column):
    """(order, sorted scores, :func:`_tie_ends_if_any`) of a column sorted ascending.

    An unstable sort is fine, since ties are grouped in runs; but distinct
    scores have one order only, so a stable order held for the report (see
    :mod:`polyroc._engine.score_orders`) serves them, and the order of
    distinct scores sorted here is offered as the stable one.
    """
    order = known_order(column, descending=False)
    if order is not None:
        score = column.take(order)
        if _tie_ends_if_any(score) is None:
            return order, score, None
    order = np.argsort(column)
    score = column.take(order)
    ends = _tie_ends_if_any(score)  # None: every score distinct
    if ends is None:
        offer_order(column, order, descending=False)
    return order, score, ends


def _tie_ends_if_any(sorted_score):
    """:func:`tie_ends` of a sorted array, or None when its values are all distinct (no array of differences)."""
    distinct = sorted_score[1:] != sorted_score[:-1]
    if np.all(distinct):
        return None
    return np.append(np.flatnonzero(distinct), sorted_score.size - 1)


def cumulative(values, dtype=np.float64):
    """Cumulative sum with a leading 0: ``out[i]`` is the sum of ``values[:i]``."""
    out = np.zeros(values.size + 1, dtype=dtype)
    np.cumsum(values, out=out[1:])
    return out


class Positives:
    """The true-class cells of a score matrix (one per row) sorted, to rank the other cells among them (micro AUC).

    For a negative cell (row i, column j != y_i) with score s, ``above`` is
    the positive weight above s plus half the positive weight tied with it.
    Each negative cell is below the positives from the number of positive
    scores at most s on, and tied with those from the number below s on; a
    ``bincount`` of these numbers (:meth:`places`) gives, cumulated, the
    negative weight below each positive plus half the tied.
    """

    def __init__(self, y, scores, weights):
        true_score = np.take_along_axis(scores, y[:, None].astype(np.intp), axis=1)[:, 0]
        self.order = np.argsort(true_score)
        self.score = true_score.take(self.order)
        del true_score
        self.cumulative = None if weights is None else cumulative(weights.take(self.order))  # None: counts

    def above(self, negatives):
        """(``above`` per negative score, sorted ascending; number of positives below; at most each score)."""
        below = np.searchsorted(self.score, negatives, side="left")
        tied = any(
            np.any(self.score.take(below[start : start + BLOCK], mode="clip") == negatives[start : start + BLOCK])
            for start in range(0, below.size, BLOCK)
        )
        up_to = np.searchsorted(self.score, negatives, side="right") if tied else below
        if self.cumulative is None:
            above = np.add(below, up_to, dtype=np.float64)
            total = self.score.size
        else:
            above = self.cumulative.take(below)
            above += self.cumulative.take(up_to)
            total = self.cumulative[-1]
        above *= -0.5
        above += total
        return above, below, up_to

    def places(self, below, up_to, weight):
        """Twice the per-positive-rank counts of negatives whose run starts (ends) there, from :meth:`above`."""
        size = self.score.size + 1
        counts = np.bincount(up_to, weights=weight, minlength=size)
        return counts * 2 if up_to is below else counts + np.bincount(below, weights=weight, minlength=size)


def micro_negatives(ranked):
    """The negative cells of a :class:`RankedColumn` k (rows of other classes): sorted scores and weights."""
    others = ~ranked.is_k
    weight = None if ranked.weight is None else ranked.weight[others]
    return ranked.score[others], weight


def ranking_wins(y, scores, weights, *, pairwise=True, micro=False):
    """Matrix ``wins[k, j]`` (None unless ``pairwise``) and the micro-average wins (None unless ``micro``).

    ``wins[k, j]`` counts the correctly ranked (class k, class j) pairs on
    column k (ties half), from one sort per column: with the class sizes W,
    ``wins[k, j] / (W_k W_j)`` is Hand & Till's ``A(k|j)``, and row k summed
    over ``j != k`` is the numerator of the one-vs-rest AUC of class k. The
    micro wins count the correctly ranked (positive cell, negative cell)
    pairs of the binarized labels against the scores, from the same sorts
    (:class:`Positives`), never from a sort of the n m cells.
    """
    n_classes = scores.shape[1]
    codes = y.astype(np.min_scalar_type(n_classes))
    positives = Positives(y, scores, weights) if micro else None

    def one_column(k):
        column = np.ascontiguousarray(scores[:, k])
        if positives is None:
            grid = grid_codes(column)
            if grid is not None:
                return _grid_wins(k, *grid, codes, weights, n_classes), 0.0
        ranked = RankedColumn(k, column, codes, weights, n_classes)
        del column
        if positives is None:
            return ranked.wins, 0.0
        negatives, weight = micro_negatives(ranked)
        above = positives.above(negatives)[0]
        return ranked.wins, float(above.sum() if weight is None else above @ weight)

    mapper = chunk_map if y.size >= PARALLEL_MIN_SAMPLES else map
    wins = np.empty((n_classes, n_classes))
    micro_wins = 0.0
    for k, (row, micro_part) in enumerate(mapper(one_column, range(n_classes))):
        wins[k] = row
        micro_wins += micro_part
    return (wins if pairwise else None), (micro_wins if micro else None)


def _grid_wins(k, values, value_codes, codes, weights, n_classes):
    """Row k of the pairwise wins from the weight of each class at each grid point of column k (:func:`grid_codes`).

    A sample of class j at value v wins against the class-k weight above v
    plus half the class-k weight at v (the same count as :class:`RankedColumn`).
    """
    cells = value_codes * n_classes
    cells += codes
    weight = np.bincount(cells, weights=weights, minlength=values.size * n_classes).reshape(values.size, n_classes)
    own = weight[:, k].astype(np.float64)
    above = own.sum() - np.cumsum(own)  # class-k weight strictly above each value
    above += own * 0.5
    return above @ weight


def pairwise_wins(y, scores, weights):
    """Matrix ``wins[k, j]``: correctly ranked (class k, class j) pairs on column k (:func:`ranking_wins`)."""
    return ranking_wins(y, scores, weights)[0]


def micro_from_wins(micro_wins, y, weights, n_classes):
    """Micro-average AUC from its wins: ``wins / (W^2 (m - 1))``."""
    total = y.size if weights is None else weights.sum()
    return float(micro_wins / (total * total * (n_classes - 1)))


def micro_auc(y, scores, weights):
    """AUC of the binarized labels against the raveled scores."""
    return micro_from_wins(ranking_wins(y, scores, weights, pairwise=False, micro=True)[1], y, weights, scores.shape[1])


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
