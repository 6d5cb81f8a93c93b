"""ROC clouds and DFP: the paper's exact toy fractions, a per-tau loop oracle, the sampling note."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import roc_curve as sk_roc_curve

from polyroc.exceptions import UndefinedMetricWarning
from polyroc.thresholds.clouds import cloud_rates, default_cloud_samples, dfp, roc_cloud
from tests._oracles.toy_example import TAUS as TOY_TAUS
from tests._oracles.toy_example import P as TOY_P
from tests._oracles.toy_example import Y as TOY_Y
from tests._oracles.toy_example import exact_counts

F = Fraction


def test_toy_dfp_is_the_papers_exact_fractions():
    # the toy example of Legnaro, Guastavino & Marchetti (2025): DFP over exactly the three taus of its table
    per_class = []
    for j in range(3):
        terms = []
        for tau in TOY_TAUS:
            c = exact_counts(tau)
            tp, fn = int(c[j, j]), int(c[j].sum() - c[j, j])
            fp = int(c[:, j].sum() - c[j, j])
            tn = 24 - tp - fn - fp
            terms.append(F(fp, fp + tn) + 1 - F(tp, tp + fn))
        per_class.append(sum(terms) / 3)
    assert per_class == [F(176, 357), F(215, 357), F(103, 210)]
    assert sum(per_class) / 3 == F(37, 70)

    cloud = roc_cloud(TOY_Y, TOY_P, thresholds=[[float(t) for t in tau] for tau in TOY_TAUS])
    np.testing.assert_allclose(cloud.dfp, [176 / 357, 215 / 357, 103 / 210], rtol=1e-12)
    assert cloud.dfp_overall == pytest.approx(37 / 70, rel=1e-12)
    assert cloud.settings["search"] is None and cloud.n_thresholds == 3


def _loop_rates(y, P, taus, m):
    """One tau at a time: predictions, then each class's 2x2 table by counting."""
    fpr = np.empty((len(taus), m))
    tpr = np.empty((len(taus), m))
    for k, tau in enumerate(taus):
        pred = np.argmax(P - tau, axis=1)
        for j in range(m):
            pos, hit = y == j, pred == j
            tpr[k, j] = np.sum(pos & hit) / np.sum(pos)
            fpr[k, j] = np.sum(~pos & hit) / np.sum(~pos)
    return fpr, tpr


