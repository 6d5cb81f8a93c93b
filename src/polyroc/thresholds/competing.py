"""Competing decision rules: the Fréchet mean rule and the epsilon-inflated argmax.

These are the rules that Legnaro, Guastavino & Marchetti (2025),
arXiv:2511.21794, compare with the tuned rule argmax(p - tau). The Fréchet
rule (Roberts et al. 2023, "Loki") predicts the label minimising the expected
squared label distance. The inflated argmax (Soloff, Barber & Willett 2024,
"Building a stable classifier with the inflated argmax") returns a set of
classes per sample; the set metrics at the end of this module summarise such
sets against the true labels.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.counts import chunk_length
from polyroc._engine.parallel import chunk_map
from polyroc._validation import (
    check_distance_matrix,
    check_prediction_sets,
    check_real_array,
    check_score_matrix,
)
from polyroc._validation._params import Interval, validate_params

__all__ = [
    "accuracy_among_singletons",
    "average_set_size",
    "coverage",
    "embedding_distance",
    "frechet_predict",
    "inflated_argmax",
    "ordinal_distance",
    "singleton_correct",
    "singleton_rate",
]

#: Rows per block of :func:`inflated_argmax`, the blocks shared by the worker threads.
INFLATED_BLOCK_ROWS = 1 << 16


@validate_params({"n_classes": [Interval("integer", 2, None, closed="left")]})
def ordinal_distance(n_classes: int) -> np.ndarray:
    """Distance ``|i - j|`` between ordered classes, an (m, m) matrix.

    Parameters
    ----------
    n_classes : int
        Number of classes m (>= 2).

    Returns
    -------
    distances : ndarray of shape (m, m)
        ``distances[i, j] = |i - j|`` as float64.

    Raises
    ------
    ValueError
        If ``n_classes`` is below 2.
    TypeError
        If ``n_classes`` is not an integer.

    See Also
    --------
    frechet_predict : The Fréchet mean rule these distances parametrise.
    embedding_distance : Distances between class embeddings instead.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1 (the Fréchet mean rule among the compared rules).

    Roberts, N., Li, X., Adila, D., Cromp, S., Huang, T.-H., Zhao, J. &
    Sala, F. (2023). Geometry-aware adaptation for pretrained models.
    Advances in Neural Information Processing Systems 36, 49628-49658.

    Examples
    --------
    >>> ordinal_distance(3).tolist()
    [[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]]
    """
    index = np.arange(n_classes, dtype=np.float64)
    return np.abs(index[:, None] - index[None, :])


def embedding_distance(embeddings: ArrayLike) -> np.ndarray:
    """Euclidean distances between class embeddings, an (m, m) matrix.

    A user choice of label metric for :func:`frechet_predict`, not the paper's.

    Parameters
    ----------
    embeddings : array-like of shape (n_classes, n_features)
        One finite vector per class.

    Returns
    -------
    distances : ndarray of shape (n_classes, n_classes)
        Symmetric, with a zero diagonal.

    Raises
    ------
    ValueError
        If ``embeddings`` is not a 2-D array with at least one row, or holds
        NaN or infinity.
    TypeError
        If ``embeddings`` is not numeric (strings, or other objects).

    See Also
    --------
    frechet_predict : The Fréchet mean rule these distances parametrise.
    ordinal_distance : The distance of ordered classes.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1 (the Fréchet mean rule among the compared rules).

    Roberts, N., Li, X., Adila, D., Cromp, S., Huang, T.-H., Zhao, J. &
    Sala, F. (2023). Geometry-aware adaptation for pretrained models.
    Advances in Neural Information Processing Systems 36, 49628-49658.

    Examples
    --------
    >>> embedding_distance([[0, 0], [3, 4], [0, 1]]).tolist()
    [[0.0, 5.0, 1.0], [5.0, 0.0, 4.242640687119285], [1.0, 4.242640687119285, 0.0]]
    """
    points = check_real_array("embeddings", embeddings)
    return np.sqrt(np.sum((points[:, None, :] - points[None, :, :]) ** 2, axis=-1))


def frechet_predict(y_score: ArrayLike, distances: ArrayLike | None = None) -> np.ndarray:
    """Fréchet mean rule: argmin over candidates y of sum_i p_i d(y, lambda_i)^2.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_classes)
        Probability scores over the trained classes lambda_1..lambda_m.
    distances : array-like of shape (n_classes, n_candidates), default=None
        Distances d(lambda_i, y) from each trained class (row) to each candidate
        label (column); candidates may include untrained labels. Default: the
        complete graph 1 - I, for which the rule is plain argmax.

    Returns
    -------
    y_pred : ndarray of shape (n_samples,)
        Column indices of ``distances`` (first index on ties).

    Raises
    ------
    ValueError
        If ``y_score`` is not a probability matrix or ``distances`` has the wrong shape
        (not one row per score column) or negative / non-finite entries.
    TypeError
        If ``y_score`` or ``distances`` is not numeric.

    See Also
    --------
    ordinal_distance : Distances ``|i - j|`` between ordered classes.
    embedding_distance : Euclidean distances between class embeddings.
    polyroc.thresholds.predict : The tuned rule argmax(p - tau) it is compared with.
    polyroc.thresholds.compare_rules : Compares the rules on validation and test data.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (the "Fréchet" column).

    Roberts, N., Li, X., Adila, D., Cromp, S., Huang, T.-H., Zhao, J. &
    Sala, F. (2023). Geometry-aware adaptation for pretrained models.
    Advances in Neural Information Processing Systems 36, 49628-49658.

    Examples
    --------
    >>> P = [[0.45, 0.1, 0.45], [0.1, 0.5, 0.4]]
    >>> frechet_predict(P).tolist()
    [0, 1]
    >>> frechet_predict(P, ordinal_distance(3)).tolist()
    [1, 1]
    """
    scores = check_score_matrix(y_score)
    n_classes = scores.shape[1]
    metric = (
        1.0 - np.eye(n_classes) if distances is None else check_distance_matrix(distances, n_classes, name="distances")
    )
    return np.argmin(scores @ (metric * metric), axis=1)


def _others_sorted(sorted_scores, positions=None):
    """For each sorted position q (the first ``positions``), the row's other entries (descending): (n, q, m - 1)."""
    n_classes = sorted_scores.shape[1]
    others = np.arange(n_classes - 1)
    index = others[None, :] + (others[None, :] >= np.arange(n_classes)[:, None])
    return sorted_scores[:, index[:positions]]


