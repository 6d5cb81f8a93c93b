"""Dirichlet posterior intervals of counts metrics, and the stratified interval of a mean.

Oracles: scikit-learn's metrics for the point values; exact beta marginals of
the Dirichlet (scipy) for the draws; simulation with a known confusion matrix;
the textbook variance of a stratified mean.
"""

import numpy as np
import pytest
from scipy.stats import beta, t
from sklearn import metrics as skm

import polyroc.intervals._posterior as posterior_module
from polyroc import evaluate
from polyroc.counts import get_metric, precision, recall
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._posterior import (
    confusion_posterior,
    posterior_interval,
    posterior_interval_name,
    posterior_quantiles,
    stratified_mean_interval,
)

SKLEARN = {
    "accuracy": skm.accuracy_score,
    "f1_macro": lambda y, p, **kw: skm.f1_score(y, p, average="macro", zero_division=0, **kw),
    "precision_weighted": lambda y, p, **kw: skm.precision_score(y, p, average="weighted", zero_division=0, **kw),
    "recall_macro": lambda y, p, **kw: skm.recall_score(y, p, average="macro", zero_division=0, **kw),
    "balanced_accuracy": skm.balanced_accuracy_score,
    "cohen_kappa": skm.cohen_kappa_score,
    "matthews_corrcoef": skm.matthews_corrcoef,
}


