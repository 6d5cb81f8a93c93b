"""Checks of labels: label vectors, the ``labels=`` argument, class orders and their encoding.

Two rule sets live side by side. polyroc's own functions take one label per
sample and at least two classes (:func:`check_label_vector`,
:func:`check_labels_argument`, :func:`check_targets`, :func:`encode_labels`).
The scikit-learn-named functions of :mod:`polyroc.metrics` accept what
scikit-learn accepts: indicator and sparse targets (handed on to scikit-learn),
one class, labels outside ``labels=`` (the ``*_sklearn`` checks,
:class:`LabelPair` and :func:`encode_labels_allowing_unknown`).
"""

from __future__ import annotations

import numbers
from typing import Any, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import issparse
from sklearn.exceptions import DataConversionWarning
from sklearn.utils.multiclass import type_of_target, unique_labels

from polyroc import _warnings
from polyroc._validation._arrays import as_array, check_same_length, describe, is_missing
from polyroc._validation._weights import check_sample_weight, check_sample_weight_sklearn


class Targets(NamedTuple):
    """Labels encoded as class indices, with the class order and the weights."""

    y_true: np.ndarray
    y_pred: np.ndarray
    classes: np.ndarray
    sample_weight: np.ndarray | None


def _label_kind(value):
    """The kind of one label: "missing", "string", "bytes", "number" or its type name."""
    if is_missing(value):
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
            f"{describe([number])[1:-1]} at index {i} and {describe([string])[1:-1]} at index {j}; "
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


def check_label_input_sklearn(name: str, y: object) -> np.ndarray:
    """Labels as a numpy array, refused with a message naming ``name`` when they cannot be labels.

    Tensors are detached first. One label per sample (1-D, or a column vector
    raveled with a ``DataConversionWarning``) goes through polyroc's label
    check: a list mixing strings and numbers (``[1, "1"]``, which numpy would
    merge) and bytes are a ``TypeError``; missing values (None, NaN, pd.NA),
    an empty array, a 0-d value and a sequence of sequences (scikit-learn's
    former multilabel format) a ``ValueError``. 2-D indicator arrays, sparse
    ones too, are returned as they are, for scikit-learn's ``type_of_target``;
    other sparse input is a ``TypeError``, as scikit-learn.
    """
    if y is None:
        raise ValueError(f"{name} is required, got None")
    if issparse(y):
        sparse: Any = y  # a scipy.sparse matrix (scipy ships no type information)
        if sparse.shape[1] > 1:
            return sparse
        raise TypeError(f"{name} is sparse: sparse input is only supported when targets are of multilabel type")
    array = as_array(name, y)
    if array.dtype == object and array.ndim == 1 and array.size and isinstance(array[0], (list, tuple, np.ndarray)):
        raise ValueError(f"{name} is a sequence of sequences: multilabel targets must be an indicator array")
    if array.ndim == 0:
        raise ValueError(f"{name} must be 1-D (one label per sample), got shape ()")
    if array.ndim == 2 and array.shape[1] > 1:
        return array
    return check_label_vector(name, y if isinstance(y, (list, tuple)) else array)


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


def _repeated_labels(classes):
    """The labels that ``classes`` (1-D) holds more than once, sorted."""
    unique, counts = np.unique(classes, return_counts=True)
    return unique[counts > 1]


def check_labels_argument(labels):
    """Return ``labels`` as a 1-D array of distinct labels (at least two)."""
    classes = check_label_vector("labels", labels)
    repeated = _repeated_labels(classes)
    if repeated.size:
        raise ValueError(f"labels must be distinct; repeated: {describe(repeated)}")
    if classes.size < 2:
        raise ValueError(f"labels must name at least 2 classes, got {describe(classes)}")
    return classes


@overload
def check_labels_argument_sklearn(labels: None) -> None: ...


@overload
def check_labels_argument_sklearn(labels: ArrayLike) -> np.ndarray: ...


def check_labels_argument_sklearn(labels: ArrayLike | None) -> np.ndarray | None:
    """``labels=`` as a 1-D array of distinct labels (None stays None), as scikit-learn's metrics take it.

    Unlike :func:`check_labels_argument`, one label is enough, and the repeated
    labels are all listed.
    """
    if labels is None:
        return None
    classes = check_label_vector("labels", labels)
    repeated = _repeated_labels(classes)
    if repeated.size:
        raise ValueError(f"labels must be distinct; repeated: {repeated.tolist()}")
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
                raise ValueError(f"{name} contains labels not in labels: {describe(unknown)}")
        return classes
    arrays = list(label_arrays.values())
    kinds = {a.dtype.kind in "US" for a in arrays}
    if len(kinds) > 1:
        raise TypeError(f"{' and '.join(label_arrays)} mix string and numeric labels")
    classes = np.unique(np.concatenate(arrays))
    if classes.size < 2:
        names = " and ".join(label_arrays)
        raise ValueError(
            f"only one class ({describe(classes)}) found in {names}; at least 2 are needed "
            "(pass labels= to name the classes)"
        )
    return classes


