"""SimplexThresholdClassifier against direct tuning, manual cross-validation and sklearn's checks."""

import numpy as np
import pytest
import sklearn
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import make_blobs, make_classification
from sklearn.exceptions import NotFittedError, UnsetMetadataPassedError
from sklearn.frozen import FrozenEstimator
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, balanced_accuracy_score, f1_score, make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    KFold,
    ShuffleSplit,
    StratifiedKFold,
    cross_val_predict,
    cross_validate,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import check_classifiers_train, parametrize_with_checks
from threadpoolctl import threadpool_limits

from polyroc.thresholds.estimator import SimplexThresholdClassifier
from polyroc.thresholds.rules import apply_thresholds
from polyroc.thresholds.tuning import tune_thresholds

EXPECTED_FAILED_CHECKS = {
    "check_classifiers_train": (
        "the check asserts predict == argmax(predict_proba) == argmax(decision_function); "
        "predict applies the tuned rule argmax(p - tau*) by design, while predict_proba and "
        "decision_function are the wrapped estimator's (sklearn marks TunedThresholdClassifierCV "
        "the same way). Its other assertions run in test_check_classifiers_train_at_barycentre."
    ),
}


@pytest.fixture(autouse=True, scope="module")
def single_blas_thread():
    """The problems are tiny: BLAS threads only add overhead (3x slower on a busy machine)."""
    with threadpool_limits(limits=1, user_api="blas"):
        yield


def data(seed=0, n=240, m=3):
    """Overlapping, imbalanced classes, so tuning has something to gain."""
    weights = np.arange(m, 0, -1) / (m * (m + 1) / 2)
    return make_classification(
        n_samples=n, n_features=6, n_informative=4, n_classes=m, weights=weights, class_sep=0.7, random_state=seed
    )


def fitted_lr(X, y, **params):
    return LogisticRegression(**params).fit(X, y)


def constant_score(counts):
    """A metric equal for every threshold: the tie-break then picks the barycentre (argmax)."""
    return np.zeros(np.shape(counts)[:-2])


def class0_recall(counts):
    """A custom metric on counts (M, m, m): recall of the first class."""
    counts = np.asarray(counts, dtype=float)
    return counts[..., 0, 0] / counts[..., 0, :].sum(axis=-1)


# --------------------------------------------------------------------------- oracles


@pytest.mark.parametrize(
    "options",
    [
        {"scoring": "accuracy", "resolution": 20},
        {"scoring": "f1_macro", "resolution": 15, "domain": "box"},
        {"scoring": "balanced_accuracy", "search": "random", "n_samples": 400, "random_state": 3},
        {"scoring": class0_recall, "resolution": 12, "tie_break": "first"},
    ],
)
def test_prefit_equals_tune_and_apply_on_the_same_probabilities(options):
    X, y = data(seed=1, n=360)
    train, val, test = slice(0, 150), slice(150, 270), slice(270, None)
    model = fitted_lr(X[train], y[train])
    coef = model.coef_.copy()
    clf = SimplexThresholdClassifier(model, cv="prefit", **options).fit(X[val], y[val])

    tuning = {k: v for k, v in options.items() if k != "scoring"}
    expected = tune_thresholds(
        y[val], model.predict_proba(X[val]), metric=options["scoring"], labels=model.classes_, **tuning
    )
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score
    assert clf.argmax_score_ == expected.argmax_score
    domain = options.get("domain", "simplex")
    np.testing.assert_array_equal(
        clf.predict(X[test]),
        apply_thresholds(model.predict_proba(X[test]), expected.best_threshold, domain=domain, labels=model.classes_),
    )
    assert clf.estimator_ is model
    np.testing.assert_array_equal(model.coef_, coef)  # prefit: never refitted


