"""ROC-DMF's D does not depend on numerical safeguards: rates of 0 and 1 get a continuity correction.

Tied scores (k-NN votes on the bundled glass data, a shuttle-like problem with
tiny classes and tied columns) and separable scores, refitted with every
safeguard of the solver made 10⁴ times less intrusive; the separable case
against a hand computation of the corrected rates.
"""

import warnings

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import polyroc.dmf._factorization as factorization
from polyroc.datasets import load_glass
from polyroc.dmf import NonMonotoneCurveWarning, roc_dmf
from polyroc.exceptions import ConvergenceWarning
from tests._oracles.dmf_simulation import simulate_rare_class_scores

#: Each safeguard made 10⁴ times less intrusive (a smaller floor, a larger bound, 2^13 more halvings).
LOOSER = {
    "ETA_BOUND": 30.0 * 1e4,
    "VARIANCE_FLOOR": 1e-16,
    "DENOMINATOR_FLOOR": 1e-304,
    "SINGULAR_RTOL": 1e-16,
    "MAX_HALVINGS": 33,
}


def glass_knn():
    glass = load_glass()
    X_train, X_test, y_train, y_test = train_test_split(
        glass.data, glass.target, test_size=0.5, stratify=glass.target, random_state=0
    )
    model = make_pipeline(StandardScaler(), KNeighborsClassifier(5)).fit(X_train, y_train)
    return y_test, model.predict_proba(X_test)


def shuttle_like():
    """Seven classes of 3118 down to 2 samples; the three large ones nearly separable, the rare
    classes scored like a random large class, their own columns tied and label-independent."""
    return simulate_rare_class_scores(random_state=0)


def separable(n=30, k=3, seed=0):
    """Equal classes, every column ranks its class above all others (no ties)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), n)
    return y, 0.1 + 0.7 * np.eye(k)[y] + rng.uniform(0, 0.05, (n * k, k))


def rounded(seed=0, n=200):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, n)
    P = rng.dirichlet(np.ones(4), size=n) + 0.4 * np.eye(4)[y]
    return y, np.round(P / P.sum(axis=1, keepdims=True), 1)


CASES = {"glass-knn": glass_knn, "shuttle-like": shuttle_like, "separable": separable, "rounded": rounded}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    y, P = CASES[request.param]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        return request.param, y, P, roc_dmf(y, P)


@pytest.mark.parametrize("constant", sorted(LOOSER))
def test_d_does_not_move_when_a_safeguard_is_loosened_ten_thousandfold(case, constant, monkeypatch):
    # before: glass k-NN gave D = 0.931 / 0.986 / 1.000 with the rates clipped at 1e-3 / 1e-4 / 1e-5
    _, y, P, base = case
    monkeypatch.setattr(factorization, constant, LOOSER[constant])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        assert abs(roc_dmf(y, P).D - base.D) < 1e-6


def test_d_barely_moves_with_a_ten_thousandfold_tighter_tolerance(case):
    _, y, P, base = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        tight = roc_dmf(y, P, tol=1e-12, max_iter=5000)
    assert tight.converged
    assert abs(tight.D - base.D) < 1e-4


def test_fits_converge_quickly_without_warnings(case):
    name, y, P, base = case
    assert base.converged and base.n_iter <= 60, (name, base.n_iter)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        roc_dmf(y, P)


def test_separable_scores_give_the_corrected_rates_of_a_perfect_roc():
    # every pair has the same rates (pooled ranks), so the intercept is the logit of the
    # corrected rate (n M + 1/2) / (n + 1) itself; computed here by counting
    n = 30
    y, P = separable(n)
    result = roc_dmf(y, P, n_levels=19)
    pooled = np.concatenate([P[y == 0, 0], P[y == 1, 0]])
    rates = []
    for level in np.arange(19, 0, -1) / 20:
        theta = np.quantile(pooled, level)
        rates.append([np.sum(P[y == 0, 0] > theta), np.sum(P[y == 1, 0] > theta)])
    tpr, fpr = ((np.array(rates) + 0.5) / (n + 1)).T
    x, h = np.concatenate([[0], fpr, [1]]), np.concatenate([[0], tpr, [1]])
    np.testing.assert_allclose(result.tpr, tpr, atol=1e-9)
    np.testing.assert_allclose(result.fpr, fpr, atol=1e-9)
    assert result.D == pytest.approx(np.trapezoid(h, x), abs=1e-9)
    assert result.D < 1  # a perfect ranking of 30 samples per class does not prove TPR = 1


def test_the_correction_vanishes_as_the_classes_grow():
    # perfectly separable classes of n samples: 1 - D shrinks like 1/n (here T = 19 levels)
    gaps = [1 - roc_dmf(*separable(n), n_levels=19).D for n in (30, 300, 3000)]
    assert gaps[0] > gaps[1] > gaps[2] > 0
    assert gaps[2] < 1e-3


def test_tied_and_nearly_separable_scores_track_hand_and_till():
    # before: glass k-NN D = 0.986 and shuttle-like D = 0.826 against M = 0.833 and 0.649
    for make in (glass_knn, shuttle_like):
        y, P = make()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", NonMonotoneCurveWarning)
            d = roc_dmf(y, P).D
        assert abs(d - roc_auc_score(y, P, multi_class="ovo")) < 0.1


def test_factorization_refuses_rates_of_zero_or_one():
    with pytest.raises(ValueError, match=r"strictly inside \(0, 1\)"):
        factorization.fit_factorization(np.array([[[0.0, 0.5], [0.5, 0.7]]]), np.ones((2, 2)))
