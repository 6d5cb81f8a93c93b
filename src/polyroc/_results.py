"""The result protocol shared by every result object of polyroc.

A result is a frozen dataclass deriving from :class:`Result`. It has:

- ``settings``: one dict of the options that produced it, with the same key
  names across methods (``metric``, ``search``, ``resolution``, ``n_samples``,
  ``domain``, ``tie_break``, ``n_boot``, ``confidence``, ``random_state``,
  ``cutoff_grid`` ...);
- :meth:`Result.to_dict`: a JSON-ready dict of its fields (arrays become
  lists, NaN and infinities become None, nested results their own dicts), the
  one source of the report's ``results.json``;
- :meth:`Result.to_frame`: a pandas DataFrame of its main table (pandas is
  imported only then);
- ``plot(ax=None, **kwargs)`` returning a Display of :mod:`polyroc.plotting`
  (where the result can be drawn);
- ``_repr_html_`` so that a notebook shows it as a table.
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["Result", "frame", "jsonable"]


def jsonable(value: Any) -> Any:
    """``value`` as JSON-ready Python data: lists, dicts with string keys, numbers, strings, None.

    Arrays and tuples become (nested) lists; NumPy scalars Python numbers;
    NaN and infinities None (strict JSON has neither); results their
    :meth:`Result.to_dict`; other dataclasses and mappings dicts; a random
    generator or any other object its ``repr``.

    >>> jsonable({"a": np.array([1.0, np.nan]), 2: (np.int64(3), "x")})
    {'a': [1.0, None], '2': [3, 'x']}
    """
    if isinstance(value, Result):
        return value.to_dict()
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, np.ndarray):
        return [jsonable(item) for item in value.tolist()] if value.ndim else jsonable(value.item())
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): jsonable(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: jsonable(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if callable(value):
        return getattr(value, "__name__", repr(value))
    return repr(value)


def frame(rows: list[dict[str, Any]], caller: str) -> Any:
    """A pandas DataFrame of ``rows``; pandas is imported only here, and only when called.

    Raises ``ImportError`` naming ``caller`` if pandas is not installed.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - pandas is in the test extra
        raise ImportError(f"{caller} needs pandas: pip install pandas") from error
    return pd.DataFrame(rows)


class Result:
    """Base of polyroc's result dataclasses: ``to_dict``, ``to_frame``, ``_repr_html_``.

    Subclasses are ``@dataclass(frozen=True, eq=False)`` with a ``settings``
    field. They may override :meth:`_frame_rows` (the rows of
    :meth:`to_frame`) and :meth:`_summary` (the scalars shown first by
    ``_repr_html_``), and implement ``plot``.
    """

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data (see :func:`jsonable`), with the result's type.

        Returns
        -------
        dict
            ``{"type": <class name>, <field>: <value>, ...}``; ``json.dumps``
            writes it as strict JSON.
        """
        fields = {field.name: jsonable(getattr(self, field.name)) for field in dataclasses.fields(self)}
        return {"type": type(self).__name__, **fields}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """Rows of :meth:`to_frame`; by default one row of the scalar fields."""
        return [self._summary()]

    def _summary(self) -> dict[str, Any]:
        """The scalar (number, string, bool) fields, for a one-line view."""
        summary = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if isinstance(value, (str, bool, int, float, np.integer, np.floating, np.bool_)):
                summary[field.name] = value.item() if isinstance(value, np.generic) else value
        return summary

    def to_frame(self):
        """The result's main table as a pandas DataFrame.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        ImportError
            If pandas is not installed (``pip install pandas``).
        """
        return frame(self._frame_rows(), f"{type(self).__name__}.to_frame")

    def __repr__(self) -> str:
        """One short line per field: scalars as values, arrays by shape, nested results by type.

        A result may hold thousands of numbers (curves, replicates); its repr
        names them without printing them. ``to_dict()`` and ``to_frame()``
        give the values.
        """
        parts = [f"{field.name}={_brief(getattr(self, field.name))}" for field in dataclasses.fields(self)]
        return f"{type(self).__name__}({', '.join(parts)})"

    def _repr_html_(self) -> str:
        """An HTML table of the summary and the settings, for notebooks."""
        rows = {**self._summary(), **{f"settings.{k}": v for k, v in getattr(self, "settings", {}).items()}}
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(str(key))}</th>"
            f"<td style='text-align:left'>{html.escape(_short(value))}</td></tr>"
            for key, value in rows.items()
        )
        return f"<table><caption>{html.escape(type(self).__name__)}</caption>{body}</table>"


def _short(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    text = repr(value) if not isinstance(value, str) else value
    return text if len(text) <= 80 else text[:77] + "..."


def _brief(value: Any) -> str:
    """A short description of a field's value for ``Result.__repr__``."""
    if isinstance(value, Result):
        return f"<{type(value).__name__}>"
    if isinstance(value, np.ndarray):
        if value.ndim <= 1 and value.size <= 6:
            return np.array2string(value, precision=6, separator=", ", max_line_width=10**6)
        return f"<array {'x'.join(map(str, value.shape))} {value.dtype}>"
    if isinstance(value, (list, tuple)) and (len(value) > 6 or any(isinstance(v, np.ndarray) for v in value)):
        return f"<{type(value).__name__} of {len(value)}>"
    if isinstance(value, Mapping) and (len(value) > 4 or any(isinstance(v, (Mapping, Result)) for v in value.values())):
        return f"<dict of {len(value)}>"
    if isinstance(value, str) and "\n" in value:
        return f"<text of {value.count(chr(10)) + 1} lines>"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (float, np.floating)):
        return f"{float(value):.6g}"
    return _short(value)
