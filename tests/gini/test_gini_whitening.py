"""ZCA-cor whitening and the multidimensional Gini: paper identities, singular limits, oracles."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import sqrtm

from polyroc.gini import WhiteningWarning, multidimensional_gini, zca_cor_whitening


def softmax_rows(n, k, seed):
    rng = np.random.default_rng(seed)
    logits = rng.normal(size=(n, k)) * rng.uniform(0.5, 2.0, size=k)
    P = np.exp(logits)
    return P / P.sum(axis=1, keepdims=True)


def full_rank_scores(n, k, seed):
    rng = np.random.default_rng(seed)
    return rng.gamma(2.0, size=(n, k)) @ (np.eye(k) + 0.3 * rng.uniform(size=(k, k)))


def zca_cor_oracle(X, ridge=0.0):
    """W = P^{-1/2} V^{-1/2} by scipy's matrix square root, with optional ridge on P."""
    sigma = X.std(axis=0, ddof=1)
    P = np.corrcoef(X, rowvar=False)
    P = (1 - ridge) * P + ridge * np.eye(P.shape[0])
    return np.real(np.linalg.inv(sqrtm(P))) / sigma


def weights_and_g1_oracle(X, W):
    """Weights |m*| / Σ|m*| and G1 = Σ Δ_i / (2 Σ|m*|), mean differences by pairs."""
    Z = X @ W.T
    m = Z.mean(axis=0)
    n = Z.shape[0]
    delta = np.abs(Z[:, None, :] - Z[None, :, :]).sum(axis=(0, 1)) / (n * (n - 1))
    return np.abs(m) / np.abs(m).sum(), delta.sum() / (2 * np.abs(m).sum())


def quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        return function(*args, **kwargs)


def test_full_rank_matches_scipy_oracle_and_paper_identities():
    X = full_rank_scores(200, 4, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        whitening = zca_cor_whitening(X)
    S = np.cov(X, rowvar=False)
    assert whitening.applied == "exact" and not whitening.singular
    np.testing.assert_allclose(whitening.matrix, zca_cor_oracle(X), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(whitening.matrix @ S @ whitening.matrix.T, np.eye(4), atol=1e-10)  # eq. (6)
    np.testing.assert_allclose(whitening.matrix.T @ whitening.matrix, np.linalg.inv(S), rtol=1e-8)  # (7)


def test_full_rank_gini_matches_pairwise_oracle():
    X = full_rank_scores(80, 3, 1)
    result = multidimensional_gini(X)
    weights, g1 = weights_and_g1_oracle(X, zca_cor_oracle(X))
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9)
    assert result.g1 == pytest.approx(g1, rel=1e-9)
    assert result.g1 == pytest.approx(result.weights @ result.gini, rel=1e-12)  # convex combination (9)


def test_simplex_rows_are_singular_and_limit_weights_are_sigma_shares():
    P = softmax_rows(300, 5, 2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)  # the one null direction of probability rows is expected
        result = multidimensional_gini(P)
    sigma = P.std(axis=0, ddof=1)
    np.testing.assert_allclose(result.weights, sigma / sigma.sum(), rtol=1e-9)
    assert result.degenerate and result.g1 == 0.0 and result.auc_theory == 0.5
    assert result.whitening.singular and result.whitening.applied == "limit"


@pytest.mark.parametrize("scale", [np.ones(4), np.array([3.0, 1.0, 0.2, 7.0])])
def test_limit_weights_are_the_ridge_limit(scale):
    X = softmax_rows(250, 4, 3) * scale  # rescaled columns: the σ-share shortcut no longer holds
    limit = quiet(multidimensional_gini, X)
    errors = []
    for lam in (1e-8, 1e-10, 1e-12):
        weights, _ = weights_and_g1_oracle(X, zca_cor_oracle(X, ridge=lam))
        ridge = quiet(multidimensional_gini, X, singular="ridge", ridge=lam)
        np.testing.assert_allclose(ridge.weights, weights, rtol=1e-9)
        errors.append(np.abs(limit.weights - weights).max())
    assert errors[-1] < 1e-6
    assert 5 < errors[0] / errors[1] < 20 and 5 < errors[1] / errors[2] < 20  # like sqrt(λ)
    if not np.all(scale == 1):
        sigma = X.std(axis=0, ddof=1)
        assert not np.allclose(limit.weights, sigma / sigma.sum(), atol=1e-3)


def test_ridge_g1_vanishes_like_square_root_of_lambda():
    X = softmax_rows(250, 4, 4)
    g1 = [quiet(multidimensional_gini, X, singular="ridge", ridge=lam).g1 for lam in (1e-2, 1e-4, 1e-6)]
    assert g1[0] > g1[1] > g1[2] > 0
    assert g1[1] / g1[2] == pytest.approx(10, rel=0.05)


def test_pinv_can_exceed_one_and_diagonal_stays_in_unit_interval():
    X = softmax_rows(300, 5, 5)
    assert quiet(multidimensional_gini, X, singular="pinv").g1 > 1
    diagonal = quiet(multidimensional_gini, X, singular="diagonal")
    ratio = X.mean(axis=0) / X.std(axis=0, ddof=1)
    np.testing.assert_allclose(diagonal.weights, ratio / ratio.sum(), rtol=1e-12)
    assert 0 <= diagonal.g1 <= 1


@pytest.mark.parametrize("singular", ["limit", "exact"])
def test_weights_and_g1_invariant_to_column_scaling(singular):
    X = softmax_rows(200, 4, 6) if singular == "limit" else full_rank_scores(200, 4, 6)
    scale = np.array([0.01, 5.0, 1.0, 300.0])
    base = quiet(multidimensional_gini, X)
    scaled = quiet(multidimensional_gini, X * scale)
    np.testing.assert_allclose(scaled.weights, base.weights, rtol=1e-8)
    assert scaled.g1 == pytest.approx(base.g1, rel=1e-8, abs=1e-12)


def test_reference_fit_is_applied_to_the_evaluated_scores():
    train, test = full_rank_scores(300, 3, 7), full_rank_scores(50, 3, 8)
    result = multidimensional_gini(test, reference=train)
    weights, g1 = weights_and_g1_oracle(test, zca_cor_oracle(train))
    np.testing.assert_allclose(result.weights, weights, rtol=1e-9)
    assert result.g1 == pytest.approx(g1, rel=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["exact", "limit"]))
