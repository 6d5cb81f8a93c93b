"""Omnibus tests of K models (polyroc.intervals._omnibus, ScoreComparison.omnibus) against independent oracles.

- Cochran's Q against statsmodels' ``cochrans_q`` (to 1e-10), against McNemar's ``(b - c)^2 / (b + c)`` counted
  by hand for two models, and its frequency weights against the rows repeated;
- DeLong's chi-squared test of equal AUCs against the same statistic built from DeLong, DeLong & Clarke-Pearson's
  (1988) explicit placement matrices (binary) or the pair-matrix oracle of ``test_delong`` (multiclass), with other
  contrasts; for two models against the paired test's p-value (to 1e-9);
- type-I error of both tests in a null simulation with three exchangeable models, and their power (slow).
"""

import json
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2

from polyroc.comparison import CochranQ, ScoreComparison, cochran_q, compare_scores
from polyroc.intervals._delong import auc_influences, stratified_covariance
from polyroc.intervals._omnibus import COCHRAN_Q, DELONG_OMNIBUS, cochran_statistic, contrast_chi2
from polyroc.probability import softmax
from tests._oracles.delong_pairs import oracle_covariance, oracle_statistics, psi_matrix, random_problem

AUCS = ["roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovr_micro", "roc_auc_ovo_macro", "roc_auc_ovo_weighted"]


def models_problem(n=200, m=3, strengths=(1.0, 1.0, 1.5), seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    shared = rng.normal(size=(n, m)) + np.eye(m)[y]
    scores = {
        f"model{k}": softmax(shared + s * np.eye(m)[y] + rng.normal(size=(n, m))) for k, s in enumerate(strengths)
    }
    return y, scores


# --------------------------------------------------------------------------- Cochran's Q


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(3, 60),
    k=st.integers(2, 6),
    seed=st.integers(0, 2**32 - 1),
)
def test_cochran_q_equals_statsmodels(n, k, seed):
    cochrans_q = pytest.importorskip("statsmodels.stats.contingency_tables").cochrans_q
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    predictions = {f"m{j}": np.where(rng.random(n) < rng.uniform(0.2, 0.9), y, (y + 1) % 3) for j in range(k)}
    hits = np.column_stack([p == y for p in predictions.values()]).astype(int)
    result = cochran_q(y, predictions)
    row_hits = hits.sum(axis=1)
    if np.all((row_hits == 0) | (row_hits == k)):  # no discordant row: statsmodels' 0/0
        assert (result.statistic, result.p_value) == (0.0, 1.0)
        return
    reference = cochrans_q(hits)
    assert result.statistic == pytest.approx(reference.statistic, rel=1e-10, abs=1e-10)
    assert result.p_value == pytest.approx(reference.pvalue, rel=1e-10, abs=1e-10)
    assert result.df == reference.df == k - 1


def test_two_models_give_mcnemars_chi_squared_without_continuity_correction():
    y = np.array(["a", "b", "c"] * 20)
    rng = np.random.default_rng(3)
    first = np.where(rng.random(60) < 0.8, y, "a")
    second = np.where(rng.random(60) < 0.6, y, "b")
    only_first = int(np.sum((first == y) & (second != y)))
    only_second = int(np.sum((second == y) & (first != y)))
    expected = (only_first - only_second) ** 2 / (only_first + only_second)
    result = cochran_q(y, {"first": first, "second": second})
    assert result.statistic == pytest.approx(expected, rel=1e-12)
    assert result.p_value == pytest.approx(chi2.sf(expected, 1), rel=1e-12)
    assert result.accuracies == {"first": np.mean(first == y), "second": np.mean(second == y)}


def test_frequency_weights_are_repeated_rows():
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 40)
    predictions = {
        name: np.where(rng.random(40) < p, y, (y + 2) % 3) for name, p in [("a", 0.5), ("b", 0.7), ("c", 0.6)]
    }
    weights = rng.integers(0, 5, 40)
    weights[0] = 3
    repeated = cochran_q(np.repeat(y, weights), {name: np.repeat(p, weights) for name, p in predictions.items()})
    weighted = cochran_q(y, predictions, sample_weight=weights.astype(float))
    assert weighted.statistic == pytest.approx(repeated.statistic, rel=1e-12)
    assert weighted.p_value == pytest.approx(repeated.p_value, rel=1e-12)
    assert weighted.accuracies == pytest.approx(repeated.accuracies, rel=1e-12)
    assert weighted.settings == {"n_samples": float(weights.sum()), "weighted": True}


