"""Bootstrap of ROC-DMF: the paper's parametric bootstrap and a stratified resampling bootstrap.

Both are vectorised: replicates are refitted a chunk at a time as one batch
of independent factorizations, warm-started from the point fit. Several models
scored on the same labels are bootstrapped together: the stratified bootstrap
uses the same resampled observations for every model, the parametric one
simulates each model from its own fit (paired by replicate index only).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from scipy.special import expit

from polyroc._engine.parallel import chunk_map, single_blas_thread
from polyroc._engine.progress import task
from polyroc._results import Result, interval_table
from polyroc._validation import check_random_state
from polyroc.dmf._curve import roc_area, roc_points, vertical_band
from polyroc.dmf._factorization import fit_factorization, linear_predictor, start_from_logits
from polyroc.dmf._model import interval_method, observed_rate_means, response_rates
from polyroc.dmf._rates import batch_rates
from polyroc.intervals._resampling import DRAW_BLOCK, ConfidenceInterval, sample_major_multiplicities

#: FPR grid of the vertical confidence band.
BAND_GRID = np.linspace(0.0, 1.0, 101)
#: Cells (replicates × rows × pairs) rebuilt together (for k = 10, T = 99: 14 replicates).
CHUNK_CELLS = 2**18
#: Replicates x samples resampled together (byte multiplicities and 32-bit running sums: about 7 bytes a cell, 56 MiB).
RESAMPLED_CELLS = 2**23
#: Fewest replicates resampled together when memory allows (per-column work is shared by a chunk).
MIN_RESAMPLED = 16
#: Cells refitted together: the solver's arrays (~1 MiB each for k = 10, T = 99) stay in cache.
FIT_CELLS = 2**17


@dataclass(frozen=True, eq=False, repr=False)
class DmfBootstrap(Result):
    """Bootstrap replicates of a ROC-DMF fit and the intervals drawn from them.

    Attributes
    ----------
    D : ndarray of shape (n_boot,)
        D of each replicate.
    fpr, tpr : ndarray of shape (n_boot, T)
        The curve of each replicate.
    ci : ConfidenceInterval
        Percentile interval of D.
    band_fpr, band_low, band_high : ndarray of shape (101,)
        Vertical band: pointwise percentiles of the replicate curves'
        TPR on a fixed FPR grid.
    n_unconverged : int
        Number of replicate fits that reached ``max_iter`` (a replicate that
        does not converge from the point fit is refitted from its own start,
        and counts only if that fails too).
    n_iter : ndarray of shape (n_boot,)
        Iterations spent on each replicate (both fits for a restarted one).
    settings : dict
        ``bootstrap`` (``"parametric"``: binomial simulation from the fitted
        model, as in the paper, with much narrower intervals; or
        ``"stratified"``: observations resampled within each class, the
        matrices rebuilt and refitted), ``n_boot``, ``confidence``,
        ``random_state`` and ``interval_method`` (``"stratified percentile
        bootstrap"`` or ``"parametric percentile bootstrap"``).

    See Also
    --------
    polyroc.dmf.roc_dmf : Runs the bootstrap (``bootstrap="parametric"`` or ``"stratified"``).
    polyroc.dmf.DmfRoc : Holds it in ``bootstrap``; ``DmfRoc.ci`` is its ``ci``.
    polyroc.resampling.ConfidenceInterval : The type of ``ci``.

    Examples
    --------
    >>> from polyroc.dmf import roc_dmf
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 40)
    >>> P = rng.dirichlet(np.ones(3), size=120) + 0.6 * np.eye(3)[y]
    >>> boot = roc_dmf(y, P, n_levels=19, bootstrap="stratified", n_boot=20, random_state=0).bootstrap
    >>> boot.D.shape, boot.fpr.shape, boot.band_low.shape, boot.n_unconverged
    ((20,), (20, 19), (101,), 0)
    >>> boot.settings["interval_method"], bool(boot.ci.low < boot.ci.high)
    ('stratified percentile bootstrap', True)
    >>> boot.to_frame().columns.tolist()
    ['replicate', 'D', 'n_iter']
    """

    D: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    ci: ConfidenceInterval
    band_fpr: np.ndarray
    band_low: np.ndarray
    band_high: np.ndarray
    n_unconverged: int
    n_iter: np.ndarray
    settings: dict

    def _view_sections(self) -> list[str]:
        """The interval of D."""
        return [interval_table([("D", self.ci.estimate, self.ci)], "Area under the ROC-DMF curve")]

    def _view_notes(self) -> list[str]:
        if not self.n_unconverged:
            return []
        return [f"{self.n_unconverged} of {self.D.size} refits did not converge."]

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per replicate: its D and iterations."""
        return [
            {"replicate": i, "D": float(area), "n_iter": int(n)} for i, (area, n) in enumerate(zip(self.D, self.n_iter))
        ]


