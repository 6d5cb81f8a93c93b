"""``polyroc.metrics`` is a drop-in for ``sklearn.metrics``.

Every scikit-learn function of polyroc.metrics runs from both libraries on the
same seeded inputs (ties, integer and string labels, binary and multiclass,
sample weights with zeros, absent classes through ``labels``, one class only,
every ``average`` and ``multi_class`` option, ``normalize``, ``k``,
``pos_label``). The oracle is scikit-learn itself: results agree to 1e-12
(arrays elementwise, report dicts key by key, report text exactly), each
warning category scikit-learn emits is matched by a polyroc warning of that
category (or a subclass: a filter written for scikit-learn's warning catches
polyroc's), and bad inputs raise the same exception types.

Deliberate departures, left out of the comparison: ``roc_auc_score`` with
``multi_class="ovo"`` and ``sample_weight`` (scikit-learn raises, polyroc
computes), and negative or all-zero sample weights (polyroc refuses them).
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from scipy import sparse
from sklearn.exceptions import UndefinedMetricWarning as SkUndefinedMetricWarning

from polyroc import metrics as pm
from polyroc.exceptions import UndefinedMetricWarning

TOL = 1e-12
IGNORED_WARNINGS = (DeprecationWarning, PendingDeprecationWarning, RuntimeWarning)

FUNCTIONS = [
    "accuracy_score",
    "balanced_accuracy_score",
    "precision_score",
    "recall_score",
    "f1_score",
    "fbeta_score",
    "precision_recall_fscore_support",
    "classification_report",
    "confusion_matrix",
    "cohen_kappa_score",
    "matthews_corrcoef",
    "log_loss",
    "brier_score_loss",
    "top_k_accuracy_score",
    "roc_auc_score",
    "average_precision_score",
    "roc_curve",
    "precision_recall_curve",
    "det_curve",
]


# --------------------------------------------------------------------------- comparison machinery


class Outcome:
    """What one call gave: a value or an exception, and the warning categories."""

    def __init__(self, function, args, kwargs):
        self.value, self.error = None, None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                self.value = function(*args, **kwargs)
            except Exception as error:
                self.error = error
        self.categories = {w.category for w in caught if not issubclass(w.category, IGNORED_WARNINGS)}


def assert_same_value(ours, theirs, where="value"):
    if isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), where
        for key in theirs:
            assert_same_value(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, str):
        assert ours == theirs, f"{where}:\n{ours}\n!=\n{theirs}"
    elif isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same_value(a, b, f"{where}[{i}]")
    elif theirs is None:
        assert ours is None, where
    else:
        kinds = {"b": "bool", "i": "integer", "u": "integer", "f": "float"}
        kind_ours, kind_theirs = (kinds.get(np.asarray(v).dtype.kind) for v in (ours, theirs))
        assert kind_ours == kind_theirs, f"{where}: {kind_ours} values, scikit-learn gives {kind_theirs}"
        a, b = np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float)
        assert a.shape == b.shape, f"{where}: shape {a.shape} != {b.shape}"
        np.testing.assert_allclose(a, b, rtol=0, atol=TOL, equal_nan=True, err_msg=where)


def assert_same_warnings(ours, theirs, where):
    for category in theirs:
        assert any(issubclass(mine, category) for mine in ours), f"{where}: no {category.__name__} from polyroc"
    for mine in ours:
        assert any(issubclass(mine, category) for category in theirs), f"{where}: extra {mine.__name__}"


def assert_same_error(ours, theirs, where):
    assert ours is not None, f"{where}: scikit-learn raised {theirs!r}, polyroc did not"
    expected = tuple(base for base in (ValueError, TypeError, NotImplementedError) if isinstance(theirs, base))
    assert isinstance(ours, expected or type(theirs)), f"{where}: {ours!r} is not a {expected}"


def compare(name, *args, **kwargs):
    """Run ``name`` from both libraries and assert the same result, warnings and exception type."""
    where = f"{name}({', '.join(map(_short, args))}, {kwargs})"
    theirs = Outcome(getattr(skm, name), args, kwargs)
    ours = Outcome(getattr(pm, name), args, kwargs)
    if theirs.error is not None:
        assert_same_error(ours.error, theirs.error, where)
        return
    assert ours.error is None, f"{where}: polyroc raised {ours.error!r}"
    assert_same_value(ours.value, theirs.value, where)
    assert_same_warnings(ours.categories, theirs.categories, where)


def _short(value):
    text = repr(value)
    return text if len(text) < 40 else text[:37] + "..."


# --------------------------------------------------------------------------- inputs

CLASS_NAMES = np.array(["ant", "bee", "cat", "dog", "eel"])


def labels_case(seed, n_classes, *, strings=False, weights=None, n=40):
    """Seeded true and predicted labels; ``weights``: None, "positive" or "zeros" (some weights 0)."""
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, n_classes, n)
    y_true[:n_classes] = np.arange(n_classes)
    y_pred = np.where(rng.random(n) < 0.55, y_true, rng.integers(0, n_classes, n))
    sample_weight = None
    if weights is not None:
        sample_weight = rng.uniform(0.2, 3.0, n)
        if weights == "zeros":
            sample_weight[rng.random(n) < 0.25] = 0.0
    if strings:
        return CLASS_NAMES[y_true], CLASS_NAMES[y_pred], sample_weight
    return y_true, y_pred, sample_weight


def tied_probabilities(seed, n_classes, n=40, *, votes=6):
    """Labels and k-NN-like probabilities (multiples of 1/votes: many ties; rows sum to 1)."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)
    centre = np.full((n, n_classes), 0.6) + 2.0 * np.eye(n_classes)[y]
    shares = np.array([rng.multinomial(votes, row / row.sum()) for row in centre]) / votes
    return y, shares


