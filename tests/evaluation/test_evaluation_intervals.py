"""Bootstrap intervals of ``evaluate`` against a per-replicate brute force.

Oracles: the same multiplicities regenerated with ``bootstrap_multiplicities``
and every metric of every replicate recomputed with scikit-learn (weights =
multiplicity x sample weight), a direct pairwise weighted Hand & Till, a direct
Brier formula, ``polyroc.calibration.calibration_error`` for the ECEs, and
``np.nanquantile`` of those values; the text of the previous
release for ``n_boot=0``; scikit-learn's binary ``roc_auc_score`` for the
batched AUC helper (hypothesis).
"""

import dataclasses
import warnings
from itertools import combinations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

from polyroc.calibration import calibration_error
from polyroc.evaluation import evaluate
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.metrics import roc_auc_score
from polyroc.resampling import bootstrap_multiplicities
from tests._oracles.ranking_batches import RankedScores, Rankings, binary_auc, ranking_aucs

TOL = 1e-10
SCORE_NAMES = [
    "accuracy",
    "balanced_accuracy",
    "f1_macro",
    "cohen_kappa",
    "matthews_corrcoef",
    "roc_auc_ovr_macro",
    "roc_auc_ovr_weighted",
    "roc_auc_ovr_micro",
    "roc_auc_ovo_macro",
    "log_loss",
    "brier_score",
    "top_2_accuracy",
    "ece_top_label",
    "ece_classwise",
]


def make_problem(n=60, m=4, *, seed=0, weighted=True):
    """Labels 0..m-1, probability rows on a 1/10 grid (many ties), optional weights.

    Class m-1 is scored low, so it is rarely predicted: some replicates have no
    prediction of it and its precision is 0/0 there.
    """
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.arange(n) % m)
    prior = np.full((n, m), 1.0)
    prior[np.arange(n), y] += 1.5
    prior[:, m - 1] *= 0.3
    scores = np.array([rng.multinomial(10, p / p.sum()) for p in prior]) / 10
    weights = rng.integers(1, 4, n).astype(float) if weighted else None
    if weighted:
        weights[rng.choice(n, 3, replace=False)] = 0.0
    return y, scores, weights


def brute_force_hand_till(y, scores, weights, m):
    """Mean over class pairs of (A(a|b) + A(b|a)) / 2, weighted pair counts, ties 1/2."""

    def directed(a, b):
        pos, neg = scores[y == a, a], scores[y == b, a]
        w_pos, w_neg = weights[y == a], weights[y == b]
        correct = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
        return w_pos @ correct @ w_neg / (w_pos.sum() * w_neg.sum())

    return np.mean([(directed(a, b) + directed(b, a)) / 2 for a, b in combinations(range(m), 2)])


def sklearn_scores(y, scores, weights, m):
    """Every score of ``evaluate`` and the per-class precision/recall/F1, by scikit-learn."""
    labels = np.arange(m)
    pred = scores.argmax(axis=1)
    common = {"sample_weight": weights}
    precision, recall, f1, _ = skm.precision_recall_fscore_support(y, pred, labels=labels, zero_division=0, **common)
    values = {
        "accuracy": skm.accuracy_score(y, pred, **common),
        "balanced_accuracy": skm.balanced_accuracy_score(y, pred, **common),
        "f1_macro": skm.f1_score(y, pred, labels=labels, average="macro", zero_division=0, **common),
        "cohen_kappa": skm.cohen_kappa_score(y, pred, labels=labels, **common),
        "matthews_corrcoef": skm.matthews_corrcoef(y, pred, **common),
        "roc_auc_ovr_macro": skm.roc_auc_score(y, scores, multi_class="ovr", average="macro", **common),
        "roc_auc_ovr_weighted": skm.roc_auc_score(y, scores, multi_class="ovr", average="weighted", **common),
        "roc_auc_ovr_micro": skm.roc_auc_score(label_binarize(y, classes=labels), scores, average="micro", **common),
        "roc_auc_ovo_macro": brute_force_hand_till(y, scores, weights, m),
        "log_loss": skm.log_loss(y, scores, labels=labels, **common),
        "brier_score": np.average(((scores - np.eye(m)[y]) ** 2).sum(axis=1), weights=weights),
        "top_2_accuracy": skm.top_k_accuracy_score(y, scores, k=2, labels=labels, **common),
        "ece_top_label": calibration_error(y, scores, labels=labels, kind="top-label", **common),
        "ece_classwise": calibration_error(y, scores, labels=labels, kind="classwise", **common),
    }
    return values, {"precision": precision, "recall": recall, "f1-score": f1}


