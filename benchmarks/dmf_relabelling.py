"""How much ROC-DMF's D moves when the classes are relabelled, per cut-off grid.

Relabelling renames the classes and permutes the score columns the same way.
Two tables of 100 seeded problems each (seeds 0-99):

1. Two classes (binormal logits, n = 60-400, positive share 0.2-0.8, simplex
   scores, T = 99): the paper's two-class construction scores the first
   class's column only, so relabelling scores the other column and D moves
   "up to the grid"; shown: how many problems move by more than 1e-12, the
   largest move, and the largest distance of D from the binary AUC
   (scikit-learn's ``roc_auc_score``).
2. Three to five classes (Dirichlet scores with a signal, n = 20-400, a third
   of them rounded to 0.1 for ties, T = 99): the largest move of D, which is
   rounding only.

Run: ``python benchmarks/dmf_relabelling.py``
"""

import warnings

import numpy as np
from sklearn.metrics import roc_auc_score

from polyroc.dmf import NonMonotoneCurveWarning, roc_dmf

GRIDS = ("pooled", "column", "balanced")


def fit(y, P, grid):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        return roc_dmf(y, P, cutoff_grid=grid).D


def two_classes(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 400))
    y = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(int)
    p1 = 1 / (1 + np.exp(-(rng.normal(size=n) + y)))
    return y, np.column_stack([1 - p1, p1])


def several_classes(seed):
    rng = np.random.default_rng(seed)
    k, n = int(rng.integers(3, 6)), int(rng.integers(20, 400))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    P = rng.dirichlet(np.ones(k), n) + rng.uniform(0, 2) * np.eye(k)[y]
    P /= P.sum(axis=1, keepdims=True)
    return y, np.round(P, 1) if seed % 3 == 0 else P


def relabelled(y, P, seed):
    renumber = np.random.default_rng(seed + 1000).permutation(P.shape[1])
    moved = np.empty_like(P)
    moved[:, renumber] = P
    return renumber[y], moved


def main():
    print("| classes | cut-off grid | problems where D moves > 1e-12 | largest move of D | largest distance D - AUC |")
    print("|---|---|---|---|---|")
    for grid in GRIDS:
        moves, errors = [], []
        for seed in range(100):
            y, P = two_classes(seed)
            D = fit(y, P, grid)
            moves.append(abs(fit(1 - y, P[:, ::-1], grid) - D))
            errors.append(abs(D - roc_auc_score(y == 0, P[:, 0])))
        moves = np.array(moves)
        print(f"| 2 | {grid} | {(moves > 1e-12).sum()} / 100 | {moves.max():.2g} | {max(errors):.2g} |")
    for grid in GRIDS:
        moves = []
        for seed in range(100):
            y, P = several_classes(seed)
            moves.append(abs(fit(*relabelled(y, P, seed), grid) - fit(y, P, grid)))
        moves = np.array(moves)
        print(f"| 3-5 | {grid} | {(moves > 1e-12).sum()} / 100 | {moves.max():.2g} | |")


if __name__ == "__main__":
    main()
