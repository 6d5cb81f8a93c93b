"""Bootstrap of ROC-DMF: seeded, vectorised = loop of single fits, CIs, and model comparison."""

import itertools

import numpy as np
import pytest

from polyroc.dmf import compare_models, pairwise_rates, roc_dmf
from polyroc.dmf._bootstrap import _restart_unconverged, _simulate, _warm_start
from polyroc.dmf._curve import roc_area, roc_points
from polyroc.dmf._factorization import fit_factorization
from polyroc.dmf._model import fit_point, make_settings, response_rates
from polyroc.dmf._rates import prepare_problem
from polyroc.resampling import ConfidenceInterval, bootstrap_multiplicities


def _scores(seed, n=150, k=3, signal=0.6):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), size=n) + signal * np.eye(k)[y]
    return y, P / P.sum(axis=1, keepdims=True)


def _settings(**overrides):
    options = {
        "method": "intercept",
        "weighting": "unweighted",
        "trials": "pairs",
        "monotone": False,
        "tol": 1e-8,
        "max_iter": 200,
        "bootstrap": "stratified",
        "n_boot": 6,
        "confidence": 0.95,
        "random_state": 0,
    }
    options.update(overrides)
    return make_settings(**options)


def _single_area(rates, point, settings):
    fit = fit_factorization(
        response_rates(rates[None], point.counts),
        point.weights,
        method=settings.method,
        start=_warm_start(point, settings),
        tol=settings.tol,
        max_iter=settings.max_iter,
        newton=True,  # as the replicates are refitted
    )
    return roc_area(*roc_points(fit.intercept))[0]


@pytest.mark.parametrize("kind", ["parametric", "stratified"])
def test_same_seed_same_replicates(kind):
    y, P = _scores(0)
    a = roc_dmf(y, P, n_levels=19, bootstrap=kind, n_boot=12, random_state=5)
    b = roc_dmf(y, P, n_levels=19, bootstrap=kind, n_boot=12, random_state=5)
    c = roc_dmf(y, P, n_levels=19, bootstrap=kind, n_boot=12, random_state=6)
    np.testing.assert_array_equal(a.bootstrap.D, b.bootstrap.D)
    assert not np.array_equal(a.bootstrap.D, c.bootstrap.D)


@pytest.mark.parametrize("kind", ["parametric", "stratified"])
def test_interval_and_band(kind):
    y, P = _scores(1, n=300)
    result = roc_dmf(y, P, n_levels=19, bootstrap=kind, n_boot=60, random_state=0)
    ci = result.ci
    assert isinstance(ci, ConfidenceInterval)
    assert ci.low <= result.D <= ci.high and ci.estimate == result.D
    assert (ci.n_boot, ci.confidence, ci.random_state) == (60, 0.95, 0)
    assert ci.method == f"{kind} percentile bootstrap"
    assert result.settings["interval_method"] == result.bootstrap.settings["interval_method"] == ci.method
    boot = result.bootstrap
    assert boot.D.shape == (60,) and boot.fpr.shape == boot.tpr.shape == (60, 19)
    assert boot.n_iter.shape == (60,) and np.all(boot.n_iter >= 1)
    assert np.all(boot.band_low <= boot.band_high)
    assert boot.band_low[0] == 0 and boot.band_high[-1] == 1


def test_parametric_intervals_are_narrower_than_stratified():
    y, P = _scores(2, n=300)
    intervals = {
        kind: roc_dmf(y, P, n_levels=19, bootstrap=kind, n_boot=60, random_state=0).ci
        for kind in ("parametric", "stratified")
    }
    width = {kind: ci.high - ci.low for kind, ci in intervals.items()}
    assert width["parametric"] < width["stratified"]


def test_stratified_replicates_equal_single_fits_of_the_resampled_data():
    # the batched pipeline against a loop: rebuild each replicate's matrices from the
    # duplicated samples, fit it alone from the same warm start
    y, P = _scores(3)
    settings = _settings(n_boot=6, random_state=11)
    result = roc_dmf(y, P, n_levels=19, bootstrap="stratified", n_boot=6, random_state=11)
    point = fit_point(prepare_problem(y, P, labels=None, levels=None, n_levels=19, cutoff_grid="pooled"), settings)
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, 6, random_state=11)))
    for m, area in zip(multiplicities, result.bootstrap.D):
        rates = pairwise_rates(np.repeat(y, m), np.repeat(P, m, axis=0), n_levels=19)
        single = _single_area(np.concatenate([rates.tpr, rates.fpr]), point, settings)
        assert single == pytest.approx(area, abs=1e-10)


def test_parametric_replicates_equal_single_fits_of_the_simulated_matrices():
    y, P = _scores(4)
    settings = _settings(bootstrap="parametric", n_boot=5, random_state=2)
    result = roc_dmf(y, P, n_levels=19, bootstrap="parametric", n_boot=5, random_state=2)
    point = fit_point(prepare_problem(y, P, labels=None, levels=None, n_levels=19, cutoff_grid="pooled"), settings)
    child = np.random.default_rng(2).spawn(1)[0]
    simulated = np.concatenate(list(_simulate(point, 5, child, chunk=2, correction=settings.correction)))
    assert simulated.shape == (5, 38, 6)
    singles = [_single_area(rates, point, settings) for rates in simulated]
    np.testing.assert_allclose(singles, result.bootstrap.D, rtol=0, atol=1e-10)


