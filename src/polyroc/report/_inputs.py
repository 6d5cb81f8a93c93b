"""Validated inputs of a report: the models' scores on test (and validation) data, and the options."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from polyroc._validation import (
    check_positive_int,
    check_random_state,
    check_real,
    check_scores,
)
from polyroc.counts import get_metric

__all__ = ["ReportInputs", "check_report_inputs"]


@dataclass(frozen=True)
class ReportInputs:
    """Scores of every model on shared labels, checked and in one class order.

    ``test`` and ``validation`` map model names to probability matrices whose
    columns follow ``classes``; ``y_test`` and ``y_val`` are class labels
    (``y_val`` and ``validation`` are None without validation data).
    """

    classes: np.ndarray
    y_test: np.ndarray
    test: dict
    y_val: np.ndarray | None
    validation: dict | None
    metric: str
    n_boot: int
    confidence: float
    random_state: int


def _checked_models(role, y_true, scores, labels):
    """Check each model's matrix against the labels; return (labels, {name: matrix}, classes)."""
    if not isinstance(scores, Mapping) or not scores:
        raise TypeError(f"{role}_scores must be a non-empty mapping of model name to score matrix")
    checked, classes = {}, labels
    for name, matrix in scores.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"{role}_scores: model names must be non-empty strings, got {name!r}")
        try:
            targets = check_scores(y_true, matrix, labels=classes)
        except (ValueError, TypeError) as error:
            raise type(error)(f"{role} scores of model {name!r}: {error}") from None
        classes = targets.classes
        checked[name] = targets.y_score
    return classes[targets.y_true], checked, classes


def check_report_inputs(y_test, test_scores, *, y_val=None, val_scores=None, labels=None,
                        metric="f1_macro", n_boot=500, confidence=0.95, random_state=0):
    """Check everything a report needs before any work; return :class:`ReportInputs`.

    Raises
    ------
    ValueError, TypeError
        A score matrix that fails :func:`polyroc._validation.check_scores`
        (the message names the model and the split); model names that are not
        strings or differ between test and validation; ``y_val`` without
        ``val_scores`` or the reverse; an unknown metric; ``n_boot`` not an
        integer >= 1; ``confidence`` not a number in (0, 1); ``random_state`` not an
        integer (a report must be reproducible).
    """
    if (y_val is None) != (val_scores is None):
        raise ValueError("y_val and val_scores go together: give both or neither")
    get_metric(metric)
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name, got {type(metric).__name__}")
    n_boot = check_positive_int("n_boot", n_boot)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    if random_state is None or isinstance(random_state, np.random.Generator):
        raise TypeError("random_state must be an integer seed, so that the report is reproducible")
    check_random_state(random_state)
    y_test, test, classes = _checked_models("test", y_test, test_scores, labels)
    validation = None
    if val_scores is not None:
        if not isinstance(val_scores, Mapping) or set(val_scores) != set(test):
            raise ValueError(
                f"val_scores must name the same models as test_scores ({sorted(test)}), "
                f"got {sorted(val_scores) if isinstance(val_scores, Mapping) else type(val_scores).__name__}"
            )
        y_val, validation, _ = _checked_models("validation", y_val, val_scores, classes)
        validation = {name: validation[name] for name in test}
    return ReportInputs(classes, y_test, test, y_val, validation, metric, n_boot, confidence,
                        int(random_state))
