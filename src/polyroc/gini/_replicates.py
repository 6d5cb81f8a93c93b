"""Bootstrap replicates of the Gini-weighted ROC curve, a chunk of replicates at a time.

Row r of a chunk ``weight_rows`` (b, n) weights sample s by its bootstrap
multiplicity times its sample weight. The one-vs-rest curves use the raw score
columns, whose order does not depend on the replicate: each column is sorted
once (descending), and a chunk is gathered into that order, cumulated along
the rows and read at the tie groups that hold positives. Between those groups
a curve is flat, so the area (Mann-Whitney, ties counted one half) and the TPR
at equispaced FPR values (upper value at vertical jumps, as ``np.interp``)
follow from the counts before and after each such group: nothing is sorted per
replicate. Multiplicities without sample weights are small integers: they are
held sample by sample (n, b), so that gathering a column's order moves whole
rows of bytes, and the sums of the runs of the order between the points read
(:class:`SegmentSums`, one sparse product) are cumulated instead of all n
rows; integers up to n are exact in float64, so the counts are those of a
full cumulative sum, every bit.

The class weights are re-estimated per replicate as the method defines them:
the replicate's weighted mean and covariance (one matrix product for the
chunk, about the full-sample mean to avoid cancellation) give the whitening
through :func:`polyroc.gini._whitening.whitening_from_moments`. A replicate in
which some score column is (nearly) constant among the drawn rows is refitted
from its rows, so that constant columns are detected exactly as in the point
estimate.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import sparse

from polyroc._engine.counts import CHUNK_BYTES, chunk_length
from polyroc._engine.ranking import tie_ends
from polyroc._engine.replicate_columns import sample_major, transposed
from polyroc._engine.score_orders import descending_order
from polyroc.gini._whitening import has_constant_row_sum, whitening_from_moments
from polyroc.intervals._resampling import class_strata, stratum_multiplicities

__all__ = [
    "ClassRanking",
    "GroupCounts",
    "MomentBasis",
    "ReplicateDraws",
    "SegmentSums",
    "class_statistics",
    "fitted_class_weights",
    "group_counts",
    "in_layout",
    "moment_basis",
    "rank_classes",
    "replicate_auc",
    "replicate_moments",
    "replicate_tpr",
    "segment_counts",
    "segment_sums",
    "suspect_rows",
    "weighted_column_sums",
]

#: A replicate's standard deviation of a column at most this share of the
#: column's full-sample one (or :data:`SUSPECT_RTOL` of its largest absolute
#: value) may be constant among the drawn rows: that replicate is refitted
#: from its rows. The moments' rounding is far below both.
SUSPECT_SHARE = 1e-4
SUSPECT_RTOL = 1e-10

#: Replicates per block of integer multiplicities come in multiples of this: a sample's row of the
#: sample-major bytes is then a whole number of 8-byte words, which numpy's ``take`` moves a word at
#: a time (at 10**6 samples, blocks of 8 replicates take about a third less time per replicate in
#: :func:`segment_counts` than the 6 that the memory budget alone gives).
GATHER_ROWS = 8

#: Size of one block of the pairwise products of the score columns.
PRODUCT_BLOCK_BYTES = 4 * 2**20


class ClassRanking(NamedTuple):
    """One score column sorted descending, split into its positive and negative rows.

    ``positives`` and ``negatives`` are the rows of each kind in descending
    score order. For each tie group holding positives, ``negatives_before``
    and ``negatives_through`` count the negatives ranked before it and up to
    its end, ``positives_before`` and ``positives_through`` the positives.
    """

    positives: np.ndarray
    negatives: np.ndarray
    negatives_before: np.ndarray
    negatives_through: np.ndarray
    positives_before: np.ndarray
    positives_through: np.ndarray


def rank_classes(y, scores):
    """:class:`ClassRanking` of each class's column (None for a class without samples)."""
    return tuple(_rank_class(y == k, column) for k, column in enumerate(scores.T))


