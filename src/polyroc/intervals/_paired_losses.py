"""Paired comparisons of probability quality: mean losses by a paired t, calibration errors by a paired bootstrap.

Two models scored on the same rows differ in their mean log loss or Brier
score by the mean of the per-row differences of their losses.
:func:`loss_rows` bounds it by the t interval of a mean from the stratified
variance of those differences (:func:`polyroc.intervals.stratified_mean_interval`,
the interval :func:`polyroc.evaluate` gives one model's mean loss), and
tests it with the same t. The binned expected calibration error (ECE) is no
mean of per-row values: :func:`calibration_rows` resamples the rows, the
same stratified replicates for every model, and bounds each difference by
the basic bootstrap interval of its replicates (:data:`ECE_INTERVAL`, chosen
by ``benchmarks/coverage_comparison.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyroc._engine.binning import bin_rows, bin_totals, binned_errors, calibration_columns, replicate_bin_totals
from polyroc._engine.counts import chunk_length
from polyroc.intervals._moments import ClassMoments
from polyroc.intervals._posterior import moments_mean_variance
from polyroc.intervals._resampling import _multiplicity_chunks, is_zero_width, percentile_interval
from polyroc.metrics._scores import sample_brier_losses, sample_log_losses

__all__ = [
    "CALIBRATION_QUANTITIES",
    "ECE_BINS",
    "LOSS_QUANTITIES",
    "PAIRED_T",
    "bootstrap_p_value",
    "calibration_rows",
    "comparison_row",
    "loss_rows",
]

#: Mean losses compare_scores accepts.
LOSS_QUANTITIES = ("log_loss", "brier_score")

#: Binned calibration errors compare_scores accepts -> the ``kind`` of :func:`polyroc.calibration.calibration_error`.
CALIBRATION_QUANTITIES = {"ece_top_label": "top-label", "ece_classwise": "classwise"}

#: Uniform bins of the calibration errors, as ``calibration_error``'s default.
ECE_BINS = 15

PAIRED_T = "paired t (stratified variance)"

#: The bootstrap interval of a difference of calibration errors: ``"basic"`` or ``"percentile"``.
ECE_INTERVAL = "basic"

IDENTICAL = "degenerate (zero width): the two models' scores are identical, so the difference is 0 on any rows"


def loss_rows(quantity, y, n_classes, weights, matrices, eps, pairs, confidence):
    """Each model's mean loss and the paired t rows of the differences (model − other).

    The difference is the weighted mean of the per-row differences of the
    losses; its interval is ``mean -/+ t sqrt(Var)``, ``Var`` the stratified
    variance of that mean and t Student's with n - k degrees of freedom, and
    its p-value ``2 P(T > |mean| / sqrt(Var))``.
    """
    from scipy.stats import t

    losses = {
        name: sample_log_losses(y, matrix, eps[name]) if quantity == "log_loss" else sample_brier_losses(y, matrix)
        for name, matrix in matrices.items()
    }
    values = {name: float(np.average(loss, weights=weights)) for name, loss in losses.items()}
    rows = []
    for model, other in pairs:
        moments = ClassMoments.of(losses[model] - losses[other], y, n_classes, weights)
        difference, variance, freedom = moments_mean_variance(moments)
        half = float(t.ppf(0.5 + confidence / 2, freedom) * np.sqrt(variance))
        method = PAIRED_T
        if variance > 0:
            p_value = float(2 * t.sf(abs(difference) / np.sqrt(variance), freedom))
        elif np.array_equal(matrices[model], matrices[other]):
            p_value, method = 1.0, f"{PAIRED_T}; {IDENTICAL}"
        else:
            p_value = float("nan")
            method = (
                f"{PAIRED_T}; degenerate (zero width): no class has two rows whose differences of losses differ, "
                "so their spread cannot be estimated"
            )
        rows.append(
            comparison_row(quantity, model, other, difference, difference - half, difference + half, p_value, method)
        )
    return values, rows


def calibration_rows(quantity, y, n_classes, weights, matrices, pairs, *, confidence, n_boot, rng):
    """Each model's binned ECE (``ECE_BINS`` uniform bins, l1) and the paired bootstrap rows of the differences.

    Every model is scored on the same stratified replicates; each
    replicate's bin totals come from :func:`replicate_bin_totals` with the
    model's bins of the full sample (a row keeps its bin in every replicate).
    """
    kind = CALIBRATION_QUANTITIES[quantity]
    columns = {}
    values = {}
    for name, matrix in matrices.items():
        scores, hits = calibration_columns(y, matrix, kind)
        codes, _ = bin_rows(scores, ECE_BINS, "uniform", None)
        columns[name] = (codes, scores, hits)
        values[name] = float(np.mean(binned_errors(bin_totals(codes, scores, hits, weights, ECE_BINS), "l1")))
    replicates = {name: [] for name in matrices}
    chunk_size = chunk_length(y.size * 8 * 4)  # the replicate weights, their squares and signs
    for multiplicities in _multiplicity_chunks(y, n_boot, True, rng, chunk_size):
        replicate_weights = multiplicities.astype(np.float64)
        if weights is not None:
            replicate_weights *= weights
        for name, (codes, scores, hits) in columns.items():
            totals = replicate_bin_totals(codes, scores, hits, replicate_weights, ECE_BINS)
            replicates[name].append(binned_errors(totals, "l1").mean(axis=-1))
    series = {name: np.concatenate(chunks) for name, chunks in replicates.items()}
    method = f"paired stratified {ECE_INTERVAL} bootstrap, B={n_boot}"
    rows = []
    for model, other in pairs:
        difference = values[model] - values[other]
        low, high, p_value = bootstrap_difference(difference, series[model] - series[other], confidence)
        row_method = method
        if np.array_equal(matrices[model], matrices[other]):
            row_method = f"{method}; {IDENTICAL}"
        elif is_zero_width(low, high):
            row_method = f"{method}; degenerate (zero width): every replicate gives the same difference"
        rows.append(comparison_row(quantity, model, other, difference, low, high, p_value, row_method))
    return values, rows


def bootstrap_difference(estimate: float, differences: np.ndarray, confidence: float) -> tuple[float, float, float]:
    """The :data:`ECE_INTERVAL` bootstrap interval of a difference and its p-value from its replicates.

    The basic interval reflects the percentile bounds about the estimate,
    ``[2 d - q_high, 2 d - q_low]``; its p-value is the bootstrap p-value of
    the reflected replicates ``2 d - d*``, the level at which it first
    excludes 0.
    """
    if ECE_INTERVAL == "basic":
        differences = 2 * estimate - differences
    low, high = percentile_interval(differences, confidence=confidence)
    return float(low), float(high), bootstrap_p_value(differences)


def bootstrap_p_value(differences: np.ndarray) -> float:
    """Two-sided p-value of no difference: the level at which the percentile interval first excludes 0."""
    differences = differences[~np.isnan(differences)]
    if differences.size == 0:
        return float("nan")
    below, above = np.mean(differences <= 0), np.mean(differences >= 0)
    return float(min(1.0, 2 * min(below, above)))


def comparison_row(quantity, model, other, difference, low, high, p_value, method, changed_rows=None) -> dict[str, Any]:
    """One row of :attr:`polyroc.comparison.ScoreComparison.comparisons` (without ``p_holm``)."""
    return {
        "quantity": quantity,
        "model": model,
        "other": other,
        "difference": float(difference),
        "low": float(low),
        "high": float(high),
        "p_value": float(p_value),
        "method": method,
        "changed_rows": changed_rows,
    }
