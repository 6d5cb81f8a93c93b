"""The reliability curve: per bin, the mean score against the observed frequency, with an interval per bin."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.binning import BinStrategy, CalibrationKind, bin_means, binned_errors
from polyroc._results import Drawable, number_text
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.calibration._binning import binned, checked_columns
from polyroc.calibration._error import BINNING_CONSTRAINTS
from polyroc.intervals._proportions import PROPORTION_METHODS, ProportionMethod, checked_proportion_bounds

__all__ = ["ReliabilityCurve", "reliability_curve"]


@dataclass(frozen=True, eq=False, repr=False)
class ReliabilityCurve(Drawable):
    """Reliability curves: per curve and bin, the mean score, the observed frequency and its interval.

    Arrays of shape (c, n_bins) hold one row per curve: one for
    ``kind="top-label"``, one per class for ``"classwise"``. An empty bin has
    count 0 and NaN mean score, frequency and bounds.
    Its ``plot()`` draws the reliability diagram
    (:class:`polyroc.plotting.ReliabilityDisplay`).

    Attributes
    ----------
    classes : ndarray of shape (c,)
        The curves: ``["top-label"]``, or the classes.
    edges : ndarray of shape (c, n_bins + 1)
        The edges of each curve's bins; bin b is ``[edges[b], edges[b + 1])``,
        the last one including 1.
    count : ndarray of int, shape (c, n_bins)
        Rows of positive weight in each bin.
    mean_score : ndarray of shape (c, n_bins)
        Weighted mean score of the bin's rows.
    observed : ndarray of shape (c, n_bins)
        Weighted frequency of the event (the hit) among them.
    observed_low, observed_high : ndarray of shape (c, n_bins)
        The bounds of ``observed``'s interval.
    calibration_error : float
        The expected calibration error (l1) of these bins, the mean over
        the curves: :func:`calibration_error` with the same settings.
    interval_method : str
        The per-bin interval, e.g. ``"Clopper-Pearson exact interval"``.
    settings : dict
        ``calibration`` (the kind), ``n_bins``, ``strategy``, ``confidence``,
        ``interval`` and ``weighted``.

    See Also
    --------
    reliability_curve : Makes it.
    calibration_error : The calibration error of the same bins.

    Examples
    --------
    >>> curve = reliability_curve([0, 1, 1, 2], [[0.8, 0.1, 0.1], [0.3, 0.6, 0.1], [0.2, 0.2, 0.6],
    ...                                          [0.1, 0.1, 0.8]], kind="classwise", n_bins=2)
    >>> curve.classes.tolist(), curve.count.tolist()
    ([0, 1, 2], [[3, 1], [3, 1], [2, 2]])
    """

    classes: np.ndarray
    edges: np.ndarray
    count: np.ndarray
    mean_score: np.ndarray
    observed: np.ndarray
    observed_low: np.ndarray
    observed_high: np.ndarray
    calibration_error: float
    interval_method: str
    settings: dict[str, Any]

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per curve and bin."""
        rows = []
        for curve, name in enumerate(self.classes.tolist()):
            for b in range(self.count.shape[1]):
                rows.append(
                    {
                        "class": name,
                        "bin": b,
                        "low_edge": float(self.edges[curve, b]),
                        "high_edge": float(self.edges[curve, b + 1]),
                        "count": int(self.count[curve, b]),
                        "mean_score": float(self.mean_score[curve, b]),
                        "observed": float(self.observed[curve, b]),
                        "observed_low": float(self.observed_low[curve, b]),
                        "observed_high": float(self.observed_high[curve, b]),
                    }
                )
        return rows

    def _view_notes(self) -> list[str]:
        empty = int((self.count == 0).sum())
        if not empty:
            return []
        return [f"{empty} of {self.count.size} bins are empty: count 0, no mean score, frequency or interval."]

    @validate_params({"digits": [Interval("integer", 0, None, closed="left")]})
    def to_text(self, digits: int = 4) -> str:
        """The bins as aligned plain text, one line per curve and bin, under a line of the settings.

        Parameters
        ----------
        digits : int, default=4
            Decimals of the scores and frequencies.

        Returns
        -------
        str
            A line of the settings and the ECE, a header, then one line per
            curve and bin: edges, count, mean score, observed frequency and
            its interval ("—" for an empty bin).

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
        >>> curve = reliability_curve([0, 1, 1], [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]], n_bins=2)
        >>> print(curve.to_text(2).splitlines()[3])
        top-label    1    0.50   1.00      3        0.70      0.67  [0.09, 0.99]
        """
        level = f"{100 * self.settings['confidence']:g}%"
        lines = [
            f"Reliability curve ({self.settings['calibration']}, {self.count.shape[1]} "
            f"{self.settings['strategy']} bins; {level} {self.interval_method} per bin); "
            f"ECE {number_text(self.calibration_error, digits)}",
            f"{'class':<10} {'bin':>3} {'low':>7} {'high':>6} {'count':>6} {'mean score':>11} {'observed':>9}"
            "  interval",
        ]
        for row in self._frame_rows():
            lines.append(
                f"{row['class']!s:<10} {row['bin']:>3} {number_text(row['low_edge'], digits):>7} "
                f"{number_text(row['high_edge'], digits):>6} {row['count']:>6} "
                f"{number_text(row['mean_score'], digits):>11} {number_text(row['observed'], digits):>9}  "
                f"[{number_text(row['observed_low'], digits)}, {number_text(row['observed_high'], digits)}]"
            )
        return "\n".join(lines)


