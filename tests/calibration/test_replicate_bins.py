"""The bin totals of many weight rows at once equal those of the rows repeated by their integer weights."""

from __future__ import annotations

import numpy as np
import pytest

from polyroc._engine.binning import bin_rows, bin_totals, binned_errors, calibration_columns, replicate_bin_totals


@pytest.mark.parametrize("kind", ["top-label", "classwise"])
def test_replicate_totals_equal_the_totals_of_repeated_rows(kind):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 4, 120)
    scores = rng.dirichlet(np.ones(4), 120)
    column_scores, hits = calibration_columns(y, scores, kind)
    codes, _ = bin_rows(column_scores, 7, "uniform", None)
    multiplicities = rng.integers(0, 3, size=(5, 120))
    totals = replicate_bin_totals(codes, column_scores, hits, multiplicities, 7)
    for r, counts in enumerate(multiplicities):
        repeated = np.repeat(np.arange(120), counts)
        expected = bin_totals(codes[:, repeated], column_scores[:, repeated], hits[:, repeated], None, 7)
        np.testing.assert_allclose(totals.weight[r], expected.weight, rtol=0, atol=1e-12)
        np.testing.assert_allclose(totals.score[r], expected.score, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(totals.hits[r], expected.hits, rtol=0, atol=1e-12)
        np.testing.assert_array_equal(totals.rows[r], bin_totals(codes, column_scores, hits, counts * 1.0, 7).rows)
        np.testing.assert_allclose(
            binned_errors(totals, "l1")[r], binned_errors(expected, "l1"), rtol=1e-12, atol=1e-15
        )


def test_totals_without_sizes_are_the_same_totals():
    from polyroc._engine.binning import ReplicateBinner

    rng = np.random.default_rng(5)
    y, scores = rng.integers(0, 3, 80), rng.dirichlet(np.ones(3), 80)
    column_scores, hits = calibration_columns(y, scores, "classwise")
    codes, _ = bin_rows(column_scores, 5, "uniform", None)
    binner = ReplicateBinner.of(codes, column_scores, hits, 5)
    weights = rng.integers(0, 3, size=(4, 80)) * rng.uniform(0.5, 2.0, 80)
    full, lean = binner.totals(weights), binner.totals(weights, sizes=False)
    for name in ("weight", "score", "hits"):
        np.testing.assert_array_equal(getattr(lean, name), getattr(full, name))
    assert np.isnan(lean.rows).all() and np.isnan(lean.effective_size).all()
