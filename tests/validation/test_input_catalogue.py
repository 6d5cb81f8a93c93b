"""A catalogue of bad and edge inputs to the library, each tried as a user would.

Every case calls one public function of the metrics, curves, probability,
evaluation, threshold-application and bootstrap layers with one unusual input,
and states the outcome a user should get:

- a clean error: the exact exception type, and a message that names the
  argument at fault and the problem;
- a right answer: the value of scikit-learn (or a hand-computed oracle) on the
  same data given plainly, with no warning issued;
- scikit-learn's warning (its class), and then the right answer.

Oracles are scikit-learn, numpy/scipy formulas on plain arrays, and counts done
by hand; none is produced by polyroc. Cases needing pandas or torch are skipped
where those libraries are absent; a small tensor-like class stands in for torch
(its numpy conversion fails while it requires grad, as torch's does).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from scipy.special import softmax as scipy_softmax
from sklearn import metrics as skm
from sklearn.exceptions import DataConversionWarning
from sklearn.preprocessing import label_binarize

import polyroc as pr
from polyroc.probability import one_hot, softmax
from polyroc.resampling import (
    bootstrap_multiplicities,
    paired_rule_scores,
    percentile_interval,
)
from polyroc.thresholds.rules import apply_thresholds

Y = np.array([0, 1, 2, 2, 1, 0, 2, 1])
P = np.array(
    [
        [0.7, 0.2, 0.1],
        [0.1, 0.8, 0.1],
        [0.2, 0.2, 0.6],
        [0.3, 0.3, 0.4],
        [0.5, 0.4, 0.1],
        [0.4, 0.3, 0.3],
        [0.1, 0.1, 0.8],
        [0.2, 0.5, 0.3],
    ]
)
PRED = P.argmax(axis=1)
TAU = np.full(3, 1 / 3)
W = np.array([1.0, 2.0, 0.5, 3.0, 1.0, 2.5, 1.5, 0.75])


class TensorLike:
    """Stands in for a torch tensor: ``__array__`` raises while it requires grad."""

    def __init__(self, values, requires_grad=False):
        self._values = np.asarray(values)
        self.requires_grad = requires_grad

    def __array__(self, dtype=None, copy=None):
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._values if dtype is None else self._values.astype(dtype)

    def __len__(self):
        return len(self._values)

    def detach(self):
        return TensorLike(self._values)

    def cpu(self):
        return self

    def numpy(self):
        return self.__array__()


def grad(values):
    return TensorLike(values, requires_grad=True)


@dataclass(frozen=True)
class Error:
    """A call that must raise ``error`` with a message naming ``argument`` and matching ``match``."""

    call: Callable
    error: type
    argument: str
    match: str


@dataclass(frozen=True)
class Answer:
    """A call that must return ``oracle()`` (to ``atol``) without any warning."""

    call: Callable
    oracle: Callable
    atol: float = 1e-12


@dataclass(frozen=True)
class Warned:
    """A call that must issue ``warning`` (scikit-learn's class) and return ``oracle()``."""

    call: Callable
    warning: type
    oracle: Callable


ERRORS = {
    # missing arrays and options given as arrays
    "y_proba None in log_loss": Error(lambda: pr.log_loss(Y, None), ValueError, "y_proba", "required"),
    "average given as a list": Error(
        lambda: pr.f1_score(Y, PRED, average=["macro"]), TypeError, "average", "must be one of"
    ),
    # labels of two kinds, which numpy would silently merge into equal strings
    "y_true mixing 1 and '1'": Error(
        lambda: pr.accuracy_score([1, "1", 2], ["1", 1, 2]), TypeError, "y_true", "mixes strings and numbers"
    ),
    "y_pred mixing kinds": Error(
        lambda: pr.f1_score(["0", "1", "1"], ["0", 1, "1"]), TypeError, "y_pred", "mixes strings and numbers"
    ),
    "labels mixing kinds": Error(
        lambda: pr.confusion_matrix([1, 2], [1, 2], labels=[1, "2"]), TypeError, "labels", "mixes strings"
    ),
    "tuple y_true mixing kinds in roc_auc_score": Error(
        lambda: pr.roc_auc_score((0, "0", 1, 2, 2, 1, 0, 2), P, multi_class="ovr"),
        TypeError,
        "y_true",
        "mixes strings and numbers",
    ),
    "apply_thresholds labels mixing kinds": Error(
        lambda: apply_thresholds(P, TAU, labels=[0, "1", "2"]), TypeError, "labels", "mixes strings"
    ),
    "one_hot labels mixing kinds": Error(lambda: one_hot([1, "1"]), TypeError, "y", "mixes strings and numbers"),
    # repeated labels
    "apply_thresholds duplicate labels": Error(
        lambda: apply_thresholds(P, TAU, labels=["a", "a", "b"]), ValueError, "labels", r"distinct; repeated: \['a'\]"
    ),
    "confusion_matrix duplicate labels": Error(
        lambda: pr.confusion_matrix([0, 1], [0, 1], labels=[0, 1, 1]), ValueError, "labels", "distinct"
    ),
    "roc_auc duplicate labels": Error(
        lambda: pr.roc_auc_score(Y, P, multi_class="ovr", labels=[0, 2, 2]), ValueError, "labels", "distinct"
    ),
    "apply_thresholds labels of the wrong length": Error(
        lambda: apply_thresholds(P, TAU, labels=["a", "b"]), ValueError, "labels", "names 2 classes"
    ),
    # seeds
    "evaluate random_state=-1": Error(
        lambda: pr.evaluate(Y, P, n_boot=5, random_state=-1),
        ValueError,
        "random_state",
        r"or a numpy.random.Generator; got -1$",
    ),
    "bootstrap random_state=-1": Error(
        lambda: list(bootstrap_multiplicities(Y, 3, random_state=-1)), ValueError, "random_state", r"\[0, inf\)"
    ),
    "paired_rule_scores random_state=-5": Error(
        lambda: paired_rule_scores(Y, {"argmax": PRED}, n_boot=5, random_state=-5),
        ValueError,
        "random_state",
        r"\[0, inf\) or a numpy.random.Generator; got -5$",
    ),
    "evaluate random_state=1.5": Error(
        lambda: pr.evaluate(Y, P, n_boot=5, random_state=1.5), TypeError, "random_state", "got float 1.5"
    ),
    "evaluate random_state=True": Error(
        lambda: pr.evaluate(Y, P, n_boot=5, random_state=True), TypeError, "random_state", "got bool"
    ),
    # bytes (scikit-learn refuses them too)
    "bytes y_true in a list": Error(
        lambda: pr.accuracy_score([b"a", b"b"], [b"a", b"a"]), TypeError, "y_true", "bytes"
    ),
    "bytes y_true mixed with str": Error(
        lambda: pr.accuracy_score([b"a", "b"], ["a", "b"]), TypeError, "y_true", "bytes"
    ),
    "bytes y_true array in roc_auc_score": Error(
        lambda: pr.roc_auc_score(np.array([b"x", b"y", b"z", b"z", b"y", b"x", b"z", b"y"]), P, multi_class="ovr"),
        TypeError,
        "y_true",
        "bytes",
    ),
    "bytes labels": Error(
        lambda: pr.f1_score(["a", "b"], ["a", "b"], labels=[b"a", b"b"], average="macro"), TypeError, "labels", "bytes"
    ),
    # 0-d and wrongly shaped inputs
    "0-d y_true": Error(lambda: pr.accuracy_score(1, 1), ValueError, "y_true", r"1-D .*shape \(\)"),
    "0-d y_true in roc_auc_score": Error(lambda: pr.roc_auc_score(0, P), ValueError, "y_true", "1-D"),
    "0-d y_score": Error(lambda: pr.roc_auc_score(Y, np.float64(0.5)), ValueError, "y_score", "1-D or 2-D"),
    "0-d sample_weight": Error(
        lambda: pr.accuracy_score([0, 1], [0, 1], sample_weight=2.0), ValueError, "sample_weight", r"shape \(2,\)"
    ),
    "0-d logits": Error(lambda: softmax(3.0), ValueError, "z", "at least one dimension"),
    "row vector y_true (1, n) in f1_score": Error(
        lambda: pr.f1_score([[0, 1, 1]], [0, 1, 0]), ValueError, "y_true", "inconsistent numbers of samples"
    ),
    "1-D y_score": Error(lambda: pr.ovr_precision_recall_curve(Y, P[:, 0]), ValueError, "y_score", "2-D"),
    # empty inputs
    "empty labels": Error(lambda: pr.accuracy_score([], []), ValueError, "y_true", "empty"),
    "empty y_true with scores": Error(lambda: pr.roc_auc_score([], np.empty((0, 3))), ValueError, "y_true", "empty"),
    "empty y_proba": Error(lambda: pr.log_loss([0, 1], np.empty((0, 2))), ValueError, "y_proba", "empty"),
    "empty evaluate": Error(lambda: pr.evaluate([], np.empty((0, 3))), ValueError, "y_true", "empty"),
    # missing values
    "None in a y_true list": Error(
        lambda: pr.accuracy_score([0, None, 1], [0, 1, 1]), ValueError, "y_true", r"missing values .*index 1"
    ),
    "None in an object y_pred array": Error(
        lambda: pr.accuracy_score([0, 1, 1], np.array([0, 1, None], dtype=object)),
        ValueError,
        "y_pred",
        r"missing values .*index 2",
    ),
    "NaN in a string y_true": Error(
        lambda: pr.accuracy_score(["a", float("nan"), "b"], ["a", "a", "b"]), ValueError, "y_true", "missing"
    ),
    "NaN in float y_true": Error(
        lambda: pr.roc_auc_score([0.0, 1.0, np.nan, 2, 2, 1, 0, 2], P), ValueError, "y_true", "NaN"
    ),
    "None in y_score": Error(
        lambda: pr.roc_auc_score(Y, [[None, 0.5, 0.5], *P[1:].tolist()], multi_class="ovr"),
        ValueError,
        "y_score",
        r"missing values .*\(0, 0\)",
    ),
    "None in sample_weight": Error(
        lambda: pr.f1_score([0, 1], [0, 1], sample_weight=[1.0, None]), ValueError, "sample_weight", "missing"
    ),
    "y_true None": Error(lambda: pr.log_loss(None, P), ValueError, "y_true", "required"),
    # scores of the wrong kind (ValueError, as scikit-learn)
    "string scores": Error(lambda: pr.roc_auc_score(Y, P.astype(str)), ValueError, "y_score", "numeric"),
    "complex scores": Error(lambda: pr.average_precision_score(Y, P + 0j), ValueError, "y_score", "numeric"),
    "ragged score rows": Error(
        lambda: pr.roc_auc_score([0, 1], [[0.5, 0.5], [1.0]]), ValueError, "y_score", "could not be converted"
    ),
    "ragged labels": Error(
        lambda: pr.accuracy_score([[0], [1, 2]], [0, 1]), ValueError, "y_true", "could not be converted"
    ),
    "objects in y_score": Error(
        lambda: pr.roc_auc_score(Y, np.array([[object(), 0.5, 0.5], *P[1:].tolist()], dtype=object), multi_class="ovr"),
        TypeError,
        "y_score",
        "numeric, found object",
    ),
    # weights
    "negative weight": Error(
        lambda: pr.roc_auc_score(Y, P, multi_class="ovr", sample_weight=-W), ValueError, "sample_weight", "non-negative"
    ),
    "string weights": Error(
        lambda: pr.accuracy_score([0, 1], [0, 1], sample_weight=["1", "2"]), TypeError, "sample_weight", "numeric"
    ),
    "weights of the wrong length": Error(
        lambda: pr.log_loss(Y, P, sample_weight=W[:3]), ValueError, "sample_weight", r"shape \(8,\)"
    ),
    "all-zero weights": Error(
        lambda: pr.evaluate(Y, P, sample_weight=np.zeros(8)), ValueError, "sample_weight", "sums to zero"
    ),
    # normalize, and probabilities out of range
    "log_loss normalize='sum'": Error(
        lambda: pr.log_loss(Y, P, normalize="sum"), ValueError, "normalize", "one of True, False"
    ),
    "probabilities above 1": Error(lambda: pr.log_loss(Y, 2 * P), ValueError, "y_proba", "greater than 1"),
    "multiclass AUC of rows not summing to 1": Error(
        lambda: pr.roc_auc_score(Y, 2 * P, multi_class="ovr"), ValueError, "y_score", "sum to 1"
    ),
    "accuracy normalize=None": Error(
        lambda: pr.accuracy_score(Y, PRED, normalize=None), ValueError, "normalize", "one of True, False"
    ),
    # thresholds
    "NaN threshold": Error(lambda: apply_thresholds(P, [np.nan, 0.5, 0.5]), ValueError, "thresholds", "NaN"),
    "thresholds of the wrong length": Error(
        lambda: apply_thresholds(P, [0.5, 0.5]), ValueError, "thresholds", r"shape \(3,\)"
    ),
    # bootstrap and intervals
    "n_boot=0 for the bootstrap": Error(
        lambda: list(bootstrap_multiplicities(Y, 0)), ValueError, "n_boot", r"in \[1, inf\); got 0$"
    ),
    "bootstrap strata with None": Error(
        lambda: list(bootstrap_multiplicities([0, None, 1], 2)), ValueError, "y", "missing values"
    ),
    "evaluate n_boot=-1": Error(lambda: pr.evaluate(Y, P, n_boot=-1), ValueError, "n_boot", r"in \[0, inf\); got -1$"),
    "evaluate confidence=1.5": Error(
        lambda: pr.evaluate(Y, P, n_boot=5, confidence=1.5), ValueError, "confidence", r"\(0, 1\)"
    ),
    "percentile_interval confidence='high'": Error(
        lambda: percentile_interval(np.arange(5.0), confidence="high"), TypeError, "confidence", "real number"
    ),
    "paired_rule_scores predictions as a list": Error(
        lambda: paired_rule_scores(Y, [PRED], n_boot=5), TypeError, "predictions", "mapping"
    ),
    "paired_rule_scores one class and no labels": Error(
        lambda: paired_rule_scores([0, 0, 0], {"argmax": [0, 0, 0]}, n_boot=5),
        ValueError,
        "y_true",
        r"only one class \(\[0\]\) found in y_true and predictions\['argmax'\].*pass labels=",
    ),
    "paired_rule_scores string labels, numeric predictions": Error(
        lambda: paired_rule_scores(["a", "b"], {"argmax": [0, 1]}, n_boot=5),
        TypeError,
        "y_true",
        r"y_true and predictions\['argmax'\] mix string and numeric labels",
    ),
    # curves and probability options
    "one class only": Error(
        lambda: pr.ovr_roc_curve([1, 1, 1], [[0.2, 0.8], [0.4, 0.6], [0.9, 0.1]], labels=[0, 1]),
        ValueError,
        "y_true",
        "only one class",
    ),
    "ovo with micro average": Error(
        lambda: pr.roc_auc_score(Y, P, multi_class="ovo", average="micro"), ValueError, "average", "got 'micro'"
    ),
    "multiclass AUC without multi_class": Error(
        lambda: pr.roc_auc_score(Y, P), ValueError, "multi_class", "'ovo', 'ovr'"
    ),
    "softmax temperature 0": Error(lambda: softmax([1.0, 2.0], temperature=0), ValueError, "temperature", r"\(0"),
    "softmax of strings": Error(lambda: softmax(["a", "b"]), TypeError, "z", "numeric"),
    "one_hot index out of range": Error(lambda: one_hot([0, 3], 3), ValueError, "y", "indices in 0..2"),
}


def sk_ap_macro(y, scores, weights=None):
    return skm.average_precision_score(label_binarize(y, classes=[0, 1, 2]), scores, sample_weight=weights)


P32, P16 = P.astype(np.float32), P.astype(np.float16)
EPS32, EPS16 = float(np.finfo(np.float32).eps), float(np.finfo(np.float16).eps)
ONE_HOT_INT = np.eye(3, dtype=np.int64)[[0, 1, 2, 1]]
P32_ZERO = np.vstack([[0.0, 0.5, 0.5], P32[1:]]).astype(np.float32)  # sample 0 (class 0) gets p = 0
CLIPPED_32 = (-np.log(EPS32) - np.log(P32.astype(np.float64)[np.arange(1, 8), Y[1:]]).sum()) / 8
UNIFORM = np.ones(8)

ANSWERS = {
    # tensors requiring grad are detached, without importing torch
    "roc_auc of a tensor requiring grad": Answer(
        lambda: pr.roc_auc_score(TensorLike(Y), grad(P), multi_class="ovr"),
        lambda: skm.roc_auc_score(Y, P, multi_class="ovr"),
    ),
    "log_loss of a tensor requiring grad": Answer(
        lambda: pr.log_loss(TensorLike(Y), grad(P)), lambda: skm.log_loss(Y, P)
    ),
    "weights as a tensor requiring grad": Answer(
        lambda: pr.accuracy_score(TensorLike(Y), TensorLike(PRED), sample_weight=grad(W)),
        lambda: skm.accuracy_score(Y, PRED, sample_weight=W),
    ),
    "softmax of a tensor requiring grad": Answer(
        lambda: softmax(grad([[1.0, 2.0, 0.5]])), lambda: scipy_softmax([[1.0, 2.0, 0.5]], axis=-1)
    ),
    "apply_thresholds of a tensor requiring grad": Answer(lambda: apply_thresholds(grad(P), TAU), lambda: PRED),
    "evaluate of a tensor requiring grad": Answer(
        lambda: pr.evaluate(Y, grad(P)).scores["matthews_corrcoef"], lambda: skm.matthews_corrcoef(Y, PRED)
    ),
    "bootstrap strata from a tensor requiring grad": Answer(
        lambda: np.vstack(list(bootstrap_multiplicities(grad(Y), 4, random_state=0))) @ np.eye(3)[Y],
        lambda: np.tile(np.bincount(Y), (4, 1)),
    ),
    # booleans are labels, as in scikit-learn
    "boolean labels": Answer(
        lambda: pr.accuracy_score([True, False, True, True], [True, True, True, False]),
        lambda: skm.accuracy_score([True, False, True, True], [True, True, True, False]),
    ),
    "boolean labels, macro F1": Answer(
        lambda: pr.f1_score([True, False, True, True], [True, True, True, False], average="macro"),
        lambda: skm.f1_score([True, False, True, True], [True, True, True, False], average="macro"),
    ),
    "boolean labels, binary F1 of True": Answer(
        lambda: pr.f1_score([True, False, True, True], [True, True, True, False]),
        lambda: skm.f1_score([True, False, True, True], [True, True, True, False]),
    ),
    "numpy string scalars and str": Answer(
        lambda: pr.accuracy_score([np.str_("a"), "b"], ["a", np.str_("b")]), lambda: 1.0
    ),
    "object array of integers": Answer(
        lambda: pr.matthews_corrcoef(np.array(Y.tolist(), dtype=object), PRED), lambda: skm.matthews_corrcoef(Y, PRED)
    ),
    # scores of other dtypes
    "integer scores": Answer(
        lambda: pr.roc_auc_score(Y == 2, (P[:, 2] * 10).astype(int)), lambda: skm.roc_auc_score(Y == 2, P[:, 2])
    ),
    "integer one-hot scores in log_loss": Answer(
        lambda: pr.log_loss([0, 1, 2, 1], ONE_HOT_INT), lambda: skm.log_loss([0, 1, 2, 1], ONE_HOT_INT)
    ),
    "float16 scores in roc_auc_score": Answer(
        lambda: pr.roc_auc_score(Y, P16, multi_class="ovr"),
        lambda: np.mean([skm.roc_auc_score(Y == k, P16[:, k].astype(np.float64)) for k in range(3)]),
    ),
    # computed in the scores' own precision, as scikit-learn: float32 agrees with float64 to float32's
    "float32 scores in log_loss (clip at float32 eps)": Answer(
        lambda: pr.log_loss(Y, P32),
        lambda: -np.log(np.clip(P32.astype(np.float64)[np.arange(8), Y], EPS32, 1 - EPS32)).mean(),
        atol=1e-6,
    ),
    "float32 zero probability clipped at float32 eps": Answer(
        lambda: pr.log_loss(Y, P32_ZERO), lambda: CLIPPED_32, atol=1e-6
    ),
    "evaluate's log loss of float32 scores": Answer(
        lambda: pr.evaluate(Y, P32_ZERO).scores["log_loss"], lambda: CLIPPED_32
    ),
    "float16 rows off by float16 rounding": Answer(
        lambda: pr.log_loss(Y, P16),
        lambda: -np.log(np.clip(P16.astype(np.float64)[np.arange(8), Y], EPS16, 1 - EPS16)).mean(),
        atol=1e-3,
    ),
    "float32 scores in brier_score": Answer(
        lambda: pr.brier_score_loss(Y, P32),
        lambda: ((P32.astype(np.float64) - np.eye(3)[Y]) ** 2).sum(axis=1).mean(),
        atol=1e-6,
    ),
    # weights of extreme scale mean the same as uniform weights
    "MCC with uniform weights 1e300": Answer(
        lambda: pr.matthews_corrcoef(Y, PRED, sample_weight=UNIFORM * 1e300), lambda: skm.matthews_corrcoef(Y, PRED)
    ),
    "kappa with uniform weights 1e-300": Answer(
        lambda: pr.cohen_kappa_score(Y, PRED, sample_weight=UNIFORM * 1e-300), lambda: skm.cohen_kappa_score(Y, PRED)
    ),
    "OvO AUC with uniform weights 1e300": Answer(
        lambda: pr.roc_auc_score(Y, P, multi_class="ovo", sample_weight=UNIFORM * 1e300),
        lambda: skm.roc_auc_score(Y, P, multi_class="ovo"),
    ),
    "OvR AUC with uniform weights 1e-300": Answer(
        lambda: pr.roc_auc_score(Y, P, multi_class="ovr", sample_weight=UNIFORM * 1e-300),
        lambda: skm.roc_auc_score(Y, P, multi_class="ovr"),
    ),
    "average precision with uniform weights 1e-300": Answer(
        lambda: pr.average_precision_score(Y, P, sample_weight=UNIFORM * 1e-300), lambda: sk_ap_macro(Y, P)
    ),
    "confusion_matrix with weights 1e300 keeps their units": Answer(
        lambda: pr.confusion_matrix(Y, PRED, sample_weight=UNIFORM * 1e300) / 1e300,
        lambda: skm.confusion_matrix(Y, PRED).astype(float),
    ),
    # normalize with scikit-learn's meaning
    "log_loss normalize=False on four samples": Answer(
        lambda: pr.log_loss(Y[:4], P[:4], labels=[0, 1, 2], normalize=False),
        lambda: skm.log_loss(Y[:4], P[:4], labels=[0, 1, 2], normalize=False),
    ),
    "weighted log_loss normalize=False": Answer(
        lambda: pr.log_loss(Y, P, sample_weight=W, normalize=False),
        lambda: skm.log_loss(Y, P, sample_weight=W, normalize=False),
    ),
    "accuracy normalize=False with weights": Answer(
        lambda: pr.accuracy_score(Y, PRED, sample_weight=W, normalize=False),
        lambda: skm.accuracy_score(Y, PRED, sample_weight=W, normalize=False),
    ),
    # apply_thresholds with labels
    "apply_thresholds with string labels": Answer(
        lambda: apply_thresholds(P[:3], TAU, labels=["cat", "dog", "owl"]).tolist(), lambda: ["cat", "dog", "owl"]
    ),
}

COLUMN = Y[:, None]
WARNED = {
    "column-vector y_true in accuracy_score": Warned(
        lambda: pr.accuracy_score(COLUMN, PRED), DataConversionWarning, lambda: skm.accuracy_score(Y, PRED)
    ),
    "column-vector y_true in roc_auc_score": Warned(
        lambda: pr.roc_auc_score(COLUMN, P, multi_class="ovr"),
        DataConversionWarning,
        lambda: skm.roc_auc_score(Y, P, multi_class="ovr"),
    ),
    "column-vector y_true in log_loss": Warned(
        lambda: pr.log_loss(COLUMN, P), DataConversionWarning, lambda: skm.log_loss(Y, P)
    ),
    "column-vector y_pred in confusion_matrix": Warned(
        lambda: pr.confusion_matrix(Y, PRED[:, None]), DataConversionWarning, lambda: skm.confusion_matrix(Y, PRED)
    ),
    "column-vector y_true in evaluate": Warned(
        lambda: pr.evaluate(COLUMN, P).scores["accuracy"], DataConversionWarning, lambda: skm.accuracy_score(Y, PRED)
    ),
}


@pytest.mark.parametrize("case", ERRORS.values(), ids=ERRORS.keys())
def test_clean_error(case):
    with pytest.raises(case.error) as raised:
        case.call()
    assert type(raised.value) is case.error
    message = str(raised.value)
    assert re.search(rf"(?<![\w.]){re.escape(case.argument)}(?!\w)", message), message
    assert re.search(case.match, message), message


@pytest.mark.parametrize("case", ANSWERS.values(), ids=ANSWERS.keys())
def test_right_answer(case):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = case.call()
    expected = case.oracle()
    if isinstance(expected, list):
        assert value == expected
    else:
        np.testing.assert_allclose(value, expected, rtol=0, atol=case.atol)


@pytest.mark.parametrize("case", WARNED.values(), ids=WARNED.keys())
def test_warning_of_scikit_learn(case):
    with pytest.warns(case.warning, match="column vector"):
        value = case.call()
    np.testing.assert_allclose(value, case.oracle(), rtol=0, atol=1e-12)


def test_the_tensor_stand_in_fails_as_torch_does():
    with pytest.raises(RuntimeError, match="requires grad"):
        np.asarray(grad(P))
    np.testing.assert_array_equal(np.asarray(grad(P).detach()), P)


def test_a_torch_tensor_requiring_grad():
    torch = pytest.importorskip("torch")
    scores = torch.tensor(P, requires_grad=True)
    expected = skm.roc_auc_score(Y, P, multi_class="ovr")
    assert pr.roc_auc_score(torch.tensor(Y), scores, multi_class="ovr") == pytest.approx(expected, abs=1e-12)
    assert pr.log_loss(Y, scores, sample_weight=torch.tensor(W, requires_grad=True)) == pytest.approx(
        skm.log_loss(Y, P, sample_weight=W), abs=1e-12
    )


# --- pandas inputs (skipped without pandas) ---------------------------------------------------

PANDAS_ERRORS = {
    "categorical with NaN": (
        lambda pd: pr.accuracy_score(pd.Series(["a", None, "b"], dtype="category"), ["a", "a", "b"]),
        ValueError,
        "y_true",
        "missing values",
    ),
    "nullable Int64 with NA": (
        lambda pd: pr.accuracy_score(pd.Series([1, pd.NA, 2], dtype="Int64"), [1, 1, 2]),
        ValueError,
        "y_true",
        "(missing values|NaN)",
    ),
    "string dtype with NA": (
        lambda pd: pr.f1_score(["a", "b", "b"], pd.Series(["a", pd.NA, "b"], dtype="string")),
        ValueError,
        "y_pred",
        "missing values",
    ),
    "boolean with NA": (
        lambda pd: pr.accuracy_score(pd.Series([True, pd.NA, False], dtype="boolean"), [True, True, False]),
        ValueError,
        "y_true",
        "(missing values|NaN)",
    ),
    "object Series mixing 1 and '1'": (
        lambda pd: pr.accuracy_score(pd.Series([1, "1", 2], dtype=object), [1, 1, 2]),
        TypeError,
        "y_true",
        "mixes strings and numbers",
    ),
    "nullable Float64 scores with NA": (
        lambda pd: pr.roc_auc_score(
            Y, pd.DataFrame(P, dtype="Float64").mask(pd.DataFrame(P) > 0.75), multi_class="ovr"
        ),
        ValueError,
        "y_score",
        "(missing values|NaN)",
    ),
}


@pytest.mark.parametrize("case", PANDAS_ERRORS.values(), ids=PANDAS_ERRORS.keys())
def test_pandas_clean_error(case):
    pd = pytest.importorskip("pandas")
    call, error, argument, match = case
    with pytest.raises(error) as raised:
        call(pd)
    assert type(raised.value) is error
    assert argument in str(raised.value) and re.search(match, str(raised.value))


def test_pandas_inputs_give_the_right_answers():
    pd = pytest.importorskip("pandas")
    names = np.array(["cat", "dog", "owl"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        categorical = pd.Series(names[Y], dtype="category")
        assert pr.accuracy_score(categorical, names[PRED]) == skm.accuracy_score(names[Y], names[PRED])
        integers = pd.Series(Y, dtype="Int64")
        expected = skm.cohen_kappa_score(Y, PRED)
        assert pr.cohen_kappa_score(integers, PRED) == pytest.approx(expected, abs=1e-12)
        frame = pd.DataFrame(P, columns=names)
        expected = skm.roc_auc_score(Y, P, multi_class="ovr")
        assert pr.roc_auc_score(categorical, frame, multi_class="ovr") == pytest.approx(expected, abs=1e-12)
        weights = pd.Series(W)
        assert pr.log_loss(Y, frame, sample_weight=weights) == pytest.approx(
            skm.log_loss(Y, P, sample_weight=W), abs=1e-12
        )
    with pytest.warns(DataConversionWarning):
        value = pr.accuracy_score(pd.DataFrame({"label": Y}), PRED)
    assert value == skm.accuracy_score(Y, PRED)
