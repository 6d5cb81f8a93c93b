"""Validated inputs of a report: the models' scores on test (and validation) data, and the options."""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._validation import (
    check_frames_in_one_order,
    check_label_vector,
    check_positive_int,
    check_random_state,
    check_real,
    check_sample_weight,
    check_scores,
)
from polyroc.counts import get_metric
from polyroc.evaluation._plan import CI_OPTIONS, NO_INTERVALS, QUANTITY_METHODS, CiChoice, interval_plan
from polyroc.report._decisions import check_decision_inputs

__all__ = ["DEFAULT_MODEL_NAME", "ReportInputs", "check_report_inputs"]

#: The name of the model when the scores are one array rather than a mapping.
DEFAULT_MODEL_NAME = "model"


@dataclass(frozen=True)
class ReportInputs:
    """Scores of every model on shared labels, checked and in one class order.

    ``test`` and ``validation`` map model names to probability matrices whose
    columns follow ``classes``; ``y_test`` and ``y_val`` are class labels
    (``y_val`` and ``validation`` are None without validation data);
    ``sample_weight`` and ``val_sample_weight`` are the checked weights of the
    test and validation rows (None: every row weighs the same).
    """

    classes: np.ndarray
    y_test: np.ndarray
    test: dict[str, np.ndarray]
    y_val: np.ndarray | None
    validation: dict[str, np.ndarray] | None
    metric: str
    n_boot: int
    confidence: float
    random_state: int | np.random.Generator | None
    sample_weight: np.ndarray | None = None
    val_sample_weight: np.ndarray | None = None
    ci: CiChoice | Mapping[str, str] = "auto"
    evaluations: dict[str, Any] | None = None
    population: dict[str, Any] | None = None
    cost_matrix: np.ndarray | None = None
    target_priors: np.ndarray | str | None = None


def _named(role: str, scores: Any) -> Mapping[str, Any]:
    """The scores of a split as {model name: matrix}; one array is the model named ``"model"``."""
    if isinstance(scores, Mapping):
        if not scores:
            raise TypeError(f"{role} must name at least one model")
        return scores
    if isinstance(scores, (str, bytes)) or scores is None:
        raise TypeError(
            f"{role} must be a score matrix or a mapping of model name to score matrix, got {type(scores).__name__}"
        )
    return {DEFAULT_MODEL_NAME: scores}


def check_model_name(role: str, name: object) -> str:
    """Return ``name`` if it can name a model: a non-empty string without a comma.

    The report and the command line list models separated by commas ("a, b and c"),
    so a comma inside a name would make those lists ambiguous: it is refused.
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"{role}: model names must be non-empty strings, got {name!r}")
    if "," in name:
        raise ValueError(
            f"{role}: model name {name!r} holds a comma, which would make the lists of models ambiguous; "
            "name the model without commas"
        )
    return name


def _checked_models(role, split, y_true, scores, labels, sample_weight, names=("y_true", "sample_weight")):
    """Check each model's matrix against the labels; return (labels, {name: matrix}, classes, weights).

    The labels and weights (named ``names``) are every model's: they are
    checked first, so that their errors blame no model.
    """
    y_name, weight_name = names
    check_sample_weight(sample_weight, check_label_vector(y_name, y_true).shape[0], weight_name)
    checked, classes, weights = {}, labels, None
    check_frames_in_one_order(_named(role, scores), role)
    for name, matrix in _named(role, scores).items():
        check_model_name(role, name)
        try:
            targets = check_scores(
                y_true,
                matrix,
                labels=classes,
                sample_weight=sample_weight,
                name=role,
                y_name=y_name,
                weight_name=weight_name,
            )
        except (ValueError, TypeError) as error:
            raise type(error)(f"{split} scores of model {name!r}: {error}") from None
        classes, weights = targets.classes, targets.sample_weight
        checked[name] = targets.y_score
    return classes[targets.y_true], checked, classes, weights


def _check_seed(random_state):
    """``random_state`` as given, once :func:`polyroc._validation.check_random_state` accepts it."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        check_random_state(random_state)
        return int(random_state)
    check_random_state(random_state)
    return random_state


