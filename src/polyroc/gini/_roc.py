"""``gini_roc``: the Gini-weighted multiclass ROC curve, its areas, bands and settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.counts import chunk_length
from polyroc._engine.parallel import chunk_map, single_blas_thread
from polyroc._engine.progress import task
from polyroc._engine.replicate_columns import LANE_WIDTH
from polyroc._results import Drawable, Result, interval_table
from polyroc._text import count_noun
from polyroc._validation import (
    check_class_support,
    check_min_samples,
    check_random_state,
    check_real_array,
    check_scores,
    describe,
)
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.exceptions import ScoreScaleWarning, WhiteningWarning
from polyroc.gini._aggregate import (
    aggregate_threshold,
    aggregate_vertical,
    class_curves,
    diagonal_curve,
    resample_curve,
    restrict_weights,
)
from polyroc.gini._dispersion import GINI_NORMS, relative_weights
from polyroc.gini._multigini import class_weights, gini_of_whitened
from polyroc.gini._reference import (
    REFERENCE_CAP,
    REFERENCE_FLOOR,
    REFERENCE_GRID,
    REFERENCE_NOISE,
    reference_pipeline,
)
from polyroc.gini._replicates import (
    HeldCounts,
    ReplicateDraws,
    class_statistics,
    fitted_class_weights,
    held_statistics,
    in_layout,
    moment_basis,
    rank_classes,
    replicate_means,
    replicate_moments,
    segment_sums,
    suspect_rows,
)
from polyroc.gini._view import view_notes, view_sections
from polyroc.gini._whitening import (
    SINGULAR_OPTIONS,
    check_whitening_options,
    fit_whitening,
    warn_about_whitening,
)
from polyroc.intervals._resampling import (
    STRATIFIED_PERCENTILE,
    ConfidenceInterval,
    bootstrap_multiplicities,
    percentile_interval,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

__all__ = ["GiniBootstrap", "GiniRoc", "gini_roc"]

COMPAT_OPTIONS = (None, "reference")
ABSENT_OPTIONS = ("raise", "drop")
AVERAGING_OPTIONS = ("vertical", "threshold")

#: Threshold averaging warns when the largest score range exceeds the smallest by this factor.
SCALE_RATIO = 10.0

#: Number of equispaced FPR values of the bootstrap band when ``grid=None``.
BAND_POINTS = 101

#: Fewest replicates per chunk of the bootstrap (the moment products want a few dozen).
MIN_CHUNK_REPLICATES = 32


@dataclass(frozen=True, eq=False, repr=False)
class GiniBootstrap(Result):
    """Stratified percentile-bootstrap band and intervals of a :class:`GiniRoc`.

    Attributes
    ----------
    fpr : ndarray
        Equispaced FPR values of the band.
    tpr_low, tpr_high : ndarray
        Pointwise percentile band of the aggregated TPR at ``fpr``.
    auc : ConfidenceInterval
        Percentile interval of the aggregated AUC.
    auc_se : float
        Bootstrap standard error of the aggregated AUC.
    weights_low, weights_high : ndarray of shape (n_classes,)
        Percentile intervals of the class weights.
    settings : dict
        ``n_boot``, ``confidence``, ``random_state``, ``interval_method``
        (``"percentile"``) and ``stratify`` (True: rows resampled within
        each class, carrying their sample weights).

    See Also
    --------
    gini_roc : Computes it with ``n_boot > 0``.
    GiniRoc : The result that holds it as ``bootstrap``.
    polyroc.plotting.GiniRocDisplay : Draws the band.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> P = [[.8, .1, .1], [.6, .3, .1], [.3, .4, .3], [.2, .7, .1], [.1, .6, .3],
    ...      [.4, .5, .1], [.1, .2, .7], [.2, .2, .6], [.5, .1, .4]]
    >>> boot = gini_roc(y, P, n_boot=100, random_state=0).bootstrap
    >>> boot.fpr.shape, bool(np.all(boot.tpr_low <= boot.tpr_high)), boot.settings["interval_method"]
    ((101,), True, 'stratified percentile bootstrap')
    >>> print(boot.auc)
    0.9612 [95% CI 0.8613, 1.0000; stratified percentile bootstrap, B=100]
    """

    fpr: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray
    auc: ConfidenceInterval
    auc_se: float
    weights_low: np.ndarray
    weights_high: np.ndarray
    settings: dict

    def _view_sections(self) -> list[str]:
        """The interval of the aggregated AUC."""
        return [interval_table([("auc_agg", self.auc.estimate, self.auc)], "Gini-weighted ROC")]

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per FPR value of the band."""
        return [
            {"fpr": float(f), "tpr_low": float(lo), "tpr_high": float(hi)}
            for f, lo, hi in zip(self.fpr, self.tpr_low, self.tpr_high)
        ]


