"""Confusion counts of checked label pairs and their one-vs-rest 2x2 tables, shared by the label metrics."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from polyroc import _warnings
from polyroc._engine.counts import confusion_counts, per_class_counts
from polyroc._validation import (
    LabelPair,
    ScaledWeights,
    check_labels_argument_sklearn,
    encode_labels_allowing_unknown,
    scale_weights,
)


class Counted(NamedTuple):
    """Confusion counts (m, m) over ``classes`` (scaled weights) and the weight scaling."""

    classes: np.ndarray
    counts: np.ndarray
    scale: ScaledWeights


def count_pair(pair: LabelPair, classes: np.ndarray) -> Counted:
    """Confusion counts over ``classes``; samples with a label outside them are left out."""
    true_codes, pred_codes = (
        encode_labels_allowing_unknown(pair.y_true, classes),
        encode_labels_allowing_unknown(pair.y_pred, classes),
    )
    keep = (true_codes >= 0) & (pred_codes >= 0)
    scale = scale_weights(pair.sample_weight)
    weights = None if scale.weights is None else scale.weights[keep]
    counts = confusion_counts(true_codes[keep], pred_codes[keep], classes.size, weights)
    return Counted(classes, counts, scale)


def at_least_two(counts: np.ndarray) -> np.ndarray:
    """Counts padded with an empty class when one class only is counted (the metrics need m >= 2)."""
    if counts.shape[-1] >= 2:
        return counts
    return np.pad(counts, ((0, 1), (0, 1)))


def matrix_counts(pair: LabelPair, labels) -> Counted:
    """Counts of ``confusion_matrix``: over ``labels`` (samples outside are dropped) or the labels present."""
    if pair.kind not in ("binary", "multiclass"):
        raise ValueError(f"{pair.kind} is not supported")
    if labels is None:
        classes = pair.present
    else:
        classes = check_labels_argument_sklearn(labels)
        if not np.any(encode_labels_allowing_unknown(pair.y_true, classes) >= 0):
            raise ValueError("At least one label specified must be in y_true (labels shares none with it)")
    counted = count_pair(pair, classes)
    if counted.counts.shape == (1, 1):
        _warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to have the "
            "correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning,
        )
    return counted


class Tables(NamedTuple):
    """One-vs-rest 2x2 tables [[TN, FP], [FN, TP]] of the labels scored, and their support (user units)."""

    tables: np.ndarray
    support: np.ndarray


def ovr_tables(pair: LabelPair, labels) -> Tables:
    """One-vs-rest tables of the labels scored (scaled weights) and their support.

    As scikit-learn's ``multilabel_confusion_matrix``: the counts run over
    ``labels`` followed by the other labels present, and the tables of the
    first ``len(labels)`` are kept. The support is the (weighted) count of
    each label in ``y_true``, summed in sample order as scikit-learn does.
    """
    if labels is None:
        classes, n_scored = pair.present, pair.present.size
    else:
        same_kind = (labels.dtype.kind in "OUS") == (pair.present.dtype.kind in "OUS")
        extra = np.setdiff1d(pair.present, labels) if same_kind else pair.present
        classes, n_scored = np.concatenate([labels, extra]) if extra.size else labels, labels.size
    _, counts, scale = count_pair(pair, classes)
    tp, fp, fn, tn = (values[:n_scored] for values in per_class_counts(at_least_two(counts)))
    tables = np.stack([np.stack([tn, fp], axis=-1), np.stack([fn, tp], axis=-1)], axis=-2)
    # unweighted counts are exact integers: their row sums are the support whatever the order of summation
    support = counts.sum(axis=1)[:n_scored] if scale.weights is None else pair_support(pair, classes, scale)[:n_scored]
    return Tables(tables.astype(np.float64), support)


def pair_support(pair: LabelPair, classes: np.ndarray, scale) -> np.ndarray:
    """(Weighted) count of each class in ``y_true`` in the user's units, summed as scikit-learn sums it.

    scikit-learn's support is TP + FN = TP + (true count - TP), with the
    counts accumulated in sample order; the same operations give the same
    bits (the weight scaling is a power of two, exact).
    """
    codes, right = encode_labels_allowing_unknown(pair.y_true, classes), pair.y_true == pair.y_pred
    weights = scale.weights
    true_sum = np.bincount(codes, weights=weights, minlength=classes.size)
    tp_sum = np.bincount(codes[right], weights=None if weights is None else weights[right], minlength=classes.size)
    return scale.restore(tp_sum + (true_sum - tp_sum))


def support_dtype(pair: LabelPair, sample_weight) -> type:
    """Integer supports without weights, except when no sample is right at all (scikit-learn's dtypes)."""
    return np.int64 if sample_weight is None and bool(np.any(pair.y_true == pair.y_pred)) else np.float64
