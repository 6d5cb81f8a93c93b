"""Every input check of polyroc and its error messages, in one place.

Each check raises a ``ValueError`` (or ``TypeError`` for a wrong kind of object)
naming the argument, what was expected and what was found, before any work is
done. Public functions call these helpers first and document the errors they
can raise.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Hashable, Mapping
from typing import NamedTuple

import numpy as np
from scipy.special import softmax
from sklearn.exceptions import DataConversionWarning
from sklearn.utils._param_validation import InvalidParameterError

from polyroc import _warnings
from polyroc._class_names import column_order, same_classes
from polyroc._text import count_noun

#: Largest allowed ``|row sum - 1|`` for a row of probabilities (scikit-learn's
#: ``np.allclose`` default rtol, so both libraries accept the same inputs).
SIMPLEX_ATOL = 1e-5

ZERO_DIVISION_OPTIONS = ("warn", 0.0, 1.0, "nan")


class Targets(NamedTuple):
    """Labels encoded as class indices, with the class order and the weights."""

    y_true: np.ndarray
    y_pred: np.ndarray
    classes: np.ndarray
    sample_weight: np.ndarray | None


class ScoredTargets(NamedTuple):
    """True labels as class indices, the score matrix and the weights."""

    y_true: np.ndarray
    y_score: np.ndarray
    classes: np.ndarray
    sample_weight: np.ndarray | None


def _describe(values, limit=5):
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


def _is_missing(value):
    """Whether a value is a missing marker: None, NaN, or pandas' NA / NaT (found by type name)."""
    if value is None or type(value).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(value, (float, np.floating)) and bool(np.isnan(value))


def _label_kind(value):
    """The kind of one label: "missing", "string", "bytes", "number" or its type name."""
    if _is_missing(value):
        return "missing"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bytes):
        return "bytes"
    if isinstance(value, (numbers.Number, np.bool_)):
        return "number"
    return type(value).__name__


def _first(objects, kind):
    """Index and value of the first label of ``kind`` in a 1-D object array."""
    index = next(i for i, value in enumerate(objects) if _label_kind(value) == kind)
    return index, objects[index]


def _bytes_error(name):
    return TypeError(
        f"{name} holds bytes; labels must be strings or numbers (decode them first, "
        "e.g. np.char.decode(values, 'utf-8'))"
    )


def _check_label_objects(name, objects):
    """Raise unless the labels of a 1-D object array are all strings or all numbers, none missing."""
    types = set(map(type, objects))
    if all(issubclass(kind, str) for kind in types):  # the common case, without a per-label look
        return "string"
    kinds = {_label_kind(value) for value in objects}
    if "missing" in kinds:
        index, _ = _first(objects, "missing")
        raise ValueError(f"{name} contains missing values (None, NaN or pd.NA; first at index {index})")
    if "bytes" in kinds:
        raise _bytes_error(name)
    if {"string", "number"} <= kinds:
        (i, number), (j, string) = _first(objects, "number"), _first(objects, "string")
        raise TypeError(
            f"{name} mixes strings and numbers: Mix of label input types (string and number), "
            f"{_describe([number])[1:-1]} at index {i} and {_describe([string])[1:-1]} at index {j}; "
            "use one kind of label"
        )
    other = kinds - {"string", "number"}
    if other:
        raise TypeError(f"{name} must hold numbers or strings, found {min(other)}")
    return "string" if kinds == {"string"} else "number"


def _as_label_column(name, array):
    """Ravel a column vector (n, 1) with a ``DataConversionWarning``, as scikit-learn does."""
    if array.ndim == 2 and array.shape[1] == 1:
        _warnings.warn(
            f"{name} is a column vector of shape {array.shape}; it was raveled to shape "
            f"({array.shape[0]},) (pass a 1-D array to avoid this warning)",
            DataConversionWarning,
        )
        return array.ravel()
    return array


