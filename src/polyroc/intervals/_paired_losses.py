"""Paired comparisons of probability quality: mean losses by a paired t, calibration errors by joined intervals.

Two models scored on the same rows differ in their mean log loss or Brier
score by the mean of the per-row differences of their losses.
:func:`loss_rows` bounds it by the t interval of a mean from the stratified
variance of those differences (:func:`polyroc.intervals.stratified_mean_interval`,
the interval :func:`polyroc.evaluate` gives one model's mean loss), and
tests it with the same t. A cost is a per-row loss too: the expected costs
of two decision rules on the same rows (``"expected_cost"``, the cost matrix
at the row's true class and the model's argmax) differ by the mean of the
per-row differences of their costs, bounded and tested by the paired t of
the plain variance (the rows one stratum,
:func:`polyroc.intervals._posterior.mean_t_test`): the rows are an i.i.d.
sample whose class counts vary too, and with costs that differ much between
classes the stratified variance, which holds the class counts fixed, covered
a difference of expected costs 83-86% of the time for 95%
(``benchmarks/rule_differences.py``). :func:`paired_loss_difference` gives
that interval and test for any two vectors of per-row losses (e.g. the costs
of two decision rules), under either variance.

The binned expected calibration error (ECE) is no mean of per-row values,
and it is biased upward by the noise of each bin's frequency, the more so
the better calibrated the model: the basic interval of a paired bootstrap of
the difference covers it 70% to 86% (top-label) and 1% to 38% (classwise) of
the time in ``benchmarks/coverage_comparison.py``. :func:`calibration_rows`
joins that interval with the difference of the two models' single-ECE
intervals (the bin draws of :mod:`polyroc.intervals._calibration_draws`, the
interval :func:`polyroc.evaluate` gives one model's ECE), each at level
``1 - alpha / 2`` (Bonferroni): ``[low_a - high_b, high_a - low_b]`` holds the
difference whenever both single intervals hold their ECEs. The row's interval
is the hull of the two (:data:`ECE_INTERVAL`); its p-value is the smallest
level alpha at which the interval at ``1 - alpha`` excludes 0, found by
bisection on alpha (:meth:`PairedEces.p_value`).

The ECE reads the rows only through bin totals, so from :data:`CELL_ROWS`
rows on the top-label bootstrap is drawn over the joint cells of (class, each
model's bin and hit) instead of over the rows (:class:`JointCells`): the same
stratified bootstrap, its cells' counts drawn exactly and each cell's score
sums by their normal approximation; it costs the cells (at most
``m (2 ECE_BINS)^2`` for two models), not the rows.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.binning import (
    CalibrationKind,
    JointCells,
    ReplicateBinner,
    bin_rows,
    bin_totals,
    binned_errors,
    calibration_columns,
)
from polyroc._engine.counts import chunk_length
from polyroc._validation import check_real_array, check_same_length, check_sample_weight, scale_weights
from polyroc._validation._params import Options, validate_params
from polyroc.intervals._calibration_draws import EceDraws
from polyroc.intervals._moments import ClassMoments
from polyroc.intervals._posterior import MEAN_VARIANCES, MeanVariance, _check_classes, mean_t_test
from polyroc.intervals._resampling import (
    CONFIDENCE,
    POSITIVE_COUNT,
    _multiplicity_chunks,
    is_zero_width,
    percentile_interval,
)
from polyroc.metrics._scores import sample_brier_losses, sample_log_losses

__all__ = [
    "CALIBRATION_QUANTITIES",
    "ECE_BINS",
    "ECE_RULES",
    "LOSS_QUANTITIES",
    "PAIRED_T",
    "PAIRED_T_PLAIN",
    "PairedEces",
    "bootstrap_p_value",
    "calibration_rows",
    "comparison_row",
    "loss_rows",
    "paired_loss_difference",
]

#: Mean losses compare_scores accepts (the expected cost with a cost matrix).
LOSS_QUANTITIES = ("log_loss", "brier_score", "expected_cost")

#: Binned calibration errors compare_scores accepts -> the ``kind`` of :func:`polyroc.calibration.calibration_error`.
CALIBRATION_QUANTITIES: dict[str, CalibrationKind] = {"ece_top_label": "top-label", "ece_classwise": "classwise"}

#: Uniform bins of the calibration errors, as ``calibration_error``'s default.
ECE_BINS = 15

PAIRED_T = "paired t (stratified variance)"

#: The method of a paired t of the plain variance (the rows one stratum), that of the expected costs.
PAIRED_T_PLAIN = "paired t (plain variance)"

#: The method of the paired t under each variance.
PAIRED_T_METHODS: dict[str, str] = {"plain": PAIRED_T_PLAIN, "stratified": PAIRED_T}

#: The variance each mean loss of compare_scores takes: the expected cost the plain one, the losses by class.
LOSS_VARIANCES: dict[str, MeanVariance] = {
    "log_loss": "stratified",
    "brier_score": "stratified",
    "expected_cost": "plain",
}

#: The readings of a difference of calibration errors: the basic paired bootstrap, the Bonferroni difference of
#: the single-ECE bin-draws intervals, and their hull (the library's, :data:`ECE_INTERVAL`).
ECE_RULES = ("basic", "bonferroni", "union")

#: The interval of a difference of calibration errors that :func:`calibration_rows` reports.
ECE_INTERVAL = "union"

#: How the paired replicates are drawn: over the rows, over the joint cells of the models' bins, or by size.
Replicates = Literal["auto", "rows", "cells"]

#: Fewest rows at which ``"auto"`` draws a top-label ECE's paired replicates over the joint cells.
CELL_ROWS = 100_000

#: How the method of a difference names replicates drawn over the joint cells.
CELL_DRAWS = "drawn over the joint cells of the models' bins, cell score sums normal"

#: Bisection steps on the level of the p-value of a difference of calibration errors.
P_VALUE_STEPS = 16

IDENTICAL = "degenerate (zero width): the two models' scores are identical, so the difference is 0 on any rows"


def loss_rows(quantity, y, n_classes, weights, matrices, eps, pairs, confidence, costs=None):
    """Each model's mean loss and the paired t rows of the differences (model − other).

    The difference is the weighted mean of the per-row differences of the
    losses; its interval is ``mean -/+ t sqrt(Var)``, ``Var`` the variance
    of that mean (:data:`LOSS_VARIANCES`: stratified by class for the
    losses, n - k degrees of freedom; plain for ``"expected_cost"``, n - 1)
    and its p-value ``2 P(T > |mean| / sqrt(Var))``. ``"expected_cost"``
    takes ``costs[y, argmax]`` as the per-row loss (``costs`` the checked matrix).
    """
    losses = {name: _row_losses(quantity, y, matrix, eps[name], costs) for name, matrix in matrices.items()}
    values = {name: float(np.average(loss, weights=weights)) for name, loss in losses.items()}
    variance = LOSS_VARIANCES[quantity]
    label = PAIRED_T_METHODS[variance]
    rows = []
    for model, other in pairs:
        moments = ClassMoments.of(losses[model] - losses[other], y, n_classes, weights)
        difference, low, high, p_value = mean_t_test(moments, confidence=confidence, variance=variance)
        method = label
        if not high > low:
            if np.array_equal(matrices[model], matrices[other]):
                p_value, method = 1.0, f"{label}; {IDENTICAL}"
            else:
                p_value = float("nan")
                reason = (
                    "no class has two rows whose differences of losses differ"
                    if variance == "stratified"
                    else "the per-row differences of losses do not vary"
                )
                method = f"{label}; degenerate (zero width): {reason}, so their spread cannot be estimated"
        rows.append(comparison_row(quantity, model, other, difference, low, high, p_value, method))
    return values, rows


def _row_losses(quantity, y, matrix, eps, costs):
    """The per-row loss of ``quantity`` of one model's checked scores."""
    if quantity == "log_loss":
        return sample_log_losses(y, matrix, eps)
    if quantity == "brier_score":
        return sample_brier_losses(y, matrix)
    return costs[y, np.argmax(matrix, axis=1)]


