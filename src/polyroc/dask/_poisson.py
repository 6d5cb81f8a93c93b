"""Poisson(1) bootstrap multiplicities from a counter-based generator keyed on (seed, row id, replicate).

Each multiplicity is a pure function of the seed, the row's global id and
the replicate number: no generator state is carried from row to row, so the
replicates do not depend on how the rows are split into partitions, in what
order partitions run, or on which worker. The key is mixed by the SplitMix64
finaliser (Steele, Lea & Flood 2014, doi:10.1145/2714064.2660195) twice, and
the top 53 bits give a uniform number that the inverse CDF of Poisson(1)
turns into a multiplicity.
"""

from __future__ import annotations

import numpy as np
from scipy.stats import poisson

__all__ = ["poisson_multiplicities"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
#: Cumulative probabilities of Poisson(1) at 0, 1, ...; beyond the last the multiplicity is the table length.
_CDF = poisson.cdf(np.arange(20), 1.0)


def _mix(x: np.ndarray) -> np.ndarray:
    """SplitMix64's finaliser, on uint64 arrays (wrapping arithmetic)."""
    x = x ^ (x >> np.uint64(30))
    x = x * np.uint64(0xBF58476D1CE4E5B9)
    x = x ^ (x >> np.uint64(27))
    x = x * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def poisson_multiplicities(seed: int, row_ids: np.ndarray, replicates: np.ndarray) -> np.ndarray:
    """Multiplicities (len(replicates), len(row_ids)) of rows in bootstrap replicates, as uint8.

    >>> rows = np.arange(5, dtype=np.uint64)
    >>> first = poisson_multiplicities(7, rows, np.arange(3))
    >>> bool(np.array_equal(first[:, 2:], poisson_multiplicities(7, rows[2:], np.arange(3))))
    True
    """
    with np.errstate(over="ignore"):
        rows = _mix(np.asarray(row_ids, dtype=np.uint64) * _GOLDEN + np.uint64(seed))
        keys = np.asarray(replicates, dtype=np.uint64)[:, None] * _GOLDEN + _GOLDEN
        bits = _mix(rows[None, :] ^ _mix(keys))
    uniform = (bits >> np.uint64(11)).astype(np.float64) * 2.0**-53
    return np.searchsorted(_CDF, uniform, side="right").astype(np.uint8)