@dataclass(frozen=True, eq=False, repr=False)
class GiniRoc(Drawable):
    """Gini-weighted multiclass ROC: weights, G₁, both AUCs, curves, bands and settings.

    Giudici, Rosciano, Schrader & Kummerfeld (2025), "A Multiclass ROC Curve",
    arXiv:2510.15670.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        Class labels, in the order of the score columns.
    weights : ndarray of shape (n_classes,)
        Gini weights ``|m*_i| / Σ|m*_j|`` used for the curve (0 for a dropped
        class, renormalised over the others); non-negative, summing to 1.
        NaN when every column of ``y_score`` is constant (the weights are then
        0/0, and the curve is the diagonal whatever they are).
    g1 : float
        Multidimensional Gini index G₁ (label-free: a dispersion of the scores).
    auc_theory : float
        ``(G₁ + 1) / 2``, the paper's "theoretical AUC"; a diagnostic, not a
        measure of discrimination.
    auc_agg : float
        Area under the aggregated curve (trapezoid). With vertical averaging
        and the exact grid it equals ``Σ_i weights_i class_auc_i``.
    fpr, tpr : ndarray
        The aggregated ROC curve.
    dispersion : ndarray
        Weighted between-class standard deviation of TPR at each point (the
        reference's "±1 std" band; with threshold averaging, at the same
        threshold): spread between classes, *not* a confidence band.
    class_fpr, class_tpr : tuple of ndarray
        One-vs-rest ROC curve of each class (as ``sklearn.metrics.roc_curve``).
    class_auc : ndarray of shape (n_classes,)
        One-vs-rest AUC of each class (NaN for a class without samples).
    whitening : ndarray of shape (n_classes, n_classes)
        The whitening matrix W (``X* = X @ W.T``).
    whitened_mean : ndarray of shape (n_classes,)
        ``m*``, the whitened mean of the evaluated scores.
    mean_difference : ndarray of shape (n_classes,)
        Gini mean difference ``Δ_i`` of each whitened column.
    gini : ndarray of shape (n_classes,)
        Per-class Gini ``Δ_i / (2 |m*_i|)`` (compat mode: the reference's ``Δ_i / 2``).
    degenerate : bool
        The singular correlation matrix was handled by the λ → 0 limit: the
        weights are the limit weights and G₁ = 0.
    classes_used : tuple
        Classes that were whitened and have samples (the others have weight
        0); empty when every column of ``y_score`` is constant.
    bootstrap : GiniBootstrap or None
        Stratified bootstrap band and intervals, when ``n_boot > 0``.
    settings : dict
        How the result was computed: ``compat``, ``fitted_on``, ``singular``
        (requested), ``whitening`` (applied), ``ridge``, ``condition_number``,
        ``constant_classes``, ``absent_classes``, ``gini_norm``, ``grid``,
        ``averaging``, ``n_boot``, ``confidence``, ``random_state``,
        ``interval_method`` (None without a bootstrap).

    See Also
    --------
    gini_roc : Computes it.
    GiniBootstrap : Its bootstrap band and intervals.
    polyroc.plotting.GiniRocDisplay : Draws it.
    polyroc.curves.ovr_roc_curve : The one-vs-rest curves it averages.

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> P = [[.8, .1, .1], [.6, .3, .1], [.3, .4, .3], [.2, .7, .1], [.1, .6, .3],
    ...      [.4, .5, .1], [.1, .2, .7], [.2, .2, .6], [.5, .1, .4]]
    >>> result = gini_roc(y, P, n_boot=0)
    >>> result.weights.round(3).tolist(), result.class_auc.round(3).tolist(), round(result.auc_agg, 3)
    ([0.349, 0.318, 0.333], [0.889, 1.0, 1.0], 0.961)
    >>> result.to_frame()[["class", "weight", "auc"]].round(3).to_dict("list")
    {'class': [0, 1, 2], 'weight': [0.349, 0.318, 0.333], 'auc': [0.889, 1.0, 1.0]}
    """

    classes: np.ndarray
    weights: np.ndarray
    g1: float
    auc_theory: float
    auc_agg: float
    fpr: np.ndarray
    tpr: np.ndarray
    dispersion: np.ndarray
    class_fpr: tuple
    class_tpr: tuple
    class_auc: np.ndarray
    whitening: np.ndarray
    whitened_mean: np.ndarray
    mean_difference: np.ndarray
    gini: np.ndarray
    degenerate: bool
    classes_used: tuple
    bootstrap: GiniBootstrap | None
    settings: dict

    def _view_sections(self) -> list[str]:
        """The aggregated AUC with its interval, G₁, then each class's weight (with its interval) and AUC."""
        return view_sections(self)

    def _view_notes(self) -> list[str]:
        """One sentence on a singular correlation (G₁ = 0 by construction) and on classes of weight 0."""
        return view_notes(self)

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per class: its Gini weight, one-vs-rest AUC and whitened statistics."""
        return [
            {
                "class": label.item() if hasattr(label, "item") else label,
                "weight": float(self.weights[i]),
                "auc": float(self.class_auc[i]),
                "gini": float(self.gini[i]),
                "whitened_mean": float(self.whitened_mean[i]),
                "mean_difference": float(self.mean_difference[i]),
            }
            for i, label in enumerate(self.classes)
        ]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the aggregated curve, the class curves and the bands with :class:`polyroc.plotting.GiniRocDisplay`.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to ``GiniRocDisplay.from_result`` (``name=`` and the
            display's options).

        Returns
        -------
        polyroc.plotting.GiniRocDisplay

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string, or a
            keyword is not an option of :meth:`polyroc.plotting.GiniRocDisplay.plot`.

        See Also
        --------
        polyroc.plotting.GiniRocDisplay : The Display it builds.
        polyroc.plotting.GiniRocDisplay.from_predictions : Compute and draw in one call.

        Examples
        --------
        >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
        >>> P = [[.8, .1, .1], [.6, .3, .1], [.3, .4, .3], [.2, .7, .1], [.1, .6, .3],
        ...      [.4, .5, .1], [.1, .2, .7], [.2, .2, .6], [.5, .1, .4]]
        >>> display = gini_roc(y, P, n_boot=0).plot(name="model", show_classes=False)
        >>> type(display).__name__, display.line_.get_label()
        ('GiniRocDisplay', 'model Gini-weighted ROC (AUC = 0.961)')
        >>> import matplotlib.pyplot as plt; plt.close(display.figure_)
        """
        return super().plot(ax, **kwargs)