def _inflated_distances(scores, eps, positions=None):
    """Euclidean distance from each row w to each region {v : v_j >= max_{l != j} v_l + eps/sqrt 2}.

    Euclidean projection onto the region: with delta = eps / sqrt 2 and the other entries
    o_1 >= ... >= o_L, pool w_j - delta with the top k of them at their mean
    u_k, for the first k with o_{k+1} < u_k. Returns (n, m) distances; with
    ``positions``, only the classes at the first ``positions`` places of each
    row sorted in decreasing order get theirs (the others are left at inf).
    """
    delta = eps / np.sqrt(2.0)
    n_samples, n_classes = scores.shape
    places = n_classes if positions is None else positions
    order = np.argsort(-scores, axis=1, kind="stable")
    sorted_scores = np.take_along_axis(scores, order, axis=1)
    distances = np.full_like(scores, np.inf)
    step = chunk_length(places * n_classes * 8 * 8)
    for start in range(0, n_samples, step):
        block = sorted_scores[start : start + step]
        others = _others_sorted(block, places)
        pooled = np.concatenate([np.zeros((*others.shape[:2], 1)), np.cumsum(others, axis=2)], axis=2)
        leading = block[:, :places]
        shifted = leading[:, :, None] - delta
        means = (shifted + pooled) / np.arange(1, n_classes + 1)
        following = np.concatenate([others, np.full((*others.shape[:2], 1), -np.inf)], axis=2)
        k = np.argmax(following < means, axis=2)[:, :, None]
        mean = np.take_along_axis(means, k, axis=2)[:, :, 0]
        inside = np.arange(n_classes - 1) < k
        squares = np.sum(np.where(inside, others - mean[:, :, None], 0.0) ** 2, axis=2)
        squares += (mean + delta - leading) ** 2
        np.put_along_axis(
            distances[start : start + step], order[start : start + step, :places], np.sqrt(squares), axis=1
        )
    return distances