def check_label_kinds(name, y, array=None):
    """Raise unless the labels of ``y`` (any shape) are all strings or all numbers, without bytes or missing values.

    A list mixing ``1`` and ``"1"`` is caught before numpy turns it into
    strings. ``array`` is ``as_array(name, y)`` when the caller has it.
    """
    array = as_array(name, y) if array is None else array
    if array.dtype.kind == "S":
        raise _bytes_error(name)
    if array.dtype.kind == "O" or (array.dtype.kind == "U" and not isinstance(y, np.ndarray)):
        _check_label_objects(name, np.asarray(y, dtype=object).ravel())


def check_label_vector(name, y):
    """Return ``y`` as a 1-D array of labels (all numbers or all strings).

    Labels are checked before numpy merges them: a list mixing ``1`` and
    ``"1"`` (which ``np.asarray`` turns into two equal strings) raises
    ``TypeError``, as do bytes; missing values (None, NaN, pd.NA) raise
    ``ValueError``. A column vector (n, 1) is raveled with a
    ``DataConversionWarning``.
    """
    if y is None:
        raise ValueError(f"{name} is required, got None")
    array = _as_label_column(name, as_array(name, y))
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one label per sample), got shape {array.shape}")
    if array.size == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed")
    if array.dtype.kind != "O":
        check_label_kinds(name, y, array)
    else:
        kind = _check_label_objects(name, array)
        array = array.astype(str) if kind == "string" else np.array(array.tolist())
    if array.dtype.kind not in "biufU":
        raise TypeError(f"{name} must hold numbers or strings, got dtype {array.dtype}")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        row = int(np.flatnonzero(~np.isfinite(array))[0])
        raise ValueError(f"{name} contains NaN or infinity (first at index {row})")
    return array


def unique_values(y):
    """Sorted distinct values of a 1-D array; small integers by counting (one pass), others by ``np.unique``.

    >>> unique_values(np.array([3, 1, 3, -2])).tolist()
    [-2, 1, 3]
    """
    if y.dtype.kind in "iu" and y.size:
        low, high = int(y.min()), int(y.max())
        if high - low <= max(y.size, 1 << 16) and -(2**62) < low and high < 2**62:
            offsets = y.astype(np.intp)  # no wrap-around of small or unsigned integer types
            if low:
                offsets -= low
            return (np.flatnonzero(np.bincount(offsets)) + low).astype(y.dtype)
    return np.unique(y)


def with_unique_values(y):
    """A view of a 1-D label array carrying its :func:`unique_values` for scikit-learn's label checks.

    scikit-learn's ``type_of_target`` and ``unique_labels`` read the distinct
    values from the dtype's metadata (``sklearn.utils._unique``) instead of
    computing them again; the view must not leave the check that made it.
    Other arrays are returned as they are.
    """
    if not isinstance(y, np.ndarray) or y.ndim != 1 or y.dtype.kind not in "biufU":
        return y
    return y.view(np.dtype(y.dtype, metadata={"unique": unique_values(y)}))


def _numeric_array(name, array):
    """Return an object array of numbers as float64; other arrays are returned unchanged.

    Raises ``ValueError`` for missing values (None, pd.NA) and ``TypeError``
    for anything that is not a number.
    """
    if array.dtype.kind != "O":
        return array
    if array.ndim == 0:
        raise ValueError(f"{name} must be an array, got {array.item()!r}")
    flat = array.ravel()
    missing = [i for i, value in enumerate(flat) if _is_missing(value)]
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


