"""How fast ``polyroc report`` stops on a signal, at each step of a run, and how long it is unprotected.

A score file of 30,000 rows and 6 classes (and a validation file, so that
thresholds are tuned) is reported with ``--n-boot 200``, so that each step
runs its bootstrap on the worker threads. A first run is timed: the arrival
of each progress line on standard error. Then, for each step, a new run gets
SIGINT, SIGTERM and SIGHUP in turn, a third of the way into the step (the
step's line, then a third of its measured length). Printed per moment: the
exit code and the seconds from the signal to the end of the process. Also
printed: the seconds from the start of the process until its stop handlers
are installed (read from ``/proc/PID/status``), the only moment a signal
gets Python's default treatment (median of 10 starts).

Run (Linux): ``python benchmarks/bench_stop.py``
"""

import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def write_scores(path, n, k, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), n) + 0.5 * np.eye(k)[y]
    P /= P.sum(axis=1, keepdims=True)
    table = np.column_stack([np.char.mod("%.6f", P), np.array([f"c{j}" for j in range(k)])[y]])
    header = ",".join([*(f"c{j}" for j in range(k)), "label"])
    np.savetxt(path, table, fmt="%s", delimiter=",", header=header, comments="")


def start(folder):
    args = ["report", "--scores", "test.csv", "--val", "val.csv", "--n-boot", "200", "--out", "report"]
    process = subprocess.Popen(
        [sys.executable, "-m", "polyroc.cli", *args],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = []  # (seconds since the start, step)
    began = time.monotonic()

    def read():
        for line in process.stderr:
            lines.append((time.monotonic() - began, line.rstrip("\n")[20:]))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return process, lines, reader, began


def handlers_installed_after(folder):
    """Seconds from the start of the process until it catches all three stop signals."""
    wanted = sum(1 << (signum - 1) for signum in STOP_SIGNALS)
    began = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "polyroc.cli", "metrics"], cwd=folder, stdout=subprocess.DEVNULL)
    seconds = None
    while process.poll() is None:
        try:
            with open(f"/proc/{process.pid}/status") as status:
                caught = next(int(line.split()[1], 16) for line in status if line.startswith("SigCgt:"))
        except (OSError, StopIteration):
            caught = 0
        if caught & wanted == wanted:
            seconds = time.monotonic() - began
            break
    process.wait()
    return seconds


def main():
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_scores(folder / "test.csv", 30_000, 6, 0)
        write_scores(folder / "val.csv", 10_000, 6, 1)
        windows = [handlers_installed_after(folder) for _ in range(10)]
        print(f"stop handlers installed {statistics.median(windows) * 1000:.0f} ms after the process started")
        process, lines, reader, began = start(folder)
        process.wait()
        reader.join()
        total = time.monotonic() - began
        steps = [(seconds, step) for seconds, step in lines if not step.startswith("polyroc")]
        print(f"uninterrupted run: {total:.1f} s, {len(steps)} steps")
        print(f"{'moment':<45} {'signal':<8} {'exit code':>9} {'seconds to the end':>19}")
        for number, (seconds, step) in enumerate(steps):
            end = steps[number + 1][0] if number + 1 < len(steps) else total
            signum = STOP_SIGNALS[number % 3]
            process, lines, reader, began = start(folder)
            while not any(line[1] == step for line in lines):
                time.sleep(0.001)
            time.sleep((end - seconds) / 3)
            sent = time.monotonic()
            process.send_signal(signum)
            process.wait()
            ended = time.monotonic() - sent
            reader.join()
            name = signal.Signals(signum).name
            print(f"{'a third into ' + step:<45} {name:<8} {process.returncode:>9} {ended:>19.3f}")


if __name__ == "__main__":
    main()