@pytest.mark.parametrize("scoring", ["accuracy", "f1_macro"])
def test_cv_int_pools_out_of_fold_probabilities_like_cross_val_predict(scoring):
    X, y = data(seed=2)
    clf = SimplexThresholdClassifier(LogisticRegression(), scoring=scoring, cv=4, resolution=24).fit(X, y)

    folds = StratifiedKFold(n_splits=4)
    oof = cross_val_predict(LogisticRegression(), X, y, cv=folds, method="predict_proba")
    expected = tune_thresholds(y, oof, metric=scoring, resolution=24)
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score
    assert clf.argmax_score_ == pytest.approx(
        {"accuracy": accuracy_score, "f1_macro": lambda a, b: f1_score(a, b, average="macro")}[scoring](
            y, oof.argmax(axis=1)
        ),
        abs=1e-12,
    )
    refit = LogisticRegression().fit(X, y)
    np.testing.assert_allclose(clf.estimator_.coef_, refit.coef_)
    np.testing.assert_array_equal(clf.predict(X), apply_thresholds(refit.predict_proba(X), expected.best_threshold))
    assert isinstance(clf.tuning_result_.best_threshold, np.ndarray)
    assert clf.n_features_in_ == X.shape[1]


def test_splitter_and_iterable_of_splits_give_the_manual_result():
    X, y = data(seed=3)
    splitter = KFold(n_splits=3, shuffle=True, random_state=0)
    oof = cross_val_predict(LogisticRegression(), X, y, cv=splitter, method="predict_proba")
    expected = tune_thresholds(y, oof, metric="balanced_accuracy", resolution=20)
    for cv in (splitter, list(splitter.split(X, y))):
        clf = SimplexThresholdClassifier(LogisticRegression(), scoring="balanced_accuracy", cv=cv, resolution=20)
        np.testing.assert_array_equal(clf.fit(X, y).best_threshold_, expected.best_threshold)


def test_class_missing_from_a_training_part_gets_probability_zero():
    X, y = data(seed=4, n=150)
    rare = np.flatnonzero(y == 2)
    first_test = np.union1d(rare, np.arange(0, 150, 3))
    splits = [
        (np.setdiff1d(np.arange(150), first_test), first_test),
        (first_test, np.setdiff1d(np.arange(150), first_test)),
    ]
    clf = SimplexThresholdClassifier(LogisticRegression(), cv=splits, resolution=20).fit(X, y)

    pieces = []
    for train, test in splits:
        model = LogisticRegression().fit(X[train], y[train])
        proba = np.zeros((test.size, 3))
        proba[:, model.classes_] = model.predict_proba(X[test])
        pieces.append((y[test], proba))
    y_oof, oof = (np.concatenate(parts) for parts in zip(*pieces))
    expected = tune_thresholds(y_oof, oof, resolution=20, labels=[0, 1, 2])
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score


def test_refit_false_keeps_the_model_of_the_single_split():
    X, y = data(seed=5)
    split = ShuffleSplit(n_splits=1, test_size=0.4, random_state=0)
    train, test = next(split.split(X, y))
    clf = SimplexThresholdClassifier(LogisticRegression(), cv=split, refit=False, resolution=20).fit(X, y)

    model = LogisticRegression().fit(X[train], y[train])
    np.testing.assert_allclose(clf.estimator_.coef_, model.coef_)
    expected = tune_thresholds(y[test], model.predict_proba(X[test]), resolution=20)
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)


@settings(max_examples=12, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(2, 4),
    st.sampled_from(["accuracy", "balanced_accuracy", "f1_macro"]),
)
def test_tuned_score_on_the_tuning_data_is_at_least_the_argmax_score(seed, m, scoring):
    X, y = data(seed=seed % 1000, n=120, m=m)
    model = fitted_lr(X, y, C=0.05)
    clf = SimplexThresholdClassifier(model, cv="prefit", scoring=scoring, resolution=8).fit(X, y)
    score = {
        "accuracy": accuracy_score,
        "balanced_accuracy": balanced_accuracy_score,
        "f1_macro": lambda a, b: f1_score(a, b, average="macro", labels=model.classes_, zero_division=0),
    }[scoring]
    tuned, argmax = score(y, clf.predict(X)), score(y, model.predict(X))
    assert tuned >= argmax - 1e-12
    assert tuned == pytest.approx(clf.best_score_, abs=1e-12)
    assert argmax == pytest.approx(clf.argmax_score_, abs=1e-12)


