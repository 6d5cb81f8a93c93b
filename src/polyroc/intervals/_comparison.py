"""Paired comparison of models scored on the same rows (public path: :mod:`polyroc.comparison`)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.counts import confusion_counts
from polyroc._results import Result, bounds_text, frame, html_table, number_text
from polyroc._validation import (
    as_array,
    check_frames_in_one_order,
    check_label_vector,
    check_model_scores,
    check_sample_weight,
    check_scores,
    scale_weights,
    score_column_names,
)
from polyroc._validation._costs import check_cost_matrix
from polyroc._validation._params import Interval, validate_params
from polyroc.counts import get_metric, metric_name
from polyroc.intervals._class_comparison import CLASS_AUC_QUANTITY, class_delong_rows
from polyroc.intervals._delong import (
    auc_difference,
    auc_influences,
    class_rows,
    delong_variance,
    logit_interval,
    smallest_class,
)
from polyroc.intervals._omnibus import OMNIBUS_COLUMNS, accuracy_omnibus, auc_omnibus, omnibus_text, untested_row
from polyroc.intervals._paired_losses import (
    CALIBRATION_QUANTITIES,
    LOSS_QUANTITIES,
    bootstrap_p_value,
    calibration_rows,
    comparison_row,
    loss_rows,
)
from polyroc.intervals._proportions import TANGO_INTERVAL, paired_difference_interval
from polyroc.intervals._resampling import CONFIDENCE, POSITIVE_COUNT, _rule_replicates, percentile_interval
from polyroc.metrics._scores import machine_epsilon

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ScoreComparison", "compare_scores", "holm_adjusted"]

#: AUC names compare_scores accepts -> (multi_class, average).
AUC_QUANTITIES = {
    "roc_auc_ovr_macro": ("ovr", "macro"),
    "roc_auc_ovr_weighted": ("ovr", "weighted"),
    "roc_auc_ovr_micro": ("ovr", "micro"),
    "roc_auc_ovo_macro": ("ovo", "macro"),
    "roc_auc_ovo_weighted": ("ovo", "weighted"),
}

DELONG_TEST = "DeLong paired test"
MCNEMAR_TEST = f"McNemar exact test; {TANGO_INTERVAL}"
PAIRED_BOOTSTRAP = "paired stratified percentile bootstrap"


@dataclass(frozen=True, eq=False, repr=False)
class ScoreComparison(Result):
    """Differences between models scored on the same rows, with intervals and p-values.

    Attributes
    ----------
    models : tuple of str
        The models, in the order given.
    baseline : str or None
        The model every other is compared with; None compares every pair.
    estimates : dict
        Quantity -> model -> its value on the data; ``"roc_auc_per_class"``
        has one entry per class, ``"roc_auc_per_class[<class>]"``.
    comparisons : list of dict
        One per (quantity, model, other), and for ``"roc_auc_per_class"``
        one per (class, model, other) with the row's ``class``: ``quantity``, ``model``, ``other``,
        ``difference`` (model − other), ``low``, ``high``, ``p_value``
        (two-sided, of no difference), ``p_holm`` (Holm-adjusted over the
        comparisons of the quantity, for ``"roc_auc_per_class"`` over every
        class and pair; equal to ``p_value`` for one comparison),
        ``method`` and, for a paired bootstrap of a counts metric,
        ``changed_rows``: the rows the two models' argmax predictions differ
        on (None for the other quantities, whose tests do not hang on them). Fewer than
        :data:`polyroc.resampling.FEW_CHANGED_ROWS` such rows leave the
        bootstrap interval without a direction (the rule of the report's
        readings, ``polyroc.resampling.supported_sign``).
    settings : dict
        ``"quantities"``, ``"confidence"``, ``"n_boot"``, ``"random_state"``
        (as given) and ``"adjustment"`` (``"holm"``).
    omnibus_tests : list of dict
        One per quantity: ``quantity``, ``statistic``, ``df``, ``p_value``
        and ``test``, the test that all the models are equal on it (see
        :attr:`omnibus`).

    See Also
    --------
    compare_scores : Make a ScoreComparison.
    holm_adjusted : The adjustment of ``p_holm``.
    polyroc.resampling.PairedRuleScores : Paired bootstrap scores of several decision rules.

    Examples
    --------
    >>> y = np.repeat([0, 1, 2], 30)
    >>> rng = np.random.default_rng(0)
    >>> good = rng.dirichlet(np.ones(3), 90) + np.eye(3)[y]
    >>> weak = rng.dirichlet(np.ones(3), 90) + 0.3 * np.eye(3)[y]
    >>> result = compare_scores(y, {"good": good / 2, "weak": weak / 1.3}, random_state=0)
    >>> row = result.comparisons[0]
    >>> row["quantity"], row["model"], row["other"], row["method"]
    ('roc_auc_ovr_macro', 'good', 'weak', 'DeLong paired test')
    >>> row["difference"] > 0 and row["p_value"] < 0.001
    True
    """

    models: tuple[str, ...]
    baseline: str | None
    estimates: dict[str, dict[str, float]]
    comparisons: list[dict[str, Any]]
    settings: dict[str, Any]
    omnibus_tests: list[dict[str, Any]] = field(default_factory=list)

    @property
    def omnibus(self) -> pd.DataFrame:
        """The omnibus tests, one row per quantity: are all the models equal on it?

        Columns ``quantity``, ``statistic``, ``df``, ``p_value`` and
        ``test``: DeLong's chi-squared test of equal AUCs for an AUC,
        Cochran's Q for accuracy without sample weights (both on K − 1
        degrees of freedom); NaN for the other quantities, with ``test``
        saying there is none. The p-values are not adjusted over the
        quantities.

        Raises
        ------
        ImportError
            If pandas is not installed.

        See Also
        --------
        polyroc.comparison.cochran_q : Cochran's Q of predicted labels.

        Examples
        --------
        >>> y = np.repeat([0, 1, 2], 40)
        >>> rng = np.random.default_rng(0)
        >>> strength = {"a": 0.5, "b": 0.5, "c": 0.0}
        >>> scores = {name: rng.dirichlet(np.ones(3), 120) + s * np.eye(3)[y] for name, s in strength.items()}
        >>> scores = {name: P / P.sum(axis=1, keepdims=True) for name, P in scores.items()}
        >>> result = compare_scores(y, scores, quantities=["roc_auc_ovr_macro", "accuracy", "log_loss"])
        >>> result.omnibus[["quantity", "df", "p_value"]].round(4)
                    quantity   df  p_value
        0  roc_auc_ovr_macro  2.0      0.0
        1           accuracy  2.0      0.0
        2           log_loss  NaN      NaN
        >>> print(result.omnibus["test"][2])
        no omnibus test of this quantity (pairwise tests only)
        """
        return frame(self.omnibus_tests, "ScoreComparison.omnibus").reindex(columns=list(OMNIBUS_COLUMNS))

    def _frame_rows(self) -> list[dict[str, Any]]:
        return [dict(row) for row in self.comparisons]

    @validate_params({"digits": [Interval("integer", 0, None, closed="left")]})
    def to_text(self, digits: int = 4) -> str:
        """The omnibus tests, then each difference with its interval, p-values and method, as plain text.

        Parameters
        ----------
        digits : int, default=4
            Decimals of the numbers.

        Returns
        -------
        str
            The omnibus table (see :attr:`omnibus`), then one line per
            pairwise comparison.

        Raises
        ------
        ValueError
            If ``digits`` is negative.
        TypeError
            If ``digits`` is not an int.

        See Also
        --------
        to_frame : The pairwise comparisons as a pandas DataFrame.

        Examples
        --------
        >>> y = np.repeat([0, 1], 20)
        >>> rng = np.random.default_rng(0)
        >>> a, b = (rng.random((2, 40)) + 0.4 * y) / 1.4
        >>> scores = {"a": np.column_stack((1 - a, a)), "b": np.column_stack((1 - b, b))}
        >>> text = compare_scores(y, scores, quantities=["roc_auc_ovr_macro"]).to_text(3)
        >>> print(text)  # doctest: +NORMALIZE_WHITESPACE
        Omnibus tests: are the 2 models equal on each quantity?
        quantity                statistic  df    p-value  test
        roc_auc_ovr_macro           0.403   1      0.525  DeLong chi-squared test of equal AUCs
        <BLANKLINE>
        Differences (two-sided p-values of no difference; Holm-adjusted over the pairs of each quantity)
        roc_auc_ovr_macro  a − b  -0.042  95% CI [-0.174, 0.089]  p = 0.525  p (Holm) = 0.525  DeLong paired test
        """
        percent = f"{100 * self.settings['confidence']:g}% CI"
        lines = omnibus_text(self.omnibus_tests, len(self.models), digits) if self.omnibus_tests else []
        lines += [
            "",
            "Differences (two-sided p-values of no difference; Holm-adjusted over the pairs of each quantity)",
        ]
        lines += [
            f"{row['quantity']}  {row['model']} − {row['other']}  {number_text(row['difference'], digits)}  "
            f"{percent} {bounds_text(row['low'], row['high'], digits)}  p = {number_text(row['p_value'], digits)}  "
            f"p (Holm) = {number_text(row['p_holm'], digits)}  {row['method']}"
            for row in self.comparisons
        ]
        return "\n".join(lines).lstrip("\n")

    def _view_sections(self) -> list[str]:
        """Each model's estimates, then each difference with its interval, p-values and method."""
        percent = f"{100 * self.settings['confidence']:g}% CI"
        estimates = [
            [quantity, *(by_model[model] for model in self.models)] for quantity, by_model in self.estimates.items()
        ]
        differences = [
            [
                row["quantity"] if "class" not in row else f"{row['quantity']} (class {row['class']})",
                f"{row['model']} − {row['other']}",
                row["difference"],
                bounds_text(row["low"], row["high"]),
                row["p_value"],
                row["p_holm"],
                row["method"],
            ]
            for row in self.comparisons
        ]
        header = ["quantity", "difference", "estimate", percent, "p-value", "p (Holm)", "method"]
        omnibus = [[row[key] for key in OMNIBUS_COLUMNS] for row in self.omnibus_tests]
        return [
            html_table(differences, header, "Differences (two-sided p-values of no difference)"),
            *(
                [
                    html_table(
                        omnibus, ["quantity", "statistic", "df", "p-value", "test"], "Omnibus tests (all models equal)"
                    )
                ]
                if omnibus
                else []
            ),
            html_table(estimates, ["quantity", *self.models], "Estimates"),
        ]


