"""Settings of a ROC-DMF fit and the fit of one problem (rates → weights → factorization → curve).

The factorization models logits, and its row intercept is a mean of logits
over the pairs, so a rate of exactly 0 or 1 (a class with every sample on one
side of a cut-off: common with tied scores, small classes or nearly
separable classes) has an infinite logit that would drag a whole curve point
to 0 or 1. Such cells are estimates from n samples, not certainties: the
factorization fits the empirical-logit rates

    M̃ = (n M + ½) / (n + 1),   logit M̃ = log((Z + ½) / (n − Z + ½)),   Z = n M,

where n is the number of samples behind the rate (n_a for a TPR, n_b for an
FPR; with sample weights Kish's effective size of the class, ``(Σw)² / Σw²``,
which is the number of samples for equal weights and does not change when the
weights are scaled). This is the continuity correction of Haldane (1956, Ann. Hum. Genet.
20:309) and Anscombe (1956, Biometrika 43:461), whose logit estimates a
binomial logit with bias O(n⁻²) (Cox & Snell, "Analysis of Binary Data",
2nd ed., Chapman & Hall, 1989). It moves a rate by at most 1/(2(n + 1)), is
finite for every count, vanishes as the classes grow and involves no tuning
constant. With one pair (two classes) the model is saturated, no logits are
averaged and the curve is the empirical binary ROC itself: the rates are
fitted as they are.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from polyroc._validation._params import ConstraintLike, Interval, Options
from polyroc.dmf._checks import check_bootstrap_work
from polyroc.dmf._curve import roc_area, roc_points
from polyroc.dmf._factorization import METHODS, fit_factorization
from polyroc.dmf._rates import CUTOFF_GRIDS, batch_rates, pair_sizes
from polyroc.dmf._weights import TRIALS, binomial_trials, fit_weights
from polyroc.intervals._resampling import STRATIFIED_PERCENTILE

#: Default pseudo-observations added to the successes and to the failures behind every rate (``correction``).
CONTINUITY = 0.5

BOOTSTRAPS = (None, "parametric", "stratified")

#: The declared constraints of the options :func:`~polyroc.dmf.roc_dmf` and
#: :func:`~polyroc.dmf.compare_models` share (``n_levels`` is read only without
#: ``levels`` and ``weighting`` may be an array: both are checked as code).
SHARED_CONSTRAINTS: dict[str, list[ConstraintLike]] = {
    "cutoff_grid": [Options(CUTOFF_GRIDS)],
    "method": [Options(METHODS)],
    "trials": [Options(TRIALS)],
    "monotone": ["boolean"],
    "bootstrap": [Options(BOOTSTRAPS)],
    "n_boot": [Interval("integer", 0, None, closed="left")],
    "confidence": [Interval("real", 0, 1, closed="neither")],
    "random_state": ["random_state"],
    "tol": [Interval("real", 0, None, closed="neither")],
    "max_iter": [Interval("integer", 1, None, closed="left")],
    "correction": [Interval("real", 0, None, closed="neither")],
}


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
    correction: float = CONTINUITY


class PointFit(NamedTuple):
    """The fit to the observed data of one model."""

    rates: np.ndarray  # (2T, K): TPR rows then FPR rows
    cutoffs: np.ndarray  # (T, K)
    weights: np.ndarray  # ω (2T, K)
    trials: np.ndarray  # N (2T, K)
    counts: np.ndarray  # samples behind each rate (2T, K): n_a in the TP block, n_b in the FP block
    factorization: object  # Factorization with a batch of 1
    fpr: np.ndarray  # (T,)
    tpr: np.ndarray  # (T,)
    area: float


def make_settings(
    *,
    method,
    weighting,
    trials,
    monotone,
    tol,
    max_iter,
    bootstrap,
    n_boot,
    confidence,
    random_state,
    correction=CONTINUITY,
):
    """The :class:`Settings` of options that satisfy :data:`SHARED_CONSTRAINTS`; a bootstrap needs ``n_boot`` >= 1."""
    if bootstrap is not None and n_boot < 1:
        raise ValueError(f"n_boot must be an int in [1, inf) with bootstrap={bootstrap!r}; got {n_boot!r}")
    return Settings(
        method=method,
        weighting=weighting,
        trials=trials,
        monotone=bool(monotone),
        tol=float(tol),
        max_iter=int(max_iter),
        bootstrap=bootstrap,
        n_boot=int(n_boot),
        confidence=float(confidence),
        random_state=random_state,
        correction=float(correction),
    )


def interval_method(settings):
    """How the intervals are computed: ``"stratified percentile bootstrap"`` or the parametric one."""
    return STRATIFIED_PERCENTILE if settings.bootstrap == "stratified" else "parametric percentile bootstrap"


def settings_record(problem, settings):
    """The ``settings`` dict of a result: the shared key names, then ROC-DMF's own options."""
    return {
        "cutoff_grid": problem.pools.mode,
        "n_levels": int(problem.levels.size),
        "method": settings.method,
        "weighting": settings.weighting if isinstance(settings.weighting, str) else "custom",
        "trials": settings.trials,
        "monotone": settings.monotone,
        "bootstrap": settings.bootstrap,
        "n_boot": settings.n_boot if settings.bootstrap is not None else 0,
        "confidence": settings.confidence,
        "random_state": settings.random_state,
        "interval_method": None if settings.bootstrap is None else interval_method(settings),
        "tol": settings.tol,
        "max_iter": settings.max_iter,
        "correction": settings.correction,
    }