def test_no_discordant_row_gives_q_zero_and_p_one():
    # every permutation of each row's hits leaves the columns equal: the exact permutation p-value is 1
    y = np.array([0, 1, 2, 0, 1])
    same = np.array([0, 1, 0, 0, 2])
    result = cochran_q(y, {"a": same, "b": same.copy(), "c": same.copy()})
    assert (result.statistic, result.df, result.p_value) == (0.0, 2, 1.0)


def test_cochran_q_is_a_result():
    result = cochran_q([0, 1, 1, 0], {"a": [0, 1, 1, 0], "b": [0, 1, 0, 1]})
    assert isinstance(result, CochranQ)
    document = result.to_dict()
    assert document["type"] == "CochranQ" and document["statistic"] == 2.0 and document["method"] == COCHRAN_Q
    json.dumps(document, allow_nan=False)
    assert result.to_frame().loc[0, "p_value"] == pytest.approx(chi2.sf(2.0, 1))
    assert "<td>2.0000</td>" in result._repr_html_()
    assert result.to_text(2).splitlines()[0] == "Cochran's Q test of equal accuracies: Q = 2.00, df 1, p = 0.16"


@pytest.mark.parametrize(
    ("y", "predictions", "weights", "error", "message"),
    [
        ([0, 1], [[0, 1], [1, 0]], None, TypeError, "predictions must be a mapping"),
        ([0, 1], {"a": [0, 1]}, None, ValueError, "at least 2 models"),
        ([0, 1], {"a": [0, 1], 3: [1, 0]}, None, TypeError, "model names must be strings"),
        ([0, 1], {"a": [0, 1], "b": [1, 0, 1]}, None, ValueError, "predictions\\['b'\\]"),
        ([0, 1], {"a": ["x", "y"], "b": [1, 0]}, None, TypeError, "mix string and numeric"),
        ([0, 1], {"a": [0, 1], "b": [1, 0]}, [1.0, 0.5], ValueError, "whole numbers"),
        ([0, 1], {"a": [0, 1], "b": [1, 0]}, [1.0, -1.0], ValueError, "non-negative"),
        ([0, 1], {"a": [0, 1], "b": [1, 0]}, [1.0], ValueError, "sample_weight must have shape"),
        ([0, None], {"a": [0, 1], "b": [1, 0]}, None, ValueError, "y_true"),
    ],
)
def test_cochran_q_refuses_bad_input_naming_it(y, predictions, weights, error, message):
    with pytest.raises(error, match=message):
        cochran_q(y, predictions, sample_weight=weights)


# --------------------------------------------------------------------------- DeLong's chi-squared


def classic_delong_covariance(y, columns):
    """AUCs of K binary score columns and their covariance S10 / n1 + S01 / n0 (DeLong et al. 1988, eq. 2-4)."""
    placements_10, placements_01, areas = [], [], []
    for score in columns:
        psi = psi_matrix(score[y == 1], score[y == 0])
        areas.append(psi.mean())
        placements_10.append(psi.mean(axis=1))
        placements_01.append(psi.mean(axis=0))
    s10, s01 = np.cov(np.array(placements_10)), np.cov(np.array(placements_01))
    return np.array(areas), s10 / np.sum(y == 1) + s01 / np.sum(y == 0)


def chi2_of_successive_differences(areas, covariance):
    """The contrast chi-squared with L = successive differences (another full-rank L than the library's)."""
    k = areas.size
    contrasts = np.eye(k)[:-1] - np.eye(k)[1:]
    difference = contrasts @ areas
    statistic = difference @ np.linalg.solve(contrasts @ covariance @ contrasts.T, difference)
    return statistic, chi2.sf(statistic, k - 1)


