"""ZCA-cor whitening ``W = P^{-1/2} V^{-1/2}``, with explicit handling of a singular P.

The whitening of the multidimensional Gini index of Auricchio, Giudici &
Toscani (2024), "Extending the Gini index to higher dimensions via whitening
processes", arXiv:2409.10119.

``V`` holds the variances and ``P`` the correlation matrix of the fitting
sample (covariance with ``ddof=1``; sample weights of relative importance,
corrected as numpy's ``aweights``, so that scaling them changes nothing). For probability rows
that sum to 1, ``P`` is always singular: in standardized coordinates the vector
``σ`` is a null vector. ``singular`` chooses what to do then:

- ``"limit"`` (default): the limit of ridge whitening
  ``((1 - λ) P + λ I)^{-1/2}`` as ``λ → 0``. It diverges like ``λ^{-1/2}``
  along the null space ``N``, so the stored matrix is the leading direction
  ``N Nᵀ V^{-1/2}``: the class weights ``|m*| / Σ|m*|`` it gives are the limit
  weights (for simplex rows ``σ_i / Σ σ_j``), and the multidimensional Gini is
  0 in the limit. If the mean has no component along ``N``, the limit is the
  pseudo-inverse (``"pinv"``), which is then applied.
- ``"ridge"``: ``((1 - λ) P + λ I)^{-1/2}`` with the user's ``ridge`` λ, an
  arbitrary choice that drives the result.
- ``"pinv"``: inverse square root on the range of P only; can give G₁ > 1.
- ``"diagonal"``: ``W = V^{-1/2}`` (standardisation, the paper's verbal
  reading); G₁ ∈ [0, 1] for non-negative data.
- ``"raise"``: raise ``ValueError``.

A full-rank P always gets the exact formula. Constant columns have no
correlation; they are left out (zero rows and columns of ``W``).

The one null direction of rows with a constant sum (probabilities sum to 1)
is the normal case and is handled silently; a :class:`WhiteningWarning` is
issued only for degeneracy beyond it (a further null direction, or a singular
P for rows whose sums vary).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._results import Result
from polyroc._text import count_noun
from polyroc._validation import check_option, check_real, check_real_array, describe
from polyroc._validation._params import Options, validate_params
from polyroc.exceptions import WhiteningWarning
from polyroc.gini._dispersion import relative_weights
from polyroc.gini._view import whitening_notes

__all__ = ["Whitening", "zca_cor_whitening"]

SINGULAR_OPTIONS = ("limit", "ridge", "pinv", "diagonal", "raise")
CONSTANT_OPTIONS = ("drop", "raise")

#: P is singular when its smallest eigenvalue is at most this share of the
#: largest; loose enough to catch float32 softmax rows (sums off by ~1e-7).
SINGULAR_RTOL = 1e-8

#: A column whose standard deviation is at most this share of its largest
#: absolute value is constant up to rounding.
CONSTANT_RTOL = 1e-12

#: Share of ``|m / σ|`` below which the mean has no component along the null space.
NULL_MEAN_RTOL = 1e-8

#: Rows whose sums differ by at most this share of their largest magnitude (or
#: of 1) have a constant sum, as probability rows do (float32 ones to ~1e-7).
ROW_SUM_RTOL = 1e-6


@dataclass(frozen=True, eq=False, repr=False)
class Whitening(Result):
    """A fitted ZCA-cor whitening and how it was obtained.

    Attributes
    ----------
    matrix : ndarray of shape (n_columns, n_columns)
        ``W``; whiten a row matrix ``X`` as ``X @ W.T``. With
        ``applied="limit"`` it is the leading direction ``N Nᵀ V^{-1/2}`` of
        the diverging limit (see the module notes).
    mean : ndarray of shape (n_columns,)
        Mean of the fitting sample.
    scale : ndarray of shape (n_columns,)
        Standard deviations ``σ`` of the fitting sample.
    used : ndarray of bool, shape (n_columns,)
        Columns that were whitened (False: constant, left out).
    singular : bool
        Whether the correlation matrix was found singular.
    null_dimension : int
        Number of null directions of the correlation matrix (rows summing to
        1 give one).
    constant_row_sum : bool
        Whether every row of the fitting sample (of positive weight) has the
        same sum up to ``1e-6`` (relative): probability rows summing to 1, for
        example, whose one null direction is expected.
    applied : {"exact", "limit", "ridge", "pinv", "diagonal"}
        What was computed.
    condition_number : float
        ``λ_max / λ_min`` of the correlation matrix (inf when ``λ_min <= 0``).
    ridge : float or None
        The ridge λ when ``applied="ridge"``.
    n_samples : float
        Effective size of the fitting sample, ``(Σw)² / Σw²`` (Kish; the
        number of rows without weights).
    settings : dict
        The options: ``singular``, ``ridge`` (requested) and ``constant``.

    See Also
    --------
    zca_cor_whitening : Fits it.
    multidimensional_gini : The Gini index and weights of the whitened scores.
    gini_roc : Records the whitening it applied in ``settings``.

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
    >>> w = zca_cor_whitening(X)
    >>> w.applied, w.singular, w.used.tolist(), w.n_samples
    ('exact', False, [True, True], 4.0)
    >>> w.scale.round(4).tolist()
    [1.291, 1.7078]
    """

    matrix: np.ndarray
    mean: np.ndarray
    scale: np.ndarray
    used: np.ndarray
    singular: bool
    null_dimension: int
    constant_row_sum: bool
    applied: str
    condition_number: float
    ridge: float | None
    n_samples: float
    settings: dict

    @property
    def degenerate(self) -> bool:
        """True when the λ → 0 limit was taken, so that G₁ is 0 by construction."""
        return self.applied == "limit"

    @property
    def expected_singularity(self) -> bool:
        """True when the only singularity is the one null direction of rows with a constant sum (no warning)."""
        return self.null_dimension == 1 and self.constant_row_sum

    def transform(self, X: ArrayLike) -> np.ndarray:
        """Whitened rows ``X @ W.T``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_columns)
            Rows to whiten.

        Returns
        -------
        ndarray of shape (n_samples, n_columns)

        Raises
        ------
        ValueError
            If ``X`` is not 2-D, does not have the ``n_columns`` columns the
            whitening was fitted on, has no rows, or holds NaN or infinity.
        TypeError
            If ``X`` is not numeric.

        See Also
        --------
        zca_cor_whitening : Fits the whitening.
        multidimensional_gini : The Gini index of the whitened rows.

        Examples
        --------
        >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
        >>> whitened = zca_cor_whitening(X).transform(X)
        >>> bool(np.allclose(np.cov(whitened.T), np.eye(2)))
        True
        """
        values = check_real_array("X", X, n_columns=self.matrix.shape[1])
        return values @ self.matrix.T

    def _view_notes(self) -> list[str]:
        """One plain sentence on a whitening other than the paper's exact one."""
        return whitening_notes(self.applied, self.condition_number)

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data, and ``degenerate``.

        Returns
        -------
        dict
            ``{"type": "Whitening", <field>: <value>, ..., "degenerate": bool}``,
            arrays as lists; ``json.dumps`` writes it as strict JSON.

        See Also
        --------
        Whitening.transform : Apply the whitening.
        MultidimensionalGini.to_dict : The same for the Gini index.

        Examples
        --------
        >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
        >>> d = zca_cor_whitening(X).to_dict()
        >>> d["type"], d["applied"], d["degenerate"], d["settings"]
        ('Whitening', 'exact', False, {'singular': 'limit', 'ridge': None, 'constant': 'drop'})
        """
        return {**super().to_dict(), "degenerate": self.degenerate}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per column: its mean, standard deviation and whether it was whitened."""
        return [
            {"column": i, "mean": float(m), "scale": float(sd), "used": bool(u)}
            for i, (m, sd, u) in enumerate(zip(self.mean, self.scale, self.used))
        ]


