"""Both cores for chunked work: numpy sorts, gathers, cumulative sums and products release the GIL.

:func:`chunk_map` applies a function to chunks on a small thread pool and
yields the results in order, with a bounded number of chunks in flight, so a
lazy generator of large chunks (bootstrap multiplicities) is never drawn
ahead of the work. Results are consumed in the calling thread, where
progress is reported.

The calling thread waits for each result in short slices, so that a stop
signal (only ever handled in the main thread, and only between bytecodes) is
acted on at once rather than after the chunk: see :mod:`polyroc._engine.stopping`.
When the consumer stops early (an error, a stop, a generator closed), the
chunks not yet started are cancelled and the ones running are not waited for.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from typing import TypeVar

from polyroc._engine.stopping import raise_if_stopped

__all__ = ["chunk_map", "n_workers", "single_blas_thread"]

Item = TypeVar("Item")
Value = TypeVar("Value")

#: Seconds between two looks at the stop request while waiting for a chunk.
WAIT_SLICE = 0.05


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
        for item in items:
            raise_if_stopped()
            yield function(item)
        return
    pool = ThreadPoolExecutor(max_workers=workers)
    pending: deque[Future[Value]] = deque()
    finished = False
    try:
        for item in items:
            raise_if_stopped()
            pending.append(pool.submit(function, item))
            if len(pending) >= ahead * workers:
                yield _result(pending.popleft())
        while pending:
            yield _result(pending.popleft())
        finished = True
    finally:
        # all done: the threads end at once; stopped early: drop the chunks not started, wait for none
        pool.shutdown(wait=finished, cancel_futures=True)


def _result(future: Future[Value]) -> Value:
    """The result of ``future``, waited for in slices of :data:`WAIT_SLICE` with a look at the stop request."""
    while not wait((future,), timeout=WAIT_SLICE).done:
        raise_if_stopped()
    return future.result()


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
