"""Coverage of the Dirichlet posterior intervals by prior, and of the normal interval of a mean loss.

Simulation with known truth. Scores are Dirichlet rows, alpha = 1 with
``signal`` added on the true class (the generator of ``_common.dirichlet_problem``;
signal 1.5, or a sharper 4); the prediction is the argmax. The truth pi_c (row c
of the population confusion matrix) is estimated from 10^6 score rows per
class. A data set has fixed class sizes, so its confusion row c is
Multinomial(n_c, pi_c) (the distribution of the argmax of n_c such rows); the
target of a metric is its value on the expected counts n_c * pi_c.

For each case (m classes, class sizes, signal) and prior, 1000 data sets give
the empirical coverage of the nominal 95% posterior interval of per-class
recall, precision and F1 (the worst class), macro-F1, balanced accuracy,
Cohen's kappa and MCC. The last part checks the normal interval of
:func:`polyroc.intervals._posterior.stratified_mean_interval` (and a t quantile with
n - m degrees of freedom) for the mean log loss and Brier score, whose truth is
the per-class mean loss by Monte Carlo, mixed at the data set's class sizes.

Run: ``python benchmarks/posterior_prior.py [--datasets 1000] [--draws 2000]``.
"""

import argparse
import itertools
import time
import zlib

import numpy as np
from scipy.stats import norm, t

from polyroc.counts import f1, get_metric, precision, recall
from polyroc.intervals._posterior import PRIORS, confusion_posterior, posterior_quantiles, stratified_mean_interval

TRUTH_ROWS = 10**6
CLASS_SCORES = {"recall": recall, "precision": precision, "f1": f1}
SCORES = ("f1_macro", "balanced_accuracy", "cohen_kappa", "matthews_corrcoef")


def dirichlet_scores(rng, true_class, n_rows, m, signal):
    alpha = np.ones(m)
    alpha[true_class] += signal
    scores = rng.standard_gamma(alpha, size=(n_rows, m))
    return scores / scores.sum(axis=1, keepdims=True)