@validate_params(
    {
        "singular": [Options(SINGULAR_OPTIONS)],
        "gini_norm": [Options(GINI_NORMS)],
        "grid": [None, Interval("integer", 2, None, closed="left")],
        "averaging": [Options(AVERAGING_OPTIONS)],
        "absent": [Options(ABSENT_OPTIONS)],
        "n_boot": [Interval("integer", 0, None, closed="left")],
        "confidence": [Interval("real", 0, 1, closed="neither")],
        "compat": [Options(COMPAT_OPTIONS)],
    }
)
def gini_roc(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    reference_scores: ArrayLike | None = None,
    singular: str = "limit",
    ridge: float | None = None,
    constant: str = "drop",
    gini_norm: str = "unbiased",
    grid: int | None = None,
    averaging: str = "vertical",
    absent: str = "raise",
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    compat: str | None = None,
) -> GiniRoc:
    """Gini-weighted multiclass ROC curve.

    Giudici, Rosciano, Schrader & Kummerfeld (2025), "A Multiclass ROC Curve",
    arXiv:2510.15670, with the multidimensional Gini index of Auricchio,
    Giudici & Toscani (2024), arXiv:2409.10119.

    The one-vs-rest ROC curves of the classes are averaged with the weights
    ``w_i = |m*_i| / Σ|m*_j|`` of the multidimensional Gini index G₁ of the
    ZCA-cor whitened scores. Beware: the weights and G₁ use no labels; for
    probability rows (summing to 1) the correlation matrix is singular, and
    the default ``singular="limit"`` gives ``w_i = σ_i / Σσ_j`` and G₁ = 0
    (silently: that one null direction is the normal case for probabilities;
    ``settings["whitening"]`` and ``degenerate`` record it).
    With vertical averaging ``auc_agg`` lies between the smallest and the
    largest per-class AUC.

    Scores that are constant in every column (a class-prior baseline such as
    scikit-learn's ``DummyClassifier(strategy="prior")``) rank nothing: every
    one-vs-rest curve is the chance diagonal, so the aggregated curve is the
    diagonal and ``auc_agg = 0.5`` whatever the weights. The weights are then
    0/0 and reported as NaN, G₁ is 0 (no dispersion), and a
    :class:`WhiteningWarning` says so (``constant="raise"`` raises instead).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; finite reals
        (rows need not sum to 1).
    labels : array-like of shape (n_classes,), default=None
        Class order of the columns; default: sorted unique ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance, as in scikit-learn:
        multiplying all of them by a constant changes nothing, a zero weight
        removes the sample, and integer weights give the curves, weights and
        AUCs of repeated rows (the unbiased mean differences behind G₁ use
        the effective number of pairs; see :func:`gini_mean_difference`).
    reference_scores : array-like of shape (n_reference, n_classes), default=None
        Scores on which to fit the whitening matrix (e.g. the training set's,
        as the paper's code does); default: ``y_score`` itself.
    singular : {"limit", "ridge", "pinv", "diagonal", "raise"}, default="limit"
        Handling of a singular correlation matrix (see :func:`zca_cor_whitening`).
    ridge : float, default=None
        λ in (0, 1) for ``singular="ridge"``.
    constant : {"drop", "raise"}, default="drop"
        A constant score column in the fitting sample: weight 0 with a
        warning, or raise.
    gini_norm : {"unbiased", "plugin"}, default="unbiased"
        Mean difference over the distinct pairs (``n (n - 1)``) or over all
        ``n²`` pairs.
    grid : int, default=None
        None: the exact aggregated curve. An integer N: the curve at N
        equispaced FPR values, upper value at vertical jumps (100 with
        vertical averaging reproduces the reference code).
    averaging : {"vertical", "threshold"}, default="vertical"
        ``"vertical"``: ``TPR_agg(f) = Σ_i w_i TPR_i(f)`` at common FPR values
        (exact: every breakpoint with both ends of every jump; then
        ``auc_agg = Σ_i w_i AUC_i``). ``"threshold"``: the paper's description,
        ``(Σ_i w_i FPR_i(t), Σ_i w_i TPR_i(t))`` at every threshold ``t`` of the
        union of the scores; meaningful only for score columns on a common
        scale, and its area is not ``Σ_i w_i AUC_i`` in general.
    absent : {"raise", "drop"}, default="raise"
        A class of ``labels`` without samples: raise, or give it weight 0 and
        renormalise the others (recorded in ``settings``).
    n_boot : int, default=1000
        Number of stratified bootstrap replicates for the band and intervals
        (0: none). Rows are resampled within each class and keep their sample
        weights; W is refitted in each replicate unless ``reference_scores``
        is given. Rows of weight 0 are not resampled. Chunks of replicates
        run on all cores (``POLYROC_THREADS`` limits them), with the same
        results whatever their number; progress is reported as the task
        ``"bootstrap replicates"`` (:mod:`polyroc._engine.progress`).
    confidence : float, default=0.95
        Level of the bootstrap band and intervals.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap (and of the noise with ``compat="reference"``).
    compat : {None, "reference"}, default=None
        ``"reference"`` runs the authors' pipeline as published (seeded noise,
        stabilised whitening, global rank rescaling, unnormalised mean
        difference, ROC on whitened scores, 100-point grid, vertical
        averaging); it fixes ``singular``, ``ridge``, ``gini_norm``, ``grid``
        and ``averaging`` and takes no sample weights. Its bootstrap reruns
        the whole pipeline (fresh noise) on rows resampled within each class.

    Returns
    -------
    GiniRoc

    Raises
    ------
    ValueError
        Bad ``y_true``, ``y_score``, ``labels``, ``sample_weight`` or
        ``reference_scores`` (NaN/infinity, shapes, fewer than 2 samples of
        positive weight, fewer than 2 classes); ``y_score`` is a DataFrame
        whose column names are some of the classes but not all; a class
        without samples with ``absent="raise"``; an unknown option; a singular correlation with
        ``singular="raise"``; a constant column with ``constant="raise"``;
        every column of ``reference_scores`` constant while ``y_score`` is
        not; ``Σ|m*| = 0``; options that ``compat="reference"`` fixes.
    TypeError
        Non-numeric inputs or options of the wrong type.

    Warns
    -----
    WhiteningWarning
        Singular correlation matrix beyond the one null direction of rows
        with a constant sum such as probabilities (with what was applied), constant score columns
        (weight 0), every column of ``y_score`` constant (weights undefined,
        AUC 0.5), or no more fitting samples than classes.
    ScoreScaleWarning
        ``averaging="threshold"`` with score columns whose ranges differ a lot.

    See Also
    --------
    GiniRoc : The result it returns.
    multidimensional_gini : The Gini index and class weights alone.
    polyroc.plotting.GiniRocDisplay : Draws the curve with its bands.
    polyroc.metrics.roc_auc_score : The macro, weighted and micro averages of the one-vs-rest AUCs.

    References
    ----------
    Giudici, P., Rosciano, R. C., Schrader, J. & Kummerfeld, D.-M. (2025).
    A Multiclass ROC Curve. arXiv:2510.15670.

    Auricchio, G., Giudici, P. & Toscani, G. (2024). Extending the Gini
    index to higher dimensions via whitening processes. arXiv:2409.10119.

    Examples
    --------
    >>> import warnings
    >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> P = [[.8, .1, .1], [.6, .3, .1], [.3, .4, .3], [.2, .7, .1], [.1, .6, .3],
    ...      [.4, .5, .1], [.1, .2, .7], [.2, .2, .6], [.5, .1, .4]]
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # the constant baseline warns that its weights are 0/0
    ...     result = gini_roc(y, P, n_boot=0)
    ...     by_threshold = gini_roc(y, P, averaging="threshold", n_boot=0)
    ...     baseline = gini_roc(y, [[1 / 3, 1 / 3, 1 / 3]] * 9, n_boot=0)
    ...     boot = gini_roc(y, P, n_boot=200, random_state=0)
    >>> result.settings["whitening"], result.g1
    ('limit', 0.0)
    >>> sigma = np.std(P, axis=0, ddof=1)
    >>> bool(np.allclose(result.weights, sigma / sigma.sum()))
    True
    >>> bool(np.isclose(result.auc_agg, result.weights @ result.class_auc))
    True
    >>> bool(np.allclose(by_threshold.weights, result.weights))  # same weights, other averaging
    True
    >>> round(result.auc_agg, 3), round(by_threshold.auc_agg, 3)
    (0.961, 0.955)
    >>> baseline.auc_agg, baseline.weights.tolist()
    (0.5, [nan, nan, nan])
    >>> boot.bootstrap.auc.low <= boot.auc_agg <= boot.bootstrap.auc.high
    True
    """
    grid = None if grid is None else int(grid)
    n_boot = int(n_boot)
    if compat == "reference":
        _check_compat_arguments(sample_weight, singular, ridge, gini_norm, grid, averaging)
    else:
        ridge = check_whitening_options(singular, ridge, constant)
    y, scores, classes, weights, present, reference = _checked_inputs(
        y_true, y_score, labels, sample_weight, reference_scores, absent
    )
    settings = {
        "fitted_on": "y_score" if reference is None else "reference_scores",
        "absent_classes": classes[~present].tolist(),
        "random_state": random_state,
    }
    if compat == "reference":
        return _reference_roc(y, scores, reference, classes, present, settings, n_boot=n_boot, confidence=confidence)
    options = {"singular": singular, "ridge": ridge, "constant": constant}
    whitening, gini = _fitted_gini(scores, weights, reference, classes, options, gini_norm, settings)
    curve_weights = None if gini is None else restrict_weights(gini.weights, present, classes)
    curves = class_curves(y, scores, weights)
    if averaging == "threshold" and curve_weights is not None:
        _warn_about_scales(scores, curve_weights, classes)
    aggregate = _aggregate(y, scores, weights, curves, curve_weights, grid, averaging)
    bootstrap = None
    if n_boot:
        bootstrap = _bootstrap(
            y,
            scores,
            weights,
            present,
            classes,
            fixed=None if reference is None else whitening,
            options=options,
            grid=grid,
            averaging=averaging,
            n_boot=n_boot,
            confidence=confidence,
            random_state=random_state,
            estimate=aggregate.auc,
        )
    settings.update(
        compat=None,
        singular=singular,
        ridge=None if whitening is None else whitening.ridge,
        gini_norm=gini_norm,
        grid=grid,
        averaging=averaging,
        n_boot=n_boot,
        confidence=confidence,
        interval_method=STRATIFIED_PERCENTILE if n_boot else None,
    )
    return _result(classes, present, curve_weights, whitening, gini, curves, aggregate, bootstrap, settings)


