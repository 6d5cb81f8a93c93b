"""Intervals without resampling: a Dirichlet posterior over the confusion matrix, and the interval of a mean loss.

**Posterior of the confusion matrix.** Conditional on the class counts (the
stratified design of polyroc's bootstrap), the predictions of the n_c rows of
true class c are multinomial with probabilities pi_c, a row of the population
confusion matrix. With a Dirichlet(a_c) prior per row, the posterior of
pi_c is Dirichlet(counts_c + a_c), independently across classes. The target of a
metric is its value on the expected counts at the observed class mix,
``counts*_c = n_c * pi_c``; a posterior draw of those counts fed to a
vectorised counts metric (:mod:`polyroc.counts`) is a draw of the metric. Its cost depends
on the number of classes and of draws only, never on the number of samples.

The interval (:func:`posterior_quantiles` with the estimate) is the union of
the equal-tailed posterior interval and the same posterior spread re-centred
on the estimate, within the metric's range: with a few rows per class and a
sharp classifier the prior pulls composites away from the data, and the
equal-tailed interval alone covered 79-83% for 95% at 10 classes of 5 rows
(``benchmarks/posterior_prior.py``); the union keeps its coverage there
(``benchmarks/coverage.py``).

With sample weights the counts of class c are rescaled to sum to its Kish
effective size ``n_eff_c = (sum w)^2 / sum w^2`` (Kish, 1965, *Survey
Sampling*, Wiley) before the prior is added, and ``counts*_c = W_c * pi_c``
with W_c the class's weight total; equal weights give the unweighted posterior.

The default prior, ``"diagonal-jeffreys"``, puts 1/2 on the diagonal cell
of each row and shares 1/2 among its m - 1 other cells: whatever m, the
marginal posterior of a recall is Beta(x + 1/2, n - x + 1/2), Jeffreys'
interval of a binomial proportion (Brown, Cai & DasGupta, 2001,
doi:10.1214/ss/1009213286), which is never of zero width at 0 or n hits. The
symmetric priors (a per cell: ``"jeffreys"`` 1/2, ``"uniform"`` 1, ``"perks"``
1/m, Perks, 1947, doi:10.1017/S0020268100012270) pull each recall towards 1/m
by (m - 1) a pseudo-misses; in a macro average these pulls add up while its
spread shrinks as 1/sqrt(m), and the coverage study of
``benchmarks/posterior_prior.py`` finds their intervals of composites missing
the truth far more often than promised with many classes (Perks': 31% for
95% at 10 classes of 5 rows).

A class with no rows (or zero total weight) has no row drawn: its row of
every draw is 0, as in the data. Its recall is then 0/0, which the metrics of
:data:`polyroc.counts.METRICS` count as 0 in every draw (as their value on the
data does); balanced accuracy leaves the class out; its precision is defined
by the other classes' predictions of it. A class that is never predicted has
precision 0 on the data (scikit-learn's ``zero_division=0``), while its
posterior draws predict it with small positive probability, so its precision
gets a finite, wide interval set mostly by the prior: the data say little
about it.

**Interval of a mean loss.** :func:`stratified_mean_interval` bounds a
weighted mean of per-sample values (log loss, Brier score) by a normal
interval (Student's t quantile) whose variance is the stratified
infinitesimal jackknife (the variance of the stratified bootstrap, with the
n_c / (n_c - 1) correction). :func:`mean_t_test` gives that interval, or the
one of the plain variance (all rows one stratum, the convention of the
expected cost), from the per-class moments.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.counts import chunk_length, confusion_counts
from polyroc._engine.effective_sizes import class_effective_sizes
from polyroc._engine.numeric import finish
from polyroc._engine.progress import task
from polyroc._validation import (
    as_array,
    check_counts,
    check_real,
    check_real_array,
    check_sample_weight,
    check_targets,
    scale_weights,
)
from polyroc._validation._params import validate_params
from polyroc.counts import get_metric, metric_name
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._moments import ClassMoments
from polyroc.intervals._resampling import (
    CONFIDENCE,
    POSITIVE_COUNT,
    ConfidenceInterval,
    is_zero_width,
    percentile_interval,
)

__all__ = [
    "DEFAULT_PRIOR",
    "PRIORS",
    "confusion_posterior",
    "metric_support",
    "posterior_interval",
    "posterior_interval_name",
    "posterior_quantiles",
    "stratified_mean_interval",
]


#: The variance of a mean of per-row values: ``"plain"``, the rows as one stratum (an i.i.d. sample whose class
#: counts vary too), or ``"stratified"`` by class (conditional on the class counts), as :func:`mean_t_test` takes it.
MeanVariance = Literal["plain", "stratified"]

#: The values of :data:`MeanVariance`.
MEAN_VARIANCES = ("plain", "stratified")

#: The method of the t interval of a mean under each variance.
T_METHODS = {"plain": "t interval (plain variance)", "stratified": "t interval (stratified variance)"}


def _cells(value):
    return lambda m: np.full((m, m), value(m))


def _diagonal_jeffreys(m):
    """1/2 on the diagonal, 1/2 shared by the row's other cells: each recall's marginal prior is Beta(1/2, 1/2)."""
    prior = np.full((m, m), 0.5 / (m - 1))
    np.fill_diagonal(prior, 0.5)
    return prior


#: Named priors: name -> Dirichlet concentrations (m, m) of the rows, for m classes.
PRIORS: dict[str, Callable[[int], np.ndarray]] = {
    "jeffreys": _cells(lambda m: 0.5),
    "uniform": _cells(lambda m: 1.0),
    "perks": _cells(lambda m: 1.0 / m),
    "diagonal-jeffreys": _diagonal_jeffreys,
}

#: The names of :data:`PRIORS`, as a type.
PriorName = Literal["jeffreys", "uniform", "perks", "diagonal-jeffreys"]

#: The prior used unless one is given (chosen by ``benchmarks/posterior_prior.py``).
DEFAULT_PRIOR: PriorName = "diagonal-jeffreys"

#: Target size of one chunk of posterior draws (gamma variates and their row sums).
DRAW_CHUNK_BYTES = 32 * 2**20


# --------------------------------------------------------------------------- prior and sizes


def prior_concentration(prior: PriorName | float, n_classes: int) -> np.ndarray:
    """The Dirichlet concentrations (m, m) of ``prior`` (a name of :data:`PRIORS` or a number > 0 per cell)."""
    if isinstance(prior, str):
        if prior not in PRIORS:
            raise ValueError(f"prior must be a number > 0 or one of {', '.join(map(repr, PRIORS))}; got {prior!r}")
        return PRIORS[prior](n_classes)
    return np.full((n_classes, n_classes), check_real("prior", prior, low=0.0))


def posterior_interval_name(prior: PriorName | float = DEFAULT_PRIOR) -> str:
    """The ``interval_method`` of a posterior interval under ``prior``.

    Parameters
    ----------
    prior : str or float, default="diagonal-jeffreys"
        A name of :data:`PRIORS` or a concentration per cell.

    Returns
    -------
    str

    Raises
    ------
    ValueError, TypeError
        If ``prior`` is an unknown name or not a number > 0.

    Examples
    --------
    >>> posterior_interval_name(), posterior_interval_name(0.25)
    ('Dirichlet posterior (diagonal-jeffreys prior)', 'Dirichlet posterior (0.25 per cell prior)')
    """
    if isinstance(prior, str):
        prior_concentration(prior, 2)
        return f"Dirichlet posterior ({prior} prior)"
    return f"Dirichlet posterior ({check_real('prior', prior, low=0.0):g} per cell prior)"


# --------------------------------------------------------------------------- the posterior


def _class_vector(name, values, n_classes):
    array = as_array(name, values)
    if array.dtype.kind not in "biuf":
        raise TypeError(f"{name} must be numeric, got dtype {array.dtype}")
    if array.shape != (n_classes,):
        raise ValueError(f"{name} must have shape ({n_classes},), one value per class, got shape {array.shape}")
    array = array.astype(np.float64)
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ValueError(f"{name} must be finite and non-negative, got {array.tolist()}")
    return array


def _check_counts_matrix(counts):
    counts = check_counts(counts)
    if counts.ndim != 2:
        raise ValueError(f"counts must be one confusion matrix of shape (m, m), got shape {counts.shape}")
    return counts.astype(np.float64)


class _Posterior:
    """Dirichlet parameters of the rows that are drawn, and the scale of each row's expected counts."""

    def __init__(self, counts, class_sizes, effective_sizes, concentration):
        row_sums = counts.sum(axis=1)
        self.n_classes = counts.shape[0]
        self.drawn = np.flatnonzero((row_sums > 0) & (class_sizes > 0) & (effective_sizes > 0))
        rows = self.drawn
        rescale = effective_sizes[rows] / row_sums[rows]
        self.shape = counts[rows] * rescale[:, None] + concentration[rows]
        self.totals = class_sizes[rows, None]

    def chunks(self, n_draws, rng) -> Iterator[np.ndarray]:
        """Draws of the expected counts in chunks (b, m, m); the draws do not depend on the chunk length."""
        m = self.n_classes
        step = chunk_length(3 * 8 * m * m, budget=DRAW_CHUNK_BYTES)
        work = task("posterior draws", n_draws)
        for start in range(0, n_draws, step):
            size = min(step, n_draws - start)
            gamma = rng.standard_gamma(self.shape, size=(size, *self.shape.shape))
            gamma *= self.totals / gamma.sum(axis=-1, keepdims=True)
            draws = np.zeros((size, m, m))
            draws[:, self.drawn] = gamma
            work.advance(size)
            yield draws


@validate_params({"n_draws": [POSITIVE_COUNT], "random_state": ["random_state"]})
def confusion_posterior(
    counts: ArrayLike,
    *,
    class_sizes: ArrayLike | None = None,
    effective_sizes: ArrayLike | None = None,
    prior: PriorName | float = DEFAULT_PRIOR,
    n_draws: int = 4000,
    random_state: int | np.random.Generator | None = None,
) -> np.ndarray:
    """Draws of the expected confusion counts from the Dirichlet posterior of each row.

    Row c of a draw is ``class_sizes[c] * pi_c`` with pi_c drawn from
    Dirichlet(counts_c * effective_sizes[c] / counts_c.sum() + a_c), a_c the
    prior's concentrations of row c (see the module notes). Rows with no
    counts, no class size or no effective size are not drawn: they are 0.

    Parameters
    ----------
    counts : array-like of shape (m, m)
        Confusion counts (weighted or not), ``counts[true, predicted]``.
    class_sizes : array-like of shape (m,), default=None
        Total (weight) of each true class, the scale of the expected counts;
        default ``counts.sum(axis=1)``.
    effective_sizes : array-like of shape (m,), default=None
        Number of independent rows each class is worth (Kish's effective size
        under weights, :func:`polyroc.intervals.effective_sample_size`); the
        row's counts are rescaled to sum to it. Default ``class_sizes``.
    prior : {"diagonal-jeffreys", "jeffreys", "uniform", "perks"} or float, default="diagonal-jeffreys"
        Dirichlet concentrations of each row: 1/2 on the diagonal and
        1/(2(m - 1)) elsewhere (each recall's marginal is Jeffreys'), or per
        cell 1/2 (Jeffreys), 1 (uniform), 1/m (Perks) or the number given.
    n_draws : int, default=4000
        Number of posterior draws.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

    Returns
    -------
    ndarray of shape (n_draws, m, m)
        The draws of the expected counts.

    Raises
    ------
    ValueError
        If ``counts`` is not of shape (m, m) with m >= 2 or holds negative or
        non-finite values; if ``class_sizes`` or ``effective_sizes`` is not
        of shape (m,), finite and non-negative; if ``prior`` is an unknown
        name or not > 0; if ``n_draws`` < 1 or the seed is negative.
    TypeError
        If an argument is of the wrong type.

    Examples
    --------
    >>> draws = confusion_posterior([[3, 1], [0, 4]], n_draws=5, random_state=0)
    >>> draws.shape, draws.sum(axis=2).round(12).tolist()[0]
    ((5, 2, 2), [4.0, 4.0])
    """
    posterior = _posterior(counts, class_sizes, effective_sizes, prior)
    return np.concatenate(list(posterior.chunks(int(n_draws), np.random.default_rng(random_state))))


def _posterior(counts, class_sizes, effective_sizes, prior):
    counts = _check_counts_matrix(counts)
    m = counts.shape[0]
    concentration = prior_concentration(prior, m)
    sizes = counts.sum(axis=1) if class_sizes is None else _class_vector("class_sizes", class_sizes, m)
    effective = sizes if effective_sizes is None else _class_vector("effective_sizes", effective_sizes, m)
    return _Posterior(counts, sizes, effective, concentration)


def posterior_quantiles(
    draws_of_metric: ArrayLike,
    confidence: float,
    *,
    estimate: ArrayLike | None = None,
    support: tuple[float, float] = (-np.inf, np.inf),
) -> tuple[np.ndarray | float, np.ndarray | float]:
    """Equal-tailed posterior interval along axis 0, leaving NaN draws out; widened around ``estimate`` if given.

    With a few rows per class and a sharp classifier, the prior pulls the
    posterior of a composite (macro-F1, kappa ...) away from the data, and the
    equal-tailed interval misses the truth more often than promised. Given the
    estimate, the interval is therefore the union of the equal-tailed interval
    and the same posterior spread re-centred on the estimate (the quantiles of
    ``draws - median + estimate``), clipped to the metric's ``support``. The
    coverage study of the documentation measured it.

    Parameters
    ----------
    draws_of_metric : array-like of shape (n_draws, ...)
        Posterior draws of one or more quantities.
    confidence : float
        Level of the interval, in (0, 1).
    estimate : array-like of shape (...), default=None
        The quantities' values on the data; None gives the equal-tailed interval alone.
    support : (float, float), default=(-inf, inf)
        The range of values the quantity can take.

    Returns
    -------
    low, high : float or ndarray of shape (...)
        The bounds; NaN where every draw is NaN.

    Raises
    ------
    ValueError, TypeError
        If ``confidence`` is not a number in (0, 1).

    Examples
    --------
    >>> low, high = posterior_quantiles(np.array([[0.0, np.nan], [1.0, np.nan], [2.0, np.nan]]), 0.5)
    >>> low.tolist(), high.tolist()
    ([0.5, nan], [1.5, nan])
    >>> low, high = posterior_quantiles(np.array([0.6, 0.7, 0.8]), 0.5, estimate=0.95, support=(0.0, 1.0))
    >>> round(float(low), 4), round(float(high), 4)
    (0.65, 1.0)
    """
    draws = np.asarray(draws_of_metric, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices give NaN, as documented
        low, high = percentile_interval(draws, confidence=confidence, axis=0)
        if estimate is None:
            return low, high
        shift = np.asarray(estimate, dtype=np.float64) - np.nanmedian(draws, axis=0)
        centred_low, centred_high = percentile_interval(draws + shift, confidence=confidence, axis=0)
    low = np.clip(np.fmin(low, centred_low), *support)
    high = np.clip(np.fmax(high, centred_high), *support)
    return finish(low), finish(high)


def metric_support(name: str) -> tuple[float, float]:
    """The range of a counts metric: [0, 1] for rates and F-scores, (-inf, 1] for kappa, MCC, HSS, Youden.

    >>> metric_support("f1_macro"), metric_support("matthews_corrcoef")
    ((0.0, 1.0), (-inf, 1.0))
    """
    signed = ("cohen_kappa", "heidke", "hss", "matthews", "mcc", "tss", "youden")
    return (-np.inf, 1.0) if name.startswith(signed) else (0.0, 1.0)


@validate_params({"n_draws": [POSITIVE_COUNT], "confidence": [CONFIDENCE], "random_state": ["random_state"]})
def posterior_interval(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    metric: str | Callable = "f1_macro",
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    prior: PriorName | float = DEFAULT_PRIOR,
    n_draws: int = 4000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
) -> ConfidenceInterval:
    """A metric of the predictions with its Dirichlet posterior interval (see the module notes).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n,)
        True and predicted labels.
    metric : str or callable, default="f1_macro"
        A name of :data:`polyroc.counts.METRICS` (e.g. ``"f1_macro"``,
        ``"balanced_accuracy"``, ``"cohen_kappa"``, ``"mcc"``), or a callable
        mapping counts (..., m, m) to values (...).
    labels : array-like, default=None
        The classes, in order; default the sorted labels found.
    sample_weight : array-like of shape (n,), default=None
        Sample weights (Kish's effective size per class sets the posterior's
        spread).
    prior : {"diagonal-jeffreys", "jeffreys", "uniform", "perks"} or float, default="diagonal-jeffreys"
        Dirichlet concentrations of each row (see :func:`confusion_posterior`).
    n_draws : int, default=4000
        Number of posterior draws.
    confidence : float, default=0.95
        Level of the interval, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the draws.

    Returns
    -------
    ConfidenceInterval
        ``estimate`` is the metric of the observed counts (scikit-learn's
        value, undefined ratios counting 0); ``low``/``high`` the posterior
        quantiles; ``settings["interval_method"]`` names the prior.

    Raises
    ------
    ValueError
        If the labels or weights are invalid (different lengths, empty,
        missing values, a label outside ``labels``, fewer than two classes,
        negative or non-finite weights, weights summing past the float64
        range), ``metric`` names no metric (the
        message lists the valid names) or, as a callable, does not return
        one value per counts matrix, ``prior`` is unknown or not > 0,
        ``n_draws`` < 1, ``confidence`` is not in (0, 1), or ``random_state``
        is a negative integer.
    TypeError
        If the labels mix strings and numbers, ``metric`` is neither a
        string nor callable, ``n_draws`` is not an integer, ``prior`` or
        ``confidence`` is not a number, or ``random_state`` is not None, an
        integer or a Generator.

    See Also
    --------
    polyroc.counts.METRICS : The metrics a name can stand for.
    polyroc.intervals.proportion_interval : Wilson's interval of a plain proportion (accuracy, recall).
    polyroc.resampling.paired_rule_scores : Bootstrap intervals of a metric for several rules.
    polyroc.evaluate : Intervals of every standard score, this one for the composites.

    References
    ----------
    Brown, L. D., Cai, T. T. & DasGupta, A. (2001). Interval estimation for a
    binomial proportion. Statistical Science 16, 101-133.
    doi:10.1214/ss/1009213286 (Jeffreys' interval, the marginal of each recall
    under the default prior)

    Kish, L. (1965). Survey Sampling. New York: Wiley (the effective sample size
    under sample weights).

    Examples
    --------
    >>> ci = posterior_interval([0, 0, 0, 0, 1, 1, 1, 1], [0, 0, 0, 1, 1, 1, 1, 1], metric="accuracy",
    ...                         random_state=0)
    >>> ci.estimate, ci.method, bool(0.5 < ci.low < 0.875 < ci.high <= 1.0)
    (0.875, 'Dirichlet posterior (diagonal-jeffreys prior)', True)
    """
    targets = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    score = get_metric(metric)
    name = posterior_interval_name(prior)
    confidence, n_draws = float(confidence), int(n_draws)
    rng = np.random.default_rng(random_state)
    m = targets.classes.size
    weights = scale_weights(targets.sample_weight).weights
    counts = confusion_counts(targets.y_true, targets.y_pred, m, weights).astype(np.float64)
    effective = class_effective_sizes(targets.y_true, m, weights)
    posterior = _posterior(counts, None, effective, prior)
    values = np.concatenate([np.asarray(score(chunk), dtype=np.float64) for chunk in posterior.chunks(n_draws, rng)])
    if values.shape != (n_draws,):
        raise ValueError(f"metric {metric_name(metric)!r} must return one value per counts matrix")
    estimate = float(score(counts))
    low, high = posterior_quantiles(values, confidence, estimate=estimate, support=metric_support(metric_name(metric)))
    return ConfidenceInterval.from_bounds(
        estimate,
        float(low),
        float(high),
        confidence=confidence,
        interval_method=name,
        n_draws=n_draws,
        random_state=random_state,
    )


# --------------------------------------------------------------------------- mean losses


def _check_classes(y, n_classes, n_samples):
    codes = as_array("y", y)
    if codes.dtype.kind not in "iub" or codes.shape != (n_samples,):
        raise ValueError(f"y must be integer class codes of shape ({n_samples},), got {codes.dtype} {codes.shape}")
    if codes.size and (codes.min() < 0 or codes.max() >= n_classes):
        raise ValueError(f"y must hold class codes in [0, {n_classes}), got values in [{codes.min()}, {codes.max()}]")
    return codes.astype(np.intp)


@validate_params({"n_classes": [POSITIVE_COUNT], "confidence": [CONFIDENCE]})
def stratified_mean_interval(
    values: ArrayLike,
    y: ArrayLike,
    n_classes: int,
    sample_weight: ArrayLike | None = None,
    *,
    confidence: float = 0.95,
) -> tuple[float, float, float]:
    """Weighted mean of per-sample values with a t interval from its stratified variance.

    With W the weight total and mean the weighted mean, each row's influence
    is ``D_s = w_s (v_s - mean) / W`` and, within class c of n_c rows,
    ``Var = sum_c n_c / (n_c - 1) sum_{s in c} (D_s - mean_c D)^2`` (the
    infinitesimal jackknife of a bootstrap stratified by class, with the
    small-sample correction). For one class it is the usual s^2 / n. Rows of
    weight 0 are left out; a class with a single row has no spread to
    estimate and adds nothing (with an :class:`~polyroc.exceptions.IntervalWarning`).

    Parameters
    ----------
    values : array-like of shape (n,)
        Per-sample values (e.g. log losses, Brier scores).
    y : array-like of int, shape (n,)
        Class code of each sample, in [0, n_classes).
    n_classes : int
        Number of classes (strata).
    sample_weight : array-like of shape (n,), default=None
        Sample weights.
    confidence : float, default=0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    estimate, low, high : float
        The weighted mean and ``mean -/+ q * sqrt(Var)``, q the quantile of
        Student's t with n - k degrees of freedom (n rows of positive weight
        in k classes; at least 1), which keeps the coverage of the log loss
        and Brier score of 5 rows per class nearer the nominal level than the
        normal quantile (``benchmarks/posterior_prior.py``).

    Raises
    ------
    ValueError
        If ``values`` is not 1-D, empty or not finite, ``y`` is not integer
        class codes in [0, n_classes) of the same length, ``n_classes`` < 1,
        the weights are invalid (wrong length, negative, non-finite, all 0,
        a sum past the float64 range),
        or ``confidence`` is not in (0, 1).
    TypeError
        If ``values`` or ``sample_weight`` is not numeric, ``n_classes`` is
        not an integer, or ``confidence`` is not a real number.

    Warns
    -----
    IntervalWarning
        If some class has a single row (of positive weight), or if the
        interval has zero width (no class has two rows whose values differ:
        its spread cannot be estimated, which does not make the mean known).

    See Also
    --------
    polyroc.metrics.log_loss, polyroc.metrics.brier_score_loss : Mean losses this interval bounds.
    polyroc.resampling.bootstrap_multiplicities : The stratified bootstrap whose variance this approximates.
    polyroc.evaluate : Uses it for the log loss and Brier score (``ci="auto"``).

    Examples
    --------
    >>> estimate, low, high = stratified_mean_interval([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 1], 2)
    >>> estimate, round(low, 4), round(high, 4)  # Var = 2 * 2 * 2 * (1/8)**2 = 1/8, t with 2 degrees of freedom
    (2.5, 0.9788, 4.0212)
    """
    row_values = check_real_array("values", values, ndims=(1,))
    n_classes = int(n_classes)
    codes = _check_classes(y, n_classes, row_values.shape[0])
    weights = check_sample_weight(sample_weight, row_values.shape[0])
    confidence = float(confidence)
    weights = scale_weights(weights).weights  # the interval is scale-free; scaled, no square overflows
    estimate, low, high = moments_mean_interval(
        ClassMoments.of(row_values, codes, n_classes, weights), confidence=confidence
    )
    if is_zero_width(low, high):
        _warnings.warn(
            "the interval has zero width: no class has two rows whose values differ, so their spread cannot be "
            "estimated, which does not make the mean known; read the interval as degenerate, not as exact",
            IntervalWarning,
        )
    return estimate, low, high


def moments_mean_interval(moments: ClassMoments, *, confidence: float) -> tuple[float, float, float]:
    """:func:`stratified_mean_interval` from the per-class moments of the values (checked ``confidence``)."""
    return mean_t_test(moments, confidence=confidence)[:3]


def mean_t_test(
    moments: ClassMoments, *, confidence: float, variance: MeanVariance = "stratified"
) -> tuple[float, float, float, float]:
    """The weighted mean of per-row values, its t interval and the two-sided p-value of a zero mean.

    ``variance="stratified"``: the variance of :func:`stratified_mean_interval`
    (conditional on the class counts), n - k degrees of freedom. ``"plain"``:
    the same of the rows pooled into one class (:meth:`ClassMoments.pooled`),
    ``n / (n - 1) sum_s (D_s - mean D)^2`` of the influences
    ``D_s = w_s (v_s - mean) / W``, which is s^2 / n without weights (the
    one-sample t of :func:`scipy.stats.ttest_1samp`), n - 1 degrees of
    freedom: the rows are an i.i.d. sample whose class counts vary too. The
    p-value ``2 P(T > |mean| / sqrt(Var))`` is NaN when the variance is 0.
    ``confidence`` is checked by the caller.

    Examples
    --------
    >>> moments = ClassMoments.of(np.array([1.0, 2.0, 3.0, 4.0]), np.array([0, 0, 1, 1]), 2, None)
    >>> [round(x, 4) for x in mean_t_test(moments, confidence=0.95, variance="plain")]  # s^2 / n = 5/12, t(3)
    [2.5, 0.4457, 4.5543, 0.0305]
    >>> [round(x, 4) for x in mean_t_test(moments, confidence=0.95)]  # the stratified Var = 1/8, t(2)
    [2.5, 0.9788, 4.0212, 0.0194]
    """
    from scipy.stats import t

    mean, var, freedom = moments_mean_variance(moments.pooled() if variance == "plain" else moments)
    half = float(t.ppf(0.5 + confidence / 2, freedom) * np.sqrt(var))
    p_value = float(2 * t.sf(abs(mean) / np.sqrt(var), freedom)) if var > 0 else float("nan")
    return mean, mean - half, mean + half, p_value


def moments_mean_variance(moments: ClassMoments) -> tuple[float, float, int]:
    """The weighted mean, its stratified variance (>= 0) and the t's degrees of freedom of
    :func:`stratified_mean_interval`, from the per-class moments of the values."""
    rows = moments.rows
    if np.any(rows == 1):
        _warnings.warn(
            "a class with a single row adds nothing to the variance of the mean (its spread cannot be estimated)",
            IntervalWarning,
        )
    mean = moments.mean()
    with np.errstate(divide="ignore", invalid="ignore"):
        correction = np.where(rows > 1, rows / (rows - 1.0), 0.0)
    variance = float(np.sum(correction * moments.influence_spread(mean)))
    freedom = max(1, int(rows.sum()) - int(np.count_nonzero(rows)))
    return mean, max(variance, 0.0), freedom
