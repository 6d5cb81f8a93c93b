"""calibration_test against direct formulas, exact fractions, scipy's distributions and a brute-force Holm."""

from __future__ import annotations

import json
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

import polyroc
from polyroc.calibration import CalibrationTest, calibration_test
from polyroc.exceptions import IntervalWarning
from tests.calibration.cases import dirichlet_problem

#: The warning on sparse groups is tested on its own below; elsewhere small inputs meet it on purpose.
pytestmark = pytest.mark.filterwarnings("ignore:calibration_test. a Hosmer-Lemeshow group:UserWarning")


def columns_with_top_label(y, proba):
    """The scores and hits of each class, then of the top label (the first largest), written for the tests."""
    proba = np.asarray(proba, dtype=float)
    m = proba.shape[1]
    scores = [proba[:, k] for k in range(m)] + [proba.max(axis=1)]
    hits = [(np.asarray(y) == k).astype(float) for k in range(m)] + [(proba.argmax(axis=1) == y).astype(float)]
    return scores, hits


def direct_z(score, hit, weight):
    numerator = np.sum(weight * (hit - score) * (1 - 2 * score))
    return numerator / np.sqrt(np.sum(weight**2 * (1 - 2 * score) ** 2 * score * (1 - score)))


def brute_force_holm(p_values):
    """Each hypothesis's smallest level at which Holm's step-down procedure, run at that level, rejects it."""
    p = np.asarray(p_values, dtype=float)
    k = p.size
    order = np.argsort(p, kind="stable")
    levels = sorted({min(1.0, (k - j) * p[order[j]]) for j in range(k)} | {1.0})
    adjusted = np.ones(k)
    for i in range(k):
        for level in levels:
            rejected = set()
            for j, index in enumerate(order):
                if p[index] * (k - j) > level:
                    break
                rejected.add(int(index))
            if i in rejected:
                adjusted[i] = level
                break
    return adjusted


@pytest.mark.parametrize(("seed", "n", "m"), [(0, 50, 3), (1, 300, 4), (2, 1000, 10)])
def test_spiegelhalter_equals_the_direct_formula_per_class_and_top_label(seed, n, m):
    y, proba = dirichlet_problem(n, m, seed)
    result = calibration_test(y, proba, labels=np.arange(m))
    scores, hits = columns_with_top_label(y, proba)
    expected = np.array([direct_z(s, h, np.ones(n)) for s, h in zip(scores, hits)])
    np.testing.assert_allclose(result.statistic, expected, rtol=1e-10)
    np.testing.assert_allclose(result.p_value, 2 * stats.norm.sf(np.abs(expected)), rtol=1e-9)
    assert np.isnan(result.df).all()
    assert result.classes.tolist() == [*range(m), "top-label"]


def test_spiegelhalter_equals_exact_fractions_on_a_tiny_input():
    y = [0, 1, 2, 0, 1]
    rows = [["1/2", "1/4", "1/4"], ["1/5", "3/5", "1/5"], ["1/10", "3/10", "3/5"], ["3/8", "3/8", "1/4"],
            ["7/10", "1/10", "1/5"]]  # fmt: skip
    exact = [[Fraction(cell) for cell in row] for row in rows]
    result = calibration_test(y, np.array(exact, dtype=float))
    top = [max(range(3), key=lambda k, row=row: (row[k], -k)) for row in exact]
    columns = [([row[k] for row in exact], [int(label == k) for label in y]) for k in range(3)]
    columns.append(([row[top[i]] for i, row in enumerate(exact)], [int(top[i] == y[i]) for i in range(5)]))
    for statistic, (score, hit) in zip(result.statistic, columns):
        numerator = sum((h - p) * (1 - 2 * p) for p, h in zip(score, hit))
        variance = sum((1 - 2 * p) ** 2 * p * (1 - p) for p in score)
        z_squared = numerator**2 / variance  # exact
        assert statistic**2 == pytest.approx(float(z_squared), rel=1e-13)
        assert np.sign(statistic) == np.sign(float(numerator))


def direct_hosmer_lemeshow(score, hit, weight, groups):
    """Groups of consecutive sorted scores of equal size (distinct scores), then the statistic of each group."""
    order = np.argsort(score, kind="stable")
    statistic = 0.0
    for chunk in np.array_split(order, groups):
        w = weight[chunk]
        observed, expected, total = np.sum(w * hit[chunk]), np.sum(w * score[chunk]), np.sum(w)
        mean = expected / total
        statistic += (observed - expected) ** 2 / (np.sum(w**2) * mean * (1 - mean))
    return statistic


@pytest.mark.parametrize(("seed", "n", "m", "groups"), [(3, 200, 3, 10), (4, 600, 5, 6), (5, 90, 3, 1)])
def test_hosmer_lemeshow_equals_a_direct_computation_with_scipy_chi2(seed, n, m, groups):
    y, proba = dirichlet_problem(n, m, seed)
    result = calibration_test(y, proba, method="hosmer-lemeshow", n_bins=groups)
    scores, hits = columns_with_top_label(y, proba)
    expected = np.array([direct_hosmer_lemeshow(s, h, np.ones(n), groups) for s, h in zip(scores, hits)])
    np.testing.assert_allclose(result.statistic, expected, rtol=1e-10)
    np.testing.assert_array_equal(result.df, np.full(m + 1, groups))
    np.testing.assert_allclose(result.p_value, stats.chi2.sf(expected, groups), rtol=1e-9)


