"""TuningResult, RocCloud, RuleComparison and CoordinateProfile follow the result protocol."""

import dataclasses
import json

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, recall_score

from polyroc._results import Result
from polyroc.thresholds import compare_rules, coordinate_profile, roc_cloud, tune_thresholds

#: The setting names shared by every result of polyroc.
SHARED_SETTING_NAMES = {
    "metric",
    "search",
    "resolution",
    "n_samples",
    "domain",
    "tie_break",
    "n_boot",
    "confidence",
    "random_state",
    "interval_method",
    "cutoff_grid",
    "n_levels",
    "levels",
    "weights",
    "averaging",
    "normalize_rows",
    "from_logits",
    "stratify",
    "include_barycentre",
}


def problem(seed=0, n=120, m=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    P = rng.dirichlet(np.ones(m), n) * 0.6 + 0.4 * np.eye(m)[y]
    return y, P


@pytest.fixture(scope="module")
def results():
    y, P = problem()
    return {
        "tuning": tune_thresholds(y, P, resolution=12),
        "cloud": roc_cloud(y, P, resolution=6),
        "comparison": compare_rules(y[60:], P[60:], y_val=y[:60], val_scores=P[:60], resolution=12),
        "profile": coordinate_profile(y, P),
    }


@pytest.mark.parametrize("name", ["tuning", "cloud", "comparison", "profile"])
def test_frozen_result_with_shared_setting_names_and_strict_json(results, name):
    result = results[name]
    assert isinstance(result, Result) and dataclasses.is_dataclass(result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.settings = {}
    assert set(result.settings) <= SHARED_SETTING_NAMES
    data = json.loads(json.dumps(result.to_dict(), allow_nan=False))
    assert data["type"] == type(result).__name__
    assert callable(getattr(result, "plot", None)) == (name != "comparison")  # a comparison table is not drawn


def test_tuning_settings_and_table(results):
    tuning = results["tuning"]
    assert tuning.settings == {
        "search": "lattice",
        "domain": "simplex",
        "tie_break": "closest",
        "resolution": 12,
        "n_samples": None,
        "random_state": None,
    }
    assert (tuning.search, tuning.domain, tuning.resolution, tuning.n_samples) == ("lattice", "simplex", 12, None)
    frame = tuning.to_frame()
    assert frame["class"].tolist() == [0, 1, 2]
    assert frame["threshold"].to_numpy() == pytest.approx(tuning.best_threshold)
    assert tuning.to_dict()["improvement"] == pytest.approx(tuning.best_score - tuning.argmax_score)


def test_cloud_table_has_one_row_per_class_with_sklearn_rates():
    y, P = problem(1)
    cloud = roc_cloud(y, P, thresholds=[[1 / 3, 1 / 3, 1 / 3]])
    frame = cloud.to_frame()
    assert frame["class"].tolist() == [0, 1, 2]
    # with the one threshold of plain argmax, the cloud is the argmax point: DFP_j = fpr_j + 1 - tpr_j
    predicted = P.argmax(axis=1)
    tpr = recall_score(y, predicted, average=None)
    matrix = confusion_matrix(y, predicted)
    fpr = (matrix.sum(axis=0) - np.diag(matrix)) / (matrix.sum() - matrix.sum(axis=1))
    assert frame["mean_tpr"].to_numpy() == pytest.approx(tpr, abs=1e-12)
    assert frame["argmax_fpr"].to_numpy() == pytest.approx(fpr, abs=1e-12)
    assert frame["dfp"].to_numpy() == pytest.approx(fpr + 1 - tpr, abs=1e-12)
    assert cloud.settings == {"search": None} and cloud.n_thresholds == 1


def test_comparison_table_has_one_row_per_rule(results):
    comparison = results["comparison"]
    frame = comparison.to_frame()
    assert frame["rule"].tolist() == ["argmax", "tuned", "frechet", *["inflated_argmax"] * 3]
    assert frame.loc[1, "validation"] == comparison.tuning.best_score
    assert frame.loc[0, "measure"] == "f1_macro"
    assert comparison.settings == comparison.tuning.settings


def test_compare_rules_takes_test_data_first_and_validation_by_keyword():
    y, P = problem(2)
    with pytest.raises(TypeError):
        compare_rules(y[:60], P[:60], y[60:], P[60:])  # validation is keyword-only
    weights = np.ones(60)
    same = compare_rules(
        y[60:],
        P[60:],
        y_val=y[:60],
        val_scores=P[:60],
        resolution=12,
        sample_weight=weights * 3,
        val_sample_weight=weights / 7,
    )
    plain = compare_rules(y[60:], P[60:], y_val=y[:60], val_scores=P[:60], resolution=12)
    for split in ("validation", "test"):
        assert same.rows[split] == pytest.approx(plain.rows[split], abs=1e-12)


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.int8, np.uint64, np.int64, bool])
def test_jsonable_arrays_element_by_element(dtype):
    """Whole arrays become the lists an element-by-element conversion gives: same types, same bits, None for NaN/inf."""
    import math

    from polyroc._results import jsonable

    rng = np.random.default_rng(0)
    values = rng.normal(scale=1e3, size=(7, 5))
    if np.dtype(dtype).kind == "f":
        values[0, 0], values[3, 1], values[6, 4], values[2, 2] = np.nan, np.inf, -np.inf, -0.0
    array = values.astype(dtype)

    def one(item):
        if isinstance(item, np.bool_):
            return bool(item)
        if isinstance(item, np.integer):
            return int(item)
        number = float(item)
        return number if math.isfinite(number) else None

    expected = [[one(array[i, j]) for j in range(array.shape[1])] for i in range(array.shape[0])]
    got = jsonable(array)
    assert got == expected
    flat_got, flat_expected = [v for row in got for v in row], [v for row in expected for v in row]
    assert [type(v) for v in flat_got] == [type(v) for v in flat_expected]
    assert [math.copysign(1, v) if isinstance(v, float) else v for v in flat_got] == [
        math.copysign(1, v) if isinstance(v, float) else v for v in flat_expected
    ]
    assert json.dumps(got, allow_nan=False) == json.dumps(expected, allow_nan=False)
