"""Integer replicates of the Gini bootstrap: run sums, count thresholds, exact curves and held moments.

Oracles: plain numpy sums over each run of the order (brute force), a scan
over every count for the FPR thresholds, the floating-point formulas on the
same counts (bit for bit), and ``np.cov`` / ``np.average`` with the
multiplicities as weights.
"""

from itertools import pairwise

import numpy as np
import pytest

from polyroc._engine.replicate_columns import LANE_COUNT, LANE_RUN, RunSums
from polyroc.gini._replicates import (
    HeldCounts,
    count_thresholds,
    group_counts,
    moment_basis,
    rank_classes,
    replicate_auc,
    replicate_moments,
    replicate_tpr,
    segment_counts,
    segment_sums,
)


def brute_force_run_sums(counts, order, bounds):
    return np.array([counts[order[a:b]].sum(axis=0) for a, b in pairwise(bounds)]).T


@pytest.mark.parametrize("largest", [1, LANE_COUNT, LANE_COUNT + 1, 255, 1000])
@pytest.mark.parametrize("width", [1, 5, 8, 11])
def test_run_sums_equal_the_sums_over_each_run(largest, width):
    rng = np.random.default_rng(largest * 100 + width)
    n = 400
    order = rng.permutation(n)[:350]
    cuts = np.sort(rng.integers(0, order.size, 40))
    bounds = np.concatenate(([0, 0], cuts, [order.size - 3 * LANE_RUN, order.size]))  # empty and long runs
    bounds = np.sort(bounds)
    dtype = np.uint8 if largest <= 255 else np.int32
    counts = rng.integers(0, largest + 1, size=(n, width)).astype(dtype)
    counts[order[-1], 0] = largest
    sums = RunSums(order, bounds, n)
    expected = brute_force_run_sums(counts.astype(np.int64), order, bounds)
    assert np.diff(bounds).max() > LANE_RUN  # long runs are summed in pieces
    for given in (None, largest):
        result = sums(counts, given)
        assert result.shape == (width, bounds.size - 1) and np.issubdtype(result.dtype, np.integer)
        np.testing.assert_array_equal(result, expected)
    # the same counts in a block that is not contiguous
    wide = np.zeros((n, 2 * width), dtype=dtype)
    wide[:, ::2] = counts
    np.testing.assert_array_equal(sums(wide[:, ::2]), expected)


def test_count_thresholds_are_the_least_counts_past_each_fpr():
    totals = np.array([0, 1, 2, 3, 7, 10, 49, 97, 1000])
    grid = np.concatenate((np.linspace(0, 1, 101), [1 / 3, 2 / 3, 1 / 7, 0.1 + 0.2]))
    result = count_thresholds(totals, grid)
    for row, total in zip(result, totals):
        for value, fpr in zip(row, grid):
            if total == 0:
                assert value == 0
                continue
            expected = next(c for c in range(total + 2) if c / total > fpr)
            assert value == expected


def tied_scores(n, m, seed, decimals):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    y[:m] = np.arange(m)
    scores = rng.dirichlet(np.ones(m), n) + 0.3 * np.eye(m)[y]
    return y, scores if decimals is None else np.round(scores, decimals)


@pytest.mark.parametrize("decimals", [1, 2, None])
def test_integer_counts_give_the_floating_point_curves_bit_for_bit(decimals):
    # the exact integer area and the integer FPR search reproduce the floating-point formulas on the same counts
    y, scores = tied_scores(300, 4, 3, decimals)
    rows = np.random.default_rng(4).integers(0, 5, size=(11, y.size))
    rows[3] = 0
    rows[3, y == 0] = 1  # no negatives for class 0 in this replicate
    rows[5, y == 2] = 0  # no positives for class 2
    fpr_grid = np.linspace(0.0, 1.0, 37)
    columns = np.ascontiguousarray(rows.T, dtype=np.uint8)
    for ranking in rank_classes(y, scores):
        exact = segment_counts(segment_sums(ranking), columns)
        floating = group_counts(ranking, rows.astype(np.float64), np.float64)
        for name in exact._fields:
            np.testing.assert_array_equal(getattr(exact, name), getattr(floating, name), err_msg=name)
        with np.errstate(invalid="ignore"):
            np.testing.assert_array_equal(replicate_auc(exact), replicate_auc(floating))
            np.testing.assert_array_equal(replicate_tpr(exact, fpr_grid), replicate_tpr(floating, fpr_grid))


def test_held_moments_equal_numpy_weighted_moments():
    y, scores = tied_scores(500, 4, 5, None)
    multiplicities = np.random.default_rng(6).integers(0, 4, size=(13, y.size))
    held = HeldCounts([np.ascontiguousarray(multiplicities[i : i + 8].T, dtype=np.uint8) for i in (0, 8)])
    assert held.count == 13
    mean, covariance, size = replicate_moments(moment_basis(scores, None), held)
    for r, weights in enumerate(multiplicities):
        np.testing.assert_array_equal(held.replicate(r), weights)
        np.testing.assert_allclose(mean[r], np.average(scores, axis=0, weights=weights), rtol=1e-13)
        np.testing.assert_allclose(covariance[r], np.cov(scores.T, aweights=weights), rtol=1e-12, atol=1e-16)
        assert size[r] == pytest.approx(weights.sum() ** 2 / (weights**2).sum(), rel=1e-14)
