"""Kernels of prior shift on checked inputs: adjusting posteriors, the EM fixed point and black-box shift estimation.

Under prior shift (label shift) the class-conditional distributions stay
and the class priors change from pi (training) to pi' (deployment). A
calibrated posterior p then becomes ``p_i pi'_i / pi_i``, renormalised
(:func:`adjusted_scores`). The deployment priors are estimated from
unlabelled deployment scores by the EM fixed point of Saerens, Latinne &
Decaestecker (2002) (:func:`em_priors`), or by black-box shift estimation
(Lipton, Wang & Smola, 2018, arXiv:1802.03916) from a labelled validation
set (:func:`bbse_priors`). Both are vectorised over bootstrap replicates.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

#: Iterations of the EM fixed point stop when no prior moves by more than this.
EM_TOLERANCE = 1e-12
#: The default cap on the iterations of the EM fixed point.
EM_MAX_ITER = 10_000
#: Floor of a row's adjusted total in an EM step (1 / EMPTY_ROW times a weight stays finite).
EMPTY_ROW = 1e-300


def adjusted_scores(scores: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """Rows of ``scores * ratio`` divided by their sums (NaN for a row that sums to 0).

    >>> adjusted_scores(np.array([[0.5, 0.5]]), np.array([3.0, 1.0])).tolist()
    [[0.75, 0.25]]
    """
    shifted = scores * ratio
    with np.errstate(divide="ignore", invalid="ignore"):
        return shifted / shifted.sum(axis=1, keepdims=True)


class EmFit(NamedTuple):
    """Priors (b, m) of the EM fixed point, the iterations each took and whether each converged."""

    priors: np.ndarray
    n_iter: np.ndarray
    converged: np.ndarray


def em_step(scores: np.ndarray, train_priors: np.ndarray, weights: np.ndarray, current: np.ndarray) -> np.ndarray:
    """One EM step for each row of priors (b, m) and of weights (b, n): the mean posterior adjusted to them.

    ``q_i <- sum_k w_k a_ki / sum_k w_k`` with
    ``a_ki = p_ki (q_i / pi_i) / sum_j p_kj (q_j / pi_j)``.
    """
    ratio = current / train_priors
    shares = ratio @ scores.T
    # a row whose adjusted probabilities are all 0 adds 0 whatever its share: keep the share finite
    np.maximum(shares, EMPTY_ROW, out=shares)
    np.divide(weights, shares, out=shares)
    return ratio * (shares @ scores) / weights.sum(axis=1)[:, None]


def em_priors(
    scores: np.ndarray,
    train_priors: np.ndarray,
    weights: np.ndarray,
    start: np.ndarray,
    *,
    tol: float = EM_TOLERANCE,
    max_iter: int = EM_MAX_ITER,
) -> EmFit:
    """The EM fixed point of the deployment priors, for each row of weights (b, n) over the rows of ``scores``.

    Each row of weights (one data set or one bootstrap replicate) iterates
    from its row of ``start`` (b, m) until one EM step (:func:`em_step`)
    moves no prior by ``tol`` or more, or ``max_iter`` EM steps were taken.
    The steps are accelerated by SQUAREM (Varadhan & Roland, 2008): two EM
    steps give a squared extrapolation, whose step length is at least that
    of two plain steps, then one EM step from it; an extrapolation with a
    prior <= 0 falls back to the two plain steps. The fixed point is EM's;
    only the path to it is shorter (EM alone slows to thousands of steps
    when a prior is near 0).

    Varadhan, R. & Roland, C. (2008). Scandinavian Journal of Statistics
    35(2), 335-353. doi:10.1111/j.1467-9469.2007.00585.x

    >>> fit = em_priors(np.array([[0.9, 0.1], [0.2, 0.8]]), np.array([0.5, 0.5]), np.ones((1, 2)), np.full((1, 2), 0.5))
    >>> fit.priors.round(6).tolist(), bool(fit.converged[0])
    ([[0.604167, 0.395833]], True)
    """
    current = np.array(start, dtype=np.float64)
    n_iter = np.zeros(current.shape[0], dtype=np.int64)
    active = np.arange(current.shape[0])
    while active.size and n_iter[active[0]] < max_iter:
        rows, origin = weights[active], current[active]
        once = em_step(scores, train_priors, rows, origin)
        twice = em_step(scores, train_priors, rows, once)
        first, bend = once - origin, twice - 2 * once + origin
        with np.errstate(divide="ignore", invalid="ignore"):
            alpha = np.minimum(-np.linalg.norm(first, axis=1) / np.linalg.norm(bend, axis=1), -1.0)
        alpha = np.where(np.isfinite(alpha), alpha, -1.0)[:, None]
        leap = origin - 2 * alpha * first + alpha**2 * bend
        leap = np.where(np.all(leap > 0, axis=1, keepdims=True), leap, twice)
        updated = em_step(scores, train_priors, rows, leap)
        moved = np.abs(updated - leap).max(axis=1)
        current[active] = updated
        n_iter[active] += 3
        active = active[~(moved < tol)]
    converged = np.ones(current.shape[0], dtype=bool)
    converged[active] = False
    return EmFit(current, n_iter, converged)


def bbse_priors(val_counts: np.ndarray, test_counts: np.ndarray) -> np.ndarray:
    """Black-box shift estimates (..., m) from validation counts (..., m, m) and test decision counts (..., m).

    ``val_counts[..., i, j]`` counts validation rows of class i decided j
    (the argmax); ``test_counts[..., j]`` deployment rows decided j. With C
    the joint validation confusion matrix (``C[j, i]``: the share of rows
    decided j of class i) and mu the deployment shares of the decisions,
    ``C w = mu`` gives the importance weights w, and ``w * nu`` (nu the
    validation class shares) the deployment priors. Negative priors are set
    to 0 and the rest divided by their sum; NaN where C is singular or no
    prior is positive.

    >>> bbse_priors(np.array([[40.0, 10.0], [5.0, 45.0]]), np.array([30.0, 70.0])).round(6).tolist()
    [0.285714, 0.714286]
    """
    joint = np.swapaxes(val_counts, -1, -2) / val_counts.sum(axis=(-2, -1))[..., None, None]
    shares = test_counts / test_counts.sum(axis=-1, keepdims=True)
    flat_joint = joint.reshape(-1, *joint.shape[-2:])
    flat_shares = shares.reshape(-1, shares.shape[-1])
    weights = np.full(flat_shares.shape, np.nan)
    regular = np.linalg.matrix_rank(flat_joint) == flat_joint.shape[-1]
    if np.any(regular):
        weights[regular] = np.linalg.solve(flat_joint[regular], flat_shares[regular, :, None])[..., 0]
    priors = np.clip(weights * flat_joint.sum(axis=-2), 0.0, None)
    with np.errstate(divide="ignore", invalid="ignore"):
        priors = priors / priors.sum(axis=-1, keepdims=True)
    return priors.reshape(shares.shape)
