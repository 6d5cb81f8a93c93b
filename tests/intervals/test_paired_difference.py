"""Tango's score interval of a paired difference of proportions, against a brute-force oracle and published figures.

The oracle restates Tango's definition (Tango 1998, Statistics in Medicine 17, 891-902): the interval is the set
of differences d whose score statistic lies within ±z, the statistic using the maximum-likelihood cell
probabilities under d. Here that maximum is found numerically by scipy (no closed form), the set is located by a
dense grid scan of d and its ends refined by root finding on the oracle's own statistic.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest, multinomial, norm

from polyroc import compare_scores
from polyroc.intervals import paired_difference_interval
from tests._oracles.tango import tango_interval

SMALL_TABLES = [(0, 0, 1), (1, 0, 1), (0, 1, 2), (1, 1, 2), (0, 0, 5), (3, 0, 3), (2, 0, 5), (0, 4, 6), (2, 1, 8)]
SMALL_TABLES += [(1, 7, 21), (5, 5, 10), (7, 0, 30), (12, 3, 40)]


@pytest.mark.parametrize(("b", "c", "n"), SMALL_TABLES)
def test_bounds_equal_a_grid_scan_of_the_score_statistic(b, c, n):
    low, high = paired_difference_interval(b, c, n)
    expected = tango_interval(b, c, n)
    assert (low, high) == pytest.approx(expected, abs=1e-6)


def test_other_confidence_levels_equal_the_grid_scan():
    for confidence in (0.8, 0.99):
        assert paired_difference_interval(4, 1, 12, confidence=confidence) == pytest.approx(
            tango_interval(4, 1, 12, confidence), abs=1e-6
        )


def test_published_example_of_fagerland_lydersen_and_laake():
    """Airway hyper-responsiveness before and after stem cell transplantation (Bentur et al. 2009): 1 and 7
    discordant pairs of 21. Fagerland, Lydersen & Laake (2014), Statistics in Medicine 33, 2850-2875,
    doi:10.1002/sim.6148, give Tango's asymptotic score interval -0.517 to -0.026 for the difference."""
    low, high = paired_difference_interval(1, 7, 21)
    assert (round(low, 3), round(high, 3)) == (-0.517, -0.026)


@given(st.integers(1, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.integers(0, n), st.just(n))))
def test_at_zero_the_statistic_is_mcnemars_and_the_interval_excludes_zero_as_mcnemars_test_rejects(table):
    """Tango (1998) notes that the score test of d = 0 is McNemar's: (b - c) / sqrt(b + c) beyond z."""
    b, c, n = table
    if b + c > n:
        b, c = b * n // (b + c), c * n // (b + c)
    low, high = paired_difference_interval(b, c, n)
    assert -1 <= low <= (b - c) / n <= high <= 1
    if b + c == 0:
        return
    mcnemar = abs(b - c) / np.sqrt(b + c)
    if abs(mcnemar - norm.ppf(0.975)) > 1e-9:
        assert (low > 0 or high < 0) == (mcnemar > norm.ppf(0.975))


def test_no_discordant_row_gives_the_closed_form_width():
    """With b = c = 0 the set |n d| <= z sqrt(n |d| (1 - |d|)) is |d| <= z^2 / (n + z^2) (Tango 1998)."""
    z2 = norm.ppf(0.975) ** 2
    for n in (1, 10, 1000, 10**7):
        assert paired_difference_interval(0, 0, n) == pytest.approx((-z2 / (n + z2), z2 / (n + z2)), rel=1e-9)


def _exact_coverage(n, first_only, second_only, interval):
    """Probability that ``interval(b, c, n)`` holds the true difference, over every multinomial table."""
    truth = first_only - second_only
    covered = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            low, high = interval(b, c, n)
            if low <= truth <= high:
                covered += multinomial.pmf(
                    [b, c, n - b - c], n, [first_only, second_only, 1 - first_only - second_only]
                )
    return covered


def _conditional_interval(b, c, n):
    """The interval compare_scores gave before: Clopper-Pearson of b / (b + c) scaled by the observed share b + c."""
    if b + c == 0:
        high = 1 - 0.025 ** (1 / n)
        return -high, high
    ci = binomtest(b, b + c).proportion_ci(0.95, method="exact")
    share = (b + c) / n
    return share * (2 * ci.low - 1), share * (2 * ci.high - 1)


