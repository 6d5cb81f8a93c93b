"""The smooth ECE against a brute-force computation: the reflected kernel at every point, a fine integral, a root."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import brentq
from scipy.stats import norm

from polyroc.calibration import smooth_calibration_error
from tests.calibration.cases import dirichlet_problem, skewed_problem


def brute_force_smooth_error(scores, hits, weights):
    """smECE at its fixed point, with K(t, f) = sum_k phi(t - f - 2k) + phi(t + f - 2k) evaluated at every row."""
    shares = weights / weights.sum()
    residuals = shares * (hits - scores)
    t = (np.arange(6000) + 0.5) / 6000
    below, above = t[:, None] - scores[None, :], t[:, None] + scores[None, :]

    def smooth_error(sigma):
        kernel = sum(norm.pdf(below - 2 * k, scale=sigma) + norm.pdf(above - 2 * k, scale=sigma) for k in range(-2, 3))
        return np.abs(kernel @ residuals).mean()

    return brentq(lambda sigma: smooth_error(sigma) - sigma, 1e-3, 1.0, xtol=1e-13)


@pytest.mark.parametrize("weighted", [False, True])
def test_top_label_smooth_error_is_the_brute_force_one(weighted):
    y, proba = skewed_problem(100, 3, seed=1)
    weights = np.random.default_rng(1).uniform(0.1, 3, 100) if weighted else np.ones(100)
    expected = brute_force_smooth_error(proba.max(axis=1), (proba.argmax(axis=1) == y).astype(float), weights)
    actual = smooth_calibration_error(y, proba, sample_weight=weights if weighted else None)
    assert actual == pytest.approx(expected, abs=1e-6)


def test_classwise_smooth_error_is_the_mean_of_the_brute_force_ones():
    y, proba = skewed_problem(60, 3, seed=2)
    ones = np.ones(60)
    expected = np.mean([brute_force_smooth_error(proba[:, k], (y == k).astype(float), ones) for k in range(3)])
    assert smooth_calibration_error(y, proba, kind="classwise") == pytest.approx(expected, abs=1e-6)


def test_integer_weights_are_repeated_rows():
    y, proba = skewed_problem(120, 3, seed=3)
    weights = np.random.default_rng(3).integers(0, 4, 120)
    repeated = smooth_calibration_error(np.repeat(y, weights), np.repeat(proba, weights, axis=0))
    assert smooth_calibration_error(y, proba, sample_weight=weights) == pytest.approx(repeated, abs=1e-12)


def test_calibrated_scores_have_a_small_smooth_error_and_skewed_ones_a_large_one():
    y, proba = dirichlet_problem(20000, 3, seed=4)
    assert smooth_calibration_error(y, proba) < 0.02
    y, proba = skewed_problem(20000, 3, seed=4)
    assert smooth_calibration_error(y, proba) > 0.1


def test_bad_inputs_are_named():
    y, proba = skewed_problem(20, 3, seed=0)
    with pytest.raises(ValueError, match="kind must be one of 'top-label', 'classwise'; got 'both'"):
        smooth_calibration_error(y, proba, kind="both")
    with pytest.raises(ValueError, match="y_proba"):
        smooth_calibration_error(y, proba + 0.1)
