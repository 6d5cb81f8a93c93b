"""Cross-validated curves: each fold's curve, their pointwise min–max band on a common grid, and the mean curve.

The ``from_cv_results`` classmethods of :class:`RocCurveDisplay`,
:class:`PrecisionRecallDisplay`, :class:`TuningProfileDisplay` and
:class:`ReliabilityDisplay` compute one curve per fold with the Display's own
``from_predictions`` computation on that fold's held-out predictions, put
every fold's curve on one grid and return a :class:`CrossValidationDisplay`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from polyroc._validation import check_option
from polyroc.calibration import ReliabilityCurve
from polyroc.curves import OvrPrecisionRecallCurves, OvrRocCurves, macro_roc_curve
from polyroc.plotting._base import Display
from polyroc.plotting._common import (
    check_kwargs,
    class_colors,
    curve_kwargs_list,
    draw_chance_level,
    draw_steps,
    place_legend,
    with_name,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = [
    "CrossValidationDisplay",
    "FoldCurves",
    "polyline_on_grid",
    "precision_recall_folds",
    "reliability_folds",
    "roc_folds",
    "steps_on_grid",
]

#: Points of the common grid of the ROC, precision-recall and reliability bands.
GRID_POINTS = 201

#: How the fold curves of a group are drawn: a line, a line in steps (as ``drawstyle="steps-post"``), or
#: step patches of ``values`` between ``edges`` (``x`` holds the edges, one more than ``y``).
DrawStyle = Literal["line", "steps-post", "stairs"]


@dataclass
class FoldCurves:
    """One curve per fold, as drawn, and the same curves on a common grid.

    Attributes
    ----------
    label : str
        What the curves are (``"macro-average"``, ``"τ_0"`` ...), in the legend.
    x, y : list of ndarray
        Each fold's curve as drawn (for ``"stairs"``, ``x`` holds the edges).
    grid : ndarray of shape (G,)
        The common grid (for ``"stairs"``, the G edges of G - 1 cells).
    values : ndarray of shape (n_folds, G) or (n_folds, G - 1)
        Each fold's curve on the grid (NaN where the fold's curve does not reach).
    drawstyle : {"line", "steps-post", "stairs"}
        How the curves are drawn.
    """

    label: str
    x: list[np.ndarray]
    y: list[np.ndarray]
    grid: np.ndarray
    values: np.ndarray
    drawstyle: DrawStyle = "line"

    def band(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The pointwise minimum, mean and maximum over the folds, where every fold reaches (NaN elsewhere)."""
        reached = ~np.isnan(self.values).any(axis=0)
        lower, mean, upper = (np.full(self.values.shape[1], np.nan) for _ in range(3))
        lower[reached] = self.values[:, reached].min(axis=0)
        mean[reached] = self.values[:, reached].mean(axis=0)
        upper[reached] = self.values[:, reached].max(axis=0)
        return lower, mean, upper


