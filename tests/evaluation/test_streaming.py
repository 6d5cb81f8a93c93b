"""Streaming accumulators against the in-memory functions on the concatenated rows.

Oracles: polyroc.metrics (confusion_matrix, log_loss, brier_score_loss,
top_k_accuracy_score, roc_auc_score), polyroc.thresholds.apply_thresholds and
scikit-learn. Scores are ratios of small integers, so equal scores are frequent
within every column (ties), and weights are small integers including 0.
"""

from __future__ import annotations

import itertools
import pickle
import re
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

import polyroc
from polyroc import metrics
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.streaming import ConfusionAccumulator, EvaluationAccumulator, LossAccumulator, RankingAccumulator
from polyroc.thresholds import apply_thresholds
from tests.evaluation.checks import assert_same_evaluation

LABELS = np.array([0, 1, 2, 3])
RTOL = 1e-12


def tied_data(seed, n, n_classes=4, weighted=True):
    """Labels, scores with many ties (ratios of integers 1..3 per row) and integer weights 0..3 (or None)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    integers = rng.integers(1, 4, (n, n_classes)).astype(np.float64)
    integers[np.arange(n), y] += rng.integers(0, 3, n)  # some signal, so the AUCs are not all 1/2
    scores = integers / integers.sum(axis=1, keepdims=True)
    weights = rng.integers(0, 4, n).astype(np.float64) if weighted else None
    if weighted:
        weights[::7] = np.maximum(weights[::7], 1.0)  # every batch below keeps a positive weight
    return y, scores, weights


def uneven_batches(y, scores, weights):
    """Batches of sizes 0, 1, 7, ..., one of them holding class 0 only, covering every row once."""
    order = np.concatenate((np.flatnonzero(y == 0)[:5], np.flatnonzero(y != 0), np.flatnonzero(y == 0)[5:]))
    edges = [0, 0, 5, 6, 13, 40, 41, 90, order.size]
    for start, stop in itertools.pairwise(edges):
        rows = order[start:stop]
        batch_weights = None if weights is None else weights[rows]
        if batch_weights is not None and rows.size and not batch_weights.any():
            batch_weights[0] = 1.0
            weights[rows[0]] = 1.0
        yield y[rows], scores[rows], batch_weights


def feed(accumulator, batches):
    for y, scores, weights in batches:
        accumulator.update(y, scores, sample_weight=weights)
    return accumulator


def random_simplex_thresholds(seed, count, n_classes=4):
    rng = np.random.default_rng(seed)
    lattice = rng.integers(0, 5, (count, n_classes)).astype(np.float64)
    lattice[lattice.sum(axis=1) == 0, 0] = 1.0
    thresholds = lattice / lattice.sum(axis=1, keepdims=True)  # quarters, sixths ...: ties with the scores
    return np.vstack((np.full(n_classes, 1 / n_classes), thresholds, rng.dirichlet(np.ones(n_classes), count)))


@pytest.mark.parametrize("weighted", [True, False])
def test_batches_are_split_as_intended(weighted):
    y, scores, weights = tied_data(0, 200, weighted=weighted)
    batches = list(uneven_batches(y, scores, weights))
    assert [len(b[0]) for b in batches][:2] == [0, 5]
    assert set(batches[1][0].tolist()) == {0}
    assert sum(len(b[0]) for b in batches) == y.size


@pytest.mark.parametrize("weighted", [True, False])
def test_confusion_counts_equal_confusion_matrix(weighted):
    y, scores, weights = tied_data(1, 200, weighted=weighted)
    accumulator = feed(ConfusionAccumulator(LABELS), uneven_batches(y, scores, weights))
    expected = sk.confusion_matrix(y, np.argmax(scores, axis=1), labels=LABELS, sample_weight=weights)
    np.testing.assert_allclose(accumulator.compute(), expected, rtol=RTOL, atol=0)
    assert accumulator.compute().dtype == np.float64


@pytest.mark.parametrize("weighted", [True, False])
def test_threshold_counts_equal_apply_thresholds(weighted):
    y, scores, weights = tied_data(2, 200, weighted=weighted)
    thresholds = random_simplex_thresholds(3, 20)
    accumulator = feed(ConfusionAccumulator(LABELS, thresholds=thresholds), uneven_batches(y, scores, weights))
    counts = accumulator.compute()
    assert counts.shape == (thresholds.shape[0], 4, 4)
    for tau, rule_counts in zip(thresholds, counts):
        predicted = apply_thresholds(scores, tau)
        expected = metrics.confusion_matrix(y, predicted, labels=LABELS, sample_weight=weights)
        np.testing.assert_allclose(rule_counts, expected, rtol=RTOL, atol=0)


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("k", [1, 2, 3])
def test_losses_equal_metrics(weighted, k):
    y, scores, weights = tied_data(4, 200, weighted=weighted)
    scores[:3] = np.eye(4)[(y[:3] + 1) % 4]  # probability 0 for the true class: eps clipping matters
    values = feed(LossAccumulator(LABELS, k=k), uneven_batches(y, scores, weights)).compute()
    expected = {
        "log_loss": metrics.log_loss(y, scores, sample_weight=weights, labels=LABELS),
        "brier_score": metrics.brier_score_loss(y, scores, sample_weight=weights, labels=LABELS),
        f"top_{k}_accuracy": sk.top_k_accuracy_score(y, scores, k=k, sample_weight=weights, labels=LABELS),
    }
    assert values.keys() == expected.keys()
    for name, value in expected.items():
        assert values[name] == pytest.approx(value, rel=RTOL), name


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_losses_of_low_precision_scores_follow_their_dtype(dtype):
    y, scores, weights = tied_data(12, 120)
    scores[:3] = np.eye(4)[(y[:3] + 1) % 4]
    low = scores.astype(dtype)
    values = feed(LossAccumulator(LABELS), uneven_batches(y, low, weights)).compute()
    expected_log_loss = metrics.log_loss(y, low, sample_weight=weights, labels=LABELS)
    expected_brier = metrics.brier_score_loss(y, low, sample_weight=weights, labels=LABELS)
    assert values["log_loss"] == pytest.approx(expected_log_loss, rel=RTOL)
    assert values["brier_score"] == pytest.approx(expected_brier, rel=RTOL)


def test_binary_brier_score_is_halved_as_metrics():
    y, scores, weights = tied_data(5, 60, n_classes=2)
    values = feed(LossAccumulator([0, 1]), uneven_batches(y, scores, weights)).compute()
    expected = metrics.brier_score_loss(y, scores, sample_weight=weights, labels=[0, 1])
    assert values["brier_score"] == pytest.approx(expected, rel=RTOL)


def expected_aucs(y, scores, weights):
    def auc(multi_class, average):
        return metrics.roc_auc_score(
            y, scores, multi_class=multi_class, average=average, sample_weight=weights, labels=LABELS
        )

    return {
        "roc_auc_ovr_macro": auc("ovr", "macro"),
        "roc_auc_ovr_weighted": auc("ovr", "weighted"),
        "roc_auc_ovr_micro": auc("ovr", "micro"),
        "roc_auc_ovo_macro": auc("ovo", "macro"),
        "roc_auc_ovo_weighted": auc("ovo", "weighted"),
        "roc_auc_ovr_per_class": auc("ovr", None),
    }


def assert_same_aucs(values, expected):
    values = dict(values)
    bounds = values.pop("bounds")
    assert values.keys() == expected.keys() == bounds.keys()
    for name, value in expected.items():  # exact mode: no binning error, NaN where the AUC is undefined
        np.testing.assert_array_equal(bounds[name], np.where(np.isnan(value), np.nan, 0.0), err_msg=name)
    for name, value in expected.items():
        np.testing.assert_allclose(values[name], value, rtol=RTOL, atol=0, err_msg=name)


@pytest.mark.parametrize("weighted", [True, False])
def test_aucs_equal_roc_auc_score(weighted):
    y, scores, weights = tied_data(6, 300, weighted=weighted)
    accumulator = feed(RankingAccumulator(LABELS), uneven_batches(y, scores, weights))
    assert_same_aucs(accumulator.compute(), expected_aucs(y, scores, weights))
    assert np.all(accumulator.n_distinct < 300)  # ties are stored once


@pytest.mark.parametrize("weighted", [True, False])
def test_ovr_aucs_equal_scikit_learn(weighted):
    y, scores, weights = tied_data(7, 300, weighted=weighted)
    values = feed(RankingAccumulator(LABELS), uneven_batches(y, scores, weights)).compute()
    for average in ("macro", "weighted", "micro"):
        expected = sk.roc_auc_score(y, scores, multi_class="ovr", average=average, sample_weight=weights)
        assert values[f"roc_auc_ovr_{average}"] == pytest.approx(expected, rel=RTOL)
    if not weighted:
        expected = sk.roc_auc_score(y, scores, multi_class="ovo", average="macro")
        assert values["roc_auc_ovo_macro"] == pytest.approx(expected, rel=RTOL)


def test_aucs_with_a_class_without_rows_are_nan_as_roc_auc_score():
    y, scores, weights = tied_data(8, 100)
    keep = y != 2
    y, scores, weights = y[keep], scores[keep], weights[keep]
    with pytest.warns(UndefinedMetricWarning, match=r"labels \[2\] have no samples"):  # as roc_auc_score
        values = RankingAccumulator(LABELS).update(y, scores, sample_weight=weights).compute()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        assert_same_aucs(values, expected_aucs(y, scores, weights))
    assert np.isnan(values["roc_auc_ovr_per_class"][2])


def test_aucs_brute_force_on_a_small_example():
    """Pairs counted one by one with exact fractions: class 0 against class 1 on column 0."""
    from fractions import Fraction

    y = np.array([0, 0, 1, 1, 1])
    scores = np.array([[0.5, 0.5], [0.25, 0.75], [0.5, 0.5], [0.25, 0.75], [0.0, 1.0]])
    weights = np.array([2.0, 1.0, 3.0, 1.0, 1.0])
    wins = sum(
        Fraction(int(weights[i] * weights[j])) * (1 if scores[i, 0] > scores[j, 0] else Fraction(1, 2))
        for i in range(5)
        for j in range(5)
        if y[i] == 0 and y[j] == 1 and scores[i, 0] >= scores[j, 0]
    )
    expected = wins / (3 * 5)
    values = RankingAccumulator([0, 1]).update(y[:2], scores[:2], weights[:2]).update(y[2:], scores[2:], weights[2:])
    assert values.compute()["roc_auc_ovr_per_class"][0] == pytest.approx(float(expected), rel=RTOL)


ACCUMULATORS = {
    "confusion": lambda: ConfusionAccumulator(LABELS, thresholds=random_simplex_thresholds(9, 5)),
    "loss": lambda: LossAccumulator(LABELS, k=2),
    "ranking": lambda: RankingAccumulator(LABELS),
    "binned": lambda: RankingAccumulator(LABELS, cutoffs=5),
    "evaluation": lambda: EvaluationAccumulator(LABELS),
}


def stored_arrays(accumulator):
    if isinstance(accumulator, EvaluationAccumulator):
        return [accumulator.summary.counts, *stored_arrays(accumulator.ranking)]
    if isinstance(accumulator, ConfusionAccumulator):
        return [accumulator.counts]
    if isinstance(accumulator, RankingAccumulator) and accumulator.binned:
        return [accumulator.column_bins, accumulator.cell_bins]
    if isinstance(accumulator, RankingAccumulator):
        return [
            accumulator.support,
            *(array for j in range(accumulator.n_classes) for array in entries(accumulator, j)),
        ]
    return []


def entries(accumulator, j):
    """Column j's stored entries as sorted distinct (score, class) pairs with their total weight, whatever the runs."""
    runs = accumulator.runs[j]
    scores = np.concatenate([np.empty(0), *(run[0] for run in runs)])
    codes = np.concatenate([np.empty(0), *(run[1] for run in runs)]).astype(np.int64)
    weights = np.concatenate([np.empty(0), *(np.ones(run[0].size) if run[2] is None else run[2] for run in runs)])
    pairs, inverse = np.unique(np.column_stack((scores, codes)), axis=0, return_inverse=True)
    return pairs[:, 0], pairs[:, 1], np.bincount(inverse.ravel(), weights=weights, minlength=len(pairs))


