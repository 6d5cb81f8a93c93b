"""Reading predicted scores and tuned thresholds from files, and writing predictions and thresholds.

Score files (CSV, or Parquet when pyarrow is installed) hold one row per sample:

- one column per class holding that class's score; the column name *is* the
  class label (e.g. ``cat,dog,bird`` or ``0,1,2``), or the label after a
  common prefix (``score_prefix="proba_"``: ``proba_cat,proba_dog``);
- one label column (default name ``label``) holding the true class of each
  row, spelled exactly as one of the score column names (optional where
  labels are not needed, e.g. when applying tuned thresholds);
- optionally an id column (``id_col``), carried into outputs; an unnamed
  first column, the index ``pandas.DataFrame.to_csv`` writes, is the id
  column unless another is named, and never a score (in a Parquet file, the
  unnamed index ``DataFrame.to_parquet`` stores, as a column or as a range);
- optionally a weight column (``weight_col``): a non-negative sample weight
  per row, of relative importance;
- any other column. Which columns are scores: those of ``score_columns`` or
  ``score_prefix`` when given; else the columns named by a label of the label
  column, and those of the other columns that hold numbers (the classes with
  no row in the file) but not distinct whole numbers (an id, a row number);
  columns of text or of distinct whole numbers are left unread and listed in
  :attr:`ScoreTable.ignored_columns`. In a file without labels, every column
  but the id and weight columns is a score column.

CSV files are UTF-8 text (a byte-order mark is skipped), comma-separated,
with quoted fields and any line ends; blank lines are skipped and errors name
the file's line. It is read in chunks of rows into numpy columns, so memory
holds the numbers, not the text. A column name may appear only once in the header; every score
must be a finite number.

NPZ files hold arrays instead: ``scores`` (n, m), ``classes`` (m,), and
optionally ``labels`` (n,), ``ids`` (n,) and a weight array named by ``weight_col``.

Outputs (predictions, tuned thresholds) are written through
:class:`polyroc._outputs.OutputFile`, which never overwrites a file polyroc did
not write; see :mod:`polyroc._outputs` for the guarantees.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import numbers
import os
import stat
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._outputs import MANIFEST_NAME, OutputDirectory, OutputFile, directory_refusal
from polyroc._progress import task
from polyroc._text import count_noun
from polyroc._validation import as_array, check_same_length, check_thresholds, check_weight_total

__all__ = [
    "MANIFEST_NAME",
    "OutputDirectory",
    "OutputFile",
    "ScoreTable",
    "directory_refusal",
    "read_scores",
    "read_thresholds",
    "write_predictions",
    "write_thresholds",
]

_THRESHOLD_DOMAINS = ("simplex", "box")


# --------------------------------------------------------------------------- reading


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


class _Column:
    """One column, read chunk by chunk: its text (for label and id columns) or its numbers.

    A numeric column stops collecting numbers at its first cell that is not a
    number and keeps that cell (row and stripped text) for the error message,
    raised only if the column turns out to be needed.
    """

    def __init__(self, keep_text):
        self.keep_text = keep_text
        self.chunks = []
        self.bad = None

    def add(self, cells, first_row):
        if self.keep_text:
            self.chunks.append(np.array(cells, dtype=str) if cells else np.array([], dtype=str))
        elif self.bad is None:
            try:
                self.chunks.append(np.asarray(cells, dtype=np.float64))
            except (TypeError, ValueError):
                row = _first_bad_number(cells)
                value = None if row is None else cells[row]
                if isinstance(value, str):
                    value = value.strip()
                self.bad = (None if row is None else first_row + row, value)
                self.chunks = []

    def text(self):
        return np.concatenate(self.chunks) if self.chunks else np.array([], dtype=str)

    def numbers(self, name, where, path, what):
        """The column as float64; an error names its first cell that is not a number (a ``what``)."""
        if self.keep_text:
            column = _Column(keep_text=False)
            column.add(self.text(), 0)
            return column.numbers(name, where, path, what)
        if self.bad is not None:
            row, value = self.bad
            if row is None:
                raise ValueError(f"{path}: column {name!r} is not numeric")
            problem = f"an empty {what}" if value in ("", None) else f"non-numeric {what} {value!r}"
            raise ValueError(f"{path}: {problem} in column {name!r}, {where(row)}")
        return np.concatenate(self.chunks) if len(self.chunks) != 1 else self.chunks[0]


@dataclass
class _Columns:
    """The columns of a file by name, and the file's line of each data row (None: not a text file)."""

    cells: dict
    lines: np.ndarray | None
    n_rows: int = 0

    def where(self, row):
        """``line 7`` of a text file, ``row 6`` of any other."""
        return f"row {row + 1}" if self.lines is None else f"line {int(self.lines[row])}"

    def numbers(self, name, path, what="score"):
        return self.cells[name].numbers(name, self.where, path, what)

    def take_numbers(self, name, path, what="score"):
        """:meth:`numbers`, letting go of the column's chunks (the caller keeps the only copy)."""
        values = self.numbers(name, path, what)
        self.cells[name].chunks = []
        return values

    def text(self, name):
        return self.cells[name].text()

    def holds_scores(self, name, path):
        """Whether column ``name``, named by no label, holds scores (of a class with no row in the file).

        It does unless it holds text or distinct whole numbers (an id or a row number).
        """
        column = self.cells[name]
        if column.keep_text or column.bad is not None:
            return False
        values = self.numbers(name, path)
        whole = np.isfinite(values).all() and bool(np.all(values == np.round(values)))
        return not (whole and np.unique(values).size == values.size)


