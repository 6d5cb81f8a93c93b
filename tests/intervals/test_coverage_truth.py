"""The true values of the coverage study (benchmarks/_truth.py) against independent oracles.

Exact fractions where a closed form exists, Monte Carlo pairs for A(i|j),
polyroc's point estimates on one very large simulated data set for the AUCs,
and scikit-learn's metrics of a huge simulated confusion matrix for the
argmax-rule quantities and the losses. Every tolerance is a few standard
errors of the Monte Carlo or sampling error of the comparison.
"""

import importlib
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from sklearn import metrics as skm

from polyroc.metrics import roc_auc_score

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
truth = importlib.import_module("_truth")

#: An asymmetric model: every A(i|j), every component and every class weight differs.
ALPHAS = np.array([[4.0, 1.5, 1.0], [1.0, 2.5, 2.0], [1.5, 1.0, 3.0]])


def test_beta_exceedance_equals_closed_forms():
    # X ~ Beta(a, 1), Y ~ Beta(b, 1): F_Y(x) = x**b, so P(X > Y) = E[X**b] = a / (a + b)
    for a, b in [(1, 1), (2, 1), (3, 2), (1, 4)]:
        assert truth.beta_exceedance(a, 1, b, 1) == pytest.approx(float(Fraction(a, a + b)), abs=1e-12)
    # the own and other components of Dirichlet(3, 1, 1): Beta(3, 2) against Beta(1, 4) gives 13/14
    assert truth.beta_exceedance(3, 2, 1, 4) == pytest.approx(13 / 14, abs=1e-12)


def test_pairwise_aucs_match_monte_carlo_pairs():
    draws = 10**6
    rng = np.random.default_rng(20240501)
    rows = []
    for alpha in ALPHAS:
        gammas = rng.standard_gamma(alpha, size=(draws, 3))
        rows.append(gammas / gammas.sum(axis=1, keepdims=True))
    table = truth.pairwise_aucs(ALPHAS)
    assert np.isnan(np.diag(table)).all()
    for i in range(3):
        for j in range(3):
            if i != j:
                estimate = np.mean(rows[i][:, i] > rows[j][:, i])  # independent pairs: a binomial proportion
                error = np.sqrt(estimate * (1 - estimate) / draws)
                assert abs(table[i, j] - estimate) < 4.5 * error


def _simulate(counts, seed):
    return truth.simulate(ALPHAS, np.asarray(counts), np.random.default_rng(seed))


def _auc_tolerance(auc, n_positive, n_negative):
    """Five standard errors of an AUC by Hanley & McNeil's variance (1982, doi:10.1148/radiology.143.1.7063747)."""
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    variance = auc * (1 - auc) + (n_positive - 1) * (q1 - auc**2) + (n_negative - 1) * (q2 - auc**2)
    return 5 * np.sqrt(variance / (n_positive * n_negative))


def test_auc_truths_match_estimates_on_a_large_sample():
    counts = truth.geometric_counts(200_000, 3, 5.0)
    y, P = _simulate(counts, seed=7)
    expected = truth.auc_truths(ALPHAS, counts)
    n, smallest = counts.sum(), counts.min()
    per_class = roc_auc_score(y, P, multi_class="ovr", average=None)
    for k in range(3):
        tolerance = _auc_tolerance(expected["ovr_per_class"][k], counts[k], n - counts[k])
        assert abs(per_class[k] - expected["ovr_per_class"][k]) < tolerance
    estimates = {
        "roc_auc_ovr_macro": roc_auc_score(y, P, multi_class="ovr", average="macro"),
        "roc_auc_ovr_weighted": roc_auc_score(y, P, multi_class="ovr", average="weighted"),
        "roc_auc_ovo_macro": roc_auc_score(y, P, multi_class="ovo", average="macro"),
    }
    for name, estimate in estimates.items():  # an average's error is at most its worst class's
        assert abs(estimate - expected[name]) < _auc_tolerance(expected[name], smallest, n - smallest), name
    micro = roc_auc_score(y, P, multi_class="ovr", average="micro")
    assert abs(micro - expected["roc_auc_ovr_micro"]) < _auc_tolerance(expected["roc_auc_ovr_micro"], n, 2 * n)


def test_averages_weight_the_classes_by_their_counts():
    counts = np.array([50, 30, 20])
    table = truth.pairwise_aucs(ALPHAS)
    expected = truth.auc_truths(ALPHAS, counts)
    ovr_0 = (30 * table[0, 1] + 20 * table[0, 2]) / 50
    assert expected["ovr_per_class"][0] == pytest.approx(ovr_0, abs=1e-12)
    assert expected["roc_auc_ovr_weighted"] == pytest.approx(np.dot(counts, expected["ovr_per_class"]) / 100)
    pairs = [(table[i, j] + table[j, i]) / 2 for i, j in [(0, 1), (0, 2), (1, 2)]]
    assert expected["roc_auc_ovo_macro"] == pytest.approx(np.mean(pairs), abs=1e-12)


@pytest.fixture(scope="module")
def huge_sample_and_truths():
    """Truths from 4 * 10^5 Monte Carlo rows per class, and an independent sample of 10^6 rows."""
    counts = np.array([50, 30, 20])
    draws = 400_000
    moments = truth.rule_moments(ALPHAS, draws, seed=11)
    y, P = _simulate(counts * 10_000, seed=12)
    return counts, draws, truth.scenario_truths(ALPHAS, counts, moments), y, P