@validate_params({"n_classes": [POSITIVE_COUNT], "confidence": [CONFIDENCE], "variance": [Options(MEAN_VARIANCES)]})
def paired_loss_difference(
    losses: ArrayLike,
    other_losses: ArrayLike,
    y: ArrayLike,
    n_classes: int,
    sample_weight: ArrayLike | None = None,
    *,
    confidence: float = 0.95,
    variance: MeanVariance = "plain",
) -> tuple[float, float, float, float]:
    """Difference of two mean losses on the same rows, with its paired t interval and p-value.

    The difference of the weighted means is the weighted mean of the per-row
    differences ``losses - other_losses``; it is bounded by the t interval of
    that mean and tested by the same t: ``p = 2 P(T > |difference| /
    sqrt(Var))``. ``Var`` is, by default, the plain variance of the mean of
    the differences (the rows one stratum; without weights s^2 / n and
    n - 1 degrees of freedom, the paired t of :func:`scipy.stats.ttest_rel`):
    the rows are an i.i.d. sample whose class counts vary too. With
    ``variance="stratified"`` it is stratified by class
    (:func:`stratified_mean_interval` of the differences, n - k degrees of
    freedom), conditional on the class counts. A cost is a per-row loss, so
    the expected costs of two decision rules on the same rows compare as
    ``paired_loss_difference(C[y, decided], C[y, other_decided], y, m)``;
    with costs that differ much between classes the stratified variance
    covered such a difference 83-86% of the time for 95%, the plain one
    93-95% (``benchmarks/rule_differences.py``).
    :func:`polyroc.comparison.compare_scores` compares two models' expected
    costs with the plain variance and their log losses and Brier scores with
    the stratified one (that of :func:`polyroc.evaluate`'s interval of one
    model's loss).

    Parameters
    ----------
    losses, other_losses : array-like of shape (n,)
        Per-row losses of the two rules or models on the same rows.
    y : array-like of int, shape (n,)
        Class code of each row, in [0, n_classes): the strata of
        ``variance="stratified"``.
    n_classes : int
        Number of classes.
    sample_weight : array-like of shape (n,), default=None
        Row weights.
    confidence : float, default=0.95
        Level of the interval, in (0, 1).
    variance : {"plain", "stratified"}, default="plain"
        The variance of the mean of the differences: ``"plain"`` (the rows
        one stratum, ``"paired t (plain variance)"``) or ``"stratified"`` by
        class (``"paired t (stratified variance)"``).

    Returns
    -------
    difference, low, high, p_value : float
        The difference of the means (first minus second), its interval
        and the two-sided p-value of no difference; the p-value is NaN when
        the differences do not vary (within any class, for the stratified
        variance): the interval then has zero width and says nothing, as
        their spread cannot be estimated.

    Raises
    ------
    ValueError
        If the losses are not 1-D, finite and of one length, ``y`` is not
        class codes in [0, n_classes) of that length, the weights are
        invalid, ``n_classes`` < 1, ``confidence`` is not in (0, 1) or
        ``variance`` is not ``"plain"`` or ``"stratified"``.
    TypeError
        If the losses or the weights are not numeric, ``n_classes`` is not an
        integer or ``confidence`` is not a real number.

    Warns
    -----
    IntervalWarning
        With ``variance="stratified"``, if some class has a single row of
        positive weight (it adds nothing to the variance); with
        ``"plain"``, if there is a single row.

    See Also
    --------
    stratified_mean_interval : One mean loss with the same t interval.
    polyroc.comparison.compare_scores : The same test of models' mean losses and expected costs.
    polyroc.decisions.expected_cost : One rule's expected cost.

    Examples
    --------
    Two decision rules on the same six rows, under a cost matrix:

    >>> C = np.array([[0.0, 1.0], [5.0, 0.0]])
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> first, second = np.array([0, 1, 0, 1, 1, 0]), np.array([1, 1, 0, 1, 1, 1])
    >>> difference, low, high, p = paired_loss_difference(C[y, first], C[y, second], y, 2)
    >>> round(difference, 4), round(low, 4), round(high, 4), round(p, 4)  # scipy.stats.ttest_rel's
    (0.6667, -1.6004, 2.9337, 0.4838)
    >>> difference, low, high, p = paired_loss_difference(C[y, first], C[y, second], y, 2, variance="stratified")
    >>> round(difference, 4), round(low, 4), round(high, 4), round(p, 4)
    (0.6667, -1.6929, 3.0262, 0.4766)
    """
    first = check_real_array("losses", losses, ndims=(1,))
    second = check_real_array("other_losses", other_losses, ndims=(1,))
    check_same_length(losses=first, other_losses=second)
    codes = _check_classes(y, int(n_classes), first.shape[0])
    weights = scale_weights(check_sample_weight(sample_weight, first.shape[0])).weights
    moments = ClassMoments.of(first - second, codes, int(n_classes), weights)
    return mean_t_test(moments, confidence=float(confidence), variance=variance)


