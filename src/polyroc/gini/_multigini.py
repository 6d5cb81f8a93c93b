"""The multidimensional Gini index G₁ and its class weights.

Auricchio, Giudici & Toscani (2024), "Extending the Gini index to higher
dimensions via whitening processes", arXiv:2409.10119; the class weights are
those of the Gini-weighted ROC curve of Giudici, Rosciano, Schrader &
Kummerfeld (2025), arXiv:2510.15670.

With the ZCA-cor whitened scores ``X* = X Wᵀ``, their mean ``m* = W m`` and the
Gini mean differences ``Δ_i`` of their columns,

    w_i = |m*_i| / Σ_j |m*_j|,        G₁ = Σ_i Δ_i / (2 Σ_j |m*_j|) = Σ_i w_i G_i,

with ``G_i = Δ_i / (2 |m*_i|)``. G₁ is computed from the first form, so a zero
``m*_i`` never divides. G₁ uses no labels: it measures how dispersed the scores
are, not how well they separate the classes; ``(G₁ + 1) / 2`` is a diagnostic,
not an AUC of the classifier.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._results import Result
from polyroc._validation import check_real_array
from polyroc._validation._params import Options, validate_params
from polyroc.gini._dispersion import GINI_NORMS, gini_mean_difference, relative_weights
from polyroc.gini._view import whitening_notes
from polyroc.gini._whitening import (
    CONSTANT_OPTIONS,
    SINGULAR_OPTIONS,
    Whitening,
    fit_whitening,
    warn_about_whitening,
)

__all__ = ["MultidimensionalGini", "multidimensional_gini"]

#: ``Σ|m*|`` at most this share of the mean ``|X*|`` counts as zero.
ZERO_MEAN_RTOL = 1e-12


@dataclass(frozen=True, eq=False, repr=False)
class MultidimensionalGini(Result):
    """G₁ of a score matrix, its class weights and the whitening behind them.

    Attributes
    ----------
    weights : ndarray of shape (n_columns,)
        ``|m*_i| / Σ|m*_j|``: non-negative, summing to 1.
    g1 : float
        The multidimensional Gini index (0 when ``degenerate``).
    whitened_mean : ndarray of shape (n_columns,)
        ``m* = W m``.
    mean_difference : ndarray of shape (n_columns,)
        Gini mean difference ``Δ_i`` of each whitened column (0 when ``degenerate``).
    gini : ndarray of shape (n_columns,)
        ``G_i = Δ_i / (2 |m*_i|)``; NaN where ``m*_i = 0``.
    degenerate : bool
        The singular λ → 0 limit was taken: weights are the limit ones, G₁ = 0.
    whitening : Whitening
        The fitted whitening.
    settings : dict
        The options: ``norm`` (``"unbiased"`` or ``"plugin"`` mean
        difference), ``fitted_on`` (``"X"`` or ``"reference"``) and the
        whitening's ``singular``, ``ridge`` and ``constant``.

    See Also
    --------
    multidimensional_gini : Computes it.
    gini_roc : Weights the one-vs-rest ROC curves with ``weights``.
    Whitening : The fitted whitening it holds.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
    >>> result = multidimensional_gini(X)
    >>> result.weights.round(4).tolist(), round(result.g1, 4), round(result.auc_theory, 4)
    ([0.5829, 0.4171], 0.4284, 0.7142)
    >>> result.degenerate, result.settings["fitted_on"]
    (False, 'X')
    """

    weights: np.ndarray
    g1: float
    whitened_mean: np.ndarray
    mean_difference: np.ndarray
    gini: np.ndarray
    degenerate: bool
    whitening: Whitening
    settings: dict

    @property
    def auc_theory(self) -> float:
        """``(G₁ + 1) / 2``, the paper's "theoretical AUC" (a dispersion diagnostic)."""
        return (self.g1 + 1) / 2

    def _view_notes(self) -> list[str]:
        """One plain sentence on a whitening other than the paper's exact one."""
        return whitening_notes(self.whitening.applied, self.whitening.condition_number)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data, and ``auc_theory``.

        Returns
        -------
        dict
            ``{"type": "MultidimensionalGini", <field>: <value>, ...,
            "auc_theory": float}``, arrays as lists and the whitening as its own
            dictionary; ``json.dumps`` writes it as strict JSON.

        See Also
        --------
        MultidimensionalGini.to_frame : One row per column, as a DataFrame.
        Whitening.to_dict : The dictionary of the whitening alone.

        Examples
        --------
        >>> import json
        >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
        >>> d = multidimensional_gini(X).to_dict()
        >>> d["type"], round(d["auc_theory"], 4), d["whitening"]["applied"]
        ('MultidimensionalGini', 0.7142, 'exact')
        >>> json.loads(json.dumps(d))["settings"]["norm"]
        'unbiased'
        """
        return {**super().to_dict(), "auc_theory": self.auc_theory}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per column: weight, whitened mean, mean difference and Gini index."""
        return [
            {"column": i, "weight": float(w), "whitened_mean": float(m), "mean_difference": float(d), "gini": float(g)}
            for i, (w, m, d, g) in enumerate(zip(self.weights, self.whitened_mean, self.mean_difference, self.gini))
        ]


