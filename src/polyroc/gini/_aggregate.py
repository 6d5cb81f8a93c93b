"""Averaging of one-vs-rest ROC curves with class weights, and the dispersion band.

Vertical averaging (the default): the aggregated curve is
``TPR_agg(f) = Σ_i w_i TPR_i(f)`` at common FPR values ``f``. Each class
curve is piecewise linear with vertical jumps; at a jump the interpolant
takes the upper value (as ``np.interp`` and scipy's ``interp1d`` do), so a
fixed grid reproduces the reference code. The exact curve instead
uses the union of all breakpoints and keeps both the lower and the upper value
at each jump: between breakpoints every class curve is linear, so the
trapezoid area of the aggregate is exactly ``Σ_i w_i AUC_i``.

Threshold averaging (the paper's "aggregate TPR and FPR for given
thresholds"): at every threshold ``t`` of the union of the scores (and
``+inf``), the point ``(Σ_i w_i FPR_i(t), Σ_i w_i TPR_i(t))``, where
``FPR_i(t)`` and ``TPR_i(t)`` are the weighted shares of the negatives and the
positives of class ``i`` with a class-``i`` score ``>= t``. Both coordinates
grow as ``t`` falls, so the points in threshold order form a monotone curve;
its trapezoid area is in general not ``Σ_i w_i AUC_i``, and it means something
only when the score columns share a scale (as probabilities do).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from polyroc._engine.ranking import binary_counts, class_counts, roc_points, trapezoid_area, vertical_average
from polyroc._validation import describe


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
    points = [roc_points(*counts, True) for counts in class_counts(y, scores, weights)]
    fpr = tuple(f for f, _, _ in points)
    tpr = tuple(t for _, t, _ in points)
    return ClassCurves(fpr, tpr, np.array([trapezoid_area(f, t) for f, t in zip(fpr, tpr)]))


def aggregate_vertical(curves, weights, grid=None):
    """Weighted vertical average of ``curves`` (classes with non-zero weight must be defined).

    ``grid=None`` gives the exact curve (see the module notes); an integer
    gives ``grid`` equispaced FPR values in [0, 1], upper values at jumps.
    """
    fpr, tpr, dispersion = vertical_average(curves.fpr, curves.tpr, weights, grid)
    return AggregatedCurve(fpr, tpr, dispersion, trapezoid_area(fpr, tpr))


def aggregate_threshold(y, scores, sample_weight, weights):
    """Exact weighted threshold average of the one-vs-rest curves (see the module notes).

    Classes with weight 0 take no part; the rows must all have positive
    weight. The dispersion is ``sqrt(Σ_i w_i (TPR_i(t) - TPR_agg(t))²)``. Two
    passes over the classes keep the memory at a few arrays of the number of
    thresholds.
    """
    involved = np.flatnonzero(weights > 0)
    thresholds = np.unique(scores[:, involved])[::-1]
    counts = [binary_counts(y == i, scores[:, i], sample_weight) for i in involved]
    fpr, tpr, spread = (np.zeros(thresholds.size + 1) for _ in range(3))
    for share, counts_of_class in zip(weights[involved], counts):
        class_fpr, class_tpr = _rates_at(counts_of_class, thresholds)
        fpr += share * class_fpr
        tpr += share * class_tpr
    for share, counts_of_class in zip(weights[involved], counts):
        spread += share * (_rates_at(counts_of_class, thresholds)[1] - tpr) ** 2
    # exactly, both coordinates are non-decreasing and end at Σ w_i = 1; keep it so after rounding
    fpr, tpr = (np.maximum.accumulate(values / values[-1]) for values in (fpr, tpr))
    return AggregatedCurve(fpr, tpr, np.sqrt(spread), trapezoid_area(fpr, tpr))


def resample_curve(curve, grid):
    """``curve`` at ``grid`` equispaced FPR values (upper value at vertical jumps)."""
    fpr = np.linspace(0.0, 1.0, grid)
    tpr = np.interp(fpr, curve.fpr, curve.tpr)
    return AggregatedCurve(fpr, tpr, np.interp(fpr, curve.fpr, curve.dispersion), trapezoid_area(fpr, tpr))


def diagonal_curve(grid=None):
    """The chance diagonal as an aggregated curve (area 0.5, no dispersion)."""
    fpr = np.array([0.0, 1.0]) if grid is None else np.linspace(0.0, 1.0, grid)
    return AggregatedCurve(fpr, fpr.copy(), np.zeros_like(fpr), 0.5)


def _rates_at(counts, thresholds):
    """(FPR, TPR) of ``score >= t`` at ``+inf`` and at each of the descending ``thresholds``.

    ``counts`` are the ``(fps, tps, distinct scores)`` of one class's curve.
    """
    fps, tps, distinct = counts
    reached = np.concatenate(([0], np.searchsorted(-distinct, -thresholds, side="right")))
    return (np.concatenate(([0.0], fps / fps[-1]))[reached], np.concatenate(([0.0], tps / tps[-1]))[reached])


def restrict_weights(weights, present, classes):
    """Weights of the ``present`` classes, renormalised to sum to 1."""
    kept = np.where(present, weights, 0.0)
    if kept.sum() <= 0:
        raise ValueError(
            f"every class with samples ({describe(classes[present])}) has Gini weight 0; "
            "the aggregated curve is undefined"
        )
    return kept / kept.sum()
