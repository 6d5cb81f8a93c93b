"""Signals and a second writer on ``polyroc calibrate`` and on ``--calibration``, the real command in a subprocess.

As in ``test_cli_signals.py``: a small driver wraps one internal function so
that the command sends the signal to itself right after that function's N-th
call, or the command is blocked reading a named pipe (FIFO) as its score file
until the test has sent the signal. Outcomes: one line on standard error, exit
code 128 + signal number, no temporary or lock left, and the earlier map
either untouched or (when the signal came while the new one was being written)
completely replaced.
"""

import errno
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from polyroc.cli import main
from polyroc.io import MANIFEST_NAME

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX signals and named pipes"),
    pytest.mark.slow,  # one subprocess per moment
]

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
VERBS = {"SIGINT": "interrupted", "SIGTERM": "terminated", "SIGHUP": "hung up"}


def _scores_csv_text(seed, n=60):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n) + np.eye(3)[y]
    P /= P.sum(axis=1, keepdims=True)
    rows = [",".join([*(f"{v:.17g}" for v in p), "abc"[t]]) for p, t in zip(P, y)]
    return "\n".join(["a,b,c,label", *rows]) + "\n"


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """scores.csv, a temperature map cal.json and thresholds tau.json tuned on its scores, written by polyroc."""
    root = tmp_path_factory.mktemp("earlier")
    (root / "scores.csv").write_text(_scores_csv_text(0))
    assert main(["calibrate", "--scores", str(root / "scores.csv"), "-q", "--out", str(root / "cal.json")]) == 0
    tune = ["tune", "--scores", str(root / "scores.csv"), "--calibration", str(root / "cal.json")]
    assert main([*tune, "--resolution", "8", "-q", "--out", str(root / "tau.json")]) == 0
    return root


@pytest.fixture
def work(earlier, tmp_path):
    shutil.copytree(earlier, tmp_path / "w")
    return tmp_path / "w"


def _default_stop_signals():
    """In the child before it runs Python: the stop signals as a fresh process has them (not ignored by nohup)."""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_DFL)


def _run(args, cwd):
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env=ONE_THREAD,
        preexec_fn=_default_stop_signals,
    )


def _one_line(stderr):
    lines = stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


def _leftovers(root):
    return [p.name for p in root.rglob("*") if p.name.endswith((".tmp", ".lock", ".stale"))]


def _assert_manifest_matches(directory, output):
    manifest = json.loads((directory / MANIFEST_NAME).read_text())
    assert manifest["pending"] == []
    entry = manifest["files"][output]
    assert entry["sha256"] == [hashlib.sha256((directory / output).read_bytes()).hexdigest()]


CALIBRATE_POINTS = [
    # (function after whose N-th call the signal comes, N, is the new output written?, signal)
    ("polyroc.io.read_scores", 1, False, "SIGINT"),
    ("polyroc.calibration.fit_calibrator", 1, False, "SIGTERM"),
    ("polyroc.io._locks._create_lock", 1, False, "SIGHUP"),  # the output's lock has just been taken
    ("polyroc.io._staging._write_manifest", 1, True, "SIGTERM"),  # the manifest of intent is written
    ("polyroc.io._staging._stage_file", 2, True, "SIGINT"),  # the new cal.json is staged
    ("polyroc.io._staging._install", 2, True, "SIGHUP"),  # the new cal.json is renamed into place
    ("polyroc.io._locks.release_lock", 1, True, "SIGINT"),  # the manifest's lock is released
]


