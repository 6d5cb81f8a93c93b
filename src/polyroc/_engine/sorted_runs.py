"""Sorted runs of one score column: the exact rankings of a stream in bounded memory.

A *run* is a tuple ``(scores, codes, weights)`` of entries sorted by score:
float64 scores, the class code of each entry (the smallest unsigned integer
type that holds the codes) and its float64 weight, or ``weights=None`` when
every entry weighs 1. A column keeps a list of runs, each at least as long as
the next, and at most one run per *level* ceil(log2(length)). A batch
becomes one run (one sort); while a run of its level is held, the two are
merged by one linear pass, and the longer result moves up a level (a binary
counter of runs). So a column holds at most log2(n) + 1 runs of its n
entries, each entry takes part in at most log2(n) merges, and n entries
cost O(n log n) in all, never a re-sort of everything held. A run whose
scores are mostly tied is *collapsed*: its entries of equal (score, code)
become one entry with the sum of their weights, when that takes less
memory. Memory is then at most
``itemsize(codes) + 8`` bytes per entry without weights, and 8 bytes more
with them, for at most one entry per row of positive weight, and at most one
per distinct (score, class) pair once collapsed.

The AUCs need only the pairwise wins: :func:`column_wins` applies
:func:`polyroc._engine.ranking.count_wins`, the counting of
:func:`polyroc._engine.ranking.pairwise_wins`, to a column's single merged run, and
:func:`micro_wins` counts the wins of the raveled cells (the micro average)
from the columns' runs without building the raveled array.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from polyroc._engine.ranking import count_wins, tie_ends

#: A run: scores (float64, sorted), class codes, weights (float64) or None when every entry weighs 1.
Run = tuple[NDArray[np.float64], np.ndarray, NDArray[np.float64] | None]

COLLAPSE_TIED_SHARE = 0.5  # a merged run is considered for collapsing when this share of its entries are ties


def code_dtype(n_codes: int) -> np.dtype:
    """The smallest unsigned integer type that holds the codes 0 .. n_codes - 1."""
    return np.min_scalar_type(max(n_codes - 1, 0))


def batch_run(scores, codes, weights, n_codes):
    """The run of a batch: its entries sorted by score (one sort, ties in any order), collapsed if mostly tied."""
    order = np.argsort(scores)
    return collapse_ties((scores[order], codes[order], None if weights is None else weights[order]), n_codes)


def run_size(run) -> int:
    return int(run[0].size)


def run_nbytes(run) -> int:
    return sum(int(array.nbytes) for array in run if array is not None)


def _unit_weights(run) -> np.ndarray:
    return np.ones(run_size(run)) if run[2] is None else run[2]


def merge_two(first, second, n_codes):
    """The run of both runs' entries, ``first``'s first among equal scores.

    A stable sort of the two runs end to end: numpy's stable sort of floats
    (timsort) finds the two sorted runs and merges them in one linear pass.
    """
    joined = np.concatenate((first[0], second[0]))
    order = np.argsort(joined, kind="stable")
    scores = joined[order]
    del joined
    codes = np.concatenate((first[1], second[1]))[order]
    weights = None
    if first[2] is not None or second[2] is not None:
        weights = np.concatenate((_unit_weights(first), _unit_weights(second)))[order]
    del order
    return collapse_ties((scores, codes, weights), n_codes)


def collapse_ties(run, n_codes):
    """``run`` with its entries of equal (score, code) summed into one, when mostly tied and smaller so.

    A collapsed run is sorted by (score, code) and weighted. An unweighted
    run is collapsed only when the weights it then needs take less memory
    than the entries saved.
    """
    scores, codes, weights = run
    size = scores.size
    if size < 2 or np.count_nonzero(scores[1:] == scores[:-1]) < COLLAPSE_TIED_SHARE * size:
        return run
    ends = tie_ends(scores)
    group = np.repeat(np.arange(ends.size), np.diff(ends, prepend=-1))
    key = group * n_codes + codes
    if ends.size * n_codes <= 4 * size:
        present = np.flatnonzero(np.bincount(key, minlength=ends.size * n_codes))
        inverse = np.searchsorted(present, key)
    else:
        present, inverse = np.unique(key, return_inverse=True)
    itemsize = codes.itemsize + 8
    if present.size == size or (weights is None and present.size * (itemsize + 8) >= size * itemsize):
        return run
    summed = np.bincount(inverse, weights=weights, minlength=present.size).astype(np.float64)
    return scores[ends[present // n_codes]], (present % n_codes).astype(codes.dtype), summed


def run_level(run) -> int:
    """ceil(log2(size)) of a run: a column holds at most one run per level."""
    return (run_size(run) - 1).bit_length()


def push_run(runs, run, n_codes):
    """A column's runs (a new list, longest first) with ``run`` added.

    While a run of the same level is held, the two are merged: a merged run
    is longer than either (unless collapsed), so an entry rises a level at
    each of its merges, and takes part in at most log2(entries) of them.
    """
    runs = list(runs)
    while run_size(run):
        same = [i for i, held in enumerate(runs) if run_level(held) == run_level(run)]
        if not same:
            runs.append(run)
            break
        run = merge_two(runs.pop(same[0]), run, n_codes)
    return sorted(runs, key=run_size, reverse=True)


def merged_run(runs, n_codes):
    """One run of all of a column's runs (longest first), the shortest merged first; empty when there are none."""
    if not runs:
        return np.empty(0), np.empty(0, dtype=code_dtype(n_codes)), None
    run = runs[-1]
    for longer in reversed(runs[:-1]):
        run = merge_two(longer, run, n_codes)
    return run


