"""The counts engine: weighted confusion counts for one rule or a batch of rules.

Counts have shape (..., m, m) with ``counts[..., true, predicted]``. They are
integers (int64) without sample weights and float64 with them. Everything here
takes labels already encoded as class indices 0..m-1 (see ``_validation``).
Work on a batch is split into chunks so that the temporary memory stays near
:data:`CHUNK_BYTES` whatever the number of rules.
"""

from __future__ import annotations

import numpy as np

#: Target size of the temporary arrays built for one chunk of a batch.
CHUNK_BYTES = 64 * 2**20


def chunk_length(bytes_per_item, *, budget=CHUNK_BYTES):
    """Number of batch items per chunk so that a chunk uses about ``budget`` bytes."""
    return max(1, int(budget // max(1, bytes_per_item)))


def confusion_counts(y_true, y_pred, n_classes, sample_weight=None):
    """Confusion counts (m, m) of encoded labels.

    >>> confusion_counts(np.array([0, 1, 1]), np.array([0, 0, 1]), 2)
    array([[1, 0],
           [1, 1]])
    """
    flat = y_true * n_classes + y_pred
    counts = np.bincount(flat, weights=sample_weight, minlength=n_classes * n_classes)
    return counts.reshape(n_classes, n_classes)


def batch_confusion_counts(y_true, predictions, n_classes, sample_weight=None):
    """Confusion counts (M, m, m) of a batch of predictions of shape (M, n).

    >>> batch_confusion_counts(np.array([0, 1]), np.array([[0, 1], [1, 1]]), 2)
    array([[[1, 0],
            [0, 1]],
    <BLANKLINE>
           [[0, 1],
            [0, 1]]])
    """
    predictions = np.asarray(predictions)
    n_rules, n_samples = predictions.shape
    cells = n_classes * n_classes
    out = np.zeros((n_rules, cells), dtype=np.float64 if sample_weight is not None else np.int64)
    step = chunk_length(n_samples * 16)
    true_offset = y_true * n_classes
    for start in range(0, n_rules, step):
        block = predictions[start : start + step]
        rows = block.shape[0]
        flat = (np.arange(rows)[:, None] * cells + true_offset) + block
        weights = None if sample_weight is None else np.broadcast_to(sample_weight, block.shape).ravel()
        out[start : start + rows] = np.bincount(
            flat.ravel(), weights=weights, minlength=rows * cells
        ).reshape(rows, cells)
    return out.reshape(n_rules, n_classes, n_classes)


def argmax_shifted(y_score, thresholds):
    """Predictions argmax(p - tau) for a batch of thresholds (first index wins ties).

    ``y_score`` is (n, m) and ``thresholds`` (M, m); the result is (M, n).

    >>> P = np.array([[0.5, 0.3, 0.2], [0.2, 0.4, 0.4]])
    >>> argmax_shifted(P, np.array([[1/3, 1/3, 1/3], [0.6, 0.2, 0.2]]))
    array([[0, 1],
           [1, 1]])
    """
    thresholds = np.asarray(thresholds, dtype=np.float64)
    n_samples, n_classes = y_score.shape
    out = np.empty((thresholds.shape[0], n_samples), dtype=np.intp)
    step = chunk_length(n_samples * n_classes * 8)
    for start in range(0, thresholds.shape[0], step):
        block = thresholds[start : start + step]
        shifted = y_score[None, :, :] - block[:, None, :]
        out[start : start + block.shape[0]] = np.argmax(shifted, axis=2)
    return out


def threshold_counts(y_true, y_score, thresholds, sample_weight=None):
    """Confusion counts (M, m, m) of the rule argmax(p - tau) for each tau in ``thresholds``.

    The plain (chunked) brute force: every fast path for many thresholds must
    return exactly these counts. Memory stays bounded by working on chunks of
    thresholds.

    >>> y = np.array([0, 1, 2])
    >>> P = np.array([[0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]])
    >>> threshold_counts(y, P, np.full((1, 3), 1/3))[0]
    array([[1, 0, 0],
           [0, 1, 0],
           [0, 0, 1]])
    """
    thresholds = np.asarray(thresholds, dtype=np.float64)
    n_samples, n_classes = y_score.shape
    dtype = np.float64 if sample_weight is not None else np.int64
    out = np.empty((thresholds.shape[0], n_classes, n_classes), dtype=dtype)
    step = chunk_length(n_samples * n_classes * 8)
    for start in range(0, thresholds.shape[0], step):
        block = thresholds[start : start + step]
        predictions = argmax_shifted(y_score, block)
        out[start : start + block.shape[0]] = batch_confusion_counts(
            y_true, predictions, n_classes, sample_weight
        )
    return out


def per_class_counts(counts):
    """TP, FP, FN, TN per class from counts (..., m, m); each of shape (..., m).

    >>> tp, fp, fn, tn = per_class_counts(np.array([[8, 1, 1], [2, 6, 0], [1, 1, 7]]))
    >>> tp.tolist(), fp.tolist(), fn.tolist(), tn.tolist()
    ([8, 6, 7], [3, 2, 1], [2, 2, 2], [14, 17, 17])
    """
    counts = np.asarray(counts)
    tp = np.diagonal(counts, axis1=-2, axis2=-1)
    predicted = counts.sum(axis=-2)
    actual = counts.sum(axis=-1)
    total = actual.sum(axis=-1, keepdims=True)
    fp = predicted - tp
    fn = actual - tp
    tn = total - tp - fp - fn
    return tp, fp, fn, tn