def _decoded(path):
    """The text of ``path`` as UTF-8 (a byte-order mark is dropped)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ValueError(
            f"{path}: line {line} is not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8"
        ) from None


def _check_unique_names(header, path):
    seen = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            raise ValueError(
                f"{path}: column name {name!r} appears twice in the header (columns {seen[name]} and "
                f"{position}); rename one of them"
            )
        seen[name] = position


#: Rows parsed at a time: only one chunk of a CSV file is ever held as Python strings.
_CHUNK_ROWS = 20_000


def _text_roles(header, label_col, id_col):
    """The columns kept as text: the label and id columns, and an unnamed first column (an index)."""
    names = {label_col, id_col}
    if id_col is None and header and header[0] == "":
        names.add("")
    return names


class _CsvChunks:
    """The data rows of an open CSV file as (first row, line numbers, rows) chunks; each row checked for width."""

    def __init__(self, handle, path):
        self.reader = csv.reader(handle, strict=False)
        self.path = path
        self.handle = handle
        self.size = _file_size(handle)

    def _records(self):
        reader = self.reader
        try:
            for fields in reader:
                if fields and not (len(fields) == 1 and not fields[0].strip()):
                    yield reader.line_num, fields
        except csv.Error as error:
            raise ValueError(f"{self.path}: line {reader.line_num}: {error}; is this a CSV file of scores?") from None

    def header_and_chunks(self):
        records = self._records()
        first = next(records, None)
        if first is None:
            raise ValueError(f"{self.path}: the file is empty; expected a header row and at least one data row")
        header = [name.strip() for name in first[1]]
        return header, self._chunks(records, len(header))

    def _chunks(self, records, width):
        work = task(f"reading {self.path.name}", self.size) if self.size else None
        row = 0
        while True:
            chunk = list(itertools.islice(records, _CHUNK_ROWS))
            if not chunk:
                return
            for line, fields in chunk:
                if len(fields) != width:
                    raise ValueError(f"{self.path}: line {line} has {len(fields)} fields, the header has {width}")
            yield row, np.fromiter((line for line, _ in chunk), dtype=np.int64, count=len(chunk)), chunk
            row += len(chunk)
            if work is not None:
                work.advance(_position(self.handle) - work.done)


def _file_size(handle):
    """The size of a regular file (0 for a pipe or another stream: no progress to report)."""
    try:
        status = os.fstat(handle.fileno())
    except (OSError, AttributeError, io.UnsupportedOperation):
        return 0
    return status.st_size if stat.S_ISREG(status.st_mode) else 0


def _position(handle):
    try:
        return handle.buffer.tell()
    except (OSError, AttributeError, ValueError):
        return 0


def _csv_columns(path, text_names):
    """The columns of a CSV file, read in chunks: ``text_names`` as stripped text, the others as numbers."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        try:
            return _read_csv_columns(_CsvChunks(handle, path), path, text_names)
        except UnicodeDecodeError:
            pass
    _decoded(path)  # raises the error naming the line that is not UTF-8
    raise AssertionError("unreachable: the file decoded the second time")  # pragma: no cover


