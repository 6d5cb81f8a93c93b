"""Kish's effective sample size of weighted rows, per class or per bin: ``(sum w)^2 / sum w^2``.

A set of rows whose positive weights are all equal gets its row count
exactly, so unweighted and equally weighted rows give the same intervals.
"""

from __future__ import annotations

import numpy as np

from polyroc._validation import scale_weights

__all__ = ["class_effective_sizes", "effective_sizes"]


def effective_sizes(rows, weight, square, smallest, largest):
    """Kish's ``(sum w)^2 / sum w^2``, or the row count where the positive weights are equal; 0 without weight."""
    with np.errstate(divide="ignore", invalid="ignore"):
        kish = weight * weight / square
    return np.where(smallest == largest, rows, np.where(weight > 0, kish, 0.0))


def class_effective_sizes(y: np.ndarray, n_classes: int, sample_weight: np.ndarray | None) -> np.ndarray:
    """Kish's effective size ``(sum w)^2 / sum w^2`` of each class's rows (encoded ``y``), float64 (m,).

    Rows of weight 0 do not count; a class whose positive weights are all
    equal gets its number of such rows exactly, and a class without weight 0.

    >>> class_effective_sizes(np.array([0, 0, 0, 0, 1, 1]), 3, np.array([1.0, 1, 1, 3, 2, 0])).tolist()
    [3.0, 1.0, 0.0]
    """
    if sample_weight is None:
        return np.bincount(y, minlength=n_classes).astype(np.float64)
    weights = scale_weights(sample_weight).weights
    positive = weights > 0
    largest = np.zeros(n_classes)
    np.maximum.at(largest, y, weights)
    smallest = np.full(n_classes, np.inf)
    np.minimum.at(smallest, y[positive], weights[positive])
    return effective_sizes(
        np.bincount(y, weights=positive, minlength=n_classes),
        np.bincount(y, weights=weights, minlength=n_classes),
        np.bincount(y, weights=weights * weights, minlength=n_classes),
        smallest,
        largest,
    )
