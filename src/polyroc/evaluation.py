"""One-call evaluation of a classifier's scores: the standard multiclass summary.

With ``n_boot > 0`` every number also gets a stratified percentile bootstrap
interval. Replicate r weights sample s by its multiplicity times its sample
weight, and all replicates of a chunk are evaluated together: confusion counts
(b, m, m) feed the vectorised counts metrics, losses are weighted means, and
AUCs come from score columns sorted once (see :mod:`polyroc._bootstrap_metrics`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from polyroc import metrics
from polyroc._bootstrap_metrics import (
    Rankings,
    rank_chunk_rows,
    ranking_aucs,
    weighted_means,
)
from polyroc._counts import confusion_counts, replicate_confusion_counts
from polyroc._validation import (
    as_array,
    check_positive_int,
    check_random_state,
    check_real,
    check_scores,
    scale_weights,
)
from polyroc.counts import f1, get_metric, precision, recall
from polyroc.curves import roc_auc_score
from polyroc.resampling import (
    ConfidenceInterval,
    bootstrap_multiplicities,
    percentile_interval,
)

__all__ = ["Evaluation", "evaluate"]

#: Counts metrics of the summary, by their name in :data:`polyroc.counts.METRICS`
#: (undefined ratios are 0, as in the report).
COUNTS_SCORES = ("accuracy", "balanced_accuracy", "f1_macro", "cohen_kappa", "matthews_corrcoef")

#: The AUCs of the summary: (multi_class, average).
RANKING_SCORES = (("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"))

#: Per-class scores that get intervals (argmax predictions, zero_division 0).
CLASS_SCORES = {"precision": precision, "recall": recall, "f1-score": f1}

BOOTSTRAP_METHOD = "stratified percentile bootstrap"


@dataclass(frozen=True)
class Evaluation:
    """Standard metrics of a score matrix, its argmax predictions and its rankings.

    ``intervals`` maps each name of ``scores``, and ``class_intervals`` each of
    "precision", "recall" and "f1-score" then each class label, to a
    :class:`~polyroc.resampling.ConfidenceInterval`; both are empty without
    bootstrap (``n_boot=0``).
    """

    classes: tuple
    confusion_matrix: np.ndarray
    report: dict
    report_text: str
    scores: dict
    intervals: dict = field(default_factory=dict)
    class_intervals: dict = field(default_factory=dict)

    def to_text(self):
        """Render the evaluation as plain text (report, scores, confusion matrix).

        With bootstrap intervals each score reads ``estimate [low, high]``, and
        a table of the per-class intervals follows the scores.
        """
        return "\n".join(
            ["Classification report (argmax predictions)", "", self.report_text.rstrip(), "",
             *self._score_lines(), "", *self._class_interval_lines(),
             "Confusion matrix (rows: true, columns: predicted)", "", *self._matrix_lines()]
        )

    def _score_lines(self):
        name_width = max(len(name) for name in self.scores)
        if not self.intervals:
            return ["Scores", "", *(f"{name.ljust(name_width)}  {value:.4f}" for name, value in self.scores.items())]
        return [f"Scores: {self._interval_settings()}", "", *(
            f"{name.ljust(name_width)}  {_interval_text(self.intervals[name])}" for name in self.scores
        )]

    def _class_interval_lines(self):
        if not self.class_intervals:
            return []
        first = max(len("class"), *(len(str(c)) for c in self.classes)) + 2
        texts = [[_interval_text(by_class[label]) for by_class in self.class_intervals.values()]
                 for label in self.classes]
        cell = max(len(text) for row in texts for text in row) + 2
        header = "class".ljust(first) + "".join(name.rjust(cell) for name in self.class_intervals)
        rows = [str(label).ljust(first) + "".join(text.rjust(cell) for text in row)
                for label, row in zip(self.classes, texts)]
        return [f"Per-class scores: {self._interval_settings()}", "", header, *rows, ""]

    def _interval_settings(self):
        interval = next(iter(self.intervals.values()))
        return f"estimate [{100 * interval.confidence:g}% CI], {interval.method}, B={interval.n_boot}"

    def _matrix_lines(self):
        corner = "true\\pred"
        first = max(len(corner), *(len(str(c)) for c in self.classes)) + 2
        cell = max(len(str(c)) for c in self.classes) + 2
        cell = max(cell, len(f"{self.confusion_matrix.max():g}") + 2)
        header = corner.ljust(first) + "".join(str(c).rjust(cell) for c in self.classes)
        return [header] + [
            str(c).ljust(first) + "".join(f"{v:g}".rjust(cell) for v in row)
            for c, row in zip(self.classes, self.confusion_matrix)
        ]


def _interval_text(interval):
    return f"{interval.estimate:.4f} [{interval.low:.4f}, {interval.high:.4f}]"


def evaluate(y_true, y_score, *, labels=None, sample_weight=None, normalize_rows=False,
             from_logits=False, digits=3, n_boot=0, confidence=0.95, random_state=None):
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
        Non-negative weights of relative importance: multiplying them all by
        a constant changes no score.
    normalize_rows, from_logits : bool
        Rescale rows to sum 1, or map logits through softmax, before evaluating.
    digits : int, default=3
        Digits of the text report.
    n_boot : int, default=0
        Bootstrap replicates for the intervals; 0 computes none. Replicates
        are drawn within each class (:func:`polyroc.resampling.bootstrap_multiplicities`)
        and weight each sample by its multiplicity times its sample weight.
    confidence : float, default=0.95
        Level of the equal-tailed percentile intervals, in (0, 1).
    random_state : None, int or numpy.random.Generator
        Seed of the bootstrap; the same seed gives the same intervals.

    Returns
    -------
    Evaluation
        Its ``confusion_matrix`` and the supports of its ``report`` hold
        sums of sample weights, as scikit-learn's. With ``intervals`` for
        every score and ``class_intervals`` for the per-class precision,
        recall and F1 when ``n_boot > 0``. A replicate
        where a ratio is 0/0 counts it as 0, as the report does; replicates
        where an AUC is undefined are left out of its interval.

    Raises
    ------
    ValueError, TypeError
        For invalid inputs, as :func:`polyroc._validation.check_scores` documents
        (lengths, NaN, negative scores, rows off the simplex, unknown labels,
        column count).
    TypeError
        If ``n_boot`` is not an integer, ``confidence`` not a real number, or
        ``random_state`` not None, an integer or a Generator.
    ValueError
        If ``n_boot`` is negative, ``confidence`` is not in (0, 1) or
        ``random_state`` is a negative integer.

    Warns
    -----
    sklearn.exceptions.DataConversionWarning
        If ``y_true`` is a column vector (n, 1); it is raveled.

    Examples
    --------
    >>> result = evaluate([0, 1, 2, 2], [[.8, .1, .1], [.2, .7, .1], [.1, .2, .7], [.5, .1, .4]])
    >>> round(result.scores["accuracy"], 2), round(result.scores["roc_auc_ovr_macro"], 4)
    (0.75, 1.0)

    With bootstrap intervals:

    >>> y = np.repeat([0, 1, 2], 20)
    >>> P = np.full((60, 3), 0.2) + 0.4 * np.eye(3)[(y + (np.arange(60) % 5 == 0)) % 3]
    >>> result = evaluate(y, P, n_boot=200, random_state=0)
    >>> print(result.intervals["accuracy"])
    0.8000 [95% CI 0.7000, 0.9000; stratified percentile bootstrap, B=200]
    >>> print(result.class_intervals["recall"][0])
    0.8000 [95% CI 0.6488, 0.9500; stratified percentile bootstrap, B=200]
    """
    n_boot = check_positive_int("n_boot", n_boot, minimum=0)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    rng = check_random_state(random_state)
    y_score = as_array("y_score", y_score)
    y_idx, scores, classes, given_weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight,
        normalize_rows=normalize_rows, from_logits=from_logits,
    )
    scale = scale_weights(given_weights)  # every score is scale-free; counts are scaled back
    weights = scale.weights
    y_labels = classes[y_idx]
    predicted = np.argmax(scores, axis=1)
    counts = confusion_counts(y_idx, predicted, classes.size, weights)
    losses = _sample_losses(y_idx, scores, metrics._machine_epsilon(y_score.dtype))
    ranking = {
        _ranking_name(key): roc_auc_score(
            y_labels, scores, labels=classes, sample_weight=weights, multi_class=key[0], average=key[1]
        )
        for key in RANKING_SCORES
    }
    values = {
        **_counts_scores(counts),
        **ranking,
        **{name: np.average(loss, weights=weights) for name, loss in losses.items()},
    }
    values = {name: float(value) for name, value in values.items()}
    intervals, class_intervals = {}, {}
    if n_boot:
        replicates = _bootstrap_replicates(y_idx, predicted, scores, weights, losses, n_boot, rng)
        settings = {"confidence": confidence, "n_boot": n_boot, "random_state": random_state}
        intervals = {name: _interval(value, replicates[name], **settings) for name, value in values.items()}
        class_intervals = {
            name: {label: _interval(value[k], replicates[name][:, k], **settings)
                   for k, label in enumerate(classes.tolist())}
            for name, value in _class_scores(counts).items()
        }
    y_pred = classes[predicted]
    report_options = {"labels": classes, "sample_weight": given_weights,
                      "target_names": [str(c) for c in classes], "zero_division": 0.0}
    return Evaluation(
        classes=tuple(classes.tolist()),
        confusion_matrix=scale.restore(counts),
        report=metrics.classification_report(y_labels, y_pred, output_dict=True, **report_options),
        report_text=metrics.classification_report(y_labels, y_pred, digits=digits, **report_options),
        scores=values,
        intervals=intervals,
        class_intervals=class_intervals,
    )