def _rank_class(positive, column):
    order = descending_order(column)
    positive_at = np.flatnonzero(positive[order])
    if positive_at.size == 0:
        return None
    ends = tie_ends(column[order])
    group_of = np.searchsorted(ends, positive_at)  # tie group of each positive
    last_positive = np.append(np.flatnonzero(np.diff(group_of)), positive_at.size - 1)
    groups = group_of[last_positive]
    positives_before = np.concatenate(([0], last_positive[:-1] + 1))
    positives_through = last_positive + 1
    group_start = np.where(groups > 0, ends[groups - 1] + 1, 0)  # sorted positions
    group_end = ends[groups] + 1
    is_negative = np.ones(order.size, dtype=bool)
    is_negative[positive_at] = False
    return ClassRanking(
        positives=order[positive_at],
        negatives=order[is_negative],
        negatives_before=group_start - positives_before,
        negatives_through=group_end - positives_through,
        positives_before=positives_before,
        positives_through=positives_through,
    )


class GroupCounts(NamedTuple):
    """Per replicate (rows) and positive-holding tie group (columns): negatives and positives
    ranked above the group (``*_before``) and up to its end (``*_after``); totals per replicate."""

    fps_before: np.ndarray
    fps_after: np.ndarray
    tps_before: np.ndarray
    tps_after: np.ndarray
    negatives: np.ndarray
    positives: np.ndarray


def group_counts(ranking, weight_rows, accumulator):
    """:class:`GroupCounts` of one class under ``weight_rows`` (b, n), cumulated in ``accumulator``.

    Negatives and positives are gathered and cumulated separately, so that a
    group without negatives starts and ends at the same FPR exactly, and the
    last group ends at FPR and TPR 1 exactly, whatever the rounding of the weights.
    """
    negative = _cumulative(np.take(weight_rows, ranking.negatives, axis=1), accumulator)
    positive = _cumulative(np.take(weight_rows, ranking.positives, axis=1), accumulator)
    return GroupCounts(
        fps_before=negative[:, ranking.negatives_before].astype(np.float64),
        fps_after=negative[:, ranking.negatives_through].astype(np.float64),
        tps_before=positive[:, ranking.positives_before].astype(np.float64),
        tps_after=positive[:, ranking.positives_through].astype(np.float64),
        negatives=negative[:, -1].astype(np.float64),
        positives=positive[:, -1].astype(np.float64),
    )


class SegmentSums(NamedTuple):
    """A class's ranking cut into runs whose sums give :class:`GroupCounts` (integer multiplicities).

    ``order`` lists the negatives then the positives, each in descending score
    order; ``matrix`` (r, n) sums the runs of ``order`` from one point read to
    the next: for the negatives, before each positive-holding group and within
    it (2 G + 1 runs, the last up to the end), for the positives, each group (G runs).
    """

    order: np.ndarray
    matrix: sparse.csr_array
    n_groups: int


def segment_sums(ranking):
    """:class:`SegmentSums` of a :class:`ClassRanking`."""
    n_negatives, n_groups = ranking.negatives.size, ranking.positives_before.size
    negative_cuts = np.empty(2 * n_groups + 2, dtype=np.int64)
    negative_cuts[0] = 0
    negative_cuts[1:-1:2] = ranking.negatives_before
    negative_cuts[2:-1:2] = ranking.negatives_through
    negative_cuts[-1] = n_negatives
    positive_cuts = n_negatives + np.append(ranking.positives_before, ranking.positives_through[-1])
    indptr = np.concatenate((negative_cuts, positive_cuts[1:]))
    size = n_negatives + ranking.positives.size
    ones = np.ones(size, dtype=np.int32)
    matrix = sparse.csr_array((ones, np.arange(size), indptr), shape=(indptr.size - 1, size))
    return SegmentSums(np.concatenate((ranking.negatives, ranking.positives)), matrix, n_groups)


