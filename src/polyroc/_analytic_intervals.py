"""The intervals of :func:`polyroc.evaluate` made without resampling: formulas and a posterior.

Each function takes the encoded sample (:class:`ScoredSample`) and the
quantities given to its method by :func:`polyroc._interval_plan.interval_plan`,
and returns each quantity's :class:`~polyroc.resampling.ConfidenceInterval`
(per class for the per-class scores).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from polyroc.counts import f1, get_metric, precision, recall
from polyroc.intervals import PROPORTION_METHODS, weighted_proportion_interval
from polyroc.resampling import ConfidenceInterval

__all__ = ["CLASS_SCORES", "ScoredSample", "analytic_intervals"]

#: Per-class scores that get intervals (argmax predictions, zero_division 0).
CLASS_SCORES = {"precision": precision, "recall": recall, "f1-score": f1}

T_METHOD = "t interval (stratified variance)"


@dataclass(frozen=True)
class ScoredSample:
    """What the interval methods need of a sample, encoded and checked."""

    y: np.ndarray  # class codes (n,)
    predicted: np.ndarray  # argmax codes (n,)
    scores: np.ndarray  # (n, m)
    weights: np.ndarray | None  # scaled sample weights, or None
    counts: np.ndarray  # (m, m) weighted confusion counts
    losses: dict[str, np.ndarray]  # per-sample losses of the mean scores

    @property
    def n_classes(self) -> int:
        return self.scores.shape[1]


def analytic_intervals(
    plan: dict[str, str],
    sample: ScoredSample,
    values: dict[str, float],
    class_values: dict[str, np.ndarray],
    classes: list,
    *,
    confidence: float,
    n_draws: int,
    rng: np.random.Generator,
) -> tuple[dict[str, ConfidenceInterval], dict[str, dict[Any, ConfidenceInterval]]]:
    """Intervals of every quantity whose method in ``plan`` is not the bootstrap.

    Returns ``(intervals, class_intervals)`` like :class:`polyroc.Evaluation`'s,
    holding only those quantities.
    """
    by_method: dict[str, list[str]] = {}
    for quantity, method in plan.items():
        by_method.setdefault(method, []).append(quantity)
    found: dict[str, Any] = {}
    options = {"confidence": confidence}
    for method in ("wilson", "clopper-pearson"):
        if method in by_method:
            found.update(_proportion_intervals(by_method[method], method, sample, **options))
    if "bayes" in by_method:
        found.update(_posterior_intervals(by_method["bayes"], sample, n_draws=n_draws, rng=rng, **options))
    if "delong" in by_method:
        found.update(_delong_intervals(by_method["delong"], sample, values, classes, **options))
    if "t" in by_method:
        found.update(_mean_intervals(by_method["t"], sample, **options))
    intervals = {name: found[name] for name in values if name in found}
    class_intervals = {name: dict(zip(classes, found[name])) for name in class_values if name in found}
    return intervals, class_intervals


def _proportion_hits(quantity, sample):
    """Per-sample hits of a proportion and the rows it counts, or per class for ``recall``."""
    if quantity == "accuracy":
        return sample.predicted == sample.y
    if quantity == "top_2_accuracy":
        return sample.losses["top_2_accuracy"] > 0.5
    raise KeyError(quantity)


def _proportion_intervals(quantities, method, sample, *, confidence):
    label = PROPORTION_METHODS[method]
    if sample.weights is not None:
        label += " (Kish effective sample size)"
    found = {}
    for quantity in quantities:
        if quantity == "recall":
            found[quantity] = [
                _proportion(sample.predicted[rows] == k, _rows(sample.weights, rows), method, confidence, label)
                for k, rows in enumerate(_class_rows(sample))
            ]
        else:
            found[quantity] = _proportion(_proportion_hits(quantity, sample), sample.weights, method, confidence, label)
    return found


def _class_rows(sample):
    return [np.flatnonzero(sample.y == k) for k in range(sample.n_classes)]


def _rows(weights, rows):
    return None if weights is None else weights[rows]


def _proportion(hits, weights, method, confidence, label):
    if hits.size == 0:
        return ConfidenceInterval.from_bounds(np.nan, np.nan, np.nan, confidence=confidence, interval_method=label)
    estimate, low, high = weighted_proportion_interval(hits, weights, method=method, confidence=confidence)
    return ConfidenceInterval.from_bounds(estimate, low, high, confidence=confidence, interval_method=label)


def _posterior_intervals(quantities, sample, *, confidence, n_draws, rng):
    """Each quantity's equal-tailed interval over draws of the confusion matrix's posterior."""
    from polyroc._posterior import (
        class_effective_sizes,
        confusion_posterior,
        metric_support,
        posterior_interval_name,
        posterior_quantiles,
    )

    effective = class_effective_sizes(sample.y, sample.n_classes, sample.weights)
    draws = confusion_posterior(sample.counts, effective_sizes=effective, n_draws=n_draws, random_state=rng)
    label = posterior_interval_name()
    found = {}
    for quantity in quantities:
        if quantity in CLASS_SCORES:
            score = functools.partial(CLASS_SCORES[quantity], average=None, zero_division=0.0)
            support = (0.0, 1.0)
        else:
            score, support = get_metric(quantity), metric_support(quantity)
        estimate = np.asarray(score(sample.counts), dtype=np.float64)
        low, high = posterior_quantiles(score(draws), confidence, estimate=estimate, support=support)
        intervals = [
            ConfidenceInterval.from_bounds(e, lo, hi, confidence=confidence, interval_method=label)
            for e, lo, hi in zip(np.atleast_1d(estimate), np.atleast_1d(low), np.atleast_1d(high))
        ]
        found[quantity] = intervals if quantity in CLASS_SCORES else intervals[0]
    return found


def _delong_intervals(quantities, sample, values, classes, *, confidence):
    """DeLong's logit interval of each AUC, from one pass of influences; NaN with a warning below 2 rows."""
    from polyroc._delong import (
        auc_influences,
        class_rows,
        delong_method_name,
        delong_variance,
        logit_interval,
        smallest_class,
    )

    keys = [tuple(quantity.removeprefix("roc_auc_").split("_")) for quantity in quantities]
    influences = auc_influences(sample.y, sample.scores, sample.weights, keys)
    n_min = smallest_class(class_rows(sample.y, sample.weights, sample.n_classes), classes)
    found = {}
    for quantity, key in zip(quantities, keys):
        variance, df = delong_variance(influences[key][1], sample.y, sample.n_classes, sample.weights)
        estimate = values[quantity]
        low, high = logit_interval(estimate, variance, confidence, n_min, df)
        found[quantity] = ConfidenceInterval.from_bounds(
            estimate, low, high, confidence=confidence, interval_method=delong_method_name(estimate, low)
        )
    return found


def _mean_intervals(quantities, sample, *, confidence):
    from polyroc._posterior import stratified_mean_interval

    found = {}
    for quantity in quantities:
        estimate, low, high = stratified_mean_interval(
            sample.losses[quantity], sample.y, sample.n_classes, sample.weights, confidence=confidence
        )
        found[quantity] = ConfidenceInterval.from_bounds(
            estimate, low, high, confidence=confidence, interval_method=T_METHOD
        )
    return found
