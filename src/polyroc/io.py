"""Reading predicted scores and tuned thresholds from files, and writing predictions and thresholds.

Score files (CSV, or Parquet when pyarrow is installed) hold one row per sample:

- one column per class holding that class's score; the column name *is* the
  class label (e.g. ``cat,dog,bird`` or ``0,1,2``);
- one label column (default name ``label``) holding the true class of each
  row, spelled exactly as one of the score column names (optional where
  labels are not needed, e.g. when applying tuned thresholds);
- optionally an id column, carried into outputs;
- optionally a weight column (``weight_col``): a non-negative sample weight
  per row, of relative importance;
- every other column is taken as a score column unless ``score_columns``
  names the score columns explicitly.

CSV files are UTF-8 text (a byte-order mark is skipped), comma-separated,
with quoted fields and any line ends; blank lines are skipped and errors name
the file's line. A column name may appear only once in the header; every score
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
import json
import math
import os
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._outputs import MANIFEST_NAME, OutputDirectory, OutputFile, directory_refusal
from polyroc._validation import check_thresholds

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
        The score column names, i.e. the class labels.
    ids : ndarray of shape (n,) of str, or None
        The id column, when one was named.
    source : str
        The path read.
    sample_weight : ndarray of shape (n,), or None
        The weight column, when one was named.
    """

    y_true: np.ndarray | None
    y_score: np.ndarray
    classes: tuple[str, ...]
    ids: np.ndarray | None
    source: str
    sample_weight: np.ndarray | None = None


@dataclass(frozen=True)
class _Columns:
    """The columns of a file by name, and the file's line of each data row (None: not a text file)."""

    cells: dict
    lines: list | None

    def where(self, row):
        """``line 7`` of a text file, ``row 6`` of any other."""
        return f"row {row + 1}" if self.lines is None else f"line {self.lines[row]}"


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


def _csv_records(path):
    """(line, fields) of every non-blank row of a CSV file."""
    reader = csv.reader(io.StringIO(_decoded(path), newline=""))
    records = []
    try:
        for fields in reader:
            if fields and not (len(fields) == 1 and not fields[0].strip()):
                records.append((reader.line_num, fields))
    except csv.Error as error:
        raise ValueError(f"{path}: line {reader.line_num}: {error}; is this a CSV file of scores?") from None
    return records


def _check_unique_names(header, path):
    seen = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            raise ValueError(
                f"{path}: column name {name!r} appears twice in the header (columns {seen[name]} and "
                f"{position}); rename one of them"
            )
        seen[name] = position


def _csv_columns(path):
    records = _csv_records(path)
    if not records:
        raise ValueError(f"{path}: the file is empty; expected a header row and at least one data row")
    header = [name.strip() for name in records[0][1]]
    _check_unique_names(header, path)
    data = records[1:]
    if not data:
        raise ValueError(f"{path}: a header row but no data rows")
    for line, fields in data:
        if len(fields) != len(header):
            raise ValueError(f"{path}: line {line} has {len(fields)} fields, the header has {len(header)}")
    cells = {name: [fields[i].strip() for _, fields in data] for i, name in enumerate(header)}
    return _Columns(cells, [line for line, _ in data])


def _parquet_columns(path):
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
    return _Columns({name: table.column(i).to_pylist() for i, name in enumerate(header)}, None)


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


def _parse_column(columns, name, path, what="score"):
    """Column ``name`` as floats; an error names the first cell that is not a number (a ``what``)."""
    values = columns.cells[name]
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        row = _first_bad_number(values)
        if row is None:
            raise ValueError(f"{path}: column {name!r} is not numeric") from None
        value = values[row]
        problem = f"an empty {what}" if value in ("", None) else f"non-numeric {what} {value!r}"
        raise ValueError(f"{path}: {problem} in column {name!r}, {columns.where(row)}") from None


def _check_finite(scores, names, columns, path):
    bad = ~np.isfinite(scores)
    if bad.any():
        row, column = np.argwhere(bad)[0]
        raise ValueError(
            f"{path}: score {float(scores[row, column])!r} in column {names[column]!r}, {columns.where(row)} "
            "is not a finite number"
        )


def _check_weights(weights, name, columns, path):
    """Every weight finite and >= 0; an error names the first bad one."""
    bad = ~(np.isfinite(weights) & (weights >= 0))
    if bad.any():
        row = int(np.argmax(bad))
        raise ValueError(
            f"{path}: weight {float(weights[row])!r} in column {name!r}, {columns.where(row)} "
            "is not a finite number >= 0"
        )


