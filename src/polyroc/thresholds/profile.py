"""The score of the rule argmax(p - tau) along each threshold coordinate through a tau*.

Line j moves tau_j by delta with the other thresholds fixed, over the range
that keeps tau in the domain once re-centred (adding a constant to tau changes
no prediction). Along such a line the predictions change only where a sample
crosses a region boundary, so the score is piecewise constant and one line
sweep per class gives it exactly (Legnaro, Guastavino & Marchetti (2025),
arXiv:2511.21794, for the rule and its threshold domains).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.parallel import chunk_map
from polyroc._results import Drawable
from polyroc._validation import (
    THRESHOLD_DOMAINS,
    check_scores,
    check_thresholds,
    with_scaled_weights,
)
from polyroc._validation._params import Options, validate_params
from polyroc.thresholds.objectives import Objective, check_cost_pairing, is_cost, tuning_objective
from polyroc.thresholds.search import (
    argmax_score,
    checked_metric,
    coordinate_bounds,
    line_values,
    score_at,
)
from polyroc.thresholds.tuning import tune_thresholds

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

__all__ = ["CoordinateProfile", "coordinate_profile"]


@dataclass(frozen=True, eq=False, repr=False)
class CoordinateProfile(Drawable):
    """Exact score of argmax(p - tau) along each coordinate line through a threshold tau*.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        The class order of the score columns and of ``threshold``.
    threshold : ndarray of shape (n_classes,)
        tau*, the point the lines go through (delta = 0).
    score : float
        Metric value of tau* (the rule applied by :func:`apply_thresholds`);
        the expected cost for ``metric="expected_cost"``.
    argmax_score : float
        Metric value of plain argmax.
    edges : tuple of (ndarray of shape (K_j + 1,) or None)
        Per class j, the segment edges in delta = tau_j - tau*_j, increasing;
        None when the line has no room in the domain.
    values : tuple of (ndarray of shape (K_j,) or None)
        Per class j, the metric on each open segment (NaN where undefined).
    metric : str
        Metric name (the callable's ``__name__`` for a custom metric).
    settings : dict
        ``{"domain": ...}``, plus ``"search"`` and ``"resolution"`` when tau*
        was tuned here.
    greater_is_better : bool
        False for ``metric="expected_cost"``: the best value on a line is
        then its minimum.

    See Also
    --------
    coordinate_profile : Makes this result.
    polyroc.plotting.TuningProfileDisplay : Draws one step line per class.
    polyroc.thresholds.TuningResult : The tuning whose tau* is profiled by default.

    Examples
    --------
    >>> profile = coordinate_profile([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
    ...                              [1 / 3, 1 / 3, 1 / 3])
    >>> profile.score, profile.to_frame()["best_on_line"].tolist()
    (0.7777777777777777, [1.0, 1.0, 0.7777777777777777])
    """

    classes: np.ndarray
    threshold: np.ndarray
    score: float
    argmax_score: float
    edges: tuple[np.ndarray | None, ...]
    values: tuple[np.ndarray | None, ...]
    metric: str
    settings: dict[str, Any]
    greater_is_better: bool = True

    def best_on_lines(self) -> np.ndarray:
        """The best score on each line.

        Returns
        -------
        best : ndarray of shape (n_classes,)
            The maximum of ``values[j]`` (the minimum for a cost; NaN for a
            line without room or where the metric is undefined everywhere).

        See Also
        --------
        to_frame : These maxima in column ``best_on_line``, one row per class.

        Examples
        --------
        >>> y = [0, 1, 2, 1]
        >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]]
        >>> profile = coordinate_profile(y, P, [1 / 3, 1 / 3, 1 / 3])
        >>> profile.best_on_lines().round(4).tolist(), round(profile.score, 4)  # lines 0 and 1 rise above tau*
        ([1.0, 1.0, 0.7778], 0.7778)
        >>> coordinate_profile(y, P, [1.0, 0.0, 0.0]).best_on_lines().tolist()  # no room on lines 1 and 2
        [1.0, nan, nan]
        """
        best = np.nanmax if self.greater_is_better else np.nanmin
        return np.array([np.nan if v is None or np.all(np.isnan(v)) else best(v) for v in self.values])

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per class: its threshold, number of segments and best score on its line."""
        return [
            {
                "class": label,
                "threshold": float(tau),
                "n_segments": 0 if values is None else int(values.size),
                "delta_min": np.nan if edges is None else float(edges[0]),
                "delta_max": np.nan if edges is None else float(edges[-1]),
                "best_on_line": float(best),
                "score": self.score,
            }
            for label, tau, edges, values, best in zip(
                self.classes.tolist(), self.threshold, self.edges, self.values, self.best_on_lines()
            )
        ]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw one step line per class (see :class:`polyroc.plotting.TuningProfileDisplay`).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to ``TuningProfileDisplay.from_result``.

        Returns
        -------
        display : TuningProfileDisplay
            The display, drawn (``display.ax_``, ``display.figure_``).

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string, or
            a keyword is unknown to ``TuningProfileDisplay.plot`` or of the
            wrong type.
        ValueError
            If ``curve_kwargs`` is a list without one dict per class.

        See Also
        --------
        polyroc.plotting.TuningProfileDisplay : The display drawn here.
        polyroc.thresholds.TuningResult.plot : The whole score surface, for 3 classes.

        Examples
        --------
        >>> profile = coordinate_profile([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
        ...                              [1 / 3, 1 / 3, 1 / 3])
        >>> display = profile.plot()
        >>> type(display).__name__, type(display.ax_).__name__
        ('TuningProfileDisplay', 'Axes')
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        return super().plot(ax, **kwargs)


def _line_profile(
    targets, threshold: np.ndarray, coordinate: int, objective: Objective, domain: str
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Edges (K + 1,) in delta and values (K,) along line ``coordinate``, or (None, None) if it is empty."""
    lo, hi = coordinate_bounds(threshold, coordinate, domain)
    if not hi > lo:
        return None, None
    edges, values = line_values(
        targets, threshold, coordinate, (lo, hi), objective.score, objective.line_form, exact=True
    )
    return edges - threshold[coordinate], objective.reported(values)


@validate_params({"domain": [Options(THRESHOLD_DOMAINS)]})
def coordinate_profile(
    y_true: ArrayLike,
    y_score: ArrayLike,
    threshold: ArrayLike | None = None,
    *,
    metric: str | Callable = "f1_macro",
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    domain: str = "simplex",
    cost_matrix: ArrayLike | None = None,
) -> CoordinateProfile:
    """Score of the rule argmax(p - tau) along each coordinate line through a threshold tau*.

    Line j sets tau_j = tau*_j + delta with the other thresholds fixed, for
    every delta that keeps the re-centred tau in ``domain``. The score is exact
    and piecewise constant in delta (one line sweep per class). At a
    coordinate-wise optimum (``tune_thresholds(search="coordinate")``) no line
    rises above ``score``; a line that does shows a better tau one coordinate
    away.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, n_classes)
        Probability scores, columns in the class order.
    threshold : array-like of shape (n_classes,), default=None
        tau*, on ``domain``; default the thresholds tuned on these data by
        :func:`polyroc.thresholds.tune_thresholds` with its defaults (and this
        ``metric``, ``labels``, ``sample_weight`` and ``domain``).
    metric : str or callable, default="f1_macro"
        A name known to :func:`polyroc.counts.get_metric` or a callable
        mapping counts (M, m, m) to scores (M,); or ``"expected_cost"``
        with ``cost_matrix`` (lower is better).
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples (scale-free).
    domain : {"simplex", "box"}, default="simplex"
        Where ``threshold`` lies and the lines stay.
    cost_matrix : array-like or pandas.DataFrame of shape (n_classes, n_classes), default=None
        The costs of ``metric="expected_cost"`` (and only with it), as in
        :func:`polyroc.thresholds.tune_thresholds`.

    Returns
    -------
    profile : CoordinateProfile
        The exact score on every segment of each line, with the score of
        tau* and of plain argmax.

    Raises
    ------
    ValueError
        On invalid scores, labels or weights; ``y_score`` is a DataFrame
        whose column names are some of the classes but not all; an unknown
        domain or metric name; a threshold of the wrong length, non-finite or outside the
        domain; a metric callable that does not map counts (M, m, m) to M
        scores; ``metric="expected_cost"`` without a valid ``cost_matrix``,
        or a ``cost_matrix`` with another metric.
    TypeError
        On a metric that is neither a name nor callable, non-numeric scores,
        weights or thresholds, or labels mixing strings and numbers.

    See Also
    --------
    polyroc.thresholds.tune_thresholds : Tune tau* (``search="coordinate"`` gives a coordinate-wise optimum).
    CoordinateProfile.plot : Draw the profile.
    polyroc.thresholds.apply_thresholds : The rule whose score is profiled.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 2, eq. (4) (the rule) and Algorithm 1 (the tuned tau*).

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 3, 3]
    >>> P = [[.4, .3, .2, .1], [.3, .3, .3, .1], [.2, .5, .2, .1], [.3, .25, .25, .2],
    ...      [.1, .2, .6, .1], [.25, .25, .3, .2], [.1, .1, .2, .6], [.3, .2, .2, .3]]
    >>> profile = coordinate_profile(y, P, [0.25, 0.25, 0.25, 0.25])
    >>> round(profile.score, 6), round(profile.argmax_score, 6)
    (0.75, 0.75)
    >>> profile.edges[0].round(3).tolist()
    [-0.333, -0.3, -0.05, 0.0, 0.05, 0.1, 1.0]
    >>> profile.values[0].round(4).tolist()  # raising tau_0 by 0.05 to 0.1 gains a sample
    [0.4583, 0.6429, 0.75, 0.75, 0.8667, 0.6667]
    >>> round(coordinate_profile(y, P).score, 4)  # through the tuned tau*
    0.8667
    >>> costs = 1 - np.eye(4)  # 0-1 costs: the expected cost is 1 - accuracy
    >>> cost = coordinate_profile(y, P, [0.25] * 4, metric="expected_cost", cost_matrix=costs)
    >>> cost.score, cost.greater_is_better, cost.values[0].round(4).tolist()
    (0.25, False, [0.5, 0.375, 0.25, 0.25, 0.125, 0.25])
    """
    check_cost_pairing(metric, cost_matrix)
    if not is_cost(metric):
        checked_metric(metric)  # a bad metric is named before the data are checked
    targets = with_scaled_weights(check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight))
    objective = tuning_objective(metric, cost_matrix, targets.classes)
    n_classes = targets.classes.size
    settings: dict[str, Any] = {"domain": domain}
    if threshold is None:
        tuned = tune_thresholds(
            y_true,
            y_score,
            metric=metric,
            labels=labels,
            sample_weight=sample_weight,
            domain=domain,
            cost_matrix=cost_matrix,
        )
        threshold = tuned.best_threshold
        settings.update(search=tuned.settings["search"], resolution=tuned.settings["resolution"])
    tau = check_thresholds(threshold, n_classes, domain=domain)
    lines = chunk_map(lambda j: _line_profile(targets, tau, j, objective, domain), range(n_classes))  # on threads
    edges, values = zip(*lines)
    return CoordinateProfile(
        classes=targets.classes,
        threshold=tau,
        score=objective.reported(score_at(targets, tau, objective.score)),
        argmax_score=objective.reported(argmax_score(targets, objective.score)),
        edges=tuple(edges),
        values=tuple(values),
        metric=objective.name,
        settings=settings,
        greater_is_better=objective.greater_is_better,
    )
