"""``classification_report``, from labels or from confusion counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.counts import per_class_counts
from polyroc._validation import (
    check_label_pair_sklearn,
    check_labels_argument_sklearn,
    check_positive_int,
    check_zero_division,
)
from polyroc.metrics._multilabel import delegated
from polyroc.metrics._prf import PRF_METRICS, prf_of_tables
from polyroc.metrics._tables import at_least_two, ovr_tables, support_dtype

_REPORT_HEADERS = ("precision", "recall", "f1-score", "support")


def _report_text(class_rows, average_rows, digits):
    """scikit-learn's classification report layout; rows are (name, p, r, f, support)."""
    names = [row[0] for row in class_rows]
    width = max(max(len(name) for name in names), len("weighted avg"), digits)
    row_format = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}\n"
    accuracy_format = "{:>{width}s} " + " {:>9.{digits}}" * 2 + " {:>9.{digits}f}" + " {:>9}\n"
    text = ("{:>{width}s} " + " {:>9}" * 4).format("", *_REPORT_HEADERS, width=width) + "\n\n"
    text += "".join(row_format.format(*row, width=width, digits=digits) for row in class_rows)
    text += "\n"
    for name, *values in average_rows:
        if name == "accuracy":
            text += accuracy_format.format(name, "", "", *values[2:], width=width, digits=digits)
        else:
            text += row_format.format(name, *values, width=width, digits=digits)
    return text


def classification_report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    target_names: Sequence[str] | None = None,
    sample_weight: ArrayLike | None = None,
    digits: int = 2,
    output_dict: bool = False,
    zero_division: Literal["warn"] | float = "warn",
) -> str | dict[str, dict[str, float] | float]:
    """Text (or dict) report of precision, recall, F1 and support, as ``sklearn.metrics.classification_report``.

    One row per label, then ``accuracy`` (``micro avg`` when ``labels``
    leaves out a label present), ``macro avg`` and ``weighted avg``; each
    row from :func:`precision_recall_fscore_support`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels; multilabel indicators are handed to scikit-learn.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_labels,), default=None
        The labels reported, in this order.
    target_names : sequence of str of length n_labels, default=None
        Display names of the labels; by default ``"%s" % label``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    digits : int, default=2
        Digits shown for the scores (text only).
    output_dict : bool, default=False
        Return a dict ``{name: {"precision": ..., "recall": ..., "f1-score":
        ..., "support": ...}, "accuracy": float, ...}`` instead of text.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a ratio whose denominator is 0.

    Returns
    -------
    str or dict
        The report.

    Raises
    ------
    ValueError
        For bad labels or weights, ``digits`` negative, ``zero_division``
        not an option, or ``target_names`` of the wrong length without
        ``labels``.
    TypeError
        If a list mixes strings and numbers or ``digits`` is not an integer.

    Warns
    -----
    UserWarning
        If ``target_names`` and the given ``labels`` differ in length.
    UndefinedMetricWarning
        For 0/0 ratios with ``zero_division="warn"``.

    See Also
    --------
    precision_recall_fscore_support : The numbers of the report as arrays.
    confusion_matrix : The counts behind every row.
    polyroc.evaluate : The report of a score matrix's argmax, with AUCs and intervals.

    Examples
    --------
    >>> print(classification_report(["a", "b", "b", "c"], ["a", "b", "c", "c"]))
                  precision    recall  f1-score   support
    <BLANKLINE>
               a       1.00      1.00      1.00         1
               b       1.00      0.50      0.67         2
               c       0.50      1.00      0.67         1
    <BLANKLINE>
        accuracy                           0.75         4
       macro avg       0.83      0.83      0.78         4
    weighted avg       0.88      0.75      0.75         4
    <BLANKLINE>
    """
    digits = check_positive_int("digits", digits, minimum=0)
    check_zero_division(zero_division)
    pair = check_label_pair_sklearn(y_true, y_pred, sample_weight)
    if pair.kind == "multilabel-indicator":
        return delegated(
            "classification_report",
            y_true,
            y_pred,
            labels=labels,
            target_names=target_names,
            sample_weight=sample_weight,
            digits=digits,
            output_dict=output_dict,
            zero_division=zero_division,
        )
    labels_given = labels is not None
    classes = pair.present if labels is None else check_labels_argument_sklearn(labels)
    micro_is_accuracy = not labels_given or set(classes.tolist()) >= set(pair.present.tolist())
    if target_names is not None and len(classes) != len(target_names):
        if not labels_given:
            raise ValueError(
                f"Number of classes, {len(classes)}, does not match size of target_names, "
                f"{len(target_names)}. Try specifying the labels parameter"
            )
        _warnings.warn(
            f"labels size, {len(classes)}, does not match size of target_names, {len(target_names)}",
            UserWarning,
        )
    names = [f"{label}" for label in classes] if target_names is None else list(target_names)
    # one count for every row: the per-class tables, then their averages
    tables, support = ovr_tables(pair, classes if labels_given else None)
    support = support.astype(support_dtype(pair, sample_weight))
    return _report_of_tables(names, tables, support, micro_is_accuracy, zero_division, digits, output_dict)


def report_of_counts(
    counts, names, *, weighted: bool, digits: int = 2, output_dict: bool = False, zero_division=0.0, restore=None
):
    """:func:`classification_report` of the rows whose confusion counts (m, m) are ``counts``.

    ``weighted`` says whether the counts are sums of sample weights (float
    supports) or row counts (integer supports, as scikit-learn's unless no
    row is right). ``restore`` maps counts of scaled weights back to the
    given units (:meth:`polyroc._validation.ScaledWeights.restore`) for the
    supports, the only counts the report shows: its micro average sums m
    one-vs-rest tables, m times the total, which must stay in float range.

    >>> print(report_of_counts(np.array([[1, 0], [1, 2]]), ["a", "b"], weighted=False).splitlines()[2])
               a       0.50      1.00      0.67         1
    """
    counts = np.asarray(counts)
    tp, fp, fn, tn = per_class_counts(at_least_two(counts))
    tables = np.stack([np.stack([tn, fp], axis=-1), np.stack([fn, tp], axis=-1)], axis=-2).astype(np.float64)
    integer = not weighted and bool(np.trace(counts) > 0)
    support = counts.sum(axis=1).astype(np.int64 if integer else np.float64)
    if restore is not None:
        support = restore(support)
    return _report_of_tables(list(names), tables, support, True, zero_division, digits, output_dict)


def _report_of_tables(names, tables, support, micro_is_accuracy, zero_division, digits, output_dict):
    """The report (text or dict) of one-vs-rest tables [[TN, FP], [FN, TP]] and the supports."""
    precision, recall, f_score = prf_of_tables(tables, support, 1.0, None, PRF_METRICS, zero_division)
    class_rows = list(zip(names, precision, recall, f_score, support))
    average_rows = []
    for average in ("micro", "macro", "weighted"):
        heading = "accuracy" if average == "micro" and micro_is_accuracy else f"{average} avg"
        scores = prf_of_tables(tables, support, 1.0, average, PRF_METRICS, zero_division)
        average_rows.append((heading, *scores, np.sum(support)))
    if not output_dict:
        return _report_text(class_rows, average_rows, digits)
    report = {name: dict(zip(_REPORT_HEADERS, map(float, values))) for name, *values in class_rows}
    report.update({name: dict(zip(_REPORT_HEADERS, map(float, values))) for name, *values in average_rows})
    if "accuracy" in report:
        report["accuracy"] = report["accuracy"]["precision"]
    return report
