"""Simplex threshold tuning: polyroc against a one-tau-at-a-time brute force, in one run.

The baseline is what the reference code does, vectorised per threshold: for
each tau, predictions argmax(P - tau), then the metric (scikit-learn's macro F1
or accuracy) — one call per tau. It is run over the same thresholds and must
find the same best score. Cases (the scale targets of polyroc's simplex threshold tuning):

- m = 3, lattice r = 200 (20,301 thresholds), n = 3,000, macro-F1 (target >= 100x)
- m = 4, lattice r = 50 (23,426 thresholds), n = 11,000, macro-F1 (target >= 50x)
- the same m = 3 case on tied scores: probabilities rounded to 2 decimals and the
  shares of 10 votes (k-NN-like), where samples lie exactly on lattice breakpoints
- m = 10, random search 10^5 thresholds, n = 12,000: completes; peak RSS for
  10^4 and 10^5 thresholds, each in a fresh process, shows memory does not grow
  with the number of thresholds.
- default settings at many classes (n = 10^4, 10^5, 10^6 at m = 10; 10^5 at
  m = 20): tune_thresholds and roc_cloud with their defaults (AFTER) against
  the former defaults, the brute-force lattice of at most 25,000 points
  (r = 8 at m = 10, r = 4 at m = 20) on one thread (BEFORE). A BEFORE run
  longer than --before-budget seconds is stopped and extrapolated from the
  share of the lattice done (the brute force is linear in the lattice size).
  Also printed: the tuned macro-F1 against argmax's, i.e. whether the search
  moved away from argmax at all.

Run: python benchmarks/bench_thresholds.py [--quick] [--only-defaults] [--before-budget SECONDS]
"""

import argparse
import os
import resource
import subprocess
import sys
import time

import numpy as np
from sklearn.metrics import accuracy_score, f1_score

from polyroc.counts import get_metric
from polyroc.thresholds import (
    default_resolution,
    iter_lattice,
    lattice_size,
    roc_cloud,
    threshold_batches,
    tune_thresholds,
)


def make_scores(n, m, seed=0):
    """Imbalanced labels and Dirichlet scores that favour the true class."""
    rng = np.random.default_rng(seed)
    prior = rng.dirichlet(np.full(m, 4.0))
    y = rng.choice(m, size=n, p=prior)
    alpha = np.ones((n, m)) + 3.0 * np.eye(m)[y] * rng.uniform(0.3, 1.5, size=(n, 1))
    return y, rng.gamma(alpha)


def normalised(scores):
    return scores / scores.sum(axis=1, keepdims=True)


def baseline_best(y, P, thresholds, metric):
    """One tau at a time: argmax(P - (tau - min tau)) (polyroc's float64 rule), then a scikit-learn metric call."""
    labels = np.arange(P.shape[1])
    if metric == "f1_macro":

        def score(pred):
            return f1_score(y, pred, labels=labels, average="macro", zero_division=0)

    else:

        def score(pred):
            return accuracy_score(y, pred)

    return max(score(np.argmax(P - (tau - tau.min()), axis=1)) for tau in thresholds)


TIED_SCORES = {
    None: lambda P: P,
    "rounded": lambda P: np.round(P, 2),
    "votes": lambda P: np.round(P * 10) / 10,
}


def lattice_case(m, resolution, n, metric, baseline_fraction, tied=None):
    y, P = make_scores(n, m)
    P = TIED_SCORES[tied](normalised(P))
    P = normalised(P)
    # the lattice plus the barycentre, exactly as the tuner searches
    thresholds = np.vstack([next(iter_lattice(m, resolution, chunk_size=10**7)) / resolution, np.full((1, m), 1 / m)])
    start = time.perf_counter()
    result = tune_thresholds(y, P, metric=metric, resolution=resolution)
    ours = time.perf_counter() - start
    count = max(1, int(len(thresholds) * baseline_fraction))
    subset = (
        thresholds
        if count == len(thresholds)
        else thresholds[np.random.default_rng(1).choice(len(thresholds), count, replace=False)]
    )
    start = time.perf_counter()
    best = baseline_best(y, P, subset, metric)
    theirs = (time.perf_counter() - start) * len(thresholds) / count
    if count < len(thresholds):
        same = f"baseline timed on {count:,} of {len(thresholds):,} taus (extrapolated)"
    elif abs(best - result.best_score) < 1e-12:
        same = "same best score"
    else:
        same = f"DIFFERENT best score: baseline {best}"
    print(
        f"m={m:<3} r={resolution:<4} n={n:<7,} {metric:<9} {tied or 'continuous':<10} M={len(thresholds):<8,} "
        f"polyroc {ours:8.3f} s  baseline {theirs:8.2f} s  ratio {theirs / ours:7.0f}x  "
        f"best {result.best_score:.6f}  {same}"
    )


