"""CostSensitiveClassifier against argmin(P @ C) by hand, manual cross-validation, simulations and sklearn's checks."""

import numpy as np
import pandas as pd
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, confusion_matrix, make_scorer
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_val_predict
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from polyroc.calibration import fit_calibrator
from polyroc.decisions import CostSensitiveClassifier, expected_cost
from polyroc.thresholds import apply_thresholds, tune_thresholds
from tests.decisions.cases import dirichlet_model, posterior

EXPECTED_FAILED_CHECKS = {
    "check_classifiers_train": (
        "the check asserts predict == argmax(predict_proba) == argmax(decision_function); with "
        "decision='tuned' predict applies the tuned rule argmax(p - tau*) by design (sklearn marks "
        "TunedThresholdClassifierCV the same way)"
    ),
}


@pytest.fixture(autouse=True, scope="module")
def single_blas_thread():
    """The problems are tiny: BLAS threads only add overhead on a busy machine."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def data(seed=0, n=300, m=3):
    """Overlapping, imbalanced classes, so that costs change many decisions."""
    weights = np.arange(m, 0, -1) / (m * (m + 1) / 2)
    return make_classification(
        n_samples=n, n_features=6, n_informative=4, n_classes=m, weights=weights, class_sep=0.7, random_state=seed
    )


def random_costs(seed, m=3):
    costs = np.random.default_rng(seed).uniform(0, 10, (m, m))
    np.fill_diagonal(costs, 0)
    return costs


def oracle_cost(y, decided, costs, classes, sample_weight=None):
    """Mean cost from scikit-learn's confusion matrix: sum(C * counts) / sum(counts)."""
    counts = confusion_matrix(y, decided, labels=classes, sample_weight=sample_weight)
    return float((counts * costs).sum() / counts.sum())


def minus_cost(costs):
    """The tuning metric built by hand: counts (M, m, m) to minus sum(C * counts) / sum(counts)."""

    def metric(counts):
        counts = np.asarray(counts, dtype=float)
        return -(counts * costs).sum(axis=(-2, -1)) / counts.sum(axis=(-2, -1))

    return metric


# --------------------------------------------------------------------------- the decision rule


@pytest.mark.parametrize("cost_matrix", [None, 1 - np.eye(3), 7 * (1 - np.eye(3))])
def test_zero_one_costs_predict_what_the_inner_estimator_predicts(cost_matrix):
    X, y = data(seed=1)
    clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=cost_matrix).fit(X, y)
    proba = LogisticRegression().fit(X, y).predict_proba(X)
    top2 = np.sort(proba, axis=1)[:, -2:]
    assert np.min(top2[:, 1] - top2[:, 0]) > 1e-9  # no ties: argmax is unambiguous
    np.testing.assert_array_equal(clf.predict(X), LogisticRegression().fit(X, y).predict(X))


@pytest.mark.parametrize("seed", range(4))
def test_any_costs_predict_the_argmin_of_the_expected_costs(seed):
    X, y = data(seed=seed + 10)
    costs = random_costs(seed)
    clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=costs).fit(X, y)
    proba = LogisticRegression().fit(X, y).predict_proba(X)
    expected = np.argmin(proba @ costs, axis=1)
    np.testing.assert_array_equal(clf.predict(X), expected)
    assert np.mean(expected != proba.argmax(axis=1)) > 0.05  # the costs matter
    np.testing.assert_allclose(clf.cost_matrix_, costs)
    assert clf.calibrator_ is None and clf.best_threshold_ is None


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), st.floats(0.0, 0.5))
def test_decisions_are_the_argmin_for_random_costs_and_class_counts(seed, m, zero_share):
    rng = np.random.default_rng(seed)
    X, y = data(seed=seed % 1000, n=150, m=m)
    costs = rng.uniform(0, 5, (m, m)) * (rng.uniform(size=(m, m)) >= zero_share)
    X_new = rng.normal(size=(200, X.shape[1])) * 2
    clf = CostSensitiveClassifier(GaussianNB(), cost_matrix=costs).fit(X, y)
    proba = GaussianNB().fit(X, y).predict_proba(X_new)
    expected = proba @ costs
    decided = clf.predict(X_new)
    chosen = expected[np.arange(200), decided]
    np.testing.assert_allclose(chosen, expected.min(axis=1), rtol=1e-12, atol=1e-12)  # ties may go either way
    clear = np.sort(expected, axis=1)[:, 1] - expected.min(axis=1) > 1e-9
    np.testing.assert_array_equal(decided[clear], expected.argmin(axis=1)[clear])


