"""Bootstrap intervals of every score of ``evaluate``: vectorised against a per-replicate loop.

For n = 20,000 samples, m = 6 classes and B = 1,000 stratified replicates it
times ``evaluate(..., n_boot=B)`` against a loop calling scikit-learn once per
replicate and metric, with weights = multiplicity (the weighted one-vs-one AUC
uses polyroc's ``roc_auc_score``, since scikit-learn refuses weights there). The loop
is timed on ``--timed`` replicates and scaled to B. Both must give the same
interval for accuracy and the OvR macro AUC (the loop is run on all B
replicates for these two). Prints ratio = polyroc time / loop time.
Run: python benchmarks/bench_evaluation_intervals.py [--n N] [--m M] [--n-boot B]
"""

import argparse
import time

import numpy as np
from _common import best_time, make_problem
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

from polyroc.evaluation import evaluate
from polyroc.metrics import roc_auc_score
from polyroc.resampling import bootstrap_multiplicities


def replicate_scores(y, P, weight, labels):
    """Every score of ``evaluate`` (and the per-class report values) of one replicate, by scikit-learn."""
    pred = P.argmax(axis=1)
    common = {"sample_weight": weight}
    return {
        "accuracy": skm.accuracy_score(y, pred, **common),
        "balanced_accuracy": skm.balanced_accuracy_score(y, pred, **common),
        "f1_macro": skm.f1_score(y, pred, labels=labels, average="macro", zero_division=0, **common),
        "cohen_kappa": skm.cohen_kappa_score(y, pred, labels=labels, **common),
        "matthews_corrcoef": skm.matthews_corrcoef(y, pred, **common),
        "roc_auc_ovr_macro": skm.roc_auc_score(y, P, labels=labels, multi_class="ovr", **common),
        "roc_auc_ovr_weighted": skm.roc_auc_score(y, P, labels=labels, multi_class="ovr", average="weighted", **common),
        "roc_auc_ovr_micro": skm.roc_auc_score(label_binarize(y, classes=labels), P, average="micro", **common),
        "roc_auc_ovo_macro": roc_auc_score(y, P, labels=labels, multi_class="ovo", **common),
        "log_loss": skm.log_loss(y, P, labels=labels, **common),
        "brier_score": np.average(((P - np.eye(len(labels))[y]) ** 2).sum(axis=1), weights=weight),
        "top_2_accuracy": skm.top_k_accuracy_score(y, P, k=2, labels=labels, **common),
        "per_class": skm.precision_recall_fscore_support(y, pred, labels=labels, zero_division=0, **common),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000)
    parser.add_argument("--m", type=int, default=6)
    parser.add_argument("--n-boot", type=int, default=1_000)
    parser.add_argument("--timed", type=int, default=50, help="replicates of the timed loop")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    y, P = make_problem(args.n, args.m)
    labels = np.arange(args.m)
    seed, confidence = 0, 0.95

    t_ours, result = best_time(
        lambda: evaluate(y, P, n_boot=args.n_boot, confidence=confidence, random_state=seed), args.repeat
    )
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, args.n_boot, random_state=seed)))
    start = time.perf_counter()
    for row in multiplicities[: args.timed]:
        replicate_scores(y, P, row, labels)
    t_loop = (time.perf_counter() - start) * args.n_boot / args.timed

    print(f"n = {args.n:,}, m = {args.m}, B = {args.n_boot:,}, polyroc best of {args.repeat}")
    print(f"scikit-learn loop: timed {args.timed} replicates, scaled to {args.n_boot:,}")
    print(f"{'polyroc s':>11}{'loop s':>11}{'ratio':>8}")
    print(f"{t_ours:>11.3f}{t_loop:>11.3f}{t_ours / t_loop:>8.4f}")

    alpha = (1 - confidence) / 2
    checks = {
        "accuracy": lambda row: skm.accuracy_score(y, P.argmax(axis=1), sample_weight=row),
        "roc_auc_ovr_macro": lambda row: skm.roc_auc_score(y, P, multi_class="ovr", sample_weight=row),
    }
    for name, score in checks.items():
        low, high = np.nanquantile([score(row) for row in multiplicities], [alpha, 1 - alpha])
        interval = result.intervals[name]
        same = bool(np.allclose([interval.low, interval.high], [low, high], rtol=0, atol=1e-12))
        print(
            f"{name:<18} polyroc [{interval.low:.6f}, {interval.high:.6f}]  loop [{low:.6f}, {high:.6f}]  same: {same}"
        )


if __name__ == "__main__":
    main()
