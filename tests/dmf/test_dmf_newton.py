"""The Newton (chord) refits of ROC-DMF's bootstrap: the same minimum as a general optimizer, in fewer iterations."""

import numpy as np
import pytest
from scipy.optimize import minimize
from scipy.special import expit, log_expit

from polyroc.dmf import _factorization
from polyroc.dmf._factorization import fit_factorization, linear_predictor, start_from_logits
from polyroc.dmf._rates import pairwise_rates


def _half_deviance(theta, rates, weights):
    """Σ ω (softplus(η) - M η) of η = Λ0 + Λ V, and its gradient (written independently of the solver)."""
    n_rows = rates.shape[0]
    a, lam, v = theta[:n_rows], theta[n_rows : 2 * n_rows], theta[2 * n_rows :]
    eta = a[:, None] + lam[:, None] * v[None, :]
    value = np.sum(weights * (-log_expit(-eta) - rates * eta))
    d_eta = weights * (expit(eta) - rates)
    gradient = np.concatenate([d_eta.sum(axis=1), d_eta @ v, lam @ d_eta])
    return value, gradient


def _scipy_minimum(rates, weights, start):
    """η at the minimum found by BFGS from ``start`` (a Factorization of one problem)."""
    theta = np.concatenate([start.intercept[0], start.slope[0], start.effect[0]])
    found = minimize(_half_deviance, theta, args=(rates, weights), jac=True, method="BFGS", options={"gtol": 1e-11})
    n_rows = rates.shape[0]
    a, lam, v = found.x[:n_rows], found.x[n_rows : 2 * n_rows], found.x[2 * n_rows :]
    return a[:, None] + lam[:, None] * v[None, :], found.fun


def _resampled_problem(seed, n=240, n_classes=4, n_levels=9):
    """The rates (2T, K) of a score matrix and of a stratified resample of it, strictly inside (0, 1)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), n // n_classes)
    P = rng.dirichlet(np.ones(n_classes), size=n) + 0.4 * np.eye(n_classes)[y]
    resample = np.concatenate([rng.choice(np.flatnonzero(y == c), np.sum(y == c)) for c in range(n_classes)])

    def rates(labels, scores):
        r = pairwise_rates(labels, scores, n_levels=n_levels)
        return (np.concatenate([r.tpr, r.fpr]) * 60 + 0.5) / 61  # strictly inside (0, 1)

    point_rates = rates(y, P)
    return point_rates, rates(y[resample], P[resample]), rng.uniform(0.5, 2.0, size=point_rates.shape)


def _warm(point_rates, weights):
    point = fit_factorization(point_rates[None], weights, tol=1e-12, max_iter=1000)
    return start_from_logits(linear_predictor(point))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_newton_refit_reaches_the_minimum_found_by_bfgs(seed):
    point_rates, rates, weights = _resampled_problem(seed)
    start = _warm(point_rates, weights)
    fit = fit_factorization(rates[None], weights, start=start, tol=1e-13, max_iter=500, newton=True)
    assert fit.converged[0]
    eta, minimum = _scipy_minimum(rates, weights, start)
    np.testing.assert_allclose(linear_predictor(fit)[0], eta, atol=1e-5)
    value, _ = _half_deviance(np.concatenate([fit.intercept[0], fit.slope[0], fit.effect[0]]), rates, weights)
    assert value <= minimum + 1e-9


def test_newton_refits_need_fewer_iterations_than_alternating_steps():
    iterations = {False: [], True: []}
    for seed in range(4):
        point_rates, rates, weights = _resampled_problem(seed)
        start = _warm(point_rates, weights)
        for newton in (False, True):
            fit = fit_factorization(rates[None], weights, start=start, newton=newton)
            assert fit.converged[0]
            iterations[newton].append(int(fit.n_iter[0]))
    assert sum(iterations[True]) < sum(iterations[False]), iterations


def test_newton_steps_without_a_definite_hessian_still_reach_the_minimum(monkeypatch):
    # where the Schur complement is not positive definite the step leaves out the cross terms
    monkeypatch.setattr(_factorization, "_positive_definite", lambda matrices: np.zeros(len(matrices), dtype=bool))
    point_rates, rates, weights = _resampled_problem(5)
    start = _warm(point_rates, weights)
    fit = fit_factorization(rates[None], weights, start=start, tol=1e-13, max_iter=2000, newton=True)
    assert fit.converged[0]
    eta, _ = _scipy_minimum(rates, weights, start)
    np.testing.assert_allclose(linear_predictor(fit)[0], eta, atol=1e-5)


def test_newton_is_ignored_by_algorithm1():
    point_rates, rates, weights = _resampled_problem(3)
    point = fit_factorization(point_rates[None], weights, method="algorithm1")
    start = start_from_logits(linear_predictor(point), intercept=False)
    plain = fit_factorization(rates[None], weights, method="algorithm1", start=start)
    newton = fit_factorization(rates[None], weights, method="algorithm1", start=start, newton=True)
    np.testing.assert_array_equal(linear_predictor(plain), linear_predictor(newton))
