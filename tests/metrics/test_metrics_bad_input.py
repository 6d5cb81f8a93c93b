"""Bad input to the label metrics: the error scikit-learn raises, options checked before the labels are counted."""

import numpy as np
import pytest
import sklearn.metrics as skm
from sklearn.utils._param_validation import InvalidParameterError

from polyroc import counts as pc
from polyroc import metrics as pm
from tests.metrics.label_cases import O8, assert_close, quietly


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: pc.precision(O8, average="binary"), ValueError, "average must be one of"),
        (lambda: pm.precision_score([0, 1], [0, 1], average="samples"), ValueError, "Samplewise metrics"),
        (lambda: pc.recall(O8, zero_division="ignore"), ValueError, "zero_division must be"),
        (lambda: pm.f1_score([0, 1], [0, 1], zero_division=0.5), ValueError, "zero_division must be"),
        (lambda: pc.fbeta(O8, beta=-1.0), ValueError, r"^beta must be a real number in \[0, inf\); got -1.0$"),
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
        (lambda: pc.get_metric(3), TypeError, r"^metric must be a str or a callable; got int 3$"),
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
