"""compare_scores on probability quality: log loss and Brier score by a paired t, binned ECE by joined intervals.

Oracles: scikit-learn's log_loss, the Brier score written in NumPy, calibration_error, the stratified
variance and Student's t from scipy on the per-row differences written here, a brute-force bootstrap
over repeated rows, and the single-ECE intervals of evaluate's bins (CalibrationBins, ece_bounds) combined
by hand.
"""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import t
from sklearn.metrics import log_loss as sklearn_log_loss

from polyroc import compare_scores
from polyroc.calibration import calibration_error
from polyroc.evaluation._calibration import CalibrationBins
from polyroc.intervals._calibration_draws import ece_bounds
from polyroc.resampling import bootstrap_multiplicities

QUANTITIES = ["log_loss", "brier_score", "ece_top_label", "ece_classwise"]


def _problem(n=120, m=3, seed=0, temperatures=(0.6, 1.0)):
    """Labels drawn from true probabilities q, and q mapped by each temperature: softmax(log q / T)."""
    rng = np.random.default_rng(seed)
    q = rng.dirichlet(np.full(m, 0.7), n)
    y = np.minimum((rng.random(n)[:, None] > q.cumsum(axis=1)).sum(axis=1), m - 1)
    models = {}
    for temperature in temperatures:
        p = q ** (1 / temperature)
        models[f"T{temperature}"] = p / p.sum(axis=1, keepdims=True)
    return y, models


def _brier(y, p):
    return np.sum((p - np.eye(p.shape[1])[y]) ** 2, axis=1)


def _log_losses(y, p):
    return -np.log(np.clip(p[np.arange(y.size), y], 1e-15, 1))


def _stratified_t(differences, y, confidence=0.95):
    """Mean, bounds and p-value of the t interval of a mean of fixed strata: Var = sum_c (n_c/n)^2 s_c^2 / n_c."""
    n, classes = y.size, np.unique(y)
    variance = sum((np.sum(y == c) / n) ** 2 * differences[y == c].var(ddof=1) / np.sum(y == c) for c in classes)
    freedom = n - classes.size
    mean = differences.mean()
    half = t.ppf((1 + confidence) / 2, freedom) * np.sqrt(variance)
    return mean, mean - half, mean + half, 2 * t.sf(abs(mean) / np.sqrt(variance), freedom)


def _rows(result):
    return {(row["quantity"], row["model"], row["other"]): row for row in result.comparisons}


def test_estimates_are_sklearns_log_loss_the_numpy_brier_score_and_calibration_error():
    y, models = _problem(m=4)
    result = compare_scores(y, models, quantities=QUANTITIES, n_boot=20, random_state=0)
    for name, p in models.items():
        assert result.estimates["log_loss"][name] == pytest.approx(sklearn_log_loss(y, p), rel=1e-12)
        assert result.estimates["brier_score"][name] == pytest.approx(_brier(y, p).mean(), rel=1e-12)
        for quantity, kind in (("ece_top_label", "top-label"), ("ece_classwise", "classwise")):
            assert result.estimates[quantity][name] == pytest.approx(calibration_error(y, p, kind=kind), rel=1e-12)
        for quantity in QUANTITIES:
            (row,) = [row for row in result.comparisons if row["quantity"] == quantity]
            estimates = result.estimates[quantity]
            assert row["difference"] == pytest.approx(estimates["T0.6"] - estimates["T1.0"], rel=1e-12, abs=1e-15)


def test_the_log_loss_clips_at_the_machine_epsilon_of_the_given_dtype_as_sklearn():
    y = np.array([0, 1, 2, 0, 1, 2])
    sharp = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [0.5, 0.5, 0]], dtype=np.float32)
    soft = np.full((6, 3), 1 / 3, dtype=np.float32)
    result = compare_scores(y, {"sharp": sharp, "soft": soft}, quantities=["log_loss"])
    assert result.estimates["log_loss"]["sharp"] == pytest.approx(sklearn_log_loss(y, sharp), rel=1e-6)
    assert result.estimates["log_loss"]["soft"] == pytest.approx(sklearn_log_loss(y, soft), rel=1e-6)


