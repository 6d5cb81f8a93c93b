"""Decision rules of the simplex threshold framework: argmax(p - tau) and OvR regions.

The framework is that of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794.

The natural regions R_j(tau) = {z : z_j - tau_j > z_k - tau_k for all k != j}
predict argmax_j (p_j - tau_j); tau = c * 1 gives plain argmax and tau, tau + c * 1
give the same predictions. In float64 the rule is evaluated as
argmax(p - (tau - min tau)) everywhere, so the barycentre is exactly plain argmax
and every fast path reproduces the rule bit for bit (see
:func:`polyroc._engine.counts.rule_offsets`). The one-vs-rest regions {z : z_j > tau_j}
assign a set of classes to each sample instead.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.counts import rule_offsets
from polyroc._validation import (
    THRESHOLD_DOMAINS,
    check_labels_argument,
    check_score_matrix,
    check_thresholds,
)
from polyroc._validation._params import Options, validate_params

TIE_BREAK_OPTIONS = ("first", "reject")

__all__ = ["apply_thresholds", "ovr_assign", "predict"]


@validate_params({"tie_break": [Options(TIE_BREAK_OPTIONS)]})
def predict(y_score: ArrayLike, thresholds: ArrayLike, *, tie_break: str = "first") -> np.ndarray:
    """Class indices argmax_j (p_j - tau_j) of the natural simplex regions.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class: probabilities, or any real scores (logits).
    thresholds : array-like of shape (n_classes,)
        Threshold vector tau; only its differences tau_j - tau_k matter.
    tie_break : {"first", "reject"}, default="first"
        ``"first"``: the lowest index wins a tie (``np.argmax``, as SimplexTools).
        ``"reject"``: samples on a region boundary (a tied maximum) get -1.

    Returns
    -------
    y_pred : ndarray of shape (n_samples,), dtype intp
        Predicted class indices (columns of ``y_score``), or -1 for rejected ties.

    Raises
    ------
    ValueError
        If ``y_score`` is not a finite 2-D matrix with at least 2 columns,
        ``thresholds`` is not a finite vector of length n_classes, or
        ``tie_break`` is unknown.
    TypeError
        If ``y_score`` or ``thresholds`` is not numeric, or ``tie_break`` is
        not a string (e.g. a list).

    See Also
    --------
    apply_thresholds : The same rule on probability scores, returning labels.
    ovr_assign : The one-vs-rest regions p_j > tau_j, a set of classes per sample.
    polyroc.thresholds.tune_thresholds : Find the tau that maximises a metric.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 2, eq. (4): the natural regions R_j(tau).

    Examples
    --------
    >>> P = [[0.5, 0.3, 0.2], [0.2, 0.4, 0.4], [0.1, 0.3, 0.6]]
    >>> predict(P, [1/3, 1/3, 1/3]).tolist()
    [0, 1, 2]
    >>> predict(P, [0.6, 0.1, 0.3]).tolist()
    [1, 1, 2]
    >>> predict(P, [0.0, 0.0, 0.0], tie_break="reject").tolist()
    [0, -1, 2]
    """
    scores = check_score_matrix(y_score, require_simplex=False)
    tau = check_thresholds(thresholds, scores.shape[1])
    shifted = scores - rule_offsets(tau)
    y_pred = np.argmax(shifted, axis=1)
    if tie_break == "reject":
        tied = np.sum(shifted == shifted.max(axis=1, keepdims=True), axis=1) > 1
        y_pred[tied] = -1
    return y_pred


def ovr_assign(y_score: ArrayLike, thresholds: ArrayLike) -> np.ndarray:
    """One-vs-rest (improper) regions: the mask p_j > tau_j of every class, per sample.

    A sample may fall in several regions (multilabel) or in none. For tau on
    the simplex and probability rows, an empty row needs p = tau exactly.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class.
    thresholds : array-like of shape (n_classes,)
        Per-class thresholds tau_j (here the absolute values matter).

    Returns
    -------
    assigned : ndarray of shape (n_samples, n_classes), dtype bool
        ``assigned[i, j]`` is True when p_ij > tau_j.

    Raises
    ------
    ValueError
        If ``y_score`` or ``thresholds`` are malformed (shape, NaN, infinity).
    TypeError
        If ``y_score`` or ``thresholds`` is not numeric.

    See Also
    --------
    predict : The natural (proper) regions, one class per sample.
    polyroc.thresholds.inflated_argmax : Another set-valued rule.
    polyroc.curves.ovr_roc_curve : The OvR ROC curves these regions trace.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 4: the one-vs-rest regions R̄_j(tau) = {z : z_j > tau_j}.

    Examples
    --------
    >>> ovr_assign([[0.5, 0.4, 0.1], [0.2, 0.3, 0.5]], [1/3, 1/3, 1/3]).astype(int).tolist()
    [[1, 1, 0], [0, 0, 1]]
    """
    scores = check_score_matrix(y_score, require_simplex=False)
    return scores > check_thresholds(thresholds, scores.shape[1])


@validate_params({"domain": [Options(THRESHOLD_DOMAINS)]})
def apply_thresholds(
    y_score: ArrayLike, thresholds: ArrayLike, *, domain: str = "simplex", labels: ArrayLike | None = None
) -> np.ndarray:
    """Predicted labels of the tuned rule argmax(p - tau) on new probability scores.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_classes)
        Probability scores (rows on the simplex), columns in the class order;
        with ``labels``, a DataFrame whose column names are those labels has
        each column taken by its name.
    thresholds : array-like of shape (n_classes,)
        Tuned thresholds, e.g. ``TuningResult.best_threshold``.
    domain : {"simplex", "box"}, default="simplex"
        Where ``thresholds`` must lie (the domain they were tuned on).
    labels : array-like of shape (n_classes,), default=None
        The class order (e.g. ``TuningResult.classes``). If given, labels are
        returned; otherwise class indices.

    Returns
    -------
    y_pred : ndarray of shape (n_samples,)
        Predicted labels (or indices); ties go to the first class in order.

    Raises
    ------
    ValueError
        If ``y_score`` is not a probability matrix, ``thresholds`` has the wrong
        length or lies outside the domain, ``labels`` has the wrong length
        or repeats a label, or ``y_score`` is a DataFrame whose column names
        are some of ``labels`` but not all.
    TypeError
        If ``y_score`` or ``thresholds`` is not numeric, or ``labels`` mixes
        strings and numbers (or holds bytes or other objects).

    See Also
    --------
    polyroc.thresholds.TuningResult.predict : The same call from a tuning result.
    polyroc.thresholds.SimplexThresholdClassifier : Tune and apply tau inside an estimator.
    predict : The rule on any real scores, with a tie-break option.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 2, eq. (4), with tau* from Algorithm 1.

    Examples
    --------
    >>> P = [[0.5, 0.3, 0.2], [0.2, 0.4, 0.4], [0.1, 0.3, 0.6]]
    >>> apply_thresholds(P, [0.6, 0.1, 0.3], labels=["cat", "dog", "owl"]).tolist()
    ['dog', 'dog', 'owl']
    >>> apply_thresholds(P, [0.6, 0.1, 0.4])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: thresholds must lie on the probability simplex for
    domain='simplex' (non-negative, summing to 1); got min 0.1 and sum 1.1
    """
    classes = None if labels is None else check_labels_argument(labels)
    scores = check_score_matrix(y_score, classes=classes)
    tau = check_thresholds(thresholds, scores.shape[1], domain=domain)
    if classes is not None and classes.size != scores.shape[1]:
        raise ValueError(f"labels names {classes.size} classes but y_score has {scores.shape[1]} columns")
    y_pred = np.argmax(scores - rule_offsets(tau), axis=1)
    return y_pred if classes is None else classes[y_pred]