def test_a_dataframe_labelled_by_string_classes_is_put_in_class_order():
    X, y = data(seed=2)
    names = np.array(["cat", "dog", "owl"])
    costs = random_costs(5)
    order = [2, 0, 1]
    frame = pd.DataFrame(costs[np.ix_(order, order)], index=names[order], columns=names[order])
    clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=frame).fit(X, names[y])
    np.testing.assert_array_equal(clf.classes_, names)
    np.testing.assert_array_equal(clf.cost_matrix_, costs)
    proba = LogisticRegression().fit(X, y).predict_proba(X)
    np.testing.assert_array_equal(clf.predict(X), names[np.argmin(proba @ costs, axis=1)])


def test_expected_cost_and_score():
    X, y = data(seed=3)
    costs = random_costs(3)
    w = np.random.default_rng(0).uniform(0.1, 2.0, y.size)
    clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=costs).fit(X[:200], y[:200])
    predicted = clf.predict(X[200:])
    assert clf.expected_cost(X[200:], y[200:]) == pytest.approx(oracle_cost(y[200:], predicted, costs, [0, 1, 2]))
    assert clf.expected_cost(X[200:], y[200:], sample_weight=w[200:]) == pytest.approx(
        oracle_cost(y[200:], predicted, costs, [0, 1, 2], w[200:])
    )
    assert clf.score(X[200:], y[200:]) == accuracy_score(y[200:], predicted)


# --------------------------------------------------------------------------- calibration and tuning


