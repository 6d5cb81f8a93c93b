"""The columns of a frame of scored rows, and the checked numpy rows of one partition."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._class_names import class_order
from polyroc._validation import check_score_matrix


@dataclass(frozen=True)
class FrameColumns:
    """Which columns of a frame hold the label, the class scores (in class order) and the weights.

    The score column names are the classes, typed and ordered by the rule of
    :mod:`polyroc._class_names` (integers in numeric order, else text order).
    """

    label_col: str
    score_cols: tuple[str, ...]
    weight_col: str | None = None
    row_id_col: str | None = None

    @property
    def classes(self) -> np.ndarray:
        """The class labels: the score column names, as integers when every name is one."""
        return class_order(self.score_cols).classes

    @property
    def n_classes(self) -> int:
        return len(self.score_cols)

    @property
    def read(self) -> list[str]:
        """Every column an evaluation reads."""
        extra = [name for name in (self.weight_col, self.row_id_col) if name is not None]
        return [self.label_col, *self.score_cols, *extra]


def frame_columns(
    names, label_col: str, score_cols=None, weight_col: str | None = None, row_id_col: str | None = None
) -> FrameColumns:
    """Check the column roles against a frame's column ``names``; score columns default to all the others."""
    names = [str(name) for name in names]
    for role, name in (("label_col", label_col), ("sample_weight_col", weight_col), ("row_id_col", row_id_col)):
        if name is not None and not isinstance(name, str):
            raise TypeError(f"{role} must be a column name (str), got {type(name).__name__}")
        if name is not None and name not in names:
            raise ValueError(f"{role} {name!r} is not a column of the frame; its columns are {names}")
    roles = {name for name in (label_col, weight_col, row_id_col) if name is not None}
    if score_cols is None:
        score_cols = [name for name in names if name not in roles]
    elif isinstance(score_cols, str) or not all(isinstance(name, str) for name in score_cols):
        raise TypeError(f"score_cols must be a list of column names, got {score_cols!r}")
    score_cols = tuple(score_cols)
    missing = [name for name in score_cols if name not in names]
    if missing:
        raise ValueError(f"score_cols {missing} are not columns of the frame; its columns are {names}")
    if len(set(score_cols)) != len(score_cols):
        raise ValueError(f"score_cols repeats a column: {list(score_cols)}")
    doubled = sorted(roles & set(score_cols))
    if doubled:
        raise ValueError(f"column {doubled[0]!r} cannot be both a score column and the label, weight or row-id column")
    if len(score_cols) < 2:
        raise ValueError(f"at least 2 score columns are needed (one per class), got {list(score_cols)}")
    score_cols = tuple(score_cols[j] for j in class_order(score_cols).order)
    return FrameColumns(label_col, score_cols, weight_col, row_id_col)


@dataclass(frozen=True)
class PartitionRows:
    """Checked rows of one partition: class codes, float64 scores, weights (or None), row ids (or None)."""

    codes: np.ndarray
    scores: np.ndarray
    weights: np.ndarray | None
    row_ids: np.ndarray | None
    score_dtype: np.dtype

    @property
    def size(self) -> int:
        return self.codes.size


def label_codes(labels, classes: np.ndarray, where: str) -> np.ndarray:
    """Code of each label among the class names (labels compared as text); ValueError naming ``where``."""
    import pandas as pd

    values = pd.Series(labels)
    if values.dtype.kind in "iu" and classes.dtype.kind == "i":
        lookup = pd.Index(classes)
    else:  # compared as text
        values = values.astype(str)
        lookup = pd.Index(classes.astype(str))
    codes = lookup.get_indexer(values)
    unknown = codes < 0
    if np.any(unknown):
        names = sorted({str(value) for value in values[unknown].unique()[:5]})
        first = int(np.flatnonzero(unknown)[0])
        raise ValueError(
            f"{where}: labels {names} are not among the score columns {classes.tolist()} (first at row {first})"
        )
    return codes.astype(np.min_scalar_type(max(classes.size - 1, 1)))


def partition_rows(
    frame, columns: FrameColumns, where: str, transform: dict | None = None, validate: bool = True
) -> PartitionRows:
    """The checked numpy rows of a pandas partition; ValueError/TypeError naming ``where`` and the row.

    ``transform`` holds keyword options of
    :func:`polyroc._validation.check_score_matrix` (``normalize_rows``,
    ``from_logits``, ``require_simplex``, ``transform_options``). With
    ``validate=False`` (a partition already checked) untransformed floating
    scores keep their dtype and the values are not checked again.
    """
    options = transform or {}
    raw = frame[list(columns.score_cols)]
    non_numeric = [name for name, dtype in raw.dtypes.items() if getattr(dtype, "kind", "O") not in "biuf"]
    if non_numeric:
        raise TypeError(f"{where}: score columns {non_numeric} are not numeric (dtype {raw.dtypes[non_numeric[0]]})")
    values = raw.to_numpy()
    codes = label_codes(frame[columns.label_col].to_numpy(), columns.classes, where)
    if not validate and not (options.get("normalize_rows") or options.get("from_logits")):
        scores = values if values.dtype.kind == "f" else values.astype(np.float64)
        weights = None if columns.weight_col is None else frame[columns.weight_col].to_numpy().astype(np.float64)
        return PartitionRows(codes, scores, weights, _row_ids(frame, columns, where), values.dtype)
    try:
        shape = (0, columns.n_classes)
        scores = check_score_matrix(values, **options) if values.shape[0] else np.zeros(shape)
        weights = None if columns.weight_col is None else _partition_weights(frame[columns.weight_col])
    except (ValueError, TypeError) as error:
        raise type(error)(f"{where}: {error}") from None
    return PartitionRows(codes, scores, weights, _row_ids(frame, columns, where), values.dtype)


def _row_ids(frame, columns: FrameColumns, where: str) -> np.ndarray | None:
    if columns.row_id_col is None:
        return None
    row_ids = frame[columns.row_id_col].to_numpy()
    if row_ids.dtype.kind not in "iu":
        raise TypeError(f"{where}: row_id_col {columns.row_id_col!r} must hold integers, got dtype {row_ids.dtype}")
    return row_ids.astype(np.uint64)


def _partition_weights(column) -> np.ndarray:
    weights = column.to_numpy()
    if weights.dtype.kind not in "biuf":
        raise TypeError(f"sample weights must be numeric, got dtype {weights.dtype}")
    weights = weights.astype(np.float64)
    bad = ~np.isfinite(weights) | (weights < 0)
    if np.any(bad):
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"sample weights must be finite and non-negative (row {row} is {weights[row]})")
    return weights
