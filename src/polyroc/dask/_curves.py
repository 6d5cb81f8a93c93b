"""``polyroc.dask.ovr_roc_curve``: exact one-vs-rest ROC curves of a dask DataFrame."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from polyroc import _warnings
from polyroc._engine.ranking import BinaryCounts, roc_points
from polyroc._validation import check_option, check_positive_int, check_weight_total
from polyroc.curves import OvrRocCurves, roc_curves_result
from polyroc.dask._evaluate import _cell_passes, _is_dask_frame, _Partitions, ranking_samples
from polyroc.dask._ranking import Axis, cell_runs
from polyroc.dask._rows import frame_columns
from polyroc.exceptions import UndefinedMetricWarning

if TYPE_CHECKING:
    import dask.dataframe as dd

__all__ = ["ovr_roc_curve"]


def _binary_counts(found, axis: Axis) -> BinaryCounts:
    """False and true positives at each distinct score, highest first (as `polyroc._engine.ranking.binary_counts`)."""
    edges, totals, cells = found.edges[axis], found.totals[axis], found.cells[axis]
    values, positives, negatives = [], [], []
    for g, (cell_values, cell_positives, cell_negatives) in enumerate(cells):
        values.append(cell_values.astype(np.float64))
        positives.append(cell_positives)
        negatives.append(cell_negatives)
        if g < edges.size and totals[2 * g + 1].sum() > 0:
            point = totals[2 * g + 1]
            values.append(np.array([edges[g]], dtype=np.float64))
            positives.append(point[[axis.positive]])
            negatives.append(np.array([point.sum() - point[axis.positive]]))
    cutoffs, positive_steps, negative_steps = (np.concatenate(parts)[::-1] for parts in (values, positives, negatives))
    return np.cumsum(negative_steps), np.cumsum(positive_steps), cutoffs


def ovr_roc_curve(
    frame: dd.DataFrame,
    *,
    label_col: str = "label",
    score_cols: list[str] | None = None,
    sample_weight_col: str | None = None,
    drop_intermediate: bool = True,
    micro: bool = True,
    rows_per_sort: int = 2_000_000,
    rows_per_pass: int = 250_000_000,
) -> OvrRocCurves:
    """One-vs-rest ROC curve of every class (and the micro average) of a dask DataFrame, exactly.

    The rows are never gathered: each score column is cut into score ranges
    as :func:`polyroc.dask.evaluate` cuts them, each range's rows are moved to
    one task that returns its distinct scores with the weight of the
    positive class and of the others there, and the curve is the running sum
    of those from the highest score down. The curves equal
    :func:`polyroc.curves.ovr_roc_curve` on the concatenated rows; their size
    is the number of distinct scores (before ``drop_intermediate``), which is
    what the driver receives.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        Scored rows (see :func:`polyroc.dask.evaluate`); any finite scores.
    label_col, score_cols, sample_weight_col
        The columns, as :func:`polyroc.dask.evaluate`.
    drop_intermediate, micro
        As :func:`polyroc.curves.ovr_roc_curve`.
    rows_per_sort, rows_per_pass
        As :func:`polyroc.dask.evaluate`.

    Returns
    -------
    OvrRocCurves

    Raises
    ------
    TypeError, ValueError
        For a bad frame, columns, labels, scores or weights (as
        :func:`polyroc.dask.evaluate`, naming the partition), or a bad option.

    Warns
    -----
    UndefinedMetricWarning
        A class has no rows of positive weight; its curve and AUC are NaN.

    See Also
    --------
    polyroc.curves.ovr_roc_curve : The same of rows held in memory.
    evaluate : The AUCs and every other metric of the frame.
    polyroc.plotting.RocCurveDisplay : Draws the curves.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> table = pd.DataFrame({"c": [.9, .4, .65, .2], "d": [.1, .6, .35, .8], "label": list("ccdd")})
    >>> curves = ovr_roc_curve(dd.from_pandas(table, npartitions=2))
    >>> curves.fpr[1], curves.tpr[1]
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    if not _is_dask_frame(frame):
        raise TypeError(f"frame must be a dask DataFrame, got {type(frame).__name__}")
    check_option("drop_intermediate", drop_intermediate, (True, False))
    check_option("micro", micro, (True, False))
    rows_per_sort = check_positive_int("rows_per_sort", rows_per_sort)
    rows_per_pass = check_positive_int("rows_per_pass", rows_per_pass)
    columns = frame_columns(frame.columns, label_col, score_cols, sample_weight_col)
    m = columns.n_classes
    parts = _Partitions(frame[columns.read], columns, None, {"require_simplex": False})
    summaries = parts.compute(ranking_samples, parts.sample_size)
    axes = [Axis(column, m) for column in range(m)] + ([Axis(None, m)] if micro else [])
    found = _cell_passes(parts, axes, summaries, rows_per_sort, rows_per_pass, cell_runs)
    curves = [roc_points(*_binary_counts(found, axis), drop_intermediate) for axis in axes]
    support = found.totals[axes[0]].sum(axis=0)
    with np.errstate(over="ignore"):
        check_weight_total(f"sample_weight_col {columns.weight_col!r}", support.sum())
    absent = columns.classes[support == 0]
    if absent.size:
        _warnings.warn(
            f"labels {absent.tolist()} have no samples of positive weight; their ROC curve is undefined (NaN)",
            UndefinedMetricWarning,
        )
    micro_curve = curves[m] if micro else (None, None, None)
    return roc_curves_result(columns.classes, curves[:m], micro_curve, drop_intermediate, {"engine": "dask"})
