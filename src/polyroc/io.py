"""Reading predicted scores from files and writing results atomically.

Score files (CSV, or Parquet when pyarrow is installed) hold one row per sample:

- one column per class holding that class's score; the column name *is* the
  class label (e.g. ``cat,dog,bird`` or ``0,1,2``);
- one label column (default name ``label``) holding the true class of each
  row, spelled exactly as one of the score column names (optional where
  labels are not needed, e.g. when applying tuned thresholds);
- optionally an id column, carried into outputs;
- every other column is an error unless ``score_columns`` names the score
  columns explicitly.

NPZ files hold arrays instead: ``scores`` (n, m), ``classes`` (m,), and
optionally ``labels`` (n,) and ``ids`` (n,).

Every file polyroc writes goes to a temporary file in the same directory first
and is renamed into place, so an error or an interrupt never leaves a
half-written output. A directory of outputs (a report) is built in a
temporary sibling directory and renamed into place the same way.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "ScoreTable",
    "atomic_directory",
    "atomic_write",
    "check_output_directory",
    "read_scores",
    "read_thresholds",
    "write_predictions",
    "write_thresholds",
]


@dataclass(frozen=True)
class ScoreTable:
    """Scores read from a file: labels (or None), the score matrix, the class order, ids."""

    y_true: np.ndarray | None
    y_score: np.ndarray
    classes: tuple[str, ...]
    ids: np.ndarray | None
    source: str


def _csv_columns(path):
    with path.open(newline="", encoding="utf-8") as handle:
        rows = [row for row in csv.reader(handle) if row]
    if len(rows) < 2:
        raise ValueError(f"{path}: expected a header row and at least one data row")
    header = [name.strip() for name in rows[0]]
    for number, row in enumerate(rows[1:], start=1):
        if len(row) != len(header):
            raise ValueError(
                f"{path}: data row {number} has {len(row)} fields, the header has {len(header)}"
            )
    return {name: [row[i].strip() for row in rows[1:]] for i, name in enumerate(header)}


def _parquet_columns(path):
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise ValueError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
    table = pq.read_table(path).to_pydict()
    return {str(name): values for name, values in table.items()}


def _npz_table(path, require_labels):
    with np.load(path, allow_pickle=False) as data:
        missing = [key for key in ("scores", "classes") if key not in data]
        if missing:
            raise ValueError(f"{path}: NPZ file lacks arrays {missing}; it has {sorted(data)}")
        if require_labels and "labels" not in data:
            raise ValueError(f"{path}: NPZ file lacks the array 'labels' of true classes")
        scores = np.asarray(data["scores"], dtype=np.float64)
        classes = tuple(str(c) for c in data["classes"])
        labels = data["labels"].astype(str) if "labels" in data else None
        ids = data["ids"].astype(str) if "ids" in data else None
    if scores.ndim != 2 or scores.shape[1] != len(classes):
        raise ValueError(f"{path}: scores must be (n, {len(classes)}), got {scores.shape}")
    return labels, scores, classes, ids


def _parse_column(values, name, path):
    try:
        return np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        for number, value in enumerate(values, start=1):
            try:
                float(value)
            except (TypeError, ValueError):
                raise ValueError(
                    f"{path}: non-numeric score {value!r} in column {name!r}, data row {number}"
                ) from None
        raise


def _check_columns(header, label_col, id_col, score_columns, path):
    for name, role in ((label_col, "label"), (id_col, "id")):
        if name is not None and name not in header:
            raise ValueError(f"{path}: no {role} column {name!r}; columns are {header}")
    if score_columns is None:
        columns = [c for c in header if c not in (label_col, id_col)]
    else:
        missing = [c for c in score_columns if c not in header]
        if missing:
            raise ValueError(f"{path}: score columns {missing} not found; columns are {header}")
        columns = list(score_columns)
    if len(columns) < 2:
        raise ValueError(f"{path}: need at least 2 score columns, found {columns}")
    return columns


def _column_table(columns, label_col, id_col, score_columns, path):
    header = list(columns)
    names = _check_columns(header, label_col, id_col, score_columns, path)
    scores = np.column_stack([_parse_column(columns[name], name, path) for name in names])
    labels = None if label_col is None else np.array([str(v).strip() for v in columns[label_col]])
    ids = None if id_col is None else np.array([str(v) for v in columns[id_col]])
    return labels, scores, tuple(names), ids


def read_scores(path, *, label_col="label", id_col=None, score_columns=None):
    """Read per-class scores (and true labels) from a CSV, Parquet or NPZ file.

    Parameters
    ----------
    path : str or Path
        ``.csv``, ``.parquet`` or ``.npz`` file (see the module docstring).
    label_col : str or None, default="label"
        Name of the column of true labels; None when the file has none.
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
        If the file is empty or of an unknown type, a named column is missing,
        fewer than two score columns remain, a score is not a number, a row has
        the wrong number of fields, or a label is not one of the class names.
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
    suffix = path.suffix.lower()
    if suffix == ".npz":
        labels, scores, classes, ids = _npz_table(path, label_col is not None)
    elif suffix in (".csv", ".txt", ".parquet", ".pq"):
        columns = _parquet_columns(path) if suffix in (".parquet", ".pq") else _csv_columns(path)
        labels, scores, classes, ids = _column_table(columns, label_col, id_col, score_columns, path)
    else:
        raise ValueError(f"{path}: unknown file type {suffix!r}; use .csv, .parquet or .npz")
    if labels is not None:
        unknown = sorted(set(labels.tolist()) - set(classes))
        if unknown:
            raise ValueError(
                f"{path}: labels {unknown[:5]} in column {label_col!r} are not class names "
                f"{list(classes)}"
            )
    return ScoreTable(labels, scores, classes, ids, str(path))


