"""Tests of polyroc.metrics.

Oracles only: scikit-learn (to 1e-12) for the metrics it has, a brute force that
loops over samples building each class's 2x2 table for those it lacks, the
textbook's worked numbers (checklist section 2, exact fractions where exact),
and hypothesis properties.
"""

import functools
import warnings
from fractions import Fraction

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.utils._param_validation import InvalidParameterError

from polyroc import counts as pc
from polyroc import metrics as pm
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.probability import softmax

AVERAGES = ["macro", "micro", "weighted", None]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]
TOL = {"rtol": 0, "atol": 1e-12}


def assert_close(actual, expected):
    np.testing.assert_allclose(np.asarray(actual, float), np.asarray(expected, float), equal_nan=True, **TOL)


def quietly(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


# --------------------------------------------------------------------------- random cases


def make_case(seed, *, weighted=False, strings=False, absent=None):
    """Random labels; ``absent``: an extra class only predicted ("pred") or in neither ("neither")."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(3, 7))
    n = int(rng.integers(8, 80))
    y_true = rng.integers(0, m, n)
    y_true[:2] = [0, 1]
    y_pred = np.where(rng.random(n) < 0.6, y_true, rng.integers(0, m, n))
    n_labels = m + (absent is not None)
    if absent == "pred":
        y_pred[: max(1, n // 10)] = m
    labels = rng.permutation(n_labels)
    if strings:
        names = np.array([f"class-{k}" for k in range(n_labels)])
        y_true, y_pred, labels = names[y_true], names[y_pred], names[labels]
    weights = rng.uniform(0.1, 3.0, n) if weighted else None
    return y_true, y_pred, labels, weights


CASES = [
    pytest.param((seed, weighted, strings, absent), id=f"s{seed}-w{int(weighted)}-str{int(strings)}-{absent}")
    for seed in range(4)
    for weighted in (False, True)
    for strings in (False, True)
    for absent in (None, "pred", "neither")
]


@pytest.fixture(params=CASES)
def case(request):
    seed, weighted, strings, absent = request.param
    return make_case(seed, weighted=weighted, strings=strings, absent=absent)


# --------------------------------------------------------------------------- scikit-learn oracle


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_confusion_matrix_matches_sklearn(case, normalize):
    y_true, y_pred, labels, w = case
    ours = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w, normalize=normalize)
    assert_close(ours, skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w, normalize=normalize))


def test_accuracy_matches_sklearn(case):
    y_true, y_pred, _, w = case
    assert_close(
        pm.accuracy_score(y_true, y_pred, sample_weight=w),
        skm.accuracy_score(y_true, y_pred, sample_weight=w),
    )


@pytest.mark.slow
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize(
    "ours, theirs, extra",
    [
        (pm.precision_score, skm.precision_score, {}),
        (pm.recall_score, skm.recall_score, {}),
        (pm.f1_score, skm.f1_score, {}),
        (pm.fbeta_score, skm.fbeta_score, {"beta": 0.5}),
        (pm.fbeta_score, skm.fbeta_score, {"beta": 2.0}),
        (pm.fbeta_score, skm.fbeta_score, {"beta": 0.0}),
    ],
    ids=["precision", "recall", "f1", "f0.5", "f2", "f0"],
)
def test_precision_recall_f_match_sklearn(case, ours, theirs, extra, average, zero_division):
    y_true, y_pred, labels, w = case
    options = dict(labels=labels, sample_weight=w, average=average, zero_division=zero_division, **extra)
    assert_close(quietly(ours, y_true, y_pred, **options), quietly(theirs, y_true, y_pred, **options))


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_precision_recall_fscore_support_matches_sklearn(case, average, zero_division):
    y_true, y_pred, labels, w = case
    options = {"labels": labels, "sample_weight": w, "average": average, "zero_division": zero_division, "beta": 1.5}
    ours = quietly(pm.precision_recall_fscore_support, y_true, y_pred, **options)
    theirs = quietly(skm.precision_recall_fscore_support, y_true, y_pred, **options)
    for a, b in zip(ours[:3], theirs[:3]):
        assert_close(a, b)
    if average is None:
        assert_close(ours[3], theirs[3])
    else:
        assert ours[3] is None and theirs[3] is None


@pytest.mark.parametrize("adjusted", [False, True])
def test_balanced_accuracy_matches_sklearn(case, adjusted):
    y_true, y_pred, _, w = case  # scikit-learn takes no labels: both use the union
    assert_close(
        quietly(pm.balanced_accuracy_score, y_true, y_pred, sample_weight=w, adjusted=adjusted),
        quietly(skm.balanced_accuracy_score, y_true, y_pred, sample_weight=w, adjusted=adjusted),
    )


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa_matches_sklearn(case, weights):
    y_true, y_pred, labels, w = case
    options = {"labels": labels, "sample_weight": w, "weights": weights}
    assert_close(pm.cohen_kappa_score(y_true, y_pred, **options), skm.cohen_kappa_score(y_true, y_pred, **options))


def test_matthews_corrcoef_matches_sklearn(case):
    y_true, y_pred, _, w = case
    assert_close(
        pm.matthews_corrcoef(y_true, y_pred, sample_weight=w),
        skm.matthews_corrcoef(y_true, y_pred, sample_weight=w),
    )


@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_classification_report_dict_matches_sklearn(case, zero_division):
    y_true, y_pred, labels, w = case
    options = {"labels": labels, "sample_weight": w, "output_dict": True, "zero_division": zero_division}
    ours = quietly(pm.classification_report, y_true, y_pred, **options)
    theirs = quietly(skm.classification_report, y_true, y_pred, **options)
    assert list(ours) == list(theirs)
    for key, value in theirs.items():
        if isinstance(value, dict):
            assert list(ours[key]) == list(value)
            assert_close(list(ours[key].values()), list(value.values()))
        else:
            assert_close(ours[key], value)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("digits", [0, 2, 4])
@pytest.mark.parametrize("strings", [False, True])
@pytest.mark.parametrize("absent", [None, "pred", "neither"])
def test_classification_report_text_matches_sklearn(seed, digits, strings, absent):
    y_true, y_pred, labels, _ = make_case(seed, strings=strings, absent=absent)
    # integer weights keep every count exact, so the text is identical digit for digit
    weights = np.random.default_rng(seed).integers(1, 4, len(y_true)) if seed % 2 else None
    options = {"labels": labels, "sample_weight": weights, "digits": digits, "zero_division": 0.0}
    assert pm.classification_report(y_true, y_pred, **options) == skm.classification_report(y_true, y_pred, **options)


def test_classification_report_target_names_match_sklearn():
    y_true, y_pred, labels, _ = make_case(7)
    names = [f"a much longer class name {k}" for k in range(len(labels))]
    options = {"labels": labels, "target_names": names, "zero_division": 1.0}
    assert pm.classification_report(y_true, y_pred, **options) == skm.classification_report(y_true, y_pred, **options)


def random_probabilities(rng, n, m):
    scores = rng.dirichlet(np.ones(m), n)
    scores[0] = np.eye(m)[(m - 1)]  # a certain, wrong prediction: clipped at eps
    scores[1] = np.eye(m)[0]
    return scores / scores.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("strings", [False, True])
def test_log_loss_and_brier_match_sklearn(seed, weighted, strings):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(2, 6)), int(rng.integers(10, 60))
    y = rng.integers(0, m - 1, n)  # the last class never occurs: labels are needed
    y[:2] = 0
    labels = np.arange(m)
    if strings:
        labels = np.array([f"k{k}" for k in range(m)])
        y = labels[y]
    scores = random_probabilities(rng, n, m)
    w = rng.uniform(0, 2, n) if weighted else None
    assert_close(
        pm.log_loss(y, scores, labels=labels, sample_weight=w),
        skm.log_loss(y, scores, labels=labels, sample_weight=w),
    )
    assert_close(
        pm.brier_score_loss(y, scores, labels=labels, sample_weight=w),
        skm.brier_score_loss(y, scores, labels=labels, sample_weight=w),
    )


def brute_top_k(y_true, scores, k, weights):
    """Rank the classes of each sample by (score, index) descending, as scikit-learn's ties do."""
    weights = np.ones(len(y_true)) if weights is None else weights
    hits = 0.0
    for true, row, weight in zip(y_true, scores, weights):
        ranking = sorted(range(len(row)), key=lambda j: (row[j], j), reverse=True)
        hits += weight * (true in ranking[:k])
    return hits / weights.sum()


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_top_k_accuracy_matches_sklearn_with_ties(seed, weighted):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(2, 7)), int(rng.integers(10, 80))
    y = rng.integers(0, m, n)
    scores = rng.integers(0, 4, (n, m)) / 4.0  # many ties
    w = rng.uniform(0, 2, n) if weighted else None
    labels = np.arange(m)
    for k in range(1, m):
        ours = pm.top_k_accuracy_score(y, scores, k=k, labels=labels, sample_weight=w)
        assert_close(ours, brute_top_k(y, scores, k, w))
        if m > 2:  # scikit-learn's binary path wants one score column
            assert_close(ours, skm.top_k_accuracy_score(y, scores, k=k, labels=labels, sample_weight=w))


