"""Tuned thresholds across cross-validation folds: τ*_k on the simplex (3 classes) or per coordinate (any m)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from polyroc._estimators import ProbabilisticClassifier
from polyroc.plotting._base import Display
from polyroc.plotting._common import (
    check_kwargs,
    class_colors,
    draw_triangle,
    place_legend,
    short_label,
    simplex_to_cartesian,
    with_name,
)
from polyroc.thresholds.cross_validation import CrossValidatedTuning, cross_validated_tuning

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["CrossValidatedTuningDisplay"]


class CrossValidatedTuningDisplay(Display):
    """The τ* tuned on each cross-validation fold: how far the tuned rule moves from fold to fold.

    With 3 classes each fold's τ*_k is a point of the simplex (the barycentre
    is plain argmax), with their mean as a star. With any other number of
    classes, one column per class holds each fold's τ*_k,j (a strip plot,
    spread sideways so that equal values stay visible) with their mean as a
    bar; the dashed line is the mean of the τ*'s components, the level of
    equal thresholds (plain argmax). The title gives the gain over argmax on
    the folds that did not tune τ*_k, as mean ± sd over the folds.

    Parameters
    ----------
    result : CrossValidatedTuning
        From :func:`polyroc.thresholds.cross_validated_tuning`.
    name : str, default=None
        Name of the model, in the title.

    Attributes
    ----------
    result : CrossValidatedTuning
    points_ : matplotlib.collections.PathCollection
        The folds' τ*_k (in Cartesian simplex coordinates for 3 classes;
        x = class position + spread, y = τ*_k,j otherwise).
    mean_marker_ : matplotlib.lines.Line2D or matplotlib.collections.LineCollection
        The mean τ* (a star on the simplex; one short line per class otherwise).
    argmax_marker_ : matplotlib.lines.Line2D
        The barycentre (3 classes) or the level of equal thresholds.
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.thresholds.cross_validated_tuning : The result this Display draws.
    ThresholdsDisplay : One tuning's τ*.
    DecisionRegionsDisplay : What a τ on the simplex does to the probabilities.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> disp = CrossValidatedTuningDisplay.from_estimator(LogisticRegression(max_iter=500), X, y, cv=3,
    ...                                                   resolution=10)
    >>> disp.points_.get_offsets().shape
    (3, 2)
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    result_type = CrossValidatedTuning

    def __init__(self, result: CrossValidatedTuning, *, name: str | None = None) -> None:
        self.result = result
        self.name = name

    @classmethod
    def from_cv_results(
        cls,
        cv_results: Mapping[str, Any],
        X: ArrayLike,
        y: ArrayLike,
        *,
        metric: str | Callable[[NDArray], NDArray] = "f1_macro",
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CrossValidatedTuningDisplay:
        """Tune τ on each fold of ``cross_validate``'s output and draw the spread of τ*.

        Parameters
        ----------
        cv_results : dict
            From :func:`sklearn.model_selection.cross_validate` with
            ``return_estimator=True, return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data cross-validated.
        y : array-like of shape (n_samples,)
            Its labels.
        metric : str or callable, default="f1_macro"
            The metric tuned.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :func:`polyroc.thresholds.cross_validated_tuning`
            (``search``, ``resolution``, ``sample_weight`` ...).

        Returns
        -------
        CrossValidatedTuningDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.thresholds.cross_validated_tuning`.

        See Also
        --------
        polyroc.thresholds.cross_validated_tuning : The computation.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                             return_estimator=True, return_indices=True)
        >>> disp = CrossValidatedTuningDisplay.from_cv_results(cv_results, X, y, resolution=10)
        >>> disp.result.thresholds.shape
        (3, 3)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        result = cross_validated_tuning(cv_results, X, y, metric=metric, **kwargs)
        return cls(result).plot(ax=ax, name=name)

    @classmethod
    def from_estimator(  # type: ignore[override]  # cross-validates an unfitted classifier
        cls,
        estimator: ProbabilisticClassifier,
        X: ArrayLike,
        y: ArrayLike,
        *,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CrossValidatedTuningDisplay:
        """Cross-validate an unfitted classifier, tune τ on each fold and draw the spread of τ*.

        Parameters
        ----------
        estimator : object
            An unfitted classifier with ``fit`` and ``predict_proba``.
        X : array-like of shape (n_samples, n_features)
            The data.
        y : array-like of shape (n_samples,)
            The labels.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model; default the estimator's class name.
        **kwargs
            Passed to :func:`polyroc.thresholds.cross_validated_tuning`
            (``cv``, ``metric``, ``resolution`` ...).

        Returns
        -------
        CrossValidatedTuningDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.thresholds.cross_validated_tuning`.

        See Also
        --------
        CrossValidatedTuningDisplay.from_cv_results : From ``cross_validate``'s output.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> X, y = load_iris(return_X_y=True)
        >>> disp = CrossValidatedTuningDisplay.from_estimator(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                                                   resolution=10)
        >>> disp.ax_.get_title().startswith("LogisticRegression")
        True
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        result = cross_validated_tuning(estimator, X, y, **kwargs)
        return cls(result).plot(ax=ax, name=type(estimator).__name__ if name is None else name)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self, ax: Axes | None = None, *, name: str | None = None, scatter_kw: dict | None = None
    ) -> CrossValidatedTuningDisplay:
        """Draw the folds' τ*_k and their mean.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        scatter_kw : dict, default=None
            Passed to ``Axes.scatter`` for the folds' points.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax``, ``name`` or ``scatter_kw``.

        See Also
        --------
        CrossValidatedTuningDisplay.from_cv_results : Tune and draw in one call.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from polyroc.thresholds import cross_validated_tuning
        >>> X, y = load_iris(return_X_y=True)
        >>> result = cross_validated_tuning(LogisticRegression(max_iter=500), X, y, cv=3, resolution=10)
        >>> disp = CrossValidatedTuningDisplay(result).plot(scatter_kw={"s": 60})
        >>> float(disp.points_.get_sizes()[0])
        60.0
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        scatter_kw = check_kwargs("scatter_kw", scatter_kw)
        result = self.result
        made_figure = ax is None
        if result.classes.size == 3:
            ax = self._start(ax, name, figsize=(5.5, 5.0))
            self._draw_simplex(ax, scatter_kw)
        else:
            ax = self._start(ax, name, figsize=(max(4.5, 0.6 * result.classes.size + 2.5), 4.0))
            self._draw_strips(ax, scatter_kw)
        summary = result.summary()
        title = (
            f"τ* of {result.thresholds.shape[0]} folds; {result.metric} gain on the other folds "
            f"{summary['other_gain_mean']:+.3f} ± {summary['other_gain_std']:.3f}"
        )
        ax.set_title(with_name(self.name, title), fontsize="medium", pad=18 if result.classes.size == 3 else None)
        place_legend(ax, "best", widen=made_figure)
        return self

    def _draw_simplex(self, ax: Any, scatter_kw: dict[str, Any]) -> None:
        """τ*_k as points of the simplex, their mean as a star, the barycentre as a cross."""
        result = self.result
        draw_triangle(ax, [short_label(label) for label in result.classes.tolist()])
        points = simplex_to_cartesian(result.thresholds)
        style = {"color": "#1f77b4", "s": 30, "alpha": 0.8, "zorder": 3, "label": "τ* of each fold", **scatter_kw}
        self.points_ = ax.scatter(points[:, 0], points[:, 1], **style)
        mean = simplex_to_cartesian(result.threshold_mean)
        (self.mean_marker_,) = ax.plot(
            mean[0], mean[1], linestyle="none", marker="*", markersize=14, markerfacecolor="red",
            markeredgecolor="black", zorder=4, label="mean τ*",
        )  # fmt: skip
        centre = simplex_to_cartesian(np.full(3, 1.0 / 3.0))
        (self.argmax_marker_,) = ax.plot(
            centre[0], centre[1], linestyle="none", marker="+", markersize=12, color="grey",
            label="barycentre (argmax)",
        )  # fmt: skip

    def _draw_strips(self, ax: Any, scatter_kw: dict[str, Any]) -> None:
        """Per class, the folds' τ*_k,j spread sideways, their mean as a short bar, and equal thresholds."""
        result = self.result
        n_folds, n_classes = result.thresholds.shape
        spread = np.linspace(-0.2, 0.2, n_folds) if n_folds > 1 else np.zeros(1)
        x = (np.arange(n_classes)[None, :] + spread[:, None]).ravel()
        colors = np.tile(class_colors(n_classes), n_folds)
        style = {"c": colors, "s": 25, "alpha": 0.8, "zorder": 3, **scatter_kw}
        self.points_ = ax.scatter(x, result.thresholds.ravel(), **style)
        positions = np.arange(n_classes)
        self.mean_marker_ = ax.hlines(
            result.threshold_mean, positions - 0.3, positions + 0.3, colors="black", linewidth=2, label="mean τ*"
        )
        level = float(result.thresholds.mean())
        self.argmax_marker_ = ax.axhline(
            level, color="grey", linestyle="--", linewidth=1, label=f"equal thresholds: argmax ({level:.3f})"
        )
        ax.set_xticks(positions, [short_label(label) for label in result.classes.tolist()])
        ax.set(xlabel="class", ylabel="tuned threshold τ*")
