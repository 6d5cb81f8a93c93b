"""Gini-weighted ROC benchmark: a large problem end to end, and the sorted Gini against pairs.

1. ``gini_roc`` on n = 10^6 samples and k = 10 classes (softmax scores with
   ties), exact aggregated curve, vertical and threshold averaging, without
   the bootstrap (``n_boot=0``): prints the wall times.
2. The Gini mean difference of the k whitened-like columns at n = 8,000 by
   ``gini_mean_difference`` (one sort, O(n log n)) against an O(n²) pairwise
   baseline (all |x_a - x_b|, in row blocks, as scipy's ``pdist`` would give):
   prints both times, both values and the ratio baseline / polyroc (target >= 100).

Run: python benchmarks/bench_gini.py [--n N] [--k K] [--n-pairs N]
"""

import argparse
import warnings

import numpy as np
from _common import best_time, make_problem

from polyroc.gini import WhiteningWarning, gini_mean_difference, gini_roc


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
    args = parser.parse_args()

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