@validate_params({"confidence": [CONFIDENCE], "n_boot": [POSITIVE_COUNT], "random_state": ["random_state"]})
def compare_scores(
    y_true: ArrayLike,
    scores: Mapping[str, ArrayLike],
    *,
    quantities: Sequence[str] = ("roc_auc_ovr_macro", "roc_auc_ovo_macro", "accuracy"),
    baseline: str | None = None,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    confidence: float = 0.95,
    n_boot: int = 1000,
    random_state: int | np.random.Generator | None = None,
    cost_matrix: ArrayLike | None = None,
) -> ScoreComparison:
    """Compare models scored on the same rows: differences, intervals, p-values (Holm-adjusted).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels, shared by the models.
    scores : mapping of str to array-like of shape (n_samples, n_classes)
        Each model's class probabilities on the same rows, columns in the
        order of ``labels``; at least two models.
    quantities : sequence of str, default=("roc_auc_ovr_macro", "roc_auc_ovo_macro", "accuracy")
        What to compare: AUC names (``"roc_auc_ovr_macro"``,
        ``"roc_auc_ovr_weighted"``, ``"roc_auc_ovr_micro"``,
        ``"roc_auc_ovo_macro"``, ``"roc_auc_ovo_weighted"``; with two classes
        the OvR and OvO macro AUCs are the binary AUC), ``"roc_auc_per_class"``
        (each class's one-vs-rest AUC, one test per class and pair of
        models, as pROC's paired ``roc.test``), the mean losses
        ``"log_loss"`` (clipped as :func:`polyroc.metrics.log_loss`, at the
        machine epsilon of the dtype of each model's scores) and
        ``"brier_score"`` (the squared distance to the one-hot truth, summed
        over the classes, as :func:`polyroc.evaluate`'s), the binned
        calibration errors ``"ece_top_label"`` and ``"ece_classwise"``
        (:func:`polyroc.calibration.calibration_error` of that ``kind``, 15
        uniform bins, l1), counts metrics of the argmax predictions
        (names of :data:`polyroc.counts.METRICS`) and, with ``cost_matrix``,
        ``"expected_cost"`` (the mean of ``cost_matrix[true, argmax]``, lower
        is better; a mean loss, compared by the paired t).
    baseline : str, default=None
        Compare each other model with this one: each difference is that
        model minus the baseline (as in
        :func:`polyroc.resampling.paired_rule_scores`). Default every pair,
        each as first minus second in the order given.
    labels : array-like, default=None
        Class order of the columns; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance of the rows. With
        weights, accuracy is compared by the paired bootstrap like the other
        counts metrics: McNemar's test and Tango's interval count rows, and
        are not applied to sums of weights.
    confidence : float, default=0.95
        Level of the intervals of the differences, in (0, 1).
    n_boot : int, default=1000
        Replicates of the paired bootstrap, for the quantities that use it.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the paired bootstrap.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        ``cost_matrix[i, j]``: the cost of deciding class j when the class is
        i (class order, or a DataFrame labelled by the classes); finite and
        non-negative. Needed by ``"expected_cost"``.

    Returns
    -------
    ScoreComparison
        The pairwise rows (``comparisons``, :meth:`~ScoreComparison.to_frame`)
        and one omnibus test per quantity (:attr:`ScoreComparison.omnibus`).

    Raises
    ------
    TypeError
        If ``scores`` is not a mapping or a model name (a key of ``scores``)
        is not a string, ``n_boot`` not an integer,
        ``confidence`` not a number, ``random_state`` not None, an integer
        or a Generator, ``y_true`` mixes strings and numbers, ``sample_weight``
        is not numeric, or a score matrix or the labels are of the wrong
        type (the message names the model).
    ValueError
        If fewer than two models are given, ``baseline`` is not one of them,
        ``quantities`` is empty or a single string, a quantity is unknown
        (the message lists the valid ones: the AUCs, ``"log_loss"``,
        ``"brier_score"``, ``"ece_top_label"``, ``"ece_classwise"`` and the
        counts metrics), ``"expected_cost"`` is asked for without
        ``cost_matrix``, ``cost_matrix`` is not (m, m), holds NaN, infinity
        or negative entries or is labelled by other labels than the classes,
        ``confidence`` is not in (0, 1),
        ``n_boot`` < 1, ``random_state`` is a negative integer, ``y_true``
        or ``sample_weight`` fails the checks of :func:`polyroc.evaluate`
        (wrong shape, missing labels, negative or non-finite weights, a
        total past the float64 range), or a score matrix does (the message
        names the model); two models' scores are DataFrames indexing the
        same rows in different orders (rows are paired by position).

    Warns
    -----
    polyroc.exceptions.IntervalWarning
        If a class has fewer than 2 rows: DeLong's test is then undefined
        (NaN interval and p-value), and the class adds nothing to the
        variance of a difference of mean losses.

    See Also
    --------
    polyroc.evaluate : one model's scores with intervals.
    polyroc.resampling.paired_rule_scores : several decision rules' predictions.
    polyroc.calibration.calibration_error : One model's binned calibration error.
    polyroc.intervals.stratified_mean_interval : One model's mean loss with its t interval.
    cochran_q : Cochran's Q of several models' predicted labels.

    Notes
    -----
    Before the pairs, each quantity has an omnibus test that all the models
    are equal (:attr:`ScoreComparison.omnibus`): an AUC DeLong's contrast
    chi-squared test on K − 1 degrees of freedom, from the same joint
    covariance as the paired tests (for two models its p-value is the paired
    test's, both being normal-theory tests), accuracy without weights
    Cochran's Q; the other quantities have none (NaN, and ``test`` says so).

    Each quantity has its test. AUCs: DeLong's paired test. The
    per-class AUCs (``"roc_auc_per_class"``): DeLong's paired test of each
    class against the rest, that binary problem's structural components
    (the class's rows, and the other rows pooled), so that each p-value is
    pROC's ``roc.test(..., method = "delong", paired = TRUE)``; Holm's
    adjustment runs over every class and every pair of models of the
    quantity (m classes and k pairs: a family of m k tests). Accuracy
    without weights: McNemar's exact test with Tango's interval. A mean
    loss (log loss, Brier score, or the expected cost, whose per-row loss is
    ``cost_matrix[true, argmax]``): its difference is the mean of the
    per-row differences of the losses, bounded by the t interval of that mean and tested by the
    same t: for the log loss and the Brier score the variance is stratified
    by class (``"paired t (stratified variance)"``), for the expected cost
    it is the plain variance of the per-row differences (``"paired t (plain
    variance)"``; the rows are an i.i.d. sample whose class counts vary too),
    each the interval :func:`polyroc.evaluate` gives one model's mean loss,
    here on the differences
    (:func:`polyroc.intervals.paired_loss_difference`). The other counts metrics: a
    paired bootstrap stratified by class, the same replicates for every
    model. The calibration errors: a binned ECE is biased upward by the
    noise of each bin's frequency, the more so the better calibrated the
    model, and the basic interval of the paired bootstrap of the difference
    covers it only 70% to 86% (top-label) and 1% to 38% (classwise) of the
    time in ``benchmarks/coverage_comparison.py`` (over-confident scores
    against calibrated ones). The interval of an ECE difference is the
    union of that basic interval and the difference ``[low_a - high_b,
    high_a - low_b]`` of the two models' single-ECE intervals (the bin
    draws of :func:`polyroc.evaluate`'s ECE interval, with the class columns
    drawn as independent, ``n_boot`` draws) at level ``1 - alpha / 2`` each
    (Bonferroni), which holds whenever both single intervals hold. It covers
    96.4% to 98.6% (top-label) and 96.0% to 100% (classwise) of the time at
    nominal 95% there, at 1.6 to 5.5 times the basic interval's width; see
    ``docs/coverage-tables.md``. Its p-value is the smallest alpha at which
    the interval at ``1 - alpha`` excludes 0, found by bisection on alpha
    (16 steps, from ``1 - confidence``): it is below ``1 - confidence``
    exactly when the row's interval excludes 0, and 1 when no level
    excludes 0. The mean losses' t intervals are near 95% in the same
    study. For the mean losses and calibration
    errors, two models with identical scores differ by exactly 0 and their
    row says so in ``method`` (``degenerate (zero width)``), as does any
    other interval of zero width of these quantities.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the
    areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach. Biometrics 44, 837-845. doi:10.2307/2531595

    McNemar, Q. (1947). Note on the sampling error of the difference between
    correlated proportions or percentages. Psychometrika 12, 153-157.
    doi:10.1007/BF02295996

    Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. ICML. arXiv:1706.04599

    Tango, T. (1998). Equivalence test and confidence interval for the
    difference in proportions for the paired-sample design. Statistics in
    Medicine 17, 891-902.
    doi:10.1002/(SICI)1097-0258(19980430)17:8<891::AID-SIM780>3.0.CO;2-B

    Holm, S. (1979). A simple sequentially rejective multiple test procedure.
    Scandinavian Journal of Statistics 6, 65-70. https://www.jstor.org/stable/4615733

    Examples
    --------
    >>> y = [0, 0, 0, 1, 1, 1, 0, 1]
    >>> a = [[.9, .1], [.8, .2], [.6, .4], [.3, .7], [.2, .8], [.4, .6], [.7, .3], [.1, .9]]
    >>> b = [[.6, .4], [.4, .6], [.7, .3], [.5, .5], [.3, .7], [.6, .4], [.8, .2], [.45, .55]]
    >>> result = compare_scores(y, {"a": a, "b": b}, quantities=["roc_auc_ovr_macro", "accuracy"])
    >>> result.to_frame()[["quantity", "difference", "method"]]
                quantity  difference                                    method
    0  roc_auc_ovr_macro     0.21875                        DeLong paired test
    1           accuracy     0.37500  McNemar exact test; Tango score interval

    Did recalibrating help? Over-confident scores, a temperature fitted on
    the first half of the rows, both judged on the second half:

    >>> from polyroc import fit_calibrator
    >>> from polyroc.probability import softmax
    >>> rng = np.random.default_rng(1)
    >>> q = rng.dirichlet(np.ones(3), 2000)  # the true class probabilities
    >>> y = (rng.random(2000)[:, None] > q.cumsum(axis=1)).sum(axis=1)
    >>> raw = softmax(np.log(q) / 0.6)
    >>> calibrator = fit_calibrator(y[:1000], raw[:1000])
    >>> test = {"raw": raw[1000:], "temperature": calibrator.transform(raw[1000:])}
    >>> quantities = ["log_loss", "brier_score", "ece_top_label", "ece_classwise"]
    >>> result = compare_scores(y[1000:], test, quantities=quantities, baseline="raw", n_boot=200, random_state=0)
    >>> result.to_frame()[["quantity", "difference", "low", "high"]].round(3)
            quantity  difference    low   high
    0       log_loss      -0.067 -0.093 -0.040
    1    brier_score      -0.018 -0.028 -0.008
    2  ece_top_label      -0.066 -0.133 -0.004
    3  ece_classwise      -0.032 -0.085  0.007
    >>> print(result.comparisons[2]["method"])  # doctest: +ELLIPSIS
    paired stratified basic bootstrap (B=200) joined with the difference of bin-draws intervals (200 draws) at ...
    """
    models, score_metrics = _check_comparison(scores, quantities, baseline)
    if cost_matrix is None and "expected_cost" in quantities:
        raise ValueError("quantities names 'expected_cost', which needs a cost_matrix")
    confidence, n_boot = float(confidence), int(n_boot)
    rng = np.random.default_rng(random_state)
    # the labels and weights are every model's: their errors name no model
    check_sample_weight(sample_weight, check_label_vector("y_true", y_true).shape[0])
    check_frames_in_one_order(scores)
    checked, eps = {}, {}
    for name in models:
        try:
            given = as_array(f"scores[{name!r}]", scores[name])
            eps[name] = machine_epsilon(given.dtype)  # the log loss clips as log_loss's eps="auto" of the given dtype
            checked[name] = check_scores(
                y_true,
                given,
                labels=labels,
                sample_weight=sample_weight,
                name=f"scores[{name!r}]",
                columns=score_column_names(scores[name]),
            )
        except (ValueError, TypeError) as error:
            raise type(error)(f"scores of model {name!r}: {error}") from None
    y, _, classes, given_weights = checked[models[0]]
    costs = None if cost_matrix is None else check_cost_matrix(cost_matrix, classes)
    weights = scale_weights(given_weights).weights
    matrices = {name: targets[1] for name, targets in checked.items()}
    pairs = (
        [(other, baseline) for other in models if other != baseline]  # other − baseline, as paired_rule_scores
        if baseline
        else list(itertools.combinations(models, 2))
    )
    sample = _Sample(y, classes, weights)
    estimates, comparisons, omnibus_tests = {}, [], []
    for quantity in quantities:
        omnibus = None
        if quantity in AUC_QUANTITIES:
            values, rows, omnibus = _delong_rows(quantity, sample, matrices, pairs, confidence)
        elif quantity == CLASS_AUC_QUANTITY:
            values, rows = class_delong_rows(y, classes, weights, matrices, pairs, confidence)
        elif quantity == "accuracy" and weights is None:
            values, rows = _mcnemar_rows(sample, matrices, pairs, confidence)
            omnibus = accuracy_omnibus(quantity, y, {name: matrix.argmax(axis=1) for name, matrix in matrices.items()})
        elif quantity in LOSS_QUANTITIES:
            values, rows = loss_rows(quantity, y, sample.n_classes, weights, matrices, eps, pairs, confidence, costs)
        elif quantity in CALIBRATION_QUANTITIES:
            values, rows = calibration_rows(
                quantity, y, sample.n_classes, weights, matrices, pairs, confidence=confidence, n_boot=n_boot, rng=rng
            )
        else:
            values, rows = _bootstrap_rows(
                quantity,
                score_metrics[quantity],
                sample,
                matrices,
                pairs,
                confidence=confidence,
                n_boot=n_boot,
                rng=rng,
            )
        adjusted = holm_adjusted([row["p_value"] for row in rows])
        for row, p_holm in zip(rows, adjusted):
            row["p_holm"] = float(p_holm)
        if quantity == CLASS_AUC_QUANTITY:
            estimates.update(values)  # one entry per class
        else:
            estimates[quantity] = values
        comparisons.extend(rows)
        omnibus_tests.append(omnibus or untested_row(rows[0]["quantity"], weights is not None))
    settings = {
        "quantities": list(quantities),
        "confidence": confidence,
        "n_boot": n_boot,
        "random_state": random_state,
        "adjustment": "holm",
    }
    return ScoreComparison(tuple(models), baseline, estimates, comparisons, settings, omnibus_tests)