def assert_same_values(a, b):
    if isinstance(a, polyroc.Evaluation):
        assert_same_values(a.scores, b.scores)
        np.testing.assert_array_equal(a.confusion_matrix, b.confusion_matrix)
    elif isinstance(a, dict):
        assert a.keys() == b.keys()
        for name in a:
            assert_same_values(a[name], b[name])
    else:
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=0)


def assert_same_results(first, second):
    assert_same_values(first.compute(), second.compute())
    for x, z in zip(stored_arrays(first), stored_arrays(second), strict=True):
        np.testing.assert_array_equal(x, z)  # integer weights: sums are exact in any order


def accumulated(kind, y, scores, weights, parts):
    return feed(ACCUMULATORS[kind](), [(y[p], scores[p], weights[p]) for p in parts])


def random_parts(data, n):
    """Hypothesis-chosen non-empty parts of range(n), each with a positive weight at its first row."""
    cuts = data.draw(st.lists(st.integers(1, n - 1), max_size=4, unique=True).map(sorted))
    return [np.arange(a, b) for a, b in zip([0, *cuts], [*cuts, n])]


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(sorted(ACCUMULATORS)), seed=st.integers(0, 2**16))
def test_merge_is_commutative_and_associative(kind, seed):
    y, scores, weights = tied_data(seed, 60)
    weights[[0, 20, 40]] = 1.0
    a, b, c = (accumulated(kind, y, scores, weights, [np.arange(s, s + 20)]) for s in (0, 20, 40))
    snapshot = [x.copy() for x in stored_arrays(a)]
    assert_same_results(a.merge(b), b.merge(a))
    assert_same_results(a.merge(b).merge(c), a.merge(b.merge(c)))
    assert_same_results(a.merge(b).merge(c), accumulated(kind, y, scores, weights, [np.arange(60)]))
    for before, after in zip(snapshot, stored_arrays(a), strict=True):
        np.testing.assert_array_equal(before, after)  # merge leaves its inputs unchanged