def test_integer_weights_equal_repeated_rows(seed, kind):
    X = full_rank_scores(40, 3, seed) if kind == "exact" else softmax_rows(40, 3, seed)
    counts = np.random.default_rng(seed).integers(0, 4, size=40)
    counts[:4] = [1, 2, 3, 1]
    weighted = quiet(multidimensional_gini, X, sample_weight=counts, norm="plugin")
    repeated = quiet(multidimensional_gini, np.repeat(X, counts, axis=0), norm="plugin")
    np.testing.assert_allclose(weighted.weights, repeated.weights, rtol=1e-10)
    assert weighted.g1 == pytest.approx(repeated.g1, rel=1e-10, abs=1e-14)
    assert weighted.whitening.applied == repeated.whitening.applied == kind
    # unbiased: the same pair sums over Σ_{a≠b} w_a w_b instead of W (W - 1) distinct pairs
    unbiased = quiet(multidimensional_gini, X, sample_weight=counts)
    unbiased_repeated = quiet(multidimensional_gini, np.repeat(X, counts, axis=0))
    total, squares = counts.sum(), (counts**2).sum()
    assert unbiased.g1 * (total**2 - squares) == pytest.approx(
        unbiased_repeated.g1 * total * (total - 1), rel=1e-10, abs=1e-12
    )


def test_weighted_covariance_is_numpy_aweights_covariance():
    X = full_rank_scores(60, 3, 14)
    weights = np.random.default_rng(14).uniform(0, 2, size=60)
    W = zca_cor_whitening(X, sample_weight=weights).matrix
    S = np.cov(X, rowvar=False, aweights=weights)  # ddof=1 with the reliability-weights divisor
    np.testing.assert_allclose(W @ S @ W.T, np.eye(3), atol=1e-10)
    sigma = np.sqrt(np.diag(S))
    oracle = np.real(np.linalg.inv(sqrtm(S / np.outer(sigma, sigma)))) / sigma
    np.testing.assert_allclose(W, oracle, rtol=1e-9, atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([1e-300, 1e-8, 0.37, 1e8, 1e300, "sum to 1"]),
    st.sampled_from(["exact", "limit"]),
)
def test_sample_weights_are_scale_free(seed, scale, kind):
    X = full_rank_scores(30, 3, seed) if kind == "exact" else softmax_rows(30, 3, seed)
    weights = np.random.default_rng(seed).uniform(0.1, 3, size=30)
    weights[::7] = 0.0
    scaled = weights / weights.sum() if scale == "sum to 1" else scale * weights
    base = quiet(multidimensional_gini, X, sample_weight=weights)
    other = quiet(multidimensional_gini, X, sample_weight=scaled)
    np.testing.assert_allclose(other.weights, base.weights, rtol=0, atol=1e-12)
    assert other.g1 == pytest.approx(base.g1, rel=1e-12, abs=1e-14)
    # W, m* and Δ are unbounded; in the singular limit they go through P's null eigenvector,
    # whose rounding error grows as the eigenvalue gap shrinks: compared relatively, more loosely
    for got, want in (
        (other.whitened_mean, base.whitened_mean),
        (other.mean_difference, base.mean_difference),
        (other.whitening.matrix, base.whitening.matrix),
    ):
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12 * np.abs(want).max())
    assert other.whitening.n_samples == pytest.approx(base.whitening.n_samples, rel=1e-12)


