"""Time of ``import polyroc`` in a fresh process, against importing scikit-learn's metrics.

Each import runs in a new interpreter (nothing cached in ``sys.modules``); the
figure is the median of 10 runs, measured inside the child process so that
interpreter start-up is not counted. The baseline, ``import sklearn.metrics``,
is what a scikit-learn user pays today; the ratio says how much less polyroc
costs before its first use. Also shown: the first use of a metric, which
imports what it needs, and ``polyroc --help`` (the command line imports
nothing heavy until a subcommand runs), timed around ``main(["--help"])``
with interpreter start-up excluded, and as a whole process for reference.

Run: ``python benchmarks/bench_import.py``
"""

import statistics
import subprocess
import sys
import time

RUNS = 10

TIMER = """
import time
start = time.perf_counter()
{statement}
print(time.perf_counter() - start)
"""


def import_time(statement):
    """Median wall time of ``statement`` in ``RUNS`` fresh interpreters."""
    times = []
    for _ in range(RUNS):
        output = subprocess.run(
            [sys.executable, "-c", TIMER.format(statement=statement)], capture_output=True, text=True, check=True
        ).stdout
        times.append(float(output))
    return statement, statistics.median(times)


HELP = "\n".join(
    [
        "import contextlib, io, polyroc.cli",
        "with contextlib.redirect_stdout(io.StringIO()):",
        "    polyroc.cli.main(['--help'])",
    ]
)


def help_process_time():
    """Median wall time of the whole ``python -m polyroc.cli --help`` process (start-up included)."""
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "polyroc.cli", "--help"], capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    baseline = import_time("import sklearn.metrics")
    rows = [
        import_time("import polyroc"),
        import_time("import polyroc; polyroc.f1_score"),
        import_time("import polyroc; polyroc.tune_thresholds"),
        import_time("import numpy"),
        import_time(HELP),
    ]
    print(f"fresh-process import time, median of {RUNS} runs")
    print(f"{'statement':45s} {'seconds':>8s} {'vs sklearn.metrics':>19s}")
    for statement, seconds in [baseline, *rows]:
        label = "polyroc --help (main(['--help']))" if statement == HELP else statement
        print(f"{label:45s} {seconds:8.3f} {seconds / baseline[1]:18.2f}x")
    print(f"{'python -m polyroc.cli --help, whole process':45s} {help_process_time():8.3f}")


if __name__ == "__main__":
    main()