def atomic_write(path, content):
    """Write ``content`` (str or bytes) to ``path`` via a temporary file and a rename.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     atomic_write(os.path.join(tmp, "a.txt"), "hello")
    ...     open(os.path.join(tmp, "a.txt")).read()
    'hello'
    """
    path = Path(path)
    mode = "wb" if isinstance(content, bytes) else "w"
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as out:
            out.write(content)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _swap_directory(new, old):
    """Put directory ``new`` in place of ``old``, restoring ``old`` if the swap fails."""
    retired = Path(tempfile.mkdtemp(dir=old.parent, prefix=f".{old.name}.", suffix=".old"))
    os.replace(old, retired / old.name)
    try:
        os.replace(new, old)
    except BaseException:
        os.replace(retired / old.name, old)
        raise
    finally:
        shutil.rmtree(retired, ignore_errors=True)


def check_output_directory(path, *, replace_if=None):
    """Return ``path`` as a Path if a directory may be written there, else raise.

    It may when ``path`` does not exist and its parent does, or when it is a
    directory that ``replace_if(path)`` accepts (e.g. an earlier report).

    Raises
    ------
    FileExistsError
        ``path`` exists and may not be replaced.
    FileNotFoundError
        The parent directory of ``path`` does not exist.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     check_output_directory(os.path.join(tmp, "new")).name
    'new'
    """
    path = Path(path)
    if path.exists() and not (path.is_dir() and replace_if is not None and replace_if(path)):
        raise FileExistsError(
            f"{path} already exists and is not an earlier polyroc output; choose another "
            "output directory or remove it"
        )
    if not path.parent.is_dir():
        raise FileNotFoundError(f"the parent directory of {path} does not exist")
    return path


@contextmanager
def atomic_directory(path, *, replace_if=None):
    """Build a directory in a temporary sibling and rename it to ``path`` on success.

    Yields the temporary directory (a :class:`pathlib.Path`). When the block
    raises (or is interrupted), the temporary directory is removed and ``path``
    is left as it was. An existing ``path`` is replaced only if
    ``replace_if(path)`` is true (e.g. it holds an earlier report); otherwise
    the call fails before anything is written.

    Parameters
    ----------
    path : str or os.PathLike
        The directory to create; its parent must exist.
    replace_if : callable, optional
        Predicate on an existing ``path``; default: never replace.

    Raises
    ------
    FileExistsError
        ``path`` exists and may not be replaced (raised before the block runs).
    FileNotFoundError
        The parent directory of ``path`` does not exist.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with atomic_directory(os.path.join(tmp, "out")) as building:
    ...         _ = (building / "a.txt").write_text("hello")
    ...     sorted(os.listdir(tmp)), open(os.path.join(tmp, "out", "a.txt")).read()
    (['out'], 'hello')
    """
    path = check_output_directory(path, replace_if=replace_if)
    building = Path(tempfile.mkdtemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"))
    try:
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(building, 0o777 & ~umask)  # mkdtemp's 0o700 would make the result private
        yield building
        if path.exists():
            _swap_directory(building, path)
        else:
            os.replace(building, path)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise


def write_predictions(path, predictions, *, ids=None, y_true=None):
    """Write predicted labels as CSV (``id`` if given, ``prediction``, ``label`` if given)."""
    columns = {"id": ids, "prediction": predictions, "label": y_true}
    columns = {name: values for name, values in columns.items() if values is not None}
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(zip(*columns.values()))
    atomic_write(path, buffer.getvalue())


def write_thresholds(path, result):
    """Write a :class:`~polyroc.thresholds.TuningResult` as JSON (exact float round trip)."""
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
    atomic_write(path, json.dumps(document, indent=2) + "\n")


def read_thresholds(path):
    """Read a thresholds JSON written by :func:`write_thresholds`; return the document.

    Raises
    ------
    ValueError
        If the file is not JSON or lacks ``classes``, ``threshold`` or
        ``domain``, or their lengths differ.
    """
    path = Path(path)
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not a thresholds JSON file ({error.msg})") from None
    missing = [key for key in ("classes", "threshold", "domain") if key not in document]
    if missing:
        raise ValueError(f"{path}: thresholds file lacks {missing}")
    if len(document["classes"]) != len(document["threshold"]):
        raise ValueError(f"{path}: 'classes' and 'threshold' have different lengths")
    return document
