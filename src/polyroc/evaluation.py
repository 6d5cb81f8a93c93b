"""One-call evaluation of a classifier's scores: the standard multiclass summary.

With ``n_boot > 0`` (the default) every number also gets a stratified
percentile bootstrap interval. Replicate r weights sample s by its multiplicity
times its sample weight. The samples are grouped by class once, so that each
replicate's draws fill contiguous rows; chunks of replicates run on every core:
confusion counts (b, m, m) of a chunk feed the vectorised counts metrics,
losses are weighted means, and AUCs come from the positives of each comparison
sorted once (:class:`polyroc._bootstrap_metrics.GroupedRankings`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import metrics
from polyroc._bootstrap_metrics import GroupedRankings, grouped_chunk_rows, integer_weights_are_exact
from polyroc._counts import confusion_cells, confusion_counts
from polyroc._parallel import chunk_map
from polyroc._progress import task
from polyroc._results import Result, frame
from polyroc._validation import (
    as_array,
    check_positive_int,
    check_random_state,
    check_real,
    check_scores,
    scale_weights,
)
from polyroc.counts import f1, get_metric, precision, recall
from polyroc.metrics import roc_auc_score
from polyroc.resampling import (
    STRATIFIED_PERCENTILE,
    ConfidenceInterval,
    stratum_multiplicities,
)

__all__ = ["Evaluation", "evaluate"]

#: Counts metrics of the summary, by their name in :data:`polyroc.counts.METRICS`
#: (undefined ratios are 0, as in the report).
COUNTS_SCORES = ("accuracy", "balanced_accuracy", "f1_macro", "cohen_kappa", "matthews_corrcoef")

#: The AUCs of the summary: (multi_class, average).
RANKING_SCORES = (("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"))

#: Per-class scores that get intervals (argmax predictions, zero_division 0).
CLASS_SCORES = {"precision": precision, "recall": recall, "f1-score": f1}


@dataclass(frozen=True, eq=False, repr=False)
class Evaluation(Result):
    """Standard metrics of a score matrix, its argmax predictions and its rankings.

    Attributes
    ----------
    classes : tuple
        The class labels, in the order of the score columns.
    confusion_matrix : ndarray of shape (m, m)
        Sums of sample weights of (true, argmax-predicted) classes.
    report : dict
        :func:`polyroc.metrics.classification_report` of the argmax
        predictions (``output_dict=True``).
    report_text : str
        The same report as text.
    scores : dict
        Score name -> value: accuracy, balanced accuracy, macro-F1, Cohen's
        kappa, MCC, OvR macro/weighted/micro and OvO (Hand & Till) macro ROC
        AUC, log loss, Brier score and (m > 2) top-2 accuracy.
    intervals : dict
        Each name of ``scores`` -> its
        :class:`~polyroc.resampling.ConfidenceInterval`; empty when
        ``n_boot=0``.
    class_intervals : dict
        "precision", "recall" and "f1-score" -> class label -> its
        :class:`~polyroc.resampling.ConfidenceInterval`; empty when
        ``n_boot=0``.
    settings : dict
        ``"n_boot"``, ``"confidence"``, ``"random_state"`` (as given),
        ``"interval_method"`` (None without intervals), ``"normalize_rows"``
        and ``"from_logits"``.

    Notes
    -----
    :meth:`to_frame` gives one row per score (``score``, ``estimate``,
    ``low``, ``high``, ``method``); ``to_frame(per_class=True)`` one row per
    class (``class``, ``support``, then each per-class score with its
    ``_low`` and ``_high`` bounds). Without intervals the bounds are NaN.
    """

    classes: tuple
    confusion_matrix: np.ndarray
    report: dict[str, Any]
    report_text: str
    scores: dict[str, float]
    intervals: dict[str, ConfidenceInterval] = field(default_factory=dict)
    class_intervals: dict[str, dict[Any, ConfidenceInterval]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_frame(self, *, per_class: bool = False) -> Any:
        """The scores (or, with ``per_class=True``, the per-class scores) as a pandas DataFrame.

        Parameters
        ----------
        per_class : bool, default=False
            False: one row per score with its estimate, interval bounds and
            interval method. True: one row per class with its support and its
            precision, recall and F1 (argmax predictions), each with its bounds.

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        ImportError
            If pandas is not installed (``pip install pandas``).

        Examples
        --------
        >>> result = evaluate([0, 1, 1, 0], [[.7, .3], [.4, .6], [.2, .8], [.6, .4]], n_boot=0)
        >>> result.to_frame().loc[0, "score"], float(result.to_frame().loc[0, "estimate"])
        ('accuracy', 1.0)
        >>> result.to_frame(per_class=True)[["class", "support", "recall"]]
           class  support  recall
        0      0      2.0     1.0
        1      1      2.0     1.0
        """
        if not per_class:
            return super().to_frame()
        return frame(self._class_rows(), "Evaluation.to_frame")

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per score: its estimate, interval bounds and interval method."""
        rows = []
        for name, value in self.scores.items():
            interval = self.intervals.get(name)
            rows.append(
                {
                    "score": name,
                    "estimate": value,
                    **_bounds(interval),
                    "method": None if interval is None else interval.method,
                }
            )
        return rows

    def _class_rows(self) -> list[dict[str, Any]]:
        """One row per class: its support, and each per-class score with its bounds."""
        rows = []
        for label in self.classes:
            entry = self.report[str(label)]
            row = {"class": label, "support": float(entry["support"])}
            for name in CLASS_SCORES:
                interval = self.class_intervals.get(name, {}).get(label)
                bounds = _bounds(interval)
                row.update({name: float(entry[name]), f"{name}_low": bounds["low"], f"{name}_high": bounds["high"]})
            rows.append(row)
        return rows

    def _summary(self) -> dict[str, Any]:
        """The classes and every score, for ``_repr_html_``."""
        return {"classes": list(self.classes), **self.scores}

    def to_text(self) -> str:
        """Render the evaluation as plain text (report, scores, confusion matrix).

        With bootstrap intervals each score reads ``estimate [low, high]``, and
        a table of the per-class intervals follows the scores.

        Returns
        -------
        str

        Examples
        --------
        >>> print(evaluate([0, 1], [[.8, .2], [.3, .7]], n_boot=0).to_text().splitlines()[0])
        Classification report (argmax predictions)
        """
        return "\n".join(
            [
                "Classification report (argmax predictions)",
                "",
                self.report_text.rstrip(),
                "",
                *self._score_lines(),
                "",
                *self._class_interval_lines(),
                "Confusion matrix (rows: true, columns: predicted)",
                "",
                *self._matrix_lines(),
            ]
        )

    def _score_lines(self) -> list[str]:
        name_width = max(len(name) for name in self.scores)
        if not self.intervals:
            return ["Scores", "", *(f"{name.ljust(name_width)}  {value:.4f}" for name, value in self.scores.items())]
        return [
            f"Scores: {self._interval_settings()}",
            "",
            *(f"{name.ljust(name_width)}  {_interval_text(self.intervals[name])}" for name in self.scores),
        ]

    def _class_interval_lines(self) -> list[str]:
        if not self.class_intervals:
            return []
        first = max(len("class"), *(len(str(c)) for c in self.classes)) + 2
        texts = [
            [_interval_text(by_class[label]) for by_class in self.class_intervals.values()] for label in self.classes
        ]
        cell = max(len(text) for row in texts for text in row) + 2
        header = "class".ljust(first) + "".join(name.rjust(cell) for name in self.class_intervals)
        rows = [
            str(label).ljust(first) + "".join(text.rjust(cell) for text in row)
            for label, row in zip(self.classes, texts)
        ]
        return [f"Per-class scores: {self._interval_settings()}", "", header, *rows, ""]

    def _interval_settings(self) -> str:
        interval = next(iter(self.intervals.values()))
        return f"estimate [{100 * interval.confidence:g}% CI], {interval.method}, B={interval.n_boot}"

    def _matrix_lines(self) -> list[str]:
        corner = "true\\pred"
        first = max(len(corner), *(len(str(c)) for c in self.classes)) + 2
        cell = max(len(str(c)) for c in self.classes) + 2
        cell = max(cell, len(f"{self.confusion_matrix.max():g}") + 2)
        header = corner.ljust(first) + "".join(str(c).rjust(cell) for c in self.classes)
        return [header] + [
            str(c).ljust(first) + "".join(f"{v:g}".rjust(cell) for v in row)
            for c, row in zip(self.classes, self.confusion_matrix)
        ]