def test_unweighted_hosmer_lemeshow_is_the_textbook_formula():
    """sum (O - E)^2 / (E (1 - E / n_g)): the form Hosmer & Lemeshow (1980) write."""
    y, proba = dirichlet_problem(400, 3, 6)
    result = calibration_test(y, proba, method="hosmer-lemeshow", n_bins=8)
    order = np.argsort(proba[:, 1])
    statistic = 0.0
    for chunk in np.array_split(order, 8):
        observed, expected, size = np.sum(y[chunk] == 1), np.sum(proba[chunk, 1]), chunk.size
        statistic += (observed - expected) ** 2 / (expected * (1 - expected / size))
    assert result.statistic[1] == pytest.approx(statistic, rel=1e-10)


def test_weighted_statistics_equal_the_direct_formulas_with_squared_weights():
    y, proba = dirichlet_problem(40, 3, 7)
    pattern = np.array([1.0, 3.0, 2.0, 5.0, 1.0, 4.0, 2.0, 2.0, 3.0, 1.0])
    weight = np.empty(40)
    for k in range(3):
        order = np.argsort(proba[:, k])
        weight_k = np.tile(pattern, 4)  # each group of 10 sorted rows carries the same weights: groups of equal weight
        z = calibration_test(y, proba, sample_weight=_placed(weight_k, order, weight))
        hl = calibration_test(
            y, proba, method="hosmer-lemeshow", n_bins=4, sample_weight=_placed(weight_k, order, weight)
        )
        w = _placed(weight_k, order, weight)
        hit = (y == k).astype(float)
        assert z.statistic[k] == pytest.approx(direct_z(proba[:, k], hit, w), rel=1e-10)
        assert hl.statistic[k] == pytest.approx(direct_hosmer_lemeshow(proba[:, k], hit, w, 4), rel=1e-10)


def _placed(values_in_order, order, out):
    out = out.copy()
    out[order] = values_in_order
    return out


@pytest.mark.parametrize("method", ["spiegelhalter", "hosmer-lemeshow"])
def test_unit_weights_are_no_weights_and_a_common_factor_changes_nothing(method):
    y, proba = dirichlet_problem(300, 4, 8)
    plain = calibration_test(y, proba, method=method)
    weights = np.random.default_rng(0).integers(1, 5, 300).astype(float)
    np.testing.assert_allclose(calibration_test(y, proba, method=method, sample_weight=np.ones(300)).statistic,
                               plain.statistic, rtol=1e-12)  # fmt: skip
    once = calibration_test(y, proba, method=method, sample_weight=weights).statistic
    np.testing.assert_allclose(calibration_test(y, proba, method=method, sample_weight=7.3 * weights).statistic, once,
                               rtol=1e-9)  # fmt: skip


def test_a_weight_is_one_observation_while_k_copies_are_k_observations():
    """Sampling weights: a weight k leaves Z as it is; k repeated rows multiply it by sqrt(k) (direct formula)."""
    y, proba = dirichlet_problem(200, 3, 9)
    plain = calibration_test(y, proba).statistic
    weighted = calibration_test(y, proba, sample_weight=np.full(200, 4.0)).statistic
    repeated = calibration_test(np.repeat(y, 4), np.repeat(proba, 4, axis=0)).statistic
    np.testing.assert_allclose(weighted, plain, rtol=1e-12)
    np.testing.assert_allclose(repeated, 2 * plain, rtol=1e-10)


@pytest.mark.parametrize("method", ["spiegelhalter", "hosmer-lemeshow"])
def test_holm_equals_a_brute_force_step_down(method):
    y, proba = dirichlet_problem(500, 6, 10)
    sharp = proba**1.4 / (proba**1.4).sum(axis=1, keepdims=True)
    result = calibration_test(y, sharp, method=method)
    np.testing.assert_allclose(result.p_holm, brute_force_holm(result.p_value), rtol=1e-12)


def test_the_direction_follows_a_known_temperature():
    """Truth known: scores sharper than the truth are over-confident, flatter ones under-confident."""
    rng = np.random.default_rng(11)
    truth = rng.dirichlet(np.ones(3), size=20_000)
    y = np.minimum((rng.uniform(size=(20_000, 1)) > truth.cumsum(axis=1)).sum(axis=1), 2)
    for power, word in [(1.5, "over-confident"), (0.6, "under-confident")]:
        scores = truth**power / (truth**power).sum(axis=1, keepdims=True)
        for method in ("spiegelhalter", "hosmer-lemeshow"):
            result = calibration_test(y, scores, method=method)
            assert result.direction.tolist() == [word] * 4
            assert result.p_holm.max() < 1e-6
            assert f"class 0: scores {word}" in result.to_text()
    assert (calibration_test(y, truth).statistic[:3] ** 2).max() < 4 * 4  # calibrated: no |Z| near 4


