"""ROC-DMF with two classes is the empirical binary ROC (Wang & Carvalho 2024, arXiv:2404.13147, section 3.1).

Oracles: scikit-learn's ``roc_auc_score`` and ``roc_curve``, and a brute-force
count of the samples above each quantile threshold.
"""

import numpy as np
import pytest
from scipy.special import expit
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score, roc_curve
from sklearn.model_selection import train_test_split

from polyroc.dmf import compare_models, roc_dmf


def _binormal(seed, n=300, shift=1.0, spread=3.0):
    """Unequal-variance binormal scores: class 1 ~ N(shift, spread²) against class 0 ~ N(0, 1)."""
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n)
    s = np.concatenate([rng.normal(0, 1, n), rng.normal(shift, spread, n)])
    return y, np.column_stack([1 - expit(s), expit(s)])


def _logit_symmetric(seed, n=400):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + 1.2 * y
    return y, np.column_stack([1 - expit(s), expit(s)])


def _breast_cancer():
    # the default L2 logistic regression; Newton's method reaches lbfgs's optimum (max_iter=5000) in ms
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
    model = LogisticRegression(solver="newton-cholesky").fit(X_train, y_train)
    return y_test, model.predict_proba(X_test)


def _rounded(seed, n=300, decimals=1):
    """Heavily tied scores (one decimal), asymmetric: class 1 spread wider."""
    y, P = _binormal(seed, n)
    p1 = np.round(P[:, 1], decimals)
    return y, np.column_stack([1 - p1, p1])