# --------------------------------------------------------------------------- brute-force oracle


def brute_tables(y_true, y_pred, labels, weights):
    """TP, FP, FN, TN of each class, by a loop over samples."""
    weights = np.ones(len(y_true)) if weights is None else weights
    tables = {label: [0.0, 0.0, 0.0, 0.0] for label in labels}
    for true, pred, weight in zip(y_true, y_pred, weights):
        for label, table in tables.items():
            cell = {(True, True): 0, (False, True): 1, (True, False): 2, (False, False): 3}
            table[cell[(true == label, pred == label)]] += weight
    return [tables[label] for label in labels]


def brute_specificity(tp, fp, fn, tn):
    return tn / (tn + fp) if tn + fp else None


def brute_recall(tp, fp, fn, tn):
    return tp / (tp + fn) if tp + fn else None


def brute_youden(*table):
    r, s = brute_recall(*table), brute_specificity(*table)
    return None if r is None or s is None else r + s - 1


def brute_heidke(tp, fp, fn, tn):
    denominator = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)
    return 2 * (tp * tn - fp * fn) / denominator if denominator else None


def brute_score(metric, tables, average, zero_division):
    fill = 0.0 if zero_division == "warn" else zero_division
    if average == "micro":
        value = metric(*np.sum(tables, axis=0))
        return fill if value is None else value
    values = np.array([fill if (v := metric(*t)) is None else v for t in tables], float)
    if average is None:
        return values
    supports = np.array([t[0] + t[2] for t in tables])
    keep = ~np.isnan(values)
    if not keep.any():
        return np.nan
    if average == "weighted" and supports[keep].sum() > 0:
        return np.sum(values[keep] * supports[keep]) / supports[keep].sum()
    return values[keep].mean()


