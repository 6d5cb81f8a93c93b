"""What the command line shows on standard error, and how a command ends.

Progress (bars on a terminal, timestamped lines elsewhere), notes, each
distinct warning as one line, the line and exit code of a command stopped by a
signal (Ctrl-C: SIGINT, SIGTERM, SIGHUP) and the exit codes of the commands.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from contextlib import contextmanager

EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 128 + 13


def stop_message(stop, outputs):
    """``interrupted by SIGINT; --out r left as it was`` (``outputs``: the OutputFile/OutputDirectory opened)."""
    text = stop.reason
    written = [out.label for out in outputs if out.written]
    untouched = [out.label for out in outputs if not out.written]
    if written:
        text += f" after writing {', '.join(written)}"
    if untouched:
        text += f"; {', '.join(untouched)} left as it was"
    return text


def record_output(args, output):
    """Record ``output`` (an OutputFile or OutputDirectory, not yet opened) for the closing message; return it."""
    args.outputs.append(output)
    return output


def _clock():
    return time.strftime("%Y-%m-%d %H:%M:%S")


def _duration(seconds):
    """``45 s``, ``3 min 20 s``, ``1 h 05 min``."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class _Display:
    """Progress on standard error: ``"bars"`` (tqdm, on a terminal), ``"lines"`` (timestamped) or ``None``.

    :meth:`step` is the ``progress(description, done, total)`` callback of
    :func:`polyroc.report.build_report`; :meth:`task` is the listener of
    :mod:`polyroc._engine.progress`, called as the library's loops advance.
    """

    #: Seconds between two task lines (the "lines" mode).
    LINE_INTERVAL = 10.0

    def __init__(self, mode, transient=False):
        self.mode = mode
        self.transient = transient
        self.bar = None
        self.label = ""
        self.task_name = None
        self.task_start = 0.0
        self.last_line = 0.0

    def step(self, description, done=None, total=None):
        self.label = description if done is None else f"[{done + 1}/{total}] {description}"
        self.task_name = None
        if self.mode == "bars":
            self._close_bar()
            from tqdm import tqdm

            self.bar = tqdm(
                desc=self.label, total=None, unit="", file=sys.stderr, leave=not self.transient, dynamic_ncols=True
            )
        elif self.mode == "lines":
            self._line(self.label)

    def task(self, name, done, total):
        new = name != self.task_name or (self.bar is not None and done < self.bar.n)
        if new:
            self.task_name, self.task_start = name, time.monotonic()
        if self.mode == "bars" and self.bar is not None:
            if new or self.bar.total != total:
                self.bar.set_postfix_str(name, refresh=False)
                self.bar.reset(total=total)
            self.bar.update(done - self.bar.n)
        elif self.mode == "lines" and 0 < done < total and time.monotonic() - self.last_line >= self.LINE_INTERVAL:
            elapsed = time.monotonic() - self.task_start
            left = elapsed * (total - done) / done
            self._line(f"{self.label}: {name} {done}/{total} ({100 * done // total}%), about {_duration(left)} left")

    def _line(self, text):
        self.last_line = time.monotonic()
        say(f"{_clock()} {text}")

    def _close_bar(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def write(self, text):
        """Print a line on standard error without breaking a bar."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self):
        self._close_bar()


#: The display of the running command (``say`` prints through it, so a message never cuts a bar in two).
_DISPLAY = None


@contextmanager
def showing_progress(args, lines=False):
    """Show the progress of the block's work; ``lines``: also when standard error is not a terminal."""
    from polyroc._engine.progress import listening

    global _DISPLAY
    mode = None
    if not args.quiet:
        terminal = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        mode = "bars" if terminal else ("lines" if lines else None)
    display = _Display(mode, transient=not lines)
    _DISPLAY = display
    try:
        with listening(display.task if mode else None):
            yield display
    finally:
        display.close()
        _DISPLAY = None


def note(args, text):
    """A remark about the input, on standard error unless ``--quiet``."""
    if not args.quiet:
        say(f"polyroc {args.command}: note: {text}")


def say(text):
    """Print one line on standard error (above a progress bar), even if standard error has gone away."""
    try:
        if _DISPLAY is not None:
            _DISPLAY.write(text)
        else:
            print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


@contextmanager
def one_line_warnings(command, quiet=False):
    """Each distinct warning as one line on standard error, once (none with ``quiet``)."""
    shown = set()
    with warnings.catch_warnings():

        def show(message, category, filename, lineno, file=None, line=None):
            text = f"polyroc {command}: warning: {str(message).replace(chr(10), ' ')} ({category.__name__})"
            if not quiet and text not in shown:
                shown.add(text)
                say(text)

        warnings.showwarning = show
        yield


def quiet_stdout():
    """Point standard output at the null device, so that no flush at exit fails on a closed pipe."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def end_process(code):
    """Exit with ``code`` at once: worker threads may still be computing a chunk nobody will use.

    The outputs are already closed (lock removed, nothing half-written); only
    the interpreter's shutdown, which would wait for those threads, is skipped.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
