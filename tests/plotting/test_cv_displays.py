"""The displays' ``from_cv_results``: each fold's curve is ``from_predictions`` on that fold; bands, means, legends."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.preprocessing import label_binarize

from polyroc.plotting import (
    CrossValidatedTuningDisplay,
    CrossValidationDisplay,
    PrecisionRecallDisplay,
    ReliabilityDisplay,
    RocCurveDisplay,
    TuningProfileDisplay,
)
from polyroc.plotting._cv import polyline_on_grid, precision_at_recall
from polyroc.thresholds import cross_validated_tuning


@pytest.fixture(autouse=True)
def _close_figures(monkeypatch):
    def refuse_show(*args, **kwargs):
        raise AssertionError("plotting code must never call plt.show()")

    monkeypatch.setattr(plt, "show", refuse_show)
    yield
    plt.close("all")


def _data(n=240, m=3, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    X = rng.normal(size=(n, 4)) + 0.9 * np.eye(m, 4)[y]
    return X, y


def _cv(X, y, n_splits=4):
    folds = StratifiedKFold(n_splits=n_splits, shuffle=True, random_state=0)
    return cross_validate(LogisticRegression(), X, y, cv=folds, return_estimator=True, return_indices=True)


def _folds(cv_results, X, y):
    """Each fold's held-out labels and scores, read here from the cross_validate output."""
    return [
        (y[test], estimator.predict_proba(X[test]))
        for estimator, test in zip(cv_results["estimator"], cv_results["indices"]["test"])
    ]


X3, Y3 = _data()
CV3 = _cv(X3, Y3)


@pytest.mark.parametrize("average", ["macro", "micro"])
def test_each_roc_fold_curve_is_from_predictions_on_that_fold(average):
    display = RocCurveDisplay.from_cv_results(CV3, X3, Y3, average=average)
    assert isinstance(display, CrossValidationDisplay)
    for line, (y_fold, scores) in zip(display.fold_lines_[0], _folds(CV3, X3, Y3)):
        single = RocCurveDisplay.from_predictions(y_fold, scores)
        expected = single.macro_line_ if average == "macro" else single.micro_line_
        np.testing.assert_array_equal(line.get_xydata(), expected.get_xydata())


def test_roc_legend_gives_the_folds_macro_auc_as_mean_and_sd():
    display = RocCurveDisplay.from_cv_results(CV3, X3, Y3, name="logistic")
    aucs = [skm.roc_auc_score(y, P, multi_class="ovr", average="macro") for y, P in _folds(CV3, X3, Y3)]
    first = display.ax_.get_legend().get_texts()[0].get_text()
    assert first == f"logistic folds (macro AUC = {np.mean(aucs):.3f} ± {np.std(aucs):.3f})"
    np.testing.assert_allclose(display.scores, aucs, rtol=1e-12)


def test_a_list_of_curve_kwargs_gives_one_legend_entry_per_fold_with_its_auc():
    display = RocCurveDisplay.from_cv_results(CV3, X3, Y3, curve_kwargs=[{"linestyle": "--"}] * 4)
    aucs = [skm.roc_auc_score(y, P, multi_class="ovr", average="macro") for y, P in _folds(CV3, X3, Y3)]
    texts = [text.get_text() for text in display.ax_.get_legend().get_texts()]
    assert texts[:4] == [f"fold {k} (macro AUC = {auc:.3f})" for k, auc in enumerate(aucs)]
    assert all(line.get_linestyle() == "--" for line in display.fold_lines_[0])
    with pytest.raises(ValueError, match="curve_kwargs"):
        RocCurveDisplay.from_cv_results(CV3, X3, Y3, curve_kwargs=[{}] * 3)


def _polyline_oracle(x, y, g):
    """Brute force: the largest value of any segment of the polyline holding g."""
    best = -np.inf
    for i in range(len(x) - 1):
        if x[i] <= g <= x[i + 1]:
            if x[i] == x[i + 1]:
                best = max(best, y[i], y[i + 1])
            else:
                best = max(best, y[i] + (g - x[i]) / (x[i + 1] - x[i]) * (y[i + 1] - y[i]))
    return best if np.isfinite(best) else np.nan