def random_case_child(n_thresholds):
    y, P = make_scores(12_000, 10, seed=2)
    P = normalised(P)
    start = time.perf_counter()
    result = tune_thresholds(y, P, metric="f1_macro", search="random", n_samples=n_thresholds, random_state=0)
    elapsed = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{elapsed:.3f} {peak_mib:.1f} {result.best_score:.6f} {result.argmax_score:.6f}")


def random_case():
    for n_thresholds in (10_000, 100_000):
        out = subprocess.run(
            [sys.executable, __file__, "--random-child", str(n_thresholds)], check=True, capture_output=True, text=True
        ).stdout.split()
        elapsed, peak, best, argmax = out
        print(
            f"m=10 random M={n_thresholds:<8,} n=12,000 f1_macro: {float(elapsed):7.2f} s, "
            f"peak RSS {float(peak):7.1f} MiB, best {best} (argmax {argmax})"
        )


def dirichlet_scores(n, m):
    """The shared timing generator: uniform labels, gamma scores favouring the true class by 1.5."""
    rng = np.random.default_rng(0)
    y = rng.integers(0, m, n)
    alpha = np.ones((n, m))
    alpha[np.arange(n), y] += 1.5
    scores = rng.gamma(alpha)
    return y, scores / scores.sum(axis=1, keepdims=True)


def former_default_lattice(y, P, budget):
    """The former default of tune_thresholds and roc_cloud: every point of the default lattice, one thread.

    Returns (seconds, share of the lattice done, best macro-F1 over the points done).
    """
    m = P.shape[1]
    resolution = default_resolution(m)
    total = lattice_size(m, resolution)
    previous = os.environ.get("POLYROC_THREADS")
    os.environ["POLYROC_THREADS"] = "1"
    start, done, best = time.perf_counter(), 0, -np.inf
    try:
        batches = threshold_batches(y, P, resolution=resolution, include_barycentre=False)
        for thresholds, counts in batches:
            best = max(best, float(get_metric("f1_macro")(counts).max()))
            done += thresholds.shape[0]
            if time.perf_counter() - start > budget:
                break
    finally:
        if previous is None:
            del os.environ["POLYROC_THREADS"]
        else:
            os.environ["POLYROC_THREADS"] = previous
    return time.perf_counter() - start, done / total, best


def defaults_case(n, m, budget):
    y, P = dirichlet_scores(n, m)
    resolution = default_resolution(m)
    before, share, before_best = former_default_lattice(y, P, budget)
    before_total = before / share
    start = time.perf_counter()
    tuned = tune_thresholds(y, P)
    tune_after = time.perf_counter() - start
    start = time.perf_counter()
    cloud = roc_cloud(y, P)
    cloud_after = time.perf_counter() - start
    note = "" if share == 1 else f" (extrapolated from {share:.1%} of the lattice)"
    print(
        f"n={n:<9,} m={m:<3} BEFORE lattice r={resolution} ({lattice_size(m, resolution):,} taus, 1 thread): "
        f"{before_total:8.1f} s per call{note}"
    )
    print(
        f"    AFTER tune_thresholds: {tune_after:6.2f} s ({tuned.search}, start r={tuned.resolution})  "
        f"ratio {before_total / tune_after:6.1f}x;  macro-F1 argmax {tuned.argmax_score:.4f} -> tuned "
        f"{tuned.best_score:.4f} (former lattice best {before_best:.4f}{' so far' if share < 1 else ''}); "
        f"equals_argmax={tuned.equals_argmax}"
    )
    print(
        f"    AFTER roc_cloud:       {cloud_after:6.2f} s ({cloud.settings['search']}, "
        f"{cloud.n_thresholds:,} taus)  ratio {before_total / cloud_after:6.1f}x;  overall DFP {cloud.dfp_overall:.4f}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="time the baseline on 10%% of the thresholds and extrapolate"
    )
    parser.add_argument("--random-child", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--only-defaults", action="store_true", help="run only the default-settings cases")
    parser.add_argument(
        "--before-budget", type=float, default=60.0, help="seconds after which a BEFORE run is extrapolated"
    )
    args = parser.parse_args()
    if args.random_child:
        random_case_child(args.random_child)
        return
    for n, m in ((10**4, 10), (10**5, 10), (10**6, 10), (10**5, 20)):
        defaults_case(n, m, args.before_budget)
    if args.only_defaults:
        return
    fraction = 0.1 if args.quick else 1.0
    lattice_case(3, 200, 3_000, "f1_macro", fraction)
    lattice_case(4, 50, 11_000, "f1_macro", fraction)
    lattice_case(3, 200, 3_000, "accuracy", fraction)
    lattice_case(3, 200, 3_000, "f1_macro", fraction, tied="rounded")
    lattice_case(3, 200, 3_000, "f1_macro", fraction, tied="votes")
    random_case()


if __name__ == "__main__":
    main()
