"""The binomial rank-one factorization recovers the parameters of data simulated from the model."""

import numpy as np
import pytest
from scipy.special import expit

from polyroc.dmf._factorization import fit_factorization, linear_predictor


def _centred_unit(rng, k):
    v = rng.normal(size=k)
    v -= v.mean()
    v /= np.linalg.norm(v)
    return v if v[0] >= 0 else -v


def _simulate(rng, intercept, slope, effect, trials):
    eta = intercept[:, None] + slope[:, None] * effect[None, :]
    return rng.binomial(trials, expit(eta)) / trials


def test_intercept_model_recovers_known_parameters():
    rng = np.random.default_rng(0)
    rows, cols, trials = 30, 8, 2_000_000
    intercept = rng.uniform(-2, 2, rows)
    slope = rng.normal(0, 1, rows)
    effect = _centred_unit(rng, cols)
    rates = _simulate(rng, intercept, slope, effect, trials)
    fit = fit_factorization(rates[None], np.full((rows, cols), float(trials)))
    assert fit.converged[0]
    np.testing.assert_allclose(fit.intercept[0], intercept, atol=0.01)
    np.testing.assert_allclose(fit.slope[0], slope, atol=0.01)
    np.testing.assert_allclose(fit.effect[0], effect, atol=0.005)
    assert abs(fit.effect[0].sum()) < 1e-12 and np.linalg.norm(fit.effect[0]) == pytest.approx(1)


def test_algorithm1_recovers_a_rank_one_predictor_and_projects_it():
    rng = np.random.default_rng(1)
    rows, cols, trials = 24, 6, 200_000
    slope = rng.normal(0, 1.5, rows)
    effect = rng.normal(size=cols)
    effect /= np.linalg.norm(effect)
    rates = _simulate(rng, np.zeros(rows), slope, effect, trials)
    fit = fit_factorization(rates[None], np.ones((rows, cols)), method="algorithm1")
    truth = slope[:, None] * effect[None, :]
    np.testing.assert_allclose(linear_predictor(fit)[0], truth, atol=0.02)
    # Λ0 is the projection on the constant column: the row mean of the predictor
    np.testing.assert_allclose(fit.intercept[0], truth.mean(axis=1), atol=0.01)


def test_exact_model_data_are_fitted_exactly():
    rng = np.random.default_rng(2)
    intercept, slope, effect = rng.normal(size=10), rng.normal(size=10), _centred_unit(rng, 5)
    rates = expit(intercept[:, None] + slope[:, None] * effect[None, :])
    fit = fit_factorization(rates[None], np.ones((10, 5)), tol=1e-14, max_iter=2000)
    np.testing.assert_allclose(fit.intercept[0], intercept, atol=1e-6)
    assert fit.deviance[0] < 1e-10


def test_a_batch_is_fitted_as_independent_problems():
    rng = np.random.default_rng(3)
    intercept, slope, effect = rng.normal(size=12), rng.normal(size=12), _centred_unit(rng, 6)
    rates = np.stack([_simulate(rng, intercept, slope, effect, 300) for _ in range(5)])
    weights = rng.uniform(0.5, 2, (12, 6))
    batch = fit_factorization(rates, weights)
    for b in range(5):
        single = fit_factorization(rates[b : b + 1], weights)
        np.testing.assert_allclose(batch.intercept[b], single.intercept[0], atol=1e-10)
        np.testing.assert_allclose(batch.effect[b], single.effect[0], atol=1e-10)
        assert batch.n_iter[b] == single.n_iter[0]


def test_weight_scale_does_not_change_the_fit():
    rng = np.random.default_rng(4)
    rates = rng.uniform(0.05, 0.95, (1, 14, 6))
    weights = rng.uniform(0.5, 2, (14, 6))
    a = fit_factorization(rates, weights)
    b = fit_factorization(rates, 7.5 * weights)
    np.testing.assert_allclose(a.intercept, b.intercept, rtol=0, atol=1e-13)
    assert b.deviance[0] == pytest.approx(7.5 * a.deviance[0])


@pytest.mark.parametrize("weights", ["unit", "per_column", "per_cell"])
def test_reported_deviance_is_the_binomial_deviance_of_the_fit(weights):
    # the solver sums the deviance per column (weights constant down the columns) or per cell
    rng = np.random.default_rng(5)
    rates = rng.uniform(0.02, 0.98, (2, 16, 5))
    omega = {
        "unit": np.ones((16, 5)),
        "per_column": np.tile(rng.uniform(1, 3, 5), (16, 1)),
        "per_cell": rng.uniform(1, 3, (16, 5)),
    }[weights]
    fit = fit_factorization(rates, omega)
    mu = expit(linear_predictor(fit))
    direct = 2 * np.sum(
        omega * (rates * np.log(rates / mu) + (1 - rates) * np.log((1 - rates) / (1 - mu))), axis=(1, 2)
    )
    np.testing.assert_allclose(fit.deviance, direct, rtol=1e-9)