@pytest.mark.parametrize("method", ["temperature", "vector", "isotonic"])
def test_calibration_is_fit_calibrator_on_out_of_fold_probabilities(method):
    X, y = data(seed=4)
    costs = random_costs(4)
    clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=costs, calibration=method, cv=4).fit(X, y)

    oof = cross_val_predict(LogisticRegression(), X, y, cv=StratifiedKFold(4), method="predict_proba")
    calibrator = fit_calibrator(y, oof, method=method)
    calibrated = calibrator.transform(LogisticRegression().fit(X, y).predict_proba(X))
    np.testing.assert_allclose(clf.predict_proba(X), calibrated, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(np.exp(clf.predict_log_proba(X)), calibrated, rtol=1e-6, atol=1e-9)
    np.testing.assert_array_equal(clf.predict(X), np.argmin(calibrated @ costs, axis=1))
    np.testing.assert_allclose(clf.decision_function(X), LogisticRegression().fit(X, y).decision_function(X))


def test_prefit_calibrates_on_the_data_given_to_fit():
    X, y = data(seed=5, n=400)
    costs = random_costs(6)
    model = LogisticRegression(C=100).fit(X[:200], y[:200])
    coef = model.coef_.copy()
    clf = CostSensitiveClassifier(model, cost_matrix=costs, calibration="temperature", cv="prefit")
    clf.fit(X[200:300], y[200:300])
    calibrator = fit_calibrator(y[200:300], model.predict_proba(X[200:300]))
    assert clf.estimator_ is model
    np.testing.assert_array_equal(model.coef_, coef)
    assert clf.calibrator_.temperature == pytest.approx(calibrator.temperature, rel=1e-9)
    calibrated = calibrator.transform(model.predict_proba(X[300:]))
    np.testing.assert_array_equal(clf.predict(X[300:]), np.argmin(calibrated @ costs, axis=1))


@pytest.mark.parametrize("calibration", [None, "temperature"])
def test_tuned_thresholds_minimise_the_cost_on_out_of_fold_probabilities(calibration):
    X, y = data(seed=6)
    costs = random_costs(7)
    clf = CostSensitiveClassifier(
        LogisticRegression(), cost_matrix=costs, calibration=calibration, decision="tuned", cv=3
    ).fit(X, y)

    oof = cross_val_predict(LogisticRegression(), X, y, cv=StratifiedKFold(3), method="predict_proba")
    if calibration is not None:
        oof = fit_calibrator(y, oof, method=calibration).transform(oof)
    expected = tune_thresholds(y, oof, metric=minus_cost(costs))
    np.testing.assert_allclose(clf.best_threshold_, expected.best_threshold)
    tuned_cost = oracle_cost(y, apply_thresholds(oof, expected.best_threshold), costs, [0, 1, 2])
    assert clf.tuning_result_.best_score == pytest.approx(tuned_cost, abs=1e-12)
    assert not clf.tuning_result_.greater_is_better
    assert tuned_cost <= oracle_cost(y, oof.argmax(axis=1), costs, [0, 1, 2]) + 1e-12
    np.testing.assert_array_equal(clf.predict(X), apply_thresholds(clf.predict_proba(X), expected.best_threshold))


def test_bayes_decisions_on_calibrated_data_cost_no_more_than_the_argmax():
    """A well-specified model (the posterior is a softmax of log x): its Bayes decisions are near the optimum.

    Dirichlet model of ``tests/decisions/cases.py``; the true posterior gives the Bayes rule's cost, which
    no rule beats in expectation. The fitted rule's cost must be below the argmax's and near the optimum,
    within three standard errors of the paired per-row differences on 200,000 fresh rows.
    """
    rng = np.random.default_rng(2026)
    priors = np.array([0.6, 0.3, 0.1])
    costs = np.array([[0.0, 1.0, 1.0], [4.0, 0.0, 2.0], [12.0, 6.0, 0.0]])
    y_train, x_train = dirichlet_model(rng, 4000, priors)
    y_test, x_test = dirichlet_model(rng, 200_000, priors)
    clf = CostSensitiveClassifier(LogisticRegression(C=1e4), cost_matrix=costs).fit(np.log(x_train), y_train)

    fitted = costs[y_test, clf.predict(np.log(x_test))]
    plain = costs[y_test, clf.estimator_.predict(np.log(x_test))]
    best = costs[y_test, np.argmin(posterior(x_test, priors) @ costs, axis=1)]

    def se(d):
        return d.std(ddof=1) / np.sqrt(d.size)

    assert fitted.mean() < plain.mean() - 3 * se(fitted - plain)  # a clear gain over the argmax
    assert fitted.mean() <= best.mean() + 3 * se(fitted - best) + 0.01  # near the optimum (small fit error)
    assert fitted.mean() >= best.mean() - 3 * se(fitted - best)  # the optimum is not beaten


# --------------------------------------------------------------------------- sample weights


def test_integer_sample_weights_equal_repeated_rows():
    X, y = data(seed=7)
    costs = random_costs(8)
    w = np.random.default_rng(1).integers(0, 4, size=y.size)
    weighted = CostSensitiveClassifier(GaussianNB(), cost_matrix=costs).fit(X, y, sample_weight=w)
    repeated = CostSensitiveClassifier(GaussianNB(), cost_matrix=costs).fit(np.repeat(X, w, 0), np.repeat(y, w))
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-7, atol=1e-12)
    np.testing.assert_array_equal(weighted.predict(X), repeated.predict(X))


@pytest.mark.parametrize("method", ["temperature", "isotonic"])
def test_integer_sample_weights_of_a_prefit_calibration_equal_repeated_rows(method):
    X, y = data(seed=8, n=400)
    costs = random_costs(9)
    model = GaussianNB().fit(X[:200], y[:200])
    X_val, y_val = X[200:], y[200:]
    w = np.random.default_rng(2).integers(0, 4, size=y_val.size)
    options = {"cost_matrix": costs, "calibration": method, "cv": "prefit"}
    weighted = CostSensitiveClassifier(model, **options).fit(X_val, y_val, sample_weight=w)
    repeated = CostSensitiveClassifier(model, **options).fit(np.repeat(X_val, w, 0), np.repeat(y_val, w))
    np.testing.assert_allclose(weighted.predict_proba(X), repeated.predict_proba(X), rtol=1e-6, atol=1e-9)