CASES = {
    "logit-symmetric-0": lambda: _logit_symmetric(0),
    "logit-symmetric-1": lambda: _logit_symmetric(1),
    "binormal-unequal-variance": lambda: _binormal(0),
    "binormal-unequal-variance-skewed": lambda: _binormal(1, shift=-0.5, spread=0.3),
    "breast-cancer-logistic": _breast_cancer,
    "rounded-ties": lambda: _rounded(2),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_d_is_the_binary_auc_at_the_default_grid(case):
    # before: mirrored pairs averaged on the logit scale, e.g. breast cancer 0.9985 against 0.9934
    y, P = CASES[case]()
    result = roc_dmf(y, P)
    assert abs(result.D - roc_auc_score(y == 0, P[:, 0])) < 0.002
    assert abs(result.D - roc_auc_score(y, P[:, 1])) < 0.002


def test_breast_cancer_and_binormal_regressions():
    y, P = _breast_cancer()
    assert roc_auc_score(y, P[:, 1]) == pytest.approx(0.9934, abs=5e-4)
    assert roc_dmf(y, P).D == pytest.approx(0.9934, abs=0.002)  # was 0.9985
    y, P = _binormal(0)
    auc = roc_auc_score(y, P[:, 1])
    assert abs(auc - 0.632) < 0.001
    assert abs(roc_dmf(y, P).D - auc) < 0.001  # was 0.6659


@pytest.mark.parametrize("case", sorted(CASES))
def test_d_converges_to_the_auc_and_equals_it_once_the_grid_reaches_every_cut(case):
    # the type-7 quantiles of m pooled scores at t / (T + 1), T >= m, fall in every gap between
    # order statistics, so every cut of the empirical ROC is on the curve: its trapezoid area is
    # the Mann-Whitney AUC with ties counted 1/2
    y, P = CASES[case]()
    auc = roc_auc_score(y == 0, P[:, 0])
    errors = [abs(roc_dmf(y, P, n_levels=T).D - auc) for T in (9, 99)]
    dense = roc_dmf(y, P, n_levels=y.size + 1).D
    assert dense == pytest.approx(auc, abs=1e-12)
    assert errors[1] <= errors[0] + 1e-12


@pytest.mark.parametrize("case", sorted(CASES))
def test_curve_is_the_empirical_roc_at_the_quantile_cutoffs(case):
    y, P = CASES[case]()
    result = roc_dmf(y, P, n_levels=19)
    positive, score = y == 0, P[:, 0]
    brute = np.array([[np.mean(score[~positive] > t), np.mean(score[positive] > t)] for t in result.cutoffs[:, 0]])
    np.testing.assert_allclose(result.fpr, brute[:, 0], rtol=0, atol=1e-12)
    np.testing.assert_allclose(result.tpr, brute[:, 1], rtol=0, atol=1e-12)
    # every point is a vertex of scikit-learn's ROC curve
    fpr, tpr, _ = roc_curve(positive, score, drop_intermediate=False)
    vertices = {(round(a, 12), round(b, 12)) for a, b in zip(fpr, tpr)}
    assert all((round(a, 12), round(b, 12)) in vertices for a, b in zip(result.fpr, result.tpr))


def test_the_binary_model_is_one_saturated_column():
    y, P = _binormal(3)
    result = roc_dmf(y, P, n_levels=9)
    assert result.pairs.tolist() == [[0, 1]]
    assert result.tpr_matrix.shape == result.fpr_matrix.shape == (9, 1)
    assert result.pair_effect.tolist() == [0.0] and np.all(result.slope == 0)
    assert result.converged and result.n_iter == 0 and result.deviance == 0
    np.testing.assert_allclose(result.fitted, np.vstack([result.tpr_matrix, result.fpr_matrix]), atol=1e-12)
    for method in ("algorithm1",):
        np.testing.assert_array_equal(roc_dmf(y, P, n_levels=9, method=method).tpr, result.tpr)


def test_the_first_class_is_the_positive_one():
    # relabelling swaps the positive class: the curve becomes the ROC of the other class's
    # column, D stays the binary AUC (the same for both columns of simplex scores)
    y, P = _binormal(4)
    swapped = roc_dmf(1 - y, P[:, ::-1], n_levels=y.size + 1)
    original = roc_dmf(y, P, n_levels=y.size + 1)
    assert swapped.D == pytest.approx(original.D, abs=1e-12)
    assert swapped.D == pytest.approx(roc_auc_score(y, P[:, 1]), abs=1e-12)
    ordered = roc_dmf(y, P[:, ::-1], labels=[1, 0], n_levels=19)  # columns follow labels
    assert ordered.pairs.tolist() == [[1, 0]]
    np.testing.assert_allclose(ordered.tpr, [np.mean(P[y == 1, 1] > t) for t in ordered.cutoffs[:, 0]])


def test_two_classes_with_samples_among_more_labels_use_one_pair():
    y, P = _binormal(5, n=60)
    P3 = np.column_stack([P * 0.9, np.full(y.size, 0.1)])
    with pytest.warns(UserWarning, match="no samples"):
        result = roc_dmf(y, P3, labels=[0, 1, 2], n_levels=y.size * 2 + 1)
    assert result.pairs.tolist() == [[0, 1]]
    assert result.D == pytest.approx(roc_auc_score(y == 0, P3[:, 0]), abs=1e-12)


@pytest.mark.parametrize("kind", ["parametric", "stratified"])
def test_binary_bootstrap(kind):
    y, P = _binormal(6, n=80)
    result = roc_dmf(y, P, n_levels=19, bootstrap=kind, n_boot=50, random_state=0)
    assert result.ci.low <= result.D <= result.ci.high
    assert result.bootstrap.n_unconverged == 0
    # replicate rates are counts over the resampled class (stratified) or over the binomial
    # trials n_a n_b (parametric, the paper's N)
    n = 80 if kind == "stratified" else 80 * 80
    np.testing.assert_allclose(result.bootstrap.tpr * n, np.round(result.bootstrap.tpr * n), atol=1e-6)


def test_compare_models_with_two_classes():
    y, good = _binormal(7, n=100, shift=2.0, spread=1.0)
    _, poor = _binormal(8, n=100, shift=0.2, spread=1.0)
    cmp = compare_models(
        y, {"good": good, "poor": poor}, n_levels=19, bootstrap="stratified", n_boot=30, random_state=0
    )
    assert cmp.probability(("good", "poor")) == 1.0
    assert cmp.D[0] == pytest.approx(roc_auc_score(y, good[:, 1]), abs=0.01)
