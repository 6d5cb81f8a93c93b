"""Pairwise TPR/FPR matrices of ROC-DMF: one column per ordered class pair, one row per level.

For the ordered pair j = (a, b), class a is the positive ("classification")
class and b the negative ("reference") class; both are scored by column a of
the score matrix. At row t the threshold is a quantile of the pair's scores
and a sample counts as predicted positive when its score is strictly above it.
Rows are ordered by *decreasing* threshold, so the rates increase down a column.

Every column of the score matrix is sorted once; a pair's pool (its samples in
that sorted order) is cut out of it, and the thresholds and the counts above
them are found with ``searchsorted``: O(k n log n + K (n + T log n)) in all.
Bootstrap replicates are handled as integer *multiplicities* of the samples,
a batch of them at a time, so that the same code computes the point estimate
(multiplicity 1) and every replicate.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from polyroc._validation import (
    check_class_support,
    check_option,
    check_positive_int,
    check_quantile_levels,
    check_scores,
)
from polyroc.exceptions import UndefinedMetricWarning

THRESHOLD_MODES = ("pooled", "column", "balanced")
BALANCED_RTOL = 1e-12


class Column(NamedTuple):
    """All samples in increasing order of one score column."""

    order: np.ndarray  # sample indices, in score order
    scores: np.ndarray  # their scores, non-decreasing


class Pool(NamedTuple):
    """The samples of one pair's two classes, in the order of the pair's score column."""

    position: np.ndarray  # their positions in the sorted column (increasing)
    scores: np.ndarray  # their scores, non-decreasing
    positive: np.ndarray  # True where the sample is of the positive class


class PairPools(NamedTuple):
    """Everything about the data that does not change between bootstrap replicates."""

    pairs: np.ndarray  # (K, 2) class indices (positive, negative)
    pools: list  # K pools, one per pair
    columns: list  # k sorted columns
    mode: str


class Rates(NamedTuple):
    """Rates of a batch of replicates, each of shape (b, T, K)."""

    tpr: np.ndarray
    fpr: np.ndarray
    thresholds: np.ndarray


@dataclass(frozen=True)
class PairwiseRates:
    """The pairwise TPR/FPR matrices of ROC-DMF and how they were built.

    Attributes
    ----------
    tpr, fpr : ndarray of shape (T, K)
        ``tpr[t, j]`` is the fraction of class-a samples, ``fpr[t, j]`` the
        fraction of class-b samples, whose column-a score is strictly above
        ``thresholds[t, j]``, for the pair ``pairs[j] = (a, b)``.
    thresholds : ndarray of shape (T, K)
        The thresholds, decreasing down each column.
    levels : ndarray of shape (T,)
        The quantile level of each row, in row order (decreasing).
    pairs : ndarray of shape (K, 2)
        The ordered class pairs (positive, negative) as labels, lexicographic.
    dropped_pairs : tuple of tuple
        Pairs left out because one of their classes has no samples.
    n_pos, n_neg : ndarray of shape (K,)
        Number of samples of the positive and of the negative class of each pair.
    threshold_mode : str
        ``"pooled"``, ``"column"`` or ``"balanced"``.
    classes : ndarray
        The class order (the columns of the score matrix).
    """

    tpr: np.ndarray
    fpr: np.ndarray
    thresholds: np.ndarray
    levels: np.ndarray
    pairs: np.ndarray
    dropped_pairs: tuple
    n_pos: np.ndarray
    n_neg: np.ndarray
    threshold_mode: str
    classes: np.ndarray


class Problem(NamedTuple):
    """Validated inputs of ROC-DMF: encoded labels, scores, pools and levels."""

    y: np.ndarray
    scores: np.ndarray
    classes: np.ndarray
    pools: PairPools
    levels: np.ndarray  # in row order: decreasing
    dropped: tuple


def pairwise_rates(y_true, y_score, *, labels=None, levels=None, n_levels=99, thresholds="pooled"):
    """Pairwise TPR and FPR matrices (T × K) for every ordered pair of classes.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_score : array-like of shape (n, k)
        Scores, one column per class in the order of ``labels``. Rows need not
        sum to 1.
    labels : array-like of shape (k,), optional
        Class order; default the sorted unique values of ``y_true``.
    levels : array-like of shape (T,), optional
        Increasing quantile levels in (0, 1), T >= 2. Default ``t / (n_levels + 1)``
        for t = 1..n_levels.
    n_levels : int, default=99
        Number of levels when ``levels`` is None; >= 2.
    thresholds : {"pooled", "column", "balanced"}, default="pooled"
        Where the row-t threshold of pair (a, b) comes from: the type-7
        ``levels[t]``-quantile of the column-a scores of classes a and b
        (``"pooled"``), of all samples (``"column"``), or the inverse-CDF
        quantile of the equal-weight mixture of the two classes (``"balanced"``,
        which makes the rates invariant to the class sizes).

    Returns
    -------
    PairwiseRates

    Raises
    ------
    ValueError
        For invalid labels or scores, fewer than 2 classes with samples, bad
        levels or an unknown ``thresholds``.

    Warns
    -----
    UndefinedMetricWarning
        When a class named in ``labels`` has no samples; its pairs are dropped.

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
        y_true, y_score, labels=labels, levels=levels, n_levels=n_levels, thresholds=thresholds
    )
    rates = batch_rates(problem.pools, problem.levels)
    n_pos, n_neg = pair_sizes(problem)
    return PairwiseRates(
        tpr=rates.tpr[0],
        fpr=rates.fpr[0],
        thresholds=rates.thresholds[0],
        levels=problem.levels,
        pairs=problem.classes[problem.pools.pairs],
        dropped_pairs=problem.dropped,
        n_pos=n_pos,
        n_neg=n_neg,
        threshold_mode=problem.pools.mode,
        classes=problem.classes,
    )


