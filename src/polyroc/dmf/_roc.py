"""ROC-DMF: the result object and the public entry point :func:`roc_dmf`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit

from polyroc import _warnings
from polyroc._engine.numeric import divide
from polyroc._engine.parallel import single_blas_thread
from polyroc._engine.ranking import pairwise_wins
from polyroc._results import Drawable, html_table, interval_table, jsonable
from polyroc._text import count_noun
from polyroc._validation._params import Interval, validate_params
from polyroc.dmf._bootstrap import DmfBootstrap, replicate_fits, summarise
from polyroc.dmf._curve import roc_points
from polyroc.dmf._factorization import linear_predictor
from polyroc.dmf._model import SHARED_CONSTRAINTS, check_bootstrap_size, fit_point, make_settings, settings_record
from polyroc.dmf._rates import pair_sizes, prepare_problem
from polyroc.exceptions import ConvergenceWarning, NonMonotoneCurveWarning, SmallClassWarning
from polyroc.intervals._resampling import ConfidenceInterval

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

#: Largest decrease of the fitted curve from one row to the next that passes without a warning.
REVERSAL_TOLERANCE = 0.01
#: Fewest rows of a class (effective size with weights) at which D's correction bias stayed within 0.01
#: in the small-sample study (``benchmarks/dmf_small_samples.py``); below it :class:`SmallClassWarning`.
SMALL_CLASS_ROWS = 100
#: Default distance of a pairwise AUC from ½ below which a class's scores carry no ranking information.
UNINFORMATIVE_TOLERANCE = 0.05

#: The interval method column of D in the notebook view when no bootstrap was run.
NO_BOOTSTRAP = "none: no bootstrap (roc_dmf(..., bootstrap='stratified') gives one)"


class Reversal(NamedTuple):
    """The largest decrease of a fitted curve: its size, the block ("TPR" or "FPR") and the row."""

    amount: float
    block: str
    row: int


@dataclass(frozen=True, eq=False, repr=False)
class DmfRoc(Drawable):
    """A multiclass ROC curve by binomial deviance matrix factorization (ROC-DMF).

    Wang & Carvalho (2024), "Multiclass ROC", arXiv:2404.13147. Rows are in
    decreasing-cut-off order: row r uses quantile level ``levels[r]``.

    Attributes
    ----------
    fpr, tpr : ndarray of shape (T,)
        The curve: expit of the fitted FP- and TP-block row intercepts (with
        ``settings["monotone"]``, their running maximum).
    D : float
        The AUC-like area under the curve, by trapezoids in cut-off order
        with the endpoints (0, 0) and (1, 1) added.
    levels : ndarray of shape (T,)
        Quantile level of each row (decreasing).
    cutoffs : ndarray of shape (T, K)
        Score cut-off of each row for each pair.
    tpr_matrix, fpr_matrix : ndarray of shape (T, K)
        The observed pairwise rates. With K >= 2 pairs the factorization fits
        their empirical-logit version (n M + ½)/(n + 1), n = ``n_pos`` (TPR)
        or ``n_neg`` (FPR); with one pair (two classes) the rates themselves.
    intercept, slope : ndarray of shape (2T,)
        Fitted Λ0 and Λ (TP rows first, then FP rows).
    pair_effect : ndarray of shape (K,)
        Fitted V: centred, unit norm, first entry >= 0 (``[0.0]`` for two
        classes: one pair, no pair effect).
    fitted : ndarray of shape (2T, K)
        Fitted rates expit(Λ0 + Λ V) (of the corrected rates when K >= 2).
    weights, n_trials : ndarray of shape (2T, K)
        Fit weights ω and binomial trials N.
    pairs : ndarray of shape (K, 2)
        Ordered class pairs (positive, negative) used, as labels; with two
        classes only (first, second).
    dropped_pairs : tuple of tuple
        Pairs left out because one of their classes has no samples.
    n_pos, n_neg : ndarray of shape (K,)
        Sizes of the positive and negative class of each pair (Kish's
        effective sizes with sample weights).
    deviance : float
        Final weighted binomial deviance.
    n_iter : int
    converged : bool
    classes : ndarray
        The class order.
    bootstrap : DmfBootstrap or None
        Replicates, CI and band when a bootstrap was requested.
    max_reversal : float
        Largest decrease of the fitted ``fpr`` or ``tpr`` from one row to the
        next, before any ``monotone`` running maximum (0.0 for a monotone
        curve). The pairwise rates are monotone down every column, but each
        row has its own intercept and slope: a row in which a few pairs sit far
        from the others (a rate of 0 or 1 among intermediate ones, typical of
        tied scores and small classes) is fitted with a steep slope Λ_i, which
        moves its intercept, the model's logit at the average pair effect
        V = 0. Above 0.01 :func:`roc_dmf` warns with
        :class:`NonMonotoneCurveWarning`.
    pair_auc : ndarray of shape (K,)
        Ranking information of each pair's rates: Hand & Till's (2001)
        Â(a|b), the share of (class-a, class-b) sample pairs that column a's
        score ranks with the class-a sample higher (ties ½; weighted with
        sample weights), for ``pairs[j] = (a, b)``. It is the area under the
        empirical pairwise ROC whose rates ``tpr_matrix[:, j]`` and
        ``fpr_matrix[:, j]`` sample: ½ means that column of rates carries no
        ranking information (TPR = FPR at every cut-off).
    class_auc : ndarray of shape (k,)
        For each class a (in ``classes`` order), the mean of Â(a|b) over the
        other classes b with samples: how well class a's own score column
        ranks its samples above those of every other class (NaN for a class
        without samples). See :meth:`uninformative_classes`.
    settings : dict
        The options: ``cutoff_grid``, ``n_levels``, ``method``, ``weighting``
        (``"custom"`` for user weights), ``trials``, ``monotone``,
        ``bootstrap``, ``n_boot`` (0 without a bootstrap), ``confidence``,
        ``random_state``, ``interval_method``, ``tol``, ``max_iter``.

    See Also
    --------
    roc_dmf : Makes this result.
    DmfBootstrap : The bootstrap held in ``bootstrap``.
    polyroc.plotting.DmfRocDisplay : Draws the curve and its band.
    compare_models : ROC-DMF of several models with ranking probabilities.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 40)
    >>> P = rng.dirichlet(np.ones(3), size=120) + 0.6 * np.eye(3)[y]
    >>> result = roc_dmf(y, P, n_levels=19)
    >>> round(result.D, 3), result.fpr.shape, result.tpr_matrix.shape
    (0.942, (19,), (19, 6))
    >>> result.class_auc.round(3).tolist(), result.ci
    ([0.964, 0.952, 0.968], None)
    >>> result.to_frame().columns.tolist()
    ['level', 'fpr', 'tpr']
    """

    fpr: np.ndarray
    tpr: np.ndarray
    D: float
    levels: np.ndarray
    cutoffs: np.ndarray
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
    classes: np.ndarray
    settings: dict
    bootstrap: DmfBootstrap | None = None
    max_reversal: float = 0.0
    pair_auc: np.ndarray | None = None
    class_auc: np.ndarray | None = None

    @property
    def ci(self) -> ConfidenceInterval | None:
        """The bootstrap :class:`~polyroc.resampling.ConfidenceInterval` of D, or None."""
        return None if self.bootstrap is None else self.bootstrap.ci

    @validate_params({"tolerance": [Interval("real", 0, 0.5, closed="both")]})
    def uninformative_classes(self, tolerance: float = UNINFORMATIVE_TOLERANCE) -> list:
        """Classes whose score column carries no ranking information against any other class.

        A class a is listed when every pairwise AUC Â(a|b) of its score
        column (:attr:`pair_auc`, b any other class with samples) lies within
        ``tolerance`` of ½: its TPR and FPR columns are (nearly) equal at every
        cut-off, so whatever the accuracy of the classifier, the scores of
        class a do not rank its samples above the others (typically a column
        of tied or constant scores, e.g. a rare class a model never predicts).
        D averages these pairs with the informative ones.

        Parameters
        ----------
        tolerance : float, default=0.05
            Largest distance of Â(a|b) from ½, in [0, 0.5].

        Returns
        -------
        list
            Class labels, in ``classes`` order (empty when every column ranks).

        Raises
        ------
        ValueError
            If ``tolerance`` is not in [0, 0.5].
        TypeError
            If ``tolerance`` is not a real number.

        See Also
        --------
        DmfRoc : ``pair_auc`` and ``class_auc``, the AUCs compared with ½.
        polyroc.metrics.roc_auc_score : Hand & Till's M, the mean of these pairwise AUCs.

        Examples
        --------
        >>> y = np.repeat([0, 1, 2], 20)
        >>> P = np.column_stack([(y == 0) + 0.1 * np.arange(60) % 1, (y == 1) * 1.0, np.full(60, 1 / 3)])
        >>> roc_dmf(y, P, n_levels=9).uninformative_classes()
        [2]
        """
        tolerance = float(tolerance)
        if self.pair_auc is None:
            return []
        position = {label: i for i, label in enumerate(self.classes.tolist())}
        distance = np.full(self.classes.size, -np.inf)
        for (a, _), auc in zip(self.pairs.tolist(), self.pair_auc):
            distance[position[a]] = max(distance[position[a]], abs(auc - 0.5))
        return [label for label, far in zip(self.classes.tolist(), distance) if np.isfinite(far) and far <= tolerance]

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data (see :meth:`Result.to_dict`), ``ci`` and ``uninformative_classes``.

        ``uninformative_classes`` is :meth:`uninformative_classes` at its default tolerance.

        Returns
        -------
        dict
            ``{"type": "DmfRoc", <field>: <value>, ..., "ci": ...,
            "uninformative_classes": [...]}``; arrays become lists and the
            bootstrap a nested dict, so ``json.dumps`` writes it as strict JSON.

        See Also
        --------
        to_frame : The curve as a pandas DataFrame, one row per level.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> y = np.repeat([0, 1, 2], 40)
        >>> P = rng.dirichlet(np.ones(3), size=120) + 0.6 * np.eye(3)[y]
        >>> record = roc_dmf(y, P, n_levels=19).to_dict()
        >>> record["type"], round(record["D"], 3), len(record["fpr"]), record["ci"], record["uninformative_classes"]
        ('DmfRoc', 0.942, 19, None, [])
        """
        return {
            **super().to_dict(),
            "ci": jsonable(self.ci),
            "uninformative_classes": jsonable(self.uninformative_classes()),
        }

    def _view_sections(self) -> list[str]:
        """D with its interval, then each class's mean pairwise AUC."""
        area = interval_table([("D", self.D, self.ci)], "Area under the ROC-DMF curve", why=NO_BOOTSTRAP)
        if self.class_auc is None:
            return [area]
        classes = [[label, auc] for label, auc in zip(self.classes.tolist(), self.class_auc)]
        note = "AUC: the mean over b of the pairwise AUC Â(a|b) of class a's scores (Hand & Till 2001)."
        return [area, html_table(classes, ["class", "AUC"], "Per class", note=note)]

    def _view_notes(self) -> list[str]:
        notes = []
        if not self.converged:
            notes.append(f"The fit stopped at max_iter={self.n_iter} before converging: D may be off.")
        if self.max_reversal > REVERSAL_TOLERANCE:
            notes.append(
                f"The fitted curve falls back by up to {self.max_reversal:.3f} between cut-offs (monotone=True "
                "takes its running maximum)."
            )
        uninformative = self.uninformative_classes()
        if uninformative:
            notes.append(
                f"The scores of class {', '.join(map(str, uninformative))} rank no better than chance against "
                "every other class; D averages those pairs with the others."
            )
        if self.dropped_pairs:
            notes.append(f"{len(self.dropped_pairs)} class pairs were left out: one of their classes has no rows.")
        if self.bootstrap is not None and self.bootstrap.n_unconverged:
            notes.append(f"{self.bootstrap.n_unconverged} bootstrap refits did not converge.")
        return notes

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per curve point (level, FPR-like, TPR-like), in cut-off order."""
        return [
            {"level": float(level), "fpr": float(fpr), "tpr": float(tpr)}
            for level, fpr, tpr in zip(self.levels, self.fpr, self.tpr)
        ]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the curve (and its bootstrap band) with :class:`polyroc.plotting.DmfRocDisplay`.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to ``DmfRocDisplay.from_result`` (``name=`` and the
            display's options).

        Returns
        -------
        polyroc.plotting.DmfRocDisplay
            The display, drawn (``display.ax_``, ``display.figure_``).

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string, or
            a keyword is unknown to ``DmfRocDisplay.plot`` or of the wrong
            type.
        ValueError
            An unknown ``band_style``.

        See Also
        --------
        polyroc.plotting.DmfRocDisplay : The display drawn here (``from_results`` for several models).
        DmfBootstrap : The band drawn when a bootstrap was run.

        Examples
        --------
        >>> rng = np.random.default_rng(0)
        >>> y = np.repeat([0, 1, 2], 40)
        >>> P = rng.dirichlet(np.ones(3), size=120) + 0.6 * np.eye(3)[y]
        >>> display = roc_dmf(y, P, n_levels=19).plot()
        >>> type(display).__name__, display.ax_.get_title()
        ('DmfRocDisplay', 'ROC-DMF')
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        return super().plot(ax, **kwargs)


@validate_params(SHARED_CONSTRAINTS)
def roc_dmf(
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
    tol: float = 1e-8,
    max_iter: int = 200,
    correction: float = 0.5,
) -> DmfRoc:
    """Multiclass ROC curve and its area D by binomial deviance matrix factorization.

    For every ordered class pair (a, b) the TPR and FPR of column a's scores at
    T quantile cut-offs form two T × K matrices; a weighted binomial
    rank-one factorization ``logit M_ij ≈ Λ0_i + Λ_i V_j`` of the stacked
    matrices gives, through its row intercepts, one multiclass ROC curve
    (Wang & Carvalho (2024), "Multiclass ROC", arXiv:2404.13147).

    The rates are fitted as empirical-logit rates (n M + ½)/(n + 1), n the
    samples behind the rate (Haldane (1956), Ann. Hum. Genet. 20:309;
    Anscombe (1956), Biometrika 43:461), so that rates of 0
    or 1 have finite logits and D is free of tuning constants; each rate moves
    towards ½ by at most 1/(2(n + 1)), which lowers D noticeably only for
    small classes (tens of samples) and nearly perfect classifiers. With
    two classes the paper's section 3.1 applies: the single pair (first class,
    second class) is used, the model is saturated and the curve is the
    empirical binary ROC at the quantile cut-offs (D converges to the
    binary AUC as the levels refine).

    With three or more classes D and the curve do not depend on the class
    order: renaming the classes, with the score columns (and the pair costs of
    ``weighting``) permuted the same way, gives the same D to rounding, for
    every ``cutoff_grid``. With two classes they do, by the paper's convention:
    the first class is the positive one and only its score column is scored,
    with a sample predicted positive when its score is strictly above the
    cut-off. Relabelling scores the other column; on a grid coarser than the
    data D then moves by up to the grid's resolution (a few thousandths at
    T = 99), most with ``cutoff_grid="balanced"``, whose cut-offs are sample
    scores, so the strict inequality always falls on a sample.

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
    sample_weight : array-like of shape (n,), optional
        Non-negative weights of relative importance (scale-free: multiplying
        them all by a constant changes nothing). Each rate is the weighted
        share of its class above the cut-off, the cut-offs are weighted
        quantiles (see :func:`pairwise_rates`), and the sample counts behind
        the rates (binomial trials, continuity correction, parametric
        bootstrap) become Kish's effective class sizes ``(Σw)² / Σw²``
        (Kish (1965), "Survey Sampling", Wiley). Integer weights give the
        rates of repeated rows (with ``cutoff_grid="balanced"`` always; with
        the type-7 grids at equal cut-offs), but not the same D: repeating a
        row adds information, a weight does not. The stratified bootstrap
        resamples rows within classes and carries their weights.
    levels : array-like of shape (T,), optional
        Increasing quantile levels in (0, 1), T >= 2; default ``t / (n_levels + 1)``.
    n_levels : int, default=99
        T when ``levels`` is None.
    cutoff_grid : {"pooled", "column", "balanced"}, default="pooled"
        Cut-off pool of pair (a, b): column a's scores of classes a and b, of
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
        and n_b for FPR. Used by ``"weighted"`` and the parametric bootstrap
        (the continuity correction always uses n_a and n_b, the samples
        behind each rate).
    monotone : bool, default=False
        Apply a running maximum to the curve before integrating.
    bootstrap : {None, "parametric", "stratified"}, default=None
        Also compute a CI of D and a band for the curve: by simulating from the
        fitted binomial model (the paper's method; its intervals are far too
        narrow because the cells are not independent; with sample weights the
        trials are the effective sizes rounded to integers), or by resampling
        observations within each class and refitting.
    n_boot : int, default=1000
        Bootstrap replicates, >= 1 when ``bootstrap`` is given; without a
        bootstrap it is unused (0 is accepted: no interval).
    confidence : float, default=0.95
        Level of the percentile interval of D and of the band.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap.
    tol : float, default=1e-8
        Convergence tolerance on the relative change of deviance.
    max_iter : int, default=200
        Largest number of iterations of a fit.
    correction : float, default=0.5
        Pseudo-count c > 0 of the empirical-logit rates (n M + c)/(n + 2c)
        fitted with three or more classes: 0.5 is Haldane's (1956) correction
        (also Firth's (1993) bias-reduced estimate of a single binomial logit);
        about 1/6 is the median of the Jeffreys Beta(½, ½) posterior (Kerman
        (2011) approximation). Smaller values pull D less towards ½ on small
        classes but let a rate of 0 or 1 weigh more in a row's mean of logits;
        see the ``docs/dmf.md`` small-sample study. Unused with two classes.

    Returns
    -------
    DmfRoc

    Raises
    ------
    ValueError
        Invalid labels, scores or ``sample_weight``; ``y_score`` is a
        DataFrame whose column names are some of the classes but not all;
        fewer than 2 classes with samples, bad levels or more than fit in memory (2 T K > 2**22 matrix
        cells), unknown options, weights of the wrong shape or not positive, a
        negative ``random_state`` seed, or a bootstrap of more than 2**34 cell refits
        (``n_boot`` × 2 T K; about an hour). All are checked before any work.
    TypeError
        Options of the wrong type (a list for ``cutoff_grid``, a float
        ``n_boot``, a non-bool ``monotone``, ``weighting=None``, a
        ``random_state`` that is not None, an integer or a Generator ...),
        non-numeric scores or weights, or labels mixing strings and numbers.

    Warns
    -----
    UndefinedMetricWarning
        Pairs with an empty class were dropped.
    ConvergenceWarning
        The fit or some bootstrap refits stopped at ``max_iter``: at most one
        warning per call, with the number of refits concerned.
    NonMonotoneCurveWarning
        The fitted curve decreases by more than 0.01 somewhere (see
        ``DmfRoc.max_reversal``).
    SmallClassWarning
        Three or more classes and one of them has fewer than 100 rows
        (Kish's effective size with sample weights): the correction then
        pulls D towards ½ by about 2c/n (1/n at c = ½) for a perfect ranking;
        100 is where its bias stayed within 0.01 in the small-sample study
        (``benchmarks/dmf_small_samples.py``).

    See Also
    --------
    pairwise_rates : The pairwise TPR/FPR matrices alone.
    majority_cost_weights : Misclassification costs for ``weighting``.
    compare_models : Rank several models by D with a paired bootstrap.
    polyroc.metrics.roc_auc_score : Hand & Till's M (``multi_class="ovo"``), another pairwise summary.

    References
    ----------
    Wang, L. & Carvalho, L. (2024). Multiclass ROC. arXiv:2404.13147.
    Sections 3.2-3.4 (pairwise matrices, factorization, costs Q), 3.6
    (D, eq. (22), and the bootstrap) and 4 (Algorithm 1).

    Haldane, J. B. S. (1956). The estimation and significance of the
    logarithm of a ratio of frequencies. Annals of Human Genetics 20,
    309-311. doi:10.1111/j.1469-1809.1955.tb01285.x

    Anscombe, F. J. (1956). On estimating binomial response relations.
    Biometrika 43, 461-464. doi:10.1093/biomet/43.3-4.461

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
    >>> weighted = roc_dmf(y, P, n_levels=19, sample_weight=np.full(120, 0.25))  # equal weights: no change
    >>> weighted.D == result.D
    True
    """
    settings = make_settings(
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
        correction=correction,
    )
    problem = prepare_problem(
        y_true,
        y_score,
        labels=labels,
        sample_weight=sample_weight,
        levels=levels,
        n_levels=n_levels,
        cutoff_grid=cutoff_grid,
        one_binary_pair=True,
    )
    check_bootstrap_size(problem, settings)
    warn_if_small_classes(problem, settings)
    with single_blas_thread():
        point = fit_point(problem, settings)
    warn_if_reversed(point, settings)
    boot = replicates = None
    if settings.bootstrap is not None:
        replicates = replicate_fits([problem], [point], settings)
        boot = summarise(replicates[0], point, settings)
    warn_if_unconverged([point], settings, replicates)
    return assemble(problem, point, settings, boot)


def warn_if_unconverged(points, settings, replicates=None, names=None):
    """One :class:`ConvergenceWarning` per call, for the point fits and bootstrap refits that reached ``max_iter``.

    ``points`` and ``replicates`` (None without a bootstrap) hold one entry
    per model, ``names`` their names (None for one model). Nothing is said
    when every fit converged.
    """
    stuck = [i for i, point in enumerate(points) if not point.factorization.converged[0]]
    failed = 0 if replicates is None else sum(r.n_unconverged for r in replicates)
    if not stuck and not failed:
        return
    parts = []
    if stuck:
        which = "the fit" if names is None else "the fits of " + ", ".join(repr(names[i]) for i in stuck)
        deviance = ", ".join(f"{points[i].factorization.deviance[0]:.6g}" for i in stuck)
        parts.append(f"{which} did not converge within max_iter={settings.max_iter} iterations (deviance {deviance})")
    if failed:
        total = settings.n_boot * len(replicates)
        parts.append(
            f"{failed} of {total} bootstrap refits did not converge within max_iter={settings.max_iter}, "
            "from the point fit nor from their own start (their D is kept)"
        )
    _warnings.warn(f"ROC-DMF: {'; '.join(parts)}; tol={settings.tol:g}: raise max_iter or tol", ConvergenceWarning)


def warn_if_small_classes(problem, settings):
    """Warn with :class:`SmallClassWarning` when a class with samples has fewer than :data:`SMALL_CLASS_ROWS` rows.

    Only with two or more pairs (three or more classes), where the rates are corrected.
    """
    if len(problem.pools.pairs) < 2:
        return
    n_pos, _ = pair_sizes(problem)
    sizes = dict(zip(problem.pools.pairs[:, 0].tolist(), n_pos.tolist()))
    small = {problem.classes[a].item(): size for a, size in sizes.items() if size < SMALL_CLASS_ROWS}
    if not small:
        return
    named = ", ".join(f"{label!r} ({size:g})" for label, size in small.items())
    c = settings.correction
    _warnings.warn(
        f"ROC-DMF: {count_noun(len(small), 'class')} with fewer than {SMALL_CLASS_ROWS} rows: {named}; "
        f"the rates are fitted as (n M + {c:g})/(n + {2 * c:g}) (correction={c:g}), which biases D "
        "towards 1/2 on small classes (at correction=0.5, simulations give a bias of -0.05 to -0.08 "
        "at 10 rows a class and within 0.01 from 100 rows); Hand & Till's M "
        "(roc_auc_score(multi_class='ovo')) needs no correction",
        SmallClassWarning,
    )


def curve_reversal(point):
    """The largest decrease of the point fit's curve (before any running maximum)."""
    fpr, tpr = roc_points(point.factorization.intercept)
    drops = {"TPR": -np.diff(tpr[0]), "FPR": -np.diff(fpr[0])}
    block = max(drops, key=lambda name: drops[name].max(initial=0.0))
    row = int(np.argmax(drops[block])) if drops[block].size else 0
    return Reversal(max(0.0, float(drops[block].max(initial=0.0))), block, row)


def warn_if_reversed(point, settings):
    """Warn with :class:`NonMonotoneCurveWarning` when the curve decreases by more than the tolerance."""
    reversal = curve_reversal(point)
    if reversal.amount <= REVERSAL_TOLERANCE:
        return
    n_levels = point.rates.shape[0] // 2
    offset = 0 if reversal.block == "TPR" else n_levels
    slopes = point.factorization.slope[0, offset + reversal.row : offset + reversal.row + 2]
    advice = "" if settings.monotone else "; monotone=True integrates its running maximum instead"
    _warnings.warn(
        f"the ROC-DMF curve's {reversal.block} decreases by {reversal.amount:.3f} from row "
        f"{reversal.row} to row {reversal.row + 1} although every pairwise rate column is monotone: "
        f"the two rows are fitted with slopes {slopes[0]:.3g} and {slopes[1]:.3g}, and a steep row slope "
        "(a few pairs far from the others, e.g. rates of 0 or 1 among intermediate ones with tied scores "
        f"or small classes) moves the row intercept (see DmfRoc.max_reversal){advice}",
        NonMonotoneCurveWarning,
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
        cutoffs=point.cutoffs,
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
        classes=problem.classes,
        settings=settings_record(problem, settings),
        bootstrap=boot,
        max_reversal=curve_reversal(point).amount,
        **ranking_information(problem),
    )


def ranking_information(problem):
    """``pair_auc`` (K,) and ``class_auc`` (k,) of a problem: Hand & Till's Â(a|b) from one sort per column."""
    wins = pairwise_wins(problem.y, problem.scores, problem.weights)
    support = np.bincount(problem.y, weights=problem.weights, minlength=problem.classes.size).astype(np.float64)
    a_given_b = divide(wins, support[:, None] * support[None, :], np.nan)
    pairs = problem.pools.pairs
    present = support > 0
    off_diagonal = present[None, :] & ~np.eye(support.size, dtype=bool)
    totals = np.where(off_diagonal, a_given_b, 0.0).sum(axis=1)
    others = off_diagonal.sum(axis=1)
    class_auc = np.where(present & (others > 0), totals / np.maximum(others, 1), np.nan)
    return {"pair_auc": a_given_b[pairs[:, 0], pairs[:, 1]], "class_auc": class_auc}
