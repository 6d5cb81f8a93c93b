"""Binomial trials and fit weights of ROC-DMF (the paper's W and Q, with ω = Q ∘ N)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import (
    check_label_vector,
    check_option,
    check_positive_array,
    check_sample_weight,
    encode_labels,
    resolve_classes,
)
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.dmf._rates import class_sizes, relative_weights

WEIGHTINGS = ("unweighted", "weighted")
TRIALS = ("pairs", "marginal")


def binomial_trials(n_pos, n_neg, n_levels, trials):
    """Trials N (2T, K): n_pos·n_neg in both blocks (``"pairs"``), or n_pos / n_neg (``"marginal"``)."""
    if trials == "pairs":
        return np.tile(n_pos * n_neg, (2 * n_levels, 1))
    return np.vstack([np.tile(n_pos, (n_levels, 1)), np.tile(n_neg, (n_levels, 1))])


def fit_weights(weighting, trials, kept_pairs, n_classes):
    """Fit weights ω (2T, K) for a weighting preset or user weights Q (then ω = Q ∘ N).

    ``kept_pairs`` (K, 2) are the class-index pairs used; user weights are
    given for all k(k-1) ordered pairs and the kept columns are selected.
    """
    if isinstance(weighting, str):
        check_option("weighting", weighting, WEIGHTINGS)
        return np.ones_like(trials) if weighting == "unweighted" else trials.copy()
    if weighting is None:
        raise TypeError('weighting must be "unweighted", "weighted" or an array of positive weights, got None')
    costs = expand_costs(weighting, trials.shape[0] // 2, n_classes)
    return costs[:, _full_pair_index(kept_pairs, n_classes)] * trials


def expand_costs(weighting, n_levels, n_classes):
    """User weights as a (2T, k(k-1)) matrix from a K-vector, a (tp, fp) pair or a full matrix."""
    n_pairs = n_classes * (n_classes - 1)
    shapes = [(n_pairs,), (2, n_pairs), (2 * n_levels, n_pairs)]
    costs = check_positive_array("weighting", weighting, shapes)
    if costs.ndim == 1:
        return np.tile(costs, (2 * n_levels, 1))
    if costs.shape[0] == 2:
        return np.repeat(costs, n_levels, axis=0)
    return costs


def _full_pair_index(pairs, n_classes):
    """Position of each ordered pair (a, b) in the lexicographic list of all k(k-1) pairs."""
    a, b = pairs[:, 0], pairs[:, 1]
    return a * (n_classes - 1) + np.where(b < a, b, b - 1)


@validate_params({"c": [Interval("real", 0, None, closed="neither")], "trials": [Options(TRIALS)]})
def majority_cost_weights(
    y_true: ArrayLike,
    c: float,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    trials: str = "pairs",
) -> np.ndarray:
    """Cost weights favouring (c > 1) or penalising (c < 1) the majority class.

    The costs of Section 5.3 of Wang & Carvalho (2024), "Multiclass ROC",
    arXiv:2404.13147.

    With m the majority class, the fit weight of pair (a, b) is, in the TP
    block, c if a = m, 1/c if b = m and 1 otherwise; in the FP block 1/c if
    a = m, c if b = m and 1 otherwise. They are returned as the weights Q
    that :func:`roc_dmf` expects (``weighting=Q``), i.e. divided by the binomial
    trials, so that the fit weights ω = Q ∘ N are exactly these costs.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels (the majority class is the most frequent, by total
        weight with ``sample_weight``; ties: the first).
    c : float
        Cost parameter, > 0; c = 1 gives the unweighted fit.
    labels : array-like, optional
        Class order; default the sorted unique labels of ``y_true``.
    sample_weight : array-like of shape (n,), optional
        Must match the ``sample_weight`` passed to :func:`roc_dmf`: the trials
        are then the effective class sizes.
    trials : {"pairs", "marginal"}, default="pairs"
        Must match the ``trials`` passed to :func:`roc_dmf`.

    Returns
    -------
    ndarray of shape (2, k(k-1))
        Row 0 for the TP block, row 1 for the FP block; columns are the ordered
        pairs in lexicographic order. Pairs with an empty class get weight 1
        (:func:`roc_dmf` drops them).

    Raises
    ------
    ValueError
        For invalid labels or ``sample_weight``, c <= 0 or an unknown ``trials``.
    TypeError
        For a non-numeric ``c`` or ``sample_weight``, or labels mixing
        strings and numbers.

    See Also
    --------
    roc_dmf : Takes these weights as ``weighting=``.
    compare_models : Takes them too, for every model.

    References
    ----------
    Wang, L. & Carvalho, L. (2024). Multiclass ROC. arXiv:2404.13147.
    Section 3.4 (the weights Q of the misclassification costs) and
    Section 5.3 (the majority-class costs).

    Examples
    --------
    >>> q = majority_cost_weights([0, 0, 0, 1, 2], 2.0)
    >>> q.shape
    (2, 6)
    >>> (q[0] * [3, 3, 3, 1, 3, 1]).tolist()   # times N = n_a n_b: the costs
    [2.0, 2.0, 0.5, 1.0, 0.5, 1.0]
    """
    c = float(c)
    y = check_label_vector("y_true", y_true)
    classes = resolve_classes(labels, y_true=y)
    weights = relative_weights(check_sample_weight(sample_weight, y.size))
    codes = encode_labels(y, classes)
    k = classes.size
    total = np.bincount(codes, weights=weights, minlength=k)
    support = class_sizes(codes, k, weights)
    pairs = np.array([(a, b) for a in range(k) for b in range(k) if a != b])
    majority = int(np.argmax(total))
    favoured = np.where(pairs[:, 0] == majority, c, np.where(pairs[:, 1] == majority, 1 / c, 1.0))
    costs = np.vstack([favoured, 1 / favoured])
    trial_counts = binomial_trials(support[pairs[:, 0]], support[pairs[:, 1]], 1, trials)
    return np.where(trial_counts > 0, costs / np.where(trial_counts > 0, trial_counts, 1), 1.0)
