"""The textbook's worked numbers (checklist section 2), exact fractions where exact."""

from fractions import Fraction

import numpy as np
import pytest

from polyroc import counts as pc
from polyroc import metrics as pm
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.probability import softmax
from tests.metrics.label_cases import O8, assert_close

O14 = np.array([[3, 1, 0, 0], [0, 2, 1, 0], [0, 0, 3, 1], [1, 0, 0, 3]])
O15 = np.array([[90, 5, 5], [10, 80, 10], [3, 7, 90]])


def labels_from_counts(counts, names=None):
    """y_true, y_pred with the given confusion counts (one sample per count)."""
    cells = np.argwhere(np.ones_like(counts, dtype=bool))
    y_true = np.repeat(cells[:, 0], counts.ravel())
    y_pred = np.repeat(cells[:, 1], counts.ravel())
    if names is not None:
        y_true, y_pred = np.asarray(names)[y_true], np.asarray(names)[y_pred]
    return y_true, y_pred


def exact(value, fraction):
    assert abs(value - float(fraction)) < 1e-15


def test_o3_cross_entropy_of_the_true_class():
    p = np.exp([2.0, 1.0, 0.1]) / np.exp([2.0, 1.0, 0.1]).sum()
    assert round(pm.log_loss([1], [p], labels=[0, 1, 2]), 6) == 1.417030


def test_o6_o7_batch_cross_entropy():
    good = [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.3, 0.5]]
    bad = [[0.1, 0.8, 0.1], [0.7, 0.2, 0.1], [0.5, 0.4, 0.1]]
    assert round(pm.log_loss([0, 1, 2], good), 6) == 0.340550
    assert round(pm.log_loss([0, 1, 2], bad), 6) == 2.071536
    assert_close(pm.log_loss([0, 1, 2], good), -np.log([0.9, 0.8, 0.5]).mean())


def test_o13_cross_entropy_and_clipping():
    assert round(pm.log_loss([2], [[0.1, 0.2, 0.6, 0.1]], labels=[0, 1, 2, 3]), 6) == 0.510826
    perfect = pm.log_loss([2], [[0.0, 0.0, 1.0, 0.0]], labels=[0, 1, 2, 3])
    assert perfect == -np.log(1 - np.finfo(np.float64).eps)  # clipped at the machine epsilon
    assert pm.log_loss([0], [[0.0, 1.0]], labels=[0, 1]) == -np.log(np.finfo(np.float64).eps)


def test_o8_per_class_counts_and_scores():
    y_true, y_pred = labels_from_counts(O8, ["Cat", "Dog", "Bird"])
    labels = ["Cat", "Dog", "Bird"]
    np.testing.assert_array_equal(pm.confusion_matrix(y_true, y_pred, labels=labels), O8)
    p, r, f, s = pm.precision_recall_fscore_support(y_true, y_pred, labels=labels)
    for value, fraction in zip(
        [*p, *r, *f],
        [
            Fraction(8, 11),
            Fraction(3, 4),
            Fraction(7, 8),
            Fraction(4, 5),
            Fraction(3, 4),
            Fraction(7, 9),
            Fraction(16, 21),
            Fraction(3, 4),
            Fraction(14, 17),
        ],
    ):
        exact(value, fraction)
    np.testing.assert_array_equal(s, [10, 8, 9])
    np.testing.assert_array_equal(pc.specificity(O8, average=None) * [17, 19, 18], [14, 17, 17])


def test_o8_averages():
    exact(pc.f1(O8, average="micro"), Fraction(21, 27))
    exact(pc.accuracy(O8), Fraction(21, 27))
    exact(pc.f1(O8), (Fraction(16, 21) + Fraction(3, 4) + Fraction(14, 17)) / 3)
    assert round(pc.f1(O8), 6) == 0.778478
    assert round(pc.f1(O8, average="weighted"), 6) == 0.778919
    assert round(pc.precision(O8), 6) == 0.784091
    assert round(pc.recall(O8), 6) == 0.775926
    assert round(pc.precision(O8, average="weighted"), 6) == 0.783249
    assert round(pc.recall(O8, average="weighted"), 6) == 0.777778