@pytest.mark.parametrize("method", ["spiegelhalter", "hosmer-lemeshow"])
def test_a_class_whose_scores_are_all_zero_gets_nan_and_a_warning(method):
    y = np.array([0, 1, 0, 1, 1, 0])
    proba = np.array([[0.7, 0.3, 0.0], [0.2, 0.8, 0.0], [0.6, 0.4, 0.0], [0.4, 0.6, 0.0], [0.1, 0.9, 0.0],
                      [0.9, 0.1, 0.0]])  # fmt: skip
    with pytest.warns(IntervalWarning, match="for 2:.*no variance"):
        result = calibration_test(y, proba, labels=[0, 1, 2], method=method)
    assert np.isnan(result.statistic[2]) and np.isnan(result.p_value[2]) and np.isnan(result.p_holm[2])
    defined = [0, 1, 3]
    np.testing.assert_allclose(result.p_holm[defined], brute_force_holm(result.p_value[defined]), rtol=1e-12)
    assert "No test for 2" in result._repr_html_()


def test_sparse_hosmer_lemeshow_groups_warn_and_full_ones_do_not():
    """Expected events per group: about 400 * 0.1 / 10 = 4 in the lowest groups of a class at m = 10."""
    y, proba = dirichlet_problem(400, 10, 14)
    with pytest.warns(IntervalWarning, match="expects fewer than 5 events or non-events"):
        calibration_test(y, proba, method="hosmer-lemeshow")
    y, proba = dirichlet_problem(20_000, 3, 15)
    with warnings.catch_warnings():
        warnings.simplefilter("error", IntervalWarning)
        calibration_test(y, proba, method="hosmer-lemeshow")


def test_scores_of_one_half_leave_z_without_variance():
    with pytest.warns(IntervalWarning, match="every score is 0, 1/2 or 1"):
        result = calibration_test([0, 1, 1], [[0.5, 0.5]] * 3)
    assert np.isnan(result.statistic).all()


def test_without_a_miscalibrated_row_nothing_is_read_out():
    y, proba = dirichlet_problem(400, 3, 12)
    result = calibration_test(y, proba)
    assert result.p_holm.min() >= 0.05  # calibrated scores; this seed rejects nothing
    assert result.to_text().splitlines()[-1].startswith("No row rejects calibration at the 5% family-wise level")


def test_result_protocol():
    y, proba = dirichlet_problem(300, 3, 13)
    result = calibration_test(y, proba, method="hosmer-lemeshow")
    assert isinstance(result, CalibrationTest)
    frame = result.to_frame()
    assert list(frame.columns) == ["class", "statistic", "df", "p_value", "p_holm", "direction", "method"]
    assert frame["method"].iloc[0] == "Hosmer-Lemeshow chi-squared test (external validation, df = groups)"
    data = json.loads(json.dumps(result.to_dict()))
    assert data["type"] == "CalibrationTest" and data["classes"] == [0, 1, 2, "top-label"]
    assert data["settings"] == {"method": "hosmer-lemeshow", "n_bins": 10, "weighted": False, "adjustment": "holm"}
    assert "<caption>Hosmer-Lemeshow" in result._repr_html_()
    assert polyroc.calibration_test is calibration_test and "CalibrationTest" in polyroc.__all__


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"method": "brier"}, ValueError, "method"),
        ({"n_bins": 0}, ValueError, "n_bins"),
        ({"n_bins": 2.5}, TypeError, "n_bins"),
        ({"y_proba": [[0.5, 0.6], [0.3, 0.7]]}, ValueError, "y_proba"),
        ({"sample_weight": [1.0, -1.0]}, ValueError, "sample_weight"),
        ({"y_true": [0, 1, 1]}, ValueError, "y_true|y_proba"),
    ],
)
def test_bad_input_names_the_argument(kwargs, error, match):
    arguments = {"y_true": [0, 1], "y_proba": [[0.4, 0.6], [0.3, 0.7]], **kwargs}
    with pytest.raises(error, match=match):
        calibration_test(arguments.pop("y_true"), arguments.pop("y_proba"), **arguments)


@given(seed=st.integers(0, 2**32 - 1), permutation=st.permutations([0, 1, 2, 3]))
def test_permuting_the_classes_permutes_the_class_rows(seed, permutation):
    y, proba = dirichlet_problem(60, 4, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IntervalWarning)
        plain = calibration_test(y, proba, labels=[0, 1, 2, 3])
        moved = calibration_test(y, proba[:, permutation], labels=permutation)
    np.testing.assert_allclose(moved.statistic[:4], plain.statistic[permutation], rtol=1e-9, atol=1e-12)


def test_spiegelhalter_type_one_error_is_near_five_percent():
    """Simulation with known truth: scores equal to the true probabilities reject about 5% of the class rows."""
    rejected = 0
    for seed in range(500):
        y, proba = dirichlet_problem(500, 3, 1000 + seed)
        rejected += int(np.sum(calibration_test(y, proba).p_value[:3] < 0.05))
    assert 0.035 <= rejected / 1500 <= 0.065
