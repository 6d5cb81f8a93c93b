"""Cost matrices from CSV files: :func:`read_cost_matrix`.

A cost matrix file is a square table in CSV: the header names the decisions
(its first cell, the corner, is free text such as ``true\\decided`` or
empty), and each following line starts with a true class and holds the costs
of each decision for that class::

    true,cat,dog,bird
    cat,0,1,1
    dog,5,0,1
    bird,2,1,0

Rows are the true classes and columns the decisions, as
:func:`polyroc.expected_cost` takes them. Class names are typed and ordered
by the rule of score files (:mod:`polyroc._class_names`): when every name is
an integer written plainly, the classes are those integers; they are always
matched to other files' classes **by name**, never by position, so the rows
and columns may come in any order.
"""

from __future__ import annotations

import csv
import io
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from polyroc.io._readers import check_unique_names, decoded

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["read_cost_matrix"]


def _cost_lines(path: Path) -> list[tuple[int, list[str]]]:
    """The non-blank lines of the file as (line number, cells), cells stripped of surrounding spaces."""
    rows = []
    for number, cells in enumerate(csv.reader(io.StringIO(decoded(path), newline="")), start=1):
        cells = [cell.strip() for cell in cells]
        if any(cells):
            rows.append((number, cells))
    return rows


def _cost(text: str, number: int, column: str, path: Path) -> float:
    """One cost cell as a finite non-negative float, or a ValueError naming the file, line and column."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{path}: line {number}, column {column!r}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{path}: line {number}, column {column!r}: the cost {text!r} is not finite")
    if value < 0:
        raise ValueError(f"{path}: line {number}, column {column!r}: the cost {text!r} is negative; costs are >= 0")
    return value


def _matched(names: list[str], classes: Sequence[object], axis: str, path: Path) -> list[int]:
    """Positions in ``names`` of each of ``classes``, matched by name; an error naming what differs."""
    wanted = [str(c) for c in classes]
    missing = [name for name in wanted if name not in names]
    extra = [name for name in names if name not in wanted]
    if missing or extra:
        problems = ([f"lacks the classes {missing}"] if missing else []) + (
            [f"names classes the scores do not have: {extra}"] if extra else []
        )
        raise ValueError(f"{path}: the cost matrix's {axis} {' and '.join(problems)} (score classes: {wanted})")
    return [names.index(name) for name in wanted]


def read_cost_matrix(path: str | os.PathLike, classes: Sequence[object] | None = None) -> pd.DataFrame:
    """Read a cost matrix from a CSV file: rows the true classes, columns the decisions.

    The header names the decisions after a first cell of free text; each
    line starts with a true class, then its costs. The rows and columns must
    name the same classes, each once, in any order; every cost must be a
    finite number >= 0.

    Parameters
    ----------
    path : str or os.PathLike
        The CSV file (UTF-8; a byte-order mark is skipped; blank lines too).
    classes : sequence, default=None
        The classes the matrix must cost (e.g. those of a score file), in the
        order wanted: the rows and columns are matched to them by name
        (``str(c)``) and put in that order. Default: the classes of the file,
        typed and ordered as those of score files (integers in numeric order
        when every name is an integer written plainly, e.g. ``2`` before
        ``10``; else text in text order).

    Returns
    -------
    pandas.DataFrame of shape (m, m)
        The costs as floats, the index the true classes and the columns the
        decisions, both labelled by the classes (``classes`` when given).
        :func:`polyroc.expected_cost` and :func:`polyroc.bayes_decision`
        take it as it is.

    Raises
    ------
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        Naming the file (and the line): if it is not UTF-8 text, is empty or
        has fewer than 2 classes; if a line does not have one cell per
        header cell; if the matrix is not square, or its rows and columns do
        not name the same classes, or a class twice; if a cost is not a
        number, not finite or negative; if ``classes`` is given and the
        file's classes are not exactly those.

    See Also
    --------
    polyroc.expected_cost : The expected cost of decisions under the matrix.
    polyroc.bayes_decision : The decisions of least expected cost.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = pathlib.Path(tmp) / "costs.csv"
    ...     _ = path.write_text("true,10,2\\n2,1,0\\n10,0,4\\n")  # columns in any order
    ...     costs = read_cost_matrix(path)
    >>> costs
         2    10
    2   0.0  1.0
    10  4.0  0.0
    >>> costs.loc[10, 2]  # true class 10, decided 2
    np.float64(4.0)
    """
    import numpy as np
    import pandas as pd

    from polyroc._class_names import class_order

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such cost matrix file")
    lines = _cost_lines(path)
    if not lines:
        raise ValueError(f"{path}: the cost matrix file is empty")
    decisions = lines[0][1][1:]
    check_unique_names(decisions, path)
    if len(decisions) < 2:
        raise ValueError(
            f"{path}: the header names {len(decisions)} decision(s); a cost matrix needs 2 classes or more"
        )
    true_classes, values = [], []
    for number, cells in lines[1:]:
        if len(cells) != len(decisions) + 1:
            raise ValueError(
                f"{path}: line {number} has {len(cells)} cells; the header has {len(decisions) + 1} "
                "(the true class, then one cost per decision)"
            )
        true_classes.append(cells[0])
        values.append([_cost(text, number, name, path) for text, name in zip(cells[1:], decisions)])
    if len(true_classes) != len(decisions):
        raise ValueError(
            f"{path}: the cost matrix is not square: {len(true_classes)} rows of true classes but "
            f"{len(decisions)} decision columns"
        )
    for name, number in zip(true_classes, (number for number, _ in lines[1:])):
        if true_classes.count(name) > 1:
            raise ValueError(f"{path}: line {number}: the true class {name!r} has more than one row")
    if set(true_classes) != set(decisions):
        raise ValueError(
            f"{path}: the rows (true classes {true_classes}) and the columns (decisions {decisions}) "
            "must name the same classes"
        )
    if classes is None:
        rule = class_order(decisions)
        labels: list[object] = rule.classes.tolist()
        wanted: Sequence[object] = [decisions[k] for k in rule.order]
    else:
        labels, wanted = list(classes), classes
    rows = _matched(true_classes, wanted, "rows", path)
    columns = _matched(decisions, wanted, "columns", path)
    costs = np.asarray(values, dtype=np.float64)[np.ix_(rows, columns)]
    return pd.DataFrame(costs, index=pd.Index(labels), columns=pd.Index(labels))