def test_tuning_improves_on_overlapping_imbalanced_data():
    X, y = data(seed=0, n=300)
    clf = SimplexThresholdClassifier(LogisticRegression(), scoring="balanced_accuracy", resolution=30).fit(X, y)
    assert clf.best_score_ > clf.argmax_score_
    assert clf.tuning_result_.improvement == clf.best_score_ - clf.argmax_score_


# --------------------------------------------------------------------------- labels and weights


def test_string_labels_give_the_same_rule_as_integer_codes():
    X, y = data(seed=6)
    names = np.array(["cat", "dog", "owl"])
    numeric = SimplexThresholdClassifier(LogisticRegression(), cv=3, resolution=20).fit(X, y)
    named = SimplexThresholdClassifier(LogisticRegression(), cv=3, resolution=20).fit(X, names[y])
    np.testing.assert_array_equal(named.classes_, names)
    np.testing.assert_array_equal(named.best_threshold_, numeric.best_threshold_)
    np.testing.assert_array_equal(named.predict(X), names[numeric.predict(X)])
    assert named.score(X, names[y]) == accuracy_score(names[y], named.predict(X))


def test_binary_problem_tunes_two_thresholds():
    X, y = data(seed=7, m=2)
    clf = SimplexThresholdClassifier(LogisticRegression(), scoring="f1_macro", cv=3, resolution=50).fit(X, y)
    oof = cross_val_predict(LogisticRegression(), X, y, cv=StratifiedKFold(3), method="predict_proba")
    expected = tune_thresholds(y, oof, metric="f1_macro", resolution=50)
    assert clf.best_threshold_.shape == (2,)
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    np.testing.assert_array_equal(clf.predict(X), apply_thresholds(clf.predict_proba(X), expected.best_threshold))


def test_integer_sample_weights_equal_repeated_rows_when_prefit():
    X, y = data(seed=8)
    model = fitted_lr(X[:120], y[:120])
    X_val, y_val = X[120:], y[120:]
    weights = np.random.default_rng(0).integers(0, 4, size=y_val.size)
    options = {"cv": "prefit", "scoring": "f1_macro", "resolution": 25}
    weighted = SimplexThresholdClassifier(model, **options).fit(X_val, y_val, sample_weight=weights)
    repeated = SimplexThresholdClassifier(model, **options).fit(np.repeat(X_val, weights, 0), np.repeat(y_val, weights))
    np.testing.assert_array_equal(weighted.best_threshold_, repeated.best_threshold_)
    assert weighted.best_score_ == pytest.approx(repeated.best_score_, abs=1e-12)


