"""Checks of cost matrices, class priors and the label of a rejection.

Each check raises a ``ValueError`` (``TypeError`` for a wrong kind of
object) naming the argument before any work is done. A cost matrix or a
prior may be labelled by the classes (a pandas DataFrame, a Series or a
mapping); it is then put in the order of the classes. They sit here, below
every package that takes a cost matrix or priors: :mod:`polyroc.decisions`,
:func:`polyroc.evaluate` and :func:`polyroc.comparison.compare_scores`.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

import numpy as np

from polyroc._text import count_noun
from polyroc._validation._arrays import as_array, describe, numeric_array
from polyroc._validation._labels import encode_labels_allowing_unknown
from polyroc._validation._scores import SIMPLEX_ATOL


def _pandas_kind(value: object) -> str | None:
    """``"DataFrame"`` or ``"Series"`` for a pandas object, else None (pandas is not imported here)."""
    pandas = sys.modules.get("pandas")
    if pandas is None:
        return None
    if isinstance(value, pandas.DataFrame):
        return "DataFrame"
    if isinstance(value, pandas.Series):
        return "Series"
    return None


def _class_positions(name: str, axis: str, keys: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """The position in ``keys`` of each class: ``keys`` must name every class exactly once, and nothing else."""
    codes = encode_labels_allowing_unknown(np.asarray(keys), classes)
    unknown = np.asarray(keys)[codes < 0]
    if unknown.size:
        raise ValueError(f"{name}'s {axis} holds labels that are not the classes: {describe(unknown)}")
    present, times = np.unique(codes, return_counts=True)
    if np.any(times > 1):
        raise ValueError(f"{name}'s {axis} names a class more than once: {describe(classes[present[times > 1]])}")
    missing = np.setdiff1d(np.arange(classes.size), codes)
    if missing.size:
        raise ValueError(f"{name}'s {axis} lacks the classes {describe(classes[missing])}")
    return np.argsort(codes)


def _numeric_values(name: str, value: object) -> np.ndarray:
    array = numeric_array(name, as_array(name, value))
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {array.dtype}")
    return array.astype(np.float64)


def check_cost_matrix(cost_matrix: object, classes: np.ndarray, name: str = "cost_matrix") -> np.ndarray:
    """The cost matrix as float64 (m, m), rows the true classes and columns the decisions, in class order.

    A pandas DataFrame is labelled by the classes on both axes, in any order,
    and is reordered; an array is taken in class order. Every entry must be
    finite and non-negative.
    """
    m = classes.size
    if _pandas_kind(cost_matrix) == "DataFrame":
        rows = _class_positions(name, "index", cost_matrix.index.to_numpy(), classes)  # type: ignore[attr-defined]
        columns = _class_positions(name, "columns", cost_matrix.columns.to_numpy(), classes)  # type: ignore[attr-defined]
        costs = _numeric_values(name, cost_matrix.to_numpy())[np.ix_(rows, columns)]  # type: ignore[attr-defined]
    else:
        costs = _numeric_values(name, cost_matrix)
        if costs.shape != (m, m):
            raise ValueError(
                f"{name} must have shape ({m}, {m}), one row per true class and one column per decision "
                f"for {count_noun(m, 'class')}, got shape {costs.shape}"
            )
    bad = ~np.isfinite(costs)
    if np.any(bad):
        raise ValueError(f"{name} contains NaN or infinity (first at {tuple(int(i) for i in np.argwhere(bad)[0])})")
    if np.any(costs < 0):
        position = tuple(int(i) for i in np.argwhere(costs < 0)[0])
        raise ValueError(f"{name} must be non-negative; entry {position} is {costs[position].item()!r}")
    return costs


def check_priors(name: str, priors: object, classes: np.ndarray, *, positive: bool = False) -> np.ndarray:
    """Class priors as float64 (m,) in class order: a distribution (non-negative, summing to 1).

    A mapping or a pandas Series is keyed by the classes (every class once);
    an array is taken in class order. With ``positive=True`` a zero prior is
    an error too. The returned priors are divided by their sum, which lies
    within :data:`~polyroc._validation.SIMPLEX_ATOL` of 1.
    """
    kind = _pandas_kind(priors)
    if isinstance(priors, Mapping) or kind == "Series":
        keyed: Any = priors  # a mapping or a pandas Series: keys() and values() in the same order
        keys = np.asarray(list(keyed.keys()))
        values = _numeric_values(name, list(keyed.values()) if kind is None else keyed.to_numpy())
        values = values[_class_positions(name, "keys", keys, classes)]
    else:
        values = _numeric_values(name, priors)
        if values.shape != (classes.size,):
            raise ValueError(f"{name} must have shape ({classes.size},), one prior per class, got shape {values.shape}")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} contains NaN or infinity: {values.tolist()}")
    if np.any(values < 0) or abs(values.sum() - 1.0) > SIMPLEX_ATOL:
        raise ValueError(
            f"{name} must be a distribution over the classes (non-negative, summing to 1); got {values.tolist()}"
        )
    if positive and np.any(values == 0):
        zero = classes[np.flatnonzero(values == 0)[0]].item()
        raise ValueError(f"{name} must be positive for every class; class {zero!r} has prior 0")
    return values / values.sum()


def reject_label_for(reject_label: object, classes: np.ndarray) -> object:
    """The label of a rejection: ``reject_label``, or by default ``"reject"`` for string classes and -1 otherwise.

    It must be of the classes' kind (a string for string classes, a number
    otherwise) and not one of them.
    """
    strings = classes.dtype.kind in "US"
    if reject_label is None:
        reject_label = "reject" if strings else -1
    if isinstance(reject_label, (bool, np.bool_)) or not isinstance(
        reject_label, (str, np.str_) if strings else (int, float, np.integer, np.floating)
    ):
        kind = "a string" if strings else "a number"
        raise TypeError(f"reject_label must be {kind}, like the classes; got {reject_label!r}")
    if np.any(classes == reject_label):
        raise ValueError(f"reject_label must not be one of the classes; got {reject_label!r}")
    return reject_label