def _labels(n=120, m=4, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    y_pred = np.where(rng.random(n) < 0.6, y, rng.integers(0, m, n))
    return y, y_pred


@pytest.mark.parametrize("metric", sorted(SKLEARN))
@pytest.mark.parametrize("weighted", [False, True])
def test_estimate_is_scikit_learns_value(metric, weighted):
    y, y_pred = _labels()
    weights = np.random.default_rng(1).uniform(0.2, 3.0, y.size) if weighted else None
    ci = posterior_interval(y, y_pred, metric=metric, sample_weight=weights, n_draws=200, random_state=0)
    expected = SKLEARN[metric](y, y_pred, sample_weight=weights)
    assert ci.estimate == pytest.approx(expected, abs=1e-12)
    assert ci.low <= ci.high and ci.n_boot is None and ci.method == posterior_interval_name()


def test_string_labels_and_labels_argument():
    y, y_pred = _labels()
    names = np.array(["ant", "bee", "cat", "dog", "eel"])
    ci = posterior_interval(names[y], names[y_pred], metric="f1_macro", labels=names, n_draws=100, random_state=0)
    expected = skm.f1_score(names[y], names[y_pred], labels=names, average="macro", zero_division=0)
    assert ci.estimate == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("metric", ["f1_macro", "matthews_corrcoef", "cohen_kappa", "balanced_accuracy"])
def test_large_sample_interval_is_narrow_around_the_known_truth(metric):
    pi = np.array([[0.8, 0.15, 0.05], [0.1, 0.7, 0.2], [0.05, 0.25, 0.7]])
    sizes = np.array([100_000, 50_000, 20_000])
    rng = np.random.default_rng(3)
    y = np.repeat(np.arange(3), sizes)
    y_pred = np.concatenate([rng.choice(3, size=n, p=row) for n, row in zip(sizes, pi)])
    truth = get_metric(metric)(sizes[:, None] * pi)
    ci = posterior_interval(y, y_pred, metric=metric, n_draws=2000, random_state=4)
    assert ci.low < truth < ci.high
    assert ci.high - ci.low < 0.015


def _quantile_tolerance(dist, levels, n_draws):
    """Five standard errors of a sample quantile: sqrt(q (1 - q) / B) / density at the quantile."""
    points = dist.ppf(levels)
    return points, 5 * np.sqrt(levels * (1 - levels) / n_draws) / dist.pdf(points)


@pytest.mark.parametrize(
    ("counts", "prior", "alpha_extra"),
    [
        ([[7, 3], [2, 8]], "jeffreys", (0.5, 0.5)),
        ([[0, 4], [1, 3]], "diagonal-jeffreys", (0.5, 0.5)),
        ([[4, 0], [1, 3]], 2.0, (2.0, 2.0)),
        ([[5, 1, 2, 0], [0, 3, 0, 0], [1, 1, 1, 1], [0, 0, 0, 9]], "diagonal-jeffreys", (0.5, 0.5)),
        ([[5, 1, 2], [0, 3, 0], [1, 1, 1]], "uniform", (1.0, 2.0)),
        ([[5, 1, 2], [0, 3, 0], [1, 1, 1]], "perks", (1 / 3, 2 / 3)),
    ],
)
def test_recall_draws_follow_the_exact_beta_marginal(counts, prior, alpha_extra):
    """pi_cc of Dirichlet(counts_c + a_c) is Beta(x + a_cc, n - x + sum of the row's other a)."""
    n_draws = 40_000
    draws = confusion_posterior(counts, prior=prior, n_draws=n_draws, random_state=5)
    counts = np.asarray(counts)
    levels = np.array([0.025, 0.25, 0.5, 0.75, 0.975])
    for c in range(counts.shape[0]):
        x, n = counts[c, c], counts[c].sum()
        points, tolerance = _quantile_tolerance(beta(x + alpha_extra[0], n - x + alpha_extra[1]), levels, n_draws)
        assert np.all(np.abs(np.quantile(draws[:, c, c] / n, levels) - points) < tolerance)


def test_rows_scale_to_class_sizes_and_empty_rows_stay_zero():
    counts = np.array([[3, 1, 0], [0, 0, 0], [2, 2, 5]])
    draws = confusion_posterior(counts, class_sizes=[8, 5, 9], n_draws=50, random_state=0)
    np.testing.assert_allclose(draws.sum(axis=2), np.tile([8.0, 0.0, 9.0], (50, 1)), rtol=1e-12)
    assert np.all(draws[:, 1] == 0) and np.all(draws[:, [0, 2]] > 0)
    # recall of the class without rows is 0/0: the named metrics count it as 0, as on the data
    assert np.all(recall(draws, average=None, zero_division=0.0)[:, 1] == 0)


def test_zero_and_full_hits_and_a_never_predicted_class_get_wide_intervals():
    counts = np.array([[0, 4, 0], [0, 4, 0], [0, 1, 5]])  # recall 0/4, 4/4; class 0 never predicted
    draws = confusion_posterior(counts, n_draws=4000, random_state=1)
    low, high = posterior_quantiles(recall(draws, average=None, zero_division=0.0), 0.95)
    assert low[0] == pytest.approx(0.0, abs=1e-3) and high[0] > 0.35
    assert low[1] < 0.65 and high[1] == pytest.approx(1.0, abs=1e-3)
    low, high = posterior_quantiles(precision(draws, average=None, zero_division=0.0), 0.95)
    assert np.isfinite(low[0]) and np.isfinite(high[0]) and high[0] - low[0] > 0.5
    # Beta(1/2, 4 + 1/2) is the recall posterior of 0 hits in 4: its 97.5% quantile
    recall_high = posterior_quantiles(recall(draws, average=None)[:, 0], 0.95)[1]
    assert recall_high == pytest.approx(beta.ppf(0.975, 0.5, 4.5), abs=0.02)


def test_equal_weights_give_the_unweighted_posterior():
    y, y_pred = _labels(n=60, m=3, seed=2)
    plain = posterior_interval(y, y_pred, metric="cohen_kappa", n_draws=500, random_state=9)
    for weight in (2.0, 0.375):
        weighted = posterior_interval(
            y, y_pred, metric="cohen_kappa", sample_weight=np.full(y.size, weight), n_draws=500, random_state=9
        )
        assert (weighted.estimate, weighted.low, weighted.high) == pytest.approx(
            (plain.estimate, plain.low, plain.high), abs=1e-12
        )
    counts = np.array([[5, 2], [1, 6]])
    base = confusion_posterior(counts, n_draws=20, random_state=3)
    doubled = confusion_posterior(2 * counts, class_sizes=[14, 14], effective_sizes=[7, 7], n_draws=20, random_state=3)
    np.testing.assert_array_equal(doubled, 2 * base)


def test_weights_enter_through_kish_effective_sizes():
    """Class 0: weights 1, 1, 1, 3 -> n_eff = 36 / 12 = 3; class 1: weights 2, 2 -> n_eff = 2."""
    y = np.array([0, 0, 0, 0, 1, 1])
    y_pred = np.array([0, 1, 0, 0, 1, 0])
    weights = np.array([1.0, 1.0, 1.0, 3.0, 2.0, 2.0])
    counts = np.array([[5.0, 1.0], [2.0, 2.0]])
    ci = posterior_interval(y, y_pred, metric="recall_macro", sample_weight=weights, n_draws=3000, random_state=6)
    draws = confusion_posterior(counts, effective_sizes=[3.0, 2.0], n_draws=3000, random_state=6)
    values = recall(draws, average="macro", zero_division=0.0)
    estimate = recall(counts, average="macro", zero_division=0.0)  # (5/6 + 2/4) / 2
    assert ci.estimate == pytest.approx((5 / 6 + 2 / 4) / 2, abs=1e-12) == estimate
    # the union of the equal-tailed interval and the posterior spread re-centred on the estimate, within [0, 1]
    recentred = values - np.median(values) + estimate
    low = max(0.0, min(np.quantile(values, 0.025), np.quantile(recentred, 0.025)))
    high = min(1.0, max(np.quantile(values, 0.975), np.quantile(recentred, 0.975)))
    assert (ci.low, ci.high) == pytest.approx((low, high), abs=1e-12)
    # class 0's recall posterior is Beta(2.5 + 1/2, 0.5 + 1/2): 5/6 of n_eff = 3 rows are hits
    np.testing.assert_allclose((draws[:, 0, 0] / 6).mean(), 3.0 / 4.0, atol=0.01)


def test_seeded_draws_repeat_and_do_not_depend_on_the_chunk_length(monkeypatch):
    counts = np.array([[9, 2, 1], [3, 7, 0], [0, 1, 4]])
    first = confusion_posterior(counts, n_draws=1000, random_state=11)
    np.testing.assert_array_equal(first, confusion_posterior(counts, n_draws=1000, random_state=11))
    monkeypatch.setattr(posterior_module, "DRAW_CHUNK_BYTES", 3 * 8 * 9 * 7)  # 7 draws per chunk
    np.testing.assert_array_equal(first, confusion_posterior(counts, n_draws=1000, random_state=11))
    y, y_pred = _labels(n=80, m=3)
    chunked = posterior_interval(y, y_pred, n_draws=300, random_state=2)
    monkeypatch.undo()
    whole = posterior_interval(y, y_pred, n_draws=300, random_state=2)
    assert (chunked.low, chunked.high) == (whole.low, whole.high)


def test_posterior_quantiles_leave_nan_out():
    draws = np.column_stack([np.arange(11.0), np.full(11, np.nan), np.r_[np.nan, np.arange(10.0)]])
    low, high = posterior_quantiles(draws, 0.8)
    np.testing.assert_allclose(low, [1.0, np.nan, 0.9])
    np.testing.assert_allclose(high, [9.0, np.nan, 8.1])


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"counts": [[1, 2, 3], [4, 5, 6]]}, ValueError, "counts must have shape"),
        ({"counts": [[[1, 2], [3, 4]]]}, ValueError, "one confusion matrix"),
        ({"counts": [[1, -2], [3, 4]]}, ValueError, "non-negative"),
        ({"counts": [[1, np.nan], [3, 4]]}, ValueError, "NaN or infinity"),
        ({"prior": 0.0}, ValueError, "prior must be a finite number in"),
        ({"prior": -1}, ValueError, "prior must be a finite number in"),
        ({"prior": "haldane"}, ValueError, "prior must be a number > 0 or one of"),
        ({"prior": None}, TypeError, "prior must be a real number"),
        ({"class_sizes": [1, 2, 3]}, ValueError, r"class_sizes must have shape \(2,\)"),
        ({"effective_sizes": [1, -2]}, ValueError, "effective_sizes must be finite and non-negative"),
        ({"n_draws": 0}, ValueError, r"^n_draws must be an int in \[1, inf\); got 0$"),
        ({"random_state": -1}, ValueError, "random_state"),
    ],
)
def test_confusion_posterior_errors(kwargs, error, message):
    arguments = {"counts": [[1, 2], [3, 4]], **kwargs}
    with pytest.raises(error, match=message):
        confusion_posterior(**arguments)