@dataclass(frozen=True)
class _Sample:
    y: np.ndarray
    classes: np.ndarray
    weights: np.ndarray | None

    @property
    def n_classes(self) -> int:
        return self.classes.size


def _check_comparison(scores, quantities, baseline):
    """The model names and the counts metric of each non-AUC quantity, or a clear error."""
    models = list(check_model_scores(scores))
    if baseline is not None and baseline not in scores:
        raise ValueError(f"baseline {baseline!r} is not one of the models {models}")
    if isinstance(quantities, str) or not len(quantities):
        raise ValueError("quantities must be a non-empty sequence of names, e.g. ['roc_auc_ovr_macro', 'accuracy']")
    score_metrics = {}
    for quantity in quantities:
        if quantity in (*AUC_QUANTITIES, CLASS_AUC_QUANTITY, *LOSS_QUANTITIES, *CALIBRATION_QUANTITIES):
            continue
        try:
            score_metrics[quantity] = get_metric(quantity)
        except (ValueError, TypeError):
            raise ValueError(
                f"unknown quantity {quantity!r}; valid names are the AUCs {', '.join(AUC_QUANTITIES)}, "
                f"{CLASS_AUC_QUANTITY!r} (each class's AUC), "
                f"the mean losses {', '.join(LOSS_QUANTITIES)}, the calibration errors "
                f"{', '.join(CALIBRATION_QUANTITIES)} and the counts metrics of polyroc.counts.METRICS"
            ) from None
    return models, score_metrics


