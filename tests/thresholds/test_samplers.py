"""Threshold samplers: lattice enumeration, sizes, chunking, Monte Carlo."""

import itertools
import math

import numpy as np
import pytest

from polyroc.thresholds import (
    barycentre,
    default_resolution,
    iter_lattice,
    iter_random_thresholds,
    lattice_size,
)


def all_points(chunks):
    chunks = list(chunks)
    assert all(isinstance(chunk, np.ndarray) and chunk.dtype == np.uint16 for chunk in chunks)
    return np.concatenate(chunks)


@pytest.mark.parametrize("m, r", [(2, 1), (2, 7), (3, 5), (4, 6), (5, 3), (7, 2)])
def test_simplex_lattice_is_every_composition_in_decreasing_order(m, r):
    expected = sorted((c for c in itertools.product(range(r + 1), repeat=m) if sum(c) == r), reverse=True)
    points = all_points(iter_lattice(m, r, chunk_size=4))
    assert [tuple(p) for p in points.tolist()] == expected
    assert len(expected) == lattice_size(m, r) == math.comb(r + m - 1, m - 1)


@pytest.mark.parametrize("m, r", [(2, 1), (2, 4), (3, 3), (4, 2)])
def test_box_lattice_is_every_vector_with_min_zero(m, r):
    expected = {c for c in itertools.product(range(r + 1), repeat=m) if min(c) == 0}
    points = all_points(iter_lattice(m, r, domain="box", chunk_size=3))
    assert len(points) == len(expected) == lattice_size(m, r, domain="box")
    assert {tuple(p) for p in points.tolist()} == expected


def test_paper_lattice_sizes_and_boundary_shares():
    assert lattice_size(3, 200) == 20301 and lattice_size(4, 50) == 23426
    assert lattice_size(9, 25) == 13884156
    assert lattice_size(3, 200, domain="box") == 120601
    for m, r, boundary in [(3, 200, 600), (4, 50, 5002)]:
        points = all_points(iter_lattice(m, r))
        assert np.sum(np.any(points == 0, axis=1)) == boundary


def test_lattice_is_streamed_lazily():
    chunks = iter_lattice(9, 25, chunk_size=1000)
    first = next(chunks)
    assert first.shape == (1000, 9) and first[0].tolist() == [25] + [0] * 8
    assert np.all(first.sum(axis=1) == 25)


def test_default_resolution_keeps_the_lattice_moderate():
    for m in range(2, 12):
        r = default_resolution(m)
        assert 1 <= r <= 200 and lattice_size(m, r) <= 25_000
        assert r == 200 or lattice_size(m, r + 1) > 25_000
    assert default_resolution(3) == 200


def test_barycentre():
    assert barycentre(3).tolist() == [1 / 3] * 3
    assert barycentre(3, domain="box").tolist() == [0.0] * 3


def test_random_thresholds_are_reproducible_and_chunk_independent():
    one = np.concatenate(list(iter_random_thresholds(4, 1000, random_state=7)))
    chunked = np.concatenate(list(iter_random_thresholds(4, 1000, random_state=7, chunk_size=33)))
    assert np.array_equal(one, chunked)
    generator = np.random.default_rng(7)
    assert np.array_equal(np.concatenate(list(iter_random_thresholds(4, 1000, random_state=generator))), one)
    assert not np.array_equal(np.concatenate(list(iter_random_thresholds(4, 1000, random_state=8))), one)


def test_random_simplex_thresholds_are_uniform_dirichlet():
    taus = np.concatenate(list(iter_random_thresholds(3, 60_000, random_state=0)))
    assert np.all(taus >= 0) and np.allclose(taus.sum(axis=1), 1.0)
    # Dirichlet(1,1,1): each coordinate is Beta(1, 2), mean 1/3 and P(tau_0 > 1/2) = 1/4
    assert np.allclose(taus.mean(axis=0), 1 / 3, atol=0.005)
    assert np.mean(taus[:, 0] > 0.5) == pytest.approx(0.25, abs=0.01)


def test_random_box_thresholds():
    taus = np.concatenate(list(iter_random_thresholds(3, 5000, domain="box", random_state=0)))
    assert np.all(taus.min(axis=1) == 0) and np.all(taus.max(axis=1) <= 1)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: lattice_size(1, 5), ValueError, r"^n_classes must be an int in \[2, inf\); got 1$"),
        (lambda: lattice_size(3, 0), ValueError, r"^resolution must be an int in \[1, inf\); got 0$"),
        (lambda: lattice_size(3, 2.5), TypeError, r"^resolution must be an int in \[1, inf\); got float 2.5$"),
        (lambda: iter_lattice(3, 5, domain="cube"), ValueError, "domain must be one of"),
        (lambda: iter_lattice(3, 65536), ValueError, r"^resolution must be an int in \[1, 65535\]; got 65536$"),
        (lambda: iter_lattice(3, 5, chunk_size=True), TypeError, r"^chunk_size must be an int in \[1, inf\); got bool"),
        (lambda: iter_random_thresholds(3, 0), ValueError, r"^n_samples must be an int in \[1, inf\); got 0$"),
        (lambda: iter_random_thresholds(3, 5, random_state="seed"), TypeError, "random_state"),
    ],
)
def test_bad_arguments_fail_at_the_call(call, error, match):
    with pytest.raises(error, match=match):
        call()
