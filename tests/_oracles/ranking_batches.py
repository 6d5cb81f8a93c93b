"""The earlier batch form of the bootstrap AUCs, kept as a reference for ``evaluate``'s grouped engine.

:class:`Rankings` with :func:`ranking_aucs` and :func:`binary_auc` sort each score column once and
transpose a batch of weight rows to (n, b), so that putting it in the order of a column gathers whole
rows, through the pairwise wins of :func:`polyroc.metrics.roc_auc_score` (same ties, same averages).
``polyroc.evaluate`` uses :class:`polyroc._engine.replicates.GroupedRankings` instead.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._engine.counts import CHUNK_BYTES, chunk_length
from polyroc._engine.numeric import divide
from polyroc._engine.ranking import average_classes, count_wins, hand_till, ovr_auc, sum_per_class

#: Size of one (values, rows) float array while ranking; about five are alive at
#: once. Fewer rows per chunk make the row gathers of the transposed batch slow.
RANK_ARRAY_BYTES = CHUNK_BYTES // 4


def rank_chunk_rows(n_values: int) -> int:
    """Weight rows per chunk so that one array of ``n_values`` floats per row fits the budget."""
    return chunk_length(n_values * 8, budget=RANK_ARRAY_BYTES)


@dataclass(frozen=True, eq=False)
class RankedScores:
    """Scores sorted ascending once, with the code (class) and the sample of each sorted score."""

    score: np.ndarray
    codes: np.ndarray
    sample: np.ndarray

    @classmethod
    def sort(cls, score: np.ndarray, codes: np.ndarray, sample: np.ndarray | None = None) -> RankedScores:
        """Sort ``score``; ``sample[i]`` names the weight of score i (default: i itself)."""
        order = np.argsort(score)  # unstable is fine: ties are grouped in _wins
        sample = order if sample is None else sample[order]
        return cls(score[order], codes[order], sample)


@dataclass(frozen=True, eq=False)
class Rankings:
    """Each score column sorted by itself (codes: true classes), and the raveled scores.

    The raveled scores carry the one-hot truth of each (sample, class) cell as
    codes, for the micro-average AUC.
    """

    columns: tuple[RankedScores, ...]
    cells: RankedScores

    @classmethod
    def of(cls, y: np.ndarray, scores: np.ndarray) -> Rankings:
        """Rankings of encoded labels ``y`` (n,) and a score matrix (n, m)."""
        n_samples, n_classes = scores.shape
        codes = y.astype(np.min_scalar_type(n_classes))
        columns = tuple(RankedScores.sort(column, codes) for column in scores.T)
        truth = (y[:, None] == np.arange(n_classes)).ravel().view(np.uint8)
        cells = RankedScores.sort(scores.ravel(), truth, np.repeat(np.arange(n_samples), n_classes))
        return cls(columns, cells)


def binary_auc(ranked: RankedScores, weight_rows: np.ndarray) -> np.ndarray:
    """Weighted ROC AUC of code 1 against code 0 under each weight row (b, n).

    Equal to ``sklearn.metrics.roc_auc_score(codes, score, sample_weight=row)``
    (tied scores count one half); NaN for a row that gives no weight to one of
    the two codes. Rows are processed in chunks.

    Examples
    --------
    >>> ranked = RankedScores.sort(np.array([.1, .4, .35, .8]), np.array([0, 0, 1, 1]))
    >>> binary_auc(ranked, np.array([[1.0, 1.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0]]))
    array([0.75, 1.  ])
    """
    return _binary_auc_of_columns(ranked, np.ascontiguousarray(weight_rows.T))


def _binary_auc_of_columns(ranked: RankedScores, weight_columns: np.ndarray) -> np.ndarray:
    """:func:`binary_auc` of weights given as columns (n, b), a chunk of columns at a time."""
    step = rank_chunk_rows(ranked.sample.size)
    aucs = []
    for start in range(0, weight_columns.shape[1], step):
        sorted_weights = np.take(weight_columns[:, start : start + step], ranked.sample, axis=0)
        correct = count_wins(ranked.score, ranked.codes, sorted_weights, 1, 2)[0]
        negative, positive = sum_per_class(sorted_weights, ranked.codes, 2)
        aucs.append(divide(correct, negative * positive))
    return np.concatenate(aucs)


def ranking_aucs(rankings: Rankings, weight_rows: np.ndarray, support: np.ndarray) -> dict[tuple[str, str], np.ndarray]:
    """OvR macro, weighted and micro AUC and OvO (Hand & Till) macro AUC of each weight row.

    Parameters
    ----------
    rankings : Rankings
    weight_rows : ndarray of shape (b, n)
        At most :func:`rank_chunk_rows` (n) rows, to bound the memory.
    support : ndarray of shape (b, m)
        Weight of each class under each row.

    Returns
    -------
    dict
        (multi_class, average) -> values (b,): ("ovr", "macro"), ("ovr",
        "weighted"), ("ovr", "micro") and ("ovo", "macro"), equal to
        :func:`polyroc.metrics.roc_auc_score` with each row as ``sample_weight``:
        a class without weight in a row makes that row's OvR macro AUC NaN
        (undefined), and is left out of the weighted and OvO averages.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 2, 2, 2])
    >>> P = np.array([[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...               [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]])
    >>> rows = np.ones((1, 7))
    >>> aucs = ranking_aucs(Rankings.of(y, P), rows, np.array([[2.0, 2.0, 3.0]]))
    >>> aucs["ovr", "macro"].round(6), aucs["ovo", "macro"].round(6)
    (array([0.866667]), array([0.861111]))
    """
    weight_columns = np.ascontiguousarray(weight_rows.T)
    wins = _pairwise_wins_of_columns(rankings, weight_columns)
    per_class = ovr_auc(wins, support)
    return {
        ("ovr", "macro"): per_class.mean(axis=-1),  # NaN when a class has no weight, as roc_auc_score
        ("ovr", "weighted"): average_classes(per_class, support, "weighted"),
        ("ovr", "micro"): _binary_auc_of_columns(rankings.cells, weight_columns),
        ("ovo", "macro"): hand_till(wins, support, "macro"),
    }


def _pairwise_wins_of_columns(rankings: Rankings, weight_columns: np.ndarray) -> np.ndarray:
    """Wins (b, m, m) of :func:`polyroc._engine.ranking.pairwise_wins` for weight columns (n, b)."""
    n_classes = len(rankings.columns)
    sorted_weights = np.empty_like(weight_columns)  # reused: one column's order at a time
    wins = [
        count_wins(
            column.score, column.codes, np.take(weight_columns, column.sample, axis=0, out=sorted_weights), k, n_classes
        )
        for k, column in enumerate(rankings.columns)
    ]
    return np.stack(wins).transpose(2, 0, 1)
