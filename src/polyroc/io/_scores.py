"""Score files read into a :class:`ScoreTable` (:func:`read_scores`); predictions written (:func:`write_predictions`).

:func:`read_scores` picks a file's label, id, weight and score columns and checks them.

Which columns are scores, and how a file is laid out, is told in :mod:`polyroc.io`;
the formats themselves are read by :mod:`polyroc.io._readers`.
"""

from __future__ import annotations

import csv
import io
import numbers
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike

from polyroc._text import count_noun
from polyroc._validation import as_array, check_same_length
from polyroc.io._outputs import OutputFile, write_to
from polyroc.io._readers import (
    Columns,
    check_finite,
    check_weights,
    csv_columns,
    npz_table,
    parquet_columns,
    text_roles,
)


@dataclass(frozen=True)
class ScoreTable:
    """Scores read from a file: labels (or None), the score matrix, the class order, ids, weights.

    Attributes
    ----------
    y_true : ndarray of shape (n,) of str, or None
        True labels (None when read with ``label_col=None``).
    y_score : ndarray of shape (n, m)
        The scores, columns in ``classes`` order.
    classes : tuple of str
        The class labels (the score column names, less ``score_prefix``).
    ids : ndarray of shape (n,) of str, or None
        The id column, when one was named or the file's first column is
        unnamed (the index pandas writes).
    source : str
        The path read.
    sample_weight : ndarray of shape (n,), or None
        The weight column, when one was named.
    ignored_columns : tuple of str
        Columns that are neither a role (label, id, weight) nor named by a
        label of the label column and that hold text or distinct whole numbers
        (an id), and so were not read as scores.
    lines : ndarray of shape (n,) of int, or None
        The file line of each row (None for Parquet and NPZ files).

    See Also
    --------
    read_scores : Reads a file into a ScoreTable.
    polyroc.evaluate : Evaluates ``y_true`` and ``y_score`` of a table.
    polyroc.dask.read_score_files : Reads many score files into one dask DataFrame.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "scores.csv")
    ...     _ = open(path, "w").write("a,b,label\\n0.9,0.1,a\\n\\n0.2,0.8,b\\n")
    ...     table = read_scores(path)
    >>> table.classes, table.y_score.shape, table.lines.tolist()  # the blank line 3 is skipped
    (('a', 'b'), (2, 2), [2, 4])
    """

    y_true: np.ndarray | None
    y_score: np.ndarray
    classes: tuple[str, ...]
    ids: np.ndarray | None
    source: str
    sample_weight: np.ndarray | None = None
    ignored_columns: tuple[str, ...] = ()
    lines: np.ndarray | None = None

    def where(self, row: int) -> str:
        """Where row ``row`` (0-based) is in the file: ``line 7`` of a text file, ``row 6`` of any other.

        Parameters
        ----------
        row : int
            Position of the row in :attr:`y_score` (0-based).

        Returns
        -------
        str
            ``"line L"`` (the file's line, 1-based, counting the header and
            blank lines) for a CSV file, else ``"row r"`` (1-based).

        Raises
        ------
        IndexError
            If ``row`` is outside ``[0, n_rows)``, for every file format (a
            negative ``row`` does not count from the end).
        TypeError
            If ``row`` is not an integer (a bool is not one).

        See Also
        --------
        read_scores : Whose error messages locate rows the same way.

        Examples
        --------
        >>> import tempfile, os
        >>> with tempfile.TemporaryDirectory() as tmp:
        ...     path = os.path.join(tmp, "scores.csv")
        ...     _ = open(path, "w").write("a,b,label\\n0.9,0.1,a\\n\\n0.2,0.8,b\\n")
        ...     table = read_scores(path)
        >>> table.where(0), table.where(1)
        ('line 2', 'line 4')
        """
        if isinstance(row, bool) or not isinstance(row, numbers.Integral):
            raise TypeError(f"row must be an integer, got {type(row).__name__}")
        n_rows = self.y_score.shape[0]
        if not 0 <= row < n_rows:
            raise IndexError(f"row must be in [0, {n_rows}) (the table has {count_noun(n_rows, 'row')}), got {row}")
        return f"row {row + 1}" if self.lines is None else f"line {int(self.lines[row])}"


def _check_roles(header, roles, path):
    """The named ``roles`` ({role: column or None}) are distinct columns of ``header``."""
    named = {role: name for role, name in roles.items() if name is not None}
    seen = {}
    for role, name in named.items():
        if name in seen:
            raise ValueError(f"{path}: the {seen[name]} column and the {role} column are both {name!r}")
        seen[name] = role
    for role, name in named.items():
        if name not in header:
            hint = ""
            if len(header) == 1 and any(mark in header[0] for mark in ";\t"):
                hint = " (the header has one column: polyroc reads comma-separated files)"
            raise ValueError(f"{path}: no {role} column {name!r}; columns are {header}{hint}")


@dataclass(frozen=True)
class _Selection:
    """The score columns of a file, their classes, and the columns left unread."""

    names: list
    classes: list
    ignored: list


