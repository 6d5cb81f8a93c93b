"""DeLong's paired test of two models' one-vs-rest AUC of each class: ``compare_scores``' ``"roc_auc_per_class"``.

Class k's AUC of a model is the binary AUC of class k against the rest,
scored by the model's column k. Two models' AUCs of class k on the same rows
are compared by DeLong, DeLong & Clarke-Pearson's (1988, doi:10.2307/2531595)
paired test of that binary problem: the variance of the difference is the
variance of the difference of the structural components of the class-k rows
plus that of the other rows pooled, which is pROC's
``roc.test(roc(y == k, A[, k]), roc(y == k, B[, k]), method = "delong",
paired = TRUE)`` (Robin et al. 2011, doi:10.1186/1471-2105-12-77). One row
per class and pair of models, each with a ``class`` entry; ``compare_scores``
adjusts their p-values by Holm's procedure over all of them (every class and
every pair of models: the family is the quantity).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyroc.intervals._delong import auc_difference, auc_influences, logit_interval
from polyroc.intervals._paired_losses import comparison_row

__all__ = ["CLASS_AUC_QUANTITY", "class_delong_rows"]

#: The quantity name of :func:`polyroc.comparison.compare_scores` for the per-class AUCs.
CLASS_AUC_QUANTITY = "roc_auc_per_class"

CLASS_DELONG_TEST = "DeLong paired test (class against the rest)"


def class_delong_rows(y, classes, weights, matrices, pairs, confidence) -> tuple[dict[str, dict[str, float]], list]:
    """Each model's per-class AUCs and the paired test of every (class, pair of models), classes first.

    Parameters
    ----------
    y : ndarray of shape (n,)
        Class codes.
    classes : ndarray of shape (m,)
        The class labels, one per score column.
    weights : ndarray of shape (n,) or None
        Scaled sample weights (rows of weight 0 take no part).
    matrices : dict of str to ndarray of shape (n, m)
        Each model's checked scores.
    pairs : list of (str, str)
        The (model, other) pairs, each difference model − other.
    confidence : float
        Level of the normal interval of each difference.

    Returns
    -------
    estimates : dict
        ``"roc_auc_per_class[<class>]"`` -> model -> that class's AUC.
    rows : list of dict
        :func:`polyroc.intervals._paired_losses.comparison_row` of each
        class and pair (quantity ``"roc_auc_per_class"``), with its
        ``class``. A difference of two AUCs both at 0 or 1, whose DeLong
        variance vanishes, keeps the p-value of DeLong's test (0, or 1 for
        no difference) and takes the interval of each AUC's exact bound at
        level ``1 - alpha / 2`` (Bonferroni), its method saying so.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 2, 2])
    >>> A = np.array([[.6, .2, .2], [.3, .3, .4], [.4, .5, .1], [.2, .2, .6], [.5, .3, .2], [.1, .2, .7]])
    >>> B = np.array([[.5, .3, .2], [.4, .2, .4], [.2, .7, .1], [.3, .5, .2], [.2, .1, .7], [.1, .1, .8]])
    >>> estimates, rows = class_delong_rows(y, np.arange(3), None, {"A": A, "B": B}, [("A", "B")], 0.95)
    >>> estimates["roc_auc_per_class[0]"]
    {'A': 0.75, 'B': 1.0}
    >>> [(row["class"], round(row["difference"], 4), round(row["p_value"], 4)) for row in rows]  # as pROC roc.test
    [(0, -0.25, 0.3865), (1, -0.375, 0.3261), (2, -0.3125, 0.3504)]
    """
    key = ("ovr", None)
    per_class = {name: auc_influences(y, matrix, weights, [key])[key] for name, matrix in matrices.items()}
    labels = classes.tolist()
    estimates = {
        f"{CLASS_AUC_QUANTITY}[{label}]": {name: float(found[0][k]) for name, found in per_class.items()}
        for k, label in enumerate(labels)
    }
    rows: list[dict[str, Any]] = []
    for k, label in enumerate(labels):
        against_rest = (y == k).astype(np.intp)
        for model, other in pairs:
            (estimates_a, influences_a), (estimates_b, influences_b) = per_class[model], per_class[other]
            difference, low, high, _, p_value = auc_difference(
                estimates_a[k], influences_a[k], estimates_b[k], influences_b[k], against_rest, 2, confidence, weights
            )
            method = CLASS_DELONG_TEST
            if low == high and not np.array_equal(matrices[model][:, k], matrices[other][:, k]):
                first, second = (per_class[name][0][k] for name in (model, other))
                low, high = _bound_of_difference(first, second, against_rest, weights, confidence)
                method += "; interval from each AUC's bound (Bonferroni)"
            row = comparison_row(CLASS_AUC_QUANTITY, model, other, difference, low, high, p_value, method)
            rows.append({"quantity": CLASS_AUC_QUANTITY, "class": label, **row})
    return estimates, rows


def _bound_of_difference(first, second, against_rest, weights, confidence):
    """Bounds of a difference of two AUCs at 0 or 1 from each one's exact bound at level 1 - alpha/2 (Bonferroni).

    Their influences vanish, so DeLong's variance of the difference is 0
    although the difference is not determined
    (:func:`polyroc.intervals._delong.logit_interval`).
    """
    rows = np.bincount(against_rest if weights is None else against_rest[weights > 0], minlength=2)
    level = 1 - (1 - confidence) / 2
    (low_a, high_a), (low_b, high_b) = (logit_interval(auc, 0.0, level, rows.min()) for auc in (first, second))
    return float(low_a - high_b), float(high_a - low_b)