@pytest.mark.slow
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize(
    "ours, oracle",
    [
        (pm.specificity_score, brute_specificity),
        (pm.youden_score, brute_youden),
        (pm.heidke_skill_score, brute_heidke),
        (pm.recall_score, brute_recall),
    ],
    ids=["specificity", "youden", "heidke", "recall"],
)
def test_one_vs_rest_metrics_match_brute_force(case, ours, oracle, average, zero_division):
    y_true, y_pred, labels, w = case
    expected = brute_score(oracle, brute_tables(y_true, y_pred, labels, w), average, zero_division)
    actual = quietly(ours, y_true, y_pred, labels=labels, sample_weight=w, average=average, zero_division=zero_division)
    assert_close(actual, expected)


@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
@pytest.mark.parametrize(
    "ours, oracle",
    [(pm.specificity_score, brute_specificity), (pm.youden_score, brute_youden), (pm.heidke_skill_score, brute_heidke)],
    ids=["specificity", "youden", "heidke"],
)
def test_one_vs_rest_extras_on_a_subset_of_labels_match_brute_force(ours, oracle, average):
    """``labels`` naming some classes: the others still count as negatives, as in precision_score."""
    y_true, y_pred, labels, w = make_case(11, weighted=True)
    subset = labels[:2]
    expected = brute_score(oracle, brute_tables(y_true, y_pred, subset, w), average, 0.0)
    assert_close(ours(y_true, y_pred, labels=subset, sample_weight=w, average=average, zero_division=0.0), expected)


@pytest.mark.parametrize(
    "ours, oracle",
    [(pm.specificity_score, brute_specificity), (pm.youden_score, brute_youden), (pm.heidke_skill_score, brute_heidke)],
    ids=["specificity", "youden", "heidke"],
)
def test_one_vs_rest_extras_score_pos_label_with_the_binary_average(ours, oracle):
    names = np.array(["healthy", "sick"])
    rng = np.random.default_rng(12)
    y_true, y_pred = names[rng.integers(0, 2, 30)], names[rng.integers(0, 2, 30)]
    for positive in names:
        expected = oracle(*brute_tables(y_true, y_pred, [positive], None)[0])
        assert_close(ours(y_true, y_pred, pos_label=positive, average="binary"), expected)
    with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
        ours([0, 1, 2], [0, 1, 1], average="binary")


def test_per_class_counts_of_labels_match_brute_force(case):
    y_true, y_pred, labels, w = case
    counts = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    tables = np.array(brute_tables(y_true, y_pred, labels, w))
    assert_close(pc.support(counts), tables[:, 0] + tables[:, 2])
    assert_close(
        pc.precision(counts, average=None, zero_division=np.nan),
        [t[0] / (t[0] + t[1]) if t[0] + t[1] else np.nan for t in tables],
    )


def test_heidke_of_two_classes_is_cohen_kappa():
    rng = np.random.default_rng(3)
    y_true, y_pred = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    assert_close(pm.heidke_skill_score(y_true, y_pred, average=None), [skm.cohen_kappa_score(y_true, y_pred)] * 2)


# --------------------------------------------------------------------------- textbook worked numbers

O8 = np.array([[8, 1, 1], [2, 6, 0], [1, 1, 7]])  # Cat, Dog, Bird
O14 = np.array([[3, 1, 0, 0], [0, 2, 1, 0], [0, 0, 3, 1], [1, 0, 0, 3]])
O15 = np.array([[90, 5, 5], [10, 80, 10], [3, 7, 90]])


def labels_from_counts(counts, names=None):
    """y_true, y_pred with the given confusion counts (one sample per count)."""
    cells = np.argwhere(np.ones_like(counts, dtype=bool))
    y_true = np.repeat(cells[:, 0], counts.ravel())
    y_pred = np.repeat(cells[:, 1], counts.ravel())
    if names is not None:
        y_true, y_pred = np.asarray(names)[y_true], np.asarray(names)[y_pred]
    return y_true, y_pred


def exact(value, fraction):
    assert abs(value - float(fraction)) < 1e-15


def test_o3_cross_entropy_of_the_true_class():
    p = np.exp([2.0, 1.0, 0.1]) / np.exp([2.0, 1.0, 0.1]).sum()
    assert round(pm.log_loss([1], [p], labels=[0, 1, 2]), 6) == 1.417030


def test_o6_o7_batch_cross_entropy():
    good = [[0.9, 0.05, 0.05], [0.1, 0.8, 0.1], [0.2, 0.3, 0.5]]
    bad = [[0.1, 0.8, 0.1], [0.7, 0.2, 0.1], [0.5, 0.4, 0.1]]
    assert round(pm.log_loss([0, 1, 2], good), 6) == 0.340550
    assert round(pm.log_loss([0, 1, 2], bad), 6) == 2.071536
    assert_close(pm.log_loss([0, 1, 2], good), -np.log([0.9, 0.8, 0.5]).mean())


def test_o13_cross_entropy_and_clipping():
    assert round(pm.log_loss([2], [[0.1, 0.2, 0.6, 0.1]], labels=[0, 1, 2, 3]), 6) == 0.510826
    perfect = pm.log_loss([2], [[0.0, 0.0, 1.0, 0.0]], labels=[0, 1, 2, 3])
    assert perfect == -np.log(1 - np.finfo(np.float64).eps)  # clipped at the machine epsilon
    assert pm.log_loss([0], [[0.0, 1.0]], labels=[0, 1]) == -np.log(np.finfo(np.float64).eps)