def prepare_problem(y_true, y_score, *, labels, levels, n_levels, thresholds):
    """Validate the inputs, drop the pairs without samples and sort every column once."""
    y, scores, classes, _ = check_scores(y_true, y_score, labels=labels, require_simplex=False)
    check_option("thresholds", thresholds, THRESHOLD_MODES)
    if levels is None:
        n_levels = check_positive_int("n_levels", n_levels, minimum=2)
        levels = np.arange(1, n_levels + 1) / (n_levels + 1)
    levels = check_quantile_levels("levels", levels)
    support = check_class_support(y, classes)
    pairs, dropped = _ordered_pairs(support)
    if dropped:
        named = ", ".join(f"({classes[a]!r}, {classes[b]!r})" for a, b in dropped)
        warnings.warn(
            f"classes {classes[support == 0].tolist()} have no samples in y_true; "
            f"{len(dropped)} class pairs are undefined and dropped: {named}",
            UndefinedMetricWarning,
            stacklevel=3,
        )
    pools = _build_pools(y, scores, pairs, thresholds)
    dropped_labels = tuple((classes[a].item(), classes[b].item()) for a, b in dropped)
    return Problem(y, scores, classes, pools, levels[::-1].copy(), dropped_labels)


def pair_sizes(problem):
    """Number of positive and of negative samples of each pair, as float arrays (K,)."""
    support = np.bincount(problem.y, minlength=problem.classes.size).astype(np.float64)
    pairs = problem.pools.pairs
    return support[pairs[:, 0]], support[pairs[:, 1]]


def _ordered_pairs(support):
    """Lexicographic ordered pairs of classes with samples, and the pairs left out."""
    k = support.size
    every = [(a, b) for a in range(k) for b in range(k) if a != b]
    kept = [p for p in every if support[p[0]] > 0 and support[p[1]] > 0]
    dropped = [p for p in every if p not in kept]
    return np.array(kept, dtype=np.intp).reshape(-1, 2), dropped


def _build_pools(y, scores, pairs, mode):
    """Sort each score column once and cut out every pair's samples."""
    columns, memberships = [], []
    for a in range(scores.shape[1]):
        order = np.argsort(scores[:, a], kind="stable")
        columns.append(Column(order, scores[order, a]))
        labels = y[order]
        memberships.append([labels == c for c in range(scores.shape[1])])
    pools = []
    for a, b in pairs:
        member = memberships[a]
        position = np.flatnonzero(member[a] | member[b])
        pools.append(Pool(position, columns[a].scores[position], member[a][position]))
    return PairPools(pairs, pools, columns, mode)


