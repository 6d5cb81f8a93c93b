"""The one rule by which the rows of several score files (the models of a report) are paired.

- ``--id-col NAME``: every file has the id column NAME; rows are matched by id.
- default: when every file carries an unnamed first column (the index
  ``pandas.DataFrame.to_csv`` writes), rows are matched by it;
- ``--id-col ""``: no id column; rows are paired by position, as said;
- otherwise (several files, not all with an unnamed index) the files are
  refused, naming the two options, rather than paired by position silently.

Matching by id puts every file's rows in the first file's order; ids that
repeat within a file, or sets of ids that differ between files, are refused
naming the files.

In Python the models' scores are paired by position, as scikit-learn pairs
arrays; :func:`check_frames_in_one_order` refuses DataFrames whose indexes
hold the same rows in another order, the one sign of rows paired wrongly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

#: ``--id-col ""``: no id column, the rows of several files are paired by position.
BY_POSITION = ""


def _column(id_col: str | None) -> str:
    return "the unnamed first column (the index pandas writes)" if not id_col else f"column {id_col!r} (--id-col)"


def check_unique_ids(ids: np.ndarray, path: str, id_col: str | None) -> None:
    """Raise ``ValueError`` naming ``path`` when an id appears twice in ``ids``."""
    ordered = np.sort(ids)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if repeated.size:
        raise ValueError(
            f"{path}: id {str(repeated[0])!r} appears more than once in {_column(id_col)}; "
            "ids must be unique to match the rows of several files"
        )


def _row_order(ids: np.ndarray, path: str, reference: np.ndarray, reference_path: str, id_col) -> np.ndarray:
    """Indices putting the rows of ids ``ids`` (of ``path``) in the order of ``reference`` (of ``reference_path``)."""
    check_unique_ids(ids, path, id_col)
    sorter = np.argsort(ids, kind="stable")
    positions = np.minimum(np.searchsorted(ids, reference, sorter=sorter), len(ids) - 1)
    order = sorter[positions]
    found = ids[order] == reference
    extra = np.setdiff1d(ids, reference)
    if not found.all() or extra.size:
        missing = reference[~found]
        parts = []
        if missing.size:
            parts.append(f"{missing.size} ids of {reference_path} are missing, e.g. {missing[:5].tolist()}")
        if extra.size:
            parts.append(f"{extra.size} ids are not in {reference_path}, e.g. {extra[:5].tolist()}")
        raise ValueError(f"{path}: {_column(id_col)}: {'; '.join(parts)}")
    return order


def row_orders(
    ids: Sequence[np.ndarray | None], paths: Sequence[str], id_col: str | None, option: str
) -> list[np.ndarray | None]:
    """For each file, the indices putting its rows in the first file's order (None: its rows as they are).

    ``ids`` are the files' id columns as read (None for a file without one),
    ``paths`` their names, ``id_col`` the ``--id-col`` given (None if not
    given, :data:`BY_POSITION` for ``--id-col ""``) and ``option`` the option
    that named the files, for the messages. Raises ``ValueError`` as the
    module's rule says.
    """
    if id_col == BY_POSITION:
        return [None] * len(ids)
    if len(ids) == 1:
        if id_col is not None:
            check_unique_ids(cast(np.ndarray, ids[0]), paths[0], id_col)  # read with the named id column
        return [None]
    without = [path for path, these in zip(paths, ids) if these is None]
    if without:
        carried = [path for path, these in zip(paths, ids) if these is not None]
        found = f"; {carried} carry one" if carried else ""
        raise ValueError(
            f"{option}: the rows of {len(paths)} files cannot be matched: {without} carry no id column "
            f"(an unnamed first column, the index pandas writes){found}. Write every file with its index "
            '(DataFrame.to_csv()), name an id column of every file with --id-col NAME, or pass --id-col "" '
            "to pair the rows by position (the files then hold the same rows in the same order)"
        )
    present = [these for these in ids if these is not None]  # every file carries one
    check_unique_ids(present[0], paths[0], id_col)
    orders: list[np.ndarray | None] = [None]
    for these, path in zip(present[1:], paths[1:]):
        order = _row_order(these, path, present[0], paths[0], id_col)
        orders.append(None if np.array_equal(order, np.arange(order.size)) else order)
    return orders
