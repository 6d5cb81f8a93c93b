"""Checks of score matrices and of labels with their scores.

polyroc's own functions take a score matrix with one column per class
(:func:`check_score_matrix`, :func:`check_scores`); the scikit-learn-named
functions of :mod:`polyroc.metrics` also take one score per sample and apply
scikit-learn's rules (the ``*_sklearn`` checks).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import softmax
from sklearn.utils import check_array

from polyroc import _warnings
from polyroc._class_names import column_order, same_classes
from polyroc._text import count_noun
from polyroc._validation._arrays import as_array, check_same_length, describe, numeric_array
from polyroc._validation._labels import check_label_vector, encode_labels, resolve_classes
from polyroc._validation._weights import check_sample_weight

#: Largest allowed ``|row sum - 1|`` for a row of probabilities (scikit-learn's
#: ``np.allclose`` default rtol, so both libraries accept the same inputs).
SIMPLEX_ATOL = 1e-5


class ScoredTargets(NamedTuple):
    """True labels as class indices, the score matrix and the weights."""

    y_true: np.ndarray
    y_score: np.ndarray
    classes: np.ndarray
    sample_weight: np.ndarray | None


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
    scores = numeric_array(name, as_array(name, y_score))
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
            f"the columns of {name} name the classes {describe(c for c in named if c in labels)} but not "
            f"{describe(sorted(labels.difference(named)))} (other columns: "
            f"{describe(c for c in named if c not in labels)}); name every column by its class to match them "
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
                f"{count_noun(classes.size, 'class')} {describe(classes)}; pass labels= to name every column"
            )
        if classes.size < 2:
            raise ValueError(f"{y_name} has only one class {describe(classes)}; at least 2 are needed")
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
            f"y_true has samples (of positive weight) of only one class {describe(present)}; "
            "at least 2 classes are needed"
        )
    return support


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


def check_score_input_sklearn(name: str, y_score: object) -> np.ndarray:
    """Scores as a numeric numpy array (tensors detached), refused with a message naming ``name``.

    The scikit-learn counterpart of :func:`check_score_matrix`: one score per
    sample (1-D) or per class (2-D), with no condition on their values but
    finiteness.

    Missing values and NaN or infinite scores, strings and complex numbers
    are a ``ValueError`` (as scikit-learn), other objects a ``TypeError``.
    """
    if y_score is None:
        raise ValueError(f"{name} is required, got None")
    array = numeric_array(name, as_array(name, y_score))
    if array.ndim == 0:
        raise ValueError(f"{name} must be 1-D or 2-D (one row per sample), got shape ()")
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be numeric, got dtype {array.dtype}")
    if array.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one sample is needed")
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinity")
    return array


def float_scores_sklearn(y_proba: ArrayLike) -> np.ndarray:
    """Scores as a float array (float16/32/64 kept, others float64), finite, as scikit-learn's check."""
    return check_array(y_proba, ensure_2d=False, dtype=[np.float64, np.float32, np.float16])


def check_probability_range_sklearn(y_proba: np.ndarray) -> None:
    """Raise, as scikit-learn does, unless the probabilities lie in [0, 1]."""
    if np.max(y_proba) > 1:
        raise ValueError(f"y_proba contains values greater than 1: {np.max(y_proba)}")
    if np.min(y_proba) < 0:
        raise ValueError(f"y_proba contains values lower than 0: {np.min(y_proba)}")


def check_frames_in_one_order(scores: Mapping[str, object], what: str = "scores") -> None:
    """Raise ``ValueError`` when two models' DataFrames index the same rows in different orders.

    ``scores`` maps model names to score matrices; only pandas DataFrames
    carry an index (pandas is not imported here). Indexes of different rows
    (or none) say nothing: the rows are paired by position.
    """
    pandas = sys.modules.get("pandas")
    if pandas is None:
        return
    frames = {name: value.index for name, value in scores.items() if isinstance(value, pandas.DataFrame)}
    names = list(frames)
    for name in names[1:]:
        first, index = frames[names[0]], frames[name]
        if index.equals(first) or len(index) != len(first) or not index.is_unique:
            continue
        try:
            reordered = index.sort_values().equals(first.sort_values())
        except TypeError:  # labels that do not sort: no order to compare
            continue
        if reordered:
            raise ValueError(
                f"{what} of models {names[0]!r} and {name!r} are DataFrames indexing the same rows in different "
                f"orders; the rows of the models are paired by position: put them in one order first, e.g. "
                f"{what}[{name!r}].loc[{what}[{names[0]!r}].index]"
            )
