"""The report's decisions section: expected costs of argmax, the Bayes rule and cost-tuned thresholds on test.

Given a cost matrix C (rows the true classes, columns the decisions), each
model's test scores are decided three ways: argmax; the Bayes rule
(:func:`polyroc.bayes_decision`, the decision of least expected cost under
the scores taken as calibrated probabilities); and, with validation scores,
the rule argmax(p - tau) with tau tuned on validation to minimise the
expected cost (:func:`polyroc.tune_thresholds` with
``metric="expected_cost"``). Each rule's expected cost on test is the mean of the
per-row costs ``C[true, decided]``, which equals
:func:`polyroc.expected_cost` of its decisions, and the difference of two
rules is the mean of the per-row differences of their costs. A per-row cost
is a per-row loss, so both take the t interval of a mean and its t test,
:func:`~polyroc.intervals._posterior.mean_t_test`, the helper of
:func:`polyroc.evaluate`'s cost interval, of
:func:`polyroc.intervals.paired_loss_difference` and so of
:func:`polyroc.compare_rules` and :func:`polyroc.compare_scores`. At the
test's own class shares it takes the plain variance (all rows one stratum,
s^2 / n): the shares of a new sample vary too, and costs differ much between
classes, so the variance stratified by class, which holds the shares fixed,
covers the expected cost 91% of the time for 95% on 200 rows where the plain
one covers it 93.6% (see the tests).

At target priors pi' the cost is ``sum_i pi'_i sum_j C[i, j] R[i, j]``
(:func:`polyroc.expected_cost` with ``priors``): the same per-row means with
each row of class i weighted by ``pi'_i / W_i`` (W_i the weight of class i);
the priors are fixed, so there the variance is stratified by class. With
``"estimate"`` the priors are the EM estimate on each model's test scores
(:func:`polyroc.estimate_priors`, starting from the validation class shares,
the priors the scores are taken to be calibrated at), shown with their
bootstrap intervals; the cost intervals at estimated priors hold the priors
fixed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from polyroc._validation import encode_labels
from polyroc._validation._costs import check_cost_matrix, check_priors
from polyroc.decisions import PriorEstimate, bayes_decision, estimate_priors, expected_cost

if TYPE_CHECKING:
    from polyroc.report._inputs import ReportInputs

__all__ = [
    "ESTIMATE",
    "RULES",
    "DecisionAnalysis",
    "check_decision_inputs",
    "decision_analysis",
    "decisions_record",
]

#: ``target_priors`` asking for the EM estimate of the priors on each model's test scores.
ESTIMATE = "estimate"

#: The rules the section costs, in order; ``"tuned"`` only with validation scores.
RULES = ("argmax", "bayes", "tuned")

#: The difference of two rules that decide every row alike: known exactly.
IDENTICAL = "degenerate (zero width): the rules decide every row alike, so the difference is 0"

#: How the interval of a rule's expected cost (or of a difference of two rules) is made; a cost's interval
#: reaching below 0 is cut there (costs are non-negative).
COST_INTERVAL = "t interval of the mean per-row cost (plain variance)"

#: The same at target priors: the prior-weighted mean of the per-class means, its variance stratified by class.
PRIOR_COST_INTERVAL = "t interval of the prior-weighted mean per-row cost (stratified variance)"


def check_decision_inputs(
    cost_matrix: Any, target_priors: Any, classes: np.ndarray, has_validation: bool
) -> tuple[np.ndarray | None, np.ndarray | str | None]:
    """The checked cost matrix (m, m) in class order and the target priors (m,), ``"estimate"`` or None.

    Raises before any work: ``target_priors`` without ``cost_matrix``; a
    cost matrix or priors that :func:`polyroc.expected_cost` refuses;
    ``"estimate"`` without validation data (the EM estimate starts from the
    priors the scores are calibrated at, the validation class shares).
    """
    if cost_matrix is None:
        if target_priors is not None:
            raise ValueError("target_priors weighs the costs of decisions: give it with cost_matrix")
        return None, None
    costs = check_cost_matrix(cost_matrix, classes)
    if target_priors is None:
        return costs, None
    if isinstance(target_priors, str):
        if target_priors != ESTIMATE:
            raise ValueError(f"target_priors must be priors or {ESTIMATE!r}, got {target_priors!r}")
        if not has_validation:
            raise ValueError(
                "target_priors='estimate' needs validation data (y_val, val_scores): the EM estimate of the test "
                "priors starts from the priors the scores are calibrated at, the validation class shares"
            )
        return costs, ESTIMATE
    return costs, check_priors("target_priors", target_priors, classes)


@dataclass
class DecisionAnalysis:
    """One model's decisions under the cost matrix.

    ``decisions`` maps a rule to its decided classes on test; ``costs`` to
    its expected cost record (``estimate``, ``low``, ``high``, ``method``);
    ``differences`` holds the paired rows of each rule against argmax.
    ``thresholds`` are the tuned tau (None without validation).
    ``at_priors`` is None, or the priors (``source``, ``priors``, their
    :class:`~polyroc.decisions.PriorEstimate` when estimated) with the
    costs and differences at them.
    """

    decisions: dict[str, np.ndarray]
    costs: dict[str, dict[str, Any]]
    differences: list[dict[str, Any]]
    thresholds: np.ndarray | None = None
    at_priors: dict[str, Any] | None = None
    prior_estimate: PriorEstimate | None = field(default=None, repr=False)


def _interval(values, codes, m, weights, confidence, variance, method):
    """Mean of per-row values with the t interval and two-sided t test of :func:`mean_t_test` (a degenerate note)."""
    from polyroc.intervals._moments import ClassMoments
    from polyroc.intervals._posterior import mean_t_test

    moments = ClassMoments.of(values, codes, m, weights)
    mean, low, high, p_value = mean_t_test(moments, confidence=confidence, variance=variance)
    if not high > low:
        method += "; degenerate (zero width): the per-row values do not vary, so their spread cannot be estimated"
    return {"estimate": mean, "low": low, "high": high, "p_value": p_value, "method": method}


def _rule_costs(row_costs, codes, m, weights, confidence, decisions, variance="plain", method=COST_INTERVAL):
    """Each rule's cost record and its paired difference against argmax (identical decisions: exactly 0).

    ``codes`` and ``m`` are the classes, the strata of ``variance="stratified"``.
    """
    costs = {}
    for rule, values in row_costs.items():
        costs[rule] = _interval(values, codes, m, weights, confidence, variance, method)
        del costs[rule]["p_value"]  # a test of a zero cost means nothing; the differences keep theirs
        if costs[rule]["low"] < 0:  # a cost is >= 0: the t interval is cut at 0
            costs[rule]["low"] = 0.0
            costs[rule]["method"] += ", cut at 0"
    differences = []
    for rule in row_costs:
        if rule == "argmax":
            continue
        changed = int(np.sum(decisions[rule] != decisions["argmax"]))
        if changed == 0:
            row = {"estimate": 0.0, "low": 0.0, "high": 0.0, "p_value": 1.0, "method": IDENTICAL}
        else:
            row = _interval(row_costs[rule] - row_costs["argmax"], codes, m, weights, confidence, variance, method)
            row["method"] = f"paired {row['method']}"
        differences.append({"rule": rule, "baseline": "argmax", "changed_rows": changed, **row})
    return costs, differences


def _prior_weights(codes, m, weights, priors):
    """Row weights making the weighted mean the prior-weighted mean of the per-class means."""
    row = np.ones(codes.size) if weights is None else weights
    totals = np.bincount(codes, weights=row, minlength=m)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(totals > 0, priors / totals, 0.0)
    return row * scale[codes]


def _tuned_decisions(inputs: ReportInputs, name: str, costs: np.ndarray):
    """Thresholds tuned on validation for least expected cost, and the test decisions they make."""
    from polyroc.thresholds import tune_thresholds

    tuning = tune_thresholds(
        inputs.y_val,  # type: ignore[arg-type]
        inputs.validation[name],  # type: ignore[index]
        metric="expected_cost",
        cost_matrix=costs,
        labels=inputs.classes,
        sample_weight=inputs.val_sample_weight,
        random_state=inputs.random_state,
    )
    return tuning.best_threshold, tuning.predict(inputs.test[name])


def _target_priors(inputs: ReportInputs, name: str) -> tuple[np.ndarray, str, PriorEstimate | None]:
    """The priors to cost at, where they come from, and the EM estimate when estimated."""
    if not isinstance(inputs.target_priors, str):
        return inputs.target_priors, "given", None  # type: ignore[return-value]
    y_val, classes = inputs.y_val, inputs.classes
    weights = np.ones(y_val.size) if inputs.val_sample_weight is None else inputs.val_sample_weight  # type: ignore[union-attr]
    shares = np.array([weights[y_val == c].sum() for c in classes]) / weights.sum()
    estimate = estimate_priors(
        inputs.test[name],
        train_priors=np.maximum(shares, 1e-12) / np.maximum(shares, 1e-12).sum(),
        labels=classes,
        n_boot=inputs.n_boot,
        confidence=inputs.confidence,
        random_state=inputs.random_state,
    )
    return estimate.priors, "estimated by EM on the test scores", estimate


def decision_analysis(inputs: ReportInputs, name: str) -> DecisionAnalysis:
    """The decisions section of model ``name``: costs of argmax, Bayes and tuned rules, differences, priors."""
    costs, classes, y = inputs.cost_matrix, inputs.classes, inputs.y_test
    if costs is None:
        raise ValueError("the decisions section needs a cost matrix")
    scores, m, weights = inputs.test[name], classes.size, inputs.sample_weight
    codes = encode_labels(y, classes)
    decisions = {
        "argmax": classes[np.argmax(scores, axis=1)],
        "bayes": bayes_decision(scores, cost_matrix=costs, labels=classes),
    }
    thresholds = None
    if inputs.validation is not None:
        thresholds, decisions["tuned"] = _tuned_decisions(inputs, name, costs)
    row_costs = {rule: costs[codes, encode_labels(decided, classes)] for rule, decided in decisions.items()}
    rule_costs, differences = _rule_costs(row_costs, codes, m, weights, inputs.confidence, decisions)
    result = DecisionAnalysis(decisions, rule_costs, differences, thresholds)
    if inputs.target_priors is not None:
        priors, source, estimate = _target_priors(inputs, name)
        prior_weights = _prior_weights(codes, m, weights, priors)
        at_costs, at_differences = _rule_costs(
            row_costs, codes, m, prior_weights, inputs.confidence, decisions, "stratified", PRIOR_COST_INTERVAL
        )
        for rule, record in at_costs.items():  # the library's cost at the priors; the interval's mean is the same
            record["estimate"] = expected_cost(
                y, decisions[rule], cost_matrix=costs, labels=classes, priors=priors, sample_weight=weights
            )
            if estimate is not None:
                record["method"] += "; the estimated priors held fixed"
        result.at_priors = {"source": source, "priors": priors, "costs": at_costs, "differences": at_differences}
        result.prior_estimate = estimate
    return result


def decisions_record(analysis: DecisionAnalysis | None, classes: np.ndarray) -> dict[str, Any] | None:
    """The section as JSON-ready data (None when the section was not run)."""
    if analysis is None:
        return None
    names = [str(c) for c in classes.tolist()]
    record: dict[str, Any] = {
        "costs": analysis.costs,
        "differences": analysis.differences,
        "thresholds": None
        if analysis.thresholds is None
        else dict(zip(names, np.asarray(analysis.thresholds, dtype=float).tolist())),
        "decision_counts": {
            rule: {name: int(np.sum(decided == c)) for name, c in zip(names, classes.tolist())}
            for rule, decided in analysis.decisions.items()
        },
        "at_priors": None,
    }
    if analysis.at_priors is not None:
        at = analysis.at_priors
        estimate = analysis.prior_estimate
        intervals: Mapping[Any, Any] = {} if estimate is None else estimate.intervals
        record["at_priors"] = {
            "source": at["source"],
            "priors": dict(zip(names, np.asarray(at["priors"], dtype=float).tolist())),
            "prior_intervals": None
            if estimate is None
            else {
                name: {"low": intervals[c].low, "high": intervals[c].high, "method": intervals[c].method}
                for name, c in zip(names, classes.tolist())
                if c in intervals
            },
            "costs": at["costs"],
            "differences": at["differences"],
        }
    return record
