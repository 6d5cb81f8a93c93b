"""True values of every quantity of ``polyroc.evaluate`` under the coverage study's data model.

Class c has ``counts[c]`` rows (fixed), each a probability row drawn from
Dirichlet(``alphas[c]``). The truths hold at those class counts:

- AUCs from A(i|j) = P(score i of a class-i row > score i of a class-j row).
  Component k of a Dirichlet(alpha) row is Beta(alpha[k], alpha.sum() - alpha[k]),
  so A(i|j) = integral of f_X(x) F_Y(x) dx over (0, 1), by ``scipy.integrate.quad``.
- Quantities of the argmax rule (confusion probabilities, top-2 hits) and the
  expected log loss and Brier score of each class, by Monte Carlo.
- A counts metric at the metric of the expected counts ``counts[c] * pi[c]``.

The study (benchmarks/coverage.py) and the tests (tests/intervals/test_coverage_truth.py)
import this module.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import integrate, special

from polyroc.counts import get_metric
from polyroc.evaluation._plan import QUANTITY_METHODS
from polyroc.evaluation._summary import CLASS_SCORES, COUNTS_SCORES

#: Every scalar score of ``polyroc.evaluate`` for m > 2 classes (the per-class scores are CLASS_SCORES).
#: The ECEs are studied apart, with scores of known miscalibration (coverage_calibration.py).
SCORES = tuple(
    name
    for name in QUANTITY_METHODS
    if name not in CLASS_SCORES and not name.startswith("ece_") and name != "expected_cost"  # needs a cost matrix
)

#: Clip of the log loss, as polyroc's for float64 scores.
EPS = float(np.finfo(np.float64).eps)


# --------------------------------------------------------------------------- data model


def separation_alphas(n_classes: int, separation: float = 2.0) -> np.ndarray:
    """Dirichlet parameters (m, m): row c is 1 + separation * one-hot(c)."""
    return np.ones((n_classes, n_classes)) + separation * np.eye(n_classes)


def balanced_counts(n: int, n_classes: int) -> np.ndarray:
    """n rows over the classes as evenly as possible (the first classes take the remainder)."""
    counts = np.full(n_classes, n // n_classes)
    counts[: n % n_classes] += 1
    return counts


def geometric_counts(n: int, n_classes: int, ratio: float) -> np.ndarray:
    """n rows in proportions ratio ** (-c / (m - 1)): class 0 the largest, ``ratio`` times the last.

    Rounded by largest remainders (ties to the lower class index), so the counts sum to n.
    """
    shares = ratio ** (-np.arange(n_classes) / (n_classes - 1))
    exact = n * shares / shares.sum()
    counts = np.floor(exact).astype(int)
    remainder = n - counts.sum()
    order = np.argsort(-(exact - counts), kind="stable")
    counts[order[:remainder]] += 1
    return counts


def imbalanced_counts(n: int, n_classes: int, target_ratio: float = 20.0, minimum: int = 5) -> np.ndarray:
    """Geometric class counts with largest:smallest as close to ``target_ratio`` as ``minimum`` rows allow.

    Tries geometric ratios on a fine grid up to twice the target; among the
    roundings whose smallest class keeps ``minimum`` rows, takes the one whose
    actual ratio is nearest the target (the smallest grid ratio among ties).
    """
    if n < n_classes * minimum:
        raise ValueError(f"n = {n} cannot give {n_classes} classes {minimum} rows each")
    best, best_gap = balanced_counts(n, n_classes), np.inf
    for ratio in np.linspace(1.0, 2.0 * target_ratio, 3901):
        counts = geometric_counts(n, n_classes, ratio)
        if counts.min() < minimum:
            continue
        gap = abs(counts.max() / counts.min() - target_ratio)
        if gap < best_gap:
            best, best_gap = counts, gap
    return best


def class_counts(n: int, n_classes: int, mix: str) -> np.ndarray:
    """Class counts of a scenario: ``mix`` "balanced" or "imbalanced"."""
    if mix == "balanced":
        return balanced_counts(n, n_classes)
    if mix == "imbalanced":
        return imbalanced_counts(n, n_classes)
    raise ValueError(f'mix must be "balanced" or "imbalanced", got {mix!r}')


def simulate(alphas: np.ndarray, counts: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Labels (sorted by class) and Dirichlet score rows of one data set at the class counts."""
    y = np.repeat(np.arange(len(counts)), counts)
    gammas = rng.standard_gamma(alphas[y])
    return y, gammas / gammas.sum(axis=1, keepdims=True)