def _close_sets(scores, eps):
    """The inflated-argmax sets of rows whose top two scores are close, grouped by their number of candidates.

    Only classes within 1.5 eps / sqrt 2 of the row's top score can be in
    its set (any other is at least 1.5 eps from its region), and they lead
    the row sorted in decreasing order: rows with c such classes get the
    distances of the first c places only.
    """
    sets = np.zeros(scores.shape, dtype=bool)
    near = np.count_nonzero(scores >= scores.max(axis=1, keepdims=True) - 1.5 * eps / np.sqrt(2.0), axis=1)
    for candidates in np.unique(near).tolist():
        rows = np.flatnonzero(near == candidates)
        sets[rows] = _inflated_distances(scores[rows], eps, positions=min(candidates, scores.shape[1])) < eps
    return sets


@validate_params({"eps": [Interval("real", 0, None, closed="neither")]})
def inflated_argmax(y_score: ArrayLike, eps: float = 0.05) -> np.ndarray:
    """Epsilon-inflated argmax sets: {j : dist(w, R_j^eps) < eps} for every row w.

    R_j^eps = {v : v_j >= max_{l != j} v_l + eps / sqrt 2}. Each set contains the
    argmax, lies inside {j : w_j > max w - eps / sqrt 2}, and is a singleton
    exactly when top-1 minus top-2 is at least eps / sqrt 2. Tied scores go in or
    out together. Vectorised: O(n m^2) with a per-row sort and prefix sums.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_classes)
        Probability scores (rows on the simplex).
    eps : float, default=0.05
        Inflation (> 0). The Legnaro et al. paper does not report it; 0.05 is
        Soloff et al.'s Fashion-MNIST value, an assumption.

    Returns
    -------
    sets : ndarray of shape (n_samples, n_classes), dtype bool
        ``sets[i, j]`` is True when class j is in the set of sample i.

    Raises
    ------
    ValueError
        If ``y_score`` is not a probability matrix or ``eps`` is not a finite
        number > 0.
    TypeError
        If ``y_score`` is not numeric or ``eps`` is not a number.

    See Also
    --------
    coverage : Share of samples whose set holds the true label.
    singleton_correct : Share of samples whose set is exactly {y}.
    average_set_size : Mean number of classes per set.
    polyroc.thresholds.ovr_assign : The one-vs-rest regions, another set-valued rule.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (the "epsilon-inflated argmax" columns).

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> inflated_argmax([[0.6, 0.3, 0.1], [0.42, 0.40, 0.18]], eps=0.05).astype(int).tolist()
    [[1, 0, 0], [1, 1, 0]]
    """
    eps = float(eps)
    scores = check_score_matrix(y_score)
    sets = np.zeros(scores.shape, dtype=bool)
    if scores.size == 0:
        return sets

    def fill(rows: slice) -> None:
        sets[rows] = _inflated_sets(scores[rows], eps)

    n_samples = scores.shape[0]
    blocks = (slice(start, start + INFLATED_BLOCK_ROWS) for start in range(0, n_samples, INFLATED_BLOCK_ROWS))
    for _ in chunk_map(fill, blocks):  # each row's set depends on that row only
        pass
    return sets


