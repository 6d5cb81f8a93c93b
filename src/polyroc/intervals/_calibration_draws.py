"""Draws of the calibration bins: the interval of one binned ECE, read from its bin totals alone.

Each bin's gap ``d_b = observed_b - score_b`` is drawn as ``centre_b + s_b Z``
with the binomial spread ``s_b^2 = o_b (1 - o_b) / n_b`` of its observed
frequency (``o_b`` with half a hit and half a miss added, ``n_b`` Kish's
effective size), and the bins' shares from a Dirichlet of their effective
sizes. A classwise ECE averages class columns that share their rows: the
spread of its draws is scaled by a design factor the caller gives (the ratio
of the delta-method standard deviations with and without the cross moments
of the columns, :meth:`polyroc.evaluation._calibration.CalibrationBins.design_factor`).

The ECE ``sum_b w_b |d_b|`` is biased upward and ``|.|`` is not smooth at 0,
so the percentile interval of draws around the observed gaps misses the
truth (a calibrated model's ECE of 0 always). The interval (``"union"``,
:data:`ECE_METHOD`) is the union of two readings of the same draws: the basic
interval around the observed gaps (``2 ECE - q_hi, 2 ECE - q_lo``), which
holds away from 0, and the test inversion along the debiased gaps ``g_b =
sign(d_b) sqrt(max(d_b^2 - s_b^2, 0))`` (the squared gap less its noise, as
Kumar, Liang & Ma 2019, arXiv:1909.10155, debias the squared error): every
true ECE t whose gaps ``(t / ECE(g)) g`` put the estimate between the
quantiles of their draws, which holds 0 when the data are consistent with
calibration. Bounds are clipped to [0, 1]. The coverage study
(``benchmarks/coverage_calibration.py``, docs/coverage-tables.md) chose it over
each reading alone, the percentile interval and the basic interval around the
debiased gaps.

The union's upper end takes back half of the basic interval's bias
correction (the median of the draws less the estimate). That correction is the
bias at the observed gaps, and it is largest where the observed gaps fell
towards 0 by chance, which are the data sets whose estimate is already low:
when every true gap has one sign and the size of its bin's noise, the fully
corrected upper end falls below the truth in about one data set in ten. The
half is an empirical choice of the coverage study (the rule ``"union-full"``
keeps the full correction for comparison); it moves the upper end only by
half the bias, which vanishes where the gaps are large against their noise.

:class:`EceDraws` makes the draws once and reads them at any level, so that
:func:`polyroc.intervals._paired_losses.calibration_rows` can find the level
at which a paired comparison first excludes 0; :func:`polyroc.evaluate` reads
them once (:func:`ece_bounds`).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from polyroc._engine.binning import BinTotals

__all__ = ["ECE_METHOD", "ECE_SCORES", "EceDraws", "EceRule", "ece_bounds", "ece_bounds_by_rule"]

#: The binned calibration errors (l1, uniform bins) of the top-label column and of the mean of the class columns.
ECE_SCORES = ("ece_top_label", "ece_classwise")

#: The method name of the ECE intervals (a key of :data:`polyroc.evaluation._plan.INTERVAL_METHODS`).
ECE_METHOD = "bin-draws"

#: How the intervals of the draws are read off; the library uses ``"union"`` (see the module docstring).
EceRule = Literal["percentile", "basic", "debiased", "inverted", "union-full", "union"]


def ece_bounds(
    totals: BinTotals,
    *,
    confidence: float,
    n_draws: int,
    rng: np.random.Generator,
    rule: EceRule = "union",
    design_factor: float = 1.0,
) -> dict[str, tuple[float, float]]:
    """The bounds of each ECE of :data:`ECE_SCORES` by ``rule`` from ``n_draws`` draws of the bins."""
    found = ece_bounds_by_rule(
        totals, rules=(rule,), confidence=confidence, n_draws=n_draws, rng=rng, design_factor=design_factor
    )
    return found[rule]


def ece_bounds_by_rule(
    totals: BinTotals,
    *,
    rules: tuple[EceRule, ...],
    confidence: float,
    n_draws: int,
    rng: np.random.Generator,
    design_factor: float = 1.0,
) -> dict[str, dict[str, tuple[float, float]]]:
    """The bounds of each ECE by each of ``rules``, all from the same ``n_draws`` draws of the bins.

    ``"union"`` is the library's interval (the module docstring);
    ``"percentile"`` and ``"basic"`` read the draws around the observed gaps,
    ``"debiased"`` the basic interval of draws around the debiased gaps,
    ``"inverted"`` the test inversion alone and ``"union-full"`` the union with
    the basic interval's full bias correction; they are kept for the coverage study. ``design_factor`` scales the
    spread of the classwise draws around their mean (the dependence of the
    class columns, :meth:`polyroc.evaluation._calibration.CalibrationBins.design_factor`).
    """
    draws = EceDraws.of(totals, n_draws, rng)
    return draws.bounds(rules, confidence, design_factor)


class EceDraws:
    """The gaps of the bins (1 + m, 15: the top-label column, then the class columns) and common draws of them."""

    def __init__(self, share: np.ndarray, gap: np.ndarray, debiased: np.ndarray, draws: _BinDraws) -> None:
        self.share = share
        self.gap = gap
        self.debiased = debiased
        self.draws = draws

    @classmethod
    def of(cls, totals: BinTotals, n_draws: int, rng: np.random.Generator) -> EceDraws:
        """``n_draws`` draws of the bins of ``totals``: the shares, then the noises of the gaps, from ``rng``."""
        share = totals.weight / np.maximum(totals.weight.sum(axis=-1, keepdims=True), np.finfo(float).tiny)
        filled = totals.weight > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            size = np.where(filled, totals.effective_size, 0.0)
            observed = np.where(filled, totals.hits / totals.weight, 0.0)
            gap = np.where(filled, observed - totals.score / totals.weight, 0.0)
            smoothed = (observed * size + 0.5) / (size + 1.0)
            spread = np.where(filled, np.sqrt(smoothed * (1.0 - smoothed) / np.maximum(size, 1.0)), 0.0)
        debiased = np.sign(gap) * np.sqrt(np.maximum(gap * gap - spread * spread, 0.0))
        shares = _drawn_shares(size, filled, n_draws, rng)
        draws = _BinDraws(shares, spread * rng.standard_normal((n_draws, *gap.shape)))
        return cls(share, gap, debiased, draws)

    def bounds(
        self,
        rules: tuple[EceRule, ...],
        confidence: float,
        design_factor: float = 1.0,
        names: tuple[str, ...] = ECE_SCORES,
    ) -> dict[str, dict[str, tuple[float, float]]]:
        """The bounds of each ECE of ``names`` by each of ``rules`` at ``confidence`` (:func:`ece_bounds_by_rule`)."""
        share, gap, debiased, draws = self.share, self.gap, self.debiased, self.draws
        tail = (1.0 - confidence) / 2.0
        found: dict[str, dict[str, tuple[float, float]]] = {rule: {} for rule in rules}
        for name, columns, factor in (
            ("ece_top_label", slice(0, 1), 1.0),
            ("ece_classwise", slice(1, None), design_factor),
        ):
            if name not in names:
                continue
            estimate = float((share[columns] * np.abs(gap[columns])).sum(axis=-1).mean())
            low, middle, high = draws.quantiles(gap[columns], columns, tail, factor, middle=True)
            bounds = {"percentile": (low, high), "basic": (2 * estimate - high, 2 * estimate - low)}
            if "debiased" in rules:
                low, high = draws.quantiles(debiased[columns], columns, tail, factor)
                model = float((share[columns] * np.abs(debiased[columns])).sum(axis=-1).mean())
                bounds["debiased"] = (estimate - (high - model), estimate - (low - model))
            if {"inverted", "union", "union-full"} & set(rules):
                inverted = draws.inverted(
                    share[columns], debiased[columns], gap[columns], columns, estimate, tail, factor
                )
                bounds["inverted"] = inverted
                # the union's upper end takes back half the basic interval's bias correction (module docstring)
                low_end = min(inverted[0], bounds["basic"][0])
                bounds["union-full"] = (low_end, max(inverted[1], bounds["basic"][1]))
                bounds["union"] = (low_end, max(inverted[1], bounds["basic"][1] + (middle - estimate) / 2))
            for rule in rules:
                found[rule][name] = (
                    float(np.clip(bounds[rule][0], 0.0, 1.0)),
                    float(np.clip(bounds[rule][1], 0.0, 1.0)),
                )
        return found


class _BinDraws:
    """Common draws of the bins' shares (n_draws, c, 15) and gap noises, for every model of the gaps."""

    #: Points of the grid of candidate true ECEs of the inverted interval.
    GRID = 25

    def __init__(self, shares: np.ndarray, noise: np.ndarray) -> None:
        self.shares = shares
        self.noise = noise

    def values(self, centre: np.ndarray, columns: slice, factor: float) -> np.ndarray:
        """The drawn ECE (n_draws,) of the columns' mean when the true gaps are ``centre``."""
        drawn = (self.shares[:, columns] * np.abs(centre + self.noise[:, columns])).sum(axis=-1).mean(axis=-1)
        return drawn if factor == 1.0 else drawn.mean() + factor * (drawn - drawn.mean())

    def quantiles(self, centre, columns, tail, factor, middle=False):
        levels = [tail, 0.5, 1.0 - tail] if middle else [tail, 1.0 - tail]
        return tuple(np.quantile(self.values(centre, columns, factor), levels))

    def inverted(self, share, debiased, gap, columns, estimate, tail, factor):
        """The true ECEs ``t`` of the gaps ``(t / T) g`` (g the debiased gaps, T their ECE) that the estimate fits.

        ``t`` is kept when the estimate lies between the quantiles of the
        draws around those gaps; the grid runs from 0 past the estimate by five
        spreads, and the bounds are interpolated between its points. An
        estimate below the lower quantile of calibrated bins (t = 0) keeps no
        ``t``: the upper bound is then the upper quantile at t = 0, what the
        noise of calibrated bins reaches, not 0.
        """
        direction = debiased if np.any(debiased) else gap
        scale = float((share * np.abs(direction)).sum(axis=-1).mean())
        if scale <= 0:  # every gap is 0: the direction does not matter at t = 0
            direction, scale = np.ones_like(gap), 1.0
        spread = float(self.values(gap, columns, factor).std())
        grid = np.linspace(max(0.0, estimate - 8.0 * spread), min(1.0, estimate + 5.0 * spread + 1e-12), self.GRID)
        grid = np.concatenate(([0.0], grid[grid > 0]))
        lows, highs = np.empty(grid.size), np.empty(grid.size)
        for i, truth in enumerate(grid):
            lows[i], highs[i] = self.quantiles(direction * (truth / scale), columns, tail, factor)
        high = _last_below(grid, lows, estimate)
        if lows[0] > estimate:  # smaller than the noise of calibrated bins: bound by what that noise reaches
            high = max(high, highs[0])
        return _first_crossing(grid, highs, estimate), high


