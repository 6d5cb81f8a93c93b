"""Streaming accumulators (public path: :mod:`polyroc.streaming`)."""

from __future__ import annotations

import copy
import numbers
from collections.abc import Mapping
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.counts import confusion_counts, threshold_counts
from polyroc._engine.ranking import hand_till, ovr_auc, without_zero_weights
from polyroc._engine.sorted_runs import (
    Run,
    batch_run,
    code_dtype,
    column_wins,
    distinct_scores,
    merged_run,
    micro_wins,
    push_run,
    run_nbytes,
)
from polyroc._validation import (
    as_array,
    check_labels_argument,
    check_positive_int,
    check_same_length,
    check_score_matrix,
    check_scores,
    check_thresholds,
    check_weight_total,
)
from polyroc._validation._params import Interval, validate_params
from polyroc.evaluation._evaluate import EVALUATE_PARAMS
from polyroc.evaluation._plan import CiChoice
from polyroc.evaluation._priors import Deployment
from polyroc.evaluation._stream_priors import ClassSummaries, scaled_bins, summary_nbytes
from polyroc.evaluation._summary import SummaryStatistics, row_losses
from polyroc.metrics._ranking import average_class_scores, warn_classes_without_samples
from polyroc.metrics._scores import machine_epsilon, sample_brier_losses, sample_log_losses, sample_top_k_hits

__all__ = ["ConfusionAccumulator", "EvaluationAccumulator", "LossAccumulator", "RankingAccumulator"]


def _is_empty_batch(y_true) -> bool:
    return y_true is not None and np.ndim(y_true) == 1 and np.shape(y_true)[0] == 0


def _same_setting(mine, theirs) -> bool:
    """Whether two optional array settings of accumulators are equal: both None, or equal arrays.

    >>> _same_setting(None, None), _same_setting(np.array([1.0]), None), _same_setting(np.ones(2), np.ones(2))
    (True, False, True)
    """
    return (mine is None) == (theirs is None) and (mine is None or bool(np.array_equal(mine, theirs)))


class _Accumulator:
    """Shared label handling, batch checks and merge checks of the accumulators."""

    def __init__(self, labels: ArrayLike) -> None:
        self.labels = check_labels_argument(labels)
        self.weight_seen = 0.0  # the total weight of every row added: kept below the float64 limit

    @property
    def n_classes(self) -> int:
        return int(self.labels.size)

    def _check_batch(self, y_true, y_score, sample_weight):
        """Encoded labels, float64 scores and weights (or None) of a batch; None for an empty batch."""
        if _is_empty_batch(y_true):
            scores = check_score_matrix(y_score, classes=self.labels)
            check_same_length(y_true=y_true, y_score=scores)
            if sample_weight is not None and np.shape(as_array("sample_weight", sample_weight)) != (0,):
                raise ValueError(
                    f"sample_weight must have shape (0,) to match the empty batch, got {np.shape(sample_weight)}"
                )
            self._check_columns(scores)
            return None
        y, scores, _, weights = check_scores(y_true, y_score, labels=self.labels, sample_weight=sample_weight)
        return y, scores, weights

    def _check_columns(self, scores) -> None:
        if scores.shape[1] != self.n_classes:
            raise ValueError(f"y_score has {scores.shape[1]} columns but labels names {self.n_classes} classes")

    def _check_mergeable(self, other) -> None:
        if type(other) is not type(self):
            raise TypeError(f"other must be a {type(self).__name__}, got {type(other).__name__}")
        same = self.labels.dtype.kind == other.labels.dtype.kind and np.array_equal(self.labels, other.labels)
        if not same:
            raise ValueError(
                f"cannot merge accumulators with different labels: {self.labels.tolist()} and {other.labels.tolist()}"
            )
        self._check_same_settings(other)

    def update(self, y_true: ArrayLike, y_score: ArrayLike, sample_weight: ArrayLike | None = None):
        """Add a batch of rows (an empty batch changes nothing).

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels, all among ``labels``.
        y_score : array-like of shape (n_samples, n_classes)
            Probability scores, columns in the order of ``labels``.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights.

        Returns
        -------
        accumulator
            This accumulator, updated.

        Raises
        ------
        ValueError
            For a label outside ``labels``, a column count other than the
            number of classes, ``y_score`` is a DataFrame whose column names
            are some of the classes but not all, rows off the simplex, different lengths, or
            negative, non-finite or all-zero weights, or weights whose total
            over every batch so far overflows float64; the accumulator is
            then unchanged.
        TypeError
            For non-numeric scores or weights, or labels of the wrong kind.

        Examples
        --------
        >>> ConfusionAccumulator([0, 1]).update([1], [[0.4, 0.6]], sample_weight=[2.5]).compute()
        array([[0. , 0. ],
               [0. , 2.5]])
        """
        batch = self._check_batch(y_true, y_score, sample_weight)
        if batch is not None:
            y, scores, weights = batch
            total = self.weight_seen + (y.size if weights is None else float(weights.sum()))
            check_weight_total("sample_weight (of every batch so far)", total)
            self._add(y, scores, weights, y_score)
            self.weight_seen = total
        return self

    def merge(self, other):
        """A new accumulator holding the rows of both (neither input changes).

        Parameters
        ----------
        other : accumulator
            One of the same class, with the same labels and settings
            (thresholds, ``k``, cutoffs).

        Returns
        -------
        accumulator
            The merged accumulator.

        Raises
        ------
        ValueError
            If the labels or the settings differ (an exact and a binned
            ranking accumulator do not merge either), or the total weight of
            both overflows float64.
        TypeError
            If ``other`` is not of the same class.

        Examples
        --------
        >>> left = RankingAccumulator([0, 1]).update([0], [[0.6, 0.4]])
        >>> right = RankingAccumulator([0, 1]).update([1], [[0.3, 0.7]])
        >>> left.merge(right).compute()["roc_auc_ovr_macro"]
        1.0
        """
        self._check_mergeable(other)
        total = self.weight_seen + other.weight_seen
        check_weight_total("sample_weight (of both accumulators)", total)
        merged = copy.deepcopy(self)
        merged._absorb(other)
        merged.weight_seen = total
        return merged

    def _check_same_settings(self, other) -> None:
        """Raise ValueError unless ``other`` was made with the same settings."""

    def _add(self, y, scores, weights, y_score) -> None:
        """Add a checked, non-empty batch (encoded labels, float64 scores, weights or None)."""
        raise NotImplementedError

    def _absorb(self, other) -> None:
        """Add ``other``'s statistics to this (fresh) copy."""
        raise NotImplementedError


