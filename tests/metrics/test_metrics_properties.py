"""Hypothesis properties of the label metrics and of the counts metrics registry."""

import warnings

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from polyroc import counts as pc
from polyroc import metrics as pm
from tests.metrics.label_cases import O8

counts_batches = st.integers(2, 5).flatmap(
    lambda m: hnp.arrays(np.int64, st.tuples(st.integers(1, 4), st.just(m), st.just(m)), elements=st.integers(0, 12))
)
OVR_METRICS = [pc.precision, pc.recall, pc.f1, pc.specificity, pc.youden, pc.heidke_skill]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.floats(0.0, 5.0)), min_size=1, max_size=40))
def test_counts_sum_to_the_total_weight(rows):
    y_true, y_pred, weights = map(np.array, zip(*rows))
    weights[0] += 1.0
    counts = pm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2, 3], sample_weight=weights)
    np.testing.assert_allclose(counts.sum(), weights.sum(), rtol=1e-12)
    assert pm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2, 3]).sum() == len(rows)


@given(counts_batches)
def test_macro_is_the_mean_of_the_per_class_values(counts):
    for metric in OVR_METRICS:
        per_class = metric(counts, average=None, zero_division=0.0)
        np.testing.assert_allclose(metric(counts, average="macro", zero_division=0.0), per_class.mean(axis=-1))


@given(counts_batches)
def test_micro_f1_precision_recall_equal_accuracy(counts):
    counts = counts + np.eye(counts.shape[-1], dtype=np.int64)  # total > 0
    accuracy = pc.accuracy(counts)
    for metric in (pc.precision, pc.recall, pc.f1):
        np.testing.assert_allclose(metric(counts, average="micro"), accuracy, rtol=1e-12)


@settings(max_examples=50)
@given(counts_batches)
def test_batch_equals_the_per_matrix_loop(counts):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # registry metrics never warn
        for name, metric in pc.METRICS.items():
            batch = metric(counts)
            assert batch.shape == counts.shape[:1], name
            np.testing.assert_allclose(batch, [metric(c) for c in counts], equal_nan=True, err_msg=name)


@given(counts_batches)
def test_float_counts_give_the_same_values(counts):
    for name, metric in pc.METRICS.items():
        np.testing.assert_allclose(metric(counts.astype(float)), metric(counts), equal_nan=True, err_msg=name)


def test_registry_names_and_aliases():
    required = {
        "accuracy",
        "balanced_accuracy",
        "precision_macro",
        "recall_macro",
        "f1_macro",
        "f1_micro",
        "f1_weighted",
        "precision_weighted",
        "recall_weighted",
        "cohen_kappa",
        "cohen_kappa_linear",
        "cohen_kappa_quadratic",
        "matthews_corrcoef",
        "mcc",
        "youden_macro",
        "tss",
        "heidke_skill_macro",
        "hss",
    }
    assert required <= set(pc.METRICS)
    assert pc.get_metric("mcc") is pc.METRICS["matthews_corrcoef"]
    assert pc.get_metric("tss")(O8) == pc.youden(O8)
    assert pc.get_metric("hss")(O8) == pc.heidke_skill(O8)
    assert pc.get_metric("f1_weighted")(O8) == pc.f1(O8, average="weighted")
    assert pc.get_metric(pc.accuracy) is pc.accuracy


def test_registry_on_a_large_batch():
    counts = np.random.default_rng(0).integers(0, 50, (100_000, 4, 4))
    values = pc.get_metric("f1_macro")(counts)
    assert values.shape == (100_000,)
    np.testing.assert_allclose(values[:3], [pc.f1(c, zero_division=0.0) for c in counts[:3]])
