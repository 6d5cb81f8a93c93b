"""cross_validated_tuning: τ* per fold, its scores on its fold and on the other folds, the spread, the checks."""

import json

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate

from polyroc.thresholds import CrossValidatedTuning, apply_thresholds, cross_validated_tuning, tune_thresholds


class KnownProbabilities:
    """A 'fitted classifier' whose predict_proba returns the true class probabilities of the rows (column 0 of X)."""

    def __init__(self, probabilities):
        self.probabilities = probabilities
        self.classes_ = np.arange(probabilities.shape[1])

    def predict_proba(self, X):
        return self.probabilities[np.asarray(X)[:, 0].astype(int)]


def _known_truth(n=3000, m=3, n_folds=5, seed=0):
    """Rows whose labels are drawn from known probabilities, split in folds; the folds' 'models' return them."""
    rng = np.random.default_rng(seed)
    probabilities = rng.dirichlet(np.full(m, 0.8), size=n)
    y = np.array([rng.choice(m, p=row) for row in probabilities])
    X = np.arange(n)[:, None]
    tests = np.array_split(rng.permutation(n), n_folds)
    model = KnownProbabilities(probabilities)
    cv_results = {"estimator": [model] * n_folds, "indices": {"train": [None] * n_folds, "test": tests}}
    return cv_results, X, y, probabilities


