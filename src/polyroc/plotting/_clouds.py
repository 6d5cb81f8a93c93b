"""ROC cloud display: per-class (fpr, tpr) of every sampled threshold, with the OvR curve."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from polyroc._validation import check_option, check_positive_int
from polyroc.plotting._base import Display
from polyroc.plotting._common import (
    check_kwargs,
    class_colors,
    curve_kwargs_list,
    draw_chance_level,
    new_axes,
    place_legend,
    short_label,
    with_name,
)
from polyroc.thresholds.clouds import RocCloud, roc_cloud

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["RocCloudDisplay"]

LAYOUTS = ("panels", "overlay")

#: From this many classes on, panels are small multiples: a compact grid of up to 5 columns with shared
#: axes, axis labels on the outer panels only and one legend (in the first panel).
COMPACT_FROM = 7

#: Longest class label kept on one line with its DFP in a panel title (longer: DFP on a second line).
PANEL_TITLE_CHARS = 8


class RocCloudDisplay(Display):
    """ROC clouds of the rule argmax(p − τ): one point per sampled τ and class.

    For class j, each sampled threshold τ gives the one-vs-rest point
    (FPR_j, TPR_j) of the rule argmax(p − τ); the cloud is drawn as a scatter
    with the class's standard one-vs-rest ROC curve on top, the plain argmax
    point (τ constant) as a black cross, and DFP_j in the title or legend
    (Fig. 4 of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794).
    DFP is the mean L1 distance of the cloud to the corner (0, 1).

    Parameters
    ----------
    cloud : RocCloud
        From :func:`polyroc.thresholds.roc_cloud`.
    name : str, default=None
        Name of the model, in the title (overlay) or the figure's title (panels).

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
    chance_levels_ : list of matplotlib.lines.Line2D or None
        The chance diagonal of each panel (one line, repeated, for ``"overlay"``).
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.thresholds.roc_cloud : The clouds and DFP this Display draws.
    polyroc.thresholds.dfp : The DFP of a cloud.
    RocCurveDisplay : The one-vs-rest ROC curves alone.
    TuningProfileDisplay : The tuning score around τ*, for any number of classes.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.

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

    result_type = RocCloud

    def __init__(self, cloud: RocCloud, *, name: str | None = None) -> None:
        self.cloud = cloud
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        thresholds: ArrayLike | None = None,
        search: str = "auto",
        resolution: int | None = None,
        n_samples: int | None = None,
        domain: str = "simplex",
        include_barycentre: bool = False,
        random_state: int | np.random.Generator | None = None,
        ax: Axes | Sequence[Axes] | NDArray[np.object_] | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> RocCloudDisplay:
        """Compute :func:`polyroc.thresholds.roc_cloud` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, n_classes)
            Probability scores, columns in the class order.
        labels, sample_weight, thresholds, search, resolution, n_samples, domain, include_barycentre, random_state
            As :func:`polyroc.thresholds.roc_cloud`.
        ax : matplotlib.axes.Axes or array-like of Axes, default=None
            Where to draw (see :meth:`plot`); default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        RocCloudDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.thresholds.roc_cloud`, or a bad ``layout``/``ax``.

        See Also
        --------
        polyroc.thresholds.roc_cloud : The computation.
        RocCloudDisplay.from_estimator : The same from a fitted classifier.

        Examples
        --------
        >>> disp = RocCloudDisplay.from_predictions([0, 1, 2], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4]],
        ...                                         resolution=4, layout="overlay", name="model")
        >>> disp.ax_.get_title()
        'model: ROC clouds (overall DFP = 0.733)'
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        cloud = roc_cloud(
            y_true,
            y_score,
            thresholds=thresholds,
            search=search,
            resolution=resolution,
            n_samples=n_samples,
            domain=domain,
            labels=labels,
            sample_weight=sample_weight,
            random_state=random_state,
            include_barycentre=include_barycentre,
        )
        return cls(cloud).plot(ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | Sequence[Axes] | NDArray[np.object_] | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | list[dict] | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
        layout: str | None = None,
        ncols: int | None = None,
        curve: bool = True,
        argmax: bool = True,
        scatter_kw: dict | None = None,
    ) -> RocCloudDisplay:
        """Draw the clouds.

        Parameters
        ----------
        ax : matplotlib.axes.Axes or array-like of Axes, default=None
            ``layout="panels"``: n_classes Axes (any shape); ``"overlay"``: one
            Axes. Default: a new figure.
        name : str, default=None
            Name of the model (default the Display's): prefixed to the title
            with ``"overlay"``; the figure's title with ``"panels"`` when the
            Display made the figure.
        curve_kwargs : dict or list of dict, default=None
            Passed to ``Axes.plot`` for the OvR curves: one dict for all, or
            one per class.
        plot_chance_level : bool, default=True
            Draw the diagonal of a random classifier.
        chance_level_kw : dict, default=None
            Passed to ``Axes.plot`` for the chance line.
        layout : {"panels", "overlay"}, default=None
            One panel per class (DFP in each title), or every class on one
            Axes in its colour (DFP in the legend). Default ``"overlay"`` when
            ``ax`` is a single Axes, else ``"panels"``.
        ncols : int, default=None
            Columns of the new figure's panel grid; default ``min(n_classes, 4)``,
            and 5 from 7 classes on, when the panels become small multiples
            (small panels sharing their axes, axis labels on the outer ones,
            the legend in the first one only; class labels longer than 22
            characters end in "…" in the titles).
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
            Unknown ``layout``, ``ncols`` below 1, or ``ax`` not holding one Axes per class.
        TypeError
            A bad ``name``, ``curve_kwargs``, ``chance_level_kw`` or
            ``scatter_kw``, an ``ax`` (or an entry of it) that is not a
            matplotlib Axes, or an ``ncols`` that is not an integer.

        See Also
        --------
        RocCloudDisplay.from_predictions : Compute the clouds and draw them.
        class_colors : The class colours of the overlay.

        Examples
        --------
        >>> from polyroc.thresholds import roc_cloud
        >>> cloud = roc_cloud([0, 1, 2], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4]], resolution=4)
        >>> disp = RocCloudDisplay(cloud).plot(ncols=3, argmax=False)
        >>> len(disp.axes_), disp.argmax_markers_
        (3, [None, None, None])
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        if layout is None:
            layout = "overlay" if ax is not None and not isinstance(ax, (list, tuple, np.ndarray)) else "panels"
        check_option("layout", layout, LAYOUTS)
        if ncols is not None:
            ncols = check_positive_int("ncols", ncols)
        cloud = self.cloud
        n_classes = cloud.classes.size
        styles = curve_kwargs_list(curve_kwargs, n_classes)
        scatter_kw = {"s": 4, "alpha": 0.3, "linewidths": 0, **check_kwargs("scatter_kw", scatter_kw)}
        check_kwargs("chance_level_kw", chance_level_kw)
        made_figure = ax is None
        self._start_axes(ax, name, layout, ncols, n_classes)
        overlay = layout == "overlay"
        colors = class_colors(n_classes) if overlay else ["C0"] * n_classes
        self.scatters_: list[Any] = []
        self.lines_: list[Any] = []
        self.argmax_markers_: list[Any] = []
        self.chance_levels_: list[Any] = []
        for j, axes in enumerate(self.axes_):
            self._draw_class(axes, j, overlay, colors[j], styles[j] if curve else None, argmax, scatter_kw)
            if plot_chance_level:
                self.chance_levels_.append(draw_chance_level(axes, [0, 1], [0, 1], "_nolegend_", chance_level_kw))
            else:
                self.chance_levels_.append(None)
            if not overlay:
                compact = n_classes >= COMPACT_FROM
                self._finish_axes(axes, self._class_title(j, short=True), legend=not compact or j == 0)
                if compact:
                    axes.title.set_fontsize("small")
                    self._label_outer(axes)
        if overlay:
            title = f"ROC clouds (overall DFP = {cloud.dfp_overall:.3f})"
            self._finish_axes(self.ax_, f"{self.name}: {title}" if self.name else title, widen=made_figure)
        elif self.name and made_figure:
            self.figure_.suptitle(with_name(self.name, "ROC clouds"))
        return self

    def _start_axes(self, ax: Any, name: str | None, layout: str, ncols: int | None, n_classes: int) -> None:
        """``axes_`` (one Axes per class), ``ax_`` and ``figure_``."""
        if ax is None:
            ax = self._new_axes(layout, ncols, n_classes)
        if layout == "overlay":
            if isinstance(ax, (list, tuple, np.ndarray)):
                raise ValueError("layout='overlay' draws on one Axes; pass a single Axes as ax")
            self._start(ax, name)
            self.axes_ = np.array([self.ax_] * n_classes, dtype=object)
            return
        axes = np.asarray(ax, dtype=object).ravel()
        if axes.size != n_classes:
            raise ValueError(f"layout='panels' needs one Axes per class ({n_classes}), got {axes.size}")
        for panel in axes:
            new_axes(panel)  # checks that each one is an Axes
        self._start(axes[0], name)
        self.axes_ = axes
        self.ax_ = axes

    @staticmethod
    def _new_axes(layout: str, ncols: int | None, n_classes: int) -> Any:
        """The Axes of a new figure: one, or a grid of panels with the spare ones removed."""
        import matplotlib.pyplot as plt

        if layout == "overlay":
            return new_axes(None, figsize=(5, 5))
        compact = n_classes >= COMPACT_FROM
        if ncols is None:
            ncols = 5 if compact else min(n_classes, 4)
        nrows = -(-n_classes // ncols)
        side = 2.3 if compact else 3.3
        _, grid = plt.subplots(
            nrows,
            ncols,
            figsize=(side * ncols, (side + 0.1) * nrows),
            squeeze=False,
            layout="constrained",
            sharex=compact,
            sharey=compact,
        )
        for extra in grid.ravel()[n_classes:]:
            extra.remove()
        return grid.ravel()[:n_classes]

    def _class_title(self, j: int, short: bool = False) -> str:
        """``"label: DFP = …"``; in a panel (``short``) the label is cut to LABEL_CHARS and, when the title
        would be wider than a small panel, DFP goes on a second line."""
        label, dfp = self.cloud.classes[j], f"DFP = {self.cloud.dfp[j]:.3f}"
        if not short:
            return f"{label}: {dfp}"
        label = short_label(label)
        return f"{label}\n{dfp}" if len(label) > PANEL_TITLE_CHARS else f"{label}: {dfp}"

    @staticmethod
    def _label_outer(axes: Any) -> None:
        """Keep the axis labels of a grid panel only on the grid's left column and bottom row."""
        spec = axes.get_subplotspec()
        if spec is None:
            return
        grid_rows = spec.get_gridspec().nrows
        n_below = sum(
            1
            for other in axes.figure.axes
            if other.get_subplotspec() is not None
            and other.get_subplotspec().colspan.start == spec.colspan.start
            and other.get_subplotspec().rowspan.start > spec.rowspan.start
        )
        if n_below and spec.rowspan.stop < grid_rows:
            axes.set_xlabel("")
        if not spec.is_first_col():
            axes.set_ylabel("")

    def _draw_class(
        self, axes: Any, j: int, overlay: bool, color: str, curve_style: dict | None, argmax: bool, scatter_kw: dict
    ) -> None:
        """Cloud of class j, its OvR curve (``curve_style`` None: none) and its argmax point."""
        cloud, curves = self.cloud, self.cloud.ovr_curves
        self.scatters_.append(
            axes.scatter(
                cloud.fpr[:, j],
                cloud.tpr[:, j],
                color=color,
                label=self._class_title(j) if overlay else "ROC cloud",
                **scatter_kw,
            )
        )
        line = None
        if curve_style is not None and not np.isnan(curves.auc[j]):
            style = {
                "color": color if overlay else "black",
                "linewidth": 1.2,
                "label": "_nolegend_" if overlay else f"OvR ROC (AUC = {curves.auc[j]:.3f})",
                **curve_style,
            }
            (line,) = axes.plot(curves.fpr[j], curves.tpr[j], **style)
        self.lines_.append(line)
        marker = None
        if argmax:
            (marker,) = axes.plot(
                [cloud.argmax_fpr[j]],
                [cloud.argmax_tpr[j]],
                linestyle="none",
                marker="X",
                markersize=8,
                color="black",
                label="argmax" if not overlay or j == 0 else "_nolegend_",
            )
        self.argmax_markers_.append(marker)

    @staticmethod
    def _finish_axes(axes: Any, title: str, legend: bool = True, widen: bool = False) -> None:
        axes.set(
            xlim=(-0.02, 1.02),
            ylim=(-0.02, 1.02),
            aspect="equal",
            title=title,
            xlabel="False positive rate",
            ylabel="True positive rate",
        )
        if not legend:
            return
        box = place_legend(axes, "lower right", widen=widen)
        for handle in box.legend_handles:
            if hasattr(handle, "set_sizes"):
                handle.set_sizes([16])
                handle.set_alpha(1.0)
