"""ROC / PR curves, ROC AUC (OvR, OvO) and average precision against independent oracles.

Oracles: scikit-learn's binary and multiclass functions, an O(n^2) pairwise
brute force for weighted one-vs-one AUC, sample repetition for integer weights,
and the worked numbers O16, O17 and O30 of the textbook checklist.
"""

import json
import re
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

from polyroc import metrics as pm
from polyroc._results import Result
from polyroc.curves import macro_roc_curve, ovr_precision_recall_curve, ovr_roc_curve
from polyroc.exceptions import UndefinedMetricWarning


def roc_auc_score(y_true, y_score, *, multi_class="ovr", **options):
    """polyroc's ``roc_auc_score`` on multiclass score matrices (one-vs-rest unless told)."""
    return pm.roc_auc_score(y_true, y_score, multi_class=multi_class, **options)


average_precision_score = pm.average_precision_score

SEEDS = range(8)
FUNCTIONS = [ovr_roc_curve, ovr_precision_recall_curve, roc_auc_score, average_precision_score]
TOL = 1e-12


def make_problem(seed, n_classes, *, ties=False, weighted=False):
    """Labels with every class present, probability rows, and optional weights (some zero).

    The first sample of each class keeps a positive weight, so no class vanishes.
    """
    rng = np.random.default_rng(seed)
    n_samples = int(rng.integers(4 * n_classes, 150))
    extra = rng.integers(0, n_classes, n_samples - n_classes)
    y = rng.permutation(np.concatenate([np.arange(n_classes), extra]))
    if ties:
        scores = rng.multinomial(10, np.full(n_classes, 1 / n_classes), size=n_samples) / 10
    else:
        scores = rng.dirichlet(np.ones(n_classes), size=n_samples)
    weights = None
    if weighted:
        weights = rng.random(n_samples) * 3
        weights[rng.random(n_samples) < 0.1] = 0.0
        weights[np.unique(y, return_index=True)[1]] = 1.0
    return y, scores, weights


def all_variants():
    for seed in SEEDS:
        for n_classes in (2, 3, 5, 8):
            for ties in (False, True):
                for weighted in (False, True):
                    yield seed, n_classes, ties, weighted


VARIANTS = list(all_variants())[::3]


def assert_close(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=0, atol=TOL)


# --- scikit-learn equality: curves ------------------------------------------------------------


@pytest.mark.parametrize("seed, n_classes, ties, weighted", VARIANTS)
@pytest.mark.parametrize("drop_intermediate", [True, False])
def test_roc_curve_matches_sklearn_per_class(seed, n_classes, ties, weighted, drop_intermediate):
    y, scores, weights = make_problem(seed, n_classes, ties=ties, weighted=weighted)
    curves = ovr_roc_curve(y, scores, sample_weight=weights, drop_intermediate=drop_intermediate)
    for k in range(n_classes):
        fpr, tpr, thresholds = skm.roc_curve(
            y == k, scores[:, k], sample_weight=weights, drop_intermediate=drop_intermediate
        )
        assert_close(curves.fpr[k], fpr)
        assert_close(curves.tpr[k], tpr)
        np.testing.assert_array_equal(curves.thresholds[k], thresholds)
        assert curves.auc[k] == pytest.approx(skm.auc(fpr, tpr), abs=TOL)


@pytest.mark.parametrize("seed, n_classes, ties, weighted", VARIANTS)
def test_micro_roc_curve_matches_sklearn_on_raveled_cells(seed, n_classes, ties, weighted):
    y, scores, weights = make_problem(seed, n_classes, ties=ties, weighted=weighted)
    curves = ovr_roc_curve(y, scores, sample_weight=weights)
    cells = (y[:, None] == np.arange(n_classes)).ravel()
    cell_weights = None if weights is None else np.repeat(weights, n_classes)
    fpr, tpr, thresholds = skm.roc_curve(cells, scores.ravel(), sample_weight=cell_weights)
    assert_close(curves.micro_fpr, fpr)
    assert_close(curves.micro_tpr, tpr)
    np.testing.assert_array_equal(curves.micro_thresholds, thresholds)
    assert curves.micro_auc == pytest.approx(skm.auc(fpr, tpr), abs=TOL)


