"""Progress of long computations: loops announce their work, a listener shows it.

Library code never prints. A loop that takes noticeable time opens a
:func:`task` and calls :meth:`Task.advance` as units of work finish (bootstrap
replicates, lattice chunks, ...); with no listener installed this costs
nothing. The command line installs a listener with :func:`listening` around a
computation to draw its progress bars. Listeners are called from the thread
that runs the loop (never from worker threads), so they need no locking.
Each start and advance of a task is also a point where a stop requested by a
signal is acted on (:func:`polyroc._engine.stopping.raise_if_stopped`).

>>> events = []
>>> with listening(lambda name, done, total: events.append((name, done, total))):
...     work = task("replicates", 3)
...     work.advance(2)
...     work.advance()
>>> events
[('replicates', 0, 3), ('replicates', 2, 3), ('replicates', 3, 3)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from polyroc._engine.stopping import raise_if_stopped

__all__ = ["Listener", "Task", "listening", "task"]

#: Called as ``listener(task name, units done, units in all)``.
Listener = Callable[[str, int, int], object]

_listener: ContextVar[Listener | None] = ContextVar("polyroc_progress_listener", default=None)


@contextmanager
def listening(listener: Listener | None) -> Iterator[None]:
    """Send the progress of every task started inside the block to ``listener`` (None: nowhere)."""
    token = _listener.set(listener)
    try:
        yield
    finally:
        _listener.reset(token)


class Task:
    """A unit-counted piece of work; tells the listener of its start and of each advance."""

    def __init__(self, name: str, total: int) -> None:
        self.name = name
        self.total = int(total)
        self.done = 0
        self._listener = _listener.get()
        self._tell()

    def advance(self, units: int = 1) -> None:
        """Count ``units`` more units as done."""
        self.done = min(self.total, self.done + int(units))
        self._tell()

    def _tell(self) -> None:
        raise_if_stopped()
        if self._listener is not None:
            self._listener(self.name, self.done, self.total)


def task(name: str, total: int) -> Task:
    """Start a task of ``total`` units named ``name`` (e.g. ``"bootstrap replicates"``)."""
    return Task(name, total)
