"""DeLong's variance of binary and multiclass AUCs (polyroc.intervals._delong) against independent oracles.

- every statistic and its influence from explicit O(n^2) pair matrices (psi = 1, 1/2, 0)
  with the structural-components formula, weighted and not, with ties;
- the binary variance against DeLong, DeLong & Clarke-Pearson's S10 / n1 + S01 / n0;
- the mean variance against the Monte Carlo variance of the AUC;
- the exact bound at AUC = 1, the single-row warning, all-tied scores, n = 10^6.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate
from scipy.special import expit, logit
from scipy.stats import norm
from scipy.stats import t as student_t
from sklearn import metrics as sklearn_metrics

from polyroc.exceptions import IntervalWarning
from polyroc.intervals._delong import (
    AUC_KEYS,
    auc_difference,
    auc_influences,
    delong_variance,
    logit_interval,
    roc_auc_interval,
    stratified_covariance,
)
from polyroc.metrics import roc_auc_score
from polyroc.metrics._ranking import multiclass_ranking_scores
from tests._oracles.delong_pairs import oracle_covariance, oracle_statistics, psi_matrix, random_problem

SUMMARY_KEYS = [key for key in AUC_KEYS if key[1] is not None]
Z95 = norm.ppf(0.975)

# --------------------------------------------------------------------------- the pair-matrix oracle


def stacked(found, keys):
    return np.vstack([np.atleast_2d(found[key][1]) for key in keys])


CASES = [(m, weighted, seed) for m in (2, 3, 4) for weighted in (False, True) for seed in range(4)]


@pytest.mark.parametrize(("m", "weighted", "seed"), CASES)
def test_influences_and_covariances_match_the_pair_matrix_oracle(m, weighted, seed):
    rng = np.random.default_rng(100 * m + 10 * weighted + seed)
    y, S, w = random_problem(rng, m, int(rng.integers(4 * m, 30)), weighted, decimals=1 + seed % 2)
    found = auc_influences(y, S, w, AUC_KEYS)
    expected = oracle_statistics(y, S, w)
    for key in AUC_KEYS:
        np.testing.assert_allclose(found[key][0], expected[key][0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(found[key][1], expected[key][1], rtol=0, atol=1e-12)
    covariance = stratified_covariance(stacked(found, AUC_KEYS), y, m, w)
    np.testing.assert_allclose(covariance, oracle_covariance(stacked(expected, AUC_KEYS), y, w), rtol=0, atol=1e-12)
    for key in [key for key in AUC_KEYS if key[1] is not None]:
        variance, df = delong_variance(found[key][1], y, m, w)
        parts, sizes = oracle_class_parts(expected[key][1], y, w)
        assert variance == pytest.approx(sum(parts), abs=1e-12)
        assert df == pytest.approx(sum(parts) ** 2 / sum(p * p / (n - 1) for p, n in zip(parts, sizes)), rel=1e-9)


def oracle_class_parts(D, y, w):
    """Each class's part of the stratified variance, and its number of rows of positive weight."""
    keep = np.ones(y.size, bool) if w is None else w > 0
    parts, sizes = [], []
    for c in np.unique(y[keep]):
        values = D[(y == c) & keep]
        parts.append(values.size / (values.size - 1) * np.sum((values - values.mean()) ** 2))
        sizes.append(values.size)
    return parts, sizes


def test_the_oracle_derivative_equals_the_complex_step_derivative():
    """The oracle's structural components are dT/du: the complex step gives that derivative to rounding.

    (The weighted averages hold their support weights fixed, so they are left out.)
    """
    rng = np.random.default_rng(5)
    y, S, w = random_problem(rng, 3, 15, True, decimals=1)
    keys = [key for key in AUC_KEYS if key[1] != "weighted"]
    expected = oracle_statistics(y, S, w)
    step = 1e-30
    for s in range(y.size):
        bumped = w.astype(np.complex128)
        bumped[s] += 1j * step * w[s]
        found = oracle_statistics(y, S, bumped)
        for key in keys:
            derivative = np.imag(found[key][0]) / step
            np.testing.assert_allclose(derivative, np.asarray(expected[key][1])[..., s], rtol=0, atol=1e-12)


