"""Confusion matrix display: counts or normalised rates, annotated cells, class labels."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import check_targets
from polyroc.metrics import confusion_matrix
from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs

__all__ = ["ConfusionMatrixDisplay"]


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
        The cell annotations (None when ``include_values=False``).
    colorbar_ : matplotlib.colorbar.Colorbar or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Raises
    ------
    ValueError
        If ``confusion_matrix`` is not a square matrix.

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
        display_labels: ArrayLike | None = None,
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
        display_labels: ArrayLike | None = None,
        ax: Any = None,
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
            ``values_format``, ``colorbar``, ``xticks_rotation``, ``im_kw``,
            ``text_kw``).

        Returns
        -------
        ConfusionMatrixDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.metrics.confusion_matrix`.

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
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        ax: Any = None,
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
    def from_result(
        cls,
        result: Any,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        normalize: str | None = None,
        ax: Any = None,
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

    def plot(
        self,
        ax: Any = None,
        *,
        name: str | None = None,
        include_values: bool = True,
        cmap: Any = "viridis",
        values_format: str | None = None,
        colorbar: bool = True,
        xticks_rotation: str | float = "horizontal",
        im_kw: dict | None = None,
        text_kw: dict | None = None,
    ) -> ConfusionMatrixDisplay:
        """Draw the matrix.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        include_values : bool, default=True
            Write each cell's value in it.
        cmap : str or matplotlib.colors.Colormap, default="viridis"
            Colormap of the image.
        values_format : str, default=None
            Format spec of the annotations; default ``"d"`` for integer
            counts, ``".2f"`` otherwise.
        colorbar : bool, default=True
            Add a colour bar.
        xticks_rotation : {"horizontal", "vertical"} or float, default="horizontal"
            Rotation of the predicted-label ticks.
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
            A bad ``ax``, ``name``, ``im_kw`` or ``text_kw``.

        Examples
        --------
        >>> disp = ConfusionMatrixDisplay([[3, 1], [0, 4]], display_labels=["no", "yes"]).plot(colorbar=False)
        >>> [label.get_text() for label in disp.ax_.get_xticklabels()], disp.text_[0, 1].get_text()
        (['no', 'yes'], '1')
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        im_kw = {"cmap": cmap, "interpolation": "nearest", **check_kwargs("im_kw", im_kw)}
        text_kw = check_kwargs("text_kw", text_kw)
        ax = self._start(ax, name)
        matrix = self.confusion_matrix
        n_classes = matrix.shape[0]
        self.im_ = ax.imshow(matrix, **im_kw)
        self.text_ = self._annotate(ax, values_format, text_kw) if include_values else None
        self.colorbar_ = ax.figure.colorbar(self.im_, ax=ax) if colorbar else None
        labels = np.arange(n_classes) if self.display_labels is None else self.display_labels
        ax.set(
            xticks=np.arange(n_classes),
            yticks=np.arange(n_classes),
            xticklabels=[str(label) for label in labels],
            yticklabels=[str(label) for label in labels],
            xlabel="Predicted label",
            ylabel="True label",
        )
        ax.set_ylim(n_classes - 0.5, -0.5)
        for label in ax.get_xticklabels():
            label.set_rotation(xticks_rotation)
        title = [] if self.name is None else [self.name]
        if self.normalize is not None:
            title.append(f"normalize={self.normalize!r}")
        if title:
            ax.set_title(f"Confusion matrix ({', '.join(title)})")
        return self

    def _annotate(self, ax: Any, values_format: str | None, text_kw: dict) -> np.ndarray:
        """One text per cell, dark on light cells and light on dark ones."""
        matrix = self.confusion_matrix
        if values_format is None:
            values_format = "d" if matrix.dtype.kind in "iu" else ".2f"
        low, high = self.im_.cmap(0.0), self.im_.cmap(1.0)
        middle = (matrix.max() + matrix.min()) / 2.0
        texts = np.empty(matrix.shape, dtype=object)
        for (row, column), value in np.ndenumerate(matrix):
            style = {"ha": "center", "va": "center", "color": low if value >= middle else high, **text_kw}
            texts[row, column] = ax.text(column, row, format(value, values_format), **style)
        return texts
