"""Signals and a second writer, on the real command in a subprocess.

Each signal lands at a chosen point without timing: either the command is
blocked reading a named pipe (FIFO) as its score file, so it waits in the
middle of its work until the test sends the signal and then the data, or a
small driver wraps one internal function so that the command sends the signal
to itself right after that function's N-th call. Outcomes: one line on
standard error, exit code 128 + signal number, no temporary or lock left, and
the earlier output either untouched or (when the signal came while the new one
was being written) completely replaced.

The subprocesses run with one BLAS thread, so that the main thread, the only
one running Python signal handlers, is the one a signal is delivered to. A
signal that comes just before the blocking read starts is then handled as soon
as the read returns with the data the test sends after it, still before any
output is written.
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

from polyroc._outputs import DIRECTORY_LOCK_NAME, MANIFEST_NAME
from polyroc.cli import main

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX signals and named pipes")

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


def _scores_csv_text(seed, n=40):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n) + np.eye(3)[y]
    P /= P.sum(axis=1, keepdims=True)
    rows = [",".join([*(f"{v:.17g}" for v in p), "abc"[t]]) for p, t in zip(P, y)]
    return "\n".join(["a,b,c,label", *rows]) + "\n"


def _scores_csv(path, seed):
    path.write_text(_scores_csv_text(seed))
    return path


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """A directory with scores, tau.json and report/ written by polyroc (tuned for accuracy, 5 replicates)."""
    root = tmp_path_factory.mktemp("earlier")
    scores = _scores_csv(root / "scores.csv", 0)
    assert main(["tune", "--scores", str(scores), "--resolution", "8", "--out", str(root / "tau.json")]) == 0
    assert (
        main(["report", "--scores", str(scores), "--n-boot", "5", "--no-progress", "--out", str(root / "report")]) == 0
    )
    return root


@pytest.fixture
def work(earlier, tmp_path):
    shutil.copytree(earlier, tmp_path / "w")
    return tmp_path / "w"


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _leftovers(root):
    """Temporaries, locks and broken-lock files anywhere below ``root``."""
    return [p.name for p in root.rglob("*") if p.name.endswith((".tmp", ".lock", ".stale"))]


def _assert_manifest_matches(directory, output):
    """Every file of ``output`` listed in the manifest has exactly the listed digest; nothing pending."""
    manifest = json.loads((directory / MANIFEST_NAME).read_text())
    assert manifest["pending"] == []
    for name, entry in manifest["files"].items():
        if entry["output"] == output:
            assert entry["sha256"] == [hashlib.sha256((directory / name).read_bytes()).hexdigest()], name


ONE_THREAD = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def _run(args, cwd):
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=TIMEOUT, check=False, env=ONE_THREAD
    )


def _one_line(stderr):
    lines = stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    return lines[0]


VERBS = {"SIGINT": "interrupted", "SIGTERM": "terminated", "SIGHUP": "hung up"}
TUNE_POINTS = [
    # (function after whose N-th call the signal comes, N, is the new output written?, signal)
    ("polyroc.io.read_scores", 1, False, "SIGINT"),
    ("polyroc.thresholds.tune_thresholds", 1, False, "SIGTERM"),
    ("polyroc._outputs._create_lock", 1, False, "SIGINT"),  # the output's lock has just been taken
    ("polyroc._outputs._write_manifest", 1, True, "SIGTERM"),  # the manifest of intent is written
    ("polyroc._outputs._stage_file", 2, True, "SIGINT"),  # the new tau.json is staged
    ("polyroc._outputs._install", 2, True, "SIGTERM"),  # the new tau.json is renamed into place
    ("polyroc._outputs._release_lock", 1, True, "SIGINT"),  # the manifest's lock is released
]


@pytest.mark.parametrize("target, call, written, name", TUNE_POINTS)
def test_tune_stopped_at_each_point(work, target, call, written, name):
    code, verb = 128 + getattr(signal, name), VERBS[name]
    before = (work / "tau.json").read_bytes()
    result = _run(
        [
            "-c",
            DRIVER,
            target,
            str(call),
            name,
            "tune",
            "--scores",
            "scores.csv",
            "--resolution",
            "8",
            "--metric",
            "f1_macro",
            "--out",
            "tau.json",
        ],
        work,
    )
    assert result.returncode == code
    outcome = " after writing --out tau.json" if written else "; --out tau.json left as it was"
    assert _one_line(result.stderr) == f"polyroc tune: {verb} by {name}{outcome}"
    assert _leftovers(work) == []
    document = json.loads((work / "tau.json").read_text())
    if written:
        assert document["metric"] == "f1_macro"
        _assert_manifest_matches(work, "tau.json")
    else:
        assert (work / "tau.json").read_bytes() == before


REPORT_POINTS = [
    ("polyroc.report.build_report", 1, False, "SIGINT"),
    ("polyroc._outputs._create_lock", 1, False, "SIGTERM"),
    ("polyroc._outputs._stage_file", 4, True, "SIGINT"),  # three of the new figures are staged
    ("polyroc._outputs._install", 5, True, "SIGTERM"),  # four new figures are in place, the rest not yet
    ("polyroc._outputs._write_manifest", 2, True, "SIGHUP"),  # the files are in place, the final manifest written
]


@pytest.mark.parametrize("target, call, written, name", REPORT_POINTS)
def test_report_stopped_at_each_point(work, target, call, written, name):
    before = _tree(work / "report")
    result = _run(
        [
            "-c",
            DRIVER,
            target,
            str(call),
            name,
            "report",
            "--scores",
            "scores.csv",
            "--n-boot",
            "6",
            "--no-progress",
            "--out",
            "report",
        ],
        work,
    )
    signum = getattr(signal, name)
    assert result.returncode == 128 + signum
    line = _one_line(result.stderr)
    assert line.startswith("polyroc report: ") and f"by {name}" in line
    assert line.endswith("after writing --out report" if written else "--out report left as it was")
    assert _leftovers(work) == []
    if written:
        assert json.loads((work / "report" / "results.json").read_text())["settings"]["n_boot"] == 6
        _assert_manifest_matches(work / "report", ".")
    else:
        assert _tree(work / "report") == before


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


def _start_blocked(args, work, fifo_name="pipe.csv"):
    """Start ``polyroc ARGS`` whose score file is a FIFO; return it once it waits for data."""
    fifo = work / fifo_name
    os.mkfifo(fifo)
    process = subprocess.Popen(
        [sys.executable, "-m", "polyroc.cli", *args],
        cwd=work,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ONE_THREAD,
    )
    return process, _open_fifo_writer(fifo, process)


def _stop(process, writer, signum):
    """Send ``signum``, then the score file's data; return the exit code and standard error."""
    process.send_signal(signum)
    try:
        os.write(writer, _scores_csv_text(0).encode())
    except BrokenPipeError:
        pass  # the command stopped before reading on
    finally:
        os.close(writer)
    _, err = process.communicate(timeout=TIMEOUT)
    return process.returncode, err