def polyline_on_grid(x: np.ndarray, y: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """A curve through the points (x, y), x non-decreasing, read on ``grid``: linear between points.

    Where the curve is vertical (several points at one x) it takes the last
    point's y, the top of an ROC curve's jump; NaN outside [x[0], x[-1]].

    >>> polyline_on_grid(np.array([0.0, 0.0, 0.5, 1.0]), np.array([0.0, 0.4, 0.8, 1.0]), np.array([0.0, 0.25, 1.0]))
    array([0.4, 0.6, 1. ])
    >>> polyline_on_grid(np.array([0.2, 0.6]), np.array([0.1, 0.5]), np.array([0.0, 0.4]))
    array([nan, 0.3])
    """
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    last = np.searchsorted(x, grid, side="right") - 1
    inside = (grid >= x[0]) & (grid <= x[-1])
    left = np.clip(last, 0, x.size - 1)
    right = np.clip(left + 1, 0, x.size - 1)
    span = x[right] - x[left]
    share = np.divide(grid - x[left], span, out=np.zeros_like(grid), where=span > 0)
    values = y[left] + share * (y[right] - y[left])
    return np.where(inside, values, np.nan)


def steps_on_grid(edges: np.ndarray, values: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """A step function (``values`` between ``edges``) on the cells of ``grid`` (edges that refine its own).

    Each grid cell takes the value of the step holding its midpoint; NaN for
    cells outside [edges[0], edges[-1]].

    >>> steps_on_grid(np.array([0.0, 1.0, 2.0]), np.array([5.0, 7.0]), np.array([-1.0, 0.0, 0.5, 1.0, 2.0]))
    array([nan,  5.,  5.,  7.])
    """
    middle = (grid[:-1] + grid[1:]) / 2.0
    step = np.searchsorted(edges, middle, side="right") - 1
    inside = (middle >= edges[0]) & (middle <= edges[-1])
    return np.where(inside, values[np.clip(step, 0, values.size - 1)], np.nan)


class CrossValidationDisplay(Display):
    """Curves of each cross-validation fold, their pointwise min–max band and their mean.

    Made by the ``from_cv_results`` classmethods of :class:`RocCurveDisplay`,
    :class:`PrecisionRecallDisplay`, :class:`TuningProfileDisplay` and
    :class:`ReliabilityDisplay`. Each fold's curve is the one that Display's
    ``from_predictions`` draws on the fold's held-out predictions. The band
    spans, at each point of a common grid that every fold's curve reaches,
    the lowest and the highest fold curve (pointwise minimum and maximum, not
    a confidence band: with K folds it holds all of them), and the bold curve
    is their pointwise mean. The
    legend gives each fold's score as mean ± standard deviation over the
    folds (``ddof=0``, as scikit-learn's ``from_cv_results``), or one entry
    per fold when ``curve_kwargs`` is a list.

    Parameters
    ----------
    groups : list of FoldCurves
        One set of fold curves per group (one group, or one per class for the
        tuning profile).
    scores : ndarray of shape (n_folds,)
        Each fold's score (AUC, AP, ECE, metric at τ).
    kind : dict
        ``score`` (its name in the legend), ``xlabel``, ``ylabel``, ``title``,
        and optionally ``chance`` (``(x, y, label)`` of a chance line) and
        ``limits`` (``(xlim, ylim)``).
    fold_results : list
        The result object of each fold (e.g. its ``OvrRocCurves``).
    name : str, default=None
        Name of the model, in the legend and the title.

    Attributes
    ----------
    groups : list of FoldCurves
    scores : ndarray of shape (n_folds,)
    fold_results : list
    fold_lines_ : list of list of matplotlib artists
        Per group, each fold's line (a ``Line2D``, or a ``StepPatch`` for
        the tuning profile).
    bands_ : list of matplotlib.collections.PolyCollection or None
        Per group, the min–max band (None with ``plot_band=False``).
    mean_lines_ : list of matplotlib artists
        Per group, the mean curve.
    chance_level_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    RocCurveDisplay.from_cv_results : One-vs-rest ROC averages per fold.
    polyroc.thresholds.cross_validated_tuning : The spread of tuned thresholds over folds.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate
    >>> from polyroc.plotting import RocCurveDisplay
    >>> X, y = load_iris(return_X_y=True)
    >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
    ...                             return_estimator=True, return_indices=True)
    >>> disp = RocCurveDisplay.from_cv_results(cv_results, X, y)
    >>> type(disp).__name__, len(disp.fold_lines_[0]), disp.groups[0].values.shape
    ('CrossValidationDisplay', 3, (3, 201))
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(
        self,
        groups: list[FoldCurves],
        scores: np.ndarray,
        *,
        kind: dict[str, Any],
        fold_results: list[Any],
        name: str | None = None,
    ) -> None:
        self.groups = groups
        self.scores = np.asarray(scores, dtype=np.float64)
        self.kind = kind
        self.fold_results = fold_results
        self.name = name

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | Sequence[dict] | None = None,
        plot_band: bool = True,
        band_kwargs: dict | None = None,
        mean_kwargs: dict | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
    ) -> CrossValidationDisplay:
        """Draw each fold's curve, the min–max band and the mean curve.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model (default the Display's).
        curve_kwargs : dict or list of dict, default=None
            Passed to matplotlib for the fold curves: one dict for all (one
            legend entry, the score as mean ± sd), or one per fold (one legend
            entry per fold with its score), as scikit-learn's ``from_cv_results``.
        plot_band : bool, default=True
            Draw the pointwise min–max band of the folds.
        band_kwargs : dict, default=None
            Passed to ``Axes.fill_between`` for the band.
        mean_kwargs : dict, default=None
            Passed to matplotlib for the mean curve.
        plot_chance_level : bool, default=True
            Draw the chance line, where the curve has one (ROC diagonal,
            perfect calibration).
        chance_level_kw : dict, default=None
            Passed to ``Axes.plot`` for the chance line.

        Returns
        -------
        self

        Raises
        ------
        TypeError, ValueError
            A bad ``ax``, ``name`` or keyword dict, or a ``curve_kwargs`` list
            without one dict per fold.

        See Also
        --------
        RocCurveDisplay.from_cv_results : Build and draw in one call.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> from polyroc.plotting import RocCurveDisplay
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                             return_estimator=True, return_indices=True)
        >>> disp = RocCurveDisplay.from_cv_results(cv_results, X, y, curve_kwargs=[{"alpha": 0.5}] * 3)
        >>> [text.get_text()[:6] for text in disp.ax_.get_legend().get_texts()][:3]
        ['fold 0', 'fold 1', 'fold 2']
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        n_folds = self.scores.size
        per_fold = curve_kwargs is not None and not isinstance(curve_kwargs, dict)
        styles = curve_kwargs_list(curve_kwargs, n_folds)
        band_style, mean_style = check_kwargs("band_kwargs", band_kwargs), check_kwargs("mean_kwargs", mean_kwargs)
        made_figure = ax is None
        ax = self._start(ax, name)
        single = len(self.groups) == 1
        colors = ["#1f77b4"] if single else class_colors(len(self.groups))
        self.fold_lines_, self.bands_, self.mean_lines_ = [], [], []
        for group, color in zip(self.groups, colors):
            self.fold_lines_.append(self._draw_folds(ax, group, color, styles, per_fold and group is self.groups[0]))
            lower, mean, upper = group.band()
            grid = group.grid
            stairs = group.drawstyle == "stairs"
            if stairs:  # a value per cell: repeated at the last edge, drawn in steps
                lower, mean, upper = (np.append(values, values[-1:]) for values in (lower, mean, upper))
            prefix = "" if single else f"{group.label}: "
            band = None
            if plot_band:
                alpha = 0.2 if single else 0.1
                style = {"color": color, "alpha": alpha, "linewidth": 0, "label": f"{prefix}fold min–max", **band_style}
                band = ax.fill_between(grid, lower, upper, step="post" if stairs else None, **style)
            self.bands_.append(band)
            label = f"{prefix}mean of {n_folds} folds" if not single else f"mean of {n_folds} folds ({group.label})"
            style = {"color": "black" if single else color, "linewidth": 2, "label": label, **mean_style}
            if stairs:
                style.pop("label")
                self.mean_lines_.append(draw_steps(ax, mean[:-1], grid, label=label, **style))
            else:
                (line,) = ax.plot(grid, mean, **style)
                self.mean_lines_.append(line)
        if self.kind.get("vline") is not None:
            ax.axvline(self.kind["vline"], color="black", linestyle=":", linewidth=1)
        self.chance_level_ = None
        chance = self.kind.get("chance")
        if plot_chance_level and chance is not None:
            self.chance_level_ = draw_chance_level(ax, chance[0], chance[1], chance[2], chance_level_kw)
        xlim, ylim = self.kind.get("limits", (None, None))
        ax.set(xlabel=self.kind["xlabel"], ylabel=self.kind["ylabel"])
        if xlim is not None:
            ax.set(xlim=xlim, ylim=ylim)
        title = f"{self.kind['title']} ({n_folds} folds)"
        ax.set_title(f"{self.name}: {title}" if self.name else title[0].upper() + title[1:])
        place_legend(ax, self.kind.get("legend", "best"), widen=made_figure)
        return self

    def _draw_folds(
        self, ax: Any, group: FoldCurves, color: str, styles: list[dict[str, Any]], per_fold: bool
    ) -> list[Any]:
        """The fold curves of ``group``: thin, translucent, one legend entry (or one per fold)."""
        score = self.kind["score"]
        summary = f"{score} = {np.nanmean(self.scores):.3f} ± {np.nanstd(self.scores):.3f}"
        lines = []
        for k, (x, y) in enumerate(zip(group.x, group.y)):
            label: str | None
            if per_fold:
                label = f"fold {k} ({score} = {self.scores[k]:.3f})"
            else:
                label = with_name(self.name, f"folds ({summary})") if k == 0 and group is self.groups[0] else None
            style: dict[str, Any] = {"color": color, "alpha": 0.45, "linewidth": 1, **styles[k]}
            if label is not None:
                style.setdefault("label", label)
            if group.drawstyle == "stairs":
                lines.append(draw_steps(ax, y, x, **style))
            else:
                if group.drawstyle == "steps-post":
                    style = {"drawstyle": "steps-post", **style}
                (line,) = ax.plot(x, y, **style)
                lines.append(line)
        return lines