def population_truth(m, signal, seed=12345):
    """pi (m, m) of the argmax rule, and the per-class mean log loss and Brier score, by Monte Carlo."""
    rng = np.random.default_rng(seed)
    pi = np.zeros((m, m))
    log_loss, brier = np.zeros(m), np.zeros(m)
    for c in range(m):
        for _ in range(10):
            P = dirichlet_scores(rng, c, TRUTH_ROWS // 10, m, signal)
            pi[c] += np.bincount(P.argmax(axis=1), minlength=m)
            log_loss[c] += -np.log(P[:, c]).sum()
            brier[c] += ((P - np.eye(m)[c]) ** 2).sum()
    return pi / TRUTH_ROWS, log_loss / TRUTH_ROWS, brier / TRUTH_ROWS


def metric_values(counts):
    """Per-class scores (…, m) and summary scores (…) of counts (…, m, m)."""
    values = {name: score(counts, average=None, zero_division=0.0) for name, score in CLASS_SCORES.items()}
    values.update({name: get_metric(name)(counts) for name in SCORES})
    return values


def posterior_coverage(m, sizes, signal, pi, prior, n_datasets, n_draws, seed):
    """Coverage of each score; a per-class score's is the worst over groups of classes of one size (pooled)."""
    rng = np.random.default_rng(seed)
    truth = metric_values(sizes[:, None] * pi)
    hits = {name: np.zeros(np.shape(value)) for name, value in truth.items()}
    for _ in range(n_datasets):
        counts = np.stack([rng.multinomial(n, row) for n, row in zip(sizes, pi)])
        draws = confusion_posterior(counts, prior=prior, n_draws=n_draws, random_state=rng)
        for name, values in metric_values(draws).items():
            low, high = posterior_quantiles(values, 0.95)
            hits[name] += (low <= truth[name]) & (truth[name] <= high)
    coverage = {}
    for name, h in hits.items():
        groups = [h] if np.ndim(h) == 0 else [h[sizes == size] for size in np.unique(sizes)]
        coverage[name] = min(float(np.mean(g)) for g in groups) / n_datasets
    return coverage


def loss_coverage(m, size, signal, n_datasets, seed, truth_losses):
    rng = np.random.default_rng(seed)
    sizes = np.full(m, size)
    y = np.repeat(np.arange(m), sizes)
    n = y.size
    z_normal, z_t = norm.ppf(0.975), t.ppf(0.975, n - m)
    covered = {(loss, q): 0 for loss in ("log_loss", "brier") for q in ("normal", "t")}
    for _ in range(n_datasets):
        P = np.concatenate([dirichlet_scores(rng, c, size, m, signal) for c in range(m)])
        losses = {"log_loss": -np.log(P[np.arange(n), y]), "brier": ((P - np.eye(m)[y]) ** 2).sum(axis=1)}
        for loss, values in losses.items():
            target = truth_losses[loss] @ sizes / n
            estimate, low, high = stratified_mean_interval(values, y, m)
            half = (high - low) / 2
            covered[loss, "normal"] += low <= target <= high
            covered[loss, "t"] += abs(estimate - target) <= half * z_t / z_normal
    return {key: value / n_datasets for key, value in covered.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=1000)
    parser.add_argument("--draws", type=int, default=2000)
    parser.add_argument("--priors", nargs="+", default=list(PRIORS), choices=list(PRIORS))
    args = parser.parse_args()
    truths = {(m, signal): population_truth(m, signal) for m, signal in itertools.product((3, 10), (1.5, 4.0))}
    start = time.perf_counter()
    loss_table(truths, args.datasets)
    prior_table(truths, args)
    print(f"\n({time.perf_counter() - start:.0f} s)")


def prior_table(truths, args):
    columns = ["recall", "precision", "f1", *SCORES]
    short = {"balanced_accuracy": "bal_acc", "cohen_kappa": "kappa", "matthews_corrcoef": "mcc"}
    print(f"95% posterior intervals: empirical coverage over {args.datasets} data sets, {args.draws} draws each")
    print("(per-class scores: classes of one size pooled, the worst size)")
    header = f"{'m':>3} {'signal':>6} {'sizes':>14} {'prior':>17} " + " ".join(f"{short.get(c, c):>9}" for c in columns)
    print(header)
    worst = {prior: {"5 rows": 1.0, ">= 10 rows": 1.0} for prior in args.priors}
    for m, signal in truths:
        pi = truths[m, signal][0]
        mixes = {f"all {s}": np.full(m, s) for s in (5, 10, 30, 100)}
        mixes["5/10/30/100"] = np.resize([5, 10, 30, 100], m)
        for (label, sizes), prior in itertools.product(mixes.items(), args.priors):
            seed = zlib.crc32(repr((m, signal, label)).encode())
            coverage = posterior_coverage(m, sizes, signal, pi, prior, args.datasets, args.draws, seed)
            row = " ".join(f"{coverage[c]:9.3f}" for c in columns)
            print(f"{m:>3} {signal:>6} {label:>14} {prior:>17} {row}", flush=True)
            group = "5 rows" if sizes.min() < 10 else ">= 10 rows"
            worst[prior][group] = min(worst[prior][group], min(coverage.values()))
    print("\nworst coverage over every case and score:")
    for prior, groups in worst.items():
        print(f"  {prior:>17}: " + ", ".join(f"{group}: {value:.3f}" for group, value in groups.items()))


def loss_table(truths, n_datasets):
    print("mean losses, 95% normal interval (stratified variance) and t(n - m): empirical coverage")
    names = f"{'log normal':>11} {'log t':>7} {'brier normal':>13} {'brier t':>8}"
    print(f"{'m':>3} {'signal':>6} {'class size':>10} {names}")
    for (m, signal), size in itertools.product(truths, (5, 10, 30)):
        _, log_loss, brier = truths[m, signal]
        seed = zlib.crc32(repr((m, signal, size, "loss")).encode())
        cov = loss_coverage(m, size, signal, n_datasets, seed, {"log_loss": log_loss, "brier": brier})
        print(
            f"{m:>3} {signal:>6} {size:>10} {cov['log_loss', 'normal']:11.3f} {cov['log_loss', 't']:7.3f} "
            f"{cov['brier', 'normal']:13.3f} {cov['brier', 't']:8.3f}",
            flush=True,
        )
    print()


if __name__ == "__main__":
    main()
