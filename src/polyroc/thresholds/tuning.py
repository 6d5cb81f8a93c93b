"""Tuning the simplex thresholds: the argmax of a metric over sampled tau.

Algorithm 1 of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794,
with a Monte Carlo alternative to the lattice and an exact coordinate ascent.

The default search depends on the number of classes m: the lattice is fine
and cheap for m <= 4 (r = 200 at m = 3), but at m = 10 a lattice of 25,000
points has steps of 1/8 and at m = 20 of 1/4, too coarse to move away from
the barycentre. From m = 5 on, the default is therefore an exact coordinate
ascent (one exact line search per coordinate, O(n log n) each), started from
the best point of a lattice whose brute-force cost is bounded.

The search scores every sampled threshold through the counts engine and keeps
only the running best (and the whole surface when asked), so memory does not
grow with the number of thresholds. The barycentre (plain argmax) is always
among the candidates, so the tuned score is never below the argmax score on
the tuning data.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._results import Drawable, html_table, jsonable
from polyroc._validation import (
    THRESHOLD_DOMAINS,
    check_score_matrix,
    check_scores,
    with_scaled_weights,
)
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.counts import metric_name
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.thresholds.batches import (
    AUTO_LATTICE_MAX_CLASSES,
    coordinate_start_resolution,
    iter_batches,
    resolve_search,
)
from polyroc.thresholds.objectives import check_cost_pairing, is_cost, tuning_objective
from polyroc.thresholds.rules import apply_thresholds
from polyroc.thresholds.samplers import barycentre
from polyroc.thresholds.search import argmax_score, checked_metric, coordinate_ascent, score_at

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

SEARCHES = ("auto", "lattice", "random", "coordinate")
TIE_BREAKS = ("closest", "first")

__all__ = ["TuningResult", "tune_thresholds"]


@dataclass(frozen=True, eq=False, repr=False)
class TuningResult(Drawable):
    """Tuned thresholds tau*, their score, and the settings that produced them.

    Attributes
    ----------
    best_threshold : ndarray of shape (n_classes,)
        tau*, on the search domain; predict with :meth:`predict`.
    best_score : float
        Metric value of tau* on the tuning data (the expected cost for
        ``metric="expected_cost"``).
    argmax_score : float
        Metric value of plain argmax (the barycentre) on the tuning data.
    classes : ndarray of shape (n_classes,)
        The class order of the score columns and of ``best_threshold``.
    metric : str
        Metric name (the callable's ``__name__`` for a custom metric).
    n_thresholds : int
        Number of sampled thresholds scored (barycentre included).
    thresholds, scores : ndarray or None
        The searched surface, (M, m) and (M,), when ``return_surface=True``
        (the scores in the metric's own sign: costs for a cost).
    settings : dict
        The options actually used: ``"search"`` (``"lattice"``, ``"random"``
        or ``"coordinate"``; ``"auto"`` is resolved to one of them),
        ``"domain"``, ``"tie_break"``, ``"resolution"`` (lattice resolution,
        also the start of a coordinate search, else None), ``"n_samples"``
        (number of Monte Carlo thresholds, else None) and ``"random_state"``
        (as given). The read-only properties ``search``,
        ``domain``, ``resolution`` and ``n_samples`` read them.
    greater_is_better : bool
        Whether higher values of the metric are better (scikit-learn's
        ``make_scorer`` vocabulary): True for the metrics, False for
        ``"expected_cost"``, which tau* minimises.

    See Also
    --------
    tune_thresholds : Makes this result.
    polyroc.thresholds.coordinate_profile : The score along each coordinate through tau*.
    polyroc.thresholds.compare_rules : Tune on validation data and compare rules on test data.
    polyroc.plotting.SimplexHeatmapDisplay : Draws the searched surface (m = 3).

    Examples
    --------
    >>> result = tune_thresholds([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
    ...                          resolution=10)
    >>> result.best_score, result.settings["search"], result.resolution
    (1.0, 'lattice', 10)
    >>> frame = result.to_frame()  # one row per class
    >>> frame["class"].tolist(), frame["threshold"].round(2).tolist()
    ([0, 1, 2], [0.4, 0.3, 0.3])
    >>> result.equals_argmax
    False

    With a cost matrix, tau* minimises the expected cost and lower is better:

    >>> costs = [[0, 1, 1], [4, 0, 1], [1, 1, 0]]  # missing class 1 costs 4
    >>> cost = tune_thresholds([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
    ...                        metric="expected_cost", cost_matrix=costs, resolution=10)
    >>> cost.greater_is_better, cost.argmax_score, cost.best_score, cost.improvement
    (False, 1.0, 0.0, 1.0)
    """

    best_threshold: np.ndarray
    best_score: float
    argmax_score: float
    classes: np.ndarray
    metric: str
    n_thresholds: int
    thresholds: np.ndarray | None = None
    scores: np.ndarray | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    greater_is_better: bool = True

    @property
    def search(self) -> str:
        """``settings["search"]``: how tau was searched."""
        return self.settings["search"]

    @property
    def domain(self) -> str:
        """``settings["domain"]``: where tau lies, ``"simplex"`` or ``"box"``."""
        return self.settings["domain"]

    @property
    def resolution(self) -> int | None:
        """``settings["resolution"]``: the lattice resolution, or None."""
        return self.settings["resolution"]

    @property
    def n_samples(self) -> int | None:
        """``settings["n_samples"]``: the number of Monte Carlo thresholds, or None."""
        return self.settings["n_samples"]

    @property
    def equals_argmax(self) -> bool:
        """Whether tau* is the barycentre (all components equal), i.e. the tuned rule is plain argmax.

        This is the case when no searched threshold beat argmax (ties go to
        the threshold closest to the barycentre by default). A tau* with
        unequal components can still predict like argmax on particular
        data; ``improvement`` is 0 then.
        """
        return bool(np.all(self.best_threshold == self.best_threshold[0]))

    @property
    def improvement(self) -> float:
        """How much tau* beats argmax on the tuning data (>= 0 there).

        ``best_score - argmax_score`` when higher is better, the cost saved
        ``argmax_score - best_score`` when lower is better.
        """
        gain = self.best_score - self.argmax_score
        return gain if self.greater_is_better else -gain

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data, with ``improvement`` (see :meth:`Result.to_dict`).

        Returns
        -------
        dict
            ``{"type": "TuningResult", <field>: <value>, ..., "improvement": ...}``;
            arrays become lists, so ``json.dumps`` writes it as strict JSON.

        See Also
        --------
        to_frame : One row per class as a pandas DataFrame.

        Examples
        --------
        >>> result = tune_thresholds([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
        ...                          resolution=10)
        >>> record = result.to_dict()
        >>> record["type"], record["best_threshold"], round(record["improvement"], 4)
        ('TuningResult', [0.4, 0.3, 0.3], 0.2222)
        >>> record["settings"]["search"], record["thresholds"]
        ('lattice', None)
        """
        return {**super().to_dict(), "improvement": jsonable(self.improvement)}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per class: its tuned threshold, with the scores repeated on each row."""
        return [
            {
                "class": label,
                "threshold": float(tau),
                "metric": self.metric,
                "best_score": self.best_score,
                "argmax_score": self.argmax_score,
                "greater_is_better": self.greater_is_better,
            }
            for label, tau in zip(self.classes.tolist(), self.best_threshold)
        ]

    def _view_sections(self) -> list[str]:
        """τ* with its classes, then its score against argmax's."""
        scores: list[list[Any]] = [
            [f"{self.metric} at τ* (tuning data)", self.best_score],
            [f"{self.metric} of argmax (tuning data)", self.argmax_score],
            ["improvement" if self.greater_is_better else "cost saved (lower is better)", self.improvement],
            ["thresholds scored", self.n_thresholds],
        ]
        rows = [[label, tau] for label, tau in zip(self.classes.tolist(), self.best_threshold)]
        return [html_table(rows, ["class", "τ*"], "Tuned τ*"), html_table(scores, None, "Scores")]

    def _view_notes(self) -> list[str]:
        if not self.equals_argmax:
            return []
        return ["τ* is the barycentre: no searched threshold beat argmax on the tuning data, so the rule is argmax."]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the tuned rule: its score surface, its decision regions, or its thresholds.

        With 3 classes, the score surface on the simplex when the result has
        it (``return_surface=True``; :class:`polyroc.plotting.SimplexHeatmapDisplay`),
        else the regions of argmax(p − τ*) on the simplex
        (:class:`polyroc.plotting.DecisionRegionsDisplay`). With any other
        number of classes, τ* of each class against equal thresholds
        (:class:`polyroc.plotting.ThresholdsDisplay`). For any m,
        :func:`polyroc.thresholds.coordinate_profile` gives the score along
        each threshold coordinate through τ* on data.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to the display's ``from_result``.

        Returns
        -------
        display : SimplexHeatmapDisplay, DecisionRegionsDisplay or ThresholdsDisplay
            The display, drawn (``display.ax_``, ``display.figure_``).

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string, or
            a keyword is unknown to the display's ``plot``.

        See Also
        --------
        polyroc.plotting.SimplexHeatmapDisplay : The surface, for 3 classes.
        polyroc.plotting.DecisionRegionsDisplay : The regions of τ*, for 3 classes.
        polyroc.plotting.ThresholdsDisplay : τ* of each class, for any m.
        polyroc.thresholds.CoordinateProfile.plot : The profile along each coordinate, for any m.

        Examples
        --------
        >>> y, P = [0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]]
        >>> type(tune_thresholds(y, P, resolution=6, return_surface=True).plot()).__name__
        'SimplexHeatmapDisplay'
        >>> type(tune_thresholds(y, P, resolution=6).plot()).__name__
        'DecisionRegionsDisplay'
        >>> type(tune_thresholds([0, 1, 1], [[.6, .4], [.45, .55], [.3, .7]]).plot()).__name__
        'ThresholdsDisplay'
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        return super().plot(ax, **kwargs)

    def predict(self, y_score: ArrayLike) -> np.ndarray:
        """Labels of the tuned rule on new probability scores (columns in ``classes`` order).

        Parameters
        ----------
        y_score : array-like of shape (n_samples, n_classes)
            Probability scores. A DataFrame whose column names are the
            ``classes`` has each column taken by its name.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes``.

        Raises
        ------
        ValueError
            As :func:`polyroc.thresholds.apply_thresholds`: rows of
            ``y_score`` that are not probability vectors, a number of
            columns of ``y_score`` other than ``len(classes)``, or a
            DataFrame whose column names are some of ``classes`` but not all.
        TypeError
            If ``y_score`` is not numeric.

        See Also
        --------
        polyroc.thresholds.apply_thresholds : The same rule for any thresholds.
        polyroc.thresholds.SimplexThresholdClassifier.predict : Tuned and applied inside an estimator.

        Examples
        --------
        >>> result = tune_thresholds([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
        ...                          resolution=10)
        >>> result.best_threshold.tolist()
        [0.4, 0.3, 0.3]
        >>> result.predict([[.2, .5, .3], [.45, .4, .15]]).tolist()  # plain argmax: [1, 0]
        [1, 1]
        """
        scores = check_score_matrix(y_score, classes=self.classes)
        if scores.shape[1] != self.classes.size:
            raise ValueError(
                f"y_score has {scores.shape[1]} columns but the thresholds were tuned for "
                f"{self.classes.size} classes (one column per class, in the order of classes)"
            )
        return apply_thresholds(scores, self.best_threshold, domain=self.domain, labels=self.classes)


def _distance_to_barycentre(thresholds):
    """Distance of each tau to the line of constants (the argmax rule)."""
    return np.linalg.norm(thresholds - thresholds.mean(axis=1, keepdims=True), axis=1)


def _chunk_best(thresholds, scores, tie_break):
    """Index of the best threshold of a chunk and its tie-break distance."""
    best = np.flatnonzero(scores == scores.max())
    if tie_break == "first":
        return int(best[0]), 0.0
    distances = _distance_to_barycentre(thresholds[best])
    closest = int(np.argmin(distances))
    return int(best[closest]), float(distances[closest])


def _search_batches(batches, objective, tie_break, keep_surface):
    """Running best over the batches: (threshold, n_thresholds, n_nan, surface or None).

    NaN scores rank below every number.
    """
    best_threshold, best_score, best_distance = None, -np.inf, np.inf
    surface, n_thresholds, n_nan = [], 0, 0
    for thresholds, counts in batches:
        scores = objective(counts)
        undefined = np.isnan(scores)
        n_nan += int(undefined.sum())
        ranked = np.where(undefined, -np.inf, scores)
        index, distance = _chunk_best(thresholds, ranked, tie_break)
        better = ranked[index] > best_score
        closer = tie_break == "closest" and ranked[index] == best_score and distance < best_distance
        if best_threshold is None or better or closer:
            best_threshold, best_score, best_distance = thresholds[index].copy(), ranked[index], distance
        n_thresholds += thresholds.shape[0]
        if keep_surface:
            surface.append((thresholds, scores))
    if not keep_surface:
        return best_threshold, n_thresholds, n_nan, None
    return best_threshold, n_thresholds, n_nan, tuple(np.concatenate(a) for a in zip(*surface))


def _warn_undefined(name, n_nan, n_thresholds):
    """Raise if the metric is NaN everywhere; warn if it is NaN somewhere."""
    if n_nan == n_thresholds:
        raise ValueError(f"metric {name!r} is NaN at every one of the {n_thresholds:,} thresholds searched")
    if n_nan:
        _warnings.warn(
            f"metric {name!r} is NaN at {n_nan:,} of {n_thresholds:,} thresholds; they rank below every number",
            UndefinedMetricWarning,
        )


def _resolve_auto(search, resolution, n_samples, targets, domain):
    """The search and start resolution actually used (``"auto"`` resolved, a coordinate start filled in)."""
    n_rows, n_classes = targets.y_score.shape
    if search == "auto":
        if resolution is not None:
            search = "lattice"
        elif n_samples is not None:
            search = "random"
        else:
            search = "lattice" if n_classes <= AUTO_LATTICE_MAX_CLASSES else "coordinate"
    if search == "coordinate" and resolution is None and n_samples is None:
        resolution = coordinate_start_resolution(n_rows, n_classes, domain=domain)
    return search, resolution


def _start(targets, search, resolution, n_samples, options, objective):
    """Best sampled threshold: (tau, n_thresholds, n_nan, surface or None, (resolution, n_samples)).

    A coordinate search without a start sample starts from the barycentre alone.
    """
    domain, rng, tie_break, keep_surface = options
    n_classes = targets.classes.size
    if search == "coordinate" and resolution is None and n_samples is None:
        start = barycentre(n_classes, domain=domain)
        surface = (start[None], np.array([argmax_score(targets, objective)])) if keep_surface else None
        return start, 1, 0, surface, (None, None)
    sampled = "random" if search == "random" or (search == "coordinate" and n_samples is not None) else "lattice"
    resolution, n_samples = resolve_search(sampled, resolution, n_samples, n_classes, domain)
    batches = iter_batches(targets, sampled, resolution, n_samples, domain, rng if sampled == "random" else None)
    return (*_search_batches(batches, objective, tie_break, keep_surface), (resolution, n_samples))


@validate_params(
    {
        "search": [Options(SEARCHES)],
        "resolution": [None, Interval("integer", 1, None, closed="left")],
        "n_samples": [None, Interval("integer", 1, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
        "tie_break": [Options(TIE_BREAKS)],
        "random_state": ["random_state"],
    }
)
def tune_thresholds(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    metric: str | Callable = "f1_macro",
    search: str = "auto",
    resolution: int | None = None,
    n_samples: int | None = None,
    domain: str = "simplex",
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    tie_break: str = "closest",
    random_state: int | np.random.Generator | None = None,
    return_surface: bool = False,
    cost_matrix: ArrayLike | None = None,
) -> TuningResult:
    """Tune the thresholds tau of the rule argmax(p - tau) to maximise a metric or minimise an expected cost.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels of the tuning (validation) data.
    y_score : array-like of shape (n_samples, n_classes)
        Probability scores, columns in the class order.
    metric : str or callable, default="f1_macro"
        A name known to :func:`polyroc.counts.get_metric` (e.g.
        ``"accuracy"``, ``"balanced_accuracy"``, ``"matthews_corrcoef"``) or a
        callable mapping counts (M, m, m) to scores (M,): higher is better.
        Or ``"expected_cost"``: the mean cost ``cost_matrix[true, decided]``
        (:func:`polyroc.decisions.expected_cost`), which tau* minimises
        (``result.greater_is_better`` is False).
    search : {"auto", "lattice", "random", "coordinate"}, default="auto"
        ``"lattice"``: every point c / r of the uniform lattice (exact optimum
        over the lattice). ``"random"``: uniform Monte Carlo thresholds.
        ``"coordinate"``: exact coordinate ascent (one exact line search per
        coordinate, cycled until no move improves the score, at most 100
        sweeps) started from the best point of the lattice of ``resolution``
        or of ``n_samples`` random thresholds; with neither, from the lattice
        of the largest resolution whose brute-force cost (points x rows x
        classes) is at most 5 * 10^7, or from the barycentre alone when even
        r = 1 costs more (see
        :func:`polyroc.thresholds.coordinate_start_resolution`). It never ends
        below its start. ``"auto"``: the lattice if ``resolution`` is given,
        random search if ``n_samples`` is given, otherwise the lattice at its
        default resolution for m <= 4 classes and the coordinate ascent for
        m >= 5. ``settings["search"]`` records the search used.
    resolution : int, default=None
        Lattice resolution r; for the lattice the default is the largest
        r <= 200 with at most 25,000 lattice points. Lattices above 2,000,000
        points are refused.
    n_samples : int, default=None
        Number of Monte Carlo thresholds (default 20,000 for ``"random"``).
    domain : {"simplex", "box"}, default="simplex"
        Search on the probability simplex (the paper's) or on the box
        {min tau = 0, max tau <= 1}, which holds more rules for m >= 3.
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples (scale-free: multiplying every
        weight by a constant changes nothing).
    tie_break : {"closest", "first"}, default="closest"
        Among sampled thresholds with the best score: the one closest to the
        barycentre (the most argmax-like), or the first in sampling order
        (lattice order as SimplexTools; the barycentre comes last). A
        coordinate ascent moves only to strictly better thresholds.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the Monte Carlo thresholds (``search="random"``, or
        ``"coordinate"`` with ``n_samples``). Checked whatever the search.
    return_surface : bool, default=False
        Keep every sampled threshold and its score in the result (for a
        coordinate search, those of its start).
    cost_matrix : array-like or pandas.DataFrame of shape (n_classes, n_classes), default=None
        With ``metric="expected_cost"`` (and only then): ``cost_matrix[i, j]``
        is the cost of deciding class j when the class is i, rows and columns
        in ``labels`` order, finite and non-negative. A DataFrame is labelled
        by the classes on both axes, in any order.

    Returns
    -------
    result : TuningResult
        ``result.equals_argmax`` tells whether tau* is plain argmax.

    Raises
    ------
    ValueError
        On invalid scores, labels or weights; ``y_score`` is a DataFrame
        whose column names are some of the classes but not all; an unknown
        option or metric name; ``n_samples`` with the lattice, ``resolution`` with random search, or
        both with ``search="coordinate"``; a lattice or a random sample above
        2,000,000 thresholds (the message gives its size and suggests another
        search); a negative ``random_state``; a metric callable that does not
        map counts (M, m, m) to M scores, or a metric that is NaN at every
        threshold; ``metric="expected_cost"`` without ``cost_matrix``, a
        ``cost_matrix`` with another metric, or a ``cost_matrix`` not of shape
        (m, m), with NaN, infinite or negative entries, or (a DataFrame) not
        labelled by the classes.
    TypeError
        On a metric that is neither a name nor callable; a non-numeric ``cost_matrix``; non-numeric scores
        or weights; labels mixing strings and numbers; a non-integer
        ``resolution`` or ``n_samples``; or a ``random_state`` that is not
        None, an integer or a Generator (whatever the search).

    Warns
    -----
    UndefinedMetricWarning
        When the metric is NaN at some thresholds (they rank below every number).

    See Also
    --------
    TuningResult.predict : Apply tau* to new scores.
    polyroc.thresholds.SimplexThresholdClassifier : Tune tau on held-out probabilities of an estimator.
    polyroc.thresholds.coordinate_profile : Check tau* along each threshold coordinate.
    polyroc.thresholds.compare_rules : Tune on validation data, score the rules on test data.

    Notes
    -----
    ``best_score`` is the metric of ``apply_thresholds(y_score,
    best_threshold)`` on the tuning data, computed by the plain rule, bit for
    bit, and it is never below ``argmax_score`` (the barycentre is always a
    candidate and is exactly plain argmax); for ``"expected_cost"`` it is the
    expected cost of that rule and never above ``argmax_score``. A cost is
    searched as its negative (as scikit-learn's ``make_scorer`` with
    ``greater_is_better=False``); it is linear in the counts, so each line
    search of the coordinate ascent costs O(n log n) for it too. The lattice fast path gives the
    counts of the float64 rule at every lattice point, tied scores included
    (the counts :func:`~polyroc.thresholds.threshold_batches` yields). Each line search of
    the coordinate ascent is exact and costs O(n log n) for accuracy, macro
    F1, macro precision and recall, balanced accuracy and MCC (O(n m^2) per
    line for other metrics).

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1 and eq. (6): tau* maximises the metric over thresholds
    sampled on the simplex.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> P = [[.5, .4, .1], [.4, .45, .15], [.3, .6, .1],
    ...      [.2, .5, .3], [.3, .2, .5], [.2, .45, .35]]
    >>> result = tune_thresholds(y, P, resolution=20)
    >>> result.argmax_score, result.best_score
    (0.6666666666666666, 1.0)
    >>> result.best_threshold.round(2).tolist()
    [0.35, 0.4, 0.25]
    >>> result.predict(P).tolist()
    [0, 0, 1, 1, 2, 2]

    Minimising an expected cost where deciding 0 for a true 1 costs 5:

    >>> costs = [[0, 1, 1], [5, 0, 1], [1, 1, 0]]
    >>> cost = tune_thresholds(y, P, metric="expected_cost", cost_matrix=costs, resolution=20)
    >>> round(cost.argmax_score, 4), cost.best_score, cost.greater_is_better
    (0.3333, 0.0, False)
    """
    rng = np.random.default_rng(random_state)  # declared whatever the search, read only by random thresholds
    check_cost_pairing(metric, cost_matrix)
    if not is_cost(metric):
        checked_metric(metric)  # a bad metric is named before the data are checked
    targets = with_scaled_weights(check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight))
    tuned = tuning_objective(metric, cost_matrix, targets.classes)
    objective = tuned.score
    if search == "coordinate" and resolution is not None and n_samples is not None:
        raise ValueError(
            "search='coordinate' starts from a lattice (resolution) or a random sample (n_samples), not both"
        )
    search, resolution = _resolve_auto(search, resolution, n_samples, targets, domain)
    options = (domain, rng, tie_break, return_surface)
    best_threshold, n_thresholds, n_nan, surface, (resolution, n_samples) = _start(
        targets, search, resolution, n_samples, options, objective
    )
    _warn_undefined(tuned.name, n_nan, n_thresholds)
    if search == "coordinate":
        best_threshold, best_score, _ = coordinate_ascent(
            targets, best_threshold, objective, domain=domain, margin_score=tuned.line_form
        )
    else:
        # The reported score is that of the returned tau under the plain rule, the one
        # apply_thresholds uses: batched float-weight sums may differ from it in the last bit.
        best_score = score_at(targets, best_threshold, objective)
    return tuning_result(
        best_threshold,
        best_score,
        argmax_score(targets, objective),
        classes=targets.classes,
        metric=metric,
        n_thresholds=n_thresholds,
        surface=surface,
        settings=search_settings(search, domain, tie_break, resolution, n_samples, random_state),
        greater_is_better=tuned.greater_is_better,
    )


def search_settings(search, domain, tie_break, resolution, n_samples, random_state, **extra) -> dict[str, Any]:
    """:attr:`TuningResult.settings` of a search."""
    return {
        "search": search,
        "domain": domain,
        "tie_break": tie_break,
        "resolution": resolution,
        "n_samples": n_samples,
        "random_state": random_state,
        **extra,
    }


def tuning_result(
    best_threshold,
    best_score,
    argmax_value,
    *,
    classes,
    metric,
    n_thresholds,
    surface,
    settings,
    greater_is_better=True,
):
    """The :class:`TuningResult` of a search: its best threshold and score, or the barycentre when argmax scores
    higher or the best is NaN. ``settings`` (:func:`search_settings`) name the ``"domain"``.

    Scores are the searched values, higher is better; with ``greater_is_better=False``
    (a negated cost) they are reported negated back."""
    if argmax_value > best_score or np.isnan(best_score):
        # The barycentre is plain argmax under the rule; with float weights its batched
        # counts can be summed in another order and score an ulp lower: it is the best.
        best_threshold, best_score = barycentre(classes.size, domain=settings["domain"]), argmax_value
    sign = 1.0 if greater_is_better else -1.0
    return TuningResult(
        best_threshold=best_threshold,
        best_score=sign * best_score,
        argmax_score=sign * argmax_value,
        classes=classes,
        metric=metric_name(metric),
        n_thresholds=n_thresholds,
        thresholds=None if surface is None else surface[0],
        scores=None if surface is None else sign * surface[1],
        settings=settings,
        greater_is_better=greater_is_better,
    )