def _read_csv_columns(chunks, path, text_names):
    header, data = chunks.header_and_chunks()
    _check_unique_names(header, path)
    keep = text_names(header)
    columns = {name: _Column(keep_text=name in keep) for name in header}
    lines = []
    for first_row, chunk_lines, rows in data:
        lines.append(chunk_lines)
        for column, cells in zip(columns.values(), zip(*(fields for _, fields in rows))):
            column.add([cell.strip() for cell in cells] if column.keep_text else cells, first_row)
    if not lines:
        raise ValueError(f"{path}: a header row but no data rows")
    lines = np.concatenate(lines)
    return _Columns(columns, lines, len(lines))


def _parquet_columns(path, text_names):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
    with path.open("rb") as handle:
        try:
            table = pq.read_table(handle)
        except (ValueError, OSError) as error:
            raise ValueError(f"{path}: not a readable Parquet file ({error})") from None
    header = [str(name) for name in table.column_names]
    _check_unique_names(header, path)
    if table.num_rows == 0:
        raise ValueError(f"{path}: no data rows")
    index, source = _parquet_index(table, header)
    header = header if index is None else ["", *(name for name in header if name != source)]
    keep = text_names(header)
    columns = {}
    for name in header:
        columns[name] = _Column(keep_text=name in keep)
        values = index if name == "" and index is not None else table.column(name).to_pylist()
        columns[name].add([str(v).strip() for v in values] if columns[name].keep_text else values, 0)
    return _Columns(columns, None, table.num_rows)


def _parquet_index(table, header):
    """The unnamed index pandas stored with a Parquet file (a column, or a range in its metadata), and its column.

    It is the file's unnamed first column, as in a CSV file ``DataFrame.to_csv`` writes; (None, None)
    when the file holds no such index (written with ``index=False``, by another tool, or named).
    """
    indexes = (table.schema.pandas_metadata or {}).get("index_columns") or []
    if len(indexes) != 1 or "" in header:
        return None, None
    index = indexes[0]
    if isinstance(index, dict):  # a RangeIndex, kept in the metadata only
        if index.get("kind") != "range" or index.get("name") is not None:
            return None, None
        return list(range(index["start"], index["stop"], index["step"])), None
    if index != "__index_level_0__" or index not in header:
        return None, None
    return table.column(index).to_pylist(), index


def _npz_arrays(path):
    """Every array of an NPZ file, read eagerly; a damaged file is a ValueError naming it."""
    with path.open("rb") as handle:
        try:
            loaded = np.load(handle, allow_pickle=False)
            if isinstance(loaded, np.ndarray):
                kind = "a single .npy array"
            else:
                with loaded as data:
                    return {key: data[key] for key in data.files}
        except (ValueError, EOFError, OSError, KeyError, zipfile.BadZipFile, zlib.error) as error:
            raise ValueError(f"{path}: not a readable NPZ file ({error})") from None
    raise ValueError(f"{path}: holds {kind}, not an .npz archive of named arrays")


def _npz_vector(arrays, key, length, path):
    vector = arrays[key]
    if vector.ndim != 1 or (length is not None and vector.size != length):
        expected = f"({length},)" if length is not None else "1-D"
        raise ValueError(f"{path}: array {key!r} must be {expected}, got shape {vector.shape}")
    return vector.astype(str)


def _npz_weights(arrays, weight_col, n, path):
    """The weight array ``weight_col`` of an NPZ file (None without one), checked."""
    if weight_col is None:
        return None
    if weight_col not in arrays:
        raise ValueError(f"{path}: NPZ file lacks the weight array {weight_col!r}; it has {sorted(arrays)}")
    weights = arrays[weight_col]
    if weights.ndim != 1 or weights.size != n:
        raise ValueError(f"{path}: array {weight_col!r} must be ({n},), got shape {weights.shape}")
    if weights.dtype.kind not in "biuf":
        raise ValueError(f"{path}: array {weight_col!r} must be numeric, got dtype {weights.dtype}")
    weights = weights.astype(np.float64)
    _check_weights(weights, weight_col, _Columns({}, None), path)
    return weights


