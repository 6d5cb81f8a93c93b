"""Expected cost: against a NumPy formula written here, scikit-learn's accuracies, and exact fractions."""

import warnings
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, balanced_accuracy_score

from polyroc.decisions import cost_of_counts, expected_cost


def _problem(seed, n=400, m=4):
    rng = np.random.default_rng(seed)
    return rng.integers(0, m, n), rng.integers(0, m, n), rng.uniform(0, 5, (m, m)), rng.uniform(0.1, 3, n)


def _rate_formula(y, d, costs, priors, weights):
    """sum_i pi_i sum_j C_ij R_ij, R the confusion matrix normalised over each true class, written here."""
    m = costs.shape[0]
    total = 0.0
    for i in range(m):
        row = weights[y == i].sum()
        for j in range(m):
            total += priors[i] * costs[i, j] * weights[(y == i) & (d == j)].sum() / row
    return total


@pytest.mark.parametrize("seed", range(4))
def test_expected_cost_is_the_weighted_mean_of_the_cost_of_each_row(seed):
    y, d, costs, weights = _problem(seed)
    assert expected_cost(y, d, cost_matrix=costs) == pytest.approx(costs[y, d].mean(), rel=1e-12)
    weighted = (weights * costs[y, d]).sum() / weights.sum()
    assert expected_cost(y, d, cost_matrix=costs, sample_weight=weights) == pytest.approx(weighted, rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_expected_cost_at_priors_weighs_the_per_class_rates(seed):
    y, d, costs, weights = _problem(seed)
    priors = np.random.default_rng(seed + 10).dirichlet(np.ones(4))
    plain = _rate_formula(y, d, costs, priors, np.ones(y.size))
    assert expected_cost(y, d, cost_matrix=costs, priors=priors) == pytest.approx(plain, rel=1e-12)
    weighted = _rate_formula(y, d, costs, priors, weights)
    got = expected_cost(y, d, cost_matrix=costs, priors=priors, sample_weight=weights)
    assert got == pytest.approx(weighted, rel=1e-12)


def test_priors_equal_to_the_class_shares_give_the_plain_mean():
    y, d, costs, _ = _problem(7)
    shares = np.bincount(y, minlength=4) / y.size
    assert expected_cost(y, d, cost_matrix=costs, priors=shares) == pytest.approx(costs[y, d].mean(), rel=1e-12)


def test_a_labelled_cost_matrix_in_any_order_is_reordered_to_the_labels():
    rng = np.random.default_rng(3)
    names = np.array(["cat", "dog", "owl"])
    y, d = names[rng.integers(0, 3, 200)], names[rng.integers(0, 3, 200)]
    costs = rng.uniform(0, 4, (3, 3))
    codes_y, codes_d = np.searchsorted(names, y), np.searchsorted(names, d)
    expected = costs[codes_y, codes_d].mean()
    frame = pd.DataFrame(costs, index=names, columns=names)
    shuffled = frame.loc[["owl", "cat", "dog"], ["dog", "owl", "cat"]]
    assert expected_cost(y, d, cost_matrix=shuffled) == pytest.approx(expected, rel=1e-12)
    # labels in another order: an array follows that order, a frame is reordered to it
    order = ["dog", "owl", "cat"]
    as_array = frame.loc[order, order].to_numpy()
    assert expected_cost(y, d, cost_matrix=as_array, labels=order) == pytest.approx(expected, rel=1e-12)
    assert expected_cost(y, d, cost_matrix=shuffled, labels=order) == pytest.approx(expected, rel=1e-12)
    priors = pd.Series({"owl": 0.2, "cat": 0.5, "dog": 0.3})
    in_order = [priors[name] for name in names]
    oracle = _rate_formula(codes_y, codes_d, costs, in_order, np.ones(200))
    assert expected_cost(y, d, cost_matrix=shuffled, priors=priors) == pytest.approx(oracle, rel=1e-12)


def test_exact_fractions():
    y, d = [0, 0, 1, 2, 2, 2], [0, 1, 1, 0, 2, 1]
    costs = [[0, 3, 7], [1, 0, 2], [5, 4, 0]]
    exact = sum(Fraction(costs[a][b]) for a, b in zip(y, d)) / 6
    assert expected_cost(y, d, cost_matrix=costs) == float(exact)
    # priors 1/2, 1/4, 1/4: class 0 costs 3/2 on average, class 1 costs 0, class 2 costs 9/3
    at_priors = Fraction(1, 2) * Fraction(3, 2) + Fraction(1, 4) * 0 + Fraction(1, 4) * Fraction(9, 3)
    assert expected_cost(y, d, cost_matrix=costs, priors=[0.5, 0.25, 0.25]) == pytest.approx(float(at_priors), 1e-15)


@given(
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(1, 5)), min_size=2, max_size=60),
)
def test_zero_one_costs_are_one_minus_sklearns_accuracies(rows):
    y, d, w = (np.array(column) for column in zip(*rows))
    labels = [0, 1, 2]
    zero_one = 1 - np.eye(3)
    got = expected_cost(y, d, cost_matrix=zero_one, labels=labels, sample_weight=w)
    present = np.unique(y)
    priors = np.isin(labels, present) / present.size
    at_uniform = expected_cost(y, d, cost_matrix=zero_one, labels=labels, priors=priors, sample_weight=w)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # scikit-learn's notes on classes missing from y_true
        accuracy, balanced = accuracy_score(y, d, sample_weight=w), balanced_accuracy_score(y, d, sample_weight=w)
    assert got == pytest.approx(1 - accuracy, abs=1e-12)
    assert at_uniform == pytest.approx(1 - balanced, abs=1e-12)


def test_cost_of_counts_over_leading_axes():
    rng = np.random.default_rng(5)
    counts = rng.integers(1, 20, (2, 3, 4, 4))
    costs = rng.uniform(0, 2, (4, 4))
    priors = np.array([0.1, 0.2, 0.3, 0.4])
    got, at_priors = cost_of_counts(counts, costs), cost_of_counts(counts, costs, priors)
    assert got.shape == at_priors.shape == (2, 3)
    for index in np.ndindex(2, 3):
        table = counts[index]
        assert got[index] == pytest.approx((table * costs).sum() / table.sum(), rel=1e-12)
        rates = table / table.sum(axis=1, keepdims=True)
        assert at_priors[index] == pytest.approx(sum(priors[i] * (costs[i] * rates[i]).sum() for i in range(4)), 1e-12)


def test_cost_of_counts_is_undefined_without_the_rows_a_prior_needs():
    counts = np.array([[3, 1], [0, 0]])
    assert np.isnan(cost_of_counts(counts, [[0, 1], [1, 0]], priors=[0.5, 0.5]))
    assert cost_of_counts(counts, [[0, 1], [1, 0]], priors=[1.0, 0.0]) == 0.25
