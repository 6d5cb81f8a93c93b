"""Fast counts against the plain brute force (_counts.threshold_counts).

Lattice dominance counting and the one-coordinate line sweep must return the
brute-force counts: exactly on data without ties, and on exact-tie (dyadic)
data when r is a power of two.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix

import polyroc._engine.counts as counts_module
from polyroc._engine.counts import (
    argmax_shifted,
    dominance_is_faster,
    lattice_threshold_counts,
    line_sweep_counts,
    threshold_counts,
)
from polyroc._validation import check_scores, with_scaled_weights
from polyroc.counts import get_metric
from polyroc.thresholds import iter_lattice, threshold_batches
from polyroc.thresholds.search import best_on_line, coordinate_ascent, coordinate_bounds, score_at


def continuous_data(seed, n, m):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n)
    return y, P, rng


def dyadic_data(seed, n, m, total=16):
    """Rows k / 16 with integer k summing to 16: exact ties between classes are common."""
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.integers(0, total + 1, (n, m - 1)), axis=1)
    parts = np.diff(np.concatenate([np.zeros((n, 1), int), cuts, np.full((n, 1), total)], axis=1), axis=1)
    return rng.integers(0, m, n), parts / total, rng


def lattice(m, r, domain="simplex"):
    return np.concatenate(list(iter_lattice(m, r, domain=domain)))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(1, 12), st.integers(1, 200))
def test_lattice_counts_equal_brute_force_on_continuous_data(seed, m, r, n):
    y, P, rng = continuous_data(seed, n, m)
    for domain in ("simplex", "box"):
        points = lattice(m, r, domain)
        assert np.array_equal(lattice_threshold_counts(y, P, points, r), threshold_counts(y, P, points / r))
    weights = rng.random(n) * 3
    fast = lattice_threshold_counts(y, P, points, r, weights)
    assert fast.dtype == np.float64
    assert np.allclose(fast, threshold_counts(y, P, points / r, weights), rtol=1e-12, atol=1e-9)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.sampled_from([1, 2, 4, 8, 16]), st.integers(1, 150))
def test_lattice_counts_equal_brute_force_with_exact_ties(seed, m, r, n):
    y, P, rng = dyadic_data(seed, n, m)
    points = lattice(m, r)
    assert np.array_equal(lattice_threshold_counts(y, P, points, r), threshold_counts(y, P, points / r))
    weights = rng.integers(0, 5, n).astype(float)
    assert np.array_equal(
        lattice_threshold_counts(y, P, points, r, weights), threshold_counts(y, P, points / r, weights)
    )


def test_saturated_vertex_ties_follow_the_lowest_index_rule():
    y = np.array([0, 1, 2])
    P = np.eye(3)
    points = lattice(3, 4)
    assert np.array_equal(lattice_threshold_counts(y, P, points, 4), threshold_counts(y, P, points / 4))


def test_counts_sum_to_n_and_errors_balance():
    y, P, _ = continuous_data(3, 500, 4)
    counts = lattice_threshold_counts(y, P, lattice(4, 10), 10)
    assert np.all(counts.sum(axis=(1, 2)) == 500)
    assert np.array_equal(counts.sum(axis=2), np.broadcast_to(np.bincount(y, minlength=4), (counts.shape[0], 4)))


def test_threshold_batches_fall_back_to_brute_force(monkeypatch):
    y, P, _ = continuous_data(5, 300, 3)
    fast = [np.concatenate(parts) for parts in zip(*threshold_batches(y, P, resolution=31))]
    monkeypatch.setattr(counts_module, "DOMINANCE_MAX_CELLS", 0)
    assert not dominance_is_faster(300, 3, 31, 528)
    slow = [np.concatenate(parts) for parts in zip(*threshold_batches(y, P, resolution=31))]
    assert fast[0].shape == (529, 3)  # 3 does not divide 31: the barycentre is added last
    assert np.allclose(fast[0][-1], 1 / 3)
    assert np.array_equal(fast[0], slow[0]) and np.array_equal(fast[1], slow[1])


def test_dominance_is_chosen_for_small_m_only():
    assert dominance_is_faster(3000, 3, 200, 20301)
    assert dominance_is_faster(11000, 4, 50, 23426)
    assert not dominance_is_faster(12000, 10, 8, 24310)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(1, 60), st.booleans())
def test_line_sweep_counts_equal_brute_force_at_segment_midpoints(seed, m, n, weighted):
    y, P, rng = continuous_data(seed, n, m)
    tau = rng.dirichlet(np.ones(m))
    j = int(rng.integers(m))
    weights = rng.random(n) if weighted else None
    lefts, rights, sweeps = zip(*line_sweep_counts(y, P, tau, j, (-1.0, 1.0), weights))
    left, right, swept = np.concatenate(lefts), np.concatenate(rights), np.concatenate(sweeps)
    assert left[0] == -1.0 and right[-1] == 1.0 and np.all(left[1:] == right[:-1])
    grid = np.tile(tau, (left.size, 1))
    grid[:, j] = (left + right) / 2
    assert np.allclose(swept, threshold_counts(y, P, grid, weights), atol=1e-9)


@pytest.mark.parametrize("metric", ["accuracy", "f1_macro", "balanced_accuracy"])
@pytest.mark.parametrize("seed", range(6))
def test_line_search_optimum_equals_the_dense_grid_optimum(metric, seed):
    m = 3 + seed % 3
    y, P, rng = dyadic_data(seed, 80, m)
    targets = check_scores(y, P, labels=np.arange(m))
    score_counts = get_metric(metric)
    tau = rng.integers(0, 5, m) / 16
    j = seed % m
    # breakpoints are multiples of 1/16: odd multiples of 1/64 hit every open segment
    grid_t = np.arange(-95, 96, 2) / 64
    grid = np.tile(tau, (grid_t.size, 1))
    grid[:, j] = grid_t
    dense_best = score_counts(threshold_counts(targets.y_true, P, grid)).max()
    t, best = best_on_line(targets, tau, j, (-1.5, 1.5), score_counts)
    assert best == pytest.approx(dense_best, abs=1e-12)
    moved = tau.copy()
    moved[j] = t
    assert score_at(targets, moved, score_counts) == pytest.approx(best, abs=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.sampled_from(["simplex", "box"]))
def test_coordinate_ascent_never_ends_worse_and_stays_in_the_domain(seed, m, domain):
    y, P, rng = continuous_data(seed, 120, m)
    targets = check_scores(y, P, labels=np.arange(m))
    score_counts = get_metric("f1_macro")
    start = rng.dirichlet(np.ones(m)) if domain == "simplex" else rng.random(m) * 0.5
    start = start - (start.min() if domain == "box" else 0)
    tau, score, _ = coordinate_ascent(targets, start, score_counts, domain=domain)
    assert score >= score_at(targets, start, score_counts)
    assert score == pytest.approx(score_at(targets, tau, score_counts))
    if domain == "simplex":
        assert np.all(tau >= 0) and tau.sum() == pytest.approx(1.0)
    else:
        assert tau.min() == 0 and tau.max() <= 1 + 1e-12
    for j in range(m):  # coordinate-wise optimal
        lo, hi = coordinate_bounds(tau, j, domain)
        if hi > lo:
            assert best_on_line(targets, tau, j, (lo, hi), score_counts)[1] <= score + 1e-12


def test_coordinate_bounds_keep_the_simplex():
    tau = np.array([0.2, 0.5, 0.3])
    lo, hi = coordinate_bounds(tau, 1, "simplex")
    for t in (lo, hi):
        moved = tau.copy()
        moved[1] = t
        moved -= (moved.sum() - 1) / 3
        assert moved.min() == pytest.approx(0.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 7), st.integers(1, 80), st.integers(1, 40))
def test_argmax_shifted_is_numpy_argmax_with_ties(seed, m, n, n_taus):
    _, P, rng = dyadic_data(seed, n, m)
    taus = rng.integers(0, 5, (n_taus, m)) / 8
    assert np.array_equal(argmax_shifted(P, taus), np.argmax(P[None] - taus[:, None], axis=2))


def test_argmax_shifted_over_blocks_of_samples_is_numpy_argmax_with_ties():
    # more samples than one cache buffer holds: one threshold at a time, over blocks of samples
    rng = np.random.default_rng(5)
    P = np.round(rng.dirichlet(np.ones(4), 200_003) * 64) / 64  # dyadic: many exact ties, exact differences
    taus = np.vstack([np.full(4, 0.25), rng.integers(0, 5, (2, 4)) / 8])
    assert np.array_equal(argmax_shifted(P, taus), np.argmax(P[None] - taus[:, None], axis=2))


def test_top_two_over_blocks_of_rows_is_the_first_and_second_argmax():
    # more rows than one block of TopTwo; dyadic scores and thresholds: exact ties, first index wins
    from polyroc._engine.counts import rule_offsets
    from polyroc.thresholds.search import TOP_TWO_ROWS, TopTwo

    rng = np.random.default_rng(9)
    n = 2 * TOP_TWO_ROWS + 17
    P = np.round(rng.dirichlet(np.ones(5), n) * 32) / 32
    P /= P.sum(axis=1, keepdims=True)
    y = rng.integers(0, 5, n)
    tau = rng.integers(0, 5, 5) / 8
    targets = with_scaled_weights(check_scores(y, P))
    state = TopTwo(targets, tau)
    shifted = P - rule_offsets(tau)
    first = np.argmax(shifted, axis=1)
    rest = shifted.copy()
    rest[np.arange(n), first] = -np.inf
    second = np.argmax(rest, axis=1)
    np.testing.assert_array_equal(state.first, first)
    np.testing.assert_array_equal(state.second, second)
    np.testing.assert_array_equal(state.first_value, shifted[np.arange(n), first])
    np.testing.assert_array_equal(state.second_value, shifted[np.arange(n), second])
    np.testing.assert_array_equal(state.counts, confusion_matrix(y, first, labels=np.arange(5)))


def test_coordinate_breakpoints_over_blocks_of_rows_are_those_of_the_whole_matrix():
    # more rows than one block; dyadic scores and thresholds: exact ties, the first other class wins
    from polyroc._engine.counts import BREAKPOINT_BLOCK_ROWS, coordinate_breakpoints

    rng = np.random.default_rng(13)
    n = 2 * BREAKPOINT_BLOCK_ROWS + 29
    P = np.round(rng.dirichlet(np.ones(5), n) * 32) / 32
    tau = rng.integers(0, 5, 5) / 8
    for j in range(5):
        others = P - tau
        others[:, j] = -np.inf
        runner_up = np.argmax(others, axis=1)
        breakpoints, found = coordinate_breakpoints(P, tau, j)
        np.testing.assert_array_equal(found, runner_up)
        np.testing.assert_array_equal(breakpoints, P[:, j] - others[np.arange(n), runner_up])
