"""Tuning profile display: the score along each threshold coordinate through τ* (any m)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from polyroc._validation import THRESHOLD_DOMAINS, check_option
from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs, class_colors, curve_kwargs_list, draw_steps, place_legend
from polyroc.plotting._cv import CrossValidationDisplay, FoldCurves, steps_on_grid
from polyroc.thresholds.cross_validation import fold_predictions
from polyroc.thresholds.profile import CoordinateProfile, coordinate_profile
from polyroc.thresholds.tuning import tune_thresholds

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

__all__ = ["TuningProfileDisplay"]


#: Steps drawn per profile at most; beyond, the upper envelope over as many bins.
MAX_DRAWN_STEPS = 2000


def upper_envelope(values, edges, max_steps=MAX_DRAWN_STEPS, greater_is_better=True):
    """A step function (``values`` between ``edges``) reduced to at most ``max_steps`` equal-width bins.

    Each bin takes the best value of the steps that overlap it: the largest,
    or the smallest when lower is better (a cost); a function with few steps
    is returned unchanged.

    >>> upper_envelope(np.array([1.0, 3.0, 2.0, 0.0]), np.array([0.0, 1.0, 1.5, 2.0, 4.0]), max_steps=2)
    (array([3., 0.]), array([0., 2., 4.]))
    >>> upper_envelope(np.array([1.0, 3.0, 2.0, 0.0]), np.array([0.0, 1.0, 1.5, 2.0, 4.0]), 2, False)
    (array([1., 0.]), array([0., 2., 4.]))
    """
    values, edges = np.asarray(values, dtype=np.float64), np.asarray(edges, dtype=np.float64)
    if values.size <= max_steps:
        return values, edges
    grid = np.linspace(edges[0], edges[-1], max_steps + 1)
    active_at_start = values[np.clip(np.searchsorted(edges, grid[:-1], side="right") - 1, 0, values.size - 1)]
    start_bin = np.clip(np.searchsorted(grid, edges[:-1], side="right") - 1, 0, max_steps - 1)
    envelope = active_at_start.copy()
    (np.maximum if greater_is_better else np.minimum).at(envelope, start_bin, values)
    return envelope, grid


def _per_class(results: list[CoordinateProfile]) -> tuple[list[list[Any]], list[list[Any]]]:
    """Per class, the edges and the values of each fold's line."""
    n_classes = results[0].classes.size
    edges = [[profile.edges[j] for profile in results] for j in range(n_classes)]
    values = [[profile.values[j] for profile in results] for j in range(n_classes)]
    return edges, values


def _profile_folds(label: object, edges: list[Any], values: list[Any]) -> FoldCurves | None:
    """The folds' lines of one class as drawn, and on the union of their edges (None without room)."""
    if any(fold_edges is None for fold_edges in edges):
        return None
    grid = np.unique(np.concatenate(edges))
    if grid.size > MAX_DRAWN_STEPS + 1:
        grid = np.linspace(grid[0], grid[-1], MAX_DRAWN_STEPS + 1)
    on_grid = np.array([steps_on_grid(e, v, grid) for e, v in zip(edges, values)])
    drawn = [upper_envelope(v, e) for e, v in zip(edges, values)]
    x, y = [d[1] for d in drawn], [d[0] for d in drawn]
    return FoldCurves(f"τ_{label}", x, y, grid, on_grid, "stairs")


