"""Inputs shared by the calibration tests: seeded probabilities and a direct per-bin loop written for the tests."""

from __future__ import annotations

import numpy as np


def dirichlet_problem(n: int, m: int, seed: int, concentration: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities drawn from a Dirichlet and labels drawn from them: calibrated in every sense."""
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.full(m, concentration), size=n)
    y = (rng.uniform(size=(n, 1)) > np.cumsum(proba, axis=1)).sum(axis=1)
    return np.minimum(y, m - 1), proba


def skewed_problem(n: int, m: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Overconfident probabilities: a sharpened softmax of noisy logits, labels at random around them."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = 2.5 * (rng.normal(size=(n, m)) + np.eye(m)[y])
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return y, exp / exp.sum(axis=1, keepdims=True)


def loop_error(scores, hits, weights, lows, highs, norm):
    """The binned error of one column by a loop over the bins ``[low, high)`` (the last closed); empty bins skipped."""
    weights = np.ones(len(scores)) if weights is None else np.asarray(weights, dtype=float)
    total = weights.sum()
    terms = []
    for b, (low, high) in enumerate(zip(lows, highs)):
        last = b == len(lows) - 1
        inside = (scores >= low) & ((scores <= high) if last else (scores < high))
        weight = weights[inside].sum()
        if weight == 0:
            continue
        gap = abs(np.dot(weights[inside], hits[inside]) / weight - np.dot(weights[inside], scores[inside]) / weight)
        terms.append((weight / total, gap))
    if norm == "l1":
        return sum(share * gap for share, gap in terms)
    if norm == "l2":
        return np.sqrt(sum(share * gap**2 for share, gap in terms))
    return max(gap for _, gap in terms)