def _ranking_name(key):
    """Name of the AUC with ``key`` = (multi_class, average) in the scores."""
    multi_class, average = key
    return f"roc_auc_{multi_class}_{average}"


def _counts_scores(counts):
    """The counts metrics of counts (..., m, m), each of shape (...)."""
    return {name: get_metric(name)(counts) for name in COUNTS_SCORES}


def _class_scores(counts):
    """Per-class precision, recall and F1 of counts (..., m, m), each of shape (..., m)."""
    return {name: score(counts, average=None, zero_division=0.0) for name, score in CLASS_SCORES.items()}


def _sample_losses(y, scores, eps):
    """Per-sample loss of each score-based metric; the metric is its weighted mean.

    The log loss clips at ``eps``, as :func:`polyroc.metrics.log_loss` with ``eps="auto"``.
    """
    losses = {
        "log_loss": metrics._sample_log_losses(y, scores, eps),
        "brier_score": metrics._sample_brier_losses(y, scores),
    }
    if scores.shape[1] > 2:
        losses["top_2_accuracy"] = metrics._sample_top_k_hits(y, scores, 2).astype(np.float64)
    return losses


def _bootstrap_replicates(y, predicted, scores, weights, losses, n_boot, rng):
    """Every score (B,) and per-class score (B, m) of each stratified bootstrap replicate."""
    n_classes = scores.shape[1]
    rankings = Rankings.of(y, scores)
    loss_columns = np.column_stack(list(losses.values()))
    chunks = []
    for multiplicities in bootstrap_multiplicities(
        y, n_boot, stratify=True, random_state=rng, chunk_size=rank_chunk_rows(y.size)
    ):
        rows = multiplicities.astype(np.float64) if weights is None else multiplicities * weights
        counts = replicate_confusion_counts(y, predicted, n_classes, rows)
        aucs = ranking_aucs(rankings, rows, counts.sum(axis=-1))
        chunks.append({
            **_counts_scores(counts),
            **{_ranking_name(key): value for key, value in aucs.items()},
            **dict(zip(losses, weighted_means(loss_columns, rows).T)),
            **_class_scores(counts),
        })
    return {name: np.concatenate([chunk[name] for chunk in chunks]) for name in chunks[0]}


def _interval(estimate, replicates, *, confidence, n_boot, random_state):
    """Percentile interval of the replicates (B,) of a statistic, around its estimate."""
    low, high = percentile_interval(replicates, confidence=confidence)
    return ConfidenceInterval(
        estimate=float(estimate), low=float(low), high=float(high), confidence=confidence,
        method=BOOTSTRAP_METHOD, n_boot=n_boot, random_state=random_state,
    )
