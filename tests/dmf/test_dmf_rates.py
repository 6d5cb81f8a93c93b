"""Pairwise TPR/FPR matrices of ROC-DMF against a brute-force loop (per pair, per threshold)."""

from fractions import Fraction

import numpy as np
import pytest

from polyroc.dmf import pairwise_rates
from polyroc.dmf._rates import batch_rates, prepare_problem
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.resampling import bootstrap_multiplicities


def _balanced_threshold(pos, neg, level):
    """Smallest pooled score where (F_pos + F_neg) / 2 >= level, in exact fractions."""
    tau = Fraction(repr(float(level)))
    for x in np.unique(np.concatenate([pos, neg])):
        share = (Fraction(int(np.sum(pos <= x)), pos.size) + Fraction(int(np.sum(neg <= x)), neg.size)) / 2
        if share >= tau:
            return x
    raise AssertionError("level never reached")


def brute_force_rates(y, P, levels, mode):
    """Rates (T, K) and cut-offs by looping over ordered pairs and levels."""
    classes = [c for c in range(P.shape[1]) if np.any(y == c)]
    tpr, fpr, cutoffs = [], [], []
    for a in classes:
        for b in classes:
            if a == b:
                continue
            pos, neg = P[y == a, a], P[y == b, a]
            column = ([], [], [])
            for level in sorted(levels, reverse=True):
                if mode == "pooled":
                    theta = np.quantile(np.concatenate([pos, neg]), level)
                elif mode == "column":
                    theta = np.quantile(P[:, a], level)
                else:
                    theta = _balanced_threshold(pos, neg, level)
                column[0].append(np.sum(pos > theta) / pos.size)
                column[1].append(np.sum(neg > theta) / neg.size)
                column[2].append(theta)
            tpr.append(column[0])
            fpr.append(column[1])
            cutoffs.append(column[2])
    return np.array(tpr).T, np.array(fpr).T, np.array(cutoffs).T


def _scores(rng, n, k, decimals=None):
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), size=n) + 0.5 * np.eye(k)[y]
    P /= P.sum(axis=1, keepdims=True)
    return y, (np.round(P, decimals) if decimals else P)


@pytest.mark.parametrize("mode", ["pooled", "column", "balanced"])
@pytest.mark.parametrize("decimals", [None, 1])
@pytest.mark.parametrize("seed", [0, 1])
def test_rates_equal_brute_force(mode, decimals, seed):
    rng = np.random.default_rng(seed)
    y, P = _scores(rng, 37, 3, decimals)
    levels = np.array([0.01, 0.1, 0.25, 0.5, 0.6, 0.75, 0.9, 0.99])
    result = pairwise_rates(y, P, levels=levels, cutoff_grid=mode)
    tpr, fpr, cutoffs = brute_force_rates(y, P, levels, mode)
    np.testing.assert_array_equal(result.tpr, tpr)
    np.testing.assert_array_equal(result.fpr, fpr)
    np.testing.assert_array_equal(result.cutoffs, cutoffs)
    np.testing.assert_array_equal(result.levels, levels[::-1])


def test_pairs_are_lexicographic_with_class_sizes():
    y = np.array(["b", "a", "c", "a", "c", "c"])
    P = np.full((6, 3), 1 / 3)
    result = pairwise_rates(y, P, levels=[0.3, 0.6])
    assert [tuple(p) for p in result.pairs.tolist()] == [
        ("a", "b"),
        ("a", "c"),
        ("b", "a"),
        ("b", "c"),
        ("c", "a"),
        ("c", "b"),
    ]
    np.testing.assert_array_equal(result.n_pos, [2, 2, 1, 1, 3, 3])
    np.testing.assert_array_equal(result.n_neg, [1, 3, 2, 3, 2, 1])


def test_replicate_rates_equal_rates_of_the_expanded_sample():
    # multiplicities m give the same rates as the data with sample i repeated m_i times
    rng = np.random.default_rng(3)
    y, P = _scores(rng, 40, 3, decimals=2)
    counts = np.vstack(list(bootstrap_multiplicities(y, 2, random_state=5)))
    levels = np.arange(1, 10) / 10
    for mode in ["pooled", "column", "balanced"]:
        problem = prepare_problem(y, P, labels=None, levels=levels, n_levels=None, cutoff_grid=mode)
        batch = batch_rates(problem.pools, problem.levels, counts)
        for row in range(2):
            single = pairwise_rates(
                np.repeat(y, counts[row]), np.repeat(P, counts[row], axis=0), levels=levels, cutoff_grid=mode
            )
            np.testing.assert_array_equal(batch.tpr[row], single.tpr)
            np.testing.assert_array_equal(batch.fpr[row], single.fpr)
            np.testing.assert_array_equal(batch.cutoffs[row], single.cutoffs)


def test_balanced_rates_ignore_class_sizes():
    rng = np.random.default_rng(4)
    y, P = _scores(rng, 60, 3)
    repeat = np.where(y == 2, 3, 1)
    a = pairwise_rates(y, P, cutoff_grid="balanced")
    b = pairwise_rates(np.repeat(y, repeat), np.repeat(P, repeat, axis=0), cutoff_grid="balanced")
    np.testing.assert_array_equal(a.tpr, b.tpr)
    np.testing.assert_array_equal(a.fpr, b.fpr)