def check_sample_weight(sample_weight, n_samples, name="sample_weight"):
    """Return the weights as float64 (or None), after checking length and values (messages name ``name``)."""
    if sample_weight is None:
        return None
    weights = _numeric_array(name, as_array(name, sample_weight))
    if weights.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {weights.dtype}")
    weights = weights.astype(np.float64)
    if weights.ndim != 1 or weights.shape[0] != n_samples:
        raise ValueError(f"{name} must have shape ({n_samples},) to match the samples, got {weights.shape}")
    if not np.all(np.isfinite(weights)):
        raise ValueError(f"{name} contains NaN or infinity")
    if np.any(weights < 0):
        row = int(np.flatnonzero(weights < 0)[0])
        raise ValueError(f"{name} must be non-negative (index {row} is {weights[row]})")
    with np.errstate(over="ignore"):
        total = weights.sum()  # of finite non-negative weights: 0 exactly when every weight is 0
    if total == 0:
        raise ValueError(f"{name} sums to zero; at least one sample must have weight")
    check_weight_total(name, total)
    return weights


def check_weight_total(name, total):
    """Raise unless the total ``total`` of the weights ``name`` is finite (non-negative weights: no overflow).

    Weighted counts (a confusion matrix, a support) are sums of the weights
    in their own units; a total past the float64 range would reach the
    scores as infinity, far from its cause.
    """
    if not np.isfinite(total):
        raise ValueError(
            f"{name} sums past the largest float64 ({np.finfo(np.float64).max:.4g}): their total overflows; "
            "weights are relative, so divide them by a common factor (e.g. their maximum)"
        )


class ScaledWeights(NamedTuple):
    """Sample weights divided by 2**exponent, so that the largest lies in [0.5, 1).

    Made by :func:`scale_weights`, which leaves the weights as given (exponent
    0) when the division would not be exact.

    Weights mean relative importance: every ratio of weighted counts is
    unchanged by the scaling, since a power of two multiplies exactly (integer
    weights stay exact relative to each other, and equal repeated rows bit for
    bit). Accumulating the scaled weights keeps sums, squares and products of
    sums far from overflow and underflow whatever the scale of the input
    (1e-300 or 1e300). :meth:`restore` maps a weighted sum computed with the
    scaled weights back to the user's units, for outputs with scikit-learn's
    meaning of a weighted count (``confusion_matrix``, supports).
    """

    weights: np.ndarray | None
    exponent: int

    def restore(self, sums):
        """Weighted sums of the scaled weights, in the units of the given weights (exact)."""
        return sums if self.weights is None else np.ldexp(sums, self.exponent)


def scale_weights(weights):
    """Divide checked weights (or None) by the power of two that puts their maximum in [0.5, 1).

    The scaling is used only if it is exact for every weight; weights spanning
    more than the normal float64 range (the smallest positive one below about
    2**-1021 times the largest, where the scaling would round it or make it
    0) are left as given.

    >>> scaled = scale_weights(np.array([3.0, 1e300]))
    >>> float(scaled.weights.max()) < 1 <= 2 * float(scaled.weights.max()), scaled.exponent
    (True, 997)
    >>> float(scaled.restore(scaled.weights.sum())) == 3.0 + 1e300
    True
    >>> scale_weights(np.array([1.0, 5e-324])).exponent  # 5e-324 / 2 would be 0
    0
    """
    if weights is None:
        return ScaledWeights(None, 0)
    exponent = int(np.frexp(weights.max())[1])
    scaled = np.ldexp(weights, -exponent)
    if not np.array_equal(np.ldexp(scaled, exponent), weights):
        return ScaledWeights(weights, 0)
    return ScaledWeights(scaled, exponent)


def with_scaled_weights(targets):
    """The same targets with their weights scaled by :func:`scale_weights`, for scale-free results."""
    return targets._replace(sample_weight=scale_weights(targets.sample_weight).weights)


def check_same_length(**arrays):
    """Raise if the named arrays do not all have the same number of samples."""
    lengths = {name: len(a) for name, a in arrays.items()}
    if len(set(lengths.values())) > 1:
        found = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise ValueError(f"inconsistent numbers of samples: {found}")


