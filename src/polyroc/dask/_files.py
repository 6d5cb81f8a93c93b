"""Reading a glob of Parquet or CSV score files into one dask DataFrame, one partition per file."""

from __future__ import annotations

import csv
import glob
import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import dask.dataframe as dd

SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".txt": "csv"}


def _file_kind(path: Path) -> str:
    kind = SUFFIXES.get(path.suffix.lower())
    if kind is None:
        raise ValueError(f"{path}: unknown file type {path.suffix!r}; use .parquet or .csv")
    return kind


def _header(path: Path, kind: str) -> list[str]:
    """The column names of a file, read from its schema or header line."""
    if kind == "parquet":
        import pyarrow.parquet as pq

        try:
            schema = pq.read_schema(path)
        except Exception as error:  # pyarrow raises its own error types for a damaged file
            raise ValueError(f"{path}: not a readable Parquet file ({error})") from None
        return [name for name in schema.names if not name.startswith("__index_level_")]
    with open(path, newline="", encoding="utf-8-sig") as handle:
        try:
            return next(csv.reader(handle))
        except StopIteration:
            raise ValueError(f"{path}: empty file, no header") from None


def _parquet_text_columns(path: Path, names, allowed) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.read_schema(path)
    for name in names:
        if name in allowed:
            continue
        kind = schema.field(name).type
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_boolean(kind)):
            raise TypeError(f"{path}: column {name!r} is not numeric (type {kind})")


def read_score_files(
    paths: str | os.PathLike | list[str | os.PathLike], *, label_col: str = "label", text_cols: tuple[str, ...] = ()
) -> dd.DataFrame:
    """Read score files (a glob pattern or a list of paths) into one dask DataFrame, one partition per file.

    Every file must have the same columns (in any order; the first file's
    order is kept). The label column and ``text_cols`` may hold text; every
    other column must be numeric, which is checked from each Parquet file's
    schema before any data is read, and as each CSV file is read.

    Parameters
    ----------
    paths : str, path or list of them
        A glob pattern (``"scores/part-*.parquet"``) or the files, all Parquet
        (``.parquet``, ``.pq``) or all CSV (``.csv``, ``.txt``).
    label_col : str, default="label"
        The column of true labels.
    text_cols : tuple of str, default=()
        Other columns that may hold text (e.g. an id), left as read.

    Returns
    -------
    dask.dataframe.DataFrame
        Its partitions are the files, in sorted order of a pattern's matches
        (or in the order given).

    Raises
    ------
    ValueError
        If no file matches, a file is of an unknown type, the files mix
        Parquet and CSV, a file is empty or damaged, a file lacks the label
        column, or a file's columns differ from the first file's (naming
        the file and the columns missing or extra).
    TypeError
        If a column other than the label and ``text_cols`` is not numeric
        in some file (naming the file and the column; for a CSV file when
        the partition is computed).
    OSError
        If a file cannot be read.

    See Also
    --------
    evaluate : Evaluate the frame.
    polyroc.io.read_scores : Read one score file into memory.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> table = pd.DataFrame({"a": [.9, .2], "b": [.1, .8], "label": ["a", "b"]})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for i in range(2):
    ...         table.to_csv(f"{folder}/p{i}.csv", index=False)
    ...     frame = read_score_files(f"{folder}/p*.csv")
    ...     frame.npartitions, list(frame.columns), round(float(frame["a"].sum().compute()), 4)
    (2, ['a', 'b', 'label'], 2.2)
    """
    import dask.dataframe as dd

    if isinstance(paths, (str, os.PathLike)):
        found = sorted(glob.glob(os.fspath(paths)))
        if not found:
            raise ValueError(f"no file matches {os.fspath(paths)!r}")
    else:
        found = [os.fspath(path) for path in paths]
        if not found:
            raise ValueError("paths is empty: give at least one score file")
    files = [Path(path) for path in found]
    kinds = {_file_kind(path) for path in files}
    if len(kinds) > 1:
        raise ValueError(f"the files mix Parquet and CSV ({files[0]} and others); give one kind")
    (kind,) = kinds
    names = _header(files[0], kind)
    if label_col not in names:
        raise ValueError(f"{files[0]}: no label column {label_col!r}; its columns are {names}")
    allowed = {label_col, *text_cols}
    for path in files:
        header = _header(path, kind)
        missing, extra = sorted(set(names) - set(header)), sorted(set(header) - set(names))
        if missing or extra:
            raise ValueError(f"{path}: its columns differ from those of {files[0]}: missing {missing}, extra {extra}")
        if kind == "parquet":
            _parquet_text_columns(path, names, allowed)
    meta = _read_file(files[0], names, kind, allowed).iloc[:0]
    return dd.from_map(_read_file, files, names=names, kind=kind, allowed=allowed, meta=meta, enforce_metadata=False)


def _read_file(path: Path, names, kind: str, allowed):
    """One file as a pandas DataFrame with the columns ``names``; TypeError naming a non-numeric column."""
    import pandas as pd

    if kind == "parquet":
        return pd.read_parquet(path, columns=list(names))
    table = pd.read_csv(path)[list(names)]
    for name in names:
        if name in allowed:
            continue
        if table[name].dtype.kind not in "biuf":
            raise TypeError(f"{path}: column {name!r} is not numeric (dtype {table[name].dtype})")
        table[name] = table[name].astype(np.float64)
    return table
