"""Type-I error and power of calibration_test: per-class rejection rates and Holm's family-wise rate.

Null: per data set, n rows of true probabilities drawn from a flat Dirichlet over m classes, each label drawn from
its row's probabilities, and the scores are the true probabilities (calibrated in every sense). Alternative: the
same truth and labels, scores proportional to truth ** T with T = 1.3 (over-confident scores, which temperature
scaling by T would calibrate). For n in {100, 1000, 10^4}, m in {3, 10} and both methods (Spiegelhalter, and
Hosmer-Lemeshow with 10 groups), prints as a markdown table: the rejection rate at 5% of the class rows (unadjusted,
pooled over the m classes; target 5% +- 1.5%), of the top-label row, the family-wise rate (any of the m + 1 rows with
Holm-adjusted p < 5%; should be <= 5%), the undefined rows, and under the alternative the per-class rejection rate
and the rate of any Holm rejection. Seeded: data set d of a cell uses seed (seed, n, m, d).

Run: python benchmarks/calibration_type1.py [--datasets 2000] [--seed 0] [--temperature 1.3]
"""

import argparse
import time
import warnings

import numpy as np

from polyroc.calibration import calibration_test
from polyroc.exceptions import IntervalWarning

SIZES = (100, 1000, 10_000)
CLASSES = (3, 10)
METHODS = ("spiegelhalter", "hosmer-lemeshow")
LEVEL = 0.05


def simulate(n, m, seed):
    """True probabilities from a flat Dirichlet, and labels drawn from them."""
    rng = np.random.default_rng(seed)
    truth = rng.dirichlet(np.ones(m), size=n)
    y = np.minimum((rng.uniform(size=(n, 1)) > truth.cumsum(axis=1)).sum(axis=1), m - 1)
    return y, truth


def sharpened(truth, temperature):
    """Scores proportional to truth ** temperature: over-confident for a temperature above 1."""
    powered = truth**temperature
    return powered / powered.sum(axis=1, keepdims=True)


def cell(n, m, method, datasets, seed, temperature):
    """Counts of rejections over ``datasets`` data sets of one cell, under the null and the alternative."""
    counts = dict.fromkeys(("class", "top", "holm", "undefined", "alt_class", "alt_holm"), 0)
    labels = np.arange(m)
    for d in range(datasets):
        y, truth = simulate(n, m, (seed, n, m, d))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", IntervalWarning)
            null = calibration_test(y, truth, labels=labels, method=method)
            alt = calibration_test(y, sharpened(truth, temperature), labels=labels, method=method)
        counts["class"] += int(np.sum(null.p_value[:m] < LEVEL))
        counts["top"] += int(null.p_value[m] < LEVEL)
        counts["holm"] += int(np.any(null.p_holm < LEVEL))
        counts["undefined"] += int(np.isnan(null.p_value).sum())
        counts["alt_class"] += int(np.sum(alt.p_value[:m] < LEVEL))
        counts["alt_holm"] += int(np.any(alt.p_holm < LEVEL))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--temperature", type=float, default=1.3)
    args = parser.parse_args()
    start = time.perf_counter()
    print(f"{args.datasets} data sets per cell, seed {args.seed}; rates in % at the 5% level")
    print(f"Alternative: scores proportional to truth ** {args.temperature:g}")
    print()
    print(
        "| method | n | m | class rows rejected | top-label rejected | Holm family-wise | undefined rows "
        "| power: class rows | power: any Holm rejection |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for method in METHODS:
        for n in SIZES:
            for m in CLASSES:
                c = cell(n, m, method, args.datasets, args.seed, args.temperature)
                per_class = args.datasets * m
                print(
                    f"| {method} | {n:,} | {m} | {100 * c['class'] / per_class:.2f} "
                    f"| {100 * c['top'] / args.datasets:.2f} | {100 * c['holm'] / args.datasets:.2f} "
                    f"| {c['undefined']} | {100 * c['alt_class'] / per_class:.1f} "
                    f"| {100 * c['alt_holm'] / args.datasets:.1f} |",
                    flush=True,
                )
    print()
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
