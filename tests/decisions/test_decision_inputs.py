"""Bad inputs of the decisions: a ValueError or TypeError naming the argument, raised before any work."""

import numpy as np
import pandas as pd
import pytest

from polyroc.decisions import (
    _bayes,
    _costs,
    _priors,
    adjust_to_priors,
    bayes_decision,
    cost_of_counts,
    estimate_priors,
    expected_cost,
    reject_option_summary,
)

Y, D = [0, 1, 2, 1], [0, 2, 2, 1]
P = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
GOOD = 1 - np.eye(3)
FRAME = pd.DataFrame(GOOD, index=["a", "b", "c"], columns=["a", "b", "c"])

BAD_COSTS = [
    (np.ones((3, 2)), ValueError, r"cost_matrix must have shape \(3, 3\)"),
    (np.ones((2, 2)), ValueError, r"cost_matrix must have shape \(3, 3\)"),
    (np.where(np.eye(3) == 1, np.nan, 1.0), ValueError, "cost_matrix contains NaN"),
    (GOOD - 2 * np.eye(3), ValueError, "cost_matrix must be non-negative; entry \\(0, 0\\) is -2.0"),
    ([["x", "y", "z"]] * 3, TypeError, "cost_matrix must be numeric"),
]


@pytest.fixture
def no_work(monkeypatch):
    """Make every kernel fail: an error raised first is the check's."""

    def forbidden(*args, **kwargs):
        raise AssertionError("work started before the inputs were checked")

    for module, name in ((_costs, "confusion_counts"), (_costs, "counted_cost"), (_bayes, "bayes_codes")):
        monkeypatch.setattr(module, name, forbidden)
    for name in ("em_priors", "bbse_priors", "adjusted_scores", "confusion_counts"):
        monkeypatch.setattr(_priors, name, forbidden)


@pytest.mark.parametrize(("costs", "error", "match"), BAD_COSTS)
def test_a_bad_cost_matrix(no_work, costs, error, match):
    with pytest.raises(error, match=match):
        expected_cost(Y, D, cost_matrix=costs)
    with pytest.raises(error, match=match):
        bayes_decision(P, cost_matrix=costs)


@pytest.mark.parametrize(
    ("index", "match"),
    [
        (["a", "b", "d"], r"cost_matrix's index holds labels that are not the classes: \['d'\]"),
        (["a", "b", "b"], "names a class more than once"),
        ([0, 1, 2], r"cost_matrix's index holds labels that are not the classes: \[0, 1, 2\]"),
    ],
)
def test_a_cost_frame_labelled_by_other_labels(no_work, index, match):
    frame = pd.DataFrame(GOOD, index=index, columns=["a", "b", "c"])
    with pytest.raises(ValueError, match=match):
        expected_cost(["a", "b", "c"], ["a", "a", "c"], cost_matrix=frame)


def test_a_cost_frame_lacking_a_class(no_work):
    with pytest.raises(ValueError, match=r"cost_matrix's columns lacks the classes \['c'\]"):
        bayes_decision(P, cost_matrix=FRAME.iloc[:, :2], labels=["a", "b", "c"])


@pytest.mark.parametrize(
    ("priors", "match"),
    [
        ([0.5, 0.4, 0.0], "priors must be a distribution over the classes"),
        ([0.5, 0.7, -0.2], "priors must be a distribution over the classes"),
        ([0.5, np.nan, 0.5], "priors contains NaN"),
        ([0.5, 0.5], r"priors must have shape \(3,\)"),
        ({0: 0.5, 1: 0.5}, r"priors's keys lacks the classes \[2\]"),
        ({0: 0.5, 1: 0.25, 2: 0.25, 3: 0.0}, r"priors's keys holds labels that are not the classes: \[3\]"),
    ],
)
def test_priors_that_are_not_a_distribution_over_the_classes(no_work, priors, match):
    with pytest.raises(ValueError, match=match):
        expected_cost(Y, D, cost_matrix=GOOD, priors=priors)


