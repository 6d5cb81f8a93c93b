"""Pairwise TPR/FPR matrices of ROC-DMF: one column per ordered class pair, one row per level.

For the ordered pair j = (a, b), class a is the positive ("classification")
class and b the negative ("reference") class; both are scored by column a of
the score matrix. At row t the cut-off is a quantile of the pair's scores
and a sample counts as predicted positive when its score is strictly above it.
Rows are ordered by *decreasing* cut-off, so the rates increase down a column.

Every column of the score matrix is sorted once; a pair's pool (its samples in
that sorted order) is cut out of it, and the cut-offs and the counts above
them are found with ``searchsorted``: O(k n log n + K (n + T log n)) in all.
Bootstrap replicates are handled as integer *multiplicities* of the samples,
a batch of them at a time, so that the same code computes the point estimate
(multiplicity 1) and every replicate: a replicate is the multiset in which
sample i appears m_i times, and its quantiles and counts are read off
cumulative sums of the multiplicities.

For a batch of b replicates, the cumulative sums of all rows are taken as one
flat cumulative sum (each row's values offset by the total of the rows before
it), so that a single ``searchsorted`` finds a position in every row at once.
The counts above a cut-off need, per column, one cumulative sum of the
multiplicities with the samples grouped by class (each class in score order),
which every pair of that column shares.

Sample weights (relative importance) enter the same way, as real
multiplicities: a rate is the weighted share of its class above the cut-off,
so integer weights give the rates of repeated rows whenever they give the
same cut-offs. The ``"balanced"`` grid is a quantile of the weighted
distribution functions, so it is unchanged by repeating rows; the type-7
quantile of ``"pooled"`` and ``"column"`` interpolates between order
statistics at a position that depends on the sample size, which weighted
data have only as an effective size: with weights it is the weighted type-7
estimator of Akinshin (2023), "Weighted quantile estimators",
arXiv:2304.07265, which uses Kish's effective size and equals numpy's
``"linear"`` quantile for equal weights.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.numeric import divide
from polyroc._engine.replicate_columns import (
    byte_lane_offsets,
    byte_lane_sums,
    gathered_rows,
    sample_major,
    transposed,
)
from polyroc._engine.score_orders import ascending_order
from polyroc._results import Result
from polyroc._text import count_noun
from polyroc._validation import (
    check_class_support,
    check_positive_int,
    check_quantile_levels,
    check_scores,
    scale_weights,
)
from polyroc._validation._params import Options, validate_params
from polyroc.exceptions import UndefinedMetricWarning

CUTOFF_GRIDS = ("pooled", "column", "balanced")
#: Window ends of the weighted type-7 quantile within this share of the total weight of an atom's end are on it.
WEIGHTED_QUANTILE_RTOL = 1e-12
BALANCED_RTOL = 1e-12
#: Largest rate matrix (2T × K cells) accepted: the solver's six float64 work arrays take 200 MiB.
MAX_CELLS = 2**22
#: Byte counts of fewer samples than this are summed two replicates to a 64-bit word (no class total reaches 2**32).
PACKED_SAMPLES = 2**24


class Column(NamedTuple):
    """All samples in increasing order of one score column, and grouped by class."""

    order: np.ndarray  # sample indices, in score order
    scores: np.ndarray  # their scores, non-decreasing
    own_class: np.ndarray  # the indices of the samples of the column's class, in score order
    grouped: np.ndarray  # sample indices class by class (classes in index order), each class in score order
    starts: np.ndarray  # (k + 1,) where each class begins in ``grouped``


class Pool(NamedTuple):
    """The samples of one pair's two classes, in the order of the pair's score column."""

    samples: np.ndarray  # sample indices, in score order
    scores: np.ndarray  # their scores, non-decreasing
    positive: np.ndarray  # True where the sample is of the positive class
    positives_before: np.ndarray  # (m + 1,) number of positive samples among the first i


class ColumnPools(NamedTuple):
    """The pools of the pairs (a, ·) of one column a, concatenated (each :class:`Pool` is a view of them).

    ``coarse_positive`` and ``coarse_negative`` locate, in the class running
    sums of :class:`_ClassSums`, the positives and the negatives among the first
    p samples of a pool for p = 0, s, 2s, ... and the pool's size (s =
    ``step``, see :func:`coarse_step`), pool after pool from ``coarse_start``.
    """

    positive_class: int
    pairs: np.ndarray  # (p,) indices of the pairs in PairPools.pairs
    negative: np.ndarray  # (p,) their negative classes
    scores: np.ndarray  # the pools' scores, one pool after another
    score_start: np.ndarray  # (p,) where each pool begins in ``scores``
    tied: np.ndarray  # True where the next score of the same pool is equal
    sizes: np.ndarray  # (p,) pool sizes
    before: np.ndarray  # the pools' ``positives_before`` (m + 1 entries each), one after another
    before_start: np.ndarray  # (p,) where each pool begins in ``before``
    coarse_positive: np.ndarray
    coarse_negative: np.ndarray
    coarse_start: np.ndarray  # (p + 1,)
    step: int  # the positions between coarse points, s


class PairPools(NamedTuple):
    """Everything about the data that does not change between bootstrap replicates."""

    pairs: np.ndarray  # (K, 2) class indices (positive, negative)
    pools: list  # K pools, one per pair
    columns: list  # k sorted columns
    mode: str
    by_column: list  # k ColumnPools (None for a column without pairs)


class Rates(NamedTuple):
    """Rates of a batch of replicates, each of shape (b, T, K)."""

    tpr: np.ndarray
    fpr: np.ndarray
    cutoffs: np.ndarray


@dataclass(frozen=True, eq=False, repr=False)
class PairwiseRates(Result):
    """The pairwise TPR/FPR matrices of ROC-DMF and how they were built.

    Attributes
    ----------
    tpr, fpr : ndarray of shape (T, K)
        ``tpr[t, j]`` is the (weighted) share of the class-a samples,
        ``fpr[t, j]`` that of the class-b samples, whose column-a score is
        strictly above ``cutoffs[t, j]``, for the pair ``pairs[j] = (a, b)``.
    cutoffs : ndarray of shape (T, K)
        The score cut-offs, decreasing down each column.
    levels : ndarray of shape (T,)
        The quantile level of each row, in row order (decreasing).
    pairs : ndarray of shape (K, 2)
        The ordered class pairs (positive, negative) as labels, lexicographic.
    dropped_pairs : tuple of tuple
        Pairs left out because one of their classes has no samples.
    n_pos, n_neg : ndarray of shape (K,)
        Size of the positive and of the negative class of each pair: the
        number of samples, or with sample weights Kish's effective size
        ``(Σw)² / Σw²`` of the class.
    classes : ndarray
        The class order (the columns of the score matrix).
    settings : dict
        ``cutoff_grid`` and ``n_levels``.

    See Also
    --------
    pairwise_rates : Makes this result.
    polyroc.dmf.roc_dmf : Factorizes these matrices into one curve.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> P = [[.7, .2, .1], [.5, .3, .2], [.2, .6, .2], [.3, .4, .3], [.1, .2, .7], [.3, .3, .4]]
    >>> rates = pairwise_rates(y, P, levels=[0.25, 0.5, 0.75])
    >>> rates.tpr.shape, rates.levels.tolist(), rates.n_pos.tolist()
    ((3, 6), [0.75, 0.5, 0.25], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0])
    >>> rates.pairs[:2].tolist(), rates.tpr[0, :2].tolist(), rates.fpr[0, :2].tolist()  # first row, pairs (0, b)
    ([[0, 1], [0, 2]], [0.5, 0.5], [0.0, 0.0])
    """

    tpr: np.ndarray
    fpr: np.ndarray
    cutoffs: np.ndarray
    levels: np.ndarray
    pairs: np.ndarray
    dropped_pairs: tuple
    n_pos: np.ndarray
    n_neg: np.ndarray
    classes: np.ndarray
    settings: dict

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per (level, pair): the cut-off and both rates."""
        return [
            {
                "level": float(level),
                "positive": self.pairs[j, 0].item(),
                "negative": self.pairs[j, 1].item(),
                "cutoff": float(self.cutoffs[t, j]),
                "tpr": float(self.tpr[t, j]),
                "fpr": float(self.fpr[t, j]),
            }
            for t, level in enumerate(self.levels)
            for j in range(self.pairs.shape[0])
        ]