@pytest.mark.slow
def test_exact_coverage_when_every_discordant_row_favours_one_model():
    """n = 60 rows, 10% of them right for the first model only and none for the second: the conditional interval's
    upper bound is the estimate itself, so it covers about half the time; Tango's stays near 95%."""
    assert _exact_coverage(60, 0.1, 0.0, _conditional_interval) < 0.6
    assert _exact_coverage(60, 0.1, 0.0, paired_difference_interval) >= 0.93


def _models_with_table(b, c, n, m=3, seed=0):
    """Two models' score matrices on n rows: b rows only the first gets right, c only the second, the rest both."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    y[:m] = np.arange(m)
    right, wrong = np.eye(m)[y], np.eye(m)[(y + 1) % m]
    first, second = right.copy(), right.copy()
    rows = rng.permutation(n)
    first[rows[:c]], second[rows[c : b + c]] = wrong[rows[:c]], wrong[rows[c : b + c]]
    smooth = lambda p: (p + 0.1) / (1 + 0.1 * m)  # noqa: E731
    return y, {"first": smooth(first), "second": smooth(second)}


@pytest.mark.parametrize(("b", "c", "n"), [(492, 0, 14500), (40, 10, 300), (3, 0, 26), (0, 0, 50)])
def test_compare_scores_gives_tangos_interval_and_mcnemars_exact_p_value(b, c, n):
    """On shuttle's scale (14,500 rows, 492 discordant, all one way) the interval is near the paired Wald
    interval [0.0310, 0.0369], not the conditional [0.0334, 0.0339]."""
    y, models = _models_with_table(b, c, n)
    (row,) = compare_scores(y, models, quantities=["accuracy"]).comparisons
    assert row["difference"] == pytest.approx((b - c) / n, abs=1e-15)
    assert (row["low"], row["high"]) == pytest.approx(tango_interval(b, c, n), abs=1e-6)
    assert row["p_value"] == pytest.approx(binomtest(b, b + c).pvalue if b + c else 1.0, abs=1e-15)
    assert row["method"] == "McNemar exact test; Tango score interval"
    if (b, c, n) == (492, 0, 14500):
        wald = norm.ppf(0.975) * np.sqrt((b + c) / n - ((b - c) / n) ** 2) / np.sqrt(n)
        assert row["low"] == pytest.approx(b / n - wald, abs=5e-4) and row["high"] == pytest.approx(
            b / n + wald, abs=5e-4
        )


def test_weighted_counts_are_refused_with_the_argument_named():
    with pytest.raises(ValueError, match="only_first must be non-negative whole numbers"):
        paired_difference_interval(2.5, 1, 10)
    with pytest.raises(ValueError, match="n must be at least"):
        paired_difference_interval(6, 5, 10)
    with pytest.raises(ValueError, match="n must be at least"):
        paired_difference_interval(0, 0, 0)


def test_binomial_sanity_when_no_row_is_concordant_wrong():
    """A table whose rows are all discordant is a binomial of b in n: its score interval is Wilson's for b/n
    mapped to 2p - 1, as the score statistic of d then is the one of p = (1 + d) / 2."""
    for b, n in ((3, 10), (0, 7), (12, 12)):
        low, high = paired_difference_interval(b, n - b, n)
        p = binomtest(b, n).proportion_ci(0.95, method="wilson")
        assert (low, high) == pytest.approx((2 * p.low - 1, 2 * p.high - 1), abs=1e-9)


def test_weighted_accuracy_is_not_given_the_unweighted_tango_interval():
    """Tango's interval counts rows: under sample weights accuracy is compared by the paired bootstrap instead."""
    from sklearn.metrics import accuracy_score

    y, models = _models_with_table(12, 3, 80)
    weights = np.random.default_rng(1).uniform(0.5, 2.0, y.size)
    (row,) = compare_scores(
        y, models, quantities=["accuracy"], sample_weight=weights, n_boot=200, random_state=0
    ).comparisons
    expected = {name: accuracy_score(y, scores.argmax(1), sample_weight=weights) for name, scores in models.items()}
    assert row["difference"] == pytest.approx(expected["first"] - expected["second"], abs=1e-12)
    assert row["method"].startswith("paired stratified percentile bootstrap") and "Tango" not in row["method"]
    assert row["changed_rows"] == 15