def calibration_rows(quantity, y, n_classes, weights, matrices, pairs, *, confidence, n_boot, rng):
    """Each model's binned ECE (``ECE_BINS`` uniform bins, l1) and the rows of the differences (model − other).

    Every model is scored on the same stratified replicates, then its bins
    are drawn ``n_boot`` times (:class:`PairedEces`); the interval is
    :data:`ECE_INTERVAL` and the p-value :meth:`PairedEces.p_value`.
    """
    paired = PairedEces.of(quantity, y, weights, matrices, n_boot=n_boot, rng=rng)
    drawn = "" if paired.replicates == "rows" else f"; {CELL_DRAWS}"
    method = (
        f"paired stratified basic bootstrap (B={n_boot}{drawn}) joined with the difference of bin-draws intervals "
        f"({n_boot} draws) at 1 - alpha/2 each (Bonferroni); p-value: the smallest alpha excluding 0, by bisection"
    )
    rows = []
    for model, other in pairs:
        difference = paired.values[model] - paired.values[other]
        if np.array_equal(matrices[model], matrices[other]):
            rows.append(comparison_row(quantity, model, other, 0.0, 0.0, 0.0, 1.0, f"{method}; {IDENTICAL}"))
            continue
        low, high = paired.bounds(model, other, confidence)[ECE_INTERVAL]
        p_value = paired.p_value(model, other, confidence)
        row_method = method
        if is_zero_width(low, high):
            row_method = f"{method}; degenerate (zero width): every replicate and draw gives the same difference"
        rows.append(comparison_row(quantity, model, other, difference, low, high, p_value, row_method))
    return paired.values, rows


class PairedEces:
    """One binned ECE of each model, its paired bootstrap replicates and the draws of its bins, read at any level."""

    def __init__(
        self,
        quantity: str,
        values: dict[str, float],
        series: dict[str, np.ndarray],
        draws: dict[str, EceDraws],
        replicates: str = "rows",
    ) -> None:
        self.quantity = quantity
        self.values = values
        self.series = series
        self.draws = draws
        self.replicates = replicates

    @classmethod
    def of(cls, quantity, y, weights, matrices, *, n_boot, rng, replicates: Replicates = "auto") -> PairedEces:
        """The ECEs of ``matrices`` and ``n_boot`` stratified replicates (common to the models), then the bin draws.

        Each replicate's bin totals come from a :class:`ReplicateBinner`
        with the model's bins of the full sample (a row keeps its bin in
        every replicate), or, for ``replicates="cells"``, from the same
        bootstrap drawn over the joint cells of the models' bins
        (:class:`JointCells`: the cells' counts exactly, each cell's score
        sums by their normal approximation); ``"auto"`` takes the cells for
        a top-label ECE on :data:`CELL_ROWS` rows or more. Each model's bins
        (the top-label column, then the class columns) are then drawn
        ``n_boot`` times, in the order of ``matrices``, from the same
        ``rng``; the classwise draws take the columns as independent (no
        design factor).
        """
        kind = CALIBRATION_QUANTITIES[quantity]
        columns, values = {}, {}
        for name, matrix in matrices.items():
            scores, hits = calibration_columns(y, matrix, kind)
            codes, _ = bin_rows(scores, ECE_BINS, "uniform", None)
            columns[name] = (codes, scores, hits)
            values[name] = float(np.mean(binned_errors(bin_totals(codes, scores, hits, weights, ECE_BINS), "l1")))
        if replicates == "auto":
            replicates = "cells" if kind == "top-label" and y.size >= CELL_ROWS else "rows"
        if replicates == "cells":
            series = _cell_series(y, weights, columns, n_boot, rng)
        else:
            series = _row_series(y, weights, columns, n_boot, rng)
        draws = {name: EceDraws.of(_all_columns(y, matrix, weights), n_boot, rng) for name, matrix in matrices.items()}
        return cls(quantity, values, series, draws, replicates)

    def bounds(self, model: str, other: str, confidence: float) -> dict[str, tuple[float, float]]:
        """The bounds of the difference model − other at ``confidence`` by each of :data:`ECE_RULES`."""
        difference = self.values[model] - self.values[other]
        low, high = percentile_interval(self.series[model] - self.series[other], confidence=confidence)
        basic = (2 * difference - float(high), 2 * difference - float(low))
        single = 1.0 - (1.0 - confidence) / 2.0
        names = (self.quantity,)
        first = self.draws[model].bounds(("union",), single, names=names)["union"][self.quantity]
        second = self.draws[other].bounds(("union",), single, names=names)["union"][self.quantity]
        bonferroni = (first[0] - second[1], first[1] - second[0])
        union = (min(basic[0], bonferroni[0]), max(basic[1], bonferroni[1]))
        return {"basic": basic, "bonferroni": bonferroni, "union": union}

    def p_value(self, model: str, other: str, confidence: float, rule: str = ECE_INTERVAL) -> float:
        """The smallest alpha at which the ``rule`` interval at ``1 - alpha`` excludes 0, by bisection on alpha.

        The first step is at ``alpha = 1 - confidence``, and the p-value is
        the middle of the last bracket: it is below ``1 - confidence``
        exactly when the interval at ``confidence`` excludes 0. 1 when no
        level tried excludes 0; the smallest is ``(1 - confidence) 2^-16``.
        """

        def excludes(alpha: float) -> bool:
            low, high = self.bounds(model, other, 1.0 - alpha)[rule]
            return bool(low > 0 or high < 0)

        lowest, highest = 0.0, 1.0  # 0 is inside the interval at alpha = lowest and outside at alpha = highest
        alpha = 1.0 - confidence
        for _ in range(P_VALUE_STEPS):
            if excludes(alpha):
                highest = alpha
            else:
                lowest = alpha
            alpha = (lowest + highest) / 2.0
        return 1.0 if highest == 1.0 else float(alpha)  # 1: no level excludes 0


def _row_series(y, weights, columns, n_boot, rng):
    """Each model's ECE in ``n_boot`` stratified row replicates (one :class:`ReplicateBinner` per model)."""
    binners = {name: ReplicateBinner.of(*column, ECE_BINS) for name, column in columns.items()}
    replicates: dict[str, list] = {name: [] for name in columns}
    chunk_size = chunk_length(y.size * 8 * 3)  # the replicate weights, as given and transposed
    for multiplicities in _multiplicity_chunks(y, n_boot, True, rng, chunk_size):
        replicate_weights = multiplicities.astype(np.float64)
        if weights is not None:
            replicate_weights *= weights
        for name, binner in binners.items():
            totals = binner.totals(replicate_weights, sizes=False)
            replicates[name].append(binned_errors(totals, "l1").mean(axis=-1))
    return {name: np.concatenate(chunks) for name, chunks in replicates.items()}


def _cell_series(y, weights, columns, n_boot, rng):
    """Each model's top-label ECE in ``n_boot`` stratified replicates drawn over the models' joint cells."""
    names = list(columns)
    cells = JointCells.of(
        y,
        [columns[name][0][0] for name in names],
        [columns[name][1][0] for name in names],
        [columns[name][2][0] for name in names],
        weights,
        ECE_BINS,
    )
    replicates: dict[str, list] = {name: [] for name in names}
    chunk_size = max(1, chunk_length(cells.n_cells * (1 + len(names)) * 8 * 4))
    for start in range(0, n_boot, chunk_size):
        for name, totals in zip(names, cells.totals(min(chunk_size, n_boot - start), rng)):
            replicates[name].append(binned_errors(totals, "l1").mean(axis=-1))
    return {name: np.concatenate(chunks) for name, chunks in replicates.items()}


def _all_columns(y, matrix, weights):
    """The bin totals of the top-label column, then the class columns ((1 + m, ECE_BINS))."""
    top, classwise = calibration_columns(y, matrix, "top-label"), calibration_columns(y, matrix, "classwise")
    scores, hits = np.vstack((top[0], classwise[0])), np.vstack((top[1], classwise[1]))
    codes, _ = bin_rows(scores, ECE_BINS, "uniform", None)
    return bin_totals(codes, scores, hits, weights, ECE_BINS)


def bootstrap_p_value(differences: np.ndarray) -> float:
    """Two-sided p-value of no difference: the level at which the percentile interval first excludes 0."""
    differences = differences[~np.isnan(differences)]
    if differences.size == 0:
        return float("nan")
    below, above = np.mean(differences <= 0), np.mean(differences >= 0)
    return float(min(1.0, 2 * min(below, above)))


def comparison_row(quantity, model, other, difference, low, high, p_value, method, changed_rows=None) -> dict[str, Any]:
    """One row of :attr:`polyroc.comparison.ScoreComparison.comparisons` (without ``p_holm``)."""
    return {
        "quantity": quantity,
        "model": model,
        "other": other,
        "difference": float(difference),
        "low": float(low),
        "high": float(high),
        "p_value": float(p_value),
        "method": method,
        "changed_rows": changed_rows,
    }
