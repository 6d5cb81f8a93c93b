"""Tests of calibration per class: Spiegelhalter's Z and the Hosmer-Lemeshow statistic, Holm-adjusted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from polyroc._engine.binning import bin_rows, bin_totals
from polyroc._results import Result, html_table, number_text
from polyroc._validation._params import Interval, Options, validate_params
from polyroc._warnings import warn
from polyroc.calibration._binning import checked_columns
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._comparison import holm_adjusted

__all__ = ["CALIBRATION_TESTS", "CalibrationTest", "CalibrationTestMethod", "calibration_test"]

CalibrationTestMethod = Literal["spiegelhalter", "hosmer-lemeshow"]

#: The tests -> the name their results carry in ``method``.
CALIBRATION_TESTS: dict[str, str] = {
    "spiegelhalter": "Spiegelhalter's Z test",
    "hosmer-lemeshow": "Hosmer-Lemeshow chi-squared test (external validation, df = groups)",
}

#: Fewer expected events or non-events than this in a Hosmer-Lemeshow group: its p-values are too small.
FEW_EXPECTED = 5

#: The name of the row of the top label's confidence.
TOP_LABEL = "top-label"


def _direction(balance: float) -> str:
    """The reading of a balance ``sum (y - p)(1 - 2p)``: its sign, in words."""
    if balance > 0:
        return "over-confident"
    if balance < 0:
        return "under-confident"
    return "balanced"


@dataclass(frozen=True, eq=False, repr=False)
class CalibrationTest(Result):
    """Tests of calibration, one row per class and one for the top label, with Holm-adjusted p-values.

    Each row tests the hypothesis that its scores are calibrated: for a
    class k, that the event ``y = k`` happens with probability ``p_k``; for
    the top label, that the largest probability of a row is the probability
    that its class (the first largest) is the true one.

    Attributes
    ----------
    classes : ndarray of shape (m + 1,)
        The rows: the classes, then ``"top-label"``.
    statistic : ndarray of shape (m + 1,)
        Spiegelhalter's Z, or the Hosmer-Lemeshow chi-squared statistic.
    df : ndarray of shape (m + 1,)
        The degrees of freedom of the chi-squared statistic (the groups it
        sums over); NaN for Z, which is referred to the normal distribution.
    p_value : ndarray of shape (m + 1,)
        The p-value of each row (two-sided for Z).
    p_holm : ndarray of shape (m + 1,)
        Holm's adjustment of the p-values over all the rows: a row with
        ``p_holm < alpha`` rejects calibration with a family-wise error rate
        of at most ``alpha`` over the whole table.
    direction : ndarray of str, shape (m + 1,)
        The sign of each row's balance in words: ``"over-confident"``
        (positive), ``"under-confident"`` (negative) or ``"balanced"``. The
        balance is ``sum w (y - p)(1 - 2p)`` over the rows (Spiegelhalter's
        numerator) or ``sum_g (O_g - E_g)(1 - 2 E_g / n_g)`` over the groups
        (Hosmer-Lemeshow); see :func:`calibration_test`.
    method : str
        The test, e.g. ``"Spiegelhalter's Z test"``.
    settings : dict
        ``method``, ``n_bins``, ``weighted`` and ``adjustment`` (``"holm"``).

    See Also
    --------
    calibration_test : Makes it.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> P = rng.dirichlet(np.ones(3), size=500)
    >>> y = (rng.uniform(size=(500, 1)) > P.cumsum(axis=1)).sum(axis=1)
    >>> result = calibration_test(y, P)
    >>> result.classes.tolist(), bool(np.all(result.p_holm >= result.p_value))
    ([0, 1, 2, 'top-label'], True)
    """

    classes: np.ndarray
    statistic: np.ndarray
    df: np.ndarray
    p_value: np.ndarray
    p_holm: np.ndarray
    direction: np.ndarray
    method: str
    settings: dict[str, Any]

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per class and one for the top label."""
        return [
            {
                "class": name,
                "statistic": float(self.statistic[i]),
                "df": float(self.df[i]),
                "p_value": float(self.p_value[i]),
                "p_holm": float(self.p_holm[i]),
                "direction": str(self.direction[i]),
                "method": self.method,
            }
            for i, name in enumerate(self.classes.tolist())
        ]

    def _view_sections(self) -> list[str]:
        header = ["class", "statistic", "df", "p-value", "p (Holm)", "direction"]
        cells = [
            [row[key] for key in ("class", "statistic", "df", "p_value", "p_holm", "direction")]
            for row in self._frame_rows()
        ]
        return [html_table(cells, header, f"{self.method}; p-values Holm-adjusted over the {len(cells)} rows")]

    def _view_notes(self) -> list[str]:
        undefined = [str(name) for name, p in zip(self.classes.tolist(), self.p_value) if np.isnan(p)]
        if not undefined:
            return []
        return [f"No test for {', '.join(undefined)}: the scores leave the statistic no variance (NaN)."]

    @validate_params(
        {
            "digits": [Interval("integer", 0, None, closed="left")],
            "alpha": [Interval("real", 0, 1, closed="neither")],
        }
    )
    def to_text(self, digits: int = 4, alpha: float = 0.05) -> str:
        """The table as aligned plain text, then a plain reading of the rows that reject calibration.

        Parameters
        ----------
        digits : int, default=4
            Decimals of the statistics and p-values.
        alpha : float, default=0.05
            The family-wise level of the reading: the rows with
            ``p_holm < alpha`` are read out.

        Returns
        -------
        str
            A line naming the test, a header, one line per row, then one
            sentence per rejecting row, e.g. ``"class 2: scores
            over-confident (Z = 3.1, Holm p = 0.0077)"``, or a sentence
            saying that no row rejects.

        Raises
        ------
        ValueError
            If ``digits`` is negative or ``alpha`` not in (0, 1).
        TypeError
            If ``digits`` is not an int or ``alpha`` not a real number.

        See Also
        --------
        to_frame : The same table as a pandas DataFrame.

        Examples
        --------
        >>> y = [0, 0, 1, 1, 0, 1]
        >>> P = [[0.9, 0.1], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.4, 0.6], [0.2, 0.8]]
        >>> print(calibration_test(y, P).to_text(2).splitlines()[-1])
        No row rejects calibration at the 5% family-wise level (Holm), which does not prove calibration.
        """
        symbol = "Z" if self.settings["method"] == "spiegelhalter" else "chi2"
        lines = [
            f"{self.method}, per class and of the top label; p-values Holm-adjusted over the {self.classes.size} rows",
            f"{'class':<10} {symbol:>10} {'df':>4} {'p-value':>10} {'p (Holm)':>10}  direction",
        ]
        readings = []
        for row in self._frame_rows():
            df = "—" if np.isnan(row["df"]) else f"{row['df']:.0f}"
            lines.append(
                f"{row['class']!s:<10} {number_text(row['statistic'], digits):>10} {df:>4} "
                f"{number_text(row['p_value'], digits):>10} {number_text(row['p_holm'], digits):>10}  "
                f"{row['direction']}"
            )
            if row["p_holm"] < alpha:
                name = row["class"] if row["class"] == TOP_LABEL else f"class {row['class']}"
                degrees = "" if symbol == "Z" else f", df = {df}"
                readings.append(
                    f"{name}: scores {row['direction']} ({symbol} = {number_text(row['statistic'], 2)}{degrees}, "
                    f"Holm p = {number_text(row['p_holm'], digits)})"
                )
        level = f"{100 * alpha:g}%"
        if not readings:
            readings = [
                f"No row rejects calibration at the {level} family-wise level (Holm), which does not prove calibration."
            ]
        return "\n".join([*lines, "", *readings])


