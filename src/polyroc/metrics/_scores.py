"""Metrics of predicted probabilities.

``log_loss``, ``brier_score_loss``, ``top_k_accuracy_score`` and their per-sample losses.
"""

from __future__ import annotations

from collections.abc import Sized
from typing import Literal, NamedTuple, cast

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import column_or_1d
from sklearn.utils.multiclass import type_of_target, unique_labels

from polyroc import _warnings
from polyroc._text import count_noun
from polyroc._validation import (
    check_column_labels_sklearn,
    check_label_input_sklearn,
    check_labels_argument_sklearn,
    check_option,
    check_positive_int,
    check_positive_label_sklearn,
    check_probability_range_sklearn,
    check_same_length,
    check_sample_weight_sklearn,
    check_score_input_sklearn,
    encode_labels_allowing_unknown,
    float_scores_sklearn,
    scale_weights,
    warn_column_order,
)
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.metrics._multilabel import delegated


class _Probabilities(NamedTuple):
    """Encoded true classes, the probability matrix (n, m) and the checked weights."""

    y: np.ndarray
    y_proba: np.ndarray
    sample_weight: np.ndarray | None


def _multiclass_probabilities(y_true, y_proba: np.ndarray, sample_weight, labels) -> _Probabilities:
    """scikit-learn's checks of a probability matrix against labels; one column per sorted class."""
    y_true = check_label_input_sklearn("y_true", y_true)
    weights = check_sample_weight_sklearn(sample_weight, y_true.shape[0])
    check_probability_range_sklearn(y_proba)
    check_same_length(y_true=y_true, y_proba=y_proba)
    if labels is not None:
        given = check_labels_argument_sklearn(labels)
        classes = unique_labels(given)
        if classes.shape != given.shape or not np.all(classes == given):
            _warnings.warn(
                f"labels {given.tolist()} are not sorted; the columns of y_proba are taken to follow "
                f"the sorted labels {classes.tolist()}",
                UserWarning,
            )
        unknown = np.setdiff1d(y_true, classes)
        if unknown.size:
            raise ValueError(f"y_true contains values {set(unknown.tolist())} not in labels {given.tolist()}")
    else:
        classes = unique_labels(y_true)
    if classes.size == 1:
        raise ValueError(
            f"y_true contains only one label ({classes[0]}); pass every class label through labels"
            if labels is None
            else f"labels must name at least two classes, got {classes.tolist()}"
        )
    if y_proba.ndim == 1:
        y_proba = y_proba[:, None]
    if y_proba.shape[1] == 1:
        y_proba = np.concatenate([1 - y_proba, y_proba], axis=1)
    eps = np.finfo(y_proba.dtype).eps
    if not np.all(np.isclose(y_proba.sum(axis=1), 1, rtol=np.sqrt(eps))):
        _warnings.warn("The y_proba rows do not sum to one. Make sure to pass probabilities.", UserWarning)
    if classes.size != y_proba.shape[1]:
        source = "y_true" if labels is None else "labels"
        raise ValueError(
            f"y_proba has {count_noun(y_proba.shape[1], 'column')} but {source} has "
            f"{count_noun(classes.size, 'class')} {classes.tolist()}"
            + ("; pass every class label through labels" if labels is None else "")
        )
    return _Probabilities(encode_labels_allowing_unknown(y_true, classes), y_proba, weights)


def _mean_or_sum(values: np.ndarray, weights: np.ndarray | None, normalize: bool = True) -> float:
    """(Weighted) mean of per-sample values, or their (weighted) sum in the user's weight units.

    The weights are scaled by a power of two first (exact, so the mean does
    not change and the sum is scaled back exactly), which keeps sums finite
    for weights of any scale.
    """
    scale = scale_weights(weights)
    if normalize:
        return float(np.average(values, weights=scale.weights))
    if scale.weights is None:
        return float(np.sum(values))
    return float(scale.restore(np.dot(values, scale.weights)))


def sample_log_losses(y: np.ndarray, scores: np.ndarray, eps: float) -> np.ndarray:
    """-log p(true class) of each sample (encoded ``y``), probabilities clipped to [eps, 1 - eps]."""
    true_probability = scores[np.arange(y.size), y]
    return -np.log(np.clip(true_probability, eps, 1 - eps))


