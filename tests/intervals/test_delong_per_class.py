"""Per-class DeLong intervals and paired per-class tests against pROC (R), scikit-learn, statsmodels and pair matrices.

pROC's figures are those of ``tests/_oracles/proc_class_figures.py`` (the R
script is in its docstring): two models' tied scores on scikit-learn's wine
data, each class against the rest.
"""

from fractions import Fraction

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import t as student_t
from sklearn.metrics import roc_auc_score

from polyroc.comparison import compare_scores
from polyroc.exceptions import IntervalWarning
from polyroc.intervals import roc_auc_interval
from tests._oracles.proc_class_figures import PROC_CLASS_FIGURES, wine_scores


def test_per_class_standard_errors_are_procs_on_tied_wine_scores():
    y, models = wine_scores()
    for model, suffix in (("A", "a"), ("B", "b")):
        per_class = roc_auc_interval(y, models[model], average=None)
        assert list(per_class) == [0, 1, 2]
        for k, figures in enumerate(PROC_CLASS_FIGURES):
            interval = per_class[k]
            assert interval.estimate == pytest.approx(figures[f"auc_{suffix}"], abs=1e-12)
            assert interval.settings["standard_error"] == pytest.approx(np.sqrt(figures[f"var_{suffix}"]), abs=1e-9)
            assert interval.settings["standard_error"] ** 2 == pytest.approx(figures[f"var_{suffix}"], rel=1e-10)
            assert interval.method == "DeLong (logit)"
            # the logit interval of pROC's variance with the t quantile of the recorded degrees of freedom
            quantile = student_t.ppf(0.975, interval.settings["df"])
            half = quantile * np.sqrt(figures[f"var_{suffix}"]) / (interval.estimate * (1 - interval.estimate))
            assert interval.low == pytest.approx(expit(logit(interval.estimate) - half), rel=1e-9)
            assert interval.high == pytest.approx(expit(logit(interval.estimate) + half), rel=1e-9)


def test_per_class_paired_tests_are_procs_roc_test_on_tied_wine_scores():
    y, models = wine_scores()
    result = compare_scores(y, models, quantities=["roc_auc_per_class"])
    rows = result.comparisons
    assert [row["class"] for row in rows] == [0, 1, 2]
    for row, figures in zip(rows, PROC_CLASS_FIGURES):
        assert (row["quantity"], row["model"], row["other"]) == ("roc_auc_per_class", "A", "B")
        assert row["difference"] == pytest.approx(figures["auc_a"] - figures["auc_b"], abs=1e-12)
        assert row["p_value"] == pytest.approx(figures["p"], abs=1e-6)
        assert row["p_value"] == pytest.approx(figures["p"], rel=1e-9)
        assert row["method"].startswith("DeLong paired test")
        assert row["low"] < row["difference"] < row["high"]
    for k, figures in enumerate(PROC_CLASS_FIGURES):
        assert result.estimates[f"roc_auc_per_class[{k}]"] == pytest.approx(
            {"A": figures["auc_a"], "B": figures["auc_b"]}, abs=1e-12
        )


def holm_by_rejection(p_values):
    """Each hypothesis's smallest level at which Holm's step-down procedure rejects it (brute force over levels)."""
    k = len(p_values)
    levels = sorted({min(1.0, (k - j) * p) for j, p in enumerate(sorted(p_values))} | {1.0})

    def rejected(level):
        out = set()
        for j, index in enumerate(np.argsort(p_values, kind="stable")):
            if p_values[index] > level / (k - j):
                break
            out.add(index)
        return out

    return [next(level for level in levels if i in rejected(level + 1e-15)) for i in range(k)]


