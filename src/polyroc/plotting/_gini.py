"""Gini-weighted ROC display: the aggregated curve between the class curves, with its bands."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._text import class_name
from polyroc.gini import GiniRoc, gini_roc
from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs, class_colors, draw_chance_level, place_legend, with_name

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

__all__ = ["GiniRocDisplay"]


class GiniRocDisplay(Display):
    """The Gini-weighted multiclass ROC curve of a :class:`~polyroc.gini.GiniRoc`.

    Draws the aggregated curve ``(result.fpr, result.tpr)`` (Giudici,
    Rosciano, Schrader & Kummerfeld (2025), "A Multiclass ROC Curve",
    arXiv:2510.15670) over the one-vs-rest curve of each class (labelled with
    its Gini weight and AUC), the between-class dispersion band
    ``tpr ± dispersion`` clipped to [0, 1] (a spread between classes, not a
    confidence band), the stratified bootstrap band when the result has one,
    and the chance diagonal. With ``compat="reference"`` the reference code's
    baseline y = x/k is drawn too.

    Parameters
    ----------
    result : GiniRoc
        From :func:`polyroc.gini.gini_roc`.
    name : str, default=None
        Name of the model, prefixed to the aggregated curve's label.

    Attributes
    ----------
    result : GiniRoc
    line_ : matplotlib.lines.Line2D
        The aggregated curve.
    class_lines_ : list of matplotlib.lines.Line2D or None
        One per class (None for a class without samples, or with
        ``show_classes=False``).
    dispersion_ : matplotlib.collections.PolyCollection or None
    band_ : matplotlib.collections.PolyCollection or None
        The bootstrap band.
    chance_level_, reference_baseline_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.gini.gini_roc : The curve, weights and bands this Display draws.
    RocCurveDisplay : The one-vs-rest curves with micro and macro averages.
    DmfRocDisplay : The ROC-DMF curve, another single multiclass curve.

    References
    ----------
    Giudici, P., Rosciano, R. C., Schrader, J. & Kummerfeld, D.-M. (2025).
    A Multiclass ROC Curve. arXiv:2510.15670.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> P = [[.8, .1, .1], [.6, .3, .1], [.3, .4, .3], [.2, .7, .1], [.1, .6, .3],
    ...      [.4, .5, .1], [.1, .2, .7], [.2, .2, .6], [.5, .1, .4]]
    >>> disp = GiniRocDisplay.from_predictions(y, P, n_boot=0)  # probability rows: no warning
    >>> disp.line_.get_label()
    'Gini-weighted ROC (AUC = 0.961)'
    >>> disp.band_ is None, len(disp.class_lines_)
    (True, 3)
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    # artists drawn by plot
    line_: Line2D

    result_type = GiniRoc

    def __init__(self, result: GiniRoc, *, name: str | None = None) -> None:
        self.result = result
        self.name = name

    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        labels: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        reference_scores: ArrayLike | None = None,
        averaging: str = "vertical",
        grid: int | None = None,
        n_boot: int = 1000,
        confidence: float = 0.95,
        random_state: int | np.random.Generator | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> GiniRocDisplay:
        """Compute :func:`polyroc.gini.gini_roc` (with its default whitening options) and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, n_classes)
            Scores, one column per class.
        labels, sample_weight, reference_scores, averaging, grid
            As :func:`polyroc.gini.gini_roc`.
        n_boot, confidence, random_state
            As :func:`polyroc.gini.gini_roc` (``n_boot=0``: no bootstrap band).
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        GiniRocDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.gini.gini_roc`.

        Warns
        -----
        WhiteningWarning
            As :func:`polyroc.gini.gini_roc` (e.g. a constant score column; probability
            rows summing to 1 are the expected case and do not warn).

        See Also
        --------
        polyroc.gini.gini_roc : The computation, with all its options.
        polyroc.gini.GiniRoc.plot : Draw a result already computed.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> y = np.repeat([0, 1, 2], 20)
        >>> P = rng.dirichlet(np.ones(3), 60) + np.eye(3)[y]
        >>> disp = GiniRocDisplay.from_predictions(y, P, n_boot=50, random_state=0, show_classes=False)
        >>> disp.band_.get_label(), disp.class_lines_
        ('95% stratified bootstrap band (B=50)', [None, None, None])
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        result = gini_roc(
            y_true,
            y_score,
            labels=labels,
            sample_weight=sample_weight,
            reference_scores=reference_scores,
            averaging=averaging,
            grid=grid,
            n_boot=n_boot,
            confidence=confidence,
            random_state=random_state,
        )
        return cls(result).plot(ax=ax, name=name, **kwargs)

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
        show_classes: bool = True,
        show_dispersion: bool = True,
        plot_band: bool = True,
    ) -> GiniRocDisplay:
        """Draw the aggregated curve, the class curves, the bands and the chance line.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model (default the Display's), prefixed to the label.
        curve_kwargs : dict, default=None
            Passed to ``Axes.plot`` for the aggregated curve (default black,
            thick); the bands take its colour.
        plot_chance_level : bool, default=True
            Draw the diagonal (AUC = 0.5), once per Axes.
        chance_level_kw : dict, default=None
            Passed to ``Axes.plot`` for the chance line.
        show_classes : bool, default=True
            Draw the one-vs-rest curve of each class (thin lines).
        show_dispersion : bool, default=True
            Shade the between-class dispersion band (not a confidence band).
        plot_band : bool, default=True
            Shade the bootstrap band when the result has one.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax``, ``name``, ``curve_kwargs`` or ``chance_level_kw``.

        See Also
        --------
        GiniRocDisplay.from_predictions : Compute the curve and draw it.
        class_colors : The colours of the class curves.

        Examples
        --------
        >>> from polyroc.gini import gini_roc
        >>> y = np.repeat([0, 1, 2], 20)
        >>> P = np.random.default_rng(0).normal(size=(60, 3)) + np.eye(3)[y]  # decision values
        >>> disp = GiniRocDisplay(gini_roc(y, P, n_boot=0)).plot(show_classes=False, show_dispersion=False)
        >>> [line.get_label() for line in disp.ax_.get_lines()]
        ['Gini-weighted ROC (AUC = 0.712)', 'chance (AUC = 0.5)']
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        result = self.result
        curve_kwargs = check_kwargs("curve_kwargs", curve_kwargs)
        check_kwargs("chance_level_kw", chance_level_kw)
        made_figure = ax is None
        ax = self._start(ax, name)
        self.class_lines_ = self._draw_classes(ax) if show_classes else [None] * result.classes.size
        style = {
            "color": "black",
            "linewidth": 2.5,
            "label": with_name(self.name, f"Gini-weighted ROC (AUC = {result.auc_agg:.3f})"),
            **curve_kwargs,
        }
        (self.line_,) = ax.plot(result.fpr, result.tpr, **style)
        color = self.line_.get_color()
        self.dispersion_ = None
        if show_dispersion:
            self.dispersion_ = ax.fill_between(
                result.fpr,
                np.clip(result.tpr - result.dispersion, 0, 1),
                np.clip(result.tpr + result.dispersion, 0, 1),
                color=color,
                alpha=0.12,
                linewidth=0,
                label="between-class dispersion (±1 weighted SD, not a confidence band)",
            )
        self.band_ = None
        boot = result.bootstrap
        if plot_band and boot is not None:
            self.band_ = ax.fill_between(
                boot.fpr,
                boot.tpr_low,
                boot.tpr_high,
                color=color,
                alpha=0.3,
                linewidth=0,
                label=f"{100 * boot.settings['confidence']:g}% stratified bootstrap band (B={boot.settings['n_boot']})",
            )
        self.chance_level_ = None
        if plot_chance_level:
            self.chance_level_ = draw_chance_level(ax, [0, 1], [0, 1], "chance (AUC = 0.5)", chance_level_kw)
        self.reference_baseline_ = None
        if result.settings.get("compat") == "reference":
            k = result.classes.size
            (self.reference_baseline_,) = ax.plot(
                [0, 1],
                [0, 1 / k],
                color="grey",
                linestyle=":",
                linewidth=1,
                label=f"reference code's baseline y = x/{k} (area 1/(2k) = {1 / (2 * k):.3f})",
            )
        ax.set(
            xlim=(0, 1),
            ylim=(0, 1.01),
            xlabel="False positive rate",
            ylabel="True positive rate",
            title=f"{self.name}: Gini-weighted multiclass ROC" if self.name else "Gini-weighted multiclass ROC",
        )
        place_legend(ax, "lower right", widen=made_figure)
        return self

    def _draw_classes(self, ax: Any) -> list[Any]:
        """The one-vs-rest curve of each class, labelled with its weight and AUC (None: no samples)."""
        result = self.result
        colors = class_colors(result.classes.size)
        lines = []
        for k, (label, fpr, tpr, weight, auc) in enumerate(
            zip(result.classes, result.class_fpr, result.class_tpr, result.weights, result.class_auc)
        ):
            line = None
            if not np.isnan(auc):
                share = "" if np.isnan(weight) else f"w = {weight:.3f}, "  # NaN: constant scores
                (line,) = ax.plot(
                    fpr,
                    tpr,
                    color=colors[k],
                    linewidth=0.8,
                    alpha=0.7,
                    label=f"{class_name(label)} ({share}AUC = {auc:.3f})",
                )
            lines.append(line)
        return lines
