"""ROC cloud display: per-class (fpr, tpr) of every sampled threshold, with the OvR curve."""

from __future__ import annotations

import numpy as np

from polyroc._validation import check_option
from polyroc.plotting._common import class_color
from polyroc.thresholds.clouds import roc_cloud

__all__ = ["RocCloudDisplay"]

LAYOUTS = ("panels", "overlay")


class RocCloudDisplay:
    """ROC clouds of the rule argmax(p − τ): one point per sampled τ and class.

    For class j, each sampled threshold τ gives the one-vs-rest point
    (FPR_j, TPR_j) of the rule argmax(p − τ); the cloud is drawn as a scatter
    with the class's standard one-vs-rest ROC curve on top, the plain argmax
    point (τ constant) as a black cross, and DFP_j in the title or legend
    (the paper's Fig. 4). DFP is the mean L1 distance of the cloud to the
    corner (0, 1).

    Parameters
    ----------
    cloud : RocCloud
        From :func:`polyroc.thresholds.roc_cloud`.

    Attributes
    ----------
    cloud : RocCloud
    axes_ : ndarray of matplotlib.axes.Axes, shape (n_classes,)
        The axes of each class (the same Axes repeated for ``layout="overlay"``).
    ax_ : matplotlib.axes.Axes or ndarray of Axes
        The single Axes (``"overlay"``) or ``axes_`` (``"panels"``).
    scatters_ : list of matplotlib.collections.PathCollection
        The cloud of each class; ``scatters_[j].get_offsets()`` is
        ``column_stack([cloud.fpr[:, j], cloud.tpr[:, j]])``.
    lines_ : list of matplotlib.lines.Line2D or None
        The OvR ROC curve of each class (None for a class without samples).
    argmax_markers_ : list of matplotlib.lines.Line2D or None
        The plain argmax point of each class (None with ``argmax=False``).
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> y = [0, 1, 2, 1, 0, 2]
    >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1], [.4, .4, .2], [.3, .3, .4]]
    >>> disp = RocCloudDisplay.from_predictions(y, P, resolution=6)
    >>> len(disp.scatters_), disp.scatters_[0].get_offsets().shape
    (3, (28, 2))
    >>> disp.axes_[0].get_title()
    '0: DFP = 0.768'
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, cloud):
        self.cloud = cloud

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, sampler="lattice", resolution=None, n_samples=None, domain="simplex",
        labels=None, sample_weight=None, random_state=None, **plot_kw,
    ):
        """Compute :func:`polyroc.thresholds.roc_cloud` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, n_classes)
            Probability scores, columns in the class order.
        sampler, resolution, n_samples, domain, labels, sample_weight, random_state
            As :func:`polyroc.thresholds.roc_cloud`.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        RocCloudDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.thresholds.roc_cloud`, or a bad ``layout``/``ax``.
        """
        cloud = roc_cloud(
            y_true, y_score, sampler=sampler, resolution=resolution, n_samples=n_samples, domain=domain,
            labels=labels, sample_weight=sample_weight, random_state=random_state,
        )
        return cls(cloud).plot(**plot_kw)

    @classmethod
    def from_result(cls, cloud, **plot_kw):
        """Plot an existing :class:`~polyroc.thresholds.RocCloud`."""
        return cls(cloud).plot(**plot_kw)

    def plot(self, ax=None, *, layout="panels", ncols=None, curve=True, argmax=True, scatter_kw=None):
        """Draw the clouds.

        Parameters
        ----------
        ax : matplotlib.axes.Axes or array-like of Axes, default=None
            ``layout="panels"``: n_classes Axes (any shape); ``"overlay"``: one
            Axes. Default: a new figure.
        layout : {"panels", "overlay"}, default="panels"
            One panel per class (DFP in each title), or every class on one
            Axes in its colour (DFP in the legend).
        ncols : int, default=None
            Columns of the new figure's panel grid; default ``min(n_classes, 4)``.
        curve : bool, default=True
            Overlay each class's one-vs-rest ROC curve.
        argmax : bool, default=True
            Mark the point of plain argmax (the barycentre τ).
        scatter_kw : dict, default=None
            Passed to ``Axes.scatter`` (defaults: ``s=4``, ``alpha=0.3``).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            Unknown ``layout``, or ``ax`` not holding one Axes per class.
        """
        check_option("layout", layout, LAYOUTS)
        cloud = self.cloud
        self.axes_ = self._axes(ax, layout, ncols, cloud.classes.size)
        scatter_kw = {"s": 4, "alpha": 0.3, "linewidths": 0, **(scatter_kw or {})}
        self.scatters_, self.lines_, self.argmax_markers_ = [], [], []
        for j, axes in enumerate(self.axes_):
            self._draw_class(axes, j, layout == "overlay", curve, argmax, scatter_kw)
            if layout == "panels":
                self._finish_axes(axes, self._name(j))
        if layout == "overlay":
            self._finish_axes(self.axes_[0], f"ROC clouds (overall DFP = {cloud.dfp_overall:.3f})")
        self.ax_ = self.axes_[0] if layout == "overlay" else self.axes_
        self.figure_ = self.axes_[0].figure
        return self

    def _name(self, j):
        return f"{self.cloud.classes[j]}: DFP = {self.cloud.dfp[j]:.3f}"

    def _draw_class(self, axes, j, overlay, curve, argmax, scatter_kw):
        """Cloud of class j, its OvR curve and its argmax point (colour C{j} when overlaid)."""
        cloud, curves = self.cloud, self.cloud.ovr_curves
        color = class_color(j) if overlay else "C0"
        self.scatters_.append(axes.scatter(
            cloud.fpr[:, j], cloud.tpr[:, j], color=color, label=self._name(j) if overlay else "ROC cloud",
            **scatter_kw,
        ))
        line = None
        if curve and not np.isnan(curves.auc[j]):
            (line,) = axes.plot(
                curves.fpr[j], curves.tpr[j], color=color if overlay else "black", linewidth=1.2,
                label="_nolegend_" if overlay else f"OvR ROC (AUC = {curves.auc[j]:.3f})",
            )
        self.lines_.append(line)
        marker = None
        if argmax:
            (marker,) = axes.plot(
                [cloud.argmax_fpr[j]], [cloud.argmax_tpr[j]], linestyle="none", marker="X",
                markersize=8, color="black", label="argmax" if not overlay or j == 0 else "_nolegend_",
            )
        self.argmax_markers_.append(marker)

    @staticmethod
    def _axes(ax, layout, ncols, n_classes):
        """The Axes of each class: given, or a new figure's."""
        if ax is None:
            import matplotlib.pyplot as plt

            if layout == "overlay":
                ax = plt.subplots(figsize=(5, 5))[1]
            else:
                ncols = min(n_classes, 4) if ncols is None else ncols
                nrows = -(-n_classes // ncols)
                _, grid = plt.subplots(
                    nrows, ncols, figsize=(3.3 * ncols, 3.4 * nrows), squeeze=False, layout="constrained"
                )
                for extra in grid.ravel()[n_classes:]:
                    extra.remove()
                ax = grid.ravel()[:n_classes]
        if layout == "overlay":
            if isinstance(ax, (list, tuple, np.ndarray)):
                raise ValueError("layout='overlay' draws on one Axes; pass a single Axes as ax")
            return np.array([ax] * n_classes, dtype=object)
        axes = np.asarray(ax, dtype=object).ravel()
        if axes.size != n_classes:
            raise ValueError(f"layout='panels' needs one Axes per class ({n_classes}), got {axes.size}")
        return axes

    @staticmethod
    def _finish_axes(axes, title):
        axes.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=0.8)
        axes.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), aspect="equal", title=title,
                 xlabel="False positive rate", ylabel="True positive rate")
        legend = axes.legend(loc="lower right", fontsize="small")
        for handle in legend.legend_handles:
            if hasattr(handle, "set_sizes"):
                handle.set_sizes([16])
                handle.set_alpha(1.0)
