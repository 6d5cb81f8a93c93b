"""ROC-DMF display: the multiclass curve of a binomial factorization, its bootstrap band and D."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

import numpy as np
from numpy.typing import ArrayLike, NDArray

from polyroc._validation import check_option
from polyroc.dmf import DmfRoc, roc_dmf
from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs, class_colors, draw_chance_level, new_axes, with_name

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

__all__ = ["DmfRocDisplay"]


class DmfRocDisplay(Display):
    """The ROC-DMF curve of a :class:`~polyroc.dmf.DmfRoc`, with its bootstrap band when there is one.

    What the axes mean. For every ordered class pair (a, b) and every cut-off
    level, the true-positive rate is the share of class-a rows whose class-a
    score is above the cut-off, and the false-positive rate the share of
    class-b rows whose class-a score is above it. ROC-DMF fits the logits of
    all these rates with one factor per cut-off level plus a pair effect,
    ``logit rate ≈ Λ0 + Λ V_pair``, the pair effects averaging 0 (Wang &
    Carvalho (2024), "Multiclass ROC", arXiv:2404.13147). The curve is the
    common factor ``expit(Λ0)``: the fitted rates of a *typical* class pair,
    one whose pair effect is the average. Hence the axis labels
    "false-positive rate, typical class pair (fitted)" and "true-positive
    rate, typical class pair (fitted)": they are neither the rates of one
    pair nor plain averages of the rates (averaging happens on the logit
    scale). D is the area under this curve, drawn in cut-off order from
    (0, 0) through ``(result.fpr, result.tpr)`` to (1, 1).

    A bootstrapped result also gets its pointwise band (``bootstrap.band_fpr``,
    ``band_low``, ``band_high``), faintly shaded in the curve's colour (or,
    with ``band_style="outline"``, drawn as two thin dotted lines, which never
    blur into the bands of other models). Several models drawn on one Axes take
    distinct colours (:func:`polyroc.plotting._common.class_colors`, the
    ``tab10`` colours first) and share one chance line; the legend lists each
    model with its D and, when bootstrapped, its interval. For one panel per
    model, see :meth:`from_results`.

    Parameters
    ----------
    result : DmfRoc
        From :func:`polyroc.dmf.roc_dmf`.
    name : str, default=None
        Name of the model, prefixed to the legend label.

    Attributes
    ----------
    result : DmfRoc
    line_ : matplotlib.lines.Line2D
        The curve; its data are ``[0, *result.fpr, 1]`` and ``[0, *result.tpr, 1]``.
    band_ : matplotlib.collections.PolyCollection or None
        The bootstrap band (None without a bootstrap or with ``plot_band=False``).
    chance_level_ : matplotlib.lines.Line2D or None
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    See Also
    --------
    polyroc.dmf.roc_dmf : The curve and D this Display draws.
    polyroc.dmf.compare_models : ROC-DMF of several models, for :meth:`from_results`.
    GiniRocDisplay : Another single multiclass ROC curve.
    RocCurveDisplay : The one-vs-rest curves of each class.

    References
    ----------
    Wang, L. & Carvalho, L. (2024). Multiclass ROC. arXiv:2404.13147.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 40)
    >>> P = rng.dirichlet(np.ones(3), size=120) + 0.6 * np.eye(3)[y]
    >>> disp = DmfRocDisplay.from_predictions(y, P, n_levels=19, name="model")
    >>> disp.line_.get_label() == f"model ROC-DMF (D = {disp.result.D:.3f})"
    True
    >>> disp.line_.get_xdata().size  # 19 levels and the two endpoints
    21
    >>> disp.ax_.get_xlabel()
    'false-positive rate, typical class pair (fitted)'
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    # artists drawn by plot
    line_: Line2D

    result_type = DmfRoc

    def __init__(self, result: DmfRoc, *, name: str | None = None) -> None:
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
        levels: ArrayLike | None = None,
        n_levels: int = 99,
        cutoff_grid: str = "pooled",
        method: str = "intercept",
        weighting: str | ArrayLike = "unweighted",
        trials: str = "pairs",
        monotone: bool = False,
        bootstrap: str | None = None,
        n_boot: int = 1000,
        confidence: float = 0.95,
        random_state: int | np.random.Generator | None = None,
        ax: Axes | None = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> DmfRocDisplay:
        """Compute :func:`polyroc.dmf.roc_dmf` and plot it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels.
        y_score : array-like of shape (n_samples, n_classes)
            Scores, one column per class (rows need not sum to 1).
        labels, sample_weight, levels, n_levels, cutoff_grid, method, weighting, trials, monotone
            As :func:`polyroc.dmf.roc_dmf`.
        bootstrap, n_boot, confidence, random_state
            As :func:`polyroc.dmf.roc_dmf`: ``bootstrap="stratified"`` or
            ``"parametric"`` adds the band (none by default).
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model.
        **kwargs
            Passed to :meth:`plot`.

        Returns
        -------
        DmfRocDisplay

        Raises
        ------
        ValueError, TypeError
            As :func:`polyroc.dmf.roc_dmf`.

        See Also
        --------
        polyroc.dmf.roc_dmf : The computation.
        DmfRocDisplay.from_results : Several models on one figure.

        Examples
        --------
        >>> rng = np.random.default_rng(1)
        >>> y = np.repeat([0, 1, 2], 30)
        >>> P = rng.dirichlet(np.ones(3), size=90) + np.eye(3)[y]
        >>> disp = DmfRocDisplay.from_predictions(y, P, n_levels=9, bootstrap="stratified", n_boot=20,
        ...                                       random_state=0)
        >>> disp.band_.get_label()
        '95% stratified bootstrap band'
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        result = roc_dmf(
            y_true,
            y_score,
            labels=labels,
            sample_weight=sample_weight,
            levels=levels,
            n_levels=n_levels,
            cutoff_grid=cutoff_grid,
            method=method,
            weighting=weighting,
            trials=trials,
            monotone=monotone,
            bootstrap=bootstrap,
            n_boot=n_boot,
            confidence=confidence,
            random_state=random_state,
        )
        return cls(result).plot(ax=ax, name=name, **kwargs)

    @classmethod
    def from_results(
        cls,
        results: Mapping[str, DmfRoc],
        *,
        panels: bool = False,
        ax: Axes | Sequence[Axes] | NDArray[np.object_] | None = None,
        **kwargs: Any,
    ) -> list[DmfRocDisplay]:
        """Draw the ROC-DMF of several models: on one Axes, or one panel per model.

        Parameters
        ----------
        results : mapping of str to DmfRoc
            Model name -> result (e.g. ``compare_models(...).results``).
        panels : bool, default=False
            One panel per model (shared axes, same colours as on one Axes)
            instead of all curves on one Axes.
        ax : matplotlib.axes.Axes or array of Axes, default=None
            Where to draw: one Axes (``panels=False``) or one per model; default
            a new figure.
        **kwargs
            Passed to :meth:`plot` (``band_style``, ``band_kw`` ...).

        Returns
        -------
        list of DmfRocDisplay
            One per model, in the order of ``results``.

        Raises
        ------
        TypeError
            If ``results`` is not a mapping of names to :class:`~polyroc.dmf.DmfRoc`.
        ValueError
            If ``results`` is empty, or ``ax`` does not hold one Axes per model with ``panels``.

        See Also
        --------
        polyroc.dmf.compare_models : The results of several models, with their ranking.
        DmfRocDisplay.plot : How each curve is drawn.

        Examples
        --------
        >>> from polyroc.dmf import compare_models
        >>> rng = np.random.default_rng(1)
        >>> y = np.repeat([0, 1, 2], 30)
        >>> scores = {name: rng.dirichlet(np.ones(3), 90) + s * np.eye(3)[y] for name, s in [("a", 1), ("b", 0.3)]}
        >>> cmp = compare_models(y, scores, n_levels=9, bootstrap="stratified", n_boot=20, random_state=0)
        >>> shown = DmfRocDisplay.from_results(cmp.results, panels=True)
        >>> len(shown), shown[0].ax_ is not shown[1].ax_
        (2, True)
        >>> import matplotlib.pyplot as plt; plt.close(shown[0].figure_)
        """
        if not isinstance(results, Mapping) or not all(isinstance(r, DmfRoc) for r in results.values()):
            raise TypeError("results must be a mapping of model names to DmfRoc results")
        if not results:
            raise ValueError("results must hold at least one model")
        names = list(results)
        colours = class_colors(len(names))
        if not panels:
            ax = new_axes(ax)
            return [
                cls(results[name]).plot(ax=ax, name=name, **_with_colour(kwargs, colour))
                for name, colour in zip(names, colours)
            ]
        if ax is None:  # a pyplot figure, as every other Display makes, so plt.show() shows it
            import matplotlib.pyplot as plt

            figsize = (3.6 * len(names), 3.8)
            _, row = plt.subplots(
                1, len(names), squeeze=False, figsize=figsize, sharex=True, sharey=True, layout="constrained"
            )
            ax = row[0]
        axes = list(np.ravel(ax))  # type: ignore[arg-type]  # one Axes ravels to a list of one
        if len(axes) != len(names):
            raise ValueError(f"ax must hold one Axes per model ({len(names)}) with panels=True, got {len(axes)}")
        shown = []
        for name, colour, panel in zip(names, colours, axes):
            shown.append(cls(results[name]).plot(ax=panel, name=name, **_with_colour(kwargs, colour)))
            panel.set_title(f"ROC-DMF: {name}")
        return shown

    def plot(  # type: ignore[override]  # adds its own keywords to the base's ax and name
        self,
        ax: Axes | None = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
        plot_band: bool = True,
        band_kw: dict | None = None,
        band_style: str = "fill",
    ) -> DmfRocDisplay:
        """Draw the curve, its band and the chance line.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model (default the Display's), prefixed to the label.
        curve_kwargs : dict, default=None
            Passed to ``Axes.plot`` for the curve (e.g. ``{"color": "C2"}``);
            default colour: the next of
            :func:`~polyroc.plotting._common.class_colors` on this Axes.
        plot_chance_level : bool, default=True
            Draw the diagonal (D = 0.5), once per Axes.
        chance_level_kw : dict, default=None
            Passed to ``Axes.plot`` for the chance line.
        plot_band : bool, default=True
            Draw the bootstrap band when the result has one.
        band_kw : dict, default=None
            Passed to ``Axes.fill_between`` for the band.
        band_style : {"fill", "outline"}, default="fill"
            ``"fill"``: a faint shade (alpha 0.15, no edge); ``"outline"``: no
            fill, the band's two limits as thin dotted lines (for many models).

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax``, ``name``, ``curve_kwargs``, ``chance_level_kw`` or ``band_kw``.
        ValueError
            An unknown ``band_style``.

        See Also
        --------
        DmfRocDisplay.from_predictions : Compute the curve and draw it.
        DmfRocDisplay.from_results : Several models on one Axes or in panels.

        Examples
        --------
        >>> from polyroc.dmf import roc_dmf
        >>> y = np.repeat([0, 1, 2], 20)
        >>> P = np.random.default_rng(0).dirichlet(np.ones(3), 60) + np.eye(3)[y]
        >>> disp = DmfRocDisplay(roc_dmf(y, P, n_levels=9)).plot(curve_kwargs={"color": "C2"},
        ...                                                      plot_chance_level=False)
        >>> disp.line_.get_color(), disp.chance_level_
        ('C2', None)
        >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
        """
        result = self.result
        curve_kwargs = check_kwargs("curve_kwargs", curve_kwargs)
        band_kw = check_kwargs("band_kw", band_kw)
        check_option("band_style", band_style, BAND_STYLES)
        ax = self._start(ax, name)
        entries = _LEGEND_ENTRIES.setdefault(ax, [])
        colour = class_colors(len(entries) + 1)[len(entries)]
        style = {"label": with_name(self.name, f"ROC-DMF (D = {result.D:.3f})"), "color": colour, **curve_kwargs}
        (self.line_,) = ax.plot(np.r_[0.0, result.fpr, 1.0], np.r_[0.0, result.tpr, 1.0], **style)
        self.band_ = None
        boot = result.bootstrap
        if plot_band and boot is not None:
            self.band_ = self._draw_band(ax, boot, band_style, band_kw)
        entries.append(((self.line_,) if self.band_ is None else (self.band_, self.line_), self._legend_text()))
        self.chance_level_ = None
        if plot_chance_level:
            self.chance_level_ = draw_chance_level(ax, [0, 1], [0, 1], "chance (D = 0.5)", chance_level_kw)
        ax.set(xlabel=X_LABEL, ylabel=Y_LABEL, xlim=(0, 1), ylim=(0, 1.01), title="ROC-DMF")
        self._legend(ax, entries)
        return self

    def _draw_band(self, ax, boot, band_style, band_kw):
        settings = boot.settings
        kind = settings.get("bootstrap")
        label = f"{100 * settings['confidence']:g}% {kind + ' ' if kind else ''}bootstrap band"
        colour = self.line_.get_color()
        if band_style == "fill":
            look = {"color": colour, "alpha": BAND_ALPHA, "linewidth": 0}
        else:
            look = {"facecolor": "none", "edgecolor": colour, "linewidth": 0.8, "linestyle": ":"}
        style = {**look, "label": with_name(self.name, label), **band_kw}
        return ax.fill_between(boot.band_fpr, boot.band_low, boot.band_high, **style)

    def _legend_text(self):
        """``name: D = 0.912 [0.897, 0.925]`` (the interval only with a bootstrap)."""
        result = self.result
        text = f"D = {result.D:.3f}"
        if result.ci is not None:
            text += f" [{result.ci.low:.3f}, {result.ci.high:.3f}]"
        return text if self.name is None else f"{self.name}: {text}"

    @staticmethod
    def _legend(ax, entries):
        """One legend entry per ROC-DMF curve on ``ax`` (curve over its band), then the chance line."""
        from matplotlib.legend_handler import HandlerTuple

        handles = [handle for handle, _ in entries]
        labels = [text for _, text in entries]
        chance = [line for line in ax.get_lines() if line.get_label().startswith("chance")]
        title = "D [bootstrap interval]" if any(len(handle) == 2 for handle in handles) else None
        ax.legend(
            handles + chance[:1],
            labels + [line.get_label() for line in chance[:1]],
            loc="lower right",
            fontsize="small",
            title=title,
            title_fontsize="small",
            handler_map={tuple: HandlerTuple(ndivide=1)},
        )


BAND_STYLES = ("fill", "outline")
BAND_ALPHA = 0.15
X_LABEL = "false-positive rate, typical class pair (fitted)"
Y_LABEL = "true-positive rate, typical class pair (fitted)"
#: Legend entries of the ROC-DMF curves drawn on each Axes, in drawing order.
_LEGEND_ENTRIES: WeakKeyDictionary = WeakKeyDictionary()


def _with_colour(kwargs, colour):
    """``kwargs`` with ``curve_kwargs["color"]`` set to ``colour`` unless given."""
    curve = check_kwargs("curve_kwargs", kwargs.get("curve_kwargs"))
    return {**kwargs, "curve_kwargs": {"color": colour, **curve}}
