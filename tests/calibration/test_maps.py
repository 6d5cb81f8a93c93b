"""Calibration maps fitted on validation data: ``polyroc.calibration.fit_calibrator``.

Oracles: scikit-learn's temperature scaling (``CalibratedClassifierCV`` on a
frozen classifier) and ``IsotonicRegression``; a simulation with a known
temperature; the log losses and their finite-difference gradients written
here; fits on repeated rows for integer weights.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pandas as pd
import pytest
from scipy.special import logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.frozen import FrozenEstimator
from sklearn.isotonic import IsotonicRegression
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss as sklearn_log_loss

import polyroc
from polyroc.calibration import Calibrator, fit_calibrator

EPS = np.finfo(np.float64).eps
METHODS = ("temperature", "vector", "matrix", "isotonic")


def _problem(n=400, m=3, seed=0, spread=2.5, shift=1.0):
    """Labels and over-confident probabilities with no zeros."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = spread * rng.normal(size=(n, m)) + shift * np.eye(m)[y]
    return y, softmax(logits, axis=1)


def _log_loss(logits, y, w):
    """Weighted mean of -log softmax(logits)[y], written here from the definition."""
    return float(np.sum(w * (logsumexp(logits, axis=1) - logits[np.arange(y.size), y])) / np.sum(w))


def _numeric_gradient(objective, theta, step=1e-6):
    gradient = np.zeros_like(theta)
    for k in range(theta.size):
        up, down = theta.copy(), theta.copy()
        up[k] += step
        down[k] -= step
        gradient[k] = (objective(up) - objective(down)) / (2 * step)
    return gradient