@settings(max_examples=25, deadline=None)
@given(data=st.data(), kind=st.sampled_from(sorted(ACCUMULATORS)), seed=st.integers(0, 2**16))
def test_updates_in_any_order_equal_one_update(data, kind, seed):
    y, scores, weights = tied_data(seed, 50)
    weights[:] = np.maximum(weights, 1.0)
    parts = random_parts(data, 50)
    order = data.draw(st.permutations(range(len(parts))))
    streamed = accumulated(kind, y, scores, weights, [parts[i] for i in order])
    assert_same_results(streamed, accumulated(kind, y, scores, weights, [np.arange(50)]))


@pytest.mark.parametrize("kind", sorted(ACCUMULATORS))
def test_pickle_round_trip(kind):
    y, scores, weights = tied_data(10, 80)
    accumulator = accumulated(kind, y, scores, weights, [np.arange(80)])
    restored = pickle.loads(pickle.dumps(accumulator))
    assert_same_results(restored, accumulator)
    np.testing.assert_array_equal(restored.labels, accumulator.labels)


def test_string_labels_follow_the_given_column_order():
    y = np.array(["owl", "cat", "dog", "owl"])
    scores = np.array([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3], [0.7, 0.2, 0.1], [0.3, 0.3, 0.4]])
    labels = ["owl", "cat", "dog"]
    counts = ConfusionAccumulator(labels).update(y, scores).compute()
    expected = sk.confusion_matrix(y, np.array(labels)[np.argmax(scores, axis=1)], labels=labels)
    np.testing.assert_array_equal(counts, expected)


@pytest.mark.parametrize("kind", sorted(ACCUMULATORS))
def test_merging_different_labels_raises(kind):
    accumulator = ACCUMULATORS[kind]()
    other = type(accumulator)([0, 1, 2, 4])
    with pytest.raises(ValueError, match="different labels"):
        accumulator.merge(other)
    with pytest.raises(TypeError, match="other must be"):
        accumulator.merge(object())


def test_merging_different_thresholds_or_k_raises():
    with pytest.raises(ValueError, match="different thresholds"):
        ConfusionAccumulator(LABELS).merge(ConfusionAccumulator(LABELS, thresholds=np.full((1, 4), 0.25)))
    with pytest.raises(ValueError, match="different k"):
        LossAccumulator(LABELS, k=1).merge(LossAccumulator(LABELS, k=2))
    with pytest.raises(ValueError, match="different cutoffs"):
        RankingAccumulator(LABELS, cutoffs=4).merge(RankingAccumulator(LABELS, cutoffs=5))
    with pytest.raises(ValueError, match="different cutoffs"):
        RankingAccumulator(LABELS).merge(RankingAccumulator(LABELS, cutoffs=4))
    with pytest.raises(ValueError, match="different cutoffs"):
        RankingAccumulator(LABELS, cutoffs=[0.5]).merge(RankingAccumulator(LABELS))


