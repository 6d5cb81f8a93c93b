"""Type-I error and power of compare_scores' omnibus tests, and their agreement with independent computations.

Simulation: per data set, n rows with uniform labels over m = 3 classes, a shared logit matrix
``normal + signal * onehot(y)`` and, for each of three models, its own noise ``N(0, noise^2)`` added to the logits
(softmax). Null: the three models have the same noise, so they are exchangeable (equal AUCs and accuracies in the
population, correlated on the rows as models of the same data are). Power: the third model has less noise
(``--better-noise``), so it is better on every quantity. For each n the rejection rates at 5% of the DeLong
chi-squared test (OvR macro and OvO macro AUCs, df 2) and of Cochran's Q (accuracy, df 2) are printed as a markdown
table; the type-I error should lie in 5% +- 1.5% (Monte Carlo standard error 0.7% at 1,000 data sets).

Then two checks on the first data sets of the null: Cochran's Q against statsmodels' ``cochrans_q`` (largest
absolute difference of Q and p; skipped if statsmodels is absent), and for two of the models the DeLong omnibus
p-value against the paired DeLong test's (largest absolute difference). Seeded: data set d of size n uses seed
(seed, n, d).

Run: python benchmarks/omnibus.py [--datasets 1000] [--sizes 100 300 1000] [--seed 0]
"""

import argparse
import time

import numpy as np

from polyroc.comparison import compare_scores
from polyroc.probability import softmax

QUANTITIES = ("roc_auc_ovr_macro", "roc_auc_ovo_macro", "accuracy")
LEVEL = 0.05
M = 3


def simulate(n, seed, noise, better_noise=None):
    """Labels and three models' scores: a shared signal, and per-model noise (the last one's ``better_noise``)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, M, n)
    shared = rng.normal(size=(n, M)) + 1.0 * np.eye(M)[y]
    noises = (noise, noise, noise if better_noise is None else better_noise)
    scores = {name: softmax(shared + s * rng.normal(size=(n, M))) for name, s in zip("abc", noises)}
    return y, scores


def rejection_rates(n, datasets, seed, noise, better_noise=None):
    """Share of data sets whose omnibus p-value is below 5%, per quantity."""
    rejected = dict.fromkeys(QUANTITIES, 0)
    for d in range(datasets):
        y, scores = simulate(n, (seed, n, d), noise, better_noise)
        result = compare_scores(y, scores, quantities=QUANTITIES, labels=np.arange(M))
        for row in result.omnibus_tests:
            rejected[row["quantity"]] += int(row["p_value"] < LEVEL)
    return {quantity: count / datasets for quantity, count in rejected.items()}


def statsmodels_gap(datasets, seed, noise):
    """Largest |Q - Q_sm| and |p - p_sm| of Cochran's Q against statsmodels, or None without statsmodels."""
    try:
        from statsmodels.stats.contingency_tables import cochrans_q
    except ImportError:
        return None
    gap_q = gap_p = 0.0
    for d in range(datasets):
        y, scores = simulate(300, (seed, 300, d), noise)
        hits = np.column_stack([P.argmax(axis=1) == y for P in scores.values()])
        result = compare_scores(y, scores, quantities=["accuracy"])
        reference = cochrans_q(hits.astype(int))
        row = result.omnibus_tests[0]
        gap_q = max(gap_q, abs(row["statistic"] - reference.statistic))
        gap_p = max(gap_p, abs(row["p_value"] - reference.pvalue))
    return gap_q, gap_p


def paired_gap(datasets, seed, noise):
    """Largest |p_omnibus - p_paired| of the DeLong tests of two models, over the AUC quantities."""
    gap = 0.0
    for d in range(datasets):
        y, scores = simulate(300, (seed, 300, d), noise)
        two = {"a": scores["a"], "c": scores["c"]}
        result = compare_scores(y, two, quantities=QUANTITIES[:2])
        for row, test in zip(result.comparisons, result.omnibus_tests):
            gap = max(gap, abs(row["p_value"] - test["p_value"]))
    return gap


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 300, 1000])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--noise", type=float, default=1.0)
    parser.add_argument("--better-noise", type=float, default=0.5)
    args = parser.parse_args()
    start = time.perf_counter()
    print(f"{args.datasets} data sets per cell, m = {M}, three models, level {LEVEL:g}")
    print()
    print("| n | test | type-I error (null) | power (one better model) |")
    print("|---|---|---|---|")
    for n in args.sizes:
        null = rejection_rates(n, args.datasets, args.seed, args.noise)
        power = rejection_rates(n, args.datasets, args.seed, args.noise, args.better_noise)
        for quantity in QUANTITIES:
            test = "Cochran's Q" if quantity == "accuracy" else "DeLong chi-squared"
            print(f"| {n} | {test}, {quantity} | {100 * null[quantity]:.1f}% | {100 * power[quantity]:.1f}% |")
    checks = min(args.datasets, 200)
    gaps = statsmodels_gap(checks, args.seed, args.noise)
    print()
    if gaps is None:
        print("statsmodels is not installed: Cochran's Q not compared")
    else:
        print(f"Cochran's Q against statsmodels cochrans_q, {checks} data sets: ", end="")
        print(f"max |dQ| {gaps[0]:.2e}, max |dp| {gaps[1]:.2e}")
    gap = paired_gap(checks, args.seed, args.noise)
    print(f"DeLong omnibus (K = 2) against the paired DeLong test, {checks} data sets: max |dp| {gap:.2e}")
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
