"""Turning scores into probabilities and labels into indicator rows.

``softmax`` maps logits to probability rows (optionally sharpened or softened by
a temperature); ``one_hot`` encodes labels as indicator rows in a fixed class
order, the form in which cross-entropy and the Brier score compare them with
probabilities.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import softmax as _scipy_softmax

from polyroc._validation import (
    as_array,
    check_label_vector,
    encode_labels,
    resolve_classes,
)
from polyroc._validation._params import Interval, validate_params

__all__ = ["one_hot", "softmax"]


@validate_params(
    {
        "temperature": [Interval("real", 0, None, closed="neither")],
        "axis": [Interval("integer", None, None, closed="neither")],  # its range depends on z
    }
)
def softmax(z: ArrayLike, *, temperature: float = 1.0, axis: int = -1) -> np.ndarray:
    """Softmax of logits along ``axis``: ``exp(z / T) / sum(exp(z / T))``.

    Computed in the stable form (the maximum is subtracted first), so large
    logits do not overflow. A temperature below 1 sharpens the distribution
    towards a one-hot at the argmax; above 1 it flattens it towards uniform.
    The argmax and the order of the entries never change.

    Parameters
    ----------
    z : array-like of shape (..., m)
        Logits (any finite real numbers).
    temperature : float, default=1.0
        Positive temperature T dividing the logits.
    axis : int, default=-1
        Axis along which the probabilities sum to 1.

    Returns
    -------
    ndarray of float64, same shape as ``z``
        Probabilities summing to 1 along ``axis``.

    Raises
    ------
    ValueError
        If ``z`` is 0-dimensional, empty or holds NaN/infinity, if
        ``temperature`` is not a finite positive number, or if ``axis`` is out
        of range.
    TypeError
        If ``z`` is not numeric or ``temperature``/``axis`` have the wrong type.

    See Also
    --------
    one_hot : Indicator rows of labels, the targets of these probabilities.
    polyroc.metrics.log_loss : The cross-entropy of probabilities.
    polyroc.evaluate : ``from_logits=True`` applies this softmax to the rows first.

    Examples
    --------
    >>> softmax([2.0, 1.0, 0.1]).round(6)
    array([0.659001, 0.242433, 0.098566])
    >>> softmax([2.0, 1.0, 0.1], temperature=0.5).round(6)
    array([0.863777, 0.1169  , 0.019323])
    >>> softmax([[1000.0, 1000.0], [0.0, 0.0]])
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """
    logits = as_array("z", z)
    if logits.dtype.kind not in "biuf":
        raise TypeError(f"z must be numeric, got dtype {logits.dtype}")
    if logits.ndim == 0 or logits.size == 0:
        raise ValueError(f"z must have at least one dimension and one value, got shape {logits.shape}")
    if not np.all(np.isfinite(logits)):
        raise ValueError("z contains NaN or infinity")
    temperature = float(temperature)
    if not -logits.ndim <= axis < logits.ndim:
        raise ValueError(f"axis {axis} is out of range for z with {logits.ndim} dimensions")
    return _scipy_softmax(logits.astype(np.float64) / temperature, axis=axis)


@validate_params({"n_classes": [None, Interval("integer", 1, None, closed="left")]})
def one_hot(y: ArrayLike, n_classes: int | None = None, *, labels: ArrayLike | None = None) -> np.ndarray:
    """Indicator rows of labels: row i has a 1 in the column of ``y[i]``'s class.

    Give either ``n_classes`` (``y`` holds the class indices 0..n_classes-1) or
    ``labels`` (the classes in column order; ``y`` may hold any labels, e.g.
    strings). With neither, the columns are the sorted distinct values of ``y``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels.
    n_classes : int, optional
        Number of classes, when ``y`` holds class indices.
    labels : array-like of shape (m,), optional
        The classes, in the order of the columns.

    Returns
    -------
    ndarray of float64 of shape (n_samples, m)
        One row per sample, a single 1 per row.

    Raises
    ------
    ValueError
        If both ``n_classes`` and ``labels`` are given, if ``y`` is empty or not
        1-D, if ``n_classes`` < 1, if ``y`` holds an index outside
        0..n_classes-1 or a label outside ``labels``, or if ``labels`` repeats a
        label or names fewer than 2 classes.
    TypeError
        If ``n_classes`` is not an integer, ``y`` is not integer while
        ``n_classes`` is given, ``y`` mixes strings and numbers, or ``y`` and
        ``labels`` are of different kinds (strings against numbers).

    See Also
    --------
    softmax : Probability rows from logits.
    polyroc.metrics.brier_score_loss : The mean squared distance of probabilities to these rows.

    Examples
    --------
    >>> one_hot([2, 0], 3)
    array([[0., 0., 1.],
           [1., 0., 0.]])
    >>> one_hot(["dog", "cat"], labels=["dog", "cat", "bird"])
    array([[1., 0., 0.],
           [0., 1., 0.]])
    """
    if n_classes is not None and labels is not None:
        raise ValueError("give n_classes or labels, not both")
    targets = check_label_vector("y", y)
    if n_classes is None:
        classes = resolve_classes(labels, y=targets) if labels is not None else np.unique(targets)
        indices, n_classes = encode_labels(targets, classes), classes.size
    else:
        n_classes = int(n_classes)
        if targets.dtype.kind not in "biu":
            raise TypeError(f"y must hold integer class indices when n_classes is given, got dtype {targets.dtype}")
        outside = (targets < 0) | (targets >= n_classes)
        if np.any(outside):
            row = int(np.flatnonzero(outside)[0])
            raise ValueError(f"y must hold indices in 0..{n_classes - 1}; y[{row}] is {targets[row]}")
        indices = targets.astype(np.intp)
    encoded = np.zeros((indices.size, n_classes))
    encoded[np.arange(indices.size), indices] = 1.0
    return encoded