def test_roc_curve_without_micro_keeps_the_class_curves():
    y, scores, weights = make_problem(3, 4, ties=True, weighted=True)
    full = ovr_roc_curve(y, scores, sample_weight=weights)
    lean = ovr_roc_curve(y, scores, sample_weight=weights, micro=False)
    for k in range(4):
        np.testing.assert_array_equal(lean.fpr[k], full.fpr[k])
        np.testing.assert_array_equal(lean.tpr[k], full.tpr[k])
    np.testing.assert_array_equal(lean.auc, full.auc)
    assert lean.micro_fpr is None and lean.micro_tpr is None and np.isnan(lean.micro_auc)
    with pytest.raises(ValueError, match="micro must be one of"):
        ovr_roc_curve(y, scores, micro="yes")


def test_macro_roc_curve_refuses_what_is_not_an_ovr_roc_curves():
    y, scores, _ = make_problem(3, 3, ties=False, weighted=False)
    expected = r"^curves must be a polyroc.curves.OvrRocCurves; got "
    with pytest.raises(TypeError, match=expected + "OvrPrecisionRecallCurves "):
        macro_roc_curve(ovr_precision_recall_curve(y, scores))
    with pytest.raises(TypeError, match=expected + "tuple "):
        macro_roc_curve(pm.roc_curve([0, 1, 1], [0.2, 0.6, 0.9]))


@pytest.mark.parametrize("seed, n_classes, ties, weighted", VARIANTS)
@pytest.mark.parametrize("drop_intermediate", [True, False])
def test_precision_recall_curve_matches_sklearn_per_class(seed, n_classes, ties, weighted, drop_intermediate):
    y, scores, weights = make_problem(seed, n_classes, ties=ties, weighted=weighted)
    curves = ovr_precision_recall_curve(y, scores, sample_weight=weights, drop_intermediate=drop_intermediate)
    for k in range(n_classes):
        precision, recall, thresholds = skm.precision_recall_curve(
            y == k, scores[:, k], sample_weight=weights, drop_intermediate=drop_intermediate
        )
        assert_close(curves.precision[k], precision)
        assert_close(curves.recall[k], recall)
        np.testing.assert_array_equal(curves.thresholds[k], thresholds)
        expected = skm.average_precision_score(y == k, scores[:, k], sample_weight=weights)
        assert curves.average_precision[k] == pytest.approx(expected, abs=TOL)


def test_curves_with_string_labels_follow_the_labels_order():
    y, scores, weights = make_problem(3, 3, ties=True, weighted=True)
    names = np.array(["owl", "cat", "dog"])
    y_named = names[y]
    curves = ovr_roc_curve(y_named, scores, labels=names, sample_weight=weights)
    pr = ovr_precision_recall_curve(y_named, scores, labels=names, sample_weight=weights)
    np.testing.assert_array_equal(curves.classes, names)
    for k, name in enumerate(names):
        fpr, tpr, _ = skm.roc_curve(y_named == name, scores[:, k], sample_weight=weights)
        assert_close(curves.fpr[k], fpr)
        assert_close(curves.tpr[k], tpr)
        precision, recall, _ = skm.precision_recall_curve(y_named == name, scores[:, k], sample_weight=weights)
        assert_close(pr.precision[k], precision)
        assert_close(pr.recall[k], recall)


def test_curves_accept_scores_that_are_not_probabilities():
    y, scores, _ = make_problem(5, 4)
    logits = np.log(scores) * 3 - 7
    curves = ovr_roc_curve(y, logits)
    for k in range(4):
        fpr, tpr, _ = skm.roc_curve(y == k, logits[:, k])
        assert_close(curves.fpr[k], fpr)
        assert_close(curves.tpr[k], tpr)
    expected = skm.roc_auc_score(label_binarize(y, classes=range(4)), logits, average=None)
    assert_close(curves.auc, expected)


# --- scikit-learn equality: AUC and average precision ------------------------------------------


@pytest.mark.parametrize("seed, n_classes, ties, weighted", VARIANTS)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_roc_auc_ovr_matches_sklearn(seed, n_classes, ties, weighted, average):
    y, scores, weights = make_problem(seed, n_classes, ties=ties, weighted=weighted)
    ours = roc_auc_score(y, scores, sample_weight=weights, average=average)
    if n_classes == 2:
        per_class = [skm.roc_auc_score(y == k, scores[:, k], sample_weight=weights) for k in (0, 1)]
        support = np.bincount(y, weights, minlength=2)
        cells = (y[:, None] == np.arange(2)).ravel()
        micro_weights = None if weights is None else np.repeat(weights, 2)
        expected = {
            "macro": np.mean(per_class),
            "weighted": np.average(per_class, weights=support),
            "micro": skm.roc_auc_score(cells, scores.ravel(), sample_weight=micro_weights),
            None: per_class,
        }[average]
    else:
        expected = skm.roc_auc_score(y, scores, sample_weight=weights, multi_class="ovr", average=average)
    assert_close(ours, expected)


