"""The report's decisions section: its costs equal ``expected_cost`` of the same decisions; its intervals are
the t intervals computed by hand (plain at the test's shares, stratified at target priors) and cover the
expected costs of a simulated model; its priors are ``estimate_priors`` called directly; its reading claims
no more than the interval supports."""

import numpy as np
import pytest
from scipy.special import softmax
from scipy.stats import sem, t

from polyroc.decisions import estimate_priors, expected_cost
from polyroc.report import build_report
from polyroc.report._decision_readings import decisions_reading, difference_words
from polyroc.report._inputs import check_report_inputs
from polyroc.report._readings import model_readings
from tests.report.report_steps import run_decisions_step

COSTS = np.array([[0.0, 1.0, 1.0], [5.0, 0.0, 1.0], [2.0, 1.0, 0.0]])


def _data(seed, n, m=3):
    """Calibrated scores and labels drawn from them."""
    rng = np.random.default_rng(seed)
    q = softmax(rng.normal(size=(n, m)) + 1.5 * np.eye(m)[rng.integers(0, m, n)], axis=1)
    y = np.minimum((rng.random(n)[:, None] > np.cumsum(q, axis=1)).sum(axis=1), m - 1)
    return y, q


def _run(y, scores, *, costs=COSTS, **options):
    """The inputs, the decisions analysis and the results document of one model named "model" (no figures)."""
    return run_decisions_step(y, scores, costs=costs, **options)


def _stratified_t(values, y, weights=None, confidence=0.95):
    """Oracle: sum_c (w_c/W)^2 s_c^2 / n_c with s_c the class's sample sd (unit row weights within a class),
    and Student's t with n - k degrees of freedom."""
    classes = np.unique(y)
    n = values.size
    share = np.array([np.mean(y == c) for c in classes]) if weights is None else weights
    means = np.array([values[y == c].mean() for c in classes])
    variance = sum(share[k] ** 2 * values[y == c].var(ddof=1) / np.sum(y == c) for k, c in enumerate(classes))
    mean = float(share @ means)
    half = t.ppf(0.5 + confidence / 2, n - classes.size) * np.sqrt(variance)
    return mean, mean - half, mean + half


def test_costs_equal_expected_cost_of_the_same_decisions_and_bayes_is_the_brute_force_argmin():
    y, q = _data(0, 400)
    y_val, q_val = _data(1, 300)
    _, analysis, results = _run(y, q, y_val=y_val, val_scores=q_val)
    decisions = analysis.decisions.decisions
    np.testing.assert_array_equal(decisions["argmax"], q.argmax(axis=1))
    brute = np.array([min(range(3), key=lambda j: sum(p[i] * COSTS[i, j] for i in range(3))) for p in q])
    np.testing.assert_array_equal(decisions["bayes"], brute)
    tau = results["models"]["model"]["decisions"]["thresholds"]
    np.testing.assert_array_equal(decisions["tuned"], (q - np.array([tau[c] for c in "012"])).argmax(axis=1))
    record = results["models"]["model"]["decisions"]
    for rule, decided in decisions.items():
        assert record["costs"][rule]["estimate"] == pytest.approx(expected_cost(y, decided, cost_matrix=COSTS), 1e-12)
    for row in record["differences"]:
        want = expected_cost(y, decisions[row["rule"]], cost_matrix=COSTS) - expected_cost(
            y, decisions["argmax"], cost_matrix=COSTS
        )
        assert row["estimate"] == pytest.approx(want, abs=1e-12)
        assert row["changed_rows"] == int(np.sum(decisions[row["rule"]] != decisions["argmax"]))


def _plain_t(values, confidence=0.95):
    """Oracle: scipy's t interval of a mean, s / sqrt(n) with n - 1 degrees of freedom."""
    low, high = t.interval(confidence, values.size - 1, loc=values.mean(), scale=sem(values))
    return values.mean(), low, high


