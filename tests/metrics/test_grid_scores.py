"""Scores on a grid (rounded probabilities, integer scores) counted per grid point instead of sorted.

- ROC AUC (one-vs-rest per class, OvO), average precision, ROC and precision-recall curves against
  scikit-learn on scores rounded to 0, 1, 2 or 3 decimals, with all-equal columns, an element off the
  grid, negative scores and weights;
- the counts per grid point never sort the scores (no argsort over the rows).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sklearn_metrics

from polyroc import curves, metrics

TOL = 1e-12


@st.composite
def grid_problems(draw):
    m = draw(st.integers(3, 4))
    n = draw(st.integers(4100, 6000))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    y = rng.integers(0, m, n)
    decimals = draw(st.integers(0, 3))
    P = rng.dirichlet(np.ones(m), n) + np.eye(m)[y] * draw(st.floats(0.0, 1.0))
    P = np.round(P / P.sum(axis=1, keepdims=True), decimals)
    if draw(st.booleans()):
        P[:, rng.integers(0, m)] = 0.5  # an all-equal column
    if draw(st.booleans()):
        P[rng.integers(0, n), rng.integers(0, m)] = 0.123456789  # off the grid: sorted instead
    weighted = draw(st.booleans())
    w = rng.integers(1, 4, n).astype(float) if weighted else None
    return y, P, w


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(grid_problems())
def test_grid_scores_give_scikit_learns_aucs_and_average_precision(problem):
    y, P, w = problem
    m = P.shape[1]
    for k in range(m):
        positive = y == k
        expected_auc = sklearn_metrics.roc_auc_score(positive, P[:, k], sample_weight=w)
        found_auc = metrics.roc_auc_score(positive, P[:, k], sample_weight=w)
        assert found_auc == pytest.approx(expected_auc, abs=TOL)
        fpr, tpr, thresholds = metrics.roc_curve(positive, P[:, k], sample_weight=w)
        expected = sklearn_metrics.roc_curve(positive, P[:, k], sample_weight=w)
        for found, truth in zip((fpr, tpr, thresholds), expected):
            np.testing.assert_allclose(found, truth, rtol=0, atol=TOL)
        precision, recall, cutoffs = metrics.precision_recall_curve(positive, P[:, k], sample_weight=w)
        expected = sklearn_metrics.precision_recall_curve(positive, P[:, k], sample_weight=w)
        for found, truth in zip((precision, recall, cutoffs), expected):
            np.testing.assert_allclose(found, truth, rtol=0, atol=TOL)
    # multiclass one-vs-rest (per class, from the pairwise wins) and the average precision per class
    if np.allclose(P.sum(axis=1), 1):
        found = metrics.roc_auc_score(y, P, multi_class="ovr", average=None, sample_weight=w)
        binarized = np.eye(m)[y]
        expected = [sklearn_metrics.roc_auc_score(binarized[:, k], P[:, k], sample_weight=w) for k in range(m)]
        np.testing.assert_allclose(found, expected, rtol=0, atol=TOL)
        if w is None:
            found = metrics.roc_auc_score(y, P, multi_class="ovo")
            assert found == pytest.approx(sklearn_metrics.roc_auc_score(y, P, multi_class="ovo"), abs=TOL)
    found = metrics.average_precision_score(y, P, average=None, sample_weight=w)
    expected = sklearn_metrics.average_precision_score(np.eye(m)[y], P, average=None, sample_weight=w)
    np.testing.assert_allclose(found, expected, rtol=0, atol=TOL)
    micro = curves.ovr_roc_curve(y, P, sample_weight=w).micro_auc
    expected = sklearn_metrics.roc_auc_score(np.eye(m)[y], P, average="micro", sample_weight=w)
    assert micro == pytest.approx(expected, abs=TOL)


def test_grid_scores_are_counted_not_sorted(monkeypatch, numpy_call_sizes):
    """OvR AUC and average precision of 2-decimal probabilities sort no score column."""
    rng = np.random.default_rng(0)
    n, m = 20_000, 4
    y = rng.integers(0, m, n)
    counts = rng.multinomial(100, np.ones(m) / m, n)
    P = counts / 100
    metrics.roc_auc_score(y[:10], P[:10], multi_class="ovr", labels=np.arange(m))  # imports first
    sizes = numpy_call_sizes("argsort")
    auc = metrics.roc_auc_score(y, P, multi_class="ovr")
    ap = metrics.average_precision_score(y, P)
    monkeypatch.undo()
    assert auc == pytest.approx(sklearn_metrics.roc_auc_score(y, P, multi_class="ovr"), abs=TOL)
    assert ap == pytest.approx(sklearn_metrics.average_precision_score(np.eye(m)[y], P), abs=TOL)
    assert [size for size in sizes if size >= n] == []
