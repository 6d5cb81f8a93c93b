"""ROC-DMF benchmark: one fit against 1,000 bootstrap refits, and the paper's Sec. 5.1 simulation.

Part 1 times ``roc_dmf`` for k = 10 classes, T = 99 levels and n = 50,000
samples (best of a few runs, after a warm-up), then the same call with 1,000
parametric and 1,000 stratified bootstrap replicates, and prints
ratio = bootstrap time / single-fit time (target: < 100).

Part 2 reproduces Sec. 5.1 at full size (n = 50,000, p = 10, k = 5): D of
multinomial logistic regressions on the first d covariates (in-sample) next
to Hand & Till's M, with a classifier fitted on independent noise as d = 0,
and the argmax-labelled variant at d = p.

Both parts print Markdown tables (the ones in docs/dmf.md), with their seeds.

Timings use one BLAS thread by default (--blas-threads), which keeps them
stable on a shared machine; the batched fits use small matrix products.

Run: python benchmarks/bench_dmf.py [--n N] [--k K] [--n-boot B] [--skip-simulation]
"""

import argparse

import numpy as np
from _common import best_time, make_problem
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from threadpoolctl import threadpool_limits

from polyroc.dmf import roc_dmf
from polyroc.dmf._simulation import simulate_paper_design


def bootstrap_ratio(n, k, n_boot, repeat):
    y, P = make_problem(n, k, signal=1.0, decimals=None)
    roc_dmf(y, P)  # warm-up (imports, BLAS threads)
    single, fit = best_time(lambda: roc_dmf(y, P), repeat)
    print(
        f"k = {k}, T = 99, n = {n:,} (make_problem seed 0): one `roc_dmf` fit {single:.3f} s "
        f"({fit.n_iter} iterations, D = {fit.D:.4f}).\n"
    )
    print("| bootstrap | B | time | ratio to one fit | CI of D | unconverged refits |")
    print("|---|---|---|---|---|---|")
    for kind in ("parametric", "stratified"):
        elapsed, result = best_time(lambda kind=kind: roc_dmf(y, P, bootstrap=kind, n_boot=n_boot, random_state=0), 1)
        boot = result.bootstrap
        print(
            f"| {kind} | {n_boot} | {elapsed:.2f} s | {elapsed / single:.0f} | "
            f"[{boot.ci.low:.4f}, {boot.ci.high:.4f}] | {boot.n_unconverged} |"
        )


def paper_simulation(n, random_state=1):
    sim = simulate_paper_design(n, 10, 5, random_state=random_state)
    print(
        f"\nSec. 5.1 simulation: n = {n:,}, p = 10, k = 5, seed {random_state}, "
        f"class counts {np.bincount(sim.y).tolist()}\n"
    )
    print("| d | D intercept | D algorithm1 | Hand–Till M |")
    print("|---|---|---|---|")
    noise = np.random.default_rng(random_state + 1).normal(size=sim.X.shape)
    rows = [("0*", noise, sim.y)] + [(str(d), sim.X[:, :d], sim.y) for d in (1, 2, 3, 5, 8, 10)]
    argmax = simulate_paper_design(n, 10, 5, labels="argmax", random_state=random_state)
    rows.append(("10a", argmax.X, argmax.y))
    for name, X, y in rows:
        P = LogisticRegression(max_iter=1000).fit(X, y).predict_proba(X)
        d_intercept = roc_dmf(y, P).D
        d_algorithm1 = roc_dmf(y, P, method="algorithm1").D
        m = roc_auc_score(y, P, multi_class="ovo")
        print(f"| {name} | {d_intercept:.4f} | {d_algorithm1:.4f} | {m:.4f} |")
    print("\n0* = classifier fitted on independent noise (seed 2); 10a = argmax labels, d = p")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-simulation", action="store_true")
    parser.add_argument(
        "--blas-threads", type=int, default=1, help="BLAS threads (1 keeps timings stable on a shared machine)"
    )
    args = parser.parse_args()
    with threadpool_limits(args.blas_threads):
        bootstrap_ratio(args.n, args.k, args.n_boot, args.repeat)
        if not args.skip_simulation:
            paper_simulation(args.n)


if __name__ == "__main__":
    main()
