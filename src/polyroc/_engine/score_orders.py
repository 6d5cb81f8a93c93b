"""One stable sort per score column, shared by every computation that ranks the same scores.

A report ranks the same test scores many times: the one-vs-rest curves of
the ROC clouds, of the Gini-weighted ROC and of the figures, the rankings of
the Gini bootstrap and the pools of ROC-DMF each sort every column again,
and the micro average sorts all n m cells. A :class:`ScoreOrders` registered
with :func:`shared_orders` keeps the order of each column (and of the raveled
cells, merged from the columns' orders) the first time one is asked for; :func:`ascending_order` and
:func:`descending_order` hand it out to any kernel that asks for the order of
the same values.

A sort is only reused for values equal, element by element, to a column
of the registered scores (``np.array_equal``, a pass over the values, far
cheaper than a sort), so a kernel called on other values sorts them itself:
the orders returned are always those of ``np.argsort(values, kind="stable")``
and ``np.argsort(-values, kind="stable")``, whether they are shared or not.
One direction is sorted and the other derived from it: reversed, then each
run of tied values put back in increasing sample order (stable sorts keep
ties in that order in both directions). Values with NaN are never shared
(they sort last in both directions, and ``np.array_equal`` finds no
column equal to them).

The registry is process-wide, not per thread, so that kernels running on
the worker threads of :func:`polyroc._engine.parallel.chunk_map` find the
orders too; since a shared order is always the order the kernel would
compute, sharing cannot change a result.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "ScoreOrders",
    "ascending_order",
    "descending_order",
    "flipped_order",
    "known_order",
    "offer_order",
    "shared_counts",
    "shared_order",
    "shared_orders",
]

#: The key of the raveled cells (n m values, row by row) among the column keys 0, ..., m - 1.
CELLS = -1

#: Orders registered by :func:`shared_orders`, innermost last.
_ACTIVE: list[ScoreOrders] = []


class ScoreOrders:
    """Stable orders of the columns of a score matrix (n, m) and of its raveled cells, sorted when first asked for.

    Orders are held as int32 when the values are fewer than 2**31 (half the
    memory) and handed out as ``intp``. Only the first direction asked for
    is held; the other is derived from it (:func:`flipped_order`).

    >>> scores = np.array([[0.2, 0.8], [0.5, 0.5], [0.2, 0.8]])
    >>> orders = ScoreOrders(scores)
    >>> with shared_orders(orders):
    ...     descending_order(scores[:, 0].copy()).tolist(), ascending_order(scores[:, 0].copy()).tolist()
    ([1, 0, 2], [0, 2, 1])
    >>> orders.n_sorted
    1
    """

    def __init__(self, scores: NDArray[np.floating]) -> None:
        self.scores = scores
        self.n_sorted = 0
        self._held: dict[int, tuple[bool, np.ndarray]] = {}
        self._counts: dict[int, list[tuple[np.ndarray, np.ndarray | None, tuple[np.ndarray, ...]]]] = {}
        self._lock = threading.Lock()

    def key_of(self, values: np.ndarray) -> int | None:
        """The column of the scores equal to ``values`` (:data:`CELLS` for the raveled cells), or None."""
        scores = self.scores
        if values.ndim != 1 or values.dtype != scores.dtype or values.size == 0:
            return None
        if values.size == scores.shape[0]:
            last = values.size - 1
            for k in range(scores.shape[1]):
                column = scores[:, k]
                if values[0] == column[0] and values[last] == column[last] and np.array_equal(values, column):
                    return k
            return None
        if values.size == scores.size and scores.flags.c_contiguous and np.array_equal(values, scores.ravel()):
            return CELLS
        return None

    def order(self, key: int, values: np.ndarray, descending: bool) -> NDArray[np.intp]:
        """The stable order of ``values`` (those of column ``key``), sorted or derived from the held one."""
        order = self.known(key, values, descending)
        if order is None:
            if key == CELLS and self.scores.shape[1] > 1:
                order = self._merged_cells(values, descending)
            else:
                order = np.argsort(-values if descending else values, kind="stable")
            self.keep(key, order, descending)
        return order

    def _merged_cells(self, values: np.ndarray, descending: bool) -> NDArray[np.intp]:
        """The stable order of the raveled cells, merged from the orders of the columns (held or sorted now).

        The columns' sorted runs, laid end to end, are merged by numpy's stable
        sort (a timsort, which finds the m runs: O(n m log m) instead of a sort
        of all n m cells); cells of equal value, which the merge leaves column
        by column, are then put back in increasing cell order.
        """
        scores = self.scores
        n_classes = scores.shape[1]
        cells = np.concatenate([self.order(k, scores[:, k], descending) * n_classes + k for k in range(n_classes)])
        ranked = values[cells]
        merged = cells[np.argsort(-ranked if descending else ranked, kind="stable")]
        return _ties_in_index_order(merged, values[merged])

    def keep(self, key: int, order: NDArray[np.intp], descending: bool) -> None:
        """Hold ``order``, the stable order of column ``key`` in that direction, unless one is held."""
        compact = order.astype(np.int32) if order.size < 2**31 else order
        with self._lock:
            if key not in self._held:
                self._held[key] = (descending, compact)
                self.n_sorted += 1

    def counts_of(self, key: int, positive: np.ndarray, weight: np.ndarray | None) -> tuple[np.ndarray, ...] | None:
        """Copies of the binary counts held for column ``key`` with these positives and weights, or None."""
        for held_positive, held_weight, counts in self._counts.get(key, ()):
            same_weight = (
                held_weight is None
                if weight is None
                else held_weight is not None and np.array_equal(held_weight, weight)
            )
            if same_weight and held_positive.dtype == positive.dtype and np.array_equal(held_positive, positive):
                return tuple(array.copy() for array in counts)
        return None

    def keep_counts(
        self, key: int, positive: np.ndarray, weight: np.ndarray | None, counts: tuple[np.ndarray, ...]
    ) -> None:
        """Hold copies of the binary counts of column ``key`` with these positives and weights."""
        entry = (positive.copy(), None if weight is None else weight.copy(), tuple(array.copy() for array in counts))
        with self._lock:
            self._counts.setdefault(key, []).append(entry)

    def known(self, key: int, values: np.ndarray, descending: bool) -> NDArray[np.intp] | None:
        """The stable order of ``values`` (column ``key``) from the held one, or None when none is held."""
        held = self._held.get(key)
        if held is None:
            return None
        held_descending, compact = held
        if held_descending == descending:
            return compact.astype(np.intp)
        return flipped_order(compact.astype(np.intp), values)


def _ties_in_index_order(order: NDArray[np.intp], ranked: np.ndarray) -> NDArray[np.intp]:
    """``order`` (of values sorted into ``ranked``) with each run of tied values in increasing index order.

    >>> _ties_in_index_order(np.array([4, 0, 3, 1]), np.array([1.0, 2.0, 2.0, 2.0])).tolist()
    [4, 0, 1, 3]
    """
    tied = ranked[1:] == ranked[:-1]
    if not tied.any():
        return order
    run = np.concatenate(([0], np.cumsum(~tied)))
    member = np.concatenate(([False], tied)) | np.concatenate((tied, [False]))
    positions = np.flatnonzero(member)
    indices = order[positions]
    order[positions] = indices[np.lexsort((indices, run[positions]))]
    return order


def flipped_order(order: NDArray[np.intp], values: np.ndarray) -> NDArray[np.intp]:
    """The stable order of ``values`` in the other direction, from its stable ``order`` in one direction.

    Reversed, a stable order lists each run of tied values in decreasing
    sample order; reversing every such run again gives the stable order.

    >>> values = np.array([3.0, 1.0, 3.0, 2.0, 1.0])
    >>> ascending = np.argsort(values, kind="stable")
    >>> flipped_order(ascending, values).tolist() == np.argsort(-values, kind="stable").tolist()
    True
    """
    flipped = order[::-1]
    ranked = values[flipped]
    tied = ranked[1:] == ranked[:-1]
    if not tied.any():
        return flipped.copy()
    ends = np.append(np.flatnonzero(~tied), ranked.size - 1)  # last position of each run
    sizes = np.diff(ends, prepend=-1)
    starts = ends - sizes + 1
    within = np.repeat(starts + ends, sizes) - np.arange(ranked.size)  # position s + e - p in run [s, e]
    return flipped[within]


def shared_order(values: np.ndarray, descending: bool) -> NDArray[np.intp] | None:
    """The stable order of ``values`` when registered scores hold them (sorted now if first asked), else None.

    >>> shared_order(np.array([2.0, 1.0]), descending=False) is None  # nothing registered
    True
    """
    if not _ACTIVE or values.size < 2:
        return None
    for orders in reversed(_ACTIVE):
        key = orders.key_of(values)  # never for values with NaN: NaN equals nothing
        if key is not None:
            return orders.order(key, values, descending)
    return None


def known_order(values: np.ndarray, descending: bool) -> NDArray[np.intp] | None:
    """The stable order of ``values`` when registered scores hold them and it is held already, else None.

    Nothing is sorted: see :func:`offer_order`.

    >>> scores = np.array([[0.3], [0.1]])
    >>> orders = ScoreOrders(scores)
    >>> with shared_orders(orders):
    ...     before = known_order(scores[:, 0], descending=False)
    ...     offer_order(scores[:, 0], np.array([1, 0]), descending=False)
    ...     after = known_order(scores[:, 0], descending=True)
    >>> before, after.tolist()
    (None, [0, 1])
    """
    if not _ACTIVE or values.size < 2:
        return None
    for orders in reversed(_ACTIVE):
        key = orders.key_of(values)
        if key is not None:
            return orders.known(key, values, descending)
    return None


def offer_order(values: np.ndarray, order: NDArray[np.intp], descending: bool) -> None:
    """Hold ``order`` for registered scores equal to ``values``; it must be their stable order.

    An unstable sort of distinct values gives that order (there is no other).
    """
    if not _ACTIVE or values.size < 2:
        return
    for orders in reversed(_ACTIVE):
        key = orders.key_of(values)
        if key is not None:
            orders.keep(key, order, descending)
            return


def shared_counts(
    values: np.ndarray, positive: np.ndarray, weight: np.ndarray | None, count: Callable[[], tuple[np.ndarray, ...]]
) -> tuple[np.ndarray, ...]:
    """``count()``, the binary counts of ``positive`` ranked by ``values``, computed once for registered scores.

    The one-vs-rest curves of the ROC clouds, of the Gini-weighted ROC and of
    the figures count the same classes against the same columns: the counts
    of a registered column are held with copies of their positives and
    weights, and handed out (as copies) when asked again with equal ones.

    >>> scores = np.array([[0.3, 0.7], [0.6, 0.4]])
    >>> with shared_orders(ScoreOrders(scores)):
    ...     first = shared_counts(scores[:, 0], np.array([True, False]), None, lambda: (np.array([1.0]),))
    ...     again = shared_counts(scores[:, 0], np.array([True, False]), None, lambda: (np.array([2.0]),))
    >>> first[0].tolist(), again[0].tolist()
    ([1.0], [1.0])
    """
    if not _ACTIVE or values.size < 2:
        return count()
    for orders in reversed(_ACTIVE):
        key = orders.key_of(values)
        if key is not None:
            held = orders.counts_of(key, positive, weight)
            if held is None:
                held = count()
                orders.keep_counts(key, positive, weight, held)
            return held
    return count()


def ascending_order(values: np.ndarray) -> NDArray[np.intp]:
    """``np.argsort(values, kind="stable")``, shared when ``values`` are registered scores.

    >>> ascending_order(np.array([2.0, 1.0, 2.0])).tolist()
    [1, 0, 2]
    """
    shared = shared_order(values, descending=False)
    return np.argsort(values, kind="stable") if shared is None else shared


def descending_order(values: np.ndarray) -> NDArray[np.intp]:
    """``np.argsort(-values, kind="stable")``, shared when ``values`` are registered scores.

    >>> descending_order(np.array([2.0, 1.0, 2.0])).tolist()
    [0, 2, 1]
    """
    shared = shared_order(values, descending=True)
    return np.argsort(-values, kind="stable") if shared is None else shared


@contextmanager
def shared_orders(*orders: ScoreOrders | None) -> Iterator[None]:
    """Register ``orders`` (None entries are skipped) for the kernels called inside the block.

    >>> scores = np.array([[0.1, 0.9], [0.7, 0.3]])
    >>> orders = ScoreOrders(scores)
    >>> with shared_orders(orders):
    ...     first, again = descending_order(scores[:, 1].copy()), descending_order(scores[:, 1].copy())
    >>> first.tolist(), again.tolist(), orders.n_sorted
    ([0, 1], [0, 1], 1)
    """
    registered = [entry for entry in orders if entry is not None]
    _ACTIVE.extend(registered)
    try:
        yield
    finally:
        for entry in registered:
            _ACTIVE.remove(entry)
