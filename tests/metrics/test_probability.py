"""Tests of polyroc.probability: softmax and one-hot encoding.

Oracles: the textbook's worked numbers (checklist O1, O2, O5, O12, O19, O20), a
direct exp/sum formula evaluated in exact-ish arithmetic, and properties.
"""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy.special import expit

from polyroc.probability import one_hot, softmax


def direct_softmax(z):
    """exp(z) / sum(exp(z)) with Python floats (no max subtraction; small inputs only)."""
    exps = [math.exp(v) for v in z]
    return [e / math.fsum(exps) for e in exps]


# --------------------------------------------------------------------------- worked numbers


def test_o1_softmax():
    np.testing.assert_allclose(softmax([2.0, 1.0, 0.1]), [0.659001, 0.242433, 0.098566], atol=5e-7)
    np.testing.assert_allclose(softmax([2.0, 1.0, 0.1]), direct_softmax([2.0, 1.0, 0.1]), rtol=1e-14)


def test_o2_stable_form_gives_the_same_probabilities():
    z = np.array([2.0, 1.0, 0.1])
    shifted = z - z.max()
    np.testing.assert_allclose(np.exp(shifted), [1, 0.367879, 0.149569], atol=5e-7)
    np.testing.assert_allclose(np.exp(shifted).sum(), 1.517448, atol=5e-7)
    np.testing.assert_allclose(softmax(shifted), softmax(z), rtol=1e-15)


def test_o5_batch_softmax():
    rows = softmax([[0.5, 2.5, 1.0], [1.0, 1.0, 1.0], [10.0, 0.0, 0.0]])
    expected = [[0.099624, 0.736125, 0.164252], [1 / 3] * 3, [0.999909, 4.5396e-5, 4.5396e-5]]
    np.testing.assert_allclose(rows, expected, atol=5e-7)


def test_o12_softmax_four_classes():
    np.testing.assert_allclose(softmax([3.0, 1.0, 0.2, -1.0]), [0.823411, 0.111437, 0.050072, 0.015081], atol=5e-7)


def test_o19_uniform_and_extreme():
    np.testing.assert_allclose(softmax([5.0, 5.0, 5.0]), [1 / 3] * 3, rtol=1e-15)
    extreme = softmax([5.0, 5.0, 100.0])
    np.testing.assert_allclose(extreme[:2], [5.52e-42, 5.52e-42], rtol=1e-3)
    assert extreme[2] == 1.0


@pytest.mark.parametrize(
    "temperature, expected",
    [
        (0.5, [0.863777, 0.116900, 0.019323]),
        (2.0, [0.501688, 0.304289, 0.194023]),
        (10.0, [0.366059, 0.331224, 0.302716]),
    ],
)
def test_o20_temperature(temperature, expected):
    np.testing.assert_allclose(softmax([2.0, 1.0, 0.1], temperature=temperature), expected, atol=5e-7)


# --------------------------------------------------------------------------- properties

logit_rows = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 6), st.integers(2, 6)),
    elements=st.floats(-50, 50, allow_nan=False),
)


@given(logit_rows, st.floats(-1e3, 1e3))
def test_rows_sum_to_one_order_kept_and_shift_invariant(z, shift):
    p = softmax(z)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0, rtol=1e-12)
    assert np.all(p >= 0)
    # order preserved: a larger logit never gets a smaller probability
    for row_z, row_p in zip(z, p):
        order = np.argsort(row_z, kind="stable")
        assert np.all(np.diff(row_p[order]) >= 0)
    np.testing.assert_allclose(softmax(z + shift), p, atol=1e-12)


@given(st.floats(-30, 30), st.floats(-30, 30))
def test_two_classes_is_the_sigmoid_of_the_difference(z0, z1):
    np.testing.assert_allclose(softmax([z0, z1])[1], expit(z1 - z0), rtol=1e-12, atol=1e-300)


def test_matches_the_direct_formula_on_random_logits():
    rng = np.random.default_rng(0)
    z = rng.normal(size=(20, 5))
    np.testing.assert_allclose(softmax(z), [direct_softmax(row) for row in z], rtol=1e-13)


