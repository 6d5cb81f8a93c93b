"""polyroc.dask.tune_thresholds with metric="expected_cost": the in-memory tuning's threshold and costs."""

from __future__ import annotations

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")

from polyroc.dask import tune_thresholds  # noqa: E402
from polyroc.thresholds import apply_thresholds  # noqa: E402
from polyroc.thresholds import tune_thresholds as tune_in_memory  # noqa: E402

CLASSES = ["ant", "bee", "cat"]
COSTS = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [6.0, 3.0, 0.0]])


def _table(n=300, seed=3):
    """Labels drawn from Dirichlet scores (calibrated), scores rounded to 0.05 (ties), integer weights."""
    rng = np.random.default_rng(seed)
    scores = rng.dirichlet([2.0, 2.0, 0.7], size=n)
    y = (rng.random(n)[:, None] > scores.cumsum(axis=1)).sum(axis=1)
    scores = np.round(scores * 20) / 20 + 1e-9
    scores /= scores.sum(axis=1, keepdims=True)
    table = pd.DataFrame(scores, columns=CLASSES)
    table["label"] = np.array(CLASSES)[y]
    table["w"] = rng.integers(0, 4, size=n).astype(float)
    return table


def _hand_cost(table, decided):
    """Weighted mean of C[y, decided], by hand."""
    y = pd.Index(CLASSES).get_indexer(table["label"])
    return float(np.average(COSTS[y, decided], weights=table["w"].to_numpy()))


@pytest.mark.parametrize(
    "options",
    [
        {"search": "lattice", "resolution": 12},
        {"search": "random", "n_samples": 400, "random_state": 5},
        {"resolution": 8, "domain": "box", "tie_break": "first"},
    ],
)
def test_cost_tuning_equals_the_in_memory_tuning(options):
    table = _table()
    frame = dd.from_pandas(table, npartitions=3)
    found = tune_thresholds(frame, sample_weight_col="w", metric="expected_cost", cost_matrix=COSTS, **options)
    expected = tune_in_memory(
        table["label"].to_numpy(),
        table[CLASSES].to_numpy(),
        labels=CLASSES,
        sample_weight=table["w"].to_numpy(),
        metric="expected_cost",
        cost_matrix=COSTS,
        **options,
    )
    np.testing.assert_array_equal(found.best_threshold, expected.best_threshold)
    assert found.best_score == pytest.approx(expected.best_score, rel=1e-12)
    assert found.argmax_score == pytest.approx(expected.argmax_score, rel=1e-12)
    assert found.n_thresholds == expected.n_thresholds
    assert not found.greater_is_better and found.metric == "expected_cost"
    scores = table[CLASSES].to_numpy()
    # the reported costs are the weighted means of C[y, d] of argmax and of the returned rule
    assert found.argmax_score == pytest.approx(_hand_cost(table, scores.argmax(axis=1)), rel=1e-12)
    assert found.best_score == pytest.approx(
        _hand_cost(table, apply_thresholds(scores, found.best_threshold, domain=found.settings["domain"])), rel=1e-12
    )
    assert found.best_score <= found.argmax_score


def test_cost_tuning_takes_a_labelled_cost_frame():
    table = _table(seed=4)
    frame = dd.from_pandas(table, npartitions=2)
    labelled = pd.DataFrame(COSTS[::-1, ::-1], index=CLASSES[::-1], columns=CLASSES[::-1])
    by_frame = tune_thresholds(
        frame, sample_weight_col="w", metric="expected_cost", cost_matrix=labelled, resolution=10
    )
    by_array = tune_thresholds(frame, sample_weight_col="w", metric="expected_cost", cost_matrix=COSTS, resolution=10)
    np.testing.assert_array_equal(by_frame.best_threshold, by_array.best_threshold)
    assert by_frame.best_score == by_array.best_score


@pytest.mark.parametrize(
    ("metric", "cost_matrix", "error", "match"),
    [
        ("expected_cost", None, ValueError, "needs cost_matrix"),
        ("f1_macro", COSTS, ValueError, "cost_matrix is only used with metric='expected_cost'"),
        ("expected_cost", np.ones((2, 2)), ValueError, "cost_matrix"),
        ("expected_cost", [["a", "b", "c"]] * 3, TypeError, "cost_matrix"),
    ],
)
def test_cost_tuning_refuses_bad_costs(metric, cost_matrix, error, match):
    frame = dd.from_pandas(_table(n=30), npartitions=2)
    with pytest.raises(error, match=match):
        tune_thresholds(frame, metric=metric, cost_matrix=cost_matrix, resolution=5)