def test_holm_runs_over_every_class_and_pair():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1, 2, 3], 40)
    models = {
        name: np.round(rng.dirichlet(np.ones(4), y.size) + strength * np.eye(4)[y], 1)
        for name, strength in (("a", 0.2), ("b", 0.5), ("c", 0.8))
    }
    models = {name: matrix / matrix.sum(axis=1, keepdims=True) for name, matrix in models.items()}
    result = compare_scores(y, models, quantities=["roc_auc_per_class", "roc_auc_ovr_macro"])
    rows = [row for row in result.comparisons if row["quantity"] == "roc_auc_per_class"]
    assert len(rows) == 4 * 3  # classes x pairs
    expected = holm_by_rejection([row["p_value"] for row in rows])
    np.testing.assert_allclose([row["p_holm"] for row in rows], expected, rtol=1e-12)
    (macro,) = [row for row in result.comparisons if row["quantity"] == "roc_auc_ovr_macro"][:1]
    assert "class" not in macro
    frame = result.to_frame()
    assert list(frame["quantity"]).count("roc_auc_per_class") == 12
    html = result._repr_html_()
    assert "roc_auc_per_class (class 3)" in html


def test_per_class_estimates_are_scikit_learns():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 300)
    P = np.round(rng.dirichlet(np.ones(3), 300) + 0.4 * np.eye(3)[y], 2)
    P /= P.sum(axis=1, keepdims=True)
    weights = rng.integers(1, 4, 300).astype(float)
    for sample_weight in (None, weights):
        per_class = roc_auc_interval(y, P, average=None, sample_weight=sample_weight)
        for k in range(3):
            expected = roc_auc_score(y == k, P[:, k], sample_weight=sample_weight)
            assert per_class[k].estimate == pytest.approx(expected, abs=1e-12)


def exact_binary_variance(positive, negative):
    """DeLong's S10 / n1 + S01 / n0 of one class against the rest, from the pair matrix in exact fractions."""
    n1, n0 = len(positive), len(negative)
    psi = [[Fraction(int(a > b) * 2 + int(a == b), 2) for b in negative] for a in positive]
    area = sum(map(sum, psi)) / (n1 * n0)
    v10 = [sum(row) / n0 for row in psi]
    v01 = [sum(psi[i][j] for i in range(n1)) / n1 for j in range(n0)]
    s10 = sum((v - area) ** 2 for v in v10) / (n1 - 1)
    s01 = sum((v - area) ** 2 for v in v01) / (n0 - 1)
    return area, s10 / n1 + s01 / n0


@pytest.mark.parametrize("seed", range(4))
def test_per_class_variance_is_the_exact_one_vs_rest_delong_variance(seed):
    rng = np.random.default_rng(seed)
    m = 3 + seed % 2
    y = np.concatenate([np.repeat(np.arange(m), 3), rng.integers(0, m, 20)])
    tenths = rng.integers(0, 6, (y.size, m))  # many ties; rows in tenths
    P = tenths / tenths.sum(axis=1, keepdims=True).clip(1)
    P[tenths.sum(axis=1) == 0] = 1 / m
    per_class = roc_auc_interval(y, P, average=None)
    for k in range(m):
        column = [Fraction(float(v)) for v in P[:, k]]
        positive = [v for v, label in zip(column, y) if label == k]
        negative = [v for v, label in zip(column, y) if label != k]
        area, variance = exact_binary_variance(positive, negative)
        assert per_class[k].estimate == pytest.approx(float(area), abs=1e-14)
        assert per_class[k].settings["standard_error"] ** 2 == pytest.approx(float(variance), rel=1e-11)


def test_averaged_intervals_record_their_standard_error_and_degrees_of_freedom():
    y, models = wine_scores()
    for multi_class, average in (("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro")):
        interval = roc_auc_interval(y, models["A"], multi_class=multi_class, average=average)
        se, df = interval.settings["standard_error"], interval.settings["df"]
        assert se > 0 and df > 1
        half = student_t.ppf(0.975, df) * se / (interval.estimate * (1 - interval.estimate))
        assert interval.low == pytest.approx(expit(logit(interval.estimate) - half), rel=1e-12)


