"""Memory and speed of the exact evaluation stream (``EvaluationAccumulator``, ``cutoffs=None``).

Each measurement runs in a fresh interpreter, which feeds ``rows`` rows of
continuous scores (Dirichlet-like, 10 classes, no ties) in batches of
``--batch`` rows, then calls ``compute(n_boot=0)``. The batches are drawn one
at a time (seeded), so the data never sit in memory whole. The child prints:

- the growth of its peak resident memory (``ru_maxrss``) from just before
  the first batch to the end, per (row, class) cell, during the updates and
  including ``compute()``; and its ratio to the 8 bytes per cell of the raw
  float64 scores;
- ``nbytes``, the bytes the accumulator's arrays hold at the end, per cell;
- rows per second of the updates alone and with ``compute()``.

Rows per second that stay level from 2 x 10^5 to 2 x 10^6 rows show that an
update does not re-sort what the stream holds (a re-sort per batch falls
like 1/n). ``--src DIR`` measures the polyroc found in DIR instead (e.g. an
older version exported with ``git archive``), for a before/after comparison.

Run: ``python benchmarks/bench_stream.py`` (the 2 x 10^6-row case needs
about 0.5 GiB and a minute; ``--rows 200000 800000`` for a shorter run).
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {benchmarks!r})
import numpy as np
from _common import dirichlet_problem
from polyroc.streaming import EvaluationAccumulator

rows, m, batch, weighted = {rows}, {m}, {batch}, {weighted}
labels = list(range(m))
warm = dirichlet_problem(1000, m, seed=-1 % 2**32)
EvaluationAccumulator(labels).update(*warm).compute(n_boot=0)  # every code path imported and run once
del warm
accumulator = EvaluationAccumulator(labels)
first = dirichlet_problem(min(batch, rows), m, seed=0)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
updating = 0.0
for i, start in enumerate(range(0, rows, batch)):
    y, scores = first if i == 0 else dirichlet_problem(min(batch, rows - start), m, seed=i)
    weights = np.random.default_rng(i).uniform(0.5, 2.0, y.size) if weighted else None
    tick = time.perf_counter()
    accumulator.update(y, scores, sample_weight=weights)
    updating += time.perf_counter() - tick
    del y, scores, weights
first = None
after_updates = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
tick = time.perf_counter()
result = accumulator.compute(n_boot=0)
computing = time.perf_counter() - tick
after_compute = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({{
    "rows": rows,
    "cells": rows * m,
    "peak_updates": after_updates - before,
    "peak_compute": after_compute - before,
    "nbytes": getattr(accumulator, "nbytes", float("nan")),  # an older version has no nbytes
    "update_seconds": updating,
    "compute_seconds": computing,
    "auc": result.scores["roc_auc_ovr_macro"],
}}))
"""


def measure(rows, m, batch, src, weighted=False):
    """One fresh interpreter feeding ``rows`` rows: its JSON record."""
    benchmarks = str(Path(__file__).resolve().parent)
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(Path(src).resolve()), env.get("PYTHONPATH", "")])
    code = CHILD.format(benchmarks=benchmarks, rows=rows, m=m, batch=batch, weighted=weighted)
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    return json.loads(output)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[200_000, 800_000, 2_000_000])
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--batch", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1, help="fresh runs per row count; the fastest is shown")
    parser.add_argument("--src", default=None, help="directory holding the polyroc package to measure")
    parser.add_argument("--weighted", action="store_true", help="sample weights uniform on [0.5, 2] (stored)")
    args = parser.parse_args(argv)
    weights = "weighted" if args.weighted else "unweighted"
    print(f"classes {args.classes}, batches of {args.batch:,} rows, continuous scores, {weights}; raw: 8 bytes/cell")
    header = (
        f"{'rows':>10} {'peak B/cell':>11} {'x raw':>6} {'w/ compute':>10} {'x raw':>6} {'nbytes/cell':>11} "
        f"{'update rows/s':>13} {'with compute':>12}"
    )
    print(header)
    first_rate = None
    for rows in args.rows:
        runs = [measure(rows, args.classes, args.batch, args.src, args.weighted) for _ in range(args.repeat)]
        best = min(runs, key=lambda run: run["update_seconds"] + run["compute_seconds"])
        cells = best["cells"]
        per_cell = max(run["peak_updates"] for run in runs) / cells
        with_compute = max(run["peak_compute"] for run in runs) / cells
        rate = rows / best["update_seconds"]
        total_rate = rows / (best["update_seconds"] + best["compute_seconds"])
        first_rate = first_rate or rate
        print(
            f"{rows:>10,} {per_cell:>11.1f} {per_cell / 8:>6.2f} {with_compute:>10.1f} {with_compute / 8:>6.2f} "
            f"{best['nbytes'] / cells:>11.2f} {rate:>13,.0f} {total_rate:>12,.0f}   (update rate / first: "
            f"{rate / first_rate:.2f})"
        )


if __name__ == "__main__":
    main()