@pytest.mark.parametrize(("m", "weighted"), [(3, False), (4, True), (5, False)])
def test_estimates_are_polyroc_point_aucs(m, weighted):
    rng = np.random.default_rng(m)
    y, S, w = random_problem(rng, m, 400, weighted, decimals=2)
    found = auc_influences(y, S, w, AUC_KEYS)
    point = multiclass_ranking_scores(y, S, labels=np.arange(m), sample_weight=w, keys=AUC_KEYS)
    for key in AUC_KEYS:
        np.testing.assert_allclose(found[key][0], point[key], rtol=0, atol=1e-12)
        if key[1] is not None:
            ci = roc_auc_interval(y, S, multi_class=key[0], average=key[1], sample_weight=w)
            assert abs(ci.estimate - roc_auc_score(y, S, multi_class=key[0], average=key[1], sample_weight=w)) < 1e-12


# --------------------------------------------------------------------------- binary: DeLong's formula


def classic_delong(y, s):
    """AUC and S10 / n1 + S01 / n0 from the explicit n1 x n0 matrix (DeLong et al. 1988)."""
    psi = psi_matrix(s[y == 1], s[y == 0])
    area = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    s10 = np.sum((v10 - area) ** 2) / (v10.size - 1)
    s01 = np.sum((v01 - area) ** 2) / (v01.size - 1)
    return area, s10 / v10.size + s01 / v01.size


def satterthwaite_quantile(parts, sizes, level=0.975):
    """Student t quantile with Welch-Satterthwaite's degrees of freedom of a sum of per-class variances."""
    parts, sizes = np.asarray(parts, float), np.asarray(sizes, float)
    df = parts.sum() ** 2 / np.sum(parts**2 / (sizes - 1))
    return student_t.ppf(level, df)


@pytest.mark.parametrize("seed", range(5))
def test_binary_variance_is_delongs_formula(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 60))
    y = np.r_[0, 0, 1, 1, rng.integers(0, 2, n - 4)]
    s = np.round(rng.normal(size=n) + y, 1)
    area, variance = classic_delong(y, s)
    estimate, influence = auc_influences(y, np.column_stack((-s, s)), None, [("ovr", None)])[("ovr", None)]
    assert abs(estimate[1] - area) < 1e-12
    assert abs(stratified_covariance(influence[1], y, 2)[0, 0] - variance) < 1e-12
    ci = roc_auc_interval(y, s)
    assert abs(ci.estimate - roc_auc_score(y, s)) < 1e-12
    psi = psi_matrix(s[y == 1], s[y == 0])
    parts = [psi.mean(axis=1).var(ddof=1) / psi.shape[0], psi.mean(axis=0).var(ddof=1) / psi.shape[1]]
    quantile = satterthwaite_quantile(parts, psi.shape)
    half = quantile * np.sqrt(variance) / (area * (1 - area))
    assert ci.low == pytest.approx(expit(logit(area) - half), abs=1e-12)
    assert ci.high == pytest.approx(expit(logit(area) + half), abs=1e-12)
    assert ci.settings["interval_method"] == "DeLong (logit)"
    # two probability columns, multi_class set: the same AUC and interval
    two_columns = roc_auc_interval(y, np.column_stack((1 - (s - s.min()) / 10, (s - s.min()) / 10)))
    assert (two_columns.estimate, two_columns.low, two_columns.high) == pytest.approx((ci.estimate, ci.low, ci.high))