def _bounds(interval: ConfidenceInterval | None) -> dict[str, float]:
    """``{"low", "high"}`` of an interval; NaN without one."""
    if interval is None:
        return {"low": float("nan"), "high": float("nan")}
    return {"low": interval.low, "high": interval.high}


def _interval_text(interval: ConfidenceInterval) -> str:
    return f"{interval.estimate:.4f} [{interval.low:.4f}, {interval.high:.4f}]"


def evaluate(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize_rows: bool = False,
    from_logits: bool = False,
    digits: int = 3,
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
) -> Evaluation:
    """Evaluate a score matrix: argmax report, confusion matrix and ranking AUCs, with intervals.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Class probabilities, columns in the order of ``labels``.
    labels : array-like, default=None
        Class order of the columns; default the sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance: multiplying them all by
        a constant changes no score.
    normalize_rows : bool, default=False
        Rescale rows to sum 1 before evaluating.
    from_logits : bool, default=False
        Map the rows (logits) through softmax before evaluating.
    digits : int, default=3
        Digits of the text report.
    n_boot : int, default=1000
        Bootstrap replicates for the intervals; 0 computes none. Replicates
        are drawn within each class (:func:`polyroc.resampling.bootstrap_multiplicities`)
        and weight each sample by its multiplicity times its sample weight.
    confidence : float, default=0.95
        Level of the equal-tailed percentile intervals, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
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
    >>> result = evaluate([0, 1, 2, 2], [[.8, .1, .1], [.2, .7, .1], [.1, .2, .7], [.5, .1, .4]], n_boot=0)
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
    >>> result.to_frame().loc[0, ["score", "low", "high"]].tolist()
    ['accuracy', np.float64(0.7), np.float64(0.9)]
    """
    n_boot = check_positive_int("n_boot", n_boot, minimum=0)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    rng = check_random_state(random_state)
    y_score = as_array("y_score", y_score)
    y_idx, scores, classes, given_weights = check_scores(
        y_true,
        y_score,
        labels=labels,
        sample_weight=sample_weight,
        normalize_rows=normalize_rows,
        from_logits=from_logits,
    )
    scale = scale_weights(given_weights)  # every score is scale-free; counts are scaled back
    weights = scale.weights
    y_labels = classes[y_idx]
    predicted = np.argmax(scores, axis=1)
    counts = confusion_counts(y_idx, predicted, classes.size, weights)
    losses = _sample_losses(y_idx, scores, metrics._machine_epsilon(y_score.dtype))
    ranking = {_ranking_name(key): value for key, value in _ranking_scores(y_labels, scores, classes, weights).items()}
    values = {
        **_counts_scores(counts),
        **ranking,
        **{name: np.average(loss, weights=weights) for name, loss in losses.items()},
    }
    values = {name: float(value) for name, value in values.items()}
    intervals, class_intervals = {}, {}
    if n_boot:
        replicates = _bootstrap_replicates(y_idx, predicted, scores, weights, losses, n_boot, rng)
        options = {"confidence": confidence, "n_boot": n_boot, "random_state": random_state}
        intervals = {
            name: ConfidenceInterval.from_replicates(value, replicates[name], **options)
            for name, value in values.items()
        }
        class_intervals = {
            name: {
                label: ConfidenceInterval.from_replicates(value[k], replicates[name][:, k], **options)
                for k, label in enumerate(classes.tolist())
            }
            for name, value in _class_scores(counts).items()
        }
    y_pred = classes[predicted]
    report_options = {
        "labels": classes,
        "sample_weight": given_weights,
        "target_names": [str(c) for c in classes],
        "zero_division": 0.0,
    }
    settings = {
        "n_boot": n_boot,
        "confidence": confidence,
        "random_state": random_state,
        "interval_method": STRATIFIED_PERCENTILE if n_boot else None,
        "normalize_rows": normalize_rows,
        "from_logits": from_logits,
    }
    return Evaluation(
        classes=tuple(classes.tolist()),
        confusion_matrix=scale.restore(counts),
        report=metrics.classification_report(y_labels, y_pred, output_dict=True, **report_options),
        report_text=metrics.classification_report(y_labels, y_pred, digits=digits, **report_options),
        scores=values,
        intervals=intervals,
        class_intervals=class_intervals,
        settings=settings,
    )


