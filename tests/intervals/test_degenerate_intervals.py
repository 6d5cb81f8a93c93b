"""Zero-width intervals: marked degenerate in their method and warned, never silent.

Oracles: exact fractions of the per-row losses, scikit-learn's scores, the
Wilson formula from scipy's normal quantile, and a two-pass float
computation of the stratified variance.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from scipy.stats import norm
from sklearn.metrics import accuracy_score, roc_auc_score

from polyroc import evaluate
from polyroc.exceptions import IntervalWarning, UndefinedMetricWarning
from polyroc.intervals import roc_auc_interval, stratified_mean_interval

DEGENERATE = "degenerate (zero width)"


def _evaluate_recorded(*args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(*args, **kwargs)
    return result, [w for w in caught if issubclass(w.category, IntervalWarning)]


def test_perfect_one_hot_losses_are_marked_degenerate_with_one_warning():
    y = np.repeat([0, 1, 2], 5)
    result, caught = _evaluate_recorded(y, np.eye(3)[y], random_state=0)
    assert len(caught) == 1
    assert "log_loss, brier_score" in str(caught[0].message)
    assert caught[0].filename == __file__  # points at the caller's line
    for name in ("log_loss", "brier_score"):
        interval = result.intervals[name]
        assert interval.low == interval.high == interval.estimate
        assert interval.method.startswith("t interval (stratified variance); " + DEGENERATE)
        assert "spread cannot be estimated" in interval.method
    assert result.intervals["brier_score"].estimate == 0.0
    # every other interval keeps its width and its plain method; Wilson's 15/15 oracle: [n / (n + z^2), 1]
    z2 = norm.ppf(0.975) ** 2
    accuracy = result.intervals["accuracy"]
    assert (accuracy.low, accuracy.high) == pytest.approx((15 / (15 + z2), 1.0), rel=1e-12)
    assert [name for name, ci in result.intervals.items() if DEGENERATE in ci.method] == ["log_loss", "brier_score"]
    frame = result.to_frame().set_index("score")
    assert DEGENERATE in frame.loc["log_loss", "method"]
    assert DEGENERATE in result.to_text()


def test_losses_constant_within_each_class_give_exactly_zero_width_not_rounding():
    """0.6, 0.5, 0.8 are not binary fractions: rounding alone left a width of ~1e-9 on the Brier score."""
    y = np.repeat([0, 1, 2], 5)
    rows = np.array([[0.6, 0.3, 0.1], [0.2, 0.5, 0.3], [0.1, 0.1, 0.8]])
    result, caught = _evaluate_recorded(y, rows[y], random_state=0)
    exact = [
        sum((Fraction(float(p)) - (k == c)) ** 2 for k, p in enumerate(rows[c])) for c in y
    ]  # the per-row Brier losses, exactly
    brier = result.intervals["brier_score"]
    assert brier.estimate == pytest.approx(float(sum(exact) / len(exact)), rel=1e-15)
    assert brier.low == brier.high == brier.estimate
    assert DEGENERATE in brier.method and DEGENERATE in result.intervals["log_loss"].method
    assert len(caught) == 1 and "log_loss, brier_score" in str(caught[0].message)


def test_constant_scores_mark_the_tied_delong_intervals():
    y = np.repeat([0, 1, 2], 6)
    P = np.full((18, 3), 1 / 3)
    result, caught = _evaluate_recorded(y, P, random_state=0)
    for multi_class, average in (("ovr", "macro"), ("ovr", "weighted"), ("ovo", "macro")):
        interval = result.intervals[f"roc_auc_{multi_class}_{average}"]
        assert interval.estimate == roc_auc_score(y, P, multi_class=multi_class, average=average) == 0.5
        assert interval.low == interval.high == 0.5
        assert interval.method == "DeLong (logit); " + DEGENERATE + ": DeLong's variance is 0 (the scores tie)"
    assert len(caught) == 1 and "roc_auc_ovo_macro" in str(caught[0].message)


def test_bootstrap_of_perfect_predictions_marks_every_interval():
    y = np.repeat([0, 1, 2], 5)
    result, caught = _evaluate_recorded(y, np.eye(3)[y], ci="bootstrap", n_boot=50, random_state=0)
    assert result.scores["accuracy"] == accuracy_score(y, y) == 1.0
    assert all(DEGENERATE in ci.method for ci in result.intervals.values())
    assert all(DEGENERATE in ci.method for by_class in result.class_intervals.values() for ci in by_class.values())
    assert all("no replicate differs from the data" in ci.method for ci in result.intervals.values())
    assert len(caught) == 1 and "recall of class 0" in str(caught[0].message)


def test_bootstrap_of_a_zero_recall_is_marked_but_wilson_is_not():
    """Class 1 is never predicted: its recall is 0/6, a zero-width bootstrap but Wilson's [0, 0.39]."""
    y = np.repeat([0, 1, 2], 6)
    P = np.full((18, 3), 0.1)
    P[np.arange(18), np.where(y == 1, 0, y)] = 0.8
    boot, _ = _evaluate_recorded(y, P, ci={"recall": "bootstrap"}, n_boot=50, random_state=0)
    assert boot.class_intervals["recall"][1].high == 0.0
    assert DEGENERATE in boot.class_intervals["recall"][1].method
    wilson, _ = _evaluate_recorded(y, P, random_state=0)
    assert wilson.class_intervals["recall"][1].high == pytest.approx(norm.ppf(0.975) ** 2 / (6 + norm.ppf(0.975) ** 2))
    counted = [ci for name, by in wilson.class_intervals.items() if name != "roc_auc" for ci in by.values()]
    assert not any(DEGENERATE in ci.method for ci in counted)
    # column 1 ties on every row: its one-vs-rest AUC is 1/2 with DeLong's variance 0, marked as such
    assert wilson.class_intervals["roc_auc"][1].low == wilson.class_intervals["roc_auc"][1].high == 0.5
    assert DEGENERATE in wilson.class_intervals["roc_auc"][1].method


