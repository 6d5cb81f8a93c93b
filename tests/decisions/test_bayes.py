"""Bayes decisions and the reject option: against argmin(P @ C), argmax, Chow's rule and simulated costs."""

import numpy as np
import pandas as pd
import pytest

from polyroc.decisions import bayes_decision, expected_cost, reject_option_summary
from tests.decisions.cases import dirichlet_model, posterior


@pytest.mark.parametrize("seed", range(3))
def test_the_decision_is_the_argmin_of_the_expected_costs(seed):
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.ones(5), size=10_000)
    costs = rng.uniform(0, 10, (5, 5))
    np.testing.assert_array_equal(bayes_decision(P, cost_matrix=costs), np.argmin(P @ costs, axis=1))


def test_zero_one_costs_give_exactly_the_argmax_ties_included():
    rng = np.random.default_rng(0)
    m = 4
    P = rng.dirichlet(np.ones(m), size=100_000)
    # a third of the rows coarse (many exact ties), a sixth with two equal top columns
    P[::3] = np.round(P[::3] * 4) + 1
    P[1::6, 1] = P[1::6, 2] = P[1::6].max(axis=1)
    P /= P.sum(axis=1, keepdims=True)
    top = P.max(axis=1, keepdims=True)
    assert np.mean((P == top).sum(axis=1) > 1) > 0.2  # ties are many
    decided = bayes_decision(P, cost_matrix=1 - np.eye(m))
    np.testing.assert_array_equal(decided, np.argmax(P, axis=1))  # numpy's argmax: the first maximum


def test_labels_and_a_labelled_cost_matrix():
    P = np.array([[0.6, 0.3, 0.1], [0.2, 0.3, 0.5], [0.34, 0.33, 0.33]])
    names = ["low", "mid", "high"]
    costs = np.array([[0, 1, 4], [2, 0, 1], [8, 2, 0]])
    expected = np.array(names)[np.argmin(P @ costs, axis=1)]
    frame = pd.DataFrame(costs, index=names, columns=names).iloc[[2, 0, 1], [1, 2, 0]]
    np.testing.assert_array_equal(bayes_decision(P, cost_matrix=frame, labels=names), expected)
    np.testing.assert_array_equal(bayes_decision(P, cost_matrix=costs, labels=names), expected)


@pytest.mark.parametrize("reject_cost", [0.05, 0.3, 0.6])
def test_chows_rule_rejects_rows_whose_least_expected_cost_exceeds_the_reject_cost(reject_cost):
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(3), size=20_000)
    costs = rng.uniform(0, 1.5, (3, 3))
    risk = P @ costs
    expected = np.where(risk.min(axis=1) > reject_cost, -1, risk.argmin(axis=1))
    decided = bayes_decision(P, cost_matrix=costs, reject_cost=reject_cost)
    assert decided.dtype.kind == "i"
    np.testing.assert_array_equal(decided, expected)
    # under 0-1 costs Chow's rule rejects when the top probability is below 1 - r
    zero_one = bayes_decision(P, cost_matrix=1 - np.eye(3), reject_cost=reject_cost, reject_label=9)
    np.testing.assert_array_equal(zero_one, np.where(P.max(axis=1) < 1 - reject_cost, 9, P.argmax(axis=1)))


def test_string_classes_reject_as_reject():
    P = [[0.5, 0.5], [0.9, 0.1]]
    decided = bayes_decision(P, cost_matrix=1 - np.eye(2), labels=["no", "yes"], reject_cost=0.2)
    assert decided.tolist() == ["reject", "no"]
    assert bayes_decision(P, cost_matrix=1 - np.eye(2), labels=[2, 5], reject_cost=0.2).tolist() == [-1, 2]


def test_on_calibrated_data_the_bayes_rule_costs_no_more_than_other_rules():
    rng = np.random.default_rng(2024)
    priors = np.array([0.5, 0.3, 0.2])
    y, x = dirichlet_model(rng, 200_000, priors, signal=2.0)
    P = posterior(x, priors, signal=2.0)  # exact posteriors: calibrated
    costs = np.array([[0.0, 1.0, 2.0], [6.0, 0.0, 1.0], [12.0, 3.0, 0.0]])
    bayes = costs[y, bayes_decision(P, cost_matrix=costs)]
    others = {"argmax": P.argmax(axis=1)}
    for k in range(4):
        tau = rng.dirichlet(np.ones(3))
        others[f"thresholds {k}"] = np.argmax(P - tau, axis=1)
        others[f"costs {k}"] = bayes_decision(P, cost_matrix=rng.uniform(0, 10, (3, 3)))
    for name, decided in others.items():
        difference = costs[y, decided] - bayes  # paired per row
        standard_error = difference.std(ddof=1) / np.sqrt(y.size)
        assert difference.mean() > -3 * standard_error, name
    assert expected_cost(y, others["argmax"], cost_matrix=costs) - bayes.mean() > 0.1  # a clear gain here


def test_reject_option_summary_against_its_definitions():
    rng = np.random.default_rng(3)
    n, r = 500, 0.35
    y = rng.integers(0, 3, n)
    decided = np.where(rng.uniform(size=n) < 0.3, -1, rng.integers(0, 3, n))
    costs = rng.uniform(0, 1, (3, 3))
    w = rng.uniform(0.2, 2, n)
    kept = decided >= 0
    summary = reject_option_summary(y, decided, cost_matrix=costs, reject_cost=r, sample_weight=w)
    row_cost = np.where(kept, costs[y, np.maximum(decided, 0)], r)
    assert summary.coverage == pytest.approx(w[kept].sum() / w.sum(), rel=1e-12)
    assert summary.selective_risk == pytest.approx((w * row_cost)[kept].sum() / w[kept].sum(), rel=1e-12)
    assert summary.total_cost == pytest.approx((w * row_cost).sum() / w.sum(), rel=1e-12)
    assert (summary.n_accepted, summary.n_rejected) == (kept.sum(), (~kept).sum())
    assert summary.to_frame().shape[0] == 1 and "coverage" in summary.to_text()


def test_every_row_rejected_has_no_selective_risk():
    summary = reject_option_summary(["a", "b"], ["reject", "reject"], cost_matrix=1 - np.eye(2), reject_cost=0.3)
    assert summary.coverage == 0 and np.isnan(summary.selective_risk) and summary.total_cost == pytest.approx(0.3)
    assert "undefined" in summary._repr_html_()
