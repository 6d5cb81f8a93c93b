"""Bootstrap replicates of the Gini-weighted ROC curve, a chunk of replicates at a time.

Row r of a chunk ``weight_rows`` (b, n) weights sample s by its bootstrap
multiplicity times its sample weight. The one-vs-rest curves use the raw score
columns, whose order does not depend on the replicate: each column is sorted
once (descending), and a chunk is gathered into that order, cumulated along
the rows and read at the tie groups that hold positives. Between those groups
a curve is flat, so the area (Mann-Whitney, ties counted one half) and the TPR
at equispaced FPR values (upper value at vertical jumps, as ``np.interp``)
follow from the counts before and after each such group: nothing is sorted per
replicate.

Multiplicities without sample weights are small integers, drawn straight
into the sample-major layout (n, b) as bytes (:class:`HeldCounts`, blocks of
8 replicates). For each class, one sparse product gathers the column's order
and sums the runs between the points read, 8 replicates per 64-bit word
(:class:`~polyroc._engine.replicate_columns.RunSums`); the sums are cumulated
as integers, so the counts are those of a full cumulative sum, exactly. The
area is then an exact integer over an exact integer, and each equispaced FPR
value is turned into the least count of negatives whose FPR exceeds it, so
that the groups are found by integer searches: every number is the one the
floating-point formulas give on the counts.

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

from polyroc._engine.counts import CHUNK_BYTES, chunk_length
from polyroc._engine.ranking import tie_ends
from polyroc._engine.replicate_columns import LANE_WIDTH, RunSums, sample_major
from polyroc._engine.score_orders import descending_order
from polyroc.gini._whitening import has_constant_row_sum, whitening_from_moments
from polyroc.intervals._resampling import class_strata, sample_major_multiplicities, stratum_multiplicities

__all__ = [
    "ClassRanking",
    "GroupCounts",
    "HeldCounts",
    "MomentBasis",
    "ReplicateDraws",
    "SegmentSums",
    "class_statistics",
    "count_thresholds",
    "fitted_class_weights",
    "group_counts",
    "held_statistics",
    "in_layout",
    "moment_basis",
    "rank_classes",
    "replicate_auc",
    "replicate_means",
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

#: Size of one block of the pairwise products of the score columns (with the weights they meet).
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

    The runs (``sums``) follow the negatives in descending score order, then
    the positives: an empty run; for the negatives, the run before each
    positive-holding group and, when some negatives tie with positives
    (``tied``), the run within it; the rest of the negatives; an empty run;
    for the positives, each group. Cumulated, the sums are the counts read,
    each empty run giving a leading 0.
    """

    sums: RunSums
    n_groups: int
    tied: bool


def segment_sums(ranking):
    """:class:`SegmentSums` of a :class:`ClassRanking`."""
    n_negatives = ranking.negatives.size
    tied = not np.array_equal(ranking.negatives_before, ranking.negatives_through)
    cuts = ranking.negatives_before
    if tied:
        cuts = np.column_stack((ranking.negatives_before, ranking.negatives_through)).ravel()
    bounds = np.concatenate(([0, 0], cuts, [n_negatives, n_negatives], n_negatives + ranking.positives_through))
    order = np.concatenate((ranking.negatives, ranking.positives))
    return SegmentSums(RunSums(order, bounds, order.size), ranking.positives_before.size, tied)


