"""DeLong variances and paired tests of polyroc.intervals._delong against pROC (R) and exact arithmetic.

The pROC figures were computed with R 4 and pROC 1.18.0 (Robin et al. 2011,
doi:10.1186/1471-2105-12-77) by this script, and are hard-coded below::

    library(pROC)
    normal <- c(33, 6, 6, 11, 2); abnormal <- c(3, 2, 2, 11, 33)
    rating <- c(rep(1:5, normal), rep(1:5, abnormal))
    disease <- c(rep(0, sum(normal)), rep(1, sum(abnormal)))
    r <- roc(disease, rating, levels = c(0, 1), direction = "<")
    auc(r); var(r, method = "delong"); ci.auc(r, method = "delong")
    y <- c(rep(0, 12), rep(1, 9))
    a <- c(0.0, 0.3, -0.3, -0.9, -0.5, -1.0, 0.1, 1.3, -0.5, -0.6, 0.5, 0.4,
           1.3, 0.3, 1.2, 1.9, -0.1, 0.7, -0.7, -0.1, -0.6)
    b <- c(-0.2, -0.8, 0.0, -0.4, -0.4, -2.6, -0.4, 0.7, -0.2, -1.6, -0.1, -0.5,
           0.4, 1.3, 0.4, 1.4, 0.9, 0.3, -0.2, 0.3, -0.0)
    ra <- roc(y, a, levels = c(0, 1), direction = "<")
    rb <- roc(y, b, levels = c(0, 1), direction = "<")
    var(ra, method = "delong"); var(rb, method = "delong"); cov(ra, rb, method = "delong")
    roc.test(ra, rb, method = "delong", paired = TRUE)

(printed with ``format(x, digits = 17)``). pROC's ``ci.auc`` is a normal
interval on the AUC scale, polyroc's on the logit scale: the variance, the
standard error and the paired test are compared, and polyroc's bounds are
checked against the logit formula with pROC's variance.

The rating data are Hanley & McNeil's (1982, doi:10.1148/radiology.143.1.7063747)
computed-tomography table: 58 normal and 51 abnormal cases on a five-point
scale, counts 33, 6, 6, 11, 2 and 3, 2, 2, 11, 33 (published area 0.893).
"""

from fractions import Fraction

import numpy as np
import pytest
from scipy.special import expit, logit
from scipy.stats import norm
from scipy.stats import t as student_t

from polyroc.intervals._delong import auc_difference, auc_influences, roc_auc_interval, stratified_covariance
from tests._oracles.proc_figures import PROC_PAIR, SCORE_A, SCORE_B, Y

NORMAL_COUNTS = [33, 6, 6, 11, 2]
ABNORMAL_COUNTS = [3, 2, 2, 11, 33]

PROC_HANLEY_MCNEIL = {
    "auc": 0.89317106152805947,
    "var": 0.00094398927026298452,
    "ci": (0.83295232765817184, 0.95338979539794710),
}


def hanley_mcneil_rows():
    ratings = np.arange(1, 6, dtype=np.float64)
    score = np.r_[np.repeat(ratings, NORMAL_COUNTS), np.repeat(ratings, ABNORMAL_COUNTS)]
    y = np.r_[np.zeros(sum(NORMAL_COUNTS), int), np.ones(sum(ABNORMAL_COUNTS), int)]
    return y, score


def binary_influence(y, score):
    P = np.column_stack((-score, score))
    estimates, influences = auc_influences(y, P, None, [("ovr", None)])[("ovr", None)]
    return estimates[1], influences[1]


def exact_delong_variance(normal, abnormal):
    """AUC and S10 / n1 + S01 / n0 of a 2 x k rating table, in exact fractions."""
    n0, n1 = sum(normal), sum(abnormal)
    # placement of an abnormal case at rating r: normals below r, plus half those at r, over n0
    v10 = [Fraction(2 * sum(normal[:r]) + normal[r], 2 * n0) for r in range(len(normal))]
    # of a normal case at rating r: abnormals above r, plus half those at r, over n1
    v01 = [Fraction(2 * sum(abnormal[r + 1 :]) + abnormal[r], 2 * n1) for r in range(len(abnormal))]
    area = sum(count * v for count, v in zip(abnormal, v10)) / n1
    s10 = sum(count * (v - area) ** 2 for count, v in zip(abnormal, v10)) / (n1 - 1)
    s01 = sum(count * (v - area) ** 2 for count, v in zip(normal, v01)) / (n0 - 1)
    return area, s10 / n1 + s01 / n0


