"""The ``polyroc`` command line.

Every error in the input or the options is one line on standard error,
``polyroc COMMAND: error: ...`` naming the file (with its line and column where
one applies) or the option, with exit code 2 and nothing written. Outputs
(``--out``) are checked and locked before any work and written as
:mod:`polyroc.io` writes them: never over a file polyroc did not write, always
the complete old or the complete new output. Ctrl-C (SIGINT), SIGTERM and
SIGHUP stop a command with one line and exit code 128 + the signal number
(130, 143, 129), leaving the output as it was (or complete, when the signal came
while it was being written); each distinct warning is one line, shown once.

Progress goes to standard error: on a terminal, a bar per step whose count and
time left follow the work units of the running task (bootstrap replicates,
lattice chunks, ...); elsewhere (a log file, a pipe), ``report`` and ``demo``
write a timestamped line as each step starts and at most one line every ten
seconds within a step. ``--quiet`` leaves standard error to errors alone.

Nothing heavy (numpy, scikit-learn, matplotlib) is imported until a
subcommand runs, so ``polyroc --help`` answers at once.
"""

from polyroc.cli._evaluate import glass_holdout_scores as glass_holdout_scores
from polyroc.cli._main import main as main
from polyroc.cli._parser import build_parser as build_parser
from polyroc.cli._terminal import EXIT_BAD_INPUT as EXIT_BAD_INPUT
from polyroc.cli._terminal import EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE
