"""``gini_roc``: the Gini-weighted multiclass ROC curve, its areas, bands and settings."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._validation import (
    _describe,
    check_class_support,
    check_min_samples,
    check_option,
    check_positive_int,
    check_random_state,
    check_real,
    check_real_array,
    check_scores,
)
from polyroc.gini._aggregate import aggregate_vertical, class_curves, restrict_weights
from polyroc.gini._dispersion import GINI_NORMS
from polyroc.gini._multigini import class_weights, gini_of_whitened
from polyroc.gini._reference import (
    REFERENCE_CAP,
    REFERENCE_FLOOR,
    REFERENCE_GRID,
    REFERENCE_NOISE,
    reference_pipeline,
)
from polyroc.gini._whitening import fit_whitening, warn_about_whitening
from polyroc.resampling import (
    ConfidenceInterval,
    bootstrap_multiplicities,
    percentile_interval,
)

__all__ = ["GiniBootstrap", "GiniRoc", "gini_roc"]

COMPAT_OPTIONS = (None, "reference")
ABSENT_OPTIONS = ("raise", "drop")

#: Number of equispaced FPR values of the bootstrap band when ``grid=None``.
BAND_POINTS = 101


@dataclass(frozen=True, eq=False)
class GiniBootstrap:
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
    """

    fpr: np.ndarray
    tpr_low: np.ndarray
    tpr_high: np.ndarray
    auc: ConfidenceInterval
    auc_se: float
    weights_low: np.ndarray
    weights_high: np.ndarray


@dataclass(frozen=True, eq=False)
class GiniRoc:
    """Gini-weighted multiclass ROC: weights, G₁, both AUCs, curves, bands and settings.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        Class labels, in the order of the score columns.
    weights : ndarray of shape (n_classes,)
        Gini weights ``|m*_i| / Σ|m*_j|`` used for the curve (0 for a dropped
        class, renormalised over the others); non-negative, summing to 1.
    g1 : float
        Multidimensional Gini index G₁ (label-free: a dispersion of the scores).
    auc_theory : float
        ``(G₁ + 1) / 2``, the paper's "theoretical AUC"; a diagnostic, not a
        measure of discrimination.
    auc_agg : float
        Area under the aggregated curve (trapezoid). With the exact grid it
        equals ``Σ_i weights_i class_auc_i``.
    fpr, tpr : ndarray
        The aggregated ROC curve.
    dispersion : ndarray
        Weighted between-class standard deviation of TPR at ``fpr`` (the
        reference's "±1 std" band): spread between classes, *not* a confidence band.
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
        Classes that were whitened and have samples (the others have weight 0).
    bootstrap : GiniBootstrap or None
        Stratified bootstrap band and intervals, when ``n_boot > 0``.
    settings : dict
        How the result was computed: ``compat``, ``fitted_on``, ``singular``
        (requested), ``whitening`` (applied), ``ridge``, ``condition_number``,
        ``constant_classes``, ``absent_classes``, ``gini_norm``, ``grid``,
        ``n_boot``, ``confidence``, ``random_state``.
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

    def plot(self, ax=None, *, show_classes=True, show_dispersion=True):
        """Plot the aggregated curve over the per-class curves and the chance diagonal.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; default: a new figure's.
        show_classes : bool, default=True
            Draw the one-vs-rest curve of each class (thin lines).
        show_dispersion : bool, default=True
            Shade the between-class dispersion band (not a confidence band).

        Returns
        -------
        matplotlib.axes.Axes
        """
        from polyroc.gini._plot import plot_gini_roc

        return plot_gini_roc(self, ax, show_classes=show_classes, show_dispersion=show_dispersion)


def gini_roc(
    y_true,
    y_score,
    *,
    labels=None,
    sample_weight=None,
    reference_scores=None,
    singular="limit",
    ridge=None,
    constant="drop",
    gini_norm="unbiased",
    grid=None,
    absent="raise",
    n_boot=0,
    confidence=0.95,
    random_state=None,
    compat=None,
):
    """Gini-weighted multiclass ROC curve (Giudici, Rosciano, Schrader, Kummerfeld).

    The one-vs-rest ROC curves of the classes are averaged vertically with the
    weights ``w_i = |m*_i| / Σ|m*_j|`` of the multidimensional Gini index G₁ of
    the ZCA-cor whitened scores. Beware: the weights and G₁ use no labels;
    for probability rows (summing to 1) the correlation matrix is singular, and
    the default ``singular="limit"`` gives ``w_i = σ_i / Σσ_j`` and G₁ = 0.
    ``auc_agg`` always lies between the smallest and the largest per-class AUC.

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
        Non-negative frequency weights of the evaluated samples.
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
        Mean difference over ``n (n - 1)`` or ``n²`` pairs.
    grid : int, default=None
        None: the exact aggregated curve (all breakpoints, both ends of every
        jump). An integer N: N equispaced FPR values (100 reproduces the
        reference code).
    absent : {"raise", "drop"}, default="raise"
        A class of ``labels`` without samples: raise, or give it weight 0 and
        renormalise the others (recorded in ``settings``).
    n_boot : int, default=0
        Number of stratified bootstrap replicates for the band and intervals
        (0: none). W is refitted in each replicate unless ``reference_scores``
        is given.
    confidence : float, default=0.95
        Level of the bootstrap band and intervals.
    random_state : None, int or numpy.random.Generator
        Seed of the bootstrap (and of the noise with ``compat="reference"``).
    compat : {None, "reference"}, default=None
        ``"reference"`` runs the authors' pipeline as published (seeded noise,
        stabilised whitening, global rank rescaling, unnormalised mean
        difference, ROC on whitened scores, 100-point grid); it fixes
        ``singular``, ``ridge``, ``gini_norm`` and ``grid`` and has no
        bootstrap or sample weights.

    Returns
    -------
    GiniRoc

    Raises
    ------
    ValueError
        Bad ``y_true``, ``y_score``, ``labels``, ``sample_weight`` or
        ``reference_scores`` (NaN/infinity, shapes, fewer than 2 samples or
        classes); a class without samples with ``absent="raise"``; an unknown
        option; a singular correlation with ``singular="raise"``; a constant
        column with ``constant="raise"``; ``Σ|m*| = 0``; options that
        ``compat="reference"`` fixes.
    TypeError
        Non-numeric inputs or options of the wrong type.

    Warns
    -----
    WhiteningWarning
        Singular correlation matrix (with what was applied), constant score
        columns (weight 0), or no more fitting samples than classes.

    Examples
    --------
    >>> import warnings
    >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> P = [[.8, .1, .1], [.6, .3, .1], [.3, .4, .3], [.2, .7, .1], [.1, .6, .3],
    ...      [.4, .5, .1], [.1, .2, .7], [.2, .2, .6], [.5, .1, .4]]
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # rows sum to 1: singular correlation
    ...     result = gini_roc(y, P)
    >>> result.settings["whitening"], result.g1
    ('limit', 0.0)
    >>> sigma = np.std(P, axis=0, ddof=1)
    >>> bool(np.allclose(result.weights, sigma / sigma.sum()))
    True
    >>> bool(np.isclose(result.auc_agg, result.weights @ result.class_auc))
    True
    """
    check_option("compat", compat, COMPAT_OPTIONS)
    check_option("gini_norm", gini_norm, GINI_NORMS)
    check_real("confidence", confidence, low=0, high=1)
    grid = None if grid is None else check_positive_int("grid", grid, minimum=2)
    n_boot = check_positive_int("n_boot", n_boot, minimum=0)
    y, scores, classes, weights, present, reference = _checked_inputs(
        y_true, y_score, labels, sample_weight, reference_scores, absent
    )
    settings = {
        "fitted_on": "y_score" if reference is None else "reference_scores",
        "absent_classes": classes[~present].tolist(),
        "random_state": random_state,
    }
    if compat == "reference":
        _check_compat_arguments(sample_weight, singular, ridge, gini_norm, grid, n_boot)
        return _reference_roc(y, scores, reference, classes, present, random_state, settings)
    options = {"singular": singular, "ridge": ridge, "constant": constant}
    whitening = fit_whitening(
        scores if reference is None else reference, weights if reference is None else None, **options
    )
    warn_about_whitening(whitening, classes, settings["fitted_on"])
    gini = gini_of_whitened(whitening, scores, weights, gini_norm)
    curve_weights = restrict_weights(gini.weights, present, classes)
    curves = class_curves(y, scores, weights)
    aggregate = aggregate_vertical(curves, curve_weights, grid)
    bootstrap = None
    if n_boot:
        bootstrap = _bootstrap(
            y, scores, weights, present, classes, fixed=None if reference is None else whitening,
            options=options, grid=grid, n_boot=n_boot, confidence=confidence,
            random_state=random_state, estimate=aggregate.auc,
        )
    settings.update(
        compat=None, singular=singular, whitening=whitening.applied, ridge=whitening.ridge,
        condition_number=whitening.condition_number,
        constant_classes=classes[~whitening.used].tolist(), gini_norm=gini_norm, grid=grid,
        n_boot=n_boot, confidence=confidence,
    )
    return GiniRoc(
        classes=classes, weights=curve_weights, g1=gini.g1, auc_theory=gini.auc_theory,
        auc_agg=aggregate.auc, fpr=aggregate.fpr, tpr=aggregate.tpr,
        dispersion=aggregate.dispersion, class_fpr=curves.fpr, class_tpr=curves.tpr,
        class_auc=curves.auc, whitening=whitening.matrix, whitened_mean=gini.whitened_mean,
        mean_difference=gini.mean_difference, gini=gini.gini, degenerate=gini.degenerate,
        classes_used=tuple(classes[present & whitening.used].tolist()), bootstrap=bootstrap,
        settings=settings,
    )


def _checked_inputs(y_true, y_score, labels, sample_weight, reference_scores, absent):
    """Encoded labels, scores, classes, weights, mask of classes with samples, reference scores."""
    check_option("absent", absent, ABSENT_OPTIONS)
    y, scores, classes, weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight, require_simplex=False
    )
    check_min_samples("y_score", scores.shape[0], 2)
    present = _present_classes(check_class_support(y, classes, weights), classes, absent)
    reference = None
    if reference_scores is not None:
        reference = check_real_array(
            "reference_scores", reference_scores, n_columns=scores.shape[1], min_samples=2
        )
    return y, scores, classes, weights, present, reference


def _present_classes(support, classes, absent):
    """Mask of the classes with samples; raise for absent ones unless ``absent="drop"``."""
    present = support > 0
    if absent == "raise" and not present.all():
        raise ValueError(
            f"labels {_describe(classes[~present])} have no samples in y_true, so their "
            "one-vs-rest TPR is 0/0; pass absent='drop' to leave them out (weight 0)"
        )
    return present


def _bootstrap(y, scores, sample_weight, present, classes, *, fixed, options, grid,
               n_boot, confidence, random_state, estimate):
    """Stratified bootstrap of the weights, the aggregated TPR and its area.

    ``fixed`` is the whitening fitted on reference scores, kept in every
    replicate; when None, W is refitted with ``options`` in each replicate.
    """
    band_fpr = np.linspace(0.0, 1.0, grid or BAND_POINTS)
    weights, tpr, auc = [], [], []
    for chunk in bootstrap_multiplicities(y, n_boot, random_state=check_random_state(random_state)):
        for multiplicity in chunk:
            replicate = multiplicity if sample_weight is None else multiplicity * sample_weight
            whitening = fixed if fixed is not None else fit_whitening(scores, replicate, **options)
            share = restrict_weights(class_weights(whitening, scores, replicate), present, classes)
            curves = class_curves(y, scores, replicate)
            weights.append(share)
            tpr.append(aggregate_vertical(curves, share, len(band_fpr)).tpr)
            auc.append(aggregate_vertical(curves, share, grid).auc)
    auc = np.array(auc)
    auc_low, auc_high = percentile_interval(auc, confidence=confidence)
    tpr_low, tpr_high = percentile_interval(np.array(tpr), confidence=confidence)
    weights_low, weights_high = percentile_interval(np.array(weights), confidence=confidence)
    interval = ConfidenceInterval(
        estimate=estimate, low=float(auc_low), high=float(auc_high), confidence=confidence,
        method="percentile, stratified bootstrap", n_boot=n_boot, random_state=random_state,
    )
    return GiniBootstrap(
        fpr=band_fpr, tpr_low=tpr_low, tpr_high=tpr_high, auc=interval,
        auc_se=float(np.std(auc, ddof=1)) if auc.size > 1 else float("nan"),
        weights_low=weights_low, weights_high=weights_high,
    )


def _check_compat_arguments(sample_weight, singular, ridge, gini_norm, grid, n_boot):
    fixed = {
        "sample_weight": sample_weight is not None,
        "singular": singular != "limit",
        "ridge": ridge is not None,
        "gini_norm": gini_norm != "unbiased",
        "grid": grid is not None,
        "n_boot": n_boot != 0,
    }
    given = [name for name, changed in fixed.items() if changed]
    if given:
        raise ValueError(
            f"compat='reference' fixes the whole pipeline; do not pass {', '.join(given)}"
        )


def _reference_roc(y, scores, reference, classes, present, random_state, settings):
    """:class:`GiniRoc` of the reference pipeline (see ``polyroc.gini._reference``)."""
    outcome = reference_pipeline(y, scores, reference, present, classes, check_random_state(random_state))
    settings.update(
        compat="reference", singular=None,
        whitening=f"reference: N(0, {REFERENCE_NOISE:g}) noise, floors {REFERENCE_FLOOR:g}, "
        f"caps {REFERENCE_CAP:g}, global rank rescaling",
        ridge=None, condition_number=None, constant_classes=[],
        gini_norm="reference: Δ/2, not divided by the mean", grid=REFERENCE_GRID,
        n_boot=0, confidence=None,
    )
    aggregate = outcome.aggregate
    return GiniRoc(
        classes=classes, weights=outcome.curve_weights, g1=outcome.g1, auc_theory=(outcome.g1 + 1) / 2,
        auc_agg=aggregate.auc, fpr=aggregate.fpr, tpr=aggregate.tpr,
        dispersion=aggregate.dispersion, class_fpr=outcome.curves.fpr,
        class_tpr=outcome.curves.tpr, class_auc=outcome.curves.auc, whitening=outcome.matrix,
        whitened_mean=outcome.whitened_mean, mean_difference=2 * outcome.gmd, gini=outcome.gmd,
        degenerate=False, classes_used=tuple(classes[present].tolist()), bootstrap=None,
        settings=settings,
    )
