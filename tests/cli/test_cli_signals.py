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

import gc
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np
import pytest

from polyroc.cli import _parser, main
from polyroc.io import MANIFEST_NAME
from polyroc.io._locks import DIRECTORY_LOCK_NAME
from tests.cli.signal_driver import (
    DRIVER,
    ONE_THREAD,
    TIMEOUT,
    VERBS,
    assert_manifest_matches,
    default_stop_signals,
    leftovers,
    one_line,
    run_python,
    scores_csv_text,
    start_blocked,
    stop,
)

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX signals and named pipes"),
    pytest.mark.slow,  # subprocesses stopped at every moment: not in the quick run (-m "not slow")
]


def _scores_csv(path, seed):
    path.write_text(scores_csv_text(seed))
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


TUNE_POINTS = [
    # (function after whose N-th call the signal comes, N, is the new output written?, signal)
    ("polyroc.io.read_scores", 1, False, "SIGINT"),
    ("polyroc.thresholds.tune_thresholds", 1, False, "SIGTERM"),
    ("polyroc.io._locks._create_lock", 1, False, "SIGINT"),  # the output's lock has just been taken
    ("polyroc.io._staging._write_manifest", 1, True, "SIGTERM"),  # the manifest of intent is written
    ("polyroc.io._staging._stage_file", 2, True, "SIGINT"),  # the new tau.json is staged
    ("polyroc.io._staging._install", 2, True, "SIGTERM"),  # the new tau.json is renamed into place
    ("polyroc.io._locks.release_lock", 1, True, "SIGINT"),  # the manifest's lock is released
]


@pytest.mark.parametrize("target, call, written, name", TUNE_POINTS)
def test_tune_stopped_at_each_point(work, target, call, written, name):
    code, verb = 128 + getattr(signal, name), VERBS[name]
    before = (work / "tau.json").read_bytes()
    result = run_python(
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
    assert one_line(result.stderr) == f"polyroc tune: {verb} by {name}{outcome}"
    assert leftovers(work) == []
    document = json.loads((work / "tau.json").read_text())
    if written:
        assert document["metric"] == "f1_macro"
        assert_manifest_matches(work, "tau.json")
    else:
        assert (work / "tau.json").read_bytes() == before


REPORT_POINTS = [
    ("polyroc.report.build_report", 1, False, "SIGINT"),
    ("polyroc.io._locks._create_lock", 1, False, "SIGTERM"),
    ("polyroc.io._staging._stage_file", 4, True, "SIGINT"),  # three of the new figures are staged
    ("polyroc.io._staging._install", 5, True, "SIGTERM"),  # four new figures are in place, the rest not yet
    ("polyroc.io._staging._write_manifest", 2, True, "SIGHUP"),  # the files are in place, the final manifest written
]


@pytest.mark.parametrize("target, call, written, name", REPORT_POINTS)
def test_report_stopped_at_each_point(work, target, call, written, name):
    before = _tree(work / "report")
    result = run_python(
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
    line = one_line(result.stderr)
    assert line.startswith("polyroc report: ") and f"by {name}" in line
    assert line.endswith("after writing --out report" if written else "--out report left as it was")
    assert leftovers(work) == []
    if written:
        assert json.loads((work / "report" / "results.json").read_text())["settings"]["n_boot"] == 6
        assert_manifest_matches(work / "report", ".")
    else:
        assert _tree(work / "report") == before


class _SignalsWhenCollected:
    """Sends ``signum`` to this process from its finaliser, where Python drops any exception raised."""

    def __init__(self, signum):
        self.signum = signum
        self.cycle = self  # freed by the garbage collector, at a moment of its choosing

    def __del__(self):
        os.kill(os.getpid(), self.signum)
        for _ in range(10_000):  # the handler runs here, inside the finaliser
            pass


def test_a_signal_handled_inside_a_finaliser_still_stops_the_command(monkeypatch, capsys):
    def run(args):
        _SignalsWhenCollected(signal.SIGTERM)
        gc.collect()
        deadline = time.monotonic() + 30  # only reached if the stop is lost
        while time.monotonic() < deadline:
            pass

    monkeypatch.setattr(_parser, "metrics_command", run)
    assert main(["metrics"]) == 143
    assert capsys.readouterr().err == "polyroc metrics: terminated by SIGTERM\n"


def test_a_stop_dropped_by_careless_code_still_leaves_the_output_as_it_was(monkeypatch, work, capsys):
    import polyroc.thresholds

    tune = polyroc.thresholds.tune_thresholds

    def careless(*args, **kwargs):
        result = tune(*args, **kwargs)
        try:
            os.kill(os.getpid(), signal.SIGHUP)
            for _ in range(10_000):
                pass
        except BaseException:
            pass
        return result

    monkeypatch.setattr(polyroc.thresholds, "tune_thresholds", careless)
    before = _tree(work)
    out = str(work / "tau.json")
    args = ["tune", "--scores", str(work / "scores.csv"), "--resolution", "8", "--metric", "f1_macro", "--out", out]
    assert main(args) == 129
    assert capsys.readouterr().err == f"polyroc tune: hung up by SIGHUP; --out {out} left as it was\n"
    assert _tree(work) == before


@pytest.mark.parametrize(
    "signum, code, verb",
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 129, "hung up")],
)
def test_signal_while_reading_keeps_the_earlier_report(work, signum, code, verb):
    before = _tree(work / "report")
    process, writer = start_blocked(
        ["report", "--scores", "pipe.csv", "--n-boot", "5", "--no-progress", "--out", "report"], work
    )
    returncode, err = stop(process, writer, signum)
    assert returncode == code
    assert one_line(err) == f"polyroc report: {verb} by {signal.Signals(signum).name}; --out report left as it was"
    assert _tree(work / "report") == before
    assert leftovers(work) == []


