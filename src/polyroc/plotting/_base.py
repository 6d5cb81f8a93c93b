"""The base class of every Display: scikit-learn's pattern (compute once, draw with ``plot``)."""

from __future__ import annotations

from typing import Any

from polyroc.plotting._common import new_axes

__all__ = ["Display"]


class Display:
    """Base of polyroc's Displays.

    A Display holds what it draws (a result object, or arrays computed from
    predictions) and draws it with :meth:`plot`, which returns the Display
    itself with the matplotlib objects it made: ``ax_`` (the Axes),
    ``figure_`` (the Figure) and artists named by each subclass (``line_``,
    ``lines_``, ``im_`` ...). Constructors:

    - ``from_result(result, *, ax=None, name=None, **kwargs)``: draw a result
      object of the core (what ``result.plot()`` calls);
    - ``from_predictions(y_true, y_score, *, ..., ax=None, name=None, **kwargs)``:
      compute the result, then draw it;
    - ``from_estimator(estimator, X, y, *, ..., ax=None, name=None, **kwargs)``
      where a fitted estimator makes sense: its scores on ``X``.

    ``plot(ax=None, *, name=None, ...)`` never calls ``plt.show()``.
    """

    ax_: Any
    figure_: Any

    @classmethod
    def from_result(cls, result: Any, *, ax: Any = None, name: str | None = None, **kwargs: Any) -> Display:
        """Draw a result of polyroc's core (``result.plot()`` is the same call).

        Parameters
        ----------
        result : object
            The result this Display draws (see the subclass).
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model or curve, used in the legend and title.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        Display
            The Display, drawn.
        """
        return cls(result).plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: Any, *, ax: Any = None, name: str | None = None,
                       **kwargs: Any) -> Display:
        """Draw from a fitted estimator's ``predict_proba`` on ``X`` against ``y``.

        Subclasses that draw predictions define ``from_predictions``; this
        calls it with ``estimator.predict_proba(X)`` and, unless given,
        ``labels=estimator.classes_`` and the estimator's class name as ``name``.

        Raises
        ------
        TypeError
            If the Display cannot be drawn from predictions, or the estimator
            has no ``predict_proba``.
        """
        from_predictions = getattr(cls, "from_predictions", None)
        if from_predictions is None:
            raise TypeError(f"{cls.__name__} is drawn from a result, not from an estimator")
        if not hasattr(estimator, "predict_proba"):
            raise TypeError(f"estimator must have predict_proba, got {type(estimator).__name__}")
        if hasattr(estimator, "classes_"):
            kwargs.setdefault("labels", estimator.classes_)
        name = type(estimator).__name__ if name is None else name
        return from_predictions(y, estimator.predict_proba(X), ax=ax, name=name, **kwargs)

    def plot(self, ax: Any = None, *, name: str | None = None, **kwargs: Any) -> Display:  # pragma: no cover
        """Draw on ``ax`` (default a new figure) and return ``self``."""
        raise NotImplementedError

    def _start(self, ax: Any, **subplots_kw: Any) -> Any:
        """The Axes to draw on (``ax`` or a new figure's), recorded as ``ax_`` and ``figure_``."""
        self.ax_ = new_axes(ax, **subplots_kw)
        self.figure_ = self.ax_.figure
        return self.ax_
