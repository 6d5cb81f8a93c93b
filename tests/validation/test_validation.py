"""Every documented input error is raised, with its message, and good input passes."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import DataConversionWarning

from polyroc import metrics
from polyroc._validation import (
    SIMPLEX_ATOL,
    check_counts,
    check_distance_matrix,
    check_label_vector,
    check_positive_int,
    check_prediction_sets,
    check_random_state,
    check_sample_weight,
    check_score_matrix,
    check_scores,
    check_targets,
    check_zero_division,
    scale_weights,
)

P3 = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.2, 0.2, 0.6]])


@pytest.mark.parametrize(
    "y_true, y_pred, kwargs, error, match",
    [
        ([0, 1], [0, 1, 1], {}, ValueError, "inconsistent numbers of samples: y_true has 2, y_pred has 3"),
        ([[0, 1]], [[0, 1]], {}, ValueError, r"y_true must be 1-D .* shape \(1, 2\)"),
        ([], [], {}, ValueError, "y_true is empty"),
        ([0.0, np.nan], [0, 1], {}, ValueError, r"y_true contains NaN or infinity \(first at index 1\)"),
        (np.array(["a", 1], dtype=object), ["a", "a"], {}, TypeError, "y_true mixes strings and numbers"),
        ([0, 1], ["a", "b"], {}, TypeError, "mix string and numeric labels"),
        ([0, 0], [0, 0], {}, ValueError, r"only one class \(\[0\]\)"),
        ([0, 1, 2], [0, 1, 1], {"labels": [0, 1]}, ValueError, r"y_true contains labels not in labels: \[2\]"),
        ([0, 1], [0, 1], {"labels": [0, 1, 1]}, ValueError, r"labels must be distinct; repeated: \[1\]"),
        ([0, 1], [0, 1], {"labels": ["a", "b"]}, TypeError, "y_true holds numbers but labels holds strings"),
        ([0, 1], [0, 1], {"sample_weight": [1.0]}, ValueError, r"sample_weight must have shape \(2,\)"),
        ([0, 1], [0, 1], {"sample_weight": [1.0, -1.0]}, ValueError, r"non-negative \(index 1 is -1.0\)"),
        ([0, 1], [0, 1], {"sample_weight": [0.0, 0.0]}, ValueError, "sample_weight sums to zero"),
        ([0, 1], [0, 1], {"sample_weight": [1.0, np.inf]}, ValueError, "sample_weight contains NaN"),
    ],
)
def test_check_targets_errors(y_true, y_pred, kwargs, error, match):
    with pytest.raises(error, match=match):
        check_targets(y_true, y_pred, **kwargs)


def test_check_targets_encodes_in_label_order():
    targets = check_targets(["b", "c", "a"], ["a", "c", "c"], labels=["c", "a", "b"])
    assert targets.classes.tolist() == ["c", "a", "b"]
    assert targets.y_true.tolist() == [2, 0, 1]
    assert targets.y_pred.tolist() == [1, 0, 0]


def test_check_targets_default_classes_are_sorted_union():
    targets = check_targets([3, 1], [1, 7])
    assert targets.classes.tolist() == [1, 3, 7]
    assert targets.y_true.tolist() == [1, 0] and targets.y_pred.tolist() == [0, 2]


@pytest.mark.parametrize(
    "y_score, kwargs, error, match",
    [
        (np.array([0.5, 0.5]), {}, ValueError, r"y_score must be 2-D \(n_samples, n_classes\)"),
        (np.array([["a", "b"]]), {}, TypeError, "y_score must be numeric"),
        (np.ones((2, 1)), {}, ValueError, "at least 2 columns, got 1"),
        (np.array([[0.5, 0.5], [np.nan, 1.0]]), {}, ValueError, r"NaN or infinity \(first in row 1\)"),
        (np.array([[0.5, 0.5], [1.2, -0.2]]), {}, ValueError, r"negative values \(first in row 1"),
        (np.array([[0.5, 0.5], [0.6, 0.6]]), {}, ValueError, r"must sum to 1 \(row 1 sums to 1.2"),
        (np.array([[0.0, 0.0], [0.6, 0.6]]), {"normalize_rows": True}, ValueError, "row 0 sums to 0"),
        (P3, {"normalize_rows": True, "from_logits": True}, ValueError, "exclusive"),
    ],
)
def test_check_score_matrix_errors(y_score, kwargs, error, match):
    with pytest.raises(error, match=match):
        check_score_matrix(y_score, **kwargs)


def test_check_score_matrix_transforms():
    logits = np.log(P3) + 3.0
    np.testing.assert_allclose(check_score_matrix(logits, from_logits=True), P3, rtol=1e-12)
    np.testing.assert_allclose(check_score_matrix(P3 * 4, normalize_rows=True), P3, rtol=1e-12)
    assert check_score_matrix(P3 - 5, require_simplex=False).min() < 0
    off_by_tolerance = P3 + np.array([[4e-6, 0, 0], [0, 0, 0], [0, 0, 0]])
    check_score_matrix(off_by_tolerance)


@pytest.mark.parametrize(
    "y_true, kwargs, match",
    [
        ([0, 1], {}, "inconsistent numbers of samples: y_true has 2, y_score has 3"),
        ([0, 1, 1], {}, r"y_score has 3 columns but y_true has 2 classes \[0, 1\]; pass labels="),
        ([0, 1, 5], {"labels": [0, 1, 2]}, r"y_true contains labels not in labels: \[5\]"),
        ([0, 1, 1], {"labels": [0, 1]}, "y_score has 3 columns but labels names 2 classes"),
    ],
)
def test_check_scores_errors(y_true, kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_scores(y_true, P3, **kwargs)


def test_a_1d_score_array_is_told_how_to_pass_one_score_per_sample():
    y, s = np.array([0, 1, 1, 0]), np.array([0.2, 0.8, 0.6, 0.4])
    with pytest.raises(ValueError, match=r"got shape \(4,\); for one score per sample .*") as raised:
        check_scores(y, s)
    message = str(raised.value)
    assert "np.column_stack([1 - s, s])" in message
    assert "polyroc.metrics.roc_auc_score or polyroc.metrics.roc_curve, which take s itself" in message
    # both suggestions work as described
    np.testing.assert_array_equal(check_scores(y, np.column_stack([1 - s, s])).y_score[:, 1], s)
    assert metrics.roc_auc_score(y, s) == 1.0
    assert metrics.roc_curve(y, s)[1].tolist() == [0.0, 0.5, 1.0, 1.0]


@pytest.mark.parametrize("y_score", [np.ones((2, 2, 2)), np.float64(0.5)])
def test_other_shapes_get_no_one_score_hint(y_score):
    with pytest.raises(ValueError, match=r"^y_score must be 2-D \(n_samples, n_classes\), got shape \([\d, ]*\)$"):
        check_score_matrix(y_score)


@pytest.mark.parametrize(
    "y_true, y_score, error, match",
    [
        ([0, 1], P3, ValueError, "^inconsistent numbers of samples: y_true has 2, val_scores has 3$"),
        ([0, 1, 1], P3, ValueError, r"^val_scores has 3 columns but y_true has 2 classes"),
        ([0, 1, 2], P3 * 2, ValueError, r"^rows of val_scores must sum to 1 \(row 0 sums to 2"),
        ([0, 1, 2], -P3, ValueError, r"^val_scores has negative values"),
        ([0, 1, 2], [[0.5, np.nan, 0.5]] * 3, ValueError, r"^val_scores contains NaN or infinity"),
        ([0, 1, 2], [["a"] * 3] * 3, TypeError, "^val_scores must be numeric"),
        ([0, 1, 2], [0.1, 0.2, 0.3], ValueError, r"^val_scores must be 2-D"),
        ([0, 1, 2], [[0.5, 0.5, None]] * 3, ValueError, r"^val_scores contains missing values"),
    ],
)
def test_check_scores_names_the_argument_given(y_true, y_score, error, match):
    with pytest.raises(error, match=match):
        check_scores(y_true, y_score, name="val_scores")


def test_check_prediction_sets_and_distances_name_their_argument():
    with pytest.raises(ValueError, match=r"^sets has 2 columns but y_true has 3 classes"):
        check_prediction_sets([0, 1, 2], [[1, 0]] * 3)
    with pytest.raises(ValueError, match=r"^S must hold booleans \(0/1\), found \[0.5, 1.0\] in row 1"):
        check_prediction_sets([0, 1, 1], [[1, 0], [0.5, 1], [0, 1]], name="S")
    with pytest.raises(ValueError, match=r"^D must have shape \(3, n_candidates\)"):
        check_distance_matrix(np.ones((2, 3)), 3)
    with pytest.raises(ValueError, match=r"^distances must have shape \(3, 3\), .* got shape \(3, 4\)"):
        check_distance_matrix(np.ones((3, 4)), 3, n_candidates=3, name="distances")
    with pytest.raises(ValueError, match=r"^distances must have shape \(3, n_candidates\), .* got shape \(3, 0\)"):
        check_distance_matrix(np.ones((3, 0)), 3, name="distances")
    assert check_distance_matrix(np.ones((3, 5)), 3).shape == (3, 5)


def test_check_scores_with_absent_class_and_labels():
    scored = check_scores(["x", "x", "z"], P3, labels=["x", "y", "z"])
    assert scored.y_true.tolist() == [0, 0, 2]


@pytest.mark.parametrize(
    "counts, match",
    [
        (np.ones(3), r"shape \(\.\.\., m, m\)"),
        (np.ones((2, 3)), r"shape \(\.\.\., m, m\)"),
        (np.ones((1, 1)), "at least 2 classes"),
        (-np.ones((2, 2)), "non-negative"),
        (np.full((2, 2), np.nan), "NaN"),
    ],
)
def test_check_counts_errors(counts, match):
    with pytest.raises(ValueError, match=match):
        check_counts(counts)


@pytest.mark.parametrize("value", ["warn", 0, 1, 0.0, 1.0, np.nan, "nan"])
def test_check_zero_division_accepts(value):
    result = check_zero_division(value)
    assert result in ("warn", "nan", 0.0, 1.0)


@pytest.mark.parametrize("value", [0.5, "zero", None, -1])
def test_check_zero_division_rejects(value):
    with pytest.raises(ValueError, match="zero_division must be"):
        check_zero_division(value)


def test_check_sample_weight_none_and_int():
    assert check_sample_weight(None, 3) is None
    assert check_sample_weight([1, 2, 3], 3).dtype == np.float64


def test_check_positive_int():
    assert check_positive_int("k", 3) == 3
    with pytest.raises(TypeError, match="k must be an integer, got float"):
        check_positive_int("k", 2.5)
    with pytest.raises(ValueError, match="k must be >= 1, got 0"):
        check_positive_int("k", 0)


def test_scale_weights_divides_by_a_power_of_two_exactly():
    weights = np.array([0.0, 3.0, 0.1, 1e300, 7.5])
    scaled = scale_weights(weights)
    assert 0.5 <= scaled.weights.max() < 1.0
    np.testing.assert_array_equal(scaled.weights * 2.0**997, weights)  # 2**997 <= 1e300 < 2**998
    assert scaled.restore(scaled.weights.sum()) == weights.sum()
    assert scale_weights(None) == (None, 0)
    integers = np.array([1.0, 2.0, 5.0])
    np.testing.assert_array_equal(scale_weights(integers).weights, integers / 8)


def test_scale_weights_keeps_weights_it_cannot_divide_exactly():
    weights = np.array([1.0, 5e-324])  # the smallest subnormal would become 0
    scaled = scale_weights(weights)
    assert scaled.exponent == 0
    np.testing.assert_array_equal(scaled.weights, weights)


@pytest.mark.parametrize(
    "y, expected",
    [
        ([1, 2, 2], np.array([1, 2, 2])),
        (np.array([1, 2], dtype=object), np.array([1, 2])),
        (np.array(["a", "b"], dtype=object), np.array(["a", "b"])),
        ((True, False), np.array([True, False])),
        ([np.str_("a"), "b"], np.array(["a", "b"])),
    ],
)
def test_check_label_vector_gives_plain_arrays(y, expected):
    labels = check_label_vector("y", y)
    np.testing.assert_array_equal(labels, expected)
    assert labels.dtype.kind == expected.dtype.kind


@pytest.mark.parametrize(
    "y, error, match",
    [
        (
            [1, "1"],
            TypeError,
            r"y mixes strings and numbers: Mix of label input types \(string and number\), "
            r"1 at index 0 and '1' at index 1",
        ),
        ([[1], ["1"]], TypeError, "y mixes strings and numbers"),
        ([b"a", b"b"], TypeError, "y holds bytes"),
        (np.array([b"a", b"b"]), TypeError, "y holds bytes"),
        (["a", None], ValueError, r"y contains missing values \(None, NaN or pd.NA; first at index 1\)"),
        ([1.0, np.float32("nan")], ValueError, r"y contains NaN or infinity \(first at index 1\)"),
        (np.array([1, {}], dtype=object), TypeError, "y must hold numbers or strings, found dict"),
        ([[0], [1, 2]], ValueError, "y could not be converted to an array"),
    ],
)
def test_check_label_vector_errors(y, error, match):
    with warnings.catch_warnings(), pytest.raises(error, match=match):
        warnings.simplefilter("ignore", DataConversionWarning)  # the column [[1], ["1"]]
        check_label_vector("y", y)


def test_a_column_vector_is_raveled_with_a_warning_pointing_at_the_caller():
    with pytest.warns(DataConversionWarning, match=r"y_true is a column vector of shape \(3, 1\)") as record:
        targets = check_targets(np.array([[0], [1], [1]]), [0, 1, 0])
    assert targets.y_true.tolist() == [0, 1, 1]
    assert record[0].filename == __file__


def test_check_random_state():
    assert isinstance(check_random_state(np.int64(3)), np.random.Generator)
    for seed in (-1, np.int64(-7)):
        with pytest.raises(ValueError, match=r"random_state must be a non-negative integer seed, got -\d"):
            check_random_state(seed)


def test_float16_rows_are_accepted_within_their_rounding():
    rows = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8]], dtype=np.float16)
    assert abs(rows.astype(np.float64).sum(axis=1) - 1).max() > SIMPLEX_ATOL
    np.testing.assert_array_equal(check_score_matrix(rows), rows.astype(np.float64))
    with pytest.raises(ValueError, match="rows of y_score must sum to 1"):
        check_score_matrix(rows.astype(np.float64))
