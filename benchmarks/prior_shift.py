"""Prior shift study: error and interval coverage of the EM and BBSE prior estimates, on data with known priors.

Simulation with known truth. Class i draws a point x of the simplex from the
Dirichlet distribution with alpha = 1 + s e_i (s = ``--signal``, 4 by
default), so the class-conditional densities are known and the posterior at
the training priors pi is exactly ``p_i(x) ∝ pi_i x_i^s``: the training
scores are calibrated. The training priors are uniform. Each data set draws
its deployment priors pi' from Dirichlet(2, ..., 2) (a known shift of a new
size each time), then n_test deployment rows at pi' (their scores are the
posteriors at pi, not at pi') and n_test labelled validation rows at pi
(for BBSE). EM and BBSE (:func:`polyroc.decisions.estimate_priors`) estimate
pi' with their 95% percentile bootstrap intervals.

Per cell (n_test, m): the mean absolute error of the priors (mean over the
classes and the data sets), the coverage of the intervals over all
(data set, class) pairs, and the coverage among the classes of true prior
below 1/(2m) (the small ones, where a percentile interval is most at risk).

Run: ``python benchmarks/prior_shift.py [--datasets 300] [--n-boot 200] [--workers 2]``
(BLAS runs one thread per worker).
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import argparse
import itertools
import json
import time
import warnings
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from polyroc.decisions import estimate_priors

N_TEST = (300, 1000, 10**4, 10**5)
CLASSES = (3, 10)


def calibrated_rows(rng, n, priors, signal):
    """Labels drawn at ``priors`` and the exact posteriors at uniform training priors of Dirichlet-separated points."""
    m = priors.size
    y = rng.choice(m, n, p=priors)
    alpha = np.ones((n, m))
    alpha[np.arange(n), y] += signal
    x = rng.standard_gamma(alpha)
    log_odds = signal * np.log(x / x.sum(axis=1, keepdims=True))
    log_odds -= log_odds.max(axis=1, keepdims=True)
    scores = np.exp(log_odds)
    return y, scores / scores.sum(axis=1, keepdims=True)


def one_dataset(task):
    """Errors and coverage of EM and BBSE on one simulated data set."""
    n_test, m, index, n_boot, signal = task
    rng = np.random.default_rng([n_test, m, index])
    train, target = np.full(m, 1 / m), rng.dirichlet(np.full(m, 2.0))
    _, scores = calibrated_rows(rng, n_test, target, signal)
    y_val, val_scores = calibrated_rows(rng, n_test, train, signal)
    out = {"target": target.tolist()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        estimates = {
            "em": estimate_priors(scores, train_priors=train, n_boot=n_boot, random_state=index),
            "bbse": estimate_priors(
                scores,
                method="bbse",
                y_val=y_val,
                val_scores=val_scores,
                labels=np.arange(m),
                n_boot=n_boot,
                random_state=index,
            ),
        }
    for name, estimate in estimates.items():
        low = np.array([estimate.intervals[c].low for c in range(m)])
        high = np.array([estimate.intervals[c].high for c in range(m)])
        out[name] = {
            "error": np.abs(estimate.priors - target).tolist(),
            "covered": ((low <= target) & (target <= high)).tolist(),
        }
    return n_test, m, out


def safe_dataset(task):
    try:
        return one_dataset(task)
    except ValueError as error:  # a singular validation confusion matrix: BBSE is undefined
        return task[0], task[1], {"failed": str(error)}


def summary(results):
    """One row per cell: MAE and coverage of each method."""
    rows = []
    for (n_test, m), sets in sorted(results.items(), key=lambda item: (item[0][1], item[0][0])):
        done = [s for s in sets if "failed" not in s]
        target = np.array([s["target"] for s in done])
        small = target < 1 / (2 * m)
        row = {"m": m, "n_test": n_test, "datasets": len(sets), "failed": len(sets) - len(done)}
        for name in ("em", "bbse"):
            error = np.array([s[name]["error"] for s in done])
            covered = np.array([s[name]["covered"] for s in done])
            row[f"{name}_mae"] = float(error.mean())
            row[f"{name}_coverage"] = float(covered.mean())
            row[f"{name}_small_coverage"] = float(covered[small].mean()) if small.any() else float("nan")
        rows.append(row)
    return rows


def markdown(rows):
    lines = [
        "| m | n_test | data sets | EM MAE | EM coverage | EM coverage, small priors | BBSE MAE | BBSE coverage "
        "| BBSE coverage, small priors |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['m']} | {r['n_test']} | {r['datasets']}"
            + (f" ({r['failed']} BBSE undefined)" if r["failed"] else "")
            + f" | {r['em_mae']:.4f} | {r['em_coverage']:.3f} | {r['em_small_coverage']:.3f} "
            f"| {r['bbse_mae']:.4f} | {r['bbse_coverage']:.3f} | {r['bbse_small_coverage']:.3f} |"
        )
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=300)
    parser.add_argument("--n-boot", type=int, default=200)
    parser.add_argument("--signal", type=float, default=4.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--n-test", type=int, nargs="*", default=list(N_TEST))
    parser.add_argument("--classes", type=int, nargs="*", default=list(CLASSES))
    parser.add_argument("--out", default=None, help="write the per-cell rows as JSON here")
    args = parser.parse_args()
    start = time.perf_counter()
    cells = sorted(itertools.product(args.n_test, args.classes), key=lambda cell: cell[0] * cell[1])
    tasks = [(n, m, i, args.n_boot, args.signal) for n, m in cells for i in range(args.datasets)]
    results = {cell: [] for cell in cells}
    with ProcessPoolExecutor(args.workers) as pool:
        for n_test, m, out in pool.map(safe_dataset, tasks, chunksize=4):
            results[(n_test, m)].append(out)
            if len(results[(n_test, m)]) == args.datasets:
                row = summary({(n_test, m): results[(n_test, m)]})[0]
                print(json.dumps(row), f"[{time.perf_counter() - start:.0f} s]", flush=True)
    rows = summary(results)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as file:
            json.dump(rows, file, indent=1)
    print(markdown(rows))
    print(
        f"{args.datasets} data sets per cell, B={args.n_boot}, signal {args.signal}: "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