def test_string_labels_and_labels_argument_pick_the_positive_class():
    y = np.array(["no", "no", "yes", "no", "yes", "yes"])
    s = np.array([0.1, 0.5, 0.4, 0.3, 0.8, 0.9])
    area, _ = classic_delong((y == "yes").astype(int), s)
    ci = roc_auc_interval(y, s)
    assert ci.estimate == pytest.approx(area)
    reversed_ci = roc_auc_interval(y, s, labels=["yes", "no"])  # positive "no": the mirrored AUC
    assert reversed_ci.estimate == pytest.approx(1 - area)
    assert (reversed_ci.low, reversed_ci.high) == pytest.approx((1 - ci.high, 1 - ci.low))


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4),
    st.integers(0, 2**32 - 1),
    st.booleans(),
)
def test_influences_sum_to_zero_and_zero_weight_rows_are_absent(m, seed, weighted):
    """Every statistic is scale-free in the weights (Euler: sum_s dT/du_s = 0); a row of weight 0 is a removed row."""
    rng = np.random.default_rng(seed)
    y, S, w = random_problem(rng, m, 20, weighted, decimals=1)
    found = auc_influences(y, S, w, AUC_KEYS)
    for key in AUC_KEYS:
        assert np.all(np.abs(np.atleast_2d(found[key][1]).sum(axis=1)) < 1e-12)
    w = np.ones(y.size) if w is None else w
    w_extra = np.r_[w, 0.0]
    y_extra = np.r_[y, rng.integers(0, m)]
    S_extra = np.vstack((S, rng.dirichlet(np.ones(m))))
    extra = auc_influences(y_extra, S_extra, w_extra, SUMMARY_KEYS)
    plain = auc_influences(y, S, w, SUMMARY_KEYS)
    for key in SUMMARY_KEYS:
        assert extra[key][0] == pytest.approx(plain[key][0], abs=1e-12)
        np.testing.assert_allclose(extra[key][1], np.r_[plain[key][1], 0.0], atol=1e-12)
    np.testing.assert_allclose(
        stratified_covariance(stacked(extra, SUMMARY_KEYS), y_extra, m, w_extra),
        stratified_covariance(stacked(plain, SUMMARY_KEYS), y, m, w),
        atol=1e-12,
    )


def test_results_do_not_depend_on_the_number_of_threads(monkeypatch):
    y, S, w = random_problem(np.random.default_rng(9), 4, 30_000, True, decimals=2)
    found = {}
    for threads in ("1", "2"):
        monkeypatch.setenv("POLYROC_THREADS", threads)
        found[threads] = auc_influences(y, S, w, AUC_KEYS)
    for key in AUC_KEYS:
        np.testing.assert_array_equal(found["1"][key][0], found["2"][key][0])
        np.testing.assert_array_equal(found["1"][key][1], found["2"][key][1])


# --------------------------------------------------------------------------- Monte Carlo


@pytest.mark.slow
def test_binary_variance_matches_the_monte_carlo_variance():
    """10,000 binormal data sets (n1 = 30, n0 = 50, shift 1): mean DeLong variance ≈ variance of the AUCs.

    Tolerance: the empirical variance of R = 10,000 near-normal AUCs has a
    relative standard error of sqrt(2 / (R - 1)) = 0.0141; the mean of the
    variance estimates varies far less. 4 standard errors is 0.057; DeLong's
    upward bias is O(1/n) (about 1% here). Allowed: |ratio - 1| < 0.06.
    """
    rng = np.random.default_rng(2024)
    y = np.r_[np.zeros(50, int), np.ones(30, int)]
    replicates = 10_000
    areas, variances = np.empty(replicates), np.empty(replicates)
    for r in range(replicates):
        s = rng.normal(size=y.size) + y
        (estimate, influence) = auc_influences(y, np.column_stack((-s, s)), None, [("ovr", "macro")])["ovr", "macro"]
        areas[r] = estimate
        variances[r] = stratified_covariance(influence, y, 2)[0, 0]
    assert abs(variances.mean() / areas.var(ddof=1) - 1) < 0.06


@pytest.mark.slow
def test_multiclass_covariance_matches_the_monte_carlo_covariance():
    """4,000 three-class Dirichlet data sets with fixed class counts (20, 30, 40).

    Mean DeLong variances of the OvR macro, OvO M and micro AUCs, and the
    OvR-OvO covariance, against their Monte Carlo counterparts. Tolerance:
    relative standard error of an empirical variance sqrt(2 / (R - 1)) = 0.0224
    at R = 4,000 (4,000 rather than 10,000 keeps the test at a few seconds);
    4 standard errors is 0.09. The covariance of two nearly equal AUCs has
    the same relative error as a variance.
    """
    rng = np.random.default_rng(7)
    y = np.repeat([0, 1, 2], [20, 30, 40])
    keys = [("ovr", "macro"), ("ovo", "macro"), ("ovr", "micro")]
    alpha = np.ones((y.size, 3))
    alpha[np.arange(y.size), y] += 1.5
    replicates = 4_000
    estimates, covariances = np.empty((replicates, 3)), np.empty((replicates, 3, 3))
    for r in range(replicates):
        S = rng.gamma(alpha)
        S /= S.sum(axis=1, keepdims=True)
        found = auc_influences(y, S, None, keys)
        estimates[r] = [found[key][0] for key in keys]
        covariances[r] = stratified_covariance(stacked(found, keys), y, 3)
    empirical = np.cov(estimates.T)
    ratio = covariances.mean(axis=0) / empirical
    assert np.all(np.abs(np.diag(ratio) - 1) < 0.09)
    assert abs(ratio[0, 1] - 1) < 0.09


