"""One-vs-rest ROC curves display, with the micro- and macro-average curves."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import check_option
from polyroc.curves import OvrRocCurves, macro_roc_curve, ovr_roc_curve
from polyroc.plotting._base import Display
from polyroc.plotting._common import class_colors, curve_kwargs_list, draw_chance_level, place_legend, with_name
from polyroc.plotting._cv import CrossValidationDisplay, roc_folds
from polyroc.thresholds.cross_validation import fold_predictions

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

__all__ = ["RocCurveDisplay"]


class RocCurveDisplay(Display):
    """Per-class one-vs-rest ROC curves, the micro and macro averages, and the chance line.

    Parameters
    ----------
    curves : OvrRocCurves
        From :func:`polyroc.curves.ovr_roc_curve`.
    name : str, default=None
        Name of the model, in the title and the average curves' labels.

    Attributes
    ----------
    curves : OvrRocCurves
    macro_fpr, macro_tpr : ndarray
        The macro-average curve (see :func:`polyroc.curves.macro_roc_curve`).
    macro_auc : float
        Its area, the mean of the per-class AUCs.
    lines_ : list of matplotlib.lines.Line2D or None
        One per class in ``curves.classes`` order (None for a class without
        samples, or when ``show_classes=False``).
    micro_line_, macro_line_, chance_level_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.curves.ovr_roc_curve : The curves this Display draws.
    polyroc.curves.macro_roc_curve : The macro-average curve.
    PrecisionRecallDisplay : The precision-recall counterpart.
    GiniRocDisplay : One Gini-weighted curve in place of the averages.

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

    # artists drawn by plot
    lines_: list[Line2D | None]

    result_type = OvrRocCurves

    def __init__(self, curves: OvrRocCurves, *, name: str | None = None) -> None:
        self.curves = curves
        self.name = name
        self.macro_fpr, self.macro_tpr, self.macro_auc = macro_roc_curve(curves)

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        drop_intermediate: bool = True,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> RocCurveDisplay:
        """Compute :func:`polyroc.curves.ovr_roc_curve` and plot it.

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
        drop_intermediate : bool, default=True
            Drop the collinear points of each curve.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        RocCurveDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.curves.ovr_roc_curve`.

        See Also
        --------
        polyroc.curves.ovr_roc_curve : The computation.
        RocCurveDisplay.from_estimator : The same from a fitted classifier.
        RocCurveDisplay.from_result : Draw curves already computed.

        Examples
        --------
        >>> disp = RocCurveDisplay.from_predictions([0, 1, 2, 2], [[.5, .3, .2], [.2, .6, .2],
        ...                                         [.1, .3, .6], [.3, .3, .4]], plot_chance_level=False)
        >>> disp.chance_level_ is None, round(disp.macro_auc, 3)
        (True, 1.0)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        curves = ovr_roc_curve(
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
        drop_intermediate: bool = True,
        average: Literal["macro", "micro"] = "macro",
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> CrossValidationDisplay:
        """Draw each cross-validation fold's average ROC curve, their min–max band and their mean.

        As scikit-learn's binary ``RocCurveDisplay.from_cv_results``, for the
        one-vs-rest curves: fold k's curve is the macro- (or micro-) average
        curve that :meth:`from_predictions` draws for ``predict_proba`` of
        fold k's estimator on fold k's test rows. The band is the pointwise
        minimum and maximum of the fold curves on 201 equally spaced false
        positive rates (linear between a curve's points, the top of a
        vertical step at its FPR), the bold line their pointwise mean; the
        legend gives the folds' AUC as mean ± sd (``ddof=0``).

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
        drop_intermediate : bool, default=True
            As :meth:`from_predictions`.
        average : {"macro", "micro"}, default="macro"
            Which average curve each fold draws.
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`CrossValidationDisplay.plot` (``curve_kwargs``
            for the fold curves, ``band_kwargs``, ``mean_kwargs``,
            ``plot_chance_level`` ...).

        Returns
        -------
        CrossValidationDisplay
            With ``fold_results``, the ``OvrRocCurves`` of each fold.

        Raises
        ------
        ValueError
            ``cv_results`` lacks ``"estimator"`` or ``"indices"`` (pass
            ``return_estimator=True, return_indices=True``), an unknown
            ``average``, or what :func:`polyroc.curves.ovr_roc_curve` refuses.
        TypeError
            ``cv_results`` not a dict, an estimator without ``predict_proba``.

        See Also
        --------
        RocCurveDisplay.from_predictions : One fold's curves.
        polyroc.thresholds.cross_validated_tuning : τ* tuned on each fold.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import cross_validate
        >>> X, y = load_iris(return_X_y=True)
        >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
        ...                             return_estimator=True, return_indices=True)
        >>> disp = RocCurveDisplay.from_cv_results(cv_results, X, y, name="logistic")
        >>> disp.ax_.get_legend().get_texts()[0].get_text()
        'logistic folds (macro AUC = 0.997 ± 0.001)'
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        check_option("average", average, ("macro", "micro"))
        folds, classes = fold_predictions(cv_results, X, y, sample_weight=sample_weight)
        results = [
            ovr_roc_curve(
                fold.y_true,
                fold.y_score,
                labels=classes,
                sample_weight=fold.sample_weight,
                drop_intermediate=drop_intermediate,
            )
            for fold in folds
        ]
        groups, scores, kind = roc_folds(results, average)
        return CrossValidationDisplay(groups, scores, kind=kind, fold_results=results).plot(ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | list[dict] | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
        show_classes: bool = True,
        micro: bool = True,
        macro: bool = True,
    ) -> RocCurveDisplay:
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
            Draw the diagonal of a random classifier.
        chance_level_kw : dict, default=None
            Passed to ``Axes.plot`` for the chance line.
        show_classes : bool, default=True
            Draw one curve per class (colours of :func:`class_colors`).
        micro, macro : bool, default=True
            Draw the micro-average (dotted) and macro-average (dashed) curves
            (no micro curve for curves computed with ``ovr_roc_curve(..., micro=False)``).

        Returns
        -------
        self

        Raises
        ------
        TypeError, ValueError
            A bad ``ax``, ``name``, ``curve_kwargs`` or ``chance_level_kw``.

        See Also
        --------
        RocCurveDisplay.from_predictions : Compute the curves and draw them.
        class_colors : The colours of the class curves.

        Examples
        --------
        >>> from polyroc.curves import ovr_roc_curve
        >>> curves = ovr_roc_curve([0, 1, 2, 2], [[.5, .3, .2], [.2, .6, .2], [.1, .3, .6], [.3, .3, .4]])
        >>> disp = RocCurveDisplay(curves).plot(name="model", show_classes=False, plot_chance_level=False)
        >>> [line.get_label() for line in disp.ax_.get_lines()]
        ['model micro-average (AUC = 1.000)', 'model macro-average (AUC = 1.000)']
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        curves = self.curves
        n_classes = len(curves.classes)
        styles = curve_kwargs_list(curve_kwargs, n_classes)
        made_figure = ax is None
        ax = self._start(ax, name)
        colors = class_colors(n_classes)
        self.lines_ = [None] * n_classes
        if show_classes:
            for k, (label, fpr, tpr, auc) in enumerate(zip(curves.classes, curves.fpr, curves.tpr, curves.auc)):
                if not np.isnan(auc):
                    style = {"color": colors[k], "label": f"{label} (AUC = {auc:.3f})", **styles[k]}
                    (self.lines_[k],) = ax.plot(fpr, tpr, **style)
        self.micro_line_ = self.macro_line_ = self.chance_level_ = None
        if micro and curves.micro_fpr is not None and curves.micro_tpr is not None:  # (both or neither)
            (self.micro_line_,) = ax.plot(
                curves.micro_fpr,
                curves.micro_tpr,
                color="black",
                linestyle=":",
                linewidth=2,
                label=with_name(self.name, f"micro-average (AUC = {curves.micro_auc:.3f})"),
            )
        if macro:
            (self.macro_line_,) = ax.plot(
                self.macro_fpr,
                self.macro_tpr,
                color="dimgrey",
                linestyle="--",
                linewidth=2,
                label=with_name(self.name, f"macro-average (AUC = {self.macro_auc:.3f})"),
            )
        if plot_chance_level:
            self.chance_level_ = draw_chance_level(ax, [0, 1], [0, 1], "chance (AUC = 0.5)", chance_level_kw)
        ax.set(
            xlim=(-0.01, 1.01),
            ylim=(-0.01, 1.01),
            aspect="equal",
            xlabel="False positive rate",
            ylabel="True positive rate",
            title=f"{self.name}: one-vs-rest ROC curves" if self.name else "One-vs-rest ROC curves",
        )
        place_legend(ax, "lower right", widen=made_figure)
        return self