@pytest.mark.parametrize(
    "signum, code, verb",
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 129, "hung up")],
)
def test_signal_while_reading_keeps_the_earlier_report(work, signum, code, verb):
    before = _tree(work / "report")
    process, writer = _start_blocked(
        ["report", "--scores", "pipe.csv", "--n-boot", "5", "--no-progress", "--out", "report"], work
    )
    returncode, err = _stop(process, writer, signum)
    assert returncode == code
    assert _one_line(err) == f"polyroc report: {verb} by {signal.Signals(signum).name}; --out report left as it was"
    assert _tree(work / "report") == before
    assert _leftovers(work) == []


def test_signal_while_reading_removes_a_report_directory_it_created(work):
    process, writer = _start_blocked(["report", "--scores", "pipe.csv", "--quiet", "--out", "new-report"], work)
    assert (work / "new-report" / DIRECTORY_LOCK_NAME).is_file()
    returncode, err = _stop(process, writer, signal.SIGTERM)
    assert returncode == 143 and "terminated by SIGTERM" in _one_line(err)
    assert not (work / "new-report").exists()


def test_second_writer_is_refused_while_the_first_works(work):
    before = _tree(work / "report")
    first, writer = _start_blocked(["report", "--scores", "pipe.csv", "--out", "report"], work)
    second = _run(
        ["-m", "polyroc.cli", "report", "--scores", "scores.csv", "--n-boot", "5", "--no-progress", "--out", "report"],
        work,
    )
    assert second.returncode == 2
    assert _one_line(second.stderr).startswith(
        f"polyroc report: error: --out report: another polyroc process {first.pid} on "
    )
    assert (work / "report" / DIRECTORY_LOCK_NAME).read_text().startswith(f"{first.pid} ")
    returncode, _ = _stop(first, writer, signal.SIGINT)
    assert returncode == 130
    assert _tree(work / "report") == before and _leftovers(work) == []


def test_second_tune_is_refused_while_the_first_works(work):
    first, writer = _start_blocked(["tune", "--scores", "pipe.csv", "--out", "tau.json"], work)
    second = _run(["-m", "polyroc.cli", "tune", "--scores", "scores.csv", "--out", "tau.json"], work)
    assert second.returncode == 2
    assert f"--out tau.json: another polyroc process {first.pid} on " in _one_line(second.stderr)
    assert _stop(first, writer, signal.SIGINT)[0] == 130
    assert _leftovers(work) == []


def test_broken_pipe_ends_quietly(tmp_path):
    scores = _scores_csv(tmp_path / "scores.csv", 1)
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody reads: the first write fails
    try:
        result = subprocess.run(
            [sys.executable, "-m", "polyroc.cli", "evaluate", "--scores", str(scores)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        os.close(write_end)
    assert result.returncode == 141 and result.stderr == ""