def segment_counts(segments, columns, largest=None):
    """:class:`GroupCounts` of one class from integer multiplicities held sample by sample, ``columns`` (n, b).

    The counts are exact integers (int32 when they fit, else int64);
    ``largest`` bounds the multiplicities (computed when None). Without ties
    between negatives and positives, ``fps_after`` is ``fps_before``.
    """
    sums = segments.sums(columns, largest)
    n_groups = segments.n_groups
    split = (2 if segments.tied else 1) * n_groups + 2
    negative, positive = sums[:, :split], sums[:, split:]
    np.cumsum(negative, axis=1, out=negative)
    np.cumsum(positive, axis=1, out=positive)
    if segments.tied:
        before, after = negative[:, 1 : 2 * n_groups : 2], negative[:, 2 : 2 * n_groups + 1 : 2]
    else:
        before = after = negative[:, 1 : n_groups + 1]
    return GroupCounts(
        fps_before=before,
        fps_after=after,
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


def _is_exact(counts):
    return np.issubdtype(counts.fps_before.dtype, np.integer)


def replicate_auc(counts):
    """One-vs-rest AUC per replicate: positives times the negatives below, ties one half, over N P.

    Integer counts give the numerator as an exact integer (the same number
    as the floating-point sum of exact products).
    """
    negatives, positives = counts.negatives.astype(np.float64), counts.positives.astype(np.float64)
    if _is_exact(counts):
        rise = counts.tps_after - counts.tps_before
        if counts.fps_after is counts.fps_before:
            above = 2 * np.einsum("rj,rj->r", rise, counts.fps_before, dtype=np.int64)
        else:
            above = np.einsum("rj,rj->r", rise, np.add(counts.fps_before, counts.fps_after, dtype=np.int64))
        # the groups hold every positive: sum(rise) = P, so sum(rise * (2 N - before - after)) = 2 N P - above
        numerator = (2 * counts.negatives.astype(np.int64) * counts.positives - above).astype(np.float64)
    else:
        rise = counts.tps_after - counts.tps_before
        below_twice = 2 * counts.negatives[:, None] - counts.fps_before - counts.fps_after
        numerator = np.einsum("rj,rj->r", rise, below_twice)
    with np.errstate(divide="ignore", invalid="ignore"):
        return numerator / (2 * negatives * positives)


def count_thresholds(totals, fpr_grid):
    """Least count c with ``c / total > fpr`` in floating point, per total (rows) and grid value (columns).

    A group's FPR ``before / total`` is at most ``fpr`` exactly when
    ``before`` is below that count (the quotient never decreases with the
    dividend), so the groups are counted in integers. A total of 0 gives 0.

    >>> count_thresholds(np.array([3, 10]), np.array([0.0, 1 / 3, 0.5, 1.0])).tolist()
    [[1, 2, 2, 4], [1, 4, 6, 11]]
    """
    total = np.asarray(totals, dtype=np.float64)[:, None]
    counts = np.maximum(np.floor(fpr_grid * total) - 2, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        while True:
            below = counts / total <= fpr_grid
            if not below.any():
                return counts.astype(np.int64)
            counts += below


def replicate_tpr(counts, fpr_grid):
    """TPR per replicate at the ascending ``fpr_grid`` (b, g), upper value at vertical jumps.

    Group j spans FPR ``[F_before_j, F_after_j]`` (diagonal when tied with
    negatives); the curve is flat between groups. At each grid value the last
    group starting at or before it gives the TPR: its end value once passed,
    else the point on its diagonal (``np.interp``'s formula).
    """
    negatives, positives = counts.negatives[:, None].astype(np.float64), counts.positives[:, None].astype(np.float64)
    if _is_exact(counts):
        thresholds = count_thresholds(counts.negatives, fpr_grid)
        if thresholds.max(initial=0) <= np.iinfo(counts.fps_before.dtype).max:
            thresholds = thresholds.astype(counts.fps_before.dtype)  # searched without converting the rows
        last = np.array([np.searchsorted(row, bound) for row, bound in zip(counts.fps_before, thresholds)]) - 1
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            fpr_before = counts.fps_before / negatives
        last = np.array([np.searchsorted(row, fpr_grid, side="right") for row in fpr_before]) - 1
    at = np.maximum(last, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        start = np.take_along_axis(counts.fps_before, at, 1) / negatives
        end = np.take_along_axis(counts.fps_after, at, 1) / negatives
        low = np.take_along_axis(counts.tps_before, at, 1) / positives
        high = np.take_along_axis(counts.tps_after, at, 1) / positives
        on_diagonal = (high - low) / (end - start) * (fpr_grid - start) + low
    tpr = np.where(end > fpr_grid, on_diagonal, high)
    tpr[last < 0] = 0.0
    tpr[(negatives * positives)[:, 0] == 0] = np.nan
    return tpr


def curve_rows(n_samples, integer):
    """Replicates per block of the curve computation from weight rows (a few (b, n) arrays in the budget).

    >>> curve_rows(10**6, integer=True), curve_rows(10**6, integer=False)
    (8, 2)
    """
    if not integer:
        return chunk_length(n_samples * 24, budget=CHUNK_BYTES)
    rows = chunk_length(n_samples * 8, budget=CHUNK_BYTES)
    return max(LANE_WIDTH, rows - rows % LANE_WIDTH)


def class_statistics(rankings, weight_rows, fpr_grid, integer, segments=None):
    """Per-class AUC (b, m) and TPR at ``fpr_grid`` (b, m, g) of each replicate (NaN: no samples).

    ``segments``, the :class:`SegmentSums` of the rankings (made here when
    None), serve integer multiplicities, which are put sample by sample
    (:func:`held_statistics`).
    """
    n_rows, n_classes = weight_rows.shape[0], len(rankings)
    auc = np.full((n_rows, n_classes), np.nan)
    tpr = np.full((n_rows, n_classes, fpr_grid.size), np.nan)
    step = curve_rows(weight_rows.shape[1], integer)
    if integer:
        if segments is None:
            segments = [None if ranking is None else segment_sums(ranking) for ranking in rankings]
        small = weight_rows.max(initial=0) <= np.iinfo(np.uint8).max
    for start in range(0, n_rows, step):
        block = slice(start, start + step)
        if integer:
            rows = weight_rows[block]
            held = [
                sample_major(rows[i : i + LANE_WIDTH], np.uint8 if small else np.int32)
                for i in range(0, len(rows), LANE_WIDTH)
            ]
            auc[block], tpr[block] = held_statistics(segments, HeldCounts(held), fpr_grid)
            continue
        for k, ranking in enumerate(rankings):
            if ranking is not None:
                counts = group_counts(ranking, weight_rows[block], np.float64)
                auc[block, k] = replicate_auc(counts)
                tpr[block, k] = replicate_tpr(counts, fpr_grid)
    return auc, tpr


def held_statistics(segments, held, fpr_grid):
    """Per-class AUC (b, m) and TPR at ``fpr_grid`` (b, m, g) of :class:`HeldCounts` (NaN: no samples).

    ``segments`` holds the :class:`SegmentSums` of each class (None: no samples).
    """
    auc = np.full((held.count, len(segments)), np.nan)
    tpr = np.full((held.count, len(segments), fpr_grid.size), np.nan)
    start = 0
    for block in held.blocks:
        rows = slice(start, start + block.shape[1])
        largest = int(block.max(initial=0))
        for k, segment in enumerate(segments):
            if segment is not None:
                counts = segment_counts(segment, block, largest)
                auc[rows, k] = replicate_auc(counts)
                tpr[rows, k] = replicate_tpr(counts, fpr_grid)
        start += block.shape[1]
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


class HeldCounts(NamedTuple):
    """Integer multiplicities of a chunk of replicates held sample by sample: ``blocks`` (n, w), w <= 8.

    Block i holds the next replicates after those of blocks 0 to i - 1, as
    bytes when every count fits (else int32).
    """

    blocks: list

    @property
    def count(self):
        """Number of replicates."""
        return sum(block.shape[1] for block in self.blocks)

    def replicate(self, r):
        """Multiplicities (n,) of replicate ``r``, as float."""
        for block in self.blocks:
            if r < block.shape[1]:
                return block[:, r].astype(np.float64)
            r -= block.shape[1]
        raise IndexError(r)

    def weights(self, start, stop, out):
        """Multiplicities of samples ``start`` to ``stop - 1``, as float rows, into ``out`` (count, stop - start)."""
        row = 0
        for block in self.blocks:
            out[row : row + block.shape[1]] = block[start:stop].T
            row += block.shape[1]
        return out


def replicate_moments(basis, weights):
    """Weighted mean (b, m), covariance (b, m, m) (``ddof=1`` as numpy's ``aweights``) and Kish size (b,).

    ``weights`` are weight rows (b, n) or :class:`HeldCounts`.
    """
    first, second = basis.upper
    if isinstance(weights, HeldCounts):
        totals, squares, sums, products = _held_sums(basis.centred_columns, weights, first.size)
        shift = sums / totals[:, None]
    else:
        n_samples = basis.centred_columns.shape[1]
        totals = weights.sum(axis=1)
        squares = np.einsum("rs,rs->r", weights, weights)
        shift = weighted_column_sums(basis.centred_columns, weights) / totals[:, None]
        products = np.zeros((weights.shape[0], first.size))
        block = chunk_length(8 * first.size, budget=PRODUCT_BLOCK_BYTES)
        for start in range(0, n_samples, block):
            columns = basis.centred_columns[:, start : start + block]
            products += weighted_column_sums(_upper_products(columns), weights[:, start : start + block])
    scatter = products - totals[:, None] * shift[:, first] * shift[:, second]
    n_columns = basis.centred_columns.shape[0]
    covariance = np.zeros((totals.size, n_columns, n_columns))
    covariance[:, first, second] = scatter
    covariance[:, second, first] = scatter
    covariance /= (totals - squares / totals)[:, None, None]
    return basis.centre + shift, covariance, totals * totals / squares


def replicate_means(columns, weights):
    """Weighted means (b, m) of ``columns`` (m, n) under weight rows (b, n) or :class:`HeldCounts`."""
    if isinstance(weights, HeldCounts):
        totals, _, sums, _ = _held_sums(columns, weights, 0)
        return sums / totals[:, None]
    return weighted_column_sums(columns, weights) / weights.sum(axis=1, keepdims=True)


def _held_sums(columns, held, n_products):
    """Per replicate of ``held``: Σw, Σw², the weighted sums of ``columns`` (m, n) and of their first products.

    One matrix product per block of samples, of the rows (a row of ones,
    the columns, their products in ``np.triu_indices`` order, the first
    ``n_products`` of them) with the block's multiplicities as float.
    """
    n_columns, n_samples = columns.shape
    n_rows = 1 + n_columns + n_products
    length = min(n_samples, chunk_length(8 * (n_rows + held.count), budget=PRODUCT_BLOCK_BYTES))
    rows, weights = np.empty((n_rows, length)), np.empty((held.count, length))
    rows[0] = 1.0
    sums, squares = np.zeros((held.count, n_rows)), np.zeros(held.count)
    for start in range(0, n_samples, length):
        stop = min(start + length, n_samples)
        block_rows, block = rows[:, : stop - start], held.weights(start, stop, weights[:, : stop - start])
        block_rows[1 : 1 + n_columns] = columns[:, start:stop]
        if n_products:
            _upper_products(columns[:, start:stop], out=block_rows[1 + n_columns :])
        sums += weighted_column_sums(block_rows, block)
        squares += np.matmul(block[:, None, :], block[:, :, None])[:, 0, 0]  # integers: exact
    return sums[:, 0], squares, sums[:, 1 : 1 + n_columns], sums[:, 1 + n_columns :]


def _upper_products(columns, out=None):
    """Products of every pair i <= j of rows of ``columns`` (m, L), in ``np.triu_indices`` order: (m (m+1)/2, L)."""
    n_columns = columns.shape[0]
    if out is None:
        out = np.empty((n_columns * (n_columns + 1) // 2, columns.shape[1]))
    row = 0
    for i in range(n_columns):
        np.multiply(columns[i:], columns[i], out=out[row : row + n_columns - i])
        row += n_columns - i
    return out


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

    def held(self, start, count):
        """The same multiplicities as :class:`HeldCounts`, drawn straight into blocks of 8 replicates."""
        chunk = self.sequences[start : start + count]
        seeds = [np.random.Generator(self.bit_generator(sequence)) for sequence in chunk]
        return HeldCounts(
            [sample_major_multiplicities(seeds[i : i + LANE_WIDTH], self.sizes) for i in range(0, count, LANE_WIDTH)]
        )


def in_layout(rankings, positions):
    """The rankings with their samples given as columns of the draws' layout (``positions[i]`` for sample i)."""
    return tuple(
        None
        if ranking is None
        else ranking._replace(positives=positions[ranking.positives], negatives=positions[ranking.negatives])
        for ranking in rankings
    )