def binary_scores(seed, n=40, *, tied=True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    score = rng.normal(size=n) + y
    return y, np.round(score, 1) if tied else score


LABEL_CASES = {
    "binary-int": {"seed": 1, "n_classes": 2},
    "binary-str": {"seed": 2, "n_classes": 2, "strings": True},
    "binary-weights-zeros": {"seed": 3, "n_classes": 2, "weights": "zeros"},
    "multiclass-int": {"seed": 4, "n_classes": 4},
    "multiclass-str-weights": {"seed": 5, "n_classes": 3, "strings": True, "weights": "positive"},
    "multiclass-weights-zeros": {"seed": 6, "n_classes": 5, "weights": "zeros"},
}

AVERAGES = [None, "micro", "macro", "weighted", "binary"]
ZERO_DIVISIONS = ["warn", 0.0, 1.0, np.nan]


def labels_options(case):
    """``labels=`` variants: default, a superset with an absent class, a subset (reordered)."""
    y_true, y_pred, _ = labels_case(**LABEL_CASES[case])
    present = np.unique(np.concatenate([y_true, y_pred]))
    absent = "zebra" if present.dtype.kind == "U" else 9
    return [None, np.append(present[::-1], absent), present[[1, 0]]]


def positive_label(case):
    y_true, _, _ = labels_case(**LABEL_CASES[case])
    return np.unique(y_true)[-1].item()


# --------------------------------------------------------------------------- signatures


@pytest.mark.parametrize("name", FUNCTIONS)
def test_signature_is_sklearns(name):
    ours = inspect.signature(getattr(pm, name)).parameters
    theirs = inspect.signature(getattr(skm, name)).parameters
    assert list(ours) == list(theirs)
    for parameter, expected in theirs.items():
        actual = ours[parameter]
        assert actual.kind == expected.kind, parameter
        if isinstance(expected.default, float) and np.isnan(expected.default):
            assert np.isnan(actual.default), parameter
        else:
            assert actual.default == expected.default, parameter


def test_warning_category_subclasses_sklearns():
    assert issubclass(UndefinedMetricWarning, SkUndefinedMetricWarning)


# --------------------------------------------------------------------------- label metrics


@pytest.mark.slow
@pytest.mark.parametrize("case", LABEL_CASES)
@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_precision_recall_f_family(case, average, zero_division):
    y_true, y_pred, weights = labels_case(**LABEL_CASES[case])
    pos_label = positive_label(case)
    for labels in labels_options(case):
        options = {
            "labels": labels,
            "average": average,
            "sample_weight": weights,
            "zero_division": zero_division,
            "pos_label": pos_label,
        }
        for name in ("precision_score", "recall_score", "f1_score"):
            compare(name, y_true, y_pred, **options)
        compare("fbeta_score", y_true, y_pred, beta=0.5, **options)
        compare("precision_recall_fscore_support", y_true, y_pred, beta=2.0, **options)


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 3.0, np.inf])
@pytest.mark.parametrize("warn_for", [("precision", "recall", "f-score"), ("f-score",), ()])
def test_precision_recall_fscore_support_beta_and_warn_for(beta, warn_for):
    y_true, y_pred, weights = labels_case(7, 4, weights="zeros")
    y_pred = np.where(y_pred == 3, 0, y_pred)  # class 3 is never predicted: precision 0/0
    for labels in (None, [0, 1, 2, 3, 8]):
        for average in (None, "macro", "weighted", "micro"):
            compare(
                "precision_recall_fscore_support",
                y_true,
                y_pred,
                beta=beta,
                labels=labels,
                average=average,
                warn_for=warn_for,
                sample_weight=weights,
            )


