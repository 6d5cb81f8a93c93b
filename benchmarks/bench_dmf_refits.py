"""ROC-DMF bootstrap refits alone: alternating steps (``newton=False``) against Newton steps, interleaved.

The replicate rate matrices of one ``roc_dmf`` bootstrap (Dirichlet scores,
seed 0) are captured as the pipeline builds them, then refitted a batch at a
time exactly as the pipeline does (same warm start, batches, tolerance), once
with the alternating row and column steps and once with ``newton=True``, in
turn, BLAS held to one thread; a time is the best of ``--repeat`` (CPU time of
this process). Prints both times, the ratio alternating / Newton, the mean
iterations per replicate and max |Δη| and |ΔΛ0| between the two fits.

Run: python benchmarks/bench_dmf_refits.py [--n 20000] [--m 10] [--n-boot 280] [--bootstrap stratified] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common import dirichlet_problem

from polyroc._engine.parallel import single_blas_thread
from polyroc.dmf import _bootstrap, roc_dmf
from polyroc.dmf._factorization import fit_factorization, linear_predictor


def captured_batches(n, m, n_boot, bootstrap):
    """The (response, point, start, settings) of every batch that ``roc_dmf`` refits."""
    batches = []
    original = _bootstrap._fit

    def capture(response, point, start, settings):
        batches.append((response, point, start, settings))
        return original(response, point, start, settings)

    y, P = dirichlet_problem(n, m, seed=0)
    _bootstrap._fit = capture
    try:
        roc_dmf(y, P, n_boot=n_boot, bootstrap=bootstrap, random_state=0)
    finally:
        _bootstrap._fit = original
    return batches


def refit(batches, newton):
    return [
        fit_factorization(
            response,
            point.weights,
            method=settings.method,
            start=start,
            tol=settings.tol,
            max_iter=settings.max_iter,
            newton=newton,
        )
        for response, point, start, settings in batches
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20000)
    parser.add_argument("--m", type=int, default=10)
    parser.add_argument("--n-boot", type=int, default=280)
    parser.add_argument("--bootstrap", default="stratified", choices=["stratified", "parametric"])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    batches = captured_batches(args.n, args.m, args.n_boot, args.bootstrap)
    best = {False: np.inf, True: np.inf}
    fits = {}
    with single_blas_thread():
        for _ in range(args.repeat):
            for newton in (False, True):
                start = time.process_time()
                fits[newton] = refit(batches, newton)
                best[newton] = min(best[newton], time.process_time() - start)
    iterations = {newton: np.concatenate([f.n_iter for f in fits[newton]]).mean() for newton in fits}
    pairs = list(zip(fits[False], fits[True]))
    gap = max(float(np.max(np.abs(linear_predictor(a) - linear_predictor(b)))) for a, b in pairs)
    intercepts = max(float(np.max(np.abs(a.intercept - b.intercept))) for a, b in pairs)
    ratio = best[False] / best[True]
    print(
        f"{args.n} x {args.m}, {args.bootstrap}, {args.n_boot} replicates: best of {args.repeat} (CPU seconds)\n"
        f"  alternating {best[False]:.3f}  Newton {best[True]:.3f}  ratio alternating/Newton {ratio:.2f}\n"
        f"  iterations per replicate {iterations[False]:.2f} -> {iterations[True]:.2f}, max |d eta| {gap:.2e}"
        f", max |d intercept| (what D is computed from) {intercepts:.2e}"
    )


if __name__ == "__main__":
    main()
