"""Epsilon-inflated argmax (Soloff, Barber & Willett 2024) and the set metrics."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.optimize import minimize

from polyroc.thresholds import (
    accuracy_among_singletons,
    average_set_size,
    coverage,
    inflated_argmax,
    singleton_correct,
    singleton_rate,
)
from polyroc.thresholds.competing import _inflated_distances

EPS = st.sampled_from([0.01, 0.05, 0.1, 0.3])


@st.composite
def probability_rows(draw, max_classes=8, max_rows=20):
    m = draw(st.integers(2, max_classes))
    n = draw(st.integers(1, max_rows))
    raw = draw(arrays(np.float64, (n, m), elements=st.floats(0.0, 1.0)))
    raw[:, 0] += raw.sum(axis=1) == 0
    return raw / raw.sum(axis=1, keepdims=True)


def scipy_distance(w, j, eps):
    """Distance from w to {v : v_j >= v_l + eps/sqrt 2 for l != j}, by SLSQP."""
    delta = eps / np.sqrt(2)
    others = [other for other in range(w.size) if other != j]
    constraints = [{"type": "ineq", "fun": lambda v, other=other: v[j] - v[other] - delta} for other in others]
    start = w.copy()
    start[j] = w.max() + delta
    result = minimize(
        lambda v: np.sum((v - w) ** 2),
        start,
        jac=lambda v: 2 * (v - w),
        constraints=constraints,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    return np.sqrt(result.fun)


@settings(max_examples=150, deadline=None)
@given(probability_rows(), EPS)
def test_set_properties(P, eps):
    delta = eps / np.sqrt(2)
    distances = _inflated_distances(P, eps)
    gaps = np.abs(distances - eps)
    top = np.sort(P, axis=1)
    assume(np.all(gaps > 1e-9) and np.all(np.abs(top[:, -1] - top[:, -2] - delta) > 1e-9))
    sets = inflated_argmax(P, eps)
    rows = np.arange(P.shape[0])
    assert np.all(sets[rows, np.argmax(P, axis=1)])
    assert not np.any(sets & ~(P > P.max(axis=1, keepdims=True) - delta))
    assert np.array_equal(sets.sum(axis=1) == 1, top[:, -1] - top[:, -2] >= delta)
    # the set is a top-k set and tied scores go in or out together
    for w, s in zip(P, sets):
        assert np.all(w[s].min() > w[~s]) if (~s).any() else True


@settings(max_examples=40, deadline=None)
@given(probability_rows(max_classes=5, max_rows=3), EPS)
def test_distances_match_a_numerical_projection(P, eps):
    distances = _inflated_distances(P, eps)
    for i, w in enumerate(P):
        for j in range(w.size):
            assert distances[i, j] == pytest.approx(scipy_distance(w, j, eps), abs=1e-6)


def test_distance_closed_form_for_two_classes():
    # pooling w_1 - delta with w_0: distance (w_0 - w_1 + delta) / sqrt 2
    eps = 0.1
    w = np.array([[0.7, 0.3]])
    assert _inflated_distances(w, eps)[0].tolist() == pytest.approx([0.0, (0.4 + eps / np.sqrt(2)) / np.sqrt(2)])


def test_tied_scores_share_their_fate():
    sets = inflated_argmax([[0.4, 0.4, 0.2], [0.3, 0.3, 0.4]], eps=0.05)
    assert sets.tolist() == [[True, True, False], [False, False, True]]


@pytest.mark.parametrize("eps", [0, -0.1, np.inf, np.nan])
def test_eps_must_be_positive_and_finite(eps):
    with pytest.raises(ValueError, match=r"^eps must be a real number in \(0, inf\); got "):
        inflated_argmax([[0.6, 0.4]], eps=eps)


def test_set_metrics_against_hand_counts():
    y = ["a", "b", "c", "a"]
    sets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 0]], dtype=bool)
    assert coverage(y, sets) == 3 / 4
    assert singleton_correct(y, sets) == 2 / 4
    assert singleton_rate(y, sets) == 3 / 4
    assert accuracy_among_singletons(y, sets) == 2 / 3
    assert average_set_size(y, sets) == 5 / 4
    w = [1, 2, 1, 0]
    assert coverage(y, sets, sample_weight=w) == 1.0
    assert singleton_correct(y, sets, sample_weight=w) == 2 / 4
    assert average_set_size(y, sets, labels=["a", "b", "c"], sample_weight=w) == 6 / 4


def test_accuracy_among_singletons_is_nan_without_singletons():
    assert np.isnan(accuracy_among_singletons([0, 1], [[1, 1], [1, 1]]))


def test_set_metrics_reject_non_boolean_sets():
    with pytest.raises(ValueError, match="booleans"):
        coverage([0, 1], [[0.5, 0.5], [1, 0]])


@pytest.mark.parametrize(
    "metric", [coverage, singleton_correct, singleton_rate, accuracy_among_singletons, average_set_size]
)
@pytest.mark.parametrize(
    ("sets", "options", "error", "match"),
    [
        ([[1, 0], [0, 1], [1, 1]], {}, ValueError, r"^sets has 2 columns but y_true has 3 classes"),
        ([[1, 0], [0, 1], [1, 1]], {"labels": [0, 1, 2]}, ValueError, "^sets has 2 columns but labels names 3"),
        ([[1, 0, 0]] * 2, {}, ValueError, "^inconsistent numbers of samples: y_true has 3, sets has 2"),
        ([1, 0, 1], {}, ValueError, r"^sets must be 2-D \(n_samples, n_classes\), got shape \(3,\)$"),
        ([["a", "b", "c"]] * 3, {}, TypeError, "^sets must be numeric, got dtype <U1"),
        ([[1, 0, None]] * 3, {}, ValueError, "^sets contains missing values"),
        ([[1, 0, np.nan]] * 3, {}, ValueError, r"^sets contains NaN or infinity \(first in row 0\)"),
        ([[1, 0, 0], [1, 0.5, 0], [0, 0, 1]], {}, ValueError, r"^sets must hold booleans \(0/1\), found .* in row 1"),
        ([[1, 0, 0]] * 3, {"sample_weight": [1, 1]}, ValueError, r"^sample_weight must have shape \(3,\)"),
    ],
)
def test_set_metric_errors_name_the_sets_argument(metric, sets, options, error, match):
    with pytest.raises(error, match=match):
        metric([0, 1, 2], sets, **options)


def test_table4_consistency_on_synthetic_outputs():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 2000)
    P = rng.dirichlet(np.ones(4), 2000) + 1.5 * np.eye(4)[y] * rng.random((2000, 1))
    P /= P.sum(axis=1, keepdims=True)
    sets = inflated_argmax(P)
    argmax_accuracy = np.mean(np.argmax(P, axis=1) == y)
    size = average_set_size(y, sets)
    assert singleton_correct(y, sets) <= argmax_accuracy <= coverage(y, sets)
    assert coverage(y, sets) - singleton_correct(y, sets) <= size - 1 + 1e-12
    assert argmax_accuracy - singleton_correct(y, sets) <= size - 1 + 1e-12


@pytest.mark.parametrize("eps", [0.01, 0.05, 0.3])
def test_sets_of_rows_with_clear_top_scores_equal_the_sets_from_every_distance(eps):
    # rows whose top two scores are far apart skip the distances (singleton argmax sets); the sets must be those
    # of the distances to every region, also for gaps at and around eps / sqrt 2 and 1.5 eps / sqrt 2
    delta = eps / np.sqrt(2)
    rng = np.random.default_rng(4)
    P = rng.dirichlet(np.full(5, 0.7), 3000)
    gaps = np.array([0.0, delta, 1.5 * delta, 2 * delta, 0.5 * delta])
    gaps = np.concatenate([gaps, np.nextafter(gaps, 1), np.nextafter(gaps, -1).clip(0)])
    tops = np.full((gaps.size, 5), 0.0)
    tops[:, 0] = (1 - 3 * 0.01 + gaps) / 2
    tops[:, 1] = tops[:, 0] - gaps
    tops[:, 2:] = 0.01
    P = np.vstack([P, tops / tops.sum(axis=1, keepdims=True)])
    np.testing.assert_array_equal(inflated_argmax(P, eps), _inflated_distances(P, eps) < eps)


@pytest.mark.parametrize("eps", [0.05, 0.2])
def test_sets_from_the_candidates_places_equal_the_sets_from_every_distance(eps):
    # rows with 1 to 10 classes near their top score: each group gets the distances of its leading places only
    rng = np.random.default_rng(11)
    P = rng.dirichlet(np.full(10, 3.0), 4000)
    P[:50] = 0.1  # every class tied at the top
    np.testing.assert_array_equal(inflated_argmax(P, eps), _inflated_distances(P, eps) < eps)


def test_sets_computed_in_row_blocks_equal_the_sets_from_every_distance(monkeypatch):
    # rows are split into blocks shared by the worker threads; blocks of 333 rows (the last one shorter) with
    # tied, close and clear rows must give the sets of the distances to every region
    from polyroc.thresholds import competing

    monkeypatch.setattr(competing, "INFLATED_BLOCK_ROWS", 333)
    rng = np.random.default_rng(12)
    P = rng.dirichlet(np.full(6, 2.0), 2000)
    P[::97] = 1 / 6  # every class tied at the top, in several blocks
    np.testing.assert_array_equal(inflated_argmax(P, 0.1), _inflated_distances(P, 0.1) < 0.1)


def test_the_three_set_measures_checked_once_equal_the_three_functions():
    from polyroc.thresholds.competing import _set_measures

    rng = np.random.default_rng(2)
    P = rng.dirichlet(np.ones(4), 500)
    y, weights = rng.integers(0, 4, 500), rng.random(500)
    sets = inflated_argmax(P, 0.2)
    options = {"labels": np.arange(4), "sample_weight": weights}
    expected = tuple(f(y, sets, **options) for f in (coverage, singleton_correct, average_set_size))
    assert _set_measures(y, sets, **options) == expected
