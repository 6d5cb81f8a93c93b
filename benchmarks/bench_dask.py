"""polyroc.dask.evaluate on Parquet parts larger than a worker's memory, against in-memory evaluate.

Writes ``--rows`` rows x ``--classes`` float32 scores (and int8 labels) as
Parquet parts of ``--part-rows`` rows into a temporary directory, evaluates
them on a LocalCluster of 2 worker processes (1 thread, ``--memory-limit``
each) and prints the wall time, rows per second and each worker's peak
resident memory (sampled every 0.2 s); then evaluates the first
``--slice-rows`` rows in memory with :func:`polyroc.evaluate` (same rows,
same settings) and prints the ratio of rows per second. Both runs compute
point estimates only (``n_boot=0``); a third line times the default
intervals on the cluster. The data directory is removed at the end.

    python benchmarks/bench_dask.py                      # 1.2e8 rows x 10 classes, 4.5 GiB of scores
    python benchmarks/bench_dask.py --rows 2e6 --part-rows 2e5 --slice-rows 1e6   # a quick check
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import threading
import time

import numpy as np
import pandas as pd
import psutil
from distributed import Client, LocalCluster

import polyroc
from polyroc.dask import evaluate, read_score_files


def write_parts(folder, rows, part_rows, m, seed=0):
    """Parquet parts of Dirichlet-like float32 scores favouring the true class; returns the bytes of scores."""
    rng = np.random.default_rng(seed)
    names = [str(k) for k in range(m)]
    for index, start in enumerate(range(0, rows, part_rows)):
        n = min(part_rows, rows - start)
        y = rng.integers(0, m, n).astype(np.int8)
        alpha = np.ones((n, m))
        alpha[np.arange(n), y] += 1.5
        scores = rng.gamma(alpha)
        scores = (scores / scores.sum(axis=1, keepdims=True)).astype(np.float32)
        table = pd.DataFrame(scores, columns=names)
        table["label"] = y
        table.to_parquet(os.path.join(folder, f"part-{index:05d}.parquet"), index=False)
    return rows * m * 4


class PeakMemory:
    """Largest resident memory of each process, sampled in a thread."""

    def __init__(self, pids):
        self.processes = {pid: psutil.Process(pid) for pid in pids}
        self.peak = dict.fromkeys(pids, 0)
        self.running = True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def sample(self):
        while self.running:
            for pid, process in self.processes.items():
                try:
                    self.peak[pid] = max(self.peak[pid], process.memory_info().rss)
                except psutil.NoSuchProcess:
                    pass
            time.sleep(0.2)

    def stop(self):
        self.running = False
        self.thread.join()
        return self.peak


def in_memory_slice(folder, slice_rows, m):
    """The first ``slice_rows`` rows as (labels, float32 scores)."""
    names = [str(k) for k in range(m)]
    tables, count = [], 0
    for name in sorted(os.listdir(folder)):
        tables.append(pd.read_parquet(os.path.join(folder, name)))
        count += len(tables[-1])
        if count >= slice_rows:
            break
    table = pd.concat(tables).iloc[:slice_rows]
    return table["label"].astype(str).to_numpy(), table[names].to_numpy(), names


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=float, default=1.2e8)
    parser.add_argument("--classes", type=int, default=10)
    parser.add_argument("--part-rows", type=float, default=1e6)
    parser.add_argument("--slice-rows", type=float, default=1e7)
    parser.add_argument("--memory-limit", default="3GiB")
    parser.add_argument("--directory", default=None, help="where to write the parts (default: a temporary folder)")
    args = parser.parse_args()
    rows, part_rows, slice_rows, m = int(args.rows), int(args.part_rows), int(args.slice_rows), args.classes
    folder = tempfile.mkdtemp(prefix="polyroc-dask-", dir=args.directory)
    try:
        start = time.perf_counter()
        score_bytes = write_parts(folder, rows, part_rows, m)
        print(
            f"wrote {rows:,} rows x {m} float32 scores ({score_bytes / 2**30:.2f} GiB of scores) "
            f"in {len(os.listdir(folder))} Parquet parts in {time.perf_counter() - start:.0f} s"
        )
        with (
            LocalCluster(
                n_workers=2, threads_per_worker=1, memory_limit=args.memory_limit, dashboard_address=":0"
            ) as cluster,
            Client(cluster) as client,
        ):
            pids = list(client.run(os.getpid).values())
            frame = read_score_files(os.path.join(folder, "part-*.parquet"))
            monitor = PeakMemory(pids)
            start = time.perf_counter()
            result = evaluate(frame, n_boot=0)
            elapsed = time.perf_counter() - start
            peaks = monitor.stop()
            dask_rate = rows / elapsed
            peak_text = ", ".join(f"{peak / 2**30:.2f} GiB" for peak in peaks.values())
            print(
                f"dask (2 workers x 1 thread, memory limit {args.memory_limit}): {elapsed:.1f} s, "
                f"{dask_rate:,.0f} rows/s, peak resident memory per worker: {peak_text}"
            )
            print(
                f"  accuracy {result.scores['accuracy']:.6f}, OvR macro AUC {result.scores['roc_auc_ovr_macro']:.6f}, "
                f"OvO AUC {result.scores['roc_auc_ovo_macro']:.6f}, micro AUC {result.scores['roc_auc_ovr_micro']:.6f}"
            )
            start = time.perf_counter()
            evaluate(frame, random_state=0)
            print(f"dask with the default intervals (ci='auto', n_boot=1000): {time.perf_counter() - start:.1f} s")
        y, scores, names = in_memory_slice(folder, slice_rows, m)
        start = time.perf_counter()
        polyroc.evaluate(y, scores, labels=names, n_boot=0)
        elapsed = time.perf_counter() - start
        memory_rate = slice_rows / elapsed
        print(f"in-memory evaluate of the first {slice_rows:,} rows: {elapsed:.1f} s, {memory_rate:,.0f} rows/s")
        print(f"rows/s ratio dask / in-memory: {dask_rate / memory_rate:.2f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
