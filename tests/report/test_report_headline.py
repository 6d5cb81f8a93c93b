"""The report's headline ranks the models by the tuning metric with its paired test, not by ROC-DMF D.

Three synthetic models whose macro-F1 order (scikit-learn's f1_score) differs from their D order: A is always
right but its scores barely clear the runner-up at varying levels (a poor ranking of rows), B and C are sharp
but wrong on 12% and 25% of rows.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics import f1_score

from polyroc import compare_scores
from polyroc.report import build_report
from polyroc.report._readings import _ranking_verdict, verdicts

pytestmark = pytest.mark.slow  # builds whole reports: not in the quick run (-m "not slow")


def _three_models(seed=0, per=40, m=3):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(m), per)
    n = y.size
    level = rng.uniform(0.36, 0.6, n)
    runner = np.minimum(level - 0.02, 1 - level)
    other = (y + 1 + rng.integers(0, m - 1, n)) % m
    a = np.tile(((1 - level - runner) / (m - 2))[:, None], (1, m))
    a[np.arange(n), other], a[np.arange(n), y] = runner, level

    def sharp(wrong_share):
        wrong = rng.random(n) < wrong_share
        scores = np.full((n, m), 0.05)
        scores[np.arange(n), np.where(wrong, (y + 1) % m, y)] = 0.9
        return scores / scores.sum(axis=1, keepdims=True)

    return y, {"C": sharp(0.25), "A": a, "B": sharp(0.12)}


@pytest.fixture(scope="module")
def ranked():
    y, models = _three_models()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = build_report(y, models, n_boot=200, random_state=0)
    return y, models, report


def test_headline_ranks_by_the_tuning_metric_not_by_d(ranked):
    y, models, report = ranked
    f1 = {name: f1_score(y, scores.argmax(1), average="macro") for name, scores in models.items()}
    by_f1 = sorted(f1, key=f1.get, reverse=True)
    d = {name: report.results["models"][name]["dmf"]["D"] for name in models}
    assert by_f1 == ["A", "B", "C"] and sorted(d, key=d.get, reverse=True) != by_f1  # the premise
    headline = verdicts(report.results)[0]
    assert headline.startswith("Ranked by f1_macro on test")
    assert f"A 1.000 > B {f1['B']:.3f} > C {f1['C']:.3f}" in headline
    # A is right on every row B gets wrong (14 of 120): its lead holds in the paired test
    assert "A is ahead of B" in headline and "ROC-DMF" not in headline
    explanation = [line for line in verdicts(report.results) if line.startswith("ROC-DMF D and the Gini AUC")]
    assert len(explanation) == 1 and "not how often the decisions are right" in explanation[0]
    html = report.to_html().split('id="summary"')[1].split("</section>")[0]
    assert "Best by ROC-DMF D" not in html and "Ranked by f1_macro" in html


def test_headline_says_cannot_tell_when_the_first_two_differ_on_few_rows():
    """ "fixed" equals B but on 3 rows it gets right: higher macro-F1, yet 3 differing rows support no ranking."""
    y, models = _three_models()
    better = models["B"].copy()
    fixed = np.flatnonzero(better.argmax(1) != y)[:3]
    better[fixed] = np.eye(3)[y[fixed]] * 0.85 + 0.05
    pair = {"fixed": better, "B": models["B"]}
    result = compare_scores(y, pair, quantities=["accuracy", "f1_macro"], n_boot=200, random_state=0)
    results = {
        "models": {name: {} for name in pair},
        "paired_tests": result.to_dict(),
        "settings": {"metric": "f1_macro"},
        "skipped": {},
    }
    headline = _ranking_verdict(results)
    f1 = {name: f1_score(y, scores.argmax(1), average="macro") for name, scores in pair.items()}
    assert f1["fixed"] > f1["B"]
    assert headline.startswith(
        f"Ranked by f1_macro on test (the tuning metric; argmax decisions): fixed {f1['fixed']:.3f}"
    )
    assert "the test data cannot tell fixed from B" in headline and "ahead" not in headline