def test_pos_label_choices_on_binary_targets():
    y_true, y_pred, weights = labels_case(8, 2)
    for pos_label in (0, 1):
        for name in ("precision_score", "recall_score", "f1_score"):
            compare(name, y_true, y_pred, pos_label=pos_label, sample_weight=weights)
    for average in ("macro", "micro"):
        compare("precision_score", y_true, y_pred, pos_label=0, average=average)  # ignored, UserWarning
    strings = np.array(["neg", "pos"])
    compare("f1_score", strings[y_true], strings[y_pred], pos_label="pos")
    compare("f1_score", strings[y_true], strings[y_pred])  # pos_label=1 is no label: ValueError


@pytest.mark.parametrize("labels", [[0], [1], None])
def test_one_class_only(labels):
    y = np.zeros(6, dtype=int)
    for name in ("precision_score", "recall_score", "f1_score"):
        compare(name, y, y)
        compare(name, y, y, labels=labels, average="macro")
    compare("precision_recall_fscore_support", y, y, labels=labels)
    compare("accuracy_score", y, y)
    compare("balanced_accuracy_score", y, y)
    compare("balanced_accuracy_score", y, y, adjusted=True)
    compare("matthews_corrcoef", y, y)
    compare("cohen_kappa_score", y, y, labels=labels)
    compare("confusion_matrix", y, y, labels=labels)
    compare("classification_report", y, y, labels=labels)
    compare("classification_report", y, y, labels=labels, output_dict=True)


@pytest.mark.parametrize("case", LABEL_CASES)
def test_confusion_matrix(case):
    y_true, y_pred, weights = labels_case(**LABEL_CASES[case])
    for labels in labels_options(case):
        for normalize in (None, "true", "pred", "all"):
            compare("confusion_matrix", y_true, y_pred, labels=labels, normalize=normalize)
            compare("confusion_matrix", y_true, y_pred, labels=labels, sample_weight=weights, normalize=normalize)
    compare("confusion_matrix", y_true, y_pred, sample_weight=np.arange(len(y_true)))  # integer weights


@pytest.mark.parametrize("case", LABEL_CASES)
def test_accuracy_balanced_accuracy_mcc(case):
    y_true, y_pred, weights = labels_case(**LABEL_CASES[case])
    for normalize in (True, False):
        compare("accuracy_score", y_true, y_pred, normalize=normalize)
        compare("accuracy_score", y_true, y_pred, normalize=normalize, sample_weight=weights)
    for adjusted in (False, True):
        compare("balanced_accuracy_score", y_true, y_pred, adjusted=adjusted, sample_weight=weights)
        compare("balanced_accuracy_score", y_true, y_pred[::-1], adjusted=adjusted)
    compare("matthews_corrcoef", y_true, y_pred, sample_weight=weights)
    compare("matthews_corrcoef", y_true, np.full_like(y_pred, y_pred[0]))  # undefined: 0


@pytest.mark.parametrize("case", LABEL_CASES)
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_cohen_kappa(case, weights):
    y_true, y_pred, sample_weight = labels_case(**LABEL_CASES[case])
    for labels in labels_options(case):
        compare("cohen_kappa_score", y_true, y_pred, labels=labels, weights=weights, sample_weight=sample_weight)
    constant = np.full_like(y_true, y_true[0])
    for replace in (np.nan, 0.0, -1.0):
        compare("cohen_kappa_score", constant, constant, replace_undefined_by=replace)