# --------------------------------------------------------------------------- boundaries and edge cases


@pytest.mark.parametrize(
    ("multi_class", "average"), [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro")]
)
def test_separable_data_get_the_exact_bound(multi_class, average):
    y = np.repeat([0, 1, 2], [3, 5, 4])
    S = np.full((y.size, 3), 0.05)
    S[np.arange(y.size), y] = 0.9
    ci = roc_auc_interval(y, S, multi_class=multi_class, average=average)
    assert ci.estimate == 1.0
    assert ci.low == pytest.approx(0.025 ** (1 / 3)) and ci.high == 1.0
    assert ci.settings["interval_method"] == "DeLong (exact bound at AUC = 1)"


def test_reversed_binary_scores_get_the_mirrored_bound():
    y = np.r_[np.zeros(6, int), np.ones(4, int)]
    s = np.r_[np.linspace(0.6, 1.0, 6), np.linspace(0.0, 0.4, 4)]
    ci = roc_auc_interval(y, s, confidence=0.9)
    assert ci.estimate == 0.0 and ci.low == 0.0
    assert ci.high == pytest.approx(1 - 0.05**0.25)
    assert ci.settings["interval_method"] == "DeLong (exact bound at AUC = 0)"


def test_the_exact_bound_misses_a_true_auc_below_it_rarely_enough():
    """Coverage of [(alpha/2)^(1/n_min), 1] by simulation at the worst true AUC, the bound itself.

    The interval misses a true AUC a < bound only when the observed AUC is 1,
    i.e. when every positive outscores every negative. With n1 = n0 = 20
    binormal scores whose AUC is the bound (0.8313), that must happen with
    probability at most bound^20 = alpha/2 = 0.025.
    """
    n_min, alpha, replicates = 20, 0.05, 20_000
    bound = (alpha / 2) ** (1 / n_min)
    shift = np.sqrt(2) * norm.ppf(bound)  # binormal AUC Phi(shift / sqrt(2)) = bound
    rng = np.random.default_rng(21)
    positives = rng.normal(shift, 1, (replicates, n_min))
    negatives = rng.normal(0, 1, (replicates, n_min))
    separated = np.mean(positives.min(axis=1) > negatives.max(axis=1))
    assert separated <= alpha / 2
    y = np.r_[np.zeros(n_min, int), np.ones(n_min, int)]
    ci = roc_auc_interval(y, np.r_[np.zeros(n_min), np.ones(n_min)], confidence=1 - alpha)
    assert ci.low == pytest.approx(bound)


def test_a_class_with_one_row_gives_nan_and_a_warning():
    y = np.array([0, 0, 0, 1, 1, 1, 2])
    S = np.array(
        [
            [0.6, 0.3, 0.1],
            [0.3, 0.5, 0.2],
            [0.5, 0.2, 0.3],
            [0.2, 0.6, 0.2],
            [0.4, 0.4, 0.2],
            [0.3, 0.3, 0.4],
            [0.2, 0.3, 0.5],
        ]
    )
    with pytest.warns(IntervalWarning, match=r"at least 2 rows.*class 2 \(1 row\)"):
        ci = roc_auc_interval(y, S)
    assert np.isnan(ci.low) and np.isnan(ci.high)
    assert ci.estimate == pytest.approx(roc_auc_score(y, S, multi_class="ovr"))
    covariance = stratified_covariance(np.ones((2, y.size)), y, 3)
    assert np.all(np.isnan(covariance))


def test_a_row_of_weight_zero_does_not_count_as_a_row():
    y = np.array([0, 0, 0, 1, 1, 1])
    s = np.array([0.1, 0.4, 0.3, 0.35, 0.8, 0.7])
    with pytest.warns(IntervalWarning, match="1 row"):
        ci = roc_auc_interval(y, s, sample_weight=[1, 1, 1, 1, 0, 0])
    assert np.isnan(ci.low)


def test_all_tied_scores_give_a_zero_width_interval_at_one_half():
    y = np.repeat([0, 1, 2], 4)
    ci = roc_auc_interval(y, np.full((12, 3), 1 / 3), multi_class="ovo")
    assert (ci.estimate, ci.low, ci.high) == (0.5, 0.5, 0.5)
    binary = roc_auc_interval(y[:8] > 0, np.zeros(8))
    assert (binary.estimate, binary.low, binary.high) == (0.5, 0.5, 0.5)


def binormal_asymptotic_variance(shift, n1, n0):
    """Var(Phi(X1)) / n1 + Var(Phi(shift - X0)) / n0 for X1 ~ N(shift, 1), X0 ~ N(0, 1), by quadrature.

    The placement of a positive x1 is P(X0 < x1) = Phi(x1), that of a negative
    x0 is P(X1 > x0) = Phi(shift - x0); shift - X0 ~ N(shift, 1) as X1, so both
    placements have the same variance E[Phi(U)^2] - AUC^2, U ~ N(shift, 1).
    """
    area = norm.cdf(shift / np.sqrt(2))
    second_moment = integrate.quad(lambda x: norm.cdf(x) ** 2 * norm.pdf(x - shift), -np.inf, np.inf)[0]
    placement_variance = second_moment - area**2
    return area, placement_variance / n1 + placement_variance / n0


def test_a_million_binary_rows_without_overflow():
    rng = np.random.default_rng(11)
    n1, n0, shift = 400_000, 600_000, 1.0
    y = np.r_[np.ones(n1, int), np.zeros(n0, int)]
    s = rng.normal(size=y.size) + shift * y
    ci = roc_auc_interval(y, s)
    area, variance = binormal_asymptotic_variance(shift, n1, n0)
    assert ci.estimate == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert abs(ci.estimate - area) < 5 * np.sqrt(variance)
    # the interval's width gives back the variance: within 2% of the binormal asymptotic value
    width_variance = ((logit(ci.high) - logit(ci.low)) / (2 * Z95) * ci.estimate * (1 - ci.estimate)) ** 2
    assert width_variance == pytest.approx(variance, rel=0.02)


@pytest.mark.slow
def test_a_million_rows_of_ten_classes():
    rng = np.random.default_rng(12)
    n, m = 1_000_000, 10
    y = rng.integers(0, m, n)
    S = rng.random((n, m)) + 0.5 * (y[:, None] == np.arange(m))
    S /= S.sum(axis=1, keepdims=True)
    found = auc_influences(y, S, None, [("ovr", None), ("ovo", "macro")])
    per_class, class_influences = found["ovr", None]
    assert abs(per_class[0] - sklearn_metrics.roc_auc_score(y == 0, S[:, 0])) < 1e-12
    covariance = stratified_covariance(np.vstack((class_influences, found["ovo", "macro"][1])), y, m)
    assert np.all(np.isfinite(covariance)) and np.all(np.diag(covariance) > 0)
    assert np.all(np.sqrt(np.diag(covariance)) < 1e-2)  # of order 1 / sqrt(n)


# --------------------------------------------------------------------------- intervals and tests


def test_logit_interval_formula_and_vectorisation():
    estimate = np.array([0.7, 0.95, 1.0, 0.0, 0.6, np.nan])
    variance = np.array([0.01, 0.0004, 0.0, 0.0, np.nan, 0.01])
    low, high = logit_interval(estimate, variance, 0.9, np.array([5, 5, 5, 5, 5, 5]))
    z = norm.ppf(0.95)
    for i in range(2):
        half = z * np.sqrt(variance[i]) / (estimate[i] * (1 - estimate[i]))
        assert low[i] == pytest.approx(1 / (1 + np.exp(-(np.log(estimate[i] / (1 - estimate[i])) - half))))
        assert high[i] == pytest.approx(1 / (1 + np.exp(-(np.log(estimate[i] / (1 - estimate[i])) + half))))
        assert low[i] < estimate[i] < high[i]
    assert (low[2], high[2]) == pytest.approx((0.05**0.2, 1.0))
    assert (low[3], high[3]) == pytest.approx((0.0, 1 - 0.05**0.2))
    assert np.isnan(low[4:]).all() and np.isnan(high[4:]).all()
    assert np.isnan(logit_interval(1.0, 0.0, 0.95, 0)[0])


def test_identical_models_do_not_differ():
    y = np.array([0, 0, 0, 1, 1, 1])
    s = np.array([0.1, 0.6, 0.3, 0.35, 0.8, 0.7])
    estimate, influence = auc_influences(y, np.column_stack((1 - s, s)), None, [("ovr", "macro")])["ovr", "macro"]
    assert auc_difference(estimate, influence, estimate, influence, y, 2, 0.95) == (0.0, 0.0, 0.0, 0.0, 1.0)


def test_paired_difference_is_the_normal_test_on_the_covariance():
    rng = np.random.default_rng(3)
    y, S, _ = random_problem(rng, 3, 60, False, decimals=2)
    T = S + rng.normal(scale=0.2, size=S.shape).clip(-0.3, 0.3)
    T = np.abs(T) / np.abs(T).sum(axis=1, keepdims=True)
    key = ("ovo", "macro")
    (a, da), (b, db) = auc_influences(y, S, None, [key])[key], auc_influences(y, T, None, [key])[key]
    expected = oracle_statistics(y, S, None)[key], oracle_statistics(y, T, None)[key]
    covariance = oracle_covariance(np.vstack((expected[0][1], expected[1][1])), y, None)
    se = np.sqrt(covariance[0, 0] + covariance[1, 1] - 2 * covariance[0, 1])
    difference, low, high, z, p = auc_difference(a, da, b, db, y, 3, 0.9)
    assert difference == pytest.approx(expected[0][0] - expected[1][0], abs=1e-12)
    assert z == pytest.approx(difference / se)
    assert p == pytest.approx(2 * norm.sf(abs(difference / se)))
    assert (low, high) == pytest.approx((difference - norm.ppf(0.95) * se, difference + norm.ppf(0.95) * se))


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize("confidence", [0, 1.5, 1.0, np.nan])
def test_confidence_outside_the_unit_interval_is_refused(confidence):
    with pytest.raises(ValueError, match="confidence"):
        roc_auc_interval([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], confidence=confidence)


def test_confidence_that_is_not_a_number_is_a_type_error():
    with pytest.raises(TypeError, match="confidence"):
        roc_auc_interval([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], confidence="0.95")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"multi_class": "raise"}, r"multi_class must be one of 'ovr', 'ovo'"),
        ({"average": "samples"}, r"average.*'macro', 'weighted', 'micro'"),
        ({"average": "samples"}, r"average.*'macro', 'weighted', 'micro', None"),
        ({"multi_class": "ovo", "average": None}, r"average \(multi_class='ovo'\).*'macro', 'weighted'"),
        ({"multi_class": "ovo", "average": "micro"}, r"average \(multi_class='ovo'\).*'macro', 'weighted'"),
    ],
)
def test_unknown_options_are_refused_with_the_valid_ones(options, message):
    y = [0, 1, 2, 0, 1, 2]
    S = np.full((6, 3), 1 / 3)
    with pytest.raises(ValueError, match=message):
        roc_auc_interval(y, S, **options)


