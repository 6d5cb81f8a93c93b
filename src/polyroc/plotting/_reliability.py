"""Reliability diagram display: observed frequency against mean score per bin, with the per-bin intervals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from polyroc._engine.binning import BinStrategy, CalibrationKind
from polyroc._validation import check_boolean, check_option, check_positive_int
from polyroc.calibration import ReliabilityCurve, reliability_curve
from polyroc.intervals._proportions import ProportionMethod
from polyroc.plotting._base import Display
from polyroc.plotting._common import (
    check_kwargs,
    class_colors,
    draw_chance_level,
    draw_steps,
    n_score_columns,
    new_axes,
    place_legend,
    short_label,
)
from polyroc.plotting._cv import CrossValidationDisplay, reliability_folds
from polyroc.thresholds.cross_validation import fold_predictions

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["ReliabilityDisplay"]

#: gid of a reliability curve's line, so that a curve drawn on an Axes that holds some takes the next style.
CURVE_GID = "polyroc-reliability-curve"

#: gid of the histogram Axes under a reliability diagram, found again when another model is drawn there.
HIST_GID = "polyroc-reliability-histogram"

#: gid of the figure legend of classwise panels, replaced when another model is drawn on them.
LEGEND_GID = "polyroc-reliability-legend"

#: Where the histogram sits, in the main Axes' fraction: (x0, y0, width, height), under the x axis.
HIST_BOUNDS = (0.0, -0.32, 1.0, 0.26)

#: Line style and marker of the k-th curve on one classwise panel (the class colour stays).
PANEL_STYLES = (("-", "o"), ("--", "s"), (":", "^"), ("-.", "D"))


def _is_axes_array(ax: object) -> bool:
    return isinstance(ax, (list, tuple, np.ndarray))


def _check_ax(ax: object, kind: str, n_curves: int | None) -> None:
    """Refuse an ``ax`` of the wrong shape for ``kind`` (before any work)."""
    if ax is None:
        return
    if kind == "top-label":
        if _is_axes_array(ax):
            raise TypeError("ax must be a single matplotlib Axes (or None) for a top-label reliability diagram")
        new_axes(ax)
        return
    panels = np.asarray(ax, dtype=object).ravel() if _is_axes_array(ax) else np.array([ax], dtype=object)
    if n_curves is not None and panels.size != n_curves:
        raise ValueError(
            f"ax must hold one Axes per class ({n_curves}) for a classwise reliability diagram, got {panels.size}"
        )
    for panel in panels:
        new_axes(panel)


def _new_panels(n_curves: int, ncols: int | None, hist: bool) -> NDArray[np.object_]:
    """The diagrams' Axes of a new figure, in a grid of up to ``ncols`` columns; with ``hist``, each over a short
    histogram Axes sharing its x axis (a row of height ratio 1 under a row of 4, in the constrained layout)."""
    import matplotlib.pyplot as plt

    ncols = min(n_curves, 4) if ncols is None else min(ncols, n_curves)
    nrows = -(-n_curves // ncols)
    side = 5.2 if n_curves == 1 else 3.4
    rows_per_panel = 2 if hist else 1
    _, grid = plt.subplots(
        rows_per_panel * nrows,
        ncols,
        figsize=(side * ncols, (side * 1.23 if hist else side) * nrows),
        squeeze=False,
        layout="constrained",
        height_ratios=[4, 1] * nrows if hist else None,
    )
    panels = grid[::rows_per_panel].ravel()
    hists = grid[1::2].ravel() if hist else np.empty(0, dtype=object)
    for k, hist_ax in enumerate(hists):
        if k < n_curves:
            hist_ax.sharex(panels[k])
            hist_ax.set_gid(HIST_GID)
            panels[k].tick_params(labelbottom=False)
        else:
            hist_ax.remove()
    for extra in panels[n_curves:]:
        extra.remove()
    return panels[:n_curves]


def _classwise_legend(panel: Any) -> Any:
    """The legend of classwise panels, from the first panel's entries (every model drawn on the panels).

    In a figure with a constrained layout, it is one figure legend under the panels, replaced when
    another model is drawn on them; in any other figure, the first panel's legend.
    """
    figure = panel.figure
    engine = figure.get_layout_engine()
    if engine is None or type(engine).__name__ != "ConstrainedLayoutEngine":
        return place_legend(panel, "upper left", fontsize="x-small")
    for legend in list(figure.legends):
        if legend.get_gid() == LEGEND_GID:
            legend.remove()
    handles, labels = panel.get_legend_handles_labels()
    legend = figure.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 3), fontsize="small")
    legend.set_gid(LEGEND_GID)
    return legend


class ReliabilityDisplay(Display):
    """Reliability diagram: per bin, the observed frequency against the mean score, with its interval.

    The diagonal is perfect calibration. Each non-empty bin of the
    :class:`~polyroc.calibration.ReliabilityCurve` is a marker at (mean score,
    observed frequency), joined by a line, with an error bar from
    ``observed_low`` to ``observed_high``; empty bins are skipped. The legend
    names the model, its expected calibration error (ECE) and the per-bin
    interval. Under each diagram, a short histogram sharing its x axis shows
    the rows of each bin (``count``: rows of positive weight).

    A top-label curve is drawn on one Axes (``ax_``); drawing another model on
    the same Axes (``from_predictions(..., ax=disp.ax_, name="other")``) adds
    its curve, its legend entry and its histogram, in the next colour. A
    classwise curve is drawn as one panel per class, in the class colours of
    :func:`class_colors`; another model drawn on the same panels
    (``ax=disp.ax_``) keeps the class colours with the next line style. Their
    legend, the same for every panel, is a figure legend under the panels in
    a figure with a constrained layout (the figures this Display makes), else
    the first panel's.

    Parameters
    ----------
    curve : ReliabilityCurve
        From :func:`polyroc.calibration.reliability_curve`.
    name : str, default=None
        Name of the model, in the legend.

    Attributes
    ----------
    curve : ReliabilityCurve
    axes_ : ndarray of matplotlib.axes.Axes, shape (c,)
        The Axes of each curve: one for top-label, one per class for classwise.
    ax_ : matplotlib.axes.Axes or ndarray of Axes
        The Axes (top-label) or ``axes_`` (classwise).
    hist_axes_ : list of matplotlib.axes.Axes or None
        The histogram Axes under each of ``axes_`` (None with ``hist=False``).
    lines_ : list of matplotlib.lines.Line2D or None
        Each curve's markers and line (None for a curve whose bins are all empty).
    errorbars_ : list of matplotlib.container.ErrorbarContainer or None
        Each curve's interval bars.
    hists_ : list of matplotlib.patches.StepPatch or None
        Each curve's histogram of counts.
    perfect_lines_ : list of matplotlib.lines.Line2D or None
        The diagonal of each Axes (None with ``plot_perfect=False``).
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.calibration.reliability_curve : The curve this Display draws.
    polyroc.calibration.calibration_error : The ECE in the legend.
    polyroc.calibration.fit_calibrator : A map that recalibrates scores.

    Examples
    --------
    >>> y = [0, 1, 1, 0, 2, 2]
    >>> P = [[.85, .1, .05], [.3, .65, .05], [.55, .4, .05], [.75, .2, .05], [.1, .05, .85], [.2, .15, .65]]
    >>> disp = ReliabilityDisplay.from_predictions(y, P, n_bins=5, name="model")
    >>> disp.lines_[0].get_xdata().tolist(), disp.lines_[0].get_ydata().tolist()
    ([0.55, 0.6833333333333332, 0.85], [0.0, 1.0, 1.0])
    >>> [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    ['perfect calibration', 'model (ECE = 0.300; 95% Clopper-Pearson exact interval)']
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    result_type = ReliabilityCurve
    result_hint = " (from polyroc.calibration.reliability_curve)"

    def __init__(self, curve: ReliabilityCurve, *, name: str | None = None) -> None:
        self.curve = curve
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_proba: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        kind: CalibrationKind = "top-label",
        n_bins: int = 15,
        strategy: BinStrategy = "uniform",
        confidence: float = 0.95,
        interval: ProportionMethod = "clopper-pearson",
        sample_weight: ArrayLike | None = None,
        ax: Axes | Sequence[Axes] | NDArray[np.object_] | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> ReliabilityDisplay:
        """Compute :func:`polyroc.calibration.reliability_curve` and draw it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_proba : array-like of shape (n_samples, n_classes)
            Predicted probabilities, rows summing to 1.
        labels : array-like of shape (n_classes,), default=None
            The classes, in the order of the columns.
        kind : {"top-label", "classwise"}, default="top-label"
            One diagram of the top label's probability, or one panel per class.
        n_bins : int, default=15
            Number of bins.
        strategy : {"uniform", "quantile"}, default="uniform"
            Bins of equal width or of equal count.
        confidence : float, default=0.95
            Level of each bin's interval.
        interval : {"clopper-pearson", "wilson", "jeffreys"}, default="clopper-pearson"
            The per-bin interval.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights.
        ax : matplotlib.axes.Axes or array-like of Axes, default=None
            One Axes for ``kind="top-label"``, one per class (any shape) for
            ``"classwise"``; default a new figure.
        name : str, default=None
            Name of the model, in the legend.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        ReliabilityDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.calibration.reliability_curve`; or an ``ax``
            that is not one Axes (top-label) or one Axes per class (classwise).

        See Also
        --------
        polyroc.calibration.reliability_curve : The computation.
        ReliabilityDisplay.from_estimator : The same from a fitted classifier.

        Examples
        --------
        >>> y = [0, 1, 1, 0, 2, 2]
        >>> P = [[.8, .1, .1], [.3, .6, .1], [.5, .4, .1], [.7, .2, .1], [.1, .1, .8], [.2, .2, .6]]
        >>> disp = ReliabilityDisplay.from_predictions(y, P, kind="classwise", n_bins=4)
        >>> [panel.get_title() for panel in disp.ax_]
        ['0', '1', '2']
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        n_curves = n_score_columns(y_proba) if labels is None else np.size(labels)
        _check_ax(ax, kind if kind == "top-label" else "classwise", n_curves if kind == "classwise" else None)
        curve = reliability_curve(
            y_true,
            y_proba,
            labels=labels,
            kind=kind,
            n_bins=n_bins,
            strategy=strategy,
            confidence=confidence,
            interval=interval,
            sample_weight=sample_weight,
        )
        return cls(curve).plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_cv_results(
        cls,
        cv_results: Mapping[str, Any],
        X: ArrayLike,
        y: ArrayLike,
        *,
        n_bins: int = 15,
        strategy: BinStrategy = "uniform",
        sample_weight: ArrayLike | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CrossValidationDisplay:
        """Draw each cross-validation fold's top-label reliability curve, their min–max band and their mean.

        Fold k's curve joins the non-empty bins (mean top-label probability,
        observed frequency) that :meth:`from_predictions` draws for
        ``predict_proba`` of fold k's estimator on fold k's test rows
        (without the per-bin intervals). On 201 equally spaced probabilities
        each curve is read linearly between its bins (not beyond its first
        and last bin); between the largest first bin and the smallest last
        bin of the folds, the band is the pointwise minimum and maximum of
        the folds, the bold line their mean; the legend gives
        the folds' ECE as mean ± sd (``ddof=0``).

        Parameters
        ----------
        cv_results : dict
            From :func:`sklearn.model_selection.cross_validate` with
            ``return_estimator=True, return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data cross-validated.
        y : array-like of shape (n_samples,)
            Its labels.
        n_bins : int, default=15
            Number of bins.
        strategy : {"uniform", "quantile"}, default="uniform"
            Bins of equal width or of equal count (per fold).
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the rows, split by fold.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`CrossValidationDisplay.plot`.

        Returns
        -------
        CrossValidationDisplay
            With ``fold_results``, the ``ReliabilityCurve`` of each fold.

        Raises
        ------
        ValueError
            ``cv_results`` lacks ``"estimator"`` or ``"indices"`` (pass
            ``return_estimator=True, return_indices=True``), or what
            :func:`polyroc.calibration.reliability_curve` refuses.
        TypeError
            ``cv_results`` not a dict, an estimator without ``predict_proba``.

        See Also
        --------
        ReliabilityDisplay.from_predictions : One fold's diagram, with its intervals.
        RocCurveDisplay.from_cv_results : The ROC counterpart.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                             return_estimator=True, return_indices=True)
        >>> disp = ReliabilityDisplay.from_cv_results(cv_results, X, y, n_bins=5)
        >>> disp.kind["score"], len(disp.fold_results)
        ('ECE', 3)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        check_positive_int("n_bins", n_bins)
        check_option("strategy", strategy, ("uniform", "quantile"))
        folds, classes = fold_predictions(cv_results, X, y, sample_weight=sample_weight)
        results = [
            reliability_curve(
                fold.y_true,
                fold.y_score,
                labels=classes,
                n_bins=n_bins,
                strategy=strategy,
                sample_weight=fold.sample_weight,
            )
            for fold in folds
        ]
        groups, scores, kind = reliability_folds(results)
        return CrossValidationDisplay(groups, scores, kind=kind, fold_results=results).plot(ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords, and takes several Axes for classwise panels
        self,
        ax: Axes | Sequence[Axes] | NDArray[np.object_] | None = None,
        *,
        name: str | None = None,
        hist: bool = True,
        plot_perfect: bool = True,
        ncols: int | None = None,
        curve_kwargs: dict | None = None,
        hist_kw: dict | None = None,
        perfect_kw: dict | None = None,
    ) -> ReliabilityDisplay:
        """Draw the diagram.

        ``ax`` is where the diagram goes. Its histogram, when drawn, shares
        its x axis: in a new figure it is a short Axes of its own under the
        diagram (a grid row of a fifth of the height, in a constrained
        layout); on an Axes you pass, it is an inset of it
        (``Axes.inset_axes``) placed just under it, so that the pair takes the
        room of one Axes: leave some room under your Axes, or pass
        ``hist=False``. An Axes that already holds a diagram keeps its
        histogram, where the next model's is added.

        Parameters
        ----------
        ax : matplotlib.axes.Axes or array-like of Axes, default=None
            A top-label curve: one Axes, possibly already holding another
            model's diagram (its histogram is then reused). A classwise curve:
            one Axes per class, of any shape (e.g. the ``ax_`` of another
            classwise ReliabilityDisplay). Default: a new figure (a grid of
            panels for classwise).
        name : str, default=None
            Name of the model in the legend (default the Display's).
        hist : bool, default=True
            Draw the histogram of each bin's rows under the diagram.
        plot_perfect : bool, default=True
            Draw the diagonal of perfect calibration.
        ncols : int, default=None
            Columns of a new figure's classwise grid; default ``min(c, 4)``.
        curve_kwargs : dict, default=None
            Passed to ``Axes.errorbar`` for the curves (e.g. ``color``).
        hist_kw : dict, default=None
            Passed to ``Axes.stairs`` for the histograms.
        perfect_kw : dict, default=None
            Passed to ``Axes.plot`` for the diagonal.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            ``ax`` not an Axes (or an array of them for classwise), ``name``
            not a string, ``hist`` or ``plot_perfect`` not a bool, a keyword
            dict that is not a dict.
        ValueError
            ``ax`` not holding one Axes per class (classwise), ``ncols``
            below 1.

        See Also
        --------
        ReliabilityDisplay.from_predictions : Compute the curve and draw it.
        class_colors : The colours of the classwise panels.

        Examples
        --------
        >>> from polyroc.calibration import reliability_curve
        >>> curve = reliability_curve([0, 1, 1, 0], [[.8, .2], [.3, .7], [.6, .4], [.9, .1]], n_bins=4)
        >>> disp = ReliabilityDisplay(curve).plot(hist=False)
        >>> disp.hist_axes_, disp.errorbars_[0].lines[0].get_ydata().tolist()
        ([None], [0.5, 1.0])
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        curve = self.curve
        top_label = curve.settings["calibration"] == "top-label"
        n_curves = curve.classes.size
        _check_ax(ax, "top-label" if top_label else "classwise", n_curves)
        hist, plot_perfect = check_boolean("hist", hist), check_boolean("plot_perfect", plot_perfect)
        if ncols is not None:
            ncols = check_positive_int("ncols", ncols)
        styles = {
            "curve": check_kwargs("curve_kwargs", curve_kwargs),
            "hist": check_kwargs("hist_kw", hist_kw),
            "perfect": check_kwargs("perfect_kw", perfect_kw),
        }
        made_figure = ax is None
        self._start_axes(ax, name, top_label, ncols, hist)
        self.lines_: list[Any] = []
        self.errorbars_: list[Any] = []
        self.hists_: list[Any] = []
        self.hist_axes_: list[Any] = []
        self.perfect_lines_: list[Any] = []
        colors = class_colors(n_curves)
        for k, panel in enumerate(self.axes_):
            n_before = sum(1 for line in panel.get_lines() if line.get_gid() == CURVE_GID)
            if top_label:
                style = {"color": class_colors(n_before + 1)[n_before]}
            else:
                linestyle, marker = PANEL_STYLES[n_before % len(PANEL_STYLES)]
                style = {"color": colors[k], "linestyle": linestyle, "marker": marker}
            style.update(styles["curve"])
            self.perfect_lines_.append(
                draw_chance_level(panel, [0, 1], [0, 1], "perfect calibration", styles["perfect"])
                if plot_perfect
                else None
            )
            self._draw_curve(panel, k, style)
            hist_ax = self._hist_axes(panel) if hist else None
            self.hist_axes_.append(hist_ax)
            self.hists_.append(None if hist_ax is None else self._draw_hist(hist_ax, k, style, styles["hist"]))
            self._finish_axes(panel, hist_ax, k, top_label, widen=made_figure and top_label)
        if made_figure and not top_label and self.name:
            self.figure_.suptitle(f"{self.name}: classwise reliability diagrams")
        return self

    def _start_axes(self, ax: Any, name: str | None, top_label: bool, ncols: int | None, hist: bool) -> None:
        """``axes_`` (one Axes per curve), ``ax_`` and ``figure_``."""
        n_curves = self.curve.classes.size
        if ax is None:
            ax = _new_panels(n_curves, ncols, hist)
        panels = np.asarray(ax, dtype=object).ravel() if _is_axes_array(ax) else np.array([ax], dtype=object)
        self._start(panels[0], name)
        self.axes_ = panels
        self.ax_ = panels[0] if top_label else panels

    def _draw_curve(self, panel: Any, k: int, style: dict[str, Any]) -> None:
        """Markers, line and interval bars of curve k's non-empty bins."""
        curve = self.curve
        shown = curve.count[k] > 0
        if not shown.any():
            self.lines_.append(None)
            self.errorbars_.append(None)
            return
        x, y = curve.mean_score[k, shown], curve.observed[k, shown]
        below, above = y - curve.observed_low[k, shown], curve.observed_high[k, shown] - y
        label = self._label()
        bars = panel.errorbar(
            x,
            y,
            yerr=np.vstack([below, above]),
            **{"marker": "o", "markersize": 4, "capsize": 2, "linewidth": 1.2, "label": label, **style},
        )
        bars.lines[0].set_gid(CURVE_GID)
        self.lines_.append(bars.lines[0])
        self.errorbars_.append(bars)

    def _label(self) -> str:
        """The legend entry: the model's name, the ECE and the per-bin interval (on a second line in a panel)."""
        curve = self.curve
        bars = f"{100 * curve.settings['confidence']:g}% {curve.interval_method}"
        if curve.settings["calibration"] == "top-label":
            ece = f"ECE = {curve.calibration_error:.3f}"
            return f"{self.name} ({ece}; {bars})" if self.name else f"{ece}; {bars}"
        ece = f"mean classwise ECE = {curve.calibration_error:.3f}"
        return f"{self.name} ({ece})\n{bars}" if self.name else f"{ece}\n{bars}"

    @staticmethod
    def _hist_axes(panel: Any) -> Any:
        """The histogram Axes of ``panel``: one sharing its x axis drawn before, else a new inset under it."""
        for sibling in panel.get_shared_x_axes().get_siblings(panel):
            if sibling.get_gid() == HIST_GID:
                return sibling
        hist_ax = panel.inset_axes(HIST_BOUNDS, sharex=panel)
        hist_ax.set_gid(HIST_GID)
        panel.tick_params(labelbottom=False)
        return hist_ax

    def _draw_hist(self, hist_ax: Any, k: int, style: dict[str, Any], hist_kw: dict[str, Any]) -> Any:
        """Curve k's rows per bin as filled steps over its bin edges."""
        curve = self.curve
        kwargs = {"color": style["color"], "alpha": 0.35, "fill": True, "baseline": 0.0, **hist_kw}
        return draw_steps(hist_ax, curve.count[k], curve.edges[k], **kwargs)

    def _finish_axes(self, panel: Any, hist_ax: Any, k: int, top_label: bool, widen: bool) -> None:
        """Limits, labels, title and legend of one diagram."""
        what = "top-label probability" if top_label else "probability of the class"
        panel.set(xlim=(-0.02, 1.02), ylim=(-0.02, 1.02), ylabel="Observed frequency")
        if top_label:
            panel.set_title(f"Top-label reliability ({self.curve.settings['strategy']} bins)")
        else:
            panel.set_title(short_label(self.curve.classes[k]), fontsize="medium")
        if hist_ax is None:
            panel.set_xlabel(f"Mean {what}")
        else:
            panel.set_xlabel("")
            hist_ax.set(xlabel=f"Mean {what}", ylabel="Rows")
            hist_ax.set_ylim(bottom=0.0)
        if top_label:
            place_legend(panel, "upper left", widen=widen)
        elif k == 0:  # (the classwise legend is the same in every panel: drawn once)
            _classwise_legend(panel)
