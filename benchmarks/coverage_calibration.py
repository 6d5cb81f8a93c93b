"""Coverage study of the intervals of the binned ECEs of ``polyroc.evaluate`` (``coverage.py --calibration``).

Data model, with known truth: true probabilities q ~ Dirichlet(1, ..., 1)
over m classes, labels drawn from q, and reported scores p = a known map of
q: temperature T (p proportional to q^(1/T)): T = 0.5 over-confident, T =
1.5 under-confident, T = 1 calibrated (the true ECE is 0); and a class-wise
power map (p proportional to q_j^(a_j), a_j from 0.6 to 1.6 over the
classes). The estimand is the population binned ECE with the same 15
uniform bins, top-label and classwise: per bin, its share of the rows and
the gap between the mean of q (of the top label, or of the class) and the
mean of p, by Monte Carlo with --truth-draws rows (default 10^7; seeded, cached in --truth-cache).

Each data set (n rows, seeded by its scenario and replicate) is summarised
by its calibration bins (``polyroc.evaluation._calibration.CalibrationBins``,
what ``evaluate`` computes) and every candidate interval is computed from
the same bins: draws around the observed gaps read as a percentile or a basic
interval, and draws around the debiased gaps read as a basic interval (the
library's). ``--row-bootstrap`` adds ``evaluate(..., ci="bootstrap")``'s
stratified row bootstrap (slow: only for n <= 1000). A scenario is marked
sparse when, in more than half of its data sets, some non-empty bin held fewer
than 10 rows (the target, 93%, is for the other scenarios).

Run: python benchmarks/coverage.py --calibration [--datasets 500] [--workers 2] [--n-draws 1000]
     [--sizes 100,1000,10000,100000] [--classes 3,10] [--row-bootstrap]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np

from polyroc.evaluation._calibration import ECE_BINS, CalibrationBins
from polyroc.intervals._calibration_draws import ECE_SCORES, ece_bounds_by_rule

CONFIDENCE = 0.95
STUDY_ENTROPY = 20_261_127
TRUTH_ENTROPY = 20_261_128
RULES = ("percentile", "basic", "debiased", "inverted", "union-full", "union")
MAPS = ("T=0.5", "T=1", "T=1.5", "power")


def mapped(q: np.ndarray, name: str) -> np.ndarray:
    """The reported scores of true probabilities q (n, m) under the map ``name``."""
    m = q.shape[1]
    if name == "power":
        exponents = np.linspace(0.6, 1.6, m)
    else:
        exponents = np.full(m, 1.0 / float(name.removeprefix("T=")))
    with np.errstate(divide="ignore"):
        logs = exponents * np.log(q)
    logs -= logs.max(axis=1, keepdims=True)
    p = np.exp(logs)
    return p / p.sum(axis=1, keepdims=True)


def draw(rng: np.random.Generator, n: int, m: int, name: str):
    """One data set: labels drawn from q ~ Dirichlet(1), scores p = map(q)."""
    q = rng.dirichlet(np.ones(m), size=n)
    y = (rng.random(n)[:, None] > np.cumsum(q, axis=1)).sum(axis=1)
    return np.minimum(y, m - 1), q, mapped(q, name)


def population_eces(m: int, name: str, draws: int) -> dict:
    """The population ECEs (top-label, classwise) and the bins' shares, by Monte Carlo (expected hits: q)."""
    rng = np.random.default_rng([TRUTH_ENTROPY, m, zlib.crc32(name.encode())])
    weight = np.zeros((m + 1, ECE_BINS))
    gap = np.zeros((m + 1, ECE_BINS))
    for start in range(0, draws, 10**6):
        size = min(10**6, draws - start)
        q = rng.dirichlet(np.ones(m), size=size)
        p = mapped(q, name)
        top = p.argmax(axis=1)
        columns = [(p[np.arange(size), top], q[np.arange(size), top])] + [(p[:, k], q[:, k]) for k in range(m)]
        for c, (score, truth) in enumerate(columns):
            codes = np.minimum((score * ECE_BINS).astype(int), ECE_BINS - 1)
            weight[c] += np.bincount(codes, minlength=ECE_BINS)
            gap[c] += np.bincount(codes, weights=truth - score, minlength=ECE_BINS)
    share = weight / weight.sum(axis=1, keepdims=True)
    errors = np.abs(gap).sum(axis=1) / weight.sum(axis=1)
    return {"ece_top_label": float(errors[0]), "ece_classwise": float(errors[1:].mean()), "share": share.tolist()}


def load_truths(cells, draws, cache_path):
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    for m, name in sorted({(m, name) for _, m, name in cells}):
        key = f"m{m}-{name}-{draws}"
        if key not in cache:
            cache[key] = population_eces(m, name, draws)
            cache_path.write_text(json.dumps(cache))
    return {(m, name): cache[f"m{m}-{name}-{draws}"] for _, m, name in cells}