def _inflated_sets(scores, eps):
    """The inflated-argmax sets of the rows of ``scores`` (n, m), n >= 1 (see :func:`inflated_argmax`)."""
    sets = np.zeros(scores.shape, dtype=bool)
    # A class j with w_j <= max w - eps / sqrt 2 is at least eps from its region, so a row whose top two
    # scores are further apart than that is the singleton {argmax}. Rows within 1.5 times that gap (well
    # clear of the boundary's rounding) get the exact distances.
    delta = eps / np.sqrt(2.0)
    top = np.partition(scores, scores.shape[1] - 2, axis=1)[:, -2:] if scores.shape[1] > 1 else None
    close = np.ones(scores.shape[0], dtype=bool) if top is None else top[:, 1] - top[:, 0] <= 1.5 * delta
    clear = np.flatnonzero(~close)
    sets[clear, np.argmax(scores[clear], axis=1)] = True
    sets[close] = _close_sets(scores[close], eps)
    return sets


def _set_measures(y_true, sets, *, labels=None, sample_weight=None):
    """(coverage, singleton_correct, average_set_size) of the sets, checked once (as the three functions give them).

    >>> _set_measures([0, 1], np.array([[True, True], [False, True]]))
    (1.0, 0.5, 1.5)
    """
    mask, covered, weights = _set_outcomes(y_true, sets, labels, sample_weight)
    sizes = mask.sum(axis=1)
    return (
        float(np.average(covered, weights=weights)),
        float(np.average(covered & (sizes == 1), weights=weights)),
        float(np.average(sizes, weights=weights)),
    )


def _set_outcomes(y_true, sets, labels, sample_weight):
    """Validated sets, per-sample 'true label in set' and the weights."""
    targets = check_prediction_sets(y_true, sets, labels=labels, sample_weight=sample_weight)
    covered = targets.y_score[np.arange(targets.y_true.size), targets.y_true]
    return targets.y_score, covered, targets.sample_weight


def coverage(
    y_true: ArrayLike, sets: ArrayLike, *, labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None
) -> float:
    """Share of samples whose true label is in their set: mean 1[y in S].

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    sets : array-like of shape (n_samples, n_classes)
        Boolean set predictions, columns in the class order.
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples.

    Returns
    -------
    float
        The (weighted) share of samples with y in S, in [0, 1].

    Raises
    ------
    ValueError
        On mismatched lengths, ``sets`` not 2-D, a column count that differs
        from the classes, ``sets`` is a DataFrame whose column names are
        some of the classes but not all, entries other than 0/1 (NaN,
        infinity and missing values included), labels outside ``labels`` or
        invalid weights.
    TypeError
        If ``sets`` or ``sample_weight`` is not numeric, or labels mix
        strings and numbers.

    See Also
    --------
    singleton_correct : Samples whose set is exactly {y}.
    average_set_size : The price of the coverage, in classes per set.
    inflated_argmax : Sets to evaluate.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (the "Coverage" column).

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> coverage([0, 1, 2], [[1, 1, 0], [1, 0, 0], [0, 0, 1]])
    0.6666666666666666
    """
    _, covered, weights = _set_outcomes(y_true, sets, labels, sample_weight)
    return float(np.average(covered, weights=weights))


def singleton_correct(
    y_true: ArrayLike, sets: ArrayLike, *, labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None
) -> float:
    """Share of samples whose set is exactly {y}: Table 4's "Singleton" column.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    sets : array-like of shape (n_samples, n_classes)
        Boolean set predictions (e.g. :func:`inflated_argmax`), columns in the class order.
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples.

    Returns
    -------
    float
        The (weighted) share of samples with S = {y}, in [0, 1].

    Raises
    ------
    ValueError, TypeError
        As :func:`coverage`: malformed sets, labels or weights; ``sets`` is
        a DataFrame whose column names are some of the classes but not all.

    See Also
    --------
    coverage : Samples whose set holds y, whatever its size.
    singleton_rate : Samples with a one-class set, right or wrong.
    accuracy_among_singletons : Accuracy restricted to the one-class sets.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (the "Singleton" column).

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> singleton_correct([0, 1, 2], [[1, 1, 0], [1, 0, 0], [0, 0, 1]])
    0.3333333333333333
    """
    mask, covered, weights = _set_outcomes(y_true, sets, labels, sample_weight)
    return float(np.average(covered & (mask.sum(axis=1) == 1), weights=weights))


