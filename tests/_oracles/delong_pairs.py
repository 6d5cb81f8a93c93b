"""DeLong's AUC statistics and their influences from explicit O(n^2) pair matrices (psi = 1, 1/2, 0).

The structural-components formula written out for every AUC of polyroc (one-vs-rest per class, macro,
support-weighted and micro; Hand & Till's M and its weighted variant), weighted and not, and the stratified
covariance written with loops over the rows: the oracle the DeLong engine and the omnibus tests are checked against.
"""

import numpy as np


def psi_matrix(a, b):
    """psi[s, t] = 1 if a_s > b_t, 1/2 on a tie, else 0."""
    return (a[:, None] > b[None, :]) + 0.5 * (a[:, None] == b[None, :])


def pair_statistic(in_p, in_n, column, w):
    """``A = sum_{P x N} w_s w_t psi_st / (W_P W_N)`` and its derivative in u_s (structural components)."""
    psi = psi_matrix(column, column)
    wp, wn = w * in_p, w * in_n
    total_p, total_n = wp.sum(), wn.sum()
    area = wp @ psi @ wn / (total_p * total_n)
    placement_p = psi @ wn  # a P sample: N weight below it, ties half
    placement_n = wp @ psi  # an N sample: P weight above it, ties half
    influence = in_p * w * (placement_p / (total_p * total_n) - area / total_p)
    influence += in_n * w * (placement_n / (total_p * total_n) - area / total_n)
    return area, influence


def oracle_statistics(y, S, w):
    """Every AUC statistic of AUC_KEYS and its influence, from pair matrices."""
    n, m = S.shape
    w = np.ones(n) if w is None else w
    members = [y == k for k in range(m)]
    support = np.array([w[c].sum() for c in members])
    found = {}
    per_class = [pair_statistic(members[k], ~members[k], S[:, k], w) for k in range(m)]
    T = np.array([p[0] for p in per_class])
    D = np.array([p[1] for p in per_class])
    found["ovr", None] = (T, D)
    found["ovr", "macro"] = (T.mean(), D.mean(axis=0))
    share = support / support.sum()
    found["ovr", "weighted"] = (share @ T, share @ D)
    values, influences, pair_support = [], [], []
    for a in range(m):
        for b in range(a + 1, m):
            a_over_b, d_ab = pair_statistic(members[a], members[b], S[:, a], w)
            b_over_a, d_ba = pair_statistic(members[b], members[a], S[:, b], w)
            values.append((a_over_b + b_over_a) / 2)
            influences.append((d_ab + d_ba) / 2)
            pair_support.append(support[a] + support[b])
    values, influences, pair_support = np.array(values), np.array(influences), np.array(pair_support)
    found["ovo", "macro"] = (values.mean(), influences.mean(axis=0))
    pair_share = pair_support / pair_support.sum()
    found["ovo", "weighted"] = (pair_share @ values, pair_share @ influences)
    found["ovr", "micro"] = micro_oracle(y, S, w)
    return found


def micro_oracle(y, S, w):
    """Micro AUC over (positive cell, negative cell) pairs, same-row pairs included, and its derivative."""
    n, m = S.shape
    flat = S.ravel()
    positive = (y[:, None] == np.arange(m)).ravel()
    row = np.repeat(np.arange(n), m)
    cell_weight = w[row]
    psi = psi_matrix(flat, flat)
    total = w.sum()
    norm_ = total * total * (m - 1)
    area = (cell_weight * positive) @ psi @ (cell_weight * ~positive) / norm_
    cell_placement = positive * (psi @ (cell_weight * ~positive)) + ~positive * ((cell_weight * positive) @ psi)
    per_row = cell_placement.reshape(n, m).sum(axis=1)
    return area, w * per_row / norm_ - 2 * area * w / total


def oracle_covariance(D, y, w):
    """The stratified formula written out with loops over the rows of positive weight."""
    keep = np.ones(y.size, bool) if w is None else w > 0
    k = D.shape[0]
    covariance = np.zeros((k, k))
    for c in np.unique(y[keep]):
        rows = [s for s in range(y.size) if y[s] == c and keep[s]]
        size = len(rows)
        for a in range(k):
            for b in range(k):
                mean_a = sum(D[a, s] for s in rows) / size
                mean_b = sum(D[b, s] for s in rows) / size
                covariance[a, b] += size / (size - 1) * sum((D[a, s] - mean_a) * (D[b, s] - mean_b) for s in rows)
    return covariance


def random_problem(rng, m, n, weighted, decimals):
    """Labels with at least 3 rows of positive weight per class, tied probabilities, integer weights or None."""
    y = np.concatenate([np.repeat(np.arange(m), 3), rng.integers(0, m, n - 3 * m)])
    rng.shuffle(y)
    S = np.round(rng.dirichlet(np.ones(m), n), decimals)
    S = S / S.sum(axis=1, keepdims=True)
    if not weighted:
        return y, S, None
    w = rng.integers(0, 4, n).astype(np.float64)
    for k in range(m):  # at least 2 rows of positive weight per class
        w[np.flatnonzero(y == k)[:2]] = rng.integers(1, 4, 2)
    return y, S, w
