"""The options that the public functions of counts, curves, probability, evaluation and intervals declare.

Each is checked by :func:`polyroc._validation._params.validate_params` before any
work, with the message ``<name> must be <the admitted values>; got <the value>``.
"""

from __future__ import annotations

import numpy as np
import pytest

import polyroc.counts as pc
from polyroc.comparison import compare_scores, holm_adjusted
from polyroc.curves import macro_roc_curve, ovr_roc_curve
from polyroc.evaluation import evaluate
from polyroc.intervals import (
    paired_difference_interval,
    posterior_interval,
    proportion_interval,
    roc_auc_interval,
    stratified_mean_interval,
    weighted_proportion_interval,
)
from polyroc.probability import one_hot, softmax
from polyroc.resampling import ConfidenceInterval, bootstrap_multiplicities, paired_rule_scores, percentile_interval
from polyroc.streaming import EvaluationAccumulator, LossAccumulator

Y = np.array([0, 1, 2, 0, 1, 2])
P = np.eye(3)[[0, 1, 2, 1, 1, 0]] * 0.8 + 0.2 / 3
COUNTS = [[3, 1], [0, 4]]
SEED = r"None, an int in \[0, inf\) or a numpy.random.Generator"

CASES = {
    "precision average": (lambda: pc.precision(COUNTS, average="binary"), ValueError, "average must be one of"),
    "fbeta beta": (lambda: pc.fbeta(COUNTS, beta=np.nan), ValueError, r"beta must be a real number in \[0, inf\)"),
    "f1 average list": (lambda: pc.f1(COUNTS, average=["macro"]), TypeError, "average must be one of"),
    "cohen_kappa weights": (
        lambda: pc.cohen_kappa(COUNTS, weights="cubic"),
        ValueError,
        "weights must be one of None, 'linear', 'quadratic'; got 'cubic'",
    ),
    "get_metric": (lambda: pc.get_metric(None), TypeError, "metric must be a str or a callable; got NoneType None"),
    "ovr_roc_curve micro": (lambda: ovr_roc_curve(Y, P, micro="no"), ValueError, "micro must be one of True, False"),
    "macro_roc_curve": (lambda: macro_roc_curve(None), TypeError, "curves must be a polyroc.curves.OvrRocCurves"),
    "softmax temperature": (lambda: softmax([1.0], temperature=0), ValueError, r"temperature must be a real number"),
    "softmax axis": (lambda: softmax([1.0], axis=True), TypeError, r"axis must be an int in \(-inf, inf\); got bool"),
    "one_hot n_classes": (lambda: one_hot([0], 0), ValueError, r"n_classes must be None or an int in \[1, inf\)"),
    "evaluate confidence": (lambda: evaluate(Y, P, confidence=0), ValueError, r"confidence must be a real number"),
    "evaluate random_state": (lambda: evaluate(Y, P, random_state=-1), ValueError, "random_state must be " + SEED),
    "LossAccumulator k": (lambda: LossAccumulator([0, 1, 2], k=0), ValueError, r"k must be an int in \[1, inf\)"),
    "EvaluationAccumulator.compute n_boot": (
        lambda: EvaluationAccumulator([0, 1, 2]).update(Y, P).compute(n_boot=-1),
        ValueError,
        r"n_boot must be an int in \[0, inf\); got -1",
    ),
    "proportion_interval method": (
        lambda: proportion_interval(1, 2, method="exact"),
        ValueError,
        "method must be one of 'wilson', 'clopper-pearson', 'jeffreys'; got 'exact'",
    ),
    "weighted_proportion_interval confidence": (
        lambda: weighted_proportion_interval([True, False], confidence="0.9"),
        TypeError,
        r"confidence must be a real number in \(0, 1\); got str '0.9'",
    ),
    "paired_difference_interval confidence": (
        lambda: paired_difference_interval(1, 0, 4, confidence=np.inf),
        ValueError,
        r"confidence must be a real number in \(0, 1\); got inf",
    ),
    "roc_auc_interval multi_class": (
        lambda: roc_auc_interval(Y, P, multi_class="raise"),
        ValueError,
        "multi_class must be one of 'ovr', 'ovo'; got 'raise'",
    ),
    "posterior_interval n_draws": (
        lambda: posterior_interval(Y, Y, n_draws=2.0),
        TypeError,
        r"n_draws must be an int in \[1, inf\); got float 2.0",
    ),
    "stratified_mean_interval n_classes": (
        lambda: stratified_mean_interval([1.0, 2.0], [0, 0], True),
        TypeError,
        r"n_classes must be an int in \[1, inf\); got bool True",
    ),
    "bootstrap_multiplicities stratify": (
        lambda: bootstrap_multiplicities(Y, 2, stratify="yes"),
        ValueError,
        "stratify must be one of True, False",
    ),
    "percentile_interval confidence": (
        lambda: percentile_interval([1.0], confidence=1),
        ValueError,
        r"confidence must be a real number in \(0, 1\); got 1",
    ),
    "ConfidenceInterval.from_bounds n_draws": (
        lambda: ConfidenceInterval.from_bounds(0.5, 0.4, 0.6, interval_method="formula", n_draws=0),
        ValueError,
        r"n_draws must be None or an int in \[1, inf\); got 0",
    ),
    "paired_rule_scores random_state": (
        lambda: paired_rule_scores(Y, {"a": Y}, random_state=1.5),
        TypeError,
        "random_state must be " + SEED + "; got float 1.5",
    ),
    "compare_scores n_boot": (
        lambda: compare_scores(Y, {"a": P, "b": P}, n_boot=0),
        ValueError,
        r"n_boot must be an int in \[1, inf\); got 0",
    ),
}


@pytest.mark.parametrize(("call", "error", "message"), CASES.values(), ids=CASES.keys())
def test_declared_options_raise_the_uniform_message(call, error, message):
    with pytest.raises(error, match="^" + message) as caught:
        call()
    assert type(caught.value) is error


def test_admitted_values_keep_their_results():
    assert pc.METRICS["f1_macro"](np.array([COUNTS] * 2)).tolist() == [pc.f1(COUNTS, zero_division=0.0)] * 2
    assert softmax([1.0, 2.0], axis=np.int64(0)).tolist() == softmax([1.0, 2.0]).tolist()
    assert one_hot([1], np.int64(2)).tolist() == [[0.0, 1.0]]
    assert LossAccumulator([0, 1], k=np.int64(1)).k == 1 and type(LossAccumulator([0, 1], k=np.int64(1)).k) is int
    ci = ConfidenceInterval.from_bounds(
        0.5, 0.4, 0.6, interval_method="formula", confidence=np.float32(0.9), n_draws=np.int64(10)
    )
    assert ci.settings["confidence"] == float(np.float32(0.9)) and type(ci.settings["n_draws"]) is int
    seeded = [evaluate(Y, P, random_state=seed).intervals["f1_macro"].low for seed in (3, np.int64(3))]
    assert seeded[0] == seeded[1]
    assert holm_adjusted([0.5]).tolist() == [0.5]