def singleton_rate(
    y_true: ArrayLike, sets: ArrayLike, *, labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None
) -> float:
    """Share of samples whose set has exactly one class (right or wrong).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    sets : array-like of shape (n_samples, n_classes)
        Boolean set predictions (e.g. :func:`inflated_argmax`), columns in the class order.
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples.

    Returns
    -------
    float
        The (weighted) share of samples whose set has one class, in [0, 1].

    Raises
    ------
    ValueError, TypeError
        As :func:`coverage`: malformed sets, labels or weights; ``sets`` is
        a DataFrame whose column names are some of the classes but not all.

    See Also
    --------
    singleton_correct : Samples whose set is exactly {y}.
    accuracy_among_singletons : Accuracy restricted to the one-class sets.
    average_set_size : Mean number of classes per set.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (set-valued rules).

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> singleton_rate([0, 1, 2], [[1, 1, 0], [1, 0, 0], [0, 0, 1]])
    0.6666666666666666
    """
    mask, _, weights = _set_outcomes(y_true, sets, labels, sample_weight)
    return float(np.average(mask.sum(axis=1) == 1, weights=weights))


def accuracy_among_singletons(
    y_true: ArrayLike, sets: ArrayLike, *, labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None
) -> float:
    """Accuracy restricted to the samples with a one-class set (NaN if there are none).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    sets : array-like of shape (n_samples, n_classes)
        Boolean set predictions (e.g. :func:`inflated_argmax`), columns in the class order.
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples.

    Returns
    -------
    float
        The (weighted) share of the one-class sets that are {y}, or NaN.

    Raises
    ------
    ValueError, TypeError
        As :func:`coverage`: malformed sets, labels or weights; ``sets`` is
        a DataFrame whose column names are some of the classes but not all.

    See Also
    --------
    singleton_rate : The share of samples this accuracy is computed on.
    singleton_correct : Correct one-class sets among all samples.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (set-valued rules).

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> accuracy_among_singletons([0, 1, 2], [[1, 1, 0], [1, 0, 0], [0, 0, 1]])
    0.5
    """
    mask, covered, weights = _set_outcomes(y_true, sets, labels, sample_weight)
    single = mask.sum(axis=1) == 1
    weights = np.ones(single.size) if weights is None else weights
    total = weights[single].sum()
    return float(np.sum(weights[single] * covered[single]) / total) if total > 0 else float("nan")


def average_set_size(
    y_true: ArrayLike, sets: ArrayLike, *, labels: ArrayLike | None = None, sample_weight: ArrayLike | None = None
) -> float:
    """Mean number of classes per set.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    sets : array-like of shape (n_samples, n_classes)
        Boolean set predictions (e.g. :func:`inflated_argmax`), columns in the class order.
    labels : array-like of shape (n_classes,), default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples.

    Returns
    -------
    float
        The (weighted) mean set size, between 0 and n_classes.

    Raises
    ------
    ValueError, TypeError
        As :func:`coverage`: malformed sets, labels or weights; ``sets`` is
        a DataFrame whose column names are some of the classes but not all.

    See Also
    --------
    coverage : Share of samples whose set holds the true label.
    singleton_rate : Samples with a one-class set.
    inflated_argmax : Sets to evaluate.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 5.1, Table 4 (the "Avg Set Size" column).

    Soloff, J. A., Barber, R. F. & Willett, R. (2024). Building a stable
    classifier with the inflated argmax. Advances in Neural Information
    Processing Systems 37, 70349-70380.

    Examples
    --------
    >>> average_set_size([0, 1, 2], [[1, 1, 0], [1, 0, 0], [0, 0, 1]])
    1.3333333333333333
    """
    mask, _, weights = _set_outcomes(y_true, sets, labels, sample_weight)
    return float(np.average(mask.sum(axis=1), weights=weights))
