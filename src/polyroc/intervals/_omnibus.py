"""Omnibus tests that K models scored on the same rows are equal on a quantity, before any pair is compared.

- AUCs: DeLong's contrast chi-squared test (DeLong, DeLong & Clarke-Pearson
  1988, doi:10.2307/2531595). With the K models' AUCs ``theta`` and their joint
  covariance ``S`` (the stratified covariance of their influences,
  :func:`polyroc.intervals._delong.stratified_covariance`), and the K − 1
  contrasts ``L = [I, -1]`` (each model against the last),
  ``chi2 = (L theta)' (L S L')^-1 (L theta)`` on K − 1 degrees of freedom. It
  does not depend on the choice of contrasts, and for K = 2 it is the square of
  the z of DeLong's paired test (:func:`polyroc.intervals._delong.auc_difference`),
  so its p-value is exactly the paired test's.
- Accuracy: Cochran's Q (Cochran 1950, doi:10.1093/biomet/37.3-4.256) on the
  rows' hits (prediction equals truth), K models; for K = 2 it is McNemar's
  chi-squared without continuity correction, ``(b - c)^2 / (b + c)``.

Both statistics are referred to the chi-squared distribution; their type-I
error and power are measured in ``benchmarks/omnibus.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import chi2

from polyroc._results import Result, html_table, number_text
from polyroc._validation import (
    check_label_vector,
    check_same_length,
    check_sample_weight,
)
from polyroc._validation._params import Interval, validate_params
from polyroc.intervals._delong import stratified_covariance

__all__ = [
    "COCHRAN_Q",
    "DELONG_OMNIBUS",
    "CochranQ",
    "auc_omnibus",
    "cochran_q",
    "cochran_statistic",
    "untested_row",
]

DELONG_OMNIBUS = "DeLong chi-squared test of equal AUCs"
COCHRAN_Q = "Cochran's Q test of equal accuracies"

#: The ``test`` of a quantity compare_scores has no omnibus test for.
NO_OMNIBUS = "no omnibus test of this quantity (pairwise tests only)"
#: The ``test`` of accuracy under sample weights.
NO_WEIGHTED_Q = "no omnibus test under sample weights (Cochran's Q counts rows; pairwise tests only)"

#: Eigenvalues of ``L S L'`` below this share of the largest count as 0 (two models' AUCs moving together exactly).
RANK_TOLERANCE = 1e-12
#: A contrast of AUCs with no variance differs from 0 when it exceeds this (AUCs lie in [0, 1]).
DIFFERENCE_TOLERANCE = 1e-12

#: The columns of :attr:`polyroc.comparison.ScoreComparison.omnibus`.
OMNIBUS_COLUMNS = ("quantity", "statistic", "df", "p_value", "test")


def contrast_chi2(estimates: np.ndarray, covariance: np.ndarray) -> tuple[float, float, float]:
    """``(chi2, df, p)`` of equal means from estimates (K,) and their covariance (K, K).

    ``df`` is the rank of ``L S L'``: K − 1 unless some contrasts have no
    variance (two models with identical scores), which then take no part if
    they are 0 and make the statistic infinite (p = 0, as DeLong's paired
    test's z) if not. NaN estimates or covariance give NaN statistic and p.

    >>> statistic, df, p = contrast_chi2(np.array([0.8, 0.7]), np.array([[0.002, 0.001], [0.001, 0.002]]))
    >>> round(statistic, 9), df, round(p, 6)  # z = 0.1 / sqrt(0.002 + 0.002 - 2 * 0.001), p = 2 * norm.sf(z)
    (5.0, 1, 0.025347)
    """
    k = estimates.size
    contrasts = np.hstack([np.eye(k - 1), -np.ones((k - 1, 1))])
    if not (np.all(np.isfinite(estimates)) and np.all(np.isfinite(covariance))):
        return float("nan"), float(k - 1), float("nan")
    difference = contrasts @ estimates
    eigenvalues, vectors = np.linalg.eigh(contrasts @ covariance @ contrasts.T)
    kept = eigenvalues > RANK_TOLERANCE * max(float(eigenvalues.max()), 0.0)
    projected = vectors.T @ difference
    if np.any(np.abs(projected[~kept]) > DIFFERENCE_TOLERANCE):
        return float("inf"), float(k - 1), 0.0
    df = int(kept.sum())
    if df == 0:
        return 0.0, 0, 1.0
    statistic = float(np.sum(projected[kept] ** 2 / eigenvalues[kept]))
    return statistic, df, float(chi2.sf(statistic, df))


def auc_omnibus(quantity, estimates, influences, y, n_classes, weights) -> dict[str, Any]:
    """The omnibus row of an AUC quantity from the K models' AUCs (K,) and influences (K, n)."""
    covariance = stratified_covariance(influences, y, n_classes, weights)
    statistic, df, p_value = contrast_chi2(np.asarray(estimates, dtype=np.float64), covariance)
    return {"quantity": quantity, "statistic": statistic, "df": df, "p_value": p_value, "test": DELONG_OMNIBUS}


def cochran_statistic(hits: np.ndarray, frequency: np.ndarray | None = None) -> tuple[float, int, float]:
    """Cochran's Q, its degrees of freedom and p-value from an (n, K) 0/1 array, rows repeated ``frequency`` times.

    ``Q = (K - 1) K sum_j (C_j - mean C)^2 / sum_i f_i R_i (K - R_i)`` with
    ``C_j`` the (frequency-weighted) hits of model j and ``R_i`` row i's hits:
    the usual formula, centred so that no large totals cancel. Without a
    discordant row (every row all right or all wrong) every model has the
    same accuracy and every permutation of a row's hits gives the same Q: the
    statistic is 0 and p = 1 (the exact permutation p-value).

    >>> statistic, df, p = cochran_statistic(np.array([[1, 0], [1, 0], [1, 0], [0, 1], [1, 1]]))
    >>> statistic, df, round(p, 6)  # McNemar's (3 - 1)^2 / (3 + 1), p = P(chi2_1 >= 1)
    (1.0, 1, 0.317311)
    """
    hits = np.asarray(hits, dtype=np.float64)
    k = hits.shape[1]
    frequency = np.ones(hits.shape[0]) if frequency is None else np.asarray(frequency, dtype=np.float64)
    columns = frequency @ hits
    row_hits = hits.sum(axis=1)
    discordance = float(frequency @ (row_hits * (k - row_hits)))
    if discordance == 0:
        return 0.0, k - 1, 1.0
    statistic = (k - 1) * k * float(np.sum((columns - columns.mean()) ** 2)) / discordance
    return statistic, k - 1, float(chi2.sf(statistic, k - 1))


def accuracy_omnibus(quantity, y, predicted: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """The omnibus row of accuracy: Cochran's Q of the models' hits (unweighted rows)."""
    hits = np.column_stack([y_pred == y for y_pred in predicted.values()])
    statistic, df, p_value = cochran_statistic(hits)
    return {"quantity": quantity, "statistic": statistic, "df": df, "p_value": p_value, "test": COCHRAN_Q}


def untested_row(quantity: str, weighted: bool) -> dict[str, Any]:
    """The omnibus row of a quantity without an omnibus test: NaN, with ``test`` saying why."""
    why = NO_WEIGHTED_Q if weighted and quantity == "accuracy" else NO_OMNIBUS
    nan = float("nan")
    return {"quantity": quantity, "statistic": nan, "df": nan, "p_value": nan, "test": why}


def omnibus_text(rows: list[dict[str, Any]], n_models: int, digits: int = 4) -> list[str]:
    """The omnibus rows as aligned plain text lines, under a heading."""
    lines = [
        f"Omnibus tests: are the {n_models} models equal on each quantity?",
        f"{'quantity':<22} {'statistic':>10} {'df':>3} {'p-value':>10}  test",
    ]
    for row in rows:
        df = "—" if row["df"] != row["df"] else f"{row['df']:.0f}"
        lines.append(
            f"{row['quantity']:<22} {number_text(row['statistic'], digits):>10} {df:>3} "
            f"{number_text(row['p_value'], digits):>10}  {row['test']}"
        )
    return lines


@dataclass(frozen=True, eq=False, repr=False)
class CochranQ(Result):
    """Cochran's Q test that K models predicting the same rows have equal accuracies.

    Attributes
    ----------
    models : tuple of str
        The models, in the order given.
    accuracies : dict
        Model -> its accuracy (frequency-weighted with ``sample_weight``).
    statistic : float
        Cochran's Q.
    df : int
        Its degrees of freedom, K − 1.
    p_value : float
        ``P(chi2_df >= Q)``, the asymptotic p-value of equal accuracies.
    method : str
        ``"Cochran's Q test of equal accuracies"``.
    settings : dict
        ``n_samples`` (rows, or the total of the frequency weights) and
        ``weighted``.

    See Also
    --------
    cochran_q : Makes it.
    compare_scores : Pairwise tests, and this test in its ``omnibus`` table.

    Examples
    --------
    >>> result = cochran_q([0, 1, 1, 0, 1], {"a": [0, 1, 1, 0, 0], "b": [0, 1, 0, 1, 0], "c": [1, 1, 1, 0, 1]})
    >>> result.df, round(result.statistic, 4), round(result.p_value, 4)
    (2, 2.0, 0.3679)
    """

    models: tuple[str, ...]
    accuracies: dict[str, float]
    statistic: float
    df: int
    p_value: float
    method: str
    settings: dict[str, Any]

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row: the statistic, df, p-value and test."""
        return [{"statistic": self.statistic, "df": self.df, "p_value": self.p_value, "test": self.method}]

    def _view_sections(self) -> list[str]:
        accuracies = [[name, self.accuracies[name]] for name in self.models]
        test = [[self.method, self.statistic, self.df, self.p_value]]
        return [
            html_table(test, ["test", "Q", "df", "p-value"]),
            html_table(accuracies, ["model", "accuracy"], "Accuracies"),
        ]

    @validate_params({"digits": [Interval("integer", 0, None, closed="left")]})
    def to_text(self, digits: int = 4) -> str:
        """The test and each model's accuracy as plain text.

        Parameters
        ----------
        digits : int, default=4
            Decimals of the numbers.

        Returns
        -------
        str
            A line with Q, df and the p-value, then one line per model.

        Raises
        ------
        ValueError
            If ``digits`` is negative.
        TypeError
            If ``digits`` is not an int.

        See Also
        --------
        to_frame : The test as a one-row pandas DataFrame.

        Examples
        --------
        >>> result = cochran_q([0, 1, 1, 0], {"a": [0, 1, 1, 0], "b": [0, 1, 0, 1]})
        >>> print(result.to_text(3))
        Cochran's Q test of equal accuracies: Q = 2.000, df 1, p = 0.157
          a: accuracy 1.000
          b: accuracy 0.500
        """
        head = (
            f"{self.method}: Q = {number_text(self.statistic, digits)}, df {self.df}, "
            f"p = {number_text(self.p_value, digits)}"
        )
        return "\n".join(
            [head, *(f"  {name}: accuracy {number_text(self.accuracies[name], digits)}" for name in self.models)]
        )


def cochran_q(
    y_true: ArrayLike,
    predictions: Mapping[str, ArrayLike],
    *,
    sample_weight: ArrayLike | None = None,
) -> CochranQ:
    """Cochran's Q test that K ≥ 2 models predicting the same rows have equal accuracies.

    Each row's hits (prediction equals truth) form a row of K zeros and ones;
    under the hypothesis that the models are equally accurate, Q follows a
    chi-squared distribution with K − 1 degrees of freedom for many
    discordant rows (Cochran 1950). For two models Q is McNemar's
    chi-squared without continuity correction, ``(b - c)^2 / (b + c)``
    (``b``, ``c`` the rows only one of the two gets right), whose exact
    version :func:`compare_scores` applies to each pair.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    predictions : mapping of str to array-like of shape (n_samples,)
        Each model's predicted labels on the same rows; at least two models.
    sample_weight : array-like of shape (n_samples,), default=None
        Frequency weights: non-negative whole numbers, row i counted
        ``sample_weight[i]`` times, so the result is that of the rows
        repeated. Weights of relative importance (fractions) are refused:
        Cochran's Q counts rows, and a sum of weights is no count.

    Returns
    -------
    CochranQ

    Raises
    ------
    TypeError
        If ``predictions`` is not a mapping, a model name is not a string,
        labels mix strings and numbers (within an array, or ``y_true``
        against a model's predictions), or ``sample_weight`` is not numeric.
    ValueError
        If fewer than two models are given, a prediction and ``y_true``
        differ in length, are empty or hold missing values, or
        ``sample_weight`` has the wrong shape, a negative, non-finite or
        fractional weight, or sums to zero.

    See Also
    --------
    compare_scores : Pairwise tests of models' scores; its ``omnibus`` table has this test for accuracy.

    Notes
    -----
    The p-value is asymptotic: with few discordant rows (fewer than about
    ten) it is approximate, and the exact McNemar tests of
    :func:`compare_scores` are the safer reading for two models. Without a
    discordant row Q is 0 and p = 1 (every model has the same hits; the
    formula's 0/0, which statsmodels' ``cochrans_q`` returns as NaN).

    References
    ----------
    Cochran, W. G. (1950). The comparison of percentages in matched samples.
    Biometrika 37, 256-266. doi:10.1093/biomet/37.3-4.256

    Examples
    --------
    >>> y = [0, 1, 2, 0, 1, 2, 0, 1]
    >>> predictions = {"a": [0, 1, 2, 0, 1, 2, 0, 0], "b": [0, 1, 1, 0, 2, 2, 0, 0], "c": [1, 0, 1, 0, 1, 0, 0, 1]}
    >>> result = cochran_q(y, predictions)
    >>> result.accuracies
    {'a': 0.875, 'b': 0.625, 'c': 0.5}
    >>> result.df, round(result.statistic, 3), round(result.p_value, 3)
    (2, 2.333, 0.311)
    """
    names = _check_predictions(predictions)
    y = check_label_vector("y_true", y_true)
    predicted = {}
    for name in names:
        label = f"predictions[{name!r}]"
        predicted[name] = check_label_vector(label, predictions[name])
        check_same_length(y_true=y, **{label: predicted[name]})
    if len({array.dtype.kind == "U" for array in (y, *predicted.values())}) > 1:
        raise TypeError("y_true and predictions mix string and numeric labels")
    frequency = check_sample_weight(sample_weight, y.shape[0])
    if frequency is not None and np.any(frequency != np.round(frequency)):
        row = int(np.flatnonzero(frequency != np.round(frequency))[0])
        raise ValueError(
            f"sample_weight must hold whole numbers (frequency weights: row i counts sample_weight[i] times); "
            f"index {row} is {frequency[row]}"
        )
    hits = np.column_stack([predicted[name] == y for name in names])
    statistic, df, p_value = cochran_statistic(hits, frequency)
    counts = np.ones(y.shape[0]) if frequency is None else frequency
    total = float(counts.sum())
    accuracies = {name: float(counts @ hits[:, j]) / total for j, name in enumerate(names)}
    settings = {"n_samples": total if frequency is not None else int(y.shape[0]), "weighted": frequency is not None}
    return CochranQ(names, accuracies, statistic, df, p_value, COCHRAN_Q, settings)


def _check_predictions(predictions: Any) -> tuple[str, ...]:
    if not isinstance(predictions, Mapping):
        raise TypeError(
            f"predictions must be a mapping of model name to predicted labels, got {type(predictions).__name__}"
        )
    names = tuple(predictions)
    if len(names) < 2:
        raise ValueError(f"predictions must hold at least 2 models, got {len(names)}")
    bad = [name for name in names if not isinstance(name, str)]
    if bad:
        raise TypeError(
            f"model names must be strings (the keys of predictions), got {type(bad[0]).__name__} {bad[0]!r}"
        )
    return names