def column_wins(run, positive, n_codes):
    """Per class j, the weighted (class ``positive``, class j) pairs of the column ranked correctly, ties half."""
    return count_wins(*run, positive, n_codes)


def micro_wins(runs, factors=None) -> float:
    """Weighted (positive cell, negative cell) pairs ranked correctly among the cells of all columns, ties half.

    ``runs[l]`` is column l's merged run; its positive cells are its entries
    of class l. Each negative cell scores the positive weight above it plus
    half the positive weight tied with it, read from the sorted positive
    cells of every column. ``factors`` (m,), when given, multiplies the
    weight of every entry of class k by ``factors[k]`` (rows reweighted per
    class, as to target priors).
    """
    positives = [
        (run[0][run[1] == label], _unit_weights(run)[run[1] == label] * (1.0 if factors is None else factors[label]))
        for label, run in enumerate(runs)
    ]
    positive_scores = np.concatenate([scores for scores, _ in positives])
    order = np.argsort(positive_scores, kind="stable")
    positive_scores = positive_scores[order]
    cumulative = np.zeros(positive_scores.size + 1)
    np.cumsum(np.concatenate([weights for _, weights in positives])[order], out=cumulative[1:])
    del positives, order
    wins = 0.0
    for label, (scores, codes, weights) in enumerate(runs):
        negative = codes != label
        negative_scores = scores[negative]
        below = np.searchsorted(positive_scores, negative_scores, side="left")
        up_to = below.copy()  # differs only where a positive cell ties: searched again for those alone
        tied = np.flatnonzero(positive_scores[np.minimum(below, positive_scores.size - 1)] == negative_scores)
        up_to[tied] = np.searchsorted(positive_scores, negative_scores[tied], side="right")
        above_plus_half_tied = cumulative[below]
        above_plus_half_tied += cumulative[up_to]
        del below, up_to
        above_plus_half_tied *= -0.5
        above_plus_half_tied += cumulative[-1]
        negative_weights = None if weights is None else weights[negative]
        if factors is not None:  # each negative cell weighs its row's weight times its class's factor
            class_factors = factors[codes[negative]]
            negative_weights = class_factors if negative_weights is None else negative_weights * class_factors
        wins += float(
            above_plus_half_tied.sum() if negative_weights is None else negative_weights @ above_plus_half_tied
        )
    return wins


def distinct_scores(run) -> int:
    """Number of distinct scores of a sorted run."""
    return 0 if run_size(run) == 0 else int(tie_ends(run[0]).size)
