"""One sort per score column shared by the point AUCs and DeLong's influences (_engine.ranking, intervals._delong).

- the pairwise and micro-average wins against brute-force Mann-Whitney counts over every pair,
  with heavy ties, all-equal columns and weights (zeros included);
- evaluate's AUCs against scikit-learn, and its DeLong intervals against those of roc_auc_interval;
- evaluate sorts each score column once (plus the true-class cells), never the n m cells;
- evaluate's peak memory stays a small multiple of the score matrix.
"""

import tracemalloc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sklearn_metrics

import polyroc
from polyroc._engine.ranking import micro_auc
from polyroc.intervals import roc_auc_interval
from polyroc.intervals._delong import AUC_KEYS, auc_influences


def mann_whitney(positive, negative, w_positive, w_negative):
    """Weighted count of (positive, negative) pairs ranked correctly, ties half, from every pair."""
    greater = (positive[:, None] > negative[None, :]) + 0.5 * (positive[:, None] == negative[None, :])
    return float(w_positive @ greater @ w_negative)


@st.composite
def problems(draw):
    """Labels, a score matrix (few distinct values, or continuous; maybe an all-equal column) and weights."""
    m = draw(st.integers(2, 5))
    n = draw(st.integers(2, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    levels = draw(st.sampled_from([1, 2, 3, 10, None]))  # None: continuous
    S = rng.random((n, m)) if levels is None else rng.integers(0, levels, (n, m)) / levels
    if draw(st.booleans()):
        S[:, rng.integers(0, m)] = 0.25  # an all-equal column
    weighting = draw(st.sampled_from(["none", "positive", "with zeros"]))
    w = None
    if weighting != "none":
        w = rng.integers(1, 5, n).astype(np.float64)
        if weighting == "with zeros":
            w[rng.random(n) < 0.3] = 0.0
            w[0] = 1.0  # not all zero
    return y, S, w


@settings(max_examples=150, deadline=None)
@given(problems())
def test_wins_match_brute_force_mann_whitney(problem):
    from polyroc._engine.ranking import ranking_wins
    from polyroc.intervals._delong import ranked_influences

    y, S, w = problem
    n, m = S.shape
    weights = np.ones(n) if w is None else w
    wins, micro_wins = ranking_wins(y, S, w, micro=True)
    for k in range(m):
        for j in range(m):
            if j != k:
                a, b = y == k, y == j
                expected = mann_whitney(S[a, k], S[b, k], weights[a], weights[b])
                assert wins[k, j] == pytest.approx(expected, abs=1e-9)
    cells = (y[:, None] == np.arange(m)).ravel()
    cell_weights = np.repeat(weights, m)
    expected = mann_whitney(S.ravel()[cells], S.ravel()[~cells], cell_weights[cells], cell_weights[~cells])
    assert micro_wins == pytest.approx(expected, abs=1e-9)
    found = ranked_influences(y, S, w, AUC_KEYS, micro=True)
    np.testing.assert_allclose(found.wins - np.diag(np.diag(found.wins)), wins - np.diag(np.diag(wins)), atol=1e-9)
    assert found.micro_wins == pytest.approx(micro_wins, abs=1e-9)


@settings(max_examples=100, deadline=None)
@given(problems())
def test_shared_sorts_give_scikit_learns_aucs(problem):
    from polyroc.intervals._delong import ranked_influences

    y, S, w = problem
    m = S.shape[1]
    if m < 3 or np.unique(y if w is None else y[w > 0]).size < m:
        return  # scikit-learn's multiclass AUC needs three classes or more, each with weight
    P = S + 1e-3
    P /= P.sum(axis=1, keepdims=True)
    found = ranked_influences(y, P, w, AUC_KEYS, micro=True).influences
    for multi_class, average in [("ovr", "macro"), ("ovr", "weighted"), ("ovo", "macro")]:
        if multi_class == "ovo" and w is not None:
            continue  # scikit-learn does not weight OvO
        expected = sklearn_metrics.roc_auc_score(y, P, multi_class=multi_class, average=average, sample_weight=w)
        assert found[multi_class, average][0] == pytest.approx(expected, abs=1e-12)
    binarized = (y[:, None] == np.arange(m)).astype(int)
    expected = sklearn_metrics.roc_auc_score(binarized, P, average="micro", sample_weight=w)
    assert found["ovr", "micro"][0] == pytest.approx(expected, abs=1e-12)
    assert micro_auc(y, P, w) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_evaluate_shares_its_sorts_and_keeps_its_intervals(monkeypatch, weighted):
    """The AUCs and DeLong intervals of evaluate are those of roc_auc_score and roc_auc_interval."""
    rng = np.random.default_rng(3)
    n, m = 3000, 4
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n) + 0.5 * np.eye(m)[y]
    P = np.round(P / P.sum(axis=1, keepdims=True), 2)  # ties
    P /= P.sum(axis=1, keepdims=True)
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    result = polyroc.evaluate(y, P, sample_weight=w, random_state=0)
    for multi_class, average in [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro")]:
        name = f"roc_auc_{multi_class}_{average}"
        expected = roc_auc_interval(y, P, multi_class=multi_class, average=average, sample_weight=w)
        interval = result.intervals[name]
        assert result.scores[name] == pytest.approx(expected.estimate, abs=1e-12)
        assert (interval.low, interval.high) == pytest.approx((expected.low, expected.high), abs=1e-12)
        if multi_class == "ovr" and not weighted:
            options = {"average": average} if average != "micro" else {"average": "micro"}
            truth = (
                sklearn_metrics.roc_auc_score(np.eye(m)[y], P, **options)
                if average == "micro"
                else sklearn_metrics.roc_auc_score(y, P, multi_class="ovr", **options)
            )
            assert result.scores[name] == pytest.approx(truth, abs=1e-12)


def test_evaluate_sorts_each_column_once(numpy_call_sizes):
    """One argsort per score column, one of the true-class cells, none of the n m cells."""
    rng = np.random.default_rng(0)
    n, m = 2000, 6
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n)
    polyroc.evaluate(y, P, random_state=0)  # imports and caches first
    sizes = numpy_call_sizes("argsort")
    polyroc.evaluate(y, P, random_state=0)
    assert max(sizes) == n  # never the n m cells
    assert sizes.count(n) <= m + 2  # the columns, the true-class cells, and the rows grouped by class


def test_evaluate_peak_memory_is_a_few_score_matrices():
    """The temporaries of evaluate (default intervals) peak below 4 times the score matrix."""
    rng = np.random.default_rng(0)
    n, m = 200_000, 10
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n)
    polyroc.evaluate(y[:500], P[:500], random_state=0)  # imports and caches first
    tracemalloc.start()
    try:
        polyroc.evaluate(y, P, random_state=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * P.nbytes


def test_evaluate_leaves_the_scores_unchanged():
    rng = np.random.default_rng(1)
    y = rng.integers(0, 3, 500)
    P = rng.dirichlet(np.ones(3), 500)
    before = P.copy()
    polyroc.evaluate(y, P, random_state=0)
    np.testing.assert_array_equal(P, before)


def test_all_equal_columns_give_one_half():
    y = np.repeat([0, 1, 2], 5)
    P = np.full((15, 3), 1 / 3)
    found = auc_influences(y, P, None, AUC_KEYS)
    for key in [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro")]:
        assert found[key][0] == 0.5
        np.testing.assert_allclose(found[key][1], 0.0, atol=1e-15)