@pytest.mark.parametrize(
    "search, options", [("lattice", {"resolution": 16}), ("random", {"n_samples": 300, "random_state": 5})]
)
def test_cloud_points_equal_a_per_tau_loop(search, options):
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 250)
    P = rng.dirichlet(np.ones(4), 250)
    cloud = roc_cloud(y, P, search=search, **options)
    fpr, tpr = _loop_rates(y, P, cloud.thresholds, 4)
    np.testing.assert_allclose(cloud.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(cloud.tpr, tpr, atol=1e-12)
    np.testing.assert_allclose(cloud.dfp, 1 - np.mean(tpr - fpr, axis=0), atol=1e-12)


@pytest.mark.parametrize(
    "search, options, size",
    [("lattice", {"resolution": 6}, 84), ("random", {"n_samples": 300, "random_state": 5}, 300)],
)
def test_barycentre_is_added_only_on_request(search, options, size):
    # Algorithm 2 samples the grid alone (C(6 + 3, 3) = 84 points, 6 not a multiple of 4)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 50)
    P = rng.dirichlet(np.ones(4), 50)
    plain = roc_cloud(y, P, search=search, **options)
    assert plain.thresholds.shape == (size, 4) and plain.settings["include_barycentre"] is False
    assert not np.any(np.all(np.isclose(plain.thresholds, 0.25), axis=1))
    extended = roc_cloud(y, P, search=search, include_barycentre=True, **options)
    assert extended.thresholds.shape == (size + 1, 4)
    np.testing.assert_array_equal(extended.thresholds[-1], np.full(4, 0.25))
    fpr, tpr = _loop_rates(y, P, extended.thresholds[-1:], 4)
    np.testing.assert_allclose(extended.fpr[-1:], fpr, atol=1e-12)
    np.testing.assert_allclose(extended.tpr[-1:], tpr, atol=1e-12)


def test_overlay_curves_are_the_standard_ovr_curves():
    rng = np.random.default_rng(1)
    y = rng.choice(["a", "b", "c"], 120)
    P = rng.dirichlet(np.ones(3), 120)
    cloud = roc_cloud(y, P, resolution=8)
    assert cloud.classes.tolist() == ["a", "b", "c"]
    for j, label in enumerate(["a", "b", "c"]):
        fpr, tpr, _ = sk_roc_curve(y == label, P[:, j])
        np.testing.assert_allclose(cloud.ovr_curves.fpr[j], fpr)
        np.testing.assert_allclose(cloud.ovr_curves.tpr[j], tpr)


def test_lattice_and_monte_carlo_dfp_agree_within_sampling_error():
    # lattice r = 200 and Monte Carlo M = 20,000 approximate the same uniform measure
    rng = np.random.default_rng(2)
    y = rng.integers(0, 3, 400)
    P = rng.dirichlet(np.ones(3) * 2, 400) * 0.6 + 0.4 * np.eye(3)[y]
    lattice = roc_cloud(y, P, resolution=200)
    mc = roc_cloud(y, P, search="random", n_samples=20_000, random_state=3)
    np.testing.assert_allclose(lattice.dfp, mc.dfp, atol=0.02)
    assert lattice.settings["resolution"] == 200 and mc.settings["random_state"] == 3


def test_class_without_positives_is_nan_with_warning_or_reference_zero():
    counts = np.array([[[3, 1, 0], [1, 2, 0], [0, 0, 0]]])
    with pytest.warns(UndefinedMetricWarning, match=r"positions \[2\]"):
        per_class, overall = dfp(counts)
    assert np.isnan(per_class[2]) and overall == pytest.approx(np.nanmean(per_class[:2]))
    per_class, _ = dfp(counts, zero_division=0.0)
    fpr, tpr = cloud_rates(counts, zero_division=0.0)
    assert tpr[0, 2] == 0.0 and per_class[2] == pytest.approx(1.0 + fpr[0, 2])


def test_zero_division_warn_is_zero_with_one_warning():
    counts = np.array([[[3, 1, 0], [1, 2, 0], [0, 0, 0]], [[2, 2, 0], [0, 3, 0], [0, 0, 0]]])
    for function in (cloud_rates, dfp):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            warned = function(counts, zero_division="warn")
        assert [w.category for w in caught] == [UndefinedMetricWarning]
        assert "positions [2]" in str(caught[0].message) and caught[0].filename == __file__
        np.testing.assert_array_equal(
            np.concatenate(warned, axis=None), np.concatenate(function(counts, zero_division=0.0), axis=None)
        )


def test_roc_cloud_zero_division_warn_is_zero_with_one_warning():
    y, P = [0, 0, 1, 1], [[0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5], [0.5, 0.4, 0.1]]
    options = {"labels": [0, 1, 2], "resolution": 6}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warned = roc_cloud(y, P, zero_division="warn", **options)
    rate_warnings = [w for w in caught if "fpr or tpr is undefined" in str(w.message)]
    assert len(rate_warnings) == 1 and "positions [2]" in str(rate_warnings[0].message)
    assert rate_warnings[0].category is UndefinedMetricWarning and rate_warnings[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)  # the OvR curve of class 2 is undefined
        zero = roc_cloud(y, P, zero_division=0.0, **options)
    for name in ("fpr", "tpr", "dfp", "argmax_fpr", "argmax_tpr"):
        np.testing.assert_array_equal(getattr(warned, name), getattr(zero, name))
    assert warned.zero_division == "warn" and not np.isnan(warned.dfp).any()


@pytest.mark.parametrize(
    ("n_samples", "n_classes", "error", "match"),
    [
        (0, 10, ValueError, r"n_samples must be an int in \[1, inf\); got 0$"),
        (-5, 10, ValueError, r"n_samples must be an int in \[1, inf\); got -5$"),
        (10.5, 10, TypeError, r"n_samples must be an int in \[1, inf\); got float 10.5$"),
        (True, 10, TypeError, r"n_samples must be an int in \[1, inf\); got bool True$"),
        (1000, 1, ValueError, r"n_classes must be an int in \[2, inf\); got 1$"),
        (1000, "10", TypeError, r"n_classes must be an int in \[2, inf\); got str '10'$"),
    ],
)
def test_default_cloud_samples_refuses_bad_sizes(n_samples, n_classes, error, match):
    with pytest.raises(error, match=match):
        default_cloud_samples(n_samples, n_classes)


def test_bad_thresholds_shape():
    with pytest.raises(ValueError, match=r"thresholds must be 2-D, got shape \(2,\)"):
        roc_cloud(TOY_Y, TOY_P, thresholds=[0.5, 0.5])
    with pytest.raises(ValueError, match=r"thresholds must have 3 columns"):
        roc_cloud(TOY_Y, TOY_P, thresholds=[[0.5, 0.5]])


def test_thresholds_with_nan_are_refused():
    with pytest.raises(ValueError, match=r"thresholds contains NaN or infinity \(first in row 1\)"):
        roc_cloud(TOY_Y, TOY_P, thresholds=[[0.2, 0.3, 0.5], [np.nan, 0.5, 0.5]])