def run_cell(job):
    """Every record of one scenario: (rule, quantity, covered, width) per data set, and its sparse count."""
    n, m, name, truth, datasets, n_draws, row_bootstrap = job
    records, sparse = [], np.zeros(2, dtype=int)
    for replicate in range(datasets):
        rng = np.random.default_rng([STUDY_ENTROPY, n, m, zlib.crc32(name.encode()), replicate])
        y, _, p = draw(rng, n, m, name)
        bins = CalibrationBins.of(y, p, None)
        thin = (bins.rows > 0) & (bins.rows < 10)
        sparse += np.array([thin[0].any(), thin[1:].any()])
        totals, factor = bins.totals(), bins.design_factor()
        options = {"confidence": CONFIDENCE, "n_draws": n_draws, "rng": rng, "design_factor": factor}
        found = ece_bounds_by_rule(totals, rules=RULES, **options)
        if row_bootstrap and n <= 1000:
            import warnings

            from polyroc import evaluate

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = evaluate(y, p, ci={q: "bootstrap" for q in ECE_SCORES}, n_boot=n_draws, random_state=replicate)
            found["row bootstrap"] = {q: (result.intervals[q].low, result.intervals[q].high) for q in ECE_SCORES}
        for rule, bounds in found.items():
            for quantity, (low, high) in bounds.items():
                records.append((rule, quantity, low <= truth[quantity] <= high, high - low, high < truth[quantity]))
    return (n, m, name), records, sparse


def table_lines(results, truths, datasets):
    lines = []
    rules = sorted({record[0] for records, _ in results.values() for record in records}, key=_rule_order)
    for quantity in ECE_SCORES:
        lines += [f"### {quantity}", "", "| scenario | true ECE | " + " | ".join(rules) + " |"]
        lines.append("|---|---|" + "---|" * len(rules))
        ordered = sorted(results.items(), key=lambda item: (item[0][2], item[0][1], item[0][0]))
        for (n, m, name), (records, sparse_counts) in ordered:
            sparse = sparse_counts[ECE_SCORES.index(quantity)]
            marked = sparse > datasets / 2
            cells = []
            for rule in rules:
                rows = [(covered, width) for r, q, covered, width, _ in records if r == rule and q == quantity]
                coverage = 100 * np.mean([covered for covered, _ in rows])
                width = np.mean([width for _, width in rows])
                text = f"{coverage:.1f}"
                if coverage < 93 and not marked:
                    text = f"**{text}**"
                cells.append(f"{text} ({width:.3f})")
            label = f"{name} n={n} m={m}" + (f" (sparse {100 * sparse / datasets:.0f}%)" if marked else "")
            lines.append(f"| {label} | {truths[(m, name)][quantity]:.4f} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def miss_lines(results):
    """Per scenario and ECE, the share of the library's intervals (union) that lie wholly below the truth."""
    lines = ["Misses of the union interval wholly below the truth (% of data sets, of all misses):", ""]
    for (n, m, name), (records, _) in sorted(results.items(), key=lambda item: (item[0][2], item[0][1], item[0][0])):
        for quantity in ECE_SCORES:
            rows = [(covered, below) for r, q, covered, _, below in records if r == "union" and q == quantity]
            missed = sum(not covered for covered, _ in rows)
            below = sum(below for _, below in rows)
            lines.append(f"- {name} n={n} m={m} {quantity}: {100 * below / len(rows):.1f}% below, {missed} misses")
    return lines


def _rule_order(rule):
    order = (*RULES, "row bootstrap")
    return order.index(rule) if rule in order else len(order)


def parse_arguments(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibration", action="store_true", help="(the flag of coverage.py that runs this study)")
    parser.add_argument("--datasets", type=int, default=500, help="simulated data sets per scenario")
    parser.add_argument("--n-draws", type=int, default=1000, help="draws of the bins per interval")
    parser.add_argument("--sizes", default="100,1000,10000,100000", help="values of n, comma separated")
    parser.add_argument("--classes", default="3,10", help="values of m, comma separated")
    parser.add_argument("--maps", default=",".join(MAPS), help="score maps, comma separated")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--row-bootstrap", action="store_true", help="also evaluate's row bootstrap (n <= 1000)")
    parser.add_argument("--truth-draws", type=int, default=10**7, help="Monte Carlo rows of the truths")
    parser.add_argument(
        "--truth-cache",
        default=str(Path(tempfile.gettempdir()) / "polyroc-coverage-calibration-truths.json"),
        help="JSON file caching the Monte Carlo truths",
    )
    return parser.parse_args(argv)


def main(argv=None):
    started = time.perf_counter()
    args = parse_arguments(argv)
    for variable in ("POLYROC_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    cells = [
        (int(n), int(m), name)
        for name in args.maps.split(",")
        for m in args.classes.split(",")
        for n in args.sizes.split(",")
    ]
    truths = load_truths(cells, args.truth_draws, Path(args.truth_cache))
    print(f"truths ready ({time.perf_counter() - started:,.0f} s)", file=sys.stderr, flush=True)
    jobs = [
        (n, m, name, truths[(m, name)], args.datasets, args.n_draws, args.row_bootstrap)
        for n, m, name in sorted(cells, key=lambda cell: -cell[0] * cell[1])
    ]
    results = {}
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for key, records, sparse in pool.imap_unordered(run_cell, jobs):
            results[key] = (records, sparse)
            elapsed = time.perf_counter() - started
            print(f"{len(results)}/{len(jobs)} scenarios done ({elapsed:,.0f} s)", file=sys.stderr, flush=True)
    print(f"## Calibration errors\n\nCoverage % of nominal {100 * CONFIDENCE:g}% intervals (mean width),")
    print(f"{args.datasets:,} data sets per scenario, {args.n_draws} draws per interval; bold: below 93% in a")
    print("scenario that is not sparse (sparse: in more than half of the data sets some non-empty bin of the")
    print("ECE's columns holds fewer than 10 rows; the share of such data sets in brackets).\n")
    print("\n".join(table_lines(results, truths, args.datasets)))
    print("\n".join(miss_lines(results)))
    print(f"Total wall time: {time.perf_counter() - started:,.0f} s")
    return 0