def _first_crossing(grid, highs, estimate):
    """The smallest t of the grid where the upper quantile reaches the estimate (0 when it does at t = 0)."""
    reached = np.flatnonzero(highs >= estimate)
    if not reached.size:
        return float(grid[-1])
    i = int(reached[0])
    if i == 0:
        return 0.0
    step = (estimate - highs[i - 1]) / max(highs[i] - highs[i - 1], np.finfo(float).tiny)
    return float(grid[i - 1] + step * (grid[i] - grid[i - 1]))


def _last_below(grid, lows, estimate):
    """The largest t of the grid where the lower quantile is still at most the estimate."""
    below = np.flatnonzero(lows <= estimate)
    if not below.size:
        return 0.0
    i = int(below[-1])
    if i == grid.size - 1:
        return float(grid[-1])
    step = (estimate - lows[i]) / max(lows[i + 1] - lows[i], np.finfo(float).tiny)
    return float(grid[i] + step * (grid[i + 1] - grid[i]))


def _drawn_shares(size: np.ndarray, filled: np.ndarray, n_draws: int, rng: np.random.Generator) -> np.ndarray:
    """Shares of the bins (n_draws, columns, bins): a Dirichlet of the effective sizes, by normalised gammas.

    An effective size within rounding of a whole number of rows (a bin of one
    row, or of rows of equal weight) is taken as that number: NumPy's gamma
    sampler changes algorithm at shape 1, so a size one unit in the last place
    below 1 would otherwise change every later draw of the stream.

    >>> shares = _drawn_shares(np.array([[1.0 - 2**-52, 3.0]]), np.array([[True, True]]), 2, np.random.default_rng(0))
    >>> exact = _drawn_shares(np.array([[1.0, 3.0]]), np.array([[True, True]]), 2, np.random.default_rng(0))
    >>> bool(np.array_equal(shares, exact))
    True
    """
    whole = np.rint(size)
    size = np.where(np.abs(size - whole) <= 1e-9 * np.maximum(whole, 1.0), whole, size)
    gammas = rng.standard_gamma(np.where(filled, np.maximum(size, 1e-12), 1.0), size=(n_draws, *size.shape))
    gammas = np.where(filled, gammas, 0.0)
    total = gammas.sum(axis=-1, keepdims=True)
    return gammas / np.where(total > 0, total, 1.0)