# --------------------------------------------------------------------------- AUCs


@functools.lru_cache(maxsize=4096)
def beta_exceedance(a_x: float, b_x: float, a_y: float, b_y: float) -> float:
    """P(X > Y) for independent X ~ Beta(a_x, b_x), Y ~ Beta(a_y, b_y): the integral of f_X F_Y."""

    def integrand(x):
        log_density = special.xlogy(a_x - 1, x) + special.xlog1py(b_x - 1, -x) - special.betaln(a_x, b_x)
        return np.exp(log_density) * special.betainc(a_y, b_y, x)

    value, _ = integrate.quad(integrand, 0.0, 1.0, epsabs=1e-13, epsrel=1e-12, limit=200)
    return float(value)


def component_beta(alpha: np.ndarray, k: int) -> tuple[float, float]:
    """Beta parameters of component k of a Dirichlet(alpha) row."""
    return float(alpha[k]), float(alpha.sum() - alpha[k])


def exceedance(alphas: np.ndarray, high: tuple[int, int], low: tuple[int, int]) -> float:
    """P(score high[1] of a class-high[0] row > score low[1] of an independent class-low[0] row)."""
    return beta_exceedance(*component_beta(alphas[high[0]], high[1]), *component_beta(alphas[low[0]], low[1]))


def pairwise_aucs(alphas: np.ndarray) -> np.ndarray:
    """A[i, j] = A(i|j) = P(score i of a class-i row > score i of a class-j row); NaN on the diagonal."""
    n_classes = len(alphas)
    table = np.full((n_classes, n_classes), np.nan)
    for i in range(n_classes):
        for j in range(n_classes):
            if i != j:
                table[i, j] = exceedance(alphas, (i, i), (j, i))
    return table


def micro_auc(alphas: np.ndarray, counts: np.ndarray) -> float:
    """P(positive cell > negative cell) of the raveled one-vs-rest problem, for cells of distinct rows.

    Positive cells: component c of a class-c row, class c with weight n_c / n.
    Negative cells: component k != c of a class-c row, weight n_c / (n (m - 1)).
    """
    n_classes, n = len(alphas), counts.sum()
    total = 0.0
    for c in range(n_classes):
        for other in range(n_classes):
            for k in range(n_classes):
                if k != other:
                    weight = counts[c] / n * counts[other] / (n * (n_classes - 1))
                    total += weight * exceedance(alphas, (c, c), (other, k))
    return total


def auc_truths(alphas: np.ndarray, counts: np.ndarray) -> dict:
    """True OvR AUC per class and the four AUC scores of ``polyroc.evaluate`` at the class counts."""
    table = pairwise_aucs(alphas)
    counts = np.asarray(counts, dtype=np.float64)
    n, n_classes = counts.sum(), len(counts)
    ovr = np.array([np.nansum(counts * table[k]) / (n - counts[k]) for k in range(n_classes)])
    pairs = [(i, j) for i in range(n_classes) for j in range(i + 1, n_classes)]
    return {
        "ovr_per_class": ovr,
        "roc_auc_ovr_macro": float(ovr.mean()),
        "roc_auc_ovr_weighted": float(np.dot(counts, ovr) / n),
        "roc_auc_ovr_micro": float(micro_auc(alphas, counts)),
        "roc_auc_ovo_macro": float(np.mean([(table[i, j] + table[j, i]) / 2 for i, j in pairs])),
    }


# --------------------------------------------------------------------------- argmax rule and losses


