"""One-vs-rest ROC curves display, with the micro- and macro-average curves."""

from __future__ import annotations

import numpy as np

from polyroc.curves import macro_roc_curve, ovr_roc_curve
from polyroc.plotting._common import class_color, new_axes

__all__ = ["RocCurveDisplay"]


class RocCurveDisplay:
    """Per-class one-vs-rest ROC curves, the micro and macro averages, and the chance line.

    Parameters
    ----------
    curves : OvrRocCurves
        From :func:`polyroc.curves.ovr_roc_curve`.

    Attributes
    ----------
    curves : OvrRocCurves
    macro_fpr, macro_tpr : ndarray
        The macro-average curve (see :func:`macro_roc_curve`).
    macro_auc : float
        Its area, the mean of the per-class AUCs.
    lines_ : list of matplotlib.lines.Line2D or None
        One per class in ``curves.classes`` order (None for a class without
        samples, or when ``show_classes=False``).
    micro_line_, macro_line_, chance_level_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .5, .3], [.4, .4, .2], [.1, .2, .7], [.3, .3, .4]]
    >>> disp = RocCurveDisplay.from_predictions(y, P)
    >>> disp.lines_[1].get_xdata().tolist(), disp.lines_[1].get_ydata().tolist()
    ([0.0, 0.0, 0.25, 0.75, 1.0], [0.0, 0.5, 1.0, 1.0, 1.0])
    >>> [text.get_text() for text in disp.ax_.get_legend().get_texts()][3:5]
    ['micro-average (AUC = 0.910)', 'macro-average (AUC = 0.917)']
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, curves):
        self.curves = curves
        self.macro_fpr, self.macro_tpr, self.macro_auc = macro_roc_curve(curves)

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, labels=None, sample_weight=None, drop_intermediate=True, **plot_kw
    ):
        """Compute :func:`polyroc.curves.ovr_roc_curve` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, n_classes)
            Scores, one column per class (any finite values).
        labels : array-like of shape (n_classes,), default=None
            Class order of the columns; default the sorted labels of ``y_true``.
        sample_weight : array-like of shape (n_samples,), default=None
        drop_intermediate : bool, default=True
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        RocCurveDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.curves.ovr_roc_curve`.
        """
        curves = ovr_roc_curve(
            y_true, y_score, labels=labels, sample_weight=sample_weight, drop_intermediate=drop_intermediate
        )
        return cls(curves).plot(**plot_kw)

    @classmethod
    def from_result(cls, curves, **plot_kw):
        """Plot an existing :class:`~polyroc.curves.OvrRocCurves` (e.g. ``RocCloud.ovr_curves``)."""
        return cls(curves).plot(**plot_kw)

    def plot(self, ax=None, *, show_classes=True, micro=True, macro=True, chance_level=True):
        """Draw the curves.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        show_classes : bool, default=True
            Draw one curve per class (colour ``C{k}``).
        micro, macro : bool, default=True
            Draw the micro-average (dotted) and macro-average (dashed) curves
            (no micro curve for curves computed with ``ovr_roc_curve(..., micro=False)``).
        chance_level : bool, default=True
            Draw the diagonal of a random classifier.

        Returns
        -------
        self
        """
        ax = new_axes(ax)
        curves = self.curves
        self.lines_ = [None] * len(curves.classes)
        if show_classes:
            for k, (label, fpr, tpr, auc) in enumerate(zip(curves.classes, curves.fpr, curves.tpr, curves.auc)):
                if not np.isnan(auc):
                    (self.lines_[k],) = ax.plot(fpr, tpr, color=class_color(k), label=f"{label} (AUC = {auc:.3f})")
        self.micro_line_ = self.macro_line_ = self.chance_level_ = None
        if micro and curves.micro_fpr is not None:
            (self.micro_line_,) = ax.plot(
                curves.micro_fpr, curves.micro_tpr, color="black", linestyle=":", linewidth=2,
                label=f"micro-average (AUC = {curves.micro_auc:.3f})",
            )
        if macro:
            (self.macro_line_,) = ax.plot(
                self.macro_fpr, self.macro_tpr, color="dimgrey", linestyle="--", linewidth=2,
                label=f"macro-average (AUC = {self.macro_auc:.3f})",
            )
        if chance_level:
            (self.chance_level_,) = ax.plot(
                [0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="chance (AUC = 0.5)"
            )
        ax.set(xlim=(-0.01, 1.01), ylim=(-0.01, 1.01), aspect="equal",
               xlabel="False positive rate", ylabel="True positive rate", title="One-vs-rest ROC curves")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(loc="lower right", fontsize="small")
        self.ax_, self.figure_ = ax, ax.figure
        return self
