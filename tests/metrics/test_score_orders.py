"""Shared score orders: every order handed out is numpy's stable argsort of the values asked about.

The oracle is ``np.argsort(values, kind="stable")`` (and of ``-values``),
on columns with many ties, signed zeros, infinities and NaN, shared or not;
the count of sorts shows that a registered column is sorted once.
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from polyroc._engine.ranking import binary_counts
from polyroc._engine.score_orders import (
    ScoreOrders,
    ascending_order,
    descending_order,
    flipped_order,
    shared_orders,
)


def _oracle(values, descending):
    return np.argsort(-values if descending else values, kind="stable")


@given(
    arrays(
        np.float64,
        st.integers(1, 60),
        elements=st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, -3.0, np.inf, -np.inf, 1e-300]),
    )
)
def test_flipped_order_is_the_stable_order_in_the_other_direction(values):
    for descending in (False, True):
        flipped = flipped_order(_oracle(values, descending), values)
        np.testing.assert_array_equal(flipped, _oracle(values, not descending))


@pytest.mark.parametrize("first_descending", [False, True])
def test_shared_orders_equal_argsort_and_sort_each_column_once(first_descending):
    rng = np.random.default_rng(3)
    scores = rng.integers(0, 5, size=(500, 3)) / 4.0  # many ties
    scores[7, 1] = -0.0
    orders = ScoreOrders(scores)
    with shared_orders(orders):
        for descending in (first_descending, not first_descending, first_descending):
            asked = descending_order if descending else ascending_order
            for k in range(3):
                column = np.ascontiguousarray(scores[:, k])
                order = asked(column)
                assert order.dtype == np.intp
                np.testing.assert_array_equal(order, _oracle(column, descending))
            cells = scores.ravel()
            np.testing.assert_array_equal(asked(cells), _oracle(cells, descending))
    assert orders.n_sorted == 4  # three columns and the cells, each once


@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 40), st.integers(2, 5)),
        elements=st.sampled_from([0.0, -0.0, 0.25, 0.5, 1.0, -3.0, np.inf, -np.inf, 1e-300]),
    ),
    st.booleans(),
)
def test_cells_merged_from_the_columns_equal_argsort_of_all_cells(scores, descending):
    """The cells' order, merged from the column orders, is the stable sort of all cells, ties in cell order."""
    orders = ScoreOrders(scores)
    with shared_orders(orders):
        if descending:  # one column held in the other direction first
            ascending_order(np.ascontiguousarray(scores[:, 0]))
        cells = scores.ravel()
        asked = descending_order if descending else ascending_order
        np.testing.assert_array_equal(asked(cells), _oracle(cells, descending))
        np.testing.assert_array_equal(asked(cells), _oracle(cells, descending))  # held
        np.testing.assert_array_equal(asked(cells.copy()), _oracle(cells, descending))
        other = ascending_order if descending else descending_order
        np.testing.assert_array_equal(other(cells), _oracle(cells, not descending))  # flipped
    assert orders.n_sorted == scores.shape[1] + 1


def test_cells_of_continuous_scores_merged_equal_argsort():
    scores = np.random.default_rng(5).dirichlet(np.ones(4), 3000)
    scores[10, 2] = scores[20, 1]  # a tie across columns
    orders = ScoreOrders(scores)
    with shared_orders(orders):
        cells = scores.ravel()
        np.testing.assert_array_equal(descending_order(cells), _oracle(cells, True))
        np.testing.assert_array_equal(ascending_order(cells), _oracle(cells, False))


def test_other_values_are_sorted_not_shared():
    scores = np.array([[0.1, 0.9], [0.6, 0.4], [0.3, 0.7]])
    orders = ScoreOrders(scores)
    other = np.array([0.1, 0.6, 0.2])  # same first and last value as column 0, not equal
    with_nan = np.array([0.1, np.nan, 0.3])
    as_float32 = scores[:, 0].astype(np.float32)
    with shared_orders(orders, None):
        for values in (other, with_nan, as_float32, scores[:2, 0]):
            np.testing.assert_array_equal(descending_order(values), _oracle(values, True))
            np.testing.assert_array_equal(ascending_order(values), _oracle(values, False))
    assert orders.n_sorted == 0
    np.testing.assert_array_equal(descending_order(scores[:, 0]), [1, 2, 0])  # none registered after the block


def test_binary_counts_with_shared_orders_equal_scikit_learn():
    from sklearn.metrics import roc_curve

    rng = np.random.default_rng(5)
    scores = np.round(rng.dirichlet(np.ones(4), size=3000), 3) + 1e-9 * rng.integers(0, 3, size=(3000, 4))
    y = rng.integers(0, 4, size=3000)
    orders = ScoreOrders(scores)
    with shared_orders(orders):
        shared = [binary_counts(y == k, scores[:, k]) for k in range(4)]
    assert orders.n_sorted == 4
    for k, (fps, tps, cutoffs) in enumerate(shared):
        fpr, tpr, thresholds = roc_curve(y == k, scores[:, k], drop_intermediate=False)
        np.testing.assert_array_equal(fps / fps[-1], fpr[1:])
        np.testing.assert_array_equal(tps / tps[-1], tpr[1:])
        np.testing.assert_array_equal(cutoffs, thresholds[1:])


@pytest.mark.parametrize("tied", [False, True])
def test_pairwise_aucs_with_shared_orders_equal_scikit_learn(tied):
    from sklearn.metrics import roc_auc_score as sklearn_auc

    from polyroc.metrics import roc_auc_score

    rng = np.random.default_rng(8)
    y = np.repeat([0, 1, 2], 200)
    scores = rng.dirichlet(np.ones(3), size=600) + 0.3 * np.eye(3)[y]
    scores /= scores.sum(axis=1, keepdims=True)
    if tied:  # every row's scores again in the next row: ties in every column
        scores[1::2] = scores[::2]
    orders = ScoreOrders(scores)
    with shared_orders(orders):
        found = [roc_auc_score(y, scores, multi_class=mode) for mode in ("ovr", "ovo")]
    assert orders.n_sorted == (0 if tied else 3)  # an unstable sort of distinct scores is the stable order
    for value, mode in zip(found, ("ovr", "ovo")):
        assert value == pytest.approx(sklearn_auc(y, scores, multi_class=mode), rel=1e-12)


def test_binary_counts_held_for_registered_columns_equal_fresh_counts():
    """Counts asked again (equal positives and weights) are the held ones, as copies; others are counted."""
    rng = np.random.default_rng(8)
    scores = rng.dirichlet(np.ones(3), 400)
    y = rng.integers(0, 3, 400)
    weights = rng.random(400)
    orders = ScoreOrders(scores)
    cases = [(y == k, scores[:, k], w) for k in range(3) for w in (None, weights)]
    cases += [((y == 0).astype(int), scores[:, 0], weights), (y == 1, scores[:, 0], weights * 2)]
    fresh = [binary_counts(positive, np.ascontiguousarray(score), w) for positive, score, w in cases]
    with shared_orders(orders):
        for _ in range(2):
            for (positive, score, w), expected in zip(cases, fresh):
                counts = binary_counts(positive, np.ascontiguousarray(score), w)
                for got, want in zip(counts, expected):
                    np.testing.assert_array_equal(got, want)
                counts[0][:] = -1  # a copy: the held counts do not change
    assert sum(len(entries) for entries in orders._counts.values()) == len(cases)