@pytest.mark.parametrize("kind", sorted(ACCUMULATORS))
def test_bad_batches_raise(kind):
    accumulator = ACCUMULATORS[kind]()
    y, scores, _ = tied_data(11, 10)
    with pytest.raises(ValueError, match="columns"):
        accumulator.update(y, scores[:, :3] / scores[:, :3].sum(axis=1, keepdims=True))
    with pytest.raises(ValueError, match="sample_weight"):
        accumulator.update(y, scores, sample_weight=-np.ones(10))
    with pytest.raises(ValueError, match="sample_weight"):
        accumulator.update(y, scores, sample_weight=np.ones(9))
    with pytest.raises(ValueError, match="y_true contains labels not in labels"):
        accumulator.update(y + 10, scores)
    with pytest.raises(ValueError, match="y_score"):
        accumulator.update(y, scores * 2)
    with pytest.raises(ValueError, match="sample_weight"):
        accumulator.update([], np.empty((0, 4)), sample_weight=[1.0])
    after = pickle.loads(pickle.dumps(ACCUMULATORS[kind]()))
    for x, z in zip(stored_arrays(accumulator), stored_arrays(after), strict=True):
        np.testing.assert_array_equal(x, z)  # failed updates changed nothing


def test_bad_constructor_arguments_raise():
    with pytest.raises(ValueError, match="labels"):
        RankingAccumulator([1, 1, 2])
    with pytest.raises(ValueError, match="thresholds"):
        ConfusionAccumulator(LABELS, thresholds=[0.25, 0.25, 0.25, 0.25])
    with pytest.raises(ValueError, match="thresholds"):
        ConfusionAccumulator(LABELS, thresholds=[[0.5, 0.5, 0.5, 0.5]])
    with pytest.raises(TypeError, match="k"):
        LossAccumulator(LABELS, k=1.5)


@pytest.mark.parametrize("accumulator", [LossAccumulator(LABELS), RankingAccumulator(LABELS)])
def test_compute_without_rows_raises(accumulator):
    with pytest.raises(ValueError, match="no weighted rows"):
        accumulator.compute()


# Binned mode. The bin of a score is counted by brute force (how many cut points are <= it), independently of
# the searchsorted of the accumulator; the AUCs of the bin indices come from scikit-learn's binary roc_auc_score.


def brute_force_bins(scores, cutpoints):
    return (np.asarray(scores)[..., None] >= np.asarray(cutpoints)).sum(axis=-1).astype(np.float64)


