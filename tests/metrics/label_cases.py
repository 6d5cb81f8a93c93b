"""Random label cases shared by the metric tests, and their tolerance: scikit-learn's to 1e-12."""

import warnings

import numpy as np
import pytest

AVERAGES = ["macro", "micro", "weighted", None]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]
TOL = {"rtol": 0, "atol": 1e-12}

# the textbook's worked confusion counts (checklist section 2)
O8 = np.array([[8, 1, 1], [2, 6, 0], [1, 1, 7]])  # Cat, Dog, Bird


def assert_close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, float), np.asarray(expected, float), equal_nan=True, **TOL)


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def make_case(seed, *, weighted=False, strings=False, absent=None):
    """Random labels; ``absent``: an extra class only predicted ("pred") or in neither ("neither")."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(3, 7))
    n = int(rng.integers(8, 80))
    y_true = rng.integers(0, m, n)
    y_true[:2] = [0, 1]
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, m, n))
    n_labels = m + (absent is not None)
    if absent == "pred":
        y_pred[: max(1, n // 10)] = m
    labels = rng.permutation(n_labels)
    if strings:
        names = np.array([f"class-{k}" for k in range(n_labels)])
        y_true, y_pred, labels = names[y_true], names[y_pred], names[labels]
    weights = rng.uniform(0.1, 3.0, n) if weighted else None
    return y_true, y_pred, labels, weights


CASES = [
    pytest.param((seed, weighted, strings, absent), id=f"s{seed}-w{int(weighted)}-str{int(strings)}-{absent}")
    for seed in range(4)
    for weighted in (False, True)
    for strings in (False, True)
    for absent in (None, "pred", "neither")
]


def random_probabilities(rng, n, m):
    scores = rng.dirichlet(np.ones(m), n)
    scores[0] = np.eye(m)[(m - 1)]  # a certain, wrong prediction: clipped at eps
    scores[1] = np.eye(m)[0]
    return scores / scores.sum(axis=1, keepdims=True)
