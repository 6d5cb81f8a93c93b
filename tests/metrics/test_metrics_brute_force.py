"""The one-vs-rest metrics scikit-learn lacks against a loop over samples building each class's 2x2 table."""

import numpy as np
import pytest
import sklearn.metrics as skm

from polyroc import counts as pc
from polyroc import metrics as pm
from tests._oracles.label_tables import (
    brute_heidke,
    brute_recall,
    brute_score,
    brute_specificity,
    brute_tables,
    brute_youden,
)
from tests.metrics.label_cases import AVERAGES, ZERO_DIVISIONS, assert_close, make_case, quietly


@pytest.mark.slow
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize(
    "ours, oracle",
    [
        (pm.specificity_score, brute_specificity),
        (pm.youden_score, brute_youden),
        (pm.heidke_skill_score, brute_heidke),
        (pm.recall_score, brute_recall),
    ],
    ids=["specificity", "youden", "heidke", "recall"],
)
def test_one_vs_rest_metrics_match_brute_force(case, ours, oracle, average, zero_division):
    y_true, y_pred, labels, w = case
    expected = brute_score(oracle, brute_tables(y_true, y_pred, labels, w), average, zero_division)
    actual = quietly(ours, y_true, y_pred, labels=labels, sample_weight=w, average=average, zero_division=zero_division)
    assert_close(actual, expected)


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
@pytest.mark.parametrize(
    "ours, oracle",
    [(pm.specificity_score, brute_specificity), (pm.youden_score, brute_youden), (pm.heidke_skill_score, brute_heidke)],
    ids=["specificity", "youden", "heidke"],
)
def test_one_vs_rest_extras_on_a_subset_of_labels_match_brute_force(ours, oracle, average):
    """``labels`` naming some classes: the others still count as negatives, as in precision_score."""
    y_true, y_pred, labels, w = make_case(11, weighted=True)
    subset = labels[:2]
    expected = brute_score(oracle, brute_tables(y_true, y_pred, subset, w), average, 0.0)
    assert_close(ours(y_true, y_pred, labels=subset, sample_weight=w, average=average, zero_division=0.0), expected)


@pytest.mark.parametrize(
    "ours, oracle",
    [(pm.specificity_score, brute_specificity), (pm.youden_score, brute_youden), (pm.heidke_skill_score, brute_heidke)],
    ids=["specificity", "youden", "heidke"],
)
def test_one_vs_rest_extras_score_pos_label_with_the_binary_average(ours, oracle):
    names = np.array(["healthy", "sick"])
    rng = np.random.default_rng(12)
    y_true, y_pred = names[rng.integers(0, 2, 30)], names[rng.integers(0, 2, 30)]
    for positive in names:
        expected = oracle(*brute_tables(y_true, y_pred, [positive], None)[0])
        assert_close(ours(y_true, y_pred, pos_label=positive, average="binary"), expected)
    with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
        ours([0, 1, 2], [0, 1, 1], average="binary")


def test_per_class_counts_of_labels_match_brute_force(case):
    y_true, y_pred, labels, w = case
    counts = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    tables = np.array(brute_tables(y_true, y_pred, labels, w))
    assert_close(pc.support(counts), tables[:, 0] + tables[:, 2])
    assert_close(
        pc.precision(counts, average=None, zero_division=np.nan),
        [t[0] / (t[0] + t[1]) if t[0] + t[1] else np.nan for t in tables],
    )


def test_heidke_of_two_classes_is_cohen_kappa():
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    assert_close(pm.heidke_skill_score(y_true, y_pred, average=None), [skm.cohen_kappa_score(y_true, y_pred)] * 2)