def dirichlet_data(seed, n, n_classes=4):
    """Continuous scores with signal, and integer weights 0..3 with the first row weighted."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    alpha = np.ones((n, n_classes))
    alpha[np.arange(n), y] += 1.5
    weights = rng.integers(0, 4, n).astype(np.float64)
    weights[0] = 1.0
    return y, np.array([rng.dirichlet(a) for a in alpha]), weights


def binned_oracle(y, scores, weights, cutpoints):
    """AUCs of the bin indices: OvR with scikit-learn per column, OvO with scikit-learn on the rows of each pair."""
    bins = brute_force_bins(scores, cutpoints)
    m = scores.shape[1]
    w = np.ones(y.size) if weights is None else weights
    support = np.array([w[y == k].sum() for k in range(m)])
    per_class = np.array([sk.roc_auc_score(y == k, bins[:, k], sample_weight=w) for k in range(m)])
    pairs, pair_support = [], []
    for a, b in itertools.combinations(range(m), 2):
        rows = (y == a) | (y == b)
        a_over_b = sk.roc_auc_score(y[rows] == a, bins[rows, a], sample_weight=w[rows])
        b_over_a = sk.roc_auc_score(y[rows] == b, bins[rows, b], sample_weight=w[rows])
        pairs.append((a_over_b + b_over_a) / 2)
        pair_support.append(support[a] + support[b])
    onehot = (y[:, None] == np.arange(m)).ravel()
    return {
        "roc_auc_ovr_macro": per_class.mean(),
        "roc_auc_ovr_weighted": np.average(per_class, weights=support),
        "roc_auc_ovr_micro": sk.roc_auc_score(onehot, bins.ravel(), sample_weight=np.repeat(w, m)),
        "roc_auc_ovo_macro": np.mean(pairs),
        "roc_auc_ovo_weighted": np.average(pairs, weights=pair_support),
        "roc_auc_ovr_per_class": per_class,
    }


def without_bounds(values):
    return {name: value for name, value in values.items() if name != "bounds"}


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize(
    ("cutoffs", "cutpoints"),
    [(4, [0.25, 0.5, 0.75]), (8, np.arange(1, 8) / 8), ([0.2, 1 / 3, 0.35, 0.9], [0.2, 1 / 3, 0.35, 0.9])],
)
def test_binned_aucs_equal_aucs_of_the_bin_indices(weighted, cutoffs, cutpoints):
    for y, scores, weights in (tied_data(12, 300, weighted=weighted), dirichlet_data(13, 300)):
        weights = weights if weighted else None
        accumulator = feed(RankingAccumulator(LABELS, cutoffs=cutoffs), uneven_batches(y, scores, weights))
        values = accumulator.compute()
        expected = binned_oracle(y, scores, weights, cutpoints)
        for name, value in expected.items():
            np.testing.assert_allclose(values[name], value, rtol=RTOL, atol=0, err_msg=name)
        kept = np.ones(y.size, bool) if weights is None else weights > 0
        bins = brute_force_bins(scores[kept], cutpoints)
        n_nonempty = [np.unique(bins[:, j]).size for j in range(4)]
        np.testing.assert_array_equal(accumulator.n_distinct, n_nonempty)


def assert_within_bounds(binned, exact):
    for name, value in without_bounds(exact).items():
        gap = np.abs(np.asarray(value) - np.asarray(binned[name]))
        assert np.all(gap <= np.asarray(binned["bounds"][name]) + 1e-12), name


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    cutoffs=st.one_of(
        st.integers(2, 12),
        st.lists(st.floats(0.01, 0.99), min_size=1, max_size=6, unique=True).map(sorted),
    ),
    tied=st.booleans(),
)
def test_exact_aucs_lie_within_the_bounds_of_the_binned_aucs(seed, cutoffs, tied):
    y, scores, weights = tied_data(seed, 80) if tied else dirichlet_data(seed, 80)
    binned = RankingAccumulator(LABELS, cutoffs=cutoffs).update(y, scores, sample_weight=weights).compute()
    assert_within_bounds(binned, expected_aucs(y, scores, weights))  # exact AUCs from metrics.roc_auc_score
    exact = RankingAccumulator(LABELS).update(y, scores, sample_weight=weights).compute()
    assert_within_bounds(binned, exact)


def test_bounds_equal_brute_force_share_of_pairs_in_one_bin():
    """Half the weight of a comparison's pairs that share a bin over the weight of all its pairs, pair by pair."""
    from fractions import Fraction

    y, scores, weights = tied_data(14, 40, n_classes=3)
    cutpoints = [0.3, 0.45, 0.6]
    bins = brute_force_bins(scores, cutpoints)
    values = RankingAccumulator([0, 1, 2], cutoffs=cutpoints).update(y, scores, sample_weight=weights).compute()

    def bound(k, others):
        rows = range(y.size)
        shared = sum(
            Fraction(int(weights[i] * weights[j]))
            for i in rows
            for j in rows
            if y[i] == k and y[j] in others and bins[i, k] == bins[j, k]
        )
        total = sum(Fraction(int(weights[i] * weights[j])) for i in rows for j in rows if y[i] == k and y[j] in others)
        return shared / 2 / total

    per_class = [bound(k, {j for j in range(3) if j != k}) for k in range(3)]
    np.testing.assert_allclose(values["bounds"]["roc_auc_ovr_per_class"], [float(b) for b in per_class], rtol=RTOL)
    pairs = [(bound(a, {b}) + bound(b, {a})) / 2 for a, b in itertools.combinations(range(3), 2)]
    assert values["bounds"]["roc_auc_ovo_macro"] == pytest.approx(float(sum(pairs) / 3), rel=RTOL)
    assert values["bounds"]["roc_auc_ovr_macro"] == pytest.approx(float(sum(per_class) / 3), rel=RTOL)


def test_bound_is_attained_when_every_pair_shares_a_bin():
    """All scores of column 0 in one bin, positives above negatives: binned 1/2, bound 1/2, exact 1."""
    y = np.array([0, 0, 1, 1])
    scores = np.array([[0.9, 0.1], [0.8, 0.2], [0.7, 0.3], [0.6, 0.4]])
    values = RankingAccumulator([0, 1], cutoffs=[0.5]).update(y, scores).compute()
    assert metrics.roc_auc_score(y, scores[:, 1]) == 1.0  # the exact AUCs are 1
    for name in ("roc_auc_ovr_macro", "roc_auc_ovo_macro", "roc_auc_ovo_weighted"):
        assert values[name] == 0.5
        assert values["bounds"][name] == 0.5
    np.testing.assert_array_equal(values["roc_auc_ovr_per_class"], [0.5, 0.5])
    np.testing.assert_array_equal(values["bounds"]["roc_auc_ovr_per_class"], [0.5, 0.5])


def test_int_cutoffs_are_equal_width_bins_and_merge_with_the_same_cut_points():
    y, scores, weights = tied_data(15, 60)
    by_count = RankingAccumulator(LABELS, cutoffs=4).update(y[:30], scores[:30], sample_weight=weights[:30])
    by_points = RankingAccumulator(LABELS, cutoffs=[0.25, 0.5, 0.75]).update(y[30:], scores[30:], weights[30:])
    merged = by_count.merge(by_points).compute()
    expected = binned_oracle(y, scores, weights, [0.25, 0.5, 0.75])
    for name, value in expected.items():
        np.testing.assert_allclose(merged[name], value, rtol=RTOL, atol=0, err_msg=name)


def test_binned_memory_does_not_grow_with_rows():
    accumulator = RankingAccumulator(LABELS, cutoffs=10)
    for seed in range(3):
        y, scores, weights = dirichlet_data(seed, 500)
        accumulator.update(y, scores, sample_weight=weights)
    assert accumulator.column_bins.shape == (4, 10, 4)
    assert accumulator.cell_bins.shape == (10, 2)


@pytest.mark.parametrize(
    ("cutoffs", "error", "match"),
    [
        (1, ValueError, ">= 2"),
        (0, ValueError, ">= 2"),
        (True, TypeError, "integer"),
        (2.5, TypeError, "integer"),
        ([0.5, 0.2], ValueError, "strictly increasing"),
        ([0.3, 0.3], ValueError, "strictly increasing"),
        ([0.2, np.nan], ValueError, "finite"),
        ([0.2, np.inf], ValueError, "finite"),
        ([], ValueError, "non-empty 1-D"),
        ([[0.2, 0.5]], ValueError, "non-empty 1-D"),
        (["a", "b"], TypeError, "real numbers"),
    ],
)
def test_bad_cutoffs_raise(cutoffs, error, match):
    with pytest.raises(error, match=f"cutoffs.*{match}|{match}"):
        RankingAccumulator(LABELS, cutoffs=cutoffs)


