"""Checks of scalar options: choices, booleans, real numbers, integers, ``zero_division`` and random states."""

from __future__ import annotations

import numbers
from collections.abc import Hashable

import numpy as np
from sklearn.utils._param_validation import InvalidParameterError

ZERO_DIVISION_OPTIONS = ("warn", 0.0, 1.0, "nan")


def check_zero_division(zero_division):
    """Return the value used for 0/0: ``"warn"`` (0.0 with a warning), 0.0, 1.0 or NaN."""
    if isinstance(zero_division, str):
        if zero_division in ("warn", "nan"):
            return zero_division
    elif isinstance(zero_division, numbers.Real):
        if zero_division in (0, 1):
            return float(zero_division)
        if np.isnan(zero_division):
            return "nan"
    raise ValueError(f'zero_division must be "warn", 0.0, 1.0 or np.nan, got {zero_division!r}')


def check_option(name, value, options):
    """Raise unless ``value`` is one of ``options``; an array or a list is a TypeError."""
    if not isinstance(value, Hashable):
        listed = ", ".join(repr(o) for o in options)
        raise TypeError(f"{name} must be one of {listed}; got {type(value).__name__} {value!r}")
    if value not in options:
        listed = ", ".join(repr(o) for o in options)
        raise ValueError(f"{name} must be one of {listed}; got {value!r}")
    return value


def check_boolean(name, value):
    """Return ``value`` as a bool, raising unless it is a bool or a numpy bool.

    scikit-learn's ``"boolean"`` parameter constraint, for the options of the
    functions polyroc shares with it: the error is its ``InvalidParameterError``
    (a ``ValueError`` and a ``TypeError``), and the integers 0 and 1 are
    refused as there.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{name} must be True or False (a bool), got {type(value).__name__} {value!r}")
    return bool(value)


def check_real_or_nan(name, value, *, low, high):
    """Return ``value`` as a float, raising unless it is a real number in [low, high] or NaN.

    scikit-learn's ``Interval(Real, low, high, closed="both")`` or ``np.nan``
    constraint: the error is its ``InvalidParameterError`` (a ``ValueError``
    and a ``TypeError``); a bool counts as the number 0 or 1, as there.
    """
    if not isinstance(value, numbers.Real) or not (np.isnan(value) or low <= value <= high):
        raise InvalidParameterError(
            f"{name} must be a real number in [{low:g}, {high:g}] or np.nan, got {type(value).__name__} {value!r}"
        )
    return float(value)


def check_positive_int(name, value, *, minimum=1):
    """Return ``value`` as an int, raising unless it is an integer >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def check_real(name, value, *, low=None, high=None, closed="neither"):
    """Return ``value`` as a float, raising unless it is a real number in the interval.

    ``low``/``high`` bound the interval (None for unbounded); ``closed`` says which
    bounds belong to it: ``"neither"``, ``"low"``, ``"high"`` or ``"both"``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__}")
    value = float(value)
    above = low is None or value > low or (closed in ("low", "both") and value == low)
    below = high is None or value < high or (closed in ("high", "both") and value == high)
    if not (above and below and np.isfinite(value)):
        left = "(-inf" if low is None else ("[" if closed in ("low", "both") else "(") + f"{low:g}"
        right = "inf)" if high is None else f"{high:g}" + ("]" if closed in ("high", "both") else ")")
        raise ValueError(f"{name} must be a finite number in {left}, {right}; got {value!r}")
    return value


def check_random_state(random_state):
    """Return a ``numpy.random.Generator`` from None, a non-negative integer seed or a Generator."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(f"random_state must be a non-negative integer seed, got {random_state}")
        return np.random.default_rng(int(random_state))
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    raise TypeError(
        f"random_state must be None, an integer seed or a numpy.random.Generator, got {type(random_state).__name__}"
    )
