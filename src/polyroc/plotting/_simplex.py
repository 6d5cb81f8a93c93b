"""Displays on the 3-class simplex: the tuning score surface and the decision regions."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from polyroc._validation import check_scores, check_thresholds
from polyroc.plotting._base import Display
from polyroc.plotting._common import (
    check_kwargs,
    check_three_classes,
    class_colors,
    draw_triangle,
    n_score_columns,
    simplex_to_cartesian,
)
from polyroc.thresholds.tuning import TuningResult, tune_thresholds

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.colors import Colormap
    from matplotlib.lines import Line2D

__all__ = ["DecisionRegionsDisplay", "SimplexHeatmapDisplay", "decision_region"]

BARYCENTRE = np.full(3, 1.0 / 3.0)

#: Keys of ``legend_kw`` that place the legend; any of them replaces the default placement (``PLACEMENT_DEFAULTS``).
PLACEMENT = frozenset({"loc", "bbox_to_anchor", "bbox_transform"})
PLACEMENT_DEFAULTS = frozenset({"loc", "bbox_to_anchor", "bbox_transform", "ncols"})

#: Gap (points) between the labels of the base vertices and the heat map's legend below them.
LEGEND_GAP = 3.0


def _draw_legend(ax: Any, default: dict[str, Any], legend_kw: dict[str, Any]) -> Any:
    """``ax.legend`` with the default placement and ``legend_kw`` on top; a placement in ``legend_kw`` replaces it."""
    if PLACEMENT.intersection(legend_kw):
        default = {key: value for key, value in default.items() if key not in PLACEMENT_DEFAULTS}
    return ax.legend(**{**default, **legend_kw})


class SimplexHeatmapDisplay(Display):
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
    name : str, default=None
        Name of the model, in the title.

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

    Raises
    ------
    ValueError
        Not 3 classes, or ``thresholds`` and ``scores`` of mismatched shapes.

    See Also
    --------
    polyroc.thresholds.tune_thresholds : Tunes τ and, with ``return_surface=True``, keeps the surface.
    DecisionRegionsDisplay : The regions of one τ on the same simplex.
    TuningProfileDisplay : The score around τ*, for any number of classes.
    simplex_to_cartesian : Where each τ is placed.

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
    'f1_macro'
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    # artists drawn by plot
    argmax_marker_: Line2D
    best_marker_: Line2D

    result_type = TuningResult

    def __init__(
        self,
        thresholds: ArrayLike,
        scores: ArrayLike,
        best_threshold: ArrayLike,
        *,
        metric: str = "score",
        classes: ArrayLike | None = None,
        name: str | None = None,
    ) -> None:
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
        self.name = name

    @classmethod
    def from_result(
        cls, result: TuningResult, *, ax: Axes | None = None, name: str | None = None, **kwargs: Any
    ) -> SimplexHeatmapDisplay:
        """Plot the surface of a ``TuningResult`` tuned with ``return_surface=True``.

        Parameters
        ----------
        result : TuningResult
            From ``tune_thresholds(..., return_surface=True)`` on 3 classes.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        SimplexHeatmapDisplay

        Raises
        ------
        TypeError
            If ``result`` is not a TuningResult.
        ValueError
            If the result has no surface, or not 3 classes.

        See Also
        --------
        polyroc.thresholds.tune_thresholds : Makes the result (``return_surface=True``).
        SimplexHeatmapDisplay.from_predictions : Tune and draw in one call.

        Examples
        --------
        >>> from polyroc.thresholds import tune_thresholds
        >>> y, P = [0, 1, 2, 0], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4], [.4, .4, .2]]
        >>> result = tune_thresholds(y, P, resolution=6, return_surface=True)
        >>> disp = SimplexHeatmapDisplay.from_result(result, name="model", colorbar=False)
        >>> disp.ax_.get_title(), disp.triangulation_.x.size
        ('model: f1_macro over the threshold simplex', 28)
        >>> SimplexHeatmapDisplay.from_result(tune_thresholds(y, P, resolution=6))  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: this TuningResult has no score surface; tune with return_surface=True ...
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        cls._check_result(result)
        check_three_classes(cls.__name__, result.classes.size)
        if result.thresholds is None or result.scores is None:
            raise ValueError(
                "this TuningResult has no score surface; tune with return_surface=True "
                "(tune_thresholds(..., return_surface=True))"
            )
        display = cls(
            result.thresholds, result.scores, result.best_threshold, metric=result.metric, classes=result.classes
        )
        return display.plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        metric: str | Callable[[NDArray], NDArray] = "f1_macro",
        search: str = "lattice",
        resolution: int | None = None,
        n_samples: int | None = None,
        domain: str = "simplex",
        tie_break: str = "closest",
        random_state: int | np.random.Generator | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> SimplexHeatmapDisplay:
        """Tune with :func:`polyroc.thresholds.tune_thresholds` (keeping the surface) and plot.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, 3)
            Probability scores, columns in the class order.
        labels, sample_weight, metric, search, resolution, n_samples, domain, tie_break, random_state
            As :func:`polyroc.thresholds.tune_thresholds`.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        SimplexHeatmapDisplay

        Raises
        ------
        ValueError
            If ``y_score`` does not have 3 columns (checked before tuning), or
            as :func:`polyroc.thresholds.tune_thresholds`.

        See Also
        --------
        polyroc.thresholds.tune_thresholds : The tuning.
        SimplexHeatmapDisplay.from_result : Draw a result already tuned.

        Examples
        --------
        >>> y, P = [0, 1, 2, 0], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4], [.4, .4, .2]]
        >>> disp = SimplexHeatmapDisplay.from_predictions(y, P, resolution=6, colorbar=False)
        >>> disp.triangulation_.x.size  # the lattice of resolution 6: (6 + 1)(6 + 2) / 2 points
        28
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        check_three_classes(cls.__name__, n_score_columns(y_score))
        result = tune_thresholds(
            y_true,
            y_score,
            metric=metric,
            search=search,
            resolution=resolution,
            n_samples=n_samples,
            domain=domain,
            labels=labels,
            sample_weight=sample_weight,
            tie_break=tie_break,
            random_state=random_state,
            return_surface=True,
        )
        return cls.from_result(result, ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        cmap: str | Colormap = "viridis",
        shading: Literal["gouraud", "flat"] = "gouraud",
        colorbar: bool = True,
        legend_kw: dict | None = None,
    ) -> SimplexHeatmapDisplay:
        """Draw the surface and the markers.

        The legend of the two markers goes below the Axes box and the labels
        of the two base vertices, so that it covers neither the surface, the
        markers nor the vertex labels; a constrained layout (the default
        figure's) keeps it in the figure.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        cmap : str or matplotlib.colors.Colormap, default="viridis"
            Colormap of the surface.
        shading : {"gouraud", "flat"}, default="gouraud"
            ``"gouraud"`` interpolates between the sampled values (the mesh
            holds one value per threshold); ``"flat"`` colours each triangle
            with the mean of its three vertices.
        colorbar : bool, default=True
            Add a colour bar labelled with the metric.
        legend_kw : dict, default=None
            Passed to ``Axes.legend`` (defaults: ``fontsize="small"``, two
            columns below the triangle). A ``loc``, ``bbox_to_anchor`` or
            ``bbox_transform`` in it replaces the default placement (and its
            two columns), e.g. ``legend_kw={"loc": "upper left"}`` puts the
            legend in that corner of the Axes.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax`` or ``name``, or a ``legend_kw`` that is not a dict
            (matplotlib's TypeError for an unknown legend keyword).
        ValueError
            A ``shading`` or ``cmap`` that matplotlib rejects.

        See Also
        --------
        SimplexHeatmapDisplay.from_result : Build the Display from a tuning result and draw it.
        simplex_to_cartesian : Where each threshold is placed.

        Examples
        --------
        >>> disp = SimplexHeatmapDisplay([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [0.2, 0.5, 0.9], [0, 0, 1],
        ...                              metric="accuracy").plot(colorbar=False, shading="flat")
        >>> disp.best_marker_.get_xydata().round(3).tolist()
        [[0.5, 0.866]]
        >>> disp.figure_.canvas.draw()  # the legend lies below the Axes box
        >>> bool(disp.ax_.get_legend().get_window_extent().y1 < disp.ax_.get_window_extent().y0)
        True
        >>> disp = disp.plot(colorbar=False, legend_kw={"loc": "upper right", "fontsize": 7})
        >>> disp.figure_.canvas.draw()  # now inside the Axes, in its upper right corner
        >>> legend, box = disp.ax_.get_legend().get_window_extent(), disp.ax_.get_window_extent()
        >>> bool(box.x1 - 10 < legend.x1 <= box.x1 and box.y1 - 10 < legend.y1 <= box.y1)
        True
        >>> disp.ax_.get_legend().get_texts()[0].get_fontsize()
        7.0
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        from matplotlib.transforms import ScaledTranslation
        from matplotlib.tri import Triangulation

        legend_kw = check_kwargs("legend_kw", legend_kw)
        ax = self._start(ax, name, figsize=(5.8, 4.6), layout="constrained")
        points = simplex_to_cartesian(self.thresholds)
        self.triangulation_ = Triangulation(points[:, 0], points[:, 1])
        missing = np.isnan(self.scores)
        if missing.any():
            self.triangulation_.set_mask(missing[self.triangulation_.triangles].any(axis=1))
        values = np.where(missing, np.nanmin(self.scores), self.scores)
        self.collection_ = ax.tripcolor(self.triangulation_, values, cmap=cmap, shading=shading)
        labels = draw_triangle(ax, self.classes)
        (self.argmax_marker_,) = ax.plot(
            *simplex_to_cartesian(BARYCENTRE),
            linestyle="none",
            marker="o",
            markersize=8,
            markerfacecolor="white",
            markeredgecolor="black",
            label="argmax (barycentre)",
        )
        (self.best_marker_,) = ax.plot(
            *simplex_to_cartesian(self.best_threshold),
            linestyle="none",
            marker="*",
            markersize=15,
            markerfacecolor="red",
            markeredgecolor="black",
            label="best τ*",
        )
        self.colorbar_ = None
        if colorbar:
            self.colorbar_ = ax.figure.colorbar(self.collection_, ax=ax, label=self.metric, shrink=0.8)
        title = f"{self.metric} over the threshold simplex"
        ax.set_title(f"{self.name}: {title}" if self.name else title, pad=18)
        # below the Axes box, clear of the base vertices' labels (which stick out of the box by about their height)
        label_height = max(1.2 * text.get_fontsize() * (1 + text.get_text().count("\n")) for text in labels[:2])
        below = ax.transAxes + ScaledTranslation(0.0, -(label_height + LEGEND_GAP) / 72.0, ax.figure.dpi_scale_trans)
        default = {"loc": "upper center", "bbox_to_anchor": (0.5, 0.0), "bbox_transform": below, "ncols": 2}
        _draw_legend(ax, {**default, "fontsize": "small"}, legend_kw)
        return self


def _clip(polygon: np.ndarray, normal: np.ndarray, offset: float) -> np.ndarray:
    """Part of a convex polygon (vertices in p-space) where ``polygon @ normal >= offset``."""
    values = polygon @ normal - offset
    kept = []
    for start, end, start_value, end_value in zip(polygon, np.roll(polygon, -1, axis=0), values, np.roll(values, -1)):
        if start_value >= 0:
            kept.append(start)
        if (start_value >= 0) != (end_value >= 0):
            kept.append(start + (end - start) * start_value / (start_value - end_value))
    return np.array(kept).reshape(-1, 3)


def decision_region(threshold: ArrayLike, k: int) -> np.ndarray:
    """Vertices (p-space, shape (V, 3)) of {p in the simplex : p_k − τ_k >= p_j − τ_j for all j}.

    The region of class k of the rule argmax(p − τ) is the triangle cut by
    two half-planes, a convex polygon.

    Parameters
    ----------
    threshold : array-like of shape (3,)
        τ (any finite values; only differences matter).
    k : int
        The class, 0, 1 or 2.

    Returns
    -------
    ndarray of shape (V, 3)
        The polygon's vertices in order (shape (0, 3) when the region is empty).

    Raises
    ------
    ValueError
        If ``threshold`` is not 3 finite values or ``k`` is not 0, 1 or 2.

    See Also
    --------
    DecisionRegionsDisplay : Draws these regions.
    simplex_to_cartesian : Maps the vertices to the plane.
    polyroc.thresholds.apply_thresholds : The rule argmax(p − τ) applied to scores.

    Examples
    --------
    >>> decision_region(np.full(3, 1 / 3), 0).round(3).tolist()
    [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.333, 0.333, 0.333], [0.5, 0.0, 0.5]]
    """
    tau: np.ndarray = check_thresholds(threshold, 3)
    if k not in (0, 1, 2):
        raise ValueError(f"k must be a class index 0, 1 or 2, got {k!r}")
    polygon = np.eye(3)
    for j in range(3):
        if j != k:
            normal = np.zeros(3)
            normal[k], normal[j] = 1.0, -1.0
            polygon = _clip(polygon, normal, tau[k] - tau[j])
    return polygon


class DecisionRegionsDisplay(Display):
    """Regions of the rule argmax(p − τ) on the 3-class probability simplex, with the samples.

    The simplex of score vectors p is drawn in barycentric coordinates (class 0
    at (0, 0), class 1 at (1, 0), class 2 at (0.5, √3/2)). Region k, where
    the rule predicts class k, is filled with class k's colour; it is the exact
    convex polygon {p : p_k − τ_k >= p_j − τ_j}, not a rasterised grid. The
    three regions meet at p = τ (marked with a star) when τ is on the simplex;
    τ = barycentre gives plain argmax (Figs. 1–2 of Legnaro, Guastavino &
    Marchetti (2025), arXiv:2511.21794). The samples are scattered at their
    scores, coloured by their true class, with marker areas proportional to
    their weights.

    Parameters
    ----------
    threshold : array-like of shape (3,)
        τ.
    y_score : array-like of shape (n_samples, 3), default=None
        Probability scores of the samples to draw (None: no samples).
    y_true : array-like of shape (n_samples,) of class indices 0, 1, 2, default=None
        Encoded true classes of the samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the samples (marker area relative to the mean weight).
    classes : array-like of shape (3,), default=None
        Class labels for the legend and the vertices; default 0, 1, 2.
    name : str, default=None
        Name of the model, in the title.

    Attributes
    ----------
    regions_ : list of matplotlib.patches.Polygon or None
        The filled region of each class (None if empty).
    scatters_ : list of matplotlib.collections.PathCollection
        The samples of each true class (empty without samples).
    threshold_marker_ : matplotlib.lines.Line2D
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Raises
    ------
    ValueError
        Not 3 classes; an invalid threshold; ``y_true`` without ``y_score``.

    See Also
    --------
    decision_region : The polygon of each region.
    polyroc.thresholds.tune_thresholds : Tunes the τ whose regions :meth:`from_result` draws.
    SimplexHeatmapDisplay : The tuning score over the same simplex.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.

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

    # artists drawn by plot
    threshold_marker_: Line2D

    result_type = TuningResult

    def __init__(
        self,
        threshold: ArrayLike,
        *,
        y_score: ArrayLike | None = None,
        y_true: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        classes: ArrayLike | None = None,
        name: str | None = None,
    ) -> None:
        self.threshold = check_thresholds(threshold, 3)
        if (y_score is None) != (y_true is None):
            raise ValueError("pass both y_true and y_score to draw the samples, or neither")
        self.y_score = None if y_score is None else np.asarray(y_score, dtype=np.float64)
        if self.y_score is not None:
            check_three_classes(type(self).__name__, self.y_score.shape[-1])
        self.y_true = None if y_true is None else np.asarray(y_true)
        self.sample_weight = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        self.classes = np.arange(3) if classes is None else np.asarray(classes)
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        threshold: ArrayLike | None = None,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> DecisionRegionsDisplay:
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
        sample_weight : array-like of shape (n_samples,), default=None
            Relative importance of the samples: marker areas are proportional
            to it (a weight of 0 hides the sample).
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        DecisionRegionsDisplay

        Raises
        ------
        ValueError
            Not 3 classes; invalid scores, labels, weights or threshold.

        See Also
        --------
        DecisionRegionsDisplay.from_result : The regions of a tuned τ*.
        decision_region : The polygon of each region.

        Examples
        --------
        >>> disp = DecisionRegionsDisplay.from_predictions([0, 1, 2], np.eye(3), sample_weight=[1, 1, 4])
        >>> disp.scatters_[2].get_sizes().tolist()  # area 18 at the mean weight 2
        [36.0]
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        check_three_classes(cls.__name__, n_score_columns(y_score))
        targets = check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight)
        display = cls(
            BARYCENTRE if threshold is None else threshold,
            y_score=targets.y_score,
            y_true=targets.y_true,
            sample_weight=targets.sample_weight,
            classes=targets.classes,
        )
        return display.plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_result(
        cls,
        result: TuningResult,
        y_true: ArrayLike | None = None,
        y_score: ArrayLike | None = None,
        *,
        sample_weight: ArrayLike | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> DecisionRegionsDisplay:
        """Draw the regions of a ``TuningResult``'s τ*, with labelled samples (e.g. test data) if given.

        Parameters
        ----------
        result : TuningResult
            Tuned on 3 classes.
        y_true : array-like of shape (n_samples,), default=None
            True labels of the samples to draw (with ``y_score``).
        y_score : array-like of shape (n_samples, 3), default=None
            Their probability scores, columns in ``result.classes`` order.
        sample_weight : array-like of shape (n_samples,), default=None
            As :meth:`from_predictions`.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        DecisionRegionsDisplay

        Raises
        ------
        TypeError
            If ``result`` is not a TuningResult.
        ValueError
            Not 3 classes; only one of ``y_true`` and ``y_score``; invalid data.

        See Also
        --------
        polyroc.thresholds.tune_thresholds : Makes the result.
        DecisionRegionsDisplay.from_predictions : The regions of any τ.

        Examples
        --------
        >>> from polyroc.thresholds import tune_thresholds
        >>> y, P = [0, 1, 2, 1], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4], [.4, .4, .2]]
        >>> disp = DecisionRegionsDisplay.from_result(tune_thresholds(y, P, resolution=6))
        >>> disp.scatters_, len(disp.regions_)
        ([], 3)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        cls._check_result(result)
        check_three_classes(cls.__name__, result.classes.size)
        if y_true is None and y_score is None:
            return cls(result.best_threshold, classes=result.classes).plot(ax=ax, name=name, **kwargs)
        if y_true is None or y_score is None:
            raise ValueError("pass both y_true and y_score to draw the samples, or neither")
        return cls.from_predictions(
            y_true,
            y_score,
            threshold=result.best_threshold,
            labels=result.classes,
            sample_weight=sample_weight,
            ax=ax,
            name=name,
            **kwargs,
        )

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        region_alpha: float = 0.25,
        scatter_kw: dict | None = None,
        legend_kw: dict | None = None,
    ) -> DecisionRegionsDisplay:
        """Draw the regions, the samples and τ.

        The legend goes outside the Axes box, at the right of its upper
        corner; a constrained layout (the default figure's) keeps it and the
        vertex labels in the figure.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        region_alpha : float, default=0.25
            Opacity of the region fills.
        scatter_kw : dict, default=None
            Passed to ``Axes.scatter`` (defaults: ``s=18``, black edges).
        legend_kw : dict, default=None
            Passed to ``Axes.legend`` (defaults: ``fontsize="small"``, at the
            right of the Axes). A ``loc``, ``bbox_to_anchor`` or
            ``bbox_transform`` in it replaces the default placement, e.g.
            ``legend_kw={"loc": "upper left"}`` puts the legend inside the Axes
            in that corner.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax`` or ``name``, or a ``scatter_kw`` or ``legend_kw`` that
            is not a dict (matplotlib's TypeError for an unknown keyword).
        ValueError
            A ``region_alpha`` outside [0, 1] (raised by matplotlib).

        See Also
        --------
        decision_region : The polygon of each region.
        DecisionRegionsDisplay.from_predictions : Build the Display from data and draw it.

        Examples
        --------
        >>> disp = DecisionRegionsDisplay([0.5, 0.25, 0.25]).plot(region_alpha=0.5)
        >>> [region.get_alpha() for region in disp.regions_]
        [0.5, 0.5, 0.5]
        >>> disp = disp.plot(legend_kw={"loc": "lower left", "title": "τ*"})  # inside the Axes
        >>> disp.figure_.canvas.draw()
        >>> legend, box = disp.ax_.get_legend().get_window_extent(), disp.ax_.get_window_extent()
        >>> bool(box.x0 <= legend.x0 < box.x0 + 10 and box.y0 <= legend.y0 < box.y0 + 10)
        True
        >>> disp.ax_.get_legend().get_title().get_text()
        'τ*'
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        scatter_kw = {"s": 18, "edgecolors": "black", "linewidths": 0.4, **check_kwargs("scatter_kw", scatter_kw)}
        legend_kw = check_kwargs("legend_kw", legend_kw)
        ax = self._start(ax, name, figsize=(6.8, 4.6), layout="constrained")
        colors = class_colors(3)
        self.regions_ = []
        for k, label in enumerate(self.classes):
            vertices = decision_region(self.threshold, k)
            region = None
            if len(vertices) >= 3:
                (region,) = ax.fill(
                    *simplex_to_cartesian(vertices).T,
                    color=colors[k],
                    alpha=region_alpha,
                    linewidth=0,
                    label=f"predicted {label}",
                )
            self.regions_.append(region)
        self.scatters_: list[Any] = []
        if self.y_score is not None:  # and y_true: both or neither
            self._draw_samples(ax, self.y_score, colors, scatter_kw)
        tau = ", ".join(f"{value:.3g}" for value in self.threshold)
        (self.threshold_marker_,) = ax.plot(
            *simplex_to_cartesian(self.threshold),
            linestyle="none",
            marker="*",
            markersize=15,
            markerfacecolor="white",
            markeredgecolor="black",
            label=f"τ = ({tau})",
        )
        draw_triangle(ax, self.classes)
        title = "Decision regions of argmax(p − τ)"
        ax.set_title(f"{self.name}: {title}" if self.name else title, pad=18)
        _draw_legend(ax, {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0), "fontsize": "small"}, legend_kw)
        return self

    def _draw_samples(self, ax: Any, y_score: np.ndarray, colors: list[str], scatter_kw: dict) -> None:
        """The samples of each true class at their scores ``y_score``; marker area ∝ weight / mean weight."""
        points = simplex_to_cartesian(y_score)
        sizes = np.full(points.shape[0], float(scatter_kw.pop("s")))
        if self.sample_weight is not None and self.sample_weight.sum() > 0:
            sizes *= self.sample_weight / self.sample_weight.mean()
        for k, label in enumerate(self.classes):
            mine = self.y_true == k
            self.scatters_.append(
                ax.scatter(
                    points[mine, 0],
                    points[mine, 1],
                    s=sizes[mine],
                    color=colors[k],
                    label=f"true {label}",
                    **scatter_kw,
                )
            )