def _check_columns(header, roles, score_columns, path):
    """The score columns, once the named ``roles`` ({role: column or None}) are checked against ``header``."""
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
    if score_columns is None:
        columns = [c for c in header if c not in seen]
    else:
        missing = [c for c in score_columns if c not in header]
        if missing:
            raise ValueError(f"{path}: score columns {missing} not found; columns are {header}")
        columns = list(score_columns)
    if len(columns) < 2:
        raise ValueError(f"{path}: need at least 2 score columns, found {columns}")
    return columns


def _column_table(columns, label_col, id_col, weight_col, score_columns, path):
    roles = {"label": label_col, "id": id_col, "weight": weight_col}
    names = _check_columns(list(columns.cells), roles, score_columns, path)
    scores = np.column_stack([_parse_column(columns, name, path) for name in names])
    _check_finite(scores, names, columns, path)
    labels = None if label_col is None else np.array([str(v).strip() for v in columns.cells[label_col]])
    ids = None if id_col is None else np.array([str(v) for v in columns.cells[id_col]])
    weights = None
    if weight_col is not None:
        weights = _parse_column(columns, weight_col, path, what="weight")
        _check_weights(weights, weight_col, columns, path)
    return labels, scores, tuple(names), ids, weights


def _check_labels(labels, classes, label_col, columns, path):
    unknown = ~np.isin(labels, classes)
    if unknown.any():
        names = sorted(set(labels[unknown].tolist()))
        raise ValueError(
            f"{path}: labels {names[:5]} in column {label_col!r} are not class names {list(classes)} "
            f"(first at {columns.where(int(np.argmax(unknown)))})"
        )


def read_scores(
    path: str | os.PathLike,
    *,
    label_col: str | None = "label",
    id_col: str | None = None,
    weight_col: str | None = None,
    score_columns: Sequence[str] | None = None,
) -> ScoreTable:
    """Read per-class scores (and true labels, ids, sample weights) from a CSV, Parquet or NPZ file.

    Parameters
    ----------
    path : str or Path
        ``.csv`` (or ``.txt``), ``.parquet`` or ``.npz`` file (see the module
        docstring).
    label_col : str or None, default="label"
        Name of the column of true labels; None when the file has none.
    id_col : str, default=None
        Name of an id column kept in :attr:`ScoreTable.ids`.
    weight_col : str, default=None
        Name of a column (an array, in an NPZ file) of sample weights, kept in
        :attr:`ScoreTable.sample_weight`; not a score column.
    score_columns : list of str, default=None
        The score columns, in class order; default every column but the
        label, id and weight columns.

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
        weight or score column; one column named for two roles; fewer than
        two score columns; a score that is empty, not a number, NaN or
        infinite; a weight that is empty, not a number, negative or not
        finite; a row with the wrong number of fields; a label that is not
        one of the class names.
    OSError
        If the file cannot be read (missing, a directory, no permission).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "scores.csv")
    ...     _ = open(path, "w").write("a,b,label,w\\n0.9,0.1,a,1\\n0.2,0.8,b,2.5\\n")
    ...     table = read_scores(path, weight_col="w")
    >>> table.classes, table.y_true.tolist(), table.y_score.tolist(), table.sample_weight.tolist()
    (('a', 'b'), ['a', 'b'], [[0.9, 0.1], [0.2, 0.8]], [1.0, 2.5])
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".npz":
        labels, scores, classes, ids, weights = _npz_table(path, label_col is not None, weight_col)
        columns = _Columns({}, None)
    elif suffix in (".csv", ".txt", ".parquet", ".pq"):
        read = _parquet_columns if suffix in (".parquet", ".pq") else _csv_columns
        columns = read(path)
        labels, scores, classes, ids, weights = _column_table(
            columns, label_col, id_col, weight_col, score_columns, path
        )
    else:
        raise ValueError(f"{path}: unknown file type {suffix!r}; use .csv, .parquet or .npz")
    if labels is not None:
        _check_labels(labels, classes, label_col, columns, path)
    return ScoreTable(labels, scores, classes, ids, str(path), weights)


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
        If the file cannot be read.

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
    FileExistsError, OSError
        As :class:`OutputFile`.

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
    FileExistsError, OSError
        As :class:`OutputFile`.

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