def test_sample_weight_reaches_the_folds_the_refit_and_the_calibration():
    X, y = data(seed=9)
    costs = random_costs(10)
    w = np.random.default_rng(3).uniform(0.2, 3.0, size=y.size)
    clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=costs, calibration="vector", cv=3)
    clf.fit(X, y, sample_weight=w)

    oof = cross_val_predict(
        LogisticRegression(), X, y, cv=StratifiedKFold(3), method="predict_proba", params={"sample_weight": w}
    )
    calibrator = fit_calibrator(y, oof, method="vector", sample_weight=w)
    refit = LogisticRegression().fit(X, y, sample_weight=w)
    np.testing.assert_allclose(clf.estimator_.coef_, refit.coef_)
    np.testing.assert_allclose(clf.calibrator_.coef, calibrator.coef, rtol=1e-6, atol=1e-8)
    calibrated = calibrator.transform(refit.predict_proba(X))
    np.testing.assert_array_equal(clf.predict(X), np.argmin(calibrated @ costs, axis=1))


def test_routing_weighs_the_step_that_requests_it_and_the_calibration():
    X, y = data(seed=10)
    w = np.where(y == 2, 4.0, 1.0)
    with sklearn.config_context(enable_metadata_routing=True):
        pipe = make_pipeline(
            StandardScaler().set_fit_request(sample_weight=False),
            LogisticRegression().set_fit_request(sample_weight=True),
        )
        clf = CostSensitiveClassifier(pipe, calibration="temperature", cv=KFold(3)).fit(X, y, sample_weight=w)

    unrouted = make_pipeline(StandardScaler(), LogisticRegression())
    oof = cross_val_predict(
        unrouted, X, y, cv=KFold(3), method="predict_proba", params={"logisticregression__sample_weight": w}
    )
    calibrator = fit_calibrator(y, oof, sample_weight=w)
    assert clf.calibrator_.temperature == pytest.approx(calibrator.temperature, rel=1e-9)
    refit = clone(unrouted).fit(X, y, logisticregression__sample_weight=w)
    np.testing.assert_allclose(clf.predict_proba(X), calibrator.transform(refit.predict_proba(X)), rtol=1e-9)


# --------------------------------------------------------------------------- estimator API


def test_clone_get_params_and_delegated_methods():
    clf = CostSensitiveClassifier(GaussianNB(var_smoothing=1e-6), cost_matrix=random_costs(0), cv=4)
    params = clf.get_params(deep=True)
    assert params["estimator__var_smoothing"] == 1e-6 and params["cv"] == 4
    X, y = data(seed=11)
    clf.fit(X, y)
    copy = clone(clf)
    assert not hasattr(copy, "estimator_")
    np.testing.assert_array_equal(copy.fit(X, y).predict(X), clf.predict(X))
    np.testing.assert_array_equal(clf.predict_proba(X), clf.estimator_.predict_proba(X))
    np.testing.assert_array_equal(clf.predict_log_proba(X), clf.estimator_.predict_log_proba(X))
    assert not hasattr(clf, "decision_function")  # GaussianNB has none
    assert clf.n_features_in_ == X.shape[1]


def test_grid_search_by_expected_cost_scores_each_fold_as_by_hand():
    X, y = data(seed=18, n=240)
    costs = random_costs(11)
    scorer = make_scorer(expected_cost, greater_is_better=False, cost_matrix=costs)
    grid = {"calibration": [None, "temperature"]}
    search = GridSearchCV(CostSensitiveClassifier(LogisticRegression(), cost_matrix=costs, cv=3), grid, scoring=scorer)
    search.fit(X, y)
    folds = list(StratifiedKFold(5).split(X, y))
    for calibration, mean_score in zip(grid["calibration"], search.cv_results_["mean_test_score"]):
        by_hand = []
        for train, test in folds:
            proba = LogisticRegression().fit(X[train], y[train]).predict_proba(X[test])
            if calibration is not None:
                inner = list(StratifiedKFold(3).split(X[train], y[train]))
                oof = cross_val_predict(LogisticRegression(), X[train], y[train], cv=inner, method="predict_proba")
                proba = fit_calibrator(y[train], oof, method=calibration).transform(proba)
            by_hand.append(oracle_cost(y[test], np.argmin(proba @ costs, axis=1), costs, [0, 1, 2]))
        assert mean_score == pytest.approx(-np.mean(by_hand), abs=1e-12)