# --------------------------------------------------------------------------- EvaluationAccumulator


def _evaluation_problem(seed, n=240, m=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    P = np.round(rng.dirichlet(np.ones(m), n) + np.eye(m)[y] * rng.random((n, 1)), 1) + 0.01
    P /= P.sum(axis=1, keepdims=True)
    weights = rng.integers(0, 4, n).astype(float)
    return y, P, weights


@pytest.mark.parametrize("weighted", [True, False])
@pytest.mark.parametrize("m", [2, 4])
def test_evaluation_accumulator_equals_evaluate_in_any_batching(weighted, m):
    y, P, weights = _evaluation_problem(m, m=m)
    weights = weights if weighted else None
    expected = polyroc.evaluate(y, P, labels=list(range(m)), sample_weight=weights, random_state=3, n_boot=400)
    cuts = [0, 17, 17, 100, 240]
    batches = []
    for start, stop in itertools.pairwise(cuts):
        part = EvaluationAccumulator(list(range(m)))
        batches.append(part.update(y[start:stop], P[start:stop], None if weights is None else weights[start:stop]))
    merged = batches[3].merge(batches[0]).merge(batches[2].merge(batches[1]))
    found = merged.compute(random_state=3, n_boot=400)
    assert_same_evaluation(found, expected, delong=False)
    assert found.settings["engine"] == "stream"


def test_evaluation_accumulator_binned_reports_its_bounds_and_refuses_the_bootstrap():
    y, P, _ = _evaluation_problem(5)
    exact = polyroc.evaluate(y, P, n_boot=0).scores
    found = EvaluationAccumulator([0, 1, 2, 3], cutoffs=8).update(y, P).compute(n_boot=0)
    for name, bound in found.settings["auc_error_bounds"].items():
        assert abs(found.scores[name] - exact[name]) <= bound + 1e-12, name
        assert bound > 0
    with pytest.raises(ValueError, match="a stream keeps no rows to resample"):
        EvaluationAccumulator([0, 1, 2, 3]).update(y, P).compute(ci="bootstrap")
    with pytest.raises(ValueError, match="no weighted rows"):
        EvaluationAccumulator([0, 1]).compute()
    with pytest.raises(ValueError, match="different cutoffs"):
        EvaluationAccumulator([0, 1, 2, 3]).merge(EvaluationAccumulator([0, 1, 2, 3], cutoffs=4))


@pytest.mark.parametrize("kind", sorted(ACCUMULATORS))
def test_a_column_count_other_than_the_labels_is_named_before_the_values(kind):
    """Three columns off the simplex for four labels: the shape is the problem named, not the row sums."""
    y = np.array([0, 1, 2, 3])
    for scores in (np.full((4, 3), 0.3), np.full((4, 5), 0.3)):
        with pytest.raises(ValueError, match=rf"^y_score has {scores.shape[1]} columns but labels names 4 classes$"):
            ACCUMULATORS[kind]().update(y, scores)
        with pytest.raises(ValueError, match=rf"^y_score has {scores.shape[1]} columns but labels names 4 classes$"):
            polyroc.evaluate(y, scores, labels=LABELS)


# Warnings: a stream warns as evaluate does on the same rows, degenerate rows included.


def degenerate_rows(data):
    """Hypothesis-drawn rows: continuous, tied or constant scores; one class, an absent class or all; weights."""
    m = data.draw(st.integers(2, 4), label="m")
    n = data.draw(st.integers(1, 24), label="n")
    seed = data.draw(st.integers(0, 2**16), label="seed")
    rng = np.random.default_rng(seed)
    present = data.draw(st.sampled_from(["one class", "one absent", "all"]), label="classes")
    y = {"one class": np.full(n, m - 1), "one absent": rng.integers(1, m, n), "all": rng.integers(0, m, n)}[present]
    shape = data.draw(st.sampled_from(["continuous", "tied", "constant", "one-hot"]), label="scores")
    if shape == "continuous":
        scores = rng.dirichlet(np.ones(m), n)
    elif shape == "tied":
        integers = rng.integers(1, 3, (n, m)).astype(float)
        scores = integers / integers.sum(axis=1, keepdims=True)
    elif shape == "constant":
        scores = np.full((n, m), 1 / m)
    else:
        scores = np.eye(m)[rng.integers(0, m, n)]
    weights = rng.integers(0, 3, n).astype(float) if data.draw(st.booleans(), label="weighted") else None
    return m, y, scores, weights


def recorded(compute):
    """The result of ``compute()`` (or the type of the error it raised) and its distinct warnings (category, message).

    Repeats are dropped, as Python's default filter shows a message once per line of the caller.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = compute()
        except (ValueError, TypeError) as error:
            result = type(error)
    return result, {(w.category.__name__, str(w.message)) for w in caught}


def _undefined_intervals(result):
    """Names of the quantities whose interval ``result`` does not give (a stream has no DeLong interval)."""
    return {name for name, interval in result.intervals.items() if not np.isfinite(interval.low)}


def _only_about(message, names):
    """Whether ``message`` is evaluate's zero-width warning naming only quantities among ``names``."""
    match = re.match(r"the intervals? of (.+?) (?:has|have) zero width", message)
    return match is not None and set(match.group(1).split(", ")) <= names


def streamed_evaluation(labels, batches, **options):
    accumulator = EvaluationAccumulator(labels)
    for y, scores, weights in batches:
        accumulator.update(y, scores, sample_weight=weights)
    return accumulator.compute(**options)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_stream_warns_and_scores_as_evaluate_on_the_same_rows(data):
    m, y, scores, weights = degenerate_rows(data)
    cuts = data.draw(st.lists(st.integers(1, max(y.size - 1, 1)), max_size=3, unique=True).map(sorted), label="cuts")
    parts = [np.arange(a, b) for a, b in itertools.pairwise([0, *[c for c in cuts if c < y.size], y.size])]
    if weights is not None:
        weights[[part[0] for part in parts]] = 1.0  # a batch of zero weights only is refused; evaluate sees these too
    batches = [(y[p], scores[p], None if weights is None else weights[p]) for p in parts]
    labels = list(range(m))
    for n_boot in (0, 20):
        expected, expected_warnings = recorded(
            lambda n_boot=n_boot: polyroc.evaluate(
                y, scores, labels=labels, sample_weight=weights, n_boot=n_boot, random_state=0
            )
        )
        found, found_warnings = recorded(
            lambda n_boot=n_boot: streamed_evaluation(labels, batches, n_boot=n_boot, random_state=0)
        )
        if n_boot == 0:
            assert found_warnings == expected_warnings
        else:  # evaluate's DeLong intervals, which a stream does not have, may add a message, not a category
            without_interval = set() if isinstance(found, type) else _undefined_intervals(found)
            expected_categories = {c for c, message in expected_warnings if not _only_about(message, without_interval)}
            assert {c for c, _ in found_warnings} == expected_categories
        if isinstance(expected, type):
            assert found is expected
            continue
        for name, value in expected.scores.items():
            np.testing.assert_allclose(found.scores[name], value, rtol=RTOL, atol=1e-15, equal_nan=True, err_msg=name)
        np.testing.assert_array_equal(found.confusion_matrix, expected.confusion_matrix)


def test_tied_scores_warn_of_zero_width_only_where_an_interval_is_given():
    """All scores tied: evaluate's DeLong intervals have zero width and are named; a stream gives none, and says so."""
    y, weights = np.array([1, 1, 1, 0, 0, 0, 0, 0, 0]), np.array([1.0, 2, 0, 2, 2, 0, 1, 2, 1])
    scores = np.eye(2)[np.ones(9, dtype=int)]
    in_memory, expected = recorded(
        lambda: polyroc.evaluate(y, scores, sample_weight=weights, n_boot=20, random_state=0)
    )
    streamed, found = recorded(lambda: streamed_evaluation([0, 1], [(y, scores, weights)], n_boot=20, random_state=0))
    assert [c for c, message in expected if "zero width" in message] == ["IntervalWarning"]
    assert found == set()
    for name in ("roc_auc_ovr_macro", "roc_auc_ovo_macro"):
        assert in_memory.intervals[name].low == in_memory.intervals[name].high == 0.5
        assert np.isnan(streamed.intervals[name].low) and "none" in streamed.intervals[name].method
        per_class = {f"roc_auc of class {label!r}" for label in in_memory.class_intervals.get("roc_auc", {})}
        assert "roc_auc" not in streamed.class_intervals  # DeLong's per-class AUCs need the rows in memory
        assert _only_about(next(message for _, message in expected), _undefined_intervals(streamed) | per_class)


def test_a_stream_of_one_class_warns_that_its_aucs_are_undefined():
    """One class present with constant scores: NaN AUCs and the warning of evaluate, with the same message."""
    y, scores = [0, 0, 0, 0], np.full((4, 3), 1 / 3)
    with pytest.warns(UndefinedMetricWarning) as expected:
        in_memory = polyroc.evaluate(y, scores, labels=[0, 1, 2], n_boot=0)
    with pytest.warns(UndefinedMetricWarning) as found:
        streamed = (
            EvaluationAccumulator([0, 1, 2]).update(y[:1], scores[:1]).update(y[1:], scores[1:]).compute(n_boot=0)
        )
    assert [str(w.message) for w in found] == [str(w.message) for w in expected]
    assert np.isnan(streamed.scores["roc_auc_ovr_macro"]) and np.isnan(in_memory.scores["roc_auc_ovr_macro"])
    assert streamed.scores["roc_auc_ovr_micro"] == in_memory.scores["roc_auc_ovr_micro"] == 0.5


# Exact mode in bounded memory: sorted runs of (score, class code[, weight]) entries, merged level by level.


def continuous_weights(seed, n):
    return np.random.default_rng(seed).uniform(0.5, 2.0, n)  # never all 1, so they are stored


@pytest.mark.parametrize("weighted", [False, True])
def test_exact_memory_of_continuous_scores_is_a_score_and_a_class_code_per_cell(weighted):
    """Untied scores: 8 bytes of score and 1 of class code per (row, class) cell, 8 more with weights."""
    y, scores, _ = dirichlet_data(20, 3000)
    weights = continuous_weights(21, 3000) if weighted else None
    assert all(np.unique(scores[:, j]).size == 3000 for j in range(4))  # no ties: nothing to collapse
    accumulator = EvaluationAccumulator(LABELS)
    for start in range(0, 3000, 250):
        rows = slice(start, start + 250)
        accumulator.update(y[rows], scores[rows], None if weights is None else weights[rows])
    cell_bytes = 8 + 1 + (8 if weighted else 0)
    assert accumulator.ranking.nbytes == 3000 * 4 * cell_bytes + 4 * 8  # the cells, and the class weights
    summary_bytes = accumulator.nbytes - accumulator.ranking.nbytes
    calibration_bytes = (6 * 5 * 15 + (4 * 15) ** 2 + 1) * 8  # 15 bins of 5 columns, cross moments of 4 classes
    assert calibration_bytes < summary_bytes <= 40 * 4 * 8 + calibration_bytes  # whatever the rows
    accumulator.compute(n_boot=0)  # merges each column's runs into one: the same entries
    assert accumulator.ranking.nbytes == 3000 * 4 * cell_bytes + 4 * 8


def test_exact_memory_of_tied_scores_is_bounded_by_the_distinct_score_class_pairs():
    """One-hot scores: each column keeps one weighted entry per distinct (score, class), whatever the rows."""
    rng = np.random.default_rng(22)
    accumulator = RankingAccumulator(LABELS)
    y_all, scores_all = [], []
    for _ in range(40):
        y = rng.integers(0, 4, 500)
        scores = np.eye(4)[np.where(rng.random(500) < 0.7, y, rng.integers(0, 4, 500))]
        accumulator.update(y, scores)
        y_all.append(y)
        scores_all.append(scores)
    y, scores = np.concatenate(y_all), np.concatenate(scores_all)
    values = accumulator.compute()
    assert_same_aucs(values, expected_aucs(y, scores, None))
    distinct = sum(np.unique(np.column_stack((scores[:, j], y)), axis=0).shape[0] for j in range(4))
    assert distinct <= 4 * 2 * 4
    assert accumulator.nbytes == distinct * (8 + 1 + 8) + 4 * 8  # score, code and the count of each pair


@settings(max_examples=20, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 40), min_size=1, max_size=60),
    weighted=st.booleans(),
    seed=st.integers(0, 2**16),
    descending=st.booleans(),
)
def test_a_column_holds_logarithmically_many_runs_and_the_exact_aucs(sizes, weighted, seed, descending):
    """Batches of any sizes (e.g. ever shorter ones): at most one run per length class ceil(log2(length))."""
    sizes = sorted(sizes, reverse=True) if descending else sizes
    n = sum(sizes)
    y, scores, _ = dirichlet_data(seed, n)
    weights = continuous_weights(seed, n) if weighted else None
    accumulator = RankingAccumulator(LABELS)
    for start, stop in itertools.pairwise(np.cumsum([0, *sizes])):
        accumulator.update(y[start:stop], scores[start:stop], None if weights is None else weights[start:stop])
        held = [run[0].size for run in accumulator.runs[0]]
        assert len(held) <= int(np.ceil(np.log2(stop))) + 1
        assert sum(held) == stop
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # a class may be absent from few rows
        expected = expected_aucs(y, scores, weights)
        assert_same_aucs(accumulator.compute(), expected)