@pytest.mark.parametrize("seed, n_classes, ties, weighted", VARIANTS)
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_roc_auc_ovo_matches_sklearn_without_weights(seed, n_classes, ties, weighted, average):
    y, scores, _ = make_problem(seed, n_classes, ties=ties)
    ours = roc_auc_score(y, scores, multi_class="ovo", average=average)
    if n_classes == 2:
        assert_close(ours, skm.roc_auc_score(y, scores[:, 1]))
    else:
        assert_close(ours, skm.roc_auc_score(y, scores, multi_class="ovo", average=average))


@pytest.mark.parametrize("seed, n_classes, ties, weighted", VARIANTS)
@pytest.mark.parametrize("average", ["macro", "weighted", "micro", None])
def test_average_precision_matches_sklearn(seed, n_classes, ties, weighted, average):
    y, scores, weights = make_problem(seed, n_classes, ties=ties, weighted=weighted)
    if n_classes == 2:  # binary targets take the scores of the positive class
        scores = scores[:, 1]
    ours = average_precision_score(y, scores, sample_weight=weights, average=average)
    expected = skm.average_precision_score(y, scores, sample_weight=weights, average=average)
    assert_close(ours, expected)
    pr = ovr_precision_recall_curve(
        y, np.column_stack([1 - scores, scores]) if n_classes == 2 else scores, sample_weight=weights
    )
    if n_classes > 2 and average is None:
        assert_close(pr.average_precision, expected)


# --- one-vs-one with sample weights: brute force and repetition --------------------------------


def brute_force_hand_till(y, scores, weights, average):
    """O(n^2) weighted Hand & Till M straight from its pairwise definition."""

    def a_given(k, j):
        above = scores[y == k, k][:, None] - scores[y == j, k][None, :]
        wins = (above > 0) + 0.5 * (above == 0)
        w_k, w_j = weights[y == k], weights[y == j]
        return w_k @ wins @ w_j / (w_k.sum() * w_j.sum())

    pairs = list(combinations(np.unique(y), 2))
    pair_auc = [(a_given(a, b) + a_given(b, a)) / 2 for a, b in pairs]
    share = [weights[(y == a) | (y == b)].sum() for a, b in pairs]
    return np.average(pair_auc, weights=share if average == "weighted" else None)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_classes", [2, 3, 6])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_weighted_ovo_matches_pairwise_brute_force(seed, n_classes, ties, average):
    y, scores, weights = make_problem(seed, n_classes, ties=ties, weighted=True)
    ours = roc_auc_score(y, scores, sample_weight=weights, multi_class="ovo", average=average)
    assert_close(ours, brute_force_hand_till(y, scores, weights, average))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "multi_class, average", [("ovo", "macro"), ("ovo", "weighted"), ("ovr", None), ("ovr", "micro")]
)
def test_integer_weights_equal_repeated_samples(seed, multi_class, average):
    y, scores, _ = make_problem(seed, 4, ties=True)
    counts = np.random.default_rng(seed).integers(1, 4, y.size)
    weighted = roc_auc_score(y, scores, sample_weight=counts, multi_class=multi_class, average=average)
    repeated_y, repeated_scores = np.repeat(y, counts), np.repeat(scores, counts, axis=0)
    repeated = roc_auc_score(repeated_y, repeated_scores, multi_class=multi_class, average=average)
    assert_close(weighted, repeated)


def test_unit_weights_equal_no_weights_for_ovo():
    y, scores, _ = make_problem(11, 5, ties=True)
    assert_close(
        roc_auc_score(y, scores, sample_weight=np.ones(y.size), multi_class="ovo"),
        skm.roc_auc_score(y, scores, multi_class="ovo"),
    )


def test_zero_weight_samples_are_the_same_as_removed_samples():
    y, scores, weights = make_problem(2, 4, ties=True, weighted=True)
    kept = weights > 0
    full = ovr_roc_curve(y, scores, sample_weight=weights)
    reduced = ovr_roc_curve(y[kept], scores[kept], sample_weight=weights[kept])
    for k in range(4):
        np.testing.assert_array_equal(full.thresholds[k], reduced.thresholds[k])
        assert_close(full.tpr[k], reduced.tpr[k])
    for multi_class in ("ovr", "ovo"):
        assert_close(
            roc_auc_score(y, scores, sample_weight=weights, multi_class=multi_class),
            roc_auc_score(y[kept], scores[kept], sample_weight=weights[kept], multi_class=multi_class),
        )


