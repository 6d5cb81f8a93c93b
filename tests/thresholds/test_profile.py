"""coordinate_profile against brute force: the rule applied at a point of every segment, scored by scikit-learn."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, f1_score

from polyroc.thresholds import CoordinateProfile, apply_thresholds, coordinate_profile, tune_thresholds


def dirichlet_data(seed, n, m):
    rng = np.random.default_rng(seed)
    return rng.integers(0, m, n), rng.dirichlet(np.ones(m), n), rng


def grid_data(seed, n, m, total=8):
    """Rows k / 8 with integer k summing to 8: many exact ties, as from vote counts."""
    rng = np.random.default_rng(seed)
    parts = rng.multinomial(total, np.ones(m) / m, n)
    return rng.integers(0, m, n), parts / total, rng


def on_domain(tau, domain):
    """The representative of tau (mod constants) in the domain, computed independently."""
    return tau - (tau.sum() - 1.0) / tau.size if domain == "simplex" else tau - tau.min()


def brute_force_line(y, P, tau, j, deltas, score):
    values = []
    for delta in deltas:
        moved = tau.copy()
        moved[j] += delta
        values.append(score(y, np.argmax(P - moved, axis=1)))
    return np.array(values)


def check_profile(y, P, tau, profile, score, domain):
    m = P.shape[1]
    assert profile.score == pytest.approx(score(y, np.argmax(P - tau, axis=1)), abs=1e-12)
    assert profile.argmax_score == pytest.approx(score(y, np.argmax(P, axis=1)), abs=1e-12)
    for j in range(m):
        edges, values = profile.edges[j], profile.values[j]
        assert edges.shape == (values.size + 1,) and np.all(np.diff(edges) > 0)
        midpoints = 0.5 * (edges[:-1] + edges[1:])
        assert values == pytest.approx(brute_force_line(y, P, tau, j, midpoints, score), abs=1e-12)
        for delta in midpoints:  # every point of the line is a valid tau of the domain
            moved = tau.copy()
            moved[j] += delta
            apply_thresholds(P, np.clip(on_domain(moved, domain), 0.0, None), domain=domain)


def accuracy(y, pred):
    return accuracy_score(y, pred)


def macro_f1(y, pred):
    return f1_score(y, pred, average="macro", labels=[0, 1, 2], zero_division=0.0)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(5, 60), st.sampled_from(["simplex", "box"]))
def test_profile_equals_brute_force_on_continuous_scores(seed, m, n, domain):
    y, P, rng = dirichlet_data(seed, n, m)
    y[:m] = np.arange(m)
    tau = rng.dirichlet(np.ones(m)) if domain == "simplex" else on_domain(rng.random(m), "box")
    profile = coordinate_profile(y, P, tau, metric="accuracy", domain=domain)
    check_profile(y, P, tau, profile, accuracy, domain)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(5, 60))
def test_profile_equals_brute_force_on_tied_scores_with_macro_f1(seed, n):
    y, P, _ = grid_data(seed, n, 3)
    y[:3] = np.arange(3)
    tau = np.array([0.5, 0.25, 0.25])
    profile = coordinate_profile(y, P, tau, metric="f1_macro")
    check_profile(y, P, tau, profile, macro_f1, "simplex")


def test_profile_line_spans_the_whole_simplex_range():
    y, P, _ = dirichlet_data(1, 40, 3)
    tau = np.array([0.2, 0.3, 0.5])
    profile = coordinate_profile(y, P, tau)
    # tau_0 = 0.2 + delta stays on the simplex (once re-centred) for sum_k (tau_k - min tau) <= 1:
    # delta in [(0.8 - 1) / 2 - 0.2, 1 - 0.8 + 3 * 0.3 - 0.2] = [-0.3, 0.9].
    assert profile.edges[0][[0, -1]] == pytest.approx([-0.3, 0.9], abs=1e-12)


def test_weighted_profile_equals_repeated_rows():
    y, P, rng = dirichlet_data(7, 30, 4)
    y[:4] = np.arange(4)
    counts = rng.integers(1, 4, y.size)
    tau = np.full(4, 0.25)
    weighted = coordinate_profile(y, P, tau, sample_weight=counts * 1e-3, metric="balanced_accuracy")
    repeated = coordinate_profile(np.repeat(y, counts), np.repeat(P, counts, axis=0), tau, metric="balanced_accuracy")
    for a, b in zip(weighted.values, repeated.values):
        assert a == pytest.approx(b, abs=1e-12)


def test_default_threshold_is_the_tuned_one_and_no_line_beats_a_coordinate_optimum():
    y, P, _ = dirichlet_data(3, 80, 4)
    tuned = tune_thresholds(y, P, metric="balanced_accuracy")
    profile = coordinate_profile(y, P, metric="balanced_accuracy")
    assert np.array_equal(profile.threshold, tuned.best_threshold)
    assert profile.score == tuned.best_score
    assert profile.settings == {"domain": "simplex", "search": "lattice", "resolution": tuned.resolution}
    start = tune_thresholds(y, P, search="coordinate")
    at_optimum = coordinate_profile(y, P, start.best_threshold)
    assert np.nanmax(at_optimum.best_on_lines()) <= at_optimum.score


def test_profile_is_a_result_with_one_row_per_class():
    y = ["a", "b", "c", "a", "b", "c"]
    P = [[0.5, 0.3, 0.2], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5], [0.4, 0.4, 0.2], [0.5, 0.3, 0.2], [0.1, 0.3, 0.6]]
    profile = coordinate_profile(y, P, [1 / 3, 1 / 3, 1 / 3])
    assert isinstance(profile, CoordinateProfile)
    frame = profile.to_frame()
    assert frame["class"].tolist() == ["a", "b", "c"]
    assert frame["threshold"].tolist() == pytest.approx([1 / 3] * 3)
    data = profile.to_dict()
    assert data["type"] == "CoordinateProfile" and data["metric"] == "f1_macro"
    assert len(data["edges"]) == 3
    with pytest.raises(AttributeError):
        profile.score = 0.0


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"threshold": [0.5, 0.5]}, ValueError, "thresholds"),
        ({"threshold": [0.6, 0.6, 0.6]}, ValueError, "simplex"),
        ({"domain": "cube"}, ValueError, "domain"),
        ({"metric": "nope"}, ValueError, "nope"),
        ({"metric": 3}, TypeError, "metric"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    y = [0, 1, 2, 0]
    P = [[0.5, 0.3, 0.2], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5], [0.4, 0.4, 0.2]]
    with pytest.raises(error, match=match):
        coordinate_profile(y, P, **kwargs)
