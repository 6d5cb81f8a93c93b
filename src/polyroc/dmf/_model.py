"""Settings of a ROC-DMF fit and the fit of one problem (rates → weights → factorization → curve)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from polyroc._validation import check_option, check_positive_int, check_real
from polyroc.dmf._curve import roc_area, roc_points
from polyroc.dmf._factorization import METHODS, fit_factorization
from polyroc.dmf._rates import batch_rates, pair_sizes
from polyroc.dmf._weights import TRIALS, binomial_trials, fit_weights

BOOTSTRAPS = (None, "parametric", "stratified")


class Settings(NamedTuple):
    """Validated options of the factorization and of the bootstrap."""

    method: str
    weighting: object
    trials: str
    monotone: bool
    tol: float
    max_iter: int
    bootstrap: str | None
    n_boot: int
    confidence: float
    random_state: object


class PointFit(NamedTuple):
    """The fit to the observed data of one model."""

    rates: np.ndarray  # (2T, K): TPR rows then FPR rows
    thresholds: np.ndarray  # (T, K)
    weights: np.ndarray  # ω (2T, K)
    trials: np.ndarray  # N (2T, K)
    factorization: object  # Factorization with a batch of 1
    fpr: np.ndarray  # (T,)
    tpr: np.ndarray  # (T,)
    area: float


def check_settings(
    *, method, weighting, trials, monotone, tol, max_iter, bootstrap, n_boot, confidence, random_state
):
    """Validate the options shared by :func:`roc_dmf` and :func:`compare_models`."""
    check_option("method", method, METHODS)
    check_option("trials", trials, TRIALS)
    check_option("bootstrap", bootstrap, BOOTSTRAPS)
    if not isinstance(monotone, (bool, np.bool_)):
        raise TypeError(f"monotone must be True or False, got {monotone!r}")
    return Settings(
        method=method,
        weighting=weighting,
        trials=trials,
        monotone=bool(monotone),
        tol=check_real("tol", tol, low=0),
        max_iter=check_positive_int("max_iter", max_iter),
        bootstrap=bootstrap,
        n_boot=check_positive_int("n_boot", n_boot),
        confidence=check_real("confidence", confidence, low=0, high=1),
        random_state=random_state,
    )


def problem_weights(problem, settings):
    """Binomial trials N and fit weights ω (2T, K) of a problem."""
    n_pos, n_neg = pair_sizes(problem)
    trials = binomial_trials(n_pos, n_neg, problem.levels.size, settings.trials)
    weights = fit_weights(settings.weighting, trials, problem.pools.pairs, problem.classes.size)
    return trials, weights


def fit_point(problem, settings):
    """Rates, weights, factorization and curve of the observed data."""
    trials, weights = problem_weights(problem, settings)
    rates = batch_rates(problem.pools, problem.levels)
    stacked = np.concatenate([rates.tpr, rates.fpr], axis=1)
    fit = fit_factorization(
        stacked, weights, method=settings.method, tol=settings.tol, max_iter=settings.max_iter
    )
    fpr, tpr = roc_points(fit.intercept, monotone=settings.monotone)
    return PointFit(
        rates=stacked[0],
        thresholds=rates.thresholds[0],
        weights=weights,
        trials=trials,
        factorization=fit,
        fpr=fpr[0],
        tpr=tpr[0],
        area=float(roc_area(fpr, tpr)[0]),
    )