def test_roc_band_and_mean_are_the_pointwise_min_max_and_mean_on_the_fpr_grid():
    display = RocCurveDisplay.from_cv_results(CV3, X3, Y3)
    grid = np.linspace(0, 1, 201)
    curves = [(line.get_xdata(), line.get_ydata()) for line in display.fold_lines_[0]]
    on_grid = np.array([[_polyline_oracle(x, y, g) for g in grid] for x, y in curves])
    np.testing.assert_allclose(display.mean_lines_[0].get_ydata(), on_grid.mean(axis=0), atol=1e-12)
    band = display.bands_[0].get_paths()[0].vertices
    inside = (band[:, 0] > 0) & (band[:, 0] < 1)
    upper_expected = np.interp(band[inside, 0], grid, on_grid.max(axis=0))
    lower_expected = np.interp(band[inside, 0], grid, on_grid.min(axis=0))
    hit_upper = np.isclose(band[inside, 1], upper_expected, atol=1e-12)
    hit_lower = np.isclose(band[inside, 1], lower_expected, atol=1e-12)
    assert np.all(hit_upper | hit_lower) and hit_upper.any() and hit_lower.any()


@given(st.lists(st.floats(0, 1), min_size=2, max_size=12), st.lists(st.floats(0, 1), min_size=12, max_size=12))
def test_polyline_on_grid_matches_the_brute_force_reading(xs, ys):
    x, y = np.sort(np.round(xs, 2)), np.sort(np.round(ys[: len(xs)], 2))
    grid = np.linspace(-0.1, 1.1, 25)
    expected = [_polyline_oracle(x, y, g) for g in grid]
    np.testing.assert_allclose(polyline_on_grid(x, y, grid), expected, atol=1e-12)


def test_each_precision_recall_fold_curve_is_from_predictions_and_its_ap_is_sklearns():
    display = PrecisionRecallDisplay.from_cv_results(CV3, X3, Y3)
    aps = []
    for line, (y_fold, scores) in zip(display.fold_lines_[0], _folds(CV3, X3, Y3)):
        single = PrecisionRecallDisplay.from_predictions(y_fold, scores)
        np.testing.assert_array_equal(line.get_xydata(), single.micro_line_.get_xydata())
        assert line.get_drawstyle() == "steps-post"
        aps.append(skm.average_precision_score(label_binarize(y_fold, classes=[0, 1, 2]), scores, average="micro"))
    np.testing.assert_allclose(display.scores, aps, rtol=1e-12)
    text = display.ax_.get_legend().get_texts()[0].get_text()
    assert text == f"folds (micro AP = {np.mean(aps):.3f} ± {np.std(aps):.3f})"


def test_the_precision_step_read_on_a_fine_recall_grid_integrates_to_sklearns_average_precision():
    y_fold, scores = _folds(CV3, X3, Y3)[0]
    onehot = label_binarize(y_fold, classes=[0, 1, 2])
    precision, recall, _ = skm.precision_recall_curve(onehot.ravel(), scores.ravel())
    n_cells = 200_000
    middles = (np.arange(n_cells) + 0.5) / n_cells
    area = precision_at_recall(recall, precision, middles).mean()
    assert area == pytest.approx(skm.average_precision_score(onehot, scores, average="micro"), abs=1e-4)


def _top_label_ece(y, P, n_bins):
    """Top-label ECE on equal-width bins, written out (bins closed on the right, as numpy's digitize)."""
    confidence, correct = P.max(axis=1), (P.argmax(axis=1) == y).astype(float)
    bins = np.clip(np.ceil(confidence * n_bins).astype(int) - 1, 0, n_bins - 1)
    return sum(
        abs(correct[bins == b].mean() - confidence[bins == b].mean()) * np.mean(bins == b)
        for b in range(n_bins)
        if np.any(bins == b)
    )


