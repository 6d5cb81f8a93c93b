"""Statistics of many sample-weight rows at once (the replicates of a bootstrap).

Row r of a batch ``weight_rows`` (b, n) weights sample s by ``weight_rows[r, s]``
(a bootstrap multiplicity times the sample weight).

:class:`GroupedRankings` (used by :func:`polyroc.evaluate`) takes samples
grouped by class. Per score column it sorts the positives once and places
the scores of the other classes among them; a weight row then costs one cumulative sum over
the positives, one gather per compared score and one dot product per class,
on arrays small enough to stay in cache: O(n m) per row for the pairwise wins
and O(n m) for the micro average, with no sort and no one-hot product.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from polyroc._engine.counts import chunk_length
from polyroc._engine.numeric import divide
from polyroc._engine.parallel import chunk_map
from polyroc._engine.ranking import average_classes, hand_till, ovr_auc

__all__ = [
    "GroupedRankings",
    "PositiveGaps",
    "grouped_chunk_rows",
    "integer_weights_are_exact",
    "weighted_means",
]

#: Size of one chunk of weight rows (b, n) of :class:`GroupedRankings`.
GROUPED_CHUNK_BYTES = 2**27

#: Most replicates per chunk, so that the chunks keep every core busy.
GROUPED_CHUNK_MAX = 32


def grouped_chunk_rows(n_samples: int) -> int:
    """Weight rows (replicates) per chunk of :meth:`GroupedRankings.aucs` for ``n_samples`` samples."""
    return min(GROUPED_CHUNK_MAX, chunk_length(n_samples * 8, budget=GROUPED_CHUNK_BYTES))


def weighted_means(values: np.ndarray, weight_rows: np.ndarray) -> np.ndarray:
    """Weighted mean of each column of ``values`` (n, k) under each weight row (b, n): (b, k).

    >>> weighted_means(np.array([[1.0], [3.0]]), np.array([[1.0, 1.0], [3.0, 1.0]]))
    array([[2. ],
           [1.5]])
    """
    return (weight_rows @ values) / weight_rows.sum(axis=1, keepdims=True)


@dataclass(frozen=True, eq=False)
class PositiveGaps:
    """Positives sorted by score, and where each compared score falls among them.

    With ``Q`` the cumulative weight of the sorted positives (``Q[i]``: the
    weight of the i lowest), a compared score with ``below`` positives strictly
    lower and ``upto`` positives lower or tied has positive weight above it
    plus half the tied one equal to ``Q[-1] - (Q[below] + Q[upto]) / 2``. The
    sums ``Q[below] + Q[upto]`` are laid out in one array (:meth:`half_sums`):
    ``2 Q[i]`` for every gap i, then ``Q[a] + Q[z]`` for each range (a, z) of
    tied positives some compared score hits; ``index`` points each compared
    score (shape (n,), or (n, c) for several per row) into it.
    """

    positives: np.ndarray
    index: np.ndarray
    tie_below: np.ndarray
    tie_upto: np.ndarray

    @classmethod
    def of(cls, positives: np.ndarray, positive_score: np.ndarray, compared_score: np.ndarray) -> PositiveGaps:
        """Gaps of ``compared_score`` among the scores ``positive_score`` of the rows ``positives``."""
        order = np.argsort(positive_score, kind="stable")
        sorted_score = positive_score[order]
        below, upto = _sorted_positions(sorted_score, compared_score)
        tied = upto != below
        ranges, which = np.unique(below[tied], return_inverse=True)  # a tied range is fixed by its start
        index = below.copy()
        index[tied] = positives.size + 1 + which.ravel()
        return cls(positives[order], index, ranges, np.searchsorted(sorted_score, sorted_score[ranges], side="right"))

    def half_sums(
        self, weight_row: np.ndarray, out: np.ndarray, scratch: np.ndarray | None = None
    ) -> tuple[np.ndarray, float]:
        """``Q[below] + Q[upto]`` of every gap and tied range under ``weight_row`` (n,), and the total ``Q[-1]``.

        ``out`` is a buffer of at least ``positives.size + 1 + tie_below.size``
        values, of the type of the sums: float64, or int32 for integer weights
        (exact while ``2 * weight_row.sum() < 2**31``). When its type is not
        that of ``weight_row``, the weights of the positives are gathered into
        ``scratch`` (of the type of ``weight_row``, at least ``positives.size`` long).
        """
        n_gaps = self.positives.size + 1
        cumulative = out[:n_gaps]
        cumulative[0] = 0
        if out.dtype == weight_row.dtype:
            np.take(weight_row, self.positives, out=cumulative[1:])
            np.cumsum(cumulative[1:], out=cumulative[1:])
        else:
            assert scratch is not None, "scratch is needed when out and weight_row differ in type"
            gathered = np.take(weight_row, self.positives, out=scratch[: self.positives.size])
            np.cumsum(gathered, dtype=out.dtype, out=cumulative[1:])
        total = float(cumulative[-1])
        sums = out[: n_gaps + self.tie_below.size]
        np.add(cumulative[self.tie_below], cumulative[self.tie_upto], out=sums[n_gaps:])
        cumulative *= 2
        return sums, total

    @property
    def size(self) -> int:
        """Length of the :meth:`half_sums` array."""
        return self.positives.size + 1 + self.tie_below.size


def _sorted_positions(sorted_score, compared_score):
    """``searchsorted`` left and right of every compared score, searched in ascending order (cache friendly)."""
    flat = compared_score.reshape(-1)
    order = np.argsort(flat)
    below = np.empty(flat.size, dtype=np.intp)
    upto = np.empty(flat.size, dtype=np.intp)
    ascending = flat[order]
    below[order] = np.searchsorted(sorted_score, ascending, side="left")
    upto[order] = np.searchsorted(sorted_score, ascending, side="right")
    return below.reshape(compared_score.shape), upto.reshape(compared_score.shape)


def _half_sum_dot(sums, index, weights, buffer):
    """``sum_s weights[s] * sums[index[s]]`` for ``index`` (L,) and ``weights`` (L,), through ``buffer``.

    Integer sums are accumulated in int64: the exact value, which float64
    also reaches while every partial sum is an integer below 2**53.
    """
    gathered = np.take(sums, index, out=buffer[: index.size])
    exact = np.int64 if sums.dtype.kind in "iu" else None
    return float(np.einsum("i,i->", gathered, weights, dtype=exact))  # not BLAS: no thread pool inside the threads


def _class_half_sum_dots(sums, index, weights, starts, buffer):
    """``sum_s weights[s] * sums[index[s]]`` over each class of samples starting at ``starts`` (classes in order).

    One gather and one product for all classes, then a sum per class
    (``np.add.reduceat``). Integer sums are multiplied and added in int64:
    the exact values, which float64 also reaches while they stay below 2**53.
    """
    gathered = np.take(sums, index, out=buffer[: index.size])
    exact = np.int64 if sums.dtype.kind in "iu" else None
    return np.add.reduceat(np.multiply(gathered, weights, dtype=exact), starts)


def _summed_half_sum_dot(sums, index, weights, buffer):
    """``sum_c sum_s weights[s] * sums[index[c, s]]`` of integer ``sums``: the gathers added up, then one dot."""
    added = np.take(sums, index[0], out=buffer[: index.shape[1]])
    if index.shape[0] > 1:
        term = np.empty_like(added)
        for row in index[1:]:
            added += np.take(sums, row, out=term)
    return float(np.einsum("i,i->", added, weights, dtype=np.int64))


def integer_weights_are_exact(n_samples: int, n_classes: int) -> bool:
    """Whether :meth:`GroupedRankings.aucs` of integer weight rows summing to ``n_samples`` gives float64's bits.

    With integer weights every intermediate of the float64 computation is an
    integer (or half of one) below 2**53, hence exact: the pairs of the micro
    average count up to ``2 (m - 1) n**2``. The cumulative sums are int32, and
    so are the ``m - 1`` gathered sums of a sample added up: ``2 (m - 1) n``
    below 2**31.

    >>> integer_weights_are_exact(10**6, 10), integer_weights_are_exact(10**8, 10)
    (True, False)
    """
    return 2 * n_classes * n_samples < 2**31 and 2 * n_classes * n_samples**2 < 2**53


def _cell_gaps(y, scores):
    """:class:`PositiveGaps` of each sample's true-class score (positives) against its other scores, (m - 1, n)."""
    n_samples, n_classes = scores.shape
    rows = np.arange(n_samples)
    other = np.ones((n_samples, n_classes), dtype=bool)
    other[rows, y] = False
    compared = np.ascontiguousarray(scores[other].reshape(n_samples, n_classes - 1).T)
    return PositiveGaps.of(rows, scores[rows, y], compared)