def check_report_inputs(
    y_true: ArrayLike,
    y_score: ArrayLike | Mapping[str, ArrayLike],
    *,
    y_val: ArrayLike | None = None,
    val_scores: ArrayLike | Mapping[str, ArrayLike] | None = None,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    val_sample_weight: ArrayLike | None = None,
    metric: str = "f1_macro",
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    ci: CiChoice | Mapping[str, str] = "auto",
    evaluations: Mapping[str, Any] | None = None,
    population: Mapping[str, Any] | None = None,
    cost_matrix: Any = None,
    target_priors: Any = None,
) -> ReportInputs:
    """Check everything a report needs before any work; return :class:`ReportInputs`.

    Parameters
    ----------
    y_true, y_score, y_val, val_scores, labels, sample_weight, val_sample_weight, metric, n_boot, confidence, \
random_state, ci, evaluations, population, cost_matrix, target_priors
        As :func:`polyroc.report.build_report`.

    Returns
    -------
    ReportInputs

    Raises
    ------
    ValueError, TypeError
        Labels or sample weights that fail the checks of
        :func:`polyroc.evaluate` (named ``y_true``, ``sample_weight``,
        ``y_val`` or ``val_sample_weight``, before any model); a score matrix
        that fails them (the message names the model and the split); model
        names that are not strings or differ between test and validation;
        ``y_val`` without ``val_scores`` or the reverse;
        ``val_sample_weight`` without validation data; an unknown metric;
        ``n_boot`` not an integer >= 1; ``confidence`` not a number in (0, 1);
        ``random_state`` not None, a non-negative integer or a Generator;
        ``ci`` as :func:`polyroc.evaluate` rejects it, or ``"none"`` (the
        report quotes every metric with its interval); ``evaluations`` that
        do not name the same models as ``y_score`` or hold something else
        than an :class:`~polyroc.Evaluation` of the same classes;
        ``population`` without ``evaluations`` or without its keys; a cost
        matrix or target priors that :func:`polyroc.expected_cost` refuses,
        target priors without a cost matrix, ``"estimate"`` without
        validation data.

    Examples
    --------
    >>> inputs = check_report_inputs(["a", "b"], [[.7, .3], [.2, .8]], random_state=0)
    >>> list(inputs.test), inputs.classes.tolist(), inputs.n_boot
    (['model'], ['a', 'b'], 1000)
    """
    if (y_val is None) != (val_scores is None):
        raise ValueError("y_val and val_scores go together: give both or neither")
    if val_sample_weight is not None and y_val is None:
        raise ValueError("val_sample_weight weighs validation rows: give it with y_val and val_scores")
    get_metric(metric)
    if not isinstance(metric, str):
        raise TypeError(f"metric must be a metric name, got {type(metric).__name__}")
    n_boot = check_positive_int("n_boot", n_boot)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    random_state = _check_seed(random_state)
    if isinstance(ci, str) and ci == NO_INTERVALS:
        raise ValueError(
            "ci='none' does not apply to a report: its tables and readings quote every metric with its interval; "
            f"use one of {', '.join(map(repr, CI_OPTIONS))} or a mapping"
        )
    interval_plan(ci, tuple(QUANTITY_METHODS))
    y_test, test, classes, weights = _checked_models("y_score", "test", y_true, y_score, labels, sample_weight)
    y_checked = validation = val_weights = None
    if val_scores is not None:
        val_named = _named("val_scores", val_scores)
        if set(val_named) != set(test):
            raise ValueError(
                f"val_scores must name the same models as y_score ({sorted(test)}), got {sorted(val_named)}"
            )
        y_checked, validation, _, val_weights = _checked_models(
            "val_scores", "validation", y_val, val_named, classes, val_sample_weight, ("y_val", "val_sample_weight")
        )
        validation = {name: validation[name] for name in test}
    model_evaluations = _checked_evaluations(evaluations, test, classes)
    if population is not None:
        if model_evaluations is None:
            raise ValueError("population describes the rows of given evaluations: give it with evaluations")
        missing = {"n_samples", "class_counts", "class_weights"} - set(population)
        if missing:
            raise ValueError(f"population needs the keys {sorted(missing)}")
        population = dict(population)
    costs, priors = check_decision_inputs(cost_matrix, target_priors, classes, validation is not None)
    return ReportInputs(
        classes,
        y_test,
        test,
        y_checked,
        validation,
        metric,
        n_boot,
        confidence,
        random_state,
        weights,
        val_weights,
        ci if isinstance(ci, str) else dict(ci),
        model_evaluations,
        population,
        costs,
        priors,
    )


def _checked_evaluations(evaluations, test, classes):
    """The given evaluations, one per model of ``test``, each of ``classes``; None stays None."""
    if evaluations is None:
        return None
    from polyroc.evaluation import Evaluation

    if set(evaluations) != set(test):
        raise ValueError(f"evaluations must name the models of y_score ({sorted(test)}), got {sorted(evaluations)}")
    for name, evaluation in evaluations.items():
        if not isinstance(evaluation, Evaluation):
            raise TypeError(f"evaluations[{name!r}] must be an Evaluation, got {type(evaluation).__name__}")
        if [str(c) for c in evaluation.classes] != [str(c) for c in classes]:
            raise ValueError(
                f"evaluations[{name!r}] has classes {list(evaluation.classes)}, the scores {classes.tolist()}"
            )
    return {name: evaluations[name] for name in test}