def _delong_rows(quantity, sample, matrices, pairs, confidence):
    key = AUC_QUANTITIES[quantity]
    influences = {
        name: auc_influences(sample.y, matrix, sample.weights, [key])[key] for name, matrix in matrices.items()
    }
    n_min = smallest_class(class_rows(sample.y, sample.weights, sample.n_classes), sample.classes)
    rows = []
    for model, other in pairs:
        (estimate_a, influence_a), (estimate_b, influence_b) = influences[model], influences[other]
        difference, low, high, _, p_value = auc_difference(
            estimate_a, influence_a, estimate_b, influence_b, sample.y, sample.n_classes, confidence, sample.weights
        )
        method = DELONG_TEST
        if low == high and not np.array_equal(matrices[model], matrices[other]):
            low, high = _bound_of_difference(sample, influences[model], influences[other], confidence, n_min)
            method = f"{DELONG_TEST}; interval from each AUC's bound (Bonferroni)"
        rows.append(comparison_row(quantity, model, other, difference, low, high, p_value, method))
    estimates = np.array([influences[name][0] for name in matrices])
    omnibus = auc_omnibus(
        quantity,
        estimates,
        np.vstack([influences[name][1] for name in matrices]),
        sample.y,
        sample.n_classes,
        sample.weights,
    )
    return {name: float(value[0]) for name, value in influences.items()}, rows, omnibus


