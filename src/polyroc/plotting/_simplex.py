"""Displays on the 3-class simplex: the tuning score surface and the decision regions."""

from __future__ import annotations

import numpy as np

from polyroc._validation import check_scores, check_thresholds
from polyroc.plotting._common import (
    check_three_classes,
    class_color,
    draw_triangle,
    new_axes,
    simplex_to_cartesian,
)
from polyroc.thresholds.tuning import tune_thresholds

__all__ = ["DecisionRegionsDisplay", "SimplexHeatmapDisplay"]

BARYCENTRE = np.full(3, 1.0 / 3.0)


def _n_columns(y_score):
    """Number of score columns, read before any expensive work (validation comes later)."""
    shape = np.shape(y_score)
    return shape[1] if len(shape) == 2 else None


class SimplexHeatmapDisplay:
    """The tuning score over the simplex of thresholds τ (3 classes).

    Each sampled τ is placed at its barycentric position (class 0 at (0, 0),
    class 1 at (1, 0), class 2 at (0.5, √3/2); see
    :func:`~polyroc.plotting.simplex_to_cartesian`), the points are joined by
    a Delaunay triangulation and coloured by the metric with ``tripcolor``.
    The barycentre (plain argmax) is marked with a white circle and the tuned
    τ* with a star. A vertex is where τ_k = 1, i.e. where class k is hardest to
    predict.

    Parameters
    ----------
    thresholds : array-like of shape (M, 3)
        The sampled thresholds (``TuningResult.thresholds``).
    scores : array-like of shape (M,)
        Their metric values (``TuningResult.scores``); NaN values leave holes.
    best_threshold : array-like of shape (3,)
        τ*, marked with a star.
    metric : str, default="score"
        Label of the colour bar.
    classes : array-like of shape (3,), default=None
        Vertex labels; default 0, 1, 2.

    Attributes
    ----------
    triangulation_ : matplotlib.tri.Triangulation
        One vertex per sampled threshold, in the order of ``thresholds``.
    collection_ : matplotlib.collections.Collection
        The ``tripcolor`` mesh; with the default Gouraud shading its array is
        ``scores`` (the value at each vertex).
    best_marker_, argmax_marker_ : matplotlib.lines.Line2D
    colorbar_ : matplotlib.colorbar.Colorbar or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> from polyroc.thresholds import tune_thresholds
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> P = [[.5, .4, .1], [.4, .45, .15], [.3, .6, .1],
    ...      [.2, .5, .3], [.3, .2, .5], [.2, .45, .35]]
    >>> result = tune_thresholds(y, P, resolution=20, return_surface=True)
    >>> disp = SimplexHeatmapDisplay.from_result(result)
    >>> disp.triangulation_.x.size == result.thresholds.shape[0]
    True
    >>> disp.best_marker_.get_xydata().round(3).tolist()
    [[0.525, 0.217]]
    >>> disp.colorbar_.ax.get_ylabel()
    'accuracy'
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, thresholds, scores, best_threshold, *, metric="score", classes=None):
        self.thresholds = np.asarray(thresholds, dtype=np.float64)
        self.scores = np.asarray(scores, dtype=np.float64)
        self.best_threshold = np.asarray(best_threshold, dtype=np.float64)
        check_three_classes(type(self).__name__, self.thresholds.shape[-1])
        if self.thresholds.ndim != 2 or self.scores.shape != self.thresholds.shape[:1]:
            raise ValueError(
                f"thresholds must have shape (M, 3) and scores shape (M,), got {self.thresholds.shape} "
                f"and {self.scores.shape}"
            )
        self.metric = metric
        self.classes = np.arange(3) if classes is None else np.asarray(classes)

    @classmethod
    def from_result(cls, result, **plot_kw):
        """Plot the surface of a ``TuningResult`` tuned with ``return_surface=True``.

        Raises
        ------
        ValueError
            If the result has no surface, or not 3 classes.
        """
        check_three_classes(cls.__name__, result.classes.size)
        if result.thresholds is None:
            raise ValueError(
                "this TuningResult has no score surface; tune with return_surface=True "
                "(tune_thresholds(..., return_surface=True))"
            )
        display = cls(result.thresholds, result.scores, result.best_threshold,
                      metric=result.metric, classes=result.classes)
        return display.plot(**plot_kw)

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, metric="accuracy", search="lattice", resolution=None, n_samples=None,
        domain="simplex", labels=None, sample_weight=None, random_state=None, **plot_kw,
    ):
        """Tune with :func:`polyroc.thresholds.tune_thresholds` (keeping the surface) and plot.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, 3)
            Probability scores, columns in the class order.
        metric, search, resolution, n_samples, domain, labels, sample_weight, random_state
            As :func:`polyroc.thresholds.tune_thresholds`.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        SimplexHeatmapDisplay

        Raises
        ------
        ValueError
            If ``y_score`` does not have 3 columns (checked before tuning), or
            as :func:`polyroc.thresholds.tune_thresholds`.
        """
        if _n_columns(y_score) is not None:
            check_three_classes(cls.__name__, _n_columns(y_score))
        result = tune_thresholds(
            y_true, y_score, metric=metric, search=search, resolution=resolution, n_samples=n_samples,
            domain=domain, labels=labels, sample_weight=sample_weight, random_state=random_state,
            return_surface=True,
        )
        return cls.from_result(result, **plot_kw)

    def plot(self, ax=None, *, cmap="viridis", shading="gouraud", colorbar=True):
        """Draw the surface and the markers.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        cmap : str or matplotlib.colors.Colormap, default="viridis"
        shading : {"gouraud", "flat"}, default="gouraud"
            ``"gouraud"`` interpolates between the sampled values (the mesh
            holds one value per threshold); ``"flat"`` colours each triangle
            with the mean of its three vertices.
        colorbar : bool, default=True
            Add a colour bar labelled with the metric.

        Returns
        -------
        self
        """
        from matplotlib.tri import Triangulation

        ax = new_axes(ax, figsize=(5.8, 4.6), layout="constrained")
        points = simplex_to_cartesian(self.thresholds)
        self.triangulation_ = Triangulation(points[:, 0], points[:, 1])
        missing = np.isnan(self.scores)
        if missing.any():
            self.triangulation_.set_mask(missing[self.triangulation_.triangles].any(axis=1))
        values = np.where(missing, np.nanmin(self.scores), self.scores)
        self.collection_ = ax.tripcolor(self.triangulation_, values, cmap=cmap, shading=shading)
        draw_triangle(ax, self.classes)
        (self.argmax_marker_,) = ax.plot(
            *simplex_to_cartesian(BARYCENTRE), linestyle="none", marker="o", markersize=8,
            markerfacecolor="white", markeredgecolor="black", label="argmax (barycentre)",
        )
        (self.best_marker_,) = ax.plot(
            *simplex_to_cartesian(self.best_threshold), linestyle="none", marker="*", markersize=15,
            markerfacecolor="red", markeredgecolor="black", label="best τ*",
        )
        self.colorbar_ = None
        if colorbar:
            self.colorbar_ = ax.figure.colorbar(self.collection_, ax=ax, label=self.metric, shrink=0.8)
        ax.set_title(f"{self.metric} over the threshold simplex", pad=18)
        ax.legend(loc="upper left", fontsize="small")
        self.ax_, self.figure_ = ax, ax.figure
        return self


def _clip(polygon, normal, offset):
    """Part of a convex polygon (vertices in p-space) where ``polygon @ normal >= offset``."""
    values = polygon @ normal - offset
    kept = []
    for start, end, start_value, end_value in zip(
        polygon, np.roll(polygon, -1, axis=0), values, np.roll(values, -1)
    ):
        if start_value >= 0:
            kept.append(start)
        if (start_value >= 0) != (end_value >= 0):
            kept.append(start + (end - start) * start_value / (start_value - end_value))
    return np.array(kept).reshape(-1, 3)


def decision_region(threshold, k):
    """Vertices (p-space, shape (V, 3)) of {p in the simplex : p_k − τ_k >= p_j − τ_j for all j}.

    The region of class k of the rule argmax(p − τ) is the triangle cut by
    two half-planes, a convex polygon (empty: shape (0, 3)).

    Examples
    --------
    >>> decision_region(np.full(3, 1 / 3), 0).round(3).tolist()
    [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.333, 0.333, 0.333], [0.5, 0.0, 0.5]]
    """
    polygon = np.eye(3)
    for j in range(3):
        if j != k:
            normal = np.zeros(3)
            normal[k], normal[j] = 1.0, -1.0
            polygon = _clip(polygon, normal, threshold[k] - threshold[j])
    return polygon


class DecisionRegionsDisplay:
    """Regions of the rule argmax(p − τ) on the 3-class probability simplex, with the samples.

    The simplex of score vectors p is drawn in barycentric coordinates (class 0
    at (0, 0), class 1 at (1, 0), class 2 at (0.5, √3/2)). Region k, where
    the rule predicts class k, is filled with class k's colour; it is the exact
    convex polygon {p : p_k − τ_k >= p_j − τ_j}, not a rasterised grid. The
    three regions meet at p = τ (marked with a star) when τ is on the simplex;
    τ = barycentre gives plain argmax (the paper's Figs. 1–2). The samples are
    scattered at their scores, coloured by their true class.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, 3)
        Probability scores.
    y_true : array-like of shape (n_samples,) of class indices 0, 1, 2, or None
        Encoded true classes (None: no samples are drawn).
    threshold : array-like of shape (3,)
        τ.
    classes : array-like of shape (3,), default=None
        Class labels for the legend and the vertices; default 0, 1, 2.

    Attributes
    ----------
    regions_ : list of matplotlib.patches.Polygon or None
        The filled region of each class (None if empty).
    scatters_ : list of matplotlib.collections.PathCollection
        The samples of each true class (empty without ``y_true``).
    threshold_marker_ : matplotlib.lines.Line2D
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> y = ["a", "b", "c", "b"]
    >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]]
    >>> disp = DecisionRegionsDisplay.from_predictions(y, P, threshold=[.4, .3, .3])
    >>> [len(region.get_xy()) for region in disp.regions_]
    [5, 5, 5]
    >>> disp.scatters_[1].get_offsets().shape
    (2, 2)
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, y_score, y_true, threshold, *, classes=None):
        self.y_score = np.asarray(y_score, dtype=np.float64)
        check_three_classes(type(self).__name__, self.y_score.shape[-1])
        self.y_true = None if y_true is None else np.asarray(y_true)
        self.threshold = check_thresholds(threshold, 3)
        self.classes = np.arange(3) if classes is None else np.asarray(classes)

    @classmethod
    def from_predictions(cls, y_true, y_score, *, threshold=None, labels=None, **plot_kw):
        """Draw the regions of ``threshold`` (default: plain argmax) and the labelled samples.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, 3)
            Probability scores, columns in the class order.
        threshold : array-like of shape (3,), default=None
            τ; default the barycentre (plain argmax).
        labels : array-like of shape (3,), default=None
            Class order; default the sorted labels of ``y_true``.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        DecisionRegionsDisplay

        Raises
        ------
        ValueError
            Not 3 classes; invalid scores, labels or threshold.
        """
        if _n_columns(y_score) is not None:
            check_three_classes(cls.__name__, _n_columns(y_score))
        targets = check_scores(y_true, y_score, labels=labels)
        threshold = BARYCENTRE if threshold is None else threshold
        return cls(targets.y_score, targets.y_true, threshold, classes=targets.classes).plot(**plot_kw)

    @classmethod
    def from_result(cls, result, y_true, y_score, **plot_kw):
        """Draw the regions of a ``TuningResult``'s τ* with labelled samples (e.g. test data)."""
        check_three_classes(cls.__name__, result.classes.size)
        return cls.from_predictions(
            y_true, y_score, threshold=result.best_threshold, labels=result.classes, **plot_kw
        )

    def plot(self, ax=None, *, region_alpha=0.25, scatter_kw=None):
        """Draw the regions, the samples and τ.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        region_alpha : float, default=0.25
            Opacity of the region fills.
        scatter_kw : dict, default=None
            Passed to ``Axes.scatter`` (defaults: ``s=18``, black edges).

        Returns
        -------
        self
        """
        ax = new_axes(ax, figsize=(6.8, 4.6), layout="constrained")
        self.regions_ = []
        for k, label in enumerate(self.classes):
            vertices = decision_region(self.threshold, k)
            region = None
            if len(vertices) >= 3:
                (region,) = ax.fill(
                    *simplex_to_cartesian(vertices).T, color=class_color(k), alpha=region_alpha,
                    linewidth=0, label=f"predicted {label}",
                )
            self.regions_.append(region)
        scatter_kw = {"s": 18, "edgecolors": "black", "linewidths": 0.4, **(scatter_kw or {})}
        self.scatters_ = []
        if self.y_true is not None:
            points = simplex_to_cartesian(self.y_score)
            for k, label in enumerate(self.classes):
                mine = points[self.y_true == k]
                self.scatters_.append(
                    ax.scatter(mine[:, 0], mine[:, 1], color=class_color(k), label=f"true {label}", **scatter_kw)
                )
        tau = ", ".join(f"{value:.3g}" for value in self.threshold)
        (self.threshold_marker_,) = ax.plot(
            *simplex_to_cartesian(self.threshold), linestyle="none", marker="*", markersize=15,
            markerfacecolor="white", markeredgecolor="black", label=f"τ = ({tau})",
        )
        draw_triangle(ax, self.classes)
        ax.set_title("Decision regions of argmax(p − τ)", pad=18)
        ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
        self.ax_, self.figure_ = ax, ax.figure
        return self
