"""Scores off the simplex: every public function's message suggests only options it has.

The shared check (:func:`polyroc._validation.check_score_matrix`) can suggest
``normalize_rows=True`` or ``from_logits=True``; a function without those
parameters must say to rescale the rows or apply softmax instead. Each case
calls one public function as a user would, with rows that do not sum to 1 and
with a negative score, and compares the message with the function's signature.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin

import polyroc
from polyroc import plotting, streaming, thresholds
from polyroc.intervals import roc_auc_interval

OPTIONS = ("normalize_rows", "from_logits")
Y = np.array([0, 1, 2] * 4)
P = np.random.default_rng(0).dirichlet(np.ones(3), Y.size)
TAU = np.full(3, 1 / 3)
NEGATIVE = P.copy()
NEGATIVE[3] = [1.2, -0.1, -0.1]
BAD_ROWS = {
    "off the simplex": (P * 1.2, r"rows of \S+ must sum to 1 \(row 0 sums to 1\.2"),
    "negative": (NEGATIVE, r"has negative values \(first in row 3"),
}


class ScoresAsProbabilities(ClassifierMixin, BaseEstimator):
    """A fitted classifier whose ``predict_proba`` returns X itself."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.asarray(X, dtype=float)


def _frame(scores):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    table = pd.DataFrame({"a": scores[:, 0], "b": scores[:, 1], "c": scores[:, 2], "label": np.array(list("abc"))[Y]})
    return dd.from_pandas(table, npartitions=2)


def _dask():
    return pytest.importorskip("polyroc.dask")


#: name -> (the callable whose signature lists the user's options, a call with scores S).
CASES = {
    "evaluate": (polyroc.evaluate, lambda S: polyroc.evaluate(Y, S, n_boot=0)),
    "compare_scores": (polyroc.compare_scores, lambda S: polyroc.compare_scores(Y, {"a": P, "b": S})),
    "build_report": (polyroc.build_report, lambda S: polyroc.build_report(Y, S, n_boot=1)),
    "build_report(val_scores)": (
        polyroc.build_report,
        lambda S: polyroc.build_report(Y, P, y_val=Y, val_scores=S, n_boot=1),
    ),
    "roc_auc_interval": (roc_auc_interval, lambda S: roc_auc_interval(Y, S)),
    "apply_thresholds": (thresholds.apply_thresholds, lambda S: thresholds.apply_thresholds(S, TAU)),
    "frechet_predict": (thresholds.frechet_predict, lambda S: thresholds.frechet_predict(S)),
    "inflated_argmax": (thresholds.inflated_argmax, lambda S: thresholds.inflated_argmax(S)),
    "tune_thresholds": (thresholds.tune_thresholds, lambda S: thresholds.tune_thresholds(Y, S, resolution=4)),
    "TuningResult.predict": (
        thresholds.TuningResult.predict,
        lambda S: thresholds.tune_thresholds(Y, P, resolution=4).predict(S),
    ),
    "roc_cloud": (thresholds.roc_cloud, lambda S: thresholds.roc_cloud(Y, S, resolution=4)),
    "threshold_batches": (
        thresholds.threshold_batches,
        lambda S: list(thresholds.threshold_batches(Y, S, resolution=4)),
    ),
    "coordinate_profile": (thresholds.coordinate_profile, lambda S: thresholds.coordinate_profile(Y, S, TAU)),
    "compare_rules": (
        thresholds.compare_rules,
        lambda S: thresholds.compare_rules(Y, S, y_val=Y, val_scores=P, resolution=4),
    ),
    "compare_rules(val_scores)": (
        thresholds.compare_rules,
        lambda S: thresholds.compare_rules(Y, P, y_val=Y, val_scores=S, resolution=4),
    ),
    "SimplexThresholdClassifier": (
        thresholds.SimplexThresholdClassifier,
        lambda S: thresholds.SimplexThresholdClassifier(ScoresAsProbabilities().fit(S, Y), cv="prefit").fit(S, Y),
    ),
    "RocCloudDisplay": (
        plotting.RocCloudDisplay.from_predictions,
        lambda S: plotting.RocCloudDisplay.from_predictions(Y, S, resolution=4),
    ),
    "SimplexHeatmapDisplay": (
        plotting.SimplexHeatmapDisplay.from_predictions,
        lambda S: plotting.SimplexHeatmapDisplay.from_predictions(Y, S, resolution=4),
    ),
    "TuningProfileDisplay": (
        plotting.TuningProfileDisplay.from_predictions,
        lambda S: plotting.TuningProfileDisplay.from_predictions(Y, S, threshold=TAU),
    ),
    "DecisionRegionsDisplay": (
        plotting.DecisionRegionsDisplay.from_predictions,
        lambda S: plotting.DecisionRegionsDisplay.from_predictions(Y, S),
    ),
    **{
        f"{name}.update": (
            getattr(streaming, name).update,
            lambda S, name=name: getattr(streaming, name)([0, 1, 2]).update(Y, S),
        )
        for name in streaming.__all__
    },
    "EvaluationAccumulator.update(empty batch)": (
        streaming.EvaluationAccumulator.update,
        lambda S: streaming.EvaluationAccumulator([0, 1, 2]).update(np.array([], dtype=int), S),
    ),
    "dask.evaluate": (lambda: _dask().evaluate, lambda S: _dask().evaluate(_frame(S), n_boot=0)),
    "dask.tune_thresholds": (
        lambda: _dask().tune_thresholds,
        lambda S: _dask().tune_thresholds(_frame(S), resolution=4),
    ),
    "dask.sample_rows": (lambda: _dask().sample_rows, lambda S: _dask().sample_rows(_frame(S))),
}


@pytest.mark.parametrize("rows", BAD_ROWS, ids=BAD_ROWS.keys())
@pytest.mark.parametrize("case", CASES, ids=CASES.keys())
def test_bad_rows_suggest_only_options_of_the_function(case, rows):
    owner, call = CASES[case]
    if case.startswith("dask."):
        owner = owner()
    scores, problem = BAD_ROWS[rows]
    parameters = inspect.signature(owner).parameters
    with pytest.raises(ValueError, match=problem) as raised:
        call(scores)
    message = str(raised.value)
    for option in OPTIONS:
        if option not in parameters:
            assert option not in message, f"{case} has no {option} but its message suggests it: {message}"
    if all(option in parameters for option in OPTIONS):
        assert "from_logits=True" in message, f"{case} has the options but its message does not say so: {message}"
    else:
        assert "softmax" in message, f"{case}: the message should say how to transform the rows: {message}"