def roc_folds(results: list[OvrRocCurves], average: str) -> tuple[list[FoldCurves], np.ndarray, dict[str, Any]]:
    """Each fold's micro- or macro-average ROC curve (as :class:`RocCurveDisplay` draws it) on an FPR grid."""
    average = check_option("average", average, ("macro", "micro"))
    x: list[np.ndarray] = []
    y: list[np.ndarray] = []
    scores = []
    for curves in results:
        if average == "macro":
            fpr, tpr, auc = macro_roc_curve(curves)
        else:  # (ovr_roc_curve computes the micro average by default)
            fpr, tpr, auc = np.asarray(curves.micro_fpr), np.asarray(curves.micro_tpr), curves.micro_auc
        x.append(fpr)
        y.append(tpr)
        scores.append(auc)
    grid = np.linspace(0.0, 1.0, GRID_POINTS)
    values = np.array([polyline_on_grid(fpr, tpr, grid) for fpr, tpr in zip(x, y)])
    kind = {
        "score": f"{average} AUC",
        "xlabel": "False positive rate",
        "ylabel": "True positive rate",
        "title": f"{average}-average ROC",
        "chance": ([0, 1], [0, 1], "chance (AUC = 0.5)"),
        "limits": ((-0.01, 1.01), (-0.01, 1.01)),
        "legend": "lower right",
    }
    return [FoldCurves(f"{average}-average", x, y, grid, values)], np.array(scores), kind