def encode_labels(y, classes):
    """Map each label of ``y`` to its index in ``classes`` (assumed to contain them all)."""
    order = np.argsort(classes, kind="stable")
    positions = np.searchsorted(classes[order], y)
    return order[positions].astype(np.intp)


def encode_labels_allowing_unknown(y: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Index of each label of ``y`` in ``classes``; -1 for a label not among them.

    Unlike :func:`encode_labels`, ``classes`` need not hold every label of ``y``
    (and may hold labels of another kind: strings against numbers).
    """
    if (y.dtype.kind in "OUS") != (np.asarray(classes).dtype.kind in "OUS"):
        return np.full(y.shape[0], -1, dtype=np.intp)
    if y.dtype.kind in "iu" and np.array_equal(classes, np.arange(classes.size)):
        # labels 0, 1, ..., m - 1 are their own codes
        return np.where((y >= 0) & (y < classes.size), y, -1).astype(np.intp)
    order = np.argsort(classes, kind="stable")
    ordered = classes[order]
    position = np.clip(np.searchsorted(ordered, y), 0, ordered.size - 1)
    found = ordered[position] == y
    return np.where(found, order[position], -1).astype(np.intp)


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


class LabelPair(NamedTuple):
    """Checked label vectors: their kind, the labels present (sorted) and the weights."""

    kind: str
    y_true: np.ndarray
    y_pred: np.ndarray
    present: np.ndarray
    sample_weight: np.ndarray | None


def check_label_pair_sklearn(
    y_true: object,
    y_pred: object,
    sample_weight: ArrayLike | None,
    names: tuple[str, str] = ("y_true", "y_pred"),
) -> LabelPair:
    """Check two label vectors as scikit-learn does; kind "binary", "multiclass" or "multilabel-indicator".

    The scikit-learn counterpart of :func:`check_targets`: indicator (and
    sparse) targets pass, for scikit-learn's functions, and one class is enough.
    """
    y_true, y_pred = check_label_input_sklearn(names[0], y_true), check_label_input_sklearn(names[1], y_pred)
    check_same_length(**{names[0]: y_true, names[1]: y_pred})
    weights = check_sample_weight_sklearn(sample_weight, y_true.shape[0])
    true_checked, pred_checked = with_unique_values(y_true), with_unique_values(y_pred)  # one np.unique each
    kinds = {type_of_target(true_checked, input_name=names[0]), type_of_target(pred_checked, input_name=names[1])}
    if kinds == {"binary", "multiclass"}:
        kinds = {"multiclass"}
    if len(kinds) > 1:
        raise ValueError(f"Classification metrics can't handle a mix of {' and '.join(sorted(kinds))} targets")
    kind = kinds.pop()
    if kind not in ("binary", "multiclass", "multilabel-indicator"):
        raise ValueError(f"{kind} targets are not supported ({names[0]}, {names[1]})")
    if kind == "multilabel-indicator":
        return LabelPair(kind, y_true, y_pred, np.arange(0), weights)
    present = np.asarray(unique_labels(true_checked, pred_checked))
    if kind == "binary" and present.size > 2:
        kind = "multiclass"
    return LabelPair(kind, y_true, y_pred, present, weights)


def check_positive_label_sklearn(pos_label: float | bool | str | None, y_true: np.ndarray) -> float | bool | str:
    """``pos_label``, or 1 when it is None and the labels are {0, 1}, {-1, 1} or a subset (else ValueError)."""
    if pos_label is not None:
        return pos_label
    classes = np.unique(y_true)
    usual = ([0, 1], [-1, 1], [0], [-1], [1])
    if classes.dtype.kind in "OUS" or not any(np.array_equal(classes, option) for option in usual):
        raise ValueError(
            f"y_true takes value in {{{', '.join(repr(c) for c in classes.tolist())}}} and pos_label is not "
            "specified: either make y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
        )
    return 1


def check_column_labels_sklearn(labels: ArrayLike, y_true: np.ndarray, n_columns: int, what: str) -> np.ndarray:
    """scikit-learn's checks of ``labels`` naming the score columns: unique, sorted, one per column."""
    given = check_labels_argument_sklearn(labels)
    classes = np.unique(given)
    if not np.array_equal(classes, given):
        raise ValueError(f"Parameter 'labels' must be ordered (sorted), got {given.tolist()}")
    if classes.size != n_columns:
        raise ValueError(f"Number of given labels, {classes.size}, not equal to the number of {what}, {n_columns}")
    if np.setdiff1d(y_true, classes).size:
        raise ValueError("'y_true' contains labels not in parameter 'labels'")
    return classes