def batch_rates(pools, levels, multiplicities=None):
    """Rates (b, T, K) of a batch of replicates given as multiplicities (b, n); None is b = 1."""
    batch = 1 if multiplicities is None else multiplicities.shape[0]
    shape = (batch, levels.size, len(pools.pools))
    rates = Rates(np.empty(shape), np.empty(shape), np.empty(shape))
    for a, column in enumerate(pools.columns):
        in_column = np.flatnonzero(pools.pairs[:, 0] == a)
        if in_column.size == 0:
            continue
        weights = _column_weights(column, multiplicities)
        column_thresholds = None
        if pools.mode == "column":
            column_thresholds = _type7_quantile(column.scores, np.cumsum(weights, axis=1), levels)
        for j in in_column:
            pair = _pair_rates(pools.pools[j], weights, pools.mode, levels, column_thresholds)
            for out, values in zip(rates, pair):
                out[:, :, j] = values
    return rates


def _column_weights(column, multiplicities):
    """Multiplicities (b, n) of the samples in the column's score order."""
    if multiplicities is None:
        return np.ones((1, column.order.size), dtype=np.int64)
    return np.take(multiplicities, column.order, axis=1)


def _pair_rates(pool, column_weights, mode, levels, column_thresholds):
    """TPR, FPR and thresholds (b, T) of one pair."""
    weights = np.take(column_weights, pool.position, axis=1)
    cum_all = np.cumsum(weights, axis=1)
    cum_pos = np.cumsum(weights * pool.positive, axis=1)
    cum_neg = cum_all - cum_pos
    if mode == "pooled":
        thresholds = _type7_quantile(pool.scores, cum_all, levels)
    elif mode == "balanced":
        thresholds = _balanced_quantile(pool.scores, cum_pos, cum_neg, levels)
    else:
        thresholds = column_thresholds
    at_or_below = np.searchsorted(pool.scores, thresholds, side="right")
    return _fraction_above(cum_pos, at_or_below), _fraction_above(cum_neg, at_or_below), thresholds


def _fraction_above(cumulative, at_or_below):
    """Share of the weight strictly above each threshold, from cumulative weights (b, m)."""
    total = cumulative[:, -1:]
    below = np.take_along_axis(cumulative, np.maximum(at_or_below - 1, 0), axis=1)
    below = np.where(at_or_below > 0, below, 0)
    return (total - below) / total


def _type7_quantile(scores, cumulative, levels):
    """Type-7 quantiles (numpy's ``"linear"``, same arithmetic) of weighted sorted scores.

    ``cumulative`` (b, m) holds the cumulative integer multiplicities, so each
    replicate is the multiset in which score i appears that many times.
    """
    count = cumulative[:, -1:]
    virtual = (count - 1) * levels
    below = np.floor(virtual)
    gamma = virtual - below
    ranks = np.minimum(np.hstack([below, below + 1]), count - 1).astype(np.int64)
    values = scores[batched_searchsorted(cumulative, ranks, side="right")]
    return _lerp(values[:, : levels.size], values[:, levels.size :], gamma)


def _lerp(low, high, t):
    """numpy's quantile interpolation, so that the thresholds equal ``numpy.quantile``'s."""
    diff = high - low
    return np.where(t >= 0.5, high - diff * (1 - t), low + diff * t)


def _balanced_quantile(scores, cum_pos, cum_neg, levels):
    """Smallest score at which the mixture ½F_pos + ½F_neg reaches each level.

    The comparison ``c_pos/n_pos + c_neg/n_neg >= 2τ`` is made in integers,
    ``c_pos n_neg + c_neg n_pos >= 2τ n_pos n_neg``, with a relative tolerance
    of 1e-12 so that a level such as 0.1 is met when the mixture is exactly
    0.1. Duplicating every sample of a class leaves the thresholds unchanged.
    """
    n_pos, n_neg = cum_pos[:, -1:], cum_neg[:, -1:]
    mixture = cum_pos * n_neg + cum_neg * n_pos
    target = (2 * levels) * (n_pos * n_neg) * (1 - BALANCED_RTOL)
    return scores[batched_searchsorted(mixture, target, side="left")]


def batched_searchsorted(sorted_rows, values, *, side):
    """``np.searchsorted`` of ``values[r]`` in ``sorted_rows[r]`` for every row r (of a small batch).

    >>> batched_searchsorted(np.array([[1, 2, 2, 5], [0, 0, 3, 3]]), np.array([[2], [3]]), side="right")
    array([[3],
           [4]])
    """
    return np.stack([np.searchsorted(row, v, side=side) for row, v in zip(sorted_rows, values)])