class Problem(NamedTuple):
    """Validated inputs of ROC-DMF: encoded labels, scores, pools, levels and relative weights."""

    y: np.ndarray
    scores: np.ndarray
    classes: np.ndarray
    pools: PairPools
    levels: np.ndarray  # in row order: decreasing
    dropped: tuple
    weights: np.ndarray | None  # positive relative weights, None when all samples weigh the same


@validate_params({"cutoff_grid": [Options(CUTOFF_GRIDS)]})
def pairwise_rates(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    levels: ArrayLike | None = None,
    n_levels: int = 99,
    cutoff_grid: str = "pooled",
) -> PairwiseRates:
    """Pairwise TPR and FPR matrices (T × K) for every ordered pair of classes.

    The rate matrices of ROC-DMF (Wang & Carvalho (2024), "Multiclass ROC",
    arXiv:2404.13147). With two classes both ordered pairs are returned (the
    paper's section 3.1 builds both); :func:`roc_dmf` factorizes only the first,
    (first class, second class), which is the binary ROC.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_score : array-like of shape (n, k)
        Scores, one column per class in the order of ``labels``. Rows need not
        sum to 1.
    labels : array-like of shape (k,), optional
        Class order; default the sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n,), optional
        Non-negative weights of relative importance (scale-free, as in
        scikit-learn): each rate is the weighted share of its class above the
        cut-off, and the cut-offs are weighted quantiles (see the module
        notes). A sample of weight 0 takes no part.
    levels : array-like of shape (T,), optional
        Increasing quantile levels in (0, 1), T >= 2. Default ``t / (n_levels + 1)``
        for t = 1..n_levels.
    n_levels : int, default=99
        Number of levels when ``levels`` is None; >= 2.
    cutoff_grid : {"pooled", "column", "balanced"}, default="pooled"
        Where the row-t cut-off of pair (a, b) comes from: the type-7
        ``levels[t]``-quantile of the column-a scores of classes a and b
        (``"pooled"``), of all samples (``"column"``), or the inverse-CDF
        quantile of the equal-weight mixture of the two classes (``"balanced"``,
        which makes the rates invariant to the class sizes).

    Returns
    -------
    PairwiseRates

    Raises
    ------
    ValueError, TypeError
        For invalid labels, scores or ``sample_weight``; ``y_score`` is a
        DataFrame whose column names are some of the classes but not all;
        fewer than 2 classes with samples, bad levels, more levels than fit in memory
        (2 T K > 2**22 cells) or an unknown ``cutoff_grid``.

    Warns
    -----
    UndefinedMetricWarning
        When a class named in ``labels`` has no samples; its pairs are dropped.

    See Also
    --------
    roc_dmf : The multiclass ROC curve factorized from these matrices.
    polyroc.metrics.roc_auc_score : Hand & Till's M, from the same pairwise comparisons.

    References
    ----------
    Wang, L. & Carvalho, L. (2024). Multiclass ROC. arXiv:2404.13147.
    Section 3.1 (binary) and Section 3.2 (the pairwise TPR and FPR
    matrices, one column per ordered class pair).

    Examples
    --------
    >>> y = [0, 0, 1, 1]
    >>> P = [[0.9, 0.1], [0.6, 0.4], [0.3, 0.7], [0.2, 0.8]]
    >>> r = pairwise_rates(y, P, levels=[0.25, 0.5, 0.75])
    >>> r.pairs.tolist()
    [[0, 1], [1, 0]]
    >>> r.tpr[:, 0].tolist(), r.fpr[:, 0].tolist()
    ([0.5, 1.0, 1.0], [0.0, 0.0, 0.5])
    """
    problem = prepare_problem(
        y_true,
        y_score,
        labels=labels,
        sample_weight=sample_weight,
        levels=levels,
        n_levels=n_levels,
        cutoff_grid=cutoff_grid,
    )
    rates = batch_rates(problem.pools, problem.levels, weights=problem.weights)
    n_pos, n_neg = pair_sizes(problem)
    return PairwiseRates(
        tpr=rates.tpr[0],
        fpr=rates.fpr[0],
        cutoffs=rates.cutoffs[0],
        levels=problem.levels,
        pairs=problem.classes[problem.pools.pairs],
        dropped_pairs=problem.dropped,
        n_pos=n_pos,
        n_neg=n_neg,
        classes=problem.classes,
        settings={"cutoff_grid": problem.pools.mode, "n_levels": int(problem.levels.size)},
    )


