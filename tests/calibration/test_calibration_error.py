"""calibration_error against torchmetrics, a direct loop over classes and bins, repeated rows and its checks."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from polyroc.calibration import calibration_error
from tests._oracles.torchmetrics_calibration import CASES, NORMS, ORACLE_FILE, calibration_case
from tests.calibration.cases import dirichlet_problem, loop_error, skewed_problem

STORED = json.loads(ORACLE_FILE.read_text(encoding="utf-8"))


def test_the_stored_cases_are_the_oracle_script_cases():
    assert [(c["seed"], c["n"], c["m"], c["scale"]) for c in STORED["cases"]] == list(CASES)
    assert STORED["n_bins"] == 15


@pytest.mark.parametrize("case", STORED["cases"], ids=lambda case: f"seed{case['seed']}")
@pytest.mark.parametrize("norm", NORMS)
def test_top_label_equals_stored_torchmetrics_values(case, norm):
    y, proba = calibration_case(case["seed"], case["n"], case["m"], case["scale"])
    assert calibration_error(y, proba, n_bins=15, norm=norm) == pytest.approx(case["errors"][norm], abs=1e-6)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n_bins", [1, 7, 15])
@pytest.mark.parametrize("seed", [10, 11])
def test_top_label_equals_torchmetrics_live(norm, n_bins, seed):
    pytest.importorskip("torchmetrics")
    import torch
    from torchmetrics.functional.classification import multiclass_calibration_error

    y, proba = calibration_case(seed, 800, 4, 2.0)
    expected = multiclass_calibration_error(
        torch.tensor(proba), torch.tensor(y), num_classes=4, n_bins=n_bins, norm=norm
    )
    assert calibration_error(y, proba, n_bins=n_bins, norm=norm) == pytest.approx(float(expected), abs=1e-6)


@pytest.mark.parametrize("norm", NORMS)
@pytest.mark.parametrize("n_bins", [1, 4, 15])
def test_classwise_is_the_mean_of_a_loop_over_classes_and_bins(norm, n_bins):
    y, proba = skewed_problem(600, 4, seed=n_bins)
    edges = np.linspace(0, 1, n_bins + 1)
    expected = np.mean(
        [loop_error(proba[:, k], (y == k).astype(float), None, edges[:-1], edges[1:], norm) for k in range(4)]
    )
    assert calibration_error(y, proba, kind="classwise", n_bins=n_bins, norm=norm) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("norm", NORMS)
def test_top_label_with_weights_is_a_weighted_loop(norm):
    y, proba = skewed_problem(500, 3, seed=5)
    weights = np.random.default_rng(5).uniform(0, 3, 500)
    edges = np.linspace(0, 1, 11)
    hits = (proba.argmax(axis=1) == y).astype(float)
    expected = loop_error(proba.max(axis=1), hits, weights, edges[:-1], edges[1:], norm)
    actual = calibration_error(y, proba, n_bins=10, norm=norm, sample_weight=weights)
    assert actual == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("n_bins", [1, 5, 8])
def test_quantile_bins_are_consecutive_equal_chunks_of_the_sorted_rows(n_bins):
    y, proba = skewed_problem(40 * n_bins, 3, seed=n_bins)
    confidence, hits = proba.max(axis=1), (proba.argmax(axis=1) == y).astype(float)
    order = np.argsort(confidence)
    chunks = np.array_split(order, n_bins)  # distinct scores and n divisible by n_bins: equal chunks
    expected = np.mean([abs(hits[chunk].mean() - confidence[chunk].mean()) for chunk in chunks])
    assert calibration_error(y, proba, n_bins=n_bins, strategy="quantile") == pytest.approx(expected, abs=1e-12)


def test_quantile_bins_keep_ties_together():
    # 6 rows at confidence 0.6 and 2 at 0.9: two equal-mass bins would cut the tie; it stays in the first bin
    proba = np.array([[0.6, 0.4]] * 6 + [[0.9, 0.1]] * 2)
    y = np.array([0, 0, 0, 1, 1, 1, 0, 0])
    # bins: {0.6 x6: 3 right} and {0.9 x2: 2 right}
    expected = 6 / 8 * abs(0.5 - 0.6) + 2 / 8 * abs(1.0 - 0.9)
    assert calibration_error(y, proba, n_bins=2, strategy="quantile") == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("kind", ["top-label", "classwise"])
@pytest.mark.parametrize("norm", NORMS)
def test_integer_weights_are_repeated_rows(strategy, kind, norm):
    y, proba = skewed_problem(150, 3, seed=7)
    weights = np.random.default_rng(7).integers(0, 4, 150)
    weights[0] = 1
    options = {"kind": kind, "strategy": strategy, "norm": norm, "n_bins": 6}
    repeated = calibration_error(np.repeat(y, weights), np.repeat(proba, weights, axis=0), **options)
    # the same bins; the sums differ by the order of their terms only
    assert calibration_error(y, proba, sample_weight=weights, **options) == pytest.approx(repeated, rel=1e-13)


def test_one_bin_is_the_gap_of_the_means():
    y, proba = skewed_problem(300, 3, seed=3)
    expected = abs((proba.argmax(axis=1) == y).mean() - proba.max(axis=1).mean())
    for norm in NORMS:
        assert calibration_error(y, proba, n_bins=1, norm=norm) == pytest.approx(expected, abs=1e-14)


def test_empty_bins_count_for_nothing():
    # top-label scores of 3 classes are at least 1/3: the bins below are empty, as is the gap of [0.4, 0.5)
    proba = np.array([[0.35, 0.33, 0.32], [0.6, 0.2, 0.2], [0.2, 0.7, 0.1], [0.05, 0.05, 0.9]])
    y = np.array([0, 1, 0, 2])
    # one row in each of 4 bins of 10: 0.35 right, 0.6 wrong, 0.7 wrong, 0.9 right
    expected_l1 = (abs(1 - 0.35) + abs(0 - 0.6) + abs(0 - 0.7) + abs(1 - 0.9)) / 4
    assert calibration_error(y, proba, n_bins=10) == pytest.approx(expected_l1, abs=1e-12)
    assert calibration_error(y, proba, n_bins=10, norm="max") == pytest.approx(0.7, abs=1e-12)


@pytest.mark.parametrize("n_bins", [3, 7, 10, 15])
def test_scores_at_and_beside_the_edges_fall_in_the_bins_of_a_loop(n_bins):
    grid = np.linspace(0.5, 1, 40)  # top-label scores of two classes
    edges = np.linspace(0, 1, n_bins + 1)
    near = np.concatenate([edges, np.nextafter(edges, 0), np.nextafter(edges, 1), grid])
    confidence = np.unique(near[(near >= 0.5) & (near <= 1)])
    proba = np.column_stack([confidence, 1 - confidence])
    y = np.arange(confidence.size) % 2
    hits = (y == 0).astype(float)
    for norm in NORMS:
        expected = loop_error(confidence, hits, None, edges[:-1], edges[1:], norm)
        assert calibration_error(y, proba, n_bins=n_bins, norm=norm) == pytest.approx(expected, abs=1e-14)


def test_a_score_of_one_falls_in_the_last_bin():
    proba = np.array([[1.0, 0.0], [0.95, 0.05], [0.2, 0.8]])
    y = np.array([0, 1, 1])
    # last of 2 bins [0.5, 1]: mean score (1 + 0.95 + 0.8) / 3, 2 of 3 right
    assert calibration_error(y, proba, n_bins=2) == pytest.approx(abs(2 / 3 - 2.75 / 3), abs=1e-15)


def test_calibrated_scores_have_a_small_error_and_skewed_ones_a_large_one():
    y, proba = dirichlet_problem(20000, 3, seed=1)
    assert calibration_error(y, proba) < 0.02
    y, proba = skewed_problem(20000, 3, seed=1)
    assert calibration_error(y, proba) > 0.1


def test_labels_name_the_columns_in_their_order():
    y, proba = skewed_problem(300, 3, seed=2)
    names = np.array(["c", "a", "b"])
    relabelled = calibration_error(names[y], proba, labels=["c", "a", "b"], kind="classwise")
    assert relabelled == calibration_error(y, proba, kind="classwise")


BAD_OPTIONS = [
    ({"kind": "toplabel"}, ValueError, "kind must be one of 'top-label', 'classwise'"),
    ({"strategy": "equal"}, ValueError, "strategy must be one of 'uniform', 'quantile'"),
    ({"norm": "l3"}, ValueError, "norm must be one of 'l1', 'l2', 'max'"),
    ({"n_bins": 0}, ValueError, "n_bins must be an int in [1, inf)"),
    ({"n_bins": 2.0}, TypeError, "n_bins must be an int"),
    ({"n_bins": True}, TypeError, "n_bins must be an int"),
]


@pytest.mark.parametrize(("options", "error", "message"), BAD_OPTIONS)
def test_bad_options_are_named(options, error, message):
    y, proba = skewed_problem(20, 3, seed=0)
    with pytest.raises(error, match=re.escape(message)):
        calibration_error(y, proba, **options)


def test_bad_data_is_named():
    y, proba = skewed_problem(20, 3, seed=0)
    with pytest.raises(ValueError, match="y_proba"):
        calibration_error(y, proba * 1.1)
    with pytest.raises(ValueError, match="y_proba"):
        calibration_error(y, np.column_stack([proba[:, 0] + 0.2, proba[:, 1] - 0.2, proba[:, 2]]))
    with pytest.raises(ValueError, match="y_proba"):
        calibration_error(y, proba[:, :2])
    with pytest.raises(ValueError, match="y_true has 10, y_proba has 20"):
        calibration_error(y[:10], proba)
    with pytest.raises(ValueError, match="sample_weight"):
        calibration_error(y, proba, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="sample_weight"):
        calibration_error(y, proba, sample_weight=np.ones(19))
    with pytest.raises(ValueError, match="y_true contains labels not in labels"):
        calibration_error(y, proba, labels=[0, 1, 5])
    with pytest.raises(TypeError, match="y_proba"):
        calibration_error(y, np.array([["a", "b", "c"]] * 20))


@pytest.mark.parametrize("seed", range(6))
def test_quantile_bins_with_many_ties_follow_the_rank_rule_by_a_loop(seed):
    rng = np.random.default_rng(seed)
    n, n_bins = int(rng.integers(5, 80)), int(rng.integers(1, 12))
    confidence = np.round(rng.uniform(0.5, 1, n), 1)  # few distinct values: ties cross the bin starts
    proba = np.column_stack([confidence, 1 - confidence])
    y = rng.integers(0, 2, n)
    # each distinct score, in increasing order, goes with its first rank r to bin floor(r n_bins / n)
    bins = np.empty(n, dtype=int)
    rank = 0
    for value in np.unique(confidence):
        tied = confidence == value
        bins[tied] = min(rank * n_bins // n, n_bins - 1)
        rank += int(tied.sum())
    hits = (y == 0).astype(float)
    expected = sum(
        tied.sum() / n * abs(hits[tied].mean() - confidence[tied].mean())
        for tied in (bins == b for b in range(n_bins))
        if tied.any()
    )
    assert calibration_error(y, proba, n_bins=n_bins, strategy="quantile") == pytest.approx(expected, abs=1e-14)
