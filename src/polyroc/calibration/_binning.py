"""Checked inputs as calibration columns, and their bins (the kernels: :mod:`polyroc._engine.binning`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.binning import BinStrategy, BinTotals, CalibrationKind, bin_rows, bin_totals, calibration_columns
from polyroc._validation import check_scores, scale_weights

__all__ = ["CheckedColumns", "binned", "checked_columns"]


class CheckedColumns(NamedTuple):
    """Checked inputs as calibration columns: scores and hits (c, n), weights scaled (or None), the classes."""

    scores: np.ndarray
    hits: np.ndarray
    weights: np.ndarray | None
    classes: np.ndarray


def checked_columns(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    labels: ArrayLike | None,
    kind: CalibrationKind,
    sample_weight: ArrayLike | None,
) -> CheckedColumns:
    """Check the labels, the probabilities (rows on the simplex) and the weights, then take ``kind``'s columns.

    The checks are :func:`polyroc._validation.check_scores`'s, with their
    messages: the errors name ``y_true``, ``y_proba``, ``labels`` and
    ``sample_weight``. The weights are scaled by a power of two (the means
    and effective sizes do not change).
    """
    targets = check_scores(y_true, y_proba, labels=labels, sample_weight=sample_weight, name="y_proba")
    scores, hits = calibration_columns(targets.y_true, targets.y_score, kind)
    weights = None if targets.sample_weight is None else scale_weights(targets.sample_weight).weights
    return CheckedColumns(scores, hits, weights, targets.classes)


def binned(columns: CheckedColumns, n_bins: int, strategy: BinStrategy) -> tuple[BinTotals, np.ndarray]:
    """The :class:`BinTotals` of checked columns and the edges of their bins (c, n_bins + 1)."""
    codes, edges = bin_rows(columns.scores, n_bins, strategy, columns.weights)
    return bin_totals(codes, columns.scores, columns.hits, columns.weights, n_bins), edges
