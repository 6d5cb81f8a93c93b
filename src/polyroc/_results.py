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
  (where the result can be drawn: the results deriving from :class:`Drawable`);
- ``_repr_html_`` so that a notebook shows it: the result first (estimates
  with their intervals and interval methods, the main table), one plain
  sentence for each odd state, then the settings folded in a ``<details>``.
  Subclasses give :meth:`Result._view_sections` and :meth:`Result._view_notes`;
  the HTML is built by :func:`html_table` and :func:`html_view` alone.

Data flows one way: the results know no Display. :meth:`Drawable.plot` looks
the drawing function of its type up in the registry of
:mod:`polyroc._displays` and calls it. :mod:`polyroc.plotting` fills that
registry when it is imported (each Display draws the result type it
registers); the core never imports it, not even inside a function. The
package root, the top layer, hands the registry a loader that imports
:mod:`polyroc.plotting`, called the first time a result is drawn: so
``result.plot()`` works after ``import polyroc`` alone, matplotlib is
imported only then, and without matplotlib the error is the one importing
:mod:`polyroc.plotting` raises. The registry is a module of its own, of the
standard library only, because this one imports NumPy and ``import polyroc``
must not.
"""

from __future__ import annotations

import dataclasses
import html
import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from polyroc._displays import display_for

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from polyroc.intervals._resampling import ConfidenceInterval
    from polyroc.plotting import Display

__all__ = [
    "Drawable",
    "Result",
    "fixed_decimals",
    "frame",
    "html_table",
    "html_view",
    "interval_cells",
    "interval_method_text",
    "interval_table",
    "jsonable",
    "number_text",
]


#: Rows of a result's main table shown by its notebook view at most.
VIEW_ROWS = 25


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
        if value.ndim and (value.dtype.kind in "biu" or value.dtype in PLAIN_FLOATS):
            return _plain_list(value)
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


#: Float types whose ``tolist`` gives Python floats (``jsonable`` of a whole array at once).
PLAIN_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def _plain_list(array: np.ndarray) -> list[Any]:
    """``jsonable`` of a boolean, integer or plain float array, without a call per element.

    ``tolist`` gives Python bools, ints and floats, as ``jsonable`` makes
    them one by one; NaN and infinities become None.
    """
    if array.dtype.kind == "f":
        finite = np.isfinite(array)
        if not finite.all():
            cells = array.astype(object)
            cells[~finite] = None
            return cells.tolist()
    return array.tolist()


def frame(rows: list[dict[str, Any]], caller: str) -> pd.DataFrame:
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
    ``_repr_html_``); a result that is drawn derives from :class:`Drawable`.
    """

    #: Set on each subclass by ``@dataclass``.
    __dataclass_fields__: ClassVar[dict[str, Any]]

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

    def to_frame(self) -> pd.DataFrame:
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

    def _view_sections(self) -> list[str]:
        """HTML fragments of the result, shown first by ``_repr_html_``.

        By default a table of :meth:`_summary`, then the main table (the rows
        of :meth:`to_frame`, the first :data:`VIEW_ROWS` of them) when the
        subclass defines one.
        """
        summary = self._summary()
        sections = [html_table([[key, value] for key, value in summary.items()])] if summary else []
        if type(self)._frame_rows is Result._frame_rows:
            return sections
        rows = self._frame_rows()
        if not rows:
            return sections
        header = list(rows[0])
        more = len(rows) - VIEW_ROWS
        note = f"… {more} more rows: to_frame() has them all." if more > 0 else None
        cells = [[row.get(key) for key in header] for row in rows[:VIEW_ROWS]]
        return [*sections, html_table(cells, header, note=note)]

    def _view_notes(self) -> list[str]:
        """Plain sentences on odd states of the result (degenerate, not converged ...), shown under its name."""
        return []

    def _repr_html_(self) -> str:
        """The notebook view: the result (see :meth:`_view_sections`), its notes, then the settings folded."""
        return html_view(type(self).__name__, self._view_sections(), self._view_notes(), getattr(self, "settings", {}))