def test_counts_truths_match_a_huge_confusion_matrix(huge_sample_and_truths):
    counts, draws, expected, y, P = huge_sample_and_truths
    predicted = P.argmax(axis=1)
    observed = {
        "accuracy": skm.accuracy_score(y, predicted),
        "balanced_accuracy": skm.balanced_accuracy_score(y, predicted),
        "f1_macro": skm.f1_score(y, predicted, average="macro"),
        "cohen_kappa": skm.cohen_kappa_score(y, predicted),
        "matthews_corrcoef": skm.matthews_corrcoef(y, predicted),
    }
    per_class = dict(zip(("precision", "recall", "f1-score"), skm.precision_recall_fscore_support(y, predicted)[:3]))
    # Each metric is a ratio of proportions with derivatives below 3; a proportion's standard error is at most
    # 0.5 / sqrt(rows) in the simulated sample (its smallest class) and in the Monte Carlo truth (draws per class).
    error = 0.5 * np.sqrt(1 / (10_000 * counts.min()) + 1 / draws)
    for name, value in observed.items():
        assert abs(expected["scores"][name] - value) < 3 * 4 * error, name
    for name, values in per_class.items():
        np.testing.assert_allclose(expected["classes"][name], values, rtol=0, atol=3 * 4 * error, err_msg=name)


def test_counts_truths_are_the_metrics_of_the_expected_counts():
    # scikit-learn on one sample per cell (true c, predicted k), weighted by the expected count n_c * pi[c, k]
    counts = np.array([50, 30, 20])
    pi = np.array([[0.7, 0.2, 0.1], [0.25, 0.5, 0.25], [0.1, 0.6, 0.3]])
    expected = truth.counts_truths(pi, counts)
    y_true, y_pred = np.repeat(np.arange(3), 3), np.tile(np.arange(3), 3)
    weights = (counts[:, None] * pi).ravel()
    options = {"sample_weight": weights}
    assert expected["accuracy"] == pytest.approx(skm.accuracy_score(y_true, y_pred, **options), abs=1e-12)
    assert expected["balanced_accuracy"] == pytest.approx(skm.balanced_accuracy_score(y_true, y_pred, **options))
    assert expected["f1_macro"] == pytest.approx(skm.f1_score(y_true, y_pred, average="macro", **options))
    assert expected["cohen_kappa"] == pytest.approx(skm.cohen_kappa_score(y_true, y_pred, **options))
    assert expected["matthews_corrcoef"] == pytest.approx(skm.matthews_corrcoef(y_true, y_pred, **options))
    precision, recall, f1, _ = skm.precision_recall_fscore_support(y_true, y_pred, **options)
    np.testing.assert_allclose(expected["precision"], precision, rtol=1e-12)
    np.testing.assert_allclose(expected["recall"], recall, rtol=1e-12)
    np.testing.assert_allclose(expected["f1-score"], f1, rtol=1e-12)


def test_argmax_distribution_matches_a_huge_sample(huge_sample_and_truths):
    _, draws, _, y, P = huge_sample_and_truths
    moments = truth.rule_moments(ALPHAS, draws, seed=11)  # the fixture's truths, recomputed: same seed, same draws
    predicted = P.argmax(axis=1)
    for c in range(3):
        observed = np.bincount(predicted[y == c], minlength=3) / (y == c).sum()
        error = np.sqrt(observed * (1 - observed) * (1 / (y == c).sum() + 1 / draws))
        assert np.all(np.abs(moments[c]["pi"] - observed) < 4.5 * error)


def test_loss_truths_match_a_huge_sample(huge_sample_and_truths):
    _, _, expected, y, P = huge_sample_and_truths
    log_losses = -np.log(np.clip(P[np.arange(y.size), y], truth.EPS, 1 - truth.EPS))
    brier_losses = ((P - np.eye(3)[y]) ** 2).sum(axis=1)
    top_2 = skm.top_k_accuracy_score(y, P, k=2)
    observed = {  # name -> (sample mean, standard deviation of a row, Monte Carlo error of the truth)
        "log_loss": (skm.log_loss(y, P), log_losses.std(), expected["monte_carlo_se"]["log_loss"]),
        "brier_score": (brier_losses.mean(), brier_losses.std(), expected["monte_carlo_se"]["brier"]),
        "top_2_accuracy": (top_2, np.sqrt(top_2 * (1 - top_2)), expected["monte_carlo_se"]["top_2"]),
    }
    assert observed["log_loss"][0] == pytest.approx(log_losses.mean(), rel=1e-12)
    for name, (mean, spread, truth_error) in observed.items():
        error = np.hypot(spread / np.sqrt(y.size), truth_error)
        assert abs(expected["scores"][name] - mean) < 5 * error, name


def test_scenario_counts_keep_their_promises():
    for n in (60, 300, 3000):
        for m in (3, 10):
            balanced = truth.class_counts(n, m, "balanced")
            imbalanced = truth.class_counts(n, m, "imbalanced")
            assert balanced.sum() == imbalanced.sum() == n
            assert balanced.max() - balanced.min() <= 1
            assert imbalanced.min() >= 5 and np.all(np.diff(imbalanced) <= 0)
    # where the 5-row floor does not bind, the ratio is 20:1 up to rounding
    counts = truth.class_counts(3000, 3, "imbalanced")
    assert counts.max() / counts.min() == pytest.approx(20, rel=0.02)
    with pytest.raises(ValueError, match="cannot give"):
        truth.imbalanced_counts(40, 10)
