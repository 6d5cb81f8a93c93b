"""Holding SIGINT, SIGTERM and SIGHUP back while an output takes a lock or renames its files.

:func:`signals_deferred` keeps the short phases of :mod:`polyroc.io._outputs`
(taking or releasing a lock, staging and renaming files) whole: a signal that
arrives during one is delivered once the phase has ended.
"""

from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager

from polyroc._engine.stopping import STOP_SIGNALS

_STOP_SIGNALS = tuple(STOP_SIGNALS)


def _deliver(signum, handler):
    """Act on a signal held back while ``handler`` was its handler."""
    if callable(handler):
        handler(signum, None)
    elif handler in (signal.SIG_DFL, None):
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)


@contextmanager
def signals_deferred():
    """Hold SIGINT, SIGTERM and SIGHUP back for the block; deliver the first one received after it.

    Only the main thread receives Python signal handlers, so elsewhere this does
    nothing. A signal arriving while the handlers are being restored goes to the
    handler it would have reached without this block.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received, previous, holding = [], {}, [True]

    def hold(signum, frame):
        if holding[0]:
            received.append(signum)
        else:
            _deliver(signum, previous[signum])

    try:
        for signum in _STOP_SIGNALS:
            previous[signum] = signal.signal(signum, hold)
        yield
    finally:
        holding[0] = False
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)
        if received:
            _deliver(received[0], previous[received[0]])