@validate_params(
    {
        "singular": [Options(SINGULAR_OPTIONS)],
        "constant": [Options(CONSTANT_OPTIONS)],
        "norm": [Options(GINI_NORMS)],
    }
)
def multidimensional_gini(
    X: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    reference: ArrayLike | None = None,
    singular: str = "limit",
    ridge: float | None = None,
    constant: str = "drop",
    norm: str = "unbiased",
) -> MultidimensionalGini:
    """Multidimensional Gini index G₁ (ZCA-cor whitening, l1 norm) and its weights.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_columns)
        The evaluated sample, e.g. predicted probabilities.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance of the rows of ``X``
        (scale-free; also used to fit W on ``X``).
    reference : array-like of shape (n_reference, n_columns), default=None
        Sample on which to fit the whitening (e.g. training-set scores);
        default: ``X`` itself.
    singular, ridge, constant
        How to whiten (see :func:`zca_cor_whitening`).
    norm : {"unbiased", "plugin"}, default="unbiased"
        Normalisation of the mean differences.

    Returns
    -------
    MultidimensionalGini

    Raises
    ------
    ValueError
        Bad inputs or options (see :func:`zca_cor_whitening`,
        :func:`gini_mean_difference`); every column of the fitting sample
        constant, or ``Σ_j |m*_j| = 0``: both leave the weights undefined.
    TypeError
        Non-numeric inputs.

    Warns
    -----
    WhiteningWarning
        See :func:`zca_cor_whitening`.

    See Also
    --------
    zca_cor_whitening : The whitening it applies.
    gini_index : The one-dimensional index of each whitened column.
    gini_roc : The ROC curve weighted with these weights.

    References
    ----------
    Auricchio, G., Giudici, P. & Toscani, G. (2024). Extending the Gini
    index to higher dimensions via whitening processes. arXiv:2409.10119.

    Giudici, P., Rosciano, R. C., Schrader, J. & Kummerfeld, D.-M. (2025).
    A Multiclass ROC Curve. arXiv:2510.15670.
    Section 3, Eqs. (9) and (10) (the class weights).

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
    >>> result = multidimensional_gini(X)
    >>> bool(np.isclose(result.weights.sum(), 1)), bool(0 <= result.g1 <= 1)
    (True, True)
    >>> bool(np.isclose(result.g1, result.weights @ result.gini))
    True
    """
    values = check_real_array("X", X, min_samples=2)
    weights = relative_weights(sample_weight, values.shape[0])
    options = {"singular": singular, "ridge": ridge, "constant": constant}
    if reference is None:
        whitening = fit_whitening(values, weights, **options, name="X")
    else:
        fitting = check_real_array("reference", reference, n_columns=values.shape[1], min_samples=2)
        whitening = fit_whitening(fitting, None, **options, name="reference")
    warn_about_whitening(whitening, np.arange(values.shape[1]), "X" if reference is None else "reference")
    return gini_of_whitened(whitening, values, weights, norm, fitted_on="X" if reference is None else "reference")


def gini_of_whitened(whitening, X, weights, norm, fitted_on="X"):
    """:class:`MultidimensionalGini` of validated scores under a fitted whitening."""
    whitened = whitening.transform(X)
    whitened_mean = np.average(whitened, axis=0, weights=weights)
    total = _total_abs_mean(whitened_mean, whitened)
    difference = np.zeros(X.shape[1])
    if not whitening.degenerate:
        difference[whitening.used] = gini_mean_difference(whitened[:, whitening.used], sample_weight=weights, norm=norm)
    with np.errstate(divide="ignore", invalid="ignore"):
        gini = np.where(whitened_mean != 0, difference / (2 * np.abs(whitened_mean)), np.nan)
    return MultidimensionalGini(
        weights=np.abs(whitened_mean) / total,
        g1=float(difference.sum() / (2 * total)),
        whitened_mean=whitened_mean,
        mean_difference=difference,
        gini=gini,
        degenerate=whitening.degenerate,
        whitening=whitening,
        settings={"norm": norm, "fitted_on": fitted_on, **whitening.settings},
    )


def class_weights(whitening, X, weights):
    """Only the weights ``|m*| / Σ|m*|`` (no mean differences): the cheap part."""
    whitened_mean = whitening.matrix @ np.average(X, axis=0, weights=weights)
    return np.abs(whitened_mean) / np.abs(whitened_mean).sum()


def _total_abs_mean(whitened_mean, whitened):
    total = float(np.abs(whitened_mean).sum())
    if total <= ZERO_MEAN_RTOL * float(np.abs(whitened).mean()):
        raise ValueError(
            "the whitened scores have mean 0 in every column (Σ|m*| = 0), so the Gini "
            "weights |m*_i| / Σ|m*_j| and G1 are undefined; scores centred at 0 cannot be used"
        )
    return total