def test_signal_while_reading_removes_a_report_directory_it_created(work):
    process, writer = start_blocked(["report", "--scores", "pipe.csv", "--quiet", "--out", "new-report"], work)
    assert (work / "new-report" / DIRECTORY_LOCK_NAME).is_file()
    returncode, err = stop(process, writer, signal.SIGTERM)
    assert returncode == 143 and "terminated by SIGTERM" in one_line(err)
    assert not (work / "new-report").exists()


def test_second_writer_is_refused_while_the_first_works(work):
    before = _tree(work / "report")
    first, writer = start_blocked(["report", "--scores", "pipe.csv", "--out", "report"], work)
    second = run_python(
        ["-m", "polyroc.cli", "report", "--scores", "scores.csv", "--n-boot", "5", "--no-progress", "--out", "report"],
        work,
    )
    assert second.returncode == 2
    assert one_line(second.stderr).startswith(
        f"polyroc report: error: --out report: another polyroc process {first.pid} on "
    )
    assert (work / "report" / DIRECTORY_LOCK_NAME).read_text().startswith(f"{first.pid} ")
    returncode, _ = stop(first, writer, signal.SIGINT)
    assert returncode == 130
    assert _tree(work / "report") == before and leftovers(work) == []


def test_second_tune_is_refused_while_the_first_works(work):
    first, writer = start_blocked(["tune", "--scores", "pipe.csv", "--out", "tau.json"], work)
    second = run_python(["-m", "polyroc.cli", "tune", "--scores", "scores.csv", "--out", "tau.json"], work)
    assert second.returncode == 2
    assert f"--out tau.json: another polyroc process {first.pid} on " in one_line(second.stderr)
    assert stop(first, writer, signal.SIGINT)[0] == 130
    assert leftovers(work) == []


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


# --------------------------------------------------------------------------- a signal at any moment of a real run
#
# The command runs on files big enough that each step of ``report`` (with a
# validation file, so that thresholds are tuned) takes a noticeable time. A
# first, uninterrupted run is timed (the arrival of each progress line on
# standard error) and its output kept as "the earlier report". Then each
# moment of the run gets one run of its own, stopped by one of the three
# signals in turn: as soon as the handlers are installed (read from /proc),
# while numpy is being imported (its core extension is mapped), within each
# step (the step's line, then a part of the step's measured length), and after
# the output was written. Half of the runs write over the earlier report, half
# into a new directory. ``tune --out`` (which prints no steps) is stopped at
# the same two early moments and at fractions of its measured length.

ENDED_WITHIN = 5.0  # seconds from the signal to the end of the process (one is expected; the machine may be loaded)
LINE_WAIT = 240.0  # seconds to wait for a progress line of a running command
STEP_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (.*)$")
CYCLE = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads /proc (Linux)")