@pytest.mark.slow
@pytest.mark.parametrize("case", LABEL_CASES)
@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_classification_report(case, zero_division):
    y_true, y_pred, weights = labels_case(**LABEL_CASES[case])
    for labels, digits in zip(labels_options(case), (2, 5, 3)):
        options = {"labels": labels, "sample_weight": weights, "zero_division": zero_division}
        compare("classification_report", y_true, y_pred, digits=digits, **options)
        compare("classification_report", y_true, y_pred, output_dict=True, **options)
    names = [f"class number {k}" for k in range(np.unique(np.concatenate([y_true, y_pred])).size)]
    compare("classification_report", y_true, y_pred, target_names=names)
    compare("classification_report", y_true, y_pred, target_names=names[:-1])  # ValueError
    compare("classification_report", y_true, y_pred, labels=labels_options(case)[1], target_names=names)


# --------------------------------------------------------------------------- probabilities


@pytest.mark.parametrize("n_classes", [2, 3, 5])
@pytest.mark.parametrize("weights", [None, "zeros"])
def test_log_loss_and_brier(n_classes, weights):
    y, P = tied_probabilities(10 + n_classes, n_classes)
    rng = np.random.default_rng(n_classes)
    sample_weight = None if weights is None else np.where(rng.random(y.size) < 0.2, 0.0, rng.uniform(0.5, 2, y.size))
    for normalize in (True, False):
        compare("log_loss", y, P, normalize=normalize, sample_weight=sample_weight)
    compare("brier_score_loss", y, P, sample_weight=sample_weight)
    for scale_by_half in (True, False, "auto"):
        compare("brier_score_loss", y, P, sample_weight=sample_weight, scale_by_half=scale_by_half)
    names = CLASS_NAMES[:n_classes]
    compare("log_loss", names[y], P)
    # an absent class through labels: one more column
    wider = np.column_stack([P * 0.9, np.full(y.size, 0.1)])
    compare("log_loss", y, wider, labels=np.arange(n_classes + 1))
    compare("brier_score_loss", y, wider, labels=np.arange(n_classes + 1))
    compare("log_loss", y, wider)  # column count differs: ValueError
    compare("log_loss", y, P * 1.01)  # rows do not sum to 1: UserWarning
    compare("log_loss", y, y_pred=P)  # deprecated name: FutureWarning


def test_binary_probability_forms():
    y, score = binary_scores(20, tied=False)
    proba = 1 / (1 + np.exp(-score))
    for pos_label in (None, 0, 1):
        compare("brier_score_loss", y, proba, pos_label=pos_label)
    strings = np.array(["neg", "pos"])[y]
    compare("brier_score_loss", strings, proba, pos_label="pos")
    compare("brier_score_loss", strings, proba)  # strings without pos_label: ValueError
    compare("brier_score_loss", y + 3, proba)  # {3, 4}: the greater label is positive
    compare("log_loss", y, proba)
    compare("log_loss", y, proba[:, None])
    compare("log_loss", np.zeros(5, int), np.full(5, 0.3))  # one class: ValueError
    compare("log_loss", np.zeros(5, int), np.full(5, 0.3), labels=[0, 1])


@pytest.mark.parametrize("n_classes", [3, 4])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_top_k_accuracy(n_classes, k):
    y, P = tied_probabilities(30 + n_classes, n_classes)
    rng = np.random.default_rng(k)
    weights = np.where(rng.random(y.size) < 0.2, 0.0, 1.5)
    for normalize in (True, False):
        compare("top_k_accuracy_score", y, P, k=k, normalize=normalize)
        compare("top_k_accuracy_score", y, P, k=k, normalize=normalize, sample_weight=weights)
    compare("top_k_accuracy_score", CLASS_NAMES[y], P, k=k)
    wider = np.column_stack([P, np.zeros(y.size)])
    compare("top_k_accuracy_score", y, wider, k=k, labels=np.arange(n_classes + 1))


def test_top_k_accuracy_binary():
    y, score = binary_scores(40)
    for k in (1, 2):
        compare("top_k_accuracy_score", y, score, k=k)
        compare("top_k_accuracy_score", y, 1 / (1 + np.exp(-score)), k=k)


