"""zero_division and the undefined-metric warnings: exactly the undefined classes are filled."""

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm

from polyroc import counts as pc
from polyroc import metrics as pm
from polyroc.exceptions import UndefinedMetricWarning
from tests.metrics.label_cases import (
    assert_close,
    quietly,
)

# class 1 never predicted, class 2 predicted but absent from the truth, class 3 absent everywhere
NEVER_PREDICTED = np.array([[3, 0, 1, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])


@pytest.mark.parametrize(
    "metric, match, undefined",
    [
        (pc.precision, "Precision is ill-defined", [1, 3]),
        (pc.recall, "Recall is ill-defined", [2, 3]),
        (pc.f1, "F-score is ill-defined", [3]),
        (pc.youden, "Youden's J is ill-defined", [2, 3]),
        (pc.heidke_skill, "Heidke skill score is ill-defined", [3]),
    ],
)
def test_zero_division_fills_exactly_the_undefined_classes(metric, match, undefined):
    with pytest.warns(UndefinedMetricWarning, match=match):
        warned = metric(NEVER_PREDICTED, average=None)
    defined = np.setdiff1d(np.arange(4), undefined)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # explicit values never warn
        for fill in (0.0, 1.0, np.nan):
            values = metric(NEVER_PREDICTED, average=None, zero_division=fill)
            np.testing.assert_array_equal(values[undefined], fill)
            np.testing.assert_array_equal(values[defined], warned[defined])
    np.testing.assert_array_equal(warned[undefined], 0.0)


def test_zero_division_values_for_precision():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fill in (0.0, 1.0, np.nan):
            np.testing.assert_array_equal(
                pc.precision(NEVER_PREDICTED, average=None, zero_division=fill), [0.6, fill, 0.0, fill]
            )
        assert pc.precision(NEVER_PREDICTED, zero_division=np.nan) == 0.3  # NaN left out of the mean
        assert pc.precision(NEVER_PREDICTED, zero_division=1.0) == 0.65


def test_f_uses_zero_division_only_when_class_absent_everywhere():
    per_class = pc.f1(NEVER_PREDICTED, average=None, zero_division=1.0)
    np.testing.assert_array_equal(per_class, [6 / 9, 0.0, 0.0, 1.0])


def test_specificity_undefined_when_every_sample_is_the_class():
    counts = np.array([[4, 1], [0, 0]])
    with pytest.warns(UndefinedMetricWarning, match="Specificity is ill-defined"):
        assert pc.specificity(counts, average=None).tolist() == [0.0, 0.8]


def test_kappa_undefined_matches_sklearn_replacement():
    with pytest.warns(UndefinedMetricWarning, match="cohen_kappa_score is undefined"):
        assert np.isnan(pm.cohen_kappa_score([0, 0, 0], [0, 0, 0], labels=[0, 1]))
    for fill in (0.0, 1.0, -0.5, np.nan):
        expected = quietly(skm.cohen_kappa_score, [0, 0, 0], [0, 0, 0], labels=[0, 1], replace_undefined_by=fill)
        ours = quietly(pm.cohen_kappa_score, [0, 0, 0], [0, 0, 0], labels=[0, 1], replace_undefined_by=fill)
        assert_close(ours, expected)


def test_balanced_accuracy_warns_for_classes_without_true_samples():
    with pytest.warns(UndefinedMetricWarning, match="no true samples"):
        assert pc.balanced_accuracy(NEVER_PREDICTED) == 0.375  # mean of 3/4 and 0
    assert pc.METRICS["balanced_accuracy"](NEVER_PREDICTED) == 0.375


def test_registry_metrics_do_not_warn_on_degenerate_counts():
    degenerate = np.array([NEVER_PREDICTED, np.zeros((4, 4), int), np.diag([5, 0, 0, 0])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for metric in pc.METRICS.values():
            metric(degenerate)