def test_compare_models_pairs_the_replicates_and_ranks_them():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 150)
    models = {
        name: rng.dirichlet(np.ones(3), size=150) + signal * np.eye(3)[y]
        for name, signal in [("good", 1.0), ("fair", 0.3), ("poor", 0.0)]
    }
    fair = models["fair"]
    cmp = compare_models(y, models, n_levels=19, bootstrap="stratified", n_boot=30, random_state=3)
    # paired: each model's replicates are those roc_dmf draws with the same seed
    alone = roc_dmf(y, fair, n_levels=19, bootstrap="stratified", n_boot=30, random_state=3)
    np.testing.assert_array_equal(cmp.replicates[:, 1], alone.bootstrap.D)
    np.testing.assert_array_equal(cmp.results["fair"].bootstrap.D, alone.bootstrap.D)
    assert cmp.D.tolist() == [cmp.results[name].D for name in cmp.names]
    # ranking probabilities counted directly from the replicates
    counts = {order: 0 for order in itertools.permutations(cmp.names)}
    for row in cmp.replicates:
        counts[tuple(cmp.names[i] for i in np.argsort(-row))] += 1
    expected = {order: c / 30 for order, c in counts.items() if c}
    assert cmp.ranking_probabilities == pytest.approx(expected)
    assert sum(cmp.ranking_probabilities.values()) == pytest.approx(1.0)
    assert cmp.probability(("good", "fair", "poor")) > 0.9
    assert cmp.probability(("poor", "fair", "good")) == 0.0
    for a, b in itertools.permutations(range(3), 2):
        assert cmp.pairwise[a, b] == pytest.approx(np.mean(cmp.replicates[:, a] > cmp.replicates[:, b]))
    assert cmp.pairwise[0, 2] == 1.0


def test_compare_models_parametric_sums_to_one():
    y, a = _scores(8)
    _, b = _scores(9)
    cmp = compare_models(y, {"a": a, "b": b}, n_levels=9, n_boot=20, random_state=0)
    assert cmp.settings["bootstrap"] == "parametric" and cmp.replicates.shape == (20, 2)
    assert sum(cmp.ranking_probabilities.values()) == pytest.approx(1.0)
    assert cmp.pairwise[0, 1] + cmp.pairwise[1, 0] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("scores", "kwargs", "error", "match"),
    [
        ({"a": None}, {}, ValueError, "at least 2 models"),
        ([np.ones((4, 2))], {}, TypeError, "mapping of model name"),
        ({1: np.ones((4, 2)), 2: np.ones((4, 2))}, {}, TypeError, "model names must be strings"),
        (
            {"a": np.ones((4, 2)), "b": np.ones((4, 2))},
            {"bootstrap": None},
            ValueError,
            r"^bootstrap must be one of 'parametric', 'stratified'; got None$",
        ),
    ],
)
def test_compare_models_errors(scores, kwargs, error, match):
    with pytest.raises(error, match=match):
        compare_models([0, 1, 0, 1], scores, **kwargs)


def test_unconverged_replicates_are_restarted_from_their_own_start():
    # with one iteration nothing converges; the restart keeps, replicate by replicate, the
    # lower deviance of the warm-started fit and of a cold fit of that replicate alone
    y, P = _scores(10)
    settings = _settings(max_iter=1)
    point = fit_point(prepare_problem(y, P, labels=None, levels=None, n_levels=9, cutoff_grid="pooled"), settings)
    rng = np.random.default_rng(0)
    response = response_rates(np.clip(point.rates + rng.normal(0, 0.05, (4, *point.rates.shape)), 0, 1), point.counts)
    warm = fit_factorization(response, point.weights, start=_warm_start(point, settings), max_iter=1)
    assert not np.any(warm.converged)
    restarted = _restart_unconverged(warm, response, point, settings)
    for b in range(4):
        cold = fit_factorization(response[b : b + 1], point.weights, max_iter=1)
        best = min(warm.deviance[b], cold.deviance[0])
        assert restarted.deviance[b] == pytest.approx(best, rel=1e-12)
        source = cold.intercept[0] if cold.deviance[0] < warm.deviance[b] else warm.intercept[b]
        np.testing.assert_allclose(restarted.intercept[b], source, rtol=0, atol=1e-9)
        assert restarted.n_iter[b] == 2  # one warm and one cold iteration


def test_comparison_result_protocol():
    import json

    y, a = _scores(8)
    _, b = _scores(9, signal=0.1)
    cmp = compare_models(y, {"a": a, "b": b}, n_levels=9, bootstrap="stratified", n_boot=25, random_state=0)
    best = {name: np.mean(np.argmax(cmp.replicates, axis=1) == i) for i, name in enumerate(cmp.names)}
    assert cmp.probability_best() == pytest.approx(best)
    frame = cmp.to_frame()
    assert list(frame["model"]) == ["a", "b"]
    np.testing.assert_array_equal(frame["D"], cmp.D)
    for row, name in zip(frame.itertuples(), cmp.names):
        ci = cmp.results[name].ci
        assert (row.D_low, row.D_high) == (ci.low, ci.high) and row.probability_best == best[name]
        assert ci.low == np.quantile(cmp.replicates[:, cmp.names.index(name)], 0.025)
    record = json.loads(json.dumps(cmp.to_dict(), allow_nan=False))
    assert record["type"] == "ModelComparison" and record["settings"]["bootstrap"] == "stratified"
    shares = {tuple(item["ordering"]): item["probability"] for item in record["ranking_probabilities"]}
    assert shares == cmp.ranking_probabilities
