"""Readings keep to their intervals: no "beat", "better" or "over" where the interval cannot support it.

One rule (``polyroc.resampling.supported_sign``) decides for the readings and for the warnings: an interval
that holds zero, has zero width, or is a bootstrap over fewer than ``FEW_CHANGED_ROWS`` rows where the two
rules (models) differ supports no direction. The data are synthetic (no download).
"""

import warnings

import numpy as np
import pytest
from scipy.stats import binomtest

from polyroc import compare_scores
from polyroc.report import build_report
from polyroc.report._readings import paired_tests_reading, verdicts
from polyroc.resampling import FEW_CHANGED_ROWS, paired_rule_scores, supported_sign

pytestmark = pytest.mark.slow  # builds whole reports: not in the quick run (-m "not slow")


def _rows(k, scores):
    return np.tile(scores, (k, 1))


@pytest.fixture(scope="module")
def zoo_like_report():
    """Like UCI zoo's 26 test rows: tuning on validation moves one test row, the only row of its class.

    Validation: class 2's rows score (0.5, 0.1, 0.4), so argmax calls them class 0 and the tuned threshold
    favours class 2. Test: 12 + 12 rows of classes 0 and 1 scored far from any threshold, and one class-2 row
    scored like validation's: the tuned rule and argmax differ on that row only. A stratified bootstrap always
    draws a one-row class's row, so the interval of tuned − argmax has zero width.
    """
    sure_0, sure_1, unsure = [0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.5, 0.1, 0.4]
    y_val, val = np.repeat([0, 1, 2], [10, 10, 6]), np.vstack([_rows(10, sure_0), _rows(10, sure_1), _rows(6, unsure)])
    y, test = np.repeat([0, 1, 2], [12, 12, 1]), np.vstack([_rows(12, sure_0), _rows(12, sure_1), _rows(1, unsure)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return build_report(y, {"m": test}, y_val=y_val, val_scores={"m": val}, n_boot=50, random_state=0)


def test_zoo_like_summary_does_not_say_beat_from_a_zero_width_interval(zoo_like_report):
    report = zoo_like_report
    tuning = report.results["models"]["m"]["tuning"]["test_scores"]
    difference = tuning["differences"]["tuned"]
    assert difference["low"] == difference["high"] > 0  # the symptom: a point "interval" above zero
    summary = " ".join(verdicts(report.results))
    assert "beat" not in summary
    # one row differs and the tuned rule is right there: the exact sign test of 1 of 1 (scipy) is p = 1
    assert tuning["changed_rows"]["tuned"] == {
        "rows": 1,
        "only_rule_right": 1,
        "only_baseline_right": 0,
        "sign_test_p": binomtest(1, 1).pvalue,
    }
    reading = report.readings["m"]["tuning"]
    for text in (summary, reading):
        assert "beat" not in text and "better" not in text
        assert "cannot be told apart" in text or "cannot tell" in text
        assert "only 1 test row" in text and "p = 1.000" in text
    # the Warnings section says the same of the same rows
    assert any("predict differently on only 1 row," in w["message"] for w in report.results["warnings"])
    assert "beat argmax" not in report.to_html().split('id="summary"')[1].split("</section>")[0]


def _two_models_differing_on(rows_differing, n_per_class=40, m=3):
    """Two models' scores: equal everywhere but ``rows_differing`` rows, where only the first is right."""
    y = np.repeat(np.arange(m), n_per_class)
    right = 0.1 + 0.7 * np.eye(m)[y]
    wrong = 0.1 + 0.7 * np.eye(m)[(y + 1) % m]
    first, second = right.copy(), right.copy()
    changed = np.arange(rows_differing) * (y.size // rows_differing)  # spread over the classes
    second[changed] = wrong[changed]
    return y, {"first": first, "second": second}


def test_a_bootstrap_difference_on_few_differing_rows_is_not_read_as_a_difference():
    """5 rows differ, all for the first model: the percentile interval of macro-F1 excludes 0 (a replicate draws
    none of the 5 rows with probability about e^-5) and its p-value is small, yet 5 rows cannot support it."""
    y, models = _two_models_differing_on(5)
    result = compare_scores(y, models, quantities=["f1_macro"], n_boot=400, random_state=0)
    (row,) = result.comparisons
    assert row["low"] > 0 and row["p_holm"] < 0.05  # what the reading used to report as a difference
    reading = paired_tests_reading({"paired_tests": result.to_dict(), "skipped": {}})
    assert reading.startswith("No pair of models differs")
    assert "first − second on f1_macro" in reading and "only 5 rows" in reading
    predictions = {name: scores.argmax(1) for name, scores in models.items()}
    assert row["changed_rows"] == int(np.sum(predictions["first"] != predictions["second"])) == 5


def test_enough_differing_rows_keep_the_difference():
    y, models = _two_models_differing_on(30)
    result = compare_scores(y, models, quantities=["f1_macro"], n_boot=400, random_state=0)
    (row,) = result.comparisons
    assert row["changed_rows"] == 30 and row["low"] > 0
    reading = paired_tests_reading({"paired_tests": result.to_dict(), "skipped": {}})
    assert reading.startswith("After Holm") and "first over second on f1_macro" in reading


@pytest.mark.parametrize("n_changed", [1, FEW_CHANGED_ROWS - 1, FEW_CHANGED_ROWS, 25])
def test_the_warning_and_the_rule_agree_on_too_few_rows(n_changed):
    y = np.repeat([0, 1, 2], 20)
    tuned = y.copy()
    tuned[:n_changed] = (y[:n_changed] + 1) % 3
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = paired_rule_scores(y, {"argmax": y, "tuned": tuned}, baseline="argmax", n_boot=100, random_state=0)
    warned = any("predict differently" in str(w.message) for w in caught)
    assert result.changed_rows["tuned"]["rows"] == n_changed
    # an interval far from zero: only the number of rows decides
    assert (supported_sign(-0.5, -0.1, n_changed) == 0) == warned == (n_changed < FEW_CHANGED_ROWS)


def test_rule_on_zero_width_undefined_and_exact_intervals():
    assert supported_sign(0.007, 0.007, 50) == 0  # zero width: a bootstrap that cannot vary
    assert supported_sign(float("nan"), 0.3) == 0
    assert supported_sign(0.01, 0.2, None) == 1  # an exact or score interval: valid at any count
    assert supported_sign(-0.2, -0.01, 12) == -1
    assert supported_sign(-0.2, 0.01, 500) == 0
