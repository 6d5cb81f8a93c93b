"""Property tests of ROC-DMF: renumbering the classes (labels and score columns together, pair
costs with them) or shuffling the samples leaves D and the curve unchanged, for every cut-off grid,
weighting, trials, method and with sample weights, when three or more classes have samples. With
two classes the first class is the positive one (the paper's section 3.1): D is the AUC of its
score column, which relabelling changes."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score

from polyroc.dmf import NonMonotoneCurveWarning, roc_dmf


@st.composite
def scored_labels(draw, min_classes=3, max_classes=5):
    """Labels with classes of 1-12 samples and scores: continuous, rounded (ties) or k-NN votes."""
    k = draw(st.integers(min_classes, max_classes))
    sizes = draw(st.lists(st.integers(1, 12), min_size=k, max_size=k))
    seed = draw(st.integers(0, 2**32 - 1))
    kind = draw(st.sampled_from(["continuous", "rounded", "votes"]))
    signal = draw(st.sampled_from([0.0, 0.5, 3.0]))
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(k), sizes)
    P = rng.dirichlet(np.ones(k), size=y.size) + signal * np.eye(k)[y]
    P /= P.sum(axis=1, keepdims=True)
    if kind == "rounded":
        P = np.round(P, 1)
    elif kind == "votes":
        P = np.array([np.bincount(rng.choice(k, 5, p=row), minlength=k) for row in P]) / 5
    return y, P


def _fit(y, P, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonMonotoneCurveWarning)
        return roc_dmf(y, P, **{"n_levels": 19, **kwargs})


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(
    data=scored_labels(),
    permutation_seed=st.integers(0, 2**32 - 1),
    method=st.sampled_from(["intercept", "algorithm1"]),
)
def test_renumbering_the_classes_leaves_d_and_the_curve_unchanged(data, permutation_seed, method):
    y, P = data
    k = P.shape[1]
    rng = np.random.default_rng(permutation_seed)
    renumber = rng.permutation(k)  # class c is called renumber[c]
    P_renumbered = np.empty_like(P)
    P_renumbered[:, renumber] = P
    rows = rng.permutation(y.size)
    names = np.array([f"class {c}" for c in renumber])  # new names, sorted differently
    original = _fit(y, P, method=method)
    renamed = _fit(names[y][rows], P_renumbered[rows], method=method)
    assert renamed.D == pytest.approx(original.D, abs=1e-9)
    np.testing.assert_allclose(renamed.fpr, original.fpr, atol=1e-9)
    np.testing.assert_allclose(renamed.tpr, original.tpr, atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(data=scored_labels(min_classes=2, max_classes=2), seed=st.integers(0, 2**32 - 1))
def test_two_classes_relabelled_keep_the_auc(data, seed):
    # with two classes the first is the positive one, so relabelling reflects the curve; on a
    # grid reaching every cut D is the AUC, which relabelling leaves unchanged
    y, P = data
    rows = np.random.default_rng(seed).permutation(y.size)
    dense = 2 * y.size + 1
    a = _fit(y, P, n_levels=dense)
    b = _fit(1 - y[rows], P[rows][:, ::-1], n_levels=dense)
    assert b.D == pytest.approx(a.D, abs=1e-12)


def test_renumbering_regression_of_clipped_fits():
    # five-vote scores, two samples per class: with rates clipped at 1e-4 the two numberings
    # stopped at different points of a diverging fit (20 and 37 iterations, slopes near 200,
    # D = 0.999854 and 0.999857); with the continuity correction the fit is finite
    y = np.array([0, 0, 1, 1, 2, 2])
    P = np.array([[3, 0, 2], [5, 0, 0], [0, 5, 0], [0, 5, 0], [1, 0, 4], [0, 1, 4]]) / 5
    renumber, rows = np.array([1, 2, 0]), np.array([1, 4, 2, 0, 3, 5])
    P_renumbered = np.empty_like(P)
    P_renumbered[:, renumber] = P
    original = roc_dmf(y, P)
    renamed = roc_dmf(renumber[y][rows], P_renumbered[rows])
    assert renamed.D == pytest.approx(original.D, abs=1e-12)
    assert original.converged and renamed.converged


def _renumbered_costs(costs, renumber):
    """Costs of the k(k-1) ordered pairs (lexicographic) moved to the renumbered pairs' positions."""
    k = renumber.size
    pairs = [(a, b) for a in range(k) for b in range(k) if a != b]
    position = {pair: j for j, pair in enumerate(pairs)}
    moved = np.empty_like(costs)
    moved[..., [position[(renumber[a], renumber[b])] for a, b in pairs]] = costs
    return moved


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    data=scored_labels(),
    permutation_seed=st.integers(0, 2**32 - 1),
    cutoff_grid=st.sampled_from(["pooled", "column", "balanced"]),
    weighting=st.sampled_from(["unweighted", "weighted", "costs", "block costs"]),
    trials=st.sampled_from(["pairs", "marginal"]),
    sample_weights=st.booleans(),
    method=st.sampled_from(["intercept", "algorithm1"]),
)
def test_relabelling_leaves_d_unchanged_for_every_option(
    data, permutation_seed, cutoff_grid, weighting, trials, sample_weights, method
):
    """Class names permuted with the score columns (and the pair costs) give the same D to 1e-12."""
    y, P = data
    k = P.shape[1]
    rng = np.random.default_rng(permutation_seed)
    renumber = rng.permutation(k)
    P_renumbered = np.empty_like(P)
    P_renumbered[:, renumber] = P
    weight = rng.uniform(0.2, 3.0, y.size) if sample_weights else None
    costs = renumbered = weighting
    if weighting != "unweighted" and weighting != "weighted":
        costs = rng.uniform(0.5, 2.0, (k * (k - 1),) if weighting == "costs" else (2, k * (k - 1)))
        renumbered = _renumbered_costs(costs, renumber)
    options = {"cutoff_grid": cutoff_grid, "trials": trials, "method": method, "sample_weight": weight}
    original = _fit(y, P, weighting=costs, **options)
    renamed = _fit(renumber[y], P_renumbered, weighting=renumbered, **options)
    assert renamed.D == pytest.approx(original.D, abs=1e-12)
    np.testing.assert_allclose(renamed.tpr, original.tpr, atol=1e-12)
    np.testing.assert_allclose(renamed.fpr, original.fpr, atol=1e-12)


@settings(max_examples=40, deadline=None)
@given(
    data=scored_labels(min_classes=2, max_classes=2),
    seed=st.integers(0, 2**32 - 1),
    cutoff_grid=st.sampled_from(["pooled", "column", "balanced"]),
)
def test_two_classes_give_the_auc_of_the_first_class_column_on_every_grid(data, seed, cutoff_grid):
    """With two classes D is the binary AUC of the first class's score column (grid reaching every cut).

    The documented exception to relabelling invariance: the first class of ``labels`` is the positive
    one, so relabelling changes the column scored (and, on a coarser grid, the cut-offs).
    """
    y, P = data
    rows = np.random.default_rng(seed).permutation(y.size)
    dense = 2 * y.size + 1
    original = _fit(y, P, n_levels=dense, cutoff_grid=cutoff_grid)
    relabelled = _fit(1 - y[rows], P[rows][:, ::-1], n_levels=dense, cutoff_grid=cutoff_grid)
    assert original.D == pytest.approx(roc_auc_score(y == 0, P[:, 0]), abs=1e-12)
    assert relabelled.D == pytest.approx(roc_auc_score(y[rows] == 1, P[rows, 1]), abs=1e-12)
