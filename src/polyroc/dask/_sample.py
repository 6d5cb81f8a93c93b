"""``polyroc.dask.sample_rows``: a class-stratified sample of a frame's rows, gathered, with design weights."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from polyroc._validation import check_positive_int
from polyroc.dask._delong import _uniform
from polyroc.dask._evaluate import _is_dask_frame, _Partitions, _row_offsets
from polyroc.dask._rows import PartitionRows, frame_columns

if TYPE_CHECKING:
    import dask.dataframe as dd

__all__ = ["RowSample", "sample_rows"]


@dataclass(frozen=True)
class RowSample:
    """Rows of a frame drawn within each class, in frame order.

    Attributes
    ----------
    y_true : ndarray of shape (s,)
        Their labels (the score column names).
    y_score : ndarray of shape (s, m)
        Their scores (float64).
    sample_weight : ndarray of shape (s,)
        Their sample weight (1 without a weight column) divided by their
        class's inclusion probability: sums over the sample estimate sums
        over the frame.
    classes : ndarray of shape (m,)
        The class labels, in column order.
    row_ids : ndarray of shape (s,)
        Their positions in the frame.
    inclusion : ndarray of shape (m,)
        Each class's inclusion probability (1: every row of the class).
    class_rows : ndarray of shape (m,)
        Rows of positive weight of each class in the frame.

    See Also
    --------
    sample_rows : Draws it.
    polyroc.report.build_report : Reports on ``y_true``, ``y_score`` and ``sample_weight`` of a sample.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> table = pd.DataFrame({"a": [.8, .3, .4, .1] * 5, "b": [.2, .7, .6, .9] * 5, "label": list("abab") * 5})
    >>> sample = sample_rows(dd.from_pandas(table, npartitions=2), rows_per_class=4)
    >>> sample.classes.tolist(), sample.class_rows.tolist(), sample.inclusion.tolist()
    (['a', 'b'], [10, 10], [0.4, 0.4])
    >>> sample.y_score.shape[0] == sample.y_true.size == sample.row_ids.size
    True
    """

    y_true: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray
    classes: np.ndarray
    row_ids: np.ndarray
    inclusion: np.ndarray
    class_rows: np.ndarray


def _class_rows(rows: PartitionRows) -> np.ndarray:
    positive = np.ones(rows.size, bool) if rows.weights is None else rows.weights > 0
    return np.bincount(rows.codes[positive], minlength=rows.scores.shape[1])


def _drawn(rows: PartitionRows, inclusion: np.ndarray, seed: int):
    row_ids = rows.row_ids
    assert row_ids is not None  # rows are drawn by their ids (positions in the frame, or the row-id column)
    keep = (np.ones(rows.size, bool) if rows.weights is None else rows.weights > 0) & (
        _uniform(seed, row_ids) < inclusion[rows.codes]
    )
    weights = np.ones(rows.size) if rows.weights is None else rows.weights
    return rows.codes[keep], rows.scores[keep], weights[keep] / inclusion[rows.codes[keep]], row_ids[keep]


def sample_rows(
    frame: dd.DataFrame,
    *,
    label_col: str = "label",
    score_cols: list[str] | None = None,
    sample_weight_col: str | None = None,
    rows_per_class: int = 20_000,
    seed: int = 0,
) -> RowSample:
    """Gather a class-stratified sample of a frame's rows: all of a small class, about ``rows_per_class`` of another.

    A row of class k with n_k rows (of positive weight) is kept when a hash of
    (``seed``, its position in the frame) falls below ``rows_per_class / n_k``,
    so two frames holding the same rows in the same order (two models'
    scores) give the same rows, whatever their partitioning. Each kept row's
    weight is divided by its class's inclusion probability, so that weighted
    sums over the sample estimate those over the frame (Horvitz & Thompson
    1952, doi:10.1080/01621459.1952.10483446) and class proportions are those
    of the frame.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        Scored rows (see :func:`polyroc.dask.evaluate`).
    label_col, score_cols, sample_weight_col
        The columns, as :func:`polyroc.dask.evaluate`.
    rows_per_class : int, default=20_000
        Expected rows kept of each class larger than that.
    seed : int, default=0
        Seed of the hash.

    Returns
    -------
    RowSample

    Raises
    ------
    TypeError, ValueError
        As :func:`polyroc.dask.evaluate` for the frame and its values, or a
        bad ``rows_per_class`` or ``seed``.

    See Also
    --------
    RowSample : What it returns.
    evaluate : Exact metrics of all the rows.
    polyroc.report.build_report : Takes a sample's scores with ``evaluations`` of all rows.

    References
    ----------
    Horvitz, D. G. & Thompson, D. J. (1952). A generalization of sampling
    without replacement from a finite universe. Journal of the American
    Statistical Association 47(260), 663–685. doi:10.1080/01621459.1952.10483446

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> table = pd.DataFrame({"a": [.8, .3, .4, .1] * 50, "b": [.2, .7, .6, .9] * 50, "label": list("abab") * 50})
    >>> sample = sample_rows(dd.from_pandas(table, npartitions=3), rows_per_class=20)
    >>> sample.class_rows.tolist(), sample.inclusion.tolist(), sorted(set(sample.sample_weight.tolist()))
    ([100, 100], [0.2, 0.2], [5.0])
    """
    import dask

    if not _is_dask_frame(frame):
        raise TypeError(f"frame must be a dask DataFrame, got {type(frame).__name__}")
    rows_per_class = check_positive_int("rows_per_class", rows_per_class)
    seed = check_positive_int("seed", seed, minimum=0)
    columns = frame_columns(frame.columns, label_col, score_cols, sample_weight_col)
    frame = frame[columns.read]
    parts = _Partitions(frame, columns, _row_offsets(frame, columns), {})
    class_rows = np.sum(parts.compute(_class_rows), axis=0)
    inclusion = np.minimum(1.0, rows_per_class / np.maximum(class_rows, 1))
    draw = dask.delayed(_drawn, pure=True)
    found = dask.compute(*[draw(rows, inclusion, seed) for rows in parts.rows(validate=True)])
    codes, scores, weights, ids = (np.concatenate(part) for part in zip(*found))
    return RowSample(columns.classes[codes], scores, weights, columns.classes, ids, inclusion, class_rows)