# --------------------------------------------------------------------------- ranking


@pytest.mark.parametrize("seed", [50, 51, 52])
@pytest.mark.parametrize("weights", [None, "zeros"])
def test_binary_curves_and_areas(seed, weights):
    y, score = binary_scores(seed)
    rng = np.random.default_rng(seed)
    sample_weight = None if weights is None else np.where(rng.random(y.size) < 0.2, 0.0, rng.uniform(0.5, 2, y.size))
    for drop_intermediate in (True, False):
        for name in ("roc_curve", "precision_recall_curve"):
            compare(name, y, score, sample_weight=sample_weight, drop_intermediate=drop_intermediate)
        compare("det_curve", y, score, sample_weight=sample_weight, drop_intermediate=drop_intermediate)
    for max_fpr in (None, 0.3, 1.0):
        compare("roc_auc_score", y, score, sample_weight=sample_weight, max_fpr=max_fpr)
    compare("average_precision_score", y, score, sample_weight=sample_weight)
    compare("average_precision_score", y, -score, pos_label=0, sample_weight=sample_weight)
    strings = np.array(["neg", "pos"])[y]
    for name in ("roc_curve", "precision_recall_curve", "det_curve"):
        compare(name, strings, score, pos_label="pos", sample_weight=sample_weight)
        compare(name, y + 1, score, pos_label=2)
        compare(name, strings, score)  # strings need pos_label: ValueError
    compare("roc_auc_score", strings, score)
    compare("average_precision_score", strings, score, pos_label="pos")


def test_binary_curves_with_one_class():
    y = np.ones(6, dtype=int)
    score = np.array([0.1, 0.4, 0.4, 0.5, 0.9, 0.9])
    compare("roc_curve", y, score)
    compare("roc_curve", 1 - y, score)
    compare("precision_recall_curve", 1 - y, score)
    compare("det_curve", y, score)
    compare("roc_auc_score", y, score)
    compare("average_precision_score", y, score)
    compare("average_precision_score", 1 - y, score)
    # two labels, but zero weights leave one class: NaN rates, and a partial AUC without two points
    labels, weights = np.array([0, 0, 1, 1, 1, 1]), np.array([0.0, 0.0, 1.0, 2.0, 1.0, 1.0])
    for max_fpr in (None, 0.5):
        compare("roc_auc_score", labels, score, sample_weight=weights, max_fpr=max_fpr)
        compare("roc_auc_score", 1 - labels, score, sample_weight=weights, max_fpr=max_fpr)


@pytest.mark.parametrize("n_classes", [3, 4])
@pytest.mark.parametrize("weights", [None, "zeros"])
def test_multiclass_roc_auc(n_classes, weights):
    y, P = tied_probabilities(60 + n_classes, n_classes)
    rng = np.random.default_rng(n_classes)
    sample_weight = None if weights is None else np.where(rng.random(y.size) < 0.2, 0.0, rng.uniform(0.5, 2, y.size))
    for average in ("micro", "macro", "weighted", None):
        compare("roc_auc_score", y, P, multi_class="ovr", average=average, sample_weight=sample_weight)
        if sample_weight is None:  # scikit-learn refuses weights one-vs-one; polyroc accepts them
            compare("roc_auc_score", y, P, multi_class="ovo", average=average)
    compare("roc_auc_score", CLASS_NAMES[y], P, multi_class="ovr", labels=CLASS_NAMES[:n_classes])
    wider = np.column_stack([P * 0.9, np.full(y.size, 0.1)])
    for average in ("macro", "weighted", None):  # an absent class: NaN and a warning
        compare("roc_auc_score", y, wider, multi_class="ovr", average=average, labels=np.arange(n_classes + 1))
    for average in ("macro", "weighted"):
        compare("roc_auc_score", y, wider, multi_class="ovo", average=average, labels=np.arange(n_classes + 1))