@pytest.mark.slow
@pytest.mark.parametrize("weighted", [True, False])
def test_intervals_equal_quantiles_of_sklearn_on_each_replicate(weighted):
    m, n_boot, confidence, seed = 4, 80, 0.9, 7
    y, scores, weights = make_problem(m=m, weighted=weighted)
    result = evaluate(
        y, scores, sample_weight=weights, ci="bootstrap", n_boot=n_boot, confidence=confidence, random_state=seed
    )

    base = np.ones(y.size) if weights is None else weights
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, n_boot, stratify=True, random_state=seed)))
    replicates = [sklearn_scores(y, scores, row * base, m) for row in multiplicities]
    predicted_weight = (multiplicities * base) @ np.eye(m)[scores.argmax(axis=1)]
    assert np.any(predicted_weight[:, m - 1] == 0), "the problem should make some precision 0/0"

    point, point_by_class = sklearn_scores(y, scores, base, m)
    alpha = (1 - confidence) / 2
    assert list(result.intervals) == SCORE_NAMES
    for name in SCORE_NAMES:
        low, high = np.nanquantile([values[name] for values, _ in replicates], [alpha, 1 - alpha])
        interval = result.intervals[name]
        assert (interval.estimate, interval.low, interval.high) == pytest.approx((point[name], low, high), abs=TOL)
        assert interval.estimate == result.scores[name]
        assert (interval.confidence, interval.n_boot, interval.random_state) == (confidence, n_boot, seed)
        assert interval.method == "stratified percentile bootstrap"
        assert interval.settings == {
            "confidence": confidence,
            "n_boot": n_boot,
            "random_state": seed,
            "interval_method": "stratified percentile bootstrap",
        }
    assert list(result.class_intervals) == ["precision", "recall", "f1-score"]
    for name, by_class in result.class_intervals.items():
        values = np.array([per_class[name] for _, per_class in replicates])
        lows, highs = np.nanquantile(values, [alpha, 1 - alpha], axis=0)
        assert list(by_class) == list(range(m))
        for k, interval in by_class.items():
            expected = (point_by_class[name][k], lows[k], highs[k])
            assert (interval.estimate, interval.low, interval.high) == pytest.approx(expected, abs=TOL)


def test_no_bootstrap_gives_empty_intervals_and_the_previous_text():
    y = ["b", "a", "c", "a", "b", "c"]
    P = [[0.2, 0.7, 0.1], [0.6, 0.3, 0.1], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2], [0.5, 0.3, 0.2], [0.3, 0.3, 0.4]]
    result = evaluate(y, P, n_boot=0)
    assert result.intervals == {} and result.class_intervals == {}
    assert result.settings["n_boot"] == 0 and result.settings["interval_methods"] == {}
    assert result.to_text() == PREVIOUS_TEXT  # the output of the release before intervals, and the ECEs
    with_intervals = evaluate(y, P, ci="bootstrap", n_boot=20, random_state=0)
    assert dataclasses.replace(with_intervals, intervals={}, class_intervals={}).to_text() == PREVIOUS_TEXT


def test_text_shows_estimate_and_interval_of_every_score_and_class():
    y, scores, weights = make_problem(seed=3)
    result = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=50, random_state=1)
    text = result.to_text()
    assert "95% CI" in text and "B=50" in text
    for name, interval in result.intervals.items():
        line = next(line for line in text.splitlines() if line.startswith(name + " "))
        bounds = [f"{interval.estimate:.4f}", f"[{interval.low:.4f},", f"{interval.high:.4f}]"]
        assert line.split()[1:] == [*bounds, "stratified", "percentile", "bootstrap,", "B=50"]
    header = next(line for line in text.splitlines() if line.startswith("class "))
    assert header.split() == ["class", "precision", "recall", "f1-score"]
    assert text.endswith(evaluate(y, scores, sample_weight=weights, n_boot=0).to_text().split("Confusion matrix")[1])


def _records(result):
    """The intervals of an evaluation as plain data (intervals compare by identity, as results do)."""
    return (
        {name: ci.to_dict() for name, ci in result.intervals.items()},
        {name: [ci.to_dict() for ci in by_class.values()] for name, by_class in result.class_intervals.items()},
    )


def test_same_seed_same_intervals_and_generator_seed_accepted():
    y, scores, weights = make_problem(seed=4)
    first = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=40, random_state=11)
    second = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=40, random_state=11)
    other = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=40, random_state=12)
    from_generator = evaluate(
        y, scores, sample_weight=weights, ci="bootstrap", n_boot=40, random_state=np.random.default_rng(11)
    )
    assert _records(first) == _records(second)
    assert _records(first) != _records(other)
    low_high = {name: (ci.low, ci.high) for name, ci in first.intervals.items()}
    assert low_high == {name: (ci.low, ci.high) for name, ci in from_generator.intervals.items()}