def _bound_of_difference(sample, first, second, confidence, n_min):
    """Bounds of a difference of AUCs from each AUC's own interval at level 1 - alpha/2 (Bonferroni).

    For two AUCs at 0 or 1 the influences vanish and DeLong's variance of
    their difference is 0, although the difference is not determined; each
    AUC then has its exact bound (:func:`polyroc.intervals._delong.logit_interval`).
    """
    half_alpha = (1 - confidence) / 2
    bounds = []
    for estimate, influence in (first, second):
        variance, df = delong_variance(influence, sample.y, sample.n_classes, sample.weights)
        bounds.append(logit_interval(estimate, variance, 1 - half_alpha, n_min, df))
    (low_a, high_a), (low_b, high_b) = bounds
    return low_a - high_b, high_a - low_b


def _mcnemar_rows(sample, matrices, pairs, confidence):
    """McNemar's exact test of the discordant rows, and Tango's unconditional score interval of the difference."""
    from scipy.stats import binomtest

    right = {name: matrix.argmax(axis=1) == sample.y for name, matrix in matrices.items()}
    n = sample.y.size
    rows = []
    for model, other in pairs:
        only_model = int(np.sum(right[model] & ~right[other]))
        only_other = int(np.sum(right[other] & ~right[model]))
        discordant = only_model + only_other
        p_value = binomtest(only_model, discordant, 0.5).pvalue if discordant else 1.0
        low, high = paired_difference_interval(only_model, only_other, n, confidence=confidence)
        difference = (only_model - only_other) / n
        rows.append(comparison_row("accuracy", model, other, difference, low, high, p_value, MCNEMAR_TEST))
    return {name: float(hit.mean()) for name, hit in right.items()}, rows