def _fitted_gini(scores, weights, reference, classes, options, gini_norm, settings):
    """The whitening and its :class:`MultidimensionalGini`; (None, None) for constant scores.

    Records what was applied in ``settings`` and issues the warnings.
    """
    constant_fit = reference is None or _is_constant(reference)
    if _is_constant(scores) and constant_fit and options["constant"] == "drop":
        _warnings.warn(
            "every column of y_score is constant (a class-prior baseline, for example), so every "
            "one-vs-rest ROC curve is the chance diagonal: the Gini-weighted curve is the diagonal "
            "with AUC 0.5, and the Gini weights (0/0) are undefined and reported as NaN",
            WhiteningWarning,
        )
        settings.update(
            whitening="none: every column of y_score is constant",
            condition_number=None,
            constant_classes=classes.tolist(),
        )
        return None, None
    fitted_on = settings["fitted_on"]
    whitening = fit_whitening(
        scores if reference is None else reference,
        weights if reference is None else None,
        **options,
        name=fitted_on,
    )
    warn_about_whitening(whitening, classes, fitted_on)
    settings.update(
        whitening=whitening.applied,
        condition_number=whitening.condition_number,
        constant_classes=classes[~whitening.used].tolist(),
    )
    return whitening, gini_of_whitened(whitening, scores, weights, gini_norm)


