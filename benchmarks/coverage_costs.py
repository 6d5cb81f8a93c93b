"""Coverage study of the expected cost and of the metrics at target priors (``coverage.py --costs``).

Data model, with known truth: m classes, a fixed matrix R of decision rates
(``R[k, j]``: the probability that a row of class k is decided j; the
recalls ``R[k, k]`` from 0.9 down to 0.6 over the classes, so that accuracy
moves with the priors; the rest spread by a seeded Dirichlet),
and a fixed cost matrix C (0 on the diagonal, seeded uniform costs in [1, 5]
off it, and 20 for every error on the last class, the rarest under the
imbalanced mix). A row of class k is decided j ~ R[k]; its score row is
``0.5 one-hot(j) + 0.5 Dirichlet(1)``, whose argmax is j, so that
``polyroc.evaluate`` decides j.

Three sections:

- **Expected cost**, under two samplings of the labels: ``fixed`` class
  counts n_k (balanced, or imbalanced 10:1; the truth is ``sum_k (n_k / n)
  sum_j C[k, j] R[k, j]``, the estimand of an interval conditional on the
  class counts), and ``iid`` labels drawn from the same shares pi_k (the
  truth is the population value ``sum_k pi_k sum_j C[k, j] R[k, j]``; the
  sampling the plain variance assumes, that of a test set drawn from a
  population). Intervals: the t interval of the plain variance of the
  per-row costs (all rows one stratum; ``mean_t_test(..., variance="plain")``,
  what ``evaluate`` reports for ``"expected_cost"``, checked equal in
  tests/evaluation), the t interval of the stratified variance
  (``stratified_mean_interval``, what ``evaluate`` reported before), and the
  stratified percentile bootstrap (B = --n-boot, ``evaluate``'s
  ``ci="bootstrap"``). Also the t interval of the stratified variance of the
  log loss and Brier score of the same rows (what ``evaluate`` reports for
  them), against their truth: a row of class k decided j has expected log
  loss ``-E log(0.5 + 0.5 B)`` (j = k) or ``log 2 + psi(m) - psi(1)``
  (j != k), B ~ Beta(1, m - 1) the Dirichlet's share of class k, and
  expected Brier score ``1.25 - 0.5 / m + 0.5 / (m + 1) - [j = k]``.
- **Paired expected-cost difference** (both samplings): two rules on the same
  rows; rule B keeps rule A's decision with probability 0.7, else decides
  from its own rates Q, so that its rates are ``0.7 R + 0.3 Q``; the truth
  is ``sum_k s_k sum_j C[k, j] (R - R_B)[k, j]`` (s_k: n_k / n, or pi_k)
  and the intervals are ``polyroc.intervals.paired_loss_difference`` with
  the plain variance (its default, what ``compare_scores`` reports for
  ``"expected_cost"``) and with the stratified one.
- **Metrics at target priors**: the labels are drawn i.i.d. from source
  priors pi (so the shares pi-hat that the reweighting divides by are
  estimated), and ``evaluate(y, P, cost_matrix=C, target_priors=pi')`` is
  scored against the population value at pi': each counts metric of the
  expected counts ``diag(pi') R``, and the expected cost
  ``sum_k pi'_k sum_j C[k, j] R[k, j]``. pi: (0.6, 0.3, 0.1) for m = 3,
  geometric 3:1 for m = 10; pi': (0.2, 0.3, 0.5), and the reverse geometric.
  A data set where a class of positive target prior has no row is skipped
  (counted in the table).

Target: 93% at nominal 95% where every class has at least 10 rows (expected
rows under i.i.d. sampling), else 90% (bold below it). Under i.i.d. sampling
a class may have no row at all (n = 100, 10 classes imbalanced: 1.7 rows
expected); its rows then simply do not enter. The Monte Carlo
standard error of a coverage near 95% over D data sets is
``sqrt(0.95 * 0.05 / D)`` (1.1 points at D = 400, 0.7 at D = 1000).

Run: python benchmarks/coverage.py --costs [--datasets 1000] [--prior-datasets 400] [--n-boot 500]
     [--sizes 100,300,1000,3000,10000] [--prior-sizes 100,1000,10000] [--workers 2] [--sections cost,priors]
     [--samplings fixed,iid]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time
import warnings

import numpy as np

CONFIDENCE = 0.95
ENTROPY = 20_261_128
KEPT = 0.7  # rule B keeps rule A's decision with this probability
PRIOR_SCORES = ("accuracy", "balanced_accuracy", "f1_macro", "cohen_kappa", "matthews_corrcoef", "expected_cost")
PRIOR_CLASS_SCORES = ("recall", "precision")


def model(m: int) -> dict:
    """The fixed decision rates R and Q (rule B's own) and the cost matrix C of m classes (seeded)."""
    rng = np.random.default_rng([ENTROPY, m])
    hits = np.linspace(0.9, 0.6, m)

    def rates():
        found = np.empty((m, m))
        for k in range(m):
            spread = rng.dirichlet(np.full(m - 1, 2.0))
            found[k] = np.insert((1 - hits[k]) * spread, k, hits[k])
        return found

    costs = rng.uniform(1, 5, (m, m))
    costs[-1] = 20.0
    np.fill_diagonal(costs, 0.0)
    return {"R": rates(), "Q": rates(), "C": costs}


def counts_of(n: int, m: int, mix: str) -> np.ndarray:
    """Class counts: balanced, or geometric with largest:smallest 10:1."""
    shares = np.ones(m) if mix == "balanced" else 10.0 ** (-np.arange(m) / (m - 1))
    counts = np.floor(n * shares / shares.sum()).astype(int)
    counts[0] += n - counts.sum()
    return counts


def source_and_target(m: int) -> tuple[np.ndarray, np.ndarray]:
    if m == 3:
        return np.array([0.6, 0.3, 0.1]), np.array([0.2, 0.3, 0.5])
    shares = 3.0 ** (-np.arange(m) / (m - 1))
    return shares / shares.sum(), shares[::-1] / shares.sum()


def decide(y: np.ndarray, rates: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A decision per row, drawn from the rates of its class."""
    cumulative = rates.cumsum(axis=1)[y]
    return np.minimum((rng.random(y.size)[:, None] > cumulative).sum(axis=1), rates.shape[1] - 1)


def scores_deciding(decided: np.ndarray, m: int, rng: np.random.Generator) -> np.ndarray:
    return 0.5 * np.eye(m)[decided] + 0.5 * rng.dirichlet(np.ones(m), decided.size)


def _cell(hits: list, widths: list, target: float) -> str:
    coverage = 100 * np.mean(hits)
    bold = "**" if coverage < target else ""
    return f"{bold}{coverage:.1f}{bold} / {np.mean(widths):.4f}"


# --------------------------------------------------------------------------- expected cost, single and paired


COST_METHODS = ("t plain", "t stratified", "bootstrap", "paired t plain", "paired t stratified", "log loss", "brier")


def loss_truths(m: int) -> tuple[np.ndarray, np.ndarray]:
    """Expected log loss and Brier score (m, m) of a row of class k decided j, under ``scores_deciding``."""
    from scipy.integrate import quad
    from scipy.special import digamma

    hit = quad(lambda b: -np.log(0.5 + 0.5 * b) * (m - 1) * (1 - b) ** (m - 2), 0, 1)[0]
    miss = np.log(2) + digamma(m) - digamma(1)
    log_loss = np.where(np.eye(m, dtype=bool), hit, miss)
    brier = 1.25 - 0.5 / m + 0.5 / (m + 1) - np.eye(m)
    return log_loss, brier


def cost_task(job: tuple) -> list[dict]:
    """Coverage records of the intervals of one rule's cost, of the paired difference and of the two losses."""
    from polyroc.intervals import paired_loss_difference, stratified_mean_interval
    from polyroc.intervals._moments import ClassMoments
    from polyroc.intervals._posterior import mean_t_test
    from polyroc.metrics._scores import sample_brier_losses, sample_log_losses
    from polyroc.resampling import bootstrap_multiplicities

    n, m, mix, sampling, first, last, n_boot = job
    found = model(m)
    rates, costs = found["R"], found["C"]
    rates_b = KEPT * rates + (1 - KEPT) * found["Q"]
    counts = counts_of(n, m, mix)
    shares = counts / n
    log_truth, brier_truth = loss_truths(m)
    truths = {
        "cost": float(shares @ (costs * rates).sum(axis=1)),
        "difference": float(shares @ (costs * (rates - rates_b)).sum(axis=1)),
        "log loss": float(shares @ (log_truth * rates).sum(axis=1)),
        "brier": float(shares @ (brier_truth * rates).sum(axis=1)),
    }
    fixed_y = np.repeat(np.arange(m), counts)
    records = []
    for replicate in range(first, last):
        rng = np.random.default_rng([ENTROPY, n, m, len(mix), len(sampling), replicate])
        y = fixed_y if sampling == "fixed" else np.sort(rng.choice(m, size=n, p=shares))
        decided = decide(y, rates, rng)
        own = decide(y, found["Q"], rng)
        other = np.where(rng.random(n) < KEPT, decided, own)
        cost, other_cost = costs[y, decided], costs[y, other]
        P = scores_deciding(decided, m, rng)
        bounds = {}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            moments = ClassMoments.of(cost, y, m, None)
            bounds["t plain"] = mean_t_test(moments, confidence=CONFIDENCE, variance="plain")[1:3]
            bounds["t stratified"] = mean_t_test(moments, confidence=CONFIDENCE, variance="stratified")[1:3]
            for variance in ("plain", "stratified"):
                bounds[f"paired t {variance}"] = paired_loss_difference(
                    cost, other_cost, y, m, confidence=CONFIDENCE, variance=variance
                )[1:3]
            bounds["log loss"] = stratified_mean_interval(sample_log_losses(y, P, 1e-15), y, m)[1:]
            bounds["brier"] = stratified_mean_interval(sample_brier_losses(y, P), y, m)[1:]
        means = np.concatenate([rows @ cost / n for rows in bootstrap_multiplicities(y, n_boot, random_state=rng)])
        bounds["bootstrap"] = tuple(np.quantile(means, [(1 - CONFIDENCE) / 2, (1 + CONFIDENCE) / 2]))
        for method in COST_METHODS:
            target = truths[
                "difference" if method.startswith("paired") else method if method in ("log loss", "brier") else "cost"
            ]
            low, high = bounds[method]
            records.append(
                {
                    "n": n,
                    "m": m,
                    "mix": mix,
                    "sampling": sampling,
                    "method": method,
                    "covered": bool(low <= target <= high),
                    "width": float(high - low),
                }
            )
    return records


def cost_lines(records: list[dict], sizes, classes, mixes, samplings) -> list[str]:
    lines = [
        "| sampling | n | m | mix | smallest class | t plain (evaluate) | t stratified | stratified bootstrap | "
        "paired t plain (compare_scores) | paired t stratified | log loss t stratified | Brier t stratified |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for sampling in samplings:
        for m in classes:
            for mix in mixes:
                for n in sizes:
                    counts = counts_of(n, m, mix)
                    smallest = counts.min() if sampling == "fixed" else n * counts.min() / counts.sum()
                    target = 93.0 if smallest >= 10 else 90.0
                    cells = []
                    for method in COST_METHODS:
                        key = (n, m, mix, sampling, method)
                        chosen = [r for r in records if (r["n"], r["m"], r["mix"], r["sampling"], r["method"]) == key]
                        cells.append(_cell([r["covered"] for r in chosen], [r["width"] for r in chosen], target))
                    size = f"{smallest:g}" if sampling == "fixed" else f"{smallest:.1f} (expected)"
                    lines.append(f"| {sampling} | {n:,} | {m} | {mix} | {size} | " + " | ".join(cells) + " |")
    return lines


# --------------------------------------------------------------------------- metrics at target priors


def prior_truths(m: int) -> dict:
    """The population value of each quantity at the target priors."""
    from polyroc.counts import get_metric, precision, recall

    found = model(m)
    _, target = source_and_target(m)
    expected = target[:, None] * found["R"]
    truths = {name: float(get_metric(name)(expected)) for name in PRIOR_SCORES if name != "expected_cost"}
    truths["expected_cost"] = float(target @ (found["C"] * found["R"]).sum(axis=1))
    truths["recall"] = recall(expected, average=None).tolist()
    truths["precision"] = precision(expected, average=None).tolist()
    return truths


def prior_task(job: tuple) -> list[dict]:
    """Coverage records of evaluate's intervals at the target priors, for replicates first..last."""
    from polyroc import evaluate

    n, m, first, last, n_boot = job
    found = model(m)
    source, target = source_and_target(m)
    truths = prior_truths(m)
    records = []
    for replicate in range(first, last):
        rng = np.random.default_rng([ENTROPY, n, m, 7, replicate])
        y = rng.choice(m, size=n, p=source)
        P = scores_deciding(decide(y, found["R"], rng), m, rng)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = evaluate(
                    y,
                    P,
                    labels=np.arange(m),
                    cost_matrix=found["C"],
                    target_priors=target,
                    n_boot=n_boot,
                    random_state=int(rng.integers(2**32)),
                )
        except ValueError:  # a class of positive target prior has no row
            records.append({"n": n, "m": m, "quantity": "skipped", "covered": False, "width": 0.0})
            continue
        for name in PRIOR_SCORES:
            interval = result.intervals[name]
            covered = bool(interval.low <= truths[name] <= interval.high)
            records.append(
                {"n": n, "m": m, "quantity": name, "covered": covered, "width": interval.high - interval.low}
            )
        for name in PRIOR_CLASS_SCORES:
            for k in range(m):
                interval = result.class_intervals[name][k]
                covered = bool(interval.low <= truths[name][k] <= interval.high)
                width = interval.high - interval.low
                records.append({"n": n, "m": m, "quantity": name, "covered": covered, "width": width})
    return records


def prior_lines(records: list[dict], sizes, classes) -> list[str]:
    quantities = (*PRIOR_SCORES, *(f"{name} (per class)" for name in PRIOR_CLASS_SCORES))
    lines = [
        "| n | m | smallest expected class | skipped | " + " | ".join(quantities) + " |",
        "|---|---|---|---|" + "---|" * len(quantities),
    ]
    for m in classes:
        source, _ = source_and_target(m)
        for n in sizes:
            expected = n * source.min()
            target = 93.0 if expected >= 10 else 90.0
            mine = [r for r in records if (r["n"], r["m"]) == (n, m)]
            skipped = sum(r["quantity"] == "skipped" for r in mine)
            cells = []
            for quantity in quantities:
                chosen = [r for r in mine if r["quantity"] == quantity.removesuffix(" (per class)")]
                cells.append(_cell([r["covered"] for r in chosen], [r["width"] for r in chosen], target))
            lines.append(f"| {n:,} | {m} | {expected:.1f} | {skipped} | " + " | ".join(cells) + " |")
    return lines


# --------------------------------------------------------------------------- the run


def _single_threaded():
    for variable in ("POLYROC_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"


def chunks(datasets: int, size: int = 50):
    return [(start, min(start + size, datasets)) for start in range(0, datasets, size)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--costs", action="store_true", help="(the flag of coverage.py that runs this study)")
    parser.add_argument("--datasets", type=int, default=1000, help="data sets per scenario of the cost sections")
    parser.add_argument("--prior-datasets", type=int, default=400, help="data sets per scenario at target priors")
    parser.add_argument("--n-boot", type=int, default=500, help="bootstrap replicates and posterior draws")
    parser.add_argument("--sizes", default="100,300,1000,3000,10000")
    parser.add_argument("--prior-sizes", default="100,1000,10000")
    parser.add_argument("--classes", default="3,10")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sections", default="cost,priors", help="cost, priors or both (comma separated)")
    parser.add_argument("--samplings", default="fixed,iid", help="labels of the cost section: fixed counts, iid")
    args = parser.parse_args(argv)
    sizes = [int(value) for value in args.sizes.split(",")]
    prior_sizes = [int(value) for value in args.prior_sizes.split(",")]
    classes = [int(value) for value in args.classes.split(",")]
    mixes = ("balanced", "imbalanced")
    samplings = args.samplings.split(",")
    started = time.perf_counter()
    _single_threaded()
    cost_jobs = [
        (n, m, mix, sampling, first, last, args.n_boot)
        for sampling in samplings
        for m in classes
        for mix in mixes
        for n in sizes
        for first, last in chunks(args.datasets)
    ]
    prior_jobs = [
        (n, m, first, last, args.n_boot)
        for m in classes
        for n in prior_sizes
        for first, last in chunks(args.prior_datasets, 20)
    ]
    with multiprocessing.get_context("spawn").Pool(args.workers, initializer=_single_threaded) as pool:
        if "cost" in args.sections:
            cost_records = [record for part in pool.imap_unordered(cost_task, cost_jobs) for record in part]
            print(
                f"## Expected cost (nominal {100 * CONFIDENCE:g}%, {args.datasets:,} data sets per row, "
                f"B = {args.n_boot})\n"
            )
            print(
                "Coverage % / mean width; bold: below the target (93%, or 90% where the smallest class "
                "has < 10 rows).\n"
            )
            print("\n".join(cost_lines(cost_records, sizes, classes, mixes, samplings)), flush=True)
        if "priors" in args.sections:
            prior_records = [record for part in pool.imap_unordered(prior_task, prior_jobs) for record in part]
            print(
                f"\n## Metrics at target priors (nominal {100 * CONFIDENCE:g}%, {args.prior_datasets:,} data sets per "
                f"row, {args.n_boot} draws)\n"
            )
            print("Coverage % / mean width of evaluate(..., target_priors=pi')'s intervals (ci='auto').\n")
            print("\n".join(prior_lines(prior_records, prior_sizes, classes)), flush=True)
    print(f"\nTotal wall time: {time.perf_counter() - started:,.0f} s")
    return 0