@validate_params({"singular": [Options(SINGULAR_OPTIONS)], "constant": [Options(CONSTANT_OPTIONS)]})
def zca_cor_whitening(
    X: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    singular: str = "limit",
    ridge: float | None = None,
    constant: str = "drop",
) -> Whitening:
    """Fit the ZCA-cor whitening matrix ``W = P^{-1/2} V^{-1/2}`` of a sample.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_columns)
        The fitting sample, e.g. predicted probabilities of a training set.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance (scale-free); at least
        2 samples must have positive weight.
    singular : {"limit", "ridge", "pinv", "diagonal", "raise"}, default="limit"
        What to do when the correlation matrix is singular (see the module
        notes); a full-rank one always gets the exact formula.
    ridge : float, default=None
        λ in (0, 1) for ``singular="ridge"``.
    constant : {"drop", "raise"}, default="drop"
        Constant columns: leave them out of the whitening (with a warning), or raise.

    Returns
    -------
    Whitening

    Raises
    ------
    ValueError
        Bad ``X`` (not 2-D, NaN/infinity, fewer than 2 samples) or
        ``sample_weight`` (fewer than 2 positive weights); unknown option; ``singular="ridge"`` without a
        valid ``ridge``; a singular correlation matrix with ``singular="raise"``;
        a constant column with ``constant="raise"``; every column constant.
    TypeError
        Non-numeric ``X``.

    Warns
    -----
    WhiteningWarning
        Singular correlation matrix (with what was applied) other than the
        one null direction of rows with a constant sum (probabilities:
        expected, no warning), constant columns, or no more samples than
        whitened columns.

    See Also
    --------
    Whitening : The fitted whitening it returns.
    multidimensional_gini : The Gini index of the whitened sample.
    gini_roc : Whitens the score matrix to weight the class curves.

    References
    ----------
    Auricchio, G., Giudici, P. & Toscani, G. (2024). Extending the Gini
    index to higher dimensions via whitening processes. arXiv:2409.10119.
    Why ZCA-cor whitening: scale invariance, non-negativity preserved.

    Kessy, A., Lewin, A. & Strimmer, K. (2018). Optimal whitening and
    decorrelation. The American Statistician 72(4), 309–314.
    doi:10.1080/00031305.2016.1277159

    Giudici, P., Rosciano, R. C., Schrader, J. & Kummerfeld, D.-M. (2025).
    A Multiclass ROC Curve. arXiv:2510.15670.
    Section 3, Eq. (8).

    Examples
    --------
    >>> X = np.array([[1.0, 2.0], [2.0, 1.0], [3.0, 5.0], [4.0, 3.0]])
    >>> w = zca_cor_whitening(X)
    >>> w.applied, bool(np.allclose(w.matrix @ np.cov(X.T) @ w.matrix.T, np.eye(2)))
    ('exact', True)
    >>> P = np.array([[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2]])
    >>> w = zca_cor_whitening(P)  # rows sum to 1: one null direction, expected, no warning
    >>> w.applied, w.degenerate, w.null_dimension, w.constant_row_sum
    ('limit', True, 1, True)
    """
    values = check_real_array("X", X, min_samples=2)
    whitening = fit_whitening(
        values,
        relative_weights(sample_weight, values.shape[0]),
        singular=singular,
        ridge=ridge,
        constant=constant,
    )
    warn_about_whitening(whitening, np.arange(whitening.used.size), "X")
    return whitening


