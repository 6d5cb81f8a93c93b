"""Bad inputs to the ROC-DMF functions: the exact error type, and a message naming the argument.

Also legitimate edge inputs that must give an answer (constant scores, one
sample per class, extreme weight scales).
"""

import warnings

import numpy as np
import pytest

from polyroc.dmf import SmallClassWarning, compare_models, majority_cost_weights, pairwise_rates, roc_dmf

RNG = np.random.default_rng(0)
Y = np.repeat([0, 1, 2], 10)
P = RNG.dirichlet(np.ones(3), 30)
P_NAN = P.copy()
P_NAN[4, 1] = np.nan
P_INF = P.copy()
P_INF[2, 0] = np.inf
Y_NAN = Y.astype(float)
Y_NAN[3] = np.nan
BOOT = {"bootstrap": "stratified", "n_boot": 10}

ROC_DMF_CASES = {
    "y_true None": ((None, P), {}, ValueError, "y_true"),
    "y_true empty": (([], np.empty((0, 3))), {}, ValueError, "y_true is empty"),
    "y_true NaN": ((Y_NAN, P), {}, ValueError, "y_true contains NaN"),
    "y_true mixes 1 and '1'": (([1, "1", 2] * 10, P), {}, TypeError, "y_true mixes strings and numbers"),
    "y_score 1-D": ((Y, P[:, 0]), {}, ValueError, "y_score must be 2-D"),
    "y_score NaN": ((Y, P_NAN), {}, ValueError, "y_score contains NaN"),
    "y_score inf": ((Y, P_INF), {}, ValueError, "y_score contains NaN or infinity"),
    "y_score strings": ((Y, P.astype(str)), {}, TypeError, "y_score must be numeric"),
    "y_score complex": ((Y, P.astype(complex)), {}, TypeError, "y_score must be numeric"),
    "y_score too few columns": ((Y, P[:, :2]), {}, ValueError, "y_score has 2 columns"),
    "lengths differ": ((Y[:-1], P), {}, ValueError, "y_true has 29, y_score has 30"),
    "labels repeated": ((Y, P), {"labels": [0, 1, 1]}, ValueError, "labels must be distinct"),
    "labels miss a class": ((Y, P[:, :2]), {"labels": [0, 1]}, ValueError, "labels not in labels"),
    "labels scalar": ((Y, P), {"labels": 3}, ValueError, "labels must be 1-D"),
    "levels NaN": ((Y, P), {"levels": [0.2, np.nan]}, ValueError, "levels must lie strictly inside"),
    "levels 0": ((Y, P), {"levels": [0.0, 0.5]}, ValueError, "levels must lie strictly inside"),
    "levels repeated": ((Y, P), {"levels": [0.2, 0.2, 0.5]}, ValueError, "levels must be strictly increasing"),
    "levels text": ((Y, P), {"levels": "0.5"}, TypeError, "levels must be numeric"),
    "levels scalar": ((Y, P), {"levels": 0.5}, ValueError, "levels must be 1-D"),
    "levels too many": ((Y, P), {"levels": np.arange(1, 400_001) / 400_001}, ValueError, "levels: 400,000 levels"),
    "n_levels float": ((Y, P), {"n_levels": 9.0}, TypeError, "n_levels must be an integer"),
    "n_levels bool": ((Y, P), {"n_levels": True}, TypeError, "n_levels must be an integer"),
    "n_levels 1": ((Y, P), {"n_levels": 1}, ValueError, "n_levels must be >= 2"),
    "n_levels huge": ((Y, P), {"n_levels": 10**12}, ValueError, r"n_levels: 1,000,000,000,000 levels .* GiB"),
    "cutoff_grid None": ((Y, P), {"cutoff_grid": None}, ValueError, "cutoff_grid must be one of"),
    "cutoff_grid list": ((Y, P), {"cutoff_grid": ["pooled"]}, TypeError, "cutoff_grid must be one of"),
    "method unknown": ((Y, P), {"method": "svd"}, ValueError, "method must be one of"),
    "method array": ((Y, P), {"method": np.array(["intercept", "x"])}, TypeError, "method must be one of"),
    "weighting unknown": ((Y, P), {"weighting": "prior"}, ValueError, "weighting must be one of"),
    "weighting None": ((Y, P), {"weighting": None}, TypeError, "weighting must be"),
    "weighting dict": ((Y, P), {"weighting": {"a": 1}}, TypeError, "weighting must be numeric"),
    "weighting zero": ((Y, P), {"weighting": np.zeros(6)}, ValueError, "weighting must be finite and positive"),
    "weighting inf": ((Y, P), {"weighting": np.full(6, np.inf)}, ValueError, "weighting must be finite"),
    "weighting shape": ((Y, P), {"weighting": np.ones(5)}, ValueError, r"weighting must have shape \(6,\)"),
    "weighting scalar": ((Y, P), {"weighting": 2.0}, ValueError, "weighting must have shape"),
    "trials unknown": ((Y, P), {"trials": "n"}, ValueError, "trials must be one of"),
    "monotone 1": ((Y, P), {"monotone": 1}, TypeError, r"^monotone must be a bool; got int 1$"),
    "bootstrap True": ((Y, P), {"bootstrap": True}, ValueError, "bootstrap must be one of"),
    "bootstrap unknown": ((Y, P), {"bootstrap": "jackknife"}, ValueError, "bootstrap must be one of"),
    "n_boot float": (
        (Y, P),
        {**BOOT, "n_boot": 10.0},
        TypeError,
        r"^n_boot must be an int in \[0, inf\); got float 10.0$",
    ),
    "n_boot 0": (
        (Y, P),
        {**BOOT, "n_boot": 0},
        ValueError,
        r"^n_boot must be an int in \[1, inf\) with bootstrap='stratified'; got 0$",
    ),
    "n_boot unbounded": ((Y, P), {**BOOT, "n_boot": 10**15}, ValueError, r"n_boot=1,000,000,000,000,000 .* years"),
    "confidence 1": ((Y, P), {**BOOT, "confidence": 1.0}, ValueError, "confidence must be"),
    "confidence NaN": ((Y, P), {**BOOT, "confidence": np.nan}, ValueError, "confidence must be"),
    "confidence text": ((Y, P), {**BOOT, "confidence": "0.9"}, TypeError, "confidence must be a real number"),
    "random_state -1": ((Y, P), {**BOOT, "random_state": -1}, ValueError, "random_state must be"),
    "random_state text": ((Y, P), {**BOOT, "random_state": "a"}, TypeError, "random_state must be"),
    "random_state -1 without bootstrap": ((Y, P), {"random_state": -1}, ValueError, "random_state must be"),
    "tol NaN": ((Y, P), {"tol": np.nan}, ValueError, r"^tol must be a real number in \(0, inf\); got nan$"),
    "tol negative": ((Y, P), {"tol": -1}, ValueError, r"^tol must be a real number in \(0, inf\); got -1$"),
    "tol text": ((Y, P), {"tol": "1e-8"}, TypeError, "tol must be a real number"),
    "max_iter 0": ((Y, P), {"max_iter": 0}, ValueError, r"^max_iter must be an int in \[1, inf\); got 0$"),
    "max_iter float": (
        (Y, P),
        {"max_iter": 10.5},
        TypeError,
        r"^max_iter must be an int in \[1, inf\); got float 10.5$",
    ),
    "one class": (([0, 0, 0], [[0.7, 0.3], [0.6, 0.4], [0.9, 0.1]]), {"labels": [0, 1]}, ValueError, "at least 2"),
}


