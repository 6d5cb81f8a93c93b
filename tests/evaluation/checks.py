"""Shared check of two evaluations of the same rows (in memory against a stream or a cluster)."""

import numpy as np
import pytest


def assert_same_evaluation(found, expected, *, intervals=True, delong=True):
    """Scores, confusion matrix and report to 1e-12; with ``intervals`` every interval to 1e-10.

    With ``delong=False`` the AUC intervals of ``found`` must be NaN and say that DeLong's variance
    needs the rows (a stream).
    """
    assert found.classes == expected.classes
    assert found.scores.keys() == expected.scores.keys()
    for name, value in expected.scores.items():
        assert found.scores[name] == pytest.approx(value, rel=1e-12, abs=1e-12), name
    np.testing.assert_allclose(found.confusion_matrix, expected.confusion_matrix, rtol=1e-12)
    assert found.confusion_matrix.dtype.kind == expected.confusion_matrix.dtype.kind
    if expected.confusion_matrix.dtype.kind == "i":  # weighted supports print every digit of a sum
        assert found.report_text == expected.report_text
    for key, entry in expected.report.items():
        assert found.report[key] == pytest.approx(entry, rel=1e-12), key
    if not intervals:
        return
    for name, interval in expected.intervals.items():
        mine = found.intervals[name]
        if not delong and interval.method.startswith("DeLong"):
            assert np.isnan(mine.low) and np.isnan(mine.high) and mine.method.startswith("none: DeLong")
            continue
        assert mine.method == interval.method
        assert (mine.low, mine.high) == pytest.approx((interval.low, interval.high), rel=1e-10, abs=1e-12), name
    for name, by_class in expected.class_intervals.items():
        if name == "roc_auc" and found.settings.get("engine") in ("stream", "dask"):
            assert name not in found.class_intervals  # DeLong's per-class AUCs need the rows in memory
            continue
        for label, interval in by_class.items():
            mine = found.class_intervals[name][label]
            assert (mine.low, mine.high) == pytest.approx((interval.low, interval.high), rel=1e-10, abs=1e-12)


#: Four classes, class-dependent costs and target priors unlike the source shares of :func:`shifted_problem`.
M = 4
COSTS = np.array([[0.0, 1.0, 2.0, 4.0], [3.0, 0.0, 1.0, 1.0], [10.0, 2.0, 0.0, 1.0], [1.0, 5.0, 2.0, 0.0]])
TARGET = np.array([0.1, 0.2, 0.3, 0.4])


def shifted_problem(seed, n=240, weighted=False):
    """Labels (source shares 0.4, 0.3, 0.2, 0.1), informative score rows and optional weights."""
    rng = np.random.default_rng(seed)
    y = rng.choice(M, size=n, p=[0.4, 0.3, 0.2, 0.1])
    scores = rng.dirichlet(np.ones(M), n)
    scores[np.arange(n), y] += rng.uniform(0, 0.6, n)
    scores /= scores.sum(axis=1, keepdims=True)
    return y, scores, rng.uniform(0.2, 3.0, n) if weighted else None