def test_feature_names_are_forwarded():
    X, y = data(seed=12, n=120)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    clf = CostSensitiveClassifier(LogisticRegression()).fit(frame, y)
    np.testing.assert_array_equal(clf.feature_names_in_, frame.columns)


@parametrize_with_checks(
    [
        CostSensitiveClassifier(LogisticRegression()),
        CostSensitiveClassifier(LogisticRegression(), calibration="temperature", cv=3),
        CostSensitiveClassifier(LogisticRegression(), decision="tuned", cv=3),
    ],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS if estimator.decision == "tuned" else {},
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


# --------------------------------------------------------------------------- errors


class Unfittable(LogisticRegression):
    def fit(self, X, y, sample_weight=None):
        raise AssertionError("the estimator was fitted before its parameters were checked")


@pytest.mark.parametrize(
    ("cost_matrix", "error", "match"),
    [
        (np.ones((2, 2)) - np.eye(2), ValueError, r"^cost_matrix must have shape \(3, 3\), one row per true class"),
        ([[0, 1, np.nan], [1, 0, 1], [1, 1, 0]], ValueError, r"^cost_matrix contains NaN or infinity"),
        ([[0, 1, -1], [1, 0, 1], [1, 1, 0]], ValueError, r"^cost_matrix must be non-negative; entry \(0, 2\)"),
        ([["a", "b", "c"]] * 3, TypeError, "cost_matrix"),
        (
            pd.DataFrame(1 - np.eye(3), index=[0, 1, 5], columns=[0, 1, 2]),
            ValueError,
            r"^cost_matrix's index holds labels that are not the classes",
        ),
    ],
)
def test_bad_cost_matrix_is_refused_before_any_fitting(cost_matrix, error, match):
    X, y = data(seed=13, n=60)
    with pytest.raises(error, match=match):
        CostSensitiveClassifier(Unfittable(), cost_matrix=cost_matrix).fit(X, y)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"calibration": "platt"}, ValueError, r"^calibration must be None or one of"),
        ({"decision": "cheapest"}, ValueError, r"^decision must be one of"),
        ({"cv": 1}, ValueError, "at least 2 folds"),
        ({"cv": 0.5}, TypeError, "cv must be 'prefit'"),
        ({"random_state": -1}, ValueError, r"^random_state must be None"),
    ],
)
def test_bad_options_are_refused_before_any_fitting(options, error, match):
    X, y = data(seed=14, n=60)
    with pytest.raises(error, match=match):
        CostSensitiveClassifier(Unfittable(), **options).fit(X, y)


def test_estimator_without_predict_proba_and_unfitted_prefit_are_refused():
    X, y = data(seed=15, n=60)
    with pytest.raises(TypeError, match=r"^estimator must be an object with methods 'fit' and 'predict_proba'"):
        CostSensitiveClassifier(LinearSVC()).fit(X, y)
    with pytest.raises(NotFittedError, match="cv='prefit' needs a fitted estimator"):
        CostSensitiveClassifier(LogisticRegression(), cv="prefit").fit(X, y)
    with pytest.raises(NotFittedError, match="not fitted yet"):
        CostSensitiveClassifier(LogisticRegression()).predict(X)


def test_prefit_checks_the_cost_matrix_against_the_estimator_classes():
    X, y = data(seed=16, n=90)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match=r"^cost_matrix must have shape \(3, 3\)"):
        CostSensitiveClassifier(model, cost_matrix=1 - np.eye(2), cv="prefit").fit(X[y < 2], y[y < 2])


def test_bad_sample_weight_and_labels_are_refused():
    X, y = data(seed=17, n=60)
    clf = CostSensitiveClassifier(Unfittable())
    with pytest.raises(ValueError, match=r"sample_weight must be non-negative"):
        clf.fit(X, y, sample_weight=np.r_[-1.0, np.ones(59)])
    with pytest.raises(TypeError, match=r"^y mixes strings and numbers"):
        clf.fit(X, np.array([0, "a", 1] * 20, dtype=object))
    fitted = CostSensitiveClassifier(LogisticRegression()).fit(X, y)
    with pytest.raises(ValueError, match="y_true contains labels not in labels"):
        fitted.expected_cost(X, np.full(60, 7))