def _npz_table(path, require_labels, weight_col):
    arrays = _npz_arrays(path)
    missing = [key for key in ("scores", "classes") if key not in arrays]
    if require_labels and "labels" not in arrays:
        missing.append("labels")
    if missing:
        raise ValueError(f"{path}: NPZ file lacks arrays {missing}; it has {sorted(arrays)}")
    classes = tuple(_npz_vector(arrays, "classes", None, path).tolist())
    _check_unique_names(classes, path)
    raw = arrays["scores"]
    if raw.ndim != 2 or raw.shape[1] != len(classes):
        raise ValueError(f"{path}: scores must be (n, {len(classes)}), got {raw.shape}")
    if raw.dtype.kind not in "biuf":
        raise ValueError(f"{path}: array 'scores' must be numeric, got dtype {raw.dtype}")
    scores = raw.astype(np.float64)
    _check_finite(scores, classes, _Columns({}, None), path)
    n = scores.shape[0]
    labels = _npz_vector(arrays, "labels", n, path) if require_labels else None
    ids = _npz_vector(arrays, "ids", n, path) if "ids" in arrays else None
    return labels, scores, classes, ids, _npz_weights(arrays, weight_col, n, path)


def _first_bad_number(values):
    """Index of the first value ``float()`` does not read."""
    for row, value in enumerate(values):
        try:
            float(value)
        except (TypeError, ValueError):
            return row
    return None


def _check_finite(scores, names, columns, path):
    bad = ~np.isfinite(scores)
    if bad.any():
        row, column = np.argwhere(bad)[0]
        raise ValueError(
            f"{path}: score {float(scores[row, column])!r} in column {names[column]!r}, {columns.where(row)} "
            "is not a finite number"
        )


def _check_weights(weights, name, columns, path):
    """Every weight finite and >= 0, their total finite; an error names the first bad one, or the column."""
    bad = ~(np.isfinite(weights) & (weights >= 0))
    if bad.any():
        row = int(np.argmax(bad))
        raise ValueError(
            f"{path}: weight {float(weights[row])!r} in column {name!r}, {columns.where(row)} "
            "is not a finite number >= 0"
        )
    with np.errstate(over="ignore"):
        check_weight_total(f"{path}: weight column {name!r}", np.sum(weights, dtype=np.float64))


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
    _check_finite(scores, selection.names, columns, path)
    labels = None if label_col is None else columns.text(label_col)
    if id_col is None and header[0] == "":
        id_col = ""
    ids = None if id_col is None else columns.text(id_col)
    weights = None
    if weight_col is not None:
        weights = columns.numbers(weight_col, path, what="weight")
        _check_weights(weights, weight_col, columns, path)
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
        labels, scores, classes, ids, weights = _npz_table(path, label_col is not None, weight_col)
        columns = _Columns({}, None)
    elif suffix in (".csv", ".txt", ".parquet", ".pq"):
        read = _parquet_columns if suffix in (".parquet", ".pq") else _csv_columns
        columns = read(path, lambda header: _text_roles(header, label_col, id_col))
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


def _threshold_classes(value, path):
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError(f"{path}: 'classes' must be a list of at least 2 class names, got {value!r}")
    if not all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in value):
        raise ValueError(f"{path}: 'classes' must hold class names (strings), got {value!r}")
    classes = [str(c) for c in value]
    _check_unique_names(classes, path)
    return classes


def _threshold_values(value, n_classes, domain, path):
    if not isinstance(value, list) or not all(
        isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) for t in value
    ):
        raise ValueError(f"{path}: 'threshold' must be a list of finite numbers, got {value!r}")
    if len(value) != n_classes:
        raise ValueError(f"{path}: 'classes' and 'threshold' have different lengths ({n_classes} and {len(value)})")
    try:
        return check_thresholds(value, n_classes, domain=domain).tolist()
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None


