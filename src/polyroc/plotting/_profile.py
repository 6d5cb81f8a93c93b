"""Tuning profile display: the score along each threshold coordinate through τ* (any m)."""

from __future__ import annotations

import numpy as np

from polyroc._counts import line_sweep_counts
from polyroc._validation import THRESHOLD_DOMAINS, check_option, check_scores, check_thresholds
from polyroc.counts import get_metric, metric_name
from polyroc.plotting._common import class_color, new_axes
from polyroc.thresholds.samplers import barycentre
from polyroc.thresholds.search import coordinate_bounds, score_at
from polyroc.thresholds.tuning import tune_thresholds

__all__ = ["TuningProfileDisplay"]


def coordinate_profile(targets, threshold, coordinate, score_counts, domain):
    """Exact score of argmax(p − τ) along τ_j = τ*_j + δ, the other coordinates fixed.

    δ ranges over the interval where the re-centred τ stays in the domain
    (:func:`polyroc.thresholds.search.coordinate_bounds`); the score is
    piecewise constant between the breakpoints found by one line sweep.
    Returns ``(edges, values)``, the K + 1 segment edges in δ and the K
    values, or ``(None, None)`` if the interval is empty.
    """
    lo, hi = coordinate_bounds(threshold, coordinate, domain)
    if not hi > lo:
        return None, None
    y_true, y_score, _, weights = targets
    lefts, values = [], []
    for left, right, counts in line_sweep_counts(y_true, y_score, threshold, coordinate, (lo, hi), weights):
        lefts.append(left)
        values.append(np.asarray(score_counts(counts), dtype=np.float64))
    edges = np.append(np.concatenate(lefts), hi) - threshold[coordinate]
    return edges, np.concatenate(values)