def test_posterior_interval_errors():
    y, y_pred = _labels(n=20, m=3)
    with pytest.raises(ValueError, match=r"unknown metric 'f2'; valid names are: .*f1_macro"):
        posterior_interval(y, y_pred, metric="f2")
    with pytest.raises(ValueError, match="confidence"):
        posterior_interval(y, y_pred, confidence=1.0)
    with pytest.raises(ValueError, match="sample_weight"):
        posterior_interval(y, y_pred, sample_weight=np.ones(3))
    with pytest.raises(ValueError, match="one value per counts matrix"):
        posterior_interval(y, y_pred, metric=lambda c: recall(c, average=None, zero_division=0.0), n_draws=5)


# --------------------------------------------------------------------------- mean of per-sample values


def test_one_class_is_the_t_interval_of_a_mean():
    values = np.random.default_rng(0).gamma(2.0, size=25)
    estimate, low, high = stratified_mean_interval(values, np.zeros(25, dtype=int), 1, confidence=0.9)
    half = t.ppf(0.95, 24) * values.std(ddof=1) / np.sqrt(25)
    assert estimate == pytest.approx(values.mean(), rel=1e-14)
    assert (low, high) == pytest.approx((values.mean() - half, values.mean() + half), rel=1e-12)


def test_several_classes_give_the_variance_of_a_stratified_mean():
    """Var = sum_c (n_c / n)^2 s_c^2 / n_c, the textbook variance of a mean over fixed strata."""
    rng = np.random.default_rng(1)
    y = rng.permutation(np.repeat([0, 1, 2], [7, 12, 30]))
    values = rng.normal(size=y.size) + y
    estimate, low, high = stratified_mean_interval(values, y, 3)
    n = y.size
    variance = sum((np.sum(y == c) / n) ** 2 * values[y == c].var(ddof=1) / np.sum(y == c) for c in range(3))
    half = t.ppf(0.975, n - 3) * np.sqrt(variance)
    assert (low, high) == pytest.approx((estimate - half, estimate + half), rel=1e-12)


