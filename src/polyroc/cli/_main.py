"""The entry point of the ``polyroc`` command: parse, run, turn errors and signals into one line and an exit code."""

from __future__ import annotations

import re
import signal
import sys
from typing import TYPE_CHECKING

from polyroc._engine.stopping import Stopped, disarm, raise_if_stopped, stop_requested, stopping_on_signals
from polyroc.cli._parser import build_parser
from polyroc.cli._terminal import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    end_process,
    one_line_warnings,
    quiet_stdout,
    say,
    stop_message,
)

if TYPE_CHECKING:
    from polyroc.io import OutputDirectory, OutputFile


def main(argv: list[str] | None = None) -> int:
    """Run the ``polyroc`` command; return its exit code.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments after ``polyroc``; default ``sys.argv[1:]``, as the
        program: then a command stopped by a signal ends the process at once
        with its exit code (worker threads still computing are not waited
        for), and signals that come after the outcome are ignored.

    Returns
    -------
    int
        0 on success; 2 for an error in the input or the options (one line
        on standard error); 128 + the signal number when stopped by SIGINT,
        SIGTERM or SIGHUP; 141 when standard output is a closed pipe.

    Raises
    ------
    SystemExit
        Never for errors (they are exit codes); ``--help`` prints and returns 0.

    Examples
    --------
    >>> main(["tune", "--scores", "absent.csv", "--metric", "nope", "--out", "tau.json"])
    2
    """
    outputs: list[OutputFile | OutputDirectory] = []
    try:
        # first of all, before the options are parsed (which imports numpy): a signal may come at any moment
        with stopping_on_signals(restore=argv is not None):
            code = _stopped_as_such(_run, argv, outputs)
            disarm()  # done: the outcome is decided, a later signal cannot change it
        return code
    except Stopped as stop:
        say(f"{_command_of(argv)}: {stop_message(stop, outputs)}")
        if argv is None:
            end_process(stop.exit_code)
        return stop.exit_code


def _stopped_as_such(run, argv, outputs):
    """``run(argv, outputs)``; an error raised after a stop signal arrived is that stop.

    The handler's :class:`Stopped` can be replaced by another exception in
    code it interrupts: an extension module's import turns any exception into
    an ``ImportError`` without its cause (numpy's, while the options are
    parsed). Once a stop has been requested, whatever escapes is the stop.
    """
    try:
        return run(argv, outputs)
    except Exception:
        signum = stop_requested()
        if signum is None:
            raise
        raise Stopped(signum) from None


def _run(argv, outputs):
    """Parse ``argv`` and run the command; its exit code. ``outputs`` receives the outputs it opens."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        raise_if_stopped()  # a type conversion interrupted by the stop fails the parse: the stop comes first
        return exit_.code
    args.outputs = outputs
    with one_line_warnings(args.command, args.quiet):
        try:
            args.run(args)
        except KeyboardInterrupt:  # raised by a library rather than by the signal handler
            raise Stopped(signal.SIGINT) from None
        except BrokenPipeError:
            quiet_stdout()
            return EXIT_BROKEN_PIPE
        except (ValueError, TypeError, OSError) as error:
            raise_if_stopped()  # an error made of an interrupted step is the stop, not bad input
            say(f"polyroc {args.command}: error: {_describe(error)}")
            return EXIT_BAD_INPUT
    return 0


#: Keyword arguments of the library named in its errors, and the options of the command line that set them.
_OPTION_OF_KEYWORD = {"score_columns": "--score-cols", "score_prefix": "--score-prefix"}


def _describe(error):
    """One line for an error: ``path: reason`` for an OSError of a file; keywords named as the options."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror if error.filename is None else f"{error.filename}: {error.strerror}"
    text = str(error).replace("\n", " ")
    return re.sub(r"\b(score_columns|score_prefix)\b", lambda match: _OPTION_OF_KEYWORD[match.group(1)], text)


def _command_of(argv):
    """``polyroc COMMAND`` of ``argv`` (default ``sys.argv[1:]``), for a message that may come before parsing."""
    words = [word for word in (sys.argv[1:] if argv is None else argv) if not word.startswith("-")]
    return f"polyroc {words[0]}" if words else "polyroc"
