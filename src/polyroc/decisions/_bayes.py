"""Bayes decisions: the decision of least expected cost given class probabilities, with an optional reject option.

Given calibrated probabilities p of a row and a cost matrix C (rows true
classes, columns decisions), deciding j costs ``sum_i p_i C[i, j]`` in
expectation; the Bayes decision takes the least. With a cost of abstaining
r, Chow's rule rejects the row when even the least expected cost exceeds r
(Chow, 1970). :func:`reject_option_summary` scores such decisions with the
names of selective classification: the coverage (the share of rows
accepted), the selective risk (the mean cost on the accepted rows) and the
total cost, each rejection costing r.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.costs import bayes_codes, counted_cost
from polyroc._engine.counts import confusion_counts
from polyroc._results import Result, number_text
from polyroc._validation import (
    check_label_vector,
    check_labels_argument,
    check_same_length,
    check_sample_weight,
    check_score_matrix,
    encode_labels,
    resolve_classes,
)
from polyroc._validation._costs import check_cost_matrix, reject_label_for
from polyroc._validation._params import Interval, validate_params

__all__ = ["RejectOptionSummary", "bayes_decision", "reject_option_summary"]

#: The declared constraint of a cost of abstaining: None or a real number >= 0.
REJECT_COST = [None, Interval("real", 0, None, closed="left")]


@validate_params({"reject_cost": REJECT_COST})
def bayes_decision(
    y_proba: ArrayLike,
    *,
    cost_matrix: ArrayLike,
    labels: ArrayLike | None = None,
    reject_cost: float | None = None,
    reject_label: int | float | str | None = None,
) -> np.ndarray:
    """The decision of least expected cost for each row of class probabilities, optionally rejecting.

    Row k decides ``argmin_j sum_i p[k, i] C[i, j]``; ties go to the first
    class in ``labels`` order. Under 0-1 costs (1 off the diagonal, 0 on it)
    this is exactly ``argmax`` of the row, first class on ties. With
    ``reject_cost`` r, a row whose least expected cost exceeds r (strictly)
    is rejected (Chow's rule; under 0-1 costs: rejected when its largest
    probability is below 1 - r). The probabilities must be calibrated for
    these to be the decisions of least expected cost.

    Parameters
    ----------
    y_proba : array-like of shape (n, m)
        Class probabilities, rows summing to 1.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m)
        ``cost_matrix[i, j]``: the cost of deciding j when the class is i,
        finite and non-negative, in ``labels`` order; a DataFrame is
        labelled by the classes on both axes, in any order.
    labels : array-like of shape (m,), default=None
        The classes of the columns; default their indices 0..m-1.
    reject_cost : float, default=None
        The cost of abstaining on a row, >= 0; None never rejects.
    reject_label : int, float or str, default=None
        The label of a rejected row, of the classes' kind and not one of
        them; default -1 for numeric classes (the result keeps their integer
        dtype) and ``"reject"`` for string classes.

    Returns
    -------
    ndarray of shape (n,)
        The decided class of each row (``reject_label`` for a rejected row).

    Raises
    ------
    ValueError
        If ``y_proba`` is not (n, m) probabilities with m >= 2; if ``labels``
        does not name m distinct classes; if ``cost_matrix`` is not (m, m),
        holds NaN, infinity or negative entries, or (a DataFrame) is not
        labelled by the classes; if ``reject_cost`` is negative or NaN; if
        ``reject_label`` is one of the classes.
    TypeError
        If ``y_proba`` or ``cost_matrix`` is not numeric, ``reject_cost``
        not a number, or ``reject_label`` not of the classes' kind.

    See Also
    --------
    expected_cost : The cost of the decisions on labelled data.
    reject_option_summary : Coverage, selective risk and total cost of decisions with rejections.
    polyroc.tune_thresholds : Decisions tuned on validation data instead of derived from costs.

    References
    ----------
    Chow, C. K. (1970). On optimum recognition error and reject tradeoff. IEEE
    Transactions on Information Theory 16(1), 41-46. doi:10.1109/TIT.1970.1054406

    Examples
    --------
    >>> P = [[0.7, 0.2, 0.1], [0.3, 0.6, 0.1], [0.4, 0.3, 0.3]]
    >>> bayes_decision(P, cost_matrix=1 - np.eye(3)).tolist()
    [0, 1, 0]
    >>> costs = [[0, 1, 1], [3, 0, 3], [1, 1, 0]]  # missing class b costs 3
    >>> bayes_decision(P, cost_matrix=costs, labels=["a", "b", "c"]).tolist()
    ['a', 'b', 'b']
    >>> bayes_decision(P, cost_matrix=1 - np.eye(3), reject_cost=0.5).tolist()
    [0, 1, -1]
    """
    scores = check_score_matrix(y_proba, name="y_proba")
    m = scores.shape[1]
    if labels is None:
        classes = np.arange(m)
    else:
        classes = check_labels_argument(labels)
        if classes.size != m:
            raise ValueError(f"labels names {classes.size} classes but y_proba has {m} columns")
    costs = check_cost_matrix(cost_matrix, classes)
    if reject_cost is None:
        return classes[bayes_codes(scores, costs)]
    outcomes = np.concatenate([classes, np.asarray([reject_label_for(reject_label, classes)])])
    return outcomes[bayes_codes(scores, costs, float(reject_cost))]


@dataclass(frozen=True, eq=False, repr=False)
class RejectOptionSummary(Result):
    """How decisions with a reject option do: coverage, selective risk and total cost.

    Attributes
    ----------
    coverage : float
        Share of the rows (of the weight) accepted, i.e. not rejected.
    selective_risk : float
        Mean cost ``cost_matrix[true, decided]`` over the accepted rows; NaN
        when every row is rejected.
    total_cost : float
        Mean cost over all rows, each rejected row costing ``reject_cost``:
        ``coverage * selective_risk + (1 - coverage) * reject_cost``.
    n_accepted, n_rejected : int
        Rows accepted and rejected (of positive weight).
    settings : dict
        ``reject_cost``, ``reject_label``, ``labels`` and ``weighted``.

    See Also
    --------
    reject_option_summary : Makes it.
    bayes_decision : Decisions with a reject option.

    Examples
    --------
    >>> summary = reject_option_summary([0, 1, 1, 0], [0, -1, 0, 0], cost_matrix=1 - np.eye(2), reject_cost=0.3)
    >>> summary.coverage, round(summary.selective_risk, 4), round(summary.total_cost, 4)
    (0.75, 0.3333, 0.325)
    """

    coverage: float
    selective_risk: float
    total_cost: float
    n_accepted: int
    n_rejected: int
    settings: dict[str, Any]

    def _view_notes(self) -> list[str]:
        if self.n_accepted == 0:
            return ["Every row is rejected: the selective risk is undefined."]
        return []

    @validate_params({"digits": [Interval("integer", 0, None, closed="left")]})
    def to_text(self, digits: int = 4) -> str:
        """The summary as one line of plain text.

        Parameters
        ----------
        digits : int, default=4
            Decimals of the numbers.

        Returns
        -------
        str

        Raises
        ------
        ValueError
            If ``digits`` is negative.
        TypeError
            If ``digits`` is not an int.

        See Also
        --------
        to_frame : The same numbers as a pandas DataFrame.

        Examples
        --------
        >>> summary = reject_option_summary([0, 1], [0, -1], cost_matrix=1 - np.eye(2), reject_cost=0.2)
        >>> summary.to_text(2)
        'coverage 0.50 (1 accepted, 1 rejected), selective risk 0.00, total cost 0.10 (reject cost 0.20)'
        """
        return (
            f"coverage {number_text(self.coverage, digits)} ({self.n_accepted} accepted, {self.n_rejected} "
            f"rejected), selective risk {number_text(self.selective_risk, digits)}, total cost "
            f"{number_text(self.total_cost, digits)} (reject cost {number_text(self.settings['reject_cost'], digits)})"
        )


@validate_params({"reject_cost": [Interval("real", 0, None, closed="left")]})
def reject_option_summary(
    y_true: ArrayLike,
    y_decision: ArrayLike,
    *,
    cost_matrix: ArrayLike,
    reject_cost: float,
    labels: ArrayLike | None = None,
    reject_label: int | float | str | None = None,
    sample_weight: ArrayLike | None = None,
) -> RejectOptionSummary:
    """Coverage, selective risk and total cost of decisions that may reject rows.

    The names are those of selective classification (El-Yaniv & Wiener,
    2010): the coverage is the share of rows accepted, the selective risk
    the mean cost on them; the total cost is Chow's risk, the mean cost over
    all rows with each rejection costing ``reject_cost``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_decision : array-like of shape (n,)
        Decisions: classes, or ``reject_label`` for a rejected row (as
        :func:`bayes_decision` returns them).
    cost_matrix : array-like or pandas.DataFrame of shape (m, m)
        ``cost_matrix[i, j]``: the cost of deciding j when the class is i, in
        ``labels`` order; a DataFrame is labelled by the classes.
    reject_cost : float
        The cost of a rejected row, >= 0.
    labels : array-like of shape (m,), default=None
        The classes; default the sorted labels of ``y_true`` and of the
        accepted decisions.
    reject_label : int, float or str, default=None
        The label of a rejection in ``y_decision``; default -1 for numeric
        labels and ``"reject"`` for string labels.
    sample_weight : array-like of shape (n,), default=None
        Row weights.

    Returns
    -------
    RejectOptionSummary

    Raises
    ------
    ValueError
        If the label vectors are not 1-D of one length or hold labels outside
        ``labels``; if ``reject_label`` is one of the classes; if
        ``cost_matrix`` is not a valid (m, m) cost matrix of the classes; if
        ``reject_cost`` is negative or NaN; if ``sample_weight`` is not valid.
    TypeError
        If the labels mix kinds, ``reject_label`` is not of their kind, or
        ``cost_matrix``, ``reject_cost`` or ``sample_weight`` is not numeric.

    See Also
    --------
    bayes_decision : Decisions with a reject option.
    expected_cost : The cost of decisions without rejections.

    References
    ----------
    Chow, C. K. (1970). On optimum recognition error and reject tradeoff. IEEE
    Transactions on Information Theory 16(1), 41-46. doi:10.1109/TIT.1970.1054406

    El-Yaniv, R. & Wiener, Y. (2010). On the foundations of noise-free
    selective classification. Journal of Machine Learning Research 11,
    1605-1641.

    Examples
    --------
    >>> summary = reject_option_summary(["a", "b", "b"], ["a", "reject", "a"], cost_matrix=1 - np.eye(2),
    ...                                 reject_cost=0.25)
    >>> round(summary.coverage, 4), summary.selective_risk, round(summary.total_cost, 4)
    (0.6667, 0.5, 0.4167)
    """
    truth = check_label_vector("y_true", y_true)
    decisions = check_label_vector("y_decision", y_decision)
    check_same_length(y_true=truth, y_decision=decisions)
    weights = check_sample_weight(sample_weight, truth.shape[0])
    kind = np.asarray(["x"]) if truth.dtype.kind in "US" else np.asarray([0])
    rejected = decisions == reject_label_for(reject_label, kind)
    classes = resolve_classes(labels, y_true=truth, y_decision=decisions[~rejected])
    reject = reject_label_for(reject_label, classes)
    costs = check_cost_matrix(cost_matrix, classes)
    row_weights = np.ones(truth.shape[0]) if weights is None else weights
    accepted = ~rejected
    codes_true, codes_decided = encode_labels(truth[accepted], classes), encode_labels(decisions[accepted], classes)
    counts = confusion_counts(codes_true, codes_decided, classes.size, row_weights[accepted])
    total, kept = row_weights.sum(), row_weights[accepted].sum()
    selective = float(counted_cost(counts.astype(np.float64), costs)) if kept > 0 else float("nan")
    coverage = float(kept / total)
    spent = (selective * kept if kept > 0 else 0.0) + float(reject_cost) * (total - kept)
    positive = row_weights > 0
    return RejectOptionSummary(
        coverage,
        selective,
        float(spent / total),
        int(np.sum(accepted & positive)),
        int(np.sum(rejected & positive)),
        {
            "reject_cost": float(reject_cost),
            "reject_label": reject,
            "labels": classes.tolist(),
            "weighted": weights is not None,
        },
    )