def _explicit_selection(header, candidates, score_columns, score_prefix, path):
    """Score columns named by ``score_columns`` (each with ``score_prefix`` in front) or by the prefix alone."""
    prefix = score_prefix or ""
    if score_columns is not None:
        names = [prefix + str(c) for c in score_columns]
        missing = [c for c in names if c not in header]
        if missing:
            raise ValueError(f"{path}: score columns {missing} not found; columns are {header}")
        return _Selection(names, [str(c) for c in score_columns], [])
    names = [c for c in candidates if c.startswith(prefix) and len(c) > len(prefix)]
    if not names:
        raise ValueError(f"{path}: no column name starts with the score_prefix {prefix!r}; columns are {header}")
    return _Selection(names, [c[len(prefix) :] for c in names], [])


def _select_scores(header, roles, score_columns, score_prefix, columns, path):
    """The score columns: explicit (``score_columns`` / ``score_prefix``), else those named by a label."""
    _check_roles(header, roles, path)
    unread = {name for name in roles.values() if name is not None}
    if header[0] == "":
        unread.add("")  # the index pandas writes: the id column unless another is named
    candidates = [c for c in header if c not in unread]
    label_col = roles["label"]
    if score_columns is not None or score_prefix is not None:
        selection = _explicit_selection(header, candidates, score_columns, score_prefix, path)
    elif label_col is None:
        selection = _Selection(candidates, candidates, [])
    else:
        present = set(_check_labels(columns.text(label_col), candidates, label_col, columns, path))
        unread = [c for c in candidates if c not in present and not columns.holds_scores(c, path)]
        names = [c for c in candidates if c not in unread]
        selection = _Selection(names, names, unread)
    if len(selection.names) < 2:
        hint = ""
        if selection.ignored:
            hint = (
                f" (columns {selection.ignored} are named by no label of column {label_col!r} and hold text or "
                "distinct whole numbers, so were not read; list the score columns with score_columns to read them)"
            )
        raise ValueError(f"{path}: need at least 2 score columns, found {selection.names}{hint}")
    return selection


def _column_table(columns, label_col, id_col, weight_col, score_columns, score_prefix, path):
    header = list(columns.cells)
    roles = {"label": label_col, "id": id_col, "weight": weight_col}
    selection = _select_scores(header, roles, score_columns, score_prefix, columns, path)
    scores = np.empty((columns.n_rows, len(selection.names)))
    for j, name in enumerate(selection.names):
        scores[:, j] = columns.take_numbers(name, path)
    check_finite(scores, selection.names, columns, path)
    labels = None if label_col is None else columns.text(label_col)
    if id_col is None and header[0] == "":
        id_col = ""
    ids = None if id_col is None else columns.text(id_col)
    weights = None
    if weight_col is not None:
        weights = columns.numbers(weight_col, path, what="weight")
        check_weights(weights, weight_col, columns, path)
    return labels, scores, selection, ids, weights


def _check_labels(labels, classes, label_col, columns, path):
    """Every label is one of ``classes``; return the labels present (sorted)."""
    present = np.unique(labels).tolist()
    names = sorted(set(present) - set(classes))
    if names:
        first = int(np.argmax(np.isin(labels, names)))
        raise ValueError(
            f"{path}: labels {names[:5]} in column {label_col!r} are not class names {list(classes)} "
            f"(first at {columns.where(first)})"
        )
    return present