def test_ovo_with_weights_is_the_weighted_hand_till_measure():
    """The extension: integer weights give the AUC of the repeated rows (scikit-learn, unweighted)."""
    y, P = tied_probabilities(70, 3)
    repeats = np.arange(y.size) % 3 + 1
    for average in ("macro", "weighted"):
        ours = pm.roc_auc_score(y, P, multi_class="ovo", average=average, sample_weight=repeats)
        theirs = skm.roc_auc_score(
            np.repeat(y, repeats), np.repeat(P, repeats, axis=0), multi_class="ovo", average=average
        )
        assert abs(ours - theirs) <= TOL


@pytest.mark.parametrize("n_classes", [3, 4])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "samples", None])
def test_multiclass_average_precision(n_classes, average):
    y, P = tied_probabilities(80 + n_classes, n_classes)
    weights = np.where(np.arange(y.size) % 5 == 0, 0.0, 1.0 + np.arange(y.size) % 3)
    compare("average_precision_score", y, P, average=average)
    compare("average_precision_score", y, P, average=average, sample_weight=weights)
    compare("average_precision_score", CLASS_NAMES[y], P, average=average)


def test_multilabel_input_is_handed_to_sklearn():
    rng = np.random.default_rng(90)
    y_true, y_pred = rng.integers(0, 2, (20, 3)), rng.integers(0, 2, (20, 3))
    scores = rng.random((20, 3))
    compare("accuracy_score", y_true, y_pred)
    compare("f1_score", y_true, y_pred, average="samples")
    compare("classification_report", y_true, y_pred, zero_division=0.0)
    compare("roc_auc_score", y_true, scores)
    compare("average_precision_score", y_true, scores)


# --------------------------------------------------------------------------- bad inputs

Y3, P3 = tied_probabilities(99, 3, n=12)
YB, SB = binary_scores(98, n=12)
NAN_SCORES = np.where(np.arange(12) == 4, np.nan, SB)
NAN_P3 = np.where(np.arange(12)[:, None] == 4, np.nan, P3)

BAD_CALLS = [
    ("accuracy_score", (Y3, Y3[:-1]), {}),
    ("confusion_matrix", (Y3, Y3[:-1]), {}),
    ("f1_score", (YB, YB[:-1]), {}),
    ("cohen_kappa_score", (Y3, Y3[:-1]), {}),
    ("matthews_corrcoef", (Y3, Y3[:-1]), {}),
    ("roc_curve", (YB, SB[:-1]), {}),
    ("log_loss", (Y3, P3[:-1]), {}),
    ("top_k_accuracy_score", (Y3, P3[:-1]), {}),
    ("f1_score", (Y3, Y3), {"average": "mean"}),
    ("precision_recall_fscore_support", (Y3, Y3), {"average": "mean"}),
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovr", "average": "mean"}),
    ("average_precision_score", (Y3, P3), {"average": "mean"}),
    ("precision_score", (Y3, Y3), {}),  # multiclass with average="binary"
    ("recall_score", (Y3, Y3), {"average": "binary"}),
    ("f1_score", (YB, YB), {"pos_label": 2}),
    ("average_precision_score", (YB, SB), {"pos_label": 2}),
    ("average_precision_score", (Y3, P3), {"pos_label": 2}),
    ("roc_auc_score", (YB, NAN_SCORES), {}),
    ("roc_curve", (YB, NAN_SCORES), {}),
    ("precision_recall_curve", (YB, NAN_SCORES), {}),
    ("average_precision_score", (YB, NAN_SCORES), {}),
    ("roc_auc_score", (Y3, NAN_P3), {"multi_class": "ovr"}),
    ("log_loss", (Y3, NAN_P3), {}),
    ("top_k_accuracy_score", (Y3, NAN_P3), {}),
    ("brier_score_loss", (YB, NAN_SCORES), {}),
    ("accuracy_score", (SB, SB), {}),  # continuous targets
    ("roc_auc_score", (Y3, P3), {}),  # multi_class="raise"
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovr", "max_fpr": 0.5}),
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovo", "average": None}),
    ("roc_auc_score", (Y3, P3 * 2), {"multi_class": "ovr"}),
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovr", "labels": [2, 1, 0]}),
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovr", "labels": [0, 1, 1]}),
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovr", "labels": [0, 1]}),
    ("roc_auc_score", (Y3, P3), {"multi_class": "ovo", "sample_weight": np.ones(12), "average": "mean"}),
    ("roc_auc_score", (YB, SB), {"max_fpr": 0.0}),
    ("roc_auc_score", (YB, np.column_stack([1 - SB, SB])), {}),
    ("roc_curve", (Y3, P3[:, 0]), {}),  # multiclass without pos_label
    ("det_curve", (Y3, P3[:, 0]), {}),
    ("top_k_accuracy_score", (Y3, P3), {"k": 1.5}),
    ("top_k_accuracy_score", (Y3, P3[:, :2]), {}),
    ("top_k_accuracy_score", (Y3, P3), {"labels": [0, 2, 1]}),
    ("log_loss", (Y3, P3 * 3), {}),  # values above 1
    ("log_loss", (Y3, P3), {"labels": [0, 1]}),
    ("brier_score_loss", (Y3, SB), {}),  # 1-D probabilities of a multiclass target
    ("brier_score_loss", (YB, SB * 3), {}),
    ("confusion_matrix", (Y3, Y3), {"labels": [7, 8]}),
    ("confusion_matrix", (Y3, Y3), {"labels": []}),
    ("confusion_matrix", (Y3, Y3), {"normalize": "rows"}),
    ("cohen_kappa_score", (Y3, Y3), {"weights": "cubic"}),
    ("cohen_kappa_score", (Y3, Y3), {"labels": [7, 8]}),
    ("classification_report", (Y3, Y3), {"digits": -1}),
    ("precision_recall_fscore_support", (Y3, Y3), {"beta": -1.0}),
    ("f1_score", (Y3, Y3), {"average": "macro", "zero_division": "always"}),
    ("accuracy_score", (np.array([0, 1, 2]), np.array(["a", "b", "c"])), {}),
    ("accuracy_score", (np.zeros(0), np.zeros(0)), {}),
    ("f1_score", (YB[:3], YB[:3]), {"sample_weight": np.array([1 + 2j, 3 + 4j, 5 + 7j])}),
    ("confusion_matrix", (Y3[:3], Y3[:3]), {"sample_weight": np.array([1j, 1j, 1j])}),
    ("accuracy_score", (np.array([[], [1, 2]], dtype=object),) * 2, {}),  # a sequence of sequences
    ("precision_score", (np.array([[0], [1, 2]], dtype=object),) * 2, {"average": "macro"}),
    ("accuracy_score", (sparse.csr_matrix(Y3[:, None]), Y3), {}),  # sparse, not multilabel
]