def test_weights_of_zero_drop_rows_and_scale_does_not_matter():
    rng = np.random.default_rng(2)
    y = np.repeat([0, 1], 10)
    values = rng.normal(size=20)
    weights = rng.uniform(0.5, 2.0, 20)
    reference = stratified_mean_interval(values, y, 2, weights)
    assert reference[0] == pytest.approx(np.average(values, weights=weights), rel=1e-14)
    padded = stratified_mean_interval(np.r_[values, 5.0, -3.0], np.r_[y, 0, 1], 2, np.r_[weights, 0.0, 0.0])
    assert padded == pytest.approx(reference, rel=1e-12)
    assert stratified_mean_interval(values, y, 2, weights * 1e-200) == pytest.approx(reference, rel=1e-12)


def test_single_row_class_warns_and_bad_input_raises():
    with pytest.warns(IntervalWarning, match="single row"):
        stratified_mean_interval([1.0, 2.0, 4.0], [0, 0, 1], 2)
    with pytest.raises(ValueError, match="class codes in"):
        stratified_mean_interval([1.0, 2.0], [0, 2], 2)
    with pytest.raises(ValueError, match="y must be integer class codes"):
        stratified_mean_interval([1.0, 2.0], [0.5, 1.0], 2)
    with pytest.raises(ValueError, match="values contains NaN"):
        stratified_mean_interval([1.0, np.nan], [0, 1], 2)
    with pytest.raises(ValueError, match=r"^n_classes must be an int in \[1, inf\); got 0$"):
        stratified_mean_interval([1.0, 2.0], [0, 0], 0)


def test_a_posterior_interval_records_its_draws_and_seed():
    y, y_pred = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 0]
    ci = posterior_interval(y, y_pred, metric="f1_macro", n_draws=300, random_state=7)
    assert (ci.n_draws, ci.random_state, ci.n_boot) == (300, 7, None)
    assert str(ci).endswith("; Dirichlet posterior (diagonal-jeffreys prior), 300 draws]")


@pytest.mark.parametrize("n_boot", [200, 500])
def test_evaluate_records_the_draws_behind_each_posterior_interval(n_boot):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 90)
    scores = rng.dirichlet(np.ones(3), 90) + 0.6 * np.eye(3)[y]
    scores /= scores.sum(axis=1, keepdims=True)
    result = evaluate(y, scores, ci="auto", n_boot=n_boot, random_state=11)
    posterior = [ci for ci in result.intervals.values() if ci.method.startswith("Dirichlet posterior")]
    formulas = [ci for ci in result.intervals.values() if ci.method.startswith("Wilson")]
    assert posterior and formulas
    assert all((ci.n_draws, ci.random_state) == (n_boot, 11) for ci in posterior)
    assert all("n_draws" not in ci.settings for ci in formulas)
