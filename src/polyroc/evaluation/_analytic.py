"""The intervals of :func:`polyroc.evaluate` made without resampling: formulas and a posterior.

Proportions (Wilson, Clopper–Pearson), the posterior of the confusion matrix
and the t interval of the mean losses need only the additive statistics of a
:class:`polyroc.evaluation._summary.SummaryStatistics`, so streamed and distributed
evaluations get them too; DeLong's intervals need the rows
(:class:`ScoredSample`). Each function returns each quantity's
:class:`~polyroc.resampling.ConfidenceInterval` (per class for the per-class
scores).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from polyroc.counts import get_metric
from polyroc.evaluation._summary import CLASS_SCORES, SummaryStatistics, class_score
from polyroc.intervals._proportions import PROPORTION_METHODS, proportion_bounds
from polyroc.intervals._resampling import ConfidenceInterval

__all__ = ["CLASS_SCORES", "ScoredSample", "analytic_intervals"]

#: The means whose t interval takes the plain variance (all rows one stratum): the test rows are an i.i.d. sample
#: whose class counts vary too, and costs that differ much between classes make the variance between the classes
#: count (``benchmarks/coverage.py --costs``). The other means (the log loss and the Brier score) keep the
#: stratified variance, and at target priors, which fix the class shares, every mean does.
PLAIN_MEANS = ("expected_cost",)


@dataclass(frozen=True)
class ScoredSample:
    """What DeLong's intervals need of a sample, encoded and checked."""

    y: np.ndarray  # class codes (n,)
    scores: np.ndarray  # (n, m)
    weights: np.ndarray | None  # scaled sample weights, or None

    @property
    def n_classes(self) -> int:
        return self.scores.shape[1]


def analytic_intervals(
    plan: dict[str, str],
    summary: SummaryStatistics,
    values: dict[str, float],
    class_values: dict[str, np.ndarray],
    classes: list,
    *,
    confidence: float,
    n_draws: int,
    rng: np.random.Generator,
    random_state: int | np.random.Generator | None = None,
    delong: Callable[[list[str]], dict[str, ConfidenceInterval]],
    fixed_shares: bool = False,
) -> tuple[dict[str, ConfidenceInterval], dict[str, dict[Any, ConfidenceInterval]]]:
    """Intervals of every quantity whose method in ``plan`` is not the bootstrap.

    ``delong`` gives the DeLong intervals of a list of AUC names. The
    posterior's intervals record ``n_draws`` and the caller's ``random_state``
    (the seed ``rng`` was made from). ``fixed_shares`` (target priors) gives
    every mean the stratified variance. Returns
    ``(intervals, class_intervals)`` like :class:`polyroc.Evaluation`'s,
    holding only those quantities.
    """
    by_method: dict[str, list[str]] = {}
    for quantity, method in plan.items():
        by_method.setdefault(method, []).append(quantity)
    found: dict[str, Any] = {}
    options = {"confidence": confidence}
    for method in ("wilson", "clopper-pearson"):
        if method in by_method:
            found.update(_proportion_intervals(by_method[method], method, summary, **options))
    if "bayes" in by_method:
        draws = {"n_draws": n_draws, "rng": rng, "random_state": random_state}
        found.update(_posterior_intervals(by_method["bayes"], summary, **draws, **options))
    if "delong" in by_method:
        found.update(delong(by_method["delong"]))
    if "t" in by_method:
        found.update(_mean_intervals(by_method["t"], summary, fixed_shares=fixed_shares, **options))
    intervals = {name: found[name] for name in values if name in found}
    class_intervals = {name: dict(zip(classes, found[name])) for name in class_values if name in found}
    return intervals, class_intervals