# --- worked numbers of the textbook checklist ---------------------------------------------------

O16_Y = np.array([1, 1, 0, 1, 0, 0, 1, 0, 1, 0])
O16_S = np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.3, 0.2, 0.85, 0.15])

O17_Y = np.array([1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1])
O17_S = np.array([0.9, 0.8, 0.7, 0.6, 0.55, 0.4, 0.35, 0.3, 0.2, 0.1, 0.85, 0.25, 0.65, 0.45, 0.75])

O30_Y = np.array([0, 0, 1, 1, 2, 2, 2])
O30_P = np.array(
    [
        [0.7, 0.2, 0.1],
        [0.4, 0.4, 0.2],
        [0.3, 0.5, 0.2],
        [0.5, 0.3, 0.2],
        [0.1, 0.2, 0.7],
        [0.2, 0.5, 0.3],
        [0.3, 0.3, 0.4],
    ]
)


def test_o16_binary_roc_corner_points_auc_and_average_precision():
    scores = np.column_stack([1 - O16_S, O16_S])
    curves = ovr_roc_curve(O16_Y, scores)
    np.testing.assert_allclose(curves.fpr[1], [0, 0, 0, 0.2, 0.2, 0.6, 0.6, 1], atol=TOL)
    np.testing.assert_allclose(curves.tpr[1], [0, 0.2, 0.6, 0.6, 0.8, 0.8, 1, 1], atol=TOL)
    assert curves.auc[1] == pytest.approx(0.84, abs=TOL)
    assert roc_auc_score(O16_Y, scores, average=None)[1] == pytest.approx(0.84, abs=TOL)
    assert average_precision_score(O16_Y, O16_S) == pytest.approx(0.885, abs=TOL)


def test_o17_separable_demo_has_auc_and_average_precision_one():
    scores = np.column_stack([1 - O17_S, O17_S])
    assert roc_auc_score(O17_Y, scores) == pytest.approx(1.0, abs=TOL)
    assert roc_auc_score(O17_Y, scores, multi_class="ovo") == pytest.approx(1.0, abs=TOL)
    assert average_precision_score(O17_Y, O17_S) == pytest.approx(1.0, abs=TOL)


@pytest.mark.parametrize(
    "kwargs, expected",
    [
        ({"average": None}, [0.9, 0.7, 1.0]),
        ({"average": "macro"}, 0.866667),
        ({"average": "weighted"}, 0.885714),
        ({"average": "micro"}, 0.846939),
        ({"multi_class": "ovo"}, 0.861111),
    ],
)
def test_o30_roc_auc(kwargs, expected):
    np.testing.assert_allclose(roc_auc_score(O30_Y, O30_P, **kwargs), expected, atol=5e-7)


@pytest.mark.parametrize(
    "average, expected",
    [(None, [0.833333, 0.45, 1.0]), ("macro", 0.761111), ("micro", 0.703846)],
)
def test_o30_average_precision(average, expected):
    ours = average_precision_score(O30_Y, O30_P, average=average)
    np.testing.assert_allclose(ours, expected, atol=5e-7)


# --- a class without samples, and one class only ------------------------------------------------


def absent_class_problem():
    y, scores, _ = make_problem(4, 3)
    return y, np.column_stack([scores * 0.9, np.full(y.size, 0.1)]), [0, 1, 2, 3]


def test_absent_class_gets_nan_auc_as_sklearn():
    y, scores, labels = absent_class_problem()
    with pytest.warns(UndefinedMetricWarning, match=r"labels \[3\] have no samples"):
        per_class = roc_auc_score(y, scores, labels=labels, average=None)
    assert np.isnan(per_class[3])
    expected = [skm.roc_auc_score(y == k, scores[:, k]) for k in range(3)]
    assert_close(per_class[:3], expected)
    with pytest.warns(UndefinedMetricWarning):
        assert np.isnan(roc_auc_score(y, scores, labels=labels))  # scikit-learn's macro mean is NaN
    with pytest.warns(UndefinedMetricWarning):  # weighted: the empty class counts 0 with weight 0
        assert_close(
            roc_auc_score(y, scores, labels=labels, average="weighted"), np.average(expected, weights=np.bincount(y))
        )
    ovo = roc_auc_score(y, scores, labels=labels, multi_class="ovo")  # pairs of classes present only
    assert_close(ovo, skm.roc_auc_score(y, scores, labels=labels, multi_class="ovo"))


