"""normalize as scikit-learn means it, and sample weights as relative importance at any scale."""

import functools

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

from polyroc import metrics as pm
from tests.metrics.label_cases import (
    assert_close,
    make_case,
    quietly,
    random_probabilities,
)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("normalize", [True, False])
def test_log_loss_normalize_matches_sklearn(seed, weighted, normalize):
    rng = np.random.default_rng(100 + seed)
    m, n = int(rng.integers(2, 6)), int(rng.integers(4, 60))
    y = rng.integers(0, m, n)
    scores = random_probabilities(rng, n, m)
    w = rng.uniform(0, 3, n) if weighted else None
    options = {"labels": np.arange(m), "sample_weight": w, "normalize": normalize}
    np.testing.assert_allclose(
        pm.log_loss(y, scores, **options), skm.log_loss(y, scores, **options), rtol=1e-13, atol=0
    )


def test_log_loss_normalize_false_is_the_sum_of_the_sample_losses():
    y = [0, 1, 1, 0]
    scores = np.array([[0.6, 0.4], [0.35, 0.65], [0.55, 0.45], [0.8, 0.2]])
    losses = -np.log([0.6, 0.65, 0.45, 0.8])
    assert_close(pm.log_loss(y, scores), losses.mean())
    assert_close(pm.log_loss(y, scores, normalize=False), losses.sum())
    weights = np.array([1.0, 2.0, 0.5, 3.0])
    assert_close(pm.log_loss(y, scores, sample_weight=weights, normalize=False), weights @ losses)
    assert_close(pm.log_loss(y, scores, sample_weight=weights), weights @ losses / weights.sum())


def test_log_loss_warns_for_rows_not_summing_to_one_as_sklearn():
    scores = np.array([[3.0, 1.0], [1.0, 1.0], [1.0, 4.0]]) / 5
    with pytest.warns(UserWarning, match="do not sum to one"):
        ours = pm.log_loss([0, 1, 1], scores)
    assert_close(ours, quietly(skm.log_loss, [0, 1, 1], scores))
    with pytest.raises(ValueError, match="normalize must be one of True, False; got 'rows'"):
        pm.log_loss([0, 1, 1], scores, normalize="rows")


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_log_loss_of_low_precision_scores_clips_at_their_epsilon_as_sklearn(dtype):
    scores = np.array([[1.0, 0.0], [0.5, 0.5], [0.25, 0.75]], dtype=dtype)
    y = [1, 0, 1]
    eps = np.finfo(dtype).eps
    # computed in the scores' own precision, as scikit-learn
    expected = -np.log(np.clip(np.array([0.0, 0.5, 0.75], dtype=dtype), eps, 1 - eps)).mean()
    assert_close(pm.log_loss(y, scores), float(expected))
    assert_close(pm.log_loss(y, scores), quietly(skm.log_loss, y, scores))


@pytest.mark.parametrize("scale", [1.0, 1e-300, 1e300])
def test_accuracy_normalize_false_is_the_weighted_number_correct(scale):
    y_true, y_pred, _, w = make_case(3, weighted=True)
    for weights in (None, w * scale):
        np.testing.assert_allclose(
            pm.accuracy_score(y_true, y_pred, sample_weight=weights, normalize=False),
            skm.accuracy_score(y_true, y_pred, sample_weight=weights, normalize=False),
            rtol=1e-13,
        )
    assert pm.accuracy_score([0, 1, 1], [0, 1, 0], normalize=False) == 2.0


# --------------------------------------------------------------------------- weights: relative importance

SCALES = [1e-300, 1e-10, 1e10, 1e300]
weight_scales = st.sampled_from(SCALES) | st.floats(1e-300, 1e300)
weighted_label_rows = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.just(0.0) | st.floats(0.01, 10.0)),
    min_size=2,
    max_size=40,
).filter(lambda rows: any(w > 0 for *_, w in rows))

SCALE_FREE_METRICS = {
    "mcc": pm.matthews_corrcoef,
    "kappa": functools.partial(pm.cohen_kappa_score, labels=[0, 1, 2, 3], replace_undefined_by=0.0),
    "kappa_quadratic": functools.partial(
        pm.cohen_kappa_score, labels=[0, 1, 2, 3], weights="quadratic", replace_undefined_by=0.0
    ),
    "f1_macro": functools.partial(pm.f1_score, labels=[0, 1, 2, 3], average="macro", zero_division=0.0),
    "f1_weighted": functools.partial(pm.f1_score, labels=[0, 1, 2, 3], average="weighted", zero_division=0.0),
    "balanced_accuracy": pm.balanced_accuracy_score,
    "accuracy": pm.accuracy_score,
}


def label_metric_values(y_true, y_pred, weights):
    return {name: quietly(metric, y_true, y_pred, sample_weight=weights) for name, metric in SCALE_FREE_METRICS.items()}


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(weighted_label_rows, weight_scales)
def test_multiplying_the_weights_by_a_constant_changes_no_metric(rows, scale):
    y_true, y_pred, weights = (np.array(column) for column in zip(*rows))
    reference = label_metric_values(y_true, y_pred, weights)
    scaled = label_metric_values(y_true, y_pred, weights * scale)
    for name, value in reference.items():
        assert abs(scaled[name] - value) <= 1e-12, (name, scaled[name], value)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5)), min_size=2, max_size=40).filter(
        lambda rows: any(w > 0 for *_, w in rows)
    ),
    st.sampled_from([0, -1000, 1000]),
)
def test_integer_weights_equal_repeated_rows_exactly(rows, power_of_two):
    y_true, y_pred, counts = (np.array(column) for column in zip(*rows))
    repeated = label_metric_values(np.repeat(y_true, counts), np.repeat(y_pred, counts), None)
    weighted = label_metric_values(y_true, y_pred, np.ldexp(counts.astype(float), power_of_two))
    assert weighted == repeated  # bit for bit: every metric is a ratio of exact counts


@pytest.mark.parametrize("scale", SCALES)
def test_weighted_counts_keep_their_units_at_any_scale(scale):
    y_true, y_pred, labels, w = make_case(5, weighted=True)
    weights = w * scale
    ours = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights)
    theirs = skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights)
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=0)
    support = pm.precision_recall_fscore_support(
        y_true, y_pred, labels=labels, sample_weight=weights, zero_division=0.0
    )[3]
    np.testing.assert_allclose(support, theirs.sum(axis=1), rtol=1e-13, atol=0)
    report = pm.classification_report(
        y_true, y_pred, labels=labels, sample_weight=weights, output_dict=True, zero_division=0.0
    )
    np.testing.assert_allclose(report["macro avg"]["support"], weights.sum(), rtol=1e-13)


def test_power_of_two_weight_scales_give_the_same_counts_bit_for_bit():
    y_true, y_pred, labels, w = make_case(6, weighted=True)
    counts = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    for power in (-1000, -3, 7, 1000):
        np.testing.assert_array_equal(
            pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=np.ldexp(w, power)),
            np.ldexp(counts, power),
        )
