"""compat="reference" against a step-by-step re-implementation of the published pipeline's description.

The pipeline is the code of Giudici, Rosciano, Schrader & Kummerfeld (2025),
arXiv:2510.15670, as described in prose; the oracle below follows that prose,
not the authors' code or polyroc's:
noise N(0, 1e-8) from the seeded Generator (fitting set first), W from
variances and correlations with floors 1e-6, caps 100 and clipping to ±100,
global average ranks / (n k) computed by counting, weights from the column
means, ``gmd = Σ_{a<b} |x_a - x_b| / (n (n - 1))`` by a double loop, ROC of the
ranked whitened columns (scikit-learn), ``interp1d`` on 100 FPR points,
trapezoid, weighted between-class standard deviation.
"""

import matplotlib
import numpy as np
import pytest
from scipy.interpolate import interp1d
from sklearn.metrics import roc_curve

from polyroc.gini import gini_roc

matplotlib.use("Agg")


def model_like_probabilities(n, k, seed, spread=None):
    """Labels and softmax rows; ``spread`` fixes each column's logit scale (hence its σ)."""
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    spread = rng.uniform(0.3, 2.0, size=k) if spread is None else spread
    logits = rng.normal(size=(n, k)) * spread + 1.0 * np.eye(k)[y]
    P = np.exp(logits)
    return y, P / P.sum(axis=1, keepdims=True)


def reference_oracle(y, test, train, seed):
    rng = np.random.default_rng(seed)
    if train is None:
        test = test + rng.normal(0, 1e-8, test.shape)
        train = test
    else:
        train = train + rng.normal(0, 1e-8, train.shape)
        test = test + rng.normal(0, 1e-8, test.shape)
    k = test.shape[1]
    S = np.cov(train, rowvar=False)
    variance = np.diag(S).copy()
    correlation = S / np.sqrt(np.outer(variance, variance))
    eigenvalues, E = np.linalg.eigh(correlation)
    D = np.diag(np.minimum(np.maximum(eigenvalues, 1e-6) ** -0.5, 100))
    D_var = np.diag(np.minimum(np.maximum(variance, 1e-6) ** -0.5, 100))
    W = np.clip(E @ D @ E.T @ D_var, -100, 100)

    Z = (W @ test.T).T
    flat = Z.ravel()
    ranks = np.array([np.sum(flat < v) + (np.sum(flat == v) + 1) / 2 for v in flat])
    R = ranks.reshape(Z.shape) / flat.size

    m = R.mean(axis=0)
    weights = np.abs(m) / np.abs(m).sum()
    n = R.shape[0]
    gmd = np.zeros(k)
    for i in range(k):
        for a in range(n):
            for b in range(a + 1, n):
                gmd[i] += abs(R[a, i] - R[b, i])
    gmd /= n * (n - 1)
    g_ref = np.sum(weights * gmd)

    grid = np.linspace(0, 1, 100)
    tprs = np.zeros((k, 100))
    for i in range(k):
        fpr, tpr, _ = roc_curve((y == i).astype(int), R[:, i])
        tprs[i] = interp1d(fpr, tpr, bounds_error=False, fill_value=(0, 1))(grid)
    agg = np.average(tprs, axis=0, weights=weights)
    area = np.sum((grid[1:] - grid[:-1]) * (agg[1:] + agg[:-1]) / 2)
    std = np.sqrt(np.average((tprs - agg) ** 2, axis=0, weights=weights))
    return {
        "W": W,
        "R": R,
        "weights": weights,
        "gmd": gmd,
        "g": g_ref,
        "auc_theory": (g_ref + 1) / 2,
        "fpr": grid,
        "tpr": agg,
        "auc": area,
        "std": std,
    }