def read_scores(
    path: str | os.PathLike,
    *,
    label_col: str | None = "label",
    id_col: str | None = None,
    weight_col: str | None = None,
    score_columns: Sequence[str] | None = None,
    score_prefix: str | None = None,
) -> ScoreTable:
    """Read per-class scores (and true labels, ids, sample weights) from a CSV, Parquet or NPZ file.

    A CSV file is read in chunks of rows, each turned into numpy columns, so
    memory holds the numbers rather than the text of the file.

    Parameters
    ----------
    path : str or Path
        ``.csv`` (or ``.txt``), ``.parquet`` or ``.npz`` file (see the module
        docstring).
    label_col : str or None, default="label"
        Name of the column of true labels; None when the file has none.
    id_col : str, default=None
        Name of an id column kept in :attr:`ScoreTable.ids`; default an
        unnamed first column (the index pandas writes; in a Parquet file the
        unnamed index pandas stores), if there is one.
    weight_col : str, default=None
        Name of a column (an array, in an NPZ file) of sample weights, kept in
        :attr:`ScoreTable.sample_weight`; not a score column.
    score_columns : list of str, default=None
        The classes whose score columns to read, in class order (the column of
        class ``c`` is named ``score_prefix + c``). Default: the columns
        starting with ``score_prefix`` if it is given; else the columns named
        by a label of the label column and the other numeric columns, except
        those of distinct whole numbers (ids), which are listed in
        :attr:`ScoreTable.ignored_columns` with the columns of text; else,
        without a label column, every column but the id and weight columns.
    score_prefix : str, default=None
        The score columns are named ``score_prefix`` + class label (e.g.
        ``proba_cat``).

    Returns
    -------
    ScoreTable

    Raises
    ------
    ValueError
        Each naming the file (and the line or row, and the column, where one
        applies): an unknown file type; a file that is not UTF-8 text, not
        CSV, or a damaged NPZ or Parquet file; an empty file or a header
        without data rows; a column name given twice; a missing label, id,
        weight or score column; one column named for two roles; no column
        with the score prefix; fewer than two score columns; a score that is
        empty, not a number, NaN or infinite; a weight that is empty, not a
        number, negative or not finite, or weights whose total is past the
        float64 range; a row with the wrong number of
        fields; a label that names no column.
    OSError
        If the file cannot be read (missing, a directory, no permission).

    See Also
    --------
    ScoreTable : What it returns.
    read_thresholds : Reads tuned thresholds to apply to the scores.
    polyroc.dask.read_score_files : Many score files as one dask DataFrame.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "scores.csv")
    ...     _ = open(path, "w").write("id,a,b,label,w\\n1,0.9,0.1,a,1\\n2,0.2,0.8,b,2.5\\n")
    ...     table = read_scores(path, weight_col="w")
    >>> table.classes, table.y_true.tolist(), table.y_score.tolist(), table.sample_weight.tolist()
    (('a', 'b'), ['a', 'b'], [[0.9, 0.1], [0.2, 0.8]], [1.0, 2.5])
    >>> table.ignored_columns
    ('id',)
    """
    path = Path(path)
    suffix = path.suffix.lower()
    ignored, lines, checked = (), None, False
    if suffix == ".npz":
        labels, scores, classes, ids, weights = npz_table(path, label_col is not None, weight_col)
        columns = Columns({}, None)
    elif suffix in (".csv", ".txt", ".parquet", ".pq"):
        read = parquet_columns if suffix in (".parquet", ".pq") else csv_columns
        columns = read(path, lambda header: text_roles(header, label_col, id_col))
        labels, scores, selection, ids, weights = _column_table(
            columns, label_col, id_col, weight_col, score_columns, score_prefix, path
        )
        classes, ignored, lines = tuple(selection.classes), tuple(selection.ignored), columns.lines
        checked = labels is not None and score_columns is None and score_prefix is None
    else:
        raise ValueError(f"{path}: unknown file type {suffix!r}; use .csv, .parquet or .npz")
    if labels is not None and not checked:
        _check_labels(labels, classes, label_col, columns, path)
    return ScoreTable(labels, scores, classes, ids, str(path), weights, ignored, lines)


def write_predictions(
    path: str | os.PathLike | OutputFile,
    predictions: ArrayLike,
    *,
    ids: ArrayLike | None = None,
    y_true: ArrayLike | None = None,
    columns: Mapping[str, ArrayLike] | None = None,
) -> None:
    """Write predicted labels as CSV (``id`` if given, ``prediction``, ``columns`` if given, ``label`` if given).

    Parameters
    ----------
    path : str, Path or OutputFile
        Where to write; a path is written as :class:`OutputFile` writes
        (never over a file polyroc did not write).
    predictions : array-like of shape (n,)
        The predicted labels.
    ids : array-like of shape (n,), default=None
        Row ids, written first.
    y_true : array-like of shape (n,), default=None
        True labels, written last.
    columns : mapping of str to array-like of shape (n,), default=None
        Further columns by name (e.g. calibrated probabilities), written
        after ``prediction``.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``predictions``, ``ids``, ``y_true`` or a column of ``columns``
        is not 1-D or has a different length from ``predictions``, or a name
        of ``columns`` is ``id``, ``prediction`` or ``label`` (checked before
        anything is written).
    FileExistsError, OSError
        As :class:`OutputFile`.

    See Also
    --------
    polyroc.thresholds.apply_thresholds : Predicts the labels with tuned thresholds.
    OutputFile : How the file is written.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "predictions.csv")
    ...     write_predictions(path, ["a", "b"], ids=[7, 8])
    ...     print(open(path).read(), end="")
    id,prediction
    7,a
    8,b
    """
    extra = dict(columns or {})
    taken = sorted({"id", "prediction", "label"} & set(extra))
    if taken:
        raise ValueError(f"columns may not be named {taken}: the names of the id, prediction and label columns")
    given = {"predictions": predictions, "ids": ids, "y_true": y_true}
    given |= {f"column {name!r}": values for name, values in extra.items()}
    arrays = {name: as_array(name, values) for name, values in given.items() if values is not None}
    for name, array in arrays.items():
        if array.ndim != 1:
            raise ValueError(f"{name} must be 1-D (one value per row), got shape {array.shape}")
    check_same_length(**arrays)
    written: dict[str, ArrayLike | None] = {"id": ids, "prediction": predictions, **extra, "label": y_true}
    table = {name: values for name, values in written.items() if values is not None}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table)
    writer.writerows(zip(*table.values()))
    write_to(path, buffer.getvalue())