def segment_counts(segments, columns):
    """:class:`GroupCounts` of one class from integer multiplicities held sample by sample, ``columns`` (n, b).

    The runs' sums (exact integers) are cumulated in float64, exactly as long
    as the totals stay below 2**53: the counts of :func:`group_counts`.
    """
    gathered = np.take(columns, segments.order, axis=0).astype(np.int32, copy=False)  # scipy's own cast is slower
    sums = segments.matrix @ gathered  # (runs, b), exact integers
    runs = transposed(sums)
    n_groups = segments.n_groups
    cumulated = np.empty((runs.shape[0], runs.shape[1] + 1), dtype=runs.dtype)
    np.cumsum(runs[:, : 2 * n_groups + 1], axis=1, out=cumulated[:, : 2 * n_groups + 1])
    cumulated[:, 2 * n_groups + 1] = 0
    np.cumsum(runs[:, 2 * n_groups + 1 :], axis=1, out=cumulated[:, 2 * n_groups + 2 :])
    counts = cumulated.astype(np.float64)
    negative, positive = counts[:, : 2 * n_groups + 1], counts[:, 2 * n_groups + 1 :]
    return GroupCounts(
        fps_before=negative[:, : 2 * n_groups : 2],
        fps_after=negative[:, 1 : 2 * n_groups : 2],
        tps_before=positive[:, :-1],
        tps_after=positive[:, 1:],
        negatives=negative[:, -1],
        positives=positive[:, -1],
    )


def _cumulative(values, accumulator):
    """Cumulative sums along the rows with a leading 0: (b, n + 1)."""
    result = np.empty((values.shape[0], values.shape[1] + 1), dtype=accumulator)
    result[:, 0] = 0
    np.cumsum(values, axis=1, dtype=accumulator, out=result[:, 1:])
    return result


def replicate_auc(counts):
    """One-vs-rest AUC per replicate: positives times the negatives below, ties one half, over N P."""
    rise = counts.tps_after - counts.tps_before
    below_twice = 2 * counts.negatives[:, None] - counts.fps_before - counts.fps_after
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.einsum("rj,rj->r", rise, below_twice) / (2 * counts.negatives * counts.positives)