def _data(n=300, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    X = rng.normal(size=(n, 3)) + 0.8 * np.eye(3)[y]
    return X, y


def _f1(y, predicted):
    return skm.f1_score(y, predicted, average="macro", labels=[0, 1, 2], zero_division=0)


def test_each_folds_tau_is_tuned_on_its_held_out_predictions_and_scored_by_sklearn():
    X, y = _data()
    cv_results = cross_validate(LogisticRegression(), X, y, cv=4, return_estimator=True, return_indices=True)
    result = cross_validated_tuning(cv_results, X, y, resolution=30)
    assert isinstance(result, CrossValidatedTuning) and result.thresholds.shape == (4, 3)
    tests = cv_results["indices"]["test"]
    scores = [estimator.predict_proba(X[test]) for estimator, test in zip(cv_results["estimator"], tests)]
    for k, (test, P) in enumerate(zip(tests, scores)):
        alone = tune_thresholds(y[test], P, resolution=30)
        np.testing.assert_array_equal(result.thresholds[k], alone.best_threshold)
        assert result.best_scores[k] == pytest.approx(_f1(y[test], np.argmax(P - result.thresholds[k], axis=1)))
        assert result.argmax_scores[k] == pytest.approx(_f1(y[test], P.argmax(axis=1)))
        others = np.concatenate([t for j, t in enumerate(tests) if j != k])
        P_others = np.concatenate([s for j, s in enumerate(scores) if j != k])
        tuned_others = _f1(y[others], np.argmax(P_others - result.thresholds[k], axis=1))
        assert result.other_scores[k] == pytest.approx(tuned_others, abs=1e-12)
        assert result.other_argmax_scores[k] == pytest.approx(_f1(y[others], P_others.argmax(axis=1)), abs=1e-12)
    assert np.all(result.gains >= 0)


def test_an_estimator_is_cross_validated_with_the_given_folds():
    X, y = _data()
    folds = StratifiedKFold(3, shuffle=True, random_state=2)
    from_estimator = cross_validated_tuning(LogisticRegression(), X, y, cv=folds, resolution=20)
    cv_results = cross_validate(LogisticRegression(), X, y, cv=folds, return_estimator=True, return_indices=True)
    from_results = cross_validated_tuning(cv_results, X, y, resolution=20)
    np.testing.assert_array_equal(from_estimator.thresholds, from_results.thresholds)
    np.testing.assert_array_equal(from_estimator.other_scores, from_results.other_scores)


def test_with_calibrated_probabilities_and_accuracy_the_tuned_tau_gains_nothing_on_other_folds():
    # argmax of the true probabilities is the Bayes rule of accuracy: a τ* tuned on one fold can only fit
    # that fold's noise, so its gain on the other folds is about zero or negative, while its gain on its
    # own fold is positive (the optimism of tuning and scoring on the same rows).
    cv_results, X, y, _ = _known_truth()
    result = cross_validated_tuning(cv_results, X, y, metric="accuracy", resolution=40)
    assert result.gains.mean() > 0.003
    assert result.other_gains.mean() < 0.002
    assert np.all(np.abs(result.threshold_mean - 1 / 3) < 0.05)


def test_under_a_prior_shift_the_folds_agree_on_a_tau_away_from_argmax_that_gains_on_other_folds():
    # probabilities calibrated for equal priors but labels drawn with class 0 four times likelier: the Bayes
    # rule for accuracy is argmax(p ⊙ π), which the simplex rule approximates with τ_0 below 1/3.
    cv_results, X, _, probabilities = _known_truth(n=4000, seed=1)
    rng = np.random.default_rng(5)
    shifted = probabilities * np.array([4.0, 1.0, 1.0])
    shifted /= shifted.sum(axis=1, keepdims=True)
    y = np.array([rng.choice(3, p=row) for row in shifted])
    result = cross_validated_tuning(cv_results, X, y, metric="accuracy", resolution=40)
    assert np.all(result.thresholds[:, 0] < 1 / 3)
    assert np.all(result.other_gains > 0)
    frame = result.to_frame()
    summary = result.summary()
    assert summary["other_gain_mean"] == pytest.approx(frame["other_gain"].mean())
    assert summary["other_gain_std"] == pytest.approx(np.std(frame["other_gain"].to_numpy()))
    np.testing.assert_allclose(result.threshold_std, np.std(frame.filter(like="threshold_").to_numpy(), axis=0))


def test_weights_reach_the_tuning_and_the_scores():
    cv_results, X, y, _ = _known_truth(n=600, n_folds=3, seed=2)
    weights = np.random.default_rng(3).uniform(0.2, 3.0, y.size)
    result = cross_validated_tuning(cv_results, X, y, sample_weight=weights, resolution=20)
    tests = cv_results["indices"]["test"]
    model = cv_results["estimator"][0]
    for k, test in enumerate(tests):
        P = model.predict_proba(X[test])
        alone = tune_thresholds(y[test], P, sample_weight=weights[test], resolution=20)
        np.testing.assert_array_equal(result.thresholds[k], alone.best_threshold)
        others = np.concatenate([t for j, t in enumerate(tests) if j != k])
        predicted = apply_thresholds(model.predict_proba(X[others]), result.thresholds[k])
        expected = skm.f1_score(y[others], predicted, average="macro", sample_weight=weights[others])
        assert result.other_scores[k] == pytest.approx(expected, abs=1e-12)


def test_the_result_follows_the_protocol_and_prints_each_fold():
    cv_results, X, y, _ = _known_truth(n=400, n_folds=3, seed=4)
    result = cross_validated_tuning(cv_results, X, y, resolution=10)
    json.dumps(result.to_dict(), allow_nan=False)
    lines = result.to_text().splitlines()
    assert lines[0] == "f1_macro: tau* tuned on each of 3 folds" and len(lines) == 6
    assert lines[-1].split()[0] == "mean±sd"
    assert list(result.to_frame()["fold"]) == [0, 1, 2]
    assert "<table>" in result._repr_html_()


def test_a_single_fold_has_no_other_folds_to_score_on():
    cv_results, X, y, _ = _known_truth(n=200, n_folds=1)
    result = cross_validated_tuning(cv_results, X, y, resolution=10)
    assert np.isnan(result.other_scores).all() and np.isnan(result.summary()["other_gain_mean"])


@pytest.mark.parametrize("missing", ["estimator", "indices"])
def test_cv_results_without_a_key_names_it(missing):
    cv_results, X, y, _ = _known_truth(n=100, n_folds=2)
    del cv_results[missing]
    with pytest.raises(ValueError, match=rf"cv_results has no '{missing}' key: pass return_estimator=True"):
        cross_validated_tuning(cv_results, X, y)


def test_bad_arguments_are_refused_naming_them():
    cv_results, X, y, probabilities = _known_truth(n=100, n_folds=2)
    with pytest.raises(ValueError, match="search"):
        cross_validated_tuning(cv_results, X, y, search="grid")
    with pytest.raises(TypeError, match="estimator_or_cv_results must be"):
        cross_validated_tuning("model", X, y)
    with pytest.raises(ValueError, match=r"cv_results\['indices'\] has no 'test' key"):
        cross_validated_tuning({"estimator": [], "indices": {}}, X, y)
    other = KnownProbabilities(probabilities)
    other.classes_ = np.array([0, 1, 3])
    cv_results["estimator"] = [cv_results["estimator"][0], other]
    with pytest.raises(ValueError, match="do not share one classes_"):
        cross_validated_tuning(cv_results, X, y)
