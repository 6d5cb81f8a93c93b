"""Tuning the simplex thresholds for the least expected cost, checked against brute force written here.

The oracles are independent of polyroc's counts engine: the rule
argmax(p - tau) is applied with NumPy (first index on ties), the cost is the
mean of ``C[y, decision]`` (integer costs: exact as a fraction of the number
of rows), the lattice is enumerated here, and the Bayes decisions are
argmin(P @ C). On calibrated simulated data (labels drawn from the scores)
the Bayes rule's cost is the least of any rule, so no tuned tau may beat it
beyond the Monte Carlo error of a paired difference.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score

from polyroc._validation import check_scores, with_scaled_weights
from polyroc.thresholds import SimplexThresholdClassifier, compare_rules, coordinate_profile, tune_thresholds
from polyroc.thresholds.compare import COLUMNS
from polyroc.thresholds.objectives import tuning_objective
from polyroc.thresholds.search import line_values
from polyroc.thresholds.tuning import TuningResult

COSTS = np.array([[0, 1, 4], [2, 0, 1], [6, 3, 0]])


def draw(seed, n, m, concentration=1.0):
    """Dirichlet scores and labels drawn from them (calibrated by construction), and the generator."""
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.full(m, concentration), n)
    y = (rng.random(n)[:, None] > np.cumsum(P, axis=1)).sum(axis=1)
    return np.minimum(y, m - 1), P, rng


def rule(P, tau):
    return np.argmax(np.asarray(P) - np.asarray(tau), axis=1)


def mean_cost(y, decisions, costs, w=None):
    cells = np.asarray(costs, dtype=float)[y, decisions]
    return float(np.average(cells, weights=w))


def exact_cost(y, decisions, costs):
    """The mean cost of integer costs as a Fraction."""
    return Fraction(int(np.asarray(costs)[y, decisions].sum()), len(y))


def simplex_lattice(m, r):
    """Every point c / r with non-negative integers c summing to r, and the barycentre."""
    points = [c for c in itertools.product(range(r + 1), repeat=m) if sum(c) == r]
    return np.vstack([np.array(points) / r, np.full(m, 1 / m)])


def bayes(P, costs):
    return np.argmin(np.asarray(P) @ np.asarray(costs, dtype=float), axis=1)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lattice_search_is_the_exact_least_cost_over_the_lattice(seed):
    y, P, _ = draw(seed, 40, 3)
    result = tune_thresholds(y, P, metric="expected_cost", cost_matrix=COSTS, resolution=9)
    brute = min(exact_cost(y, rule(P, tau), COSTS) for tau in simplex_lattice(3, 9))
    assert Fraction(result.best_score).limit_denominator(40) == brute
    assert result.best_score == pytest.approx(float(brute), abs=1e-12)
    assert exact_cost(y, rule(P, result.best_threshold), COSTS) == brute
    argmax = exact_cost(y, np.argmax(P, axis=1), COSTS)
    assert result.argmax_score == pytest.approx(float(argmax), abs=1e-12)
    assert result.greater_is_better is False
    assert result.improvement == pytest.approx(float(argmax - brute), abs=1e-12) and result.improvement >= 0


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(2, 5),
    st.sampled_from(
        [
            ("lattice", {"resolution": 8}),
            ("random", {"n_samples": 200, "random_state": 0}),
            ("coordinate", {"resolution": 4}),
            ("coordinate", {}),
        ]
    ),
    st.sampled_from(["simplex", "box"]),
    st.booleans(),
)
def test_best_score_is_the_expected_cost_of_the_applied_rule(seed, m, search, domain, weighted):
    y, P, rng = draw(seed, 120, m)
    costs = rng.uniform(0, 5, (m, m)) * (1 - np.eye(m))
    w = rng.uniform(0.1, 3.0, 120) if weighted else None
    name, options = search
    result = tune_thresholds(
        y, P, metric="expected_cost", cost_matrix=costs, search=name, domain=domain, sample_weight=w, **options
    )
    assert result.best_score == pytest.approx(mean_cost(y, result.predict(P), costs, w), abs=1e-12)
    assert result.argmax_score == pytest.approx(mean_cost(y, np.argmax(P, axis=1), costs, w), abs=1e-12)
    assert result.best_score <= result.argmax_score
    assert result.improvement == pytest.approx(result.argmax_score - result.best_score, abs=0)


def test_random_search_surface_is_the_brute_force_cost_of_its_thresholds():
    y, P, _ = draw(3, 200, 3)
    result = tune_thresholds(
        y, P, metric="expected_cost", cost_matrix=COSTS, search="random", n_samples=400, random_state=5,
        return_surface=True,
    )  # fmt: skip
    brute = np.array([mean_cost(y, rule(P, tau), COSTS) for tau in result.thresholds])
    np.testing.assert_allclose(result.scores, brute, rtol=0, atol=1e-12)
    assert result.best_score == pytest.approx(brute.min(), abs=1e-12)


def _line_candidates(P, tau, j):
    """Midpoints between the sorted breakpoints of line j (and beyond both ends), computed here."""
    others = np.delete(P - tau, j, axis=1).max(axis=1)
    b = np.unique(P[:, j] - others)
    return np.concatenate(([b[0] - 1.0], (b[1:] + b[:-1]) / 2, [b[-1] + 1.0]))


def test_coordinate_search_is_coordinatewise_optimal_by_brute_force():
    y, P, rng = draw(4, 150, 4)
    costs = rng.integers(0, 6, (4, 4)) * (1 - np.eye(4, dtype=int))
    start = tune_thresholds(y, P, metric="expected_cost", cost_matrix=costs, resolution=3)
    result = tune_thresholds(y, P, metric="expected_cost", cost_matrix=costs, search="coordinate", resolution=3)
    assert result.best_score <= start.best_score
    tau = result.best_threshold
    assert exact_cost(y, rule(P, tau), costs) == Fraction(result.best_score).limit_denominator(150)
    for j in range(4):
        for t in _line_candidates(P, tau, j):
            moved = tau.copy()
            moved[j] = t
            moved -= (moved.sum() - 1) / 4  # the simplex representative, if any
            if moved.min() < 0:
                continue
            assert exact_cost(y, rule(P, moved), costs) >= exact_cost(y, rule(P, tau), costs)


@pytest.mark.parametrize("weighted", [False, True])
def test_fast_line_search_values_are_the_brute_force_costs_at_segment_midpoints(weighted):
    y, P, rng = draw(5, 300, 3)
    w = rng.uniform(0.5, 2.0, 300) if weighted else None
    tau = np.array([0.5, 0.3, 0.2])
    profile = coordinate_profile(y, P, tau, metric="expected_cost", cost_matrix=COSTS, sample_weight=w)
    targets = with_scaled_weights(check_scores(y, P, sample_weight=w))
    objective = tuning_objective("expected_cost", COSTS, targets.classes)
    for j in range(3):
        edges = profile.edges[j] + tau[j]
        fast_edges, fast = line_values(targets, tau, j, (edges[0], edges[-1]), objective.score, objective.line_form)
        np.testing.assert_array_equal(fast_edges - tau[j], profile.edges[j])
        for left, right, value, quick in zip(edges[:-1], edges[1:], profile.values[j], -fast):
            moved = tau.copy()
            moved[j] = (left + right) / 2
            brute = mean_cost(y, rule(P, moved), COSTS, w)
            assert value == pytest.approx(brute, abs=1e-12)
            assert quick == pytest.approx(brute, abs=1e-12)
    assert profile.greater_is_better is False
    np.testing.assert_array_equal(profile.best_on_lines(), [np.min(v) for v in profile.values])


@pytest.mark.parametrize("search", [{"resolution": 15}, {"search": "random", "n_samples": 300, "random_state": 2}])
def test_zero_one_costs_give_the_tau_and_one_minus_the_accuracy_of_tuning_accuracy(search):
    y, P, _ = draw(6, 250, 3)
    cost = tune_thresholds(y, P, metric="expected_cost", cost_matrix=1 - np.eye(3), **search)
    accuracy = tune_thresholds(y, P, metric="accuracy", **search)
    np.testing.assert_array_equal(cost.best_threshold, accuracy.best_threshold)
    assert cost.best_score == pytest.approx(1 - accuracy.best_score, abs=1e-12)
    assert cost.best_score == pytest.approx(1 - accuracy_score(y, rule(P, cost.best_threshold)), abs=1e-12)
    assert cost.improvement == pytest.approx(accuracy.improvement, abs=1e-12)


def test_zero_one_costs_coordinate_search_matches_accuracy():
    y, P, _ = draw(7, 300, 5)
    cost = tune_thresholds(y, P, metric="expected_cost", cost_matrix=1 - np.eye(5), search="coordinate")
    accuracy = tune_thresholds(y, P, metric="accuracy", search="coordinate")
    np.testing.assert_array_equal(cost.best_threshold, accuracy.best_threshold)
    assert cost.best_score == pytest.approx(1 - accuracy.best_score, abs=1e-12)


def test_bayes_rule_is_not_beaten_by_the_best_lattice_tau_on_calibrated_data():
    # Labels drawn from the scores: the Bayes decision has the least conditional risk row by row,
    # so on fresh data no tau tuned elsewhere may beat it beyond the paired Monte Carlo error.
    y, P, _ = draw(8, 60_000, 3, concentration=0.7)
    tune, test = slice(0, 20_000), slice(20_000, None)
    tuned = tune_thresholds(y[tune], P[tune], metric="expected_cost", cost_matrix=COSTS, resolution=60)
    bayes_cells = COSTS[y[test], bayes(P[test], COSTS)]
    tuned_cells = COSTS[y[test], rule(P[test], tuned.best_threshold)]
    difference = bayes_cells - tuned_cells
    error = difference.std(ddof=1) / np.sqrt(difference.size)
    assert difference.mean() <= 3 * error
    # and the tuned rule does improve on argmax, towards the Bayes rule
    argmax_cells = COSTS[y[test], np.argmax(P[test], axis=1)]
    assert tuned_cells.mean() < argmax_cells.mean()


def test_cost_matrix_as_a_labelled_frame_in_any_order():
    y, P, _ = draw(9, 100, 3)
    labels = np.array(["a", "b", "c"])
    frame = pd.DataFrame(COSTS, index=labels, columns=labels).iloc[[2, 0, 1], [1, 2, 0]]
    named = tune_thresholds(labels[y], P, metric="expected_cost", cost_matrix=frame, resolution=10)
    plain = tune_thresholds(y, P, metric="expected_cost", cost_matrix=COSTS, resolution=10)
    np.testing.assert_array_equal(named.best_threshold, plain.best_threshold)
    assert named.best_score == plain.best_score


def test_result_views_read_a_cost():
    y, P, _ = draw(10, 80, 3)
    result = tune_thresholds(y, P, metric="expected_cost", cost_matrix=COSTS, resolution=10, return_surface=True)
    assert isinstance(result, TuningResult) and result.metric == "expected_cost"
    frame = result.to_frame()
    assert frame["greater_is_better"].tolist() == [False] * 3
    assert frame["best_score"].iloc[0] == pytest.approx(mean_cost(y, result.predict(P), COSTS), abs=1e-12)
    record = result.to_dict()
    assert record["greater_is_better"] is False and record["improvement"] >= 0
    assert "cost saved (lower is better)" in result._repr_html_()
    assert np.nanmin(result.scores) == result.best_score


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"metric": "expected_cost"}, ValueError, "needs cost_matrix"),
        ({"metric": "accuracy", "cost_matrix": COSTS}, ValueError, "cost_matrix is only used"),
        ({"cost_matrix": COSTS}, ValueError, "cost_matrix is only used"),
        ({"metric": "expected_cost", "cost_matrix": np.ones((2, 2))}, ValueError, "cost_matrix must have shape"),
        ({"metric": "expected_cost", "cost_matrix": -np.ones((3, 3))}, ValueError, "cost_matrix must be non-neg"),
        ({"metric": "expected_cost", "cost_matrix": np.full((3, 3), np.nan)}, ValueError, "cost_matrix contains"),
        ({"metric": "expected_cost", "cost_matrix": [["a"] * 3] * 3}, TypeError, "cost_matrix"),
    ],
)
def test_bad_cost_arguments(kwargs, error, match):
    y, P, _ = draw(11, 30, 3)
    with pytest.raises(error, match=match):
        tune_thresholds(y, P, **kwargs)
    with pytest.raises(error, match=match):
        coordinate_profile(y, P, [1 / 3] * 3, **kwargs)
    with pytest.raises(error, match=match):
        compare_rules(y, P, y_val=y, val_scores=P, resolution=4, **kwargs)


def test_cost_pairing_is_refused_before_the_data_are_checked():
    with pytest.raises(ValueError, match="needs cost_matrix"):
        tune_thresholds([0, 1], "not scores", metric="expected_cost")


def test_frame_labelled_by_other_classes_is_refused():
    y, P, _ = draw(12, 30, 3)
    frame = pd.DataFrame(COSTS, index=[0, 1, 5], columns=[0, 1, 2])
    with pytest.raises(ValueError, match="cost_matrix's index holds labels that are not the classes"):
        tune_thresholds(y, P, metric="expected_cost", cost_matrix=frame)


@pytest.mark.parametrize("weighted", [False, True])
def test_compare_rules_scores_every_rule_by_its_cost_beside_the_bayes_rule(weighted):
    y, P, rng = draw(13, 400, 3)
    w = rng.uniform(0.5, 2.0, 400) if weighted else None
    val, test = slice(0, 200), slice(200, None)
    table = compare_rules(
        y[test], P[test], y_val=y[val], val_scores=P[val], metric="expected_cost", cost_matrix=COSTS,
        resolution=12, sample_weight=None if w is None else w[test], val_sample_weight=None if w is None else w[val],
    )  # fmt: skip
    assert table.metric == "expected_cost" and table.greater_is_better is False
    tau = table.tuning.best_threshold
    for split, rows in (("validation", val), ("test", test)):
        weights = None if w is None else w[rows]
        values = table.rows[split]
        assert values["bayes"] == pytest.approx(mean_cost(y[rows], bayes(P[rows], COSTS), COSTS, weights), abs=1e-12)
        assert values["argmax"] == pytest.approx(mean_cost(y[rows], np.argmax(P[rows], 1), COSTS, weights), abs=1e-12)
        assert values["tuned"] == pytest.approx(mean_cost(y[rows], rule(P[rows], tau), COSTS, weights), abs=1e-12)
    assert table.rows["validation"]["tuned"] == pytest.approx(table.tuning.best_score, abs=1e-12)
    frame = table.to_frame()
    assert frame["rule"].tolist()[:4] == ["argmax", "tuned", "bayes", "frechet"]
    text = table.to_text()
    assert "expected_cost (lower is better)" in text and "bayes" in text.splitlines()[1]


def test_compare_rules_bayes_rule_is_argmax_under_zero_one_costs():
    y, P, _ = draw(14, 300, 4)
    table = compare_rules(
        y[150:], P[150:], y_val=y[:150], val_scores=P[:150], metric="expected_cost", cost_matrix=1 - np.eye(4),
        resolution=6,
    )  # fmt: skip
    for split, rows in (("validation", slice(0, 150)), ("test", slice(150, None))):
        assert table.rows[split]["bayes"] == table.rows[split]["argmax"]
        assert table.rows[split]["argmax"] == pytest.approx(1 - accuracy_score(y[rows], np.argmax(P[rows], 1)))


def test_compare_rules_without_a_cost_matrix_keeps_its_columns():
    y, P, _ = draw(15, 200, 3)
    table = compare_rules(y[100:], P[100:], y_val=y[:100], val_scores=P[:100], resolution=8)
    assert table.columns == COLUMNS and "bayes" not in COLUMNS
    assert all(set(values) == set(COLUMNS) for values in table.rows.values())
    assert table.to_frame()["rule"].tolist() == ["argmax", "tuned", "frechet"] + ["inflated_argmax"] * 3
    assert table.greater_is_better is True and "lower is better" not in table.to_text()


def test_estimator_tunes_for_the_least_cost_and_scores_accuracy():
    X, y = make_classification(n_samples=400, n_classes=3, n_informative=4, weights=[0.6, 0.3, 0.1], random_state=0)
    model = LogisticRegression().fit(X[:200], y[:200])
    costs = np.array([[0, 1, 1], [1, 0, 1], [8, 8, 0]])
    clf = SimplexThresholdClassifier(model, scoring="expected_cost", cost_matrix=costs, cv="prefit", resolution=20)
    clf.fit(X[200:], y[200:])
    assert clf.best_score_ == pytest.approx(mean_cost(y[200:], clf.predict(X[200:]), costs), abs=1e-12)
    assert clf.argmax_score_ == pytest.approx(mean_cost(y[200:], model.predict(X[200:]), costs), abs=1e-12)
    assert clf.best_score_ <= clf.argmax_score_ and clf.tuning_result_.greater_is_better is False
    assert clf.score(X[200:], y[200:]) == accuracy_score(y[200:], clf.predict(X[200:]))
    np.testing.assert_array_equal(clone(clf).get_params()["cost_matrix"], costs)


def test_estimator_refuses_a_cost_pairing_before_fitting():
    class Unfittable(LogisticRegression):
        def fit(self, X, y, sample_weight=None):
            raise AssertionError("fit must not be reached")

    X, y = make_classification(n_samples=60, n_classes=3, n_informative=3, random_state=0)
    with pytest.raises(ValueError, match="scoring='expected_cost' needs cost_matrix"):
        SimplexThresholdClassifier(Unfittable(), scoring="expected_cost").fit(X, y)
    with pytest.raises(ValueError, match="cost_matrix is only used with scoring='expected_cost'"):
        SimplexThresholdClassifier(Unfittable(), cost_matrix=COSTS).fit(X, y)