def test_intervals_contain_the_estimate_in_a_well_behaved_case():
    rng = np.random.default_rng(5)
    y = np.arange(600) % 3
    logits = rng.normal(size=(600, 3)) + 1.5 * np.eye(3)[y]
    P = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    result = evaluate(y, P, ci="bootstrap", n_boot=300, random_state=0)
    for interval in [*result.intervals.values(), *(ci for d in result.class_intervals.values() for ci in d.values())]:
        assert interval.low < interval.estimate < interval.high
        assert interval.high - interval.low < 0.25


def test_string_labels_give_the_intervals_of_their_codes():
    y, scores, weights = make_problem(seed=6)
    names = np.array(["ant", "bee", "cat", "dog"])
    coded = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=30, random_state=2)
    named = evaluate(names[y], scores, sample_weight=weights, ci="bootstrap", n_boot=30, random_state=2)
    assert _records(named)[0] == _records(coded)[0]
    for metric, by_class in named.class_intervals.items():
        assert list(by_class) == names.tolist()
        assert [ci.to_dict() for ci in by_class.values()] == [
            ci.to_dict() for ci in coded.class_intervals[metric].values()
        ]


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"n_boot": -1}, ValueError, r"^n_boot must be an int in \[0, inf\); got -1$"),
        ({"n_boot": 2.5}, TypeError, r"^n_boot must be an int in \[0, inf\); got float 2.5$"),
        ({"n_boot": True}, TypeError, r"^n_boot must be an int in \[0, inf\); got bool True$"),
        ({"confidence": 1.5}, ValueError, r"^confidence must be a real number in \(0, 1\); got 1.5$"),
        ({"confidence": 0}, ValueError, "confidence must be"),
        ({"confidence": "high"}, TypeError, "confidence must be"),
        ({"random_state": "seed"}, TypeError, r"^random_state must be None, an int in \[0, inf\) or a numpy"),
        ({"ci": "exact"}, ValueError, "ci must be one of 'auto', 'analytic', 'bayes', 'bootstrap'"),
        ({"ci": 3}, TypeError, "ci must be a string or a mapping"),
        ({"ci": {"f1_macro": "wilson"}}, ValueError, "'wilson' does not apply to 'f1_macro'; it takes 'bayes'"),
        ({"ci": {"roc_auc": "delong"}}, ValueError, "unknown quantity 'roc_auc'"),
        ({"ci": {"accuracy": "exact"}}, ValueError, "unknown method 'exact'"),
        ({"digits": -1}, ValueError, r"^digits must be an int in \[0, inf\); got -1$"),
        ({"digits": 1.5}, TypeError, r"^digits must be an int in \[0, inf\); got float 1.5$"),
        ({"digits": True}, TypeError, r"^digits must be an int in \[0, inf\); got bool True$"),
        ({"normalize_rows": "yes"}, ValueError, "normalize_rows must be one of True, False"),
        ({"from_logits": "no"}, ValueError, "from_logits must be one of True, False"),
        ({"from_logits": np.array([True, False])}, TypeError, "from_logits must be one of True, False"),
    ],
)
def test_bad_bootstrap_options_raise_before_any_work(options, error, message):
    with pytest.raises(error, match=message):
        evaluate([0, 1], [[0.5, 0.5], [0.2, 0.8]], **options)
    with pytest.raises(error, match=message):  # before the scores are even looked at
        evaluate([0, 1], [[np.nan, 1.0]], **options)


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ([[0.6, 0.6], [0.2, 0.8]], "pass normalize_rows=True to rescale them or from_logits=True for logits"),
        ([[1.2, -0.2], [0.2, 0.8]], r"probabilities are expected \(pass from_logits=True for logits\)"),
    ],
)
def test_scores_off_the_simplex_suggest_the_options_of_evaluate(scores, message):
    with pytest.raises(ValueError, match=message):
        evaluate([0, 1], scores)


