"""The authors' reference pipeline (``compat="reference"``), step by step.

The published code of Giudici, Rosciano, Schrader & Kummerfeld (2025),
arXiv:2510.15670 (``whitening_predicted_proba_stable``, ``multidim_gini``,
``metrics_multiroc``), reproduced as follows:

1. add N(0, 1e-8²) noise to the fitting and the evaluated scores (here from a
   seeded Generator; the reference draws from the unseeded global state, so
   bitwise parity is impossible);
2. fit W on the noisy fitting scores: variances ``diag(cov)`` (ddof=1) and
   ``corrcoef`` (NaN → 0), eigenvalues and variances floored at 1e-6,
   ``λ^{-1/2}`` and ``σ^{-1}`` capped at 100, every entry of W clipped to ±100;
3. whiten the noisy evaluated scores, ``X* = X Wᵀ``, and replace every entry by
   its rank among all ``n k`` entries (ties averaged) divided by ``n k``;
4. weights ``|m*| / Σ|m*|`` from the column means of the ranked matrix, and
   per-class "Gini" ``gmd = Δ / 2`` (mean difference, *not* divided by the
   mean), ``G_ref = Σ w_i gmd_i``, "theoretical AUC" ``(G_ref + 1) / 2``;
5. one-vs-rest ROC curves of the *ranked whitened* columns, vertically
   averaged with the weights on 100 equispaced FPR values, area by trapezoid,
   and the weighted between-class standard deviation of TPR (the reference's
   "±1 std" band, which is not a confidence band).

The cap puts a constant shift ``≈ 100 σ_i / ‖σ‖²`` on each whitened column, so
after the global ranking the columns occupy nearly disjoint rank bands ordered
by their fitting-set σ_i: the weights come out near ``(2 r_i - 1) / k²`` (r_i the
rank of σ_i) and ``G_ref`` near ``1 / (6k)``, almost whatever the model.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.stats import rankdata

from polyroc.gini._aggregate import aggregate_vertical, class_curves, restrict_weights
from polyroc.gini._dispersion import gini_mean_difference

REFERENCE_NOISE = 1e-8
REFERENCE_FLOOR = 1e-6
REFERENCE_CAP = 100.0
REFERENCE_GRID = 100


class ReferenceOutcome(NamedTuple):
    """Every intermediate result of the reference pipeline."""

    matrix: np.ndarray
    ranked: np.ndarray
    whitened_mean: np.ndarray
    gmd: np.ndarray
    weights: np.ndarray
    curve_weights: np.ndarray
    g1: float
    curves: object
    aggregate: object


def reference_pipeline(y, scores, reference, present, classes, rng):
    """Run the reference pipeline on encoded labels and validated scores.

    ``reference`` (or ``scores`` when None) is the fitting sample; the noise
    for the fitting sample is drawn first, then that of ``scores``. Classes
    outside ``present`` get weight 0 in the curve (their weights are then
    renormalised into ``curve_weights``; the reference raises instead).
    """
    fitting = _with_noise(scores if reference is None else reference, rng)
    evaluated = fitting if reference is None else _with_noise(scores, rng)
    matrix = reference_whitening(fitting)
    ranked = rank_rescale(evaluated @ matrix.T)
    whitened_mean = ranked.mean(axis=0)
    weights = np.abs(whitened_mean) / np.abs(whitened_mean).sum()
    gmd = gini_mean_difference(ranked) / 2
    curves = class_curves(y, ranked, None)
    curve_weights = restrict_weights(weights, present, classes)
    aggregate = aggregate_vertical(curves, curve_weights, REFERENCE_GRID)
    return ReferenceOutcome(
        matrix,
        ranked,
        whitened_mean,
        gmd,
        weights,
        curve_weights,
        float(weights @ gmd),
        curves,
        aggregate,
    )


def reference_whitening(fitting):
    """The reference's stabilised ZCA-cor matrix (floors, caps and clipping)."""
    variance = np.var(fitting, axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        correlation = np.corrcoef(fitting, rowvar=False)
    correlation = np.nan_to_num(correlation, nan=0.0, posinf=1.0, neginf=0.0)
    eigenvalues, eigenvectors = np.linalg.eigh(correlation)
    spectrum = np.minimum(np.maximum(eigenvalues, REFERENCE_FLOOR) ** -0.5, REFERENCE_CAP)
    inverse_scale = np.minimum(np.maximum(variance, REFERENCE_FLOOR) ** -0.5, REFERENCE_CAP)
    matrix = (eigenvectors * spectrum) @ eigenvectors.T * inverse_scale
    return np.clip(matrix, -REFERENCE_CAP, REFERENCE_CAP)


def rank_rescale(whitened):
    """Global ranks of all entries (ties averaged) divided by their number."""
    return rankdata(whitened.ravel()).reshape(whitened.shape) / whitened.size


def _with_noise(scores, rng):
    return scores + rng.normal(0.0, REFERENCE_NOISE, scores.shape)
