"""Binned calibration errors: the expected (l1), root-mean-square (l2) and maximum calibration error, and the
debiased squared l2 error."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.binning import (
    BIN_STRATEGIES,
    CALIBRATION_KINDS,
    CALIBRATION_NORMS,
    BinStrategy,
    CalibrationKind,
    CalibrationNorm,
    bin_means,
    binned_errors,
)
from polyroc._validation._params import ConstraintLike, Interval, Options, validate_params
from polyroc.calibration._binning import binned, checked_columns

__all__ = [
    "BINNING_CONSTRAINTS",
    "calibration_error",
    "squared_calibration_error",
]

#: The constraints shared by the binned errors and the reliability curve.
BINNING_CONSTRAINTS: dict[str, list[ConstraintLike]] = {
    "kind": [Options(CALIBRATION_KINDS)],
    "n_bins": [Interval("integer", 1, None, closed="left")],
    "strategy": [Options(BIN_STRATEGIES)],
}


@validate_params({**BINNING_CONSTRAINTS, "norm": [Options(CALIBRATION_NORMS)]})
def calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    kind: CalibrationKind = "top-label",
    n_bins: int = 15,
    strategy: BinStrategy = "uniform",
    norm: CalibrationNorm = "l1",
    sample_weight: ArrayLike | None = None,
) -> float:
    """Binned calibration error of predicted probabilities: ECE, RMSCE or MCE.

    The rows are put into ``n_bins`` bins by their score. In each bin b with
    a share ``w_b`` of the weight, the gap is ``|observed_b - score_b|``: the
    (weighted) frequency of the event against the mean score. ``"l1"`` is
    ``sum_b w_b gap_b`` (the expected calibration error, ECE), ``"l2"``
    ``sqrt(sum_b w_b gap_b^2)``, ``"max"`` the largest gap of a non-empty
    bin (MCE). Empty bins count for nothing.

    ``kind="top-label"`` scores each row by its largest probability and
    counts a hit when its class (the first largest) is the true one
    (Guo et al. 2017); with uniform bins it is torchmetrics'
    ``multiclass_calibration_error`` for ``l1``, ``l2`` and ``max``, except
    for scores of exactly 1, which torchmetrics puts in a bin of their own
    and polyroc in the last bin. ``kind="classwise"`` is the mean over the
    classes of each class's binary calibration error of its probability
    against the indicator of the class (Kull et al. 2019).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_proba : array-like of shape (n, m)
        Predicted probabilities, one column per class in the order of
        ``labels`` (or of the sorted labels); every row sums to 1.
    labels : array-like of shape (m,), default=None
        The classes, in the order of the columns; default the sorted
        unique values of ``y_true``.
    kind : {"top-label", "classwise"}, default="top-label"
        What is calibrated: the top label's probability or each class's.
    n_bins : int, default=15
        Number of bins, at least 1.
    strategy : {"uniform", "quantile"}, default="uniform"
        ``"uniform"``: the bins ``[k / n_bins, (k + 1) / n_bins)``, the last
        one including 1. ``"quantile"``: bins of equal weight of rows in the
        order of the scores, ties kept in one bin.
    norm : {"l1", "l2", "max"}, default="l1"
        How the gaps of the bins are summed up.
    sample_weight : array-like of shape (n,), default=None
        Non-negative weights: the means, frequencies and shares of the bins
        are weighted. An integer weight k counts as k copies of its row.

    Returns
    -------
    float
        The calibration error, in [0, 1].

    Raises
    ------
    ValueError
        If ``kind``, ``strategy`` or ``norm`` is not an option, ``n_bins`` is
        below 1, a row of ``y_proba`` is not a probability vector, its
        columns do not match the classes, the lengths differ or the weights
        are invalid.
    TypeError
        If ``n_bins`` is not an int or an input is not numeric.

    See Also
    --------
    squared_calibration_error : The squared l2 error, debiased.
    smooth_calibration_error : A calibration error without bins.
    reliability_curve : The bins themselves, with intervals.

    References
    ----------
    Guo, C., Pleiss, G., Sun, Y. & Weinberger, K. Q. (2017). On calibration
    of modern neural networks. ICML. arXiv:1706.04599

    Kull, M., Perello-Nieto, M., Kängsepp, M., Silva Filho, T., Song, H. &
    Flach, P. (2019). Beyond temperature scaling: obtaining well-calibrated
    multiclass probabilities with Dirichlet calibration. NeurIPS.
    arXiv:1910.12656

    Examples
    --------
    >>> y = [0, 1, 1, 2]
    >>> P = [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6], [0.1, 0.1, 0.8]]
    >>> round(calibration_error(y, P, n_bins=2), 4)  # bin [0.5, 1]: mean score 0.7, 3 of 4 right
    0.05
    """
    columns = checked_columns(y_true, y_proba, labels, kind, sample_weight)
    totals, _ = binned(columns, n_bins, strategy)
    return float(np.mean(binned_errors(totals, norm)))


@validate_params({**BINNING_CONSTRAINTS, "debiased": ["boolean"]})
def squared_calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    kind: CalibrationKind = "top-label",
    n_bins: int = 15,
    strategy: BinStrategy = "uniform",
    debiased: bool = True,
    sample_weight: ArrayLike | None = None,
) -> float:
    """Squared l2 calibration error ``sum_b w_b (observed_b - score_b)^2``, debiased by default.

    The plain estimate is biased upward: even perfectly calibrated scores
    show a gap in every bin, from the noise of the observed frequency. The
    debiased estimate (Kumar, Liang & Ma 2019) subtracts that noise's
    variance from each bin's squared gap:

    ``sum_b w_b [(observed_b - score_b)^2 - observed_b (1 - observed_b) / (n_b - 1)]``

    ``n_b`` being the bin's number of rows, or Kish's effective size of its
    weights. A bin with ``n_b <= 1`` keeps its squared gap. The estimate may
    be negative; it is unbiased when the rows of a bin share one true
    probability of the event. Classwise, it is the mean over the classes.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_proba : array-like of shape (n, m)
        Predicted probabilities, one column per class, rows summing to 1.
    labels : array-like of shape (m,), default=None
        The classes, in the order of the columns.
    kind : {"top-label", "classwise"}, default="top-label"
        As in :func:`calibration_error`.
    n_bins : int, default=15
        Number of bins, at least 1.
    strategy : {"uniform", "quantile"}, default="uniform"
        As in :func:`calibration_error`.
    debiased : bool, default=True
        Subtract the noise; ``False`` gives the plain estimate, the square
        of ``calibration_error(..., norm="l2")``.
    sample_weight : array-like of shape (n,), default=None
        Non-negative weights.

    Returns
    -------
    float
        The estimate of the squared l2 calibration error.

    Raises
    ------
    ValueError
        As :func:`calibration_error`.
    TypeError
        If ``debiased`` is not a bool, ``n_bins`` not an int or an input is
        not numeric.

    See Also
    --------
    calibration_error : The ECE, l2 and maximum errors.

    References
    ----------
    Kumar, A., Liang, P. & Ma, T. (2019). Verified uncertainty calibration.
    NeurIPS. arXiv:1909.10155

    Examples
    --------
    >>> y = [0, 1, 1, 2]
    >>> P = [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6], [0.1, 0.1, 0.8]]
    >>> round(squared_calibration_error(y, P, n_bins=1, debiased=False), 4)  # (0.75 - 0.7)^2
    0.0025
    >>> round(squared_calibration_error(y, P, n_bins=1), 4)  # 0.0025 - 0.75 * 0.25 / 3
    -0.06
    """
    columns = checked_columns(y_true, y_proba, labels, kind, sample_weight)
    totals, _ = binned(columns, n_bins, strategy)
    share, mean_score, observed = bin_means(totals)
    squares = np.where(share > 0, (observed - mean_score) ** 2, 0.0)
    if debiased:
        size = totals.effective_size
        with np.errstate(invalid="ignore", divide="ignore"):
            noise = np.where(size > 1, observed * (1.0 - observed) / (size - 1.0), 0.0)
        squares = squares - np.where(share > 0, noise, 0.0)
    return float(np.mean((share * squares).sum(axis=1)))