@pytest.mark.parametrize("quantity, losses", [("log_loss", _log_losses), ("brier_score", _brier)])
@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_mean_losses_have_the_paired_t_interval_of_the_stratified_variance(quantity, losses, confidence):
    y, models = _problem(n=90, seed=3)
    result = compare_scores(y, models, quantities=[quantity], confidence=confidence)
    (row,) = result.comparisons
    mean, low, high, p_value = _stratified_t(losses(y, models["T0.6"]) - losses(y, models["T1.0"]), y, confidence)
    assert (row["difference"], row["low"], row["high"]) == pytest.approx((mean, low, high), rel=1e-10)
    assert row["p_value"] == pytest.approx(p_value, rel=1e-9)
    assert row["method"] == "paired t (stratified variance)"


def test_two_equal_classes_give_half_the_standard_error_of_scipys_welch_test_of_their_differences():
    """Var = (1/2)^2 (s_0^2 / 40 + s_1^2 / 40): a quarter of the squared standard error of Welch's two-sample t."""
    from scipy.stats import ttest_ind

    _, models = _problem(n=80, seed=5)
    y = np.repeat([0, 1, 2], [40, 40, 0])[:80]
    models = {name: p[:, :2] / p[:, :2].sum(axis=1, keepdims=True) for name, p in models.items()}
    d = _brier(y, models["T0.6"]) - _brier(y, models["T1.0"])
    (row,) = compare_scores(y, models, quantities=["brier_score"]).comparisons
    welch = ttest_ind(d[y == 0], d[y == 1], equal_var=False)
    welch_se = (d[y == 0].mean() - d[y == 1].mean()) / welch.statistic
    assert row["high"] - row["difference"] == pytest.approx(t.ppf(0.975, 78) * welch_se / 2, rel=1e-10)


def test_integer_weights_count_as_repeated_rows_in_the_estimates_and_weight_the_influences_in_the_interval():
    y, models = _problem(n=60, seed=7)
    weights = np.random.default_rng(7).integers(0, 4, y.size)
    weighted = compare_scores(y, models, quantities=QUANTITIES, sample_weight=weights, n_boot=20, random_state=0)
    repeated = compare_scores(
        np.repeat(y, weights),
        {name: np.repeat(p, weights, axis=0) for name, p in models.items()},
        quantities=QUANTITIES,
        n_boot=20,
        random_state=0,
    )
    for quantity in QUANTITIES:
        for name in models:
            assert weighted.estimates[quantity][name] == pytest.approx(repeated.estimates[quantity][name], rel=1e-12)
    # the t interval of a weighted mean: influences D_s = w_s (d_s - mean) / W, Var = sum_c n_c/(n_c-1) sum (D - D_c)^2
    (row,) = [row for row in weighted.comparisons if row["quantity"] == "log_loss"]
    kept = weights > 0
    d = (_log_losses(y, models["T0.6"]) - _log_losses(y, models["T1.0"]))[kept]
    w, codes = weights[kept].astype(float), y[kept]
    mean = np.sum(w * d) / np.sum(w)
    influence = w * (d - mean) / np.sum(w)
    variance = 0.0
    for c in np.unique(codes):
        part = influence[codes == c]
        variance += part.size / (part.size - 1) * np.sum((part - part.mean()) ** 2)
    half = t.ppf(0.975, kept.sum() - 3) * np.sqrt(variance)
    assert (row["difference"], row["low"], row["high"]) == pytest.approx((mean, mean - half, mean + half), rel=1e-10)
    assert row["p_value"] == pytest.approx(2 * t.sf(abs(mean) / np.sqrt(variance), kept.sum() - 3), rel=1e-9)


