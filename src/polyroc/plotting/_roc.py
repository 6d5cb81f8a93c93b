"""One-vs-rest ROC curves display, with the micro- and macro-average curves."""

from __future__ import annotations

import numpy as np

from polyroc.curves import roc_curve
from polyroc.plotting._common import class_color, new_axes

__all__ = ["RocCurveDisplay", "macro_roc_curve"]


def _tpr_limits(fpr, tpr, grid):
    """Lowest and highest TPR of one ROC curve at each FPR of an increasing ``grid``.

    Between its points the curve is linear; where it is vertical (several
    points at one FPR) the two limits differ.
    """
    first = np.searchsorted(fpr, grid, side="left")
    last = np.searchsorted(fpr, grid, side="right") - 1
    on_point = first <= last
    left, right = np.minimum(last, first), np.maximum(last, first)
    span = fpr[right] - fpr[left]
    weight = np.divide(grid - fpr[left], span, out=np.zeros_like(grid), where=span > 0)
    between = tpr[left] + weight * (tpr[right] - tpr[left])
    return np.where(on_point, tpr[first], between), np.where(on_point, tpr[last], between)


def macro_roc_curve(curves):
    """Macro-average ROC curve: the mean TPR of the classes on the union FPR grid.

    The grid is the union of the FPR values of every class with samples. At
    each grid value the curve has two points, the mean over classes of their
    lowest and of their highest TPR there (they differ where some class's
    curve is vertical); in between, each class's curve is linear, so the mean
    is exact (no resampling on a fixed grid) and its area equals the mean of
    the per-class AUCs, i.e. ``roc_auc(average="macro")``. Classes without
    samples (NaN curve) are left out.

    Parameters
    ----------
    curves : OvrRocCurves
        From :func:`polyroc.curves.roc_curve`.

    Returns
    -------
    fpr, tpr : ndarray
        The curve, from (0, 0) to (1, 1).
    auc : float
        Its area (trapezoid rule).

    Examples
    --------
    >>> from polyroc.curves import roc_curve
    >>> curves = roc_curve([0, 0, 1, 1, 2, 2], [[.6, .3, .1], [.3, .4, .3], [.2, .5, .3],
    ...                                         [.4, .4, .2], [.1, .2, .7], [.3, .3, .4]])
    >>> fpr, tpr, auc = macro_roc_curve(curves)
    >>> round(auc, 6) == round(float(curves.auc.mean()), 6)
    True
    """
    defined = [k for k, auc in enumerate(curves.auc) if not np.isnan(auc)]
    grid = np.unique(np.concatenate([curves.fpr[k] for k in defined]))
    limits = [_tpr_limits(curves.fpr[k], curves.tpr[k], grid) for k in defined]
    low = np.mean([lower for lower, _ in limits], axis=0)
    high = np.mean([upper for _, upper in limits], axis=0)
    fpr = np.repeat(grid, 2)
    tpr = np.column_stack([low, high]).ravel()
    return fpr, tpr, float(np.trapezoid(tpr, fpr))


class RocCurveDisplay:
    """Per-class one-vs-rest ROC curves, the micro and macro averages, and the chance line.

    Parameters
    ----------
    curves : OvrRocCurves
        From :func:`polyroc.curves.roc_curve`.

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
        """Compute :func:`polyroc.curves.roc_curve` and plot it.

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
            As :func:`polyroc.curves.roc_curve`.
        """
        curves = roc_curve(
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
            (no micro curve for curves computed with ``roc_curve(..., micro=False)``).
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
