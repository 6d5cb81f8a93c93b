"""Tune on validation, compare decision rules on validation and test (the paper's Tables 3-4).

Rules compared: plain argmax, the tuned simplex rule argmax(p - tau*), the
Fréchet mean rule and the epsilon-inflated argmax (a set-valued rule, reported
through coverage, singleton-correct share and average set size). Under a cost
matrix, also the Bayes rule, the decision of least expected cost of each row.

Asked for (``n_boot``), the differences on the test split of each
single-label rule from argmax (and, under a cost matrix, of the tuned rule
from the Bayes rule) come with a paired interval and p-value. A metric of
the confusion counts is bounded by the paired stratified bootstrap of
:func:`polyroc.resampling.paired_rule_scores` (one shared set of replicates
for every rule); an expected cost, a mean of per-row costs ``C[y, d]``, by
the paired t of :func:`polyroc.intervals.paired_loss_difference` with the
plain (unstratified) variance of the per-row differences: the test rows are
an i.i.d. sample whose class counts are random too, and the plain variance
counts that randomness where the class-stratified one conditions on it
(``benchmarks/rule_differences.py`` measures both).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.costs import bayes_codes
from polyroc._engine.counts import confusion_counts
from polyroc._engine.parallel import chunk_map
from polyroc._results import Result
from polyroc._validation import (
    check_distance_matrix,
    check_scores,
    with_scaled_weights,
)
from polyroc._validation._costs import check_cost_matrix
from polyroc._validation._params import Interval, validate_params
from polyroc.counts import get_metric
from polyroc.intervals._paired_losses import PAIRED_T_PLAIN, bootstrap_p_value, paired_loss_difference
from polyroc.intervals._resampling import (
    CONFIDENCE,
    PAIRED_STRATIFIED_PERCENTILE,
    POSITIVE_COUNT,
    ConfidenceInterval,
    _rule_replicates,
    _warn_few_changed_rows,
    changed_rows,
)
from polyroc.thresholds.competing import _set_measures, frechet_predict, inflated_argmax
from polyroc.thresholds.objectives import check_cost_pairing, is_cost, tuning_objective
from polyroc.thresholds.rules import predict
from polyroc.thresholds.tuning import TuningResult, tune_thresholds

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["RuleComparison", "compare_rules"]

COLUMNS = ("argmax", "tuned", "frechet", "coverage", "singleton", "avg_set_size")

#: The columns of the inflated argmax's sets: coverage, singleton correct share, average size.
SET_COLUMNS = ("coverage", "singleton", "avg_set_size")

#: The columns under a cost matrix: the Bayes rule's expected cost beside the other rules'.
COST_COLUMNS = ("argmax", "tuned", "bayes", "frechet", "coverage", "singleton", "avg_set_size")


#: The rows of :meth:`RuleComparison.to_frame`: (rule, what is measured, column of ``rows``).
RULE_MEASURES = (
    ("argmax", None, "argmax"),
    ("tuned", None, "tuned"),
    ("bayes", None, "bayes"),
    ("frechet", None, "frechet"),
    ("inflated_argmax", "coverage", "coverage"),
    ("inflated_argmax", "singleton_correct", "singleton"),
    ("inflated_argmax", "average_set_size", "avg_set_size"),
)

#: What the method of a difference adds when the two rules decide alike on every test row.
SAME_DECISIONS = "degenerate (zero width): the two rules decide alike on every row, so the difference is 0"

#: The keys of a row of :attr:`RuleComparison.differences`.
DIFFERENCE_KEYS = ("rule", "baseline", "difference", "low", "high", "p_value", "method", "confidence")


@dataclass(frozen=True, eq=False, repr=False)
class RuleComparison(Result):
    """Scores of the competing decision rules on validation and test data.

    Attributes
    ----------
    metric : str
        The metric of the ``argmax``, ``tuned`` and ``frechet`` columns (the
        tuning metric; for ``"expected_cost"`` lower is better).
    rows : dict
        ``{"validation": {...}, "test": {...}}``, each mapping the column names
        ``argmax``, ``tuned``, ``frechet``, ``coverage``, ``singleton`` (share of
        samples whose inflated-argmax set is exactly {y}) and ``avg_set_size``
        to a float; under a cost matrix also ``bayes``, the expected cost of
        the Bayes rule (:func:`polyroc.decisions.bayes_decision`).
    tuning : TuningResult
        The tuning on validation data that produced tau*.
    eps : float
        The inflated-argmax margin.
    settings : dict
        The tuning options (``tuning.settings``: ``"search"``, ``"domain"``,
        ``"tie_break"``, ``"resolution"``, ``"n_samples"``, ``"random_state"``);
        with differences also ``"n_boot"`` and ``"confidence"``.
    differences : list of dict
        Empty unless ``compare_rules`` was given ``n_boot``. Otherwise one
        dict per paired difference on the test split (rule minus baseline):
        ``"rule"``, ``"baseline"``, ``"difference"``, its interval ``"low"``
        and ``"high"``, the two-sided ``"p_value"`` of no difference, the
        interval's ``"method"`` and ``"confidence"``. The rows are tuned,
        frechet (and bayes) minus argmax, then tuned minus bayes under a cost
        matrix.

    See Also
    --------
    compare_rules : Makes this result.
    polyroc.thresholds.TuningResult : The tuning held in ``tuning``.
    polyroc.thresholds.inflated_argmax : The set-valued rule of the last three columns.

    Examples
    --------
    >>> y = [0, 1, 2, 1, 0, 2]
    >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1], [.4, .4, .2], [.3, .3, .4]]
    >>> table = compare_rules(y, P, y_val=y, val_scores=P, resolution=10)
    >>> table.to_frame()[["rule", "measure", "test"]].values.tolist()[:2]
    [['argmax', 'f1_macro', 0.8222222222222223], ['tuned', 'f1_macro', 0.8222222222222223]]
    """

    metric: str
    rows: dict[str, dict[str, float]]
    tuning: TuningResult
    eps: float
    settings: dict[str, Any] = field(default_factory=dict)
    differences: list[dict[str, Any]] = field(default_factory=list)

    @property
    def classes(self) -> np.ndarray:
        """The class order (that of ``tuning``)."""
        return self.tuning.classes

    @property
    def greater_is_better(self) -> bool:
        """Whether higher values of ``metric`` are better (False for ``"expected_cost"``)."""
        return self.tuning.greater_is_better

    @property
    def columns(self) -> tuple[str, ...]:
        """The columns of ``rows``: :data:`COLUMNS`, with ``bayes`` under a cost matrix."""
        return COST_COLUMNS if "bayes" in next(iter(self.rows.values())) else COLUMNS

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per rule (and per measure of the set-valued inflated argmax), a column per split.

        With :attr:`differences`, one more row per difference (rule ``"tuned - argmax"``, measure
        ``"<metric> difference"``, its value in the ``test`` column) and the columns ``low``, ``high``,
        ``p_value`` and ``method``.
        """
        rows: list[dict[str, Any]] = [
            {
                "rule": rule,
                "measure": self.metric if measure is None else measure,
                **{split: values[column] for split, values in self.rows.items()},
            }
            for rule, measure, column in RULE_MEASURES
            if column in self.columns
        ]
        if not self.differences:
            return rows
        nan = float("nan")
        extra = {"low": nan, "high": nan, "p_value": nan, "method": None}
        return [{**row, **extra} for row in rows] + [
            {
                "rule": f"{row['rule']} - {row['baseline']}",
                "measure": f"{self.metric} difference",
                **{split: (row["difference"] if split == "test" else nan) for split in self.rows},
                **{key: row[key] for key in ("low", "high", "p_value", "method")},
            }
            for row in self.differences
        ]

    def differences_frame(self) -> pd.DataFrame:
        """The paired differences on test (:attr:`differences`) as a pandas DataFrame, one row each.

        Returns
        -------
        pandas.DataFrame
            Columns :data:`DIFFERENCE_KEYS`; no rows without differences.

        Raises
        ------
        ImportError
            If pandas is not installed.

        See Also
        --------
        to_frame : The scores of every rule, with these differences as more rows.
        compare_rules : Makes the differences when given ``n_boot``.

        Examples
        --------
        >>> y = np.tile([0, 1, 2], 20)
        >>> P = np.random.default_rng(1).dirichlet(np.ones(3), 60) + np.eye(3)[y] * 0.2
        >>> P /= P.sum(axis=1, keepdims=True)
        >>> table = compare_rules(y, P, y_val=y, val_scores=P, metric="accuracy", resolution=10,
        ...                       n_boot=200, random_state=0)
        >>> table.differences_frame()[["rule", "baseline", "method"]].values.tolist()[0]
        ['tuned', 'argmax', 'paired stratified percentile bootstrap']
        """
        import pandas as pd

        return pd.DataFrame(
            [{key: row[key] for key in DIFFERENCE_KEYS} for row in self.differences], columns=list(DIFFERENCE_KEYS)
        )

    @validate_params({"digits": [Interval("integer", 0, None, closed="left")]})
    def to_text(self, digits: int = 4) -> str:
        """The table as aligned plain text, one row per data split.

        Parameters
        ----------
        digits : int, default=4
            Decimals of every value (a non-negative integer).

        Returns
        -------
        text : str
            A settings line (metric, tau*, eps; "lower is better" for a
            cost), a header and one line per split; ``str(comparison)`` is
            ``to_text()``.

        Raises
        ------
        ValueError
            If ``digits`` is negative.
        TypeError
            If ``digits`` is not an integer (a bool, float or string).

        See Also
        --------
        to_frame : The same values as a pandas DataFrame, one row per rule.

        Examples
        --------
        >>> y_val, P_val = [0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]]
        >>> y, P = [0, 1, 2, 1, 0], [[.5, .3, .2], [.45, .4, .15], [.2, .3, .5], [.3, .6, .1], [.7, .2, .1]]
        >>> print(compare_rules(y, P, y_val=y_val, val_scores=P_val, resolution=10).to_text(digits=2))
        metric: f1_macro; tau* = [0.4, 0.3, 0.3]; inflated argmax eps = 0.05
        split               argmax         tuned       frechet      coverage     singleton  avg_set_size
        validation            0.78          1.00          0.78          0.75          0.75          1.00
        test                  0.82          1.00          0.82          0.80          0.80          1.00
        """
        digits = int(digits)
        columns = self.columns
        width = max(len(c) for c in columns) + 2
        header = "split".ljust(12) + "".join(c.rjust(width) for c in columns)
        direction = "" if self.greater_is_better else " (lower is better)"
        settings = (
            f"metric: {self.metric}{direction}; tau* = {np.round(self.tuning.best_threshold, 4).tolist()}; "
            f"inflated argmax eps = {self.eps:g}"
        )
        lines = [settings, header]
        for split, values in self.rows.items():
            lines.append(split.ljust(12) + "".join(f"{values[c]:.{digits}f}".rjust(width) for c in columns))
        return "\n".join(lines + self._difference_lines(digits))

    def _difference_lines(self, digits: int) -> list[str]:
        """The lines of :attr:`differences` under the table (none without them)."""
        if not self.differences:
            return []
        level = f"{100 * self.differences[0]['confidence']:g}%"
        lines = [f"paired differences on test ({level} CI, p of no difference):"]
        for row in self.differences:
            name = f"{row['rule']} - {row['baseline']}"
            lines.append(
                f"  {name:<18}{row['difference']:+.{digits}f} [{row['low']:.{digits}f}, {row['high']:.{digits}f}]"
                f"  p = {row['p_value']:.3g}  ({row['method']})"
            )
        return lines

    def __str__(self) -> str:
        return self.to_text()


