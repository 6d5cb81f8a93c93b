"""polyroc.metrics against scikit-learn.metrics to 1e-12, on random label cases."""

import numpy as np
import pytest
import sklearn.metrics as skm

from polyroc import metrics as pm
from tests._oracles.label_tables import brute_top_k
from tests.metrics.label_cases import AVERAGES, ZERO_DIVISIONS, assert_close, make_case, quietly, random_probabilities


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_confusion_matrix_matches_sklearn(case, normalize):
    y_true, y_pred, labels, w = case
    ours = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w, normalize=normalize)
    assert_close(ours, skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w, normalize=normalize))


def test_accuracy_matches_sklearn(case):
    y_true, y_pred, _, w = case
    assert_close(
        pm.accuracy_score(y_true, y_pred, sample_weight=w),
        skm.accuracy_score(y_true, y_pred, sample_weight=w),
    )


@pytest.mark.slow
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize(
    "ours, theirs, extra",
    [
        (pm.precision_score, skm.precision_score, {}),
        (pm.recall_score, skm.recall_score, {}),
        (pm.f1_score, skm.f1_score, {}),
        (pm.fbeta_score, skm.fbeta_score, {"beta": 0.5}),
        (pm.fbeta_score, skm.fbeta_score, {"beta": 2.0}),
        (pm.fbeta_score, skm.fbeta_score, {"beta": 0.0}),
    ],
    ids=["precision", "recall", "f1", "f0.5", "f2", "f0"],
)
def test_precision_recall_f_match_sklearn(case, ours, theirs, extra, average, zero_division):
    y_true, y_pred, labels, w = case
    options = dict(labels=labels, sample_weight=w, average=average, zero_division=zero_division, **extra)
    assert_close(quietly(ours, y_true, y_pred, **options), quietly(theirs, y_true, y_pred, **options))


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_precision_recall_fscore_support_matches_sklearn(case, average, zero_division):
    y_true, y_pred, labels, w = case
    options = {"labels": labels, "sample_weight": w, "average": average, "zero_division": zero_division, "beta": 1.5}
    ours = quietly(pm.precision_recall_fscore_support, y_true, y_pred, **options)
    theirs = quietly(skm.precision_recall_fscore_support, y_true, y_pred, **options)
    for a, b in zip(ours[:3], theirs[:3]):
        assert_close(a, b)
    if average is None:
        assert_close(ours[3], theirs[3])
    else:
        assert ours[3] is None and theirs[3] is None


@pytest.mark.parametrize("adjusted", [False, True])
def test_balanced_accuracy_matches_sklearn(case, adjusted):
    y_true, y_pred, _, w = case  # scikit-learn takes no labels: both use the union
    assert_close(
        quietly(pm.balanced_accuracy_score, y_true, y_pred, sample_weight=w, adjusted=adjusted),
        quietly(skm.balanced_accuracy_score, y_true, y_pred, sample_weight=w, adjusted=adjusted),
    )


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_matches_sklearn(case, weights):
    y_true, y_pred, labels, w = case
    options = {"labels": labels, "sample_weight": w, "weights": weights}
    assert_close(pm.cohen_kappa_score(y_true, y_pred, **options), skm.cohen_kappa_score(y_true, y_pred, **options))


def test_matthews_corrcoef_matches_sklearn(case):
    y_true, y_pred, _, w = case
    assert_close(
        pm.matthews_corrcoef(y_true, y_pred, sample_weight=w),
        skm.matthews_corrcoef(y_true, y_pred, sample_weight=w),
    )


@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_classification_report_dict_matches_sklearn(case, zero_division):
    y_true, y_pred, labels, w = case
    options = {"labels": labels, "sample_weight": w, "output_dict": True, "zero_division": zero_division}
    ours = quietly(pm.classification_report, y_true, y_pred, **options)
    theirs = quietly(skm.classification_report, y_true, y_pred, **options)
    assert list(ours) == list(theirs)
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert list(ours[key]) == list(value)
            assert_close(list(ours[key].values()), list(value.values()))
        else:
            assert_close(ours[key], value)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("digits", [0, 2, 4])
@pytest.mark.parametrize("strings", [False, True])
@pytest.mark.parametrize("absent", [None, "pred", "neither"])
def test_classification_report_text_matches_sklearn(seed, digits, strings, absent):
    y_true, y_pred, labels, _ = make_case(seed, strings=strings, absent=absent)
    # integer weights keep every count exact, so the text is identical digit for digit
    weights = np.random.default_rng(seed).integers(1, 4, len(y_true)) if seed % 2 else None
    options = {"labels": labels, "sample_weight": weights, "digits": digits, "zero_division": 0.0}
    assert pm.classification_report(y_true, y_pred, **options) == skm.classification_report(y_true, y_pred, **options)


def test_classification_report_target_names_match_sklearn():
    y_true, y_pred, labels, _ = make_case(7)
    names = [f"a much longer class name {k}" for k in range(len(labels))]
    options = {"labels": labels, "target_names": names, "zero_division": 1.0}
    assert pm.classification_report(y_true, y_pred, **options) == skm.classification_report(y_true, y_pred, **options)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("strings", [False, True])
def test_log_loss_and_brier_match_sklearn(seed, weighted, strings):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(2, 6)), int(rng.integers(10, 60))
    y = rng.integers(0, m - 1, n)  # the last class never occurs: labels are needed
    y[:2] = 0
    labels = np.arange(m)
    if strings:
        labels = np.array([f"k{k}" for k in range(m)])
        y = labels[y]
    scores = random_probabilities(rng, n, m)
    w = rng.uniform(0, 2, n) if weighted else None
    assert_close(
        pm.log_loss(y, scores, labels=labels, sample_weight=w),
        skm.log_loss(y, scores, labels=labels, sample_weight=w),
    )
    assert_close(
        pm.brier_score_loss(y, scores, labels=labels, sample_weight=w),
        skm.brier_score_loss(y, scores, labels=labels, sample_weight=w),
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_top_k_accuracy_matches_sklearn_with_ties(seed, weighted):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(2, 7)), int(rng.integers(10, 80))
    y = rng.integers(0, m, n)
    scores = rng.integers(0, 4, (n, m)) / 4.0  # many ties
    w = rng.uniform(0, 2, n) if weighted else None
    labels = np.arange(m)
    for k in range(1, m):
        ours = pm.top_k_accuracy_score(y, scores, k=k, labels=labels, sample_weight=w)
        assert_close(ours, brute_top_k(y, scores, k, w))
        if m > 2:  # scikit-learn's binary path wants one score column
            assert_close(ours, skm.top_k_accuracy_score(y, scores, k=k, labels=labels, sample_weight=w))
