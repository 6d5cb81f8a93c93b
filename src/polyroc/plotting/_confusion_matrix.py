"""Confusion matrix display: counts or normalised rates, annotated cells, class labels."""

from __future__ import annotations

import numpy as np

from polyroc._validation import check_targets
from polyroc.metrics import confusion_matrix
from polyroc.plotting._common import new_axes

__all__ = ["ConfusionMatrixDisplay"]


class ConfusionMatrixDisplay:
    """Confusion matrix C[true, predicted] as an annotated image.

    Build it with :meth:`from_predictions` (labels) or :meth:`from_result`
    (the tuned rule of a :class:`~polyroc.thresholds.TuningResult` applied to
    scores), or directly from a matrix and call :meth:`plot`.

    Parameters
    ----------
    confusion_matrix : array-like of shape (n_classes, n_classes)
        Counts or rates, rows = true class, columns = predicted class.
    display_labels : array-like of shape (n_classes,), default=None
        Tick labels; default 0 .. n_classes - 1.
    normalize : {None, "true", "pred", "all"}, default=None
        How the matrix was normalised (only used in the title).

    Attributes
    ----------
    im_ : matplotlib.image.AxesImage
        The image; ``im_.get_array()`` is the matrix.
    text_ : ndarray of shape (n_classes, n_classes) of matplotlib.text.Text, or None
        The cell annotations (None when ``include_values=False``).
    colorbar_ : matplotlib.colorbar.Colorbar or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> disp = ConfusionMatrixDisplay.from_predictions(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    >>> disp.im_.get_array().tolist()
    [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    >>> [text.get_text() for text in disp.text_[1]]
    ['0', '1', '1']
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, confusion_matrix, *, display_labels=None, normalize=None):
        self.confusion_matrix = np.asarray(confusion_matrix)
        self.display_labels = display_labels
        self.normalize = normalize

    @classmethod
    def from_predictions(
        cls, y_true, y_pred, *, labels=None, sample_weight=None, normalize=None, display_labels=None, **plot_kw
    ):
        """Compute :func:`polyroc.metrics.confusion_matrix` of labels and plot it.

        Parameters
        ----------
        y_true, y_pred : array-like of shape (n_samples,)
            True and predicted labels.
        labels : array-like of shape (n_classes,), default=None
            Class order of the rows and columns; default the sorted union of
            the labels.
        sample_weight : array-like of shape (n_samples,), default=None
        normalize : {None, "true", "pred", "all"}, default=None
            Divide by the row sums (recall per class), the column sums
            (precision per class) or the total.
        display_labels : array-like of shape (n_classes,), default=None
            Tick labels; default the classes.
        **plot_kw
            Passed to :meth:`plot` (``ax``, ``include_values``, ``cmap``,
            ``values_format``, ``colorbar``, ``xticks_rotation``).

        Returns
        -------
        ConfusionMatrixDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.metrics.confusion_matrix`.
        """
        classes = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight).classes
        matrix = confusion_matrix(
            y_true, y_pred, labels=classes, sample_weight=sample_weight, normalize=normalize
        )
        display_labels = classes if display_labels is None else display_labels
        return cls(matrix, display_labels=display_labels, normalize=normalize).plot(**plot_kw)

    @classmethod
    def from_result(cls, result, y_true, y_score, *, sample_weight=None, normalize=None, **plot_kw):
        """Confusion matrix of the tuned rule of a ``TuningResult`` on labelled scores.

        Parameters
        ----------
        result : TuningResult
            Its :meth:`~polyroc.thresholds.TuningResult.predict` labels ``y_score``.
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, n_classes)
            Probability scores, columns in ``result.classes`` order.
        sample_weight, normalize, **plot_kw
            As :meth:`from_predictions`.

        Returns
        -------
        ConfusionMatrixDisplay
        """
        return cls.from_predictions(
            y_true, result.predict(y_score), labels=result.classes,
            sample_weight=sample_weight, normalize=normalize, **plot_kw,
        )

    def plot(
        self, ax=None, *, include_values=True, cmap="viridis", values_format=None,
        colorbar=True, xticks_rotation="horizontal",
    ):
        """Draw the matrix.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        include_values : bool, default=True
            Write each cell's value in it.
        cmap : str or matplotlib.colors.Colormap, default="viridis"
        values_format : str, default=None
            Format spec of the annotations; default ``"d"`` for integer
            counts, ``".2f"`` otherwise.
        colorbar : bool, default=True
        xticks_rotation : {"horizontal", "vertical"} or float, default="horizontal"

        Returns
        -------
        self
        """
        ax = new_axes(ax)
        matrix = self.confusion_matrix
        n_classes = matrix.shape[0]
        self.im_ = ax.imshow(matrix, cmap=cmap, interpolation="nearest")
        self.text_ = None
        if include_values:
            self.text_ = self._annotate(ax, values_format)
        self.colorbar_ = ax.figure.colorbar(self.im_, ax=ax) if colorbar else None
        labels = np.arange(n_classes) if self.display_labels is None else self.display_labels
        ax.set(
            xticks=np.arange(n_classes), yticks=np.arange(n_classes),
            xticklabels=[str(label) for label in labels], yticklabels=[str(label) for label in labels],
            xlabel="Predicted label", ylabel="True label",
        )
        ax.set_ylim(n_classes - 0.5, -0.5)
        for label in ax.get_xticklabels():
            label.set_rotation(xticks_rotation)
        if self.normalize is not None:
            ax.set_title(f"Confusion matrix (normalize={self.normalize!r})")
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _annotate(self, ax, values_format):
        """One text per cell, dark on light cells and light on dark ones."""
        matrix = self.confusion_matrix
        if values_format is None:
            values_format = "d" if matrix.dtype.kind in "iu" else ".2f"
        low, high = self.im_.cmap(0.0), self.im_.cmap(1.0)
        middle = (matrix.max() + matrix.min()) / 2.0
        texts = np.empty(matrix.shape, dtype=object)
        for (row, column), value in np.ndenumerate(matrix):
            texts[row, column] = ax.text(
                column, row, format(value, values_format), ha="center", va="center",
                color=low if value >= middle else high,
            )
        return texts