class Drawable(Result):
    """A result that a Display of :mod:`polyroc.plotting` draws: its :meth:`plot` finds the Display by its type."""

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the result with the Display registered for its type (see :mod:`polyroc._displays`).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to the Display (``name=`` and its options).

        Returns
        -------
        polyroc.plotting.Display
            The display, drawn (``display.ax_``, ``display.figure_``).
        """
        return display_for(type(self))(self, ax=ax, **kwargs)


def fixed_decimals(value: float, digits: int) -> str:
    """``value`` with ``digits`` decimals, never "-0.000" (a negative value that rounds to zero drops its sign).

    >>> fixed_decimals(-0.00004, 4), fixed_decimals(-0.00006, 4), fixed_decimals(2.5, 0)
    ('0.0000', '-0.0001', '2')
    """
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def number_text(value: Any, digits: int = 4) -> str:
    """A number as shown in the views: ``digits`` decimals, "—" for None or NaN; other values as text.

    A float too small or too large for ``digits`` decimals keeps ``digits``
    significant digits instead (a p-value of 3e-9 does not read 0.0000).

    >>> number_text(0.123456), number_text(float("nan")), number_text(3), number_text("x"), number_text(3.1e-9)
    ('0.1235', '—', '3', 'x', '3.1e-09')
    """
    if value is None:
        return "—"
    if isinstance(value, (bool, np.bool_, str)):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if math.isnan(value):
            return "—"
        if value != 0 and not 0.5 * 10**-digits <= abs(value) < 10**6:
            return f"{value:.{digits}g}"
        return fixed_decimals(value, digits)
    return _short(value)


def interval_cells(interval: ConfidenceInterval, digits: int = 4) -> list[str]:
    """``[estimate, "[low, high]", method]`` of a ConfidenceInterval (the method with its replicates).

    >>> from polyroc.resampling import ConfidenceInterval
    >>> interval_cells(ConfidenceInterval(0.5, 0.25, 0.75, {"confidence": 0.95, "n_boot": 200,
    ...     "random_state": 0, "interval_method": "percentile bootstrap"}))
    ['0.5000', '[0.2500, 0.7500]', 'percentile bootstrap, B=200']
    """
    return [
        number_text(interval.estimate, digits),
        bounds_text(interval.low, interval.high, digits),
        interval_method_text(interval),
    ]


def bounds_text(low: float | None, high: float | None, digits: int = 4) -> str:
    """``"[low, high]"`` of an interval, each bound by :func:`number_text`.

    >>> bounds_text(0.25, float("nan"))
    '[0.2500, —]'
    """
    return f"[{number_text(low, digits)}, {number_text(high, digits)}]"


def interval_method_text(interval: ConfidenceInterval) -> str:
    """The method of a ConfidenceInterval, with its number of replicates for a bootstrap."""
    return interval.method if interval.n_boot is None else f"{interval.method}, B={interval.n_boot}"


def html_table(
    rows: list[list[Any]],
    header: list[str] | None = None,
    caption: str | None = None,
    *,
    digits: int = 4,
    note: str | None = None,
) -> str:
    """An HTML table: the first cell of each row is its heading; numbers by :func:`number_text`; all escaped.

    ``note`` (plain text, e.g. the interval methods) follows the table in small print.

    >>> html_table([["accuracy", 0.8]], header=["score", "estimate"])
    '<table><thead><tr><th>score</th><th>estimate</th></tr></thead><tbody><tr><th>accuracy</th><td>0.8000</td></tr></tbody></table>'
    """
    head = (
        "" if header is None else "<thead><tr>" + "".join(f"<th>{_escaped(h)}</th>" for h in header) + "</tr></thead>"
    )
    body = "".join(
        "<tr>"
        + "".join(
            f"<th>{_escaped(number_text(cell, digits))}</th>"
            if column == 0
            else f"<td>{_escaped(number_text(cell, digits))}</td>"
            for column, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    title = "" if caption is None else f"<caption>{_escaped(caption)}</caption>"
    after = "" if note is None else f"<p><small>{_escaped(note)}</small></p>"
    return f"<table>{title}{head}<tbody>{body}</tbody></table>{after}"


def interval_table(rows: list[tuple[Any, float, Any]], caption: str, first: str = "quantity", *, why: str = "") -> str:
    """A table of ``(name, estimate, ConfidenceInterval or None)``: estimate, interval and its method.

    A row without an interval shows its estimate alone, with ``why`` in the method column.

    >>> from polyroc.resampling import ConfidenceInterval
    >>> ci = ConfidenceInterval(0.5, 0.25, 0.75, {"confidence": 0.9, "n_boot": None, "interval_method": "Wilson"})
    >>> "<th>90% CI</th>" in interval_table([("p", 0.5, ci), ("q", 0.2, None)], "Scores", why="no data")
    True
    """
    levels = {interval.confidence for _, _, interval in rows if interval is not None}
    level = f"{100 * levels.pop():g}% CI" if len(levels) == 1 else "CI"
    cells = [
        [name, estimate, "—", why] if interval is None else [name, *interval_cells(interval)]
        for name, estimate, interval in rows
    ]
    return html_table(cells, [first, "estimate", level, "interval method"], caption)


def html_view(name: str, sections: list[str], notes: list[str], settings: Mapping[str, Any]) -> str:
    """A result's notebook view: its name, its notes, its sections, then its settings folded in ``<details>``.

    ``sections`` are HTML (from :func:`html_table`); ``notes`` plain text, escaped here.

    >>> view = html_view("Thing", [html_table([["x", 1]])], ["A note."], {"seed": 0})
    >>> view.index("<th>x</th>") < view.index("<details>"), "<p>A note.</p>" in view
    (True, True)
    """
    settings_table = html_table([[key, _short(value)] for key, value in settings.items()])
    return (
        f"<div class='polyroc-result'><strong>{_escaped(name)}</strong>"
        + "".join(f"<p>{_escaped(note)}</p>" for note in notes)
        + "".join(sections)
        + f"<details><summary>settings</summary>{settings_table}</details></div>"
    )


def _escaped(text: Any) -> str:
    return html.escape(str(text), quote=False)


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
