"""ROC-DMF at small samples: the ``correction`` pseudo-count and the small-class warning.

The oracle of the corrected fit is a hand count: with equal classes and a
perfect ranking every pair has the same rates, so the fitted curve is the
corrected rates (n M + c)/(n + 2c) themselves and D their trapezoid area.
"""

import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from polyroc.dmf import SmallClassWarning, compare_models, roc_dmf
from polyroc.dmf._model import observed_rate_means, response_rates
from polyroc.dmf._roc import SMALL_CLASS_ROWS


def separable(n, k=3, seed=0):
    """Equal classes of n rows; every column ranks its class above all others (no ties)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), n)
    return y, 0.1 + 0.7 * np.eye(k)[y] + rng.uniform(0, 0.05, (n * k, k))


def informative(n_per_class, seed=0, k=3):
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), n_per_class)
    return y, rng.normal(size=(y.size, k)) + 1.5 * np.eye(k)[y]


def quiet_dmf(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SmallClassWarning)
        return roc_dmf(*args, **kwargs)


def hand_counted_d(y, P, n, c, n_levels):
    """D of the corrected perfect-ranking rates, counted with numpy quantiles and summed in fractions."""
    pooled = np.concatenate([P[y == 0, 0], P[y == 1, 0]])
    c = Fraction(c)
    points = [(Fraction(0), Fraction(0))]
    for level in np.arange(n_levels, 0, -1) / (n_levels + 1):
        theta = np.quantile(pooled, level)
        tp, fp = int(np.sum(P[y == 0, 0] > theta)), int(np.sum(P[y == 1, 0] > theta))
        points.append(((fp + c) / (n + 2 * c), (tp + c) / (n + 2 * c)))
    points.append((Fraction(1), Fraction(1)))
    return float(sum((x1 - x0) * (y1 + y0) / 2 for (x0, y0), (x1, y1) in itertools.pairwise(points)))


@pytest.mark.parametrize("c", [0.5, 1 / 6, 0.1, 0.01])
def test_correction_is_the_pseudo_count_of_the_fitted_rates(c):
    n = 20
    y, P = separable(n)
    result = quiet_dmf(y, P, correction=c)
    assert result.D == pytest.approx(hand_counted_d(y, P, n, c, 99), abs=1e-9)
    assert result.settings["correction"] == c


def test_perfect_ranking_distance_from_one_follows_the_pseudo_count():
    # 1 - D ≈ 2c/(n + 2c) for a perfect ranking of n rows a class; within 1e-3 of 1 at
    # 20 rows a class only for c = 0.01 of the pseudo-counts studied
    y, P = separable(20)
    gaps = {c: 1 - quiet_dmf(y, P, correction=c).D for c in (0.5, 0.1, 0.01)}
    for c, gap in gaps.items():
        assert gap == pytest.approx(2 * c / (20 + 2 * c), rel=0.1)
    assert gaps[0.01] < 1e-3 < gaps[0.1]


def test_response_rates_use_the_pseudo_count():
    counts = np.array([[4.0, 4.0]])
    np.testing.assert_allclose(response_rates(np.array([[0.0, 0.75]]), counts, 0.1), [[0.1 / 4.2, 3.1 / 4.2]])
    # the parametric bootstrap's mean of the observed rates inverts the same correction
    np.testing.assert_allclose(observed_rate_means(np.array([[0.1 / 4.2, 3.1 / 4.2]]), counts, 0.1), [[0.0, 0.75]])


@pytest.mark.parametrize("c", [0.5, 0.1, 0.01])
def test_two_classes_are_not_corrected(c):
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], 15)
    P = rng.dirichlet([1, 1], size=30) + 0.3 * np.eye(2)[y]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SmallClassWarning)  # no correction, so no warning either
        d = roc_dmf(y, P, correction=c, n_levels=40).D
    assert d == pytest.approx(roc_auc_score(y == 0, P[:, 0]), abs=1e-12)


@pytest.mark.parametrize("c", [0.5, 0.1, 0.01])
def test_class_replication_on_the_balanced_grid_moves_d_by_at_most_the_correction(c):
    y, P = informative([60, 40, 50], seed=1)
    repeat = np.where(y == 1, 3, 1)
    a = quiet_dmf(y, P, cutoff_grid="balanced", correction=c)
    b = quiet_dmf(np.repeat(y, repeat), np.repeat(P, repeat, axis=0), cutoff_grid="balanced", correction=c)
    np.testing.assert_array_equal(a.tpr_matrix, b.tpr_matrix)
    assert abs(a.D - b.D) < c / (40 + 2 * c)


@pytest.mark.parametrize("bad", [0, -0.5, float("nan")])
def test_correction_must_be_positive(bad):
    y, P = informative(10)
    with pytest.raises(ValueError, match="correction"):
        roc_dmf(y, P, correction=bad)


def test_correction_must_be_a_number():
    y, P = informative(10)
    with pytest.raises(TypeError, match="correction"):
        roc_dmf(y, P, correction="haldane")


def test_small_class_warning_names_the_classes_below_the_threshold():
    y, P = informative([SMALL_CLASS_ROWS, SMALL_CLASS_ROWS - 1, SMALL_CLASS_ROWS + 5])
    with pytest.warns(SmallClassWarning, match=rf"1 class with fewer than 100 rows: 1 \({SMALL_CLASS_ROWS - 1}\);"):
        roc_dmf(y, P, n_levels=19)
    y, P = informative(SMALL_CLASS_ROWS)
    with warnings.catch_warnings():
        warnings.simplefilter("error", SmallClassWarning)
        roc_dmf(y, P, n_levels=19)


def test_small_class_warning_uses_the_effective_size_with_sample_weights():
    y, P = informative(SMALL_CLASS_ROWS)
    weights = np.where(np.arange(y.size) % 2 == 0, 1.0, 3.0)  # Kish size (4n)² / (10n) = 0.8 n per class
    with pytest.warns(SmallClassWarning, match="3 classes with fewer than 100 rows: 0 \\(80\\)"):
        roc_dmf(y, P, sample_weight=weights, n_levels=19)


def test_compare_models_warns_once_and_records_the_correction():
    y, P = informative(20)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cmp = compare_models(y, {"a": P, "b": P[:, ::-1]}, n_levels=9, n_boot=5, random_state=0, correction=0.1)
    assert [type(w.message) for w in caught].count(SmallClassWarning) == 1
    assert cmp.settings["correction"] == 0.1
    assert cmp.results["a"].D == pytest.approx(quiet_dmf(y, P, n_levels=9, correction=0.1).D, abs=1e-12)
