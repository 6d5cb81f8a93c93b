"""tune_thresholds: tuned >= argmax, independent re-scoring with scikit-learn, errors."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

from polyroc.exceptions import UndefinedMetricWarning
from polyroc.thresholds import (
    TuningResult,
    coordinate_start_resolution,
    iter_random_thresholds,
    lattice_size,
    threshold_batches,
    tune_thresholds,
)

SKLEARN = {
    "accuracy": lambda y, pred, m, w: accuracy_score(y, pred, sample_weight=w),
    "f1_macro": lambda y, pred, m, w: f1_score(
        y, pred, labels=np.arange(m), average="macro", zero_division=0, sample_weight=w
    ),
}


def synthetic(seed, n, m):
    """Imbalanced Dirichlet outputs with a class-dependent concentration."""
    rng = np.random.default_rng(seed)
    y = rng.choice(m, n, p=np.arange(1, m + 1) / (m * (m + 1) / 2))
    alpha = np.ones((n, m))
    alpha[np.arange(n), y] += rng.random(n) * 3
    informative = rng.gamma(alpha)
    P = 0.3 * rng.dirichlet(np.ones(m), n) + 0.7 * informative / informative.sum(axis=1, keepdims=True)
    return y, P, rng


def sklearn_score(metric, y, P, tau, w=None):
    return SKLEARN[metric](y, np.argmax(P - tau, axis=1), P.shape[1], w)


SEARCHES = [
    ("lattice", {"resolution": 12}),
    ("random", {"n_samples": 300, "random_state": 0}),
    ("coordinate", {"resolution": 6}),
    ("coordinate", {"n_samples": 100, "random_state": 1}),
]


@settings(max_examples=25, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(2, 5),
    st.sampled_from(["accuracy", "f1_macro"]),
    st.sampled_from(SEARCHES),
    st.sampled_from(["simplex", "box"]),
    st.booleans(),
)
def test_tuned_score_is_at_least_argmax_and_rescored_by_sklearn(seed, m, metric, search, domain, weighted):
    y, P, rng = synthetic(seed, 150, m)
    w = rng.random(150) if weighted else None
    name, options = search
    result = tune_thresholds(y, P, metric=metric, search=name, domain=domain, sample_weight=w, **options)
    argmax = SKLEARN[metric](y, np.argmax(P, axis=1), m, w)
    assert result.argmax_score == pytest.approx(argmax, abs=1e-12)
    assert result.best_score >= result.argmax_score
    assert result.best_score == pytest.approx(sklearn_score(metric, y, P, result.best_threshold, w), abs=1e-12)
    tau = result.best_threshold
    if domain == "simplex":
        assert np.all(tau >= 0) and tau.sum() == pytest.approx(1.0)
    else:
        assert tau.min() == pytest.approx(0.0) and tau.max() <= 1 + 1e-12


def test_lattice_search_is_the_brute_force_argmax_over_the_lattice():
    y, P, _ = synthetic(0, 400, 3)
    result = tune_thresholds(y, P, metric="f1_macro", resolution=20, return_surface=True, tie_break="first")
    assert result.thresholds.shape == (lattice_size(3, 20) + 1, 3)
    scores = np.array([sklearn_score("f1_macro", y, P, tau) for tau in result.thresholds])
    assert np.allclose(result.scores, scores, atol=1e-12)
    assert result.best_score == pytest.approx(scores.max())
    assert np.array_equal(result.best_threshold, result.thresholds[np.argmax(scores)])


def test_random_search_is_the_argmax_over_its_seeded_sample():
    y, P, _ = synthetic(1, 300, 4)
    result = tune_thresholds(y, P, search="random", n_samples=500, random_state=3, return_surface=True)
    taus = np.concatenate(list(iter_random_thresholds(4, 500, random_state=3)))
    assert np.array_equal(result.thresholds[:500], taus)
    assert np.allclose(result.thresholds[500], 0.25)
    best = max(sklearn_score("f1_macro", y, P, tau) for tau in result.thresholds)
    assert result.best_score == pytest.approx(best)
    again = tune_thresholds(y, P, search="random", n_samples=500, random_state=3)
    assert np.array_equal(again.best_threshold, result.best_threshold)
    assert again.thresholds is None and again.n_thresholds == 501


def test_tie_break_closest_prefers_the_barycentre_and_first_keeps_lattice_order():
    y = np.array([0, 1, 2])
    P = np.array([[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]])
    closest = tune_thresholds(y, P, resolution=4)
    assert closest.best_score == 1.0 and np.allclose(closest.best_threshold, 1 / 3)
    first = tune_thresholds(y, P, resolution=4, tie_break="first", return_surface=True)
    assert first.best_score == 1.0
    assert np.array_equal(first.best_threshold, first.thresholds[np.argmax(first.scores == 1.0)])


def test_coordinate_search_improves_on_its_start():
    y, P, _ = synthetic(4, 600, 5)
    start = tune_thresholds(y, P, metric="f1_macro", resolution=4)
    refined = tune_thresholds(y, P, metric="f1_macro", search="coordinate", resolution=4)
    assert refined.best_score >= start.best_score
    assert refined.search == "coordinate" and refined.resolution == 4


def test_result_records_settings_and_predicts_labels():
    y = np.array(["cat", "dog", "owl", "dog", "cat", "owl"])
    P = np.array(
        [[0.5, 0.4, 0.1], [0.4, 0.45, 0.15], [0.2, 0.5, 0.3], [0.3, 0.6, 0.1], [0.3, 0.2, 0.5], [0.2, 0.3, 0.5]]
    )
    result = tune_thresholds(y, P, metric="f1_macro", search="random", n_samples=50, random_state=0)
    assert isinstance(result, TuningResult)
    assert result.metric == "f1_macro" and result.search == "random" and result.domain == "simplex"
    assert result.n_samples == 50 and result.resolution is None and result.settings["random_state"] == 0
    assert result.settings == {
        "search": "random",
        "domain": "simplex",
        "tie_break": "closest",
        "resolution": None,
        "n_samples": 50,
        "random_state": 0,
    }
    assert result.classes.tolist() == ["cat", "dog", "owl"]
    assert set(result.predict(P)) <= {"cat", "dog", "owl"}
    assert result.improvement == result.best_score - result.argmax_score
    with pytest.raises(AttributeError):
        result.best_score = 0.0
    default = tune_thresholds(y, P)
    assert default.resolution == 200 and default.n_samples is None and default.metric == "f1_macro"
    assert default.search == "lattice"


def test_custom_metric_callable():
    y, P, _ = synthetic(2, 200, 3)

    def recall_of_class_2(counts):
        return counts[:, 2, 2] / counts[:, 2].sum(axis=1)

    result = tune_thresholds(y, P, metric=recall_of_class_2, resolution=10)
    assert result.metric == "recall_of_class_2"
    pred = np.argmax(P - result.best_threshold, axis=1)
    assert result.best_score == pytest.approx(recall_score(y, pred, labels=[2], average="macro"))
    assert result.best_score > result.argmax_score


def test_memory_does_not_keep_the_thresholds_without_surface():
    y, P, _ = synthetic(3, 100, 6)
    result = tune_thresholds(y, P, search="random", n_samples=20_000, random_state=0)
    assert result.thresholds is None and result.scores is None and result.n_thresholds == 20_001


def test_too_large_lattice_is_refused_with_its_size_and_alternatives():
    y, P, _ = synthetic(0, 50, 10)
    with pytest.raises(ValueError, match=r"52,451,256 points.*search='random'.*search='coordinate'"):
        tune_thresholds(y, P, resolution=25)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"metric": "f2_nonsense"}, ValueError, "unknown metric"),
        ({"search": "grid"}, ValueError, "search must be one of"),
        ({"domain": "cube"}, ValueError, "domain must be one of"),
        ({"tie_break": "last"}, ValueError, "tie_break must be one of"),
        ({"search": "lattice", "n_samples": 10}, ValueError, "n_samples applies to search='random'"),
        ({"search": "random", "resolution": 10}, ValueError, "resolution applies to the lattice"),
        ({"search": "coordinate", "resolution": 4, "n_samples": 4}, ValueError, "not both"),
        ({"resolution": 0}, ValueError, r"^resolution must be None or an int in \[1, inf\); got 0$"),
        ({"search": "random", "random_state": "x"}, TypeError, "random_state"),
        ({"sample_weight": [1, 2]}, ValueError, "sample_weight"),
        ({"search": "random", "n_samples": 10**7}, ValueError, r"n_samples=10,000,000 .* 229 MiB"),
        ({"search": "coordinate", "n_samples": 3 * 10**6}, ValueError, r"n_samples=3,000,000 .* limit"),
        ({"metric": lambda counts: counts[0, 0, 0]}, ValueError, r"metric '<lambda>' must map .* shape \(\)"),
        ({"metric": lambda counts: counts[:, 0]}, ValueError, r"metric '<lambda>' must map .* shape \(\d+, 3\)"),
        ({"metric": lambda counts: counts[:, 0, 0, 0]}, ValueError, r"metric '<lambda>' failed .* IndexError"),
        ({"metric": lambda counts: np.full(len(counts), np.nan)}, ValueError, "NaN at every one of the"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    y, P, _ = synthetic(0, 30, 3)
    with pytest.raises(error, match=match):
        tune_thresholds(y, P, **kwargs)


@pytest.mark.parametrize(
    ("random_state", "error", "match"),
    [
        (
            "abc",
            TypeError,
            r"^random_state must be None, an int in \[0, inf\) or a numpy.random.Generator; got str 'abc'$",
        ),
        (-1, ValueError, r"^random_state must be None, an int in \[0, inf\) or a numpy.random.Generator; got -1$"),
        (np.random.RandomState(0), TypeError, "^random_state must be .* got RandomState"),
    ],
)
@pytest.mark.parametrize("search", [{"search": "lattice", "resolution": 4}, {"search": "coordinate"}, {}])
def test_random_state_is_checked_whatever_the_search(search, random_state, error, match):
    y, P, _ = synthetic(0, 30, 3)
    with pytest.raises(error, match=match):
        tune_thresholds(y, P, random_state=random_state, **search)
    if search.get("search") == "lattice":
        with pytest.raises(error, match=match):
            threshold_batches(y, P, resolution=4, random_state=random_state)


def test_predict_with_the_wrong_number_of_columns_names_y_score():
    y, P, _ = synthetic(2, 30, 3)
    result = tune_thresholds(y, P, resolution=6)
    with pytest.raises(ValueError, match=r"^y_score has 4 columns but the thresholds were tuned for 3 classes"):
        result.predict(np.full((2, 4), 0.25))
    with pytest.raises(ValueError, match=r"^y_score has 2 columns but the thresholds were tuned for 3 classes"):
        result.predict([[0.5, 0.5]])


@pytest.mark.parametrize(
    ("n_samples", "error", "match"),
    [
        (0, ValueError, r"^n_samples must be an int in \[1, inf\); got 0$"),
        (-10, ValueError, r"^n_samples must be an int in \[1, inf\); got -10$"),
        (100.0, TypeError, r"^n_samples must be an int in \[1, inf\); got float 100.0$"),
        (False, TypeError, r"^n_samples must be an int in \[1, inf\); got bool False$"),
    ],
)
def test_coordinate_start_resolution_refuses_a_bad_n_samples(n_samples, error, match):
    with pytest.raises(error, match=match):
        coordinate_start_resolution(n_samples, 10)


def test_bad_scores():
    with pytest.raises(ValueError, match="sum to 1"):
        tune_thresholds([0, 1, 2], [[0.5, 0.5, 0.5]] * 3)
    with pytest.raises(ValueError, match="columns"):
        tune_thresholds([0, 1, 2], [[0.5, 0.5]] * 3)


def test_metric_nan_at_some_thresholds_warns_and_ranks_them_last():
    y, P, _ = synthetic(4, 120, 3)

    def precision_of_class_0(counts):
        with np.errstate(invalid="ignore", divide="ignore"):
            return counts[:, 0, 0] / counts[:, :, 0].sum(axis=1)

    with pytest.warns(UndefinedMetricWarning, match=r"NaN at [\d,]+ of [\d,]+ thresholds"):
        result = tune_thresholds(y, P, metric=precision_of_class_0, resolution=10)
    pred = np.argmax(P - result.best_threshold, axis=1)
    assert result.best_score == pytest.approx(precision_score(y, pred, labels=[0], average="macro"))