def check_labels_argument(labels):
    """Return ``labels`` as a 1-D array of distinct labels (at least two)."""
    classes = check_label_vector("labels", labels)
    unique, counts = np.unique(classes, return_counts=True)
    if np.any(counts > 1):
        raise ValueError(f"labels must be distinct; repeated: {_describe(unique[counts > 1])}")
    if classes.size < 2:
        raise ValueError(f"labels must name at least 2 classes, got {_describe(classes)}")
    return classes


def resolve_classes(labels=None, **label_arrays):
    """Return the class order: ``labels`` if given, else the sorted union of the arrays.

    Raises ``ValueError`` if an array holds a label outside ``labels``, if the
    labels and the arrays are of different kinds (strings against numbers), or
    if fewer than two classes result.
    """
    if labels is not None:
        classes = check_labels_argument(labels)
        for name, y in label_arrays.items():
            if (classes.dtype.kind in "US") != (y.dtype.kind in "US"):
                raise TypeError(
                    f"{name} holds {'strings' if y.dtype.kind in 'US' else 'numbers'} but labels "
                    f"holds {'strings' if classes.dtype.kind in 'US' else 'numbers'}"
                )
            unknown = np.setdiff1d(np.unique(y), classes)
            if unknown.size:
                raise ValueError(f"{name} contains labels not in labels: {_describe(unknown)}")
        return classes
    arrays = list(label_arrays.values())
    kinds = {a.dtype.kind in "US" for a in arrays}
    if len(kinds) > 1:
        raise TypeError(f"{' and '.join(label_arrays)} mix string and numeric labels")
    classes = np.unique(np.concatenate(arrays))
    if classes.size < 2:
        names = " and ".join(label_arrays)
        raise ValueError(
            f"only one class ({_describe(classes)}) found in {names}; at least 2 are needed "
            "(pass labels= to name the classes)"
        )
    return classes


def encode_labels(y, classes):
    """Map each label of ``y`` to its index in ``classes`` (assumed to contain them all)."""
    order = np.argsort(classes, kind="stable")
    positions = np.searchsorted(classes[order], y)
    return order[positions].astype(np.intp)


def check_targets(y_true, y_pred, *, labels=None, sample_weight=None):
    """Validate true and predicted labels; return them encoded as class indices.

    Errors: ``y_true``/``y_pred`` not 1-D, empty, mixed types, bytes, missing
    or non-finite (see :func:`check_label_vector`); different lengths; labels
    outside ``labels``; fewer than two classes; bad ``sample_weight``. The
    weights are returned as given (see :func:`scale_weights` for accumulating
    them).
    """
    y_true = check_label_vector("y_true", y_true)
    y_pred = check_label_vector("y_pred", y_pred)
    check_same_length(y_true=y_true, y_pred=y_pred)
    weights = check_sample_weight(sample_weight, y_true.shape[0])
    classes = resolve_classes(labels, y_true=y_true, y_pred=y_pred)
    return Targets(encode_labels(y_true, classes), encode_labels(y_pred, classes), classes, weights)


def _simplex_tolerance(dtype, n_columns):
    """Largest ``|row sum - 1|`` accepted: :data:`SIMPLEX_ATOL`, or m·e if larger.

    Rounding m probabilities to a float format with machine epsilon e moves
    their sum by up to about m·e/2; for float16 (e ≈ 1e-3) that exceeds
    :data:`SIMPLEX_ATOL`, so the bound becomes m·e there.
    """
    if dtype.kind != "f":
        return SIMPLEX_ATOL
    return max(SIMPLEX_ATOL, n_columns * float(np.finfo(dtype).eps))


#: How to pass one score per sample, appended to the error for a 1-D score array.
ONE_COLUMN_HINT = (
    "for one score per sample (a binary problem, s the score of the second class) pass "
    "np.column_stack([1 - s, s]), or use polyroc.metrics.roc_auc_score or polyroc.metrics.roc_curve, "
    "which take s itself"
)


