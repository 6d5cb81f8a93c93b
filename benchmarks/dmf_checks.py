"""ROC-DMF checks printed as Markdown tables for docs/dmf.md.

1. Two classes: D against the binary AUC (scikit-learn's ``roc_auc_score``)
   at T = 99, 999 and a grid that reaches every cut (T = n + 1).
2. Numerical safeguards: D of tied, nearly separable and separable scores,
   and the largest change of D when each safeguard of the solver is made
   10⁴ times less intrusive (and when ``tol`` is 10⁴ times smaller).
3. Bootstrap time for nearly separable forests: one fit, then 1,000
   parametric and 1,000 stratified replicates, with the ratio to one fit and
   the mean number of iterations per replicate (a measure of the work that
   does not depend on the load of the machine).

Seeds: every split is stratified 50/50 with ``random_state=0``, models use
``random_state=0``, bootstraps ``random_state=0``; the binormal and the
shuttle-like scores use seed 0. Timings use one BLAS thread.

Run: python benchmarks/dmf_checks.py [--n-boot B] [--skip-timing]
"""

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from scipy.special import expit
from sklearn.datasets import load_breast_cancer, load_digits, make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from threadpoolctl import threadpool_limits

import polyroc.dmf._factorization as factorization
from polyroc.datasets import load_glass
from polyroc.dmf import NonMonotoneCurveWarning, roc_dmf

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository root, for the tests' simulations
from tests._oracles.dmf_simulation import simulate_rare_class_scores

#: Each safeguard made 10⁴ times less intrusive.
LOOSER = {
    "ETA_BOUND": 30.0 * 1e4,
    "VARIANCE_FLOOR": 1e-16,
    "DENOMINATOR_FLOOR": 1e-304,
    "SINGULAR_RTOL": 1e-16,
    "MAX_HALVINGS": 33,
}


def split(X, y):
    return train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)


def test_scores(model, X, y):
    X_train, X_test, y_train, y_test = split(X, y)
    return y_test, model.fit(X_train, y_train).predict_proba(X_test)


def binormal(n=300, shift=1.0, spread=3.0, seed=0):
    rng = np.random.default_rng(seed)
    s = np.concatenate([rng.normal(0, 1, n), rng.normal(shift, spread, n)])
    return np.repeat([0, 1], n), np.column_stack([1 - expit(s), expit(s)])


def fit(y, P, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        return roc_dmf(y, P, **kwargs)


def binary_table():
    cancer = load_breast_cancer()
    cases = {
        "breast cancer, logistic regression": test_scores(
            LogisticRegression(solver="newton-cholesky"), cancer.data, cancer.target
        ),
        "binormal N(0, 1) vs N(1, 3²), 300 + 300": binormal(),
    }
    print("| two classes | AUC | D, T = 99 | D, T = 999 | D, T = n + 1 |")
    print("|---|---|---|---|---|")
    for name, (y, P) in cases.items():
        auc = roc_auc_score(y, P[:, 1])
        areas = [fit(y, P, n_levels=T).D for T in (99, 999, y.size + 1)]
        print(f"| {name} | {auc:.4f} | " + " | ".join(f"{d:.4f}" for d in areas) + " |")


def safeguard_cases():
    glass = load_glass()
    rng = np.random.default_rng(0)
    y3 = np.repeat(np.arange(3), 30)
    separable = 0.1 + 0.7 * np.eye(3)[y3] + rng.uniform(0, 0.05, (90, 3))
    return {
        "glass, 5-NN (tied votes)": test_scores(
            make_pipeline(StandardScaler(), KNeighborsClassifier(5)), glass.data, glass.target
        ),
        "shuttle-like (classes 3118 … 2)": simulate_rare_class_scores(random_state=0),
        "separable, 3 × 30": (y3, separable / separable.sum(axis=1, keepdims=True)),
    }


def safeguard_table():
    print("\n| scores | Hand–Till M | D | iterations | max ΔD, safeguards ×10⁴ | ΔD, tol 1e-12 |")
    print("|---|---|---|---|---|---|")
    for name, (y, P) in safeguard_cases().items():
        base = fit(y, P)
        changes = []
        for constant, value in LOOSER.items():
            saved = getattr(factorization, constant)
            setattr(factorization, constant, value)
            try:
                changes.append(abs(fit(y, P).D - base.D))
            finally:
                setattr(factorization, constant, saved)
        tight = abs(fit(y, P, tol=1e-12, max_iter=5000).D - base.D)
        m = roc_auc_score(y, P, multi_class="ovo")
        print(f"| {name} | {m:.4f} | {base.D:.4f} | {base.n_iter} | {max(changes):.1e} | {tight:.1e} |")


def forests():
    digits = load_digits()
    X, y = make_classification(
        990, 10, n_informative=8, n_redundant=0, n_classes=11, n_clusters_per_class=1, class_sep=5.0, random_state=0
    )
    forest = RandomForestClassifier(200, random_state=0)
    return {
        "11 classes × 90, forest (vowel-sized)": test_scores(forest, X, y),
        "digits, forest": test_scores(forest, digits.data, digits.target),
        "shuttle-like": simulate_rare_class_scores(random_state=0),
    }


def timing_table(n_boot):
    print(
        f"\n| scores | fit s | iterations | parametric B = {n_boot}: s (ratio), mean iterations | "
        f"stratified B = {n_boot}: s (ratio), mean iterations | unconverged refits |"
    )
    print("|---|---|---|---|---|---|")
    for name, (y, P) in forests().items():
        fit(y, P)  # warm-up
        start = time.perf_counter()
        single = fit(y, P)
        seconds = time.perf_counter() - start
        cells, unconverged = [], 0
        for kind in ("parametric", "stratified"):
            start = time.perf_counter()
            boot = fit(y, P, bootstrap=kind, n_boot=n_boot, random_state=0).bootstrap
            elapsed = time.perf_counter() - start
            cells.append(f"{elapsed:.2f} ({elapsed / seconds:.0f}), {boot.n_iter.mean():.1f}")
            unconverged += boot.n_unconverged
        print(f"| {name} | {seconds:.3f} | {single.n_iter} | {cells[0]} | {cells[1]} | {unconverged} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()
    with threadpool_limits(1):
        binary_table()
        safeguard_table()
        if not args.skip_timing:
            timing_table(args.n_boot)


if __name__ == "__main__":
    main()
