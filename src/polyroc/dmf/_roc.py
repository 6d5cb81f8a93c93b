"""ROC-DMF: the result object and the public entry point :func:`roc_dmf`."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from polyroc.dmf._bootstrap import DmfBootstrap, replicate_fits, summarise
from polyroc.dmf._curve import with_endpoints
from polyroc.dmf._factorization import linear_predictor
from polyroc.dmf._model import check_settings, fit_point
from polyroc.dmf._rates import pair_sizes, prepare_problem
from polyroc.exceptions import ConvergenceWarning


@dataclass(frozen=True)
class DmfRoc:
    """A multiclass ROC curve by binomial deviance matrix factorization (ROC-DMF).

    Rows are in decreasing-threshold order: row r uses quantile level ``levels[r]``.

    Attributes
    ----------
    fpr, tpr : ndarray of shape (T,)
        The curve: expit of the fitted FP- and TP-block row intercepts.
    D : float
        The AUC-like area under the curve, by trapezoids in threshold order
        with the endpoints (0, 0) and (1, 1) added.
    levels : ndarray of shape (T,)
        Quantile level of each row (decreasing).
    thresholds : ndarray of shape (T, K)
        Threshold of each row for each pair.
    tpr_matrix, fpr_matrix : ndarray of shape (T, K)
        The observed pairwise rates that were factorized.
    intercept, slope : ndarray of shape (2T,)
        Fitted Λ0 and Λ (TP rows first, then FP rows).
    pair_effect : ndarray of shape (K,)
        Fitted V: centred, unit norm, first entry >= 0.
    fitted : ndarray of shape (2T, K)
        Fitted rates expit(Λ0 + Λ V).
    weights, n_trials : ndarray of shape (2T, K)
        Fit weights ω and binomial trials N.
    pairs : ndarray of shape (K, 2)
        Ordered class pairs (positive, negative) used, as labels.
    dropped_pairs : tuple of tuple
        Pairs left out because one of their classes has no samples.
    n_pos, n_neg : ndarray of shape (K,)
        Sizes of the positive and negative class of each pair.
    deviance : float
        Final weighted binomial deviance.
    n_iter : int
    converged : bool
    method, threshold_mode, weighting, trials : str
        The settings (``weighting`` is ``"custom"`` for user weights).
    monotone : bool
    classes : ndarray
        The class order.
    bootstrap : DmfBootstrap or None
        Replicates, CI and band when a bootstrap was requested.
    """

    fpr: np.ndarray
    tpr: np.ndarray
    D: float
    levels: np.ndarray
    thresholds: np.ndarray
    tpr_matrix: np.ndarray
    fpr_matrix: np.ndarray
    intercept: np.ndarray
    slope: np.ndarray
    pair_effect: np.ndarray
    fitted: np.ndarray
    weights: np.ndarray
    n_trials: np.ndarray
    pairs: np.ndarray
    dropped_pairs: tuple
    n_pos: np.ndarray
    n_neg: np.ndarray
    deviance: float
    n_iter: int
    converged: bool
    method: str
    threshold_mode: str
    weighting: str
    trials: str
    monotone: bool
    classes: np.ndarray
    bootstrap: DmfBootstrap | None = None

    @property
    def ci(self):
        """The bootstrap :class:`~polyroc.resampling.ConfidenceInterval` of D, or None."""
        return None if self.bootstrap is None else self.bootstrap.ci

    def plot(self, ax=None, *, name=None, band=True, **kwargs):
        """Plot the curve (with its endpoints) and, if bootstrapped, its band.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; default a new figure's axes.
        name : str, optional
            Legend label prefix.
        band : bool, default=True
            Shade the bootstrap band when there is one.
        **kwargs
            Passed to ``Axes.plot`` for the curve.

        Returns
        -------
        matplotlib.axes.Axes
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots()
        x, y = with_endpoints(self.fpr[None], self.tpr[None])
        label = f"{name + ' ' if name else ''}ROC-DMF (D = {self.D:.3f})"
        (line,) = ax.plot(x[0], y[0], label=kwargs.pop("label", label), **kwargs)
        if band and self.bootstrap is not None:
            boot = self.bootstrap
            ax.fill_between(
                boot.band_fpr, boot.band_low, boot.band_high, color=line.get_color(), alpha=0.2,
                label=f"{100 * boot.confidence:g}% band ({boot.kind})",
            )
        ax.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=0.8)
        ax.set(xlabel="FPR-like  expit(Λ0 fp)", ylabel="TPR-like  expit(Λ0 tp)", xlim=(0, 1), ylim=(0, 1))
        ax.legend(loc="lower right")
        return ax


