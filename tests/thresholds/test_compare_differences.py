"""compare_rules(n_boot=...): paired differences on test against scikit-learn, a hand-made t, paired_rule_scores."""

import json
import warnings

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import accuracy_score, f1_score

from polyroc.resampling import paired_rule_scores
from polyroc.thresholds import apply_thresholds, frechet_predict
from polyroc.thresholds.compare import compare_rules
from polyroc.thresholds.competing import ordinal_distance

COSTS = np.array([[0.0, 1.0, 1.0, 2.0], [1.0, 0.0, 1.0, 1.0], [2.0, 1.0, 0.0, 1.0], [8.0, 6.0, 3.0, 0.0]])


def _problem(seed, n=600, m=4):
    """Labels drawn from the scores (calibrated), half to tune and half to test."""
    rng = np.random.default_rng(seed)
    P = rng.dirichlet(np.full(m, 0.8), n)
    y = (rng.random(n)[:, None] > P.cumsum(axis=1)).sum(axis=1)
    return y[: n // 2], P[: n // 2], y[n // 2 :], P[n // 2 :]


def _bayes(P, C):
    """The decision of least expected cost of each row, by hand: argmin over d of sum_k p_k C[k, d]."""
    return np.argmin(P @ C, axis=1)


def _by_pair(table):
    return {(row["rule"], row["baseline"]): row for row in table.differences}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("metric", ["accuracy", "f1_macro"])
def test_metric_differences_are_sklearn_differences_with_the_paired_rule_scores_intervals(seed, metric):
    y_val, P_val, y, P = _problem(seed)
    D = ordinal_distance(4)
    table = compare_rules(
        y, P, y_val=y_val, val_scores=P_val, metric=metric, distances=D, resolution=16, n_boot=300, random_state=seed
    )
    sk = accuracy_score if metric == "accuracy" else (lambda t, p: f1_score(t, p, average="macro", labels=range(4)))
    decisions = {
        "argmax": P.argmax(axis=1),
        "tuned": apply_thresholds(P, table.tuning.best_threshold),
        "frechet": frechet_predict(P, D),
    }
    pairs = _by_pair(table)
    assert list(pairs) == [("tuned", "argmax"), ("frechet", "argmax")]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        direct = paired_rule_scores(
            y, decisions, metric=metric, labels=range(4), baseline="argmax", n_boot=300, random_state=seed
        )
    for rule in ("tuned", "frechet"):
        row = pairs[(rule, "argmax")]
        expected = sk(y, decisions[rule]) - sk(y, decisions["argmax"])
        assert row["difference"] == pytest.approx(expected, abs=1e-12)
        interval = direct.differences[rule]
        assert (row["low"], row["high"]) == pytest.approx((interval.low, interval.high), abs=1e-12)
        assert row["method"].startswith(interval.method) and row["confidence"] == 0.95
        assert 0 <= row["p_value"] <= 1


def test_weighted_metric_differences_equal_paired_rule_scores():
    y_val, P_val, y, P = _problem(5)
    w = np.random.default_rng(5).integers(1, 4, y.size).astype(float)
    table = compare_rules(
        y,
        P,
        y_val=y_val,
        val_scores=P_val,
        metric="accuracy",
        sample_weight=w,
        resolution=16,
        n_boot=200,
        random_state=2,
        confidence=0.9,
    )
    tuned = apply_thresholds(P, table.tuning.best_threshold)
    decisions = {"argmax": P.argmax(axis=1), "tuned": tuned, "frechet": P.argmax(axis=1)}
    with warnings.catch_warnings():  # frechet is argmax: paired_rule_scores warns of its 0 changed rows
        warnings.simplefilter("ignore")
        direct = paired_rule_scores(
            y,
            decisions,
            labels=range(4),
            baseline="argmax",
            sample_weight=w,
            n_boot=200,
            random_state=2,
            confidence=0.9,
        )
    row = _by_pair(table)[("tuned", "argmax")]
    expected = accuracy_score(y, tuned, sample_weight=w) - accuracy_score(y, P.argmax(axis=1), sample_weight=w)
    assert row["difference"] == pytest.approx(expected, abs=1e-12)
    interval = direct.differences["tuned"]
    assert (row["low"], row["high"]) == pytest.approx((interval.low, interval.high), abs=1e-12)
    assert row["confidence"] == 0.9


@pytest.mark.parametrize("seed", range(3))
def test_cost_differences_are_means_of_row_costs_with_the_plain_paired_t(seed):
    y_val, P_val, y, P = _problem(seed)
    table = compare_rules(
        y, P, y_val=y_val, val_scores=P_val, metric="expected_cost", cost_matrix=COSTS, resolution=16, n_boot=1
    )
    decisions = {
        "argmax": P.argmax(axis=1),
        "tuned": apply_thresholds(P, table.tuning.best_threshold),
        "bayes": _bayes(P, COSTS),
    }
    pairs = _by_pair(table)
    assert list(pairs) == [("tuned", "argmax"), ("bayes", "argmax"), ("frechet", "argmax"), ("tuned", "bayes")]
    tested = 0
    for rule, baseline in [("tuned", "argmax"), ("bayes", "argmax"), ("tuned", "bayes")]:
        first, second = COSTS[y, decisions[rule]], COSTS[y, decisions[baseline]]
        row = pairs[(rule, baseline)]
        assert row["difference"] == pytest.approx(first.mean() - second.mean(), abs=1e-12)
        assert row["method"] == "paired t (plain variance)"
        if np.array_equal(first, second):
            continue
        test = stats.ttest_rel(first, second)  # Student's paired t, the plain variance, n - 1 degrees of freedom
        assert row["p_value"] == pytest.approx(test.pvalue, rel=1e-9)
        d = first - second
        half = stats.t.ppf(0.975, d.size - 1) * d.std(ddof=1) / np.sqrt(d.size)
        assert (row["low"], row["high"]) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-9)
        tested += 1
    assert tested >= 2
    frechet = pairs[("frechet", "argmax")]  # the complete graph: the Fréchet rule is argmax, the difference is 0
    assert (frechet["difference"], frechet["low"], frechet["high"], frechet["p_value"]) == (0.0, 0.0, 0.0, 1.0)
    assert "degenerate (zero width)" in frechet["method"] and "decide alike on every row" in frechet["method"]


