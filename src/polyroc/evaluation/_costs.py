"""The expected cost of :func:`polyroc.evaluate`'s decisions, as a mean of per-row costs.

Under a cost matrix C (``C[i, j]``: the cost of deciding j when the class is
i) the rule that :func:`polyroc.evaluate` scores (the argmax of each row)
costs ``C[y, argmax]`` on a row; the expected cost is the weighted mean of
those per-row costs, ``sum(C * counts) / sum(counts)`` of the confusion
counts, which :func:`polyroc.decisions.expected_cost` gives on the same
decisions. As a per-row loss it joins the log loss and the Brier score in
the :class:`~polyroc.evaluation._summary.SummaryStatistics`: its per-class
moments merge over batches and partitions, and its interval is the t
interval of the plain variance (``"t"``): the per-class moments pooled into
one stratum (:meth:`~polyroc.intervals._moments.ClassMoments.pooled`, the
within-class plus the between-class spread), as the rows are an i.i.d.
sample whose class counts vary too; costs that differ much between classes
make that variation count, and the stratified variance of the log loss and
Brier score, which holds the class counts fixed, under-covers the cost
(``benchmarks/coverage.py --costs``). ``"bootstrap"`` is the stratified
percentile bootstrap, conditional on the class counts. Under target priors
(:mod:`polyroc.evaluation._priors`) the reweighted rows give the cost at
those priors, whose class shares are fixed: there the t interval takes the
stratified variance. Lower is better.
"""

from __future__ import annotations

import numpy as np

__all__ = ["COST_SCORE", "row_costs"]

#: The name of the expected cost in :attr:`polyroc.Evaluation.scores`.
COST_SCORE = "expected_cost"


def row_costs(y: np.ndarray, scores: np.ndarray, costs: np.ndarray | None) -> dict[str, np.ndarray]:
    """``{"expected_cost": C[y, argmax]}`` of checked class codes, scores (n, m) and costs (m, m); empty without costs.

    >>> row_costs(np.array([0, 1]), np.array([[.8, .2], [.6, .4]]), np.array([[0.0, 1.0], [5.0, 0.0]]))
    {'expected_cost': array([0., 5.])}
    """
    if costs is None:
        return {}
    return {COST_SCORE: costs[y, np.argmax(scores, axis=1)]}
