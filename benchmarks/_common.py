"""Helpers shared by the benchmark scripts: timing and a synthetic score generator."""

import time

import numpy as np


def best_time(function, repeat):
    """Smallest wall time of ``repeat`` calls, and the last result."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - start)
    return min(times), result


def make_problem(n, m, *, signal=1.5, decimals=4, seed=0):
    """Uniform labels and softmax scores that favour the true class by ``signal``.

    With ``decimals`` the scores are rounded (realistic ties) and renormalised.
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = rng.normal(size=(n, m)) + signal * np.eye(m)[y]
    P = np.exp(logits)
    P /= P.sum(axis=1, keepdims=True)
    if decimals is not None:
        P = np.round(P, decimals)
        P /= P.sum(axis=1, keepdims=True)
    return y, P


def dirichlet_problem(n, m, seed=0):
    """Uniform labels and Dirichlet-like probability rows favouring the true class (the report's timing data)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    alpha = np.ones((n, m))
    alpha[np.arange(n), y] += 1.5
    scores = rng.gamma(alpha)
    return y, scores / scores.sum(axis=1, keepdims=True)
