"""One-call evaluation of a classifier's scores: the standard multiclass summary."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc import metrics
from polyroc._counts import confusion_counts
from polyroc._validation import check_scores
from polyroc.curves import roc_auc

__all__ = ["Evaluation", "evaluate"]


@dataclass(frozen=True)
class Evaluation:
    """Standard metrics of a score matrix, its argmax predictions and its rankings."""

    classes: tuple
    confusion_matrix: np.ndarray
    report: dict
    report_text: str
    scores: dict

    def to_text(self):
        """Render the evaluation as plain text (report, scores, confusion matrix)."""
        corner = "true\\pred"
        first = max(len(corner), *(len(str(c)) for c in self.classes)) + 2
        cell = max(len(str(c)) for c in self.classes) + 2
        cell = max(cell, len(f"{self.confusion_matrix.max():g}") + 2)
        header = corner.ljust(first) + "".join(str(c).rjust(cell) for c in self.classes)
        lines = [header] + [
            str(c).ljust(first) + "".join(f"{v:g}".rjust(cell) for v in row)
            for c, row in zip(self.classes, self.confusion_matrix)
        ]
        name_width = max(len(name) for name in self.scores)
        score_lines = [f"{name.ljust(name_width)}  {value:.4f}" for name, value in self.scores.items()]
        return "\n".join(
            ["Classification report (argmax predictions)", "", self.report_text.rstrip(), "",
             "Scores", "", *score_lines, "", "Confusion matrix (rows: true, columns: predicted)",
             "", *lines]
        )


def evaluate(y_true, y_score, *, labels=None, sample_weight=None, normalize=False,
             from_logits=False, digits=3):
    """Evaluate a score matrix: argmax report, confusion matrix and ranking AUCs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Class probabilities, columns in the order of ``labels``.
    labels : array-like, optional
        Class order of the columns; default the sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), optional
    normalize, from_logits : bool
        Rescale rows to sum 1, or map logits through softmax, before evaluating.
    digits : int, default=3
        Digits of the text report.

    Returns
    -------
    Evaluation

    Raises
    ------
    ValueError, TypeError
        For invalid inputs, as :func:`polyroc._validation.check_scores` documents
        (lengths, NaN, negative scores, rows off the simplex, unknown labels,
        column count).

    Examples
    --------
    >>> result = evaluate([0, 1, 2, 2], [[.8, .1, .1], [.2, .7, .1], [.1, .2, .7], [.5, .1, .4]])
    >>> round(result.scores["accuracy"], 2), round(result.scores["roc_auc_ovr_macro"], 4)
    (0.75, 1.0)
    """
    y_idx, scores, classes, weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight,
        normalize=normalize, from_logits=from_logits,
    )
    y_labels = classes[y_idx]
    y_pred = classes[np.argmax(scores, axis=1)]
    counts = confusion_counts(y_idx, np.argmax(scores, axis=1), classes.size, weights)
    common = dict(labels=classes, sample_weight=weights)
    report_options = dict(common, target_names=[str(c) for c in classes], zero_division=0.0)
    ranking = {
        f"roc_auc_{multi_class}_{average}": roc_auc(
            y_labels, scores, multi_class=multi_class, average=average, **common
        )
        for multi_class, average in (("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"),
                                     ("ovo", "macro"))
    }
    values = {
        "accuracy": metrics.accuracy(counts),
        "balanced_accuracy": metrics.balanced_accuracy(counts),
        "f1_macro": metrics.f1(counts, average="macro", zero_division=0.0),
        "cohen_kappa": metrics.cohen_kappa(counts),
        "matthews_corrcoef": metrics.matthews_corrcoef(counts),
        **ranking,
        "log_loss": metrics.log_loss(y_labels, scores, **common),
        "brier_score": metrics.brier_score(y_labels, scores, **common),
    }
    if classes.size > 2:
        values["top_2_accuracy"] = metrics.top_k_accuracy(y_labels, scores, k=2, **common)
    return Evaluation(
        classes=tuple(classes.tolist()),
        confusion_matrix=counts,
        report=metrics.classification_report(y_labels, y_pred, output_dict=True, **report_options),
        report_text=metrics.classification_report(y_labels, y_pred, digits=digits, **report_options),
        scores={name: float(value) for name, value in values.items()},
    )
