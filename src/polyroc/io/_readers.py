"""Reading the columns of a CSV, Parquet or NPZ score file, and checking its scores and weights.

A CSV file is read in chunks of rows into numpy columns (:class:`Columns`), so
memory holds the numbers, not the text; a Parquet file through pyarrow; an NPZ
file's named arrays at once. Errors name the file, and the line (CSV) or row
where one applies.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import stat
import zipfile
import zlib
from dataclasses import dataclass

import numpy as np

from polyroc._engine.progress import task
from polyroc._validation import check_weight_total


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
class Columns:
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


def decoded(path):
    """The text of ``path`` as UTF-8 (a byte-order mark is dropped)."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ValueError(
            f"{path}: line {line} is not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8"
        ) from None


def check_unique_names(header, path):
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


def text_roles(header, label_col, id_col):
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


def csv_columns(path, text_names):
    """The columns of a CSV file, read in chunks: ``text_names`` as stripped text, the others as numbers."""
    with path.open(encoding="utf-8-sig", newline="") as handle:
        try:
            return _read_csv_columns(_CsvChunks(handle, path), path, text_names)
        except UnicodeDecodeError:
            pass
    decoded(path)  # raises the error naming the line that is not UTF-8
    raise AssertionError("unreachable: the file decoded the second time")  # pragma: no cover


def _read_csv_columns(chunks, path, text_names):
    header, data = chunks.header_and_chunks()
    check_unique_names(header, path)
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
    return Columns(columns, lines, len(lines))


def parquet_columns(path, text_names):
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
    check_unique_names(header, path)
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
    return Columns(columns, None, table.num_rows)


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
    check_weights(weights, weight_col, Columns({}, None), path)
    return weights


def npz_table(path, require_labels, weight_col):
    arrays = _npz_arrays(path)
    missing = [key for key in ("scores", "classes") if key not in arrays]
    if require_labels and "labels" not in arrays:
        missing.append("labels")
    if missing:
        raise ValueError(f"{path}: NPZ file lacks arrays {missing}; it has {sorted(arrays)}")
    classes = tuple(_npz_vector(arrays, "classes", None, path).tolist())
    check_unique_names(classes, path)
    raw = arrays["scores"]
    if raw.ndim != 2 or raw.shape[1] != len(classes):
        raise ValueError(f"{path}: scores must be (n, {len(classes)}), got {raw.shape}")
    if raw.dtype.kind not in "biuf":
        raise ValueError(f"{path}: array 'scores' must be numeric, got dtype {raw.dtype}")
    scores = raw.astype(np.float64)
    check_finite(scores, classes, Columns({}, None), path)
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


def check_finite(scores, names, columns, path):
    bad = ~np.isfinite(scores)
    if bad.any():
        row, column = np.argwhere(bad)[0]
        raise ValueError(
            f"{path}: score {float(scores[row, column])!r} in column {names[column]!r}, {columns.where(row)} "
            "is not a finite number"
        )


def check_weights(weights, name, columns, path):
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