@pytest.mark.parametrize("target, call, written, name", CALIBRATE_POINTS)
def test_calibrate_stopped_at_each_point(work, target, call, written, name):
    before = (work / "cal.json").read_bytes()
    args = ["calibrate", "--scores", "scores.csv", "--method", "vector", "--out", "cal.json"]
    result = _run(["-c", DRIVER, target, str(call), name, *args], work)
    assert result.returncode == 128 + getattr(signal, name)
    outcome = " after writing --out cal.json" if written else "; --out cal.json left as it was"
    assert _one_line(result.stderr) == f"polyroc calibrate: {VERBS[name]} by {name}{outcome}"
    assert _leftovers(work) == []
    if written:
        assert json.loads((work / "cal.json").read_text())["method"] == "vector"
        _assert_manifest_matches(work, "cal.json")
    else:
        assert (work / "cal.json").read_bytes() == before


@pytest.mark.parametrize(
    "command, out, name",
    [
        (["tune", "--scores", "scores.csv", "--resolution", "8", "--metric", "accuracy"], "tau.json", "SIGTERM"),
        (["apply", "--scores", "scores.csv", "--tau", "tau.json"], "pred.csv", "SIGINT"),
        (["evaluate", "--scores", "scores.csv", "--ci", "none"], None, "SIGHUP"),
    ],
)
def test_commands_stopped_right_after_reading_the_map(work, command, out, name):
    before = {p.name: p.read_bytes() for p in work.iterdir()}
    args = [*command, "--calibration", "cal.json", *(["--out", out] if out else [])]
    result = _run(["-c", DRIVER, "polyroc.io._calibrators.calibrator_file", "1", name, *args], work)
    assert result.returncode == 128 + getattr(signal, name)
    outcome = f"; --out {out} left as it was" if out else ""
    assert _one_line(result.stderr) == f"polyroc {command[0]}: {VERBS[name]} by {name}{outcome}"
    assert _leftovers(work) == []
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before


def _open_fifo_writer(fifo, process):
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


def _start_blocked(args, work):
    """Start ``polyroc ARGS`` whose score file is the FIFO pipe.csv; return it and the FIFO's writer."""
    os.mkfifo(work / "pipe.csv")
    process = subprocess.Popen(
        [sys.executable, "-m", "polyroc.cli", *args],
        cwd=work,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ONE_THREAD,
        preexec_fn=_default_stop_signals,
    )
    return process, _open_fifo_writer(work / "pipe.csv", process)


def _stop(process, writer, signum):
    """Send ``signum``, then the score file's data; return the exit code and standard error."""
    process.send_signal(signum)
    try:
        os.write(writer, _scores_csv_text(1).encode())
    except BrokenPipeError:
        pass  # the command stopped before reading on
    finally:
        os.close(writer)
    _, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, err


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signal_while_reading_keeps_the_earlier_map(work, signum):
    before = (work / "cal.json").read_bytes()
    process, writer = _start_blocked(["calibrate", "--scores", "pipe.csv", "--out", "cal.json"], work)
    code, err = _stop(process, writer, signum)
    name = signal.Signals(signum).name
    assert code == 128 + signum
    assert _one_line(err) == f"polyroc calibrate: {VERBS[name]} by {name}; --out cal.json left as it was"
    assert (work / "cal.json").read_bytes() == before
    assert _leftovers(work) == []


def test_signal_while_reading_leaves_no_new_map(work):
    process, writer = _start_blocked(["calibrate", "--scores", "pipe.csv", "--out", "new.json"], work)
    code, err = _stop(process, writer, signal.SIGINT)
    assert code == 130 and _one_line(err).endswith("; --out new.json left as it was")
    assert not (work / "new.json").exists() and _leftovers(work) == []


def test_second_calibrate_is_refused_while_the_first_works(work):
    first, writer = _start_blocked(["calibrate", "--scores", "pipe.csv", "--out", "cal.json"], work)
    second = _run(["-m", "polyroc.cli", "calibrate", "--scores", "scores.csv", "--out", "cal.json"], work)
    assert second.returncode == 2
    assert f"--out cal.json: another polyroc process {first.pid} on " in _one_line(second.stderr)
    assert _stop(first, writer, signal.SIGINT)[0] == 130
    assert _leftovers(work) == []
