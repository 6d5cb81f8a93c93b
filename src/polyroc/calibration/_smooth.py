"""The smooth calibration error (smooth ECE): a kernel-smoothed reliability curve at a self-chosen bandwidth."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.binning import CALIBRATION_KINDS, CalibrationKind
from polyroc._validation._params import Options, validate_params
from polyroc.calibration._binning import checked_columns

__all__ = ["SMOOTH_GRID", "smooth_calibration_error", "smooth_error_at"]

#: Nodes of the grid on [0, 1] on which the smoothed residual is computed and integrated.
SMOOTH_GRID = 8192

#: The smallest bandwidth searched, in steps of the grid.
_LOWEST_BANDWIDTH = 4.0 / SMOOTH_GRID

#: Images of the Gaussian kept on each side when it is reflected at 0 and 1 (bandwidths up to 1).
_IMAGES = 5


def _reflected_masses(scores: np.ndarray, masses: np.ndarray) -> np.ndarray:
    """``masses`` at ``scores`` spread linearly onto the cell centres of [0, 1], mirrored onto [1, 2).

    The result has 2 * :data:`SMOOTH_GRID` nodes, periodic with period 2:
    node j is at ``(j + 1/2) / SMOOTH_GRID``, and the mirror of a score f at
    2 - f makes a circular convolution on [0, 2) the reflected one on [0, 1].
    """
    size = SMOOTH_GRID
    position = scores * size - 0.5
    below = np.floor(position)
    above_share = position - below
    below = below.astype(np.int64)
    nodes = np.concatenate((below, below + 1)) % (2 * size)
    values = np.concatenate((masses * (1.0 - above_share), masses * above_share))
    spread = np.bincount(nodes, weights=values, minlength=2 * size)
    return spread + spread[::-1]


def _kernel_spectrum(sigma: float) -> np.ndarray:
    """The real FFT of the Gaussian of bandwidth ``sigma`` made periodic with period 2, at the grid's offsets."""
    size = SMOOTH_GRID
    offsets = np.arange(2 * size) / size
    offsets = np.where(offsets >= 1.0, offsets - 2.0, offsets)
    shifts = 2.0 * np.arange(-_IMAGES, _IMAGES + 1)
    distance = offsets[:, None] + shifts[None, :]
    density = np.exp(-0.5 * (distance / sigma) ** 2).sum(axis=1) / (sigma * np.sqrt(2.0 * np.pi))
    return np.fft.rfft(density)


def smooth_error_at(spectrum: np.ndarray, sigma: float) -> float:
    """``smECE_sigma``: the integral over [0, 1] of the absolute smoothed residual, from the residuals' spectrum."""
    smoothed = np.fft.irfft(spectrum * _kernel_spectrum(sigma), n=2 * SMOOTH_GRID)[:SMOOTH_GRID]
    return float(np.abs(smoothed).sum() / SMOOTH_GRID)


def _column_error(scores: np.ndarray, residuals: np.ndarray) -> float:
    """The smooth ECE of one column: ``smECE_sigma`` at its fixed point ``smECE_sigma = sigma``."""
    from scipy.optimize import brentq

    spectrum = np.fft.rfft(_reflected_masses(scores, residuals))
    lowest = smooth_error_at(spectrum, _LOWEST_BANDWIDTH)
    if lowest <= _LOWEST_BANDWIDTH:
        return lowest
    sigma = brentq(lambda s: smooth_error_at(spectrum, s) - s, _LOWEST_BANDWIDTH, 1.0, xtol=1e-12, rtol=1e-12)
    return float(sigma)


@validate_params({"kind": [Options(CALIBRATION_KINDS)]})
def smooth_calibration_error(
    y_true: ArrayLike,
    y_proba: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    kind: CalibrationKind = "top-label",
    sample_weight: ArrayLike | None = None,
) -> float:
    """Smooth calibration error (smooth ECE) of Błasiok & Nakkiran (2023): no bins, a self-chosen bandwidth.

    With scores f_i, hits y_i (as in :func:`calibration_error`'s ``kind``)
    and weights w_i summing to 1, the residuals r_i = y_i - f_i are smoothed
    by a Gaussian kernel reflected at 0 and 1,
    ``K_sigma(t, f) = sum_k phi_sigma(t - f - 2k) + phi_sigma(t + f - 2k)``
    (a density on [0, 1] for every f), and

    ``smECE_sigma = integral_0^1 |sum_i w_i r_i K_sigma(t, f_i)| dt``

    is the smoothed reliability curve's gap weighted by the smoothed
    density of the scores. The smooth ECE is ``smECE_sigma`` at the
    bandwidth where ``smECE_sigma = sigma`` (found by Brent's method), so it
    is also that bandwidth. Computed on a grid of :data:`SMOOTH_GRID` cell
    centres: each residual is spread linearly onto its two nearest nodes,
    the kernel applied by one FFT per bandwidth, the integral by the
    midpoint rule. Bandwidths below 4 grid steps are not searched: when
    ``smECE`` is already below that bandwidth there, that value is returned.
    ``kind="classwise"`` gives the mean over the classes.

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
    sample_weight : array-like of shape (n,), default=None
        Non-negative weights.

    Returns
    -------
    float
        The smooth ECE, in [0, 1].

    Raises
    ------
    ValueError
        If ``kind`` is not an option, a row of ``y_proba`` is not a
        probability vector, its columns do not match the classes, the
        lengths differ or the weights are invalid.
    TypeError
        If an input is not numeric.

    See Also
    --------
    calibration_error : The binned errors.

    References
    ----------
    Błasiok, J. & Nakkiran, P. (2023). Smooth ECE: principled reliability
    diagrams via kernel smoothing. arXiv:2309.12236

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> p = rng.uniform(size=2000)
    >>> y = (rng.uniform(size=2000) < p ** 2).astype(int)  # true probability p^2: overconfident
    >>> round(smooth_calibration_error(y, np.column_stack([1 - p, p]), kind="classwise"), 2)
    0.17
    """
    columns = checked_columns(y_true, y_proba, labels, kind, sample_weight)
    n = columns.scores.shape[1]
    shares = np.full(n, 1.0 / n) if columns.weights is None else columns.weights / columns.weights.sum()
    errors = [_column_error(scores, shares * (hits - scores)) for scores, hits in zip(columns.scores, columns.hits)]
    return float(np.mean(errors))