def test_empty_class_pairs_are_dropped_with_a_warning():
    y = np.array([0, 0, 1, 1, 0, 1])
    P = np.random.default_rng(0).dirichlet(np.ones(3), size=6)
    with pytest.warns(UndefinedMetricWarning, match=r"no samples.*4 class pairs"):
        result = pairwise_rates(y, P, labels=[0, 1, 2], levels=[0.25, 0.75])
    assert result.pairs.tolist() == [[0, 1], [1, 0]]
    assert result.dropped_pairs == ((0, 2), (1, 0 + 2), (2, 0), (2, 1))
    assert result.tpr.shape == (2, 2)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"levels": [0.5]}, ValueError, "at least 2 values"),
        ({"levels": [0.0, 0.5]}, ValueError, r"strictly inside \(0, 1\)"),
        ({"levels": [0.5, 1.0]}, ValueError, r"strictly inside \(0, 1\)"),
        ({"levels": [0.6, 0.5]}, ValueError, "strictly increasing"),
        ({"levels": [[0.2, 0.5]]}, ValueError, "1-D"),
        ({"levels": ["a", "b"]}, TypeError, "numeric"),
        ({"n_levels": 1}, ValueError, "n_levels must be >= 2"),
        ({"cutoff_grid": "mixed"}, ValueError, "cutoff_grid must be one of"),
    ],
)
def test_bad_levels_and_options(kwargs, error, match):
    y = np.array([0, 1, 0, 1])
    P = np.array([[0.6, 0.4], [0.3, 0.7], [0.8, 0.2], [0.5, 0.5]])
    with pytest.raises(error, match=match):
        pairwise_rates(y, P, **kwargs)


def test_one_class_only_is_refused():
    with pytest.raises(ValueError, match="at least 2"):
        pairwise_rates([1, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.1, 0.9]], labels=[0, 1])


def test_replicate_rates_equal_expanded_sample_for_large_and_unstratified_multiplicities():
    # multiplicities above 255 (stored in a wider type) and unstratified draws, with ties and zeros
    rng = np.random.default_rng(6)
    y, P = _scores(rng, 50, 3, decimals=1)
    counts = np.vstack(list(bootstrap_multiplicities(y, 3, stratify=False, random_state=1)))
    counts[0, :3] = [300, 0, 2]
    levels = np.array([0.05, 0.5, 0.95])
    for mode in ["pooled", "column", "balanced"]:
        problem = prepare_problem(y, P, labels=None, levels=levels, n_levels=None, cutoff_grid=mode)
        batch = batch_rates(problem.pools, problem.levels, counts)
        for row in range(3):
            keep = np.repeat(np.arange(y.size), counts[row])
            if np.unique(y[keep]).size < 3:
                continue
            single = pairwise_rates(y[keep], P[keep], levels=levels, cutoff_grid=mode)
            np.testing.assert_array_equal(batch.tpr[row], single.tpr)
            np.testing.assert_array_equal(batch.fpr[row], single.fpr)
            np.testing.assert_array_equal(batch.cutoffs[row], single.cutoffs)


def test_pairwise_rates_result_protocol():
    import json

    y = np.array([0, 0, 1, 1, 2, 2])
    P = np.array([[0.8, 0.1, 0.1], [0.5, 0.3, 0.2], [0.2, 0.7, 0.1], [0.3, 0.4, 0.3], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    result = pairwise_rates(y, P, levels=[0.25, 0.75], cutoff_grid="column")
    assert result.settings == {"cutoff_grid": "column", "n_levels": 2}
    frame = result.to_frame()
    assert len(frame) == 2 * 6 and list(frame.columns) == ["level", "positive", "negative", "cutoff", "tpr", "fpr"]
    row = frame.iloc[1]  # first row (level 0.75, the highest cut-off), second pair (0, 2)
    assert (row.level, row.positive, row.negative) == (0.75, 0, 2)
    assert row.cutoff == np.quantile(P[:, 0], 0.75)
    assert row.tpr == np.mean(P[y == 0, 0] > row.cutoff) and row.fpr == np.mean(P[y == 2, 0] > row.cutoff)
    record = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert record["type"] == "PairwiseRates" and record["cutoffs"] == result.cutoffs.tolist()


def test_replicate_rates_with_multiplicities_too_large_for_int32_sums_equal_the_expanded_sample():
    # a multiplicity of 70,000 is stored as uint32: the running sums are then held in int64, not int32
    rng = np.random.default_rng(8)
    y, P = _scores(rng, 40, 3, decimals=2)
    counts = np.vstack(list(bootstrap_multiplicities(y, 2, random_state=2)))
    counts[1, 5] = 70_000
    levels = np.array([0.1, 0.5, 0.9])
    for mode in ["pooled", "balanced"]:
        problem = prepare_problem(y, P, labels=None, levels=levels, n_levels=None, cutoff_grid=mode)
        batch = batch_rates(problem.pools, problem.levels, counts)
        for row in range(2):
            keep = np.repeat(np.arange(y.size), counts[row])
            single = pairwise_rates(y[keep], P[keep], levels=levels, cutoff_grid=mode)
            np.testing.assert_array_equal(batch.tpr[row], single.tpr)
            np.testing.assert_array_equal(batch.fpr[row], single.fpr)
            np.testing.assert_array_equal(batch.cutoffs[row], single.cutoffs)