def _brute_force_basic(y, models, kind, n_boot, seed, confidence=0.95):
    """Replicate r resamples the rows by the multiplicities of bootstrap_multiplicities (same seed): its ECEs are
    calibration_error of the repeated rows; the basic interval reflects their percentile bounds about the estimate."""
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, n_boot, random_state=seed)))
    replicates = np.array(
        [
            calibration_error(y, models["T0.6"], kind=kind, sample_weight=counts, labels=[0, 1, 2])
            - calibration_error(y, models["T1.0"], kind=kind, sample_weight=counts, labels=[0, 1, 2])
            for counts in multiplicities
        ]
    )
    estimate = calibration_error(y, models["T0.6"], kind=kind) - calibration_error(y, models["T1.0"], kind=kind)
    tail = (1 - confidence) / 2
    low, high = np.quantile(2 * estimate - replicates, [tail, 1 - tail])
    return estimate, low, high


def _bonferroni(y, models, quantity, n_boot, seed, confidence=0.95):
    """Each model's bin-draws interval at 1 - alpha/2 from evaluate's bins, drawn after the bootstrap's spawns of the
    same generator; the difference interval [low_a - high_b, high_a - low_b]."""
    rng = np.random.default_rng(seed)
    list(bootstrap_multiplicities(y, n_boot, random_state=rng))
    single = 1 - (1 - confidence) / 2
    first, second = (
        ece_bounds(CalibrationBins.of(y, models[name], None).totals(), confidence=single, n_draws=n_boot, rng=rng)
        for name in ("T0.6", "T1.0")
    )
    return first[quantity][0] - second[quantity][1], first[quantity][1] - second[quantity][0]


@pytest.mark.parametrize("quantity, kind", [("ece_top_label", "top-label"), ("ece_classwise", "classwise")])
@pytest.mark.parametrize("confidence", [0.95, 0.8])
def test_ece_difference_joins_a_brute_force_paired_bootstrap_and_the_bonferroni_difference_of_single_intervals(
    quantity, kind, confidence
):
    y, models = _problem(n=60, seed=11)
    n_boot = 40
    result = compare_scores(y, models, quantities=[quantity], n_boot=n_boot, random_state=123, confidence=confidence)
    (row,) = result.comparisons
    estimate, low, high = _brute_force_basic(y, models, kind, n_boot, 123, confidence)
    bonferroni = _bonferroni(y, models, quantity, n_boot, 123, confidence)
    assert row["difference"] == pytest.approx(estimate, rel=1e-12)
    assert row["low"] == pytest.approx(min(low, bonferroni[0]), rel=1e-9, abs=1e-12)
    assert row["high"] == pytest.approx(max(high, bonferroni[1]), rel=1e-9, abs=1e-12)
    assert row["method"].startswith(f"paired stratified basic bootstrap (B={n_boot}) joined with the difference")
    assert "Bonferroni" in row["method"]


@pytest.mark.slow
def test_the_bonferroni_difference_bounds_the_population_difference_of_two_calibrated_models():
    """Two calibrated models (the true probabilities and their mean over classes' rows of a coarse cell) both have
    ECE 0 in the population: the difference 0 must lie in the interval of every data set (the basic bootstrap
    alone misses it when one model's noise inflates its ECE more than the other's)."""
    rng = np.random.default_rng(0)
    missed = 0
    for _ in range(20):
        q = rng.dirichlet(np.ones(3), 300)
        y = np.minimum((rng.random(300)[:, None] > q.cumsum(axis=1)).sum(axis=1), 2)
        prior = np.tile(np.full(3, 1 / 3), (300, 1))  # calibrated too: the class shares of q's population
        (row,) = compare_scores(
            y, {"q": q, "prior": prior}, quantities=["ece_top_label"], n_boot=100, random_state=int(rng.integers(99))
        ).comparisons
        missed += not row["low"] <= 0 <= row["high"]
    assert missed <= 1  # at 95%, 20 data sets: 3 or more misses has probability 0.08 under exact coverage


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**16), confidence=st.sampled_from([0.8, 0.9, 0.95]))
def test_the_ece_p_value_is_below_one_minus_confidence_exactly_when_the_interval_excludes_zero(seed, confidence):
    y, models = _problem(n=80, seed=seed, temperatures=(0.4, 1.0))
    result = compare_scores(
        y, models, quantities=["ece_top_label", "ece_classwise"], n_boot=30, random_state=seed, confidence=confidence
    )
    for row in result.comparisons:
        excludes = row["low"] > 0 or row["high"] < 0
        assert (row["p_value"] < 1 - confidence) == excludes


