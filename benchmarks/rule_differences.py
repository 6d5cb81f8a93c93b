"""Coverage study: the paired t interval of a difference of expected costs between two decision rules.

:func:`polyroc.thresholds.compare_rules` bounds the difference of two rules'
expected costs on test (tuned, bayes minus argmax; tuned minus bayes) by the
paired t of the per-row costs ``C[y, d]``
(:func:`polyroc.intervals.paired_loss_difference`) with the plain variance of
the per-row differences (one stratum). This script measures its coverage, and
that of the class-stratified variance (the variance of
:func:`polyroc.evaluate`'s cost interval, conditional on the class counts).

Data model: rows are i.i.d.; each has class probabilities q ~ Dirichlet(ALPHA)
(a rare third class) and a label drawn from q, and the scores are q
(calibrated). Costs ``COSTS``: missing the rare class costs 5. The rules are
fixed: argmax, the Bayes rule argmin_d sum_k q_k C[k, d], and the rule
argmax(q - tau) with tau tuned once for the least expected cost on a seeded
validation sample of 20,000 rows (``polyroc.tune_thresholds``, resolution 30).
The true difference of two rules is the mean over --truth-draws rows of
sum_k q_k (C[k, d1] - C[k, d2]) (seeded; its Monte Carlo standard error is
printed). Each of --datasets data sets of n rows (n in --sizes) gives both
95% intervals of each difference; the table gives the coverage (%) and the
mean width.

Run: python benchmarks/rule_differences.py [--datasets 4000] [--sizes 100,1000] [--truth-draws 1000000]
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from polyroc import tune_thresholds
from polyroc.intervals import paired_loss_difference
from polyroc.thresholds import apply_thresholds

ALPHA = np.array([1.5, 1.5, 0.5])
COSTS = np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 1.0], [5.0, 5.0, 0.0]])
PAIRS = (("tuned", "argmax"), ("bayes", "argmax"), ("tuned", "bayes"))


def draw(rng, n):
    """n rows: calibrated scores q and labels drawn from them."""
    q = rng.dirichlet(ALPHA, n)
    y = (rng.random(n)[:, None] > q.cumsum(axis=1)).sum(axis=1)
    return np.minimum(y, ALPHA.size - 1), q


def decisions(q, tau):
    """The class codes of the three rules."""
    return {"argmax": q.argmax(axis=1), "tuned": apply_thresholds(q, tau), "bayes": np.argmin(q @ COSTS, axis=1)}


def truths(tau, n_draws, seed):
    """True difference of each pair and its Monte Carlo standard error, by conditional expectation over q."""
    q = np.random.default_rng(seed).dirichlet(ALPHA, n_draws)
    expected = q @ COSTS  # (n, m): the expected cost of each decision given q
    rules = decisions(q, tau)
    rows = np.arange(n_draws)
    out = {}
    for first, second in PAIRS:
        diff = expected[rows, rules[first]] - expected[rows, rules[second]]
        out[(first, second)] = (float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(n_draws)))
    return out


def study(n, n_sets, tau, truth, seed):
    """Coverage (%) and mean width of the plain and the stratified intervals of each pair at n rows."""
    hits = {(pair, kind): [] for pair in PAIRS for kind in ("plain", "stratified")}
    widths = {key: [] for key in hits}
    children = np.random.SeedSequence([seed, n]).spawn(n_sets)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a class with one row adds nothing to the stratified variance
        for child in children:
            y, q = draw(np.random.default_rng(child), n)
            rules = decisions(q, tau)
            for pair in PAIRS:
                first, second = COSTS[y, rules[pair[0]]], COSTS[y, rules[pair[1]]]
                for kind, strata, m in (("plain", np.zeros(n, dtype=np.intp), 1), ("stratified", y, 3)):
                    _, low, high, _ = paired_loss_difference(first, second, strata, m)
                    hits[(pair, kind)].append(low <= truth[pair][0] <= high)
                    widths[(pair, kind)].append(high - low)
    return {key: (100 * np.mean(hits[key]), float(np.mean(widths[key]))) for key in hits}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=4000)
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--truth-draws", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    start = time.perf_counter()
    y_val, q_val = draw(np.random.default_rng(args.seed), 20_000)
    tau = tune_thresholds(y_val, q_val, metric="expected_cost", cost_matrix=COSTS, resolution=30).best_threshold
    truth = truths(tau, args.truth_draws, args.seed + 1)
    print(f"tau = {np.round(tau, 4).tolist()}; {args.datasets} data sets per n; truth from {args.truth_draws} draws")
    print(
        "| n | difference | truth (MC s.e.) | plain: coverage % | plain: width "
        "| stratified: coverage % | stratified: width |"
    )
    print("|---|---|---|---|---|---|---|")
    for n in (int(size) for size in args.sizes.split(",")):
        found = study(n, args.datasets, tau, truth, args.seed)
        for pair in PAIRS:
            (plain, plain_width), (strat, strat_width) = found[(pair, "plain")], found[(pair, "stratified")]
            value, error = truth[pair]
            print(
                f"| {n} | {pair[0]} − {pair[1]} | {value:.4f} ({error:.4f}) | {plain:.1f} | {plain_width:.4f} "
                f"| {strat:.1f} | {strat_width:.4f} |"
            )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