@pytest.mark.parametrize("n_classes", [3, 10])
def test_duplicated_rows_are_collapsed_and_keep_the_exact_aucs(n_classes):
    """Every row twice (every score tied with the same class): collapsed runs, AUCs of roc_auc_score."""
    rng = np.random.default_rng(23)
    y = rng.integers(0, n_classes, 400)
    scores = rng.dirichlet(np.ones(n_classes), 400)
    weights = rng.integers(1, 4, 400).astype(float)
    y, scores, weights = np.tile(y, 2), np.tile(scores, (2, 1)), np.tile(weights, 2)
    labels = np.arange(n_classes)
    accumulator = RankingAccumulator(labels)
    for start in range(0, 800, 100):
        accumulator.update(y[start : start + 100], scores[start : start + 100], weights[start : start + 100])
    values = accumulator.compute()
    assert accumulator.nbytes == 400 * n_classes * (8 + 1 + 8) + n_classes * 8  # one entry per distinct row
    for average in ("macro", "weighted", "micro"):
        expected = sk.roc_auc_score(y, scores, multi_class="ovr", average=average, sample_weight=weights)
        assert values[f"roc_auc_ovr_{average}"] == pytest.approx(expected, rel=RTOL)
    expected = metrics.roc_auc_score(y, scores, multi_class="ovo", sample_weight=weights, labels=labels)
    assert values["roc_auc_ovo_macro"] == pytest.approx(expected, rel=RTOL)


