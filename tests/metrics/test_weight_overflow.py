"""Sample weights whose total overflows float64 are refused where they are given, naming the argument.

Each weight is finite, their sum is not: weighted counts in the user's units
(a confusion matrix, a support) would be infinite. Every public entry that
takes ``sample_weight`` says so at validation, instead of an infinite matrix
or a "counts contains NaN or infinity" far from the cause; weights just below
the limit keep scikit-learn's answers.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.linear_model import LogisticRegression

import polyroc as pr
from polyroc import comparison, curves, dmf, gini, resampling
from polyroc import intervals as iv
from polyroc import metrics as pm
from polyroc import thresholds as th

RNG = np.random.default_rng(0)
Y = np.repeat([0, 1, 2], 10)
P = RNG.dirichlet(np.ones(3), 30)
PRED = P.argmax(axis=1)
SETS = P > 0.3
HUGE = np.full(30, 1e308)  # each finite, the total 3e309 is not
TAU = np.full(3, 1 / 3)


def _call(name, *args, **options):
    """``polyroc.metrics.<name>(*args, **options)`` with the weights given."""
    function = getattr(pm, name)
    return lambda w: function(*args, sample_weight=w, **options)


ENTRIES = {
    "evaluate": lambda w: pr.evaluate(Y, P, sample_weight=w, n_boot=0),
    "compare_scores": lambda w: comparison.compare_scores(Y, {"a": P, "b": P[::-1]}, sample_weight=w, n_boot=10),
    "ovr_roc_curve": lambda w: curves.ovr_roc_curve(Y, P, sample_weight=w),
    "ovr_precision_recall_curve": lambda w: curves.ovr_precision_recall_curve(Y, P, sample_weight=w),
    "dmf.roc_dmf": lambda w: dmf.roc_dmf(Y, P, sample_weight=w),
    "dmf.pairwise_rates": lambda w: dmf.pairwise_rates(Y, P, sample_weight=w),
    "dmf.compare_models": lambda w: dmf.compare_models(Y, {"a": P, "b": P[::-1]}, sample_weight=w, n_boot=5),
    "dmf.majority_cost_weights": lambda w: dmf.majority_cost_weights(Y, 3, sample_weight=w),
    "gini_index": lambda w: gini.gini_index(P[:, 0], sample_weight=w),
    "gini_mean_difference": lambda w: gini.gini_mean_difference(P[:, 0], sample_weight=w),
    "gini_roc": lambda w: gini.gini_roc(Y, P, sample_weight=w),
    "multidimensional_gini": lambda w: gini.multidimensional_gini(P, sample_weight=w),
    "zca_cor_whitening": lambda w: gini.zca_cor_whitening(P, sample_weight=w),
    "effective_sample_size": lambda w: iv.effective_sample_size(w),
    "posterior_interval": lambda w: iv.posterior_interval(Y, PRED, sample_weight=w),
    "roc_auc_interval": lambda w: iv.roc_auc_interval(Y, P, sample_weight=w),
    "stratified_mean_interval": lambda w: iv.stratified_mean_interval(P[:, 0], Y, 3, w),
    "weighted_proportion_interval": lambda w: iv.weighted_proportion_interval(Y == PRED, w),
    "paired_rule_scores": lambda w: resampling.paired_rule_scores(
        Y, {"a": PRED, "b": PRED[::-1]}, sample_weight=w, n_boot=10
    ),
    "tune_thresholds": lambda w: th.tune_thresholds(Y, P, sample_weight=w, resolution=5),
    "compare_rules": lambda w: th.compare_rules(Y, P, y_val=Y, val_scores=P, sample_weight=w),
    "compare_rules val_sample_weight": lambda w: th.compare_rules(Y, P, y_val=Y, val_scores=P, val_sample_weight=w),
    "coordinate_profile": lambda w: th.coordinate_profile(Y, P, TAU, sample_weight=w),
    "roc_cloud": lambda w: th.roc_cloud(Y, P, sample_weight=w),
    "threshold_batches": lambda w: list(th.threshold_batches(Y, P, sample_weight=w)),
    "coverage": lambda w: th.coverage(Y, SETS, sample_weight=w),
    "singleton_rate": lambda w: th.singleton_rate(Y, SETS, sample_weight=w),
    "average_set_size": lambda w: th.average_set_size(Y, SETS, sample_weight=w),
    "accuracy_among_singletons": lambda w: th.accuracy_among_singletons(Y, SETS, sample_weight=w),
    "singleton_correct": lambda w: th.singleton_correct(Y, SETS, sample_weight=w),
    **{
        name: _call(name, Y, PRED)
        for name in (
            "accuracy_score",
            "balanced_accuracy_score",
            "classification_report",
            "cohen_kappa_score",
            "confusion_matrix",
            "heidke_skill_score",
            "matthews_corrcoef",
            "specificity_score",
            "youden_score",
        )
    },
    **{
        name: _call(name, Y, PRED, average="macro")
        for name in ("f1_score", "precision_score", "recall_score", "precision_recall_fscore_support")
    },
    "fbeta_score": lambda w: pm.fbeta_score(Y, PRED, beta=2.0, average="macro", sample_weight=w),
    "average_precision_score": lambda w: pm.average_precision_score(Y, P, sample_weight=w),
    "brier_score_loss": lambda w: pm.brier_score_loss(Y, P, sample_weight=w),
    "log_loss": lambda w: pm.log_loss(Y, P, sample_weight=w),
    "roc_auc_score": lambda w: pm.roc_auc_score(Y, P, multi_class="ovr", sample_weight=w),
    "top_k_accuracy_score": lambda w: pm.top_k_accuracy_score(Y, P, k=2, sample_weight=w),
    **{name: _call(name, Y == 0, P[:, 0]) for name in ("roc_curve", "precision_recall_curve", "det_curve")},
    "SimplexThresholdClassifier.fit": lambda w: th.SimplexThresholdClassifier(
        LogisticRegression().fit(P, Y), cv="prefit", resolution=5
    ).fit(P, Y, sample_weight=w),
}


@pytest.mark.parametrize("entry", ENTRIES)
def test_an_overflowing_total_names_sample_weight(entry):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # whatever else the call would warn about
        name = "val_sample_weight" if entry.endswith("val_sample_weight") else "sample_weight"
        with pytest.raises(ValueError, match=rf"^{name} sums past the largest float64 \(1\.798e\+308\)"):
            ENTRIES[entry](HUGE)


def test_weights_just_below_the_limit_give_the_unweighted_answers():
    near = np.full(30, np.finfo(np.float64).max / 32)  # total 30/32 of the largest float64
    assert pr.accuracy_score(Y, PRED, sample_weight=near) == pytest.approx(skm.accuracy_score(Y, PRED), rel=1e-12)
    assert pr.f1_score(Y, PRED, average="macro", sample_weight=near) == pytest.approx(
        skm.f1_score(Y, PRED, average="macro"), rel=1e-12
    )
    counts = pr.confusion_matrix(Y, PRED, sample_weight=near)
    np.testing.assert_allclose(counts / near[0], skm.confusion_matrix(Y, PRED), rtol=1e-12)
    result = pr.evaluate(Y, P, sample_weight=near, n_boot=0)
    assert result.scores["accuracy"] == pytest.approx(skm.accuracy_score(Y, PRED), rel=1e-12)
    assert result.scores["log_loss"] == pytest.approx(skm.log_loss(Y, P), rel=1e-12)


def _frame():
    pd = pytest.importorskip("pandas")
    dd = pytest.importorskip("dask.dataframe")
    names = np.array(["a", "b", "c"])
    table = pd.DataFrame({"y": names[Y], "a": P[:, 0], "b": P[:, 1], "c": P[:, 2], "w": 1e308 / 10})
    return dd.from_pandas(table, npartitions=6)  # each partition's total is finite, the frame's is not


@pytest.mark.parametrize("entry", ["evaluate", "tune_thresholds", "ovr_roc_curve"])
def test_dask_entries_name_the_weight_column_when_the_frame_total_overflows(entry):
    frame = _frame()
    from polyroc import dask as polyroc_dask

    options = {"label_col": "y", "score_cols": ["a", "b", "c"], "sample_weight_col": "w"}
    if entry == "evaluate":
        options["n_boot"] = 0
    if entry == "tune_thresholds":
        options["resolution"] = 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match=r"^sample_weight_col 'w' sums past the largest float64"):
            getattr(polyroc_dask, entry)(frame, **options)
