"""Paired ECE replicates drawn over the joint cells of two models' bins match the stratified row bootstrap.

Oracles: the closed-form moments of a stratified multinomial bootstrap (within class s of N_s rows, the
multiplicities are Multinomial(N_s, 1/N_s), so a total T = sum_i M_i x_i has mean sum_i x_i and covariance
sum_s [sum_{i in s} x_i x_i^T - N_s mu_s mu_s^T]), and a brute-force row bootstrap written here with numpy.
"""

from __future__ import annotations

import numpy as np
import pytest

from polyroc import compare_scores
from polyroc._engine.binning import JointCells, bin_rows, calibration_columns
from polyroc.intervals._paired_losses import CELL_DRAWS, CELL_ROWS, PairedEces


def _problem(n, m, seed):
    rng = np.random.default_rng(seed)
    q = rng.dirichlet(np.full(m, 0.7), n)
    y = np.minimum((rng.random(n)[:, None] > q.cumsum(axis=1)).sum(axis=1), m - 1)
    logits = np.log(q) / 0.6
    raw = np.exp(logits - logits.max(axis=1, keepdims=True))
    return y, {"raw": raw / raw.sum(axis=1, keepdims=True), "calibrated": q}


def _columns(y, models, n_bins):
    found = []
    for matrix in models.values():
        scores, hits = calibration_columns(y, matrix, "top-label")
        codes, _ = bin_rows(scores, n_bins, "uniform", None)
        found.append((codes[0], scores[0], hits[0]))
    return found


def _features(y, models, weights, n_bins):
    """Per row, the contribution x_i (weights, scores and hits of each model's bins, flattened) to the totals."""
    w = np.ones(y.size) if weights is None else weights
    blocks = []
    for codes, scores, hits in _columns(y, models, n_bins):
        indicator = np.zeros((y.size, n_bins))
        indicator[np.arange(y.size), codes] = 1.0
        blocks += [indicator * w[:, None], indicator * (w * scores)[:, None], indicator * (w * hits)[:, None]]
    return np.hstack(blocks)


@pytest.mark.parametrize("weighted", [False, True])
def test_cell_totals_have_the_mean_and_covariance_of_the_stratified_row_bootstrap(weighted):
    n_bins, n_replicates = 4, 20_000
    y, models = _problem(200, 3, seed=2)
    weights = np.random.default_rng(3).uniform(0.0, 2.0, y.size) if weighted else None
    x = _features(y, models, weights, n_bins)
    mean = x.sum(axis=0)
    covariance = np.zeros((x.shape[1], x.shape[1]))
    for c in np.unique(y):
        part = x[y == c]
        centre = part.mean(axis=0)
        covariance += part.T @ part - part.shape[0] * np.outer(centre, centre)
    codes, scores, hits = zip(*_columns(y, models, n_bins))
    cells = JointCells.of(y, list(codes), list(scores), list(hits), weights, n_bins)
    drawn = [
        np.concatenate([t.weight[:, 0], t.score[:, 0], t.hits[:, 0]], axis=1)
        for t in cells.totals(n_replicates, np.random.default_rng(0))
    ]
    totals = np.hstack(drawn)
    sd = np.sqrt(np.diag(covariance))
    kept = sd > 1e-9
    # means within 5 Monte Carlo standard errors; standard deviations and correlations within 5%/0.05
    np.testing.assert_array_less(np.abs(totals.mean(axis=0) - mean)[kept], 5 * sd[kept] / np.sqrt(n_replicates))
    np.testing.assert_allclose(totals.std(axis=0)[kept], sd[kept], rtol=0.06)
    found = np.corrcoef(totals[:, kept], rowvar=False)
    expected = covariance[np.ix_(kept, kept)] / np.outer(sd[kept], sd[kept])
    np.testing.assert_allclose(found, expected, atol=0.06)


def test_cells_of_constant_scores_draw_exact_totals_and_hits_as_integers():
    """With scores constant within cells (two values) and no weights, a cell's sums are its count times its values."""
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 200)
    scores = np.where(rng.random(200) < 0.5, 0.3, 0.8)
    hits = rng.random(200) < scores
    codes, _ = bin_rows(scores[None, :], 5, "uniform", None)
    (totals,) = JointCells.of(y, [codes[0]], [scores], [hits], None, 5).totals(50, rng)
    np.testing.assert_array_equal(totals.weight.sum(axis=-1), 200.0)
    np.testing.assert_array_equal(totals.hits, np.round(totals.hits))
    low, high = totals.score[..., 1], totals.score[..., 4]  # bins of 0.3 and 0.8
    np.testing.assert_allclose(low, 0.3 * totals.weight[..., 1], rtol=1e-12)
    np.testing.assert_allclose(high, 0.8 * totals.weight[..., 4], rtol=1e-12)


def _brute_force_differences(y, models, n_boot, seed, n_bins=15):
    """ECE(raw) − ECE(calibrated) of each stratified row replicate, the bins fixed from the full sample."""
    rng = np.random.default_rng(seed)
    columns = _columns(y, models, n_bins)
    found = np.empty(n_boot)
    strata = [np.flatnonzero(y == c) for c in np.unique(y)]
    for r in range(n_boot):
        rows = np.concatenate([rng.choice(s, s.size) for s in strata])
        eces = []
        for codes, scores, hits in columns:
            count = np.bincount(codes[rows], minlength=n_bins)
            gap = np.abs(np.bincount(codes[rows], weights=hits[rows] - scores[rows], minlength=n_bins))
            eces.append(gap.sum() / count.sum())
        found[r] = eces[0] - eces[1]
    return found


def test_paired_replicates_over_cells_match_a_brute_force_row_bootstrap():
    y, models = _problem(5_000, 4, seed=5)
    oracle = _brute_force_differences(y, models, 1000, seed=1)
    paired = PairedEces.of(
        "ece_top_label", y, None, models, n_boot=4000, rng=np.random.default_rng(2), replicates="cells"
    )
    cells = paired.series["raw"] - paired.series["calibrated"]
    assert paired.replicates == "cells"
    assert cells.mean() == pytest.approx(oracle.mean(), abs=4 * oracle.std() / np.sqrt(1000))
    assert cells.std() == pytest.approx(oracle.std(), rel=0.1)
    np.testing.assert_allclose(
        np.quantile(cells, [0.025, 0.975]), np.quantile(oracle, [0.025, 0.975]), atol=0.6 * oracle.std()
    )


def test_compare_scores_draws_top_label_replicates_over_cells_from_cell_rows(monkeypatch):
    assert CELL_ROWS == 100_000
    monkeypatch.setattr("polyroc.intervals._paired_losses.CELL_ROWS", 3000)
    y, models = _problem(3000, 3, seed=9)
    result = compare_scores(y, models, quantities=["ece_top_label", "ece_classwise"], n_boot=50, random_state=0)
    top, classwise = result.comparisons
    assert CELL_DRAWS in top["method"] and CELL_DRAWS not in classwise["method"]
    assert top["low"] < top["difference"] < top["high"]
    small = compare_scores(y[:2999], {k: v[:2999] for k, v in models.items()}, quantities=["ece_top_label"], n_boot=20)
    assert CELL_DRAWS not in small.comparisons[0]["method"]
