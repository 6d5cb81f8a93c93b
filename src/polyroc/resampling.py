"""Seeded, stratified bootstrap shared by every confidence interval in polyroc.

A bootstrap replicate is represented by its *multiplicities*: how many times
each sample is drawn. Counts-based statistics of a replicate are then the
counts weighted by the multiplicities, so a whole batch of replicates is one
matrix product or one weighted ``bincount`` — no copies of the data.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._counts import chunk_length
from polyroc._validation import check_positive_int, check_random_state

__all__ = [
    "ConfidenceInterval",
    "bootstrap_multiplicities",
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
        If ``n_boot`` or ``chunk_size`` is not a positive integer, or
        ``random_state`` is invalid.

    Examples
    --------
    >>> y = np.array([0, 0, 0, 1, 1])
    >>> reps = np.vstack(list(bootstrap_multiplicities(y, 4, random_state=0)))
    >>> reps.shape, reps[:, :3].sum(axis=1).tolist(), reps[:, 3:].sum(axis=1).tolist()
    ((4, 5), [3, 3, 3, 3], [2, 2, 2, 2])
    """
    n_boot = check_positive_int("n_boot", n_boot)
    y = np.asarray(y)
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
    ValueError
        If ``confidence`` is not in (0, 1).

    Examples
    --------
    >>> low, high = percentile_interval(np.arange(101.0), confidence=0.9)
    >>> round(float(low), 9), round(float(high), 9)
    (5.0, 95.0)
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
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