def _rule_row(targets, tau, distances, eps, objective, costs):
    """The row of one split; ``costs`` (the checked cost matrix, or None) adds the Bayes rule."""
    y, scores, classes, weights = targets
    m = classes.size

    def score(y_pred):
        return float(objective.reported(objective.score(confusion_counts(y, y_pred, m, weights)[None])[0]))

    sets = inflated_argmax(scores, eps)
    row = {"argmax": score(np.argmax(scores, axis=1)), "tuned": score(predict(scores, tau))}
    if costs is not None:
        row["bayes"] = score(bayes_codes(scores, costs))
    measures = _set_measures(y, sets, labels=np.arange(m), sample_weight=weights)  # the sets checked once
    return {**row, "frechet": score(frechet_predict(scores, distances)), **dict(zip(SET_COLUMNS, measures))}


def _test_decisions(test, tau, distances, costs):
    """The class codes each single-label rule decides on the test rows (argmax first)."""
    decisions = {"argmax": np.argmax(test.y_score, axis=1), "tuned": predict(test.y_score, tau)}
    if costs is not None:
        decisions["bayes"] = bayes_codes(test.y_score, costs)
    decisions["frechet"] = frechet_predict(test.y_score, distances)
    return decisions


def _difference_pairs(decisions):
    """(rule, baseline) of every reported difference: each rule minus argmax, then tuned minus bayes."""
    pairs = [(name, "argmax") for name in decisions if name != "argmax"]
    return pairs + ([("tuned", "bayes")] if "bayes" in decisions else [])