class ConfusionAccumulator(_Accumulator):
    """Weighted confusion counts of the argmax rule, or of a batch of rules argmax(p - tau).

    Counts are ``counts[..., true, predicted]``. The rule argmax(p - tau) is
    evaluated exactly as :func:`polyroc.thresholds.apply_thresholds` (ties go
    to the first class), so the counts of a stream equal those of the
    concatenated data. Memory: m^2 numbers per rule, whatever the number of rows.

    Parameters
    ----------
    labels : array-like of shape (n_classes,)
        The classes, in the order of the score columns.
    thresholds : array-like of shape (n_rules, n_classes), default=None
        Threshold vectors tau on the probability simplex, one rule per row.
        None counts the plain argmax rule.

    Raises
    ------
    ValueError
        If ``labels`` repeats a label or names fewer than 2 classes, or
        ``thresholds`` is not 2-D with one column per class on the simplex.
    TypeError
        If ``labels`` mixes strings and numbers or ``thresholds`` is not numeric.

    See Also
    --------
    polyroc.metrics.confusion_matrix : The same counts of rows held in memory.
    polyroc.thresholds.apply_thresholds : The rule argmax(p - tau) it counts.
    EvaluationAccumulator : Every metric of :func:`polyroc.evaluate`, streamed.

    Examples
    --------
    >>> acc = ConfusionAccumulator(["a", "b"])
    >>> acc = acc.update(["a", "b"], [[0.7, 0.3], [0.6, 0.4]]).update(["b"], [[0.2, 0.8]])
    >>> acc.compute()
    array([[1., 0.],
           [1., 1.]])
    >>> rules = ConfusionAccumulator([0, 1], thresholds=[[0.5, 0.5], [0.8, 0.2]])
    >>> rules.update([0, 1], [[0.7, 0.3], [0.6, 0.4]]).compute()[1]
    array([[0., 1.],
           [0., 1.]])
    """

    def __init__(self, labels: ArrayLike, thresholds: ArrayLike | None = None) -> None:
        super().__init__(labels)
        self.thresholds = None if thresholds is None else self._check_rules(thresholds)
        shape = (self.n_classes, self.n_classes)
        self.counts = np.zeros(shape if self.thresholds is None else (self.thresholds.shape[0], *shape))

    def _check_rules(self, thresholds) -> np.ndarray:
        rules = as_array("thresholds", thresholds)
        if rules.ndim != 2 or rules.shape[0] == 0:
            raise ValueError(f"thresholds must be 2-D (n_rules, n_classes) with at least one rule, got {rules.shape}")
        return np.array([check_thresholds(row, self.n_classes, domain="simplex") for row in rules])

    def _add(self, y, scores, weights, y_score) -> None:
        if self.thresholds is None:
            self.counts += confusion_counts(y, np.argmax(scores, axis=1), self.n_classes, weights)
        else:
            self.counts += threshold_counts(y, scores, self.thresholds, weights)

    def _check_same_settings(self, other) -> None:
        if not _same_setting(self.thresholds, other.thresholds):
            raise ValueError("cannot merge accumulators with different thresholds")

    def _absorb(self, other) -> None:
        self.counts = self.counts + other.counts

    def compute(self) -> np.ndarray:
        """The weighted confusion counts.

        Returns
        -------
        ndarray of shape (n_classes, n_classes) or (n_rules, n_classes, n_classes)
            ``counts[..., true, predicted]`` as float64 (zeros before any row).

        See Also
        --------
        polyroc.metrics.confusion_matrix : The counts of rows held in memory.
        ConfusionAccumulator.update : Add a batch of rows.

        Examples
        --------
        >>> ConfusionAccumulator([0, 1]).compute().shape
        (2, 2)
        """
        return self.counts.copy()