def prepare_problem(
    y_true, y_score, *, labels, levels, n_levels, cutoff_grid, sample_weight=None, one_binary_pair=False
):
    """Validate the inputs, drop the pairs without samples and sort every column once.

    Rows of weight 0 are removed and the weights scaled (exactly) to a
    maximum in [0.5, 1); equal weights become None, the unweighted problem.
    With ``one_binary_pair``, two classes with samples give the single pair
    (first class, second class), the binary construction of Wang & Carvalho
    (2024), section 3.1.
    """
    y, scores, classes, weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight, require_simplex=False
    )
    y, scores, weights = _positive_rows(y, scores, weights)
    support = check_class_support(y, classes)
    pairs, dropped = _ordered_pairs(support)
    if one_binary_pair and len(pairs) == 2:
        pairs = pairs[:1]
    if levels is None:
        n_levels = check_positive_int("n_levels", n_levels, minimum=2)
        check_problem_size("n_levels", n_levels, len(pairs))
        levels = np.arange(1, n_levels + 1) / (n_levels + 1)
    levels = check_quantile_levels("levels", levels)
    check_problem_size("levels", levels.size, len(pairs))
    if dropped:
        named = ", ".join(f"({classes[a]!r}, {classes[b]!r})" for a, b in dropped)
        _warnings.warn(
            f"classes {classes[support == 0].tolist()} have no samples in y_true; "
            f"{count_noun(len(dropped), 'class pair')} {'is' if len(dropped) == 1 else 'are'} undefined and dropped: "
            f"{named}",
            UndefinedMetricWarning,
        )
    pools = _build_pools(y, scores, pairs, cutoff_grid, levels.size)
    dropped_labels = tuple((classes[a].item(), classes[b].item()) for a, b in dropped)
    return Problem(y, scores, classes, pools, levels[::-1].copy(), dropped_labels, weights)


def _positive_rows(y, scores, weights):
    """The rows of positive weight and their :func:`relative_weights`."""
    if weights is None:
        return y, scores, None
    keep = weights > 0
    return y[keep], scores[keep], relative_weights(weights[keep])


def relative_weights(weights):
    """Checked weights scaled exactly to a maximum in [0.5, 1); None (unweighted) when all are equal.

    >>> relative_weights(np.array([3.0, 3.0])) is None, relative_weights(np.array([1.0, 3.0])).tolist()
    (True, [0.25, 0.75])
    """
    if weights is None:
        return None
    weights = scale_weights(weights).weights
    return None if np.all(weights == weights[0]) else weights


def check_problem_size(name, n_levels, n_pairs):
    """Refuse rate matrices (2T × K) too large to factorize in memory, naming their size."""
    cells = 2 * n_levels * n_pairs
    if cells > MAX_CELLS:
        raise ValueError(
            f"{name}: {n_levels:,} levels for {n_pairs} class pairs make {cells:,} matrix cells; the "
            f"factorization holds several float64 arrays of that size (about {6 * 8 * cells / 2**30:.1f} GiB), "
            f"and at most {MAX_CELLS:,} cells are allowed; use fewer levels"
        )


def class_sizes(y, n_classes, weights=None):
    """Samples per class (float), or with weights Kish's effective size ``(Σw)² / Σw²`` of each class.

    >>> class_sizes(np.array([0, 0, 1]), 2).tolist()
    [2.0, 1.0]
    >>> class_sizes(np.array([0, 0, 1]), 2, np.array([1.0, 3.0, 2.0])).tolist()
    [1.6, 1.0]
    """
    if weights is None:
        return np.bincount(y, minlength=n_classes).astype(np.float64)
    total = np.bincount(y, weights=weights, minlength=n_classes)
    return divide(total * total, np.bincount(y, weights=weights * weights, minlength=n_classes), 0.0)


def pair_sizes(problem):
    """Size (number, or effective size with weights) of the positive and negative class of each pair (K,)."""
    support = class_sizes(problem.y, problem.classes.size, problem.weights)
    pairs = problem.pools.pairs
    return support[pairs[:, 0]], support[pairs[:, 1]]


