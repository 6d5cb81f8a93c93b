"""Vertical averaging of one-vs-rest ROC curves with class weights, and its dispersion band.

The aggregated curve is ``TPR_agg(f) = Σ_i w_i TPR_i(f)`` at common FPR values
``f``. Each class curve is piecewise linear with vertical jumps; at a jump the
interpolant takes the upper value (as ``np.interp`` and scipy's ``interp1d``
do), so a fixed grid reproduces the reference code. The exact curve instead
uses the union of all breakpoints and keeps both the lower and the upper value
at each jump: between breakpoints every class curve is linear, so the
trapezoid area of the aggregate is exactly ``Σ_i w_i AUC_i``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from polyroc._validation import _describe
from polyroc.curves import _class_counts, _roc_points, _trapezoid_area


class ClassCurves(NamedTuple):
    """One-vs-rest ROC curve (fpr, tpr) and AUC of each class; NaN for a class without samples."""

    fpr: tuple
    tpr: tuple
    auc: np.ndarray


class AggregatedCurve(NamedTuple):
    """The weighted curve, its area, and the weighted between-class spread of TPR."""

    fpr: np.ndarray
    tpr: np.ndarray
    dispersion: np.ndarray
    auc: float


def class_curves(y, scores, weights):
    """One-vs-rest ROC curves of encoded labels ``y`` against each score column."""
    points = [_roc_points(*counts, True) for counts in _class_counts(y, scores, weights)]
    fpr = tuple(f for f, _, _ in points)
    tpr = tuple(t for _, t, _ in points)
    return ClassCurves(fpr, tpr, np.array([_trapezoid_area(f, t) for f, t in zip(fpr, tpr)]))


def aggregate_vertical(curves, weights, grid=None):
    """Weighted vertical average of ``curves`` (classes with non-zero weight must be defined).

    ``grid=None`` gives the exact curve (see the module notes); an integer
    gives ``grid`` equispaced FPR values in [0, 1], upper values at jumps.
    """
    involved = np.flatnonzero(weights > 0)
    fpr_of = [curves.fpr[i] for i in involved]
    tpr_of = [curves.tpr[i] for i in involved]
    if grid is None:
        fpr, class_tpr = _exact_points(fpr_of, tpr_of)
    else:
        fpr = np.linspace(0.0, 1.0, grid)
        class_tpr = np.array([np.interp(fpr, f, t) for f, t in zip(fpr_of, tpr_of)])
    share = weights[involved]
    tpr = share @ class_tpr
    dispersion = np.sqrt(np.maximum(share @ (class_tpr - tpr) ** 2, 0.0))
    return AggregatedCurve(fpr, tpr, dispersion, float(np.trapezoid(tpr, fpr)))


def restrict_weights(weights, present, classes):
    """Weights of the ``present`` classes, renormalised to sum to 1."""
    kept = np.where(present, weights, 0.0)
    if kept.sum() <= 0:
        raise ValueError(
            f"every class with samples ({_describe(classes[present])}) has Gini weight 0; "
            "the aggregated curve is undefined"
        )
    return kept / kept.sum()


def _exact_points(fpr_of, tpr_of):
    """Union of the breakpoints, each with the lower and upper TPR of every class.

    A breakpoint keeps its lower point only where some class jumps there.
    """
    breakpoints = np.unique(np.concatenate(fpr_of))
    upper = np.array([np.interp(breakpoints, f, t) for f, t in zip(fpr_of, tpr_of)])
    lower = np.array([np.interp(-breakpoints, -f[::-1], t[::-1]) for f, t in zip(fpr_of, tpr_of)])
    jumps = np.any(lower != upper, axis=0)
    fpr = np.concatenate((breakpoints[jumps], breakpoints))
    class_tpr = np.concatenate((lower[:, jumps], upper), axis=1)
    order = np.lexsort((np.concatenate((np.zeros(jumps.sum()), np.ones(breakpoints.size))), fpr))
    return fpr[order], class_tpr[:, order]
