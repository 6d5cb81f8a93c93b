"""reliability_curve: per-bin intervals against scipy's binomial intervals and beta quantiles, its table and checks."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta, binomtest

from polyroc.calibration import ReliabilityCurve, calibration_error, reliability_curve
from tests.calibration.cases import skewed_problem

COLUMNS = ["class", "bin", "low_edge", "high_edge", "count", "mean_score", "observed", "observed_low", "observed_high"]


def _filled(frame):
    return frame[frame["count"] > 0]


def _bin_hits(y, proba, n_bins):
    """Rows and hits per uniform top-label bin, counted here by a loop over the bins."""
    confidence, hits = proba.max(axis=1), proba.argmax(axis=1) == y
    edges = np.linspace(0, 1, n_bins + 1)
    out = []
    for b in range(n_bins):
        inside = (confidence >= edges[b]) & ((confidence <= 1) if b == n_bins - 1 else (confidence < edges[b + 1]))
        out.append((int(inside.sum()), int(hits[inside].sum()), confidence[inside]))
    return out


@pytest.mark.parametrize(("interval", "scipy_method"), [("clopper-pearson", "exact"), ("wilson", "wilson")])
@pytest.mark.parametrize("confidence", [0.9, 0.95])
def test_per_bin_intervals_are_scipys_binomial_intervals(interval, scipy_method, confidence):
    y, proba = skewed_problem(400, 3, seed=4)
    curve = reliability_curve(y, proba, n_bins=10, confidence=confidence, interval=interval)
    frame = curve.to_frame()
    for row, (count, hits, scores) in zip(frame.itertuples(), _bin_hits(y, proba, 10)):
        assert row.count == count
        if count == 0:
            continue
        ci = binomtest(hits, count).proportion_ci(confidence_level=confidence, method=scipy_method)
        assert row.observed == pytest.approx(hits / count, abs=1e-15)
        assert row.mean_score == pytest.approx(scores.mean(), abs=1e-14)
        assert (row.observed_low, row.observed_high) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_jeffreys_bins_are_beta_quantiles():
    y, proba = skewed_problem(300, 4, seed=8)
    frame = reliability_curve(y, proba, n_bins=8, interval="jeffreys", confidence=0.9).to_frame()
    for row, (count, hits, _) in zip(frame.itertuples(), _bin_hits(y, proba, 8)):
        if count == 0:
            continue
        low = 0.0 if hits == 0 else beta.ppf(0.05, hits + 0.5, count - hits + 0.5)
        high = 1.0 if hits == count else beta.ppf(0.95, hits + 0.5, count - hits + 0.5)
        assert (row.observed_low, row.observed_high) == pytest.approx((low, high), abs=1e-12)


def test_weighted_bins_use_kishs_effective_size():
    y, proba = skewed_problem(300, 3, seed=9)
    weights = np.random.default_rng(9).uniform(0.2, 2.0, 300)
    frame = reliability_curve(y, proba, n_bins=5, sample_weight=weights).to_frame()
    confidence, hits = proba.max(axis=1), proba.argmax(axis=1) == y
    edges = np.linspace(0, 1, 6)
    for row in _filled(frame).itertuples():
        b = row.bin
        inside = (confidence >= edges[b]) & ((confidence <= 1) if b == 4 else (confidence < edges[b + 1]))
        w = weights[inside]
        p = np.dot(w, hits[inside]) / w.sum()
        n_eff = w.sum() ** 2 / (w * w).sum()
        x = p * n_eff  # Clopper-Pearson's beta quantiles at fractional counts
        low = 0.0 if x == 0 else beta.ppf(0.025, x, n_eff - x + 1)
        high = 1.0 if x == n_eff else beta.ppf(0.975, x + 1, n_eff - x)
        assert row.observed == pytest.approx(p, abs=1e-14)
        assert row.mean_score == pytest.approx(np.dot(w, confidence[inside]) / w.sum(), abs=1e-14)
        assert (row.observed_low, row.observed_high) == pytest.approx((low, high), abs=1e-9)


def test_integer_weights_give_the_points_of_repeated_rows():
    y, proba = skewed_problem(200, 3, seed=6)
    weights = np.random.default_rng(6).integers(0, 4, 200)
    for strategy in ("uniform", "quantile"):
        weighted = reliability_curve(y, proba, kind="classwise", n_bins=6, strategy=strategy, sample_weight=weights)
        repeated = reliability_curve(
            np.repeat(y, weights), np.repeat(proba, weights, axis=0), kind="classwise", n_bins=6, strategy=strategy
        )
        np.testing.assert_array_equal(weighted.edges, repeated.edges)
        filled = repeated.count > 0
        np.testing.assert_array_equal(weighted.count > 0, filled)
        np.testing.assert_allclose(weighted.mean_score[filled], repeated.mean_score[filled], rtol=1e-13)
        np.testing.assert_allclose(weighted.observed[filled], repeated.observed[filled], rtol=1e-13)


def test_the_table_has_its_columns_and_empty_bins_show_count_0_and_nan():
    y, proba = skewed_problem(200, 3, seed=1)
    curve = reliability_curve(y, proba, n_bins=15)
    frame = curve.to_frame()
    assert list(frame.columns) == COLUMNS and len(frame) == 15
    assert set(frame["class"]) == {"top-label"}
    assert frame["bin"].tolist() == list(range(15))
    np.testing.assert_allclose(frame["low_edge"], np.linspace(0, 1, 16)[:-1])
    np.testing.assert_allclose(frame["high_edge"], np.linspace(0, 1, 16)[1:])
    empty = frame[frame["count"] == 0]
    assert len(empty) >= 4  # top-label scores of 3 classes are at least 1/3
    assert empty[["mean_score", "observed", "observed_low", "observed_high"]].isna().all().all()
    assert frame["count"].sum() == 200
    assert curve.interval_method == "Clopper-Pearson exact interval"
    assert "bins are empty" in curve._repr_html_()
    assert curve.calibration_error == calibration_error(y, proba)


def test_classwise_curves_name_the_classes():
    y, proba = skewed_problem(120, 3, seed=2)
    names = np.array(["cat", "dog", "eel"])
    curve = reliability_curve(names[y], proba, kind="classwise", n_bins=4, strategy="quantile")
    frame = curve.to_frame()
    assert frame["class"].tolist() == [name for name in names for _ in range(4)]
    assert (frame.groupby("class")["count"].sum() == 120).all()
    # quantile bins: 30 rows each (distinct scores)
    assert frame["count"].tolist() == [30] * 12
    assert curve.interval_method == "Clopper-Pearson exact interval"


def test_one_bin_holds_every_row():
    y, proba = skewed_problem(90, 3, seed=3)
    frame = reliability_curve(y, proba, n_bins=1, interval="wilson").to_frame()
    hits = int((proba.argmax(axis=1) == y).sum())
    ci = binomtest(hits, 90).proportion_ci(method="wilson")
    assert frame["count"].tolist() == [90]
    assert (frame["observed_low"][0], frame["observed_high"][0]) == pytest.approx((ci.low, ci.high), abs=1e-9)


def test_the_result_follows_the_protocol():
    y, proba = skewed_problem(60, 3, seed=5)
    curve = reliability_curve(y, proba, n_bins=3)
    assert isinstance(curve, ReliabilityCurve)
    document = curve.to_dict()
    assert document["type"] == "ReliabilityCurve" and document["settings"]["calibration"] == "top-label"
    assert document["interval_method"] == "Clopper-Pearson exact interval"
    text = curve.to_text()
    assert text.splitlines()[0].startswith("Reliability curve (top-label, 3 uniform bins; 95% Clopper-Pearson")
    assert len(text.splitlines()) == 2 + 3
    assert isinstance(curve.to_frame(), pd.DataFrame)


BAD = [
    ({"confidence": 1.0}, ValueError, "confidence must be a real number in (0, 1)"),
    ({"confidence": "high"}, TypeError, "confidence must be a real number in (0, 1)"),
    ({"interval": "exact"}, ValueError, "interval must be one of 'wilson', 'clopper-pearson', 'jeffreys'"),
    ({"n_bins": -1}, ValueError, "n_bins must be an int in [1, inf)"),
    ({"kind": "all"}, ValueError, "kind must be one of"),
    ({"strategy": None}, ValueError, "strategy must be one of"),
]


@pytest.mark.parametrize(("options", "error", "message"), BAD)
def test_bad_options_are_named(options, error, message):
    y, proba = skewed_problem(20, 3, seed=0)
    with pytest.raises(error, match=re.escape(message)):
        reliability_curve(y, proba, **options)


def test_bad_data_and_digits_are_named():
    y, proba = skewed_problem(20, 3, seed=0)
    with pytest.raises(ValueError, match="y_proba"):
        reliability_curve(y, -proba)
    with pytest.raises(ValueError, match="sample_weight"):
        reliability_curve(y, proba, sample_weight=np.zeros(20))
    curve = reliability_curve(y, proba)
    with pytest.raises(ValueError, match=re.escape("digits must be an int in [0, inf)")):
        curve.to_text(-1)
    with pytest.raises(TypeError, match="digits"):
        curve.to_text(1.5)
