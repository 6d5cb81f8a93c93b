"""ROC-DMF display: the multiclass curve of a binomial factorization, its bootstrap band and D."""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc.dmf import DmfRoc, roc_dmf
from polyroc.plotting._base import Display
from polyroc.plotting._common import check_kwargs, draw_chance_level, with_name

__all__ = ["DmfRocDisplay"]


class DmfRocDisplay(Display):
    """The ROC-DMF curve of a :class:`~polyroc.dmf.DmfRoc`, with its bootstrap band when there is one.

    The curve is drawn in cut-off order from (0, 0) through the fitted
    points ``(result.fpr, result.tpr)`` to (1, 1), the polygon whose
    trapezoid area is D (Wang & Carvalho (2024), "Multiclass ROC",
    arXiv:2404.13147). Its axes are FPR-like and TPR-like: the expit of the
    fitted row intercepts, not the rates of one classifier. A bootstrapped
    result also gets its pointwise band (``bootstrap.band_fpr``,
    ``band_low``, ``band_high``) shaded in the curve's colour. Several models
    drawn on one Axes each take the next colour of the property cycle and
    share one chance line.

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
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

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
        ax: Any = None,
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

    def plot(
        self,
        ax: Any = None,
        *,
        name: str | None = None,
        curve_kwargs: dict | None = None,
        plot_chance_level: bool = True,
        chance_level_kw: dict | None = None,
        plot_band: bool = True,
        band_kw: dict | None = None,
    ) -> DmfRocDisplay:
        """Draw the curve, its band and the chance line.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        name : str, default=None
            Name of the model (default the Display's), prefixed to the label.
        curve_kwargs : dict, default=None
            Passed to ``Axes.plot`` for the curve (e.g. ``{"color": "C2"}``).
        plot_chance_level : bool, default=True
            Draw the diagonal (D = 0.5), once per Axes.
        chance_level_kw : dict, default=None
            Passed to ``Axes.plot`` for the chance line.
        plot_band : bool, default=True
            Shade the bootstrap band when the result has one.
        band_kw : dict, default=None
            Passed to ``Axes.fill_between`` for the band.

        Returns
        -------
        self

        Raises
        ------
        TypeError
            A bad ``ax``, ``name``, ``curve_kwargs``, ``chance_level_kw`` or ``band_kw``.

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
        ax = self._start(ax, name)
        style = {"label": with_name(self.name, f"ROC-DMF (D = {result.D:.3f})"), **curve_kwargs}
        (self.line_,) = ax.plot(np.r_[0.0, result.fpr, 1.0], np.r_[0.0, result.tpr, 1.0], **style)
        self.band_ = None
        boot = result.bootstrap
        if plot_band and boot is not None:
            settings = boot.settings
            kind = settings.get("bootstrap")
            label = f"{100 * settings['confidence']:g}% {kind + ' ' if kind else ''}bootstrap band"
            band_style = {
                "color": self.line_.get_color(),
                "alpha": 0.2,
                "linewidth": 0,
                "label": with_name(self.name, label),
                **band_kw,
            }
            self.band_ = ax.fill_between(boot.band_fpr, boot.band_low, boot.band_high, **band_style)
        self.chance_level_ = None
        if plot_chance_level:
            self.chance_level_ = draw_chance_level(ax, [0, 1], [0, 1], "chance (D = 0.5)", chance_level_kw)
        ax.set(
            xlabel="FPR-like  expit(Λ0 fp)",
            ylabel="TPR-like  expit(Λ0 tp)",
            xlim=(0, 1),
            ylim=(0, 1.01),
            title="ROC-DMF",
        )
        ax.legend(loc="lower right", fontsize="small")
        return self