def test_sample_weight_reaches_the_estimator_and_the_tuning():
    X, y = data(seed=9)
    weights = np.random.default_rng(1).uniform(0.2, 3.0, size=y.size)
    clf = SimplexThresholdClassifier(LogisticRegression(), scoring="balanced_accuracy", cv=3, resolution=20)
    clf.fit(X, y, sample_weight=weights)

    oof = cross_val_predict(
        LogisticRegression(), X, y, cv=StratifiedKFold(3), method="predict_proba", params={"sample_weight": weights}
    )
    expected = tune_thresholds(y, oof, metric="balanced_accuracy", resolution=20, sample_weight=weights)
    np.testing.assert_allclose(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == pytest.approx(expected.best_score, abs=1e-12)
    np.testing.assert_allclose(clf.estimator_.coef_, LogisticRegression().fit(X, y, sample_weight=weights).coef_)


class FitParamWeightedLR(LogisticRegression):
    """Logistic regression taking its sample weights as a differently named fit parameter."""

    def fit(self, X, y, weights=None):
        return super().fit(X, y, sample_weight=weights)


def test_fit_params_are_subset_per_fold_and_not_used_for_tuning():
    X, y = data(seed=10, n=150)
    weights = np.linspace(0.2, 3.0, y.size)
    clf = SimplexThresholdClassifier(FitParamWeightedLR(), cv=3, resolution=20).fit(X, y, weights=weights)
    oof = cross_val_predict(
        LogisticRegression(), X, y, cv=StratifiedKFold(3), method="predict_proba", params={"sample_weight": weights}
    )
    expected = tune_thresholds(y, oof, resolution=20)
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score
    np.testing.assert_allclose(clf.estimator_.coef_, LogisticRegression().fit(X, y, sample_weight=weights).coef_)


# --------------------------------------------------------------------------- metadata routing


def routing():
    """scikit-learn's metadata routing, on for the block only (the global config is restored)."""
    return sklearn.config_context(enable_metadata_routing=True)


def pooled_weighted_oracle(make_model, fit_weights, X, y, splits, tune_weights=None, **tuning):
    """The expected tuning, computed without routing and without SimplexThresholdClassifier.

    Fits ``make_model()`` on each training part with ``fit_weights(train)`` as its fit
    parameters, pools the test parts' probabilities in split order (as the estimator does)
    and tunes tau on them with ``tune_weights`` (the weights of the pooled rows).
    """
    y_parts, proba_parts, w_parts = [], [], []
    for train, test in splits:
        model = make_model().fit(X[train], y[train], **fit_weights(train))
        y_parts.append(y[test])
        proba_parts.append(model.predict_proba(X[test]))
        w_parts.append(None if tune_weights is None else tune_weights[test])
    y_oof, proba = np.concatenate(y_parts), np.concatenate(proba_parts)
    weights = None if tune_weights is None else np.concatenate(w_parts)
    return tune_thresholds(y_oof, proba, sample_weight=weights, **tuning), y_oof, proba


def skewed_weights(y, seed):
    """Weights that favour the rarest class, so that weighted and unweighted tuning differ."""
    rng = np.random.default_rng(seed)
    return np.where(y == y.max(), 4.0, 1.0) * rng.uniform(0.5, 1.5, size=y.size)


def test_routing_weighs_the_pipeline_step_that_requests_it_and_the_tuning():
    X, y = data(seed=20)
    w = skewed_weights(y, 0)
    tuning = {"metric": "accuracy", "resolution": 24}
    with routing():
        pipe = make_pipeline(
            StandardScaler().set_fit_request(sample_weight=False),
            LogisticRegression().set_fit_request(sample_weight=True),
        )
        clf = SimplexThresholdClassifier(pipe, scoring="accuracy", cv=3, resolution=24)
        clf.fit(X, y, sample_weight=w)

    # Oracle, without routing: the logistic step weighted through step__param, the scaler not.
    def unrouted():
        return make_pipeline(StandardScaler(), LogisticRegression())

    splits = list(StratifiedKFold(3).split(X, y))
    expected, y_oof, proba = pooled_weighted_oracle(
        unrouted, lambda train: {"logisticregression__sample_weight": w[train]}, X, y, splits, w, **tuning
    )
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score
    assert clf.argmax_score_ == expected.argmax_score
    # the weights matter: the same probabilities tuned unweighted give another tau
    assert not np.array_equal(tune_thresholds(y_oof, proba, **tuning).best_threshold, expected.best_threshold)
    refit = unrouted().fit(X, y, logisticregression__sample_weight=w)
    np.testing.assert_array_equal(clf.estimator_[-1].coef_, refit[-1].coef_)
    np.testing.assert_array_equal(clf.estimator_[0].mean_, X.mean(axis=0))  # the scaler declined the weights
    np.testing.assert_array_equal(
        clf.predict(X), apply_thresholds(refit.predict_proba(X), expected.best_threshold, labels=refit.classes_)
    )


def test_routing_tunes_weighted_when_the_estimator_declines_the_weights():
    X, y = data(seed=21)
    w = skewed_weights(y, 1)
    with routing():
        model = LogisticRegression().set_fit_request(sample_weight=False)
        clf = SimplexThresholdClassifier(model, scoring="f1_macro", cv=4, resolution=20).fit(X, y, sample_weight=w)

    oof = cross_val_predict(LogisticRegression(), X, y, cv=StratifiedKFold(4), method="predict_proba")
    expected = tune_thresholds(y, oof, metric="f1_macro", resolution=20, sample_weight=w)
    np.testing.assert_allclose(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == pytest.approx(expected.best_score, abs=1e-12)
    np.testing.assert_array_equal(clf.estimator_.coef_, LogisticRegression().fit(X, y).coef_)


def test_routing_sends_groups_to_a_group_splitter_and_weights_to_the_estimator():
    X, y = data(seed=22, n=180)
    w = skewed_weights(y, 2)
    groups = np.arange(y.size) % 12
    with routing():
        model = LogisticRegression().set_fit_request(sample_weight=True)
        clf = SimplexThresholdClassifier(model, cv=GroupKFold(3), resolution=20)
        clf.fit(X, y, sample_weight=w, groups=groups)

    splits = list(GroupKFold(3).split(X, y, groups))
    expected, _, _ = pooled_weighted_oracle(
        LogisticRegression, lambda train: {"sample_weight": w[train]}, X, y, splits, w, resolution=20
    )
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score
    np.testing.assert_array_equal(clf.estimator_.coef_, LogisticRegression().fit(X, y, sample_weight=w).coef_)


def test_routing_with_prefit_tunes_the_frozen_model_with_the_weights():
    X, y = data(seed=23, n=300)
    model = fitted_lr(X[:150], y[:150])
    coef = model.coef_.copy()
    X_val, y_val = X[150:], y[150:]
    w = skewed_weights(y_val, 3)
    with routing():
        clf = SimplexThresholdClassifier(
            FrozenEstimator(model), cv="prefit", scoring="balanced_accuracy", resolution=25
        )
        clf.fit(X_val, y_val, sample_weight=w)

    expected = tune_thresholds(
        y_val, model.predict_proba(X_val), metric="balanced_accuracy", resolution=25, sample_weight=w
    )
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)
    assert clf.best_score_ == expected.best_score
    np.testing.assert_array_equal(model.coef_, coef)


def test_routing_refuses_metadata_not_requested_or_not_consumed():
    X, y = data(seed=24, n=90)
    w = np.ones(y.size)
    with routing():
        with pytest.raises(UnsetMetadataPassedError, match=r"\[sample_weight\] are passed .* LogisticRegression\.fit"):
            SimplexThresholdClassifier(LogisticRegression(), cv=3).fit(X, y, sample_weight=w)
        pipe = make_pipeline(StandardScaler(), LogisticRegression().set_fit_request(sample_weight=True))
        with pytest.raises(UnsetMetadataPassedError, match=r"StandardScaler\.fit_transform, which is used within"):
            SimplexThresholdClassifier(pipe, cv=3).fit(X, y, sample_weight=w)
        model = LogisticRegression().set_fit_request(sample_weight=True)
        with pytest.raises(TypeError, match=r"SimplexThresholdClassifier\.fit got unexpected argument\(s\) \{'foo'\}"):
            SimplexThresholdClassifier(model, cv=3).fit(X, y, foo=w)
        with pytest.raises(ValueError, match=r"sample_weight must be non-negative"):  # checked before routing
            SimplexThresholdClassifier(model, cv=3).fit(X, y, sample_weight=-w)


def test_without_routing_fit_params_keep_their_meaning():
    """Routing off (the default): sample_weight and **fit_params go to estimator.fit, as before."""
    X, y = data(seed=25, n=150)
    w = skewed_weights(y, 4)
    pipe = make_pipeline(StandardScaler(), LogisticRegression())
    with pytest.raises(ValueError, match=r"Pipeline\.fit does not accept the sample_weight parameter"):
        SimplexThresholdClassifier(pipe, cv=3).fit(X, y, sample_weight=w)
    with pytest.raises(RuntimeError, match="only available when metadata routing is enabled"):
        LogisticRegression().set_fit_request(sample_weight=True)

    clf = SimplexThresholdClassifier(pipe, cv=3, resolution=20).fit(X, y, logisticregression__sample_weight=w)
    splits = list(StratifiedKFold(3).split(X, y))
    expected, _, _ = pooled_weighted_oracle(
        lambda: clone(pipe), lambda train: {"logisticregression__sample_weight": w[train]}, X, y, splits, resolution=20
    )
    np.testing.assert_array_equal(clf.best_threshold_, expected.best_threshold)  # the tuning is unweighted
    assert clf.best_score_ == expected.best_score


def test_routing_without_metadata_fits_as_without_routing():
    X, y = data(seed=26)
    options = {"scoring": "f1_macro", "cv": 3, "resolution": 20}
    plain = SimplexThresholdClassifier(LogisticRegression(), **options).fit(X, y)
    with routing():
        routed = SimplexThresholdClassifier(LogisticRegression(), **options).fit(X, y)
    np.testing.assert_array_equal(routed.best_threshold_, plain.best_threshold_)
    np.testing.assert_array_equal(routed.estimator_.coef_, plain.estimator_.coef_)


def test_routing_through_clone_grid_search_and_cross_validate():
    X, y = data(seed=27, n=180)
    w = skewed_weights(y, 5)
    options = {"scoring": "balanced_accuracy", "cv": 3, "resolution": 12}
    with routing():
        scorer = make_scorer(balanced_accuracy_score).set_score_request(sample_weight=True)
        model = LogisticRegression().set_fit_request(sample_weight=True)
        clf = SimplexThresholdClassifier(model, **options).set_fit_request(sample_weight=True)
        copy = clone(clf)
        assert copy.get_params(deep=False).keys() == clf.get_params(deep=False).keys()
        assert copy.get_metadata_routing().consumes("fit", ["sample_weight", "groups"]) == {"sample_weight"}

        search = GridSearchCV(copy, {"estimator__C": [0.05, 1.0]}, scoring=scorer, cv=KFold(3)).fit(
            X, y, sample_weight=w
        )
        results = cross_validate(
            clf, X, y, params={"sample_weight": w}, scoring=scorer, cv=KFold(3), return_estimator=True
        )

    def oracle(train, C):
        """Tau and the fitted refit model for a weighted fit on rows ``train``, without routing."""
        Xt, yt, wt = X[train], y[train], w[train]
        splits = list(StratifiedKFold(3).split(Xt, yt))
        tuning = {"metric": "balanced_accuracy", "resolution": 12}
        expected, _, _ = pooled_weighted_oracle(
            lambda: LogisticRegression(C=C), lambda part: {"sample_weight": wt[part]}, Xt, yt, splits, wt, **tuning
        )
        return expected.best_threshold, LogisticRegression(C=C).fit(Xt, yt, sample_weight=wt)

    def weighted_score(train, test, C):
        tau, model = oracle(train, C)
        predicted = apply_thresholds(model.predict_proba(X[test]), tau, labels=model.classes_)
        return balanced_accuracy_score(y[test], predicted, sample_weight=w[test])

    folds = list(KFold(3).split(X, y))
    for (train, test), estimator, score in zip(folds, results["estimator"], results["test_score"]):
        np.testing.assert_array_equal(estimator.best_threshold_, oracle(train, 1.0)[0])
        assert score == pytest.approx(weighted_score(train, test, 1.0), abs=1e-12)
    for C, mean_score in zip([0.05, 1.0], search.cv_results_["mean_test_score"]):
        assert mean_score == pytest.approx(np.mean([weighted_score(tr, te, C) for tr, te in folds]), abs=1e-12)
    best_C = search.best_params_["estimator__C"]
    np.testing.assert_array_equal(search.best_estimator_.best_threshold_, oracle(np.arange(y.size), best_C)[0])


# --------------------------------------------------------------------------- estimator API


def test_clone_get_params_set_params_round_trip():
    clf = SimplexThresholdClassifier(LogisticRegression(C=2.0), scoring="mcc", cv=4, resolution=9, random_state=5)
    params = clf.get_params(deep=True)
    assert params["estimator__C"] == 2.0
    assert params["scoring"] == "mcc" and params["resolution"] == 9
    clf.set_params(estimator__C=0.5, resolution=7, tie_break="first")
    assert clf.estimator.C == 0.5 and clf.resolution == 7 and clf.tie_break == "first"

    X, y = data(seed=11, n=120)
    clf.fit(X, y)
    copy = clone(clf)
    assert not hasattr(copy, "estimator_")
    assert copy.get_params(deep=False).keys() == clf.get_params(deep=False).keys()
    for key, value in clf.get_params(deep=True).items():
        if key != "estimator":
            assert copy.get_params(deep=True)[key] == value
    np.testing.assert_array_equal(copy.fit(X, y).predict(X), clf.predict(X))


def test_delegated_methods_and_predict_rule():
    X, y = data(seed=12)
    clf = SimplexThresholdClassifier(LogisticRegression(), scoring="f1_macro", cv=3, resolution=20).fit(X, y)
    np.testing.assert_array_equal(clf.predict_proba(X), clf.estimator_.predict_proba(X))
    np.testing.assert_array_equal(clf.predict_log_proba(X), clf.estimator_.predict_log_proba(X))
    np.testing.assert_array_equal(clf.decision_function(X), clf.estimator_.decision_function(X))
    np.testing.assert_array_equal(clf.predict(X), np.argmax(clf.predict_proba(X) - clf.best_threshold_, axis=1))
    assert clf.score(X, y) == accuracy_score(y, clf.predict(X))
    assert not hasattr(SimplexThresholdClassifier(GaussianNB()), "decision_function")


def test_feature_names_are_forwarded():
    pd = pytest.importorskip("pandas")
    X, y = data(seed=13, n=120)
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    clf = SimplexThresholdClassifier(LogisticRegression(), cv=3, resolution=10).fit(frame, y)
    np.testing.assert_array_equal(clf.feature_names_in_, frame.columns)


@parametrize_with_checks(
    [SimplexThresholdClassifier(LogisticRegression(), cv=3, resolution=6)],
    expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


def test_check_classifiers_train_at_barycentre():
    # With a constant metric every tau ties and tie_break="closest" keeps the
    # barycentre, so predict is argmax and the full check applies.
    clf = SimplexThresholdClassifier(LogisticRegression(), scoring=constant_score, cv=3, resolution=6)
    check_classifiers_train("SimplexThresholdClassifier", clf)
    X, y = make_blobs(90, centers=3, random_state=0)
    clf.fit(X, y)
    np.testing.assert_allclose(clf.best_threshold_, np.full(3, 1 / 3))


# --------------------------------------------------------------------------- errors


def test_estimator_without_predict_proba_is_refused():
    X, y = data(seed=14, n=60)
    with pytest.raises(
        TypeError, match=r"^estimator must be an object with methods 'fit' and 'predict_proba'; got LinearSVC"
    ):
        SimplexThresholdClassifier(LinearSVC()).fit(X, y)


@pytest.mark.parametrize(
    ("cv", "error", "match"),
    [
        ("loo", ValueError, "cv must be 'prefit', an integer >= 2"),
        (0.3, TypeError, "cv must be 'prefit'"),
        (True, TypeError, "cv must be 'prefit'"),
        (1, ValueError, "at least 2 folds"),
    ],
)
def test_bad_cv_is_refused(cv, error, match):
    X, y = data(seed=15, n=60)
    with pytest.raises(error, match=match):
        SimplexThresholdClassifier(LogisticRegression(), cv=cv).fit(X, y)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"scoring": "f2_macro"}, ValueError, r"invalid scoring='f2_macro': unknown metric"),
        ({"scoring": 3}, TypeError, "invalid scoring=3"),
        ({"search": "grid"}, ValueError, "search must be one of"),
        ({"domain": "cube"}, ValueError, "domain must be one of"),
        ({"tie_break": "last"}, ValueError, "tie_break must be one of"),
        ({"refit": "yes"}, TypeError, r"^refit must be a bool; got str 'yes'$"),
        ({"cv": KFold(3), "refit": False}, ValueError, "refit=False needs a single train/test split"),
        ({"search": "lattice", "n_samples": 10}, ValueError, "n_samples"),
    ],
)
def test_bad_options_are_refused(options, error, match):
    X, y = data(seed=16, n=60)
    with pytest.raises(error, match=match):
        SimplexThresholdClassifier(LogisticRegression(), **options).fit(X, y)


