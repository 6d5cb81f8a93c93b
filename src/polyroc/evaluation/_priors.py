"""Evaluation at deployment priors: the evaluated rows reweighted so that the classes take the target priors.

Each row of class k is weighted by ``pi'_k / pi_k`` (times its sample
weight), ``pi'`` the target priors and ``pi`` the evaluated rows' weighted
class shares, so that the classes' totals are in the proportions ``pi'`` and
the total weight is unchanged. Every quantity of :func:`polyroc.evaluate` is
then the one of data drawn with the target priors and the same
class-conditional behaviour (the label-shift assumption): the per-class
recall and every per-class mean loss stay, accuracy becomes
``sum_k pi'_k recall_k``, and precision, F1, kappa, MCC, the expected cost,
the ECEs and the AUCs that mix classes (one-vs-rest: the rest is a mixture of
the other classes in the new proportions; the micro average) move. The
one-vs-one AUCs (Hand & Till) compare two classes at a time and do not move.

The intervals are those of the reweighted rows: every method of
:func:`polyroc.evaluate` is conditional on the class totals (the bootstrap is
stratified by class, the posterior is drawn per true class, the t interval
takes the stratified variance), and within a class the weights are scaled by
one constant, so the shares ``pi`` being estimated adds no variance to a
quantity at fixed target priors; the coverage study of
``benchmarks/coverage.py`` measures them against the population value at the
target priors.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation._costs import check_cost_matrix, check_priors
from polyroc.evaluation._costs import row_costs

__all__ = ["Deployment", "prior_factors", "prior_weights"]


def prior_weights(
    y: np.ndarray, weights: np.ndarray | None, priors: np.ndarray, classes: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The rows' weights at the target ``priors`` and the evaluated rows' weighted class shares.

    Raises
    ------
    ValueError
        If a class of positive target prior has no row of positive weight.

    Examples
    --------
    >>> weights, shares = prior_weights(np.array([0, 0, 0, 1]), None, np.array([0.5, 0.5]), np.array(["a", "b"]))
    >>> weights.tolist(), shares.tolist()
    ([0.6666666666666666, 0.6666666666666666, 0.6666666666666666, 2.0], [0.75, 0.25])
    """
    base = np.ones(y.size) if weights is None else weights
    factors, shares = prior_factors(np.bincount(y, weights=base, minlength=classes.size), priors, classes)
    return base * factors[y], shares


def prior_factors(totals: np.ndarray, priors: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each class's weight factor ``priors_k W / W_k`` from the classes' weight totals W_k, and the shares W_k / W.

    Raises
    ------
    ValueError
        If a class of positive target prior has no weight.
    """
    absent = np.flatnonzero((totals == 0) & (priors > 0))
    if absent.size:
        k = absent[0]
        raise ValueError(
            f"target_priors gives class {classes[k].item()!r} the prior {priors[k]:g}, but no evaluated row (of "
            "positive weight) is of that class: its rates are unknown, so no quantity at those priors is defined"
        )
    total = totals.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        factors = np.where(totals > 0, priors * total / totals, 0.0)
    return factors, totals / total


@dataclass(frozen=True)
class Deployment:
    """A checked cost matrix (m, m) or None, and target priors (m,) or None, of :func:`polyroc.evaluate`."""

    classes: np.ndarray
    costs: np.ndarray | None = None
    priors: np.ndarray | None = None
    shares: np.ndarray | None = None

    @classmethod
    def of(
        cls,
        classes: np.ndarray,
        cost_matrix: ArrayLike | None = None,
        target_priors: ArrayLike | Mapping[Any, float] | None = None,
    ) -> Deployment:
        """The checked options (ValueError or TypeError naming ``cost_matrix`` or ``target_priors``)."""
        costs = None if cost_matrix is None else check_cost_matrix(cost_matrix, classes)
        priors = None if target_priors is None else check_priors("target_priors", target_priors, classes)
        return cls(classes, costs, priors)

    def weighted(self, y: np.ndarray, weights: np.ndarray | None) -> tuple[Deployment, np.ndarray | None]:
        """The rows' weights at the target priors (the given ones without), and the deployment with the shares."""
        if self.priors is None:
            return self, weights
        reweighted, shares = prior_weights(y, weights, self.priors, self.classes)
        return Deployment(self.classes, self.costs, self.priors, shares), reweighted

    def losses(self, losses: dict[str, np.ndarray], y: np.ndarray, scores: np.ndarray) -> dict[str, np.ndarray]:
        """The per-row losses, with the per-row costs of the argmax decisions when there is a cost matrix."""
        return {**losses, **row_costs(y, scores, self.costs)}

    def loss_names(self) -> tuple[str, ...]:
        """The names of the losses it adds."""
        return tuple(row_costs(np.zeros(0, dtype=np.intp), np.zeros((0, self.classes.size)), self.costs))

    def settings(self) -> dict[str, Any]:
        """What :attr:`polyroc.Evaluation.settings` records: the cost matrix, the target and the evaluated priors."""
        found: dict[str, Any] = {}
        labels = self.classes.tolist()
        if self.costs is not None:
            found["cost_matrix"] = self.costs.tolist()
        if self.priors is not None:
            found["target_priors"] = dict(zip(labels, self.priors.tolist()))
        if self.shares is not None:
            found["evaluated_priors"] = dict(zip(labels, self.shares.tolist()))
        return found