def test_ordinary_data_raise_no_interval_warning():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], 30)
    P = rng.dirichlet(np.ones(3), size=90) + 0.4 * np.eye(3)[y]
    with warnings.catch_warnings():
        warnings.simplefilter("error", IntervalWarning)
        for ci in ("auto", "bayes", "bootstrap"):
            result = evaluate(y, P / P.sum(axis=1, keepdims=True), ci=ci, n_boot=200, random_state=0)
            assert not any(DEGENERATE in interval.method for interval in result.intervals.values())


def test_stratified_mean_interval_warns_at_zero_width_and_has_exactly_none():
    values = [0.1] * 5 + [0.7] * 3
    with pytest.warns(IntervalWarning, match="zero width"):
        estimate, low, high = stratified_mean_interval(values, [0] * 5 + [1] * 3, 2)
    assert estimate == pytest.approx(float((5 * Fraction(0.1) + 3 * Fraction(0.7)) / 8), rel=1e-15)
    assert low == high == estimate


def _two_pass_half_width(values, y, weights, confidence):
    """The stratified infinitesimal-jackknife variance, straight from its definition."""
    values, y, weights = (np.asarray(a, dtype=np.float64) for a in (values, y, weights))
    total = weights.sum()
    mean = (weights * values).sum() / total
    influence = weights * (values - mean) / total
    variance = 0.0
    for c in np.unique(y):
        d = influence[y == c]
        if d.size > 1:
            variance += d.size / (d.size - 1) * ((d - d.mean()) ** 2).sum()
    from scipy.stats import t

    return t.ppf(0.5 + confidence / 2, values.size - np.unique(y).size) * np.sqrt(variance)


@given(
    st.lists(st.floats(0.0, 5.0), min_size=6, max_size=30),
    st.lists(st.floats(0.5, 3.0), min_size=30, max_size=30),
)
def test_spread_from_data_is_kept(values, weights):
    """The rounding floor never removes a spread the data have: the half-width is the two-pass oracle's."""
    values = np.asarray(values)
    y = np.arange(values.size) % 2
    weights = np.asarray(weights[: values.size])
    expected = _two_pass_half_width(values, y, weights, 0.95)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IntervalWarning)
        _, low, high = stratified_mean_interval(values, y, 2, weights)
    scale = max(1e-300, np.abs(weights * values).sum() / weights.sum())
    assume(expected > 1e-6 * scale)  # a spread well above rounding
    assert (high - low) / 2 == pytest.approx(expected, rel=1e-6)


def test_an_undefined_auc_bootstraps_to_nan_without_numpys_all_nan_warning():
    """Class 3 has no rows: its AUC, hence the macro AUC, is undefined (UndefinedMetricWarning says so)."""
    y = np.repeat([0, 1, 2], 6)
    P = np.random.default_rng(0).dirichlet(np.ones(4), size=18)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = evaluate(y, P, labels=[0, 1, 2, 3], ci="bootstrap", n_boot=50, random_state=0)
    interval = result.intervals["roc_auc_ovr_macro"]
    assert np.isnan(interval.estimate) and np.isnan(interval.low) and np.isnan(interval.high)
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]


def test_text_names_the_method_of_each_class_when_one_class_is_degenerate():
    """Class 1 is never predicted (bootstrap recall [0, 0]); the others' recalls vary."""
    y = np.repeat([0, 1, 2], 8)
    P = np.full((24, 3), 0.1)
    predicted = np.where(y == 1, 0, y)
    predicted[[0, 16]] = [2, 0]  # a miss in classes 0 and 2
    P[np.arange(24), predicted] = 0.8
    result, _ = _evaluate_recorded(y, P, ci={"recall": "bootstrap"}, n_boot=200, random_state=0)
    recall = result.class_intervals["recall"]
    assert [DEGENERATE in recall[k].method for k in range(3)] == [False, True, False]
    text = result.to_text()
    assert "  recall (class 0, 2): stratified percentile bootstrap, B=200" in text
    assert "  recall (class 1): stratified percentile bootstrap; " + DEGENERATE in text


def test_roc_auc_interval_of_tied_scores_is_marked_and_warned():
    y = [0, 0, 0, 1, 1, 1]
    with pytest.warns(IntervalWarning, match="zero width"):
        interval = roc_auc_interval(y, np.full(6, 0.3))
    assert interval.estimate == roc_auc_score(y, np.full(6, 0.3)) == 0.5
    assert interval.low == interval.high == 0.5
    assert interval.method == "DeLong (logit); " + DEGENERATE + ": DeLong's variance is 0 (the scores tie)"
    with warnings.catch_warnings():
        warnings.simplefilter("error", IntervalWarning)  # an AUC of 1 takes the exact bound: no warning
        assert roc_auc_interval(y, [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).method == "DeLong (exact bound at AUC = 1)"