@pytest.mark.parametrize("with_reference", [True, False])
def test_compat_reproduces_the_reference_pipeline_step_by_step(with_reference):
    y, test = model_like_probabilities(36, 4, 0)
    _, train = model_like_probabilities(80, 4, 1)
    train = train if with_reference else None
    expected = reference_oracle(y, test, train, seed=42)
    result = gini_roc(y, test, reference_scores=train, compat="reference", random_state=42, n_boot=0)
    np.testing.assert_allclose(result.whitening, expected["W"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(result.whitened_mean, expected["R"].mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(result.weights, expected["weights"], rtol=1e-12)
    np.testing.assert_allclose(result.gini, expected["gmd"], rtol=1e-12)
    assert result.g1 == pytest.approx(expected["g"], rel=1e-12)
    assert result.auc_theory == pytest.approx(expected["auc_theory"], rel=1e-12)
    np.testing.assert_allclose(result.fpr, expected["fpr"])
    np.testing.assert_allclose(result.tpr, expected["tpr"], atol=1e-12)
    np.testing.assert_allclose(result.dispersion, expected["std"], atol=1e-12)
    assert result.auc_agg == pytest.approx(expected["auc"], abs=1e-12)
    assert result.settings["compat"] == "reference" and result.settings["grid"] == 100


def test_compat_weights_are_rank_bands_of_the_training_sigma():
    """The cap's rank bands: weights ≈ (2r - 1)/k², ordered like the fitting-set σ; G_ref ≈ 1/(6k).

    Needs separated σ and shifts 100 σ_i / ‖σ‖² below the ±100 clip (true for
    k = 9 here; with few classes the largest shifts are clipped and their
    bands merge).
    """
    k = 9
    spread = np.array([1.2, 0.3, 2.6, 0.6, 1.8, 0.45, 0.9, 2.2, 1.5])
    y, test = model_like_probabilities(180, k, 5, spread)
    _, train = model_like_probabilities(450, k, 6, spread)
    result = gini_roc(y, test, reference_scores=train, compat="reference", random_state=0, n_boot=0)
    sigma_rank = np.argsort(np.argsort(train.std(axis=0, ddof=1))) + 1
    np.testing.assert_allclose(result.weights, (2 * sigma_rank - 1) / k**2, atol=0.01)
    assert result.weights.max() == pytest.approx((2 * k - 1) / k**2, abs=0.01)
    assert result.g1 == pytest.approx(1 / (6 * k), rel=0.1)


def test_compat_is_reproducible_with_a_seed_and_depends_on_it():
    y, test = model_like_probabilities(36, 4, 0)
    a = gini_roc(y, test, compat="reference", random_state=5, n_boot=0)
    b = gini_roc(y, test, compat="reference", random_state=5, n_boot=0)
    c = gini_roc(y, test, compat="reference", random_state=6, n_boot=0)
    np.testing.assert_array_equal(a.tpr, b.tpr)
    assert a.g1 == b.g1 and not np.array_equal(a.tpr, c.tpr)


def test_compat_bootstrap_reruns_the_pipeline_and_leaves_the_estimate_alone():
    y, test = model_like_probabilities(40, 4, 7)
    plain = gini_roc(y, test, compat="reference", random_state=3, n_boot=0)
    first = gini_roc(y, test, compat="reference", random_state=3, n_boot=30)
    again = gini_roc(y, test, compat="reference", random_state=3, n_boot=30)
    np.testing.assert_array_equal(first.tpr, plain.tpr)  # the noise of the estimate is drawn first
    assert first.auc_agg == plain.auc_agg and plain.bootstrap is None
    boot = first.bootstrap
    assert boot.auc.low <= first.auc_agg <= boot.auc.high and boot.auc.n_boot == 30
    np.testing.assert_array_equal(boot.tpr_low, again.bootstrap.tpr_low)
    np.testing.assert_array_equal(boot.fpr, np.linspace(0, 1, 100))
    assert np.all(boot.tpr_low <= boot.tpr_high) and np.all(boot.weights_low <= boot.weights_high)
    assert first.settings["n_boot"] == 30 and first.settings["interval_method"] == "stratified percentile bootstrap"