@pytest.mark.parametrize("case", sorted(ROC_DMF_CASES))
def test_roc_dmf_names_the_bad_argument(case):
    args, kwargs, error, message = ROC_DMF_CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=message):
            roc_dmf(*args, **kwargs)


COMPARE_CASES = {
    "scores a list": ([P, P], {}, TypeError, "scores must be a mapping"),
    "one model": ({"a": P}, {}, ValueError, "scores must hold at least 2 models"),
    "model name not text": ({"a": P, 1: P}, {}, TypeError, "model names must be strings"),
    "model of the wrong width": ({"a": P, "b": P[:, :2]}, {}, ValueError, "y_score has 2 columns"),
    "model of the wrong length": ({"a": P, "b": P[:-1]}, {}, ValueError, "y_score has 29"),
    "no bootstrap": (
        {"a": P, "b": P},
        {"bootstrap": None},
        ValueError,
        r"^bootstrap must be one of 'parametric', 'stratified'; got None$",
    ),
    "n_boot 0": ({"a": P, "b": P}, {"n_boot": 0}, ValueError, r"^n_boot must be an int in \[1, inf\); got 0$"),
    "n_boot unbounded": ({"a": P, "b": P}, {"n_boot": 10**15}, ValueError, "n_boot=1,000,000,000,000,000"),
    "method list": ({"a": P, "b": P}, {"method": ["intercept"]}, TypeError, "method must be one of"),
}


@pytest.mark.parametrize("case", sorted(COMPARE_CASES))
def test_compare_models_names_the_bad_argument(case):
    scores, kwargs, error, message = COMPARE_CASES[case]
    with pytest.raises(error, match=message):
        compare_models(Y, scores, **kwargs)