def _result(classes, present, curve_weights, whitening, gini, curves, aggregate, bootstrap, settings):
    """Assemble the :class:`GiniRoc`; constant scores (``gini`` None) get undefined weights."""
    k = classes.size
    if gini is None:
        undefined = np.full(k, np.nan)
        return GiniRoc(
            classes=classes,
            weights=undefined,
            g1=0.0,
            auc_theory=0.5,
            auc_agg=aggregate.auc,
            fpr=aggregate.fpr,
            tpr=aggregate.tpr,
            dispersion=aggregate.dispersion,
            class_fpr=curves.fpr,
            class_tpr=curves.tpr,
            class_auc=curves.auc,
            whitening=np.zeros((k, k)),
            whitened_mean=np.zeros(k),
            mean_difference=np.zeros(k),
            gini=np.zeros(k),
            degenerate=False,
            classes_used=(),
            bootstrap=bootstrap,
            settings=settings,
        )
    return GiniRoc(
        classes=classes,
        weights=curve_weights,
        g1=gini.g1,
        auc_theory=gini.auc_theory,
        auc_agg=aggregate.auc,
        fpr=aggregate.fpr,
        tpr=aggregate.tpr,
        dispersion=aggregate.dispersion,
        class_fpr=curves.fpr,
        class_tpr=curves.tpr,
        class_auc=curves.auc,
        whitening=whitening.matrix,
        whitened_mean=gini.whitened_mean,
        mean_difference=gini.mean_difference,
        gini=gini.gini,
        degenerate=gini.degenerate,
        classes_used=tuple(classes[present & whitening.used].tolist()),
        bootstrap=bootstrap,
        settings=settings,
    )


def _is_constant(scores, rows=None):
    """Whether every column takes one value (over ``rows`` when given)."""
    chosen = scores if rows is None else scores[rows]
    return bool(np.all(chosen == chosen[0]))


