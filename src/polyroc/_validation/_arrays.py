"""Inputs as numpy arrays: tensors detached, objects made numeric, lengths compared, values quoted in messages."""

from __future__ import annotations

import numbers

import numpy as np


def describe(values, limit=5):
    values = list(values)
    shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:limit])
    more = f", ... ({len(values)} in all)" if len(values) > limit else ""
    return f"[{shown}{more}]"


def as_array(name, value):
    """Return ``value`` as a numpy array; a tensor is detached and moved to the CPU first.

    An object with ``detach``, ``cpu`` and ``numpy`` methods (a torch tensor,
    possibly requiring grad or on a GPU) is converted through them, so no
    array library is imported here. A value numpy cannot convert (ragged
    rows, say) raises ``ValueError`` (``TypeError`` for other failures) naming
    ``name``.
    """
    tensor_like = not isinstance(value, np.ndarray) and all(
        callable(getattr(value, method, None)) for method in ("detach", "cpu", "numpy")
    )
    try:
        return np.asarray(value.detach().cpu().numpy() if tensor_like else value)
    except (ValueError, TypeError, RuntimeError) as error:  # their messages do not name the argument
        kind = ValueError if isinstance(error, ValueError) else TypeError
        raise kind(f"{name} could not be converted to an array: {error}") from error


def is_missing(value):
    """Whether a value is a missing marker: None, NaN, or pandas' NA / NaT (found by type name)."""
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, (float, np.floating)) and bool(np.isnan(value))


def numeric_array(name, array):
    """Return an object array of numbers as float64; other arrays are returned unchanged.

    Raises ``ValueError`` for missing values (None, pd.NA) and ``TypeError``
    for anything that is not a number.
    """
    if array.dtype.kind != "O":
        return array
    if array.ndim == 0:
        raise ValueError(f"{name} must be an array, got {array.item()!r}")
    flat = array.ravel()
    missing = [i for i, value in enumerate(flat) if is_missing(value)]
    if missing:
        position = np.unravel_index(missing[0], array.shape)
        raise ValueError(
            f"{name} contains missing values (None, NaN or pd.NA; first at index "
            f"{tuple(int(i) for i in position) if array.ndim > 1 else int(position[0])})"
        )
    bad = next((value for value in flat if not isinstance(value, (numbers.Real, np.bool_))), None)
    if bad is not None:
        raise TypeError(f"{name} must be numeric, found {type(bad).__name__}")
    return array.astype(np.float64)


def _n_samples(values):
    """Rows of an array (a sparse matrix too), else the length of a sequence."""
    shape = getattr(values, "shape", None)
    return shape[0] if shape else len(values)


def check_same_length(**arrays):
    """Raise if the named arrays (or sparse matrices) do not all have the same number of samples."""
    lengths = {name: _n_samples(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        found = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"inconsistent numbers of samples: {found}")