def test_batched_aucs_treat_a_class_without_weight_as_roc_auc_score_does():
    y, scores, _ = make_problem(n=40, seed=8)
    rows = np.random.default_rng(0).integers(0, 3, (6, y.size)).astype(float)
    rows[:3, y == 2] = 0.0  # class 2 has no weight in the first three rows
    support = rows @ np.eye(4)[y]
    aucs = ranking_aucs(Rankings.of(y, scores), rows, support)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMetricWarning)
        for (multi_class, average), values in aucs.items():
            expected = [
                roc_auc_score(y, scores, labels=range(4), sample_weight=row, multi_class=multi_class, average=average)
                for row in rows
            ]
            np.testing.assert_allclose(values, expected, rtol=0, atol=1e-12)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.booleans(), min_size=n, max_size=n),
            st.lists(st.integers(0, 4), min_size=n, max_size=n),
            st.lists(st.lists(st.integers(0, 3), min_size=n, max_size=n), min_size=1, max_size=4),
        )
    )
)
def test_batched_binary_auc_equals_sklearn_with_sample_weight(data):
    positive, score, rows = (np.array(a) for a in data)
    rows = rows.astype(float)
    assume(positive.any() and not positive.all())
    assume(np.all(rows[:, positive].sum(axis=1) > 0) and np.all(rows[:, ~positive].sum(axis=1) > 0))
    score = score / 4.0  # five levels: many ties
    ours = binary_auc(RankedScores.sort(score, positive.astype(np.uint8)), rows)
    expected = [skm.roc_auc_score(positive, score, sample_weight=row) for row in rows]
    np.testing.assert_allclose(ours, expected, rtol=0, atol=1e-12)


PREVIOUS_TEXT = """\
Classification report (argmax predictions)

              precision    recall  f1-score   support

           a      0.667     1.000     0.800         2
           b      1.000     0.500     0.667         2
           c      1.000     1.000     1.000         2

    accuracy                          0.833         6
   macro avg      0.889     0.833     0.822         6
weighted avg      0.889     0.833     0.822         6

Scores

accuracy              0.8333
balanced_accuracy     0.8333
f1_macro              0.8222
cohen_kappa           0.7500
matthews_corrcoef     0.7833
roc_auc_ovr_macro     0.8542
roc_auc_ovr_weighted  0.8542
roc_auc_ovr_micro     0.9028
roc_auc_ovo_macro     0.8542
log_loss              0.7358
brier_score           0.4233
top_2_accuracy        1.0000
ece_top_label         0.4667
ece_classwise         0.2556

Confusion matrix (rows: true, columns: predicted)

true\\pred    a  b  c
a            2  0  0
b            1  1  0
c            0  0  2"""


@pytest.mark.parametrize("scale", [1e-300, 1e-10, 1e10, 1e300])
def test_weights_of_any_scale_give_the_same_scores_and_weighted_counts(scale):
    m = 4
    y, scores, weights = make_problem(m=m, seed=3)
    reference = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=20, random_state=1)
    scaled = evaluate(y, scores, sample_weight=weights * scale, ci="bootstrap", n_boot=20, random_state=1)
    expected, _ = sklearn_scores(y, scores, weights, m)
    for name in SCORE_NAMES:
        assert scaled.scores[name] == pytest.approx(expected[name], abs=1e-12), name
        interval, unscaled = scaled.intervals[name], reference.intervals[name]
        assert (interval.low, interval.high) == pytest.approx((unscaled.low, unscaled.high), abs=1e-12), name
    np.testing.assert_allclose(
        scaled.confusion_matrix,
        skm.confusion_matrix(y, scores.argmax(axis=1), labels=np.arange(m), sample_weight=weights * scale),
        rtol=1e-13,
        atol=0,
    )
    assert scaled.report["weighted avg"]["support"] == pytest.approx((weights * scale).sum(), rel=1e-13)


def test_bootstrap_evaluation_has_1000_replicates_and_records_its_settings():
    y, scores, _ = make_problem(n=40, m=3, seed=9, weighted=False)
    result = evaluate(y, scores, ci="bootstrap", random_state=3)
    assert {name: ci.n_boot for name, ci in result.intervals.items()} == dict.fromkeys(SCORE_NAMES, 1000)
    assert result.settings == {
        "n_boot": 1000,
        "confidence": 0.95,
        "random_state": 3,
        "ci": "bootstrap",
        "interval_methods": dict.fromkeys(SCORE_NAMES, "stratified percentile bootstrap"),
        "normalize_rows": False,
        "from_logits": False,
    }
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.scores = {}


