"""Both cores for chunked work: numpy sorts, gathers, cumulative sums and products release the GIL.

:func:`chunk_map` applies a function to chunks on a small thread pool and
yields the results in order, with a bounded number of chunks in flight, so a
lazy generator of large chunks (bootstrap multiplicities) is never drawn
ahead of the work. Results are consumed in the calling thread, where
progress is reported.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["chunk_map", "n_workers", "single_blas_thread"]

Item = TypeVar("Item")
Value = TypeVar("Value")


def n_workers() -> int:
    """Threads for chunked work: the cores this process may use (``POLYROC_THREADS`` overrides)."""
    override = os.environ.get("POLYROC_THREADS")
    if override:
        return max(1, int(override))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def chunk_map(function: Callable[[Item], Value], items: Iterable[Item], *, ahead: int = 2) -> Iterator[Value]:
    """Yield ``function(item)`` for each item, in order, computed on up to :func:`n_workers` threads.

    At most ``ahead`` chunks per thread are drawn from ``items`` ahead of the
    results consumed (1 bounds the memory of large results to one per
    thread). With one worker it is a plain loop in this thread.

    >>> list(chunk_map(lambda x: x * x, range(5)))
    [0, 1, 4, 9, 16]
    """
    workers = n_workers()
    if workers == 1:
        yield from map(function, items)
        return
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = deque()
        for item in items:
            pending.append(pool.submit(function, item))
            if len(pending) >= ahead * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


@contextmanager
def single_blas_thread() -> Iterator[None]:
    """Limit the BLAS library to one thread inside the block (restored on exit).

    Chunked bootstrap work already runs on every core (:func:`chunk_map`); a
    multithreaded BLAS inside each chunk wakes its threads for every product,
    which costs more than the products when the cores are taken (ten times more
    for the small products of the ROC-DMF solver, three times more for the
    replicate moments of the Gini ROC on a busy two-core machine). One thread
    also computes each product in a fixed order. Enter it in the calling
    thread only: the limit is process-wide.
    """
    from threadpoolctl import threadpool_limits  # a dependency of scikit-learn

    with threadpool_limits(limits=1, user_api="blas"):
        yield