def _ranking_scores(y_labels, scores, classes, weights):
    """Each AUC of :data:`RANKING_SCORES`, as :func:`polyroc.metrics.roc_auc_score` gives it.

    With more than two classes every score column is sorted once for all of them.
    """
    options = {"labels": classes, "sample_weight": weights}
    if classes.size > 2:
        return metrics._multiclass_ranking_scores(y_labels, scores, keys=RANKING_SCORES, **options)
    return {
        key: roc_auc_score(y_labels, scores, multi_class=key[0], average=key[1], **options) for key in RANKING_SCORES
    }


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
    """Every score (B,) and per-class score (B, m) of each stratified bootstrap replicate.

    The samples are grouped by class, so that a replicate's draws
    (:func:`polyroc.resampling.stratum_multiplicities`, the draws of
    :func:`polyroc.resampling.bootstrap_multiplicities`) fill each class's block
    of columns of the weight rows (b, n) directly. Chunks of replicates run on every core
    (:func:`polyroc._parallel.chunk_map`); each chunk depends only on its
    generators, so the results do not depend on the number of threads.
    """
    grouped = np.argsort(y, kind="stable")
    y, predicted, scores = y[grouped], predicted[grouped], scores[grouped]
    weights = None if weights is None else weights[grouped]
    n_classes = scores.shape[1]
    engine = _ReplicateEngine(
        sizes=np.bincount(y, minlength=n_classes).tolist(),
        cells=confusion_cells(y, predicted, n_classes),
        weights=weights,
        losses=np.column_stack([loss[grouped] for loss in losses.values()]),
        loss_names=tuple(losses),
        rankings=GroupedRankings.of(y, scores),
        integer_auc_rows=weights is None and integer_weights_are_exact(y.size, n_classes),
    )
    seeds = rng.spawn(n_boot)
    step = grouped_chunk_rows(y.size)
    work = task("bootstrap replicates", n_boot)
    chunks = []
    for chunk in chunk_map(engine.replicates, (seeds[start : start + step] for start in range(0, n_boot, step))):
        chunks.append(chunk)
        work.advance(chunk["accuracy"].size)
    return {name: np.concatenate([chunk[name] for chunk in chunks]) for name in chunks[0]}