def test_absent_class_gets_nan_curves_and_average_precision():
    y, scores, labels = absent_class_problem()
    with pytest.warns(UndefinedMetricWarning, match="ROC curve is undefined"):
        curves = ovr_roc_curve(y, scores, labels=labels)
    assert np.all(np.isnan(curves.tpr[3])) and np.isnan(curves.auc[3])
    with pytest.warns(UndefinedMetricWarning, match="precision-recall curve is undefined"):
        pr = ovr_precision_recall_curve(y, scores, labels=labels)
    assert np.isnan(pr.average_precision[3])
    expected = skm.average_precision_score(y, scores[:, :3], average=None)
    assert_close(pr.average_precision[:3], expected)


def _roc_curve_display(y, scores, *, labels):
    import matplotlib.pyplot as plt

    from polyroc.plotting import RocCurveDisplay

    plt.close(RocCurveDisplay.from_predictions(y, scores, labels=labels).figure_)


def _roc_cloud(y, scores, *, labels):
    from polyroc.thresholds import roc_cloud

    return roc_cloud(y, scores, labels=labels, resolution=4)


@pytest.mark.parametrize(
    "function", [ovr_roc_curve, ovr_precision_recall_curve, _roc_cloud, _roc_curve_display], ids=lambda f: f.__name__
)
def test_the_absent_class_warning_points_at_the_users_line(function):
    """Called directly or through roc_cloud or a Display, the warning names the caller's file, not polyroc's."""
    y, scores, labels = absent_class_problem()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        function(y, scores, labels=labels)
    undefined = [warning for warning in record if issubclass(warning.category, UndefinedMetricWarning)]
    assert any(re.match(r"labels \[3\] have no samples of positive weight", str(w.message)) for w in undefined)
    assert {warning.filename for warning in undefined} == {__file__}


@pytest.mark.parametrize("function", [ovr_roc_curve, ovr_precision_recall_curve])
def test_one_class_in_y_true_raises(function):
    with pytest.raises(ValueError, match=r"of only one class \[1\]; at least 2 classes are needed"):
        function([1, 1, 1], [[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]], labels=[0, 1])


def test_one_class_left_after_zero_weights_raises():
    with pytest.raises(ValueError, match="of only one class"):
        ovr_roc_curve([0, 1, 1], [[0.2, 0.8], [0.5, 0.5], [0.9, 0.1]], sample_weight=[0, 1, 2])


# --- properties -----------------------------------------------------------------------------------


@st.composite
def scored_problems(draw, max_classes=5):
    """Every class present; small integer scores (many ties); optional positive weights."""
    n_classes = draw(st.integers(2, max_classes))
    extra = draw(st.lists(st.integers(0, n_classes - 1), min_size=1, max_size=25))
    y = np.array(list(range(n_classes)) + extra)
    scores = draw(arrays(np.float64, (y.size, n_classes), elements=st.integers(0, 6).map(float)))
    weights = draw(st.none() | arrays(np.float64, y.size, elements=st.floats(0.25, 4.0, width=16)))
    return y, scores, weights


def as_probabilities(scores):
    """Rows rescaled to sum to 1 (order within each column is kept up to ties)."""
    shifted = scores + 1.0
    return shifted / shifted.sum(axis=1, keepdims=True)


@settings(max_examples=60, deadline=None)
@given(scored_problems())
def test_auc_is_invariant_under_increasing_transforms_of_the_columns(problem):
    y, scores, weights = problem
    same_transform = np.exp(scores / 3) - 5
    per_column = same_transform.copy()
    per_column[:, 0] = scores[:, 0] ** 3 + 2 * scores[:, 0]
    reference = ovr_roc_curve(y, scores, sample_weight=weights)
    assert_close(ovr_roc_curve(y, per_column, sample_weight=weights, micro=False).auc, reference.auc)
    # micro compares columns: one transform for all
    assert_close(ovr_roc_curve(y, same_transform, sample_weight=weights).micro_auc, reference.micro_auc)


@settings(max_examples=60, deadline=None)
@given(scored_problems())
def test_reversed_scores_give_one_minus_auc(problem):
    y, scores, weights = problem
    assert_close(
        ovr_roc_curve(y, -scores, sample_weight=weights).auc,
        1 - ovr_roc_curve(y, scores, sample_weight=weights).auc,
    )