def roc_dmf(
    y_true,
    y_score,
    *,
    labels=None,
    levels=None,
    n_levels=99,
    thresholds="pooled",
    method="intercept",
    weighting="unweighted",
    trials="pairs",
    monotone=False,
    bootstrap=None,
    n_boot=1000,
    confidence=0.95,
    random_state=None,
    tol=1e-8,
    max_iter=200,
):
    """Multiclass ROC curve and its area D by binomial deviance matrix factorization.

    For every ordered class pair (a, b) the TPR and FPR of column a's scores at
    T quantile thresholds form two T × K matrices; a weighted binomial
    rank-one factorization ``logit M_ij ≈ Λ0_i + Λ_i V_j`` of the stacked
    matrices gives, through its row intercepts, one multiclass ROC curve
    (Wang & Carvalho, "Multiclass ROC").

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_score : array-like of shape (n, k)
        Scores, one column per class in the order of ``labels``; rows need not
        sum to 1.
    labels : array-like of shape (k,), optional
        Class order; default the sorted unique values of ``y_true``. A class
        without samples makes its pairs undefined: they are dropped with a warning.
    levels : array-like of shape (T,), optional
        Increasing quantile levels in (0, 1), T >= 2; default ``t / (n_levels + 1)``.
    n_levels : int, default=99
        T when ``levels`` is None.
    thresholds : {"pooled", "column", "balanced"}, default="pooled"
        Threshold pool of pair (a, b): column a's scores of classes a and b, of
        all samples, or the equal-weight mixture of the two classes (invariant
        to the class sizes). See :func:`pairwise_rates`.
    method : {"intercept", "algorithm1"}, default="intercept"
        Free row intercept with a centred pair effect (the paper's model), or
        the paper's Algorithm 1 (rank one without intercept, then projected).
    weighting : {"unweighted", "weighted"} or array-like, default="unweighted"
        ``"unweighted"``: every pair weighs the same (ω = 1); ``"weighted"``:
        ω = N (pairs of large classes dominate); an array gives the paper's
        weights Q (ω = Q ∘ N) for all k(k-1) ordered pairs in lexicographic
        order: a vector (K,), a (TP, FP) pair (2, K), or a matrix (2T, K). See
        :func:`majority_cost_weights`. Only relative weights matter.
    trials : {"pairs", "marginal"}, default="pairs"
        Binomial trials N: n_a·n_b in both blocks (the paper), or n_a for TPR
        and n_b for FPR. Used by ``"weighted"`` and the parametric bootstrap.
    monotone : bool, default=False
        Apply a running maximum to the curve before integrating.
    bootstrap : {None, "parametric", "stratified"}, default=None
        Also compute a CI of D and a band for the curve: by simulating from the
        fitted binomial model (the paper's method; its intervals are far too
        narrow because the cells are not independent), or by resampling
        observations within each class and refitting.
    n_boot : int, default=1000
    confidence : float, default=0.95
    random_state : None, int or numpy.random.Generator
        Seed of the bootstrap.
    tol : float, default=1e-8
        Convergence threshold on the relative change of deviance.
    max_iter : int, default=200

    Returns
    -------
    DmfRoc

    Raises
    ------
    ValueError, TypeError
        Invalid labels or scores, fewer than 2 classes with samples, bad
        levels, unknown options, weights of the wrong shape or not positive.

    Warns
    -----
    UndefinedMetricWarning
        Pairs with an empty class were dropped.
    ConvergenceWarning
        The fit (or some bootstrap refits) stopped at ``max_iter``; this usually
        means separable rows, whose intercepts diverge while D stays accurate.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 40)
    >>> P = rng.dirichlet(np.ones(3), size=120) + 0.6 * np.eye(3)[y]
    >>> result = roc_dmf(y, P, n_levels=19)
    >>> result.pairs.shape, result.fpr.shape, bool(result.converged)
    ((6, 2), (19,), True)
    >>> 0.8 < result.D < 1.0
    True
    >>> boot = roc_dmf(y, P, n_levels=19, bootstrap="stratified", n_boot=20, random_state=0)
    >>> boot.ci.low <= boot.D <= boot.ci.high
    True
    """
    settings = check_settings(
        method=method,
        weighting=weighting,
        trials=trials,
        monotone=monotone,
        tol=tol,
        max_iter=max_iter,
        bootstrap=bootstrap,
        n_boot=n_boot,
        confidence=confidence,
        random_state=random_state,
    )
    problem = prepare_problem(
        y_true, y_score, labels=labels, levels=levels, n_levels=n_levels, thresholds=thresholds
    )
    point = fit_point(problem, settings)
    warn_if_unconverged(point, settings)
    boot = None
    if settings.bootstrap is not None:
        replicates = replicate_fits([problem], [point], settings)[0]
        boot = summarise(replicates, point, settings)
    return assemble(problem, point, settings, boot)


def warn_if_unconverged(point, settings):
    """Warn with :class:`ConvergenceWarning` when the point fit reached ``max_iter``."""
    if not point.factorization.converged[0]:
        warnings.warn(
            f"the factorization did not converge within max_iter={settings.max_iter} iterations "
            f"(deviance {point.factorization.deviance[0]:.6g}); rows of rates that are all 0 or "
            "all 1 have infinite intercepts, D is still accurate",
            ConvergenceWarning,
            stacklevel=3,
        )


def assemble(problem, point, settings, boot):
    """The :class:`DmfRoc` of a point fit (and its bootstrap)."""
    fit = point.factorization
    n_levels = problem.levels.size
    n_pos, n_neg = pair_sizes(problem)
    return DmfRoc(
        fpr=point.fpr,
        tpr=point.tpr,
        D=point.area,
        levels=problem.levels,
        thresholds=point.thresholds,
        tpr_matrix=point.rates[:n_levels],
        fpr_matrix=point.rates[n_levels:],
        intercept=fit.intercept[0],
        slope=fit.slope[0],
        pair_effect=fit.effect[0],
        fitted=expit(linear_predictor(fit)[0]),
        weights=point.weights,
        n_trials=point.trials,
        pairs=problem.classes[problem.pools.pairs],
        dropped_pairs=problem.dropped,
        n_pos=n_pos,
        n_neg=n_neg,
        deviance=float(fit.deviance[0]),
        n_iter=int(fit.n_iter[0]),
        converged=bool(fit.converged[0]),
        method=settings.method,
        threshold_mode=problem.pools.mode,
        weighting=settings.weighting if isinstance(settings.weighting, str) else "custom",
        trials=settings.trials,
        monotone=settings.monotone,
        classes=problem.classes,
        bootstrap=boot,
    )
