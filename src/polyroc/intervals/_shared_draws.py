"""Bootstrap draws kept for the length of a block of work, so that steps drawing the same replicates draw once.

Several steps of one analysis resample the same rows with the same seed: the
Gini-weighted ROC and ROC-DMF of a report both draw replicate r from the r-th
child of ``default_rng(random_state)``, class by class. Inside
:func:`shared_draws`, :func:`polyroc.intervals._resampling.sample_major_multiplicities`
keeps each block of counts it draws, under the identity of the generators
that drew them, and hands the same block (read-only) to the next call with
generators of that identity: the counts those would draw, bit for bit.

A generator's identity is its seed sequence (entropy, spawn key, pool size)
while it is fresh: a :class:`numpy.random.PCG64` generator in the state its
seed sequence gives it. Any other generator (another bit generator, one that
has drawn already, a stand-in) is never looked up nor kept. Blocks are kept
up to :data:`SHARED_DRAW_BYTES` in all; past that, new blocks are drawn and
not kept, so the memory added is bounded whatever the data.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager

import numpy as np

__all__ = ["SHARED_DRAW_BYTES", "keep_draws", "kept_draws", "shared_draws"]

#: Most bytes of draws kept inside one :func:`shared_draws` block (10^6 rows x 1000 replicates in bytes).
SHARED_DRAW_BYTES = 2**30


class _DrawStore:
    """Blocks of draws by the identities of their generators, up to a byte budget."""

    def __init__(self, budget: int) -> None:
        self.blocks: dict[tuple[Hashable, ...], np.ndarray] = {}
        self.budget = budget
        self.kept_bytes = 0
        self.lock = threading.Lock()


_ACTIVE: list[_DrawStore] = []


@contextmanager
def shared_draws(budget: int = SHARED_DRAW_BYTES) -> Iterator[None]:
    """Keep the draws of sample-major multiplicities made inside the block (at most ``budget`` bytes).

    >>> from polyroc.intervals._resampling import sample_major_multiplicities
    >>> with shared_draws():
    ...     first = sample_major_multiplicities(np.random.default_rng(7).spawn(4), [3, 5])
    ...     again = sample_major_multiplicities(np.random.default_rng(7).spawn(4), [3, 5])
    >>> again is first, again.flags.writeable
    (True, False)
    """
    store = _DrawStore(budget)
    _ACTIVE.append(store)
    try:
        yield
    finally:
        _ACTIVE.remove(store)


def _identity(seeds: Sequence[np.random.Generator], sizes: Sequence[int]) -> tuple[Hashable, ...] | None:
    """The key of a block drawn by fresh PCG64 generators from seed sequences; None otherwise."""
    keys: list[Hashable] = [tuple(int(size) for size in sizes)]
    for seed in seeds:
        bit_generator = getattr(seed, "bit_generator", None)
        if type(bit_generator) is not np.random.PCG64:
            return None
        sequence = bit_generator.seed_seq
        if not isinstance(sequence, np.random.SeedSequence) or bit_generator.state != np.random.PCG64(sequence).state:
            return None
        keys.append((sequence.entropy, sequence.spawn_key, sequence.pool_size))
    return tuple(keys)


def kept_draws(seeds: Sequence[np.random.Generator], sizes: Sequence[int]) -> tuple[np.ndarray | None, Hashable]:
    """The block kept for these generators and strata (or None), and the key to keep a new one under."""
    if not _ACTIVE:
        return None, None
    key = _identity(seeds, sizes)
    if key is None:
        return None, None
    return _ACTIVE[-1].blocks.get(key), key


def keep_draws(key: Hashable, block: np.ndarray) -> np.ndarray:
    """Keep ``block`` under ``key`` (from :func:`kept_draws`) while the budget allows; return it read-only."""
    if key is None or not _ACTIVE:
        return block
    store = _ACTIVE[-1]
    with store.lock:
        if store.kept_bytes + block.nbytes <= store.budget:
            block.flags.writeable = False
            store.blocks[key] = block  # type: ignore[index]
            store.kept_bytes += block.nbytes
    return block