class _GivenProbabilities(ClassifierMixin, BaseEstimator):
    """A classifier whose features are its probabilities: scikit-learn calibrates them as predict_proba."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.asarray(X, dtype=np.float64)

    def predict(self, X):
        return self.classes_[np.asarray(X).argmax(axis=1)]


# --- temperature: scikit-learn and a known truth ---------------------------------------------------------


@pytest.mark.parametrize("m", [2, 4])
def test_temperature_on_decision_function_matches_scikit_learn(m):
    rng = np.random.default_rng(m)
    n = 800
    y = rng.integers(0, m, n)
    X = rng.normal(size=(n, 5))
    X[:, :m] += 1.5 * np.eye(m)[y]
    model = LogisticRegression(C=100.0).fit(X[:400], y[:400])
    reference = CalibratedClassifierCV(FrozenEstimator(model), method="temperature").fit(X[400:], y[400:])
    logits = model.decision_function(X)
    if m == 2:  # scikit-learn's binary logits of a decision value x are (-x, x)
        logits = np.column_stack([-logits, logits])
    ours = fit_calibrator(y[400:], logits[400:], from_logits=True)
    expected = reference.predict_proba(X[:400])
    assert ours.transform(logits[:400]) == pytest.approx(expected, abs=1e-6)
    beta = reference.calibrated_classifiers_[0].calibrators[0].beta_
    assert ours.temperature == pytest.approx(1 / beta, rel=1e-6)


@pytest.mark.filterwarnings("ignore:Since FrozenEstimator does not appear to accept sample_weight")
@pytest.mark.parametrize("m", [2, 3, 5])
def test_temperature_on_probabilities_matches_scikit_learn(m):
    y, P = _problem(n=600, m=m, seed=10 + m, spread=1.5)
    assert P.min() > 1e-6  # where log(p + 1e-12) and log(p) agree to 1e-6
    model = _GivenProbabilities().fit(P, y)
    weights = np.random.default_rng(m).uniform(0.2, 3.0, 300)
    reference = CalibratedClassifierCV(FrozenEstimator(model), method="temperature")
    reference.fit(P[300:], y[300:], sample_weight=weights)
    ours = fit_calibrator(y[300:], P[300:], sample_weight=weights)
    assert ours.transform(P[:300]) == pytest.approx(reference.predict_proba(P[:300]), abs=1e-6)
    assert ours.converged


def test_temperature_recovers_a_known_temperature():
    # scores = softmax(z / T0), labels drawn from softmax(z): softmax(log p / T) is the truth at T = 1 / T0
    t0, n, draws = 0.4, 1500, 40
    fitted = []
    for seed in range(draws):
        rng = np.random.default_rng(seed)
        z = 1.5 * rng.normal(size=(n, 3))
        truth = softmax(z, axis=1)
        y = (rng.random(n)[:, None] > np.cumsum(truth, axis=1)).sum(axis=1)
        fitted.append(fit_calibrator(y, softmax(z / t0, axis=1)).temperature)
    fitted = np.array(fitted)
    standard_error = fitted.std(ddof=1) / np.sqrt(draws)
    assert abs(fitted.mean() - 1 / t0) <= 3 * standard_error
    assert standard_error < 0.02  # the check has power: 3 SE is under 2.5% of T


def test_temperature_keeps_the_argmax_and_minimises_the_loss():
    y, P = _problem(seed=3)
    calibrator = fit_calibrator(y, P)
    _, test = _problem(seed=4)
    assert np.array_equal(calibrator.transform(test).argmax(axis=1), test.argmax(axis=1))
    logits = np.log(P)
    best = _log_loss(logits / calibrator.temperature, y, np.ones(y.size))
    for factor in (0.99, 1.01):
        assert best < _log_loss(logits / (factor * calibrator.temperature), y, np.ones(y.size))
    derivative = _numeric_gradient(
        lambda t: _log_loss(logits / t[0], y, np.ones(y.size)), np.array([calibrator.temperature])
    )
    assert abs(derivative[0]) < 1e-7


# --- vector and matrix maps: zero gradient, no worse than the temperature ---------------------------------


def _vector_objective(logits, y, w):
    m = logits.shape[1]
    return lambda theta: _log_loss(logits * theta[:m] + theta[m:], y, w)


def _matrix_objective(logits, y, w, reg_lambda, reg_mu):
    m = logits.shape[1]

    def objective(theta):
        W, b = theta[: m * m].reshape(m, m), theta[m * m :]
        off = W - np.diag(np.diag(W))
        penalty = reg_lambda * np.sum(off**2) / (m * (m - 1)) + reg_mu * np.sum(b**2) / m
        return _log_loss(logits @ W.T + b, y, w) + penalty

    return objective


@pytest.mark.parametrize("from_logits", [False, True])
def test_vector_map_has_zero_gradient_and_beats_the_temperature(from_logits):
    y, P = _problem(n=500, m=4, seed=5)
    scores = np.log(P) + 0.3 if from_logits else P
    w = np.random.default_rng(5).uniform(0.5, 2.0, y.size)
    vector = fit_calibrator(y, scores, method="vector", from_logits=from_logits, sample_weight=w)
    temperature = fit_calibrator(y, scores, from_logits=from_logits, sample_weight=w)
    logits = np.log(P) + (0.3 if from_logits else 0.0)
    theta = np.concatenate([np.diag(vector.coef), vector.intercept])
    objective = _vector_objective(logits, y, w)
    assert np.max(np.abs(_numeric_gradient(objective, theta))) < 1e-6
    assert np.count_nonzero(vector.coef - np.diag(np.diag(vector.coef))) == 0
    assert objective(theta) <= _log_loss(logits / temperature.temperature, y, w) + 1e-12
    assert vector.transform(scores) == pytest.approx(softmax(logits * theta[:4] + theta[4:], axis=1), abs=1e-12)
    assert vector.loss_after == pytest.approx(sklearn_log_loss(y, vector.transform(scores), sample_weight=w), abs=1e-12)
    assert vector.converged


@pytest.mark.parametrize(("reg_lambda", "reg_mu"), [(1e-3, 1e-3), (0.5, 0.0), (0.0, 2.0)])
def test_matrix_map_has_zero_gradient_and_beats_the_temperature(reg_lambda, reg_mu):
    y, P = _problem(n=600, m=3, seed=6)
    matrix = fit_calibrator(y, P, method="matrix", reg_lambda=reg_lambda, reg_mu=reg_mu)
    temperature = fit_calibrator(y, P)
    logits, w = np.log(P), np.ones(y.size)
    theta = np.concatenate([matrix.coef.ravel(), matrix.intercept])
    objective = _matrix_objective(logits, y, w, reg_lambda, reg_mu)
    assert np.max(np.abs(_numeric_gradient(objective, theta))) < 1e-6
    # the temperature's map I / T with no intercept has no penalty
    assert objective(theta) <= _log_loss(logits / temperature.temperature, y, w) + 1e-12
    assert matrix.settings == {"method": "matrix", "from_logits": False, "reg_lambda": reg_lambda, "reg_mu": reg_mu}
    assert matrix.converged


def test_matrix_map_with_a_huge_off_diagonal_penalty_is_the_vector_map():
    y, P = _problem(n=500, m=4, seed=7)
    vector = fit_calibrator(y, P, method="vector")
    matrix = fit_calibrator(y, P, method="matrix", reg_lambda=1e10, reg_mu=0.0)
    _, test = _problem(n=200, m=4, seed=8)
    assert matrix.transform(test) == pytest.approx(vector.transform(test), abs=1e-6)
    assert np.abs(matrix.coef - np.diag(np.diag(matrix.coef))).max() < 1e-6


def test_the_maps_do_not_raise_the_validation_loss():
    y, P = _problem(n=400, m=3, seed=9)
    losses = {method: fit_calibrator(y, P, method=method).loss_after for method in METHODS}
    before = sklearn_log_loss(y, P)
    assert losses["temperature"] < before
    assert losses["vector"] <= losses["temperature"] + 1e-12
    for method in METHODS:
        assert fit_calibrator(y, P, method=method).loss_before == pytest.approx(before, abs=1e-12)


# --- isotonic: scikit-learn's IsotonicRegression per class ----------------------------------------------


def _sklearn_isotonic(y, scores, test, weights=None):
    columns = []
    for j in range(scores.shape[1]):
        regression = IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1)
        regression.fit(scores[:, j], (y == j).astype(float), sample_weight=weights)
        columns.append(regression.predict(test[:, j]))
    mapped = np.column_stack(columns)
    sums = mapped.sum(axis=1, keepdims=True)
    return np.divide(mapped, sums, out=np.full_like(mapped, 1 / mapped.shape[1]), where=sums != 0)


@pytest.mark.parametrize("case", ["plain", "ties", "weights", "logits"])
def test_isotonic_matches_scikit_learn_per_class_then_normalised(case):
    y, P = _problem(n=500, m=4, seed=11)
    _, test = _problem(n=300, m=4, seed=12, spread=4.0)  # wider: some test scores fall outside the knots
    weights, from_logits = None, case == "logits"
    if case == "ties":  # scores on a grid of sixtieths: many exact ties, and distinct scores 1/60 apart
        P = np.random.default_rng(2).multinomial(60, P) / 60
    if case == "weights":
        weights = np.random.default_rng(1).integers(0, 4, y.size).astype(float)
    if from_logits:
        P, test = np.log(P) * 2.0, np.log(test) * 2.0
    ours = fit_calibrator(y, P, method="isotonic", sample_weight=weights, from_logits=from_logits)
    expected = _sklearn_isotonic(y, P, test, weights)
    assert np.max(np.abs(ours.transform(test) - expected)) <= 1e-12
    assert np.max(np.abs(ours.transform(P) - _sklearn_isotonic(y, P, P, weights))) <= 1e-12


def test_isotonic_row_of_zeros_is_uniform_as_in_scikit_learn():
    y = np.array([0, 0, 1, 1, 2, 2])
    P = np.array([[0.8, 0.1, 0.1], [0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.7, 0.1], [0.3, 0.3, 0.4], [0.1, 0.4, 0.5]])
    test = np.array([[0.0, 0.0, 1.0], [0.5, 0.4, 0.1]])
    ours = fit_calibrator(y, P, method="isotonic").transform(test)
    assert ours == pytest.approx(_sklearn_isotonic(y, P, test), abs=1e-12)


# --- weights, zeros and the class order --------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_integer_weights_are_repeated_rows(method):
    y, P = _problem(n=150, m=3, seed=13)
    weights = np.random.default_rng(2).integers(0, 4, y.size)
    weighted = fit_calibrator(y, P, method=method, sample_weight=weights)
    repeated = fit_calibrator(np.repeat(y, weights), np.repeat(P, weights, axis=0), method=method)
    _, test = _problem(n=100, m=3, seed=14)
    assert weighted.transform(test) == pytest.approx(repeated.transform(test), abs=1e-7)
    assert weighted.loss_after == pytest.approx(repeated.loss_after, abs=1e-10)


def test_probabilities_of_zero_are_clipped_at_machine_epsilon():
    y, P = _problem(n=300, m=3, seed=15)
    P = np.where(P < 0.05, 0.0, P)
    P = P / P.sum(axis=1, keepdims=True)
    calibrator = fit_calibrator(y, P)
    logits = np.log(np.maximum(P, EPS))
    slope = _numeric_gradient(
        lambda t: _log_loss(logits / t[0], y, np.ones(y.size)), np.array([calibrator.temperature])
    )
    assert abs(slope[0]) < 1e-7
    calibrated = calibrator.transform(P)
    assert np.all(np.isfinite(calibrated))
    assert calibrated == pytest.approx(softmax(logits / calibrator.temperature, axis=1), abs=1e-12)


def test_labels_order_the_columns_and_string_labels_work():
    y, P = _problem(n=300, m=3, seed=16)
    names = np.array(["c", "a", "b"])[y]
    calibrator = fit_calibrator(names, P, labels=["c", "a", "b"], method="vector")
    plain = fit_calibrator(y, P, method="vector")
    assert calibrator.classes.tolist() == ["c", "a", "b"]
    assert calibrator.transform(P) == pytest.approx(plain.transform(P), abs=1e-9)


def test_dataframe_columns_named_by_the_classes_are_taken_by_name():
    y, P = _problem(n=300, m=3, seed=20)
    names = np.array(["a", "b", "c"])[y]
    frame = pd.DataFrame(P, columns=["a", "b", "c"])[["c", "a", "b"]]
    by_name = fit_calibrator(names, frame, method="vector")
    by_position = fit_calibrator(names, P, method="vector")
    assert by_name.transform(frame) == pytest.approx(by_position.transform(P), abs=1e-9)


def test_the_flat_namespace_names_the_calibration():
    assert polyroc.fit_calibrator is fit_calibrator
    assert polyroc.Calibrator is Calibrator


# --- the result protocol ----------------------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
def test_calibrator_follows_the_result_protocol(method):
    y, P = _problem(n=200, m=3, seed=17)
    calibrator = fit_calibrator(y, P, method=method)
    with pytest.raises(dataclasses.FrozenInstanceError):
        calibrator.method = "vector"
    document = json.loads(json.dumps(calibrator.to_dict(), allow_nan=False))
    assert document["type"] == "Calibrator" and document["method"] == method
    assert document["settings"]["method"] == method and document["settings"]["from_logits"] is False
    frame = calibrator.to_frame()
    assert isinstance(frame, pd.DataFrame) and frame["class"].tolist() == [0, 1, 2]
    view = calibrator._repr_html_()
    assert view.startswith("<div class='polyroc-result'><strong>Calibrator</strong>")
    assert view.index("<table>") < view.index("<details><summary>settings</summary>")
    assert f"<td>{calibrator.loss_after:.4f}</td>" in view
    text = repr(calibrator)
    assert text.startswith("Calibrator(") and "\n" not in text and len(text) < 1500
    lines = calibrator.to_text().splitlines()
    assert lines[0] == f"Calibrator: {method} map on 3 classes"
    assert f"{calibrator.loss_before:.4f} before, {calibrator.loss_after:.4f} after" in lines[-1]


def test_the_table_shows_the_temperature_and_the_vector_scales():
    y, P = _problem(n=200, m=3, seed=18)
    temperature = fit_calibrator(y, P)
    assert temperature.to_frame()["scale"].to_numpy() == pytest.approx(np.full(3, 1 / temperature.temperature))
    vector = fit_calibrator(y, P, method="vector")
    assert vector.to_frame()["scale"].to_numpy() == pytest.approx(np.diag(vector.coef))
    assert vector.to_frame()["intercept"].to_numpy() == pytest.approx(vector.intercept)
    assert np.array(temperature.to_dict()["coef"]) == pytest.approx(np.eye(3) / temperature.temperature)


def test_a_temperature_at_its_bound_is_not_converged_and_says_so():
    y = np.array([0, 1, 0, 1])
    P = np.array([[0.9, 0.1], [0.2, 0.8], [0.7, 0.3], [0.4, 0.6]])  # every argmax right: T shrinks to its bound
    calibrator = fit_calibrator(y, P)
    assert not calibrator.converged
    assert calibrator.temperature == pytest.approx(np.exp(-10.0))
    assert "bound" in calibrator._repr_html_() and "bound" in calibrator.to_text()


# --- bad input: errors naming the argument, before any work ----------------------------------------------


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"method": "platt"}, ValueError, "method must be one of 'temperature', 'vector', 'matrix', 'isotonic'"),
        ({"method": 1}, ValueError, "method must be one of"),
        ({"method": ["temperature"]}, TypeError, "method must be one of"),
        ({"from_logits": 1}, TypeError, "from_logits must be a bool"),
        ({"reg_lambda": -1.0}, ValueError, r"reg_lambda must be a real number in \[0, inf\); got -1.0"),
        ({"reg_lambda": float("nan")}, ValueError, "reg_lambda must be a real number"),
        ({"reg_mu": "1"}, TypeError, "reg_mu must be a real number"),
        ({"reg_mu": float("inf")}, ValueError, "reg_mu must be a real number"),
        ({"sample_weight": [1.0, -1.0, 1.0, 1.0]}, ValueError, "sample_weight must be non-negative"),
        ({"sample_weight": [1.0, 1.0]}, ValueError, r"sample_weight must have shape \(4,\)"),
        ({"sample_weight": [0.0, 0.0, 0.0, 0.0]}, ValueError, "sample_weight sums to zero"),
        ({"labels": [0, 1, 2]}, ValueError, "val_scores has 2 columns but labels names 3 classes"),
        ({"labels": [0, 2]}, ValueError, "y_val"),
    ],
)
def test_bad_options_name_the_argument(options, error, message):
    y, P = [0, 1, 0, 1], [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5], [0.2, 0.8]]
    with pytest.raises(error, match=message):
        fit_calibrator(y, P, **options)


@pytest.mark.parametrize(
    ("y", "scores", "error", "message"),
    [
        ([0, 1], [[0.6, 0.6], [0.3, 0.7]], ValueError, r"rows of val_scores must sum to 1 \(row 0 sums to 1.2"),
        ([0, 1], [[1.2, -0.2], [0.3, 0.7]], ValueError, "val_scores has negative values"),
        ([0, 1], [[np.nan, 0.5], [0.3, 0.7]], ValueError, "val_scores contains NaN or infinity"),
        ([0, 1], [0.4, 0.7], ValueError, r"val_scores must be 2-D \(n_samples, n_classes\)"),
        ([0, 1], [["a", "b"], ["c", "d"]], TypeError, "val_scores"),
        ([0, 1, 1], [[0.6, 0.4], [0.3, 0.7]], ValueError, "y_val"),
        ([0, 0], [[0.6, 0.4], [0.3, 0.7]], ValueError, "val_scores has 2 columns but y_val has 1 class"),
        ([0, 1, 2], [[0.6, 0.4], [0.3, 0.7], [0.5, 0.5]], ValueError, "val_scores has 2 columns but y_val has 3"),
    ],
)
def test_bad_validation_data_names_the_argument(y, scores, error, message):
    with pytest.raises(error, match=message):
        fit_calibrator(y, scores)


def test_score_messages_are_those_of_the_other_score_checks():
    bad = [[0.6, 0.6], [0.3, 0.7]]
    with pytest.raises(ValueError) as ours:
        fit_calibrator([0, 1], bad)
    with pytest.raises(ValueError) as theirs:
        polyroc.tune_thresholds([0, 1], bad)
    assert str(ours.value) == str(theirs.value).replace("y_score", "val_scores")


def test_logits_need_not_lie_on_the_simplex():
    calibrator = fit_calibrator([0, 1, 0, 1], [[3.0, -1.0], [0.5, 2.0], [1.0, 0.0], [-2.0, 1.0]], from_logits=True)
    assert calibrator.transform([[10.0, -10.0]]).sum() == pytest.approx(1.0)


@pytest.mark.parametrize("method", METHODS)
def test_transform_refuses_another_number_of_classes_naming_both_counts(method):
    y, P = _problem(n=120, m=3, seed=19)
    calibrator = fit_calibrator(y, P, method=method)
    with pytest.raises(ValueError, match="scores has 4 columns but the calibrator was fitted on 3 classes"):
        calibrator.transform(np.full((2, 4), 0.25))
    with pytest.raises(ValueError, match="rows of scores must sum to 1"):
        calibrator.transform([[0.5, 0.5, 0.5]])
    with pytest.raises(ValueError, match="scores has negative values"):
        calibrator.transform([[1.2, -0.2, 0.0]])
    with pytest.raises(ValueError, match="scores must be 2-D"):
        calibrator.transform([0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="scores contains NaN or infinity"):
        calibrator.transform([[np.inf, 0.0, 0.0]])
    with pytest.raises(TypeError, match="scores"):
        calibrator.transform([["a", "b", "c"]])