def check_bootstrap_size(problem, settings):
    """Refuse a bootstrap too large to run in reasonable time (see :func:`check_bootstrap_work`)."""
    if settings.bootstrap is not None:
        check_bootstrap_work(settings.n_boot, 2 * problem.levels.size * len(problem.pools.pairs))


def problem_weights(problem, settings):
    """Binomial trials N and fit weights ω (2T, K) of a problem."""
    n_pos, n_neg = pair_sizes(problem)
    trials = binomial_trials(n_pos, n_neg, problem.levels.size, settings.trials)
    weights = fit_weights(settings.weighting, trials, problem.pools.pairs, problem.classes.size)
    return trials, weights


def rate_counts(problem):
    """Samples behind each rate (2T, K): n_a for the TPRs, n_b for the FPRs (effective sizes with weights)."""
    n_pos, n_neg = pair_sizes(problem)
    return binomial_trials(n_pos, n_neg, problem.levels.size, "marginal")


def response_rates(rates, counts, correction=CONTINUITY):
    """The rates the factorization fits: empirical-logit rates, or the rates themselves for one pair.

    ``rates`` (..., 2T, K) are observed proportions of ``counts`` (2T, K)
    samples, ``correction`` the pseudo-count c of (n M + c) / (n + 2c); see
    the module docstring.

    >>> response_rates(np.array([[0.0, 1.0], [0.5, 0.25]]), np.array([[4.0, 4.0], [2.0, 4.0]])).tolist()
    [[0.1, 0.9], [0.5, 0.3]]
    >>> response_rates(np.array([[0.0, 1.0]]), np.array([[4.0, 4.0]]), correction=0.1).round(4).tolist()
    [[0.0238, 0.9762]]
    >>> response_rates(np.array([[0.0], [1.0]]), np.array([[4.0], [4.0]])).tolist()
    [[0.0], [1.0]]
    """
    if rates.shape[-1] == 1:
        return rates
    return (counts * rates + correction) / (counts + 2 * correction)


def observed_rate_means(fitted, counts, correction=CONTINUITY):
    """Means of the observed rates under the model: the inverse of :func:`response_rates`, within [0, 1].

    The factorization describes the corrected rates; a simulated observed
    rate must have the mean whose correction is the fitted rate, so that
    refitting simulated data reproduces the fit instead of correcting twice.

    >>> observed_rate_means(np.array([[0.1, 0.9], [0.05, 0.3]]), np.array([[4.0, 4.0], [4.0, 4.0]])).tolist()
    [[0.0, 1.0], [0.0, 0.25]]
    """
    if fitted.shape[-1] == 1:
        return fitted
    return np.clip((fitted * (counts + 2 * correction) - correction) / counts, 0.0, 1.0)


def fit_point(problem, settings):
    """Rates, weights, factorization and curve of the observed data."""
    trials, weights = problem_weights(problem, settings)
    counts = rate_counts(problem)
    rates = batch_rates(problem.pools, problem.levels, weights=problem.weights)
    stacked = np.concatenate([rates.tpr, rates.fpr], axis=1)
    fit = fit_factorization(
        response_rates(stacked, counts, settings.correction),
        weights,
        method=settings.method,
        tol=settings.tol,
        max_iter=settings.max_iter,
    )
    fpr, tpr = roc_points(fit.intercept, monotone=settings.monotone)
    return PointFit(
        rates=stacked[0],
        cutoffs=rates.cutoffs[0],
        weights=weights,
        trials=trials,
        counts=counts,
        factorization=fit,
        fpr=fpr[0],
        tpr=tpr[0],
        area=float(roc_area(fpr, tpr)[0]),
    )