def replicate_tpr(counts, fpr_grid):
    """TPR per replicate at the ascending ``fpr_grid`` (b, g), upper value at vertical jumps.

    Group j spans FPR ``[F_before_j, F_after_j]`` (diagonal when tied with
    negatives); the curve is flat between groups. At each grid value the last
    group starting at or before it gives the TPR: its end value once passed,
    else the point on its diagonal (``np.interp``'s formula).
    """
    negatives, positives = counts.negatives[:, None], counts.positives[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        fpr_before = counts.fps_before / negatives
    last = np.array([np.searchsorted(row, fpr_grid, side="right") for row in fpr_before]) - 1
    at = np.maximum(last, 0)
    start = np.take_along_axis(fpr_before, at, 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        end = np.take_along_axis(counts.fps_after, at, 1) / negatives
        low = np.take_along_axis(counts.tps_before, at, 1) / positives
        high = np.take_along_axis(counts.tps_after, at, 1) / positives
        on_diagonal = (high - low) / (end - start) * (fpr_grid - start) + low
    tpr = np.where(end > fpr_grid, on_diagonal, high)
    tpr[last < 0] = 0.0
    tpr[counts.negatives * counts.positives == 0] = np.nan
    return tpr


def curve_rows(n_samples, integer):
    """Replicates per block of the curve computation (a few (b, n) arrays in the budget).

    Blocks of integer multiplicities hold a multiple of :data:`GATHER_ROWS`
    replicates, rounded down, or up from at least three quarters of it (the
    memory grows by a third at most); smaller blocks stay as they are.

    >>> [curve_rows(n, integer=True) for n in (10**5, 10**6, 2 * 10**6)], curve_rows(10**6, integer=False)
    ([64, 8, 3], 2)
    """
    if not integer:
        return chunk_length(n_samples * 24, budget=CHUNK_BYTES)
    rows = chunk_length(n_samples * 10, budget=CHUNK_BYTES)
    if rows >= GATHER_ROWS:
        return rows - rows % GATHER_ROWS
    return GATHER_ROWS if 4 * rows >= 3 * GATHER_ROWS else rows


def class_statistics(rankings, weight_rows, fpr_grid, integer, segments=None):
    """Per-class AUC (b, m) and TPR at ``fpr_grid`` (b, m, g) of each replicate (NaN: no samples).

    ``segments``, the :class:`SegmentSums` of the rankings (made here when
    None), serve integer multiplicities.
    """
    n_rows, n_classes = weight_rows.shape[0], len(rankings)
    auc = np.full((n_rows, n_classes), np.nan)
    tpr = np.full((n_rows, n_classes, fpr_grid.size), np.nan)
    step = curve_rows(weight_rows.shape[1], integer)
    if integer:  # multiplicities summing to n, held sample by sample as bytes when they fit
        small = weight_rows.max(initial=0) <= np.iinfo(np.uint8).max
        if segments is None:
            segments = [None if ranking is None else segment_sums(ranking) for ranking in rankings]
    for start in range(0, n_rows, step):
        block = slice(start, start + step)
        if integer:
            columns = sample_major(weight_rows[block], np.uint8 if small else np.int32)
        for k, ranking in enumerate(rankings):
            if ranking is None:
                continue
            if integer:
                counts = segment_counts(segments[k], columns)
            else:
                counts = group_counts(ranking, weight_rows[block], np.float64)
            auc[block, k] = replicate_auc(counts)
            tpr[block, k] = replicate_tpr(counts, fpr_grid)
    return auc, tpr


class MomentBasis(NamedTuple):
    """What the replicate moments need from the scores: centred columns (m, n), column facts."""

    centre: np.ndarray
    centred_columns: np.ndarray
    upper: tuple
    scale: np.ndarray
    largest: np.ndarray
    always_constant: np.ndarray
    constant_row_sum: bool


def moment_basis(scores, sample_weight):
    """:class:`MomentBasis` of the (positive-weight) scores; centred at their weighted mean."""
    centre = np.average(scores, axis=0, weights=sample_weight)
    centred = scores - centre
    return MomentBasis(
        centre=centre,
        centred_columns=np.ascontiguousarray(centred.T),
        upper=np.triu_indices(scores.shape[1]),
        scale=np.sqrt(np.average(centred * centred, axis=0, weights=sample_weight)),
        largest=np.max(np.abs(scores), axis=0),
        always_constant=np.all(scores == scores[0], axis=0),
        constant_row_sum=has_constant_row_sum(scores),
    )


def weighted_column_sums(columns, weight_rows):
    """``weight_rows @ columns.T``: (b, m) from columns (m, n) and weight rows (b, n).

    Computed as ``(columns @ weight_rows.T).T``: for a few rows against many
    samples, this orientation of the product is many times faster in BLAS.
    """
    return (columns @ weight_rows.T).T


def replicate_moments(basis, weight_rows):
    """Weighted mean (b, m), covariance (b, m, m) (``ddof=1`` as numpy's ``aweights``) and Kish size (b,)."""
    n_rows, (n_columns, n_samples) = weight_rows.shape[0], basis.centred_columns.shape
    totals = weight_rows.sum(axis=1)
    squares = np.einsum("rs,rs->r", weight_rows, weight_rows)
    shift = weighted_column_sums(basis.centred_columns, weight_rows) / totals[:, None]
    first, second = basis.upper
    products = np.zeros((n_rows, first.size))
    block = chunk_length(8 * first.size, budget=PRODUCT_BLOCK_BYTES)
    for start in range(0, n_samples, block):
        columns = basis.centred_columns[:, start : start + block]
        products += weighted_column_sums(_upper_products(columns), weight_rows[:, start : start + block])
    scatter = products - totals[:, None] * shift[:, first] * shift[:, second]
    covariance = np.zeros((n_rows, n_columns, n_columns))
    covariance[:, first, second] = scatter
    covariance[:, second, first] = scatter
    covariance /= (totals - squares / totals)[:, None, None]
    return basis.centre + shift, covariance, totals * totals / squares


def _upper_products(columns):
    """Products of every pair i <= j of rows of ``columns`` (m, L), in ``np.triu_indices`` order: (m (m+1)/2, L)."""
    n_columns = columns.shape[0]
    result = np.empty((n_columns * (n_columns + 1) // 2, columns.shape[1]))
    row = 0
    for i in range(n_columns):
        np.multiply(columns[i:], columns[i], out=result[row : row + n_columns - i])
        row += n_columns - i
    return result


def suspect_rows(basis, covariance):
    """Replicates in which a column not constant throughout may be constant among the drawn rows.

    A column whose values are all equal is constant in every replicate; any
    other is refitted from the drawn rows when its replicate standard
    deviation is within the floors (a column constant up to rounding in the
    whole sample always is).
    """
    scale = np.sqrt(np.maximum(np.diagonal(covariance, axis1=1, axis2=2), 0.0))
    floor = np.maximum(SUSPECT_SHARE * basis.scale, SUSPECT_RTOL * basis.largest)
    return np.any((scale <= floor) & ~basis.always_constant, axis=1)


def fitted_class_weights(basis, mean, covariance, size, options):
    """``|m*| / Σ|m*|`` of one replicate from its moments (W refitted as in the point estimate)."""
    whitening = whitening_from_moments(
        mean,
        covariance,
        size,
        ~basis.always_constant,
        constant_row_sum=basis.constant_row_sum,
        options=options,
        name="y_score",
    )
    whitened_mean = whitening.matrix @ mean
    return np.abs(whitened_mean) / np.abs(whitened_mean).sum()


class ReplicateDraws:
    """Multiplicities of any chunk of replicates, drawn where they are used (in a worker thread).

    The replicates are those of :func:`polyroc.resampling.bootstrap_multiplicities`:
    replicate r is drawn from the r-th child of ``rng`` (spawned here, in the
    calling thread, as that function spawns them, so ``rng`` is left in the
    same state). A chunk starts fresh generators from the children's seed
    sequences, so the draws are the same whatever the chunks, however often
    a chunk is drawn.

    They are laid out as :func:`polyroc.resampling.stratum_multiplicities`
    draws them, class after class: column j is sample ``members[j]`` (sample
    i is column ``positions[i]``). Scattering them back into the order of the
    samples would cost more than drawing them; the rankings and the scores are
    put into this layout once instead (:func:`in_layout`).
    """

    def __init__(self, y, n_boot, rng):
        self.n_samples = y.size
        self.members, self.sizes = class_strata(y)
        self.positions = np.empty_like(self.members)
        self.positions[self.members] = np.arange(self.members.size)
        self.bit_generator = type(rng.bit_generator)
        self.sequences = [child.bit_generator.seed_seq for child in rng.spawn(n_boot)]

    def __call__(self, start, count):
        """Multiplicities (count, n), as float, of replicates ``start`` to ``start + count - 1``, in the layout."""
        chunk = self.sequences[start : start + count]
        seeds = [np.random.Generator(self.bit_generator(sequence)) for sequence in chunk]
        return stratum_multiplicities(seeds, self.sizes, dtype=np.float64)


def in_layout(rankings, positions):
    """The rankings with their samples given as columns of the draws' layout (``positions[i]`` for sample i)."""
    return tuple(
        None
        if ranking is None
        else ranking._replace(positives=positions[ranking.positives], negatives=positions[ranking.negatives])
        for ranking in rankings
    )