def test_o8_per_class_counts_and_scores():
    y_true, y_pred = labels_from_counts(O8, ["Cat", "Dog", "Bird"])
    labels = ["Cat", "Dog", "Bird"]
    np.testing.assert_array_equal(pm.confusion_matrix(y_true, y_pred, labels=labels), O8)
    p, r, f, s = pm.precision_recall_fscore_support(y_true, y_pred, labels=labels)
    for value, fraction in zip(
        [*p, *r, *f],
        [
            Fraction(8, 11),
            Fraction(3, 4),
            Fraction(7, 8),
            Fraction(4, 5),
            Fraction(3, 4),
            Fraction(7, 9),
            Fraction(16, 21),
            Fraction(3, 4),
            Fraction(14, 17),
        ],
    ):
        exact(value, fraction)
    np.testing.assert_array_equal(s, [10, 8, 9])
    np.testing.assert_array_equal(pc.specificity(O8, average=None) * [17, 19, 18], [14, 17, 17])


def test_o8_averages():
    exact(pc.f1(O8, average="micro"), Fraction(21, 27))
    exact(pc.accuracy(O8), Fraction(21, 27))
    exact(pc.f1(O8), (Fraction(16, 21) + Fraction(3, 4) + Fraction(14, 17)) / 3)
    assert round(pc.f1(O8), 6) == 0.778478
    assert round(pc.f1(O8, average="weighted"), 6) == 0.778919
    assert round(pc.precision(O8), 6) == 0.784091
    assert round(pc.recall(O8), 6) == 0.775926
    assert round(pc.precision(O8, average="weighted"), 6) == 0.783249
    assert round(pc.recall(O8, average="weighted"), 6) == 0.777778


def test_o9_o10_kappa_and_mcc():
    exact(pc.cohen_kappa(O8), Fraction(107, 161))
    assert round(pc.matthews_corrcoef(O8), 6) == 0.665981
    assert round(pc.cohen_kappa(O8, weights="linear"), 6) == 0.673716
    assert round(pc.cohen_kappa(O8, weights="quadratic"), 6) == 0.682353
    y_true, y_pred = labels_from_counts(O8)
    exact(pm.cohen_kappa_score(y_true, y_pred), Fraction(107, 161))


def test_o14_fifteen_labels():
    y_true, y_pred = labels_from_counts(O14, list("ABCD"))
    for metric in (pm.precision_score, pm.recall_score, pm.f1_score):
        values = metric(y_true, y_pred, average=None)
        for value, fraction in zip(values, [Fraction(3, 4), Fraction(2, 3), Fraction(3, 4), Fraction(3, 4)]):
            exact(value, fraction)
    exact(pm.f1_score(y_true, y_pred, average="macro"), Fraction(35, 48))
    exact(pm.f1_score(y_true, y_pred, average="micro"), Fraction(11, 15))
    exact(pm.f1_score(y_true, y_pred, average="weighted"), Fraction(11, 15))
    exact(pm.cohen_kappa_score(y_true, y_pred), Fraction(9, 14))
    exact(pm.matthews_corrcoef(y_true, y_pred), Fraction(9, 14))


def test_o15_kappa_boundary():
    exact(pc.accuracy(O15), Fraction(260, 300))
    exact(pc.cohen_kappa(O15), Fraction(4, 5))
    assert round(pc.matthews_corrcoef(O15), 6) == 0.800654
    np.testing.assert_allclose(pc.f1(O15, average=None), [0.886700, 0.833333, 0.878049], atol=5e-7)
    assert round(pc.f1(O15), 6) == 0.866027


def test_o23_majority_class_of_three():
    counts = np.array([[90, 0, 0], [5, 0, 0], [5, 0, 0]])
    exact(pc.accuracy(counts), Fraction(9, 10))
    exact(pc.f1(counts), Fraction(6, 19))
    assert round(pc.f1(counts, average="weighted"), 6) == 0.852632
    assert pc.cohen_kappa(counts) == 0.0
    assert pc.matthews_corrcoef(counts) == 0.0


def test_o24_majority_class_of_two():
    counts = np.array([[95, 0], [5, 0]])
    exact(pc.accuracy(counts), Fraction(95, 100))
    assert pc.matthews_corrcoef(counts) == 0.0
    assert pc.cohen_kappa(counts) == 0.0


def test_o25_healthy_always():
    counts = np.array([[1000, 0, 0], [50, 0, 0], [10, 0, 0]])
    exact(pc.accuracy(counts), Fraction(1000, 1060))
    assert round(pc.f1(counts), 6) == 0.323625
    assert round(pc.f1(counts, average="weighted"), 6) == 0.915919
    exact(pc.balanced_accuracy(counts), Fraction(1, 3))
    assert pc.matthews_corrcoef(counts) == 0.0


def test_o29b_top_k():
    y = [0, 1, 2, 2]
    scores = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    assert pm.top_k_accuracy_score(y, scores, k=1) == 0.5
    assert pm.top_k_accuracy_score(y, scores, k=2) == 0.75
    with pytest.warns(UndefinedMetricWarning, match="perfect score"):
        assert pm.top_k_accuracy_score(y, scores, k=3) == 1.0


