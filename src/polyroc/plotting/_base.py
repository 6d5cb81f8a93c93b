"""The base class of every Display: scikit-learn's pattern (compute once, draw with ``plot``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar, cast

from numpy.typing import ArrayLike

from polyroc.plotting._common import check_name, new_axes

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

__all__ = ["Display"]

#: A Display class, as what its ``from_*`` classmethods and ``plot`` return: the class they are called on.
DisplayT = TypeVar("DisplayT", bound="Display")


class ScoringClassifier(Protocol):
    """A fitted classifier as :meth:`Display.from_estimator` uses it: ``predict_proba(X)`` scores each class."""

    def predict_proba(self, X: ArrayLike) -> ArrayLike:
        """One score column per class for each row of ``X``."""
        ...


class Display:
    """Base of polyroc's Displays.

    A Display holds what it draws (a result object, or arrays computed from
    predictions) and draws it with :meth:`plot`, which returns the Display
    itself with the matplotlib objects it made: ``ax_`` (the Axes),
    ``figure_`` (the Figure) and artists named by each subclass (``line_``,
    ``lines_``, ``im_`` ...). Constructors:

    - ``from_result(result, *, ax=None, name=None, **kwargs)``: draw a result
      object of the core (what ``result.plot()`` calls);
    - ``from_predictions(y_true, y_score, *, labels=None, sample_weight=None,
      ..., ax=None, name=None, **kwargs)``: compute the result, then draw it;
    - ``from_estimator(estimator, X, y, *, ..., ax=None, name=None, **kwargs)``:
      the same on a fitted estimator's ``predict_proba(X)``.

    ``plot(ax=None, *, name=None, ...)`` never calls ``plt.show()``. Subclasses
    drawing one result set ``result_type``, checked by :meth:`from_result`.

    See Also
    --------
    RocCurveDisplay : A Display drawn from a result, predictions or an estimator.
    ConfusionMatrixDisplay : A Display of predicted labels, with its own ``from_result``.
    class_colors : The class colours every Display uses.

    Examples
    --------
    >>> from polyroc.plotting import Display, RocCurveDisplay
    >>> disp = RocCurveDisplay.from_predictions([0, 1, 2], [[.6, .3, .1], [.2, .5, .3], [.1, .3, .6]])
    >>> isinstance(disp, Display), type(disp.ax_).__name__, type(disp.figure_).__name__
    (True, 'Axes', 'Figure')
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    #: The result class :meth:`from_result` accepts (None: no check).
    result_type: ClassVar[type | tuple[type, ...] | None] = None

    #: Appended to the error for another result type: how to get the right one.
    result_hint: ClassVar[str] = ""

    ax_: Any  # an Axes, or an array of Axes for a Display drawing several panels
    figure_: Figure | SubFigure

    @classmethod
    def _check_result(cls, result: Any) -> None:
        """Raise a TypeError naming ``result`` unless it is an instance of ``result_type``."""
        if cls.result_type is not None and not isinstance(result, cls.result_type):
            expected = cls.result_type if isinstance(cls.result_type, tuple) else (cls.result_type,)
            names = " or ".join(kind.__name__ for kind in expected)
            raise TypeError(
                f"{cls.__name__}.from_result draws a {names}; result is a {type(result).__name__}{cls.result_hint}"
            )

    @classmethod
    def from_result(
        cls: type[DisplayT], result: Any, *, ax: Axes | None = None, name: str | None = None, **kwargs: Any
    ) -> DisplayT:
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

        Raises
        ------
        TypeError
            If ``result`` is not the result type the Display draws, ``ax`` is
            not a matplotlib Axes, or ``name`` is not a string.

        See Also
        --------
        Display.from_estimator : Draw from a fitted classifier instead.
        polyroc.curves.OvrRocCurves.plot : The same call made from a result.

        Examples
        --------
        >>> from polyroc.curves import ovr_roc_curve
        >>> from polyroc.plotting import RocCurveDisplay
        >>> curves = ovr_roc_curve([0, 1, 2], [[.6, .3, .1], [.2, .5, .3], [.1, .3, .6]])
        >>> RocCurveDisplay.from_result(curves, name="model").ax_.get_title()
        'model: one-vs-rest ROC curves'
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        cls._check_result(result)
        build = cast("Callable[[Any], DisplayT]", cls)  # a subclass drawing a result takes it as its one argument
        return build(result).plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_estimator(
        cls: type[DisplayT],
        estimator: ScoringClassifier,
        X: ArrayLike,
        y: ArrayLike,
        *,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> DisplayT:
        """Draw from a fitted estimator's ``predict_proba`` on ``X`` against ``y``.

        Calls ``from_predictions(y, estimator.predict_proba(X), ...)`` with,
        unless given, ``labels=estimator.classes_`` and the estimator's class
        name as ``name``.

        Parameters
        ----------
        estimator : object
            A fitted classifier with ``predict_proba`` (and ``classes_``).
        X : array-like of shape (n_samples, n_features)
            Its input.
        y : array-like of shape (n_samples,)
            True labels.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Legend and title name; default the estimator's class name.
        **kwargs
            Passed to ``from_predictions``.

        Returns
        -------
        Display
            The Display, drawn.

        Raises
        ------
        TypeError
            If the Display cannot be drawn from predictions, or the estimator
            has no ``predict_proba``.
        ValueError
            As the subclass's ``from_predictions``, for labels or scores it
            rejects.

        See Also
        --------
        Display.from_result : Draw a result already computed.
        RocCurveDisplay.from_predictions : What this calls for ROC curves.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from polyroc.plotting import RocCurveDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
        >>> disp = RocCurveDisplay.from_estimator(model, X[1::2], y[1::2])
        >>> disp.name, disp.ax_.get_title()
        ('LogisticRegression', 'LogisticRegression: one-vs-rest ROC curves')
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        from_predictions = getattr(cls, "from_predictions", None)
        if from_predictions is None:
            raise TypeError(f"{cls.__name__} is drawn from a result, not from an estimator")
        if not callable(getattr(estimator, "predict_proba", None)):
            raise TypeError(f"estimator must have predict_proba, got {type(estimator).__name__}")
        if hasattr(estimator, "classes_"):
            kwargs.setdefault("labels", estimator.classes_)
        name = type(estimator).__name__ if name is None else name
        return from_predictions(y, estimator.predict_proba(X), ax=ax, name=name, **kwargs)

    def plot(  # pragma: no cover
        self: DisplayT, ax: Axes | None = None, *, name: str | None = None, **kwargs: Any
    ) -> DisplayT:
        """Draw on ``ax`` (default a new figure) and return ``self``.

        Each subclass implements it and adds its own keyword options; the
        base class fixes the arguments they all take.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model or curve, used in the legend and title (default
            the Display's).

        Returns
        -------
        Display
            ``self``, with ``ax_``, ``figure_`` and the drawn artists set.

        Raises
        ------
        NotImplementedError
            On the base class, which draws nothing.
        TypeError
            In the subclasses: ``ax`` not a matplotlib Axes or ``name`` not a
            string.

        See Also
        --------
        RocCurveDisplay.plot : A subclass's drawing method.
        Display.from_result : Build a Display from a result and draw it.

        Examples
        --------
        >>> from polyroc.curves import ovr_roc_curve
        >>> from polyroc.plotting import Display, RocCurveDisplay
        >>> curves = ovr_roc_curve([0, 1, 2], [[.6, .3, .1], [.2, .5, .3], [.1, .3, .6]])
        >>> RocCurveDisplay(curves).plot(name="model").ax_.get_title()
        'model: one-vs-rest ROC curves'
        >>> Display().plot()
        Traceback (most recent call last):
        ...
        NotImplementedError
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        raise NotImplementedError

    def _start(self, ax: Any, name: str | None = None, **subplots_kw: Any) -> Any:
        """The Axes to draw on (``ax`` or a new figure's), recorded as ``ax_`` and ``figure_``.

        Also checks ``name`` and records it as ``name`` (a name given to
        :meth:`plot` replaces the Display's).
        """
        name = check_name(name)
        if name is not None or not hasattr(self, "name"):
            self.name = name
        self.ax_ = new_axes(ax, **subplots_kw)
        self.figure_ = self.ax_.figure
        return self.ax_
