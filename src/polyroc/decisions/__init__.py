"""Decisions from scores: expected cost, Bayes decisions with a reject option, and prior shift.

:func:`expected_cost` is the mean cost of decisions under a cost matrix
(rows the true classes, columns the decisions), or its value at other class
priors; :func:`cost_of_counts` computes it from confusion counts of any
leading shape, like the metrics of :mod:`polyroc.counts`.
:func:`bayes_decision` takes the decision of least expected cost for each
row of calibrated probabilities, and may reject rows whose least expected
cost exceeds a cost of abstaining (Chow, 1970);
:func:`reject_option_summary` gives the coverage, selective risk and total
cost of such decisions. Under prior shift, :func:`estimate_priors`
estimates the class priors of unlabelled deployment data (EM or BBSE, with
bootstrap intervals: a :class:`PriorEstimate`) and :func:`adjust_to_priors`
adjusts the probabilities to them. :class:`CostSensitiveClassifier` is a
scikit-learn meta-estimator that predicts the Bayes decisions of a fitted
classifier's (optionally recalibrated) probabilities.
"""

from __future__ import annotations

from polyroc.decisions._bayes import RejectOptionSummary, bayes_decision, reject_option_summary
from polyroc.decisions._costs import cost_of_counts, expected_cost
from polyroc.decisions._estimator import CostSensitiveClassifier
from polyroc.decisions._priors import PriorEstimate, adjust_to_priors, estimate_priors

__all__ = [
    "CostSensitiveClassifier",
    "PriorEstimate",
    "RejectOptionSummary",
    "adjust_to_priors",
    "bayes_decision",
    "cost_of_counts",
    "estimate_priors",
    "expected_cost",
    "reject_option_summary",
]