def check_whitening_options(singular, ridge, constant):
    """Check ``ridge`` when ``singular="ridge"`` and ``constant``; return the checked ``ridge``.

    ``singular`` is declared by every public function. ``constant`` is
    declared too, except by :func:`~polyroc.gini.gini_roc`, which ignores it
    with ``compat="reference"`` and so checks it here, on its other path.
    """
    check_option("constant", constant, CONSTANT_OPTIONS)
    return check_real("ridge", ridge, low=0, high=1) if singular == "ridge" else ridge


def fit_whitening(X, weights, *, singular="limit", ridge=None, constant="drop", name="X"):
    """:func:`zca_cor_whitening` on validated inputs, without warnings.

    ``weights`` are relative (see :func:`relative_weights`); ``name`` is the
    argument the fitting sample came from, for the error messages.
    """
    ridge = check_whitening_options(singular, ridge, constant)
    mean, covariance, effective_size = weighted_moments(X, weights, name)
    scale = np.sqrt(np.diag(covariance))
    rows = X if weights is None else X[weights > 0]
    used = ~constant_columns(rows, scale)
    return whitening_from_moments(
        mean,
        covariance,
        effective_size,
        used,
        constant_row_sum=has_constant_row_sum(rows),
        options={"singular": singular, "ridge": ridge, "constant": constant},
        name=name,
    )


def whitening_from_moments(mean, covariance, effective_size, used, *, constant_row_sum, options, name="X"):
    """The :class:`Whitening` of a sample given its moments and its non-constant columns ``used``.

    ``options`` holds the checked ``singular``, ``ridge`` and ``constant``.
    """
    singular, ridge = options["singular"], options["ridge"]
    _check_constant(used, options["constant"], name)
    scale = np.sqrt(np.diag(covariance))
    standardized = covariance[np.ix_(used, used)] / np.outer(scale[used], scale[used])
    eigenvalues, eigenvectors = np.linalg.eigh(standardized)
    null = eigenvalues <= SINGULAR_RTOL * eigenvalues[-1]
    applied = _choose(null, singular, eigenvectors, mean[used] / scale[used])
    root = _inverse_root(eigenvalues, eigenvectors, null, applied, ridge)
    matrix = np.zeros((mean.size, mean.size))
    matrix[np.ix_(used, used)] = root / scale[used]
    return Whitening(
        matrix=matrix,
        mean=mean,
        scale=scale,
        used=used,
        singular=bool(null.any()),
        null_dimension=int(null.sum()),
        constant_row_sum=constant_row_sum,
        applied=applied,
        condition_number=_condition_number(eigenvalues),
        ridge=ridge if applied == "ridge" else None,
        n_samples=effective_size,
        settings=dict(options),
    )