def _proportion_intervals(quantities, method, summary, *, confidence):
    """Each proportion's interval from its hit weight, total weight and Kish's effective size."""
    label = PROPORTION_METHODS[method]
    if summary.weighted:
        label += " (Kish effective sample size)"
    counts = summary.counts
    found = {}
    for quantity in quantities:
        if quantity == "recall":
            sizes = summary.effective_sizes()
            found[quantity] = [
                _proportion(counts[k, k], counts[k].sum(), sizes[k], method, confidence, label)
                for k in range(summary.n_classes)
            ]
            continue
        if quantity == "accuracy":
            hits = np.trace(counts)
        elif quantity == "top_2_accuracy":
            hits = summary.losses["top_2_accuracy"].weighted_sum.sum()
        else:
            raise KeyError(quantity)
        found[quantity] = _proportion(hits, counts.sum(), summary.effective_size(), method, confidence, label)
    return found


def _proportion(hits, total, trials, method, confidence, label):
    if total == 0:
        return ConfidenceInterval.from_bounds(np.nan, np.nan, np.nan, confidence=confidence, interval_method=label)
    estimate, low, high = proportion_bounds(hits, total, trials, method=method, confidence=confidence)
    return ConfidenceInterval.from_bounds(estimate, low, high, confidence=confidence, interval_method=label)


def _posterior_intervals(quantities, summary, *, confidence, n_draws, rng, random_state):
    """Each quantity's equal-tailed interval over draws of the confusion matrix's posterior."""
    from polyroc.intervals._posterior import (
        confusion_posterior,
        metric_support,
        posterior_interval_name,
        posterior_quantiles,
    )

    counts = summary.counts
    draws = confusion_posterior(counts, effective_sizes=summary.effective_sizes(), n_draws=n_draws, random_state=rng)
    label = posterior_interval_name()
    recorded = {"confidence": confidence, "interval_method": label, "n_draws": n_draws, "random_state": random_state}
    found = {}
    for quantity in quantities:
        if quantity in CLASS_SCORES:
            score, support = class_score(quantity), (0.0, 1.0)
        else:
            score, support = get_metric(quantity), metric_support(quantity)
        estimate = np.asarray(score(counts), dtype=np.float64)
        low, high = posterior_quantiles(score(draws), confidence, estimate=estimate, support=support)
        intervals = [
            ConfidenceInterval.from_bounds(e, lo, hi, **recorded)
            for e, lo, hi in zip(np.atleast_1d(estimate), np.atleast_1d(low), np.atleast_1d(high))
        ]
        found[quantity] = intervals if quantity in CLASS_SCORES else intervals[0]
    return found


def delong_intervals(quantities, sample, values, classes, *, confidence, influences=None):
    """DeLong's logit interval of each AUC, from one pass of influences; NaN with a warning below 2 rows.

    ``influences`` (key -> (estimate, influence), as
    :func:`polyroc.intervals._delong.auc_influences`) are used when they hold every
    quantity's key, else computed.
    """
    from polyroc.intervals._delong import auc_influences, class_rows, delong_interval, delong_variance, smallest_class

    keys = [tuple(quantity.removeprefix("roc_auc_").split("_")) for quantity in quantities]
    if influences is None or any(key not in influences for key in keys):
        influences = auc_influences(sample.y, sample.scores, sample.weights, keys)
    n_min = smallest_class(class_rows(sample.y, sample.weights, sample.n_classes), classes)
    found = {}
    for quantity, key in zip(quantities, keys):
        variance, df = delong_variance(influences[key][1], sample.y, sample.n_classes, sample.weights)
        found[quantity] = delong_interval(values[quantity], variance, df, confidence, n_min)
    return found


def _mean_intervals(quantities, summary, *, confidence, fixed_shares=False):
    """The t interval of each mean loss: the plain variance for :data:`PLAIN_MEANS` unless ``fixed_shares``."""
    from polyroc.intervals._posterior import T_METHODS, mean_t_test

    found = {}
    for quantity in quantities:
        variance = "plain" if quantity in PLAIN_MEANS and not fixed_shares else "stratified"
        estimate, low, high, _ = mean_t_test(summary.losses[quantity], confidence=confidence, variance=variance)
        found[quantity] = ConfidenceInterval.from_bounds(
            estimate, low, high, confidence=confidence, interval_method=T_METHODS[variance]
        )
    return found