def _ordered_pairs(support):
    """Lexicographic ordered pairs of classes with samples, and the pairs left out."""
    k = support.size
    every = [(a, b) for a in range(k) for b in range(k) if a != b]
    kept = [p for p in every if support[p[0]] > 0 and support[p[1]] > 0]
    dropped = [p for p in every if p not in kept]
    return np.array(kept, dtype=np.intp).reshape(-1, 2), dropped


def _build_pools(y, scores, pairs, mode, n_levels):
    """Sort each score column once, group it by class and cut out every pair's samples."""
    k = scores.shape[1]
    small_labels = y.astype(np.min_scalar_type(k))
    starts = np.concatenate(([0], np.cumsum(np.bincount(y, minlength=k))))
    columns, by_column, pools = [], [], [None] * len(pairs)
    for a in range(k):
        column_scores = np.ascontiguousarray(scores[:, a])
        order = ascending_order(column_scores)
        labels = small_labels[order]
        grouped = order[np.argsort(labels, kind="stable")]
        column = Column(order, column_scores[order], grouped[starts[a] : starts[a + 1]], grouped, starts)
        columns.append(column)
        in_column = np.flatnonzero(pairs[:, 0] == a)
        by_column.append(
            _column_pools(column, labels, a, in_column, pairs[in_column, 1], pools, n_levels)
            if in_column.size
            else None
        )
    return PairPools(pairs, pools, columns, mode, by_column)


def _column_pools(column, labels, a, in_column, negatives, pools, n_levels):
    """The :class:`ColumnPools` of column a's pairs; fills their entries of ``pools`` with views of it."""
    positions = [np.flatnonzero((labels == a) | (labels == b)) for b in negatives]
    sizes = np.array([p.size for p in positions], dtype=np.intp)
    score_start = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    before_start = score_start + np.arange(sizes.size)
    everything = np.concatenate(positions)
    samples, scores, positive = column.order[everything], column.scores[everything], labels[everything] == a
    tied = np.append(scores[1:] == scores[:-1], False)
    tied[score_start + sizes - 1] = False  # a pool's last score
    # int32 (half the memory the bisection reads at random) while twice a count fits
    before = np.zeros(everything.size + sizes.size, dtype=np.int32 if everything.size < 2**30 else np.intp)
    base = column.starts[:-1] + np.arange(column.starts.size - 1)  # class c's running sums begin at base[c]
    step = coarse_step(int(sizes.sum()), 2 * n_levels * sizes.size)
    coarse_positive, coarse_negative = [], []
    for j, b, size, start, first in zip(in_column, negatives, sizes, score_start, before_start):
        own = before[first : first + size + 1]
        np.cumsum(positive[start : start + size], out=own[1:])
        pools[j] = Pool(
            samples[start : start + size], scores[start : start + size], positive[start : start + size], own
        )
        coarse = np.append(np.arange(0, size, step), size)
        coarse_positive.append(base[a] + own[coarse])
        coarse_negative.append(base[b] + coarse - own[coarse])
    coarse_start = np.concatenate(([0], np.cumsum([c.size for c in coarse_positive])))
    return ColumnPools(
        a, in_column, negatives, scores, score_start, tied, sizes, before, before_start,
        np.concatenate(coarse_positive), np.concatenate(coarse_negative), coarse_start, step,
    )  # fmt: skip


def batch_rates(pools, levels, multiplicities=None, weights=None, positions=None, *, by_sample=False):
    """Rates (b, T, K) of a batch of replicates given as multiplicities (b, n); None is b = 1.

    ``weights`` (n,), the relative sample weights, multiply the
    multiplicities. ``positions`` (n,), when given, is the column of each
    sample in ``multiplicities`` (e.g. the class-by-class layout of
    :func:`polyroc.resampling.stratum_multiplicities`); default the sample order.
    With ``by_sample``, ``multiplicities`` are held sample by sample (n, b), as
    :func:`polyroc.intervals._resampling.sample_major_multiplicities` draws them.
    Integer multiplicities take :func:`_rates_by_column`, real ones (sample
    weights) :func:`_rates_by_pair`.
    """
    n_samples = pools.columns[0].order.size
    if weights is not None:
        if by_sample:
            multiplicities, by_sample = transposed(multiplicities), False
        if positions is not None:
            multiplicities, positions = multiplicities[:, positions], None
        multiplicities = weights[None] if multiplicities is None else multiplicities * weights
    if by_sample:
        return _rates_by_column(pools, levels, multiplicities, positions)
    weights = _compact(multiplicities, n_samples)
    if weights.dtype.kind == "f":
        return _rates_by_pair(pools, levels, weights)
    return _rates_by_column(pools, levels, sample_major(weights, weights.dtype), positions)


def coarse_step(pool_samples, order_statistics):
    """Pool positions s between the coarse points of :func:`_coarse_bracket`: a power of 2, 1 for small pools.

    The coarse points cost about 5 operations each (pool_samples / s of them),
    the bisection about 13 per order statistic and step (log2 s steps); s
    minimises the sum.

    >>> coarse_step(360, 1980), coarse_step(19 * 10**4, 19 * 198), coarse_step(9 * 2 * 10**5, 9 * 198)
    (1, 16, 256)
    """
    steps = 2 ** np.arange(11)
    return int(steps[np.argmin(5 * pool_samples / steps + 13 * order_statistics * np.arange(11))])