def has_constant_row_sum(rows):
    """Whether every row has the same sum up to :data:`ROW_SUM_RTOL` (probability rows: 1)."""
    sums = rows.sum(axis=1)
    return bool(np.ptp(sums) <= ROW_SUM_RTOL * max(1.0, float(np.max(np.abs(sums)))))


def weighted_moments(X, weights, name="X"):
    """Mean, covariance (``ddof=1``) and effective size of the rows of ``X``.

    With weights, the ``ddof=1`` divisor is ``Σw - Σw²/Σw`` (numpy's
    ``aweights``): scale-free, ``n - 1`` for equal weights, and the rows of
    zero weight drop out. The effective size is ``(Σw)² / Σw²``.
    """
    if weights is None:
        mean = X.mean(axis=0)
        centred = X - mean
        return mean, (centred.T @ centred) / (X.shape[0] - 1), float(X.shape[0])
    if np.count_nonzero(weights) < 2:
        raise ValueError(
            f"sample_weight gives positive weight to {count_noun(np.count_nonzero(weights), 'row')} of {name}; "
            "a covariance needs at least 2"
        )
    total, squares = float(weights.sum()), float(weights @ weights)
    mean = np.average(X, axis=0, weights=weights)
    centred = X - mean
    covariance = ((centred * weights[:, None]).T @ centred) / (total - squares / total)
    return mean, covariance, total * total / squares


def constant_columns(rows, scale):
    """Columns whose standard deviation ``scale`` is zero up to rounding, given the rows of positive weight."""
    return scale <= CONSTANT_RTOL * np.max(np.abs(rows), axis=0)


def _check_constant(used, constant, name):
    if not used.any():
        raise ValueError(
            f"every column of {name} is constant, so its correlation matrix and the Gini "
            "weights are undefined; nothing can be whitened"
        )
    if constant == "raise" and not used.all():
        raise ValueError(
            f"columns {np.flatnonzero(~used).tolist()} of {name} are constant; their "
            "correlations are undefined (pass constant='drop' to give them weight 0)"
        )


def _choose(null, singular, eigenvectors, standardized_mean):
    """The formula applied: exact when P has full rank, else the ``singular`` option."""
    if not null.any():
        return "exact"
    if singular == "raise":
        raise ValueError(
            f"the correlation matrix of the scores is singular ({int(null.sum())} null direction(s); "
            "rows summing to 1 always give one); choose singular='limit', 'ridge', 'pinv' or 'diagonal'"
        )
    if singular == "limit":
        along_null = eigenvectors[:, null].T @ standardized_mean
        if np.linalg.norm(along_null) <= NULL_MEAN_RTOL * np.linalg.norm(standardized_mean):
            return "pinv"
    return singular


def _inverse_root(eigenvalues, eigenvectors, null, applied, ridge):
    """The (regularised) ``P^{-1/2}`` of the chosen formula."""
    if applied == "diagonal":
        return np.eye(eigenvalues.size)
    if applied == "limit":
        spectrum = null.astype(np.float64)
    elif applied == "ridge":
        spectrum = ((1 - ridge) * eigenvalues + ridge) ** -0.5
    else:
        spectrum = np.zeros_like(eigenvalues)
        spectrum[~null] = eigenvalues[~null] ** -0.5
    return (eigenvectors * spectrum) @ eigenvectors.T


def _condition_number(eigenvalues):
    return float(eigenvalues[-1] / eigenvalues[0]) if eigenvalues[0] > 0 else float("inf")


def warn_about_whitening(whitening, classes, fitted_on):
    """Issue one :class:`WhiteningWarning` per choice the fit had to make."""
    if not whitening.used.all():
        _warnings.warn(
            f"score columns of classes {describe(classes[~whitening.used])} are constant in "
            f"{fitted_on}; they are left out of the whitening and get weight 0",
            WhiteningWarning,
        )
    if whitening.singular and not whitening.expected_singularity:
        _warnings.warn(
            f"the correlation matrix of {fitted_on} is singular ({whitening.null_dimension} null "
            f"direction(s), condition number {whitening.condition_number:.3g}"
            + ("; rows with a constant sum account for only one" if whitening.constant_row_sum else "")
            + f"), so the ZCA-cor whitening is undefined; applied {whitening.applied!r}"
            + (": weights are the λ → 0 limit and G1 = 0" if whitening.degenerate else ""),
            WhiteningWarning,
        )
    if whitening.n_samples <= whitening.used.sum():
        _warnings.warn(
            f"{fitted_on} has {count_noun(whitening.n_samples, '(effective) sample', spec='.4g')} for "
            f"{count_noun(int(whitening.used.sum()), 'whitened column')}; W is unreliable (fit it on more data "
            "via reference_scores)",
            WhiteningWarning,
        )
