"""One-vs-rest precision-recall curves display, with prevalence baselines."""

from __future__ import annotations

import numpy as np

from polyroc.curves import ovr_precision_recall_curve
from polyroc.plotting._common import class_color, new_axes

__all__ = ["PrecisionRecallDisplay"]


class PrecisionRecallDisplay:
    """Per-class one-vs-rest precision-recall curves with their average precision (AP).

    Curves are drawn as steps (``drawstyle="steps-post"``), as scikit-learn
    does, since AP is the area under that step function. The chance baseline
    of class k is its prevalence, the precision of predicting every sample
    positive; it is read off the curve (its first point, at the lowest
    threshold), so it is weighted by ``sample_weight`` when the curves were.

    Parameters
    ----------
    curves : OvrPrecisionRecallCurves
        From :func:`polyroc.curves.ovr_precision_recall_curve`.

    Attributes
    ----------
    curves : OvrPrecisionRecallCurves
    prevalence : ndarray of shape (n_classes,)
        Weighted share of each class.
    lines_ : list of matplotlib.lines.Line2D or None
        One per class (None for a class without samples).
    baselines_ : list of matplotlib.lines.Line2D or None
        The horizontal prevalence line of each class (None when
        ``chance_level=False`` or the class has no samples).
    micro_line_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> disp = PrecisionRecallDisplay.from_predictions(y, P)
    >>> disp.prevalence.round(3).tolist()
    [0.286, 0.286, 0.429]
    >>> disp.lines_[0].get_xdata().tolist()
    [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.0]
    >>> [text.get_text() for text in disp.ax_.get_legend().get_texts()][0]
    '0 (AP = 0.833)'
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, curves):
        self.curves = curves
        self.prevalence = np.array([precision[0] for precision in curves.precision])

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, labels=None, sample_weight=None, drop_intermediate=False, **plot_kw
    ):
        """Compute :func:`polyroc.curves.ovr_precision_recall_curve` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, n_classes)
            Scores, one column per class (any finite values).
        labels : array-like of shape (n_classes,), default=None
            Class order of the columns; default the sorted labels of ``y_true``.
        sample_weight : array-like of shape (n_samples,), default=None
        drop_intermediate : bool, default=False
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        PrecisionRecallDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.curves.ovr_precision_recall_curve`.
        """
        curves = ovr_precision_recall_curve(
            y_true, y_score, labels=labels, sample_weight=sample_weight, drop_intermediate=drop_intermediate
        )
        return cls(curves).plot(**plot_kw)

    @classmethod
    def from_result(cls, curves, **plot_kw):
        """Plot an existing :class:`~polyroc.curves.OvrPrecisionRecallCurves`."""
        return cls(curves).plot(**plot_kw)

    def plot(self, ax=None, *, micro=True, chance_level=True):
        """Draw the curves.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        micro : bool, default=True
            Draw the micro-average curve (black, dotted).
        chance_level : bool, default=True
            Draw each class's prevalence as a dashed horizontal line of its colour.

        Returns
        -------
        self
        """
        ax = new_axes(ax)
        curves = self.curves
        n_classes = len(curves.classes)
        self.lines_, self.baselines_ = [None] * n_classes, [None] * n_classes
        for k, (label, precision, recall, ap) in enumerate(
            zip(curves.classes, curves.precision, curves.recall, curves.average_precision)
        ):
            if np.isnan(ap):
                continue
            (self.lines_[k],) = ax.plot(
                recall, precision, drawstyle="steps-post", color=class_color(k), label=f"{label} (AP = {ap:.3f})"
            )
            if chance_level:
                self.baselines_[k] = ax.axhline(
                    self.prevalence[k], color=class_color(k), linestyle="--", linewidth=1
                )
        self.micro_line_ = None
        if micro:
            (self.micro_line_,) = ax.plot(
                curves.micro_recall, curves.micro_precision, drawstyle="steps-post", color="black",
                linestyle=":", linewidth=2, label=f"micro-average (AP = {curves.micro_average_precision:.3f})",
            )
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), xlabel="Recall", ylabel="Precision",
               title="One-vs-rest precision-recall curves")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="lower left", fontsize="small")
        self.ax_, self.figure_ = ax, ax.figure
        return self