@pytest.mark.parametrize("make", [ConfusionAccumulator, LossAccumulator, RankingAccumulator, EvaluationAccumulator])
def test_weights_whose_total_overflows_over_batches_are_refused_before_they_are_added(make):
    """Each batch's weights are finite, their running total is not: refused naming sample_weight, state kept."""
    big = np.full(2, 0.3 * np.finfo(np.float64).max)  # a batch sums to 0.6 of the largest float64
    scores = np.array([[0.7, 0.3], [0.2, 0.8]])
    accumulator = make([0, 1]).update([0, 1], scores, sample_weight=big)
    with pytest.raises(ValueError, match=r"sample_weight \(of every batch so far\) sums past the largest float64"):
        accumulator.update([0, 1], scores, sample_weight=big)
    assert accumulator.weight_seen == pytest.approx(big.sum())
    other = make([0, 1]).update([0, 1], scores, sample_weight=big)
    with pytest.raises(ValueError, match=r"sample_weight \(of both accumulators\) sums past"):
        accumulator.merge(other)


def test_evaluation_accumulator_ci_none_gives_no_interval_and_the_scores_of_scikit_learn():
    y, P, weights = _evaluation_problem(6)
    found = EvaluationAccumulator([0, 1, 2, 3]).update(y, P, weights).compute(ci="none", random_state=0)
    assert found.intervals == {} and found.settings["ci"] == "none" and found.settings["n_boot"] == 0
    assert found.scores["accuracy"] == pytest.approx(sk.accuracy_score(y, P.argmax(axis=1), sample_weight=weights))
    assert found.scores["roc_auc_ovr_macro"] == pytest.approx(
        sk.roc_auc_score(y, P, multi_class="ovr", sample_weight=weights)
    )