def _aggregate(y, scores, weights, curves, curve_weights, grid, averaging):
    """The aggregated curve on ``grid``; the diagonal when the weights are undefined (None)."""
    if curve_weights is None:
        return diagonal_curve(grid)
    if averaging == "vertical":
        return aggregate_vertical(curves, curve_weights, grid)
    exact = aggregate_threshold(y, scores, weights, curve_weights)
    return exact if grid is None else resample_curve(exact, grid)


def _warn_about_scales(scores, curve_weights, classes):
    """Warn when the ranges of the averaged score columns differ a lot (threshold averaging).

    That is: no value common to all ranges, or spans more than ``SCALE_RATIO`` apart.
    """
    involved = np.flatnonzero(curve_weights > 0)
    low, high = scores[:, involved].min(axis=0), scores[:, involved].max(axis=0)
    span = high - low
    if low.max() <= high.min() and span.max() <= SCALE_RATIO * span.min():
        return
    narrow, wide = np.argmin(span), np.argmax(span)
    _warnings.warn(
        "averaging='threshold' compares the score columns at the same thresholds, but their ranges "
        f"differ a lot (class {classes[involved[narrow]]}: [{low[narrow]:.3g}, {high[narrow]:.3g}], "
        f"class {classes[involved[wide]]}: [{low[wide]:.3g}, {high[wide]:.3g}]"
        + ("" if low.max() <= high.min() else "; no value lies in every range")
        + "); it is meaningful only for scores on a common scale such as probabilities "
        "(averaging='vertical' is not affected)",
        ScoreScaleWarning,
    )


def _checked_inputs(y_true, y_score, labels, sample_weight, reference_scores, absent):
    """Checked inputs, rows of weight 0 removed and weights made relative.

    Returns labels, scores, weights, classes, the mask of classes with samples
    and the reference scores.
    """
    y, scores, classes, weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight, require_simplex=False
    )
    check_min_samples("y_score", scores.shape[0], 2)
    weights = relative_weights(weights, scores.shape[0])
    if weights is not None and not np.all(weights > 0):
        kept = weights > 0
        if np.count_nonzero(kept) < 2:
            raise ValueError(
                f"sample_weight gives positive weight to {np.count_nonzero(kept)} of the "
                f"{count_noun(scores.shape[0], 'sample')} of y_score; at least 2 are needed"
            )
        y, scores, weights = y[kept], scores[kept], weights[kept]
    present = _present_classes(check_class_support(y, classes, weights), classes, absent)
    reference = None
    if reference_scores is not None:
        reference = check_real_array("reference_scores", reference_scores, n_columns=scores.shape[1], min_samples=2)
    return y, scores, classes, weights, present, reference


def _present_classes(support, classes, absent):
    """Mask of the classes with samples; raise for absent ones unless ``absent="drop"``."""
    present = support > 0
    if absent == "raise" and not present.all():
        raise ValueError(
            f"labels {describe(classes[~present])} have no samples in y_true, so their "
            "one-vs-rest TPR is 0/0; pass absent='drop' to leave them out (weight 0)"
        )
    return present


def _replicate_weights(scores, replicate, present, classes, fixed, options):
    """Curve weights of one bootstrap replicate; None when its drawn scores are constant."""
    if fixed is None and _is_constant(scores, replicate > 0):
        return None
    whitening = fixed if fixed is not None else fit_whitening(scores, replicate, **options, name="y_score")
    return restrict_weights(class_weights(whitening, scores, replicate), present, classes)


def _bootstrap(
    y,
    scores,
    sample_weight,
    present,
    classes,
    *,
    fixed,
    options,
    grid,
    averaging,
    n_boot,
    confidence,
    random_state,
    estimate,
):
    """Stratified bootstrap of the weights, the aggregated TPR and its area.

    ``fixed`` is the whitening fitted on reference scores, kept in every
    replicate; when None, W is refitted with ``options`` in each replicate.
    Replicates are multiplicities, so they multiply the (relative) sample
    weights. A replicate whose drawn scores are constant has the diagonal.
    Chunks of replicates are computed on both cores (see
    :mod:`polyroc.gini._replicates`); the results do not depend on the
    number of threads.
    """
    rng = check_random_state(random_state)
    work = task("bootstrap replicates", n_boot)
    if averaging == "threshold":
        replicates = _threshold_replicates(
            y, scores, sample_weight, present, classes, fixed, options, grid, n_boot, rng, work
        )
    else:
        engine = _VerticalReplicates(y, scores, sample_weight, present, classes, fixed, options, grid, n_boot, rng)
        replicates = []
        with single_blas_thread():  # the chunks run on every core already
            for part in chunk_map(engine, engine.chunks()):
                replicates.append(part)
                work.advance(part[2].size)
        replicates = [np.concatenate(values) for values in zip(*replicates)]
    return _summarise(*replicates, estimate=estimate, confidence=confidence, random_state=random_state)