def test_without_n_boot_the_outputs_are_unchanged():
    y_val, P_val, y, P = _problem(1)
    plain = compare_rules(y, P, y_val=y_val, val_scores=P_val, resolution=10)
    asked = compare_rules(y, P, y_val=y_val, val_scores=P_val, resolution=10, n_boot=50, random_state=0)
    assert plain.differences == [] and "n_boot" not in plain.settings
    assert list(plain.to_frame().columns) == ["rule", "measure", "validation", "test"]
    assert "paired differences" not in plain.to_text()
    assert asked.rows == plain.rows
    assert asked.to_text().startswith(plain.to_text() + "\npaired differences on test (95% CI")
    frame = asked.to_frame()
    assert list(frame.columns) == ["rule", "measure", "validation", "test", "low", "high", "p_value", "method"]
    assert frame["rule"].tolist()[-2:] == ["tuned - argmax", "frechet - argmax"]
    assert frame["test"].tolist()[-2:] == [row["difference"] for row in asked.differences]
    assert json.loads(json.dumps(asked.to_dict()))["differences"][0]["rule"] == "tuned"
    assert "tuned - argmax" in asked._repr_html_()
    assert asked.differences_frame().shape == (2, 8) and plain.differences_frame().shape == (0, 8)


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"n_boot": 0}, ValueError, "n_boot"),
        ({"n_boot": 2.5}, TypeError, "n_boot"),
        ({"n_boot": True}, TypeError, "n_boot"),
        ({"n_boot": 10, "confidence": 1.0}, ValueError, "confidence"),
        ({"n_boot": 10, "confidence": "high"}, TypeError, "confidence"),
        ({"n_boot": 10, "random_state": -1}, ValueError, "random_state"),
    ],
)
def test_bad_interval_options_are_refused(options, error, match):
    y_val, P_val, y, P = _problem(0, n=60)
    with pytest.raises(error, match=match):
        compare_rules(y, P, y_val=y_val, val_scores=P_val, resolution=5, **options)
