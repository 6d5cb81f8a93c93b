"""Reading predicted scores from files.

The score file format (CSV with a header row):

- one column per class holding that class's score; the column name *is* the
  class label (e.g. ``cat,dog,bird`` or ``0,1,2``);
- one label column (default name ``label``) holding the true class of each
  row, spelled exactly as one of the score column names;
- optionally an id column (``--id-col``) that is carried along and ignored
  for scoring;
- every other column is an error unless ``score_columns`` lists the score
  columns explicitly.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = ["ScoreTable", "read_scores"]


@dataclass(frozen=True)
class ScoreTable:
    """Scores read from a file: labels, the score matrix and the class order."""

    y_true: np.ndarray
    y_score: np.ndarray
    classes: tuple[str, ...]
    ids: np.ndarray | None
    source: str


def _parse_float(text, row_number, column):
    try:
        return float(text)
    except ValueError:
        raise ValueError(
            f"non-numeric score {text!r} in column {column!r}, row {row_number}"
        ) from None


def _score_columns(header, label_col, id_col, score_columns, path):
    for name, role in ((label_col, "label"), (id_col, "id")):
        if name is not None and name not in header:
            raise ValueError(f"{path}: no {role} column {name!r}; columns are {header}")
    if score_columns is None:
        return [c for c in header if c not in (label_col, id_col)]
    missing = [c for c in score_columns if c not in header]
    if missing:
        raise ValueError(f"{path}: score columns {missing} not found; columns are {header}")
    return list(score_columns)


def read_scores(path, *, label_col="label", id_col=None, score_columns=None):
    """Read a CSV of per-class scores and true labels.

    Parameters
    ----------
    path : str or Path
        CSV file with a header row (see the module docstring for the format).
    label_col : str, default="label"
        Name of the column of true labels.
    id_col : str, optional
        Name of an id column kept in :attr:`ScoreTable.ids`.
    score_columns : list of str, optional
        The score columns, in class order; default every column but the label
        and id columns.

    Returns
    -------
    ScoreTable

    Raises
    ------
    ValueError
        If the file is empty, a named column is missing, fewer than two score
        columns remain, a score is not a number, a row has the wrong number of
        fields, or a label is not one of the score column names.
    OSError
        If the file cannot be read.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "scores.csv")
    ...     _ = open(path, "w").write("a,b,label\\n0.9,0.1,a\\n0.2,0.8,b\\n")
    ...     table = read_scores(path)
    >>> table.classes, table.y_true.tolist(), table.y_score.tolist()
    (('a', 'b'), ['a', 'b'], [[0.9, 0.1], [0.2, 0.8]])
    """
    path = Path(path)
    with path.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    rows = [row for row in rows if row]
    if len(rows) < 2:
        raise ValueError(f"{path}: expected a header row and at least one data row")
    header = [name.strip() for name in rows[0]]
    columns = _score_columns(header, label_col, id_col, score_columns, path)
    if len(columns) < 2:
        raise ValueError(f"{path}: need at least 2 score columns, found {columns}")
    index = {name: i for i, name in enumerate(header)}
    scores = np.empty((len(rows) - 1, len(columns)))
    labels = []
    for r, row in enumerate(rows[1:]):
        if len(row) != len(header):
            raise ValueError(
                f"{path}: row {r + 2} has {len(row)} fields, the header has {len(header)}"
            )
        scores[r] = [_parse_float(row[index[c]], r + 2, c) for c in columns]
        labels.append(row[index[label_col]].strip())
    y_true = np.array(labels)
    unknown = sorted(set(labels) - set(columns))
    if unknown:
        raise ValueError(
            f"{path}: labels {unknown[:5]} in column {label_col!r} are not score column names "
            f"{columns}"
        )
    ids = None if id_col is None else np.array([row[index[id_col]] for row in rows[1:]])
    return ScoreTable(y_true, scores, tuple(columns), ids, str(path))