@validate_params(
    {
        **BINNING_CONSTRAINTS,
        "confidence": [Interval("real", 0, 1, closed="neither")],
        "interval": [Options(tuple(PROPORTION_METHODS))],
    }
)
def reliability_curve(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    kind: CalibrationKind = "top-label",
    n_bins: int = 15,
    strategy: BinStrategy = "uniform",
    confidence: float = 0.95,
    interval: ProportionMethod = "clopper-pearson",
    sample_weight: ArrayLike | None = None,
) -> ReliabilityCurve:
    """Reliability curve of predicted probabilities, with a confidence interval of each bin's frequency.

    The bins are those of :func:`calibration_error` with the same ``kind``,
    ``n_bins`` and ``strategy``. In each bin, the observed frequency of the
    event gets a binomial interval: Clopper-Pearson's exact interval by
    default, Wilson's score interval or Jeffreys' interval as options (see
    :func:`polyroc.intervals.proportion_interval`). Under weights the
    frequency is weighted and its interval is the one of ``observed * n_eff``
    successes in ``n_eff`` trials, n_eff being Kish's effective size of the
    bin's weights (:func:`polyroc.intervals.effective_sample_size`).

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_proba : array-like of shape (n, m)
        Predicted probabilities, one column per class, rows summing to 1.
    labels : array-like of shape (m,), default=None
        The classes, in the order of the columns.
    kind : {"top-label", "classwise"}, default="top-label"
        One curve of the top label's probability, or one per class.
    n_bins : int, default=15
        Number of bins, at least 1.
    strategy : {"uniform", "quantile"}, default="uniform"
        As in :func:`calibration_error`.
    confidence : float, default=0.95
        Level of each bin's interval, in (0, 1).
    interval : {"clopper-pearson", "wilson", "jeffreys"}, default="clopper-pearson"
        The per-bin interval.
    sample_weight : array-like of shape (n,), default=None
        Non-negative weights.

    Returns
    -------
    ReliabilityCurve
        Its ``to_frame()`` has one row per curve and bin, with the columns
        ``class``, ``bin``, ``low_edge``, ``high_edge``, ``count``,
        ``mean_score``, ``observed``, ``observed_low`` and ``observed_high``.

    Raises
    ------
    ValueError
        If ``kind``, ``strategy`` or ``interval`` is not an option,
        ``n_bins`` is below 1, ``confidence`` is not in (0, 1), a row of
        ``y_proba`` is not a probability vector, its columns do not match
        the classes, the lengths differ or the weights are invalid.
    TypeError
        If ``n_bins`` is not an int, ``confidence`` not a real number or an
        input is not numeric.

    See Also
    --------
    calibration_error : The calibration error of the same bins.

    References
    ----------
    Clopper, C. J. & Pearson, E. S. (1934). The use of confidence or fiducial
    limits illustrated in the case of the binomial. Biometrika 26, 404-413.
    doi:10.1093/biomet/26.4.404

    Examples
    --------
    >>> curve = reliability_curve([0, 1, 1, 0], [[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.9, 0.1]], n_bins=2)
    >>> curve.to_frame()[["bin", "count", "mean_score", "observed"]].round(3).values.tolist()
    [[0.0, 0.0, nan, nan], [1.0, 4.0, 0.75, 0.75]]
    >>> curve.interval_method
    'Clopper-Pearson exact interval'
    """
    columns = checked_columns(y_true, y_proba, labels, kind, sample_weight)
    totals, edges = binned(columns, n_bins, strategy)
    _, mean_score, observed = bin_means(totals)
    trials = totals.effective_size
    successes = totals.hits if columns.weights is None else np.minimum(np.nan_to_num(observed) * trials, trials)
    low, high = checked_proportion_bounds(successes, trials, method=interval, confidence=float(confidence))
    names = np.array(["top-label"]) if kind == "top-label" else columns.classes
    return ReliabilityCurve(
        classes=names,
        edges=edges,
        count=totals.rows,
        mean_score=mean_score,
        observed=observed,
        observed_low=low,
        observed_high=high,
        calibration_error=float(np.mean(binned_errors(totals, "l1"))),
        interval_method=PROPORTION_METHODS[interval],
        settings={
            "calibration": kind,
            "n_bins": n_bins,
            "strategy": strategy,
            "confidence": float(confidence),
            "interval": interval,
            "weighted": columns.weights is not None,
        },
    )