def precision_at_recall(recall: np.ndarray, precision: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """The step function of average precision read on a recall ``grid``.

    At recall r it is the precision of the point with the smallest recall
    >= r (the largest precision among points of that recall), the height of
    the step whose area average precision sums. ``recall`` may come in either
    order.

    >>> precision_at_recall(np.array([1.0, 0.5, 0.5, 0.0]), np.array([0.5, 0.6, 1.0, 1.0]),
    ...                     np.array([0.0, 0.25, 0.5, 0.75]))
    array([1. , 1. , 1. , 0.5])
    """
    order = np.lexsort((-precision, recall))
    recall, precision = recall[order], precision[order]
    first = np.searchsorted(recall, grid, side="left")
    return precision[np.clip(first, 0, recall.size - 1)]


def precision_recall_folds(
    results: list[OvrPrecisionRecallCurves],
) -> tuple[list[FoldCurves], np.ndarray, dict[str, Any]]:
    """Each fold's micro-average precision-recall curve (as :class:`PrecisionRecallDisplay` draws it)."""
    x = [curves.micro_recall for curves in results]
    y = [curves.micro_precision for curves in results]
    grid = np.linspace(0.0, 1.0, GRID_POINTS)
    values = np.array([precision_at_recall(recall, precision, grid) for recall, precision in zip(x, y)])
    scores = np.array([curves.micro_average_precision for curves in results])
    kind = {
        "score": "micro AP",
        "xlabel": "Recall",
        "ylabel": "Precision",
        "title": "micro-average precision-recall",
        "limits": ((-0.01, 1.01), (-0.01, 1.01)),
        "legend": "lower left",
    }
    return [FoldCurves("micro-average", x, y, grid, values, "steps-post")], scores, kind


def reliability_folds(results: list[ReliabilityCurve]) -> tuple[list[FoldCurves], np.ndarray, dict[str, Any]]:
    """Each fold's top-label reliability curve (its non-empty bins, as :class:`ReliabilityDisplay` draws them)."""
    x, y = [], []
    for curve in results:
        shown = curve.count[0] > 0
        x.append(curve.mean_score[0, shown])
        y.append(curve.observed[0, shown])
    grid = np.linspace(0.0, 1.0, GRID_POINTS)
    values = np.array([polyline_on_grid(mean, observed, grid) for mean, observed in zip(x, y)])
    strategy = results[0].settings["strategy"]
    kind = {
        "score": "ECE",
        "xlabel": "Mean top-label probability",
        "ylabel": "Observed frequency",
        "title": f"top-label reliability, {strategy} bins",
        "chance": ([0, 1], [0, 1], "perfect calibration"),
        "limits": ((-0.02, 1.02), (-0.02, 1.02)),
        "legend": "upper left",
    }
    return [FoldCurves("top label", x, y, grid, values)], np.array([c.calibration_error for c in results]), kind