OTHER_CASES = {
    "pairwise_rates levels": (lambda: pairwise_rates(Y, P, levels=[1.0, 2.0]), ValueError, "levels must lie"),
    "pairwise_rates cutoff_grid": (lambda: pairwise_rates(Y, P, cutoff_grid=3), ValueError, "cutoff_grid must be"),
    "pairwise_rates n_levels": (lambda: pairwise_rates(Y, P, n_levels=10**9), ValueError, "n_levels: 1,000,000,000"),
    "cost c 0": (lambda: majority_cost_weights(Y, 0), ValueError, r"^c must be a real number in \(0, inf\); got 0$"),
    "cost c NaN": (
        lambda: majority_cost_weights(Y, np.nan),
        ValueError,
        r"^c must be a real number in \(0, inf\); got nan$",
    ),
    "cost c text": (lambda: majority_cost_weights(Y, "2"), TypeError, "c must be a real number"),
    "cost trials": (lambda: majority_cost_weights(Y, 2.0, trials="x"), ValueError, "trials must be one of"),
    "cost one class": (lambda: majority_cost_weights([0, 0, 0], 2.0), ValueError, "only one class"),
    "cost labels": (lambda: majority_cost_weights(Y, 2.0, labels=[0, 1]), ValueError, "labels not in labels"),
}


@pytest.mark.parametrize("case", sorted(OTHER_CASES))
def test_other_functions_name_the_bad_argument(case):
    call, error, message = OTHER_CASES[case]
    with pytest.raises(error, match=message):
        call()


def test_errors_come_before_any_work(monkeypatch):
    # a bad bootstrap argument is refused before the point fit is computed
    import polyroc.dmf._roc as roc

    def fail(*args, **kwargs):
        raise AssertionError("the point fit ran before the arguments were checked")

    monkeypatch.setattr(roc, "fit_point", fail)
    for kwargs in ({"random_state": -1}, {**BOOT, "n_boot": 10**15}, {"method": "svd"}):
        with pytest.raises(ValueError):
            roc_dmf(Y, P, **kwargs)


@pytest.mark.parametrize("scale", [1e-300, 1.0, 1e300])
def test_weights_mean_relative_importance_at_any_scale(scale):
    q = RNG.uniform(0.5, 2.0, 6)
    reference = roc_dmf(Y, P, weighting=q)
    scaled = roc_dmf(Y, P, weighting=scale * q)
    np.testing.assert_allclose(scaled.intercept, reference.intercept, rtol=0, atol=1e-10)
    assert scaled.D == pytest.approx(reference.D, abs=1e-12)


@pytest.mark.parametrize(
    ("name", "y", "scores"),
    [
        ("constant scores (a class-prior baseline)", Y, np.tile([0.5, 0.3, 0.2], (30, 1))),
        ("one sample per class", [0, 1, 2], RNG.dirichlet(np.ones(3), 3)),
        ("two samples, two classes", [0, 1], [[0.7, 0.3], [0.2, 0.8]]),
        ("scores that are not probabilities", Y, RNG.normal(size=(30, 3)) * 1e300),
    ],
)
def test_edge_inputs_give_an_answer(name, y, scores):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", SmallClassWarning)  # every class here is small
        result = roc_dmf(y, scores)
    assert result.converged and 0 <= result.D <= 1, name


def test_a_constant_classifier_has_d_one_half():
    # every threshold is the common score: all rates are 0 in every pair, the curve is the diagonal
    for method in ("intercept", "algorithm1"):
        result = roc_dmf(Y, np.tile([0.5, 0.3, 0.2], (30, 1)), method=method)
        assert result.D == pytest.approx(0.5, abs=1e-12)


@pytest.mark.parametrize(
    ("ordering", "error", "message"),
    [
        ("ab", TypeError, "ordering must be a sequence of model names, got str"),
        (3, TypeError, "ordering must be a sequence"),
        (("a",), ValueError, "ordering must name every model once"),
        (("a", "a"), ValueError, "ordering must name every model once"),
        (("a", "c"), ValueError, "ordering must name every model once"),
        ((["a"], "b"), ValueError, "ordering must name every model once"),
    ],
)
def test_ranking_probability_names_a_bad_ordering(ordering, error, message):
    cmp = compare_models(Y, {"a": P, "b": P[:, ::-1]}, n_levels=9, n_boot=5, random_state=0)
    assert cmp.probability(("a", "b")) + cmp.probability(["b", "a"]) == pytest.approx(1.0)
    with pytest.raises(error, match=message):
        cmp.probability(ordering)
