"""Prior shift: adjust calibrated probabilities to new class priors, and estimate the priors of deployment data.

:func:`adjust_to_priors` maps posteriors calibrated at the training priors
pi to the posteriors at priors pi': ``p_i pi'_i / pi_i``, renormalised
(Saerens, Latinne & Decaestecker, 2002). :func:`estimate_priors` estimates
pi' from unlabelled deployment scores, by the EM fixed point of the same
paper or by black-box shift estimation (BBSE; Lipton, Wang & Smola, 2018,
arXiv:1802.03916), each prior with a bootstrap interval.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.counts import chunk_length, confusion_counts
from polyroc._results import Result, html_table, interval_cells, interval_table, number_text
from polyroc._validation import check_labels_argument, check_score_matrix, check_scores
from polyroc._validation._costs import check_priors
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.decisions._shift import EM_MAX_ITER, EM_TOLERANCE, adjusted_scores, bbse_priors, em_priors
from polyroc.exceptions import ConvergenceWarning
from polyroc.intervals._resampling import (
    CONFIDENCE,
    POSITIVE_COUNT,
    ConfidenceInterval,
    degenerate_interval,
    is_zero_width,
    stratum_multiplicities,
)

__all__ = ["PRIOR_METHODS", "PriorEstimate", "adjust_to_priors", "estimate_priors"]

#: The methods of :func:`estimate_priors`.
PRIOR_METHODS = ("em", "bbse")
PriorMethod = Literal["em", "bbse"]

#: ``interval_method`` of the intervals of each method.
INTERVAL_METHODS = {
    "em": "percentile bootstrap of the deployment rows",
    "bbse": "percentile bootstrap of the deployment rows and of the validation rows within each class",
}

Priors = ArrayLike | Mapping[Any, float]


def _column_classes(labels: ArrayLike | None, m: int, name: str) -> np.ndarray:
    """The classes of the m score columns: ``labels`` (m distinct labels) or 0..m-1."""
    if labels is None:
        return np.arange(m)
    classes = check_labels_argument(labels)
    if classes.size != m:
        raise ValueError(f"labels names {classes.size} classes but {name} has {m} columns")
    return classes


def adjust_to_priors(
    y_score: ArrayLike,
    *,
    train_priors: Priors,
    target_priors: Priors,
    labels: ArrayLike | None = None,
) -> np.ndarray:
    """Probabilities calibrated at the training priors, adjusted to other class priors.

    Under prior shift (the classes' priors change, each class's distribution
    of inputs does not) the posterior at priors pi' is
    ``p_i * (pi'_i / pi_i)``, renormalised over the classes.

    Parameters
    ----------
    y_score : array-like of shape (n, m)
        Probabilities calibrated at ``train_priors``, rows summing to 1.
    train_priors : array-like of shape (m,), mapping or pandas.Series
        The class priors of the training data, all positive (in ``labels``
        order, or keyed by the classes).
    target_priors : array-like of shape (m,), mapping or pandas.Series
        The class priors to adjust to: a distribution over the classes (zeros
        allowed).
    labels : array-like of shape (m,), default=None
        The classes of the columns, for priors keyed by class; default 0..m-1.

    Returns
    -------
    ndarray of shape (n, m)
        The adjusted probabilities, rows summing to 1.

    Raises
    ------
    ValueError
        If ``y_score`` is not (n, m) probabilities; if a prior is not a
        distribution over the m classes, or lacks a class; if
        ``train_priors`` has a zero; if a row of ``y_score`` puts all its
        probability on classes of target prior 0.
    TypeError
        If ``y_score`` or a prior is not numeric.

    See Also
    --------
    estimate_priors : Estimate the target priors from unlabelled scores.
    bayes_decision : Decide from the adjusted probabilities.

    References
    ----------
    Saerens, M., Latinne, P. & Decaestecker, C. (2002). Adjusting the outputs
    of a classifier to new a priori probabilities: a simple procedure. Neural
    Computation 14(1), 21-41. doi:10.1162/089976602753284446

    Examples
    --------
    >>> adjust_to_priors([[0.5, 0.5], [0.8, 0.2]], train_priors=[0.5, 0.5], target_priors=[0.2, 0.8]).round(4)
    array([[0.2, 0.8],
           [0.5, 0.5]])
    """
    scores = check_score_matrix(y_score)
    classes = _column_classes(labels, scores.shape[1], "y_score")
    train = check_priors("train_priors", train_priors, classes, positive=True)
    target = check_priors("target_priors", target_priors, classes)
    lost = ~np.any(scores[:, target > 0] > 0, axis=1)
    if np.any(lost):
        raise ValueError(
            f"row {int(np.flatnonzero(lost)[0])} of y_score puts all its probability on classes of target prior 0; "
            "its adjusted probabilities are undefined"
        )
    return adjusted_scores(scores, target / train)


@dataclass(frozen=True, eq=False, repr=False)
class PriorEstimate(Result):
    """Estimated class priors of deployment data, each with a bootstrap interval.

    Attributes
    ----------
    classes : ndarray of shape (m,)
        The classes.
    priors : ndarray of shape (m,)
        The estimated priors, in class order, summing to 1.
    intervals : dict
        Class -> :class:`~polyroc.intervals.ConfidenceInterval` of its prior
        (empty with ``n_boot=None``); its ``method`` names the bootstrap.
    method : str
        ``"em"`` or ``"bbse"``.
    n_iter : int
        EM steps taken to the fixed point (0 for BBSE, a direct solve).
    converged : bool
        Whether the EM fixed point met its tolerance (True for BBSE).
    settings : dict
        ``method``, ``confidence``, ``n_boot``, ``random_state``,
        ``interval_method``, ``tol`` and ``max_iter`` (EM), ``train_priors``
        (EM), ``n_val`` (BBSE), ``clipped`` (BBSE: whether a negative prior
        was set to 0) and ``replicates_not_converged`` (EM).

    See Also
    --------
    estimate_priors : Makes it.
    adjust_to_priors : Adjust probabilities to the estimated priors.

    Examples
    --------
    >>> estimate = estimate_priors([[0.9, 0.1], [0.2, 0.8], [0.7, 0.3]], train_priors=[0.5, 0.5], n_boot=None)
    >>> estimate.priors.round(4).tolist(), estimate.converged
    ([0.77, 0.23], True)
    """

    classes: np.ndarray
    priors: np.ndarray
    intervals: dict[Any, ConfidenceInterval]
    method: str
    n_iter: int
    converged: bool
    settings: dict[str, Any]

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per class: the prior, its interval and the interval's method."""
        rows = []
        for name, prior in zip(self.classes.tolist(), self.priors.tolist()):
            interval = self.intervals.get(name)
            rows.append(
                {
                    "class": name,
                    "prior": prior,
                    "low": float("nan") if interval is None else interval.low,
                    "high": float("nan") if interval is None else interval.high,
                    "interval_method": None if interval is None else interval.method,
                }
            )
        return rows

    def _view_sections(self) -> list[str]:
        rows = [(name, prior, self.intervals.get(name)) for name, prior in zip(self.classes, self.priors.tolist())]
        summary: list[list[Any]] = [["method", self.method], ["iterations", self.n_iter], ["converged", self.converged]]
        table = interval_table(rows, "Estimated priors", "class", why="no interval (n_boot=None)")
        return [html_table(summary), table]

    def _view_notes(self) -> list[str]:
        notes = []
        if not self.converged:
            notes.append(f"The EM fixed point did not converge in {self.n_iter} steps: raise max_iter.")
        if self.settings.get("clipped"):
            notes.append("A negative BBSE prior was set to 0 and the others rescaled to sum to 1.")
        return notes

    @validate_params({"digits": [Interval("integer", 0, None, closed="left")]})
    def to_text(self, digits: int = 4) -> str:
        """The priors as aligned plain text, one line per class, under a line of the method.

        Parameters
        ----------
        digits : int, default=4
            Decimals of the priors.

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
        to_frame : The same table as a pandas DataFrame.

        Examples
        --------
        >>> estimate = estimate_priors([[0.9, 0.1], [0.2, 0.8]], train_priors=[0.5, 0.5], n_boot=None)
        >>> print(estimate.to_text(2))
        Priors by em (9 iterations, converged)
        class  prior  interval
        0       0.60  —
        1       0.40  —
        """
        state = "converged" if self.converged else "not converged"
        lines = [f"Priors by {self.method} ({self.n_iter} iterations, {state})", "class  prior  interval"]
        for name, prior in zip(self.classes.tolist(), self.priors.tolist()):
            interval = self.intervals.get(name)
            bounds = "—" if interval is None else " ".join(interval_cells(interval, digits)[1:])
            lines.append(f"{name!s:<6} {number_text(prior, digits):>5}  {bounds}")
        return "\n".join(lines)


def _class_intervals(
    classes: np.ndarray, estimate: np.ndarray, replicates: np.ndarray, settings: dict[str, Any]
) -> dict[Any, ConfidenceInterval]:
    """Class -> the percentile interval of its prior's replicates (b, m); zero width marked degenerate."""
    intervals = {}
    for column, name in enumerate(classes.tolist()):
        interval = ConfidenceInterval.from_replicates(
            float(estimate[column]),
            replicates[:, column],
            confidence=settings["confidence"],
            interval_method=settings["interval_method"],
            n_boot=settings["n_boot"],
            random_state=settings["random_state"],
        )
        if is_zero_width(interval.low, interval.high):
            interval = degenerate_interval(interval, "the prior is the same in every replicate")
        intervals[name] = interval
    return intervals


def _em_estimate(scores, train, classes, settings):
    """The EM estimate of checked inputs, with its replicates over the deployment rows."""
    n = scores.shape[0]
    fit = em_priors(scores, train, np.ones((1, n)), train[None, :], tol=EM_TOLERANCE, max_iter=settings["max_iter"])
    if not fit.converged[0]:
        _warnings.warn(
            f"the EM fixed point of the priors did not converge in {settings['max_iter']} iterations "
            f"(tolerance {EM_TOLERANCE:g}); raise max_iter",
            ConvergenceWarning,
        )
    priors, intervals = fit.priors[0], {}
    if settings["n_boot"] is not None:
        seeds = np.random.default_rng(settings["random_state"]).spawn(settings["n_boot"])
        step = chunk_length(n * 8 * 3)
        fits = [
            em_priors(
                scores,
                train,
                stratum_multiplicities(seeds[start : start + step], [n]),
                np.tile(priors, (len(seeds[start : start + step]), 1)),
                tol=EM_TOLERANCE,
                max_iter=settings["max_iter"],
            )
            for start in range(0, len(seeds), step)
        ]
        settings["replicates_not_converged"] = int(sum((~f.converged).sum() for f in fits))
        intervals = _class_intervals(classes, priors, np.vstack([f.priors for f in fits]), settings)
    return PriorEstimate(classes, priors, intervals, "em", int(fit.n_iter[0]), bool(fit.converged[0]), settings)


def _bbse_estimate(scores, val, settings):
    """The BBSE estimate of checked inputs, with replicates of the counts it rests on."""
    m = val.classes.size
    val_counts = confusion_counts(val.y_true, val.y_score.argmax(axis=1), m).astype(np.float64)
    test_counts = np.bincount(scores.argmax(axis=1), minlength=m).astype(np.float64)
    joint = val_counts.T
    if np.linalg.matrix_rank(joint) < m:
        raise ValueError(
            "val_scores: the confusion matrix of the argmax decisions on the validation rows is singular "
            f"(decisions per class {val_counts.sum(axis=0).astype(int).tolist()}); BBSE needs every class "
            "decided and the decision rates of the classes linearly independent"
        )
    unclipped = np.linalg.solve(joint / joint.sum(), test_counts / test_counts.sum()) * val_counts.sum(axis=1)
    settings["clipped"] = bool(np.any(unclipped < 0))
    priors, intervals = bbse_priors(val_counts, test_counts), {}
    if settings["n_boot"] is not None:
        sizes = val_counts.sum(axis=1)
        draws = [
            (
                np.stack([seed.multinomial(int(size), row / size) for size, row in zip(sizes, val_counts)]),
                seed.multinomial(scores.shape[0], test_counts / test_counts.sum()),
            )
            for seed in np.random.default_rng(settings["random_state"]).spawn(settings["n_boot"])
        ]
        replicates = bbse_priors(np.stack([d[0] for d in draws]), np.stack([d[1] for d in draws]))
        intervals = _class_intervals(val.classes, priors, replicates, settings)
    return PriorEstimate(val.classes, priors, intervals, "bbse", 0, True, settings)


@validate_params(
    {
        "method": [Options(PRIOR_METHODS)],
        "confidence": [CONFIDENCE],
        "n_boot": [None, POSITIVE_COUNT],
        "random_state": ["random_state"],
        "max_iter": [POSITIVE_COUNT],
    }
)
def estimate_priors(
    y_score: ArrayLike,
    *,
    train_priors: Priors | None = None,
    labels: ArrayLike | None = None,
    method: PriorMethod = "em",
    y_val: ArrayLike | None = None,
    val_scores: ArrayLike | None = None,
    confidence: float = 0.95,
    n_boot: int | None = 1000,
    random_state: int | np.random.Generator | None = None,
    max_iter: int = EM_MAX_ITER,
) -> PriorEstimate:
    """Estimate the class priors of unlabelled deployment data under prior shift, with bootstrap intervals.

    ``"em"`` iterates the fixed point of Saerens, Latinne & Decaestecker
    (2002): adjust the deployment posteriors to the current priors
    (:func:`adjust_to_priors`), take their mean as the new priors, from the
    training priors until one step moves no prior by 1e-12 or more (a
    :class:`~polyroc.exceptions.ConvergenceWarning` if ``max_iter`` steps do
    not get there). The steps are accelerated by SQUAREM (Varadhan & Roland,
    2008), which reaches the same fixed point in far fewer steps when a prior
    is near 0. It is the maximum-likelihood estimate when ``y_score`` is
    calibrated at ``train_priors``.

    ``"bbse"`` is black-box shift estimation (Lipton, Wang & Smola, 2018):
    with C the joint confusion matrix of the argmax decisions on labelled
    validation data drawn at the training priors (``C[j, i]``: the share of
    rows of class i decided j) and mu the shares of the decisions on the
    deployment rows, it solves ``C w = mu`` and returns ``w`` times the
    validation class shares. The scores need not be calibrated. Negative
    priors (from sampling noise) are set to 0 and the rest divided by their
    sum, as Lipton et al. clip the weights at 0.

    Each prior's interval is the percentile interval of bootstrap
    replicates: the deployment rows drawn with replacement (and, for BBSE,
    the validation rows within each class, drawn as multinomial counts of
    the decisions, the same distribution). Its coverage is measured in the
    prior-shift study of the user guide.

    Parameters
    ----------
    y_score : array-like of shape (n, m)
        Probabilities of the deployment rows, rows summing to 1.
    train_priors : array-like of shape (m,), mapping or pandas.Series, default=None
        The priors the scores are calibrated at, all positive; required by
        ``"em"``, not taken by ``"bbse"`` (its validation labels give them).
    labels : array-like of shape (m,), default=None
        The classes of the columns; default 0..m-1 (``"em"``) or the sorted
        labels of ``y_val`` (``"bbse"``).
    method : {"em", "bbse"}, default="em"
        The estimator.
    y_val : array-like of shape (n_val,), default=None
        Validation labels, drawn at the training priors; ``"bbse"`` only.
    val_scores : array-like of shape (n_val, m), default=None
        Validation probabilities; ``"bbse"`` only.
    confidence : float, default=0.95
        Level of the intervals, in (0, 1).
    n_boot : int or None, default=1000
        Bootstrap replicates, >= 1; None for no interval.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the replicates.
    max_iter : int, default=10000
        Cap on the EM steps of the estimate and of each replicate.

    Returns
    -------
    PriorEstimate

    Raises
    ------
    ValueError
        If ``y_score`` or ``val_scores`` is not probabilities of m >= 2
        columns; if ``labels`` does not name them; if ``train_priors`` is
        missing (``"em"``), given (``"bbse"``), not a distribution over the
        classes, lacks a class or has a zero; if ``y_val`` and ``val_scores``
        are missing (``"bbse"``), given (``"em"``), of different lengths, or
        the validation confusion matrix is singular; if ``method``,
        ``confidence``, ``n_boot``, ``random_state`` or ``max_iter`` is out
        of its range.
    TypeError
        If an input is of the wrong kind.

    Warns
    -----
    ConvergenceWarning
        If the EM fixed point of the estimate stops at ``max_iter``.

    See Also
    --------
    adjust_to_priors : Adjust the scores to the estimated priors.
    PriorEstimate : The result.
    polyroc.fit_calibrator : Calibrate the scores first, for ``"em"``.

    References
    ----------
    Saerens, M., Latinne, P. & Decaestecker, C. (2002). Adjusting the outputs
    of a classifier to new a priori probabilities: a simple procedure. Neural
    Computation 14(1), 21-41. doi:10.1162/089976602753284446

    Lipton, Z. C., Wang, Y.-X. & Smola, A. J. (2018). Detecting and
    correcting for label shift with black box predictors. ICML 2018.
    arXiv:1802.03916

    Varadhan, R. & Roland, C. (2008). Simple and globally convergent methods
    for accelerating the convergence of any EM algorithm. Scandinavian
    Journal of Statistics 35(2), 335-353. doi:10.1111/j.1467-9469.2007.00585.x

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.choice(2, 4000, p=[0.8, 0.2])  # deployment priors 0.8, 0.2
    >>> x = rng.normal(2.0 * y, 1.0)
    >>> p1 = 1 / (1 + np.exp(-(2.0 * x - 2.0)))  # calibrated at priors 0.5, 0.5
    >>> estimate = estimate_priors(np.column_stack([1 - p1, p1]), train_priors=[0.5, 0.5], n_boot=200,
    ...                            random_state=0)
    >>> estimate.priors.round(2).tolist()
    [0.8, 0.2]
    >>> print(estimate.intervals[1])
    0.2006 [95% CI 0.1839, 0.2240; percentile bootstrap of the deployment rows, B=200]
    """
    scores = check_score_matrix(y_score)
    settings: dict[str, Any] = {
        "method": method,
        "confidence": float(confidence),
        "n_boot": n_boot,
        "random_state": random_state,
        "interval_method": INTERVAL_METHODS[method],
    }
    if method == "em":
        if y_val is not None or val_scores is not None:
            raise ValueError("y_val and val_scores are taken by method='bbse' only; leave them out for 'em'")
        if train_priors is None:
            raise ValueError("method='em' needs train_priors, the priors the scores are calibrated at")
        classes = _column_classes(labels, scores.shape[1], "y_score")
        train = check_priors("train_priors", train_priors, classes, positive=True)
        settings.update(tol=EM_TOLERANCE, max_iter=max_iter, train_priors=train.tolist())
        return _em_estimate(scores, train, classes, settings)
    if train_priors is not None:
        raise ValueError("train_priors is taken by method='em' only; 'bbse' takes the training priors from y_val")
    if y_val is None or val_scores is None:
        raise ValueError("method='bbse' needs y_val and val_scores, labelled validation data at the training priors")
    val = check_scores(y_val, val_scores, labels=labels, name="val_scores", y_name="y_val")
    if val.y_score.shape[1] != scores.shape[1]:
        raise ValueError(f"val_scores has {val.y_score.shape[1]} columns but y_score has {scores.shape[1]}")
    settings["n_val"] = int(val.y_true.size)
    return _bbse_estimate(scores, val, settings)
