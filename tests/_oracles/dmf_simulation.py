"""The discriminative simulation of Wang & Carvalho (2024), arXiv:2404.13147.

It follows section 5.1 of the paper, to reproduce its experiments.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy.special import softmax  # type: ignore[import-untyped]

from polyroc._validation import check_positive_int
from polyroc._validation._params import Interval, Options, validate_params


class Simulation(NamedTuple):
    """Covariates X (n, p), labels y (n,) and the true class probabilities (n, k)."""

    X: np.ndarray
    y: np.ndarray
    probabilities: np.ndarray


@validate_params(
    {
        "n": [Interval("integer", 1, None, closed="left")],
        "p": [Interval("integer", 1, None, closed="left")],
        "k": [Interval("integer", 2, None, closed="left")],
        "labels": [Options(("multinomial", "argmax"))],
        "random_state": ["random_state"],
    }
)
def simulate_paper_design(
    n: int = 50_000,
    p: int = 10,
    k: int = 5,
    *,
    labels: str = "multinomial",
    random_state: int | np.random.Generator | None = None,
) -> Simulation:
    """Draw the data of Wang & Carvalho (2024), arXiv:2404.13147, section 5.1.

    X ~ N(0, I_p), P = softmax(1, X B), B_j ~ N(1_p, I_p).

    The first class's logit is the constant 1, literally as in the paper.

    Parameters
    ----------
    n, p, k : int
        Samples (>= 1), covariates (>= 1) and classes (>= 2).
    labels : {"multinomial", "argmax"}, default="multinomial"
        Labels drawn from Cat(P) (eq. 27), or the most probable class (eq. 28).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

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
    n, p, k = int(n), int(p), int(k)
    rng = np.random.default_rng(random_state)
    X = rng.normal(size=(n, p))
    B = rng.normal(loc=1.0, size=(p, k - 1))
    probabilities = softmax(np.hstack([np.ones((n, 1)), X @ B]), axis=1)
    if labels == "argmax":
        y = probabilities.argmax(axis=1)
    else:
        cumulative = probabilities.cumsum(axis=1)
        y = np.minimum((rng.random((n, 1)) > cumulative).sum(axis=1), k - 1)
    return Simulation(X, y, probabilities)


@validate_params({"n_large": [Interval("integer", 1, None, closed="left")], "random_state": ["random_state"]})
def simulate_rare_class_scores(
    sizes: Sequence[int] = (3118, 620, 240, 45, 13, 4, 2),
    *,
    n_large: int = 3,
    random_state: int | np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Scores of a classifier that separates the large classes and knows nothing of the rare ones.

    An analogue of boosted trees on a very imbalanced problem (such as UCI
    shuttle): each of the first ``n_large`` classes gets a large logit on its
    own column (1% of its samples on the next large class instead); a
    rare-class sample is scored like a random large class; the rare classes'
    columns take two tied values independent of the label.

    Parameters
    ----------
    sizes : sequence of int
        Samples per class (each >= 1, at least ``n_large + 1`` classes).
    n_large : int, default=3
        Number of leading, well-separated classes (>= 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

    Returns
    -------
    y : ndarray of shape (n,)
    P : ndarray of shape (n, k)
        Rows on the simplex.

    Raises
    ------
    ValueError, TypeError
        For sizes that are not positive integers, too few classes, or a bad
        ``n_large`` or ``random_state``.

    Examples
    --------
    >>> y, P = simulate_rare_class_scores(random_state=0)
    >>> np.bincount(y).tolist(), bool(np.allclose(P.sum(axis=1), 1))
    ([3118, 620, 240, 45, 13, 4, 2], True)
    """
    n_large = int(n_large)
    sizes = [check_positive_int("sizes", size) for size in sizes]
    if len(sizes) <= n_large:
        raise ValueError(f"sizes must name more than n_large={n_large} classes, got {len(sizes)}")
    rng = np.random.default_rng(random_state)
    k = len(sizes)
    y = np.repeat(np.arange(k), sizes)
    logits = np.zeros((y.size, k))
    large = y < n_large
    logits[large, y[large]] += 40 + rng.normal(0, 10, large.sum())
    wrong = large & (rng.random(y.size) < 0.01)
    logits[wrong, (y[wrong] + 1) % n_large] += 50
    logits[~large, rng.integers(0, n_large, (~large).sum())] += 40
    logits[:, n_large:] = rng.integers(0, 2, (y.size, k - n_large))
    return y, softmax(logits, axis=1)