def test_a_model_against_itself_differs_by_zero_and_the_row_says_degenerate():
    y, models = _problem(seed=2)
    p = models["T0.6"]
    result = compare_scores(y, {"a": p, "copy": p.copy()}, quantities=QUANTITIES, n_boot=30, random_state=0)
    for row in result.comparisons:
        assert row["difference"] == row["low"] == row["high"] == 0
        assert row["p_value"] == 1
        assert "degenerate (zero width)" in row["method"] and "identical" in row["method"]


def test_equal_losses_on_every_row_from_different_scores_give_a_degenerate_row_not_a_silent_zero_width_one():
    """Log loss reads the true class's probability only: moving mass between the other classes leaves every
    per-row difference 0, which does not make the difference of the two models known."""
    y = np.repeat([0, 1, 2], 6)
    p = np.full((18, 3), 0.2)
    p[np.arange(18), y] = 0.6
    moved = p.copy()
    other = (y + 1) % 3
    moved[np.arange(18), other] = 0.3
    moved[np.arange(18), (y + 2) % 3] = 0.1
    (row,) = compare_scores(y, {"a": p, "b": moved}, quantities=["log_loss"]).comparisons
    assert row["low"] == row["high"] == row["difference"] == 0
    assert "degenerate (zero width)" in row["method"] and np.isnan(row["p_value"])


def test_three_models_compare_every_pair_with_holm_over_the_pairs_of_each_quantity():
    y, models = _problem(n=150, seed=4, temperatures=(0.5, 1.0, 2.0))
    result = compare_scores(y, models, quantities=QUANTITIES, n_boot=50, random_state=1)
    for quantity in QUANTITIES:
        rows = [row for row in result.comparisons if row["quantity"] == quantity]
        assert [(row["model"], row["other"]) for row in rows] == list(itertools.combinations(models, 2))
        p = np.array([row["p_value"] for row in rows])
        assert np.all((p >= 0) & (p <= 1))
        # Holm (1979) by hand: sorted p_(i) times (k - i + 1), running maximum, capped at 1
        order = np.argsort(p, kind="stable")
        adjusted = np.empty(3)
        adjusted[order] = np.minimum(1, np.maximum.accumulate(p[order] * [3, 2, 1]))
        assert [row["p_holm"] for row in rows] == pytest.approx(adjusted)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**16), n_boot=st.integers(1, 30))
def test_bootstrap_p_values_lie_in_the_unit_interval(seed, n_boot):
    y, models = _problem(n=30, seed=seed)
    result = compare_scores(y, models, quantities=["ece_top_label", "ece_classwise"], n_boot=n_boot, random_state=seed)
    for row in result.comparisons:
        assert 0 <= row["p_value"] <= 1 and row["low"] <= row["high"]


def test_baseline_compares_each_model_minus_the_baseline():
    y, models = _problem(seed=6, temperatures=(0.6, 1.0, 1.5))
    result = compare_scores(y, models, quantities=["brier_score"], baseline="T1.0")
    rows = _rows(result)
    for name in ("T0.6", "T1.5"):
        d = _brier(y, models[name]) - _brier(y, models["T1.0"])
        assert rows["brier_score", name, "T1.0"]["difference"] == pytest.approx(d.mean(), rel=1e-12)


@pytest.mark.parametrize("quantity", ["ece", "logloss", "brier_score_loss", "ece_top-label"])
def test_unknown_quantities_are_refused_with_the_valid_names(quantity):
    y, models = _problem(n=30)
    with pytest.raises(ValueError, match=rf"unknown quantity '{quantity}'.*log_loss, brier_score.*ece_top_label"):
        compare_scores(y, models, quantities=["log_loss", quantity])
