"""Confusion matrix display: counts or normalised rates, annotated cells, class labels."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import check_option, check_positive_int, check_targets
from polyroc.metrics import confusion_matrix
from polyroc.plotting._base import Display
from polyroc.plotting._common import LABEL_CHARS, check_kwargs, short_label

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap

__all__ = ["ConfusionMatrixDisplay"]

#: Class orders :meth:`ConfusionMatrixDisplay.plot` knows by name.
ORDERS = ("given", "support", "cluster")

#: Smallest font size (points) of a cell annotation; smaller cells show colours only.
MIN_FONTSIZE = 6.0

#: Width of an average character, in font sizes (DejaVu Sans digits are 0.64).
CHAR_WIDTH = 0.64


class LabellingClassifier(Protocol):
    """A fitted classifier as :meth:`ConfusionMatrixDisplay.from_estimator` uses it: ``predict(X)`` labels rows."""

    def predict(self, X: ArrayLike) -> ArrayLike:
        """The predicted label of each row of ``X``."""
        ...


class LabellingRule(Protocol):
    """A tuned rule as :meth:`ConfusionMatrixDisplay.from_result` uses it (a ``TuningResult``, say)."""

    @property
    def classes(self) -> np.ndarray:
        """The class of each score column."""
        ...

    def predict(self, y_score: ArrayLike) -> np.ndarray:
        """The label the rule gives each row of scores."""
        ...


class ConfusionMatrixDisplay(Display):
    """Confusion matrix C[true, predicted] as an annotated image.

    Build it with :meth:`from_predictions` (labels), :meth:`from_estimator`
    (a classifier's ``predict``) or :meth:`from_result` (a tuned rule, e.g. a
    :class:`~polyroc.thresholds.TuningResult`, applied to scores), or directly
    from a matrix and call :meth:`plot`.

    Parameters
    ----------
    confusion_matrix : array-like of shape (n_classes, n_classes)
        Counts or rates, rows = true class, columns = predicted class.
    display_labels : array-like of shape (n_classes,), default=None
        Tick labels; default 0 .. n_classes - 1.
    normalize : {None, "true", "pred", "all"}, default=None
        How the matrix was normalised (only used in the title).
    name : str, default=None
        Name of the model, in the title.

    Attributes
    ----------
    im_ : matplotlib.image.AxesImage
        The image; ``im_.get_array()`` is the matrix.
    text_ : ndarray of shape (n_classes, n_classes) of matplotlib.text.Text, or None
        The cell annotations, in drawn order (None when the cells are not
        annotated: ``include_values=False``, or ``"auto"`` with cells too
        small for their values). Their size, and with ``"auto"`` whether they
        are shown, are settled each time the figure is drawn, from the cells'
        size after the figure's layout (see :meth:`plot`). Before the first
        draw, ``text_`` follows an estimate from the Axes' position before
        layout: draw the figure (e.g. ``fig.canvas.draw()``) before reading
        it in a grid of Axes. :meth:`plot` creates the texts, except with
        ``"auto"`` when the values do not seem to fit: the first draw at which
        they fit creates them.
    order_ : ndarray of shape (n_classes,)
        Positions of the classes in drawn order (see ``order`` of :meth:`plot`).
    colorbar_ : matplotlib.colorbar.Colorbar or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``confusion_matrix`` is not a non-empty square matrix, or
        ``display_labels`` does not have one entry per class.

    See Also
    --------
    polyroc.metrics.confusion_matrix : The matrix this Display draws.
    polyroc.thresholds.TuningResult : A tuned rule :meth:`from_result` applies.
    polyroc.metrics.classification_report : The per-class scores of the same matrix.

    Examples
    --------
    >>> disp = ConfusionMatrixDisplay.from_predictions(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    >>> disp.im_.get_array().tolist()
    [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    >>> [text.get_text() for text in disp.text_[1]]
    ['0', '1', '1']
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(
        self,
        confusion_matrix: ArrayLike,
        *,
        display_labels: Sequence[Any] | np.ndarray | None = None,
        normalize: str | None = None,
        name: str | None = None,
    ) -> None:
        self.confusion_matrix = np.asarray(confusion_matrix)
        shape = self.confusion_matrix.shape
        if len(shape) != 2 or shape[0] != shape[1] or shape[0] == 0:
            raise ValueError(f"confusion_matrix must be a square matrix, got shape {shape}")
        if display_labels is not None and len(display_labels) != shape[0]:
            raise ValueError(f"display_labels must have {shape[0]} entries, got {len(display_labels)}")
        self.display_labels = display_labels
        self.normalize = normalize
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_pred: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        normalize: str | None = None,
        display_labels: Sequence[Any] | np.ndarray | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> ConfusionMatrixDisplay:
        """Compute :func:`polyroc.metrics.confusion_matrix` of labels and plot it.

        As scikit-learn's, this display is drawn from predicted labels
        ``y_pred``, not scores.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            True and predicted labels.
        labels : array-like of shape (n_classes,), default=None
            Class order of the rows and columns; default the sorted union of
            the labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Relative importance of the samples.
        normalize : {None, "true", "pred", "all"}, default=None
            Divide by the row sums (recall per class), the column sums
            (precision per class) or the total.
        display_labels : array-like of shape (n_classes,), default=None
            Tick labels; default the classes.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title.
        **kwargs
            Passed to :meth:`plot` (``include_values``, ``cmap``,
            ``values_format``, ``colorbar``, ``xticks_rotation``, ``order``,
            ``max_label_chars``, ``im_kw``,
            ``text_kw``).

        Returns
        -------
        ConfusionMatrixDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.metrics.confusion_matrix`.

        See Also
        --------
        polyroc.metrics.confusion_matrix : The computation.
        ConfusionMatrixDisplay.from_estimator : The matrix of a classifier's ``predict``.
        ConfusionMatrixDisplay.from_result : The matrix of a tuned rule on scores.

        Examples
        --------
        >>> disp = ConfusionMatrixDisplay.from_predictions([0, 1, 1], [0, 0, 1], normalize="true")
        >>> disp.im_.get_array().tolist()
        [[1.0, 0.0], [0.5, 0.5]]
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        classes = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight).classes
        matrix = confusion_matrix(y_true, y_pred, labels=classes, sample_weight=sample_weight, normalize=normalize)
        display_labels = classes if display_labels is None else display_labels
        display = cls(matrix, display_labels=display_labels, normalize=normalize)
        return display.plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_estimator(  # type: ignore[override]  # drawn from predict, not predict_proba
        cls,
        estimator: LabellingClassifier,
        X: ArrayLike,
        y: ArrayLike,
        *,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> ConfusionMatrixDisplay:
        """Confusion matrix of a fitted classifier's ``predict(X)`` against ``y``.

        Parameters
        ----------
        estimator : object
            A fitted classifier with ``predict`` (and ``classes_``, used as
            ``labels`` unless given).
        X : array-like of shape (n_samples, n_features)
            Its input.
        y : array-like of shape (n_samples,)
            True labels.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Title name; default the estimator's class name.
        **kwargs
            Passed to :meth:`from_predictions`.

        Returns
        -------
        ConfusionMatrixDisplay

        Raises
        ------
        TypeError
            If the estimator has no ``predict``; otherwise as :meth:`from_predictions`.

        See Also
        --------
        ConfusionMatrixDisplay.from_predictions : The same from predicted labels.
        polyroc.thresholds.SimplexThresholdClassifier : A classifier with tuned thresholds to draw.

        Examples
        --------
        >>> from sklearn.dummy import DummyClassifier
        >>> model = DummyClassifier(strategy="most_frequent").fit([[0], [1], [2]], [0, 1, 1])
        >>> ConfusionMatrixDisplay.from_estimator(model, [[0], [1], [2]], [0, 1, 1]).im_.get_array().tolist()
        [[0, 1], [0, 2]]
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        if not callable(getattr(estimator, "predict", None)):
            raise TypeError(f"estimator must have predict, got {type(estimator).__name__}")
        if hasattr(estimator, "classes_"):
            kwargs.setdefault("labels", estimator.classes_)
        name = type(estimator).__name__ if name is None else name
        return cls.from_predictions(y, estimator.predict(X), ax=ax, name=name, **kwargs)

    @classmethod
    def from_result(  # type: ignore[override]  # its own arguments: a tuned rule applied to labelled scores
        cls,
        result: LabellingRule,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        normalize: str | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> ConfusionMatrixDisplay:
        """Confusion matrix of a tuned rule (e.g. a ``TuningResult``) on labelled scores.

        Parameters
        ----------
        result : TuningResult or another result with ``predict`` and ``classes``
            Its ``predict`` labels ``y_score``.
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, n_classes)
            Probability scores, columns in ``result.classes`` order.
        sample_weight, normalize, ax, name, **kwargs
            As :meth:`from_predictions`.

        Returns
        -------
        ConfusionMatrixDisplay

        Raises
        ------
        TypeError
            If ``result`` has no ``predict`` method or no ``classes``.
        ValueError
            As :meth:`from_predictions` and ``result.predict``.

        See Also
        --------
        polyroc.thresholds.tune_thresholds : Tune the rule this draws.
        ConfusionMatrixDisplay.from_predictions : The same from predicted labels.
        DecisionRegionsDisplay.from_result : The same rule's regions on the simplex.

        Examples
        --------
        >>> from polyroc.thresholds import tune_thresholds
        >>> y, P = [0, 0, 1, 1], [[.6, .4], [.45, .55], [.3, .7], [.55, .45]]
        >>> result = tune_thresholds(y, P, resolution=20)
        >>> result.best_threshold.tolist()
        [0.45, 0.55]
        >>> ConfusionMatrixDisplay.from_result(result, y, P).im_.get_array().tolist()
        [[2, 0], [1, 1]]
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        if not callable(getattr(result, "predict", None)) or not hasattr(result, "classes"):
            raise TypeError(
                "ConfusionMatrixDisplay.from_result needs a result with predict and classes "
                f"(e.g. a TuningResult); result is a {type(result).__name__}"
            )
        return cls.from_predictions(
            y_true,
            result.predict(y_score),
            labels=result.classes,
            sample_weight=sample_weight,
            normalize=normalize,
            ax=ax,
            name=name,
            **kwargs,
        )

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        include_values: bool | str = "auto",
        cmap: str | Colormap = "viridis",
        values_format: str | None = None,
        colorbar: bool = True,
        xticks_rotation: str | float = "auto",
        order: str | ArrayLike | None = None,
        max_label_chars: int = LABEL_CHARS,
        im_kw: dict | None = None,
        text_kw: dict | None = None,
    ) -> ConfusionMatrixDisplay:
        """Draw the matrix, legible from 2 to 30 and more classes.

        Font sizes follow the size of a cell on the page: cells are annotated
        while a value fits in its cell at 6 points or more (``"auto"``), and
        beyond that the colours (with the colour bar) carry the values. Tick
        labels longer than ``max_label_chars`` end in "…"; the predicted-label
        ticks turn vertical when the labels do not fit side by side. Integer
        counts are all written, 0 included; in a matrix of rates (or of
        weighted counts) a cell of exactly 0 stays blank, its colour (the
        bottom of the colour bar) saying 0, so that the many empty cells of a
        large matrix do not read as rounded small rates ("0.00").

        The cell annotations are sized, and with ``"auto"`` shown or hidden,
        when the figure is drawn (``savefig``, ``plt.show()``,
        ``fig.canvas.draw()``, again after a resize), from the size of a cell
        after the figure's layout (e.g. ``layout="constrained"``, which
        shrinks the Axes of a grid to make room for their tick labels). A
        ``fontsize`` in ``text_kw`` is kept as given; the texts do not take
        part in the layout.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        include_values : bool or "auto", default="auto"
            Write each cell's value in it: always, never, or while it fits
            at the figure's last draw (see :meth:`annotation_fontsize`).
        cmap : str or matplotlib.colors.Colormap, default="viridis"
            Colormap of the image.
        values_format : str, default=None
            Format spec of the annotations; default ``"d"`` for integer
            counts, ``".2f"`` otherwise.
        colorbar : bool, default=True
            Add a colour bar.
        xticks_rotation : {"auto", "horizontal", "vertical"} or float, default="auto"
            Rotation of the predicted-label ticks; ``"auto"``: horizontal
            while the labels fit in their cells, else vertical.
        order : {None, "given", "support", "cluster"} or array-like, default=None
            Order of the classes along both axes: as given (None,
            ``"given"``), by decreasing support (row sums), ``"cluster"``
            (hierarchical clustering, average linkage with optimal leaf
            order, of the distance 1 − (R + Rᵀ)/2 with R the row-normalised
            matrix, so that classes confused with each other sit side by
            side), or the class positions (ints) in the order to show.
            The permutation is kept as ``order_``.
        max_label_chars : int, default=22
            Longest tick label shown in full.
        im_kw : dict, default=None
            Passed to ``Axes.imshow``.
        text_kw : dict, default=None
            Passed to ``Axes.text`` for the annotations.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax``, ``name``, ``im_kw``, ``text_kw`` or ``order``, or a
            ``max_label_chars`` that is not an integer.
        ValueError
            An unknown ``include_values`` or ``order``, an ``order`` that is
            not a permutation of the classes, ``max_label_chars`` below 2, or
            an ``xticks_rotation`` matplotlib rejects.

        See Also
        --------
        ConfusionMatrixDisplay.annotation_fontsize : The size of the cell annotations.
        ConfusionMatrixDisplay.from_predictions : Compute the matrix and draw it.

        Examples
        --------
        >>> disp = ConfusionMatrixDisplay([[3, 1], [0, 4]], display_labels=["no", "yes"]).plot(colorbar=False)
        >>> [label.get_text() for label in disp.ax_.get_xticklabels()], disp.text_[0, 1].get_text()
        (['no', 'yes'], '1')
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)

        Classes by decreasing support, values left to the colours:

        >>> disp = ConfusionMatrixDisplay([[3, 1], [0, 9]]).plot(order="support", include_values=False)
        >>> disp.order_.tolist(), disp.im_.get_array().tolist(), disp.text_
        ([1, 0], [[9, 0], [1, 3]], None)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)

        In a grid of Axes, whether the values fit is known once the layout has
        run, when the figure is drawn:

        >>> fig, axes = plt.subplots(2, 2, figsize=(8, 8), layout="constrained")
        >>> labels = [f"Streptococcus species {k}" for k in range(6)]
        >>> disp = ConfusionMatrixDisplay(np.eye(6, dtype=int) * 90 + 5, display_labels=labels)
        >>> disp = disp.plot(ax=axes[0, 0], colorbar=False)
        >>> fig.canvas.draw()
        >>> disp.text_.shape, disp.text_[0, 0].get_text(), disp.text_[0, 0].get_fontsize() >= 6
        ((6, 6), '95', True)
        >>> plt.close(fig)
        """
        check_option("include_values", include_values, (True, False, "auto"))
        max_label_chars = check_positive_int("max_label_chars", max_label_chars, minimum=2)
        im_kw = {"cmap": cmap, "interpolation": "nearest", **check_kwargs("im_kw", im_kw)}
        text_kw = check_kwargs("text_kw", text_kw)
        self.order_ = self._order(order)
        ax = self._start(ax, name, layout="compressed")  # a new figure: layout for a fixed-aspect image
        matrix = self.confusion_matrix[np.ix_(self.order_, self.order_)]
        n_classes = matrix.shape[0]
        labels = np.arange(n_classes) if self.display_labels is None else self.display_labels
        shown = [short_label(labels[k], max_chars=max_label_chars) for k in self.order_]
        cell = self._cell_points(ax, n_classes, max(len(text) for text in shown))
        values_format = self._values_format(values_format)
        longest = _longest_value(matrix, values_format)
        fontsize = _fitting_fontsize(cell, longest)  # an estimate; the texts settle it when drawn
        self.im_ = ax.imshow(matrix, **im_kw)
        self._cell_fit = None
        if include_values is not False:
            always = include_values is True
            fit = _CellFit(
                matrix,
                values_format,
                longest,
                colors=(self.im_.cmap(0.0), self.im_.cmap(1.0)),
                text_kw={"fontsize": fontsize or MIN_FONTSIZE, **text_kw},
                always=always,
                sized="fontsize" not in text_kw,
                shown=always or fontsize is not None,
            )
            fit.make(ax, everything=fit.shown)
            self._cell_fit = fit
        self.colorbar_ = ax.figure.colorbar(self.im_, ax=ax) if colorbar else None
        tick_size = float(np.clip(0.8 * cell, MIN_FONTSIZE - 1, 10.0))
        ax.set_xticks(np.arange(n_classes), shown, fontsize=tick_size)
        ax.set_yticks(np.arange(n_classes), shown, fontsize=tick_size)
        ax.set(xlabel="Predicted label", ylabel="True label")
        ax.set_ylim(n_classes - 0.5, -0.5)
        if xticks_rotation == "auto":
            widest = max(len(text) for text in shown) * CHAR_WIDTH * tick_size
            xticks_rotation = "horizontal" if widest <= 0.9 * cell else "vertical"
        for label in ax.get_xticklabels():
            label.set_rotation(xticks_rotation)  # type: ignore[arg-type]  # matplotlib takes "vertical" too
        title = [] if self.name is None else [self.name]
        if self.normalize is not None:
            title.append(f"normalize={self.normalize!r}")
        if title:
            ax.set_title(f"Confusion matrix ({', '.join(title)})")
        return self

    @staticmethod
    def annotation_fontsize(cell_points: float, matrix: ArrayLike, values_format: str) -> float | None:
        """Font size (points) at which every value fits in a cell of ``cell_points``; None below 6 points.

        A value of k characters is about ``0.64 k`` font sizes wide and one
        font size high; it is given at most 80% of the cell's width and 60% of
        its height, and at most 10 points.

        Parameters
        ----------
        cell_points : float
            Side of a cell on the page, in points.
        matrix : array-like
            The values to write.
        values_format : str
            Their format spec.

        Returns
        -------
        float or None

        Raises
        ------
        ValueError
            If ``values_format`` does not format the values (e.g. ``"d"`` for
            floats; raised by :func:`format`), or ``matrix`` is empty.

        See Also
        --------
        ConfusionMatrixDisplay.plot : Uses it with ``include_values="auto"``.

        Examples
        --------
        >>> ConfusionMatrixDisplay.annotation_fontsize(40.0, [[120, 3]], "d")
        10.0
        >>> ConfusionMatrixDisplay.annotation_fontsize(12.0, [[120, 3]], "d") is None
        True
        """
        return _fitting_fontsize(cell_points, _longest_value(matrix, values_format))

    @property
    def text_(self) -> np.ndarray | None:
        """The cell annotations while they are shown, else None (see the class's Attributes)."""
        if "_cell_fit" not in vars(self):
            raise AttributeError("ConfusionMatrixDisplay has no text_ before plot()")
        fit = self._cell_fit
        return fit.texts if fit is not None and fit.shown else None

    @staticmethod
    def _cell_points(ax: Any, n_classes: int, label_chars: int) -> float:
        """Side of one cell in points: the Axes' place in its figure less its tick labels' room (about 9 points)."""
        box = ax.get_position()
        width, height = ax.figure.get_size_inches() * 72.0
        labels = label_chars * CHAR_WIDTH * 9.0 + 20.0
        return max(0.0, min(box.width * width, box.height * height) - labels) / n_classes

    def _values_format(self, values_format: str | None) -> str:
        if values_format is not None:
            return values_format
        return "d" if self.confusion_matrix.dtype.kind in "iu" else ".2f"

    def _order(self, order: Any) -> np.ndarray:
        """Positions of the classes in the order to draw them."""
        matrix = np.asarray(self.confusion_matrix, dtype=float)
        n_classes = matrix.shape[0]
        if order is None or (isinstance(order, str) and order == "given"):
            return np.arange(n_classes)
        if isinstance(order, str):
            check_option("order", order, ORDERS)
            if order == "support":
                return np.argsort(-matrix.sum(axis=1), kind="stable")
            return _cluster_order(matrix)
        positions = np.asarray(order)
        if positions.dtype.kind not in "iu":
            raise TypeError(f"order must be one of {', '.join(map(repr, ORDERS))} or class positions (ints)")
        if sorted(positions.tolist()) != list(range(n_classes)):
            raise ValueError(f"order must be a permutation of 0 .. {n_classes - 1}, got {positions.tolist()}")
        return positions


def _longest_value(matrix: ArrayLike, values_format: str) -> int:
    """Characters of the longest formatted value (ValueError from :func:`format` for a bad spec)."""
    return max(len(format(value, values_format)) for value in np.ravel(matrix))


def _fitting_fontsize(cell_points: float, longest: int) -> float | None:
    """Font size at which ``longest`` characters fit in a cell of ``cell_points``; None below MIN_FONTSIZE."""
    size = min(10.0, 0.8 * cell_points / (CHAR_WIDTH * longest), 0.6 * cell_points)
    return size if size >= MIN_FONTSIZE else None


class _CellFit:
    """The cell annotations of one matrix, sized (and with ``"auto"`` shown) from a cell's size when drawn.

    Every annotation calls :meth:`settle` as it is drawn, after the figure's
    layout and the Axes' aspect are applied, so the size it reads is the
    cell's final size on the page (for the renderer at hand: screen, PNG or
    vector file). ``shown`` is what the last draw decided (before any draw,
    the estimate of :meth:`ConfusionMatrixDisplay.plot`). While the values
    are not shown, only the first cell's text exists: the first draw at which
    they fit makes, and draws, the others.
    """

    def __init__(
        self,
        matrix: np.ndarray,
        values_format: str,
        longest: int,
        *,
        colors: tuple,
        text_kw: dict,
        always: bool,
        sized: bool,
        shown: bool,
    ) -> None:
        self.matrix, self.values_format, self.text_kw = matrix, values_format, text_kw
        self.low, self.high = colors  # on light cells (the top of the colormap), on dark ones
        self.middle = (matrix.max() + matrix.min()) / 2.0
        self.longest = longest  # characters of the longest value
        self.always = always  # include_values=True: shown whatever the size
        self.sized = sized  # False when text_kw gives the font size
        self.shown = shown
        self.blank_zeros = matrix.dtype.kind not in "iu"  # rates (or weighted counts) of exactly 0: no text
        self.made: list = []  # the texts made so far, in cell (row-major) order
        self.texts: np.ndarray | None = None  # all of them, once made

    def make(self, ax: Any, *, everything: bool) -> list:
        """Make the texts of the cells still without one (only the first cell's unless ``everything``)."""
        cell_text = _cell_text_class()
        stop = self.matrix.size if everything else 1
        new = []
        for index in range(len(self.made), stop):
            row, column = divmod(index, self.matrix.shape[1])
            value = self.matrix[row, column]
            style = {
                "ha": "center",
                "va": "center",
                "color": self.low if value >= self.middle else self.high,
                "transform": ax.transData,
                "clip_on": False,  # as Axes.text
                "visible": self.shown,
                **self.text_kw,
            }
            shown = "" if value == 0 and self.blank_zeros else format(value, self.values_format)
            text = cell_text(column, row, shown, fit=self, **style)
            text.set_in_layout(False)  # inside its cell: the layout need not make room for it
            new.append(ax.add_artist(text))
        self.made += new
        if len(self.made) == self.matrix.size and self.texts is None:
            self.texts = np.empty(self.matrix.shape, dtype=object)
            for index, text in enumerate(self.made):
                self.texts[divmod(index, self.matrix.shape[1])] = text
        return new

    def settle(self, text: Any, renderer: Any) -> None:
        """Give ``text`` the size, and visibility, its cell allows now (setters only called on a change)."""
        (x0, y0), (x1, y1) = text.axes.transData.transform([(0.0, 0.0), (1.0, 1.0)])
        cell = min(abs(x1 - x0), abs(y1 - y0)) / renderer.points_to_pixels(1.0)
        size = _fitting_fontsize(cell, self.longest)
        self.shown = self.always or size is not None
        if self.sized and text.get_fontsize() != (size or MIN_FONTSIZE):
            text.set_fontsize(size or MIN_FONTSIZE)
        if not self.always and text.get_visible() != self.shown:
            text.set_visible(self.shown)
        if self.shown and self.texts is None:  # the values fit for the first time: make the others and draw them
            for new in self.make(text.axes, everything=True):  # (the Axes listed its children before they existed)
                new.draw(renderer)


@cache
def _cell_text_class() -> type:
    """The Text of a cell annotation; made on first use, so that importing polyroc.plotting needs no matplotlib."""
    from matplotlib.text import Text

    class _CellText(Text):
        """A cell annotation that settles its size (and with ``"auto"`` its visibility) each time it is drawn."""

        def __init__(self, x: float, y: float, text: str, *, fit: _CellFit, **kwargs: Any) -> None:
            super().__init__(x, y, text, **kwargs)
            self.cell_fit = fit

        def draw(self, renderer: Any) -> None:
            if renderer is not None and self.axes is not None:
                self.cell_fit.settle(self, renderer)
            super().draw(renderer)

    _CellText.__module__, _CellText.__qualname__ = __name__, "_CellText"  # pickled by name, see __getattr__
    return _CellText


def __getattr__(name: str) -> Any:
    """``_CellText`` on demand, so that figures holding annotations unpickle in a new process."""
    if name == "_CellText":
        return _cell_text_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _cluster_order(matrix: np.ndarray) -> np.ndarray:
    """Leaf order of an average-linkage clustering of the classes by mutual confusion."""
    from scipy.cluster.hierarchy import leaves_list, linkage
    from scipy.spatial.distance import squareform

    n_classes = matrix.shape[0]
    if n_classes < 3:
        return np.arange(n_classes)
    totals = matrix.sum(axis=1, keepdims=True)
    rates = np.divide(matrix, totals, out=np.zeros_like(matrix), where=totals > 0)
    distance = 1.0 - (rates + rates.T) / 2.0
    np.fill_diagonal(distance, 0.0)
    tree = linkage(squareform(np.clip(distance, 0.0, None), checks=False), method="average", optimal_ordering=True)
    return leaves_list(tree)