def _big_scores(path, n=10_000, k=4, seed=3):
    """A score file of ``n`` rows and ``k`` classes (moderately separable), written with numpy alone."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), n) + 0.5 * np.eye(k)[y]
    P /= P.sum(axis=1, keepdims=True)
    labels = np.array([f"c{j}" for j in range(k)])[y]
    table = np.column_stack([np.char.mod("%.6f", P), labels])
    header = ",".join([*(f"c{j}" for j in range(k)), "label"])
    np.savetxt(path, table, fmt="%s", delimiter=",", header=header, comments="")
    return path


class _Running:
    """``python -m polyroc.cli ARGS`` with its standard error read line by line as it comes."""

    def __init__(self, args, cwd):
        self.stdout = tempfile.TemporaryFile()  # closed in finish()
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "polyroc.cli", *args],
            cwd=cwd,
            stdout=self.stdout,
            stderr=subprocess.PIPE,
            text=True,
            env=ONE_THREAD,
            preexec_fn=default_stop_signals,
        )
        self.lines = queue.Queue()
        self.stderr = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stderr:
            self.stderr.append(line)
            self.lines.put((time.monotonic() - self.started, line.rstrip("\n")))
        self.lines.put(None)

    def wait_for_line(self, text):
        """Wait until a progress line ending in ``text`` is printed; return its time since the start."""
        deadline = time.monotonic() + LINE_WAIT
        while time.monotonic() < deadline:
            try:
                item = self.lines.get(timeout=1.0)
            except queue.Empty:
                continue
            if item is None:
                pytest.fail(f"the command ended before printing {text!r}: {''.join(self.stderr)}")
            if item[1].endswith(text):
                return item[0]
        self.process.kill()
        pytest.fail(f"no line {text!r} within {LINE_WAIT} s")

    def wait_for_handlers(self):
        """Wait until the process catches all three stop signals (Linux: the SigCgt mask of /proc/PID/status)."""
        wanted = sum(1 << (signum - 1) for signum in CYCLE)
        deadline = time.monotonic() + LINE_WAIT
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.process.pid}/status") as status:
                    caught = next(int(line.split()[1], 16) for line in status if line.startswith("SigCgt:"))
            except (OSError, StopIteration):
                caught = 0
            if caught & wanted == wanted:
                return
            if self.process.poll() is not None:
                pytest.fail("the command ended before catching the stop signals")
            time.sleep(0.001)
        pytest.fail("the command never caught the stop signals")

    def wait_for_numpy(self):
        """Wait until the process is importing numpy (Linux: its core extension is in /proc/PID/maps)."""
        deadline = time.monotonic() + LINE_WAIT
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{self.process.pid}/maps") as maps:
                    if "_multiarray_umath" in maps.read():
                        return
            except OSError:
                pass
            if self.process.poll() is not None:
                pytest.fail("the command ended before importing numpy")
            time.sleep(0.001)
        pytest.fail("the command never imported numpy")

    def finish(self, timeout=TIMEOUT):
        """Wait for the end; return (exit code, standard output, standard error)."""
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise
        self.reader.join(timeout=TIMEOUT)
        out = self.output()
        self.stdout.close()
        return self.process.returncode, out, "".join(self.stderr)

    def output(self):
        """What the command has written to standard output so far."""
        return os.pread(self.stdout.fileno(), 1 << 20, 0).decode()

    def stop(self, signum):
        """Send ``signum``; return (exit code, stdout, stderr, seconds from the signal to the end)."""
        sent = time.monotonic()
        self.process.send_signal(signum)
        try:
            code, out, err = self.finish(timeout=TIMEOUT)
        finally:
            ended = time.monotonic() - sent
        return code, out, err, ended


def _report_args(n_boot):
    return ["report", "--scores", "big.csv", "--val", "val.csv", "--n-boot", str(n_boot), "--out", "report"]


def _complete_report(directory, n_boot):
    """``directory`` holds a complete report of ``n_boot`` replicates: its files as its manifest lists them."""
    assert json.loads((directory / "results.json").read_text())["settings"]["n_boot"] == n_boot
    assert (directory / "report.html").is_file()
    assert_manifest_matches(directory, ".")
    listed = json.loads((directory / MANIFEST_NAME).read_text())["files"]
    assert {"report.html", "results.json"} <= set(listed)
    on_disk = {p.relative_to(directory).as_posix() for p in directory.rglob("*") if p.is_file()}
    assert on_disk == {*listed, MANIFEST_NAME}


@pytest.fixture(scope="module")
def timed_report(tmp_path_factory):
    """The big inputs, one uninterrupted report of them (3 replicates) and the time each progress line came."""
    root = tmp_path_factory.mktemp("timed")
    _big_scores(root / "big.csv")
    _big_scores(root / "val.csv", n=5_000, seed=4)
    run = _Running(_report_args(3), root)
    code, _, err = run.finish()
    assert code == 0, err
    times = {}  # step -> seconds from the start to its line
    for seconds, line in iter(run.lines.get, None):
        match = STEP_LINE.match(line)
        if match:
            times[match.group(1)] = seconds
    steps = " | ".join(times)
    for step in ("reading big.csv", "metrics", "tuning", "ROC clouds", "Gini", "ROC-DMF", "figures", "writing"):
        assert step in steps, times
    _complete_report(root / "report", 3)
    return root, times, time.monotonic() - run.started


def _report_moments(times, total):
    """(label, how to wait for it) for every moment: ("handlers",), ("line", text, delay) or ("output",)."""
    names = list(times)
    moments = [("startup: handlers installed", ("handlers",)), ("importing numpy", ("numpy",))]
    for position, name in enumerate(names):
        end = times[names[position + 1]] if position + 1 < len(names) else total
        if name in ("reading val.csv", "ROC-DMF figure"):
            continue  # met by "reading big.csv" and by the other figures
        moments.append((f"within {name!r}", ("line", name, 0.4 * max(end - times[name], 0.0))))
    moments.append(("after the output was written", ("stdout",)))
    return moments


def _reach(run, how):
    if how[0] == "handlers":
        run.wait_for_handlers()
    elif how[0] == "numpy":
        run.wait_for_numpy()
    elif how[0] == "after":
        run.wait_for_handlers()
        time.sleep(max(how[1] - (time.monotonic() - run.started), 0.0))
    elif how[0] == "line":
        run.wait_for_line(how[1])
        time.sleep(how[2])
    else:  # the summary on standard output: the report is written
        deadline = time.monotonic() + LINE_WAIT
        while "written" not in run.output():
            assert time.monotonic() < deadline and run.process.poll() is None, "the report was never written"
            time.sleep(0.005)


def _check_stopped(signum, code, out, err, ended, *, command, output_label):
    """The common promises; return whether the output was written (the message says so)."""
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert ended < ENDED_WITHIN, f"the command ended {ended:.1f} s after {signal.Signals(signum).name}"
    messages = [line for line in err.splitlines() if not STEP_LINE.match(line)]
    if code == 0:  # allowed only when the signal came after the command was done
        assert messages == [] and "written" in out, (err, out)
        return True
    assert code == 128 + signum, (code, err)
    assert len(messages) == 1, err
    verb = VERBS[signal.Signals(signum).name]
    assert messages[0].startswith(f"polyroc {command}: {verb} by {signal.Signals(signum).name}"), messages
    written = messages[0].endswith(f" after writing {output_label}")
    opened = messages[0].endswith(f"; {output_label} left as it was")
    assert written or opened or messages[0] == f"polyroc {command}: {verb} by {signal.Signals(signum).name}"
    return written


@needs_proc
def test_report_stops_at_every_moment_of_a_run(timed_report, tmp_path):
    root, times, total = timed_report
    failures = []
    for number, (label, how) in enumerate(_report_moments(times, total)):
        signum = CYCLE[number % len(CYCLE)]
        work = tmp_path / f"m{number}"
        work.mkdir()
        os.link(root / "big.csv", work / "big.csv")
        os.link(root / "val.csv", work / "val.csv")
        earlier = number % 2 == 1
        if earlier:
            shutil.copytree(root / "report", work / "report")
            before = _tree(work / "report")
        run = _Running(_report_args(2), work)
        _reach(run, how)
        code, out, err, ended = run.stop(signum)
        try:
            written = _check_stopped(signum, code, out, err, ended, command="report", output_label="--out report")
            assert leftovers(work) == []
            if written:
                _complete_report(work / "report", 2)
            elif earlier:
                assert _tree(work / "report") == before
            else:
                assert not (work / "report").exists()
        except AssertionError as error:
            failures.append(f"{label} ({signal.Signals(signum).name}): {error}")
    assert failures == []


@pytest.fixture(scope="module")
def timed_tune(tmp_path_factory):
    """The big input, one uninterrupted ``tune --out`` of it and its length in seconds."""
    root = tmp_path_factory.mktemp("tuned")
    _big_scores(root / "big.csv")
    run = _Running(["tune", "--scores", "big.csv", "--out", "tau.json"], root)
    code, _, err = run.finish()
    assert code == 0, err
    return root, time.monotonic() - run.started


@needs_proc
def test_tune_stops_at_every_moment_of_a_run(timed_tune, tmp_path):
    root, total = timed_tune
    moments = [("handlers",), ("numpy",), *(("after", fraction * total) for fraction in (0.6, 0.9))]
    failures = []
    for number, how in enumerate(moments):
        signum = CYCLE[number % len(CYCLE)]
        work = tmp_path / f"m{number}"
        work.mkdir()
        os.link(root / "big.csv", work / "big.csv")
        earlier = number % 2 == 1
        if earlier:
            shutil.copy(root / "tau.json", work / "tau.json")
            shutil.copy(root / MANIFEST_NAME, work / MANIFEST_NAME)
            before = _tree(work)
        run = _Running(["tune", "--scores", "big.csv", "--metric", "accuracy", "--out", "tau.json"], work)
        _reach(run, how)
        code, out, err, ended = run.stop(signum)
        try:
            written = _check_stopped(signum, code, out, err, ended, command="tune", output_label="--out tau.json")
            assert leftovers(work) == []
            if written:
                assert json.loads((work / "tau.json").read_text())["metric"] == "accuracy"
                assert_manifest_matches(work, "tau.json")
            elif earlier:
                assert _tree(work) == before
            else:
                assert not (work / "tau.json").exists()
        except AssertionError as error:
            failures.append(f"{how} ({signal.Signals(signum).name}): {error}")
    assert failures == []