def _cost_differences(test, decisions, costs, confidence):
    """Paired t rows of the differences of expected costs: the plain variance of the per-row cost differences."""
    y, weights = test.y_true, test.sample_weight
    rows = []
    for rule, baseline in _difference_pairs(decisions):
        difference, low, high, p_value = paired_loss_difference(
            costs[y, decisions[rule]],
            costs[y, decisions[baseline]],
            y,
            test.classes.size,
            weights,
            confidence=confidence,
            variance="plain",
        )
        method = PAIRED_T_PLAIN
        if np.array_equal(decisions[rule], decisions[baseline]):
            p_value, method = 1.0, f"{PAIRED_T_PLAIN}; {SAME_DECISIONS}"
        elif not high > low:
            method = f"{PAIRED_T_PLAIN}; degenerate (zero width): the per-row cost differences do not vary"
        rows.append(_difference_row(rule, baseline, difference, low, high, p_value, method, confidence))
    return rows


def _metric_differences(test, decisions, metric, n_boot, confidence, random_state):
    """Paired bootstrap rows of the metric differences: the replicates of :func:`polyroc.resampling.paired_rule_scores`.

    The replicates are drawn as ``paired_rule_scores(..., random_state=random_state)`` draws them, so
    its intervals of the differences are these; the p-value is where the percentile interval first
    excludes 0 (:func:`polyroc.intervals._paired_losses.bootstrap_p_value`).
    """
    y, m = test.y_true, test.classes.size
    weights = np.ones(y.size) if test.sample_weight is None else test.sample_weight
    score_counts = get_metric(metric)
    estimates = {
        name: float(score_counts(confusion_counts(y, d, m, weights)[None])[0]) for name, d in decisions.items()
    }
    replicates = _rule_replicates(y, decisions, m, weights, score_counts, n_boot, np.random.default_rng(random_state))
    pairs = _difference_pairs(decisions)
    changed = {rule: changed_rows(y, decisions[rule], decisions[base], weights) for rule, base in pairs}
    for baseline in dict.fromkeys(base for _, base in pairs):
        differing = {rule: changed[rule] for rule, base in pairs if base == baseline and changed[rule]["rows"]}
        _warn_few_changed_rows(differing, baseline)
    rows = []
    for rule, baseline in pairs:
        draws = replicates[rule] - replicates[baseline]
        interval = ConfidenceInterval.from_replicates(
            estimates[rule] - estimates[baseline],
            draws,
            confidence=confidence,
            interval_method=PAIRED_STRATIFIED_PERCENTILE,
            n_boot=n_boot,
            random_state=random_state,
        )
        method, p_value = PAIRED_STRATIFIED_PERCENTILE, bootstrap_p_value(draws)
        if np.array_equal(decisions[rule], decisions[baseline]):
            p_value, method = 1.0, f"{PAIRED_STRATIFIED_PERCENTILE}; {SAME_DECISIONS}"
        rows.append(
            _difference_row(rule, baseline, interval.estimate, interval.low, interval.high, p_value, method, confidence)
        )
    return rows