@dataclass(frozen=True, eq=False)
class GroupedRankings:
    """Rankings of samples grouped by class, for the AUCs of many weight rows.

    The samples are in class order: class k occupies ``offsets[k]:offsets[k + 1]``.
    For each score column k, the class-k samples are the positives and every
    sample's column-k score is placed among them; for the micro average, each
    sample's true-class score is a positive and its other scores are compared
    (``cells.index`` is (m - 1, n)). Under a weight row, the correctly ranked
    pairs are then a cumulative sum over the positives, one gather of it per
    compared score and one dot product per class: O(n m) per row, with no
    sort, no one-hot product and arrays that stay in cache. Pairs tied on
    score count one half, as in :func:`polyroc._engine.ranking.count_wins`.

    Weight rows may be float64 or integers (bootstrap multiplicities, e.g.
    uint8): integer rows keep the cumulative sums in int32 and the dot
    products in int64, a fraction of the memory traffic of the cache-missing
    gathers, and give the bits of the same rows as float64 wherever
    :func:`integer_weights_are_exact` holds.
    """

    offsets: np.ndarray
    columns: tuple[PositiveGaps, ...]
    cells: PositiveGaps

    @classmethod
    def of(cls, y: np.ndarray, scores: np.ndarray) -> GroupedRankings:
        """Rankings of class codes ``y`` (n,), sorted ascending, and their scores (n, m)."""
        offsets = np.searchsorted(y, np.arange(scores.shape[1] + 1))

        def column_gaps(k):
            a, z = offsets[k], offsets[k + 1]
            others = np.concatenate((scores[:a, k], scores[z:, k]))  # a class is not compared with itself
            gaps = PositiveGaps.of(np.arange(a, z), scores[a:z, k], others)
            return replace(gaps, index=np.insert(gaps.index, a, np.zeros(z - a, dtype=gaps.index.dtype)))

        # the sorts release the GIL: the cells (the largest) and the columns run on every core
        tasks = [lambda: _cell_gaps(y, scores), *(lambda k=k: column_gaps(k) for k in range(scores.shape[1]))]
        cells, *columns = chunk_map(lambda task: task(), tasks)
        return cls(offsets, tuple(columns), cells)

    def row_wins(self, weight_row: np.ndarray) -> tuple[np.ndarray, float]:
        """Pairwise wins (m, m) of :func:`polyroc._engine.ranking.pairwise_wins` (diagonal 0) and micro-average wins.

        ``weight_row`` (n,) is float64 or integer (see the class notes).

        The micro-average wins count (positive cell, negative cell) pairs of
        :func:`polyroc._engine.ranking.micro_auc`.
        """
        n_classes = len(self.columns)
        bounds = list(zip(self.offsets[:-1].tolist(), self.offsets[1:].tolist()))
        class_weight = [float(weight_row[a:z].sum()) for a, z in bounds]
        sum_type = np.int32 if weight_row.dtype.kind in "iu" else np.float64
        buffer = np.empty(max(max(gaps.size for gaps in self.columns), self.cells.size, weight_row.size), sum_type)
        gathered = np.empty(weight_row.size, sum_type)
        scratch = None if sum_type is np.float64 else np.empty_like(weight_row)
        wins = np.zeros((n_classes, n_classes))
        present = [j for j, (a, z) in enumerate(bounds) if z > a]
        starts = self.offsets[present]
        for k, gaps in enumerate(self.columns):
            sums, total = gaps.half_sums(weight_row, buffer, scratch)
            pairs = _class_half_sum_dots(sums, gaps.index, weight_row, starts, gathered)
            for j, class_pairs in zip(present, pairs.tolist()):
                if j != k:
                    wins[k, j] = total * class_weight[j] - class_pairs / 2
        sums, total = self.cells.half_sums(weight_row, buffer, scratch)
        if scratch is None:
            pairs = sum(_half_sum_dot(sums, index, weight_row, gathered) for index in self.cells.index)
        else:
            pairs = _summed_half_sum_dot(sums, self.cells.index, weight_row, gathered)
        return wins, (n_classes - 1) * total * total - pairs / 2

    def aucs(self, weight_rows: np.ndarray, support: np.ndarray) -> dict[tuple[str, str], np.ndarray]:
        """OvR macro, weighted and micro and OvO macro AUC of each weight row (b, n) of the grouped samples.

        ``support`` (b, m) is the weight of each class under each row. The values equal
        :func:`polyroc.metrics.roc_auc_score` with each row as ``sample_weight`` (keys
        ``("ovr", "macro")``, ``("ovr", "weighted")``, ``("ovr", "micro")``, ``("ovo", "macro")``).

        The rows are float64 or integer (see the class notes).

        Examples
        --------
        >>> y = np.array([0, 0, 1, 1, 2, 2, 2])
        >>> P = np.array([[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
        ...               [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]])
        >>> aucs = GroupedRankings.of(y, P).aucs(np.ones((1, 7)), np.array([[2.0, 2.0, 3.0]]))
        >>> aucs["ovr", "macro"].round(6), aucs["ovo", "macro"].round(6), aucs["ovr", "micro"].round(6)
        (array([0.866667]), array([0.861111]), array([0.846939]))
        """
        n_classes = len(self.columns)
        wins = np.empty((weight_rows.shape[0], n_classes, n_classes))
        micro_wins = np.empty(weight_rows.shape[0])
        for r, row in enumerate(weight_rows):
            wins[r], micro_wins[r] = self.row_wins(row)
        total = weight_rows.sum(axis=1, dtype=np.float64)
        per_class = ovr_auc(wins, support)
        return {
            ("ovr", "macro"): per_class.mean(axis=-1),  # NaN when a class has no weight, as roc_auc_score
            ("ovr", "weighted"): average_classes(per_class, support, "weighted"),
            ("ovr", "micro"): divide(micro_wins, (n_classes - 1) * total * total),
            ("ovo", "macro"): hand_till(wins, support, "macro"),
        }