def test_brier_by_hand():
    # (0.8-1)^2 + 0.2^2 = 0.08 and 0.4^2 + (0.6-1)^2 = 0.32 (3rd column 0)
    assert_close(pm.brier_score_loss([0, 1], [[0.8, 0.2, 0.0], [0.4, 0.6, 0.0]], labels=[0, 1, 2]), 0.2)


def test_log_loss_of_softmax_logits_is_the_cross_entropy():
    logits = np.array([[2.0, 1.0, 0.1], [0.0, 1.0, 3.0]])
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    assert_close(pm.log_loss([0, 2], softmax(logits), labels=[0, 1, 2]), -np.log([p[0, 0], p[1, 2]]).mean())


# --------------------------------------------------------------------------- properties

counts_batches = st.integers(2, 5).flatmap(
    lambda m: hnp.arrays(np.int64, st.tuples(st.integers(1, 4), st.just(m), st.just(m)), elements=st.integers(0, 12))
)
OVR_METRICS = [pc.precision, pc.recall, pc.f1, pc.specificity, pc.youden, pc.heidke_skill]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.floats(0.0, 5.0)), min_size=1, max_size=40))
def test_counts_sum_to_the_total_weight(rows):
    y_true, y_pred, weights = map(np.array, zip(*rows))
    weights[0] += 1.0
    counts = pm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2, 3], sample_weight=weights)
    np.testing.assert_allclose(counts.sum(), weights.sum(), rtol=1e-12)
    assert pm.confusion_matrix(y_true, y_pred, labels=[0, 1, 2, 3]).sum() == len(rows)


@given(counts_batches)
def test_macro_is_the_mean_of_the_per_class_values(counts):
    for metric in OVR_METRICS:
        per_class = metric(counts, average=None, zero_division=0.0)
        np.testing.assert_allclose(metric(counts, average="macro", zero_division=0.0), per_class.mean(axis=-1))


@given(counts_batches)
def test_micro_f1_precision_recall_equal_accuracy(counts):
    counts = counts + np.eye(counts.shape[-1], dtype=np.int64)  # total > 0
    accuracy = pc.accuracy(counts)
    for metric in (pc.precision, pc.recall, pc.f1):
        np.testing.assert_allclose(metric(counts, average="micro"), accuracy, rtol=1e-12)


@settings(max_examples=50)
@given(counts_batches)
def test_batch_equals_the_per_matrix_loop(counts):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # registry metrics never warn
        for name, metric in pc.METRICS.items():
            batch = metric(counts)
            assert batch.shape == counts.shape[:1], name
            np.testing.assert_allclose(batch, [metric(c) for c in counts], equal_nan=True, err_msg=name)


@given(counts_batches)
def test_float_counts_give_the_same_values(counts):
    for name, metric in pc.METRICS.items():
        np.testing.assert_allclose(metric(counts.astype(float)), metric(counts), equal_nan=True, err_msg=name)


def test_registry_names_and_aliases():
    required = {
        "accuracy",
        "balanced_accuracy",
        "precision_macro",
        "recall_macro",
        "f1_macro",
        "f1_micro",
        "f1_weighted",
        "precision_weighted",
        "recall_weighted",
        "cohen_kappa",
        "cohen_kappa_linear",
        "cohen_kappa_quadratic",
        "matthews_corrcoef",
        "mcc",
        "youden_macro",
        "tss",
        "heidke_skill_macro",
        "hss",
    }
    assert required <= set(pc.METRICS)
    assert pc.get_metric("mcc") is pc.METRICS["matthews_corrcoef"]
    assert pc.get_metric("tss")(O8) == pc.youden(O8)
    assert pc.get_metric("hss")(O8) == pc.heidke_skill(O8)
    assert pc.get_metric("f1_weighted")(O8) == pc.f1(O8, average="weighted")
    assert pc.get_metric(pc.accuracy) is pc.accuracy


def test_registry_on_a_large_batch():
    counts = np.random.default_rng(0).integers(0, 50, (100_000, 4, 4))
    values = pc.get_metric("f1_macro")(counts)
    assert values.shape == (100_000,)
    np.testing.assert_allclose(values[:3], [pc.f1(c, zero_division=0.0) for c in counts[:3]])


# --------------------------------------------------------------------------- zero_division and warnings

