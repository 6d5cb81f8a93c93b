"""The ECEs of ``evaluate``, its stream and its dask twin, and their intervals.

Oracles: ``polyroc.calibration.calibration_error`` on the same rows (and on
each bootstrap replicate, regenerated with ``bootstrap_multiplicities``), a
per-row delta-method variance for the dependence of the class columns, and a
hand count for a tiny example.
"""

from __future__ import annotations

import numpy as np
import pytest

import polyroc
from polyroc.calibration import calibration_error
from polyroc.evaluation._calibration import CalibrationBins, _sampled_rows, block_rows
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._calibration_draws import ECE_SCORES, ece_bounds
from polyroc.resampling import bootstrap_multiplicities
from polyroc.streaming import EvaluationAccumulator

KINDS = {"ece_top_label": "top-label", "ece_classwise": "classwise"}
METHOD = (
    "draws of the calibration bins: basic interval, its upper end taking back half its bias correction, "
    "joined with the test inversion (Kish effective sizes)"
)


def problem(seed, n=400, m=4, weighted=False):
    """Over-confident scores (temperature 0.5) of labels drawn from Dirichlet probabilities; weights 0..3."""
    rng = np.random.default_rng(seed)
    q = rng.dirichlet(np.ones(m), n)
    y = np.minimum((rng.random(n)[:, None] > np.cumsum(q, axis=1)).sum(axis=1), m - 1)
    p = q**2 / (q**2).sum(axis=1, keepdims=True)
    weights = rng.integers(0, 4, n).astype(float) if weighted else None
    return y, p, weights


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("m", [2, 3, 7])
def test_eces_equal_calibration_error_after_the_losses(weighted, m):
    y, p, weights = problem(m, m=m, weighted=weighted)
    result = polyroc.evaluate(y, p, sample_weight=weights, n_boot=0)
    names = list(result.scores)
    assert names[-2:] == list(ECE_SCORES)
    assert names.index("brier_score") < names.index("ece_top_label")
    for name, kind in KINDS.items():
        expected = calibration_error(y, p, kind=kind, sample_weight=weights)
        assert result.scores[name] == pytest.approx(expected, abs=1e-12), name


def test_a_tiny_example_by_hand():
    # top-label: bins of 0.7 (hit), 0.6 (2 hits), 0.4 (2 hits; the tie 0.4/0.4 goes to the first class), 0.5 (miss)
    y = ["b", "a", "c", "a", "b", "c"]
    P = [[0.2, 0.7, 0.1], [0.6, 0.3, 0.1], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2], [0.5, 0.3, 0.2], [0.3, 0.3, 0.4]]
    result = polyroc.evaluate(y, P, n_boot=0)
    assert result.scores["ece_top_label"] == pytest.approx((0.3 + 2 * 0.4 + 2 * 0.6 + 0.5) / 6, abs=1e-15)


def test_intervals_name_their_method_and_appear_in_every_view():
    y, p, _ = problem(1)
    result = polyroc.evaluate(y, p, random_state=0)
    for name in ECE_SCORES:
        interval = result.intervals[name]
        assert interval.method == METHOD
        assert result.settings["interval_methods"][name] == METHOD
        assert 0.0 <= interval.low < interval.high <= 1.0
        assert (interval.settings["n_draws"], interval.settings["random_state"]) == (1000, 0)
    text = result.to_text()
    line = next(line for line in text.splitlines() if line.startswith("ece_top_label "))
    interval = result.intervals["ece_top_label"]
    assert f"[{interval.low:.4f}, {interval.high:.4f}]" in line
    frame = result.to_frame().set_index("score")
    assert frame.loc["ece_classwise", "high"] == result.intervals["ece_classwise"].high
    assert frame.loc["ece_classwise", "method"] == METHOD
    assert result.to_dict()["scores"]["ece_top_label"] == result.scores["ece_top_label"]
    assert "ece_classwise" in result._repr_html_()


def test_a_ci_mapping_names_an_ece_and_a_bad_method_is_refused():
    y, p, _ = problem(3, n=120)
    result = polyroc.evaluate(y, p, ci={"ece_top_label": "bootstrap"}, n_boot=50, random_state=1)
    assert result.intervals["ece_top_label"].method == "stratified percentile bootstrap"
    assert result.intervals["ece_classwise"].method == METHOD
    assert result.intervals["accuracy"].method == "Wilson score interval"
    with pytest.raises(ValueError, match="method 'wilson' does not apply to 'ece_classwise'; it takes 'bin-draws', 'b"):
        polyroc.evaluate(y, p, ci={"ece_classwise": "wilson"})
    with pytest.raises(ValueError, match="ci names an unknown quantity 'ece'"):
        polyroc.evaluate(y, p, ci={"ece": "bootstrap"})


