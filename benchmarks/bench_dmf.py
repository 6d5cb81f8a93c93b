"""ROC-DMF bootstrap benchmark: the current code against the code of a git revision, in one run.

The baseline is the ``polyroc.dmf`` package of ``--baseline`` (default
``0add0c0``, before the bootstrap ran on both cores with one BLAS thread),
read with ``git show`` into a temporary package and imported next to the
current one. Each case runs ``roc_dmf(..., bootstrap="stratified")`` as the
report does, with the machine's default BLAS threads (the setting users
have), and prints both times, their ratio, and the largest difference of D
and of the CI limits (the point fit and the replicate draws are unchanged).

Cases: ``1e4x10``, ``1e5x20``, ``1e6x10`` (the Dirichlet generator of the
report benchmark) and ``forest`` (a random forest on an 11-class problem of 198
test rows, several classes separated completely; the report's vowel-like
model).

The baseline runs only ``--baseline-boot`` replicates (default 100) and its
time is extrapolated to ``--n-boot`` (marked in the table): the time of a
run with one replicate (the setup: sorting, point fit) plus the remaining
time per replicate times ``n_boot - 1``.
Replicate r is drawn from the r-th spawned generator in both versions, so the
first ``--baseline-boot`` replicate D are compared.

Run: python benchmarks/bench_dmf.py [--cases 1e4x10,forest,1e5x20,1e6x10] [--n-boot 1000]
[--baseline-boot 100] [--baseline REV]
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
from _common import dirichlet_problem

from polyroc.dmf import roc_dmf

ROOT = Path(__file__).resolve().parents[1]


def forest_case(seed=0):
    from sklearn.datasets import make_classification
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import train_test_split

    X, y = make_classification(
        n_samples=990, n_features=10, n_informative=8, n_redundant=0, n_classes=11,
        n_clusters_per_class=1, class_sep=2.0, random_state=seed,
    )  # fmt: skip
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=198, random_state=seed)
    model = RandomForestClassifier(n_estimators=200, random_state=seed).fit(X_train, y_train)
    return y_test, model.predict_proba(X_test)


def baseline_roc_dmf(revision):
    """``roc_dmf`` of ``polyroc.dmf`` at ``revision``, as the package ``dmf_baseline`` in a temporary folder."""
    folder = Path(tempfile.mkdtemp()) / "dmf_baseline"
    folder.mkdir()
    listing = subprocess.run(
        ["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{revision}:src/polyroc/dmf"],
        check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    for name in listing:
        if name.endswith(".py"):
            text = subprocess.run(
                ["git", "-C", str(ROOT), "show", f"{revision}:src/polyroc/dmf/{name}"],
                check=True, capture_output=True, text=True,
            ).stdout  # fmt: skip
            (folder / name).write_text(
                text.replace("polyroc.dmf.", "dmf_baseline.").replace("polyroc.dmf", "dmf_baseline")
            )
    sys.path.insert(0, str(folder.parent))
    return importlib.import_module("dmf_baseline").roc_dmf


def timed(function):
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = function()
    return time.perf_counter() - start, result


def run_case(case, n_boot, old_roc_dmf, baseline_boot):
    """Time both versions; the baseline runs ``baseline_boot`` replicates (if fewer) and is extrapolated."""
    y, P = forest_case() if case == "forest" else dirichlet_problem(*(int(float(v)) for v in case.split("x")))
    options = {"bootstrap": "stratified", "random_state": 0}
    old_boot = min(n_boot, baseline_boot)
    measured, old = timed(lambda: old_roc_dmf(y, P, n_boot=old_boot, **options))
    before = measured
    if old_boot < n_boot:  # setup from a run of one replicate, then the per-replicate time scaled up
        setup, _ = timed(lambda: old_roc_dmf(y, P, n_boot=1, **options))
        before = setup + max(measured - setup, 0.0) * (n_boot - 1) / (old_boot - 1)
    after, new = timed(lambda: roc_dmf(y, P, n_boot=n_boot, **options))
    # replicate r is drawn from the r-th spawned generator: the first old_boot replicates are paired
    replicate_gap = np.max(np.abs(old.bootstrap.D - new.bootstrap.D[:old_boot]))
    note = "" if old_boot == n_boot else f" (extrapolated from B={old_boot})"
    print(
        f"| {case} | {n_boot} | {before:.2f} s{note} | {after:.2f} s | {before / after:.1f}x | "
        f"{abs(old.D - new.D):.1e} | {replicate_gap:.1e} | "
        f"[{new.ci.low:.4f}, {new.ci.high:.4f}] | {new.bootstrap.n_iter.mean():.1f} |"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default="1e4x10,forest,1e5x20,1e6x10")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument(
        "--baseline-boot", type=int, default=100, help="replicates of the baseline run (its time is scaled up)"
    )
    parser.add_argument("--baseline", default="0add0c0")
    args = parser.parse_args()
    old_roc_dmf = baseline_roc_dmf(args.baseline)
    print(f"baseline: polyroc.dmf at {args.baseline}; stratified bootstrap, default BLAS threads\n")
    print("| case | B | before | after | ratio | ΔD point | max ΔD replicate | CI after | mean iterations |")
    print("|---|---|---|---|---|---|---|---|---|")
    for case in args.cases.split(","):
        run_case(case, args.n_boot, old_roc_dmf, args.baseline_boot)


if __name__ == "__main__":
    main()