def _difference_row(rule, baseline, difference, low, high, p_value, method, confidence):
    """One row of :attr:`RuleComparison.differences`."""
    values = (rule, baseline, float(difference), float(low), float(high), float(p_value), method, confidence)
    return dict(zip(DIFFERENCE_KEYS, values))


@validate_params(
    {
        "eps": [Interval("real", 0, None, closed="neither")],
        "n_boot": [None, POSITIVE_COUNT],
        "confidence": [CONFIDENCE],
    }
)
def compare_rules(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    y_val: ArrayLike,
    val_scores: ArrayLike,
    metric: str | Callable = "f1_macro",
    labels: ArrayLike | None = None,
    distances: ArrayLike | None = None,
    eps: float = 0.05,
    sample_weight: ArrayLike | None = None,
    val_sample_weight: ArrayLike | None = None,
    cost_matrix: ArrayLike | None = None,
    n_boot: int | None = None,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    **tuning_options: Any,
) -> RuleComparison:
    """Tune tau on validation data, then score every rule on validation and test.

    The rules are those compared in Tables 3-4 of Legnaro, Guastavino &
    Marchetti (2025), arXiv:2511.21794: plain argmax, the tuned rule
    argmax(p - tau*), the Fréchet mean rule and the epsilon-inflated argmax.

    Parameters
    ----------
    y_true : array-like of shape (n_test,)
        True labels of the evaluated (test) data.
    y_score : array-like of shape (n_test, m)
        Probability scores of the test data, columns in the class order.
    y_val : array-like of shape (n_val,)
        True labels of the tuning (validation) data.
    val_scores : array-like of shape (n_val, m)
        Probability scores of the validation data, columns in the class order.
    metric : str or callable, default="f1_macro"
        Tuning metric, also used for the argmax, tuned and Fréchet columns
        (see :func:`polyroc.counts.get_metric`); ``"expected_cost"`` (with
        ``cost_matrix``) tunes and scores every rule by its expected cost.
    labels : array-like of shape (m,), default=None
        Class order; default the sorted labels of ``y_val``.
    distances : array-like of shape (m, m), default=None
        Label distances of the Fréchet rule; default the complete graph 1 - I,
        for which the Fréchet rule is argmax.
    eps : float, default=0.05
        Margin of the inflated argmax (an assumption: the paper does not report
        it; 0.05 is the value of the experiments of Soloff, Barber & Willett
        (2024), "Building a stable classifier with the inflated argmax",
        NeurIPS 37).
    sample_weight : array-like of shape (n_test,), default=None
        Relative importance of the test samples.
    val_sample_weight : array-like of shape (n_val,), default=None
        Relative importance of the validation samples (used by the tuning).
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        With ``metric="expected_cost"`` (and only then): ``cost_matrix[i, j]``
        is the cost of deciding j when the class is i, in ``labels`` order.
        Adds the column ``bayes``: the expected cost of the Bayes rule
        (:func:`polyroc.decisions.bayes_decision`, the decision of least
        expected cost under the scores taken as probabilities), the lowest
        cost any rule can reach when the scores are calibrated. Under 0-1
        costs it is argmax.
    n_boot : int, default=None
        None (the default) reports the scores only, as before. An integer
        >= 1 also gives :attr:`RuleComparison.differences`: on the test
        split, tuned, frechet (and bayes) minus argmax, and tuned minus
        bayes under a cost matrix, each with a paired interval and p-value.
        For a metric of the counts they come from ``n_boot`` replicates of
        the paired stratified bootstrap of
        :func:`polyroc.resampling.paired_rule_scores` (``"paired stratified
        percentile bootstrap"``; p-value where the percentile interval first
        excludes 0). For ``"expected_cost"`` they are the paired t of the
        per-row costs ``C[y, d]`` (:func:`polyroc.intervals.paired_loss_difference`)
        with the plain variance of the per-row differences (``"paired t
        (plain variance)"``), which draws no replicates: the rows are an
        i.i.d. sample whose class counts vary too, which the
        class-stratified variance (conditional on the class counts) leaves
        out; :func:`polyroc.evaluate`'s cost interval takes the same plain
        variance.
    confidence : float, default=0.95
        Level of the intervals of the differences, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the tuning's random thresholds (as
        :func:`polyroc.thresholds.tune_thresholds`) and of the bootstrap of
        the differences.
    **tuning_options
        Passed to :func:`polyroc.thresholds.tune_thresholds` (``search``,
        ``resolution``, ``n_samples``, ``domain``, ``tie_break``,
        ``return_surface``).

    Returns
    -------
    RuleComparison
        The scores of every rule on validation and test data, and the tuning.

    Raises
    ------
    ValueError
        Invalid labels, scores or weights, test labels outside the validation
        classes, an unknown metric, ``eps <= 0``, ``distances`` not of shape
        (m, m) or with negative or non-finite entries, ``metric="expected_cost"``
        without a valid ``cost_matrix`` or a ``cost_matrix`` with another
        metric, ``n_boot`` < 1, ``confidence`` not in (0, 1), or invalid
        tuning options (as :func:`polyroc.thresholds.tune_thresholds`).
    TypeError
        A metric that is neither a name nor callable, a non-numeric ``eps``,
        an ``n_boot`` that is neither None nor an integer, a non-real ``confidence``,
        non-numeric scores, weights or ``distances``, labels mixing strings
        and numbers, an unknown keyword in ``tuning_options``, or a bad
        ``random_state``.

    Warns
    -----
    polyroc.exceptions.IntervalWarning
        With ``n_boot`` and a metric of the counts, when a rule decides
        differently from its baseline on 1 to 9 test rows (as
        :func:`polyroc.resampling.paired_rule_scores`); a rule that decides
        as its baseline on every row has the difference 0, with no warning.

    See Also
    --------
    polyroc.thresholds.tune_thresholds : The tuning on validation data.
    polyroc.thresholds.frechet_predict : The Fréchet mean rule.
    polyroc.thresholds.inflated_argmax : The epsilon-inflated argmax sets.
    RuleComparison.to_text : The table as plain text.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Tables 3-4.

    Roberts, N., Li, X., Adila, D., Cromp, S., Huang, T.-H., Zhao, J. &
    Sala, F. (2023). Geometry-aware adaptation for pretrained models.
    Advances in Neural Information Processing Systems 36, 49628-49658.

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 200)
    >>> P = rng.dirichlet(np.ones(3), 200) * 0.5 + 0.5 * np.eye(3)[y]
    >>> table = compare_rules(y[100:], P[100:], y_val=y[:100], val_scores=P[:100], resolution=30)
    >>> sorted(table.rows), table.rows["validation"]["tuned"] >= table.rows["validation"]["argmax"]
    (['test', 'validation'], True)
    >>> table.to_frame()["rule"].tolist()[:3]
    ['argmax', 'tuned', 'frechet']

    Under a cost matrix every rule is scored by its expected cost, beside the
    Bayes rule:

    >>> costs = [[0, 1, 1], [1, 0, 1], [4, 4, 0]]
    >>> cost = compare_rules(y[100:], P[100:], y_val=y[:100], val_scores=P[:100], resolution=30,
    ...                      metric="expected_cost", cost_matrix=costs)
    >>> cost.to_frame()["rule"].tolist()[:4], cost.greater_is_better
    (['argmax', 'tuned', 'bayes', 'frechet'], False)
    >>> cost.rows["validation"]["tuned"] <= cost.rows["validation"]["argmax"]
    True

    With ``n_boot``, the differences on test come with paired intervals; for
    a cost, the paired t of the per-row costs. Labels drawn from the scores
    (calibrated scores), 300 rows to tune and 300 to test:

    >>> rng = np.random.default_rng(0)
    >>> Q = rng.dirichlet(np.ones(3), 600)
    >>> y = (rng.random(600)[:, None] > Q.cumsum(axis=1)).sum(axis=1)
    >>> cost = compare_rules(y[300:], Q[300:], y_val=y[:300], val_scores=Q[:300], resolution=30,
    ...                      metric="expected_cost", cost_matrix=costs, n_boot=1000)
    >>> cost.differences_frame()[["rule", "baseline", "difference", "low", "high", "p_value"]].round(3)
          rule baseline  difference    low   high  p_value
    0    tuned   argmax      -0.197 -0.343 -0.051    0.008
    1    bayes   argmax      -0.193 -0.339 -0.048    0.009
    2  frechet   argmax       0.000  0.000  0.000    1.000
    3    tuned    bayes      -0.003 -0.029  0.022    0.797
    >>> cost.differences[0]["method"]
    'paired t (plain variance)'
    """
    eps = float(eps)
    check_cost_pairing(metric, cost_matrix)
    if not is_cost(metric):
        get_metric(metric)  # a bad metric is named before the data are checked
    validation = with_scaled_weights(
        check_scores(
            y_val,
            val_scores,
            labels=labels,
            sample_weight=val_sample_weight,
            name="val_scores",
            y_name="y_val",
            weight_name="val_sample_weight",
        )
    )
    test = with_scaled_weights(check_scores(y_true, y_score, labels=validation.classes, sample_weight=sample_weight))
    m = validation.classes.size
    if distances is not None:  # checked before the tuning, not when the Fréchet rule first reads it
        distances = check_distance_matrix(distances, m, n_candidates=m, name="distances")
    objective = tuning_objective(metric, cost_matrix, validation.classes)
    costs = None if cost_matrix is None else check_cost_matrix(cost_matrix, validation.classes)
    tuning = tune_thresholds(
        validation.classes[validation.y_true],
        validation.y_score,
        metric=metric,
        labels=validation.classes,
        sample_weight=validation.sample_weight,
        cost_matrix=costs,
        random_state=random_state,
        **tuning_options,
    )
    splits = {"validation": validation, "test": test}  # scored at once on two threads (numpy releases the GIL)
    row = partial(_rule_row, tau=tuning.best_threshold, distances=distances, eps=eps, objective=objective, costs=costs)
    rows = dict(zip(splits, chunk_map(row, splits.values())))
    if n_boot is None:
        return RuleComparison(objective.name, rows, tuning, eps, settings=tuning.settings)
    confidence = float(confidence)
    decisions = _test_decisions(test, tuning.best_threshold, distances, costs)
    if costs is not None:
        differences = _cost_differences(test, decisions, costs, confidence)
    else:
        differences = _metric_differences(test, decisions, metric, int(n_boot), confidence, random_state)
    settings = {**tuning.settings, "n_boot": int(n_boot), "confidence": confidence}
    return RuleComparison(objective.name, rows, tuning, eps, settings=settings, differences=differences)