def test_intervals_at_the_test_shares_are_the_plain_t_interval():
    y, q = _data(2, 300)
    _, analysis, results = _run(y, q)
    record = results["models"]["model"]["decisions"]
    rows = {rule: COSTS[y, decided] for rule, decided in analysis.decisions.decisions.items()}
    mean, low, high = _plain_t(rows["bayes"])
    assert (record["costs"]["bayes"]["low"], record["costs"]["bayes"]["high"]) == pytest.approx((low, high), 1e-9)
    mean, low, high = _plain_t(rows["bayes"] - rows["argmax"])
    (row,) = record["differences"]
    assert (row["estimate"], row["low"], row["high"]) == pytest.approx((mean, low, high), 1e-9)


def test_costs_at_given_priors_equal_expected_cost_with_priors_and_their_stratified_interval():
    y, q = _data(3, 300)
    priors = np.array([0.2, 0.3, 0.5])
    _, analysis, results = _run(y, q, target_priors=priors)
    at = results["models"]["model"]["decisions"]["at_priors"]
    assert at["source"] == "given" and at["prior_intervals"] is None
    for rule, decided in analysis.decisions.decisions.items():
        want = expected_cost(y, decided, cost_matrix=COSTS, priors=priors)
        assert at["costs"][rule]["estimate"] == pytest.approx(want, 1e-12)
        _, low, high = _stratified_t(COSTS[y, decided], y, weights=priors)
        assert (at["costs"][rule]["low"], at["costs"][rule]["high"]) == pytest.approx((max(low, 0.0), high), 1e-9)


def test_estimated_priors_are_estimate_priors_from_the_validation_shares():
    y, q = _data(4, 300)
    y_val, q_val = _data(5, 200)
    _, _, results = _run(y, q, y_val=y_val, val_scores=q_val, target_priors="estimate", n_boot=40)
    at = results["models"]["model"]["decisions"]["at_priors"]
    shares = np.bincount(y_val, minlength=3) / y_val.size
    direct = estimate_priors(q, train_priors=shares, n_boot=40, random_state=0)
    assert list(at["priors"].values()) == pytest.approx(direct.priors.tolist(), abs=1e-12)
    for k, name in enumerate("012"):
        assert at["prior_intervals"][name]["low"] == pytest.approx(direct.intervals[k].low, abs=1e-12)
        assert at["prior_intervals"][name]["method"] == direct.intervals[k].method
    assert "priors held fixed" in at["costs"]["bayes"]["method"]


def test_identical_rules_differ_by_exactly_zero_and_the_reading_says_so():
    y, q = _data(7, 120)
    _, _, results = _run(y, q, costs=1 - np.eye(3))  # 0-1 costs: the Bayes rule is argmax
    (row,) = results["models"]["model"]["decisions"]["differences"]
    assert (row["estimate"], row["low"], row["high"], row["changed_rows"]) == (0.0, 0.0, 0.0, 0)
    assert "degenerate (zero width)" in row["method"]
    reading = model_readings(results["models"]["model"], results)["decisions"]
    assert "decides every test row as argmax does" in reading


@pytest.mark.parametrize(
    "low, high, words",
    [(-0.3, -0.1, "saves 0.20 per case against argmax, 95% CI [0.10, 0.30]"),
     (0.1, 0.3, "costs 0.20 more per case than argmax, 95% CI [0.10, 0.30]"),
     (-0.1, 0.5, "no clear difference")],
)  # fmt: skip
def test_the_reading_claims_no_more_than_the_interval(low, high, words):
    row = {"rule": "bayes", "estimate": 0.2 if low > 0 else (-0.2 if high < 0 else 0.2), "low": low, "high": high,
           "changed_rows": 5}  # fmt: skip
    assert words in difference_words(row, "95%")