@settings(max_examples=60, deadline=None)
@given(scored_problems(), st.booleans())
def test_roc_curves_are_monotone_from_origin_to_one_one(problem, drop_intermediate):
    y, scores, weights = problem
    curves = ovr_roc_curve(y, scores, sample_weight=weights, drop_intermediate=drop_intermediate)
    for fpr, tpr, thresholds in zip(
        (*curves.fpr, curves.micro_fpr), (*curves.tpr, curves.micro_tpr), curves.thresholds
    ):
        assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0)
        assert (fpr[0], tpr[0], thresholds[0]) == (0, 0, np.inf)
        assert fpr[-1] == pytest.approx(1) and tpr[-1] == pytest.approx(1)
        assert np.all(np.diff(thresholds) < 0)


@settings(max_examples=60, deadline=None)
@given(scored_problems())
def test_curve_areas_equal_rank_auc(problem):
    y, scores, weights = problem
    scores = as_probabilities(scores)
    curves = ovr_roc_curve(y, scores, sample_weight=weights)
    assert_close(curves.auc, roc_auc_score(y, scores, sample_weight=weights, average=None))
    assert_close(curves.micro_auc, roc_auc_score(y, scores, sample_weight=weights, average="micro"))


@settings(max_examples=60, deadline=None)
@given(scored_problems(), st.booleans())
def test_precision_recall_curves_run_from_full_recall_to_zero(problem, drop_intermediate):
    y, scores, weights = problem
    curves = ovr_precision_recall_curve(y, scores, sample_weight=weights, drop_intermediate=drop_intermediate)
    for precision, recall, thresholds in zip(curves.precision, curves.recall, curves.thresholds):
        assert np.all(np.diff(recall) <= 0) and recall[0] == pytest.approx(1)
        assert (precision[-1], recall[-1]) == (1, 0)
        assert np.all((precision >= 0) & (precision <= 1))
        assert np.all(np.diff(thresholds) > 0) and thresholds.size == precision.size - 1


@settings(max_examples=40, deadline=None)
@given(scored_problems(), st.randoms(use_true_random=False))
def test_relabelling_the_classes_permutes_the_results(problem, random):
    y, scores, weights = problem
    n_classes = scores.shape[1]
    perm = np.array(random.sample(range(n_classes), n_classes))
    labels = np.arange(n_classes)[perm]
    assert_close(
        ovr_roc_curve(y, scores[:, perm], labels=labels, sample_weight=weights).auc,
        ovr_roc_curve(y, scores, sample_weight=weights).auc[perm],
    )
    assert_close(
        ovr_precision_recall_curve(y, scores[:, perm], labels=labels, sample_weight=weights).average_precision,
        ovr_precision_recall_curve(y, scores, sample_weight=weights).average_precision[perm],
    )


@settings(max_examples=40, deadline=None)
@given(scored_problems())
def test_macro_is_the_mean_of_the_per_class_values(problem):
    y, scores, weights = problem
    scores = as_probabilities(scores)
    functions = (roc_auc_score, average_precision_score) if scores.shape[1] > 2 else (roc_auc_score,)
    for function in functions:
        per_class = function(y, scores, sample_weight=weights, average=None)
        support = np.bincount(y, weights)
        assert_close(function(y, scores, sample_weight=weights), np.mean(per_class))
        assert_close(
            function(y, scores, sample_weight=weights, average="weighted"),
            np.average(per_class, weights=support),
        )


# --- bad input ----------------------------------------------------------------------------------

Y3 = [0, 1, 2, 1]
P3 = [[0.6, 0.3, 0.1], [0.2, 0.7, 0.1], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]]