def _bootstrap_rows(quantity, score_counts, sample, matrices, pairs, *, confidence, n_boot, rng):
    weights = np.ones(sample.y.size) if sample.weights is None else sample.weights
    predicted = {name: matrix.argmax(axis=1) for name, matrix in matrices.items()}
    values = {
        name: float(score_counts(confusion_counts(sample.y, y_pred, sample.n_classes, weights)[None])[0])
        for name, y_pred in predicted.items()
    }
    replicates = _rule_replicates(sample.y, predicted, sample.n_classes, weights, score_counts, n_boot, rng)
    rows = []
    for model, other in pairs:
        differences = replicates[model] - replicates[other]
        low, high = percentile_interval(differences, confidence=confidence)
        rows.append(
            comparison_row(
                metric_name(quantity),
                model,
                other,
                values[model] - values[other],
                float(low),
                float(high),
                bootstrap_p_value(differences),
                f"{PAIRED_BOOTSTRAP}, B={n_boot}",
                int(np.sum((weights > 0) & (predicted[model] != predicted[other]))),
            )
        )
    return values, rows


def holm_adjusted(p_values: ArrayLike) -> np.ndarray:
    """Holm's step-down adjusted p-values, in the order given (NaN stays NaN and is not counted).

    Parameters
    ----------
    p_values : array-like of shape (k,)
        Unadjusted p-values in [0, 1].

    Returns
    -------
    ndarray of shape (k,)
        ``max over j <= i of min(1, (k - j + 1) p_(j))`` for the i-th smallest,
        put back in the order given.

    Raises
    ------
    ValueError
        If a p-value lies outside [0, 1], or ``p_values`` holds something
        that is not a number (numpy's conversion error).

    See Also
    --------
    compare_scores : Reports Holm-adjusted p-values of each quantity (``p_holm``).

    Notes
    -----
    ``p_values`` of any shape is flattened: the result has one value per
    entry, in row-major order.

    References
    ----------
    Holm, S. (1979). A simple sequentially rejective multiple test procedure.
    Scandinavian Journal of Statistics 6, 65-70. https://www.jstor.org/stable/4615733

    Examples
    --------
    >>> holm_adjusted([0.01, 0.04, 0.03]).round(4).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=np.float64).ravel()
    defined = ~np.isnan(p)
    if np.any((p[defined] < 0) | (p[defined] > 1)):
        raise ValueError("p_values must lie in [0, 1]")
    adjusted = np.full(p.shape, np.nan)
    order = np.flatnonzero(defined)[np.argsort(p[defined], kind="stable")]
    factors = np.arange(order.size, 0, -1)
    adjusted[order] = np.minimum(1.0, np.maximum.accumulate(factors * p[order]))
    return adjusted
