"""Calibration bins: the scored columns, each row's bin, the per-bin totals and the binned calibration errors.

The calibration of a classifier compares a score with how often the event it
scores happens. :func:`calibration_columns` gives the (score, hit) columns of
each kind: ``"top-label"`` one column, the largest probability of each row
and whether its class (the first largest) is the true one (Guo et al. 2017);
``"classwise"`` one column per class, its probability and whether the row is
of that class (Kull et al. 2019).

:func:`bin_rows` puts each row of each column into one of ``n_bins`` bins:
``"uniform"`` bins are ``[lo, hi)`` on the edges ``linspace(0, 1, n_bins +
1)``, the last one closed (``[lo, 1]``); ``"quantile"`` bins hold equal
weights of rows, by one ``argsort`` per column, all rows of one score in
one bin. :func:`bin_totals` sums the rows, weights, scores and hits of every
bin of every column with one ``bincount`` each (:func:`replicate_bin_totals`:
those of many bootstrap replicates at once); :func:`binned_errors` turns
totals into each column's calibration error. :class:`JointCells` draws the
bin totals of several models' bootstrap replicates over the joint cells of
their bins instead of over the rows.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

import numpy as np

from polyroc._engine.effective_sizes import class_effective_sizes

__all__ = [
    "BIN_STRATEGIES",
    "CALIBRATION_KINDS",
    "CALIBRATION_NORMS",
    "BinStrategy",
    "BinTotals",
    "CalibrationKind",
    "CalibrationNorm",
    "JointCells",
    "ReplicateBinner",
    "bin_means",
    "bin_rows",
    "bin_totals",
    "binned_errors",
    "calibration_columns",
    "replicate_bin_totals",
]

#: The ``kind`` options: what is calibrated.
CALIBRATION_KINDS = ("top-label", "classwise")
CalibrationKind = Literal["top-label", "classwise"]

#: The ``strategy`` options: how the bins are drawn.
BIN_STRATEGIES = ("uniform", "quantile")
BinStrategy = Literal["uniform", "quantile"]


def calibration_columns(y_true: np.ndarray, scores: np.ndarray, kind: CalibrationKind) -> tuple[np.ndarray, np.ndarray]:
    """The scores and hits, both (c, n), C-contiguous: one row per column, c = 1 for ``"top-label"``, m for
    ``"classwise"``.

    ``y_true`` holds class indices (encoded), ``scores`` the (n, m)
    probabilities.

    >>> s, h = calibration_columns(np.array([0, 1]), np.array([[0.7, 0.3], [0.6, 0.4]]), "top-label")
    >>> s.tolist(), h.tolist()
    ([[0.7, 0.6]], [[True, False]])
    """
    if kind == "top-label":
        predicted = scores.argmax(axis=1)
        confidence = np.take_along_axis(scores, predicted[:, None], axis=1)
        return confidence.astype(np.float64).reshape(1, -1), (predicted == y_true).reshape(1, -1)
    return np.ascontiguousarray(scores.T, dtype=np.float64), y_true[None, :] == np.arange(scores.shape[1])[:, None]


def bin_rows(
    scores: np.ndarray, n_bins: int, strategy: BinStrategy, weights: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """Each row's bin in each column, intp (c, n) like ``scores``, and the edges of the bins, float64 (c, n_bins + 1).

    Uniform bins are ``[edges[b], edges[b + 1])``, the last one including
    1. Quantile bins: in the order of the scores, a row whose score is first
    of its value goes to bin ``floor(n_bins * W_before / W)``, ``W_before``
    being the weight of the rows of lower score and ``W`` the total; its
    ties go with it. So a row of integer weight k falls where k copies of it
    would, and a bin may be empty when ties fill the previous one. The edges
    of quantile bins are 0, the lowest score of positive weight of each
    following bin (1 past the highest bin that holds such a row) and 1; bin b holds the scores in
    ``[edges[b], edges[b + 1])``, the last one 1 too.

    >>> codes, edges = bin_rows(np.array([[0.0, 0.5, 0.99, 1.0]]), 2, "uniform", None)
    >>> codes.tolist(), edges.tolist()
    ([[0, 1, 1, 1]], [[0.0, 0.5, 1.0]])
    >>> codes, edges = bin_rows(np.array([[0.2, 0.1, 0.1, 0.7]]), 2, "quantile", None)
    >>> codes.tolist(), edges.tolist()
    ([[1, 0, 0, 1]], [[0.0, 0.2, 1.0]])
    """
    if strategy == "uniform":
        grid = np.linspace(0.0, 1.0, n_bins + 1)
        # floor(score * n_bins) is off by at most one bin at an edge: one step against the edges themselves
        # gives searchsorted(grid, scores, side="right") - 1 (with 1 in the last bin) in half its time
        # in place, into two buffers: the floats' (the scaled scores, then the edges) and the codes'
        edge = np.multiply(scores, n_bins)
        codes = edge.astype(np.intp)
        np.minimum(codes, n_bins - 1, out=codes)
        np.take(grid, codes, out=edge, mode="clip")  # "clip": no buffered bounds check
        codes -= scores < edge
        upper = np.append(grid[1:-1], np.inf)  # 1 stays in the last bin
        np.take(upper, codes, out=edge, mode="clip")
        codes += scores >= edge
        return codes, np.tile(grid, (scores.shape[0], 1))
    codes = np.empty(scores.shape, dtype=np.intp)
    edges = np.empty((scores.shape[0], n_bins + 1))
    for column in range(scores.shape[0]):
        if weights is None:
            codes[column], edges[column] = _quantile_column(scores[column], n_bins)
        else:
            codes[column], edges[column] = _weighted_quantile_column(scores[column], n_bins, weights)
    return codes, edges


def _quantile_column(score: np.ndarray, n_bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Equal-count bins of one column by one partition at the ranks where the bins start.

    Bin b starts at rank ``k_b = ceil(b n / n_bins)`` (the first rank r with
    ``floor(r n_bins / n) >= b``). A row passes that start when its score
    exceeds ``v_b``, the score at rank ``k_b``, or equals it and no row of
    lower rank has it (its ties start at ``k_b``); its bin is the number of
    starts it passes: the rule of :func:`_weighted_quantile_column` with
    weights 1, without sorting.
    """
    n = score.size
    starts = -((-np.arange(1, n_bins) * n) // n_bins)  # ceil(b n / n_bins), exact in integers
    ranked = starts < n  # with fewer rows than bins, the last starts hold no row
    ranks = starts[ranked]
    parted = np.partition(score, np.unique(np.concatenate((ranks, ranks - 1))))
    value, below = parted[ranks], parted[ranks - 1]
    passes = np.full(n_bins - 1, np.inf)
    passes[ranked] = np.where(below < value, value, np.nextafter(value, np.inf))  # score >= passes[b]
    codes = np.searchsorted(passes[ranked], score, side="right").astype(np.intp)
    inner = np.ones(n_bins - 1)
    ends = np.append(ranks[1:], n)
    for b, rank, end in zip(np.flatnonzero(ranked), ranks, ends):
        # the lowest score that passes: v_b itself, or the lowest above it, found between this start and the next
        # (the partition puts the ranks rank..end-1 there) or, past them, anywhere above
        if passes[b] == value[b]:
            inner[b] = value[b]
            continue
        segment = parted[rank:end]
        above = segment[segment >= passes[b]]
        if not above.size:
            above = parted[end:][parted[end:] >= passes[b]]
        inner[b] = above.min() if above.size else 1.0
    return codes, np.concatenate(([0.0], inner, [1.0]))


def _weighted_quantile_column(score: np.ndarray, n_bins: int, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal-weight bins of one column by one argsort (see :func:`bin_rows`)."""
    order = np.argsort(score)  # the order within ties does not matter: a tie goes to one bin
    ordered = score[order]
    n = ordered.size
    ordered_weights = weights[order]
    before_weight = np.cumsum(ordered_weights) - ordered_weights
    raw = np.floor(n_bins * before_weight / ordered_weights.sum()).astype(np.intp)  # exact for integers
    first = np.ones(n, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    run_start = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    sorted_codes = np.minimum(raw[run_start], n_bins - 1)
    codes = np.empty(n, dtype=np.intp)
    codes[order] = sorted_codes
    kept = ordered_weights > 0  # the edges are those of the rows that count
    sorted_codes, ordered = sorted_codes[kept], ordered[kept]
    starts = np.searchsorted(sorted_codes, np.arange(1, n_bins), side="left")
    inner = np.where(starts < ordered.size, ordered[np.minimum(starts, ordered.size - 1)], 1.0)
    return codes, np.concatenate(([0.0], inner, [1.0]))


class BinTotals(NamedTuple):
    """Per column and bin, arrays (c, n_bins): rows of positive weight, weight, weighted sums of scores and hits,
    and Kish's effective size of the bin's weights."""

    rows: np.ndarray
    weight: np.ndarray
    score: np.ndarray
    hits: np.ndarray
    effective_size: np.ndarray


def bin_totals(
    codes: np.ndarray, scores: np.ndarray, hits: np.ndarray, weights: np.ndarray | None, n_bins: int
) -> BinTotals:
    """The :class:`BinTotals` of rows binned by ``codes`` (c, n); one ``bincount`` per total over all columns.

    >>> totals = bin_totals(np.array([[0, 1, 1]]), np.array([[0.2, 0.6, 0.8]]), np.array([[0, 1, 0]]), None, 2)
    >>> totals.rows.tolist(), totals.score.tolist(), totals.hits.tolist()
    ([[1, 2]], [[0.2, 1.4]], [[0.0, 1.0]])
    """
    n_columns = codes.shape[0]
    size = n_columns * n_bins
    flat = codes + (np.arange(n_columns) * n_bins)[:, None]
    flat = flat.ravel()
    hit_mask = hits.ravel().astype(bool, copy=False)
    shape = (n_columns, n_bins)
    count: np.ndarray
    weight: np.ndarray
    effective: np.ndarray
    if weights is None:
        count = np.bincount(flat, minlength=size)
        weight = count.astype(np.float64)
        row_weights = None
        effective = weight
    else:
        row_weights = np.tile(weights, n_columns)
        count = np.bincount(flat, weights=row_weights > 0, minlength=size).astype(np.int64)
        weight = np.bincount(flat, weights=row_weights, minlength=size)
        effective = class_effective_sizes(flat, size, row_weights)
    score_values = scores.ravel() if row_weights is None else scores.ravel() * row_weights
    score = np.bincount(flat, weights=score_values, minlength=size)
    hit_codes = flat[hit_mask]  # the hits alone: n of them classwise, not n * m
    hit = np.bincount(hit_codes, weights=None if row_weights is None else row_weights[hit_mask], minlength=size).astype(
        np.float64
    )
    return BinTotals(
        count.reshape(shape), weight.reshape(shape), score.reshape(shape), hit.reshape(shape), effective.reshape(shape)
    )


#: The ``norm`` options of :func:`calibration_error`.
CALIBRATION_NORMS = ("l1", "l2", "max")
CalibrationNorm = Literal["l1", "l2", "max"]


def bin_means(totals: BinTotals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column and bin: the bin's share of the weight, its mean score and its observed frequency.

    Empty bins have share 0 and NaN mean score and frequency.
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_score = totals.score / totals.weight
        observed = totals.hits / totals.weight
        share = totals.weight / totals.weight.sum(axis=-1, keepdims=True)
    return share, mean_score, observed


def binned_errors(totals: BinTotals, norm: CalibrationNorm) -> np.ndarray:
    """The calibration error of each column (..., c), ``norm`` over its non-empty bins weighted by their shares.

    The totals may carry leading axes (those of :func:`replicate_bin_totals`);
    the bins are the last axis.
    """
    share, mean_score, observed = bin_means(totals)
    distance = np.where(share > 0, np.abs(observed - mean_score), 0.0)
    if norm == "l1":
        return (share * distance).sum(axis=-1)
    if norm == "l2":
        return np.sqrt((share * distance * distance).sum(axis=-1))
    return distance.max(axis=-1)


def replicate_bin_totals(
    codes: np.ndarray, scores: np.ndarray, hits: np.ndarray, replicate_weights: np.ndarray, n_bins: int
) -> BinTotals:
    """The :class:`BinTotals` (b, c, n_bins) of rows binned by ``codes`` (c, n) under b rows of weights (b, n).

    Row r of ``replicate_weights`` weights every sample (bootstrap
    multiplicities times sample weights); sparse products give every
    replicate at once, as :func:`polyroc._engine.counts.replicate_confusion_counts`
    does for the confusion counts. ``rows`` counts the samples of positive
    replicate weight; ``effective_size`` is Kish's size of the replicate weights
    within each bin. Many chunks of replicates of the same rows:
    :class:`ReplicateBinner`, which builds the sparse indicators once.

    >>> codes, scores, hits = np.array([[0, 1, 1]]), np.array([[0.2, 0.6, 0.8]]), np.array([[0, 1, 0]])
    >>> totals = replicate_bin_totals(codes, scores, hits, np.array([[1.0, 2, 0], [0, 1, 1]]), 2)
    >>> totals.weight.tolist(), totals.hits.tolist(), totals.score.tolist()
    ([[[1.0, 2.0]], [[0.0, 2.0]]], [[[0.0, 2.0]], [[0.0, 1.0]]], [[[0.2, 1.2]], [[0.0, 1.4]]])
    """
    return ReplicateBinner.of(codes, scores, hits, n_bins).totals(replicate_weights)


class ReplicateBinner:
    """The bin totals of fixed binned rows under any rows of replicate weights (:func:`replicate_bin_totals`).

    One sparse matrix stacks the indicators of the weight, score and hit
    totals (3 c n_bins, n), so that a chunk of replicates costs one product
    (and one more for the rows and Kish sizes, when asked for), its weights
    transposed once.
    """

    def __init__(self, stacked, n_columns: int, n_bins: int) -> None:
        self.stacked = stacked
        self.n_columns = n_columns
        self.n_bins = n_bins

    @classmethod
    def of(cls, codes: np.ndarray, scores: np.ndarray, hits: np.ndarray, n_bins: int) -> ReplicateBinner:
        """The binner of rows binned by ``codes`` (c, n), with their ``scores`` and ``hits`` (c, n)."""
        from scipy import sparse

        n_columns, n_samples = codes.shape
        size = n_columns * n_bins
        flat = (codes + (np.arange(n_columns) * n_bins)[:, None]).ravel()
        samples = np.tile(np.arange(n_samples), n_columns)
        values = np.concatenate([np.ones(flat.size), scores.ravel(), hits.ravel()]).astype(np.float64)
        stacked = sparse.csr_matrix(
            (values, (np.concatenate([flat, flat + size, flat + 2 * size]), np.tile(samples, 3))),
            shape=(3 * size, n_samples),
        )
        return cls(stacked, n_columns, n_bins)

    def totals(self, replicate_weights: np.ndarray, *, sizes: bool = True) -> BinTotals:
        """The :class:`BinTotals` (b, c, n_bins) under ``replicate_weights`` (b, n).

        ``sizes=False`` leaves out the rows and Kish sizes (NaN), which a
        binned error does not read, for one sparse product instead of two.
        """
        columns = np.ascontiguousarray(np.asarray(replicate_weights, dtype=np.float64).T)  # (n, b), once
        shape = (-1, self.n_columns, self.n_bins)
        size = self.n_columns * self.n_bins
        summed = np.asarray(self.stacked @ columns).T  # (b, 3 size)
        weight, score, hit = (summed[:, k * size : (k + 1) * size].reshape(shape) for k in range(3))
        if not sizes:
            unread = np.full_like(weight, np.nan)
            return BinTotals(unread, weight, score, hit, unread)
        b = columns.shape[1]
        ones = self.stacked[:size]
        counted = np.asarray(ones @ np.hstack([columns * columns, (columns > 0).astype(np.float64)])).T
        square, rows = counted[:b].reshape(shape), counted[b:].reshape(shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            effective = np.where(weight > 0, weight * weight / square, 0.0)
        return BinTotals(rows, weight, score, hit, effective)


class JointCells:
    """The rows of one calibration column of several models, grouped by the joint cell of (class, and each model's
    bin and hit), for bootstrap replicates of the models' bin totals drawn over cells instead of rows.

    A binned error reads its rows only through the bin totals (weight,
    weighted score and hit sums). Rows of one joint cell share every model's
    bin and hit, so a stratified row bootstrap (strata: the classes) moves
    whole totals between cells only through how many of each cell's rows it
    draws: the cells' counts of one replicate are multinomial within each
    class, with the cell's share of the class's rows, exactly as the row
    bootstrap draws them. Given its count ``k``, a cell's sums of the
    weights and weighted scores are those of ``k`` draws with replacement
    from its rows: they are drawn as normal with their exact mean ``k mu``
    and covariance ``k Sigma`` (the cell's row mean and covariance of
    ``(w, w s_1, ..., w s_M)``). Unweighted, weights and hits are then exact
    and only each cell's score sums, whose rows lie within one bin, are
    approximated. A replicate costs the cells, not the rows.
    """

    def __init__(self, strata, counts, means, factors, aggregators, n_bins) -> None:
        self.strata = strata  # (class row counts, the cells of each class as index arrays)
        self.counts = counts
        self.means = means
        self.factors = factors
        self.aggregators = aggregators
        self.n_bins = n_bins

    @property
    def n_cells(self) -> int:
        """The number of non-empty joint cells."""
        return int(self.counts.size)

    @classmethod
    def of(
        cls,
        y: np.ndarray,
        codes: list[np.ndarray],
        scores: list[np.ndarray],
        hits: list[np.ndarray],
        weights: np.ndarray | None,
        n_bins: int,
    ) -> JointCells:
        """The joint cells of one column (n,) per model: its bins ``codes``, ``scores`` and ``hits``."""
        cell = y.astype(np.int64)
        for code, hit in zip(codes, hits):
            cell = _compressed(cell * (2 * n_bins) + code * 2 + hit.astype(np.int64))
        n_cells = int(cell.max()) + 1 if cell.size else 0
        counts = np.bincount(cell, minlength=n_cells).astype(np.float64)
        first = np.zeros(n_cells, dtype=np.intp)
        first[cell[::-1]] = np.arange(cell.size - 1, -1, -1)  # a row of each cell: its class, bins and hits
        w = np.ones(y.size) if weights is None else weights.astype(np.float64)
        parts = [w] + [w * score for score in scores]
        sums = np.stack([np.bincount(cell, weights=part, minlength=n_cells) for part in parts], axis=1)
        means: np.ndarray = sums / counts[:, None]
        centred = [part - means[cell, i] for i, part in enumerate(parts)]  # exact 0 in a cell of equal rows
        covariance = np.empty((n_cells, len(parts), len(parts)))
        for i, a in enumerate(centred):
            for j in range(i, len(parts)):
                covariance[:, i, j] = np.bincount(cell, weights=a * centred[j], minlength=n_cells) / counts
                covariance[:, j, i] = covariance[:, i, j]
        values, vectors = np.linalg.eigh(covariance)
        factors = vectors * np.sqrt(np.clip(values, 0.0, None))[:, None, :]  # factors @ factors.T = covariance
        classes = y[first]
        strata = (
            np.bincount(y).astype(np.int64),
            [np.flatnonzero(classes == c) for c in range(int(y.max()) + 1 if y.size else 0)],
        )
        aggregators = [
            _cell_aggregator(code[first], hit[first].astype(bool), model, len(parts), n_bins)
            for model, (code, hit) in enumerate(zip(codes, hits))
        ]
        return cls(strata, counts, means, factors, aggregators, n_bins)

    def totals(self, n_replicates: int, rng: np.random.Generator) -> list[BinTotals]:
        """Each model's :class:`BinTotals` (b, 1, n_bins) of ``n_replicates`` replicates (rows and sizes NaN)."""
        sizes, members = self.strata
        drawn = np.zeros((n_replicates, self.n_cells))
        for size, cells in zip(sizes, members):
            if cells.size:
                drawn[:, cells] = rng.multinomial(size, self.counts[cells] / self.counts[cells].sum(), n_replicates)
        noise = rng.standard_normal((n_replicates, *self.means.shape))
        sums = drawn[:, :, None] * self.means + np.sqrt(drawn)[:, :, None] * np.einsum(
            "cij,bcj->bci", self.factors, noise
        )
        flat = sums.reshape(n_replicates, -1)
        found = []
        for aggregator in self.aggregators:
            summed = np.asarray(aggregator @ flat.T).T.reshape(n_replicates, 3, 1, self.n_bins)
            unread = np.full_like(summed[:, 0], np.nan)
            found.append(BinTotals(unread, summed[:, 0], summed[:, 1], summed[:, 2], unread))
        return found


def _compressed(keys: np.ndarray) -> np.ndarray:
    """The keys renumbered 0, 1, ... in their order, by one bincount when their range is small."""
    if keys.size and int(keys.max()) < 8 * keys.size + 2**20:
        present = np.bincount(keys) > 0
        return (np.cumsum(present) - 1)[keys]
    return np.unique(keys, return_inverse=True)[1].reshape(-1)


def _cell_aggregator(code, hit, model, n_parts, n_bins):
    """The sparse map (3 n_bins, cells n_parts) from the cells' sums to one model's weight, score and hit totals."""
    from scipy import sparse

    n_cells = code.size
    weight_rows = np.arange(n_cells) * n_parts
    rows = np.concatenate([code, n_bins + code, 2 * n_bins + code[hit]])
    columns = np.concatenate([weight_rows, weight_rows + 1 + model, weight_rows[hit]])
    return sparse.csr_matrix((np.ones(rows.size), (rows, columns)), shape=(3 * n_bins, n_cells * n_parts))
