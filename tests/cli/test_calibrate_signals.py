"""Signals and a second writer on ``polyroc calibrate`` and on ``--calibration``, the real command in a subprocess.

As in ``test_cli_signals.py``: a small driver wraps one internal function so
that the command sends the signal to itself right after that function's N-th
call, or the command is blocked reading a named pipe (FIFO) as its score file
until the test has sent the signal. Outcomes: one line on standard error, exit
code 128 + signal number, no temporary or lock left, and the earlier map
either untouched or (when the signal came while the new one was being written)
completely replaced.
"""

import json
import os
import shutil
import signal

import pytest

from polyroc.cli import main
from tests.cli.signal_driver import (
    DRIVER,
    VERBS,
    assert_manifest_matches,
    leftovers,
    one_line,
    run_python,
    scores_csv_text,
    start_blocked,
    stop,
)

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX signals and named pipes"),
    pytest.mark.slow,  # one subprocess per moment
]


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """scores.csv, a temperature map cal.json and thresholds tau.json tuned on its scores, written by polyroc."""
    root = tmp_path_factory.mktemp("earlier")
    (root / "scores.csv").write_text(scores_csv_text(0, n=60))
    assert main(["calibrate", "--scores", str(root / "scores.csv"), "-q", "--out", str(root / "cal.json")]) == 0
    tune = ["tune", "--scores", str(root / "scores.csv"), "--calibration", str(root / "cal.json")]
    assert main([*tune, "--resolution", "8", "-q", "--out", str(root / "tau.json")]) == 0
    return root


@pytest.fixture
def work(earlier, tmp_path):
    shutil.copytree(earlier, tmp_path / "w")
    return tmp_path / "w"


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
    result = run_python(["-c", DRIVER, target, str(call), name, *args], work)
    assert result.returncode == 128 + getattr(signal, name)
    outcome = " after writing --out cal.json" if written else "; --out cal.json left as it was"
    assert one_line(result.stderr) == f"polyroc calibrate: {VERBS[name]} by {name}{outcome}"
    assert leftovers(work) == []
    if written:
        assert json.loads((work / "cal.json").read_text())["method"] == "vector"
        assert_manifest_matches(work, "cal.json")
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
    result = run_python(["-c", DRIVER, "polyroc.io._calibrators.calibrator_file", "1", name, *args], work)
    assert result.returncode == 128 + getattr(signal, name)
    outcome = f"; --out {out} left as it was" if out else ""
    assert one_line(result.stderr) == f"polyroc {command[0]}: {VERBS[name]} by {name}{outcome}"
    assert leftovers(work) == []
    assert {p.name: p.read_bytes() for p in work.iterdir()} == before


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_signal_while_reading_keeps_the_earlier_map(work, signum):
    before = (work / "cal.json").read_bytes()
    process, writer = start_blocked(["calibrate", "--scores", "pipe.csv", "--out", "cal.json"], work)
    code, err = stop(process, writer, signum, seed=1)
    name = signal.Signals(signum).name
    assert code == 128 + signum
    assert one_line(err) == f"polyroc calibrate: {VERBS[name]} by {name}; --out cal.json left as it was"
    assert (work / "cal.json").read_bytes() == before
    assert leftovers(work) == []


def test_signal_while_reading_leaves_no_new_map(work):
    process, writer = start_blocked(["calibrate", "--scores", "pipe.csv", "--out", "new.json"], work)
    code, err = stop(process, writer, signal.SIGINT, seed=1)
    assert code == 130 and one_line(err).endswith("; --out new.json left as it was")
    assert not (work / "new.json").exists() and leftovers(work) == []


def test_second_calibrate_is_refused_while_the_first_works(work):
    first, writer = start_blocked(["calibrate", "--scores", "pipe.csv", "--out", "cal.json"], work)
    second = run_python(["-m", "polyroc.cli", "calibrate", "--scores", "scores.csv", "--out", "cal.json"], work)
    assert second.returncode == 2
    assert f"--out cal.json: another polyroc process {first.pid} on " in one_line(second.stderr)
    assert stop(first, writer, signal.SIGINT, seed=1)[0] == 130
    assert leftovers(work) == []