def test_frames_hold_the_sklearn_scores_and_the_intervals():
    m = 4
    y, scores, weights = make_problem(m=m, seed=10)
    result = evaluate(y, scores, sample_weight=weights, ci="bootstrap", n_boot=30, confidence=0.8, random_state=4)
    expected, by_class = sklearn_scores(y, scores, weights, m)
    frame = result.to_frame()
    assert frame["score"].tolist() == SCORE_NAMES
    np.testing.assert_allclose(frame["estimate"], [expected[name] for name in SCORE_NAMES], rtol=0, atol=1e-12)
    assert frame["low"].tolist() == [result.intervals[name].low for name in SCORE_NAMES]
    assert frame["high"].tolist() == [result.intervals[name].high for name in SCORE_NAMES]
    assert set(frame["method"]) == {"stratified percentile bootstrap"}
    classes = result.to_frame(per_class=True)
    assert classes["class"].tolist() == list(range(m))
    np.testing.assert_allclose(classes["support"], [weights[y == k].sum() for k in range(m)], rtol=1e-12)
    for name in ("precision", "recall", "f1-score"):
        np.testing.assert_allclose(classes[name], by_class[name], rtol=0, atol=1e-12)
        assert classes[f"{name}_low"].tolist() == [result.class_intervals[name][k].low for k in range(m)]
    without = evaluate(y, scores, sample_weight=weights, n_boot=0).to_frame(per_class=True)
    assert without["recall_low"].isna().all() and without["recall_high"].isna().all()


def test_to_dict_is_strict_json_with_every_interval():
    import json

    y = ["b", "a", "c", "a", "b", "c"]
    P = [[0.2, 0.7, 0.1], [0.6, 0.3, 0.1], [0.1, 0.3, 0.6], [0.4, 0.4, 0.2], [0.5, 0.3, 0.2], [0.3, 0.3, 0.4]]
    document = json.loads(
        json.dumps(evaluate(y, P, ci="bootstrap", n_boot=20, random_state=0).to_dict(), allow_nan=False)
    )
    assert document["type"] == "Evaluation" and document["classes"] == ["a", "b", "c"]
    assert document["confusion_matrix"] == [[2, 0, 0], [1, 1, 0], [0, 0, 2]]
    assert document["scores"]["accuracy"] == pytest.approx(5 / 6)
    accuracy = document["intervals"]["accuracy"]
    assert accuracy["type"] == "ConfidenceInterval" and accuracy["settings"]["n_boot"] == 20
    assert accuracy["low"] <= 5 / 6 <= accuracy["high"]
    assert set(document["class_intervals"]["recall"]) == {"a", "b", "c"}
    assert document["settings"]["random_state"] == 0
    html = evaluate(y, P, n_boot=0)._repr_html_()
    assert html.startswith("<div class='polyroc-result'><strong>Evaluation</strong>") and "<th>accuracy</th>" in html


def test_auto_intervals_are_wilson_delong_posterior_and_t_by_kind():
    """Proportions against scipy's Wilson interval, AUCs against roc_auc_interval, losses against the t formula."""
    from scipy.stats import binomtest
    from scipy.stats import t as student_t

    from polyroc.intervals import roc_auc_interval

    y, scores, _ = make_problem(n=90, m=3, seed=21, weighted=False)
    result = evaluate(y, scores, random_state=0)
    predicted = scores.argmax(axis=1)
    expected = binomtest(int(np.sum(predicted == y)), y.size).proportion_ci(method="wilson")
    accuracy = result.intervals["accuracy"]
    assert (accuracy.low, accuracy.high) == pytest.approx((expected.low, expected.high), abs=1e-12)
    for k, interval in result.class_intervals["recall"].items():
        rows = y == k
        expected = binomtest(int(np.sum(predicted[rows] == k)), int(rows.sum())).proportion_ci(method="wilson")
        assert (interval.low, interval.high) == pytest.approx((expected.low, expected.high), abs=1e-12)
    for name, multi_class, average in (("roc_auc_ovo_macro", "ovo", "macro"), ("roc_auc_ovr_micro", "ovr", "micro")):
        reference = roc_auc_interval(y, scores, multi_class=multi_class, average=average)
        interval = result.intervals[name]
        assert (interval.low, interval.high) == pytest.approx((reference.low, reference.high), abs=1e-12)
    # log loss: Student t with n - m degrees of freedom on the stratified variance of the per-row losses
    losses = -np.log(np.clip(scores[np.arange(y.size), y], np.finfo(float).eps, 1))
    variance = sum(np.var(losses[y == k], ddof=1) * np.sum(y == k) for k in range(3)) / y.size**2
    half = student_t.ppf(0.975, y.size - 3) * np.sqrt(variance)
    log_loss = result.intervals["log_loss"]
    assert (log_loss.low, log_loss.high) == pytest.approx((losses.mean() - half, losses.mean() + half), abs=1e-12)
    for name in ("f1_macro", "cohen_kappa", "matthews_corrcoef", "balanced_accuracy"):
        interval = result.intervals[name]
        assert interval.low < interval.estimate < interval.high and interval.method.startswith("Dirichlet posterior")
