"""The counts engine against scikit-learn's confusion matrix and a per-rule loop."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

from polyroc._engine import counts as _counts
from polyroc._engine.counts import (
    argmax_shifted,
    batch_confusion_counts,
    confusion_counts,
    per_class_counts,
    threshold_counts,
)


def _random_problem(seed, n=300, m=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n)
    w = rng.uniform(0, 3, n)
    return y, P, w


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_counts_equals_sklearn(seed, weighted):
    rng = np.random.default_rng(seed)
    m = 5
    y, y_pred = rng.integers(0, m, 400), rng.integers(0, m, 400)
    w = rng.uniform(0, 2, 400) if weighted else None
    expected = sk_confusion_matrix(y, y_pred, labels=range(m), sample_weight=w)
    np.testing.assert_allclose(confusion_counts(y, y_pred, m, w), expected, rtol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_batch_counts_equal_per_rule_loop_across_chunks(monkeypatch, weighted):
    y, _, w = _random_problem(1)
    w = w if weighted else None
    rng = np.random.default_rng(2)
    predictions = rng.integers(0, 4, (37, y.size))
    monkeypatch.setattr(_counts, "CHUNK_BYTES", y.size * 16 * 5)  # five rules per chunk
    batch = batch_confusion_counts(y, predictions, 4, w)
    for rule, counts in zip(predictions, batch):
        np.testing.assert_allclose(counts, sk_confusion_matrix(y, rule, labels=range(4), sample_weight=w))


def test_threshold_counts_equal_one_tau_at_a_time(monkeypatch):
    y, P, w = _random_problem(3)
    rng = np.random.default_rng(4)
    taus = rng.dirichlet(np.ones(4), 53)
    monkeypatch.setattr(_counts, "CHUNK_BYTES", P.size * 8 * 7)
    batch = threshold_counts(y, P, taus, w)
    for tau, counts in zip(taus, batch):
        y_pred = np.argmax(P - tau, axis=1)
        np.testing.assert_allclose(counts, sk_confusion_matrix(y, y_pred, labels=range(4), sample_weight=w))


def test_argmax_shifted_takes_first_index_on_ties():
    P = np.array([[0.5, 0.5, 0.0], [0.25, 0.25, 0.5]])
    assert argmax_shifted(P, np.array([[0.0, 0.0, 0.25]])).tolist() == [[0, 0]]


@given(
    st.integers(2, 6).flatmap(
        lambda m: st.tuples(
            st.just(m),
            st.lists(
                st.tuples(st.integers(0, m - 1), st.integers(0, m - 1), st.floats(0, 10)), min_size=1, max_size=60
            ),
        )
    )
)
@settings(max_examples=60, deadline=None)
def test_counts_sum_to_total_weight_and_per_class_identities(problem):
    m, rows = problem
    y, y_pred, w = (np.array(col) for col in zip(*rows))
    counts = confusion_counts(y.astype(np.intp), y_pred.astype(np.intp), m, w)
    assert counts.sum() == pytest.approx(w.sum(), rel=1e-12, abs=1e-12)
    tp, fp, fn, tn = per_class_counts(counts)
    np.testing.assert_allclose(tp + fp + fn + tn, np.full(m, w.sum()), atol=1e-9)
    assert fp.sum() == pytest.approx(fn.sum(), abs=1e-9)
