"""Kernels of decisions under a cost matrix: the expected cost of confusion counts, and the Bayes decision.

Both take checked inputs (:mod:`polyroc._validation._costs`);
:mod:`polyroc.decisions` is their public face, and threshold tuning costs its
candidates with :func:`counted_cost`.
"""

from __future__ import annotations

import numpy as np

__all__ = ["bayes_codes", "counted_cost"]


def counted_cost(table: np.ndarray, costs: np.ndarray, priors: np.ndarray | None = None) -> np.ndarray:
    """Expected cost of checked float counts (..., m, m) under checked costs (m, m) and priors (m,) or None.

    Without priors: ``sum(C * counts) / sum(counts)``. With priors: the
    per-class mean cost weighted by the priors; a class of prior 0 counts for
    nothing, a class of positive prior and no counts makes the cost NaN.
    """
    with np.errstate(divide="ignore", invalid="ignore"):
        if priors is None:
            return (table * costs).sum(axis=(-2, -1)) / table.sum(axis=(-2, -1))
        per_class = (table * costs).sum(axis=-1) / table.sum(axis=-1)
        return np.where(priors > 0, per_class, 0.0) @ priors


def bayes_codes(scores: np.ndarray, costs: np.ndarray, reject_cost: float | None = None) -> np.ndarray:
    """Index of the Bayes decision of each row of checked probabilities (n, m); m for a rejection.

    Each row of the cost matrix is first lowered by its largest entry, which
    changes every decision's expected cost by the same amount and so no
    decision; under 0-1 costs the matrix becomes minus the identity and the
    expected costs are exactly ``-p``, so the decision is exactly the argmax.
    Ties go to the first decision in class order (``numpy.argmin``).

    >>> bayes_codes(np.array([[0.5, 0.5], [0.2, 0.8]]), np.array([[0.0, 1.0], [1.0, 0.0]])).tolist()
    [0, 1]
    """
    ceiling = costs.max(axis=1)
    relative = scores @ (costs - ceiling[:, None])
    codes = relative.argmin(axis=1)
    if reject_cost is None:
        return codes
    least = relative[np.arange(codes.size), codes] + scores @ ceiling
    return np.where(least > reject_cost, costs.shape[1], codes)