@pytest.mark.parametrize("weighted", [False, True])
def test_bootstrap_intervals_are_quantiles_of_calibration_error_on_each_replicate(weighted):
    y, p, weights = problem(4, n=90, m=3, weighted=weighted)
    n_boot, seed = 40, 6
    result = polyroc.evaluate(y, p, sample_weight=weights, ci="bootstrap", n_boot=n_boot, random_state=seed)
    base = np.ones(y.size) if weights is None else weights
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, n_boot, stratify=True, random_state=seed)))
    for name, kind in KINDS.items():
        replicates = [calibration_error(y, p, kind=kind, sample_weight=row * base) for row in multiplicities]
        low, high = np.quantile(replicates, [0.025, 0.975])
        interval = result.intervals[name]
        assert (interval.low, interval.high) == pytest.approx((low, high), abs=1e-12), name
        assert interval.method == "stratified percentile bootstrap"


def test_zero_width_bootstrap_intervals_are_marked_degenerate():
    """Within each class every row is the same: no stratified replicate differs from the data."""
    y = np.repeat([0, 1, 2], 5)
    p = np.repeat([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.3, 0.3, 0.4]], 5, axis=0)
    with pytest.warns(IntervalWarning, match="ece_top_label"):
        result = polyroc.evaluate(y, p, ci={"ece_top_label": "bootstrap"}, n_boot=30, random_state=0)
    interval = result.intervals["ece_top_label"]
    assert interval.low == interval.high == pytest.approx(calibration_error(y, p), abs=1e-12)
    assert interval.method.endswith("degenerate (zero width): no replicate differs from the data")
    assert "degenerate" not in result.intervals["ece_classwise"].method
    assert result.intervals["ece_classwise"].high > result.intervals["ece_classwise"].low


@pytest.mark.parametrize("weighted", [False, True])
def test_a_stream_in_batches_gives_the_eces_and_their_intervals(weighted):
    y, p, weights = problem(5, n=300, m=4, weighted=weighted)
    expected = polyroc.evaluate(y, p, sample_weight=weights, random_state=2, n_boot=300)
    for cutoffs in (None, 8):
        accumulator = EvaluationAccumulator([0, 1, 2, 3], cutoffs=cutoffs)
        for start, stop in ((0, 0), (0, 11), (11, 200), (200, 300)):
            accumulator.update(y[start:stop], p[start:stop], None if weights is None else weights[start:stop])
        found = accumulator.compute(random_state=2, n_boot=300)
        for name in ECE_SCORES:
            assert found.scores[name] == pytest.approx(expected.scores[name], abs=1e-12)
            mine, theirs = found.intervals[name], expected.intervals[name]
            assert mine.method == theirs.method == METHOD
            assert (mine.low, mine.high) == pytest.approx((theirs.low, theirs.high), abs=1e-12)
    with pytest.raises(ValueError, match="a stream keeps no rows to resample"):
        EvaluationAccumulator([0, 1, 2, 3]).update(y, p).compute(ci={"ece_top_label": "bootstrap"})


def test_stream_memory_of_the_bins_does_not_grow_with_rows():
    y, p, _ = problem(6, n=2000, m=3)
    small = EvaluationAccumulator([0, 1, 2], cutoffs=8).update(y[:50], p[:50])
    large = EvaluationAccumulator([0, 1, 2], cutoffs=8).update(y, p)
    assert small.nbytes == large.nbytes
    bins = large.summary.calibration_bins
    assert bins.rows.shape == (4, 15) and bins.cross.shape == (3, 15, 3, 15) and bins.sampled.shape == (1,)


@pytest.mark.parametrize("weighted", [False, True])
def test_design_factor_equals_the_per_row_delta_method(weighted):
    """Each column's own spread over every row; the pairs of columns over the sampled eighth, scaled up."""
    y, p, weights = problem(7, n=3000, m=3, weighted=weighted)
    bins = CalibrationBins.of(y, p, weights)
    w = np.ones(y.size) if weights is None else weights
    errors = np.eye(3)[y] - p
    codes = np.minimum((p * 15).astype(int), 14)
    signs = np.sign(bins.hits[1:] - bins.score[1:])
    terms = w[:, None] * signs[np.arange(3), codes] * errors  # (n, m): row i's term of column j
    kept = w > 0
    sampled = _sampled_rows(p) & kept
    assert 0.08 < sampled.sum() / kept.sum() < 0.17  # an eighth
    rows = kept.sum()
    column_sums = terms[kept].sum(axis=0)
    independent = (terms[kept] ** 2).sum() - (column_sums**2).sum() / rows
    products = terms[sampled].sum(axis=1) ** 2 - (terms[sampled] ** 2).sum(axis=1)  # sum over j != k
    full = (
        independent + products.sum() * rows / sampled.sum() - (column_sums.sum() ** 2 - (column_sums**2).sum()) / rows
    )
    assert bins.design_factor() == pytest.approx(np.sqrt(full / independent), rel=1e-10)