def machine_epsilon(dtype: np.dtype) -> float:
    """Machine epsilon of a floating dtype; float64's for any other dtype."""
    return float(np.finfo(dtype if dtype.kind == "f" else np.float64).eps)


def log_loss(
    y_true: ArrayLike,
    y_proba: ArrayLike | None = None,
    *,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
    y_pred: ArrayLike = "deprecated",
) -> float:
    """Cross-entropy -log p(true class), as ``sklearn.metrics.log_loss``.

    Probabilities are clipped to [eps, 1 - eps], eps the machine epsilon of
    their dtype, and the loss is computed in that dtype, as scikit-learn.
    For logits or unnormalised scores, map them first (e.g.
    :func:`polyroc.probability.softmax`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_proba : array-like of shape (n_samples, n_classes) or (n_samples,)
        Probabilities, one column per class in sorted label order; one
        column (or 1-D) is the probability of the greater of two classes.
    normalize : bool, default=True
        The (weighted) mean loss; ``False`` gives the (weighted) sum.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like, default=None
        The classes (sorted), when ``y_true`` lacks some.
    y_pred : array-like, default="deprecated"
        Former name of ``y_proba`` (``FutureWarning``), as scikit-learn 1.9.

    Returns
    -------
    float
        The mean (or summed) cross-entropy in nats.

    Raises
    ------
    ValueError
        If the probabilities hold NaN or values outside [0, 1], the lengths
        differ, ``y_true`` has one class only (without ``labels``), a label
        is outside ``labels``, the column count differs from the number of
        classes, or both ``y_pred`` and ``y_proba`` are given, or
        ``normalize`` is not a bool.
    TypeError
        If the probabilities are not numbers, or a list of labels mixes
        strings and numbers.

    Warns
    -----
    UserWarning
        If rows do not sum to one, or ``labels`` is not sorted; or if
        ``y_proba`` is a DataFrame whose column names are the class labels
        in another order than the sorted labels (the columns are taken by
        position, as scikit-learn does).

    See Also
    --------
    brier_score_loss : The squared-error counterpart.
    polyroc.probability.softmax : Map logits to probabilities first.
    polyroc.intervals.stratified_mean_interval : A confidence interval of a mean loss.

    Examples
    --------
    >>> P = [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.3, 0.5]]
    >>> round(log_loss([0, 1, 2], P), 6), round(log_loss([0, 1, 2], P, normalize=False), 6)
    (0.34055, 1.021651)
    """
    check_option("normalize", normalize, (True, False))
    if not (isinstance(y_pred, str) and y_pred == "deprecated"):
        if y_proba is not None:
            raise ValueError("Cannot use both `y_pred` and `y_proba`; `y_pred` is deprecated, use `y_proba`.")
        _warnings.warn("`y_pred` was renamed to `y_proba`; use `y_proba` instead.", FutureWarning)
        y_proba = y_pred
    warn_column_order(y_true, y_proba, labels, "y_proba")
    y_proba = float_scores_sklearn(check_score_input_sklearn("y_proba", y_proba))
    if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
        return delegated("log_loss", y_true, y_proba, normalize=normalize, sample_weight=sample_weight, labels=labels)
    y, y_proba, weights = _multiclass_probabilities(y_true, y_proba, sample_weight, labels)
    losses = sample_log_losses(y, y_proba, np.finfo(y_proba.dtype).eps)
    return _mean_or_sum(losses, weights, normalize)


