"""Default tuning and clouds at many classes: auto search, exact margin line searches, thread independence.

Oracles: scikit-learn's f1_score on the predictions of the returned rule, a
dense scan of the rule along one coordinate, and the counts metrics of
polyroc.counts on explicit confusion matrices.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import f1_score

from polyroc._engine.progress import listening
from polyroc._validation import check_scores
from polyroc.counts import get_metric
from polyroc.thresholds import (
    SimplexThresholdClassifier,
    compare_rules,
    coordinate_start_resolution,
    default_cloud_samples,
    roc_cloud,
    tune_thresholds,
)
from polyroc.thresholds.search import best_on_line, coordinate_bounds, line_values, margin_metric

MARGIN_METRICS = ["accuracy", "f1_macro", "recall_macro", "precision_macro", "balanced_accuracy", "mcc"]


def macro_f1(y, pred, m):
    return f1_score(y, pred, labels=np.arange(m), average="macro", zero_division=0)


def biased_against_rare_classes(seed, n=3000, m=20, rare=(4, 11)):
    """Scores favouring the true class, with two rare classes whose scores are shrunk 4-fold."""
    rng = np.random.default_rng(seed)
    prior = np.ones(m)
    prior[list(rare)] = 0.15
    y = rng.choice(m, size=n, p=prior / prior.sum())
    alpha = np.ones((n, m))
    alpha[np.arange(n), y] += 6.0
    scores = rng.gamma(alpha)
    scores[:, list(rare)] /= 4.0
    return y, scores / scores.sum(axis=1, keepdims=True)


def test_default_search_at_20_classes_beats_argmax_on_biased_rare_classes():
    y, P = biased_against_rare_classes(0)
    result = tune_thresholds(y, P)
    assert result.search == "coordinate" and result.metric == "f1_macro"
    assert result.resolution == coordinate_start_resolution(y.size, 20)
    assert not result.equals_argmax
    tuned = macro_f1(y, result.predict(P), 20)
    argmax = macro_f1(y, np.argmax(P, axis=1), 20)
    assert result.best_score == pytest.approx(tuned, abs=1e-12)
    assert result.argmax_score == pytest.approx(argmax, abs=1e-12)
    assert tuned > argmax + 0.03
    # the rare classes get the lowest thresholds
    assert set(np.argsort(result.best_threshold)[:2]) == {4, 11}


def test_default_search_keeps_argmax_when_it_is_optimal():
    m = 20
    y = np.repeat(np.arange(m), 15)
    P = np.full((y.size, m), 0.1 / (m - 1))
    P[np.arange(y.size), y] = 0.9  # perfectly separated: argmax has macro-F1 1
    result = tune_thresholds(y, P)
    assert result.search == "coordinate"
    assert result.equals_argmax and result.best_score == result.argmax_score == 1.0
    symmetric = tune_thresholds(y, np.roll(P, 1, axis=1) * 0 + 1 / m)  # all scores equal
    assert symmetric.best_score == pytest.approx(macro_f1(y, symmetric.predict(np.full(P.shape, 1 / m)), m))
    assert symmetric.best_score >= symmetric.argmax_score


@pytest.mark.parametrize("m, search", [(3, "lattice"), (4, "lattice"), (5, "coordinate"), (11, "coordinate")])
def test_auto_search_depends_on_the_number_of_classes_and_is_recorded(m, search):
    rng = np.random.default_rng(m)
    y = rng.integers(0, m, 200)
    P = rng.dirichlet(np.ones(m), 200)
    result = tune_thresholds(y, P)
    assert result.settings["search"] == search and result.n_samples is None
    expected_resolution = {3: 200, 4: 51}.get(m, coordinate_start_resolution(200, m))
    assert result.resolution == expected_resolution
    assert tune_thresholds(y, P, resolution=5).search == "lattice"
    assert tune_thresholds(y, P, n_samples=50, random_state=0).search == "random"


def test_compare_rules_and_the_classifier_share_the_default_search_and_metric():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 4))
    y = (X[:, 0] > 0) + 2 * (X[:, 1] > 0) + (X[:, 2] > 1)
    from sklearn.linear_model import LogisticRegression

    clf = SimplexThresholdClassifier(LogisticRegression(), cv=3).fit(X, y)
    assert clf.tuning_result_.search == "coordinate" and clf.tuning_result_.metric == "f1_macro"
    P = clf.predict_proba(X)
    table = compare_rules(y, P, y_val=y, val_scores=P)
    assert table.metric == "f1_macro" and table.settings["search"] == "coordinate"
    assert table.rows["validation"]["tuned"] == pytest.approx(macro_f1(y, table.tuning.predict(P), 5), abs=1e-12)


def test_coordinate_search_without_start_from_the_barycentre_alone():
    y, P = biased_against_rare_classes(1, n=400)
    result = tune_thresholds(y, P, search="coordinate", return_surface=True)
    assert result.resolution == coordinate_start_resolution(400, 20)
    big = coordinate_start_resolution(10**6, 20)
    assert big is None  # even the m vertices cost more than the start budget there


def dyadic(seed, n, m, total=16):
    rng = np.random.default_rng(seed)
    cuts = np.sort(rng.integers(0, total + 1, (n, m - 1)), axis=1)
    parts = np.diff(np.concatenate([np.zeros((n, 1), int), cuts, np.full((n, 1), total)], axis=1), axis=1)
    return rng.integers(0, m, n), parts / total, rng


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.integers(3, 80), st.sampled_from(MARGIN_METRICS), st.booleans())
def test_margin_line_search_is_the_dense_scan_optimum(seed, m, n, metric, weighted):
    y, P, rng = dyadic(seed, n, m)
    weights = rng.integers(1, 4, n).astype(float) if weighted else None
    targets = check_scores(y, P, labels=np.arange(m), sample_weight=weights)
    score_counts = get_metric(metric)
    tau = rng.integers(0, 5, m) / 16
    j = int(rng.integers(0, m))
    # breakpoints are multiples of 1/16: odd multiples of 1/64 hit every open segment
    grid_t = np.arange(-95, 96, 2) / 64
    predictions = np.argmax(P[None] - np.where(np.arange(m) == j, grid_t[:, None], tau)[:, None, :], axis=2)
    w = np.ones(n) if weights is None else weights
    dense = [
        score_counts(np.bincount(y * m + pred, weights=w, minlength=m * m).reshape(1, m, m))[0] for pred in predictions
    ]
    t, best = best_on_line(targets, tau, j, (-1.5, 1.5), score_counts, margin_metric(metric))
    assert best == pytest.approx(max(dense), abs=1e-9)
    moved = tau.copy()
    moved[j] = t
    pred = np.argmax(P - moved, axis=1)
    assert score_counts(np.bincount(y * m + pred, weights=w, minlength=m * m).reshape(1, m, m))[0] == pytest.approx(
        best, abs=1e-9
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(2, 300), st.sampled_from(MARGIN_METRICS), st.booleans())
def test_margin_line_values_equal_the_full_counts_sweep(seed, m, n, metric, weighted):
    rng = np.random.default_rng(seed)
    y, P = rng.integers(0, m, n), rng.dirichlet(np.ones(m), n)
    # integer-valued weights keep both sweeps exact (float weights leave rounding residues in
    # emptied cells, where ratios like precision are arbitrary in both)
    weights = rng.integers(1, 5, n).astype(float) if weighted else None
    targets = check_scores(y, P, labels=np.arange(m), sample_weight=weights)
    tau = rng.dirichlet(np.ones(m))
    j = int(rng.integers(0, m))
    bounds = coordinate_bounds(tau, j, "simplex")
    full_edges, full_values = line_values(targets, tau, j, bounds, get_metric(metric))
    form = margin_metric(metric)
    edges, values = line_values(targets, tau, j, bounds, get_metric(metric), form)
    np.testing.assert_array_equal(edges, full_edges)
    np.testing.assert_allclose(values, full_values, rtol=0, atol=1e-9)
    exact_edges, exact_values = line_values(targets, tau, j, bounds, get_metric(metric), form, exact=True)
    np.testing.assert_array_equal(exact_edges, full_edges)
    np.testing.assert_array_equal(exact_values, full_values)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 7), st.sampled_from(MARGIN_METRICS))
def test_margin_forms_equal_the_counts_metrics(seed, m, metric):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, (5, m, m)) * (rng.random((5, m, m)) < 0.6)
    counts[0, 0] = 0  # a class without true samples
    counts[1, :, 1] = 0  # a class never predicted
    form = margin_metric(metric)
    tp = np.diagonal(counts, axis1=1, axis2=2).astype(float)
    values = np.array(
        [form(tp[i : i + 1], counts[i].sum(axis=0)[None] * 1.0, counts[i].sum(axis=1) * 1.0)[0] for i in range(5)]
    )
    expected = get_metric(metric)(counts)
    np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)


def test_results_do_not_depend_on_the_number_of_threads(monkeypatch):
    rng = np.random.default_rng(5)
    m = 6
    y, P = rng.integers(0, m, 3000), rng.dirichlet(np.ones(m), 3000)
    runs = []
    for threads in ("1", "2"):
        monkeypatch.setenv("POLYROC_THREADS", threads)
        cloud = roc_cloud(y, P)
        lattice = tune_thresholds(y, P, resolution=6, return_surface=True)
        runs.append((cloud, lattice, tune_thresholds(y, P)))
    (cloud1, lattice1, auto1), (cloud2, lattice2, auto2) = runs
    assert cloud1.settings == cloud2.settings
    np.testing.assert_array_equal(cloud1.thresholds, cloud2.thresholds)
    np.testing.assert_array_equal(cloud1.tpr, cloud2.tpr)
    np.testing.assert_array_equal(cloud1.dfp, cloud2.dfp)
    np.testing.assert_array_equal(lattice1.scores, lattice2.scores)
    np.testing.assert_array_equal(auto1.best_threshold, auto2.best_threshold)


def test_default_cloud_is_random_with_bounded_size_and_reproducible():
    rng = np.random.default_rng(6)
    m = 8
    y, P = rng.integers(0, m, 500), rng.dirichlet(np.ones(m), 500)
    cloud = roc_cloud(y, P)
    assert cloud.settings["search"] == "random" and cloud.settings["random_state"] == 0
    assert cloud.n_thresholds == cloud.settings["n_samples"] == default_cloud_samples(500, m)
    again = roc_cloud(y, P, search="random", n_samples=cloud.n_thresholds, random_state=0)
    np.testing.assert_array_equal(again.thresholds, cloud.thresholds)
    # each point is the rule at its threshold (sklearn-free oracle: explicit OvR rates)
    for tau, tpr in zip(cloud.thresholds[:20], cloud.tpr[:20]):
        pred = np.argmax(P - (tau - tau.min()), axis=1)
        np.testing.assert_allclose(tpr, [np.mean(pred[y == j] == j) for j in range(m)], atol=1e-12)
    assert default_cloud_samples(10**6, 10) * 10**6 * 10 <= 10**9
    small = roc_cloud(y % 3, P[:, :3] / P[:, :3].sum(axis=1, keepdims=True))
    assert small.settings["search"] == "lattice" and small.settings["resolution"] == 200


def test_long_loops_report_progress():
    y, P = biased_against_rare_classes(2, n=300, m=6, rare=(1, 2))
    events = []
    with listening(lambda name, done, total: events.append((name, done, total))):
        tune_thresholds(y, P)
        roc_cloud(y, P)
    names = {name for name, _, _ in events}
    assert {"coordinate sweeps", "lattice points", "random thresholds"} <= names
    for name in names:
        done, total = [(d, t) for n, d, t in events if n == name][-1]
        assert done == total
