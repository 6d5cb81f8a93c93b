"""The objective of a threshold search: a metric to maximise, or an expected cost to minimise.

Every search maximises one function of the confusion counts. A metric of
:mod:`polyroc.counts` is maximised as it is; the expected cost under a cost
matrix C (:func:`polyroc.decisions.cost_of_counts`, rows the true classes,
columns the decisions) is maximised as its negative, as scikit-learn's
``make_scorer(greater_is_better=False)`` does, and reported with its own
sign. The cost is linear in the counts, so the exact line search of a
coordinate ascent carries one running sum (:class:`~polyroc.thresholds.search.LinearForm`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.costs import counted_cost
from polyroc._validation._costs import check_cost_matrix
from polyroc.counts import metric_name
from polyroc.thresholds.search import LinearForm, MarginForm, checked_metric, margin_metric

#: A reported value: one float or an array of them.
Values = TypeVar("Values", float, np.ndarray)

#: The metric name that tunes for the least expected cost under ``cost_matrix``.
COST_METRIC = "expected_cost"


@dataclass(frozen=True)
class Objective:
    """What a search maximises and how its values are reported.

    ``score`` maps counts (M, m, m) to M values, higher is better (a cost is
    negated); ``line_form`` is the fast line-search form of the metric, or
    None; :meth:`reported` turns searched values into the metric's own sign.
    """

    score: Callable[[np.ndarray], np.ndarray]
    name: str
    greater_is_better: bool
    line_form: MarginForm | LinearForm | None = None

    def reported(self, values: Values) -> Values:
        """Searched values (a float or an array) in the metric's own sign."""
        return values if self.greater_is_better else -values


def is_cost(metric: str | Callable) -> bool:
    """Whether ``metric`` names the expected cost."""
    return isinstance(metric, str) and metric == COST_METRIC


def check_cost_pairing(metric: str | Callable, cost_matrix: ArrayLike | None, metric_arg: str = "metric") -> None:
    """Refuse ``metric="expected_cost"`` without ``cost_matrix`` and ``cost_matrix`` with another metric.

    ``metric_arg`` is the name of the metric's argument in the messages.
    """
    if is_cost(metric) and cost_matrix is None:
        raise ValueError(
            f"{metric_arg}={COST_METRIC!r} needs cost_matrix, an (m, m) array of the cost of each decision "
            "(columns) for each true class (rows)"
        )
    if not is_cost(metric) and cost_matrix is not None:
        raise ValueError(
            f"cost_matrix is only used with {metric_arg}={COST_METRIC!r}; got {metric_arg}={metric_name(metric)!r} "
            "(drop cost_matrix, or tune the expected cost)"
        )


def tuning_objective(metric: str | Callable, cost_matrix: ArrayLike | None, classes: np.ndarray) -> Objective:
    """The :class:`Objective` of ``metric`` (a cost matrix checked against ``classes``).

    Examples
    --------
    >>> objective = tuning_objective("expected_cost", [[0, 1], [4, 0]], np.array([0, 1]))
    >>> objective.greater_is_better, objective.score(np.array([[[3, 1], [1, 5]]])).tolist()
    (False, [-0.5])
    >>> objective.reported(-0.5)
    0.5
    >>> tuning_objective("accuracy", None, np.array([0, 1])).greater_is_better
    True
    """
    check_cost_pairing(metric, cost_matrix)
    if not is_cost(metric):
        return Objective(checked_metric(metric), metric_name(metric), True, margin_metric(metric))
    costs = check_cost_matrix(cost_matrix, classes)

    def negated_cost(counts: np.ndarray) -> np.ndarray:
        return -counted_cost(np.asarray(counts, dtype=np.float64), costs)

    return Objective(negated_cost, COST_METRIC, False, LinearForm(-costs))
