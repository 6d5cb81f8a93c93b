"""Scoring single thresholds, exact line search along one coordinate, and coordinate ascent.

The coordinate ascent follows the exact line search of the simplex threshold
framework of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794. These
helpers take validated, encoded inputs (see ``polyroc._validation``) and a
metric on counts ``score_counts(counts (M, m, m)) -> (M,)``
(see :func:`checked_metric`).
"""

from __future__ import annotations

import numpy as np

from polyroc._counts import confusion_counts, line_sweep_counts, threshold_counts
from polyroc.counts import get_metric, metric_name

#: Upper bound on the number of passes over all coordinates.
MAX_CYCLES = 100


def checked_metric(metric):
    """The counts metric of ``metric``, checked to map counts (M, m, m) to M float scores.

    A callable written for one (m, m) matrix, or returning another shape,
    raises a ValueError naming the metric instead of failing later.
    """
    score_counts, name = get_metric(metric), metric_name(metric)

    def objective(counts):
        try:
            values = np.asarray(score_counts(counts), dtype=np.float64)
        except (IndexError, TypeError, ValueError) as error:
            raise ValueError(
                f"metric {name!r} failed on counts of shape {counts.shape} (a metric callable must map "
                f"counts (M, m, m) to M scores): {type(error).__name__}: {error}"
            ) from error
        if values.shape != (counts.shape[0],):
            raise ValueError(
                f"metric {name!r} must map counts of shape (M, m, m) to M scores; for counts of shape "
                f"{counts.shape} it returned shape {values.shape}"
            )
        return values

    return objective


def score_at(targets, thresholds, score_counts):
    """Metric value of the rule argmax(p - tau) for one threshold vector (brute force)."""
    y_true, scores, _, weights = targets
    return float(score_counts(threshold_counts(y_true, scores, thresholds[None, :], weights))[0])


def argmax_score(targets, score_counts):
    """Metric value of plain argmax (first index on ties) on validated targets."""
    y_true, scores, _, weights = targets
    counts = confusion_counts(y_true, np.argmax(scores, axis=1), scores.shape[1], weights)
    return float(score_counts(counts[None])[0])


def coordinate_bounds(thresholds, coordinate, domain):
    """Interval of t = tau_j (others fixed) whose re-centred vector stays in the domain.

    Simplex: tau has a simplex representative iff sum_k (tau_k - min tau) <= 1,
    which for t gives [(R - 1)/(m - 1), 1 - R + m a] with R and a the sum and
    the minimum of the other coordinates. Box: max - min <= 1.

    Examples
    --------
    >>> coordinate_bounds(np.array([0.5, 0.3, 0.2]), 0, "simplex")
    (-0.25, 1.1)
    >>> coordinate_bounds(np.array([0.0, 0.5, 1.0]), 1, "box")
    (0.0, 1.0)
    """
    others = np.delete(thresholds, coordinate)
    n_classes = thresholds.size
    if domain == "simplex":
        total = others.sum()
        return float((total - 1.0) / (n_classes - 1)), float(1.0 - total + n_classes * others.min())
    return float(others.max() - 1.0), float(others.min() + 1.0)


def recentre(thresholds, domain):
    """The representative of tau (mod constants) in the domain: sum 1 (simplex) or min 0 (box).

    Examples
    --------
    >>> recentre(np.array([0.8, 0.3, 0.2]), "simplex").round(6).tolist()
    [0.7, 0.2, 0.1]
    """
    if domain == "simplex":
        shifted = thresholds - (thresholds.sum() - 1.0) / thresholds.size
        return np.maximum(shifted, 0.0)
    return thresholds - thresholds.min()


def best_on_line(targets, thresholds, coordinate, bounds, score_counts):
    """Best open segment of t = tau_j within ``bounds``: returns (midpoint, score).

    Exact over the segments between consecutive breakpoints (the metric is
    constant on each); the breakpoints themselves, where a sample lies on a
    region boundary, are not candidates. The first best segment wins ties.
    """
    y_true, scores, _, weights = targets
    best_t, best_score = None, -np.inf
    for left, right, counts in line_sweep_counts(y_true, scores, thresholds, coordinate, bounds, weights):
        values = np.asarray(score_counts(counts), dtype=np.float64)
        values = np.where(np.isnan(values), -np.inf, values)
        index = int(np.argmax(values))
        if values[index] > best_score:
            best_t, best_score = 0.5 * (left[index] + right[index]), float(values[index])
    return best_t, best_score


def coordinate_ascent(targets, start, score_counts, *, domain):
    """Cycle exact line searches over the coordinates until no move improves the score.

    Each move is re-scored by brute force and kept only if strictly better, so
    the result is never worse than ``start``. Reaches a coordinate-wise
    optimum, not necessarily the global one. Returns (thresholds, score).
    """
    current = start.copy()
    current_score = score_at(targets, current, score_counts)
    for _ in range(MAX_CYCLES):
        improved = False
        for coordinate in range(current.size):
            lo, hi = coordinate_bounds(current, coordinate, domain)
            if not hi > lo:
                continue
            t, line_score = best_on_line(targets, current, coordinate, (lo, hi), score_counts)
            if t is None or not line_score > current_score:
                continue
            candidate = current.copy()
            candidate[coordinate] = t
            candidate = recentre(candidate, domain)
            candidate_score = score_at(targets, candidate, score_counts)
            if candidate_score > current_score:
                current, current_score, improved = candidate, candidate_score, True
        if not improved:
            break
    return current, current_score
