"""The seeded, stratified bootstrap and the confidence-interval result (public path: :mod:`polyroc.resampling`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from polyroc import _warnings
from polyroc._engine.counts import chunk_length, confusion_cells, confusion_counts
from polyroc._engine.parallel import chunk_map
from polyroc._engine.progress import task
from polyroc._engine.replicate_columns import LANE_WIDTH
from polyroc._results import Result, interval_table
from polyroc._text import count_noun
from polyroc._validation import (
    check_label_vector,
    check_targets,
    resolve_classes,
    scale_weights,
)
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.counts import get_metric, metric_name
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._shared_draws import keep_draws, kept_draws

__all__ = [
    "ConfidenceInterval",
    "PairedRuleScores",
    "bootstrap_multiplicities",
    "paired_rule_scores",
    "percentile_interval",
]

#: The declared constraint of every ``confidence``: a level in (0, 1).
CONFIDENCE = Interval("real", 0, 1, closed="neither")

#: The declared constraint of a number of replicates or draws: an int >= 1.
POSITIVE_COUNT = Interval("integer", 1, None, closed="left")

#: Replicates per block of :func:`sample_major_multiplicities` (a sample's counts of a block are one 64-bit
#: word of bytes); chunks of replicates that start at a multiple of it share their blocks' draws.
DRAW_BLOCK = LANE_WIDTH

#: ``interval_method`` of the intervals of :func:`polyroc.evaluate`.
STRATIFIED_PERCENTILE = "stratified percentile bootstrap"
#: ``interval_method`` of the intervals of :func:`paired_rule_scores`.
PAIRED_STRATIFIED_PERCENTILE = "paired stratified percentile bootstrap"

#: Below this many rows predicted differently by a rule and the baseline, :func:`paired_rule_scores`
#: warns that the percentile interval of their difference is unreliable. With 4 such rows, each
#: equally likely to favour either rule, the 95% interval of an accuracy difference excludes 0 in
#: about 8% of data sets (300 simulated data sets of 60 rows), not 5%; an exact sign test on those
#: rows cannot reject at 5% below 6 of them.
FEW_CHANGED_ROWS = 10


def too_few_changed_rows(n_changed: int) -> bool:
    """Whether a bootstrap interval of a paired difference rests on too few differing rows (< :data:`FEW_CHANGED_ROWS`).

    Used by :func:`supported_sign` and by the warning of :func:`paired_rule_scores`.
    """
    return n_changed < FEW_CHANGED_ROWS


def supported_sign(low: float, high: float, n_changed: int | None = None) -> int:
    """Whether a paired difference's interval supports a direction: +1 (higher), -1 (lower) or 0 (cannot tell).

    The one rule behind every "better" or "worse" polyroc states, and behind
    the warning of :func:`paired_rule_scores`: 0 when a bound is undefined,
    when the interval holds 0, when it has zero width (a stratified bootstrap
    that cannot vary, e.g. the only differing row sits in a one-row class; see
    :func:`is_zero_width`), or when ``n_changed`` (the rows the two rules or
    models predict differently, for a bootstrap interval) is below
    :data:`FEW_CHANGED_ROWS`. Pass ``n_changed=None`` for an interval that
    is valid at any number of such rows (an exact or score interval).

    Parameters
    ----------
    low, high : float
        The interval of the difference (NaN when undefined).
    n_changed : int, default=None
        Rows predicted differently, for a bootstrap interval; None otherwise.

    Returns
    -------
    int
        +1, -1 or 0.

    Examples
    --------
    >>> supported_sign(0.02, 0.05, n_changed=40), supported_sign(0.007, 0.007, n_changed=1)
    (1, 0)
    >>> supported_sign(-0.2, -0.01), supported_sign(-0.2, 0.01)
    (-1, 0)
    """
    if not (np.isfinite(low) and np.isfinite(high)) or is_zero_width(low, high):
        return 0
    if n_changed is not None and too_few_changed_rows(n_changed):
        return 0
    return 1 if low > 0 else -1 if high < 0 else 0


def changed_rows(y: np.ndarray, y_pred: np.ndarray, baseline: np.ndarray, weights: np.ndarray) -> dict[str, Any]:
    """Rows (of positive weight) a rule predicts differently from ``baseline``, and the exact sign test on them.

    ``{"rows", "only_rule_right", "only_baseline_right", "sign_test_p"}``:
    the sign test (a two-sided binomial test at 1/2) of the rows where
    exactly one of the two is right; 1 without such rows.
    """
    from scipy.stats import binomtest

    changed = (weights > 0) & (y_pred != baseline)
    better = int(np.sum(changed & (y_pred == y)))
    worse = int(np.sum(changed & (baseline == y)))
    p_value = float(binomtest(better, better + worse).pvalue) if better + worse else 1.0
    return {"rows": int(changed.sum()), "only_rule_right": better, "only_baseline_right": worse, "sign_test_p": p_value}


@validate_params(
    {
        "n_boot": [POSITIVE_COUNT],
        "stratify": [Options((True, False))],
        "random_state": ["random_state"],
        "chunk_size": [None, POSITIVE_COUNT],
    }
)
def bootstrap_multiplicities(
    y: ArrayLike,
    n_boot: int,
    *,
    stratify: bool = True,
    random_state: int | np.random.Generator | None = None,
    chunk_size: int | None = None,
) -> Iterator[np.ndarray]:
    """Bootstrap replicates as arrays of multiplicities, chunk by chunk (an iterator).

    The arguments are checked at the call; the replicates are drawn as the
    iterator is consumed. Each array it yields has shape (b, n): row r tells
    how many times each sample is drawn in replicate r, and each row sums to
    n. With ``stratify=True``
    every class keeps its size (the draw is made within each class of ``y``).
    The same ``random_state`` gives the same replicates whatever ``chunk_size``:
    replicate r is drawn from the r-th child of the seed's generator
    (:meth:`numpy.random.Generator.spawn`).

    Parameters
    ----------
    y : array-like of shape (n,)
        Class indices (or any labels) defining the strata.
    n_boot : int
        Number of replicates, >= 1.
    stratify : bool, default=True
        Draw within each class of ``y`` (True) or from all samples (False);
        the strata are always the classes of ``y``, so this is a flag, not
        an array.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws; None draws fresh entropy from the operating system.
    chunk_size : int, default=None
        Replicates per yielded array; default keeps each array near 64 MiB.

    Returns
    -------
    iterator of ndarray of shape (b, n), dtype int64
        Multiplicities of ``b <= chunk_size`` replicates per array.

    Raises
    ------
    ValueError
        If ``n_boot`` or ``chunk_size`` is < 1, ``y`` is not 1-D, is empty
        or holds missing or non-finite values, ``stratify`` is not True or
        False, or ``random_state`` is a negative integer. Raised at the call,
        before any replicate is drawn.
    TypeError
        If ``n_boot`` or ``chunk_size`` is not an integer, ``y`` mixes
        strings and numbers or holds other objects, ``stratify`` is an array
        or a list, or ``random_state`` is not None, an integer or a
        Generator.

    See Also
    --------
    percentile_interval : The interval of the statistics of the replicates.
    paired_rule_scores : Scores several rules on the same stratified replicates.
    polyroc.evaluate : Its bootstrap intervals draw replicates this way.

    References
    ----------
    Efron, B. (1979). Bootstrap methods: another look at the jackknife. The
    Annals of Statistics 7, 1-26. doi:10.1214/aos/1176344552

    Examples
    --------
    >>> y = np.array([0, 0, 0, 1, 1])
    >>> reps = np.vstack(list(bootstrap_multiplicities(y, 4, random_state=0)))
    >>> reps.shape, reps[:, :3].sum(axis=1).tolist(), reps[:, 3:].sum(axis=1).tolist()
    ((4, 5), [3, 3, 3, 3], [2, 2, 2, 2])
    """
    targets = check_label_vector("y", y)
    rng = np.random.default_rng(random_state)
    chunk_size = chunk_length(targets.size * 8) if chunk_size is None else int(chunk_size)
    return _multiplicity_chunks(targets, int(n_boot), stratify, rng, chunk_size)


def _multiplicity_chunks(y, n_boot, stratify, rng, chunk_size):
    """The chunks of :func:`bootstrap_multiplicities`, from checked arguments."""
    members, sizes = class_strata(y) if stratify else (np.arange(y.size), [y.size])
    seeds = rng.spawn(n_boot)
    for start in range(0, n_boot, chunk_size):
        out = np.empty((min(chunk_size, n_boot - start), y.size), dtype=np.int64)
        out[:, members] = stratum_multiplicities(seeds[start : start + chunk_size], sizes, dtype=np.int64)
        yield out


def class_strata(y: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """The samples of each class of ``y`` one class after another (classes sorted), and the class sizes.

    The layout of :func:`stratum_multiplicities` in a stratified bootstrap:
    ``out[:, members] = stratum_multiplicities(seeds, sizes)`` puts the draws
    back in the order of the samples.

    >>> class_strata(np.array([1, 0, 1, 0, 0]))
    (array([1, 3, 4, 0, 2]), [3, 2])
    """
    strata = [np.flatnonzero(y == c) for c in np.unique(y)]
    return np.concatenate(strata), [stratum.size for stratum in strata]


def stratum_multiplicities(
    seeds: Sequence[np.random.Generator], sizes: Sequence[int], *, dtype: DTypeLike = np.float64
) -> np.ndarray:
    """Multiplicities (b, n) of one replicate per generator, the strata laid out one after another.

    Row r draws each stratum in turn from ``seeds[r]``: ``sizes[i]`` draws with
    replacement among the ``sizes[i]`` members of stratum i, which occupy the
    next ``sizes[i]`` columns. These are the draws of
    :func:`bootstrap_multiplicities` (whose strata are the classes in sorted
    order, members in their order in ``y``), before they are put back in the
    order of the samples.

    Parameters
    ----------
    seeds : sequence of numpy.random.Generator
        One generator per replicate (e.g. ``rng.spawn(n_boot)[start:stop]``).
    sizes : sequence of int
        Size of each stratum; the columns are ``sum(sizes)``.
    dtype : dtype, default=float64
        Type of the result.

    Returns
    -------
    ndarray of shape (len(seeds), sum(sizes))

    Examples
    --------
    >>> rows = stratum_multiplicities(np.random.default_rng(0).spawn(3), [2, 3], dtype=int)
    >>> rows[:, :2].sum(axis=1).tolist(), rows[:, 2:].sum(axis=1).tolist()
    ([2, 2, 2], [3, 3, 3])
    """
    edges = np.concatenate(([0], np.cumsum(sizes, dtype=np.intp)))
    out = np.empty((len(seeds), int(edges[-1])), dtype=dtype)
    for row, seed in zip(out, seeds):
        for start, stop, counts in _stratum_draws(seed, edges):
            row[start:stop] = counts
    return out


def sample_major_multiplicities(seeds: Sequence[np.random.Generator], sizes: Sequence[int]) -> np.ndarray:
    """The draws of :func:`stratum_multiplicities` held sample by sample: (sum(sizes), len(seeds)), contiguous.

    Column r is replicate r, in the same stratum layout. The counts are
    written straight into this layout, as ``uint8`` when every count of the
    chunk fits (a stratum of n samples draws a count above 255 with
    probability below n / 255!), else ``int32``: the layout in which gathering
    the samples of a score column's order moves whole rows of bytes (see
    :mod:`polyroc._engine.replicate_columns`), without the rows (b, n) and
    their transposition. Inside :func:`polyroc.intervals._shared_draws.shared_draws`
    each block of :data:`DRAW_BLOCK` replicates drawn by the same fresh
    generators is drawn once (a call of at most that many replicates returns
    the kept block, read-only).

    >>> seeds = np.random.default_rng(0).spawn(3)
    >>> held = sample_major_multiplicities(seeds, [2, 3])
    >>> rows = stratum_multiplicities(np.random.default_rng(0).spawn(3), [2, 3], dtype=int)
    >>> held.dtype.name, held.shape, bool(np.array_equal(held.T, rows))
    ('uint8', (5, 3), True)
    """
    if len(seeds) > DRAW_BLOCK:  # blocks of DRAW_BLOCK replicates, each kept on its own (see shared_draws)
        blocks = [
            sample_major_multiplicities(seeds[i : i + DRAW_BLOCK], sizes) for i in range(0, len(seeds), DRAW_BLOCK)
        ]
        return np.hstack(blocks)
    kept, key = kept_draws(seeds, sizes)
    if kept is not None:
        return kept
    edges = np.concatenate(([0], np.cumsum(sizes, dtype=np.intp)))
    out = np.empty((int(edges[-1]), len(seeds)), dtype=np.uint8)
    byte = np.iinfo(np.uint8).max
    for replicate, seed in enumerate(seeds):
        for start, stop, counts in _stratum_draws(seed, edges):
            if out.dtype == np.uint8 and counts.max() > byte:
                out = out.astype(np.int32)
            out[start:stop, replicate] = counts
    return keep_draws(key, out)


def _stratum_draws(seed, edges):
    """Yield ``(start, stop, counts)`` of each non-empty stratum of one replicate drawn from ``seed``."""
    for start, stop in zip(edges[:-1].tolist(), edges[1:].tolist()):
        size = stop - start
        if size:  # an empty stratum draws nothing
            yield start, stop, np.bincount(seed.integers(0, size, size), minlength=size)


@validate_params({"confidence": [CONFIDENCE]})
def percentile_interval(
    replicates: ArrayLike, *, confidence: float = 0.95, axis: int = 0
) -> tuple[np.ndarray | float, np.ndarray | float]:
    """Equal-tailed percentile interval of bootstrap replicates along ``axis``.

    Replicates that are NaN (a statistic undefined in that replicate) are left
    out, as :func:`numpy.nanquantile` does; where every replicate is NaN the
    bounds are NaN, without numpy's "All-NaN slice" warning (the statistic's
    own warning says why it is undefined).

    Parameters
    ----------
    replicates : array-like
        Bootstrap values of a statistic, replicates along ``axis``.
    confidence : float, default=0.95
        Level of the interval, in (0, 1): the bounds are the quantiles
        ``(1 - confidence) / 2`` and ``(1 + confidence) / 2``.
    axis : int, default=0
        Axis of the replicates.

    Returns
    -------
    low, high : float or ndarray
        The bounds, of the shape of ``replicates`` without ``axis``.

    Raises
    ------
    ValueError, TypeError
        If ``confidence`` is not a number in (0, 1).
    ValueError
        If ``axis`` is out of range for ``replicates`` (numpy's ``AxisError``,
        a subclass of ``ValueError``).
    TypeError
        If ``replicates`` is not numeric (numpy's error).

    See Also
    --------
    ConfidenceInterval.from_replicates : The interval with its estimate and settings.
    bootstrap_multiplicities : Draw the replicates.
    polyroc.intervals.proportion_interval : An interval without resampling, for proportions.

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993). An Introduction to the Bootstrap.
    Chapman & Hall. doi:10.1201/9780429246593 (chapter 13: percentile intervals)

    Examples
    --------
    >>> low, high = percentile_interval(np.arange(101.0), confidence=0.9)
    >>> round(float(low), 9), round(float(high), 9)
    (5.0, 95.0)
    """
    alpha = (1 - float(confidence)) / 2
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "All-NaN slice encountered", RuntimeWarning)
        low, high = np.nanquantile(np.asanyarray(replicates), [alpha, 1 - alpha], axis=axis)
    return low, high


@dataclass(frozen=True, eq=False, repr=False)
class ConfidenceInterval(Result):
    """A point estimate with a confidence interval, and the settings that produced it.

    Attributes
    ----------
    estimate : float
        The statistic on the data as given.
    low, high : float
        The bounds of the interval (NaN when no replicate defines the statistic).
    settings : dict
        ``"confidence"`` (level of the interval), ``"n_boot"`` (number of
        replicates; None for an interval made without resampling),
        ``"random_state"`` (as given) and ``"interval_method"``
        (how the interval was computed, e.g. ``"stratified percentile bootstrap"``);
        an interval made of posterior draws also has ``"n_draws"``, their number
        (its ``random_state`` is then the seed of the draws).

    See Also
    --------
    percentile_interval : The bounds of :meth:`from_replicates`.
    polyroc.evaluate : Gives one interval per score.
    polyroc.intervals.posterior_interval : A metric with its interval, made without resampling.

    Examples
    --------
    >>> ci = ConfidenceInterval.from_replicates(0.5, np.linspace(0.0, 1.0, 101), confidence=0.9,
    ...                                         interval_method="percentile bootstrap", random_state=0)
    >>> print(ci)
    0.5000 [90% CI 0.0500, 0.9500; percentile bootstrap, B=101]
    >>> ci.to_dict()["settings"]
    {'confidence': 0.9, 'n_boot': 101, 'random_state': 0, 'interval_method': 'percentile bootstrap'}
    """

    estimate: float
    low: float
    high: float
    settings: dict[str, Any]

    @classmethod
    def from_replicates(
        cls,
        estimate: float,
        replicates: ArrayLike,
        *,
        confidence: float = 0.95,
        interval_method: str = STRATIFIED_PERCENTILE,
        n_boot: int | None = None,
        random_state: int | np.random.Generator | None = None,
    ) -> ConfidenceInterval:
        """The percentile interval (:func:`percentile_interval`) of 1-D replicates around ``estimate``.

        Parameters
        ----------
        estimate : float
            The statistic on the data as given.
        replicates : array-like of shape (n_boot,)
            Its bootstrap values; NaN values are left out.
        confidence : float, default=0.95
            Level of the interval, in (0, 1).
        interval_method : str, default="stratified percentile bootstrap"
            How the replicates were drawn, recorded in ``settings``.
        n_boot : int, default=None
            Number of replicates drawn, recorded in ``settings``; default the
            length of ``replicates``.
        random_state : None, int or numpy.random.Generator, default=None
            Seed of the replicates, recorded in ``settings`` as given.

        Returns
        -------
        ConfidenceInterval

        Raises
        ------
        ValueError, TypeError
            If ``confidence`` is not a number in (0, 1).
        ValueError
            If ``estimate`` or ``replicates`` cannot be converted to floats.

        See Also
        --------
        from_bounds : An interval whose bounds come from a formula or a posterior.
        percentile_interval : The bounds alone, for replicates of any shape.

        Examples
        --------
        >>> ci = ConfidenceInterval.from_replicates(0.7, [0.6, 0.65, np.nan, 0.7, 0.8], confidence=0.5)
        >>> ci.low, ci.high, ci.n_boot
        (0.6375, 0.725, 5)
        """
        replicates = np.asarray(replicates, dtype=np.float64)
        low, high = percentile_interval(replicates, confidence=confidence)
        n_boot = int(replicates.size if n_boot is None else n_boot)
        return cls(
            estimate, float(low), float(high), _interval_settings(confidence, n_boot, random_state, interval_method)
        )

    @classmethod
    @validate_params({"confidence": [CONFIDENCE], "n_draws": [None, POSITIVE_COUNT]})
    def from_bounds(
        cls,
        estimate: float,
        low: float,
        high: float,
        *,
        confidence: float = 0.95,
        interval_method: str,
        n_draws: int | None = None,
        random_state: int | np.random.Generator | None = None,
    ) -> ConfidenceInterval:
        """An interval computed without resampling (a formula or a posterior draw): ``n_boot`` is None.

        Parameters
        ----------
        estimate : float
            The statistic on the data as given.
        low, high : float
            The bounds (NaN when the method cannot bound the statistic).
        confidence : float, default=0.95
            Level of the interval, in (0, 1).
        interval_method : str
            How the bounds were computed, recorded in ``settings`` (e.g.
            ``"Wilson score interval"``).
        n_draws : int, default=None
            Number of Monte Carlo draws the bounds are quantiles of (a
            posterior's), recorded in ``settings["n_draws"]``; None for a
            formula, which then has no ``"n_draws"`` entry.
        random_state : None, int or numpy.random.Generator, default=None
            Seed of those draws, recorded in ``settings`` as given.

        Returns
        -------
        ConfidenceInterval

        Raises
        ------
        ValueError, TypeError
            If ``confidence`` is not a number in (0, 1).
        ValueError
            If ``estimate``, ``low`` or ``high`` cannot be converted to a float.

        See Also
        --------
        from_replicates : An interval from bootstrap replicates.
        polyroc.intervals.proportion_interval : Wilson or Clopper-Pearson bounds of a proportion.

        Examples
        --------
        >>> print(ConfidenceInterval.from_bounds(0.0, 0.0, 0.4899, interval_method="Wilson score interval"))
        0.0000 [95% CI 0.0000, 0.4899; Wilson score interval]
        >>> print(ConfidenceInterval.from_bounds(0.8, 0.62, 0.91, interval_method="Dirichlet posterior",
        ...                                      n_draws=4000, random_state=0))
        0.8000 [95% CI 0.6200, 0.9100; Dirichlet posterior, 4000 draws]
        """
        settings = _interval_settings(confidence, None, random_state, interval_method)
        if n_draws is not None:
            settings["n_draws"] = int(n_draws)
        return cls(estimate, low, high, settings)

    def __post_init__(self) -> None:
        for name in ("estimate", "low", "high"):
            object.__setattr__(self, name, float(getattr(self, name)))

    @property
    def confidence(self) -> float:
        """``settings["confidence"]``: the level of the interval."""
        return self.settings["confidence"]

    @property
    def n_boot(self) -> int:
        """``settings["n_boot"]``: the number of bootstrap replicates (None without resampling)."""
        return self.settings["n_boot"]

    @property
    def n_draws(self) -> int | None:
        """``settings["n_draws"]``: the number of posterior draws (None for a bootstrap or a formula)."""
        return self.settings.get("n_draws")

    @property
    def random_state(self) -> int | np.random.Generator | None:
        """``settings["random_state"]``: the seed of the replicates or draws, as given."""
        return self.settings["random_state"]

    @property
    def method(self) -> str:
        """``settings["interval_method"]``: how the interval was computed."""
        return self.settings["interval_method"]

    def _frame_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "estimate": self.estimate,
                "low": self.low,
                "high": self.high,
                "confidence": self.confidence,
                "method": self.method,
            }
        ]

    def _view_sections(self) -> list[str]:
        """The estimate, its interval and the interval's method."""
        return [interval_table([("estimate", self.estimate, self)], "Confidence interval")]

    def __str__(self) -> str:
        percent = f"{100 * self.confidence:g}%"
        replicates = "" if self.n_boot is None else f", B={self.n_boot}"
        if self.n_draws is not None:
            replicates += f", {self.n_draws} draws"
        return f"{self.estimate:.4f} [{percent} CI {self.low:.4f}, {self.high:.4f}; {self.method}{replicates}]"


#: Relative width below which an interval is of zero width: rounding of the replicates' means, not spread.
ZERO_WIDTH = 2.0**-26


def is_zero_width(low: float, high: float) -> bool:
    """Whether the bounds are finite and closer than :data:`ZERO_WIDTH` times their magnitude."""
    return bool(np.isfinite(low) and np.isfinite(high) and high - low <= ZERO_WIDTH * max(abs(low), abs(high)))


def degenerate_interval(interval: ConfidenceInterval, reason: str) -> ConfidenceInterval:
    """``interval`` with its method marked ``"...; degenerate (zero width): <reason>"`` (its bounds unchanged)."""
    method = f"{interval.method}; degenerate (zero width): {reason}"
    return ConfidenceInterval(
        interval.estimate, interval.low, interval.high, {**interval.settings, "interval_method": method}
    )


def _interval_settings(confidence, n_boot, random_state, interval_method):
    """The ``settings`` of a :class:`ConfidenceInterval`."""
    return {
        "confidence": float(confidence),
        "n_boot": n_boot,
        "random_state": random_state,
        "interval_method": interval_method,
    }


@dataclass(frozen=True, eq=False, repr=False)
class PairedRuleScores(Result):
    """Scores of several decision rules on the same samples, with paired bootstrap intervals.

    Attributes
    ----------
    metric : str
        Name of the metric scored.
    baseline : str or None
        The rule the others are compared with.
    scores : dict
        Rule name -> :class:`ConfidenceInterval` of its score.
    differences : dict
        Rule name -> :class:`ConfidenceInterval` of (its score - the
        baseline's), from the same replicates (a paired comparison); empty
        without a baseline.
    settings : dict
        ``"metric"``, ``"n_boot"``, ``"confidence"``, ``"random_state"`` (as
        given) and ``"interval_method"``.
    changed_rows : dict
        Rule name -> the rows (of positive weight) it predicts differently
        from the baseline, ``rows``; those where only it, or only the
        baseline, is right, ``only_rule_right`` and ``only_baseline_right``;
        and the exact sign test of the latter two, ``sign_test_p``. Empty
        without a baseline. With fewer than :data:`FEW_CHANGED_ROWS` rows the
        bootstrap interval of the difference supports no direction
        (``supported_sign``).

    See Also
    --------
    paired_rule_scores : Make a PairedRuleScores.
    polyroc.comparison.ScoreComparison : Paired comparisons of models' scores, with p-values.

    Examples
    --------
    >>> y = np.array([0, 1, 2] * 10)
    >>> result = paired_rule_scores(y, {"same": y, "shifted": (y + 1) % 3}, baseline="same",
    ...                             n_boot=20, random_state=0)
    >>> result.to_frame()[["rule", "estimate", "difference"]]
          rule  estimate  difference
    0     same       1.0         NaN
    1  shifted       0.0        -1.0
    """

    metric: str
    baseline: str | None
    scores: dict[str, ConfidenceInterval]
    differences: dict[str, ConfidenceInterval]
    settings: dict[str, Any]
    changed_rows: dict[str, dict[str, Any]] = field(default_factory=dict)

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per rule: its score and interval, and its difference from the baseline."""
        nan = float("nan")
        rows = []
        for name, interval in self.scores.items():
            difference = self.differences.get(name)
            rows.append(
                {
                    "rule": name,
                    "estimate": interval.estimate,
                    "low": interval.low,
                    "high": interval.high,
                    "difference": nan if difference is None else difference.estimate,
                    "difference_low": nan if difference is None else difference.low,
                    "difference_high": nan if difference is None else difference.high,
                }
            )
        return rows


def _check_predictions(predictions: Any, baseline: str | None) -> None:
    if not isinstance(predictions, Mapping):
        raise TypeError(
            f"predictions must be a mapping of rule name to predicted labels, got {type(predictions).__name__}"
        )
    if not predictions:
        raise ValueError("predictions must name at least one rule")
    if baseline is not None and baseline not in predictions:
        raise ValueError(f"baseline {baseline!r} is not one of the rules {list(predictions)}")


@validate_params({"n_boot": [POSITIVE_COUNT], "confidence": [CONFIDENCE], "random_state": ["random_state"]})
def paired_rule_scores(
    y_true: ArrayLike,
    predictions: Mapping[str, ArrayLike],
    *,
    metric: str | Callable = "accuracy",
    labels: ArrayLike | None = None,
    baseline: str | None = None,
    sample_weight: ArrayLike | None = None,
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
) -> PairedRuleScores:
    """Score several rules' predictions with one stratified bootstrap shared by all rules.

    Every replicate resamples the same rows for every rule, so the interval of
    a difference reflects only how the rules disagree (a paired bootstrap).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    predictions : mapping of str to array-like of shape (n,)
        Each rule's predicted labels.
    metric : str or callable, default="accuracy"
        As :func:`polyroc.counts.get_metric`.
    labels : array-like, default=None
        Class order; default the sorted labels of ``y_true`` and the predictions.
    baseline : str, default=None
        Name of the rule the others are compared with.
    sample_weight : array-like of shape (n,), default=None
        Non-negative weights of relative importance; a replicate weights each
        sample by its multiplicity times its weight.
    n_boot : int, default=1000
        Bootstrap replicates, >= 1.
    confidence : float, default=0.95
        Level of the percentile intervals, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap.

    Returns
    -------
    PairedRuleScores

    Warns
    -----
    IntervalWarning
        When a rule predicts differently from ``baseline`` on fewer than
        :data:`FEW_CHANGED_ROWS` rows (with positive weight): the percentile
        interval of their difference then rests on a handful of rows and can
        exclude 0 too often. The message gives the exact sign test on the
        rows where exactly one of the two rules is right.

    Raises
    ------
    TypeError
        If ``predictions`` is not a mapping, ``metric`` is neither a string
        nor callable, labels mix strings and numbers (within an array, or
        ``y_true`` against a rule's predictions or ``labels``),
        ``sample_weight`` is not numeric, ``n_boot`` is not an integer,
        ``confidence`` not a real number, or ``random_state`` not None, an
        integer or a Generator.
    ValueError
        If ``predictions`` is empty, ``baseline`` is not one of its rules,
        ``metric`` names no metric (the message lists the valid names), a
        prediction and ``y_true`` differ in length, are empty or hold
        missing values, a label is outside ``labels``, ``labels`` repeats a
        label or names fewer than two classes, ``y_true`` and the
        predictions hold only one class between them (without ``labels``;
        the message says to pass ``labels=``), ``sample_weight`` is
        invalid, ``n_boot`` < 1, ``confidence`` is not in (0, 1), or
        ``random_state`` is a negative integer.

    See Also
    --------
    PairedRuleScores : The result, with ``to_frame``.
    polyroc.comparison.compare_scores : Compare models' score matrices, with tests and p-values.
    polyroc.intervals.posterior_interval : One rule's metric with a posterior interval.

    References
    ----------
    Efron, B. (1979). Bootstrap methods: another look at the jackknife. The
    Annals of Statistics 7, 1-26. doi:10.1214/aos/1176344552

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 2, 2] * 10)
    >>> rules = {"a": y, "b": np.where(np.arange(60) % 4 == 0, 0, y)}  # 10 of 60 rows wrong
    >>> result = paired_rule_scores(y, rules, baseline="a", n_boot=200, random_state=0)
    >>> result.scores["a"].estimate, round(result.differences["b"].estimate, 4)
    (1.0, -0.1667)

    With fewer rows where the rules differ, the interval of the difference
    comes with a warning and an exact test that stays valid:

    >>> import warnings
    >>> few = {"a": y, "b": np.where(np.arange(60) % 10 == 2, 0, y)}  # 4 rows differ
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = paired_rule_scores(y, few, baseline="a", n_boot=200, random_state=0)
    >>> print(caught[0].message)  # doctest: +NORMALIZE_WHITESPACE
    rules 'b' and 'a' predict differently on only 4 rows, too few for a reliable bootstrap interval of their
    difference (fewer than 10); of the 4 rows where exactly one is right, 0 favour 'b': exact sign test p = 0.125
    """
    _check_predictions(predictions, baseline)
    score_counts = get_metric(metric)
    n_boot, confidence = int(n_boot), float(confidence)
    rng = np.random.default_rng(random_state)
    y_true = check_label_vector("y_true", y_true)
    predicted = {name: check_label_vector(f"predictions[{name!r}]", y) for name, y in predictions.items()}
    if labels is None:
        labels = resolve_classes(None, y_true=y_true, **{f"predictions[{name!r}]": y for name, y in predicted.items()})
    encoded = {
        name: check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
        for name, y_pred in predicted.items()
    }
    first = next(iter(encoded.values()))
    y_idx, m, weights = first.y_true, first.classes.size, scale_weights(first.sample_weight).weights
    weights = np.ones(y_idx.size) if weights is None else weights
    estimates = {
        name: float(score_counts(confusion_counts(y_idx, t.y_pred, m, weights)[None])[0]) for name, t in encoded.items()
    }
    replicates = _rule_replicates(
        y_idx, {name: t.y_pred for name, t in encoded.items()}, m, weights, score_counts, n_boot, rng
    )
    interval = partial(
        ConfidenceInterval.from_replicates,
        confidence=confidence,
        interval_method=PAIRED_STRATIFIED_PERCENTILE,
        n_boot=n_boot,
        random_state=random_state,
    )
    scores = {name: interval(estimates[name], replicates[name]) for name in encoded}
    differences = (
        {}
        if baseline is None
        else {
            name: interval(estimates[name] - estimates[baseline], replicates[name] - replicates[baseline])
            for name in encoded
            if name != baseline
        }
    )
    changed = {}
    if baseline is not None:
        base = encoded[baseline].y_pred
        changed = {
            name: changed_rows(y_idx, t.y_pred, base, weights) for name, t in encoded.items() if name != baseline
        }
        _warn_few_changed_rows(changed, baseline)
    settings = {
        "metric": metric_name(metric),
        "n_boot": n_boot,
        "confidence": confidence,
        "random_state": random_state,
        "interval_method": PAIRED_STRATIFIED_PERCENTILE,
    }
    return PairedRuleScores(metric_name(metric), baseline, scores, differences, settings, changed)


def _warn_few_changed_rows(changed, baseline):
    """An ``IntervalWarning`` for each rule that predicts differently from ``baseline`` on too few rows.

    ``changed`` maps each rule to its :func:`changed_rows` against
    ``baseline``. A paired bootstrap of the difference only resamples the
    rows where the two rules differ; with fewer than :data:`FEW_CHANGED_ROWS`
    of them its percentile interval is unreliable. The warning gives the
    exact sign test on the rows where exactly one of the two is right, which
    stays valid.
    """
    for name, record in changed.items():
        if not too_few_changed_rows(record["rows"]):
            continue
        better, worse = record["only_rule_right"], record["only_baseline_right"]
        _warnings.warn(
            f"rules {name!r} and {baseline!r} predict differently on only {count_noun(record['rows'], 'row')}, too "
            f"few for a reliable bootstrap interval of their difference (fewer than {FEW_CHANGED_ROWS}); of the "
            f"{count_noun(better + worse, 'row')} where exactly one is right, {better} favour {name!r}: "
            f"exact sign test p = {record['sign_test_p']:.3g}",
            IntervalWarning,
        )


#: The paired rule bootstrap draws the cell counts of the rules' joint confusion table (one multinomial
#: per class) when the table has at most this share of cells per row; beyond, it draws row multiplicities.
MAX_CELL_SHARE = 0.25


def _rule_replicates(y, predictions, n_classes, weights, score_counts, n_boot, rng):
    """Score (B,) of each rule in each stratified replicate (replicate r drawn from ``rng.spawn(n_boot)[r]``).

    A rule's confusion counts depend on a replicate only through the total
    multiplicity of each cell of the rules' joint table (true class, every
    rule's prediction, sample weight): the rows of a cell are exchangeable.
    Drawing ``n_c`` rows of class c uniformly with replacement makes the
    multiplicities of its rows ``Multinomial(n_c, 1/n_c, ..., 1/n_c)``, so the
    cell totals are ``Multinomial(n_c, cell size / n_c)``, independently by
    class: the same distribution as resampling the rows, at the cost of the
    table instead of the rows (:func:`_cell_replicates`). Tables with more than
    :data:`MAX_CELL_SHARE` cells per row (e.g. continuous weights) draw the
    rows (:func:`_row_replicates`).
    """
    table = _joint_table(y, predictions, weights)
    seeds = rng.spawn(n_boot)
    work = task("bootstrap replicates", n_boot)
    if table is None:
        return _row_replicates(y, predictions, n_classes, weights, score_counts, seeds, work)
    return _cell_replicates(table, n_classes, score_counts, seeds, work)


class _JointTable(NamedTuple):
    """The occupied cells of the joint table, ordered by true class: their true class, size, weight, predictions."""

    true: np.ndarray
    sizes: np.ndarray
    weights: np.ndarray
    predicted: dict


def _joint_table(y, predictions, weights):
    """:class:`_JointTable` of the rows; None when it has more than :data:`MAX_CELL_SHARE` cells per row."""
    limit = MAX_CELL_SHARE * y.size
    values, weight_index = np.unique(weights, return_inverse=True)
    if values.size > limit:
        return None
    columns = [(y_pred, int(y_pred.max(initial=0)) + 1) for y_pred in predictions.values()]
    key = y.astype(np.int64)
    for column, cardinality in (*columns, (weight_index, values.size)):
        if int(key.max(initial=0)) + 1 > np.iinfo(np.int64).max // cardinality:
            key = np.unique(key, return_inverse=True)[1].astype(np.int64)  # order kept: the class stays first
        key = key * cardinality + column
    _, first, sizes = np.unique(key, return_index=True, return_counts=True)
    if first.size > limit:
        return None
    return _JointTable(
        true=y[first],
        sizes=sizes,
        weights=weights[first],
        predicted={name: y_pred[first] for name, y_pred in predictions.items()},
    )


#: Replicates of the cell draws between progress reports.
CELL_PROGRESS_STEP = 100


def _cell_replicates(table, n_classes, score_counts, seeds, work):
    """Scores of each rule from cell totals drawn as one multinomial per class (a class's cells right-aligned).

    The cells of a class end its row of probabilities, so that numpy's
    multinomial gives any rounding remainder of the probabilities to a real
    cell, never to the padding.
    """
    cells_per_class = np.bincount(table.true, minlength=n_classes)
    class_sizes = np.bincount(table.true, weights=table.sizes, minlength=n_classes).astype(np.int64)
    width = int(cells_per_class.max())
    rank = np.arange(table.true.size) - np.concatenate(([0], np.cumsum(cells_per_class)))[table.true]
    column = width - cells_per_class[table.true] + rank
    probabilities = np.zeros((n_classes, width))
    probabilities[table.true, column] = table.sizes / class_sizes[table.true]
    counts = np.empty((len(seeds), table.true.size))
    for start in range(0, len(seeds), CELL_PROGRESS_STEP):
        block = seeds[start : start + CELL_PROGRESS_STEP]
        for r, seed in enumerate(block, start):
            counts[r] = seed.multinomial(class_sizes, probabilities)[table.true, column]
        work.advance(len(block))
    scores = {}
    for name, y_pred in table.predicted.items():
        weighted = np.zeros((table.true.size, n_classes * n_classes))
        weighted[np.arange(table.true.size), table.true * n_classes + y_pred] = table.weights
        scores[name] = score_counts((counts @ weighted).reshape(-1, n_classes, n_classes))
    return scores


def _row_replicates(y, predictions, n_classes, weights, score_counts, seeds, work):
    """Scores of each rule from row multiplicities, chunks of replicates on every core.

    The samples are grouped by class, so that the draws of
    :func:`stratum_multiplicities` (those of :func:`bootstrap_multiplicities`)
    are the replicate's weights without reordering; each chunk depends only on
    its generators, so the scores do not depend on the number of threads.
    """
    grouped = np.argsort(y, kind="stable")
    sizes = np.bincount(y, minlength=n_classes).tolist()
    weights = weights[grouped]
    cells = {name: confusion_cells(y[grouped], y_pred[grouped], n_classes) for name, y_pred in predictions.items()}

    def score_chunk(chunk_seeds):
        rows = stratum_multiplicities(chunk_seeds, sizes)
        rows *= weights
        return {name: score_counts((cell @ rows.T).T.reshape(-1, n_classes, n_classes)) for name, cell in cells.items()}

    n_boot = len(seeds)
    step = chunk_length(y.size * 8)
    chunks = []
    for chunk in chunk_map(score_chunk, (seeds[start : start + step] for start in range(0, n_boot, step))):
        chunks.append(chunk)
        work.advance(len(next(iter(chunk.values()))))
    return {name: np.concatenate([chunk[name] for chunk in chunks]) for name in predictions}
