"""Inputs shared by the decision tests: data of a known generative model, whose posteriors are exact."""

from __future__ import annotations

import numpy as np


def dirichlet_model(rng, n, priors, signal=3.0):
    """Labels drawn at ``priors``, points x | class i ~ Dirichlet(1 + signal e_i), and x itself.

    The class-conditional density of class i is proportional to ``x_i ** signal``
    (the same normalising constant for every class), so the posterior at priors
    pi is exactly ``pi_i x_i^signal / sum_j pi_j x_j^signal``: :func:`posterior`.
    """
    m = len(priors)
    y = rng.choice(m, n, p=priors)
    alpha = np.ones((n, m))
    alpha[np.arange(n), y] += signal
    x = rng.standard_gamma(alpha)
    return y, x / x.sum(axis=1, keepdims=True)


def posterior(x, priors, signal=3.0):
    """The exact posterior of the Dirichlet model at ``priors``, by Bayes' theorem on the densities."""
    log_joint = np.log(np.asarray(priors, dtype=float)) + signal * np.log(x)
    log_joint -= log_joint.max(axis=1, keepdims=True)
    joint = np.exp(log_joint)
    return joint / joint.sum(axis=1, keepdims=True)


def loop_em(scores, train_priors, n_steps=100_000, tol=1e-15):
    """Saerens, Latinne & Decaestecker's EM by plain loops over the rows and classes (no vectorisation)."""
    n, m = len(scores), len(train_priors)
    priors = list(train_priors)
    for _ in range(n_steps):
        totals = [0.0] * m
        for row in scores:
            adjusted = [row[i] * priors[i] / train_priors[i] for i in range(m)]
            norm = sum(adjusted)
            for i in range(m):
                totals[i] += adjusted[i] / norm
        updated = [total / n for total in totals]
        if max(abs(a - b) for a, b in zip(updated, priors)) < tol:
            return np.array(updated)
        priors = updated
    return np.array(priors)