def test_axis():
    z = np.random.default_rng(1).normal(size=(4, 3))
    np.testing.assert_allclose(softmax(z, axis=0), softmax(z.T).T, rtol=1e-15)


def test_temperature_limits():
    z = [2.0, 1.0, 0.1]
    np.testing.assert_allclose(softmax(z, temperature=1e-3), [1, 0, 0], atol=1e-300)
    np.testing.assert_allclose(softmax(z, temperature=1e6), [1 / 3] * 3, atol=1e-6)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (
            {"z": [1.0, 2.0], "temperature": 0.0},
            ValueError,
            "^temperature must be a real number in \\(0, inf\\); got 0.0$",
        ),
        ({"z": [1.0, 2.0], "temperature": -1.0}, ValueError, "temperature must be"),
        ({"z": [1.0, 2.0], "temperature": float("nan")}, ValueError, "temperature must be"),
        ({"z": [1.0, 2.0], "temperature": float("inf")}, ValueError, "temperature must be"),
        (
            {"z": [1.0, 2.0], "temperature": "hot"},
            TypeError,
            "temperature must be a real number in \\(0, inf\\); got str 'hot'",
        ),
        ({"z": [1.0, float("nan")]}, ValueError, "z contains NaN or infinity"),
        ({"z": 3.0}, ValueError, "z must have at least one dimension"),
        ({"z": []}, ValueError, "z must have at least one dimension"),
        ({"z": ["a", "b"]}, TypeError, "z must be numeric"),
        ({"z": [1.0, 2.0], "axis": 1}, ValueError, "axis 1 is out of range"),
        ({"z": [1.0, 2.0], "axis": 0.5}, TypeError, r"^axis must be an int in \(-inf, inf\); got float 0.5$"),
    ],
)
def test_softmax_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        softmax(kwargs.pop("z"), **kwargs)


# --------------------------------------------------------------------------- one_hot


def test_one_hot_from_indices():
    np.testing.assert_array_equal(one_hot([2, 0, 1, 2], 4), np.eye(4)[[2, 0, 1, 2]])


def test_one_hot_with_labels_keeps_their_order():
    encoded = one_hot(["dog", "cat", "dog"], labels=["dog", "cat", "bird"])
    np.testing.assert_array_equal(encoded, [[1, 0, 0], [0, 1, 0], [1, 0, 0]])


def test_one_hot_infers_sorted_classes():
    np.testing.assert_array_equal(one_hot(["b", "a", "c"]), [[0, 1, 0], [1, 0, 0], [0, 0, 1]])


@given(st.lists(st.integers(0, 4), min_size=1, max_size=30))
def test_one_hot_rows_pick_the_label(y):
    encoded = one_hot(y, 5)
    assert encoded.shape == (len(y), 5)
    np.testing.assert_array_equal(encoded.sum(axis=1), 1)
    np.testing.assert_array_equal(encoded.argmax(axis=1), y)


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        (([0, 1], 2), {"labels": [0, 1]}, ValueError, "give n_classes or labels, not both"),
        (([0, 3], 3), {}, ValueError, "y must hold indices in 0..2; y\\[1\\] is 3"),
        (([0, -1], 3), {}, ValueError, "y\\[1\\] is -1"),
        (([0, 1], 0), {}, ValueError, r"^n_classes must be None or an int in \[1, inf\); got 0$"),
        (([0, 1], 2.0), {}, TypeError, r"^n_classes must be None or an int in \[1, inf\); got float 2.0$"),
        ((["a", "b"], 2), {}, TypeError, "y must hold integer class indices"),
        ((["a", "z"],), {"labels": ["a", "b"]}, ValueError, "y contains labels not in labels: \\['z'\\]"),
        (([],), {}, ValueError, "y is empty"),
        (([[0, 1]],), {}, ValueError, "y must be 1-D"),
    ],
)
def test_one_hot_errors(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        one_hot(*args, **kwargs)