class TuningProfileDisplay(Display):
    """Score of the rule argmax(p − τ) along each coordinate line through τ*.

    Draws a :class:`~polyroc.thresholds.CoordinateProfile`, for any number of
    classes m (the simplex heat map needs m = 3): line j moves τ_j by δ with
    the other thresholds fixed at τ*, over the range that keeps τ in the
    domain once re-centred. The score is exact and piecewise constant, drawn
    as steps; δ = 0 is τ* (dotted vertical line and star), the dashed
    horizontal line is the score of plain argmax. At a coordinate-wise optimum
    (``search="coordinate"``) no line rises above the star; a line that does
    shows a better τ one coordinate away. For an expected cost
    (``metric="expected_cost"``) lower is better, as the axis label says: no
    line falls below the star at an optimum.

    Parameters
    ----------
    profile : CoordinateProfile
        From :func:`polyroc.thresholds.coordinate_profile`.
    name : str, default=None
        Name of the model, in the title.

    Attributes
    ----------
    profile : CoordinateProfile
    lines_ : list of matplotlib.patches.StepPatch or None
        The profile of each class (None for a line without room in the
        domain, which the legend still names, "no room to move");
        ``lines_[j].get_data()`` gives ``(values, edges, baseline)``.
    best_marker_ : matplotlib.lines.Line2D
        The star at (0, ``profile.score``).
    argmax_line_ : matplotlib.lines.Line2D or None
        The level of ``profile.argmax_score`` (None with ``plot_argmax=False``).
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.thresholds.coordinate_profile : The profile this Display draws.
    polyroc.thresholds.tune_thresholds : The tuning that finds τ*.
    SimplexHeatmapDisplay : The whole score surface, for 3 classes.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 3, 3]
    >>> P = [[.4, .3, .2, .1], [.3, .3, .3, .1], [.2, .5, .2, .1], [.3, .25, .25, .2],
    ...      [.1, .2, .6, .1], [.25, .25, .3, .2], [.1, .1, .2, .6], [.3, .2, .2, .3]]
    >>> disp = TuningProfileDisplay.from_predictions(y, P, threshold=[.25, .25, .25, .25])
    >>> disp.lines_[0].get_data().values.round(4).tolist()
    [0.4583, 0.6429, 0.75, 0.75, 0.8667, 0.6667]
    >>> disp.best_marker_.get_xydata().round(4).tolist()
    [[0.0, 0.75]]
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    # artists drawn by plot
    best_marker_: Line2D

    result_type = CoordinateProfile
    result_hint = (
        "; for the τ* of a TuningResult use TuningProfileDisplay.from_predictions(y_true, y_score, "
        "threshold=result.best_threshold, metric=result.metric, labels=result.classes)"
    )

    def __init__(self, profile: CoordinateProfile, *, name: str | None = None) -> None:
        self.profile = profile
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        threshold: ArrayLike | None = None,
        metric: str | Callable[[NDArray], NDArray] = "f1_macro",
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        domain: str = "simplex",
        cost_matrix: ArrayLike | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> TuningProfileDisplay:
        """Compute :func:`polyroc.thresholds.coordinate_profile` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, m)
            Probability scores, columns in the class order.
        threshold : array-like of shape (m,), default=None
            τ*, the point the lines go through; default the thresholds tuned
            on these data (see :func:`polyroc.thresholds.coordinate_profile`).
        metric, labels, sample_weight, domain, cost_matrix
            As :func:`polyroc.thresholds.coordinate_profile` (``cost_matrix``
            with ``metric="expected_cost"`` only).
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        TuningProfileDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.thresholds.coordinate_profile`.

        See Also
        --------
        polyroc.thresholds.coordinate_profile : The computation.
        TuningProfileDisplay.from_estimator : The same from a fitted classifier.

        Examples
        --------
        >>> y, P = [0, 1, 2, 0], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4], [.4, .4, .2]]
        >>> disp = TuningProfileDisplay.from_predictions(y, P, metric="balanced_accuracy")
        >>> disp.ax_.get_ylabel(), disp.profile.score
        ('balanced_accuracy', 1.0)
        >>> cost = TuningProfileDisplay.from_predictions(y, P, metric="expected_cost", cost_matrix=1 - np.eye(3))
        >>> cost.ax_.get_ylabel(), cost.profile.score
        ('expected_cost (lower is better)', 0.0)
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        profile = coordinate_profile(
            y_true,
            y_score,
            threshold,
            metric=metric,
            labels=labels,
            sample_weight=sample_weight,
            domain=domain,
            cost_matrix=cost_matrix,
        )
        return cls(profile).plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_cv_results(
        cls,
        cv_results: Mapping[str, Any],
        X: ArrayLike,
        y: ArrayLike,
        *,
        threshold: ArrayLike | None = None,
        metric: str | Callable[[NDArray], NDArray] = "f1_macro",
        sample_weight: ArrayLike | None = None,
        domain: str = "simplex",
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CrossValidationDisplay:
        """Draw each cross-validation fold's profile through one τ, their min–max band and their mean.

        Fold k's line j is the one :meth:`from_predictions` draws for
        ``predict_proba`` of fold k's estimator on fold k's test rows, through
        the same ``threshold`` for every fold, so that the lines of the folds
        span the same δ. For each class, the band is the pointwise minimum
        and maximum of the folds' step functions on the union of their
        edges (exact: every fold is constant on each cell; beyond
        :data:`MAX_DRAWN_STEPS` cells, read at the midpoints of that many
        equal cells), the bold steps their mean; the legend gives the folds'
        score at τ as mean ± sd (``ddof=0``). A class whose line has no room
        in the domain is not drawn.

        Parameters
        ----------
        cv_results : dict
            From :func:`sklearn.model_selection.cross_validate` with
            ``return_estimator=True, return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data cross-validated.
        y : array-like of shape (n_samples,)
            Its labels.
        threshold : array-like of shape (m,), default=None
            τ, the point every fold's lines go through; default the τ* that
            :func:`polyroc.thresholds.tune_thresholds` tunes on the pooled
            held-out predictions of all folds (with ``metric`` and ``domain``).
        metric, domain
            As :func:`polyroc.thresholds.coordinate_profile`.
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
            With ``fold_results``, the ``CoordinateProfile`` of each fold.

        Raises
        ------
        ValueError
            ``cv_results`` lacks ``"estimator"`` or ``"indices"`` (pass
            ``return_estimator=True, return_indices=True``), or what
            :func:`polyroc.thresholds.coordinate_profile` refuses.
        TypeError
            ``cv_results`` not a dict, an estimator without ``predict_proba``.

        See Also
        --------
        TuningProfileDisplay.from_predictions : One fold's profile.
        polyroc.thresholds.cross_validated_tuning : τ* tuned on each fold.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                             return_estimator=True, return_indices=True)
        >>> disp = TuningProfileDisplay.from_cv_results(cv_results, X, y, threshold=[1 / 3, 1 / 3, 1 / 3])
        >>> [group.label for group in disp.groups], len(disp.fold_lines_[0])
        (['τ_0', 'τ_1', 'τ_2'], 3)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        check_option("domain", domain, THRESHOLD_DOMAINS)
        folds, classes = fold_predictions(cv_results, X, y, sample_weight=sample_weight)
        if threshold is None:
            weights = None if sample_weight is None else np.concatenate([fold.sample_weight for fold in folds])
            threshold = tune_thresholds(
                np.concatenate([fold.y_true for fold in folds]),
                np.concatenate([fold.y_score for fold in folds]),
                metric=metric,
                labels=classes,
                sample_weight=weights,
                domain=domain,
            ).best_threshold
        results = [
            coordinate_profile(
                fold.y_true,
                fold.y_score,
                threshold,
                metric=metric,
                labels=classes,
                sample_weight=fold.sample_weight,
                domain=domain,
            )
            for fold in folds
        ]
        groups = [group for group in map(_profile_folds, results[0].classes, *_per_class(results)) if group]
        kind = {
            "score": f"{results[0].metric} at τ",
            "xlabel": "δ: change of τ_j from τ (other thresholds fixed)",
            "ylabel": results[0].metric,
            "title": f"{results[0].metric} along each coordinate through τ",
            "vline": 0.0,
        }
        scores = np.array([profile.score for profile in results])
        return CrossValidationDisplay(groups, scores, kind=kind, fold_results=results).plot(ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | list[dict] | None = None,
        plot_argmax: bool = True,
        argmax_kw: dict | None = None,
    ) -> TuningProfileDisplay:
        """Draw one step line per class, τ* and the argmax level.

        A profile of more than :data:`MAX_DRAWN_STEPS` steps (one per row on
        large data) is drawn as its upper envelope over that many equal-width
        bins of δ (the lower envelope for a cost): each bin shows the best
        score reached inside it, so the optima stay exact and the drawing
        costs the same at any n.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        curve_kwargs : dict or list of dict, default=None
            Passed to ``StepPatch`` (as ``Axes.stairs``) for the profiles: one dict for all, or
            one per class.
        plot_argmax : bool, default=True
            Draw the score of plain argmax as a dashed horizontal line (the
            baseline a tuned τ* improves on).
        argmax_kw : dict, default=None
            Passed to ``Axes.axhline`` for that line.

        Returns
        -------
        self

        Raises
        ------
        TypeError, ValueError
            A bad ``ax``, ``name``, ``curve_kwargs`` or ``argmax_kw``.

        See Also
        --------
        TuningProfileDisplay.from_predictions : Compute the profile and draw it.
        class_colors : The colours of the class lines.

        Examples
        --------
        >>> from polyroc.thresholds import coordinate_profile
        >>> profile = coordinate_profile([0, 1, 2, 0], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4], [.4, .4, .2]],
        ...                              [1 / 3, 1 / 3, 1 / 3])
        >>> disp = TuningProfileDisplay(profile).plot(plot_argmax=False, curve_kwargs={"linewidth": 3})
        >>> [line.get_linewidth() for line in disp.lines_], disp.argmax_line_
        ([3.0, 3.0, 3.0], None)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        profile = self.profile
        n_classes = profile.classes.size
        styles = curve_kwargs_list(curve_kwargs, n_classes)
        argmax_kw = check_kwargs("argmax_kw", argmax_kw)
        made_figure = ax is None
        ax = self._start(ax, name, figsize=(6.5, 4.2))
        colors = class_colors(n_classes)
        self.lines_ = []
        for j, (label, edges, values) in enumerate(zip(profile.classes, profile.edges, profile.values)):
            line = None
            if edges is not None:
                style = {
                    "color": colors[j],
                    "linewidth": 1.5,
                    "label": f"τ_{label} (τ* = {profile.threshold[j]:.3f})",
                    **styles[j],
                }
                envelope = upper_envelope(values, edges, greater_is_better=profile.greater_is_better)
                line = draw_steps(ax, *envelope, **style)
            else:  # no line to draw: the legend still names the class, so that every class is accounted for
                ax.plot([], [], color=colors[j], label=f"τ_{label} (τ* = {profile.threshold[j]:.3f}, no room to move)")
            self.lines_.append(line)
        ax.axvline(0.0, color="black", linestyle=":", linewidth=1)
        self.argmax_line_ = None
        if plot_argmax:
            style = {
                "color": "grey",
                "linestyle": "--",
                "linewidth": 1,
                "label": f"argmax ({profile.argmax_score:.3f})",
                **argmax_kw,
            }
            self.argmax_line_ = ax.axhline(profile.argmax_score, **style)
        (self.best_marker_,) = ax.plot(
            0.0,
            profile.score,
            linestyle="none",
            marker="*",
            markersize=15,
            markerfacecolor="red",
            markeredgecolor="black",
            label=f"τ* ({profile.score:.3f})",
        )
        title = f"{profile.metric} along each threshold coordinate through τ*"
        ax.set(
            xlabel="δ: change of τ_j from τ* (other thresholds fixed)",
            ylabel=profile.metric if profile.greater_is_better else f"{profile.metric} (lower is better)",
            title=f"{self.name}: {title}" if self.name else title,
        )
        place_legend(ax, "best", widen=made_figure)
        return self
