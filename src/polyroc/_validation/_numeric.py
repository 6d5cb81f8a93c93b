"""Checks of the other numeric inputs: confusion counts, thresholds, distance matrices, real arrays,
quantile levels and mappings of model scores."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from polyroc._text import count_noun
from polyroc._validation._arrays import as_array, describe
from polyroc._validation._scores import SIMPLEX_ATOL


def check_counts(counts):
    """Validate a confusion-counts array of shape (..., m, m) with m >= 2."""
    array = as_array("counts", counts)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"counts must be numeric, got dtype {array.dtype}")
    if array.ndim < 2 or array.shape[-1] != array.shape[-2]:
        raise ValueError(f"counts must have shape (..., m, m), got {array.shape}")
    if array.shape[-1] < 2:
        raise ValueError(f"counts must describe at least 2 classes, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise ValueError("counts contains NaN or infinity")
    if np.any(array < 0):
        raise ValueError("counts must be non-negative")
    return array


THRESHOLD_DOMAINS = ("simplex", "box")


def check_thresholds(thresholds, n_classes, *, domain=None):
    """Return a threshold vector tau as float64 of shape (n_classes,).

    With ``domain="simplex"`` tau must be a probability vector (non-negative,
    summing to 1 within :data:`SIMPLEX_ATOL`); with ``domain="box"`` it must
    have minimum 0 and maximum at most 1; with ``domain=None`` any finite
    vector is accepted.
    """
    tau = as_array("thresholds", thresholds)
    if tau.dtype.kind not in "biuf":
        raise TypeError(f"thresholds must be numeric, got dtype {tau.dtype}")
    if tau.shape != (n_classes,):
        raise ValueError(f"thresholds must have shape ({n_classes},), one per class, got shape {tau.shape}")
    tau = tau.astype(np.float64)
    if not np.all(np.isfinite(tau)):
        raise ValueError(f"thresholds contain NaN or infinity: {tau.tolist()}")
    if domain == "simplex" and (tau.min() < -SIMPLEX_ATOL or abs(tau.sum() - 1.0) > SIMPLEX_ATOL):
        raise ValueError(
            "thresholds must lie on the probability simplex for domain='simplex' "
            f"(non-negative, summing to 1); got min {tau.min():.6g} and sum {tau.sum():.6g}"
        )
    if domain == "box" and (abs(tau.min()) > SIMPLEX_ATOL or tau.max() > 1.0 + SIMPLEX_ATOL):
        raise ValueError(
            "thresholds must lie in the box for domain='box' (minimum 0, maximum at most 1); "
            f"got min {tau.min():.6g} and max {tau.max():.6g}"
        )
    return tau


def check_distance_matrix(distances, n_classes, *, n_candidates=None, name="D"):
    """Return a label distance matrix of shape (n_classes, n_candidates) as float64.

    Rows follow the score columns (the trained classes), columns the candidate
    labels; entries must be finite and non-negative. ``n_candidates`` fixes
    the number of columns (any number >= 1 if None); ``name`` is the argument
    the messages name.
    """
    matrix = as_array(name, distances)
    if matrix.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {matrix.dtype}")
    wrong_columns = matrix.ndim == 2 and (
        matrix.shape[1] < 1 or (n_candidates is not None and matrix.shape[1] != n_candidates)
    )
    if matrix.ndim != 2 or matrix.shape[0] != n_classes or wrong_columns:
        expected = "n_candidates" if n_candidates is None else n_candidates
        raise ValueError(
            f"{name} must have shape ({n_classes}, {expected}), one row per column of y_score, got shape {matrix.shape}"
        )
    matrix = matrix.astype(np.float64)
    if not np.all(np.isfinite(matrix)):
        raise ValueError(f"{name} contains NaN or infinity")
    if np.any(matrix < 0):
        raise ValueError(f"{name} must be non-negative (a distance)")
    return matrix


def check_min_samples(name, n_samples, minimum):
    """Raise unless ``n_samples`` (rows of ``name``) is at least ``minimum``."""
    if n_samples < minimum:
        raise ValueError(f"{name} has {count_noun(n_samples, 'sample')}; at least {minimum} are needed")


def check_real_array(name, values, *, ndims=(2,), n_columns=None, min_samples=1):
    """Return ``values`` as a finite float64 array with an allowed number of dimensions.

    ``ndims`` lists the allowed numbers of dimensions; ``n_columns`` (2-D only)
    fixes the number of columns; ``min_samples`` is the least number of rows.
    """
    array = as_array(name, values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {array.dtype}")
    if array.ndim not in ndims:
        allowed = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"{name} must be {allowed}, got shape {array.shape}")
    if n_columns is not None and array.shape[1] != n_columns:
        raise ValueError(f"{name} must have {n_columns} columns, got shape {array.shape}")
    check_min_samples(name, array.shape[0], min_samples)
    array = array.astype(np.float64)
    finite = np.isfinite(array).reshape(array.shape[0], -1).all(axis=1)
    if not np.all(finite):
        raise ValueError(f"{name} contains NaN or infinity (first in row {int(np.flatnonzero(~finite)[0])})")
    return array


def check_quantile_levels(name, levels, *, minimum=2):
    """Return ``levels`` as a float array of at least ``minimum`` increasing values in (0, 1)."""
    array = as_array(name, levels)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {array.dtype}")
    array = array.astype(np.float64)
    if array.ndim != 1 or array.size < minimum:
        raise ValueError(f"{name} must be 1-D with at least {minimum} values, got shape {array.shape}")
    outside = ~((array > 0) & (array < 1))
    if np.any(outside):
        raise ValueError(
            f"{name} must lie strictly inside (0, 1); got {describe(array[outside])} "
            "(0 and 1 give degenerate all-or-nothing thresholds)"
        )
    if np.any(np.diff(array) <= 0):
        raise ValueError(f"{name} must be strictly increasing, got {describe(array)}")
    return array


def check_positive_array(name, value, shapes):
    """Return ``value`` as a float array of one of ``shapes``, all finite and > 0.

    ``shapes`` is a sequence of allowed shapes (tuples); the error lists them.
    """
    array = as_array(name, value)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {array.dtype}")
    array = array.astype(np.float64)
    if array.shape not in [tuple(s) for s in shapes]:
        allowed = " or ".join(str(tuple(s)) for s in shapes)
        raise ValueError(f"{name} must have shape {allowed}, got {array.shape}")
    bad = ~np.isfinite(array) | (array <= 0)
    if np.any(bad):
        position = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} must be finite and positive; entry {position} is {array[position]!r}")
    return array


def check_model_scores(scores, *, minimum=2):
    """Return the model names of a mapping name -> scores, checking there are ``minimum``."""
    if not isinstance(scores, Mapping):
        raise TypeError(f"scores must be a mapping of model name to scores, got {type(scores).__name__}")
    names = tuple(scores)
    if len(names) < minimum:
        raise ValueError(f"scores must hold at least {minimum} models, got {len(names)}")
    bad = [name for name in names if not isinstance(name, str)]
    if bad:
        raise TypeError(f"model names must be strings (the keys of scores), got {type(bad[0]).__name__} {bad[0]!r}")
    return names