@pytest.mark.parametrize(
    "function, kwargs, match",
    [
        (ovr_roc_curve, {"drop_intermediate": "yes"}, "drop_intermediate must be one of True, False"),
        (ovr_precision_recall_curve, {"drop_intermediate": None}, "drop_intermediate must be one of"),
        (ovr_roc_curve, {"sample_weight": [1, 1, -1, 1]}, r"sample_weight must be non-negative \(index 2"),
        (ovr_roc_curve, {"sample_weight": [1, 1]}, r"sample_weight must have shape \(4,\)"),
        (ovr_roc_curve, {"labels": [0, 1]}, r"y_true contains labels not in labels: \[2\]"),
        (ovr_precision_recall_curve, {"labels": [0, 1, 2, 3]}, "y_score has 3 columns but labels names 4"),
        (roc_auc_score, {"multi_class": "ova"}, r"multi_class must be one of 'raise', 'ovr', 'ovo'; got 'ova'"),
        (roc_auc_score, {"average": "mean"}, r"average must be one of"),
        (roc_auc_score, {"average": "samples"}, r"average must be one of \('micro', 'macro', 'weighted', None\)"),
        (roc_auc_score, {"multi_class": "ovo", "average": "micro"}, r"average must be one of \('macro'"),
        (roc_auc_score, {"sample_weight": [1, 1, -1, 1]}, r"sample_weight must be non-negative \(index 2"),
        (roc_auc_score, {"labels": [0, 1, 3]}, r"'y_true' contains labels not in parameter 'labels'"),
        (roc_auc_score, {"labels": [2, 1, 0]}, r"'labels' must be ordered"),
        (average_precision_score, {"average": "mean"}, "average must be one of"),
        (average_precision_score, {"pos_label": 0}, "pos_label is fixed to 1 for multiclass"),
    ],
)
def test_bad_options_raise(function, kwargs, match):
    with pytest.raises(ValueError, match=match):
        function(Y3, P3, **kwargs)


def test_ovo_without_an_average_is_not_implemented_as_sklearn():
    with pytest.raises(NotImplementedError, match="average=None is not implemented"):
        roc_auc_score(Y3, P3, multi_class="ovo", average=None)


def test_labels_of_another_kind_raise():
    with pytest.raises(TypeError, match="y_true holds numbers but labels holds strings"):
        ovr_roc_curve(Y3, P3, labels=["a", "b", "c"])


BAD_ARRAYS = [
    (Y3, [[0.6, np.nan, 0.1], *P3[1:]], ValueError, r"NaN or infinity \(first in row 0\)"),
    (Y3, P3[:3], ValueError, "inconsistent numbers of samples: y_true has 4, y_score has 3"),
    (Y3, [0.1, 0.2, 0.3, 0.4], ValueError, r"y_score must be 2-D"),
    (Y3, [row[:2] for row in P3], ValueError, "y_score has 2 columns but y_true has 3 classes"),
    (Y3, [["a", "b", "c"]] * 4, TypeError, "y_score must be numeric"),
    ([[0, 1]] * 4, P3, ValueError, "y_true must be 1-D"),
]


@pytest.mark.parametrize("y_true, y_score, error, match", BAD_ARRAYS)
@pytest.mark.parametrize("function", [ovr_roc_curve, ovr_precision_recall_curve])
def test_bad_arrays_raise(function, y_true, y_score, error, match):
    with pytest.raises(error, match=match):
        function(y_true, y_score)


@pytest.mark.parametrize("y_true, y_score, error, match", BAD_ARRAYS[:4])
@pytest.mark.parametrize("function", [roc_auc_score, average_precision_score])
def test_bad_arrays_raise_for_the_scalar_scores(function, y_true, y_score, error, match):
    with pytest.raises(ValueError):
        function(y_true, y_score)


# --- weights mean relative importance ------------------------------------------------------------

WEIGHT_SCALES = [1e-300, 1e-10, 1e10, 1e300]
RANKING_SCORES = [
    (roc_auc_score, {"multi_class": "ovr", "average": "macro"}),
    (roc_auc_score, {"multi_class": "ovr", "average": "weighted"}),
    (roc_auc_score, {"multi_class": "ovr", "average": "micro"}),
    (roc_auc_score, {"multi_class": "ovo", "average": "macro"}),
    (roc_auc_score, {"multi_class": "ovo", "average": "weighted"}),
    (average_precision_score, {"average": "macro"}),
    (average_precision_score, {"average": "micro"}),
]


@settings(max_examples=80, deadline=None)
@given(scored_problems(), st.sampled_from(WEIGHT_SCALES) | st.floats(1e-300, 1e300))
def test_multiplying_the_weights_by_a_constant_changes_no_auc(problem, scale):
    y, scores, weights = problem
    scores = as_probabilities(scores)
    weights = np.ones(y.size) if weights is None else weights
    for function, options in RANKING_SCORES:
        if function is average_precision_score and scores.shape[1] == 2:
            continue
        reference = function(y, scores, sample_weight=weights, **options)
        scaled = function(y, scores, sample_weight=weights * scale, **options)
        assert abs(scaled - reference) <= TOL, (function.__name__, options, scaled, reference)