def check_score_matrix(
    y_score,
    *,
    name="y_score",
    normalize_rows=False,
    from_logits=False,
    require_simplex=True,
    transform_options=False,
    one_column_hint=True,
    n_labels=None,
    classes=None,
):
    """Validate a score matrix (n_samples, n_classes); return it as float64.

    With ``from_logits=True`` rows are mapped through softmax; with
    ``normalize_rows=True`` rows are divided by their sums. With
    ``require_simplex=True`` the (transformed) rows must be probability vectors:
    non-negative, summing to 1 within :data:`SIMPLEX_ATOL` (or the rounding of
    a float16 input, see :func:`_simplex_tolerance`). Integer, boolean, float16
    and float32 scores are converted to float64; tensors as :func:`as_array`.
    ``transform_options=True`` is for the callers that have the
    ``normalize_rows`` and ``from_logits`` options (``evaluate`` and the
    command line): the errors for rows that are not probability vectors then
    suggest them; otherwise they say to rescale the rows or map logits
    through softmax before the call. ``name`` is the argument the
    messages name; a 1-D array's message says how to pass one score per
    sample (:data:`ONE_COLUMN_HINT`) unless ``one_column_hint=False``.
    ``n_labels``, when given, is the number of classes ``labels`` names: a
    different column count is reported before the values are checked.
    ``classes``, when given, are the classes the columns stand for: a
    DataFrame whose column names are those classes has its columns taken by
    name in their order (see :func:`columns_in_class_order`).
    """
    if normalize_rows and from_logits:
        raise ValueError("normalize_rows=True and from_logits=True are exclusive; choose one")
    columns = None if classes is None else score_column_names(y_score)
    scores = _numeric_array(name, as_array(name, y_score))
    if scores.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {scores.dtype}")
    if scores.ndim != 2:
        hint = f"; {ONE_COLUMN_HINT}" if one_column_hint and scores.ndim == 1 else ""
        raise ValueError(f"{name} must be 2-D (n_samples, n_classes), got shape {scores.shape}{hint}")
    if scores.shape[1] < 2:
        raise ValueError(f"{name} must have at least 2 columns, got {scores.shape[1]}")
    if n_labels is not None and scores.shape[1] != n_labels:
        raise ValueError(
            f"{name} has {count_noun(scores.shape[1], 'column')} but labels names {count_noun(n_labels, 'class')}"
        )
    if columns is not None:
        scores = columns_in_class_order(scores, columns, np.asarray(classes), name)
    tolerance = _simplex_tolerance(scores.dtype, scores.shape[1])
    scores = scores.astype(np.float64, copy=False)  # float64 input is not copied: nothing writes to it
    if not np.all(np.isfinite(scores)):
        row = int(np.flatnonzero(~np.all(np.isfinite(scores), axis=1))[0])
        raise ValueError(f"{name} contains NaN or infinity (first in row {row})")
    if from_logits:
        return softmax(scores, axis=1)
    if normalize_rows or require_simplex:
        negative = np.any(scores < 0, axis=1)
        if np.any(negative):
            row = int(np.flatnonzero(negative)[0])
            hint = (
                "pass from_logits=True for logits"
                if transform_options
                else "map logits through softmax first, e.g. polyroc.probability.softmax"
            )
            raise ValueError(
                f"{name} has negative values (first in row {row}: {scores[row].tolist()}); "
                f"probabilities are expected ({hint})"
            )
    if normalize_rows:
        sums = scores.sum(axis=1)
        if np.any(sums == 0):
            row = int(np.flatnonzero(sums == 0)[0])
            raise ValueError(f"{name} row {row} sums to 0 and cannot be rescaled (normalize_rows=True)")
        return scores / sums[:, None]
    if require_simplex:
        off = np.abs(scores.sum(axis=1) - 1.0) > tolerance
        if np.any(off):
            row = int(np.flatnonzero(off)[0])
            hint = (
                "pass normalize_rows=True to rescale them or from_logits=True for logits"
                if transform_options
                else "rescale them (divide each row by its sum) or map logits through softmax first"
            )
            raise ValueError(
                f"rows of {name} must sum to 1 (row {row} sums to {scores[row].sum():.6g}, "
                f"{count_noun(int(off.sum()), 'row')} off); {hint}"
            )
    return scores


