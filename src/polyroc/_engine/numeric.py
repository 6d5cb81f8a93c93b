"""Array helpers shared by the counts and ranking engines: division with a zero-division value, NaN-aware means."""

from __future__ import annotations

import numpy as np

from polyroc import _warnings
from polyroc.exceptions import UndefinedMetricWarning


def finish(values):
    """A Python float for a single value, else the array."""
    return float(values) if np.ndim(values) == 0 else values


def zero_division_value(zero_division):
    """The number a ``zero_division`` option stands for (``"warn"`` is 0.0, ``"nan"`` is NaN)."""
    return {"warn": 0.0, "nan": np.nan}.get(zero_division, zero_division)


def divide(numerator, denominator, zero_division=np.nan, undefined=None):
    """``numerator / denominator`` elementwise, with ``zero_division`` where the denominator is 0.

    ``zero_division="warn"`` gives 0.0 and an :class:`UndefinedMetricWarning`
    saying ``undefined`` (what is undefined) when some denominator is 0. This
    is polyroc's one zero-division rule, used by every ratio of counts.

    >>> divide(np.array([1.0, 2.0]), np.array([2.0, 0.0])).tolist()
    [0.5, nan]
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    if np.ndim(denominator) == 0 and denominator != 0:  # one non-zero total: a plain division
        return numerator / denominator
    mask = np.asarray(denominator) == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        values = numerator / np.where(mask, 1.0, denominator)
    if not np.any(mask):
        return values
    if zero_division == "warn":
        _warnings.warn(
            f"{undefined}; it is set to 0.0 there (pass zero_division to choose the value)",
            UndefinedMetricWarning,
        )
    return np.where(mask, zero_division_value(zero_division), values)


def nan_average(values, weights=None):
    """Mean of the last axis ignoring NaN (weighted, unless the weights sum to 0)."""
    valid = ~np.isnan(values)
    used = valid if weights is None else np.where(valid, weights, 0.0)
    total = used.sum(axis=-1, keepdims=True)
    used = np.where(total == 0, valid, used)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (np.where(valid, values, 0.0) * used).sum(axis=-1) / used.sum(axis=-1)