def test_each_reliability_fold_curve_is_from_predictions_and_its_ece_is_the_binned_gap():
    display = ReliabilityDisplay.from_cv_results(CV3, X3, Y3, n_bins=6)
    eces = []
    for line, (y_fold, scores) in zip(display.fold_lines_[0], _folds(CV3, X3, Y3)):
        single = ReliabilityDisplay.from_predictions(y_fold, scores, n_bins=6)
        np.testing.assert_allclose(line.get_xydata(), single.lines_[0].get_xydata(), rtol=0, atol=0)
        eces.append(_top_label_ece(y_fold, scores, 6))
    np.testing.assert_allclose(display.scores, eces, atol=1e-12)
    assert display.chance_level_.get_label() == "perfect calibration"


def test_reliability_band_covers_only_the_probabilities_every_fold_reaches():
    display = ReliabilityDisplay.from_cv_results(CV3, X3, Y3, n_bins=6)
    lowest_common = max(line.get_xdata().min() for line in display.fold_lines_[0])
    highest_common = min(line.get_xdata().max() for line in display.fold_lines_[0])
    mean = display.mean_lines_[0].get_xydata()
    shown = mean[~np.isnan(mean[:, 1])]
    assert shown[:, 0].min() >= lowest_common and shown[:, 0].max() <= highest_common


def _f1_at(y, P, tau):
    return skm.f1_score(y, np.argmax(P - tau, axis=1), average="macro", labels=[0, 1, 2], zero_division=0)


def test_each_profile_fold_line_is_from_predictions_and_the_mean_steps_are_brute_force_scores():
    tau = np.array([0.3, 0.36, 0.34])
    display = TuningProfileDisplay.from_cv_results(CV3, X3, Y3, threshold=tau)
    folds = _folds(CV3, X3, Y3)
    for j in range(3):
        for line, (y_fold, scores) in zip(display.fold_lines_[j], folds):
            single = TuningProfileDisplay.from_predictions(y_fold, scores, threshold=tau)
            np.testing.assert_array_equal(line.get_data().values, single.lines_[j].get_data().values)
            np.testing.assert_array_equal(line.get_data().edges, single.lines_[j].get_data().edges)
        values, edges, _ = display.mean_lines_[j].get_data()
        for cell in np.linspace(0, values.size - 1, 12).astype(int):
            delta = (edges[cell] + edges[cell + 1]) / 2
            shifted = tau + delta * np.eye(3)[j]
            expected = np.mean([_f1_at(y, P, shifted) for y, P in folds])
            assert values[cell] == pytest.approx(expected, abs=1e-12)
    scores = [_f1_at(y, P, tau) for y, P in folds]
    np.testing.assert_allclose(display.scores, scores, atol=1e-12)


def test_the_profile_goes_through_the_tau_tuned_on_the_pooled_held_out_predictions_by_default():
    from polyroc.thresholds import tune_thresholds

    folds = _folds(CV3, X3, Y3)
    pooled = tune_thresholds(np.concatenate([y for y, _ in folds]), np.concatenate([P for _, P in folds]))
    display = TuningProfileDisplay.from_cv_results(CV3, X3, Y3)
    for profile in display.fold_results:
        np.testing.assert_array_equal(profile.threshold, pooled.best_threshold)


def test_folds_are_weighted_and_a_dataframe_x_is_indexed_by_position():
    weights = np.random.default_rng(1).uniform(0.5, 2.0, Y3.size)
    frame = pd.DataFrame(X3, columns=list("abcd"), index=np.arange(Y3.size)[::-1])
    cv_results = cross_validate(
        LogisticRegression(), frame, Y3, cv=StratifiedKFold(3), return_estimator=True, return_indices=True
    )
    display = RocCurveDisplay.from_cv_results(cv_results, frame, Y3, sample_weight=weights)
    for line, estimator, test in zip(display.fold_lines_[0], cv_results["estimator"], cv_results["indices"]["test"]):
        scores = estimator.predict_proba(frame.iloc[test])
        single = RocCurveDisplay.from_predictions(Y3[test], scores, sample_weight=weights[test])
        np.testing.assert_array_equal(line.get_xydata(), single.macro_line_.get_xydata())