def _in_score_dtype(scores, y_score):
    """Checked float64 scores back in the floating dtype they were given in (exact), as the loss functions use."""
    dtype = getattr(y_score, "dtype", None)
    if dtype is None or np.dtype(dtype).kind != "f":
        return scores
    return scores.astype(dtype)


class LossAccumulator(_Accumulator):
    """Weighted sums of the log loss, the Brier score and the top-k hits.

    The results equal :func:`polyroc.metrics.log_loss` (probabilities
    clipped to [eps, 1 - eps], eps the machine epsilon of each batch's score
    dtype, the per-row losses computed in that dtype as there and summed in
    float64), :func:`polyroc.metrics.brier_score_loss`
    (halved for two classes, as its ``scale_by_half="auto"``) and
    :func:`polyroc.metrics.top_k_accuracy_score` on the concatenated rows.
    Memory: four numbers.

    Parameters
    ----------
    labels : array-like of shape (n_classes,)
        The classes, in the order of the score columns.
    k : int, default=2
        Number of top-ranked classes that count as a hit.

    Raises
    ------
    ValueError
        If ``labels`` repeats a label or names fewer than 2 classes, or ``k`` < 1.
    TypeError
        If ``labels`` mixes strings and numbers or ``k`` is not an integer.

    See Also
    --------
    polyroc.metrics.log_loss : The log loss of rows held in memory.
    polyroc.metrics.brier_score_loss : The Brier score of rows held in memory.
    polyroc.metrics.top_k_accuracy_score : The top-k accuracy of rows held in memory.
    EvaluationAccumulator : Every metric of :func:`polyroc.evaluate`, streamed.

    Examples
    --------
    >>> acc = LossAccumulator([0, 1, 2], k=1)
    >>> acc = acc.update([0, 1], [[0.5, 0.25, 0.25], [0.5, 0.25, 0.25]])
    >>> {name: round(value, 4) for name, value in acc.compute().items()}
    {'log_loss': 1.0397, 'brier_score': 0.625, 'top_1_accuracy': 0.5}
    """

    @validate_params({"k": [Interval("integer", 1, None, closed="left")]})
    def __init__(self, labels: ArrayLike, k: int = 2) -> None:
        super().__init__(labels)
        self.k = int(k)
        self.weight_total = 0.0
        self.log_loss_sum = 0.0
        self.brier_sum = 0.0
        self.top_k_hits = 0.0

    def _add(self, y, scores, weights, y_score) -> None:
        scores = _in_score_dtype(scores, y_score)
        weights = np.ones(y.size) if weights is None else weights
        self.weight_total += float(weights.sum())
        log_losses = sample_log_losses(y, scores, machine_epsilon(scores.dtype))
        self.log_loss_sum += float(weights @ log_losses.astype(np.float64))
        self.brier_sum += float(weights @ sample_brier_losses(y, scores).astype(np.float64))
        self.top_k_hits += float(weights @ sample_top_k_hits(y, scores, self.k))

    def _check_same_settings(self, other) -> None:
        if self.k != other.k:
            raise ValueError(f"cannot merge accumulators with different k: {self.k} and {other.k}")

    def _absorb(self, other) -> None:
        for name in ("weight_total", "log_loss_sum", "brier_sum", "top_k_hits"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def compute(self) -> dict:
        """The weighted mean losses and top-k accuracy.

        Returns
        -------
        dict
            ``{"log_loss", "brier_score", "top_<k>_accuracy"}`` as floats.

        Raises
        ------
        ValueError
            If no weighted row has been added.

        See Also
        --------
        LossAccumulator.update : Add a batch of rows.
        LossAccumulator.merge : Combine the sums of two workers.

        Examples
        --------
        >>> LossAccumulator([0, 1], k=1).update([0], [[0.75, 0.25]]).compute()["top_1_accuracy"]
        1.0
        """
        if self.weight_total == 0:
            raise ValueError("no weighted rows were added: the losses are undefined")
        half = 0.5 if self.n_classes < 3 else 1.0
        return {
            "log_loss": self.log_loss_sum / self.weight_total,
            "brier_score": half * (self.brier_sum / self.weight_total),
            f"top_{self.k}_accuracy": self.top_k_hits / self.weight_total,
        }


def _run_wins(counts, positive):
    """Per code j, sum over scores s of count_positive(s) * (weight of j below s + half the weight of j at s)."""
    below = np.cumsum(counts, axis=0) - counts
    return counts[:, positive] @ (below + 0.5 * counts)


def _check_cutoffs(cutoffs) -> np.ndarray | None:
    """Interior cut points of the bins: None, linspace(0, 1, B + 1)[1:-1] for an int B >= 2, or the checked array."""
    if cutoffs is None:
        return None
    if isinstance(cutoffs, numbers.Integral) and not isinstance(cutoffs, bool):
        n_bins = check_positive_int("cutoffs", cutoffs, minimum=2)
        return np.linspace(0.0, 1.0, n_bins + 1)[1:-1]
    if isinstance(cutoffs, bool) or np.ndim(cutoffs) == 0:
        raise TypeError(f"cutoffs must be an integer >= 2 or a 1-D array of cut points, got {cutoffs!r}")
    cutpoints = as_array("cutoffs", cutoffs)
    if cutpoints.dtype.kind not in "iuf":
        raise TypeError(f"cutoffs must hold real numbers, got dtype {cutpoints.dtype}")
    cutpoints = cutpoints.astype(np.float64)
    if cutpoints.ndim != 1 or cutpoints.size == 0:
        raise ValueError(f"cutoffs must be a non-empty 1-D array of cut points, got shape {cutpoints.shape}")
    if not np.all(np.isfinite(cutpoints)):
        raise ValueError("cutoffs must be finite")
    if np.any(np.diff(cutpoints) <= 0):
        raise ValueError("cutoffs must be strictly increasing")
    return cutpoints


def _binned_counts(bins, codes, weights, n_bins, n_codes):
    """Weight of each code in each bin, shape (n_bins, n_codes)."""
    counts = np.bincount(bins * n_codes + codes, weights=weights, minlength=n_bins * n_codes)
    return counts.reshape(n_bins, n_codes).astype(np.float64)


def _run_ties(counts, positive):
    """Per code j, sum over scores s of count_positive(s) * (weight of j at s): the pairs that share a score."""
    return counts[:, positive] @ counts


def aucs_of_wins(wins, support, micro_wins, micro_pairs) -> dict:
    """The AUC dictionary from the pairwise ``wins[k, j]`` of class k over class j on column k and the micro wins."""
    per_class = ovr_auc(wins, support)
    return {
        "roc_auc_ovr_macro": average_class_scores(per_class, support, "macro"),
        "roc_auc_ovr_weighted": average_class_scores(per_class, support, "weighted"),
        "roc_auc_ovr_micro": float(micro_wins / micro_pairs),
        "roc_auc_ovo_macro": hand_till(wins, support, "macro"),
        "roc_auc_ovo_weighted": hand_till(wins, support, "weighted"),
        "roc_auc_ovr_per_class": per_class,
    }


class RankingAccumulator(_Accumulator):
    """One-vs-rest and one-vs-one ROC AUCs of a stream: exact (ties included) or from binned scores.

    **Exact mode** (``cutoffs=None``). For each score column it keeps sorted
    *runs* of entries: the score (float64), the row's class code (uint8 up to
    256 classes) and its weight (float64, not stored while every weight is
    1). A batch is sorted once into a run; while a run of the same length
    class (ceil(log2(length))) is held, the two are merged by one linear
    pass, so a column holds at most log2(rows) + 1 runs and each entry takes
    part in at most log2(rows) merges: n rows cost O(n log n) in all, not a
    re-sort of everything held per batch. Mostly tied runs are collapsed to one entry
    per distinct (score, class) with the summed weight, when that is
    smaller. ``compute()`` merges each column's runs into one and counts, as
    :func:`polyroc.metrics.roc_auc_score` does, the weighted pairs in which
    class k scores above class j on column k (ties half); the micro average
    counts the positive cells above each negative cell from the same runs.
    The AUCs are those of the concatenated rows. Memory: ``nbytes`` bytes,
    at most 9 bytes per (row, class) cell up to 256 classes (10 above; 8
    more with weights other than 1), and 17 bytes per distinct (score, class)
    pair once collapsed; rows of weight 0 are not stored. ``compute()`` needs, in addition, the merge
    of one column and a few arrays of one column's length at a time.

    **Binned mode** (``cutoffs`` given). A score s falls in bin
    ``searchsorted(cutpoints, s, side="right")`` and each column keeps a fixed
    (n_bins, m) array of per-class weights (the cells a (n_bins, 2) array):
    memory O(n_bins * m * m) whatever the number of rows, and merging is a sum.
    The AUCs are those of the binned scores (the scores of one bin tied), by
    the same formula as the exact mode with bins in place of distinct scores.

    ``compute()["bounds"]`` holds, for each AUC key, the largest possible
    ``|exact AUC - binned AUC|``. Within one bin the exact order of a pair of
    rows is unknown: each pair that shares a bin contributes between 0 and 1
    to the exact AUC and 1/2 to the binned one. So for the comparison of
    class k against class j on column k the bound is
    ``1/2 * sum_b W_k(b) W_j(b) / (W_k W_j)`` (its pairs that share a bin
    over all its pairs), and these bounds are combined exactly as the AUCs
    are: summed over j for the one-vs-rest AUC of k, averaged over the
    ordered pairs for the one-vs-one AUCs, then macro or weighted means over
    classes or pairs; the micro bound counts the pairs of cells of the
    raveled problem that share a bin. The bound is attained when, in every
    bin, the positives of each comparison all score above (or all below)
    its negatives. In exact mode the bounds are 0.0 (NaN where the AUC is
    NaN), so they can be read in either mode.

    Parameters
    ----------
    labels : array-like of shape (n_classes,)
        The classes, in the order of the score columns.
    cutoffs : int or array-like of shape (n_cutpoints,), default=None
        None for the exact mode. An integer B >= 2 for B equal-width bins on
        [0, 1] (interior cut points ``linspace(0, 1, B + 1)[1:-1]``), or a
        strictly increasing 1-D array of interior cut points shared by all
        columns (n_cutpoints + 1 bins).

    Raises
    ------
    ValueError
        If ``labels`` repeats a label or names fewer than 2 classes, or
        ``cutoffs`` is an integer < 2, or an array that is not 1-D and
        non-empty, not finite or not strictly increasing.
    TypeError
        If ``labels`` mixes strings and numbers, or ``cutoffs`` is neither an
        integer nor an array of real numbers.

    See Also
    --------
    polyroc.metrics.roc_auc_score : The AUCs of rows held in memory.
    polyroc.dask.evaluate : Exact AUCs of a dask DataFrame.
    EvaluationAccumulator : Every metric of :func:`polyroc.evaluate`, streamed.

    Examples
    --------
    >>> y = [0, 0, 1, 1, 2, 2, 2]
    >>> P = [[.7, .2, .1], [.4, .4, .2], [.3, .5, .2], [.5, .3, .2],
    ...      [.1, .2, .7], [.2, .5, .3], [.3, .3, .4]]
    >>> acc = RankingAccumulator([0, 1, 2]).update(y[:3], P[:3]).update(y[3:], P[3:])
    >>> aucs = acc.compute()
    >>> aucs["roc_auc_ovr_per_class"].tolist(), round(aucs["roc_auc_ovo_macro"], 6)
    ([0.9, 0.7, 1.0], 0.861111)
    >>> binned = RankingAccumulator([0, 1, 2], cutoffs=2).update(y, P).compute()
    >>> binned["roc_auc_ovr_per_class"].tolist(), binned["bounds"]["roc_auc_ovr_per_class"].tolist()
    ([0.65, 0.65, 0.6666666666666666], [0.25, 0.25, 0.3333333333333333])
    """

    def __init__(self, labels: ArrayLike, *, cutoffs: int | ArrayLike | None = None) -> None:
        super().__init__(labels)
        self.cutpoints = _check_cutoffs(cutoffs)
        m = self.n_classes
        if self.cutpoints is None:
            self.runs: list[list[Run]] = [[] for _ in range(m)]
            self.support = np.zeros(m)
        else:
            n_bins = self.cutpoints.size + 1
            self.column_bins = np.zeros((m, n_bins, m))
            self.cell_bins = np.zeros((n_bins, 2))

    @property
    def binned(self) -> bool:
        """Whether the scores are binned (``cutoffs`` was given)."""
        return self.cutpoints is not None

    @property
    def n_distinct(self) -> np.ndarray:
        """Number of distinct scores (binned mode: of non-empty bins) stored per column, shape (n_classes,)."""
        if self.binned:
            return np.count_nonzero(self.column_bins.sum(axis=2), axis=1)
        return np.array([distinct_scores(self._merged_column(j)) for j in range(self.n_classes)])

    @property
    def nbytes(self) -> int:
        """Bytes held by the accumulator's arrays (the runs in exact mode, the bins in binned mode)."""
        if self.binned:
            return int(self.column_bins.nbytes + self.cell_bins.nbytes)
        return int(self.support.nbytes) + sum(run_nbytes(run) for runs in self.runs for run in runs)

    def _merged_column(self, j):
        """Column j's entries as one sorted run, kept so (its runs merged once)."""
        self.runs[j] = [merged_run(self.runs[j], self.n_classes)] if len(self.runs[j]) != 1 else self.runs[j]
        return self.runs[j][0]

    def _add(self, y, scores, weights, y_score) -> None:
        y, scores, weights = without_zero_weights(y, scores, weights)
        m = self.n_classes
        if self.binned:
            positive = (y[:, None] == np.arange(m)).ravel().astype(np.intp)
            cell_weights = None if weights is None else np.repeat(weights, m)
            self._add_binned(y, scores, weights, positive, cell_weights)
            return
        if weights is not None and np.all(weights == 1.0):
            weights = None  # unit weights are not stored
        codes = y.astype(code_dtype(m))
        self.support = self.support + np.bincount(y, weights=weights, minlength=m)
        for j in range(m):
            self.runs[j] = push_run(self.runs[j], batch_run(scores[:, j], codes, weights, m), m)

    def _add_binned(self, y, scores, weights, positive, cell_weights) -> None:
        cutpoints = self.cutpoints
        assert cutpoints is not None  # only binned accumulators add to bins
        m, n_bins = self.n_classes, cutpoints.size + 1
        bins = np.searchsorted(cutpoints, scores, side="right")
        column_bins = bins + n_bins * np.arange(m)  # bin of row i in column j, numbered within the stacked columns
        row_weights = None if weights is None else np.repeat(weights[:, None], m, axis=1).ravel()
        stacked = _binned_counts(column_bins.ravel(), np.repeat(y, m), row_weights, m * n_bins, m)
        self.column_bins += stacked.reshape(m, n_bins, m)
        self.cell_bins += _binned_counts(bins.ravel(), positive, cell_weights, n_bins, 2)

    def _check_same_settings(self, other) -> None:
        if not _same_setting(self.cutpoints, other.cutpoints):
            raise ValueError("cannot merge accumulators with different cutoffs")

    def _absorb(self, other) -> None:
        if self.binned:
            self.column_bins = self.column_bins + other.column_bins
            self.cell_bins = self.cell_bins + other.cell_bins
        else:
            self.support = self.support + other.support
            for j, theirs in enumerate(other.runs):
                for run in theirs:  # runs are never changed in place: sharing other's arrays leaves it unchanged
                    self.runs[j] = push_run(self.runs[j], run, self.n_classes)

    def compute(self) -> dict:
        """The AUCs of all rows added so far, with their binning error bounds.

        Returns
        -------
        dict
            ``"roc_auc_ovr_macro"``, ``"roc_auc_ovr_weighted"``,
            ``"roc_auc_ovr_micro"``, ``"roc_auc_ovo_macro"``,
            ``"roc_auc_ovo_weighted"`` (floats) and
            ``"roc_auc_ovr_per_class"`` (ndarray of shape (n_classes,)), as
            :func:`polyroc.metrics.roc_auc_score` with ``multi_class`` and
            ``average`` set accordingly (of the binned scores in binned mode):
            NaN where a class has no rows. ``"bounds"``: a dict with the same
            six keys, the largest possible ``|exact AUC - binned AUC|`` (see
            the class description; 0.0 in exact mode).

        Raises
        ------
        ValueError
            If no weighted row has been added.

        Warns
        -----
        polyroc.exceptions.UndefinedMetricWarning
            If a class has no rows of positive weight, or all of them: its
            one-vs-rest AUC is NaN (the warning of
            :func:`polyroc.metrics.roc_auc_score`).

        See Also
        --------
        polyroc.metrics.roc_auc_score : The AUCs of rows held in memory.
        RankingAccumulator.merge : Combine the runs of two workers.

        Examples
        --------
        >>> acc = RankingAccumulator([0, 1, 2]).update([0, 1, 2], [[.5, .3, .2], [.2, .5, .3], [.3, .3, .4]])
        >>> acc.compute()["roc_auc_ovr_micro"]
        1.0
        """
        return self._aucs()

    def _aucs(self, factors: np.ndarray | None = None) -> dict:
        """:meth:`compute`, the weight of every row of class k multiplied by ``factors[k]`` when given."""
        m = self.n_classes
        support = self.column_bins[0].sum(axis=0) if self.binned else self.support
        if factors is not None:
            support = support * factors
        if not support.any():
            raise ValueError("no weighted rows were added: the AUCs are undefined")
        warn_classes_without_samples(self.labels, support, "ROC AUC")
        total = support.sum()
        micro_pairs = total * total * (m - 1)
        if self.binned:
            column_bins, cell_bins = self.column_bins, self.cell_bins
            if factors is not None:
                column_bins, cell_bins = scaled_bins(column_bins, factors)
            wins = np.array([_run_wins(counts, k) for k, counts in enumerate(column_bins)])
            aucs = aucs_of_wins(wins, support, _run_wins(cell_bins, 1)[0], micro_pairs)
            half_ties = 0.5 * np.array([_run_ties(counts, k) for k, counts in enumerate(column_bins)])
            aucs["bounds"] = aucs_of_wins(half_ties, support, 0.5 * _run_ties(cell_bins, 1)[0], micro_pairs)
            return aucs
        wins = np.array([column_wins(self._merged_column(k), k, m) for k in range(m)])
        if factors is not None:
            wins = wins * factors[:, None] * factors[None, :]
        micro = micro_wins([self._merged_column(k) for k in range(m)], factors)
        aucs = aucs_of_wins(wins, support, micro, micro_pairs)
        aucs["bounds"] = aucs_of_wins(np.zeros_like(wins), support, 0.0, micro_pairs)
        return aucs


class EvaluationAccumulator(_Accumulator):
    """Everything :func:`polyroc.evaluate` reports, for rows that arrive in batches.

    It holds the summary statistics of the rows (confusion counts, weight and
    loss moments: a few numbers per class) and a :class:`RankingAccumulator`
    (exact, or binned with ``cutoffs``), and the totals of the 15 calibration
    bins of the top-label and of each class column, with the cross moments of
    the class columns ((m 15)^2 numbers, up to 32 classes). :meth:`compute` returns the
    :class:`~polyroc.Evaluation` of all rows added: in exact mode every score
    equals :func:`polyroc.evaluate`'s on the concatenated rows, and so do the
    intervals that rest on the statistics (Wilson, the posterior of the
    confusion matrix, the t interval of the losses, the bin draws of the ECEs). DeLong's intervals of the
    AUCs need the rows, so they are NaN and say so; a stream has no
    bootstrap. It warns as :func:`polyroc.evaluate` does on the same rows
    (e.g. that the AUCs of a class with no rows are undefined).

    Memory: ``nbytes``, the bytes held by its arrays. In exact mode these
    are the sorted runs of :class:`RankingAccumulator`, at most 9 bytes per
    (row, class) cell (17 with sample weights other than 1), fewer when
    scores tie; a batch adds O(batch log batch) work plus the amortised
    merges, O(n log n) for n rows in all. In binned mode they are fixed.

    Parameters
    ----------
    labels : array-like of shape (n_classes,)
        The classes, in the order of the score columns.
    cutoffs : int or array-like, default=None
        None for exact AUCs, else the bins of :class:`RankingAccumulator`.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        As :func:`polyroc.evaluate`'s: the evaluation then holds the
        expected cost of the argmax decisions, equal to the batch one.
    target_priors : array-like of shape (m,), mapping or pandas.Series, default=None
        As :func:`polyroc.evaluate`'s: every quantity at these class priors,
        rows of class k weighted by ``target_priors[k] / share_k``. The
        shares are those of all rows added, known only at :meth:`compute`,
        so the statistics are kept per true class and reweighted there
        (:mod:`polyroc.evaluation._stream_priors`); the scores and intervals
        equal the batch ones, in binned mode too (the AUCs of the binned
        scores). Memory: one set of statistics per class, about
        ``1800 m^3`` bytes more (1.8 MB for 10 classes, 59 MB for 32).

    Raises
    ------
    ValueError, TypeError
        As :class:`RankingAccumulator`; and as :func:`polyroc.evaluate` for
        ``cost_matrix`` and ``target_priors``. At :meth:`compute`, a
        ValueError if ``target_priors`` gives a positive prior to a class
        with no row of positive weight. Accumulators with different target
        priors do not merge.

    See Also
    --------
    polyroc.evaluate : The same of rows held in memory, with every interval.
    polyroc.dask.evaluate : The same of a dask DataFrame, with DeLong and bootstrap intervals.
    RankingAccumulator : The AUC part alone.

    Examples
    --------
    >>> acc = EvaluationAccumulator(["a", "b"])
    >>> acc = acc.update(["a", "b"], [[.8, .2], [.3, .7]]).update(["a"], [[.4, .6]])
    >>> result = acc.compute(n_boot=0)
    >>> round(result.scores["accuracy"], 4), result.scores["roc_auc_ovr_macro"]
    (0.6667, 1.0)
    >>> acc.ranking.nbytes  # 3 rows x 2 columns x (8-byte score + 1-byte class code), and 2 class weights
    70

    At deployment priors (recall 1/2 for "a" and 1 for "b", so accuracy 0.75 at equal priors):

    >>> shifted = EvaluationAccumulator(["a", "b"], target_priors=[0.5, 0.5])
    >>> shifted = shifted.update(["a", "b", "a"], [[.8, .2], [.3, .7], [.4, .6]])
    >>> result = shifted.compute(n_boot=0)
    >>> round(result.scores["accuracy"], 4), result.settings["evaluated_priors"]["a"]
    (0.75, 0.6666666666666666)
    """

    def __init__(
        self,
        labels: ArrayLike,
        *,
        cutoffs: int | ArrayLike | None = None,
        cost_matrix: ArrayLike | None = None,
        target_priors: ArrayLike | Mapping[Any, float] | None = None,
    ) -> None:
        super().__init__(labels)
        self.deployment = Deployment.of(self.labels, cost_matrix, target_priors)
        self.summary = SummaryStatistics.empty(self.n_classes, self.deployment.loss_names())
        self.ranking = RankingAccumulator(self.labels, cutoffs=cutoffs)
        # under target priors the statistics are kept per true class, reweighted at compute()
        self.class_summaries = (
            None if target_priors is None else ClassSummaries.empty(self.n_classes, self.deployment.loss_names())
        )

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays: the ranking's (:attr:`RankingAccumulator.nbytes`) and the summary statistics'."""
        if self.class_summaries is not None:
            return self.ranking.nbytes + self.class_summaries.nbytes
        return self.ranking.nbytes + summary_nbytes(self.summary)

    def _add(self, y, scores, weights, y_score) -> None:
        losses = row_losses(y, scores, machine_epsilon(as_array("y_score", y_score).dtype))
        losses = self.deployment.losses(losses, y, scores)
        if self.class_summaries is not None:
            self.class_summaries = self.class_summaries.added(y, scores, weights, losses)
        else:
            self.summary = self.summary.merged(SummaryStatistics.of(y, scores, weights, losses))
        self.ranking._add(y, scores, weights, y_score)

    def _check_same_settings(self, other) -> None:
        self.ranking._check_same_settings(other.ranking)
        if not _same_setting(self.deployment.costs, other.deployment.costs):
            raise ValueError("cannot merge accumulators made with different cost matrices")
        if not _same_setting(self.deployment.priors, other.deployment.priors):
            raise ValueError("cannot merge accumulators made with different target priors")

    def _absorb(self, other) -> None:
        self.summary = self.summary.merged(other.summary)
        if self.class_summaries is not None:
            self.class_summaries = self.class_summaries.merged(other.class_summaries)
        self.ranking._absorb(other.ranking)

    def _statistics(self) -> tuple[SummaryStatistics, Deployment, np.ndarray | None]:
        """The summary of the rows (reweighted to the target priors), the deployment, each class's weight factor."""
        if self.class_summaries is not None:
            return self.class_summaries.at_priors(self.deployment)
        if self.summary.counts.sum() == 0:
            raise ValueError("no weighted rows were added: the scores are undefined")
        return self.summary, self.deployment, None

    @validate_params({name: EVALUATE_PARAMS[name] for name in ("n_boot", "confidence", "random_state")})
    def compute(
        self,
        *,
        ci: CiChoice | Mapping[str, str] = "auto",
        n_boot: int = 1000,
        confidence: float = 0.95,
        random_state: int | np.random.Generator | None = None,
        digits: int = 3,
    ):
        """The :class:`~polyroc.Evaluation` of every row added so far.

        Parameters
        ----------
        ci : {"auto", "analytic", "bayes", "none"} or mapping, default="auto"
            As :func:`polyroc.evaluate`'s, without the bootstrap; ``"none"``:
            no interval at all, as ``n_boot=0``.
        n_boot : int, default=1000
            Draws of the posterior; 0 for no interval.
        confidence : float, default=0.95
            Level of the intervals, in (0, 1).
        random_state : None, int or numpy.random.Generator, default=None
            Seed of the posterior draws.
        digits : int, default=3
            Digits of the text report.

        Returns
        -------
        Evaluation
            ``settings["engine"]`` is ``"stream"``; in binned mode
            ``settings["auc_error_bounds"]`` holds each AUC's largest
            possible error (see :class:`RankingAccumulator`).

        Raises
        ------
        ValueError
            If no weighted row has been added, ``target_priors`` gives a
            positive prior to a class without rows, ``ci`` asks for the bootstrap
            (a stream keeps no rows to resample), is an unknown family or
            names an unknown method, or an option is out of range.
        TypeError
            If an option has the wrong type.

        Warns
        -----
        polyroc.exceptions.UndefinedMetricWarning
            If a class has no rows of positive weight, or all of them, as
            :func:`polyroc.evaluate` warns.
        polyroc.exceptions.IntervalWarning
            If a class has a single row and ``n_boot > 0`` (the spread of its
            losses cannot be estimated), as :func:`polyroc.evaluate` warns.

        See Also
        --------
        polyroc.evaluate : The same of rows held in memory.
        polyroc.Evaluation : The result it returns.

        Examples
        --------
        >>> acc = EvaluationAccumulator([0, 1, 2]).update([0, 1, 2, 2, 0, 1], np.eye(3)[[0, 1, 2, 1, 0, 2]])
        >>> print(acc.compute(random_state=0).intervals["accuracy"])
        0.6667 [95% CI 0.3000, 0.9032; Wilson score interval]
        """
        from polyroc.evaluation._evaluate import AUC_SCORES, evaluation_of_statistics
        from polyroc.evaluation._plan import QUANTITY_METHODS, planned_intervals

        n_boot, confidence = int(n_boot), float(confidence)
        rng = np.random.default_rng(random_state)
        plan, n_boot = planned_intervals(ci, n_boot, tuple(QUANTITY_METHODS))
        if "bootstrap" in plan.values() and n_boot:
            raise ValueError("ci: a stream keeps no rows to resample; use 'auto', 'analytic', 'bayes' or 'none'")
        summary, deployment, factors = self._statistics()
        aucs = self.ranking._aucs(factors)
        settings: dict[str, Any] = {
            "random_state": random_state,
            "ci": ci if isinstance(ci, str) else dict(ci),
            "engine": "stream",
            **deployment.settings(),
        }
        if self.ranking.binned:
            settings["auc_error_bounds"] = {name: float(aucs["bounds"][name]) for name in AUC_SCORES}
        return evaluation_of_statistics(
            summary,
            self.labels,
            {name: float(aucs[name]) for name in AUC_SCORES},
            plan=plan,
            n_boot=n_boot,
            confidence=confidence,
            rng=rng,
            replicates=None,
            bootstrap_method=None,
            digits=digits,
            settings=settings,
        )