def class_moments(alpha: np.ndarray, true_class: int, draws: int, seed, chunk: int = 10**6) -> dict:
    """Monte Carlo moments of rows of one class (Dirichlet(alpha), true class ``true_class``).

    Returns ``pi`` (m,): distribution of the argmax prediction; ``top_2``: P(the
    true class ranks in the two highest scores); ``log_loss``: E[-log clip(p_true,
    eps, 1 - eps)]; ``brier``: E[sum_k (p_k - [k = true])^2]; and the Monte Carlo
    standard error of each (``*_se``). ``seed`` seeds ``numpy.random.default_rng``.
    """
    rng = np.random.default_rng(seed)
    n_classes = len(alpha)
    predicted = np.zeros(n_classes)
    sums = np.zeros(3)  # top-2 hits, log loss, Brier
    squares = np.zeros(3)
    for start in range(0, draws, chunk):
        gammas = rng.standard_gamma(alpha, size=(min(chunk, draws - start), n_classes))
        rows = gammas / gammas.sum(axis=1, keepdims=True)
        true_score = rows[:, true_class]
        predicted += np.bincount(rows.argmax(axis=1), minlength=n_classes)
        values = np.stack(
            [
                ((rows > true_score[:, None]).sum(axis=1) < 2).astype(np.float64),
                -np.log(np.clip(true_score, EPS, 1 - EPS)),
                np.einsum("ij,ij->i", rows, rows) - 2 * true_score + 1,
            ]
        )
        sums += values.sum(axis=1)
        squares += np.einsum("ij,ij->i", values, values)
    means = sums / draws
    errors = np.sqrt(np.maximum(squares / draws - means**2, 0.0) / draws)
    pi = predicted / draws
    return {
        "pi": pi,
        "pi_se": np.sqrt(pi * (1 - pi) / draws),
        "top_2": means[0],
        "top_2_se": errors[0],
        "log_loss": means[1],
        "log_loss_se": errors[1],
        "brier": means[2],
        "brier_se": errors[2],
    }


def class_seed(seed, n_classes: int, true_class: int) -> np.random.SeedSequence:
    """Seed of the Monte Carlo rows of one class: child ``true_class`` of ``SeedSequence(seed)``."""
    return np.random.SeedSequence(seed).spawn(n_classes)[true_class]


def rule_moments(alphas: np.ndarray, draws: int, seed) -> list[dict]:
    """:func:`class_moments` of every class, class c seeded by :func:`class_seed` (``seed``: int or ints)."""
    n_classes = len(alphas)
    return [class_moments(alpha, c, draws, class_seed(seed, n_classes, c)) for c, alpha in enumerate(alphas)]


def counts_truths(pi: np.ndarray, counts: np.ndarray) -> dict:
    """Counts metrics of the expected confusion counts counts[c] * pi[c, k]; per-class scores as arrays."""
    expected = np.asarray(counts, dtype=np.float64)[:, None] * np.asarray(pi)
    return {
        **{name: float(get_metric(name)(expected)) for name in COUNTS_SCORES},
        **{name: score(expected, average=None, zero_division=0.0) for name, score in CLASS_SCORES.items()},
    }


def scenario_truths(alphas: np.ndarray, counts: np.ndarray, moments: list[dict]) -> dict:
    """Every true value at the class counts: scalar scores by name, per-class scores as lists.

    ``moments`` are the :func:`class_moments` of each class. Returns
    ``{"scores": {name: value}, "classes": {name: [value per class]}, "ovr_per_class": [...],
    "monte_carlo_se": {what: largest standard error}}``.
    """
    counts = np.asarray(counts, dtype=np.float64)
    n = counts.sum()
    pi = np.array([moment["pi"] for moment in moments])
    by_counts = counts_truths(pi, counts)
    aucs = auc_truths(alphas, counts)

    def mean_over_rows(key):
        return float(np.dot(counts, [moment[key] for moment in moments]) / n)

    scores = {
        **{name: by_counts[name] for name in COUNTS_SCORES},
        **{name: aucs[name] for name in SCORES if name.startswith("roc_auc")},
        "log_loss": mean_over_rows("log_loss"),
        "brier_score": mean_over_rows("brier"),
        "top_2_accuracy": mean_over_rows("top_2"),
    }
    return {
        "scores": {name: scores[name] for name in SCORES},
        "classes": {name: np.asarray(by_counts[name]).tolist() for name in CLASS_SCORES},
        "ovr_per_class": aucs["ovr_per_class"].tolist(),
        "monte_carlo_se": {
            key: float(max(np.max(moment[f"{key}_se"]) for moment in moments))
            for key in ("pi", "top_2", "log_loss", "brier")
        },
    }