def test_a_prior_for_a_class_without_rows():
    with pytest.raises(ValueError, match="priors gives class 2 a positive prior but y_true has no row"):
        expected_cost([0, 1, 1], [0, 1, 2], cost_matrix=GOOD, priors=[0.3, 0.3, 0.4])


def test_cost_of_counts_checks_its_counts_and_costs():
    with pytest.raises(ValueError, match="counts must be non-negative"):
        cost_of_counts([[1, -1], [0, 2]], GOOD[:2, :2])
    with pytest.raises(ValueError, match=r"cost_matrix must have shape \(2, 2\)"):
        cost_of_counts([[1, 1], [0, 2]], GOOD)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"reject_cost": -0.1}, ValueError, "reject_cost must be"),
        ({"reject_cost": np.nan}, ValueError, "reject_cost must be"),
        ({"reject_cost": "high"}, TypeError, "reject_cost must be"),
        ({"reject_cost": 0.2, "reject_label": 1}, ValueError, "reject_label must not be one of the classes"),
        ({"reject_cost": 0.2, "reject_label": "no"}, TypeError, "reject_label must be a number"),
        ({"labels": ["a", "b"]}, ValueError, "labels names 2 classes but y_proba has 3 columns"),
    ],
)
def test_bad_decision_options(no_work, kwargs, error, match):
    with pytest.raises(error, match=match):
        bayes_decision(P, cost_matrix=GOOD, **kwargs)


def test_a_summary_whose_reject_label_is_a_class():
    with pytest.raises(ValueError, match="reject_label must not be one of the classes"):
        reject_option_summary([0, 1], [0, 1], cost_matrix=GOOD[:2, :2], reject_cost=0.1, reject_label=1)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"train_priors": [0.5, 0.5, 0.0], "target_priors": [0.2, 0.3, 0.5]}, "train_priors must be positive"),
        ({"train_priors": [0.5, 0.6, 0.1], "target_priors": [0.2, 0.3, 0.5]}, "train_priors must be a distribution"),
        ({"train_priors": [0.2, 0.3, 0.5], "target_priors": [0.2, 0.3]}, r"target_priors must have shape \(3,\)"),
        ({"train_priors": [0.2, 0.3, 0.5], "target_priors": [0.0, 0.0, 1.0]}, "row 0 of y_score puts all"),
    ],
)
def test_bad_priors_to_adjust_to(no_work, kwargs, match):
    scores = np.array([[0.5, 0.5, 0.0], [0.2, 0.2, 0.6]])
    with pytest.raises(ValueError, match=match):
        adjust_to_priors(scores, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({}, "method='em' needs train_priors"),
        ({"train_priors": [0.3, 0.0, 0.7]}, "train_priors must be positive for every class; class 1 has prior 0"),
        ({"train_priors": {0: 0.5, 1: 0.5}}, r"train_priors's keys lacks the classes \[2\]"),
        ({"train_priors": [1 / 3] * 3, "y_val": Y, "val_scores": P}, "taken by method='bbse' only"),
        ({"method": "bbse", "train_priors": [1 / 3] * 3}, "train_priors is taken by method='em' only"),
        ({"method": "bbse", "y_val": Y}, "method='bbse' needs y_val and val_scores"),
        ({"method": "bbse", "y_val": Y, "val_scores": P[:3]}, "inconsistent numbers of samples"),
        ({"method": "mle", "train_priors": [1 / 3] * 3}, "method must be one of"),
        ({"train_priors": [1 / 3] * 3, "n_boot": 0}, "n_boot must be"),
        ({"train_priors": [1 / 3] * 3, "confidence": 1.0}, "confidence must be"),
    ],
)
def test_bad_inputs_of_estimate_priors(no_work, kwargs, match):
    with pytest.raises(ValueError, match=match):
        estimate_priors(P, **kwargs)


def test_a_singular_validation_confusion_matrix():
    y_val = np.array([0, 1, 2, 0, 1, 2])
    never_two = np.tile([[0.6, 0.3, 0.1], [0.3, 0.6, 0.1]], (3, 1))
    with pytest.raises(ValueError, match="val_scores: the confusion matrix of the argmax decisions"):
        estimate_priors(P, method="bbse", y_val=y_val, val_scores=never_two)