class Replicates(NamedTuple):
    """Areas (B,), curves (B, T), the number of unconverged fits and the iterations of a batch."""

    area: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    n_unconverged: int
    n_iter: np.ndarray


def replicate_fits(problems, points, settings):
    """Bootstrap replicates of every model (one :class:`Replicates` per model, paired by index).

    Each chunk of replicates is drawn, rebuilt and refitted on a worker of
    :func:`polyroc._engine.parallel.chunk_map`; the draws do not depend on the number
    of threads: a stratified replicate is drawn from its own generator, those
    of :func:`polyroc.resampling.bootstrap_multiplicities`, spawned in the
    calling thread (parametric chunks are simulated in the calling thread).
    Progress is reported as ``"bootstrap replicates"``.
    """
    rng = check_random_state(settings.random_state)
    chunk = max(1, CHUNK_CELLS // points[0].rates.size)
    with single_blas_thread():  # a multithreaded BLAS is slow for the small SVD on a busy machine
        starts = [_warm_start(point, settings) for point in points]
    if settings.bootstrap == "parametric":
        streams = [
            _simulate(point, settings.n_boot, child, chunk, settings.correction)
            for point, child in zip(points, rng.spawn(len(points)))
        ]
        chunks = zip(*streams)

        def refit_chunk(rates_per_model):
            return [
                _refit(rates, point, start, settings) for rates, point, start in zip(rates_per_model, points, starts)
            ]

    else:
        draws = _StratifiedDraws(problems[0].y)
        seeds = rng.spawn(settings.n_boot)  # the generators of bootstrap_multiplicities
        size = _resampling_chunk(problems[0].y.size, points[0].rates.size)
        chunks = (seeds[first : first + size] for first in range(0, settings.n_boot, size))
        laid_out = [_in_layout(problem, draws.positions) for problem in problems]

        def refit_chunk(chunk_seeds):
            by_sample = sample_major_multiplicities(chunk_seeds, draws.sizes)
            return [
                _refit(_replicate_rates(problem, by_sample, positions), point, start, settings)
                for (problem, positions), point, start in zip(laid_out, points, starts)
            ]

    parts = [[] for _ in points]
    work = task("bootstrap replicates", settings.n_boot)
    with single_blas_thread():
        for fitted in chunk_map(refit_chunk, chunks):
            for store, part in zip(parts, fitted):
                store.append(part)
            work.advance(fitted[0].area.size)
    return [_combine(store) for store in parts]


class _StratifiedDraws:
    """The strata of :func:`polyroc.resampling.bootstrap_multiplicities`: classes in order, members in order.

    :func:`polyroc.resampling.stratum_multiplicities` lays a replicate out
    stratum by stratum; ``positions[i]`` is the column of sample i in that layout.
    """

    def __init__(self, y):
        members = np.argsort(y, kind="stable")
        self.sizes = [int(size) for size in np.bincount(y) if size]
        self.positions = np.empty_like(members)
        self.positions[members] = np.arange(members.size)


def _in_layout(problem, positions):
    """``(problem, positions)`` for :func:`_replicate_rates` with the draws' layout applied once, not per chunk.

    Without sample weights the rates read the multiplicities only through
    each column's score order and class grouping: these are put into the
    layout here (``positions[i]`` is the column of sample i), so a chunk
    gathers its multiplicities directly. With weights the pools are left in
    the order of the samples and ``positions`` is passed on.
    """
    if problem.weights is not None:
        return problem, positions
    columns = [
        column._replace(order=positions[column.order], grouped=positions[column.grouped])
        for column in problem.pools.columns
    ]
    return problem._replace(pools=problem.pools._replace(columns=columns)), None


def _resampling_chunk(n_samples, n_cells):
    """Replicates resampled together: enough to share the per-column work, few enough to fit in memory."""
    by_memory = max(1, RESAMPLED_CELLS // max(n_samples, 1))
    by_rates = max(1, CHUNK_CELLS // n_cells)
    size = int(min(by_memory, max(by_rates, MIN_RESAMPLED)))
    # whole blocks of draws, so that other bootstraps of the same rows and seed share them (shared_draws)
    return size - size % DRAW_BLOCK if size >= DRAW_BLOCK else size


def _replicate_rates(problem, by_sample, positions):
    """Stacked TPR and FPR matrices (b, 2T, K) of a chunk of replicates (n, b) laid out as ``positions`` says."""
    rates = batch_rates(
        problem.pools, problem.levels, by_sample, weights=problem.weights, positions=positions, by_sample=True
    )
    return np.concatenate([rates.tpr, rates.fpr], axis=1)


def summarise(replicates, point, settings):
    """Percentile interval of D and vertical band of the curve from the replicates."""
    alpha = (1 - settings.confidence) / 2
    band_low, band_high = vertical_band(replicates.fpr, replicates.tpr, BAND_GRID, alpha, 1 - alpha)
    ci = ConfidenceInterval.from_replicates(
        point.area,
        replicates.area,
        confidence=settings.confidence,
        interval_method=interval_method(settings),
        n_boot=settings.n_boot,
        random_state=settings.random_state,
    )
    return DmfBootstrap(
        D=replicates.area,
        fpr=replicates.fpr,
        tpr=replicates.tpr,
        ci=ci,
        band_fpr=BAND_GRID.copy(),
        band_low=band_low,
        band_high=band_high,
        n_unconverged=replicates.n_unconverged,
        n_iter=replicates.n_iter,
        settings={
            "bootstrap": settings.bootstrap,
            "n_boot": settings.n_boot,
            "confidence": settings.confidence,
            "random_state": settings.random_state,
            "interval_method": interval_method(settings),
        },
    )


def _warm_start(point, settings):
    """The point fit as starting values; None for one pair (solved in closed form)."""
    if point.rates.shape[1] == 1:
        return None
    eta = linear_predictor(point.factorization)
    return start_from_logits(eta, intercept=settings.method == "intercept")


def _simulate(point, n_boot, rng, chunk, correction):
    """Rate matrices M* = Z*/N with Z* ~ Bin(N, μ̂), a chunk of replicates at a time.

    μ̂ is the fitted rate on the scale of the observed rates (the fit
    describes the continuity-corrected rates, see :func:`observed_rate_means`).
    Effective sizes (sample weights) are rounded to whole trials, at least 1.
    """
    mean = observed_rate_means(expit(linear_predictor(point.factorization)[0]), point.counts, correction)
    trials = np.maximum(np.rint(point.trials), 1).astype(np.int64)
    for first in range(0, n_boot, chunk):
        size = min(chunk, n_boot - first)
        yield rng.binomial(trials, mean, size=(size, *mean.shape)) / trials


def _refit(rates, point, start, settings):
    """Refit a chunk of rate matrices (B, 2T, K), a cache-sized batch at a time."""
    step = max(1, FIT_CELLS // point.rates.size)
    parts = []
    for first in range(0, rates.shape[0], step):
        response = response_rates(rates[first : first + step], point.counts, settings.correction)
        fit = _fit(response, point, start, settings)
        if not np.all(fit.converged):
            fit = _restart_unconverged(fit, response, point, settings)
        fpr, tpr = roc_points(fit.intercept, monotone=settings.monotone)
        parts.append(Replicates(roc_area(fpr, tpr), fpr, tpr, int(np.sum(~fit.converged)), fit.n_iter))
    return _combine(parts)


def _fit(response, point, start, settings):
    return fit_factorization(
        response,
        point.weights,
        method=settings.method,
        start=start,
        tol=settings.tol,
        max_iter=settings.max_iter,
        newton=start is not None,
    )


def _restart_unconverged(fit, response, point, settings):
    """Refit the replicates that did not converge from their own (cold) start; keep the lower deviance.

    A replicate whose optimum lies far from the point fit can crawl from the
    warm start along a flat valley of the alternating steps; started from the
    SVD of its own logits it usually converges in a few dozen iterations.
    """
    stuck = np.flatnonzero(~fit.converged)
    cold = _fit(response[stuck], point, None, settings)
    better = cold.deviance < fit.deviance[stuck]
    chosen = stuck[better]
    merged = [np.array(value, copy=True) for value in fit]
    for whole, part in zip(merged, cold):
        whole[chosen] = part[better]
    result = type(fit)(*merged)
    result.n_iter[stuck] = fit.n_iter[stuck] + cold.n_iter  # the work spent on both fits
    return result


def _combine(parts):
    return Replicates(
        np.concatenate([p.area for p in parts]),
        np.vstack([p.fpr for p in parts]),
        np.vstack([p.tpr for p in parts]),
        sum(p.n_unconverged for p in parts),
        np.concatenate([p.n_iter for p in parts]),
    )