def test_bad_scores_are_refused():
    with pytest.raises(ValueError, match="1-D"):
        roc_auc_interval([0, 1, 2, 0], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(ValueError, match="sum to 1"):
        roc_auc_interval([0, 1, 2], [[0.5, 0.5, 0.5]] * 3)
    with pytest.raises(ValueError, match="NaN"):
        roc_auc_interval([0, 1, 0], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="inconsistent"):
        roc_auc_interval([0, 1, 0], [0.1, 0.3])
    with pytest.raises(ValueError, match="only one class"):
        roc_auc_interval([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="keys must be among"):
        auc_influences(np.array([0, 1]), np.eye(2), None, [("ovo", None)])


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ([[0.5, 0.5, 0.5]] * 3, r"must sum to 1 \(row 0 sums to 1.5, 3 rows off\); rescale them"),
        ([[1.2, -0.1, -0.1]] * 3, r"negative values .*\(map logits through softmax first"),
    ],
)
def test_scores_off_the_simplex_suggest_no_option_it_lacks(scores, message):
    """roc_auc_interval has no normalize_rows or from_logits: the message does not suggest them."""
    with pytest.raises(ValueError, match=message) as raised:
        roc_auc_interval([0, 1, 2], scores)
    assert "normalize_rows" not in str(raised.value) and "from_logits" not in str(raised.value)