def score_column_names(y_score):
    """The column names of scores given as a pandas DataFrame; None for other input and pandas' default ``0..m-1``.

    pandas is not imported here: a DataFrame can only come from a program that imported it.
    """
    pandas = sys.modules.get("pandas")
    if pandas is None or not isinstance(y_score, pandas.DataFrame):
        return None
    columns = y_score.columns
    if isinstance(columns, pandas.RangeIndex) and columns.start == 0 and columns.step == 1:
        return None
    return columns.tolist()


def columns_in_class_order(scores, columns, classes, name="y_score"):
    """``scores`` with its columns in the order of ``classes`` when its column names are the class labels.

    The rule of polyroc's own functions for scores given as a DataFrame: when
    its column names are the classes (in any order; compared as text, as the
    columns of files are, see :mod:`polyroc._class_names`), each column is
    taken by its name, so the columns follow ``classes`` (``labels`` if given,
    else the sorted labels). Other names (and none) pair the columns with the
    classes by position. Raises ``ValueError`` naming ``name`` when some
    column names are class labels and others are not.
    """
    if columns is None:
        return scores
    known = classes.tolist()
    if same_classes(columns, known):
        order = column_order(columns, known)
        return scores if np.array_equal(order, np.arange(order.size)) else scores[:, order]
    named, labels = [str(c) for c in columns], {str(c) for c in known}
    if labels.intersection(named):
        raise ValueError(
            f"the columns of {name} name the classes {_describe(c for c in named if c in labels)} but not "
            f"{_describe(sorted(labels.difference(named)))} (other columns: "
            f"{_describe(c for c in named if c not in labels)}); name every column by its class to match them "
            "by name, or pass a numpy array to pair the columns with the classes by position"
        )
    return scores


def warn_column_order(y_true, y_score, labels=None, name="y_score"):
    """Warn when ``y_score`` is a DataFrame whose column names are the classes in another order than scikit-learn's.

    For the scikit-learn-named metrics, which take the columns by position in
    sorted label order (``labels``, sorted, if given) as scikit-learn does.
    Labels that cannot be sorted are left to the metric's own checks.
    """
    columns = score_column_names(y_score)
    if columns is None:
        return
    try:
        given = np.asarray(y_true if labels is None else labels)
        classes = np.unique(given) if given.ndim == 1 else None
    except (TypeError, ValueError):
        return
    if classes is None or not same_classes(columns, classes.tolist()):
        return
    used = [str(c) for c in classes.tolist()]
    if [str(c) for c in columns] != used:
        _warnings.warn(
            f"the columns of {name} are named by the classes in the order {[str(c) for c in columns]}, but are "
            f"taken by position in sorted label order {used}, as scikit-learn does; reorder them "
            f"({name}[{used}]) or use polyroc.evaluate, which matches columns to classes by name",
            UserWarning,
        )


