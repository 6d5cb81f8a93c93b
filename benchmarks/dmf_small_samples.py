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

Run ``python benchmarks/dmf_small_samples.py`` (a few minutes of one core
with the defaults ``--reps 200 --population 200000``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from polyroc.dmf._model import fit_point, make_settings
from polyroc.dmf._rates import prepare_problem

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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--population", type=int, default=200_000)
    parser.add_argument("--classes", type=int, nargs="+", default=[3, 5])
    args = parser.parse_args()
    start = time.process_time()
    print(f"reps = {args.reps}, population = {args.population:,} rows per class, T = 99, pooled grid, unweighted")
    print()
    print("| k | model | n/class | population D | pop spread | correction | c | bias | mc se | RMSE |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for k in args.classes:
        named = corrections(k)
        for g_index, generator in enumerate(GENERATORS):
            rng = np.random.default_rng([k, g_index])
            population = d_values(*simulate(generator, k, args.population, rng), named)
            truth = 1.0 if generator == "separable" else population["haldane"]
            spread = max(population.values()) - min(population.values())
            for n in SIZES:
                draws = [d_values(*simulate(generator, k, n, rng), named) for _ in range(args.reps)]
                for name, c in named.items():
                    error = np.array([d[name] for d in draws]) - truth
                    bias, se = error.mean(), error.std(ddof=1) / np.sqrt(args.reps)
                    rmse = np.sqrt(np.mean(error**2))
                    print(
                        f"| {k} | {generator} | {n} | {truth:.5f} | {spread:.1e} | {name} | {c:.4f} | "
                        f"{bias:+.4f} | {se:.4f} | {rmse:.4f} |",
                        flush=True,
                    )
    print()
    print(f"CPU time {time.process_time() - start:.0f} s")


if __name__ == "__main__":
    main()