@pytest.mark.parametrize("k", [3, 4])
@pytest.mark.parametrize("seed", range(3))
def test_binary_chi_squared_is_delongs_with_the_placement_matrices(k, seed):
    rng = np.random.default_rng(seed)
    y = np.r_[np.zeros(25, int), np.ones(18, int)]
    columns = [np.round(rng.normal(size=y.size) + rng.uniform(0, 1.5) * y, 1) for _ in range(k)]  # with ties
    scores = {
        f"m{j}": np.column_stack((1 - (c - c.min()) / np.ptp(c), (c - c.min()) / np.ptp(c)))
        for j, c in enumerate(columns)
    }
    result = compare_scores(y, scores, quantities=["roc_auc_ovr_macro"])
    areas, covariance = classic_delong_covariance(y, [P[:, 1] for P in scores.values()])
    statistic, p_value = chi2_of_successive_differences(areas, covariance)
    row = result.omnibus_tests[0]
    assert row["statistic"] == pytest.approx(statistic, rel=1e-9)
    assert row["p_value"] == pytest.approx(p_value, rel=1e-8, abs=1e-14)
    assert (row["df"], row["test"]) == (k - 1, DELONG_OMNIBUS)


@pytest.mark.parametrize(
    ("m", "weighted", "seed"), [(m, w, s) for m in (3, 4) for w in (False, True) for s in range(2)]
)
def test_multiclass_chi_squared_from_the_pair_matrix_oracle(m, weighted, seed):
    rng = np.random.default_rng(seed)
    y, first, w = random_problem(rng, m, 40, weighted, 2)
    others = [first, np.round(rng.dirichlet(np.ones(m), 40), 2), np.round(rng.dirichlet(np.ones(m), 40), 2)]
    others = [S / S.sum(axis=1, keepdims=True) for S in others]
    names = ["a", "b", "c"]
    result = compare_scores(y, dict(zip(names, others)), quantities=AUCS, sample_weight=w, labels=np.arange(m))
    keys = [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"), ("ovo", "weighted")]
    for key, row in zip(keys, result.omnibus_tests):
        found = [oracle_statistics(y, S, w)[key] for S in others]
        areas = np.array([area for area, _ in found])
        covariance = oracle_covariance(np.vstack([influence for _, influence in found]), y, w)
        statistic, p_value = chi2_of_successive_differences(areas, covariance)
        assert row["statistic"] == pytest.approx(statistic, rel=1e-8), key
        assert row["p_value"] == pytest.approx(p_value, rel=1e-7, abs=1e-14), key


@pytest.mark.parametrize("quantity", AUCS)
@pytest.mark.parametrize("weighted", [False, True])
def test_two_models_give_exactly_the_paired_tests_p_value(quantity, weighted):
    # the paired test is a z test (normal quantile), so chi2_1 = z^2 gives the same p-value
    y, scores = models_problem(n=150, m=4, strengths=(0.8, 1.1), seed=5)
    w = np.random.default_rng(6).uniform(0, 2, y.size) if weighted else None
    result = compare_scores(y, scores, quantities=[quantity], sample_weight=w)
    (row,), (test,) = result.comparisons, result.omnibus_tests
    assert test["df"] == 1
    assert test["p_value"] == pytest.approx(row["p_value"], abs=1e-9)
    assert 1e-6 < test["p_value"] < 0.999  # a p-value that can be told apart


def test_two_identical_models_leave_the_test_of_the_third():
    # a and b move together exactly: the omnibus test is the paired test of a against c on df 1
    y, scores = models_problem(n=120, m=3, strengths=(1.0, 1.4), seed=7)
    a, c = scores["model0"], scores["model1"]
    three = compare_scores(y, {"a": a, "b": a.copy(), "c": c}, quantities=["roc_auc_ovr_macro"])
    pair = compare_scores(y, {"a": a, "c": c}, quantities=["roc_auc_ovr_macro"])
    assert three.omnibus_tests[0]["df"] == 1
    assert three.omnibus_tests[0]["p_value"] == pytest.approx(pair.comparisons[0]["p_value"], abs=1e-9)
    same = compare_scores(y, {"a": a, "b": a.copy()}, quantities=["roc_auc_ovr_macro"])
    assert [same.omnibus_tests[0][key] for key in ("statistic", "df", "p_value")] == [0.0, 0, 1.0]


def test_contrast_chi2_is_infinite_for_a_difference_without_variance():
    # two AUCs of 1 and 0.9 whose influences vanish: the paired test's z is infinite, p = 0
    assert contrast_chi2(np.array([1.0, 0.9]), np.zeros((2, 2))) == (float("inf"), 1.0, 0.0)
    statistic, df, p_value = contrast_chi2(np.array([0.7, np.nan]), np.eye(2))
    assert np.isnan(statistic) and np.isnan(p_value) and df == 1


def test_a_class_of_one_row_gives_nan_like_the_paired_test():
    y = np.r_[np.zeros(10, int), np.ones(10, int), 2]
    rng = np.random.default_rng(8)
    scores = {name: rng.dirichlet(np.ones(3), 21) for name in "abc"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = compare_scores(y, scores, quantities=["roc_auc_ovo_macro"])
    row = result.omnibus_tests[0]
    assert np.isnan(row["statistic"]) and np.isnan(row["p_value"]) and row["test"] == DELONG_OMNIBUS
    assert all(np.isnan(r["p_value"]) for r in result.comparisons)


# --------------------------------------------------------------------------- in compare_scores


def test_compare_scores_has_one_omnibus_row_per_quantity():
    y, scores = models_problem(n=240, seed=9)
    quantities = ["roc_auc_ovr_macro", "accuracy", "log_loss", "f1_macro", "ece_top_label"]
    result = compare_scores(y, scores, quantities=quantities, n_boot=20, random_state=0)
    frame = result.omnibus
    assert list(frame.columns) == ["quantity", "statistic", "df", "p_value", "test"]
    assert frame["quantity"].tolist() == quantities
    assert frame["test"].tolist()[:2] == [DELONG_OMNIBUS, COCHRAN_Q]
    assert frame[["statistic", "df", "p_value"]].iloc[2:].isna().all().all()
    assert frame["test"].str.startswith("no omnibus test").iloc[2:].all()
    predicted = {name: P.argmax(axis=1) for name, P in scores.items()}
    expected = cochran_q(y, predicted)
    assert frame.loc[1, "statistic"] == expected.statistic and frame.loc[1, "p_value"] == expected.p_value
    document = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert document["omnibus_tests"][2] == {
        "quantity": "log_loss",
        "statistic": None,
        "df": None,
        "p_value": None,
        "test": "no omnibus test of this quantity (pairwise tests only)",
    }
    text = result.to_text()
    assert text.startswith("Omnibus tests: are the 3 models equal on each quantity?")
    assert "Cochran's Q test of equal accuracies" in text
    assert "Omnibus tests (all models equal)" in result._repr_html_()


def test_weighted_accuracy_has_no_omnibus_test_and_says_why():
    y, scores = models_problem(n=90, seed=10)
    result = compare_scores(y, scores, quantities=["accuracy"], sample_weight=np.ones(90), n_boot=20, random_state=0)
    row = result.omnibus_tests[0]
    assert np.isnan(row["p_value"]) and "under sample weights" in row["test"]


def test_a_score_comparison_made_without_omnibus_tests_has_an_empty_frame():
    result = ScoreComparison(("a", "b"), None, {}, [], {"confidence": 0.95})
    assert result.omnibus.empty and list(result.omnibus.columns) == ["quantity", "statistic", "df", "p_value", "test"]


# --------------------------------------------------------------------------- type-I error and power


def exchangeable_problem(n, seed, better=None):
    """Three models: a shared signal plus each its own noise (sd 1, the third ``better`` if given)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    shared = rng.normal(size=(n, 3)) + np.eye(3)[y]
    noises = (1.0, 1.0, 1.0 if better is None else better)
    return y, [softmax(shared + s * rng.normal(size=(n, 3))) for s in noises]


def omnibus_p_values(y, matrices):
    """DeLong (OvR macro) and Cochran p-values from the kernels, as compare_scores computes them."""
    found = [auc_influences(y, P, None, [("ovr", "macro")])["ovr", "macro"] for P in matrices]
    covariance = stratified_covariance(np.vstack([d for _, d in found]), y, 3)
    _, _, p_delong = contrast_chi2(np.array([t for t, _ in found]), covariance)
    _, _, p_cochran = cochran_statistic(np.column_stack([P.argmax(axis=1) == y for P in matrices]))
    return p_delong, p_cochran


@pytest.mark.slow
def test_type_one_error_is_five_percent_and_one_better_model_is_found():
    datasets = 1000
    null = np.array([omnibus_p_values(*exchangeable_problem(300, (0, d))) for d in range(datasets)])
    rates = (null < 0.05).mean(axis=0)
    assert np.all(np.abs(rates - 0.05) <= 0.015), rates
    alternative = np.array([omnibus_p_values(*exchangeable_problem(300, (1, d), 0.5)) for d in range(200)])
    assert np.all((alternative < 0.05).mean(axis=0) > 0.3)
