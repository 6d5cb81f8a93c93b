"""Batched bootstrap replicates of gini_roc against a per-replicate oracle; threads, draws, progress, warnings.

The oracle recomputes each replicate directly: the rows repeated by their
multiplicity (or weighted by multiplicity times sample weight), the Gini
weights of that resample by the point-estimate path, and the one-vs-rest
curves and AUCs by scikit-learn, averaged vertically on the band grid with
``np.interp``.
"""

import warnings
from itertools import pairwise

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score, roc_curve

from polyroc._engine.progress import listening
from polyroc._validation import check_random_state
from polyroc.gini import WhiteningWarning, gini_roc, zca_cor_whitening
from polyroc.gini._replicates import ReplicateDraws
from polyroc.gini._roc import BAND_POINTS, _VerticalReplicates
from polyroc.resampling import bootstrap_multiplicities, percentile_interval

OPTIONS = {"singular": "limit", "ridge": None, "constant": "drop"}


def tied_probabilities(n, m, seed, decimals=1):
    """Labels and probability rows rounded to ``decimals`` (many ties; None: none), every class present."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    y[:m] = np.arange(m)
    scores = rng.dirichlet(np.ones(m), n) + 0.4 * np.eye(m)[y]
    if decimals is not None:
        scores = np.round(scores, decimals)
    return y, scores / scores.sum(axis=1, keepdims=True)


def oracle_replicate(y, scores, weights, labels, fpr_grid, grid, reference):
    """Curve weights, aggregated TPR at ``fpr_grid`` and area of one replicate, computed directly."""
    kept = weights > 0
    y, scores, weights = y[kept], scores[kept], weights[kept]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        point = gini_roc(
            y, scores, labels=labels, sample_weight=weights, reference_scores=reference, absent="drop", n_boot=0
        )
    if np.isnan(point.weights).all():
        return point.weights, fpr_grid.copy(), 0.5
    tpr, auc = np.zeros_like(fpr_grid), 0.0
    for k, share in enumerate(point.weights):
        if share > 0:
            fpr_k, tpr_k, _ = roc_curve(y == labels[k], scores[:, k], sample_weight=weights)
            tpr += share * np.interp(fpr_grid, fpr_k, tpr_k)
            auc += share * roc_auc_score(y == labels[k], scores[:, k], sample_weight=weights)
    if grid is not None:
        auc = np.trapezoid(tpr, fpr_grid)
    return point.weights, tpr, auc


def batched_and_oracle(y, scores, sample_weight, *, n_boot, seed, grid=None, labels=None, reference=None):
    labels = np.arange(scores.shape[1]) if labels is None else np.asarray(labels)
    present = np.isin(labels, y)
    fixed = None if reference is None else zca_cor_whitening(reference)
    engine = _VerticalReplicates(
        y, scores, sample_weight, present, labels, fixed, OPTIONS, grid, n_boot, check_random_state(seed)
    )
    batched = [np.concatenate(values) for values in zip(*(engine(chunk) for chunk in engine.chunks()))]
    fpr_grid = np.linspace(0, 1, grid or BAND_POINTS)
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, n_boot, random_state=seed)))
    rows = []
    for multiplicity in multiplicities:
        weights = multiplicity if sample_weight is None else multiplicity * sample_weight
        rows.append(oracle_replicate(y, scores, weights.astype(np.float64), labels, fpr_grid, grid, reference))
    return batched, [np.array(values) for values in zip(*rows)]


def assert_same_replicates(batched, oracle, atol=1e-12):
    for name, got, want in zip(("weights", "tpr", "auc"), batched, oracle):
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
        np.testing.assert_allclose(got, want, rtol=0, atol=atol, equal_nan=True, err_msg=name)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("grid", [None, 17])
def test_batched_replicates_equal_the_direct_computation(seed, weighted, grid):
    y, scores = tied_probabilities(120, 4, seed)
    sample_weight = np.random.default_rng(seed + 10).uniform(0.2, 3.0, y.size) if weighted else None
    batched, oracle = batched_and_oracle(y, scores, sample_weight, n_boot=70, seed=seed, grid=grid)
    assert_same_replicates(batched, oracle)


def test_batched_replicates_with_integer_weights_equal_repeated_rows():
    y, scores = tied_probabilities(90, 3, 5, decimals=2)
    sample_weight = np.random.default_rng(3).integers(1, 4, y.size).astype(np.float64)
    batched, oracle = batched_and_oracle(y, scores, sample_weight, n_boot=40, seed=2)
    assert_same_replicates(batched, oracle)
    # the same replicates from the rows repeated by (multiplicity x weight): curves and AUCs of repeated rows
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, 40, random_state=2)))
    for r in (0, 17, 39):
        rows = np.repeat(np.arange(y.size), (multiplicities[r] * sample_weight).astype(int))
        auc = sum(
            share * roc_auc_score(y[rows] == k, scores[rows, k]) for k, share in enumerate(batched[0][r]) if share > 0
        )
        assert batched[2][r] == pytest.approx(auc, abs=1e-12)


def test_batched_replicates_with_a_reference_whitening_and_an_absent_class():
    y, scores = tied_probabilities(150, 4, 7)
    y[y == 2] = 0
    reference = tied_probabilities(60, 4, 8, decimals=3)[1]
    batched, oracle = batched_and_oracle(y, scores, None, n_boot=40, seed=4, reference=reference)
    assert_same_replicates(batched, oracle)
    assert np.all(batched[0][:, 2] == 0)


def test_replicates_with_constant_drawn_scores_get_the_diagonal():
    y = np.array([0, 0, 0, 1, 1, 2])
    scores = np.array([[0.5, 0.3, 0.2]] * 3 + [[0.2, 0.5, 0.3]] * 2 + [[0.1, 0.1, 0.8]])
    batched, oracle = batched_and_oracle(y, scores, None, n_boot=60, seed=1)
    assert_same_replicates(batched, oracle)
    constant = np.isnan(batched[0]).all(axis=1)
    assert not constant.any() or np.all(batched[2][constant] == 0.5)


def test_a_column_constant_in_some_replicates_is_refitted_exactly():
    # class 2's column takes a second value on one row only: constant whenever that row is not drawn
    y, scores = tied_probabilities(40, 3, 9)
    scores = scores.copy()
    scores[:, 2] = 0.25
    scores[0, 2] = 0.75
    scores[:, :2] *= (1 - scores[:, 2:]) / scores[:, :2].sum(axis=1, keepdims=True)
    batched, oracle = batched_and_oracle(y, scores, None, n_boot=60, seed=3)
    assert_same_replicates(batched, oracle)


def test_public_bands_are_the_percentiles_of_the_oracle_replicates():
    y, scores = tied_probabilities(100, 3, 11)
    result = gini_roc(y, scores, n_boot=60, random_state=6)
    _, (weights, tpr, auc) = batched_and_oracle(y, scores, None, n_boot=60, seed=6)
    low, high = percentile_interval(tpr)
    np.testing.assert_allclose(result.bootstrap.tpr_low, low, atol=1e-12)
    np.testing.assert_allclose(result.bootstrap.tpr_high, high, atol=1e-12)
    low, high = percentile_interval(weights)
    np.testing.assert_allclose(result.bootstrap.weights_low, low, atol=1e-12)
    np.testing.assert_allclose(result.bootstrap.weights_high, high, atol=1e-12)
    assert (result.bootstrap.auc.low, result.bootstrap.auc.high) == pytest.approx(percentile_interval(auc), abs=1e-12)
    assert result.bootstrap.auc_se == pytest.approx(np.std(auc, ddof=1), abs=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_threads_do_not_change_the_bootstrap(monkeypatch, weighted):
    y, scores = tied_probabilities(300, 5, 12, decimals=2)
    sample_weight = np.random.default_rng(1).uniform(0.5, 2, y.size) if weighted else None
    results = []
    for threads in ("1", "2"):
        monkeypatch.setenv("POLYROC_THREADS", threads)
        results.append(gini_roc(y, scores, sample_weight=sample_weight, n_boot=200, random_state=3).bootstrap)
    one, two = results
    for name in ("tpr_low", "tpr_high", "weights_low", "weights_high"):
        np.testing.assert_array_equal(getattr(one, name), getattr(two, name))
    assert (one.auc.low, one.auc.high, one.auc_se) == (two.auc.low, two.auc.high, two.auc_se)


@pytest.mark.parametrize("random_state", [0, "generator"])
def test_replicate_draws_are_those_of_bootstrap_multiplicities(random_state):
    y = np.random.default_rng(0).integers(0, 3, 50)

    def generator():
        return np.random.default_rng(42) if random_state == "generator" else check_random_state(random_state)

    expected_rng = generator()
    expected = np.vstack(list(bootstrap_multiplicities(y, 23, random_state=expected_rng)))
    rng = generator()
    draws = ReplicateDraws(y, 23, rng)
    for starts in ([0, 23], [0, 5, 6, 20, 23]):
        chunks = [draws(a, b - a) for a, b in pairwise(starts)]  # class after class: sample i in column positions[i]
        np.testing.assert_array_equal(np.vstack(chunks)[:, draws.positions], expected)
    # the generator is left as bootstrap_multiplicities leaves it
    np.testing.assert_array_equal(
        next(bootstrap_multiplicities(y, 3, random_state=rng)),
        next(bootstrap_multiplicities(y, 3, random_state=expected_rng)),
    )


def test_progress_counts_every_replicate():
    y, scores = tied_probabilities(200, 3, 13)
    events = []
    with listening(lambda name, done, total: events.append((name, done, total))):
        gini_roc(y, scores, n_boot=150, random_state=0)
    replicates = [event for event in events if event[0] == "bootstrap replicates"]
    assert replicates[0] == ("bootstrap replicates", 0, 150) and replicates[-1] == ("bootstrap replicates", 150, 150)
    assert len(replicates) > 2  # advanced chunk by chunk


def test_probability_rows_are_quiet_and_further_degeneracy_warns():
    y, scores = tied_probabilities(200, 4, 14, decimals=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)
        result = gini_roc(y, scores, n_boot=20, random_state=0)
        float32 = gini_roc(y, scores.astype(np.float32), n_boot=0)  # sums off by ~1e-7 still count
    assert result.degenerate and result.settings["whitening"] == "limit"
    assert float32.degenerate
    # a fifth column equal to the first: a second null direction beyond the sum-to-one constraint
    collinear = np.column_stack((scores, scores[:, 0])) / np.column_stack((scores, scores[:, 0])).sum(1, keepdims=True)
    with pytest.warns(WhiteningWarning, match="2 null direction.*rows with a constant sum account for only one"):
        gini_roc(y, collinear, labels=np.arange(5), absent="drop", n_boot=0)
    # rows with another constant sum (here 2) are the same expected case
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)
        assert gini_roc(y, 2 * scores, n_boot=0).degenerate
    # scores whose row sums vary and are singular (a repeated column) still warn
    repeated = np.column_stack((scores[:, :3] * 2, scores[:, 0] * 2))
    with pytest.warns(WhiteningWarning, match="1 null direction"):
        gini_roc(y, repeated, n_boot=0)


def test_replicate_moments_run_with_one_blas_thread(monkeypatch):
    # the chunks already run on every core: a multithreaded BLAS inside them competes for the same cores
    from threadpoolctl import threadpool_info, threadpool_limits

    from polyroc.gini import _replicates

    seen = []
    original = _replicates.weighted_column_sums

    def recording(columns, weight_rows):
        seen.extend(pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas")
        return original(columns, weight_rows)

    monkeypatch.setattr(_replicates, "weighted_column_sums", recording)
    y, scores = tied_probabilities(300, 3, seed=2, decimals=None)
    with threadpool_limits(limits=2, user_api="blas"):
        gini_roc(y, scores, n_boot=20, random_state=0)
    assert seen and set(seen) == {1}


@pytest.mark.parametrize("decimals", [1, 2, None])
def test_segment_counts_equal_brute_force_counts_above_each_positive_score(decimals):
    # the sums over runs between the points read give, per replicate and positive-holding tie group of
    # scores, the multiplicities of the negatives and positives scored strictly above it and at or above it
    from polyroc.gini._replicates import rank_classes, segment_counts, segment_sums

    y, scores = tied_probabilities(70, 4, seed=11, decimals=decimals)
    multiplicities = np.random.default_rng(3).integers(0, 4, size=(5, y.size))
    multiplicities[0, :10] = 300  # past a byte: held as int32
    for k, ranking in enumerate(rank_classes(y, scores)):
        values = np.unique(scores[y == k, k])[::-1]  # the positive-holding groups, descending
        positive = y == k
        for dtype in (np.uint8, np.int32):
            rows = multiplicities if dtype is np.int32 else np.minimum(multiplicities, 255)
            counts = segment_counts(segment_sums(ranking), np.ascontiguousarray(rows.T, dtype=dtype))
            for r, row in enumerate(rows):
                above = scores[:, k][None, :] > values[:, None]
                at_or_above = scores[:, k][None, :] >= values[:, None]
                np.testing.assert_array_equal(counts.fps_before[r], above[:, ~positive] @ row[~positive])
                np.testing.assert_array_equal(counts.fps_after[r], at_or_above[:, ~positive] @ row[~positive])
                np.testing.assert_array_equal(counts.tps_before[r], above[:, positive] @ row[positive])
                np.testing.assert_array_equal(counts.tps_after[r], at_or_above[:, positive] @ row[positive])
                assert counts.negatives[r] == row[~positive].sum() and counts.positives[r] == row[positive].sum()


@pytest.mark.parametrize("block", [1, 3, 8, 16])
def test_class_statistics_do_not_depend_on_the_block_of_replicates(monkeypatch, block):
    # blocks of any size give the per-class AUCs of scikit-learn on the rows weighted by their multiplicity
    from polyroc.gini import _replicates

    y, scores = tied_probabilities(90, 3, seed=5, decimals=2)
    multiplicities = np.random.default_rng(block).integers(0, 4, size=(19, y.size)).astype(np.float64)
    rankings = _replicates.rank_classes(y, scores)
    fpr_grid = np.linspace(0.0, 1.0, 11)
    monkeypatch.setattr(_replicates, "curve_rows", lambda n_samples, integer: block)
    auc, tpr = _replicates.class_statistics(rankings, multiplicities, fpr_grid, integer=True)
    for r, row in enumerate(multiplicities):
        kept = row > 0
        for k in range(3):
            positive = y[kept] == k
            expected = roc_auc_score(positive, scores[kept, k], sample_weight=row[kept])
            assert auc[r, k] == pytest.approx(expected, abs=1e-12)
            fpr_k, tpr_k, _ = roc_curve(positive, scores[kept, k], sample_weight=row[kept])
            np.testing.assert_allclose(tpr[r, k], np.interp(fpr_grid, fpr_k, tpr_k), rtol=0, atol=1e-12)