# class 1 never predicted, class 2 predicted but absent from the truth, class 3 absent everywhere
NEVER_PREDICTED = np.array([[3, 0, 1, 0], [2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])


@pytest.mark.parametrize(
    "metric, match, undefined",
    [
        (pc.precision, "Precision is ill-defined", [1, 3]),
        (pc.recall, "Recall is ill-defined", [2, 3]),
        (pc.f1, "F-score is ill-defined", [3]),
        (pc.youden, "Youden's J is ill-defined", [2, 3]),
        (pc.heidke_skill, "Heidke skill score is ill-defined", [3]),
    ],
)
def test_zero_division_fills_exactly_the_undefined_classes(metric, match, undefined):
    with pytest.warns(UndefinedMetricWarning, match=match):
        warned = metric(NEVER_PREDICTED, average=None)
    defined = np.setdiff1d(np.arange(4), undefined)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # explicit values never warn
        for fill in (0.0, 1.0, np.nan):
            values = metric(NEVER_PREDICTED, average=None, zero_division=fill)
            np.testing.assert_array_equal(values[undefined], fill)
            np.testing.assert_array_equal(values[defined], warned[defined])
    np.testing.assert_array_equal(warned[undefined], 0.0)


def test_zero_division_values_for_precision():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for fill in (0.0, 1.0, np.nan):
            np.testing.assert_array_equal(
                pc.precision(NEVER_PREDICTED, average=None, zero_division=fill), [0.6, fill, 0.0, fill]
            )
        assert pc.precision(NEVER_PREDICTED, zero_division=np.nan) == 0.3  # NaN left out of the mean
        assert pc.precision(NEVER_PREDICTED, zero_division=1.0) == 0.65


def test_f_uses_zero_division_only_when_class_absent_everywhere():
    per_class = pc.f1(NEVER_PREDICTED, average=None, zero_division=1.0)
    np.testing.assert_array_equal(per_class, [6 / 9, 0.0, 0.0, 1.0])


def test_specificity_undefined_when_every_sample_is_the_class():
    counts = np.array([[4, 1], [0, 0]])
    with pytest.warns(UndefinedMetricWarning, match="Specificity is ill-defined"):
        assert pc.specificity(counts, average=None).tolist() == [0.0, 0.8]


def test_kappa_undefined_matches_sklearn_replacement():
    with pytest.warns(UndefinedMetricWarning, match="cohen_kappa_score is undefined"):
        assert np.isnan(pm.cohen_kappa_score([0, 0, 0], [0, 0, 0], labels=[0, 1]))
    for fill in (0.0, 1.0, -0.5, np.nan):
        expected = quietly(skm.cohen_kappa_score, [0, 0, 0], [0, 0, 0], labels=[0, 1], replace_undefined_by=fill)
        ours = quietly(pm.cohen_kappa_score, [0, 0, 0], [0, 0, 0], labels=[0, 1], replace_undefined_by=fill)
        assert_close(ours, expected)


def test_balanced_accuracy_warns_for_classes_without_true_samples():
    with pytest.warns(UndefinedMetricWarning, match="no true samples"):
        assert pc.balanced_accuracy(NEVER_PREDICTED) == 0.375  # mean of 3/4 and 0
    assert pc.METRICS["balanced_accuracy"](NEVER_PREDICTED) == 0.375


def test_registry_metrics_do_not_warn_on_degenerate_counts():
    degenerate = np.array([NEVER_PREDICTED, np.zeros((4, 4), int), np.diag([5, 0, 0, 0])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for metric in pc.METRICS.values():
            metric(degenerate)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: pc.precision(O8, average="binary"), ValueError, "average must be one of"),
        (lambda: pm.precision_score([0, 1], [0, 1], average="samples"), ValueError, "Samplewise metrics"),
        (lambda: pc.recall(O8, zero_division="ignore"), ValueError, "zero_division must be"),
        (lambda: pm.f1_score([0, 1], [0, 1], zero_division=0.5), ValueError, "zero_division must be"),
        (lambda: pc.fbeta(O8, beta=-1.0), ValueError, "beta must be a finite number in \\[0, inf\\)"),
        (lambda: pm.fbeta_score([0, 1], [0, 1], beta="1"), TypeError, "beta must be a real number"),
        (lambda: pc.cohen_kappa(O8, weights="cubic"), ValueError, "weights must be one of"),
        (lambda: pm.accuracy_score([0, 1, 1], [0, 1]), ValueError, "inconsistent numbers of samples"),
        (lambda: pm.f1_score([0, 1, 2], [0, 1, 1]), ValueError, "Target is multiclass but average='binary'"),
        (lambda: pm.f1_score([0, 1], [0, 1], pos_label=2), ValueError, "pos_label=2 is not a valid label"),
        (lambda: pm.f1_score([1, "1"], [1, 1]), TypeError, "y_true mixes strings and numbers"),
        (
            lambda: pm.accuracy_score([0, 1], [0, 1], sample_weight=[1, -1]),
            ValueError,
            "sample_weight must be non-negative",
        ),
        (
            lambda: pm.accuracy_score([0, 1], [0, 1], sample_weight=[1]),
            ValueError,
            "sample_weight must have shape",
        ),
        (
            lambda: pm.confusion_matrix([0, 1], [0, 1], normalize="rows"),
            ValueError,
            "normalize must be one of",
        ),
        (lambda: pc.accuracy(np.ones((2, 3))), ValueError, "counts must have shape"),
        (lambda: pc.accuracy([[1, -1], [0, 1]]), ValueError, "counts must be non-negative"),
        (lambda: pc.f1([[1, np.nan], [0, 1]]), ValueError, "counts contains NaN"),
        (lambda: pc.matthews_corrcoef([["a", "b"], ["c", "d"]]), TypeError, "counts must be numeric"),
        (
            lambda: pc.get_metric("f2_macro"),
            ValueError,
            "unknown metric 'f2_macro'; valid names are: .*f1_macro",
        ),
        (lambda: pc.get_metric(3), TypeError, "metric must be a metric name or a callable"),
        (lambda: pm.top_k_accuracy_score([0, 1], [[0.5, 0.5], [0.2, 0.8]], k=0), ValueError, "k must be >= 1"),
        (
            lambda: pm.top_k_accuracy_score([0, 1], [[0.5, 0.5], [0.2, 0.8]], k=1.5),
            TypeError,
            "k must be an integer",
        ),
        (lambda: pm.top_k_accuracy_score([0, 1], [[0.5, 0.5, 0.0]]), ValueError, "y_true is binary while y_score"),
        (lambda: pm.log_loss([0, 1], [[0.5, 1.6], [0.2, 0.8]]), ValueError, "y_proba contains values greater than 1"),
        (lambda: pm.log_loss([0, 1], [[0.5, 0.5], [0.2, 0.8]], y_pred=[0.5, 0.5]), ValueError, "Cannot use both"),
        (
            lambda: pm.brier_score_loss([0, 1], [[0.5, 0.5, 0.0], [0.2, 0.8, 0.0]]),
            ValueError,
            "y_proba has 3 columns but y_true has 2 classes",
        ),
        (
            lambda: pm.brier_score_loss([0, 1], [[1.5, -0.5], [0.2, 0.8]]),
            ValueError,
            "y_proba contains values greater than 1",
        ),
        (
            lambda: pm.classification_report([0, 1], [0, 1], target_names=["a"]),
            ValueError,
            "Number of classes, 2, does not match size of target_names, 1",
        ),
        (lambda: pm.classification_report([0, 1], [0, 1], digits=-1), ValueError, "digits must be >= 0"),
        (
            lambda: pm.classification_report([0, 1], [0, 1], zero_division="x"),
            ValueError,
            "zero_division must be",
        ),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


CURVE_DATA = ([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
LABEL_PAIR = ([0, 1, 1, 2], [0, 1, 0, 2])


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("roc_curve", CURVE_DATA, {"drop_intermediate": "x"}),
        ("roc_curve", CURVE_DATA, {"drop_intermediate": 1}),
        ("roc_curve", CURVE_DATA, {"drop_intermediate": None}),
        ("roc_curve", (CURVE_DATA[0], CURVE_DATA[1][:-1]), {"drop_intermediate": "x"}),  # before the data
        ("precision_recall_curve", CURVE_DATA, {"drop_intermediate": "x"}),
        ("det_curve", CURVE_DATA, {"drop_intermediate": np.array(True)}),
        ("balanced_accuracy_score", LABEL_PAIR, {"adjusted": "yes"}),
        ("balanced_accuracy_score", LABEL_PAIR, {"adjusted": 0}),
        ("cohen_kappa_score", LABEL_PAIR, {"replace_undefined_by": "a"}),
        ("cohen_kappa_score", LABEL_PAIR, {"replace_undefined_by": None}),
        ("cohen_kappa_score", LABEL_PAIR, {"replace_undefined_by": 2.0}),
        ("cohen_kappa_score", LABEL_PAIR, {"replace_undefined_by": np.inf}),
    ],
)
def test_options_refused_by_sklearns_parameter_validation_raise_its_error(name, args, kwargs):
    with pytest.raises(InvalidParameterError):
        getattr(skm, name)(*args, **kwargs)
    (argument,) = kwargs
    with pytest.raises(InvalidParameterError, match=rf"^{argument} must be"):
        getattr(pm, name)(*args, **kwargs)


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    [
        ("roc_curve", CURVE_DATA, {"drop_intermediate": np.False_}),
        ("precision_recall_curve", CURVE_DATA, {"drop_intermediate": np.True_}),
        ("det_curve", CURVE_DATA, {"drop_intermediate": np.True_}),
        ("balanced_accuracy_score", LABEL_PAIR, {"adjusted": np.True_}),
        ("cohen_kappa_score", ([0, 0], [0, 0]), {"replace_undefined_by": np.float32(-0.5)}),
        ("cohen_kappa_score", ([0, 0], [0, 0]), {"replace_undefined_by": True}),
    ],
)
def test_options_sklearn_accepts_are_accepted(name, args, kwargs):
    ours, theirs = (quietly(getattr(lib, name), *args, **kwargs) for lib in (pm, skm))
    for mine, expected in zip(*((v,) if np.isscalar(v) else v for v in (ours, theirs)), strict=True):
        assert_close(mine, expected)


def test_options_are_checked_before_the_labels_are_counted():
    # the average is wrong and the labels too: the option error comes first
    with pytest.raises(ValueError, match="average must be one of"):
        pm.precision_score([0, 1, 2], [0, 1, 1, 3], labels=[0, 1], average="bad")


# --------------------------------------------------------------------------- normalize: scikit-learn's meaning


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("normalize", [True, False])
def test_log_loss_normalize_matches_sklearn(seed, weighted, normalize):
    rng = np.random.default_rng(100 + seed)
    m, n = int(rng.integers(2, 6)), int(rng.integers(4, 60))
    y = rng.integers(0, m, n)
    scores = random_probabilities(rng, n, m)
    w = rng.uniform(0, 3, n) if weighted else None
    options = {"labels": np.arange(m), "sample_weight": w, "normalize": normalize}
    np.testing.assert_allclose(
        pm.log_loss(y, scores, **options), skm.log_loss(y, scores, **options), rtol=1e-13, atol=0
    )


def test_log_loss_normalize_false_is_the_sum_of_the_sample_losses():
    y = [0, 1, 1, 0]
    scores = np.array([[0.6, 0.4], [0.35, 0.65], [0.55, 0.45], [0.8, 0.2]])
    losses = -np.log([0.6, 0.65, 0.45, 0.8])
    assert_close(pm.log_loss(y, scores), losses.mean())
    assert_close(pm.log_loss(y, scores, normalize=False), losses.sum())
    weights = np.array([1.0, 2.0, 0.5, 3.0])
    assert_close(pm.log_loss(y, scores, sample_weight=weights, normalize=False), weights @ losses)
    assert_close(pm.log_loss(y, scores, sample_weight=weights), weights @ losses / weights.sum())


def test_log_loss_warns_for_rows_not_summing_to_one_as_sklearn():
    scores = np.array([[3.0, 1.0], [1.0, 1.0], [1.0, 4.0]]) / 5
    with pytest.warns(UserWarning, match="do not sum to one"):
        ours = pm.log_loss([0, 1, 1], scores)
    assert_close(ours, quietly(skm.log_loss, [0, 1, 1], scores))
    with pytest.raises(ValueError, match="normalize must be one of True, False; got 'rows'"):
        pm.log_loss([0, 1, 1], scores, normalize="rows")


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_log_loss_of_low_precision_scores_clips_at_their_epsilon_as_sklearn(dtype):
    scores = np.array([[1.0, 0.0], [0.5, 0.5], [0.25, 0.75]], dtype=dtype)
    y = [1, 0, 1]
    eps = np.finfo(dtype).eps
    # computed in the scores' own precision, as scikit-learn
    expected = -np.log(np.clip(np.array([0.0, 0.5, 0.75], dtype=dtype), eps, 1 - eps)).mean()
    assert_close(pm.log_loss(y, scores), float(expected))
    assert_close(pm.log_loss(y, scores), quietly(skm.log_loss, y, scores))


@pytest.mark.parametrize("scale", [1.0, 1e-300, 1e300])
def test_accuracy_normalize_false_is_the_weighted_number_correct(scale):
    y_true, y_pred, _, w = make_case(3, weighted=True)
    for weights in (None, w * scale):
        np.testing.assert_allclose(
            pm.accuracy_score(y_true, y_pred, sample_weight=weights, normalize=False),
            skm.accuracy_score(y_true, y_pred, sample_weight=weights, normalize=False),
            rtol=1e-13,
        )
    assert pm.accuracy_score([0, 1, 1], [0, 1, 0], normalize=False) == 2.0


# --------------------------------------------------------------------------- weights: relative importance

SCALES = [1e-300, 1e-10, 1e10, 1e300]
weight_scales = st.sampled_from(SCALES) | st.floats(1e-300, 1e300)
weighted_label_rows = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 3), st.just(0.0) | st.floats(0.01, 10.0)),
    min_size=2,
    max_size=40,
).filter(lambda rows: any(w > 0 for *_, w in rows))