def test_bounds_hold_zero_for_calibrated_scores_and_keep_away_from_it_for_large_gaps():
    rng = np.random.default_rng(8)
    q = rng.dirichlet(np.ones(3), 20_000)
    y = (rng.random(q.shape[0])[:, None] > np.cumsum(q, axis=1)).sum(axis=1)
    calibrated = CalibrationBins.of(y, q, None)
    options = {"confidence": 0.95, "n_draws": 500, "rng": np.random.default_rng(0)}
    bounds = ece_bounds(calibrated.totals(), **options)
    assert bounds["ece_top_label"][0] == 0.0 and bounds["ece_classwise"][0] == 0.0
    cold = q**3 / (q**3).sum(axis=1, keepdims=True)
    bounds = ece_bounds(CalibrationBins.of(y, cold, None).totals(), **options)
    assert bounds["ece_top_label"][0] > 0.1


def test_perfect_one_hot_scores_keep_a_positive_upper_bound():
    """ECE 0 below the noise of calibrated bins: [0, what that noise reaches], not a zero width."""
    y = np.repeat([0, 1, 2], 5)
    result = polyroc.evaluate(y, np.eye(3)[y], random_state=0, ci={"log_loss": "bootstrap", "brier_score": "bootstrap"})
    for name in ECE_SCORES:
        interval = result.intervals[name]
        assert interval.estimate == 0.0 and interval.low == 0.0 and interval.high > 0.01
        assert interval.method == METHOD


def column_totals(y, p, weights):
    """Oracle: each column's totals by its own ``bincount`` over ``searchsorted`` bins, rows in order (1 + m, 15)."""
    m = p.shape[1]
    w = np.ones(y.size) if weights is None else weights
    predicted = p.argmax(axis=1)
    columns = [(p[np.arange(y.size), predicted], predicted == y)] + [(p[:, j], y == j) for j in range(m)]
    grid = np.linspace(0.0, 1.0, 16)
    found = {name: np.zeros((m + 1, 15)) for name in ("rows", "weight", "score", "hits", "spread")}
    for k, (score, hit) in enumerate(columns):
        codes = np.minimum(np.searchsorted(grid, score, side="right") - 1, 14)
        found["rows"][k] = np.bincount(codes, weights=w > 0, minlength=15)
        found["weight"][k] = np.bincount(codes, weights=None if weights is None else w, minlength=15)
        found["score"][k] = np.bincount(codes, weights=score if weights is None else score * w, minlength=15)
        found["hits"][k] = np.bincount(codes[hit], weights=None if weights is None else w[hit], minlength=15)
        squared = (hit - score) ** 2
        found["spread"][k] = np.bincount(codes, weights=squared if weights is None else squared * w * w, minlength=15)
    return found


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("m", [2, 10, 40])
def test_bin_totals_equal_per_column_sums_bit_for_bit(weighted, m):
    """Within one block of rows the totals are the oracle's bit for bit."""
    n = min(60_000, block_rows(m))
    y, p, weights = problem(m, n=n, m=m, weighted=weighted)
    p = np.round(p, 3)  # scores on the bins' edges
    bins = CalibrationBins.of(y, p, weights)
    for name, expected in column_totals(y, p, weights).items():
        assert np.array_equal(getattr(bins, name), expected), name


@pytest.mark.parametrize("weighted", [False, True])
def test_totals_and_cross_moments_of_several_blocks_equal_the_row_sums(weighted):
    """Blocks of rows add up: every total within 1e-12 of the oracle's, the cross moments of a brute-force sum."""
    m = 10
    y, p, weights = problem(11, n=2 * block_rows(m) + 1234, m=m, weighted=weighted)
    p = np.round(p, 3)
    bins = CalibrationBins.of(y, p, weights)
    for name, expected in column_totals(y, p, weights).items():
        np.testing.assert_allclose(getattr(bins, name), expected, rtol=1e-12, atol=0, err_msg=name)
    w = np.ones(y.size) if weights is None else weights
    sampled = _sampled_rows(p) & (w > 0)
    codes = np.minimum(np.searchsorted(np.linspace(0.0, 1.0, 16), p[sampled], side="right") - 1, 14)
    terms = w[sampled, None] * (np.eye(m)[y[sampled]] - p[sampled])  # w e_j of each sampled row
    cross = np.zeros((m, 15, m, 15))
    for j in range(m):
        for k in range(m):
            if j != k:
                np.add.at(cross, (j, codes[:, j], k, codes[:, k]), terms[:, j] * terms[:, k])
    assert bins.sampled[0] == sampled.sum()
    scale = np.abs(cross).max()
    np.testing.assert_allclose(bins.cross, cross, rtol=0, atol=1e-12 * scale)