@pytest.mark.parametrize(("name", "args", "kwargs"), BAD_CALLS, ids=lambda v: v if isinstance(v, str) else "")
def test_bad_input_raises_the_same_exception_type(name, args, kwargs):
    theirs = Outcome(getattr(skm, name), args, kwargs)
    if name == "roc_auc_score" and kwargs.get("multi_class") == "ovo" and "sample_weight" in kwargs:
        assert theirs.error is not None  # average="mean" is refused before the weights
    assert theirs.error is not None, f"scikit-learn accepted {name}{args, kwargs}"
    ours = Outcome(getattr(pm, name), args, kwargs)
    assert_same_error(ours.error, theirs.error, name)


def test_ovo_weights_are_the_one_deliberate_extension():
    with pytest.raises(ValueError, match="sample_weight"):
        skm.roc_auc_score(Y3, P3, multi_class="ovo", sample_weight=np.ones(12))
    assert np.isfinite(pm.roc_auc_score(Y3, P3, multi_class="ovo", sample_weight=np.ones(12)))


# --------------------------------------------------------------------------- findings of scikit-learn's own tests


def undefined_metric_messages(function, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function(*args, **kwargs)
    return sorted({str(w.message) for w in caught if issubclass(w.category, SkUndefinedMetricWarning)})


ZERO_DIVISION_CALLS = [
    ("precision_recall_fscore_support", ([0, 1, 2], [1, 1, 2]), {"average": None}),
    ("precision_recall_fscore_support", ([1, 1, 2], [0, 1, 2]), {"average": "macro"}),
    ("precision_recall_fscore_support", ([0, 0, 1], [0, 0, 1]), {"labels": [2], "average": "micro"}),
    ("precision_score", ([1, 1], [0, 0]), {}),
    ("recall_score", ([0, 0], [1, 1]), {}),
    ("f1_score", ([0, 0], [0, 0]), {}),
    ("fbeta_score", ([0, 1, 2], [0, 1, 1]), {"beta": 2.0, "labels": [2, 3], "average": "weighted"}),
    ("classification_report", (["a", "b", "c"], ["a", "b", "d"]), {"output_dict": True}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), ZERO_DIVISION_CALLS, ids=lambda v: v if isinstance(v, str) else "")
def test_zero_division_warnings_have_sklearn_wording(name, args, kwargs):
    """The same UndefinedMetricWarning messages, "Use `zero_division` parameter to control this behavior." included."""
    theirs = undefined_metric_messages(getattr(skm, name), *args, **kwargs)
    assert theirs, "the case must make scikit-learn warn"
    assert undefined_metric_messages(getattr(pm, name), *args, **kwargs) == theirs


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32, np.uint32])
@pytest.mark.parametrize("size", [2**31 - 1, 2**53 + 1, 2**62 + 3, 2**63 - 1])
def test_confusion_matrix_sums_large_integer_weights_exactly(dtype, size):
    """As scikit-learn: integer weights add up in int64, exactly, wrapping around beyond its range."""
    if size > np.iinfo(dtype).max:
        pytest.skip("the weight does not fit the dtype")
    y_true, y_pred = np.array([0, 1, 1, 2, 1, 0]), np.array([0, 1, 1, 2, 0, 0])
    weight = np.full(6, size, dtype=dtype)
    weight[3] = 7
    ours, theirs = (
        pm.confusion_matrix(y_true, y_pred, sample_weight=weight),
        skm.confusion_matrix(y_true, y_pred, sample_weight=weight),
    )
    assert ours.dtype == theirs.dtype == np.int64
    np.testing.assert_array_equal(ours, theirs)
    labelled = pm.confusion_matrix(y_true, y_pred, sample_weight=weight, labels=[1, 0])
    np.testing.assert_array_equal(labelled, skm.confusion_matrix(y_true, y_pred, sample_weight=weight, labels=[1, 0]))


