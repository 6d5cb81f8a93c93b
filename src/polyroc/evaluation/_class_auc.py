"""Each class's one-vs-rest AUC with DeLong's interval: ``"roc_auc"`` of :attr:`polyroc.Evaluation.class_intervals`.

When :func:`polyroc.evaluate` bounds its AUCs by DeLong's variance (``ci="auto"``
or ``"analytic"``, or ``"delong"`` for ``roc_auc_ovr_macro``), it also gives
each class's AUC against the rest, with the logit interval of that binary
problem's DeLong variance (:func:`polyroc.intervals._delong.class_auc_intervals`,
pROC's ``var(roc(y == k, P[, k]), method = "delong")``). The influences come
from the same sort of each score column as the averaged AUCs'. A stream and a
cluster keep no rows for them, and leave ``"roc_auc"`` out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polyroc.evaluation._analytic import ScoredSample
from polyroc.intervals._delong import class_auc_intervals, class_rows, ranked_influences
from polyroc.intervals._resampling import ConfidenceInterval

__all__ = ["CLASS_AUC", "class_auc_intervals_of", "wants_class_aucs"]

#: The name of the per-class AUCs in :attr:`polyroc.Evaluation.class_intervals`.
CLASS_AUC = "roc_auc"

#: The averaged AUC whose interval method the per-class AUCs follow.
FOLLOWED = "roc_auc_ovr_macro"


def wants_class_aucs(plan: dict[str, str], n_boot: int) -> bool:
    """Whether the per-class AUCs take DeLong's intervals: intervals are asked for, and DeLong bounds the AUCs."""
    return bool(n_boot) and plan.get(FOLLOWED) == "delong"


def class_auc_intervals_of(
    sample: ScoredSample, classes: list, *, confidence: float, table: np.ndarray | None = None
) -> dict[Any, ConfidenceInterval]:
    """Class label -> DeLong's logit interval of its one-vs-rest AUC.

    ``table`` is ``RankedInfluences.class_aucs`` of the sorts that gave the
    point AUCs (each class's AUC, variance and degrees of freedom, taken
    column by column, so that the (m, n) influences are never held); made
    here when None (two classes, whose AUCs take no shared sort).
    """
    if table is None:
        table = ranked_influences(sample.y, sample.scores, sample.weights, [], class_aucs=True).class_aucs
    rows = class_rows(sample.y, sample.weights, sample.n_classes)
    return dict(zip(classes, class_auc_intervals(table, rows, confidence)))