def test_weights_summing_to_one_are_accepted_and_near_one_sums_are_not_special():
    X = full_rank_scores(40, 3, 15)
    plain = multidimensional_gini(X)
    uniform = np.full(40, 1 / 40)
    nudged = uniform.copy()
    nudged[0] += 2e-16  # total 1 + 2e-16: read as counts, this once gave G1 ≈ 1e15
    for weights in (uniform, nudged):
        result = multidimensional_gini(X, sample_weight=weights)
        assert result.g1 == pytest.approx(plain.g1, rel=1e-12)
        np.testing.assert_allclose(result.weights, plain.weights, rtol=1e-12)


def test_constant_column_is_dropped_with_a_warning():
    X = full_rank_scores(60, 4, 10)
    X[:, 2] = 0.25
    with pytest.warns(WhiteningWarning, match=r"classes \[2\] are constant"):
        result = multidimensional_gini(X)
    assert result.weights[2] == 0 and not result.whitening.used[2]
    assert result.weights.sum() == pytest.approx(1)
    with pytest.raises(ValueError, match=r"columns \[2\] of X are constant"):
        multidimensional_gini(X, constant="raise")


def test_errors():
    P = softmax_rows(50, 3, 11)
    with pytest.raises(ValueError, match="singular"):
        multidimensional_gini(P, singular="raise")
    with pytest.raises(ValueError, match="singular must be one of"):
        multidimensional_gini(P, singular="magic")
    with pytest.raises(TypeError, match="ridge must be a real number"):
        multidimensional_gini(P, singular="ridge")
    with pytest.raises(ValueError, match="at least 2"):
        multidimensional_gini(P[:1])
    with_nan = P.copy()
    with_nan[3, 1] = np.nan
    with pytest.raises(ValueError, match=r"NaN or infinity \(first in row 3\)"):
        multidimensional_gini(with_nan)
    with pytest.raises(ValueError, match="every column of X is constant"):
        multidimensional_gini(np.ones((5, 3)))
    with pytest.raises(ValueError, match="every column of reference is constant"):
        multidimensional_gini(P, reference=np.ones((5, 3)))
    with pytest.raises(ValueError, match="sample_weight gives positive weight to 1 row of X"):
        multidimensional_gini(P, sample_weight=np.eye(50)[0])
    centred = full_rank_scores(40, 3, 12)
    with pytest.raises(ValueError, match="mean 0"):
        multidimensional_gini(centred - centred.mean(axis=0))


@pytest.mark.parametrize(
    "X, error, match",
    [
        (np.array([0.2, 0.3, 0.5]), ValueError, r"X must be 2-D, got shape \(3,\)"),
        (np.full((4, 2), 0.5), ValueError, r"X must have 3 columns, got shape \(4, 2\)"),
        (np.array([[0.2, np.nan, 0.8]]), ValueError, r"X contains NaN or infinity \(first in row 0\)"),
        (np.array([[0.2, np.inf, 0.8]]), ValueError, r"X contains NaN or infinity \(first in row 0\)"),
        (np.empty((0, 3)), ValueError, "X has 0 samples; at least 1 are needed"),
        (np.array([["a", "b", "c"]]), TypeError, "X must be numeric"),
    ],
)
def test_transform_checks_its_rows(X, error, match):
    whitening = zca_cor_whitening(full_rank_scores(30, 3, 14))
    with pytest.raises(error, match=match):
        whitening.transform(X)


def test_few_samples_warn():
    with pytest.warns(WhiteningWarning) as record:
        multidimensional_gini(full_rank_scores(3, 3, 13))
    assert any("W is unreliable" in str(w.message) for w in record)


def test_whitening_and_gini_results_follow_the_result_protocol():
    import dataclasses
    import json

    from polyroc._results import Result

    X = np.array([[1.0, 2.0, 0.5], [2.0, 1.0, 1.5], [3.0, 5.0, 0.2], [4.0, 3.0, 2.5], [2.5, 0.5, 1.0]])
    whitening = zca_cor_whitening(X, singular="diagonal")
    gini = multidimensional_gini(X, norm="plugin")
    for result in (whitening, gini):
        assert isinstance(result, Result)
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.settings = {}
    assert whitening.settings == {"singular": "diagonal", "ridge": None, "constant": "drop"}
    assert gini.settings == {"norm": "plugin", "fitted_on": "X", "singular": "limit", "ridge": None, "constant": "drop"}
    record = json.loads(json.dumps(gini.to_dict(), allow_nan=False))
    assert record["auc_theory"] == (gini.g1 + 1) / 2 and record["whitening"]["type"] == "Whitening"
    frame = gini.to_frame()
    np.testing.assert_array_equal(frame["weight"], gini.weights)
    np.testing.assert_array_equal(frame["gini"], gini.gini)
    np.testing.assert_allclose(whitening.to_frame()["scale"], X.std(axis=0, ddof=1), rtol=1e-12)
