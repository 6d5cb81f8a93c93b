"""DeLong intervals of the multiclass AUCs against the point AUCs and against the bootstrap.

On Dirichlet-like probability scores (``dirichlet_problem``) at each ``--sizes``
entry (n x m), prints the best wall time of:

(a) the point AUCs alone: ``polyroc.metrics._ranking.multiclass_ranking_scores`` with
    the four summary keys (OvR macro, weighted, micro; OvO macro), each score
    column sorted once;
(a') the same without micro (the keys (b) covers);
(b) DeLong: the influences of the OvR macro AUC (with the per-class AUCs and
    their covariance matrix) and of Hand & Till's OvO M, one sort per column
    for both, and their variances; the ratios b / a (target < 3) and b / a';
(c) the stratified bootstrap's AUC cost for 1000 replicates, extrapolated:
    ``polyroc.evaluate(y, P, n_boot=B)`` minus ``n_boot=0`` (which also times
    the counts metrics' replicates, so this overstates the AUC part), times
    1000 / B; the ratio c / b.

Run: python benchmarks/bench_delong.py [--sizes 1e4x10,1e5x10,1e6x10] [--n-boot 50] [--repeat 3]
(POLYROC_THREADS=1 times (b) on one core, as (a) runs.)
"""

import argparse
import time

import numpy as np
from _common import best_time, dirichlet_problem

import polyroc
from polyroc.intervals._delong import auc_influences, stratified_covariance
from polyroc.metrics._ranking import multiclass_ranking_scores

SUMMARY_KEYS = [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro")]
COLUMN_KEYS = [("ovr", "macro"), ("ovo", "macro")]  # the keys (b) covers: no micro sort of the n m cells
DELONG_KEYS = [("ovr", None), ("ovr", "macro"), ("ovo", "macro")]


def point_aucs(y, P, keys=SUMMARY_KEYS):
    return multiclass_ranking_scores(y, P, labels=np.arange(P.shape[1]), sample_weight=None, keys=keys)


def delong(y, P):
    found = auc_influences(y, P, None, DELONG_KEYS)
    class_influence = found["ovr", None][1]
    influences = np.vstack((class_influence, found["ovr", "macro"][1], found["ovo", "macro"][1]))
    return stratified_covariance(influences, y, P.shape[1])


def bootstrap_seconds(y, P, n_boot):
    """Seconds of ``evaluate(n_boot=n_boot)`` minus ``evaluate(n_boot=0)``."""
    start = time.perf_counter()
    polyroc.evaluate(y, P, n_boot=0, random_state=0, ci="bootstrap")
    without = time.perf_counter() - start
    start = time.perf_counter()
    polyroc.evaluate(y, P, n_boot=n_boot, random_state=0, ci="bootstrap")
    return time.perf_counter() - start - without


def parse_sizes(text):
    sizes = []
    for item in text.split(","):
        n, m = item.lower().split("x")
        sizes.append((int(float(n)), int(m)))
    return sizes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1e4x10,1e5x10,1e6x10")
    parser.add_argument("--n-boot", type=int, default=50, help="bootstrap replicates timed (extrapolated to 1000)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for n, m in parse_sizes(args.sizes):
        y, P = dirichlet_problem(n, m, seed=0)
        point, values = best_time(lambda y=y, P=P: point_aucs(y, P), args.repeat)
        columns, _ = best_time(lambda y=y, P=P: point_aucs(y, P, COLUMN_KEYS), args.repeat)
        analytic, covariance = best_time(lambda y=y, P=P: delong(y, P), args.repeat)
        boot = bootstrap_seconds(y, P, args.n_boot) * 1000 / args.n_boot
        print(f"n={n:>8} m={m:>2}")
        print(f"  (a) point AUCs (4 keys)                  {point:9.3f} s")
        print(f"  (a') point OvR macro + OvO M (no micro)  {columns:9.3f} s")
        print(
            f"  (b) DeLong OvR macro + cov + OvO M       {analytic:9.3f} s   b/a = {analytic / point:5.2f}"
            f"   b/a' = {analytic / columns:5.2f}"
        )
        print(
            f"  (c) bootstrap, 1000 replicates           {boot:9.3f} s   c/b = {boot / analytic:6.1f}"
            f"   (extrapolated from n_boot={args.n_boot} minus n_boot=0)"
        )
        print(
            f"      OvR macro {values['ovr', 'macro']:.6f} se {np.sqrt(covariance[m, m]):.2e};"
            f" OvO M {values['ovo', 'macro']:.6f} se {np.sqrt(covariance[m + 1, m + 1]):.2e}"
        )


if __name__ == "__main__":
    main()
