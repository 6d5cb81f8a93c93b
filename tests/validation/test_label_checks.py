"""Label checks of the label metrics: each label vector's distinct values found once, accuracy without counts.

- ``unique_values`` against ``np.unique`` (small and large integer ranges, negatives, strings, floats);
- accuracy against scikit-learn (weights, strings, normalize) and the label metrics' checks computing the
  distinct values of each vector once, by counting for small integers (scikit-learn reads them back).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import metrics as sklearn_metrics

from polyroc import metrics
from polyroc.metrics import _tables

integer_arrays = hnp.arrays(
    dtype=st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.uint64]),
    shape=st.integers(1, 60),
    elements=st.integers(0, 100),
)


@settings(max_examples=200, deadline=None)
@given(integer_arrays, st.integers(-50, 50), st.booleans())
def test_unique_values_match_numpy(y, shift, spread):
    from polyroc._validation import unique_values

    if y.dtype.kind == "i":
        y = y + np.asarray(shift, dtype=y.dtype)
    if spread and y.dtype.kind == "i" and np.iinfo(y.dtype).max > 2**40:
        y = y * np.int64(2**33)  # a range far wider than the array: np.unique
    found = unique_values(y)
    np.testing.assert_array_equal(found, np.unique(y))
    assert found.dtype == y.dtype


@pytest.mark.parametrize("y", [np.array(["b", "a", "b"]), np.array([0.5, -1.0, 0.5]), np.array([True, False])])
def test_unique_values_of_other_labels(y):
    from polyroc._validation import unique_values

    np.testing.assert_array_equal(unique_values(y), np.unique(y))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["int", "string", "negative", "float"]),
    st.booleans(),
    st.booleans(),
)
def test_accuracy_matches_scikit_learn(n, seed, kind, weighted, normalize):
    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, 4, n), rng.integers(0, 4, n)
    y_true[: n // 2] = y_pred[: n // 2]
    if kind == "string":
        y_true, y_pred = np.array(list("abcd"))[y_true], np.array(list("abcd"))[y_pred]
    elif kind == "negative":
        y_true, y_pred = y_true - 2, y_pred - 2
    elif kind == "float":
        y_true, y_pred = y_true.astype(float), y_pred.astype(float)
    w = rng.random(n) + 0.1 if weighted else None
    found = metrics.accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=w)
    expected = sklearn_metrics.accuracy_score(y_true, y_pred, normalize=normalize, sample_weight=w)
    assert found == pytest.approx(expected, rel=1e-12, abs=1e-12)


def test_accuracy_compares_labels_without_counting_them(monkeypatch):
    """Accuracy is the (weighted) share of equal labels: no encoding, no confusion counts."""

    def refuse(*args, **kwargs):
        raise AssertionError("accuracy_score built confusion counts")

    monkeypatch.setattr(_tables, "count_pair", refuse)
    monkeypatch.setattr(_tables, "confusion_counts", refuse)
    assert metrics.accuracy_score([0, 1, 2, 2], [0, 1, 1, 2]) == 0.75
    assert metrics.accuracy_score(["a", "b"], ["a", "a"], sample_weight=[3, 1], normalize=False) == 3.0


@pytest.mark.parametrize("name", ["accuracy_score", "f1_score", "balanced_accuracy_score", "confusion_matrix"])
def test_label_checks_find_distinct_values_without_sorting(monkeypatch, numpy_call_sizes, name):
    """Integer labels: no np.unique over a label vector (scikit-learn reads the counted values back)."""
    rng = np.random.default_rng(0)
    n = 5000
    y_true, y_pred = rng.integers(0, 5, n), rng.integers(0, 5, n)
    sizes = numpy_call_sizes("unique")
    options = {"average": "macro"} if name == "f1_score" else {}
    found = getattr(metrics, name)(y_true, y_pred, **options)
    monkeypatch.undo()
    np.testing.assert_allclose(found, getattr(sklearn_metrics, name)(y_true, y_pred, **options), rtol=0, atol=1e-12)
    assert [size for size in sizes if size >= n] == []
