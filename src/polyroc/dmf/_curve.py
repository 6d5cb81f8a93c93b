"""The ROC-DMF curve and its area D from the fitted row intercepts, for a batch of fits."""

from __future__ import annotations

import numpy as np
from scipy.special import expit


def roc_points(intercept, *, monotone=False):
    """FPR-like and TPR-like points (B, T) from intercepts (B, 2T) in decreasing-cut-off order.

    ``tpr = expit(Λ0^tp)`` (first T rows), ``fpr = expit(Λ0^fp)`` (last T rows).
    With ``monotone`` both get a running maximum along the rows.

    >>> fpr, tpr = roc_points(np.array([[0.0, 2.0, -2.0, 0.0]]))
    >>> np.round(fpr, 3).tolist(), np.round(tpr, 3).tolist()
    ([[0.119, 0.5]], [[0.5, 0.881]])
    """
    n_levels = intercept.shape[1] // 2
    tpr = expit(intercept[:, :n_levels])
    fpr = expit(intercept[:, n_levels:])
    if monotone:
        tpr = np.maximum.accumulate(tpr, axis=1)
        fpr = np.maximum.accumulate(fpr, axis=1)
    return fpr, tpr


def with_endpoints(fpr, tpr):
    """Add (0, 0) before and (1, 1) after each curve (B, T) -> (B, T + 2)."""
    zeros, ones = np.zeros((fpr.shape[0], 1)), np.ones((fpr.shape[0], 1))
    return np.hstack([zeros, fpr, ones]), np.hstack([zeros, tpr, ones])


def roc_area(fpr, tpr):
    """D (B,): trapezoid sum in cut-off order, with the endpoints (0, 0) and (1, 1).

    >>> roc_area(np.array([[0.5]]), np.array([[0.5]])).tolist()
    [0.5]
    """
    x, y = with_endpoints(fpr, tpr)
    return np.sum(np.diff(x, axis=1) * (y[:, 1:] + y[:, :-1]) / 2, axis=1)


def vertical_band(fpr, tpr, grid, low_quantile, high_quantile):
    """Pointwise quantiles of TPR over replicate curves (B, T) interpolated on an FPR grid.

    FPR is made non-decreasing (running maximum) before interpolating.
    """
    x, y = with_endpoints(np.maximum.accumulate(fpr, axis=1), tpr)
    curves = np.array([np.interp(grid, xs, ys) for xs, ys in zip(x, y)])
    return np.quantile(curves, [low_quantile, high_quantile], axis=0)