@pytest.mark.parametrize("power_of_two", [-1000, 0, 1000])
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_integer_weights_of_any_binary_scale_equal_repeated_samples(seed, power_of_two):
    y, scores, _ = make_problem(seed, 4, ties=True)
    counts = np.random.default_rng(seed).integers(1, 4, y.size)
    weights = np.ldexp(counts.astype(float), power_of_two)
    repeated_y, repeated_scores = np.repeat(y, counts), np.repeat(scores, counts, axis=0)
    for function, options in RANKING_SCORES:
        assert_close(
            function(y, scores, sample_weight=weights, **options),
            function(repeated_y, repeated_scores, **options),
        )
    curves = ovr_roc_curve(y, scores, sample_weight=weights)
    repeated = ovr_roc_curve(repeated_y, repeated_scores)
    for k in range(4):
        np.testing.assert_array_equal(curves.fpr[k], repeated.fpr[k])
        np.testing.assert_array_equal(curves.tpr[k], repeated.tpr[k])


# --- the rich one-vs-rest objects: results that unpack like scikit-learn's curves -----------------

NAMES = np.array(["cat", "dog", "owl"])


def test_ovr_roc_curves_unpack_into_dicts_of_sklearns_curves():
    y, scores, weights = make_problem(21, 3, ties=True, weighted=True)
    labels = NAMES[y]
    curves = ovr_roc_curve(labels, scores, sample_weight=weights)
    assert isinstance(curves, Result) and curves.settings == {}
    fpr, tpr, thresholds = curves
    assert list(fpr) == ["cat", "dog", "owl", "micro"] == list(tpr) == list(thresholds)
    for k, name in enumerate(NAMES):
        expected = skm.roc_curve(labels == name, scores[:, k], sample_weight=weights)
        for ours, theirs in zip((fpr[name], tpr[name], thresholds[name]), expected):
            assert_close(ours, theirs)
    cells = (y[:, None] == np.arange(3)).ravel()
    micro = skm.roc_curve(cells, scores.ravel(), sample_weight=np.repeat(weights, 3))
    for ours, theirs in zip((fpr["micro"], tpr["micro"], thresholds["micro"]), micro):
        assert_close(ours, theirs)
    fpr, _, _ = ovr_roc_curve(labels, scores, micro=False)
    assert list(fpr) == ["cat", "dog", "owl"]


def test_ovr_roc_curves_frame_has_one_row_per_class_with_its_auc():
    pytest.importorskip("pandas")
    y, scores, _ = make_problem(22, 3)
    frame = ovr_roc_curve(NAMES[y], scores).to_frame()
    assert frame["class"].tolist() == ["cat", "dog", "owl", "micro"]
    expected = [skm.roc_auc_score(y == k, scores[:, k]) for k in range(3)]
    assert_close(frame["auc"].to_numpy()[:3], expected)
    cells = (y[:, None] == np.arange(3)).ravel()
    assert_close(frame["auc"].to_numpy()[3], skm.roc_auc_score(cells, scores.ravel()))


def test_ovr_precision_recall_curves_unpack_and_tabulate_like_sklearn():
    y, scores, weights = make_problem(23, 3, ties=True, weighted=True)
    curves = ovr_precision_recall_curve(y, scores, sample_weight=weights)
    assert isinstance(curves, Result)
    precision, recall, thresholds = curves
    assert list(precision) == [0, 1, 2, "micro"]
    for k in range(3):
        expected = skm.precision_recall_curve(y == k, scores[:, k], sample_weight=weights)
        for ours, theirs in zip((precision[k], recall[k], thresholds[k]), expected):
            assert_close(ours, theirs)
    pytest.importorskip("pandas")
    frame = curves.to_frame()
    expected = [skm.average_precision_score(y == k, scores[:, k], sample_weight=weights) for k in range(3)]
    assert_close(frame["average_precision"].to_numpy()[:3], expected)


def test_ovr_curves_to_dict_is_strict_json():
    y, scores, _ = make_problem(24, 3)
    for curves in (ovr_roc_curve(y, scores), ovr_precision_recall_curve(y, scores)):
        payload = json.loads(json.dumps(curves.to_dict(), allow_nan=False))
        assert payload["type"] == type(curves).__name__ and payload["settings"] == {}


def test_ovr_curves_plot_with_their_displays():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from polyroc.plotting import PrecisionRecallDisplay, RocCurveDisplay

    y, scores, _ = make_problem(25, 3)
    try:
        roc = ovr_roc_curve(y, scores).plot()
        pr = ovr_precision_recall_curve(y, scores).plot()
        assert isinstance(roc, RocCurveDisplay) and isinstance(pr, PrecisionRecallDisplay)
        assert roc.ax_ is not None and pr.ax_ is not None
    finally:
        plt.close("all")