def _spiegelhalter(scores: np.ndarray, hits: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, ...]:
    """Z, df (NaN), two-sided p-value and balance of each column (c, n); NaN where the variance is 0."""
    residual = (hits - scores) * (1.0 - 2.0 * scores)
    balance = (weights * residual).sum(axis=1)
    variance = (weights**2 * (1.0 - 2.0 * scores) ** 2 * scores * (1.0 - scores)).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(variance > 0, balance / np.sqrt(variance), np.nan)
    return z, np.full(z.shape, np.nan), 2.0 * stats.norm.sf(np.abs(z)), balance


def _hosmer_lemeshow(
    scores: np.ndarray, hits: np.ndarray, weights: np.ndarray | None, n_bins: int
) -> tuple[np.ndarray, ...]:
    """Chi-squared, df, p-value and balance of each column (c, n) over equal-weight groups of its scores, and the
    fewest expected events or non-events of a group (in effective rows)."""
    codes, _ = bin_rows(scores, n_bins, "quantile", weights)
    totals = bin_totals(codes, scores, hits, weights, n_bins)
    observed, expected, weight = totals.hits, totals.score, totals.weight
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = expected / weight
        # Var(O_g) = sum w^2 p(1 - p) ~ (W_g^2 / n_eff) p_g (1 - p_g); unweighted: E_g (1 - E_g / n_g)
        variance = weight**2 / totals.effective_size * mean * (1.0 - mean)
        used = (totals.rows > 0) & (variance > 0)
        terms = np.where(used, (observed - expected) ** 2 / variance, 0.0)
    df = used.sum(axis=1).astype(np.float64)
    statistic = np.where(df > 0, terms.sum(axis=1), np.nan)
    df[df == 0] = np.nan
    balance = np.where(used, (observed - expected) * (1.0 - 2.0 * np.nan_to_num(mean)), 0.0).sum(axis=1)
    fewest = np.where(used, np.minimum(mean, 1.0 - mean) * totals.effective_size, np.inf).min(axis=1)
    return statistic, df, stats.chi2.sf(statistic, df), balance, fewest