def test_brier_score_loss_of_indicator_targets_is_sklearns():
    rng = np.random.default_rng(91)
    y = rng.integers(0, 2, 12)
    p = rng.random(12)
    compare("brier_score_loss", np.column_stack([1 - y, y]), np.column_stack([1 - p, p]))
    y_multilabel = rng.integers(0, 2, (12, 4))
    compare("brier_score_loss", y_multilabel, rng.random((12, 4)), sample_weight=rng.random(12))


@pytest.mark.parametrize("container", ["coo_matrix", "coo_array", "csr_matrix", "csc_array"])
def test_sparse_indicator_targets_are_handed_to_sklearn(container):
    rng = np.random.default_rng(92)
    y_true, y_pred = rng.integers(0, 2, (20, 3)), rng.integers(0, 2, (20, 3))
    make = getattr(sparse, container)
    for name in ("accuracy_score", "precision_score", "recall_score", "f1_score"):
        kwargs = {} if name == "accuracy_score" else {"average": "micro"}
        compare(name, make(y_true), make(y_pred), **kwargs)
        assert_same_value(
            getattr(pm, name)(make(y_true), make(y_pred), **kwargs), getattr(pm, name)(y_true, y_pred, **kwargs)
        )


def test_delegation_survives_sklearn_metrics_replaced_by_polyroc(monkeypatch):
    """Replacing ``sklearn.metrics``' functions by polyroc's (a drop-in) must not make polyroc call itself."""
    rng = np.random.default_rng(93)
    y_true, y_pred = rng.integers(0, 2, (20, 3)), rng.integers(0, 2, (20, 3))
    expected = skm.precision_recall_fscore_support(y_true, y_pred, average="samples")
    expected_report = skm.classification_report(y_true, y_pred, zero_division=0.0)
    for name in FUNCTIONS:
        monkeypatch.setattr(skm, name, getattr(pm, name))
    assert_same_value(pm.precision_recall_fscore_support(y_true, y_pred, average="samples"), expected)
    assert pm.classification_report(y_true, y_pred, zero_division=0.0) == expected_report
    with pytest.raises(ValueError, match="multilabel"):
        pm.precision_score([0, 1, 2, 1], [0, 2, 1, 1], average="samples")
