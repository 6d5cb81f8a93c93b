"""Which Display draws which result: the registry behind every result's ``plot()``.

:mod:`polyroc.plotting` registers, when it is imported, a drawing function
for each result type it draws (:func:`register_display`): most often a
Display's ``from_result``. A result's ``plot`` (:class:`polyroc._results.Drawable`)
asks :func:`display_for` for the function of its type. The core never imports
:mod:`polyroc.plotting`: on a type not registered yet, :func:`display_for`
calls the loader that the package root hands over at ``import polyroc``
(:func:`set_display_loader`), and that loader imports :mod:`polyroc.plotting`,
which fills the registry. So the results depend on no Display, the Displays
depend on the results, and ``import polyroc`` imports no drawing code.

This module imports nothing but the standard library, so that the package
root may import it and stay fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from polyroc.plotting import Display

__all__ = ["DrawFunction", "display_for", "register_display", "set_display_loader"]

#: ``draw(result, ax=None, **kwargs)``: draws a result and returns its Display.
DrawFunction = Callable[..., "Display"]

_DRAWERS: dict[type, DrawFunction] = {}
_loader: Callable[[], object] | None = None


def register_display(result_type: type, draw: DrawFunction) -> None:
    """Make ``draw(result, ax=ax, **kwargs)`` what ``result.plot(ax, **kwargs)`` calls for ``result_type``.

    It serves the subclasses of ``result_type`` too, unless they have their own.
    """
    _DRAWERS[result_type] = draw


def set_display_loader(loader: Callable[[], object]) -> None:
    """Call ``loader()`` (which registers the Displays) the first time a result type is not found."""
    global _loader
    _loader = loader


def display_for(result_type: type) -> DrawFunction:
    """The drawing function of ``result_type`` (or of its nearest registered base).

    >>> from polyroc.curves import OvrRocCurves
    >>> display_for(OvrRocCurves).__self__.__name__
    'RocCurveDisplay'

    Raises
    ------
    TypeError
        If no Display draws ``result_type``.
    """
    draw = _registered(result_type)
    if draw is None and _loader is not None:
        _loader()
        draw = _registered(result_type)
    if draw is None:
        raise TypeError(f"no Display of polyroc.plotting draws a {result_type.__name__}")
    return draw


def _registered(result_type: type) -> DrawFunction | None:
    return next((_DRAWERS[kind] for kind in result_type.__mro__ if kind in _DRAWERS), None)
