"""The signal-test driver shared by the command-line signal tests: the real command in a subprocess.

Each signal lands at a chosen point without timing: either the command is
blocked reading a named pipe (FIFO) as its score file, so it waits in the
middle of its work until the test sends the signal and then the data
(:func:`start_blocked`, :func:`stop`), or :data:`DRIVER` wraps one internal
function so that the command sends the signal to itself right after that
function's N-th call (``run_python(["-c", DRIVER, target, N, SIGNAL, *argv])``).

The subprocesses run with one BLAS thread, so that the main thread, the only
one running Python signal handlers, is the one a signal is delivered to.
"""

import errno
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from polyroc.io import MANIFEST_NAME

TIMEOUT = 300  # seconds; only reached if the command hangs, which is itself the failure

DRIVER = """
import importlib, os, signal, sys
target, call, name, *argv = sys.argv[1:]
module_name, attribute = target.rsplit(".", 1)
module = importlib.import_module(module_name)
original, calls = getattr(module, attribute), []

def signalling(*args, **kwargs):
    result = original(*args, **kwargs)
    calls.append(1)
    if len(calls) == int(call):
        os.kill(os.getpid(), getattr(signal, name))
    return result

setattr(module, attribute, signalling)
from polyroc.cli import main
sys.exit(main(argv))
"""

ONE_THREAD = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

#: Signal name -> the verb of the command's one line.
VERBS = {"SIGINT": "interrupted", "SIGTERM": "terminated", "SIGHUP": "hung up"}


def scores_csv_text(seed, n=40):
    """A three-class score file (columns a, b, c and label) of ``n`` rows, drawn from ``seed``."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n) + np.eye(3)[y]
    P /= P.sum(axis=1, keepdims=True)
    rows = [",".join([*(f"{v:.17g}" for v in p), "abc"[t]]) for p, t in zip(P, y)]
    return "\n".join(["a,b,c,label", *rows]) + "\n"


def leftovers(root):
    """Temporaries, locks and broken-lock files anywhere below ``root``."""
    return [p.name for p in root.rglob("*") if p.name.endswith((".tmp", ".lock", ".stale"))]


def assert_manifest_matches(directory, output):
    """Every file of ``output`` listed in the manifest has exactly the listed digest; nothing pending."""
    manifest = json.loads((directory / MANIFEST_NAME).read_text())
    assert manifest["pending"] == []
    listed = [name for name, entry in manifest["files"].items() if entry["output"] == output]
    assert listed, f"the manifest lists no file of {output}"
    for name in listed:
        assert manifest["files"][name]["sha256"] == [hashlib.sha256((directory / name).read_bytes()).hexdigest()], name


def default_stop_signals():
    """In the child before it runs Python: the stop signals as a fresh process has them (not ignored by nohup)."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def run_python(args, cwd):
    """``python ARGS`` in ``cwd``, one BLAS thread, default stop signals; the completed process."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=ONE_THREAD,
        preexec_fn=default_stop_signals,
    )


def one_line(stderr):
    """The single line of ``stderr``, which holds no traceback."""
    lines = stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def open_fifo_writer(fifo, process):
    """Open the write end of ``fifo`` once ``process`` has opened it for reading."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:
                raise
        if process.poll() is not None:
            pytest.fail(f"the command ended before reading its input: {process.stderr.read()}")
        if time.monotonic() > deadline:
            process.kill()
            pytest.fail("the command never opened its input")
        time.sleep(0.01)


def start_blocked(args, work, fifo_name="pipe.csv"):
    """Start ``polyroc ARGS`` whose score file is a FIFO; return it and the FIFO's writer once it waits for data."""
    fifo = work / fifo_name
    os.mkfifo(fifo)
    process = subprocess.Popen(
        [sys.executable, "-m", "polyroc.cli", *args],
        cwd=work,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ONE_THREAD,
        preexec_fn=default_stop_signals,
    )
    return process, open_fifo_writer(fifo, process)


def stop(process, writer, signum, seed=0):
    """Send ``signum``, then the score file's data (of ``seed``); return the exit code and standard error."""
    process.send_signal(signum)
    try:
        os.write(writer, scores_csv_text(seed).encode())
    except BrokenPipeError:
        pass  # the command stopped before reading on
    finally:
        os.close(writer)
    _, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, err