@validate_params(
    {
        "method": [Options(tuple(CALIBRATION_TESTS))],
        "n_bins": [Interval("integer", 1, None, closed="left")],
    }
)
def calibration_test(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    method: CalibrationTestMethod = "spiegelhalter",
    n_bins: int = 10,
    sample_weight: ArrayLike | None = None,
) -> CalibrationTest:
    """Test each class's probabilities, and the top label's, for calibration; p-values Holm-adjusted.

    Row k of the table tests whether the probabilities ``p_k`` of class k
    are calibrated against the indicator ``y = k``; a last row,
    ``"top-label"``, tests the largest probability of each row against the
    hit of its class (the first largest), the calibration that the top-label
    ECE measures. The top label is tested besides the classes because
    calibration of every class does not imply it (nor the reverse); it is
    one more hypothesis of the same family, so Holm's adjustment runs over
    all m + 1 rows and a row with ``p_holm < alpha`` is a rejection at
    family-wise error rate ``alpha`` over the whole table.

    ``"spiegelhalter"``: Spiegelhalter's (1986) Z,
    ``Z = sum w (y - p)(1 - 2p) / sqrt(sum w^2 (1 - 2p)^2 p (1 - p))``,
    standard normal under calibration, with a two-sided p-value. It needs
    no bins. ``"hosmer-lemeshow"``: the rows are put into ``n_bins`` groups
    of equal weight in the order of the scores (ties kept in one group, as
    ``strategy="quantile"`` of :func:`calibration_error`), and
    ``sum_g (O_g - E_g)^2 / (E_g (1 - E_g / n_g))`` over the groups
    (O_g: events, E_g: sum of the scores, n_g: rows) is referred to a
    chi-squared distribution with one degree of freedom per non-empty group.
    That is the distribution for **external validation**: the scores were
    not fitted on these rows. On the rows a model was fitted on, Hosmer &
    Lemeshow's df is the number of groups minus 2; this function does not
    give that test.

    The direction of a miscalibration is the sign of its balance,
    ``sum w (y - p)(1 - 2p)`` (for Hosmer-Lemeshow
    ``sum_g (O_g - E_g)(1 - 2 E_g / n_g)``). **Over-confident** means a
    positive balance: on balance, where the score is below 1/2 the event
    happens more often than the score says, and where it is above 1/2 less
    often, so the scores lie farther from 1/2 than the frequencies.
    **Under-confident** is the reverse. For a class whose scores are all
    below 1/2 (common with many classes), over-confident means that the
    event happens more often than its scores say.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels.
    y_proba : array-like of shape (n, m)
        Predicted probabilities, one column per class, rows summing to 1.
    labels : array-like of shape (m,), default=None
        The classes, in the order of the columns.
    method : {"spiegelhalter", "hosmer-lemeshow"}, default="spiegelhalter"
        The test.
    n_bins : int, default=10
        The number of groups of ``"hosmer-lemeshow"``, at least 1; unused
        by ``"spiegelhalter"``.
    sample_weight : array-like of shape (n,), default=None
        Non-negative sampling weights: each row is one observation that
        stands for ``w`` rows of the population. The variance then sums
        ``w^2`` (for the groups, Kish's effective size of their weights), so
        an integer weight k is *not* k independent copies of its row; the
        statistics do not change when all weights are multiplied by a
        constant.

    Returns
    -------
    CalibrationTest
        Its ``to_frame()`` has the columns ``class``, ``statistic``, ``df``,
        ``p_value``, ``p_holm``, ``direction`` and ``method``.

    Raises
    ------
    ValueError
        If ``method`` is not an option, ``n_bins`` is below 1, a row of
        ``y_proba`` is not a probability vector, its columns do not match
        the classes, the lengths differ or the weights are invalid.
    TypeError
        If ``n_bins`` is not an int or an input is not numeric.

    Warns
    -----
    IntervalWarning
        For a row whose statistic has no variance (Z: every score 0, 1/2 or
        1; Hosmer-Lemeshow: every group's mean score 0 or 1): its statistic
        and p-values are NaN, and Holm's adjustment leaves it out. For
        Hosmer-Lemeshow, also when a group expects fewer than 5 events or
        non-events (``E_g`` or ``n_g - E_g``, in Kish's effective rows under
        weights): the chi-squared approximation then gives p-values that are
        too small, measured in ``benchmarks/calibration_type1.py`` (10
        classes, 100 rows: 10% of the class rows rejected at the 5% level).

    See Also
    --------
    calibration_error : How large the miscalibration is, rather than whether there is one.
    reliability_curve : The bins, each frequency with an interval.

    References
    ----------
    Spiegelhalter, D. J. (1986). Probabilistic prediction in patient
    management and clinical trials. Statistics in Medicine 5, 421-433.
    doi:10.1002/sim.4780050506

    Hosmer, D. W. & Lemeshow, S. (1980). Goodness of fit tests for the
    multiple logistic regression model. Communications in Statistics -
    Theory and Methods 9, 1043-1069. doi:10.1080/03610928008827941

    Holm, S. (1979). A simple sequentially rejective multiple test
    procedure. Scandinavian Journal of Statistics 6, 65-70.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.dirichlet(np.ones(3), size=2000)
    >>> y = (rng.uniform(size=(2000, 1)) > truth.cumsum(axis=1)).sum(axis=1)
    >>> sharp = truth**2 / (truth**2).sum(axis=1, keepdims=True)  # over-confident scores
    >>> result = calibration_test(y, sharp)
    >>> result.to_frame()["direction"].tolist()
    ['over-confident', 'over-confident', 'over-confident', 'over-confident']
    >>> bool(result.p_holm.max() < 0.001)
    True
    """
    columns = checked_columns(y_true, y_proba, labels, "classwise", sample_weight)
    top = columns.scores.argmax(axis=0)
    rows = np.arange(columns.scores.shape[1])
    scores = np.vstack([columns.scores, columns.scores[top, rows]])
    hits = np.vstack([columns.hits, columns.hits[top, rows]]).astype(np.float64)
    names = np.array([*columns.classes.tolist(), TOP_LABEL], dtype=object)
    if method == "spiegelhalter":
        weights = np.ones(scores.shape[1]) if columns.weights is None else columns.weights
        statistic, df, p_value, balance = _spiegelhalter(scores, hits, weights)
    else:
        statistic, df, p_value, balance, fewest = _hosmer_lemeshow(scores, hits, columns.weights, n_bins)
        sparse = [str(name) for name, count in zip(names.tolist(), fewest) if count < FEW_EXPECTED]
        if sparse:
            warn(
                f"calibration_test: a Hosmer-Lemeshow group of {', '.join(sparse)} expects fewer than {FEW_EXPECTED} "
                "events or non-events, where the chi-squared p-values are too small (the test rejects too often); "
                "use method='spiegelhalter' or fewer groups (n_bins)",
                IntervalWarning,
            )
    undefined = [str(name) for name, p in zip(names.tolist(), p_value) if np.isnan(p)]
    if undefined:
        why = "every score is 0, 1/2 or 1" if method == "spiegelhalter" else "every group's mean score is 0 or 1"
        warn(
            f"calibration_test: no {CALIBRATION_TESTS[method]} for {', '.join(undefined)}: {why}, so the statistic "
            "has no variance; its statistic and p-values are NaN and Holm's adjustment leaves it out",
            IntervalWarning,
        )
    return CalibrationTest(
        classes=names,
        statistic=statistic,
        df=df,
        p_value=p_value,
        p_holm=holm_adjusted(p_value),
        direction=np.array([_direction(float(value)) for value in balance]),
        method=CALIBRATION_TESTS[method],
        settings={
            "method": method,
            "n_bins": n_bins,
            "weighted": columns.weights is not None,
            "adjustment": "holm",
        },
    )
