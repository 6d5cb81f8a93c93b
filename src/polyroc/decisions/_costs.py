"""Expected cost of decisions: from labels (:func:`expected_cost`) and from confusion counts (:func:`cost_of_counts`).

The cost matrix C has one row per true class and one column per decision:
``C[i, j]`` is the cost of deciding j when the class is i. The expected
cost of a rule is the mean of ``C[true, decided]`` over the rows (weighted by
``sample_weight``). At other class priors pi it is
``sum_i pi_i sum_j C[i, j] R[i, j]``, with R the confusion matrix
normalised over each true class (the rates of each decision given the class):
the cost the rule would have on data drawn with those priors and the same
class-conditional behaviour.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.costs import counted_cost
from polyroc._engine.counts import confusion_counts
from polyroc._engine.numeric import finish
from polyroc._validation import check_counts, check_targets
from polyroc._validation._costs import check_cost_matrix, check_priors

__all__ = ["cost_of_counts", "expected_cost"]


def cost_of_counts(
    counts: ArrayLike,
    cost_matrix: ArrayLike,
    priors: ArrayLike | Mapping[int, float] | None = None,
) -> float | np.ndarray:
    """Expected cost of confusion counts of any leading shape, as the metrics of :mod:`polyroc.counts`.

    Parameters
    ----------
    counts : array-like of shape (..., m, m)
        Confusion counts, ``counts[..., true, decided]``.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m)
        ``cost_matrix[i, j]``: the cost of deciding j when the class is i;
        finite and non-negative. A DataFrame is labelled by the class
        indices 0..m-1 on both axes, in any order.
    priors : array-like of shape (m,) or mapping, default=None
        Class priors (a distribution over the classes) at which to weigh the
        per-class costs; default the classes' shares of the counts.

    Returns
    -------
    float or ndarray of shape (...)
        The expected cost per leading index: ``sum(C * counts) / sum(counts)``
        without priors, ``sum_i priors[i] * sum_j C[i, j] * counts[i, j] /
        sum_j counts[i, j]`` with them. NaN for all-zero counts, or (with
        priors) when a class of positive prior has no counts.

    Raises
    ------
    ValueError
        If ``counts`` is not of shape (..., m, m) with m >= 2 or holds
        negative, NaN or infinite values; if ``cost_matrix`` is not (m, m),
        holds NaN, infinity or negative entries, or (a DataFrame) is not
        labelled by the classes; if ``priors`` is not a distribution over the
        m classes.
    TypeError
        If ``counts``, ``cost_matrix`` or ``priors`` is not numeric.

    See Also
    --------
    expected_cost : The same cost from true and decided labels.
    polyroc.counts.accuracy : One minus the expected cost under 0-1 costs.

    Examples
    --------
    >>> counts = np.array([[8, 2], [1, 9]])
    >>> cost_of_counts(counts, [[0, 1], [5, 0]])
    0.35
    >>> round(cost_of_counts(counts, [[0, 1], [5, 0]], priors=[0.9, 0.1]), 6)
    0.23
    >>> cost_of_counts(np.stack([counts, counts.T]), [[0, 1], [1, 0]]).tolist()
    [0.15, 0.15]
    """
    table = check_counts(counts).astype(np.float64)
    classes = np.arange(table.shape[-1])
    costs = check_cost_matrix(cost_matrix, classes)
    weights = None if priors is None else check_priors("priors", priors, classes)
    return finish(counted_cost(table, costs, weights))


def expected_cost(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    cost_matrix: ArrayLike,
    labels: ArrayLike | None = None,
    priors: ArrayLike | Mapping[object, float] | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Expected cost of decisions: the mean of ``cost_matrix[true, decided]``, or its value at other priors.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_pred : array-like of shape (n,)
        Decided labels.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m)
        ``cost_matrix[i, j]``: the cost of deciding class j when the class is
        i, rows and columns in ``labels`` order; finite and non-negative. A
        DataFrame is labelled by the classes on both axes, in any order, and
        is reordered to ``labels``.
    labels : array-like of shape (m,), default=None
        The classes in the order of the cost matrix; default the sorted
        labels of ``y_true`` and ``y_pred``.
    priors : array-like of shape (m,), mapping or pandas.Series, default=None
        Class priors (non-negative, summing to 1; in ``labels`` order, or keyed
        by the classes) at which to compute the cost:
        ``sum_i priors[i] sum_j C[i, j] R[i, j]`` with R the confusion matrix
        normalised over each true class. Default: the mean cost over the rows,
        i.e. the priors of ``y_true``.
    sample_weight : array-like of shape (n,), default=None
        Row weights.

    Returns
    -------
    float
        The expected cost per row.

    Raises
    ------
    ValueError
        If the labels are not 1-D of one length, hold labels outside
        ``labels`` or name fewer than 2 classes; if ``cost_matrix`` is not
        (m, m), holds NaN, infinity or negative entries, or (a DataFrame) is
        labelled by other labels than the classes; if ``priors`` is not a
        distribution over the classes or lacks one; if a class of positive
        prior has no row (of positive weight) in ``y_true``; if
        ``sample_weight`` is not valid.
    TypeError
        If the labels mix kinds, or ``cost_matrix``, ``priors`` or
        ``sample_weight`` is not numeric.

    See Also
    --------
    cost_of_counts : The same cost of confusion counts of any leading shape.
    bayes_decision : The decisions of least expected cost given probabilities.

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. Proceedings
    of IJCAI 2001, 973-978.

    Examples
    --------
    >>> costs = [[0, 1, 1], [10, 0, 1], [1, 1, 0]]
    >>> expected_cost([0, 1, 2, 1], [0, 0, 2, 1], cost_matrix=costs)
    2.5
    >>> round(expected_cost([0, 1, 2, 1], [0, 0, 2, 1], cost_matrix=costs, priors=[0.5, 0.25, 0.25]), 6)
    1.25
    """
    targets = check_targets(y_true, y_pred, labels=labels, sample_weight=sample_weight)
    costs = check_cost_matrix(cost_matrix, targets.classes)
    weights = None if priors is None else check_priors("priors", priors, targets.classes)
    m = targets.classes.size
    counts = confusion_counts(targets.y_true, targets.y_pred, m, targets.sample_weight).astype(np.float64)
    if weights is not None:
        empty = (counts.sum(axis=1) == 0) & (weights > 0)
        if np.any(empty):
            raise ValueError(
                f"priors gives class {targets.classes[np.flatnonzero(empty)[0]].item()!r} a positive prior but y_true "
                "has no row (of positive weight) of it: its cost rates are undefined"
            )
    return float(counted_cost(counts, costs, weights))