SCALE_FREE_METRICS = {
    "mcc": pm.matthews_corrcoef,
    "kappa": functools.partial(pm.cohen_kappa_score, labels=[0, 1, 2, 3], replace_undefined_by=0.0),
    "kappa_quadratic": functools.partial(
        pm.cohen_kappa_score, labels=[0, 1, 2, 3], weights="quadratic", replace_undefined_by=0.0
    ),
    "f1_macro": functools.partial(pm.f1_score, labels=[0, 1, 2, 3], average="macro", zero_division=0.0),
    "f1_weighted": functools.partial(pm.f1_score, labels=[0, 1, 2, 3], average="weighted", zero_division=0.0),
    "balanced_accuracy": pm.balanced_accuracy_score,
    "accuracy": pm.accuracy_score,
}


def label_metric_values(y_true, y_pred, weights):
    return {name: quietly(metric, y_true, y_pred, sample_weight=weights) for name, metric in SCALE_FREE_METRICS.items()}


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(weighted_label_rows, weight_scales)
def test_multiplying_the_weights_by_a_constant_changes_no_metric(rows, scale):
    y_true, y_pred, weights = (np.array(column) for column in zip(*rows))
    reference = label_metric_values(y_true, y_pred, weights)
    scaled = label_metric_values(y_true, y_pred, weights * scale)
    for name, value in reference.items():
        assert abs(scaled[name] - value) <= 1e-12, (name, scaled[name], value)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5)), min_size=2, max_size=40).filter(
        lambda rows: any(w > 0 for *_, w in rows)
    ),
    st.sampled_from([0, -1000, 1000]),
)
def test_integer_weights_equal_repeated_rows_exactly(rows, power_of_two):
    y_true, y_pred, counts = (np.array(column) for column in zip(*rows))
    repeated = label_metric_values(np.repeat(y_true, counts), np.repeat(y_pred, counts), None)
    weighted = label_metric_values(y_true, y_pred, np.ldexp(counts.astype(float), power_of_two))
    assert weighted == repeated  # bit for bit: every metric is a ratio of exact counts


@pytest.mark.parametrize("scale", SCALES)
def test_weighted_counts_keep_their_units_at_any_scale(scale):
    y_true, y_pred, labels, w = make_case(5, weighted=True)
    weights = w * scale
    ours = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights)
    theirs = skm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=weights)
    np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=0)
    support = pm.precision_recall_fscore_support(
        y_true, y_pred, labels=labels, sample_weight=weights, zero_division=0.0
    )[3]
    np.testing.assert_allclose(support, theirs.sum(axis=1), rtol=1e-13, atol=0)
    report = pm.classification_report(
        y_true, y_pred, labels=labels, sample_weight=weights, output_dict=True, zero_division=0.0
    )
    np.testing.assert_allclose(report["macro avg"]["support"], weights.sum(), rtol=1e-13)


def test_power_of_two_weight_scales_give_the_same_counts_bit_for_bit():
    y_true, y_pred, labels, w = make_case(6, weighted=True)
    counts = pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=w)
    for power in (-1000, -3, 7, 1000):
        np.testing.assert_array_equal(
            pm.confusion_matrix(y_true, y_pred, labels=labels, sample_weight=np.ldexp(w, power)),
            np.ldexp(counts, power),
        )
