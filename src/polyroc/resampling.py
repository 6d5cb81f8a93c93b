"""Seeded, stratified bootstrap shared by every confidence interval in polyroc.

A bootstrap replicate is represented by its *multiplicities*: how many times
each sample is drawn. Counts-based statistics of a replicate are then the
counts weighted by the multiplicities, so a whole batch of replicates is one
matrix product or one weighted ``bincount`` — no copies of the data.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from polyroc._counts import chunk_length, confusion_counts, replicate_confusion_counts
from polyroc._validation import (
    check_label_vector,
    check_positive_int,
    check_random_state,
    check_real,
    check_targets,
    scale_weights,
)
from polyroc.counts import get_metric, metric_name

__all__ = [
    "ConfidenceInterval",
    "PairedRuleScores",
    "bootstrap_multiplicities",
    "paired_rule_scores",
    "percentile_interval",
]


def bootstrap_multiplicities(y, n_boot, *, stratify=True, random_state=None, chunk_size=None):
    """Yield bootstrap replicates as arrays of multiplicities, chunk by chunk.

    Each yielded array has shape (b, n): row r tells how many times each sample
    is drawn in replicate r, and each row sums to n. With ``stratify=True``
    every class keeps its size (the draw is made within each class of ``y``).
    The same ``random_state`` gives the same replicates whatever ``chunk_size``.

    Parameters
    ----------
    y : ndarray of shape (n,)
        Class indices (or any labels) defining the strata.
    n_boot : int
        Number of replicates, >= 1.
    stratify : bool, default=True
    random_state : None, int or numpy.random.Generator
    chunk_size : int, optional
        Replicates per yielded array; default keeps each array near 64 MiB.

    Raises
    ------
    ValueError, TypeError
        If ``n_boot`` or ``chunk_size`` is not a positive integer, ``y`` is
        not a 1-D array of labels (see ``check_label_vector``), or
        ``random_state`` is invalid (e.g. a negative seed).

    Examples
    --------
    >>> y = np.array([0, 0, 0, 1, 1])
    >>> reps = np.vstack(list(bootstrap_multiplicities(y, 4, random_state=0)))
    >>> reps.shape, reps[:, :3].sum(axis=1).tolist(), reps[:, 3:].sum(axis=1).tolist()
    ((4, 5), [3, 3, 3, 3], [2, 2, 2, 2])
    """
    n_boot = check_positive_int("n_boot", n_boot)
    y = check_label_vector("y", y)
    rng = check_random_state(random_state)
    strata = [np.flatnonzero(y == c) for c in np.unique(y)] if stratify else [np.arange(y.size)]
    if chunk_size is None:
        chunk_size = chunk_length(y.size * 8)
    chunk_size = check_positive_int("chunk_size", chunk_size)
    seeds = rng.spawn(n_boot)
    for start in range(0, n_boot, chunk_size):
        block = seeds[start : start + chunk_size]
        out = np.zeros((len(block), y.size), dtype=np.int64)
        for row, seed in zip(out, block):
            for members in strata:
                draws = seed.integers(0, members.size, members.size)
                row[members] = np.bincount(draws, minlength=members.size)
        yield out


def percentile_interval(replicates, *, confidence=0.95, axis=0):
    """Equal-tailed percentile interval of bootstrap replicates along ``axis``.

    Raises
    ------
    ValueError, TypeError
        If ``confidence`` is not a number in (0, 1).

    Examples
    --------
    >>> low, high = percentile_interval(np.arange(101.0), confidence=0.9)
    >>> round(float(low), 9), round(float(high), 9)
    (5.0, 95.0)
    """
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    alpha = (1 - confidence) / 2
    low, high = np.nanquantile(replicates, [alpha, 1 - alpha], axis=axis)
    return low, high


@dataclass(frozen=True)
class ConfidenceInterval:
    """A point estimate with a bootstrap interval and how it was computed."""

    estimate: float
    low: float
    high: float
    confidence: float
    method: str
    n_boot: int
    random_state: object

    def __str__(self):
        percent = f"{100 * self.confidence:g}%"
        return f"{self.estimate:.4f} [{percent} CI {self.low:.4f}, {self.high:.4f}; {self.method}, B={self.n_boot}]"


@dataclass(frozen=True)
class PairedRuleScores:
    """Scores of several decision rules on the same samples, with paired bootstrap intervals.

    Attributes
    ----------
    metric : str
    baseline : str or None
        The rule the others are compared with.
    scores : dict
        Rule name -> :class:`ConfidenceInterval` of its score.
    differences : dict
        Rule name -> :class:`ConfidenceInterval` of (its score - the
        baseline's), from the same replicates (a paired comparison); empty
        without a baseline.
    """

    metric: str
    baseline: str | None
    scores: dict
    differences: dict


def paired_rule_scores(y_true, predictions, *, metric="accuracy", labels=None, baseline=None,
                       sample_weight=None, n_boot=1000, confidence=0.95, random_state=None):
    """Score several rules' predictions with one stratified bootstrap shared by all rules.

    Every replicate resamples the same rows for every rule, so the interval of
    a difference reflects only how the rules disagree (a paired bootstrap).

    Parameters
    ----------
    y_true : array-like of shape (n,)
    predictions : mapping of str to array-like of shape (n,)
        Each rule's predicted labels.
    metric : str or callable, default="accuracy"
        As :func:`polyroc.counts.get_metric`.
    labels : array-like, optional
        Class order; default the sorted labels of ``y_true`` and the predictions.
    baseline : str, optional
        Name of the rule the others are compared with.
    sample_weight : array-like of shape (n,), optional
    n_boot : int, default=1000
    confidence : float, default=0.95
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    PairedRuleScores

    Raises
    ------
    ValueError, TypeError
        ``predictions`` not a mapping or empty, a prediction that fails
        :func:`polyroc._validation.check_targets`, an unknown ``baseline`` or
        metric, a bad ``n_boot``, ``confidence`` or ``random_state``.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 2, 2] * 5)
    >>> rules = {"a": y, "b": np.where(np.arange(30) % 3 == 0, 0, y)}  # 5 of 30 rows wrong
    >>> result = paired_rule_scores(y, rules, baseline="a", n_boot=200, random_state=0)
    >>> result.scores["a"].estimate, round(result.differences["b"].estimate, 4)
    (1.0, -0.1667)
    """
    if not isinstance(predictions, Mapping):
        raise TypeError(
            "predictions must be a mapping of rule name to predicted labels, "
            f"got {type(predictions).__name__}"
        )
    if not predictions:
        raise ValueError("predictions must name at least one rule")
    if baseline is not None and baseline not in predictions:
        raise ValueError(f"baseline {baseline!r} is not one of the rules {list(predictions)}")
    score_counts = get_metric(metric)
    n_boot = check_positive_int("n_boot", n_boot)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    rng = check_random_state(random_state)
    y_true = check_label_vector("y_true", y_true)
    if labels is None:
        labels = np.unique(np.concatenate([y_true, *map(check_label_vector, predictions, predictions.values())]))
    encoded = {name: check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
               for name, y_pred in predictions.items()}
    first = next(iter(encoded.values()))
    y_idx, m, weights = first.y_true, first.classes.size, scale_weights(first.sample_weight).weights
    weights = np.ones(y_idx.size) if weights is None else weights
    estimates = {name: float(score_counts(confusion_counts(y_idx, t.y_pred, m, weights)[None])[0])
                 for name, t in encoded.items()}
    replicates = {name: [] for name in encoded}
    for multiplicities in bootstrap_multiplicities(y_idx, n_boot, random_state=rng):
        rows = multiplicities * weights
        for name, t in encoded.items():
            replicates[name].append(score_counts(replicate_confusion_counts(y_idx, t.y_pred, m, rows)))
    replicates = {name: np.concatenate(values) for name, values in replicates.items()}

    def interval(estimate, values):
        low, high = percentile_interval(values, confidence=confidence)
        return ConfidenceInterval(estimate, float(low), float(high), confidence,
                                  "paired stratified percentile bootstrap", n_boot, random_state)

    scores = {name: interval(estimates[name], replicates[name]) for name in encoded}
    differences = {} if baseline is None else {
        name: interval(estimates[name] - estimates[baseline], replicates[name] - replicates[baseline])
        for name in encoded if name != baseline
    }
    return PairedRuleScores(metric_name(metric), baseline, scores, differences)