def sample_brier_losses(y: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """Squared distance of each score row to the one-hot truth (encoded ``y``).

    Blocks of rows bound the temporary copies to :data:`BRIER_BLOCK_ROWS` rows.
    """
    losses = np.empty(y.size, dtype=scores.dtype)
    for start in range(0, y.size, BRIER_BLOCK_ROWS):
        block = slice(start, start + BRIER_BLOCK_ROWS)
        errors = scores[block].copy()
        errors[np.arange(errors.shape[0]), y[block]] -= 1.0
        np.square(errors, out=errors)
        losses[block] = errors.sum(axis=1)
    return losses


#: Rows of a block of :func:`sample_brier_losses`.
BRIER_BLOCK_ROWS = 1 << 16


def _binary_probabilities(y_true, y_proba: np.ndarray, sample_weight, pos_label) -> _Probabilities:
    """scikit-learn's checks of one probability per sample (of the positive class); two columns out."""
    y_true = check_label_input_sklearn("y_true", y_true)
    y_proba = column_or_1d(y_proba, input_name="y_proba")
    weights = check_sample_weight_sklearn(sample_weight, y_true.shape[0])
    check_same_length(y_true=y_true, y_proba=y_proba)
    kind = type_of_target(y_true, input_name="y_true")
    if kind != "binary":
        raise ValueError(f"y_true is {kind} but y_proba has one probability per sample: it must be binary")
    check_probability_range_sklearn(y_proba)
    try:
        pos_label = check_positive_label_sklearn(pos_label, y_true)
    except ValueError:
        classes = np.unique(y_true)
        if classes.dtype.kind in "OUS":
            raise
        pos_label = classes[-1]
    y = (y_true == pos_label).astype(np.intp)
    return _Probabilities(y, np.stack([1 - y_proba, y_proba], axis=1), weights)


def brier_score_loss(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: float | bool | str | None = None,
    labels: ArrayLike | None = None,
    scale_by_half: bool | Literal["auto"] = "auto",
) -> float:
    """Brier score: mean squared distance of the probabilities to the one-hot truth, as scikit-learn.

    Binary (1-D ``y_proba``, the probability of ``pos_label``) or
    multiclass (one column per sorted class), as
    ``sklearn.metrics.brier_score_loss`` (scikit-learn >= 1.7).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        True labels; a 2-D indicator array (one-hot or multilabel) is handed
        to scikit-learn's function.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    pos_label : int, float, bool or str, default=None
        The positive class of binary targets (default: 1 for {0, 1} or
        {-1, 1} labels, else the greater label of numeric labels).
    labels : array-like, default=None
        The classes of multiclass probabilities, when ``y_true`` lacks some.
    scale_by_half : bool or "auto", default="auto"
        Halve the score (range [0, 1]); "auto" halves it for two classes.

    Returns
    -------
    float
        The (weighted) mean squared distance (halved when scaled).

    Raises
    ------
    ValueError
        As :func:`log_loss`; if ``scale_by_half`` is not True, False or
        "auto"; for 1-D ``y_proba`` also if ``y_true`` is not binary or
        string labels come without ``pos_label``.
    TypeError
        As :func:`log_loss`.

    Warns
    -----
    UserWarning
        As :func:`log_loss`.

    See Also
    --------
    log_loss : The cross-entropy of the same probabilities.
    polyroc.probability.one_hot : The indicator rows the probabilities are compared with.
    polyroc.intervals.stratified_mean_interval : A confidence interval of a mean loss.

    References
    ----------
    Brier, G. W. (1950). Verification of forecasts expressed in terms of
    probability. Monthly Weather Review 78, 1-3.
    doi:10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2

    Examples
    --------
    >>> round(brier_score_loss([0, 1], [[0.8, 0.2], [0.4, 0.6]]), 6)
    0.1
    >>> round(brier_score_loss([0, 1, 2], [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6]]), 6)
    0.186667
    """
    check_option("scale_by_half", scale_by_half, (True, False, "auto"))
    warn_column_order(y_true, y_proba, labels, "y_proba")
    y_proba = float_scores_sklearn(check_score_input_sklearn("y_proba", y_proba))
    if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
        return delegated(
            "brier_score_loss",
            y_true,
            y_proba,
            sample_weight=sample_weight,
            pos_label=pos_label,
            labels=labels,
            scale_by_half=scale_by_half,
        )
    if y_proba.ndim == 1 or y_proba.shape[1] == 1:
        y, y_proba, weights = _binary_probabilities(y_true, y_proba, sample_weight, pos_label)
    else:
        y, y_proba, weights = _multiclass_probabilities(y_true, y_proba, sample_weight, labels)
    score = _mean_or_sum(sample_brier_losses(y, y_proba), weights)
    half = y_proba.shape[1] < 3 if scale_by_half == "auto" else scale_by_half
    return float(score * 0.5) if half else score


def sample_top_k_hits(y: np.ndarray, scores: np.ndarray, k: int) -> np.ndarray:
    """Whether each sample's true class (encoded ``y``) ranks among its k highest scores.

    Among equal scores the class with the higher index ranks first, as scikit-learn.
    """
    true_score = scores[np.arange(y.size), y][:, None]
    tied_ahead = (scores == true_score) & (np.arange(scores.shape[1]) > y[:, None])
    rank = (scores > true_score).sum(axis=1) + tied_ahead.sum(axis=1)
    return rank < k


def top_k_accuracy_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int = 2,
    normalize: bool = True,
    sample_weight: ArrayLike | None = None,
    labels: ArrayLike | None = None,
) -> float:
    """Fraction of samples whose true class is among the k highest scores, as scikit-learn.

    Among equal scores the class with the higher index ranks first, as
    ``sklearn.metrics.top_k_accuracy_score``. Binary targets take one score
    per sample (of the greater class).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, n_classes) or (n_samples,)
        Scores (any real values), one column per sorted class.
    k : int, default=2
        Number of top-ranked classes that count as a hit.
    normalize : bool, default=True
        The (weighted) fraction of hits; ``False`` their (weighted) number.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    labels : array-like, default=None
        The classes (unique, sorted), one per column.

    Returns
    -------
    float
        The top-k accuracy.

    Raises
    ------
    ValueError
        For NaN scores, different lengths, non-classification targets,
        ``labels`` not unique, not sorted or not one per column, or a column
        count that differs from the number of classes; ``k`` < 1 or
        ``normalize`` not a bool.
    TypeError
        If ``k`` is not an integer, or a list of labels mixes strings and
        numbers.

    Warns
    -----
    UndefinedMetricWarning
        If ``k`` >= the number of classes (every sample is a hit).
    UserWarning
        If ``y_score`` is a DataFrame whose column names are the class labels in
        another order than the sorted labels (the columns are taken by
        position, as scikit-learn does).

    See Also
    --------
    accuracy_score : The top-1 accuracy of predicted labels.
    roc_auc_score : A threshold-free measure of how the scores rank the classes.

    Examples
    --------
    >>> scores = [[0.5, 0.2, 0.3], [0.3, 0.4, 0.3], [0.2, 0.4, 0.4], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score([0, 1, 2, 2], scores, k=1), top_k_accuracy_score([0, 1, 2, 2], scores, k=2)
    (0.75, 0.75)
    """
    k = check_positive_int("k", k)
    check_option("normalize", normalize, (True, False))
    truth = column_or_1d(check_label_input_sklearn("y_true", y_true), input_name="y_true")
    kind = type_of_target(truth, input_name="y_true")
    if kind == "binary" and labels is not None and len(cast(Sized, labels)) > 2:
        kind = "multiclass"
    if kind not in ("binary", "multiclass"):
        raise ValueError(f"y type must be 'binary' or 'multiclass', got '{kind}' instead.")
    warn_column_order(truth, y_score, labels)
    scores = check_score_input_sklearn("y_score", y_score)
    if kind == "binary":
        if scores.ndim == 2 and scores.shape[1] != 1:
            raise ValueError(
                f"y_true is binary while y_score is 2-D with {scores.shape[1]} classes; if y_true lacks "
                "some labels, pass them through labels"
            )
        scores = column_or_1d(scores)
    elif scores.ndim != 2:
        raise ValueError(f"y_score must be of shape (n_samples, n_classes) for multiclass y_true, got {scores.shape}")
    weights = check_sample_weight_sklearn(sample_weight, truth.shape[0])
    check_same_length(y_true=truth, y_score=scores)
    n_columns = scores.shape[1] if scores.ndim == 2 else 2
    if labels is None:
        classes = np.unique(truth)
        if classes.size != n_columns:
            raise ValueError(
                f"Number of classes in 'y_true' ({classes.size}) not equal to the number of classes in "
                f"'y_score' ({n_columns}); pass every class through labels"
            )
    else:
        classes = check_column_labels_sklearn(labels, truth, n_columns, "classes in 'y_score'")
    if k >= classes.size:
        _warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({classes.size}) gives a perfect score",
            UndefinedMetricWarning,
        )
    y = encode_labels_allowing_unknown(truth, classes)
    if kind == "binary":
        threshold = 0.5 if scores.min() >= 0 and scores.max() <= 1 else 0
        hits = (scores > threshold).astype(np.intp) == y if k == 1 else np.ones(y.size, dtype=bool)
    else:
        hits = sample_top_k_hits(y, scores, k)
    return _mean_or_sum(hits.astype(np.float64), weights, bool(normalize))
