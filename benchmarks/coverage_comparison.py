"""Coverage study: the paired intervals of compare_scores for log loss, Brier score and binned ECE.

Data model: each row has true class probabilities q ~ Dirichlet(CONCENTRATION
* 1_m) and a label drawn from q. Two models score the same rows: "raw", the
over-confident map p = softmax(log q / T) with T = 0.6, and "calibrated", q
itself. The quantity is the difference raw − calibrated of the expected log
loss, the expected Brier score and the population binned ECE (15 uniform
bins, l1; top-label and classwise) of the two maps.

True values, by Monte Carlo over --truth-draws rows of q (seeded, cached in
--truth-cache): the expected loss of a map is the mean over rows of
sum_k q_k loss(p, k); the population binned ECE is sum_b P(b) |E[event | b] −
E[score | b]|, the event probability of a row being q at the top label
(top-label) or q_k (classwise), so the ECE of q itself is 0.

Each data set (seeded by its scenario and replicate through
numpy.random.SeedSequence) runs ``compare_scores(y, {"raw": p, "calibrated":
q}, quantities=["log_loss", "brier_score"])`` once: the paired t interval.
Each ECE difference is read from compare_scores' own computation
(``polyroc.intervals._paired_losses.PairedEces``: B stratified replicates,
common to both models, then B draws of each model's bins) three ways: the
basic bootstrap interval, the difference of the two models' bin-draws
intervals at 97.5% each (Bonferroni), and their union, the interval
compare_scores reports. Prints coverage (%) and mean width per quantity,
method and scenario (n in {200, 1000, 10^4} x m in {3, 10}) as a Markdown
table.

``--replicates rows|cells`` forces how the top-label ECE's paired replicates
are drawn (over the rows, or over the joint cells of the two models' bins,
``polyroc._engine.binning.JointCells``); ``auto`` (default) is compare_scores'
choice by size; with ``cells`` only the top-label ECE is read. ``--sizes``
replaces the row counts (e.g. ``--sizes 100000``).

Run: python benchmarks/coverage_comparison.py [--datasets 500] [--n-boot 1000] [--workers 2]
     [--scenarios n200-m3,...] [--replicates auto|rows|cells] [--truth-draws 10000000] [--truth-cache FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import tempfile
import time
from pathlib import Path

import numpy as np

TEMPERATURE = 0.6
CONCENTRATION = 0.5
N_BINS = 15
SIZES = (200, 1000, 10_000)
CLASSES = (3, 10)
QUANTITIES = ("log_loss", "brier_score", "ece_top_label", "ece_classwise")
LOSSES = QUANTITIES[:2]
ECES = QUANTITIES[2:]
READINGS = {
    "basic": "paired stratified basic bootstrap",
    "bonferroni": "difference of bin-draws intervals at 97.5% (Bonferroni)",
    "union": "union of both (compare_scores)",
}
EPS = float(np.finfo(np.float64).eps)
SEED = 20261127


def raw_map(q: np.ndarray) -> np.ndarray:
    """softmax(log q / T), q clipped below at the smallest normal float so that its log is finite."""
    logits = np.log(np.maximum(q, np.finfo(np.float64).tiny)) / TEMPERATURE
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def draw_q(rng: np.random.Generator, n: int, m: int) -> np.ndarray:
    return rng.dirichlet(np.full(m, CONCENTRATION), n)


def draw_labels(rng: np.random.Generator, q: np.ndarray) -> np.ndarray:
    return np.minimum((rng.random(q.shape[0])[:, None] > q.cumsum(axis=1)).sum(axis=1), q.shape[1] - 1)


def _bins(scores: np.ndarray) -> np.ndarray:
    return np.minimum((scores * N_BINS).astype(np.intp), N_BINS - 1)


def _truth_chunk(q: np.ndarray) -> dict:
    """Sums over the rows of one chunk: expected losses and the per-bin totals of the population ECE."""
    sums = {}
    for name, p in (("raw", raw_map(q)), ("calibrated", q)):
        log_loss = -(q * np.log(np.clip(p, EPS, 1 - EPS))).sum(axis=1)
        brier = (p * p).sum(axis=1) - 2 * (p * q).sum(axis=1) + 1
        top = p.argmax(axis=1)
        confidence, event = p[np.arange(q.shape[0]), top], q[np.arange(q.shape[0]), top]
        codes = _bins(confidence)
        per_bin = np.stack(
            [np.bincount(codes, weights=x, minlength=N_BINS) for x in (np.ones_like(event), confidence, event)]
        )
        classwise = np.zeros((q.shape[1], 3, N_BINS))
        for k in range(q.shape[1]):
            codes = _bins(p[:, k])
            classwise[k] = [
                np.bincount(codes, weights=x, minlength=N_BINS) for x in (np.ones(q.shape[0]), p[:, k], q[:, k])
            ]
        sums[name] = {"log_loss": log_loss.sum(), "brier_score": brier.sum(), "top": per_bin, "classwise": classwise}
    return sums


def _ece(totals: np.ndarray) -> float:
    """Population l1 ECE from per-bin (rows, score sum, event sum) along axis -2."""
    rows, score, event = totals[..., 0, :], totals[..., 1, :], totals[..., 2, :]
    gap = np.abs(event - score)  # = rows * |mean event - mean score|
    return float(np.mean(gap.sum(axis=-1) / rows.sum(axis=-1)))


def compute_truth(m: int, draws: int, chunk: int = 10**6) -> dict:
    """The true value of each quantity of each model, and of the difference raw − calibrated."""
    rng = np.random.default_rng(np.random.SeedSequence([SEED, m, 0]))
    total = None
    for start in range(0, draws, chunk):
        sums = _truth_chunk(draw_q(rng, min(chunk, draws - start), m))
        total = (
            sums
            if total is None
            else {name: {key: total[name][key] + value for key, value in part.items()} for name, part in sums.items()}
        )
    truth = {}
    for name, part in total.items():
        truth[name] = {
            "log_loss": float(part["log_loss"] / draws),
            "brier_score": float(part["brier_score"] / draws),
            "ece_top_label": _ece(part["top"]),
            "ece_classwise": _ece(part["classwise"]),
        }
    truth["difference"] = {q: truth["raw"][q] - truth["calibrated"][q] for q in QUANTITIES}
    return truth


def load_truths(classes, draws, cache_path: Path) -> dict:
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    for m in classes:
        key = f"m{m}-T{TEMPERATURE}-a{CONCENTRATION}-bins{N_BINS}-draws{draws}"
        if key not in cache:
            start = time.perf_counter()
            cache[key] = compute_truth(m, draws)
            print(f"truth m={m}: {time.perf_counter() - start:.0f} s", flush=True)
            cache_path.write_text(json.dumps(cache, indent=1))
        cache[m] = cache[key]
    return {m: cache[m] for m in classes}


def run_chunk(job):
    """Coverage records of data sets ``replicates`` of one scenario."""
    os.environ["POLYROC_THREADS"] = "1"
    import warnings

    from polyroc import compare_scores
    from polyroc.intervals._paired_losses import ECE_RULES, PairedEces

    n, m, replicates, truth, n_boot, drawn = job
    records = []
    start = time.perf_counter()
    for replicate in replicates:
        rng = np.random.default_rng(np.random.SeedSequence([SEED, n, m, replicate]))
        q = draw_q(rng, n, m)
        y = draw_labels(rng, q)
        labels = np.arange(m)
        models = {"raw": raw_map(q), "calibrated": q}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a class with one row at n = 200, m = 10: recorded as it comes
            result = compare_scores(y, models, quantities=LOSSES, labels=labels)
        found = [
            (row["quantity"], row["method"], row["low"], row["high"], row["difference"]) for row in result.comparisons
        ]
        generator = np.random.default_rng(int(rng.integers(2**31)))
        for quantity in ECES if drawn != "cells" else ("ece_top_label",):  # cells: one column, the top label
            how = drawn if quantity == "ece_top_label" else "rows"
            paired = PairedEces.of(quantity, y, None, models, n_boot=n_boot, rng=generator, replicates=how)
            bounds = paired.bounds("raw", "calibrated", 0.95)
            d = paired.values["raw"] - paired.values["calibrated"]
            found.extend((quantity, READINGS[rule], *bounds[rule], d) for rule in ECE_RULES)
        for quantity, method, lo, hi, d in found:
            value = truth[quantity]
            below = bool(hi < value)  # the interval misses below the truth
            records.append((n, m, quantity, method, bool(lo <= value <= hi), hi - lo, d - value, below))
    return records, len(replicates), time.perf_counter() - start


def table(records, scenarios) -> str:
    keys = sorted({(r[2], r[3]) for r in records}, key=lambda k: (QUANTITIES.index(k[0]), k[1]))
    header = "| quantity | method | " + " | ".join(f"n={n:,}, m={m}" for n, m in scenarios) + " |"
    lines = [header, "|" + "---|" * (2 + len(scenarios))]
    for quantity, method in keys:
        cells = []
        for n, m in scenarios:
            rows = [r for r in records if r[:4] == (n, m, quantity, method)]
            if not rows:
                cells.append("–")
                continue
            coverage = 100 * np.mean([r[4] for r in rows])
            width = np.mean([r[5] for r in rows])
            below = 100 * np.mean([r[7] for r in rows])
            cells.append(f"{coverage:.1f} ({width:.4f}; {below:.1f} below)")
        lines.append(f"| {quantity} | {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=500, help="simulated data sets per scenario")
    parser.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates of the ECEs")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (at most 2 on a shared machine)")
    parser.add_argument("--chunk", type=int, default=25, help="data sets per chunk of work")
    parser.add_argument("--sizes", default="", help="row counts, comma separated (default 200,1000,10000)")
    parser.add_argument("--scenarios", default="", help="names like n200-m3, comma separated (default all)")
    parser.add_argument("--truth-draws", type=int, default=10**7, help="Monte Carlo rows of the truths")
    parser.add_argument(
        "--truth-cache",
        default=str(Path(tempfile.gettempdir()) / "polyroc_coverage_comparison_truth.json"),
        help="JSON cache of the truths",
    )
    parser.add_argument(
        "--replicates",
        choices=("auto", "rows", "cells"),
        default="auto",
        help="how PairedEces draws the top-label replicates (rows, joint cells, or by size as compare_scores)",
    )
    parser.add_argument("--records", default=None, help="JSON file of the records, rewritten after every chunk")
    parser.add_argument("--from-records", action="store_true", help="print the tables of --records, run nothing")
    args = parser.parse_args()
    sizes = [int(float(size)) for size in args.sizes.split(",")] if args.sizes else SIZES
    scenarios = [(n, m) for n in sizes for m in CLASSES]
    if args.scenarios:
        chosen = set(args.scenarios.split(","))
        scenarios = [(n, m) for n, m in scenarios if f"n{n}-m{m}" in chosen]
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    truths = load_truths(sorted({m for _, m in scenarios}), args.truth_draws, Path(args.truth_cache))
    for m, truth in truths.items():
        print(f"m={m}: true differences " + ", ".join(f"{q} {v:.5f}" for q, v in truth["difference"].items()))
    if args.from_records:
        report([tuple(r) for r in json.loads(Path(args.records).read_text())], scenarios, args)
        return
    jobs = [
        (
            n,
            m,
            range(start, min(start + args.chunk, args.datasets)),
            truths[m]["difference"],
            args.n_boot,
            args.replicates,
        )
        for start in range(0, args.datasets, args.chunk)
        for n, m in scenarios
    ]
    records = []
    start = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for chunk, count, seconds in pool.imap_unordered(run_chunk, jobs, chunksize=1):
            records.extend(chunk)
            if args.records:
                Path(args.records).write_text(json.dumps(records))
            print(
                f"  chunk of {count} data sets, {seconds:.1f} s; {time.perf_counter() - start:.0f} s elapsed",
                flush=True,
            )
    report(records, scenarios, args)


def report(records, scenarios, args):
    counts = {(n, m): sum(1 for r in records if r[:2] == (n, m) and r[2] == "log_loss") for n, m in scenarios}
    print(f"\ndata sets per scenario: {counts}")
    print(f"\n{args.datasets} data sets per scenario, B={args.n_boot}, nominal 95%; coverage % (mean width)\n")
    print(table(records, scenarios))
    bias = {}
    for r in records:
        bias.setdefault((r[0], r[1], r[2]), []).append(r[6])
    print("\nmean estimate − truth of the difference:")
    for (n, m, quantity), values in sorted(bias.items()):
        print(f"  n={n}, m={m}, {quantity}: {np.mean(values):+.5f}")


if __name__ == "__main__":
    main()
