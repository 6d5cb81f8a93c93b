"""Decision rules: argmax(p - tau), OvR regions, apply_thresholds and the Fréchet rule."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.spatial.distance import cdist

from polyroc.thresholds import (
    apply_thresholds,
    embedding_distance,
    frechet_predict,
    ordinal_distance,
    ovr_assign,
    predict,
)


@st.composite
def dyadic_scores(draw, max_classes=6):
    """Probability rows on a dyadic grid (multiples of 1/64 summing to 1), ties included.

    Every entry is exact in float64, and so is every difference with a
    threshold on the 1/16 grid, so float rounding cannot break or make a tie.
    """
    m = draw(st.integers(2, max_classes))
    n = draw(st.integers(1, 30))
    cuts = np.sort(draw(arrays(np.int64, (n, m - 1), elements=st.integers(0, 64))), axis=1)
    edges = np.concatenate([np.zeros((n, 1), np.int64), cuts, np.full((n, 1), 64)], axis=1)
    return np.diff(edges, axis=1) / 64


@st.composite
def scores_and_tau(draw):
    P = draw(dyadic_scores())
    tau = draw(arrays(np.int64, P.shape[1], elements=st.integers(0, 16))) / 16
    return P, tau


def reference_predict(P, tau):
    """Plain loop: the first j with p_j - tau_j maximal."""
    return np.array([max(range(len(p)), key=lambda j: (p[j] - tau[j], -j)) for p in P])


@settings(max_examples=200, deadline=None)
@given(scores_and_tau(), st.integers(-8, 8))
def test_shifting_tau_by_a_constant_keeps_the_predictions(data, shift):
    P, tau = data
    assert np.array_equal(predict(P, tau), predict(P, tau + shift / 4))


@settings(max_examples=200, deadline=None)
@given(dyadic_scores())
def test_barycentre_gives_argmax(P):
    m = P.shape[1]
    assert np.array_equal(predict(P, np.full(m, 1 / m)), np.argmax(P, axis=1))


@settings(max_examples=200, deadline=None)
@given(scores_and_tau())
def test_predict_matches_a_plain_loop_and_rejects_boundary_points(data):
    P, tau = data
    assert np.array_equal(predict(P, tau), reference_predict(P, tau))
    shifted = P - tau
    tied = (shifted == shifted.max(axis=1, keepdims=True)).sum(axis=1) > 1
    rejected = predict(P, tau, tie_break="reject")
    assert np.array_equal(rejected == -1, tied)
    assert np.array_equal(rejected[~tied], reference_predict(P, tau)[~tied])


def test_predict_accepts_logits():
    logits = [[2.0, -1.0, 0.5], [-3.0, 4.0, 1.0]]
    assert predict(logits, [0.0, 0.0, 0.0]).tolist() == [0, 1]
    assert predict(logits, [3.0, 0.0, 0.0]).tolist() == [2, 1]


def test_vertex_tau_never_predicts_its_class_except_saturated_ties():
    P = np.array([[0.5, 0.5, 0.0], [1.0, 0.0, 0.0], [0.4, 0.3, 0.3]])
    assert predict(P, [1.0, 0.0, 0.0]).tolist() == [1, 0, 1]


@settings(max_examples=100, deadline=None)
@given(scores_and_tau())
def test_ovr_assign_is_the_elementwise_comparison(data):
    P, tau = data
    expected = [[P[i, j] > tau[j] for j in range(P.shape[1])] for i in range(P.shape[0])]
    assert ovr_assign(P, tau).tolist() == expected


def test_ovr_on_the_simplex_is_empty_only_at_p_equal_tau():
    tau = np.array([0.5, 0.3, 0.2])
    P = np.array([[0.5, 0.3, 0.2], [0.4, 0.4, 0.2], [0.2, 0.4, 0.4]])
    assert ovr_assign(P, tau).sum(axis=1).tolist() == [0, 1, 2]


def test_apply_thresholds_returns_labels_in_the_class_order():
    P = [[0.5, 0.3, 0.2], [0.2, 0.4, 0.4], [0.1, 0.3, 0.6]]
    assert apply_thresholds(P, [0.5, 0.15, 0.35], labels=["a", "b", "c"]).tolist() == ["b", "b", "c"]
    assert apply_thresholds(P, [0.0, 0.3, 0.6], domain="box").tolist() == [0, 0, 0]


@pytest.mark.parametrize(
    "tau, match",
    [
        ([0.5, 0.5], r"shape \(3,\)"),
        ([0.2, 0.3, 0.4, 0.1], r"shape \(3,\)"),
        ([0.5, np.nan, 0.5], "NaN or infinity"),
        ([0.6, 0.6, 0.2], "probability simplex"),
        ([-0.2, 0.6, 0.6], "probability simplex"),
    ],
)
def test_apply_thresholds_rejects_bad_tau(tau, match):
    with pytest.raises(ValueError, match=match):
        apply_thresholds([[0.5, 0.3, 0.2]], tau)


def test_bad_tau_and_options_are_rejected():
    with pytest.raises(ValueError, match="box"):
        apply_thresholds([[0.5, 0.3, 0.2]], [0.1, 0.3, 0.5], domain="box")
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        predict([[0.5, 0.3, 0.2]], [[0.1, 0.3, 0.6]])
    with pytest.raises(ValueError, match="tie_break must be one of"):
        predict([[0.5, 0.3, 0.2]], [0.1, 0.3, 0.6], tie_break="random")
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        ovr_assign([[0.5, 0.5]], [0.5])


def test_frechet_complete_graph_is_argmax_on_separated_scores():
    rng = np.random.default_rng(0)
    P = rng.dirichlet(np.ones(5), 500)
    top2 = np.sort(P, axis=1)[:, -2:]
    P = P[top2[:, 1] - top2[:, 0] > 1e-6]
    assert np.array_equal(frechet_predict(P), np.argmax(P, axis=1))


def test_frechet_with_a_distance_matrix_matches_a_loop():
    rng = np.random.default_rng(1)
    P = rng.dirichlet(np.ones(4), 200)
    D = rng.random((4, 6)) * 3
    expected = [min(range(6), key=lambda y: (sum(p[i] * D[i, y] ** 2 for i in range(4)), y)) for p in P]
    assert frechet_predict(P, D).tolist() == expected
    ordinal = [min(range(4), key=lambda y: sum(p[i] * (i - y) ** 2 for i in range(4))) for p in P]
    assert frechet_predict(P, ordinal_distance(4)).tolist() == ordinal


def test_distance_helpers():
    assert ordinal_distance(4).tolist() == [[abs(i - j) for j in range(4)] for i in range(4)]
    E = np.random.default_rng(2).normal(size=(5, 3))
    assert np.allclose(embedding_distance(E), cdist(E, E))


@pytest.mark.parametrize("D", [np.ones((2, 3)), np.ones(3), np.ones((3, 0)), -np.ones((3, 3))])
def test_frechet_rejects_a_distance_matrix_of_the_wrong_shape_or_sign(D):
    with pytest.raises(ValueError, match=r"^distances must"):
        frechet_predict([[0.5, 0.3, 0.2]], D)


def test_frechet_errors_name_the_distances_argument():
    with pytest.raises(ValueError, match=r"^distances must have shape \(3, n_candidates\), .* got shape \(2, 3\)"):
        frechet_predict([[0.5, 0.3, 0.2]], np.ones((2, 3)))
    with pytest.raises(ValueError, match=r"^distances contains NaN or infinity"):
        frechet_predict([[0.5, 0.3, 0.2]], np.full((3, 3), np.nan))
    with pytest.raises(TypeError, match=r"^distances must be numeric"):
        frechet_predict([[0.5, 0.3, 0.2]], [["a", "b", "c"]] * 3)


def test_embedding_distance_rejects_bad_input():
    with pytest.raises(ValueError, match="2-D"):
        embedding_distance([1.0, 2.0])
    with pytest.raises(ValueError, match="NaN"):
        embedding_distance([[1.0, np.nan], [0.0, 0.0]])


@pytest.mark.parametrize("embeddings", [[["a", "b"], ["c", "d"]], [[1.0, None], [0.0, 0.0]], [[1.0, "x"], [0, 0]]])
def test_embedding_distance_refuses_non_numeric_input_with_a_type_error(embeddings):
    with pytest.raises(TypeError, match=r"^embeddings must be numeric"):
        embedding_distance(embeddings)


def test_frechet_candidate_columns_may_exceed_the_classes():
    P = np.array([[0.5, 0.5]])
    D = np.array([[0.0, 1.0, 0.5], [1.0, 0.0, 0.5]])
    assert frechet_predict(P, D).tolist() == [2]
    assert frechet_predict([[0.9, 0.1]], D).tolist() == [0]