def exact_degrees_of_freedom(normal, abnormal):
    """Welch-Satterthwaite's degrees of freedom of S10 / n1 + S01 / n0, in exact fractions."""
    n0, n1 = sum(normal), sum(abnormal)
    area, variance = exact_delong_variance(normal, abnormal)
    v10 = [Fraction(2 * sum(normal[:r]) + normal[r], 2 * n0) for r in range(len(normal))]
    part1 = sum(count * (v - area) ** 2 for count, v in zip(abnormal, v10)) / (n1 - 1) / n1
    part0 = variance - part1
    return variance**2 / (part1**2 / (n1 - 1) + part0**2 / (n0 - 1))


def test_hanley_mcneil_exact_fractions():
    area, variance = exact_delong_variance(NORMAL_COUNTS, ABNORMAL_COUNTS)
    assert round(float(area), 3) == 0.893  # the published area
    y, score = hanley_mcneil_rows()
    estimate, influence = binary_influence(y, score)
    assert estimate == pytest.approx(float(area), abs=1e-15)
    assert stratified_covariance(influence, y, 2)[0, 0] == pytest.approx(float(variance), rel=1e-13)


def test_hanley_mcneil_against_proc():
    y, score = hanley_mcneil_rows()
    estimate, influence = binary_influence(y, score)
    variance = stratified_covariance(influence, y, 2)[0, 0]
    assert estimate == pytest.approx(PROC_HANLEY_MCNEIL["auc"], rel=1e-14)
    assert variance == pytest.approx(PROC_HANLEY_MCNEIL["var"], rel=1e-12)
    # pROC's normal interval on the AUC scale from our standard error
    half = norm.ppf(0.975) * np.sqrt(variance)
    assert (estimate - half, estimate + half) == pytest.approx(PROC_HANLEY_MCNEIL["ci"], rel=1e-12)
    # polyroc's interval: the logit formula with pROC's variance and a t quantile (Welch-Satterthwaite df)
    ci = roc_auc_interval(y, score)
    quantile = student_t.ppf(0.975, float(exact_degrees_of_freedom(NORMAL_COUNTS, ABNORMAL_COUNTS)))
    half_logit = quantile * np.sqrt(PROC_HANLEY_MCNEIL["var"]) / (estimate * (1 - estimate))
    assert ci.low == pytest.approx(expit(logit(PROC_HANLEY_MCNEIL["auc"]) - half_logit), rel=1e-12)
    assert ci.high == pytest.approx(expit(logit(PROC_HANLEY_MCNEIL["auc"]) + half_logit), rel=1e-12)
    assert ci.low < ci.estimate < ci.high
    assert ci.settings["interval_method"] == "DeLong (logit)"


def test_paired_models_against_proc():
    estimate_a, influence_a = binary_influence(Y, SCORE_A)
    estimate_b, influence_b = binary_influence(Y, SCORE_B)
    covariance = stratified_covariance(np.vstack((influence_a, influence_b)), Y, 2)
    assert (estimate_a, estimate_b) == pytest.approx((PROC_PAIR["auc_a"], PROC_PAIR["auc_b"]), rel=1e-14)
    np.testing.assert_allclose(
        covariance,
        [[PROC_PAIR["var_a"], PROC_PAIR["cov"]], [PROC_PAIR["cov"], PROC_PAIR["var_b"]]],
        rtol=1e-12,
    )
    difference, low, high, z, p_value = auc_difference(estimate_a, influence_a, estimate_b, influence_b, Y, 2, 0.95)
    assert z == pytest.approx(PROC_PAIR["z"], rel=1e-12)
    assert p_value == pytest.approx(PROC_PAIR["p"], rel=1e-10)
    se = np.sqrt(PROC_PAIR["var_a"] + PROC_PAIR["var_b"] - 2 * PROC_PAIR["cov"])
    half = norm.ppf(0.975) * se
    assert (low, high) == pytest.approx((difference - half, difference + half), rel=1e-12)


def test_the_two_column_multiclass_form_gives_the_same_paired_test():
    """OvR macro of the two-column probabilities [1 - p, p] is the binary AUC: the same test as pROC's."""

    def probabilities(score):
        p = (score - score.min()) / (score.max() - score.min())
        return np.column_stack((1 - p, p))

    a = auc_influences(Y, probabilities(SCORE_A), None, [("ovr", "macro")])["ovr", "macro"]
    b = auc_influences(Y, probabilities(SCORE_B), None, [("ovr", "macro")])["ovr", "macro"]
    _, _, _, z, p_value = auc_difference(*a, *b, Y, 2, 0.95)
    assert z == pytest.approx(PROC_PAIR["z"], rel=1e-12)
    assert p_value == pytest.approx(PROC_PAIR["p"], rel=1e-10)
