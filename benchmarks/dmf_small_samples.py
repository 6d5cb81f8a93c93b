"""ROC-DMF at small samples: bias and RMSE of D for several pseudo-counts of the rate correction.

The factorization fits the empirical-logit rates (n M + c) / (n + 2c), n the
samples behind a rate and c the pseudo-count (``roc_dmf(correction=c)``). For
each generating model the population D is D on one very large simulated
sample (``--population`` rows per class, computed once per model; the
pseudo-counts then differ by less than the printed spread ``pop spread``).
Each row of the table is ``--reps`` simulated test sets of n rows per class;
bias = mean(D) - population D and RMSE = sqrt(mean((D - population D)²)), with
the Monte Carlo standard error of the bias (sd / sqrt(reps)) in ``mc se``.

Pseudo-counts compared:

- ``haldane``: c = ½, Haldane (1956) and Anscombe (1956); for one binomial
  cell also Firth's (1993, Biometrika 80:27, doi:10.1093/biomet/80.1.27)
  penalised-likelihood estimate, the default;
- ``jeffreys``: c = 1/6, the median of the Jeffreys Beta(½, ½) posterior
  (Kerman (2011), Electron. J. Statist. 5:1450, doi:10.1214/11-EJS648,
  median of Beta(a, b) ≈ (a - 1/3) / (a + b - 2/3));
- ``firth-model``: c = p / (2 × cells), Firth's penalty spread evenly over the
  cells of the rank-one model (p = 4T + K - 2 parameters, 2T K cells: the mean
  leverage over two), ≈ 1/K; the exact cell-wise leverages are not used;
- ``c=0.1`` and ``c=0.01``: smaller fixed pseudo-counts.

Generating models (k classes, scores of column a for class a):

- ``binormal``: scores N(1.5 e_y, I);
- ``dirichlet``: probabilities Dirichlet(1 + 2 e_y);
- ``separable``: e_y + U(0, ½)^k, perfectly ranked (population D = 1 exactly,
  which is used as the truth; the large sample's D is within 1e-5 of it).

A second table gives D on the real-data cases of ``benchmarks/dmf_real_data.py``
(iris, digits, glass, and breast cancer: two classes, never corrected; the
same stratified 50/50 split and models) for each pseudo-count, beside Hand &
Till's M (``roc_auc_score(multi_class="ovo")``, the binary AUC for breast
cancer). A third gives the change of D when one class of a binormal problem
is repeated three times, on the ``"balanced"`` grid (whose rates are then
unchanged: D moves only through the correction).

Run ``python benchmarks/dmf_small_samples.py`` (a few minutes of one core
with the defaults ``--reps 200 --population 200000``).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import roc_auc_score

from polyroc.dmf import roc_dmf
from polyroc.dmf._model import fit_point, make_settings
from polyroc.dmf._rates import prepare_problem

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dmf_real_data import datasets, test_scores

SIZES = (10, 20, 50, 100, 300, 1000)
GENERATORS = ("binormal", "dirichlet", "separable")


def corrections(k, n_levels=99):
    """The pseudo-counts compared, by name, for k classes and T levels."""
    pairs = k * (k - 1)
    firth = (4 * n_levels + pairs - 2) / (2 * 2 * n_levels * pairs)
    return {"haldane": 0.5, "jeffreys": 1 / 6, "firth-model": firth, "c=0.1": 0.1, "c=0.01": 0.01}


def simulate(generator, k, n, rng):
    """Labels and scores of n rows per class from one generating model."""
    y = np.repeat(np.arange(k), n)
    onehot = np.eye(k)[y]
    if generator == "binormal":
        return y, rng.normal(size=(k * n, k)) + 1.5 * onehot
    if generator == "dirichlet":
        gamma = rng.gamma(1 + 2 * onehot)  # Dirichlet rows: independent gammas, normalised
        return y, gamma / gamma.sum(axis=1, keepdims=True)
    return y, onehot + rng.uniform(0, 0.5, size=(k * n, k))


def d_values(y, scores, named):
    """D for every pseudo-count, the rate matrices built once."""
    problem = prepare_problem(y, scores, labels=None, levels=None, n_levels=99, cutoff_grid="pooled")
    out = {}
    for name, c in named.items():
        settings = make_settings(
            method="intercept",
            weighting="unweighted",
            trials="pairs",
            monotone=False,
            tol=1e-8,
            max_iter=200,
            bootstrap=None,
            n_boot=0,
            confidence=0.95,
            random_state=None,
            correction=c,
        )
        out[name] = fit_point(problem, settings).area
    return out


def real_data_table():
    """D of the real-data cases for each pseudo-count, beside Hand & Till's M."""
    named = {"haldane": 0.5, "jeffreys": 1 / 6, "c=0.1": 0.1, "c=0.01": 0.01}
    cases = datasets()
    cancer = load_breast_cancer()
    cases["breast cancer"] = (cancer.data, cancer.target)
    print("| data | smallest class | model | Hand–Till M | " + " | ".join(f"D, {name}" for name in named) + " |")
    print("|---|---|---|---|" + "---|" * len(named))
    for data_name, (X, y) in cases.items():
        y_test, labels, scores = test_scores(X, y)
        smallest = np.unique(y_test, return_counts=True)[1].min()
        for model, P in scores.items():
            if labels.size == 2:
                m = roc_auc_score(y_test == labels[0], P[:, 0])
            else:
                m = roc_auc_score(y_test, P, labels=labels, multi_class="ovo")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                areas = [roc_dmf(y_test, P, labels=labels, correction=c).D for c in named.values()]
            print(f"| {data_name} | {smallest} | {model} | {m:.4f} | " + " | ".join(f"{d:.4f}" for d in areas) + " |")