class _VerticalReplicates:
    """Weights, aggregated TPR on the band grid and area of chunks of replicates (vertical averaging).

    Called with ``(start, count)``: draws those replicates' multiplicities and
    returns ``(weights (b, m), tpr (b, g), auc (b,))``. The scores, sample
    weights and rankings are held in the layout of the draws
    (:class:`~polyroc.gini._replicates.ReplicateDraws`), class after class.
    """

    def __init__(self, y, scores, sample_weight, present, classes, fixed, options, grid, n_boot, rng):
        self.draws = ReplicateDraws(y, n_boot, rng)
        members = self.draws.members
        self.scores = scores[members]
        self.sample_weight = None if sample_weight is None else sample_weight[members]
        self.present, self.classes = present, classes
        self.fixed, self.options, self.grid, self.n_boot = fixed, options, grid, n_boot
        self.fpr_grid = np.linspace(0.0, 1.0, grid or BAND_POINTS)
        self.rankings = in_layout(rank_classes(y, scores), self.draws.positions)
        self.segments = None
        if sample_weight is None:
            self.segments = [None if ranking is None else segment_sums(ranking) for ranking in self.rankings]
        self.basis = moment_basis(self.scores, self.sample_weight) if fixed is None else None

    def chunks(self):
        """``(start, count)`` of each chunk; sizes depend on n and ``n_boot`` only, never on the threads.

        Integer multiplicities take a byte per sample and replicate, and come
        in whole words of 8 replicates; weight rows take a float (8 bytes).
        """
        integer = self.sample_weight is None
        step = max(MIN_CHUNK_REPLICATES, chunk_length((1 if integer else 8) * self.scores.shape[0]))
        step = min(step, max(MIN_CHUNK_REPLICATES, -(-self.n_boot // 4)))
        if integer:
            step = max(LANE_WIDTH, step - step % LANE_WIDTH)
        return [(start, min(step, self.n_boot - start)) for start in range(0, self.n_boot, step)]

    def __call__(self, chunk):
        if self.sample_weight is None:  # integer multiplicities, drawn sample by sample as bytes
            weight_rows = self.draws.held(*chunk)
            weights = self._class_weights(weight_rows)
            class_auc, class_tpr = held_statistics(self.segments, weight_rows, self.fpr_grid)
        else:
            weight_rows = self.draws(*chunk) * self.sample_weight
            weights = self._class_weights(weight_rows)
            class_auc, class_tpr = class_statistics(self.rankings, weight_rows, self.fpr_grid, integer=False)
        involved = weights > 0  # False for the undefined (NaN) weights of constant replicates
        share = np.where(involved, weights, 0.0)
        auc = np.einsum("rk,rk->r", share, np.where(involved, class_auc, 0.0))
        tpr = np.einsum("rk,rkg->rg", share, np.where(involved[:, :, None], class_tpr, 0.0))
        if self.grid is not None:
            auc = np.trapezoid(tpr, self.fpr_grid, axis=1)
        constant = np.isnan(weights).all(axis=1)
        auc[constant], tpr[constant] = 0.5, self.fpr_grid
        return weights, tpr, auc

    def _class_weights(self, weight_rows):
        """Curve weights (b, m) of each replicate; NaN rows for replicates whose drawn scores are constant.

        ``weight_rows`` are rows (b, n) or :class:`~polyroc.gini._replicates.HeldCounts`.
        """
        held = isinstance(weight_rows, HeldCounts)
        n_rows = weight_rows.count if held else weight_rows.shape[0]
        if self.fixed is not None:
            whitened = np.abs(replicate_means(self.scores.T, weight_rows) @ self.fixed.matrix.T)
            return np.array([restrict_weights(row / row.sum(), self.present, self.classes) for row in whitened])
        if self.basis.always_constant.all():
            return np.full((n_rows, self.classes.size), np.nan)
        mean, covariance, size = replicate_moments(self.basis, weight_rows)
        suspect = suspect_rows(self.basis, covariance)
        weights = np.empty((n_rows, self.classes.size))
        for r in range(n_rows):
            if suspect[r]:
                replicate = weight_rows.replicate(r) if held else weight_rows[r]
                share = _replicate_weights(self.scores, replicate, self.present, self.classes, None, self.options)
            else:
                share = fitted_class_weights(self.basis, mean[r], covariance[r], size[r], self.options)
                share = restrict_weights(share, self.present, self.classes)
            weights[r] = np.nan if share is None else share
        return weights


def _threshold_replicates(y, scores, sample_weight, present, classes, fixed, options, grid, n_boot, rng, work):
    """Replicates of threshold averaging, one at a time: weights, TPR on the band grid, areas."""
    band_points = grid or BAND_POINTS
    weights, tpr, auc = [], [], []
    for chunk in bootstrap_multiplicities(y, n_boot, random_state=rng):
        for multiplicity in chunk:
            replicate = multiplicity if sample_weight is None else multiplicity * sample_weight
            share = _replicate_weights(scores, replicate, present, classes, fixed, options)
            weights.append(np.full(classes.size, np.nan) if share is None else share)
            if share is None:
                tpr.append(diagonal_curve(band_points).tpr)
                auc.append(0.5)
                continue
            exact = aggregate_threshold(y, scores, replicate, share)
            tpr.append(resample_curve(exact, band_points).tpr)
            auc.append(exact.auc if grid is None else resample_curve(exact, grid).auc)
        work.advance(len(chunk))
    return weights, tpr, auc


def _summarise(weights, tpr, auc, *, estimate, confidence, random_state):
    """:class:`GiniBootstrap` of the replicates' class weights, TPR on equispaced FPR values and AUCs."""
    auc = np.array(auc)
    n_boot = auc.size
    tpr = np.array(tpr)
    tpr_low, tpr_high = percentile_interval(tpr, confidence=confidence)
    weights = np.array(weights)
    if np.isnan(weights).all():  # constant scores in every replicate: no weights to bound
        weights_low = weights_high = np.full(weights.shape[1], np.nan)
    else:
        weights_low, weights_high = percentile_interval(weights, confidence=confidence)
    interval = ConfidenceInterval.from_replicates(
        estimate,
        auc,
        confidence=confidence,
        interval_method=STRATIFIED_PERCENTILE,
        n_boot=n_boot,
        random_state=random_state,
    )
    return GiniBootstrap(
        fpr=np.linspace(0.0, 1.0, tpr.shape[1]),
        tpr_low=tpr_low,
        tpr_high=tpr_high,
        auc=interval,
        auc_se=float(np.std(auc, ddof=1)) if n_boot > 1 else float("nan"),
        weights_low=weights_low,
        weights_high=weights_high,
        settings={
            "n_boot": n_boot,
            "confidence": confidence,
            "random_state": random_state,
            "interval_method": STRATIFIED_PERCENTILE,
            "stratify": True,
        },
    )


def _check_compat_arguments(sample_weight, singular, ridge, gini_norm, grid, averaging):
    fixed = {
        "sample_weight": sample_weight is not None,
        "singular": singular != "limit",
        "ridge": ridge is not None,
        "gini_norm": gini_norm != "unbiased",
        "grid": grid is not None,
        "averaging": averaging != "vertical",
    }
    given = [name for name, changed in fixed.items() if changed]
    if given:
        raise ValueError(f"compat='reference' fixes the whole pipeline; do not pass {', '.join(given)}")


def _reference_roc(y, scores, reference, classes, present, settings, *, n_boot, confidence):
    """:class:`GiniRoc` of the reference pipeline (see ``polyroc.gini._reference``), with its bootstrap."""
    random_state = settings["random_state"]
    rng = check_random_state(random_state)
    outcome = reference_pipeline(y, scores, reference, present, classes, rng)
    settings.update(
        compat="reference",
        singular=None,
        whitening=f"reference: N(0, {REFERENCE_NOISE:g}) noise, floors {REFERENCE_FLOOR:g}, "
        f"caps {REFERENCE_CAP:g}, global rank rescaling",
        ridge=None,
        condition_number=None,
        constant_classes=[],
        gini_norm="reference: Δ/2, not divided by the mean",
        grid=REFERENCE_GRID,
        averaging="vertical",
        n_boot=n_boot,
        confidence=confidence,
        interval_method=STRATIFIED_PERCENTILE if n_boot else None,
    )
    aggregate = outcome.aggregate
    bootstrap = None
    if n_boot:
        bootstrap = _reference_bootstrap(
            y,
            scores,
            reference,
            classes,
            present,
            rng,
            n_boot=n_boot,
            confidence=confidence,
            random_state=random_state,
            estimate=aggregate.auc,
        )
    return GiniRoc(
        classes=classes,
        weights=outcome.curve_weights,
        g1=outcome.g1,
        auc_theory=(outcome.g1 + 1) / 2,
        auc_agg=aggregate.auc,
        fpr=aggregate.fpr,
        tpr=aggregate.tpr,
        dispersion=aggregate.dispersion,
        class_fpr=outcome.curves.fpr,
        class_tpr=outcome.curves.tpr,
        class_auc=outcome.curves.auc,
        whitening=outcome.matrix,
        whitened_mean=outcome.whitened_mean,
        mean_difference=2 * outcome.gmd,
        gini=outcome.gmd,
        degenerate=False,
        classes_used=tuple(classes[present].tolist()),
        bootstrap=bootstrap,
        settings=settings,
    )


def _reference_bootstrap(y, scores, reference, classes, present, rng, *, n_boot, confidence, random_state, estimate):
    """The reference pipeline rerun on rows resampled within each class, each replicate with fresh noise."""
    weights, tpr, auc = [], [], []
    work = task("bootstrap replicates", n_boot)
    for chunk in bootstrap_multiplicities(y, n_boot, random_state=rng):
        for multiplicity, stream in zip(chunk, rng.spawn(len(chunk))):
            rows = np.repeat(np.arange(y.size), multiplicity)
            outcome = reference_pipeline(y[rows], scores[rows], reference, present, classes, stream)
            weights.append(outcome.curve_weights)
            tpr.append(outcome.aggregate.tpr)
            auc.append(outcome.aggregate.auc)
        work.advance(len(chunk))
    return _summarise(weights, tpr, auc, estimate=estimate, confidence=confidence, random_state=random_state)
