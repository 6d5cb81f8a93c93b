"""Gini-weighted ROC benchmark: a large problem end to end, and the sorted Gini against pairs.

1. ``gini_roc`` on n = 10^6 samples and k = 10 classes (softmax scores with
   ties), exact aggregated curve, vertical and threshold averaging, without
   the bootstrap (``n_boot=0``): prints the wall times.
2. The Gini mean difference of the k whitened-like columns at n = 8,000 by
   ``gini_mean_difference`` (one sort, O(n log n)) against an O(n²) pairwise
   baseline (all |x_a - x_b|, in row blocks, as scipy's ``pdist`` would give):
   prints both times, both values and the ratio baseline / polyroc (target >= 100).
3. The default bootstrap (``n_boot=1000``, ``absent="drop"``, as the report
   calls it) on Dirichlet-like probability scores at each ``--sizes`` entry:
   BEFORE is the previous implementation (one replicate at a time: every
   column re-sorted, exact aggregated curve per replicate), copied below as
   the in-run baseline and timed on ``--baseline-seconds`` worth of replicates
   (at least 2), extrapolated to ``--n-boot``; AFTER is ``gini_roc`` with the
   full ``--n-boot``. Both include the point estimate. Prints both times,
   the ratio BEFORE / AFTER and the largest difference between the
   replicates of the two (same draws) on the replicates the baseline ran.

Run: python benchmarks/bench_gini.py [--n N] [--k K] [--n-pairs N] [--sizes 1e4x10,1e5x20] [--n-boot B]
     [--skip-large]
"""

import argparse
import time
import warnings

import numpy as np
from _common import best_time, dirichlet_problem, make_problem

from polyroc._validation import check_random_state
from polyroc.gini import WhiteningWarning, gini_mean_difference, gini_roc
from polyroc.gini._aggregate import class_curves
from polyroc.gini._roc import BAND_POINTS, _aggregate, _replicate_weights, _VerticalReplicates
from polyroc.resampling import bootstrap_multiplicities

OPTIONS = {"singular": "limit", "ridge": None, "constant": "drop"}


def previous_replicates(y, scores, n_boot, random_state, budget_seconds):
    """The previous bootstrap loop (vertical averaging, exact curve, W refitted): one replicate at a time.

    Stops once at least 2 replicates ran and ``budget_seconds`` are spent;
    returns their weights, band TPR and areas.
    """
    start = time.perf_counter()
    classes = np.arange(scores.shape[1])
    present = np.bincount(y, minlength=classes.size) > 0
    weights, tpr, auc = [], [], []
    for chunk in bootstrap_multiplicities(y, n_boot, random_state=check_random_state(random_state)):
        for replicate in chunk:
            share = _replicate_weights(scores, replicate, present, classes, None, OPTIONS)
            curves = class_curves(y, scores, replicate)
            weights.append(np.full(classes.size, np.nan) if share is None else share)
            tpr.append(_aggregate(y, scores, replicate, curves, share, BAND_POINTS, "vertical").tpr)
            auc.append(_aggregate(y, scores, replicate, curves, share, None, "vertical").auc)
            if len(auc) >= 2 and time.perf_counter() - start >= budget_seconds:
                return np.array(weights), np.array(tpr), np.array(auc)
    return np.array(weights), np.array(tpr), np.array(auc)


def batched_replicates(y, scores, n_boot, random_state, count):
    """The first ``count`` replicates of the batched engine (same draws as the previous loop)."""
    classes = np.arange(scores.shape[1])
    present = np.bincount(y, minlength=classes.size) > 0
    rng = check_random_state(random_state)
    engine = _VerticalReplicates(y, scores, None, present, classes, None, OPTIONS, None, n_boot, rng)
    return engine((0, count))


def bootstrap_before_after(n, m, n_boot, baseline_seconds):
    y, scores = dirichlet_problem(n, m)
    start = time.perf_counter()
    point = gini_roc(y, scores, absent="drop", n_boot=0)
    point_seconds = time.perf_counter() - start
    start = time.perf_counter()
    old = previous_replicates(y, scores, n_boot, 0, baseline_seconds)
    spent, count = time.perf_counter() - start, old[2].size
    before = point_seconds + spent * n_boot / count
    start = time.perf_counter()
    result = gini_roc(y, scores, absent="drop", n_boot=n_boot, random_state=0)
    after = time.perf_counter() - start
    new = batched_replicates(y, scores, n_boot, 0, count)
    difference = max(float(np.nanmax(np.abs(a - b))) for a, b in zip(old, new))
    assert result.auc_agg == point.auc_agg
    extrapolated = "" if count == n_boot else f" (baseline: {count} replicates, extrapolated)"
    print(
        f"  n={n:>9,} m={m:>2}: BEFORE {before:9.1f} s  AFTER {after:7.2f} s  ratio {before / after:7.1f}x  "
        f"max |replicate difference| {difference:.1e}{extrapolated}"
    )


def pairwise_mean_difference(X, block=256):
    """O(n²) baseline: Σ_{a≠b} |x_a - x_b| / (n (n - 1)) per column, block by block."""
    n = X.shape[0]
    total = np.zeros(X.shape[1])
    for start in range(0, n, block):
        total += np.abs(X[start : start + block, None, :] - X[None, :, :]).sum(axis=(0, 1))
    return total / (n * (n - 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--n-pairs", type=int, default=8_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="1e4x10,1e5x10,1e5x20,1e6x10")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--baseline-seconds", type=float, default=20.0)
    parser.add_argument("--skip-large", action="store_true", help="skip parts 1 and 2")
    args = parser.parse_args()

    print(f"Gini bootstrap, n_boot={args.n_boot}, absent='drop' (BEFORE: previous loop, AFTER: batched):")
    for size in args.sizes.split(","):
        n, m = size.lower().split("x")
        bootstrap_before_after(int(float(n)), int(m), args.n_boot, args.baseline_seconds)
    if args.skip_large:
        return

    y, P = make_problem(args.n, args.k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)  # softmax rows: singular, as expected
        seconds, result = best_time(lambda: gini_roc(y, P, n_boot=0), 1)
    print(
        f"gini_roc n={args.n:,} k={args.k}: {seconds:.2f} s  "
        f"(auc_agg {result.auc_agg:.6f}, {result.fpr.size:,} curve points, "
        f"whitening {result.settings['whitening']!r})"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        seconds, result = best_time(lambda: gini_roc(y, P, averaging="threshold", n_boot=0), 1)
    print(
        f"gini_roc n={args.n:,} k={args.k}, averaging='threshold': {seconds:.2f} s  "
        f"(auc_agg {result.auc_agg:.6f}, {result.fpr.size:,} curve points)"
    )

    X = make_problem(args.n_pairs, args.k, seed=1)[1] @ np.random.default_rng(2).normal(size=(args.k, args.k))
    fast_time, fast = best_time(lambda: gini_mean_difference(X), args.repeat)
    slow_time, slow = best_time(lambda: pairwise_mean_difference(X), 1)
    agree = np.allclose(fast, slow, rtol=1e-10)
    print(f"Gini mean difference n={args.n_pairs:,}, {args.k} columns:")
    print(f"  polyroc (sort)   {fast_time * 1e3:10.2f} ms  first column {fast[0]:.15g}")
    print(f"  pairwise O(n^2)  {slow_time * 1e3:10.2f} ms  first column {slow[0]:.15g}")
    print(f"  same values (rtol 1e-10): {agree}; ratio pairwise / polyroc = {slow_time / fast_time:.0f}x")


if __name__ == "__main__":
    main()
