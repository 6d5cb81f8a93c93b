"""Tuned thresholds display: τ* of each class against equal thresholds (plain argmax), for any m."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs, class_colors, short_label, with_name
from polyroc.thresholds.tuning import TuningResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["ThresholdsDisplay"]


class ThresholdsDisplay(Display):
    """One bar per class: its tuned threshold τ*_j, beside the equal thresholds of plain argmax.

    The rule argmax(p − τ) does not change when every τ_j moves by the same
    amount, so what τ* changes is how far each τ*_j lies from their mean (the
    dashed line; 1/m on the simplex): a class whose bar is below the line is
    predicted more often than by argmax, one above it less often. Drawn from a
    :class:`~polyroc.thresholds.TuningResult` alone, for any number of classes
    (the data-dependent views are :class:`SimplexHeatmapDisplay` and
    :class:`DecisionRegionsDisplay` for 3 classes, :class:`TuningProfileDisplay`
    for any).

    Parameters
    ----------
    result : TuningResult
        From :func:`polyroc.thresholds.tune_thresholds`.
    name : str, default=None
        Name of the model, in the title.

    Attributes
    ----------
    result : TuningResult
    bars_ : matplotlib.container.BarContainer
        One bar per class, in ``result.classes`` order.
    argmax_line_ : matplotlib.lines.Line2D
        The mean of τ*: equal thresholds, the rule of plain argmax.
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.thresholds.TuningResult.plot : Draws this for a result without its 3-class surface.
    TuningProfileDisplay : The score along each coordinate through τ*, from the data.

    Examples
    --------
    >>> from polyroc.thresholds import tune_thresholds
    >>> result = tune_thresholds([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
    ...                          resolution=10)
    >>> disp = ThresholdsDisplay.from_result(result)
    >>> [float(bar.get_height()) for bar in disp.bars_], round(float(disp.argmax_line_.get_ydata()[0]), 4)
    ([0.4, 0.3, 0.3], 0.3333)
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    result_type = TuningResult

    def __init__(self, result: TuningResult, *, name: str | None = None) -> None:
        self.result = result
        self.name = name

    def plot(self, ax: Axes | None = None, *, name: str | None = None, bar_kw: dict | None = None) -> ThresholdsDisplay:  # type: ignore[override]  # adds its own keywords to the base's ax and name
        """Draw the bars of τ* and the line of equal thresholds.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model, in the title (default the Display's).
        bar_kw : dict, default=None
            Passed to ``Axes.bar``.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` not a string or
            ``bar_kw`` not a dict.

        See Also
        --------
        ThresholdsDisplay.from_result : Build and draw in one call.
        class_colors : The colours of the bars.

        Examples
        --------
        >>> from polyroc.thresholds import tune_thresholds
        >>> result = tune_thresholds([0, 1, 1], [[.6, .4], [.45, .55], [.3, .7]], resolution=20)
        >>> disp = ThresholdsDisplay(result).plot(name="model", bar_kw={"alpha": 0.5})
        >>> disp.ax_.get_title(), disp.bars_[0].get_alpha()
        ('model f1_macro 1.000 at τ* (argmax 1.000)', 0.5)
        >>> cost = tune_thresholds([0, 1, 1], [[.6, .4], [.45, .55], [.3, .7]], metric="expected_cost",
        ...                        cost_matrix=[[0, 1], [3, 0]], resolution=20)
        >>> ThresholdsDisplay(cost).plot().ax_.get_title()
        'expected_cost 0.000 at τ* (argmax 0.000; lower is better)'
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        bar_kw = check_kwargs("bar_kw", bar_kw)
        result = self.result
        n_classes = result.classes.size
        ax = self._start(ax, name, figsize=(max(4.0, 0.5 * n_classes + 2.0), 3.8))
        positions = np.arange(n_classes)
        self.bars_ = ax.bar(positions, result.best_threshold, **{"color": class_colors(n_classes), **bar_kw})
        level = float(np.mean(result.best_threshold))
        self.argmax_line_ = ax.axhline(
            level, color="grey", linestyle="--", linewidth=1, label=f"equal thresholds: argmax ({level:.3f})"
        )
        ax.set_xticks(positions, [short_label(label) for label in result.classes.tolist()])
        direction = "" if result.greater_is_better else "; lower is better"
        title = f"{result.metric} {result.best_score:.3f} at τ* (argmax {result.argmax_score:.3f}{direction})"
        ax.set(xlabel="class", ylabel="tuned threshold τ*", title=with_name(self.name, title))
        ax.legend(loc="best", fontsize="small")
        return self