@pytest.mark.parametrize("missing", ["estimator", "indices"])
def test_cv_results_without_a_key_names_it_and_what_to_pass(missing):
    partial = {key: value for key, value in CV3.items() if key != missing}
    for display in (RocCurveDisplay, PrecisionRecallDisplay, TuningProfileDisplay, ReliabilityDisplay):
        with pytest.raises(ValueError, match=rf"cv_results has no '{missing}' key.*return_estimator=True, return_ind"):
            display.from_cv_results(partial, X3, Y3)


def test_bad_cv_results_and_options_fail_before_any_prediction():
    class Refuses:
        classes_ = np.array([0, 1, 2])

        def predict_proba(self, X):
            raise AssertionError("no prediction before the options are checked")

    refusing = {"estimator": [Refuses()], "indices": {"test": [np.arange(10)]}}
    with pytest.raises(ValueError, match="average must be one of"):
        RocCurveDisplay.from_cv_results(refusing, X3, Y3, average="weighted")
    with pytest.raises(ValueError, match="strategy must be one of"):
        ReliabilityDisplay.from_cv_results(refusing, X3, Y3, strategy="kmeans")
    with pytest.raises(TypeError, match="cv_results must be the dict"):
        RocCurveDisplay.from_cv_results([CV3], X3, Y3)
    with pytest.raises(TypeError, match=r"cv_results\['estimator'\]\[0\] has no predict_proba"):
        RocCurveDisplay.from_cv_results({"estimator": [object()], "indices": {"test": [np.arange(3)]}}, X3, Y3)
    with pytest.raises(ValueError, match="one row per sample"):
        RocCurveDisplay.from_cv_results(CV3, X3[:-1], Y3)
    with pytest.raises(ValueError, match="indexes rows outside X"):
        RocCurveDisplay.from_cv_results({"estimator": [Refuses()], "indices": {"test": [np.array([999])]}}, X3, Y3)


def test_cross_validated_tuning_display_places_each_folds_tau_on_the_simplex():
    result = cross_validated_tuning(CV3, X3, Y3, resolution=20)
    display = result.plot()
    assert isinstance(display, CrossValidatedTuningDisplay)
    tau = result.thresholds - (result.thresholds.sum(axis=1, keepdims=True) - 1) / 3
    expected = np.column_stack([tau[:, 1] + 0.5 * tau[:, 2], np.sqrt(3) / 2 * tau[:, 2]])
    np.testing.assert_allclose(display.points_.get_offsets(), expected, atol=1e-12)
    mean = result.thresholds.mean(axis=0)
    np.testing.assert_allclose(
        display.mean_marker_.get_xydata()[0], [mean[1] + 0.5 * mean[2], np.sqrt(3) / 2 * mean[2]]
    )


def test_cross_validated_tuning_display_draws_strips_per_class_for_four_classes():
    X, y = _data(m=4, seed=3)
    result = cross_validated_tuning(_cv(X, y, n_splits=3), X, y, search="coordinate")
    display = CrossValidatedTuningDisplay.from_result(result, name="model")
    offsets = display.points_.get_offsets()
    np.testing.assert_array_equal(offsets[:, 1], result.thresholds.ravel())
    np.testing.assert_array_equal(np.round(offsets[:, 0]), np.tile(np.arange(4), 3))
    segments = display.mean_marker_.get_segments()
    np.testing.assert_allclose([segment[0, 1] for segment in segments], result.thresholds.mean(axis=0))
    assert display.ax_.get_title().startswith("model τ* of 3 folds")


def test_cv_display_draws_on_a_given_axes_and_leaves_out_what_it_is_told_to():
    fig, ax = plt.subplots()
    display = RocCurveDisplay.from_cv_results(
        CV3, X3, Y3, ax=ax, name="model", plot_band=False, plot_chance_level=False, mean_kwargs={"color": "red"}
    )
    assert display.ax_ is ax and display.figure_ is fig
    assert display.bands_ == [None] and display.chance_level_ is None
    assert display.mean_lines_[0].get_color() == "red"
    assert ax.get_title() == "model: macro-average ROC (4 folds)"
    with pytest.raises(TypeError, match="band_kwargs"):
        RocCurveDisplay.from_cv_results(CV3, X3, Y3, band_kwargs="blue")
