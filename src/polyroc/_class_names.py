"""The one rule by which class names read from files are typed, ordered and matched.

Files name their classes in text: the score column headers ``0,1,…,11`` or
``cat,dog``, a label column, the ``classes`` of a thresholds file. Every place
that orders classes or compares them across files (test and validation scores,
several models, thresholds, the columns of a dask frame) uses this rule:

- a file's columns are matched to another's **by name**, never by position;
- when every class name is an integer written plainly (``"7"``, ``"-2"``; not
  ``"07"`` or ``"7.0"``), the classes are those integers, in numeric order, as
  pandas reads such a label column; the labels are read as the same integers;
- otherwise the classes are the names as text, in text order (``"10"`` before
  ``"9"`` when some other name, e.g. ``"a"``, is not an integer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


def _plain_integer(name: str) -> bool:
    """Whether ``name`` is an integer written plainly: its ``int`` prints back as ``name``."""
    try:
        return str(int(name)) == name
    except ValueError:
        return False


@dataclass(frozen=True)
class ClassOrder:
    """Class names put in order: ``classes[k]`` is the class of column ``order[k]`` of the file."""

    classes: np.ndarray
    order: np.ndarray

    @property
    def integer(self) -> bool:
        """Whether the classes are integers (every name an integer written plainly)."""
        return self.classes.dtype.kind == "i"

    def labels(self, values) -> np.ndarray:
        """``values`` (labels as read: text or numbers) as values of :attr:`classes`."""
        values = np.asarray(values)
        if self.integer and values.dtype.kind not in "iu":
            return np.asarray([int(value) for value in values.tolist()], dtype=np.int64)
        if not self.integer and values.dtype.kind != "U":
            return values.astype(str)
        return values


def class_order(names: Sequence[str]) -> ClassOrder:
    """The classes named by ``names`` (as they stand in a file), typed and ordered by the module's rule.

    >>> rule = class_order(["0", "1", "10", "11", "2"])
    >>> rule.classes.tolist(), rule.order.tolist()
    ([0, 1, 2, 10, 11], [0, 1, 4, 2, 3])
    >>> class_order(["b", "a", "10", "9"]).classes.tolist()
    ['10', '9', 'a', 'b']
    """
    names = [str(name) for name in names]
    if all(_plain_integer(name) for name in names):
        values = np.array([int(name) for name in names], dtype=np.int64)
    else:
        values = np.array(names, dtype=str)
    order = np.argsort(values, kind="stable")
    return ClassOrder(values[order], order)


def same_classes(names: Sequence[str], reference: Sequence[str]) -> bool:
    """Whether two files name the same classes, in any column order."""
    return len(names) == len(reference) and set(map(str, names)) == set(map(str, reference))


def column_order(names: Sequence[str], reference: Sequence[str]) -> np.ndarray:
    """Indices putting columns named ``names`` in the order of ``reference`` (the same names)."""
    position = {str(name): j for j, name in enumerate(names)}
    return np.array([position[str(name)] for name in reference], dtype=np.intp)