def _rates_by_column(pools, levels, by_sample, positions):
    """Rates of integer multiplicities (n, b), one score column at a time, with no pass over a pair's pool.

    Per column and replicate, one running sum of the multiplicities grouped by
    class (:class:`_ClassSums`) gives the weight of any class below any
    position of the column. A pair's merged pool is never summed: the weight
    of its first p samples is the positives' running sum at
    ``positives_before[p]`` plus the negatives' at ``p - positives_before[p]``,
    and the order statistics of the type-7 and balanced quantiles are found by
    bisection on p (:func:`_first_reaching`), a few dozen look-ups per cut-off.
    """
    batch, n_pairs = by_sample.shape[1], len(pools.pools)
    shape = (batch, n_pairs, levels.size)
    tpr, fpr, cutoffs = np.empty(shape), np.empty(shape), np.empty(shape)
    source = _SumSource(by_sample)
    for column, pooled in zip(pools.columns, pools.by_column):
        if pooled is None:
            continue
        sums = source.class_sums(
            column.grouped if positions is None else positions[column.grouped], column.starts, pooled
        )
        known = None
        if pools.mode == "pooled":
            column_cutoffs, known = _pooled_cutoffs(pooled, sums, levels)
        elif pools.mode == "balanced":
            column_cutoffs, known = _balanced_cutoffs(pooled, sums, levels)
        else:
            in_layout = column.order if positions is None else positions[column.order]
            ordered = gathered_rows(by_sample, in_layout)
            flat = np.zeros(ordered.size + 1, dtype=np.int64)
            np.cumsum(ordered, out=flat[1:])
            column_cutoffs = np.repeat(
                _type7_quantile(column.scores, ordered, levels, flat)[:, None], pooled.pairs.size, 1
            )
        cutoffs[:, pooled.pairs] = column_cutoffs
        tpr[:, pooled.pairs], fpr[:, pooled.pairs] = _rates_at(pooled, sums, column_cutoffs, known)
    return Rates(*(np.ascontiguousarray(x.transpose(0, 2, 1)) for x in (tpr, fpr, cutoffs)))