@pytest.mark.parametrize(
    ("random_state", "error", "match"),
    [
        (
            "abc",
            TypeError,
            r"^random_state must be None, an int in \[0, inf\) or a numpy.random.Generator; got str 'abc'$",
        ),
        (-1, ValueError, r"^random_state must be None, an int in \[0, inf\) or a numpy.random.Generator; got -1$"),
    ],
)
def test_bad_random_state_is_refused_before_any_fitting(random_state, error, match):
    X, y = data(seed=16, n=60)

    class Unfittable(LogisticRegression):
        def fit(self, X, y, sample_weight=None):
            raise AssertionError("the estimator was fitted before random_state was checked")

    with pytest.raises(error, match=match):
        SimplexThresholdClassifier(Unfittable(), resolution=4, random_state=random_state).fit(X, y)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"resolution": 0}, ValueError, r"^resolution must be None or an int in \[1, inf\); got 0$"),
        ({"n_samples": 2.5}, TypeError, r"^n_samples must be None or an int in \[1, inf\); got float 2.5$"),
        ({"refit": 1}, TypeError, r"^refit must be a bool; got int 1$"),
    ],
)
def test_declared_parameters_are_refused_before_any_fitting(options, error, match):
    X, y = data(seed=16, n=60)

    class Unfittable(LogisticRegression):
        def fit(self, X, y, sample_weight=None):
            raise AssertionError("the estimator was fitted before its parameters were checked")

    with pytest.raises(error, match=match):
        SimplexThresholdClassifier(Unfittable(), **options).fit(X, y)


