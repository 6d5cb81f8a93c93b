"""Stop requests: SIGINT, SIGTERM and SIGHUP become :class:`Stopped` in the main thread, whatever it is doing.

The command line calls :func:`stopping_on_signals` before anything else (before
parsing its options, which imports numpy). A stop signal is recorded, and the
handler raises :class:`Stopped` in the main thread. A Python handler runs only
in the main thread and only between two bytecodes, and an exception it raises
inside a finaliser (``__del__``, a weakref callback, run by the garbage
collector at any moment) is printed as "Exception ignored" and dropped; so the
request is also kept, and:

- a :class:`Stopped` dropped that way is raised again a moment later
  (:data:`sys.unraisablehook` sees it and has :func:`_thread.interrupt_main`
  run the handler again);
- :func:`raise_if_stopped`, called where work waits or advances (the waits on
  worker threads in :func:`polyroc._engine.parallel.chunk_map`, every
  :class:`polyroc._engine.progress.Task` step, the start of an output's commit in
  :mod:`polyroc.io._outputs`), raises it again wherever it was lost.

Only the first signal stops; later ones are ignored, so that they cannot cut
the cleanup short. Without :func:`stopping_on_signals` (library use) nothing
is ever requested and :func:`raise_if_stopped` does nothing.
"""

from __future__ import annotations

import _thread
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["STOP_SIGNALS", "Stopped", "disarm", "raise_if_stopped", "stop_requested", "stopping_on_signals"]

#: Stop signals of this platform -> the verb of the message (``interrupted by SIGINT``).
STOP_SIGNALS = {
    getattr(signal, name): verb
    for name, verb in (("SIGINT", "interrupted"), ("SIGTERM", "terminated"), ("SIGHUP", "hung up"))
    if hasattr(signal, name)
}

#: Seconds after which a stop dropped by a finaliser is delivered again.
RETRY_DELAY = 0.005


class Stopped(BaseException):
    """Raised in the main thread when a stop signal (SIGINT, SIGTERM, SIGHUP) has arrived."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """128 + the signal number, as a shell reports a process the signal ended."""
        return 128 + self.signum

    @property
    def reason(self) -> str:
        """``interrupted by SIGINT``."""
        return f"{STOP_SIGNALS.get(self.signum, 'stopped')} by {signal.Signals(self.signum).name}"


class _State:
    """The stop request of the running command (one per process: signals are process-wide)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.signum: int | None = None  # the first stop signal received
        self.armed = False  # whether a stop signal raises Stopped
        self.again = False  # a Stopped was dropped by a finaliser: raise it at the next delivery


_STATE = _State()


def stop_requested() -> int | None:
    """The number of the stop signal received while armed, or None."""
    return _STATE.signum if _STATE.armed else None


def raise_if_stopped() -> None:
    """Raise :class:`Stopped` if a stop signal has arrived (and the command still runs)."""
    if _STATE.armed and _STATE.signum is not None:
        raise Stopped(_STATE.signum)


def disarm() -> None:
    """Ignore stop signals from now on: the command is done (its outcome is being reported)."""
    _STATE.armed = False


def _on_signal(signum, frame):
    state = _STATE
    if not state.armed:
        return
    if state.signum is None:
        state.signum = signum
    elif not state.again:
        return  # a second signal while stopping: the cleanup goes on
    state.again = False
    raise Stopped(state.signum)


def _interrupt_main(signum):
    if _STATE.armed:
        _thread.interrupt_main(signum)


def _unraisable_hook(previous):
    def hook(unraisable):
        if isinstance(unraisable.exc_value, Stopped) and _STATE.armed:
            # raised in a finaliser, where Python drops exceptions: have the handler run again, from
            # another thread and a moment later, so not at once inside this hook or the finaliser
            _STATE.again = True
            again = threading.Timer(RETRY_DELAY, _interrupt_main, args=(unraisable.exc_value.signum,))
            again.daemon = True
            again.start()
            return
        previous(unraisable)

    return hook


@contextmanager
def stopping_on_signals(*, restore: bool = True) -> Iterator[None]:
    """Turn SIGINT, SIGTERM and SIGHUP into :class:`Stopped` in the block; no-op outside the main thread.

    A signal ignored when the block starts because the command runs under
    ``nohup`` (SIGHUP) stays ignored. On leaving, stop signals are ignored
    (:func:`disarm`); with ``restore`` the earlier handlers are put back,
    otherwise (a process about to exit) the signals are ignored from then on,
    so that one arriving after the command's outcome was reported, while the
    interpreter shuts down, cannot change it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _STATE.reset()
    _STATE.armed = True
    previous = {}
    previous_hook = sys.unraisablehook
    try:
        sys.unraisablehook = _unraisable_hook(previous_hook)
        for signum in STOP_SIGNALS:
            if signum == getattr(signal, "SIGHUP", None) and signal.getsignal(signum) == signal.SIG_IGN:
                continue  # nohup: the user asked for hang-ups to be ignored
            previous[signum] = signal.signal(signum, _on_signal)
        yield
    finally:
        try:
            disarm()
        finally:
            if restore:
                sys.unraisablehook = previous_hook
                for signum, handler in previous.items():
                    signal.signal(signum, signal.SIG_DFL if handler is None else handler)
            else:  # ignored by the system: Python resets its handlers to the default while it exits
                for signum in previous:
                    signal.signal(signum, signal.SIG_IGN)