class _SumSource:
    """A batch's multiplicities (n, b) held for :class:`_ClassSums`, with the buffers its columns share.

    Byte counts (``uint8``, n < 2**24) are padded to a multiple of 8
    replicates and viewed as 64-bit words, whose running sums
    :func:`~polyroc._engine.replicate_columns.byte_lane_sums` takes two
    replicates at a time; wider counts are gathered back into rows (b, n) and
    summed along them. The buffers (fresh multi-megabyte arrays cost page
    faults) make a :class:`_ClassSums` valid until the next one is made.
    """

    def __init__(self, by_sample):
        n, self.batch = by_sample.shape
        self.words = None
        if by_sample.dtype == np.uint8 and n < PACKED_SAMPLES:
            padded = by_sample
            if self.batch % 8:
                padded = np.zeros((n, -(-self.batch // 8) * 8), dtype=np.uint8)
                padded[:, : self.batch] = by_sample
            self.words = padded.view(np.uint64)
        self.by_sample = by_sample
        self.gathered = self.table = None

    def class_sums(self, samples, starts, pooled):
        """The :class:`_ClassSums` of the samples in the order ``samples`` (n,), grouped by ``starts``."""
        width = samples.size + starts.size - 1
        if self.words is not None:
            # mode='clip' spares numpy's copy of ``out`` (the samples are valid indices)
            self.gathered = np.take(self.words, samples, axis=0, out=self.gathered, mode="clip")
            self.table = byte_lane_sums(self.gathered, starts, out=self.table)
            offsets, stride = byte_lane_offsets(self.batch, width)
            return _ClassSums(self.table.view(np.uint32).ravel(), offsets, stride, starts, pooled)
        self.gathered = gathered_rows(self.by_sample, samples, out=self.gathered)
        self.table = _row_sums(self.gathered, starts, self.table)
        return _ClassSums(self.table.ravel(), np.arange(self.batch) * width, 1, starts, pooled)


def _row_sums(rows, starts, buffer=None):
    """Running sums (b, n + k) of rows (b, n) within each group ``starts``, each group's starting with a 0.

    Held in int32 when no row can exceed it (half the memory to write and
    read), else int64; in ``buffer`` when it has that shape and type.
    """
    batch, n = rows.shape
    k = starts.size - 1
    base = starts[:-1] + np.arange(k)
    largest = np.iinfo(rows.dtype).max if rows.dtype.kind in "iu" else np.iinfo(np.int64).max
    accumulator = np.int32 if n * int(largest) <= np.iinfo(np.int32).max else np.int64
    reusable = buffer is not None and buffer.shape == (batch, n + k) and buffer.dtype == accumulator
    table = buffer if reusable else np.empty((batch, n + k), dtype=accumulator)
    for c in range(k):
        table[:, base[c]] = 0
        np.cumsum(
            rows[:, starts[c] : starts[c + 1]],
            axis=1,
            dtype=accumulator,
            out=table[:, base[c] + 1 : base[c + 1] if c + 1 < k else None],
        )
    return table


class _ClassSums:
    """Running sums of the multiplicities of each class in one column's score order, for a batch.

    ``flat[offsets[r] + stride * (base[c] + t)]`` is the weight of the first
    t samples of class c (in the column's score order) in replicate r, with
    ``base[c] = starts[c] + c`` (each class's sums start with a 0); see
    :class:`_SumSource` for the two layouts. ``positive`` (b, 1, 1) and
    ``negative`` (b, p, 1) are the offsets ``offsets[r] + stride * base[c]``
    of the column's pairs' positive and negative classes, ``n_positive``
    (b, 1, 1) and ``n_negative`` (b, p, 1) their total weights (int64).
    """

    def __init__(self, flat, offsets, stride, starts, pooled):
        k = starts.size - 1
        base = starts[:-1] + np.arange(k)
        self.flat, self.offsets, self.stride = flat, offsets, stride
        lanes = offsets.astype(np.int64)[:, None, None]
        self.positive = lanes + stride * base[pooled.positive_class]
        self.negative = lanes + stride * base[pooled.negative][None, :, None]
        sizes = np.diff(starts)
        self.n_positive = np.take(flat, self.positive + stride * sizes[pooled.positive_class]).astype(np.int64)
        self.n_negative = np.take(flat, self.negative + stride * sizes[pooled.negative][None, :, None]).astype(np.int64)

    def at(self, positions):
        """The sums (b, m) at table positions ``positions`` (m,) (``base[c] + t``) of every replicate."""
        return np.take(self.flat, self.offsets[:, None] + self.stride * positions[None, :])

    def below(self, pooled, position):
        """Weights (positive, negative) of the first ``position`` (b, p, ...) samples of each pool."""
        extra = (1,) * (position.ndim - 3)
        start = pooled.before_start.reshape(1, -1, 1, *extra)
        positives = np.take(pooled.before, start + position)
        return (
            np.take(self.flat, self.positive.reshape(-1, 1, 1, *extra) + self.stride * positives),
            np.take(
                self.flat, self.negative.reshape(*self.negative.shape, *extra) + self.stride * (position - positives)
            ),
        )


def _pooled_cutoffs(pooled, sums, levels):
    """Type-7 quantiles (b, p, T) of each pool, as :func:`_type7_quantile` computes them, found by bisection.

    The ranks of the two order statistics are located first among the pool
    positions 0, s, 2s, ... (:func:`coarse_step`), whose weights are two
    look-ups each, with one ``searchsorted`` over all pools and replicates;
    bisection then needs only log2(s) steps. Also returns, for
    :func:`_rates_at`, pool positions with the weights below the cut-offs (-1
    where unknown): a cut-off between the two order statistics' scores
    (positions f0 - 1 and f1 - 1) has f0 to f1 - 1 scores at or below it, and
    the samples from f0 to f1 - 2 have no weight (the ranks are consecutive),
    so position f1 - 1 has the same weight below it; a cut-off on the second
    one's score has f1 at or below it unless the next score is equal.
    """
    count = sums.n_positive + sums.n_negative  # (b, p, 1)
    virtual = (count - 1) * levels
    below = np.floor(virtual)
    gamma = virtual - below
    ranks = np.minimum(np.stack([below, below + 1], axis=3), count[..., None] - 1).astype(np.int64)
    low, high = _coarse_bracket(pooled, sums, ranks, count)
    sizes = pooled.sizes.reshape(1, -1, 1, 1)
    found = _first_reaching(pooled, sums, lambda pos, neg: pos + neg > ranks, low, np.minimum(high, sizes), pooled.step)
    at = pooled.score_start.reshape(1, -1, 1, 1) + found - 1
    values = np.take(pooled.scores, at)
    cutoffs = _lerp(values[..., 0], values[..., 1], gamma)
    low, high, last = values[..., 0], values[..., 1], found[..., 1]
    known = np.where(cutoffs < high, last - 1, np.where(np.take(pooled.tied, at[..., 1]), -1, last))
    known[(cutoffs < low) | (cutoffs > high)] = -1
    return cutoffs, known


def _coarse_bracket(pooled, sums, ranks, count):
    """Pool positions (low, high) with at most ``ranks`` weight before ``low`` and more before ``high``."""
    batch, n_pools = ranks.shape[:2]
    coarse = sums.at(pooled.coarse_positive).astype(np.int64)
    coarse += sums.at(pooled.coarse_negative)
    # one increasing sequence: pool i of replicate r shifted by (r p + i) times more than any weight
    step = int(count.max()) + 2
    segment = np.repeat(np.arange(n_pools), np.diff(pooled.coarse_start))
    shift = (np.arange(batch)[:, None] * n_pools + np.arange(n_pools)[None, :]) * step
    coarse += shift[:, segment]
    keys = np.maximum(ranks, -1) + shift[:, :, None, None]
    found = np.searchsorted(coarse.ravel(), keys.ravel(), side="right").reshape(ranks.shape)
    first = np.arange(batch)[:, None] * segment.size + pooled.coarse_start[:-1][None, :]
    points = np.maximum(found - first[:, :, None, None], 1)  # coarse points with at most ``ranks`` before them
    return (points - 1) * pooled.step, points * pooled.step


def _balanced_cutoffs(pooled, sums, levels):
    """The balanced cut-offs (b, p, T) of :func:`_balanced_quantile`, with the same integer comparison.

    Also returns, for :func:`_rates_at`, the number of pool scores at or below
    each cut-off, -1 where the next score is equal (a tie).
    """
    n_pos, n_neg = sums.n_positive, sums.n_negative
    target = (2 * levels) * (n_pos * n_neg) * (1 - BALANCED_RTOL)
    low = np.zeros(target.shape, dtype=np.intp)
    high = np.broadcast_to(pooled.sizes.reshape(1, -1, 1), target.shape)
    found = _first_reaching(
        pooled, sums, lambda pos, neg: pos * n_neg + neg * n_pos >= target, low, high, int(pooled.sizes.max())
    )
    at = pooled.score_start.reshape(1, -1, 1) + found - 1
    return np.take(pooled.scores, at), np.where(np.take(pooled.tied, at), -1, found)


def _first_reaching(pooled, sums, reached, low, high, width):
    """Bisection: the first pool position in (low, high] whose weights before it are ``reached``.

    ``reached(positive, negative)`` must be monotone in the position, false at
    ``low`` and true at ``high``; ``width`` bounds ``high - low``.
    """
    for _ in range(int(width - 1).bit_length()):
        middle = (low + high) >> 1
        done = reached(*sums.below(pooled, middle))
        high = np.where(done, middle, high)
        low = np.where(done, low, middle)
    return high


def _rates_at(pooled, sums, cutoffs, known=None):
    """TPR and FPR (b, p, T) of each pool at its cut-offs: the weights strictly above them.

    ``known`` (b, p, T), when given, holds pool positions with as much weight
    before them as the scores at or below each cut-off (-1 where unknown);
    the others are found with ``searchsorted``.
    """
    at_or_below = np.full(cutoffs.shape, -1, dtype=np.intp) if known is None else known
    for i, (start, size) in enumerate(zip(pooled.score_start, pooled.sizes)):
        pool, unknown = at_or_below[:, i], at_or_below[:, i] < 0
        if unknown.any():
            pool[unknown] = np.searchsorted(pooled.scores[start : start + size], cutoffs[:, i][unknown], side="right")
    positive_below, negative_below = sums.below(pooled, at_or_below)
    tpr = (sums.n_positive - positive_below) / sums.n_positive
    fpr = (sums.n_negative - negative_below) / sums.n_negative
    return tpr, fpr


def _rates_by_pair(pools, levels, weights):
    """Rates (b, T, K) of real weights (b, n), pool by pool (the weighted quantiles need each pool's sums).

    For each pair, the weight of the pool at or below each cut-off comes from
    the cumulative weights of the pool, that of its positive class from the
    cumulative weights of the class in its column (shared by the column's
    pairs), and the negative class's is the difference.
    """
    batch, n_pairs = weights.shape[0], len(pools.pools)
    scratch = _Scratch(weights)
    shape = (batch, n_pairs, levels.size)
    cutoffs = np.empty(shape)
    pool_below = np.empty(shape, dtype=scratch.sums[0].dtype)
    positive_below = np.empty_like(pool_below)
    pool_total = np.empty((batch, n_pairs, 1), dtype=pool_below.dtype)
    positive_total = np.empty_like(pool_total)
    rows = np.arange(batch)[:, None]
    for a, column in enumerate(pools.columns):
        in_column = np.flatnonzero(pools.pairs[:, 0] == a)
        if in_column.size == 0:
            continue
        if pools.mode == "column":
            column_weights = scratch.take(column.order)
            cumulative = scratch.cumsum(column_weights, 1)
            column_cutoffs = _type7_quantile(column.scores, column_weights, levels, cumulative)
        positives_before = np.empty((batch, in_column.size, levels.size), dtype=np.intp)
        for i, j in enumerate(in_column):
            pool = pools.pools[j]
            pool_weights = scratch.take(pool.samples)
            cumulative = scratch.cumsum(pool_weights, 1)
            if pools.mode == "pooled":
                cutoffs[:, j] = _type7_quantile(pool.scores, pool_weights, levels, cumulative)
            elif pools.mode == "balanced":
                cutoffs[:, j] = _balanced_quantile(pool, pool_weights, levels)
            else:
                cutoffs[:, j] = column_cutoffs
            at_or_below = np.searchsorted(pool.scores, cutoffs[:, j], side="right")
            start = rows * pool.scores.size
            pool_below[:, j] = cumulative[start + at_or_below] - cumulative[start]
            pool_total[:, j] = cumulative[start + pool.scores.size] - cumulative[start]
            positives_before[:, i] = pool.positives_before[at_or_below]
        own = column.own_class.size
        cumulative = scratch.cumsum(scratch.take(column.own_class), 0)
        start = rows[:, :, None] * own
        positive_below[:, in_column] = cumulative[start + positives_before] - cumulative[start]
        positive_total[:, in_column] = cumulative[start + own] - cumulative[start]
    negative_total = pool_total - positive_total
    tpr = (positive_total - positive_below) / positive_total
    fpr = (negative_total - (pool_below - positive_below)) / negative_total
    return Rates(*(np.ascontiguousarray(x.transpose(0, 2, 1)) for x in (tpr, fpr, cutoffs)))


class _Scratch:
    """Buffers reused by every column and pair of a batch (fresh multi-megabyte arrays cost page faults)."""

    def __init__(self, weights):
        self.weights = weights
        size = weights.size
        self.taken = np.empty(size, dtype=weights.dtype)
        integer = weights.dtype.kind in "iub"
        self.sums = [np.empty(size + 1, dtype=np.int64 if integer else np.float64) for _ in range(2)]

    def take(self, samples):
        """The weights of ``samples`` (b, m), in a reused buffer."""
        out = self.taken[: self.weights.shape[0] * samples.size].reshape(-1, samples.size)
        return np.take(self.weights, samples, axis=1, out=out)

    def cumsum(self, weights, slot):
        """Cumulative weights of all rows (b, m) as one flat array with a leading zero (b m + 1,).

        ``flat[r * m + i]`` is the weight of rows 0..r-1 plus that of the first i
        entries of row r, so ``flat[r * m + i] - flat[r * m]`` is a row's own
        cumulative weight and the whole array is non-decreasing. Held in reused
        buffer ``slot`` (0 or 1) until the next call with the same slot.
        """
        flat = self.sums[slot][: weights.size + 1]
        flat[0] = 0
        np.cumsum(weights, out=flat[1:])
        return flat


def _compact(multiplicities, n):
    """Multiplicities (b, n) in the smallest unsigned integer type that holds them (less to move).

    None (the observed data) is a single replicate of ones. Non-integer
    multiplicities are left as they are.
    """
    if multiplicities is None:
        return np.ones((1, n), dtype=np.uint8)
    multiplicities = np.asarray(multiplicities)
    if multiplicities.dtype.kind not in "iu" or multiplicities.size == 0:
        return multiplicities
    low, high = multiplicities.min(), multiplicities.max()
    return multiplicities.astype(np.min_scalar_type(high), copy=False) if low >= 0 else multiplicities


def _type7_quantile(scores, weights, levels, flat):
    """Type-7 quantiles (numpy's ``"linear"``, same arithmetic) of weighted sorted scores.

    ``weights`` (b, m) holds integer multiplicities of ``scores``, so each
    replicate is the multiset in which score i appears that many times, and
    ``flat`` is their :meth:`_Scratch.cumsum`. Real weights (sample weights)
    give the weighted type-7 quantiles of :func:`_weighted_type7_quantile`.
    """
    if weights.dtype.kind == "f":
        return np.stack([_weighted_type7_quantile(scores, row, levels) for row in weights])
    batch, size = weights.shape
    offset = flat[:-1:size][:, None]  # weight of the rows before
    count = flat[size::size][:, None] - offset
    virtual = (count - 1) * levels
    below = np.floor(virtual)
    gamma = virtual - below
    ranks = np.minimum(np.stack([below, below + 1], axis=2), count[:, :, None] - 1).astype(np.int64)
    # the first entry whose cumulative weight exceeds the rank, in every row at once (keys in
    # increasing order, which searchsorted exploits, when the levels decrease)
    keys = (ranks + offset[:, :, None])[:, ::-1].reshape(batch, -1)
    found = np.searchsorted(flat[1:], keys, side="right")
    values = scores[found - np.arange(batch)[:, None] * size].reshape(batch, -1, 2)[:, ::-1]
    return _lerp(values[:, :, 0], values[:, :, 1], gamma)


def _weighted_type7_quantile(scores, weights, levels):
    """Akinshin's (2023, arXiv:2304.07265) weighted type-7 quantiles of sorted ``scores``.

    With Kish's effective size ``n* = (Σw)² / Σw²``, the type-7 quantile
    ``levels[t]`` is the mean of the weighted quantile function over the
    window ``[h / n*, (h + 1) / n*]`` of the cumulative weight share, with
    ``h = (n* - 1) levels[t]``: numpy's ``"linear"`` quantile for equal
    weights, and unchanged by scaling the weights. A window inside one value's
    share (ends within :data:`WEIGHTED_QUANTILE_RTOL` of its edges) gives that
    value exactly.

    >>> x = np.array([1.0, 2.0, 4.0, 7.0])
    >>> levels = np.array([0.9, 0.5, 0.2])
    >>> bool(np.allclose(_weighted_type7_quantile(x, np.full(4, 0.3), levels), np.quantile(x, levels)))
    True
    """
    keep = weights > 0
    scores, weights = scores[keep], weights[keep]
    total = weights.sum()
    cumulative = np.cumsum(weights)
    effective = total * total / (weights @ weights)
    start = (effective - 1) * levels * (total / effective)
    end = start + total / effective
    tolerance = WEIGHTED_QUANTILE_RTOL * total
    last = scores.size - 1
    first_atom = np.minimum(np.searchsorted(cumulative, start + tolerance, side="right"), last)
    last_atom = np.minimum(np.searchsorted(cumulative, end - tolerance, side="left"), last)
    before = np.concatenate(([0.0], cumulative[:-1]))
    integral = np.concatenate(([0.0], np.cumsum(scores * weights)))

    def area_up_to(position, atom):
        return integral[atom] + scores[atom] * (position - before[atom])

    mean = (area_up_to(end, last_atom) - area_up_to(start, first_atom)) / (end - start)
    low, high = scores[first_atom], scores[last_atom]
    return np.where(low == high, low, np.clip(mean, low, high))


def _lerp(low, high, t):
    """numpy's quantile interpolation, so that the cut-offs equal ``numpy.quantile``'s."""
    diff = high - low
    return np.where(t >= 0.5, high - diff * (1 - t), low + diff * t)


def _balanced_quantile(pool, weights, levels):
    """Smallest score at which the mixture ½F_pos + ½F_neg reaches each level.

    The comparison ``c_pos/n_pos + c_neg/n_neg >= 2τ`` is made in integers,
    ``c_pos n_neg + c_neg n_pos >= 2τ n_pos n_neg``, with a relative tolerance
    of 1e-12 so that a level such as 0.1 is met when the mixture is exactly
    0.1. Duplicating every sample of a class leaves the cut-offs unchanged,
    and so do real weights of any scale.
    """
    if weights.dtype.kind in "ub":
        weights = weights.astype(np.int64)
    cum_pos = np.cumsum(weights * pool.positive, axis=1)
    cum_neg = np.cumsum(weights, axis=1) - cum_pos
    n_pos, n_neg = cum_pos[:, -1:], cum_neg[:, -1:]
    mixture = cum_pos * n_neg + cum_neg * n_pos
    target = (2 * levels) * (n_pos * n_neg) * (1 - BALANCED_RTOL)
    return pool.scores[batched_searchsorted(mixture, target, side="left")]


def batched_searchsorted(sorted_rows, values, *, side):
    """``np.searchsorted`` of ``values[r]`` in ``sorted_rows[r]`` for every row r (of a small batch).

    >>> batched_searchsorted(np.array([[1, 2, 2, 5], [0, 0, 3, 3]]), np.array([[2], [3]]), side="right")
    array([[3],
           [4]])
    """
    return np.stack([np.searchsorted(row, v, side=side) for row, v in zip(sorted_rows, values)])