def test_prefit_needs_a_fitted_estimator():
    X, y = data(seed=17, n=60)
    with pytest.raises(NotFittedError, match="cv='prefit' needs a fitted estimator"):
        SimplexThresholdClassifier(LogisticRegression(), cv="prefit").fit(X, y)


def test_prefit_refuses_labels_unknown_to_the_estimator():
    X, y = data(seed=18, n=90)
    model = fitted_lr(X[y < 2], y[y < 2])
    with pytest.raises(ValueError, match=r"y_true contains labels not in labels: \[2\]"):
        SimplexThresholdClassifier(model, cv="prefit").fit(X, y)


def test_bad_sample_weight_and_targets_are_refused():
    X, y = data(seed=19, n=60)
    clf = SimplexThresholdClassifier(LogisticRegression(), cv=3)
    with pytest.raises(ValueError, match=r"sample_weight must be non-negative \(index 0"):
        clf.fit(X, y, sample_weight=np.r_[-1.0, np.ones(59)])
    with pytest.raises(ValueError, match=r"sample_weight must have shape \(60,\)"):
        clf.fit(X, y, sample_weight=np.ones(59))
    with pytest.raises(ValueError, match="Unknown label type"):
        clf.fit(X, np.linspace(0, 1, 60))


def test_predict_before_fit_raises_not_fitted():
    with pytest.raises(NotFittedError, match="not fitted yet"):
        SimplexThresholdClassifier(LogisticRegression()).predict(np.zeros((2, 3)))


@pytest.mark.parametrize(
    "y",
    [
        [0, "a", 1] * 10,  # a list: numpy would silently turn 0 into "0"
        np.array([0, "a", 1] * 10, dtype=object),  # scikit-learn: "Unknown label type: unknown"
    ],
)
def test_mixed_label_types_name_y_before_any_fitting(y):
    class Unfittable(LogisticRegression):
        def fit(self, X, y, sample_weight=None):
            raise AssertionError("fitted before the labels were checked")

    X = np.random.default_rng(0).normal(size=(30, 2))
    with pytest.raises(
        TypeError, match=r"^y mixes strings and numbers: Mix of label input types \(string and number\)"
    ):
        SimplexThresholdClassifier(Unfittable(), resolution=5).fit(X, y)