def test_bad_decision_inputs_are_refused_before_any_work():
    y, q = _data(8, 60)
    with pytest.raises(ValueError, match="target_priors weighs the costs"):
        check_report_inputs(y, q, target_priors=[0.2, 0.3, 0.5])
    with pytest.raises(ValueError, match="needs validation data"):
        check_report_inputs(y, q, cost_matrix=COSTS, target_priors="estimate")
    with pytest.raises(ValueError, match=r"cost_matrix must have shape \(3, 3\)"):
        check_report_inputs(y, q, cost_matrix=np.ones((2, 2)))
    with pytest.raises(ValueError, match="target_priors must be a distribution"):
        check_report_inputs(y, q, cost_matrix=COSTS, target_priors=[0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="must be non-negative"):
        check_report_inputs(y, q, cost_matrix=-COSTS)


def test_no_cost_matrix_leaves_results_as_they_were():
    y, q = _data(9, 60)
    _, analysis, results = _run(y, q, costs=None)
    assert analysis.decisions is None
    assert "decisions" not in results["models"]["model"] and "cost_matrix" not in results["settings"]


@pytest.mark.slow
def test_the_page_shows_the_section_with_its_numbers_and_reading():
    y, q = _data(10, 150)
    y_val, q_val = _data(11, 150)
    report = build_report(y, q, y_val=y_val, val_scores=q_val, n_boot=20, random_state=0, cost_matrix=COSTS,
                          target_priors=[0.2, 0.3, 0.5])  # fmt: skip
    html = report.to_html()
    record = report.results["models"]["model"]["decisions"]
    assert "Decisions under the cost matrix" in html and "at priors given" in html
    assert f"{record['costs']['bayes']['estimate']:.3f}" in html
    reading = decisions_reading(record, 0.95)
    assert reading == report.readings["model"]["decisions"]
    assert reading.split(".")[0] in html


@pytest.mark.slow
def test_the_intervals_cover_the_expected_costs_of_a_known_model():
    """Scores calibrated by construction: a rule's expected cost is E[q @ C[:, d(q)]], taken on 10^6 draws
    (Monte Carlo error ~0.001); 400 test sets of 300 rows; 95% intervals must cover 91.5% to 97.5% of the time
    (binomial sd 0.011). This run: 0.930, 0.925 (paired), 0.958, 0.945 (at priors). Measured with 2,000 sets:
    plain 0.936, paired 0.934 (200 rows), 0.946-0.954 (1,000 rows); at target priors 0.941-0.956. On 50 rows
    the paired interval covers 0.911: the t interval of a mean of skewed costs undercovers on few rows."""
    from polyroc.decisions import bayes_decision

    priors = np.array([0.6, 0.2, 0.2])
    Y, Q = _data(100, 1_000_000)
    big = {"argmax": COSTS[Y, Q.argmax(axis=1)], "bayes": COSTS[Y, bayes_decision(Q, cost_matrix=COSTS)]}
    truth = {rule: values.mean() for rule, values in big.items()}
    at_truth = {rule: sum(priors[c] * values[Y == c].mean() for c in range(3)) for rule, values in big.items()}
    hits = np.zeros(4)
    for seed in range(400):
        y, q = _data(1000 + seed, 300)
        _, _, results = _run(y, q, target_priors=priors)
        record = results["models"]["model"]["decisions"]
        (row,) = record["differences"]
        (at_row,) = record["at_priors"]["differences"]
        at = record["at_priors"]["costs"]["bayes"]
        hits += [
            record["costs"]["bayes"]["low"] <= truth["bayes"] <= record["costs"]["bayes"]["high"],
            row["low"] <= truth["bayes"] - truth["argmax"] <= row["high"],
            at["low"] <= at_truth["bayes"] <= at["high"],
            at_row["low"] <= at_truth["bayes"] - at_truth["argmax"] <= at_row["high"],
        ]
    coverage = hits / 400
    assert np.all((coverage >= 0.915) & (coverage <= 0.975)), coverage
