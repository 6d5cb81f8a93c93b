"""One-vs-rest precision-recall curves display, with prevalence baselines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc.curves import OvrPrecisionRecallCurves, ovr_precision_recall_curve
from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs, class_colors, curve_kwargs_list, place_legend, with_name
from polyroc.plotting._cv import CrossValidationDisplay, precision_recall_folds
from polyroc.thresholds.cross_validation import fold_predictions

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

__all__ = ["PrecisionRecallDisplay"]


class PrecisionRecallDisplay(Display):
    """Per-class one-vs-rest precision-recall curves with their average precision (AP).

    Curves are drawn as steps (``drawstyle="steps-post"``), as scikit-learn
    does, since AP is the area under that step function. The chance level of
    class k is its prevalence, the precision of predicting every sample
    positive; it is read off the curve (its first point, at the lowest
    threshold), so it is weighted by ``sample_weight`` when the curves were.

    Parameters
    ----------
    curves : OvrPrecisionRecallCurves
        From :func:`polyroc.curves.ovr_precision_recall_curve`.
    name : str, default=None
        Name of the model, in the title and the micro-average's label.

    Attributes
    ----------
    curves : OvrPrecisionRecallCurves
    prevalence : ndarray of shape (n_classes,)
        Weighted share of each class.
    lines_ : list of matplotlib.lines.Line2D or None
        One per class (None for a class without samples).
    chance_levels_ : list of matplotlib.lines.Line2D or None
        The horizontal prevalence line of each class (None when
        ``plot_chance_level=False`` or the class has no samples).
    micro_line_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.curves.ovr_precision_recall_curve : The curves this Display draws.
    polyroc.metrics.average_precision_score : The AP in the legend.
    RocCurveDisplay : The ROC counterpart.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> disp = PrecisionRecallDisplay.from_predictions(y, P)
    >>> disp.prevalence.round(3).tolist()
    [0.286, 0.286, 0.429]
    >>> disp.lines_[0].get_xdata().tolist()
    [1.0, 1.0, 1.0, 1.0, 0.5, 0.5, 0.0]
    >>> [text.get_text() for text in disp.ax_.get_legend().get_texts()][0]
    '0 (AP = 0.833)'
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    # artists drawn by plot
    lines_: list[Line2D | None]
    chance_levels_: list[Line2D | None]

    result_type = OvrPrecisionRecallCurves

    def __init__(self, curves: OvrPrecisionRecallCurves, *, name: str | None = None) -> None:
        self.curves = curves
        self.name = name
        self.prevalence = np.array([precision[0] for precision in curves.precision])

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        drop_intermediate: bool = False,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """Compute :func:`polyroc.curves.ovr_precision_recall_curve` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, n_classes)
            Scores, one column per class (any finite values).
        labels : array-like of shape (n_classes,), default=None
            Class order of the columns; default the sorted labels of ``y_true``.
        sample_weight : array-like of shape (n_samples,), default=None
            Relative importance of the samples.
        drop_intermediate : bool, default=False
            Drop the points that do not change the recall.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        PrecisionRecallDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.curves.ovr_precision_recall_curve`.

        See Also
        --------
        polyroc.curves.ovr_precision_recall_curve : The computation.
        PrecisionRecallDisplay.from_estimator : The same from a fitted classifier.

        Examples
        --------
        >>> disp = PrecisionRecallDisplay.from_predictions([0, 1, 1], [[.7, .3], [.4, .6], [.6, .4]],
        ...                                                micro=False, name="model")
        >>> disp.micro_line_ is None, disp.ax_.get_title()
        (True, 'model: one-vs-rest precision-recall curves')
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        curves = ovr_precision_recall_curve(
            y_true, y_score, labels=labels, sample_weight=sample_weight, drop_intermediate=drop_intermediate
        )
        return cls(curves).plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_cv_results(
        cls,
        cv_results: Mapping[str, Any],
        X: ArrayLike,
        y: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        drop_intermediate: bool = False,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CrossValidationDisplay:
        """Draw each cross-validation fold's micro-average precision-recall curve, their min–max band and mean.

        As scikit-learn's binary ``PrecisionRecallDisplay.from_cv_results``,
        for the one-vs-rest curves: fold k's curve is the micro-average curve
        that :meth:`from_predictions` draws for ``predict_proba`` of fold k's
        estimator on fold k's test rows. On 201 equally spaced recalls each
        curve takes the height of the step whose area average precision sums
        (the precision of the point of smallest recall >= r); the band is
        the pointwise minimum and maximum of the folds there, the bold line
        their pointwise mean; the legend gives the folds' micro AP as
        mean ± sd (``ddof=0``).

        Parameters
        ----------
        cv_results : dict
            From :func:`sklearn.model_selection.cross_validate` with
            ``return_estimator=True, return_indices=True``.
        X : array-like of shape (n_samples, n_features)
            The data cross-validated.
        y : array-like of shape (n_samples,)
            Its labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the rows, split by fold.
        drop_intermediate : bool, default=False
            As :meth:`from_predictions`.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`CrossValidationDisplay.plot`.

        Returns
        -------
        CrossValidationDisplay
            With ``fold_results``, the ``OvrPrecisionRecallCurves`` of each fold.

        Raises
        ------
        ValueError
            ``cv_results`` lacks ``"estimator"`` or ``"indices"`` (pass
            ``return_estimator=True, return_indices=True``), or what
            :func:`polyroc.curves.ovr_precision_recall_curve` refuses.
        TypeError
            ``cv_results`` not a dict, an estimator without ``predict_proba``.

        See Also
        --------
        PrecisionRecallDisplay.from_predictions : One fold's curves.
        RocCurveDisplay.from_cv_results : The ROC counterpart.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                             return_estimator=True, return_indices=True)
        >>> disp = PrecisionRecallDisplay.from_cv_results(cv_results, X, y)
        >>> len(disp.fold_lines_[0]), disp.fold_lines_[0][0].get_drawstyle()
        (3, 'steps-post')
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        folds, classes = fold_predictions(cv_results, X, y, sample_weight=sample_weight)
        results = [
            ovr_precision_recall_curve(
                fold.y_true,
                fold.y_score,
                labels=classes,
                sample_weight=fold.sample_weight,
                drop_intermediate=drop_intermediate,
            )
            for fold in folds
        ]
        groups, scores, kind = precision_recall_folds(results)
        return CrossValidationDisplay(groups, scores, kind=kind, fold_results=results).plot(ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | list[dict] | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
        micro: bool = True,
    ) -> PrecisionRecallDisplay:
        """Draw the curves.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model (default the Display's).
        curve_kwargs : dict or list of dict, default=None
            Passed to ``Axes.plot`` for the class curves: one dict for all, or
            one per class.
        plot_chance_level : bool, default=True
            Draw each class's prevalence as a dashed horizontal line of its colour.
        chance_level_kw : dict, default=None
            Passed to ``Axes.axhline`` for the prevalence lines.
        micro : bool, default=True
            Draw the micro-average curve (black, dotted).

        Returns
        -------
        self

        Raises
        ------
        TypeError, ValueError
            A bad ``ax``, ``name``, ``curve_kwargs`` or ``chance_level_kw``.

        See Also
        --------
        PrecisionRecallDisplay.from_predictions : Compute the curves and draw them.
        class_colors : The colours of the class curves.

        Examples
        --------
        >>> from polyroc.curves import ovr_precision_recall_curve
        >>> curves = ovr_precision_recall_curve([0, 1, 1], [[.7, .3], [.4, .6], [.6, .4]])
        >>> disp = PrecisionRecallDisplay(curves).plot(curve_kwargs=[{"color": "red"}, {"color": "blue"}])
        >>> [line.get_color() for line in disp.lines_], round(float(disp.chance_levels_[1].get_ydata()[0]), 3)
        (['red', 'blue'], 0.667)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        curves = self.curves
        n_classes = len(curves.classes)
        styles = curve_kwargs_list(curve_kwargs, n_classes)
        chance_style = check_kwargs("chance_level_kw", chance_level_kw)
        made_figure = ax is None
        ax = self._start(ax, name)
        colors = class_colors(n_classes)
        self.lines_, self.chance_levels_ = [None] * n_classes, [None] * n_classes
        for k, (label, precision, recall, ap) in enumerate(
            zip(curves.classes, curves.precision, curves.recall, curves.average_precision)
        ):
            if np.isnan(ap):
                continue
            style = {"drawstyle": "steps-post", "color": colors[k], "label": f"{label} (AP = {ap:.3f})", **styles[k]}
            (self.lines_[k],) = ax.plot(recall, precision, **style)
            if plot_chance_level:
                self.chance_levels_[k] = ax.axhline(
                    self.prevalence[k], **{"color": colors[k], "linestyle": "--", "linewidth": 1, **chance_style}
                )
        self.micro_line_ = None
        if micro:
            (self.micro_line_,) = ax.plot(
                curves.micro_recall,
                curves.micro_precision,
                drawstyle="steps-post",
                color="black",
                linestyle=":",
                linewidth=2,
                label=with_name(self.name, f"micro-average (AP = {curves.micro_average_precision:.3f})"),
            )
        title = "one-vs-rest precision-recall curves"
        ax.set(
            xlim=(-0.01, 1.01),
            ylim=(-0.01, 1.01),
            xlabel="Recall",
            ylabel="Precision",
            title=f"{self.name}: {title}" if self.name else title.capitalize(),
        )
        place_legend(ax, "lower left", widen=made_figure)
        return self