def check_scores(
    y_true,
    y_score,
    *,
    labels=None,
    sample_weight=None,
    name="y_score",
    normalize_rows=False,
    from_logits=False,
    require_simplex=True,
    transform_options=False,
    one_column_hint=True,
    y_name="y_true",
    weight_name="sample_weight",
    columns=None,
):
    """Validate labels and a score matrix whose columns follow the class order.

    The classes are ``labels`` if given (in its order), else the sorted unique
    values of ``y_true``; there must be exactly one score column per class.
    A DataFrame whose column names are the classes has its columns taken by
    name in class order (see :func:`columns_in_class_order`); ``columns``
    gives those names when the caller has already converted ``y_score``.
    ``transform_options=True`` is for callers with the ``normalize_rows``
    and ``from_logits`` options; ``name`` is the argument the messages about
    the matrix name (see :func:`check_score_matrix`, as ``one_column_hint``);
    ``y_name`` and ``weight_name`` those about the labels and the weights
    (e.g. ``"y_val"`` and ``"val_sample_weight"`` for validation data).

    Errors: everything :func:`check_label_vector`, :func:`check_score_matrix`
    and :func:`check_sample_weight` raise; different lengths; a column count
    that differs from the number of classes; labels outside ``labels``. With
    ``labels``, the labels of ``y_true`` are checked first, then the column
    count, then the scores' values.
    """
    columns = score_column_names(y_score) if columns is None else columns
    y_true = check_label_vector(y_name, y_true)
    classes = None if labels is None else resolve_classes(labels, **{y_name: y_true})
    scores = check_score_matrix(
        y_score,
        n_labels=None if classes is None else classes.size,
        name=name,
        normalize_rows=normalize_rows,
        from_logits=from_logits,
        require_simplex=require_simplex,
        transform_options=transform_options,
        one_column_hint=one_column_hint,
    )
    check_same_length(**{y_name: y_true, name: scores})
    weights = check_sample_weight(sample_weight, y_true.shape[0], weight_name)
    if labels is None:
        classes = np.unique(y_true)
        if classes.size != scores.shape[1]:
            raise ValueError(
                f"{name} has {count_noun(scores.shape[1], 'column')} but {y_name} has "
                f"{count_noun(classes.size, 'class')} {_describe(classes)}; pass labels= to name every column"
            )
        if classes.size < 2:
            raise ValueError(f"{y_name} has only one class {_describe(classes)}; at least 2 are needed")
    scores = columns_in_class_order(scores, columns, classes, name)
    return ScoredTargets(encode_labels(y_true, classes), scores, classes, weights)


def check_class_support(y_true, classes, sample_weight=None):
    """Return the (weighted) number of samples of each class of encoded ``y_true``.

    Raises ``ValueError`` unless at least two of ``classes`` have samples of
    positive weight, since no ranking of one class against another exists
    otherwise.
    """
    support = np.bincount(y_true, weights=sample_weight, minlength=classes.size)
    support = support.astype(np.float64)
    present = classes[support > 0]
    if present.size < 2:
        raise ValueError(
            f"y_true has samples (of positive weight) of only one class {_describe(present)}; "
            "at least 2 classes are needed"
        )
    return support


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


THRESHOLD_DOMAINS = ("simplex", "box")


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


def check_prediction_sets(y_true, sets, *, labels=None, sample_weight=None, name="sets"):
    """Validate labels and a boolean set-prediction matrix (n_samples, n_classes).

    Same rules as :func:`check_scores` for the labels and the class order (no
    row need sum to 1), with the messages about the matrix naming ``name``;
    the matrix must hold only 0/1 (or booleans). Returns a
    :class:`ScoredTargets` whose ``y_score`` is the boolean mask.
    """
    targets = check_scores(
        y_true,
        sets,
        labels=labels,
        sample_weight=sample_weight,
        name=name,
        require_simplex=False,
        one_column_hint=False,
    )
    mask = targets.y_score
    boolean = (mask == 0) | (mask == 1)
    if not np.all(boolean):
        row = int(np.flatnonzero(~np.all(boolean, axis=1))[0])
        raise ValueError(f"{name} must hold booleans (0/1), found {mask[row].tolist()} in row {row}")
    return targets._replace(y_score=mask.astype(bool))


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
            f"{name} must lie strictly inside (0, 1); got {_describe(array[outside])} "
            "(0 and 1 give degenerate all-or-nothing thresholds)"
        )
    if np.any(np.diff(array) <= 0):
        raise ValueError(f"{name} must be strictly increasing, got {_describe(array)}")
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
