"""ROC-DMF bootstrap refits of a baseline and of the current code: the D of every replicate, compared.

A change to the replicate refits (solver, warm starts, rate building) must
leave each replicate's D within the solver's convergence tolerance of the
baseline's. This runs the same bootstraps (fixed seeds) with both codes, each
in its own process (``PYTHONPATH`` set to the ``src`` directory), and prints,
per problem, max |ΔD| over the replicates, max |Δ| of the interval bounds, the
change of the point estimate, and the mean iterations per replicate
(``DmfBootstrap.n_iter``) of both. ``--reference-tol`` additionally runs the
baseline with a much tighter ``tol``, which shows how far either code is from
the exact optimum of each replicate (the size of the convergence error).

Problems: Dirichlet scores (``_common.dirichlet_problem``) at 2·10⁴ × 10
(stratified, parametric, Algorithm 1) and 3000 × 4 (stratified with the
"weighted" weighting, parametric with 19 levels), 600 samples of 3 classes
with balanced cut-offs, 400 samples of 5 classes of uninformative scores, and
the paper's simulation (Wang & Carvalho (2024), arXiv:2404.13147, section 5.1;
2000 samples, 5 classes, logistic regression on 2 covariates).

Run: python benchmarks/dmf_refit_check.py --baseline-src /tmp/dmffit-orig/src [--reference-tol 1e-13]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


def cases():
    """(name, y, P, roc_dmf keywords) of every problem."""
    from _common import dirichlet_problem
    from sklearn.linear_model import LogisticRegression

    sys.path.insert(0, str(HERE.parent))  # the repository root, for the tests' simulations
    from tests._oracles.dmf_simulation import simulate_paper_design

    y, P = dirichlet_problem(20000, 10, seed=0)
    out = [
        ("20000x10 stratified", y, P, {"bootstrap": "stratified", "n_boot": 300}),
        ("20000x10 parametric", y, P, {"bootstrap": "parametric", "n_boot": 300}),
        ("20000x10 algorithm1", y, P, {"bootstrap": "stratified", "n_boot": 100, "method": "algorithm1"}),
    ]
    y, P = dirichlet_problem(3000, 4, seed=1)
    out += [
        ("3000x4 stratified weighted", y, P, {"bootstrap": "stratified", "n_boot": 300, "weighting": "weighted"}),
        ("3000x4 parametric T=19", y, P, {"bootstrap": "parametric", "n_boot": 300, "n_levels": 19}),
    ]
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 600)
    P = rng.dirichlet(np.ones(3), 600) + 0.5 * np.eye(3)[y]
    out.append(("600x3 balanced", y, P, {"bootstrap": "stratified", "n_boot": 300, "cutoff_grid": "balanced"}))
    y = rng.integers(0, 5, 400)
    P = rng.dirichlet(np.ones(5), 400)
    out.append(("400x5 uninformative", y, P, {"bootstrap": "stratified", "n_boot": 300}))
    sim = simulate_paper_design(2000, 10, 5, random_state=1)
    P = LogisticRegression(max_iter=500).fit(sim.X[:, :2], sim.y).predict_proba(sim.X[:, :2])
    out += [
        ("paper 5.1 d=2 stratified", sim.y, P, {"bootstrap": "stratified", "n_boot": 300}),
        ("paper 5.1 d=2 parametric", sim.y, P, {"bootstrap": "parametric", "n_boot": 300}),
    ]
    return out


def run_cases(path, tol):
    """Run every problem with the polyroc on ``sys.path``; save D, bounds, point D and iterations to ``path``."""
    import warnings

    from polyroc.dmf import roc_dmf

    extra = {} if tol is None else {"tol": tol}
    saved = {}
    for i, (_, y, P, keywords) in enumerate(cases()):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = roc_dmf(y, P, random_state=0, **keywords, **extra)
        boot = result.bootstrap
        saved[f"D{i}"] = boot.D
        saved[f"ci{i}"] = np.array([boot.ci.low, boot.ci.high])
        saved[f"point{i}"] = np.array([result.D])
        saved[f"iter{i}"] = boot.n_iter
    np.savez(path, **saved)


def in_process(src, path, tol=None):
    """Run :func:`run_cases` in a fresh process importing polyroc from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src), POLYROC_THREADS="1")
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path)]
    if tol is not None:
        command += ["--tol", repr(tol)]
    subprocess.run(command, env=env, cwd=HERE, check=True)
    return np.load(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-src", help="src directory of the baseline")
    parser.add_argument("--reference-tol", type=float, help="also run the baseline with this tol")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--tol", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        run_cases(args.worker, args.tol)
        return
    if not args.baseline_src:
        parser.error("--baseline-src is required")
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        base = in_process(Path(args.baseline_src).resolve(), folder / "base.npz")
        now = in_process(HERE.parent / "src", folder / "now.npz")
        tight = None
        if args.reference_tol is not None:
            tight = in_process(Path(args.baseline_src).resolve(), folder / "tight.npz", args.reference_tol)
        names = [name for name, *_ in cases()]
        for i, name in enumerate(names):
            line = (
                f"{name:28s} max|dD| {np.max(np.abs(base[f'D{i}'] - now[f'D{i}'])):.2e}"
                f"  max|d bounds| {np.max(np.abs(base[f'ci{i}'] - now[f'ci{i}'])):.2e}"
                f"  |d point| {abs(base[f'point{i}'][0] - now[f'point{i}'][0]):.2e}"
                f"  iterations {base[f'iter{i}'].mean():.2f} -> {now[f'iter{i}'].mean():.2f}"
            )
            if tight is not None:
                line += (
                    f"  vs tight: baseline {np.max(np.abs(tight[f'D{i}'] - base[f'D{i}'])):.2e}"
                    f" now {np.max(np.abs(tight[f'D{i}'] - now[f'D{i}'])):.2e}"
                )
            print(line)


if __name__ == "__main__":
    main()