class TuningProfileDisplay:
    """Score of the rule argmax(p − τ) along each coordinate line through τ*.

    For any number of classes m (the simplex heat map needs m = 3): line j
    moves τ_j by δ with the other thresholds fixed at τ*, over the range that
    keeps τ in the domain once re-centred (adding a constant to τ changes no
    prediction). The score is exact and piecewise constant (one line sweep
    per class), drawn as steps; δ = 0 is τ* (vertical line and star), the
    dashed horizontal line is the score of plain argmax. At a coordinate-wise
    optimum (``search="coordinate"``) no line rises above the star; a line
    that does shows a better τ one coordinate away.

    Parameters
    ----------
    edges : list of ndarray or None
        Per class, the segment edges in δ (K_j + 1,), or None.
    values : list of ndarray or None
        Per class, the score on each segment (K_j,), or None.
    best_threshold : array-like of shape (m,)
        τ*.
    best_score : float
        Score of τ* (the star).
    argmax_score : float
        Score of plain argmax (the dashed line).
    metric : str, default="score"
    classes : array-like of shape (m,), default=None

    Attributes
    ----------
    lines_ : list of matplotlib.patches.StepPatch or None
        The profile of each class; ``lines_[j].get_data()`` gives
        ``(values, edges, baseline)``.
    best_marker_ : matplotlib.lines.Line2D
    argmax_line_ : matplotlib.lines.Line2D
    ax_ : matplotlib.axes.Axes
    figure_ : matplotlib.figure.Figure

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 3, 3]
    >>> P = [[.4, .3, .2, .1], [.3, .3, .3, .1], [.2, .5, .2, .1], [.3, .25, .25, .2],
    ...      [.1, .2, .6, .1], [.25, .25, .3, .2], [.1, .1, .2, .6], [.3, .2, .2, .3]]
    >>> disp = TuningProfileDisplay.from_predictions(y, P, resolution=8)
    >>> disp.argmax_score, disp.best_score, max(float(values.max()) for values in disp.values)
    (0.75, 0.875, 0.875)
    >>> import matplotlib.pyplot as plt; plt.close(disp.figure_)
    """

    def __init__(self, edges, values, best_threshold, best_score, argmax_score, *, metric="score", classes=None):
        self.edges, self.values = list(edges), list(values)
        self.best_threshold = np.asarray(best_threshold, dtype=np.float64)
        self.best_score, self.argmax_score = float(best_score), float(argmax_score)
        self.metric = metric
        self.classes = np.arange(self.best_threshold.size) if classes is None else np.asarray(classes)

    @classmethod
    def from_threshold(
        cls, y_true, y_score, threshold, *, metric="accuracy", domain="simplex", labels=None,
        sample_weight=None, **plot_kw,
    ):
        """Profiles through a given threshold vector τ.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, m)
            Probability scores, columns in the class order.
        threshold : array-like of shape (m,)
            τ, on ``domain``.
        metric : str or callable, default="accuracy"
            As :func:`polyroc.thresholds.tune_thresholds`.
        domain : {"simplex", "box"}, default="simplex"
        labels, sample_weight
            Class order and weights.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        TuningProfileDisplay

        Raises
        ------
        ValueError, TypeError
            Invalid scores, labels, weights, metric, domain or threshold.
        """
        check_option("domain", domain, THRESHOLD_DOMAINS)
        score_counts = get_metric(metric)
        targets = check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight)
        n_classes = targets.classes.size
        threshold = check_thresholds(threshold, n_classes, domain=domain)
        profiles = [coordinate_profile(targets, threshold, j, score_counts, domain) for j in range(n_classes)]
        edges, values = zip(*profiles)
        display = cls(
            edges, values, threshold, score_at(targets, threshold, score_counts),
            score_at(targets, barycentre(n_classes, domain=domain), score_counts),
            metric=metric_name(metric),
            classes=targets.classes,
        )
        return display.plot(**plot_kw)

    @classmethod
    def from_result(cls, result, y_true, y_score, *, sample_weight=None, metric=None, **plot_kw):
        """Profiles through the τ* of a ``TuningResult``, on the data it was tuned on (or other data).

        Parameters
        ----------
        result : TuningResult
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, m)
            Columns in ``result.classes`` order.
        sample_weight : array-like of shape (n_samples,), default=None
        metric : str or callable, default=None
            Default ``result.metric``; pass the callable when the result was
            tuned with a custom metric (its name cannot be looked up).
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        TuningProfileDisplay
        """
        return cls.from_threshold(
            y_true, y_score, result.best_threshold, metric=result.metric if metric is None else metric,
            domain=result.domain, labels=result.classes, sample_weight=sample_weight, **plot_kw,
        )

    @classmethod
    def from_predictions(
        cls, y_true, y_score, *, metric="accuracy", resolution=None, n_samples=None, domain="simplex",
        labels=None, sample_weight=None, random_state=None, **plot_kw,
    ):
        """Tune τ* by coordinate ascent (``tune_thresholds(search="coordinate")``) and profile it.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
        y_score : array-like of shape (n_samples, m)
        metric, resolution, n_samples, domain, labels, sample_weight, random_state
            As :func:`polyroc.thresholds.tune_thresholds`.
        **plot_kw
            Passed to :meth:`plot`.

        Returns
        -------
        TuningProfileDisplay
        """
        result = tune_thresholds(
            y_true, y_score, metric=metric, search="coordinate", resolution=resolution, n_samples=n_samples,
            domain=domain, labels=labels, sample_weight=sample_weight, random_state=random_state,
        )
        return cls.from_result(result, y_true, y_score, sample_weight=sample_weight, metric=metric, **plot_kw)

    def plot(self, ax=None):
        """Draw one step line per class, τ* and the argmax level.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.

        Returns
        -------
        self
        """
        ax = new_axes(ax, figsize=(6.5, 4.2))
        self.lines_ = []
        for j, (label, edges, values) in enumerate(zip(self.classes, self.edges, self.values)):
            line = None
            if edges is not None:
                line = ax.stairs(values, edges, baseline=None, color=class_color(j), linewidth=1.5,
                                 label=f"τ_{label} (τ* = {self.best_threshold[j]:.3f})")
            self.lines_.append(line)
        ax.axvline(0.0, color="black", linestyle=":", linewidth=1)
        self.argmax_line_ = ax.axhline(self.argmax_score, color="grey", linestyle="--", linewidth=1,
                                       label=f"argmax ({self.argmax_score:.3f})")
        (self.best_marker_,) = ax.plot(
            0.0, self.best_score, linestyle="none", marker="*", markersize=15, markerfacecolor="red",
            markeredgecolor="black", label=f"τ* ({self.best_score:.3f})",
        )
        ax.set(xlabel="δ: change of τ_j from τ* (other thresholds fixed)", ylabel=self.metric,
               title=f"{self.metric} along each threshold coordinate through τ*")
        ax.legend(loc="best", fontsize="small")
        self.ax_, self.figure_ = ax, ax.figure
        return self
