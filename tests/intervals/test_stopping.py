"""Stop signals turned into Stopped, in this process: where a stop is acted on and what it leaves.

The signals are sent with ``os.kill`` to this process, whose main thread runs
the test (Python handlers run only there). Every outcome is observed, never
timed: a worker that is still blocked when the stop arrives, a file that is
absent, a handler that is or is not in place.
"""

import os
import signal
import threading

import pytest

from polyroc._engine.parallel import chunk_map
from polyroc._engine.progress import task
from polyroc._engine.stopping import Stopped, raise_if_stopped, stop_requested, stopping_on_signals
from polyroc.cli import main
from polyroc.io import OutputDirectory, OutputFile

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="needs POSIX signals")


def _swallowed(signum):
    """Send ``signum`` to this process and drop the Stopped it raises, as careless code might."""
    try:
        os.kill(os.getpid(), signum)
        for _ in range(10_000):  # the handler runs between two bytecodes
            pass
    except Stopped:
        return
    pytest.fail("the signal raised nothing")


def test_a_stop_is_acted_on_while_the_workers_are_still_busy(monkeypatch):
    monkeypatch.setenv("POLYROC_THREADS", "2")
    release, started, finished = threading.Event(), threading.Event(), []

    def blocked(item):
        started.set()
        release.wait(10)
        finished.append(item)
        return item

    def signal_once_a_worker_runs():
        started.wait(10)
        os.kill(os.getpid(), signal.SIGTERM)

    sender = threading.Thread(target=signal_once_a_worker_runs)
    with stopping_on_signals():
        sender.start()
        with pytest.raises(Stopped) as stop:
            list(chunk_map(blocked, range(6)))
        busy = finished == []  # no chunk has ended: the stop did not wait for them
    release.set()
    sender.join()
    assert stop.value.signum == signal.SIGTERM and stop.value.exit_code == 143
    assert busy


def test_a_stop_dropped_by_careless_code_is_raised_at_the_next_wait(monkeypatch):
    monkeypatch.setenv("POLYROC_THREADS", "2")
    with stopping_on_signals():
        _swallowed(signal.SIGINT)
        assert stop_requested() == signal.SIGINT
        with pytest.raises(Stopped) as stop:
            list(chunk_map(abs, range(-3, 3)))
    assert stop.value.signum == signal.SIGINT


def test_a_stop_dropped_by_careless_code_is_raised_at_the_next_progress_step():
    with stopping_on_signals():
        work = task("replicates", 3)
        _swallowed(signal.SIGHUP)
        with pytest.raises(Stopped) as stop:
            work.advance()
    assert stop.value.signum == signal.SIGHUP


def test_a_directory_is_not_written_after_a_stop(tmp_path):
    target = tmp_path / "report"
    with stopping_on_signals():
        with OutputDirectory(target, reserved=["a.txt"]) as out:
            _swallowed(signal.SIGTERM)
            with pytest.raises(Stopped):
                out.write({"a.txt": "new"})
        assert not out.written
    assert not target.exists()


def test_a_file_is_not_written_after_a_stop(tmp_path):
    target = tmp_path / "tau.json"
    with OutputFile(target) as out:
        out.write("old")
    with stopping_on_signals():
        with OutputFile(target) as out:
            _swallowed(signal.SIGINT)
            with pytest.raises(Stopped):
                out.write("new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".polyroc-manifest.json", "tau.json"]


def test_a_second_signal_does_not_cut_the_cleanup_short():
    with stopping_on_signals():
        with pytest.raises(Stopped) as stop:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000):
                pass
        os.kill(os.getpid(), signal.SIGTERM)  # ignored: the first one is being handled
        for _ in range(10_000):
            pass
    assert stop.value.signum == signal.SIGINT


def test_nothing_is_requested_without_the_handlers():
    assert stop_requested() is None
    raise_if_stopped()


def test_main_puts_the_handlers_back():
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    assert main(["metrics"]) == 0
    assert {signum: signal.getsignal(signum) for signum in before} == before


def test_hang_ups_ignored_by_nohup_stay_ignored():
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        with stopping_on_signals():
            assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_IGN, signal.SIG_DFL)
    finally:
        signal.signal(signal.SIGHUP, previous)