def test_a_perfect_class_takes_the_exact_bound_and_others_their_logit_interval():
    y = np.repeat([0, 1, 2], 6)
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(3), y.size)
    P[:, 0] = np.where(y == 0, 0.8, 0.0) + 0.1 * rng.random(y.size)  # class 0 perfectly separated
    P /= P.sum(axis=1, keepdims=True)
    per_class = roc_auc_interval(y, P, average=None)
    assert per_class[0].estimate == 1.0
    assert per_class[0].method == "DeLong (exact bound at AUC = 1)"
    assert per_class[0].low == pytest.approx(0.025 ** (1 / 6))  # n_min = 6 rows of class 0 (12 in the rest)
    assert per_class[0].settings["standard_error"] == 0.0 and "df" not in per_class[0].settings
    assert per_class[1].method == "DeLong (logit)" and per_class[1].low < per_class[1].high


def test_a_class_of_one_row_has_nan_bounds_with_a_warning():
    y = np.array([0, 0, 0, 1, 1, 1, 2])
    P = np.full((7, 3), 1 / 3) + np.linspace(-0.1, 0.1, 7)[:, None] * np.array([1, -1, 0])
    with pytest.warns(IntervalWarning, match="2 rows"):
        per_class = roc_auc_interval(y, P, average=None)
    assert np.isnan(per_class[2].low) and np.isnan(per_class[2].high)
    assert np.isfinite(per_class[0].low)


def test_all_tied_scores_are_degenerate_with_one_warning():
    y = np.repeat([0, 1, 2], 4)
    with pytest.warns(IntervalWarning, match="class 0, class 1, class 2 has zero width"):
        per_class = roc_auc_interval(y, np.full((12, 3), 1 / 3), average=None)
    assert all("degenerate (zero width)" in interval.method for interval in per_class.values())


def test_two_perfect_models_take_each_aucs_bound_in_the_paired_interval():
    y = np.repeat([0, 1, 2], 5)
    a = 0.1 + 0.8 * np.eye(3)[y]
    b = 0.2 + 0.6 * np.eye(3)[y]
    result = compare_scores(
        y, {"a": a / a.sum(1, keepdims=True), "b": b / b.sum(1, keepdims=True)}, quantities=["roc_auc_per_class"]
    )
    bound = 0.0125 ** (1 / 5)  # each AUC's exact bound at 1 - alpha/4 per side, 5 rows of the class
    for row in result.comparisons:
        assert row["difference"] == 0.0 and row["p_value"] == 1.0
        assert row["low"] == pytest.approx(bound - 1) and row["high"] == pytest.approx(1 - bound)
        assert "Bonferroni" in row["method"]


def test_the_column_by_column_variances_equal_those_of_the_full_influences_on_the_threaded_path():
    """ranked_influences(class_aucs=True) takes each variance as its column is done, in threads above a size."""
    from polyroc._engine.ranking import PARALLEL_MIN_SAMPLES
    from polyroc.intervals._delong import auc_influences, one_vs_rest_variance, ranked_influences

    rng = np.random.default_rng(8)
    n, m = PARALLEL_MIN_SAMPLES + 17, 4
    y = rng.integers(0, m, n)
    P = np.round(rng.dirichlet(np.ones(m), n) + 0.3 * np.eye(m)[y], 2)
    P /= P.sum(axis=1, keepdims=True)
    weights = rng.integers(0, 3, n).astype(float)
    table = ranked_influences(y, P, weights, [], class_aucs=True).class_aucs
    estimates, influences = auc_influences(y, P, weights, [("ovr", None)])["ovr", None]
    expected = [(estimates[k], *one_vs_rest_variance(influences[k], y, k, weights)) for k in range(m)]
    np.testing.assert_allclose(table, expected, rtol=1e-12, atol=0)
    for k in range(m):
        assert table[k, 0] == pytest.approx(roc_auc_score(y == k, P[:, k], sample_weight=weights), abs=1e-12)
