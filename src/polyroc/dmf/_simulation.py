"""The discriminative simulation of the ROC-DMF paper (Sec. 5.1), to reproduce its experiments."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import softmax

from polyroc._validation import check_option, check_positive_int, check_random_state


class Simulation(NamedTuple):
    """Covariates X (n, p), labels y (n,) and the true class probabilities (n, k)."""

    X: np.ndarray
    y: np.ndarray
    probabilities: np.ndarray


def simulate_paper_design(n=50_000, p=10, k=5, *, labels="multinomial", random_state=None):
    """Draw the paper's Sec. 5.1 data: X ~ N(0, I_p), P = softmax(1, X B), B_j ~ N(1_p, I_p).

    The first class's logit is the constant 1, literally as in the paper.

    Parameters
    ----------
    n, p, k : int
        Samples (>= 1), covariates (>= 1) and classes (>= 2).
    labels : {"multinomial", "argmax"}, default="multinomial"
        Labels drawn from Cat(P) (eq. 27), or the most probable class (eq. 28).
    random_state : None, int or numpy.random.Generator

    Returns
    -------
    Simulation

    Raises
    ------
    ValueError, TypeError
        For invalid sizes, ``labels`` or ``random_state``.

    Examples
    --------
    >>> sim = simulate_paper_design(1000, 4, 3, random_state=0)
    >>> sim.X.shape, sim.probabilities.shape, sorted(set(sim.y.tolist()))
    ((1000, 4), (1000, 3), [0, 1, 2])
    """
    n = check_positive_int("n", n)
    p = check_positive_int("p", p)
    k = check_positive_int("k", k, minimum=2)
    check_option("labels", labels, ("multinomial", "argmax"))
    rng = check_random_state(random_state)
    X = rng.normal(size=(n, p))
    B = rng.normal(loc=1.0, size=(p, k - 1))
    probabilities = softmax(np.hstack([np.ones((n, 1)), X @ B]), axis=1)
    if labels == "argmax":
        y = probabilities.argmax(axis=1)
    else:
        cumulative = probabilities.cumsum(axis=1)
        y = np.minimum((rng.random((n, 1)) > cumulative).sum(axis=1), k - 1)
    return Simulation(X, y, probabilities)