@dataclass(frozen=True, eq=False)
class _ReplicateEngine:
    """Everything a chunk of replicates needs, for samples grouped by class (shared read-only by the threads)."""

    sizes: list[int]
    cells: Any
    weights: np.ndarray | None
    losses: np.ndarray
    loss_names: tuple[str, ...]
    rankings: GroupedRankings
    integer_auc_rows: bool  # no sample weights, and sizes where integers give the float64 bits

    def replicates(self, seeds):
        """Every score of the replicates drawn from ``seeds``, one generator per replicate."""
        counted, rows = self._weight_rows(seeds)
        n_classes = len(self.sizes)
        counts = (self.cells @ rows.T).T.reshape(-1, n_classes, n_classes)
        aucs = self.rankings.aucs(counted, counts.sum(axis=-1))
        means = np.einsum("bn,nl->lb", rows, self.losses) / rows.sum(axis=1)  # not BLAS: no nested thread pool
        return {
            **_counts_scores(counts),
            **{_ranking_name(key): value for key, value in aucs.items()},
            **dict(zip(self.loss_names, means)),
            **_class_scores(counts),
        }

    def _weight_rows(self, seeds):
        """The weight rows (b, n) of the replicates for the AUCs, and as float64 for the counts and means.

        Without sample weights the AUCs take the multiplicities themselves as
        small integers (uint8 unless a count exceeds 255): their gathers move
        a fraction of the memory of float64 rows, for the same bits
        (:func:`polyroc._bootstrap_metrics.integer_weights_are_exact`).
        """
        if not self.integer_auc_rows:
            rows = stratum_multiplicities(seeds, self.sizes)
            if self.weights is not None:
                rows *= self.weights
            return rows, rows
        counted = stratum_multiplicities(seeds, self.sizes, dtype=np.int32)
        if counted.max(initial=0) <= np.iinfo(np.uint8).max:
            counted = counted.astype(np.uint8)
        return counted, counted.astype(np.float64)