def replication_table():
    """|ΔD| when class 1 is repeated three times, on the balanced grid (whose rates do not move)."""
    named = {"haldane": 0.5, "jeffreys": 1 / 6, "c=0.1": 0.1, "c=0.01": 0.01}
    print("| n/class | " + " | ".join(f"abs ΔD, {name}" for name in named) + " |")
    print("|---|" + "---|" * len(named))
    for n in (20, 80):
        y, P = simulate("binormal", 3, n, np.random.default_rng(n))
        repeat = np.where(y == 1, 3, 1)
        moves = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for c in named.values():
                a = roc_dmf(y, P, cutoff_grid="balanced", correction=c).D
                b = roc_dmf(np.repeat(y, repeat), np.repeat(P, repeat, axis=0), cutoff_grid="balanced", correction=c).D
                moves.append(abs(a - b))
        print(f"| {n} | " + " | ".join(f"{m:.1e}" for m in moves) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--population", type=int, default=200_000)
    parser.add_argument("--classes", type=int, nargs="+", default=[3, 5])
    parser.add_argument("--real-only", action="store_true", help="only the real-data and replication tables")
    args = parser.parse_args()
    if args.real_only:
        real_data_table()
        print()
        replication_table()
        return
    start = time.process_time()
    print(f"reps = {args.reps}, population = {args.population:,} rows per class, T = 99, pooled grid, unweighted")
    for k in args.classes:
        print(f"firth-model c = {corrections(k)['firth-model']:.4f} for k = {k}")
    print()
    names = list(corrections(3))
    print("cells: bias / RMSE of D; mc se: largest Monte Carlo standard error of a bias in the row")
    print()
    print("| k | model | n/class | population D | pop spread | " + " | ".join(names) + " | mc se |")
    print("|---|---|---|---|---|" + "---|" * len(names) + "---|")
    worst = {}  # (k, n) -> largest |bias| of the default correction over the models
    for k in args.classes:
        named = corrections(k)
        for g_index, generator in enumerate(GENERATORS):
            rng = np.random.default_rng([k, g_index])
            population = d_values(*simulate(generator, k, args.population, rng), named)
            truth = 1.0 if generator == "separable" else population["haldane"]
            spread = max(population.values()) - min(population.values())
            for n in SIZES:
                draws = [d_values(*simulate(generator, k, n, rng), named) for _ in range(args.reps)]
                cells, errors = [], []
                for name in named:
                    error = np.array([d[name] for d in draws]) - truth
                    cells.append(f"{error.mean():+.4f} / {np.sqrt(np.mean(error**2)):.4f}")
                    errors.append(error.std(ddof=1) / np.sqrt(args.reps))
                bias = abs(np.mean([d["haldane"] for d in draws]) - truth)
                worst[k, n] = max(worst.get((k, n), 0.0), bias)
                print(
                    f"| {k} | {generator} | {n} | {truth:.5f} | {spread:.1e} | "
                    + " | ".join(cells)
                    + f" | {max(errors):.4f} |",
                    flush=True,
                )
    print()
    for k in args.classes:
        reliable = [n for n in SIZES if all(worst[k, m] <= 0.01 for m in SIZES if m >= n)]
        print(
            f"k = {k}: |bias| of D <= 0.01 for every model with haldane from {min(reliable, default=None)} rows a class"
        )
    print()
    print(f"CPU time {time.process_time() - start:.0f} s")
    print()
    real_data_table()
    print()
    replication_table()


if __name__ == "__main__":
    main()