def test_o9_o10_kappa_and_mcc():
    exact(pc.cohen_kappa(O8), Fraction(107, 161))
    assert round(pc.matthews_corrcoef(O8), 6) == 0.665981
    assert round(pc.cohen_kappa(O8, weights="linear"), 6) == 0.673716
    assert round(pc.cohen_kappa(O8, weights="quadratic"), 6) == 0.682353
    y_true, y_pred = labels_from_counts(O8)
    exact(pm.cohen_kappa_score(y_true, y_pred), Fraction(107, 161))


def test_o14_fifteen_labels():
    y_true, y_pred = labels_from_counts(O14, list("ABCD"))
    for metric in (pm.precision_score, pm.recall_score, pm.f1_score):
        values = metric(y_true, y_pred, average=None)
        for value, fraction in zip(values, [Fraction(3, 4), Fraction(2, 3), Fraction(3, 4), Fraction(3, 4)]):
            exact(value, fraction)
    exact(pm.f1_score(y_true, y_pred, average="macro"), Fraction(35, 48))
    exact(pm.f1_score(y_true, y_pred, average="micro"), Fraction(11, 15))
    exact(pm.f1_score(y_true, y_pred, average="weighted"), Fraction(11, 15))
    exact(pm.cohen_kappa_score(y_true, y_pred), Fraction(9, 14))
    exact(pm.matthews_corrcoef(y_true, y_pred), Fraction(9, 14))


def test_o15_kappa_boundary():
    exact(pc.accuracy(O15), Fraction(260, 300))
    exact(pc.cohen_kappa(O15), Fraction(4, 5))
    assert round(pc.matthews_corrcoef(O15), 6) == 0.800654
    np.testing.assert_allclose(pc.f1(O15, average=None), [0.886700, 0.833333, 0.878049], atol=5e-7)
    assert round(pc.f1(O15), 6) == 0.866027


def test_o23_majority_class_of_three():
    counts = np.array([[90, 0, 0], [5, 0, 0], [5, 0, 0]])
    exact(pc.accuracy(counts), Fraction(9, 10))
    exact(pc.f1(counts), Fraction(6, 19))
    assert round(pc.f1(counts, average="weighted"), 6) == 0.852632
    assert pc.cohen_kappa(counts) == 0.0
    assert pc.matthews_corrcoef(counts) == 0.0


def test_o24_majority_class_of_two():
    counts = np.array([[95, 0], [5, 0]])
    exact(pc.accuracy(counts), Fraction(95, 100))
    assert pc.matthews_corrcoef(counts) == 0.0
    assert pc.cohen_kappa(counts) == 0.0


def test_o25_healthy_always():
    counts = np.array([[1000, 0, 0], [50, 0, 0], [10, 0, 0]])
    exact(pc.accuracy(counts), Fraction(1000, 1060))
    assert round(pc.f1(counts), 6) == 0.323625
    assert round(pc.f1(counts, average="weighted"), 6) == 0.915919
    exact(pc.balanced_accuracy(counts), Fraction(1, 3))
    assert pc.matthews_corrcoef(counts) == 0.0


def test_o29b_top_k():
    y = [0, 1, 2, 2]
    scores = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    assert pm.top_k_accuracy_score(y, scores, k=1) == 0.5
    assert pm.top_k_accuracy_score(y, scores, k=2) == 0.75
    with pytest.warns(UndefinedMetricWarning, match="perfect score"):
        assert pm.top_k_accuracy_score(y, scores, k=3) == 1.0


def test_brier_by_hand():
    # (0.8-1)^2 + 0.2^2 = 0.08 and 0.4^2 + (0.6-1)^2 = 0.32 (3rd column 0)
    assert_close(pm.brier_score_loss([0, 1], [[0.8, 0.2, 0.0], [0.4, 0.6, 0.0]], labels=[0, 1, 2]), 0.2)


def test_log_loss_of_softmax_logits_is_the_cross_entropy():
    logits = np.array([[2.0, 1.0, 0.1], [0.0, 1.0, 3.0]])
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    assert_close(pm.log_loss([0, 2], softmax(logits), labels=[0, 1, 2]), -np.log([p[0, 0], p[1, 2]]).mean())