def read_thresholds(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check a thresholds JSON written by :func:`write_thresholds`; return the document.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file.

    Returns
    -------
    dict
        The document, with ``classes`` as a list of str (numbers written as
        class names become strings) and ``threshold`` as a list of floats;
        other keys (``metric``, ``best_score`` ...) as written.

    Raises
    ------
    TypeError
        Naming the file: it holds JSON but not a JSON object.
    ValueError
        Naming the file: it is not UTF-8 JSON; it lacks
        ``classes``, ``threshold`` or ``domain``; ``classes`` is not a list of
        at least two distinct names; ``threshold`` is not a list of finite
        numbers of the same length; ``domain`` is not ``"simplex"`` or
        ``"box"``; the thresholds lie outside their domain.
    OSError
        If the file cannot be read (e.g. FileNotFoundError).

    See Also
    --------
    write_thresholds : Writes the file.
    polyroc.thresholds.apply_thresholds : Applies the thresholds to scores.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "tau.json")
    ...     _ = open(path, "w").write('{"classes": ["a", "b"], "threshold": [0.4, 0.6], "domain": "simplex"}')
    ...     read_thresholds(path)["threshold"]
    [0.4, 0.6]
    """
    path = Path(path)
    try:
        document = json.loads(_decoded(path))
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path}: not a thresholds JSON file ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    if not isinstance(document, dict):
        raise TypeError(f"{path}: not a thresholds file: expected a JSON object, got {type(document).__name__}")
    missing = [key for key in ("classes", "threshold", "domain") if key not in document]
    if missing:
        raise ValueError(f"{path}: thresholds file lacks {missing}")
    if document["domain"] not in _THRESHOLD_DOMAINS:
        raise ValueError(f"{path}: 'domain' must be 'simplex' or 'box', got {document['domain']!r}")
    classes = _threshold_classes(document["classes"], path)
    threshold = _threshold_values(document["threshold"], len(classes), document["domain"], path)
    return {**document, "classes": classes, "threshold": threshold}


# --------------------------------------------------------------------------- writing


def _write_to(path, content):
    if isinstance(path, OutputFile):
        path.write(content)
        return
    with OutputFile(path) as out:
        out.write(content)


def write_predictions(
    path: str | os.PathLike | OutputFile,
    predictions: ArrayLike,
    *,
    ids: ArrayLike | None = None,
    y_true: ArrayLike | None = None,
) -> None:
    """Write predicted labels as CSV (``id`` if given, ``prediction``, ``label`` if given).

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

    Returns
    -------
    None

    Raises
    ------
    ValueError
        If ``predictions``, ``ids`` or ``y_true`` is not 1-D, or ``ids`` or
        ``y_true`` has a different length from ``predictions`` (checked
        before anything is written).
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
    given = {"predictions": predictions, "ids": ids, "y_true": y_true}
    arrays = {name: as_array(name, values) for name, values in given.items() if values is not None}
    for name, array in arrays.items():
        if array.ndim != 1:
            raise ValueError(f"{name} must be 1-D (one value per row), got shape {array.shape}")
    check_same_length(**arrays)
    columns = {"id": ids, "prediction": predictions, "label": y_true}
    columns = {name: values for name, values in columns.items() if values is not None}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(zip(*columns.values()))
    _write_to(path, buffer.getvalue())


def write_thresholds(path: str | os.PathLike | OutputFile, result: Any) -> None:
    """Write the tuned thresholds of a :class:`~polyroc.thresholds.TuningResult` as JSON.

    The floats round-trip exactly; :func:`read_thresholds` reads the file back.

    Parameters
    ----------
    path : str, Path or OutputFile
        Where to write; a path is written as :class:`OutputFile` writes
        (never over a file polyroc did not write).
    result : TuningResult
        What :func:`polyroc.tune_thresholds` returned.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If ``result`` is not a :class:`~polyroc.thresholds.TuningResult`
        (checked before anything is written).
    FileExistsError, OSError
        As :class:`OutputFile`.

    See Also
    --------
    read_thresholds : Reads the file back.
    polyroc.thresholds.tune_thresholds : Makes the result.

    Examples
    --------
    >>> import tempfile, os
    >>> from polyroc.thresholds import tune_thresholds
    >>> result = tune_thresholds(["a", "b", "b"], [[.6, .4], [.55, .45], [.2, .8]], resolution=20)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "tau.json")
    ...     write_thresholds(path, result)
    ...     read_thresholds(path)["threshold"] == result.best_threshold.tolist()
    True
    """
    from polyroc.thresholds import TuningResult  # the tuning layer is loaded only when it is used

    if not isinstance(result, TuningResult):
        raise TypeError(
            f"result must be a TuningResult (what polyroc.tune_thresholds returns), got {type(result).__name__}"
        )
    document = {
        "classes": [str(c) for c in result.classes],
        "threshold": [float(t) for t in result.best_threshold],
        "domain": result.domain,
        "metric": result.metric,
        "best_score": result.best_score,
        "argmax_score": result.argmax_score,
        "search": result.search,
        "resolution": result.resolution,
        "n_samples": result.n_samples,
        "n_thresholds": result.n_thresholds,
    }
    _write_to(path, json.dumps(document, indent=2) + "\n")
