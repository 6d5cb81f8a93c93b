"""DeLong's variance of binary and multiclass AUCs, their covariances and logit-scale intervals.

Every AUC of polyroc (binary, one-vs-rest per class, its macro, support-weighted
and micro averages, Hand & Till's M and its weighted variant) is a smooth
function of the sample weights. The influence of sample s is the derivative
``D_s = dT/du_s`` of the statistic T when s carries weight ``u_s`` times its
sample weight, at ``u = 1``. Conditional on the class counts (every class is a
stratum, as in polyroc's stratified bootstrap), the variance is the stratified
infinitesimal jackknife with DeLong's small-sample factor::

    Var(T) = sum_c  n_c / (n_c - 1) * sum_{s in c} (D_s - mean_{s' in c} D_s')^2

(covariances alike, with the product of two centred influences), ``n_c`` the
number of rows of class c with positive weight. For an unweighted binary AUC
this is exactly the variance of DeLong, DeLong & Clarke-Pearson (1988,
doi:10.2307/2531595), ``S10 / n1 + S01 / n0``. The placement values come from
one sort per score column and cumulative weights at the ends of the runs of
tied scores (midranks, as Sun & Xu 2014, doi:10.1109/LSP.2014.2337313), in
O(m n log n) time, never from an n1 x n0 matrix; everything is float64, so
counts of pairs cannot overflow at any n. Hand & Till's M is that of Hand &
Till (2001, doi:10.1023/A:1010920819831).

Intervals are taken on the logit scale and mapped back, so that they stay
within [0, 1], with a Student t quantile whose degrees of freedom are
Welch-Satterthwaite's for the per-class parts of the variance
(:func:`delong_variance`): a class of 12 rows that carries most of the
variance leaves about 11 of them, and the normal quantile would under-cover
(91.8% for 95% in the coverage study). At an AUC of exactly 1 (or 0) the variance is 0 although the
data do not determine the AUC: the interval is then the exact conservative
bound from ``n_min`` disjoint pairs (``P(all pairs ranked correctly) <=
AUC ** n_min``).

The engine functions take validated, encoded inputs (``y`` class codes 0..m-1,
``scores`` (n, m) float64, weights None or (n,) non-negative) and never check
them; :func:`roc_auc_interval` is the checked public entry point.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import expit, logit
from scipy.stats import norm
from scipy.stats import t as student_t

from polyroc import _warnings
from polyroc._engine.numeric import finish
from polyroc._engine.parallel import chunk_map
from polyroc._engine.progress import task
from polyroc._engine.ranking import (
    PARALLEL_MIN_SAMPLES,
    Positives,
    RankedColumn,
    hand_till,
    micro_negatives,
    ovr_auc,
)
from polyroc._text import count_noun
from polyroc._validation import (
    as_array,
    check_class_support,
    check_label_vector,
    check_option,
    check_real_array,
    check_same_length,
    check_sample_weight,
    check_scores,
    encode_labels,
    resolve_classes,
    scale_weights,
)
from polyroc._validation._params import Options, validate_params
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._resampling import CONFIDENCE, ConfidenceInterval, degenerate_interval, is_zero_width

__all__ = [
    "AUC_KEYS",
    "auc_difference",
    "auc_influences",
    "class_auc_intervals",
    "delong_interval",
    "logit_interval",
    "one_vs_rest_variance",
    "roc_auc_interval",
    "stratified_covariance",
]

#: The (multi_class, average) statistics of :func:`auc_influences`; ``("ovr", None)`` is per class.
AUC_KEYS = (
    ("ovr", None),
    ("ovr", "macro"),
    ("ovr", "weighted"),
    ("ovr", "micro"),
    ("ovo", "macro"),
    ("ovo", "weighted"),
)

#: ``average`` options of :func:`roc_auc_interval` for each ``multi_class`` (None: one interval per class).
AVERAGE_OPTIONS = {"ovr": ("macro", "weighted", "micro", None), "ovo": ("macro", "weighted")}

LOGIT_METHOD = "DeLong (logit)"

#: Why a DeLong interval strictly inside (0, 1) can have zero width.
DELONG_TIES = "DeLong's variance is 0 (the scores tie)"

#: More rows than this take the score columns of :func:`ranked_influences` one at a time: a column's
#: arrays (about ten of n float64) held once per thread would add most of a score matrix (m = 10) to
#: the peak memory, for a gain in time of less than half.
PARALLEL_MAX_SAMPLES = 1 << 22


# --------------------------------------------------------------------------- influences


def auc_influences(y, scores, weights, keys) -> dict:
    """Each AUC statistic of ``keys`` and its per-sample influence ``D_s = dT/du_s`` (not centred).

    Parameters
    ----------
    y : ndarray of shape (n,)
        Class codes 0..m-1.
    scores : ndarray of shape (n, m)
        Checked float64 scores, one column per class.
    weights : ndarray of shape (n,) or None
        Non-negative sample weights (rows of weight 0 get influence 0).
    keys : iterable of (multi_class, average)
        Among :data:`AUC_KEYS`.

    Returns
    -------
    dict
        ``key -> (estimate, influence)``: a float and an (n,) array, or for
        ``("ovr", None)`` the (m,) per-class AUCs and their (m, n)
        influences. The estimates are those of
        :func:`polyroc.metrics.roc_auc_score` (the same pairwise wins); an
        undefined AUC (a class without samples) is NaN with NaN influences.
        The support weights of the weighted averages are held fixed (they
        are under the stratified model).

    Raises
    ------
    ValueError
        If a key is not one of :data:`AUC_KEYS`.

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1])
    >>> P = np.array([[0.9, 0.1], [0.6, 0.4], [0.65, 0.35], [0.2, 0.8]])
    >>> estimate, influence = auc_influences(y, P, None, [("ovr", "macro")])["ovr", "macro"]
    >>> estimate, influence.tolist()
    (0.75, [0.125, -0.125, -0.125, 0.125])
    """
    keys = list(keys)
    unknown = [key for key in keys if key not in AUC_KEYS]
    if unknown:
        raise ValueError(f"keys must be among {list(AUC_KEYS)}; got {unknown}")
    return ranked_influences(y, scores, weights, keys).influences


class RankedInfluences(NamedTuple):
    """What one sort per score column gives: the pairwise wins, the micro-average wins and the influences."""

    wins: np.ndarray  # (m, m), those of polyroc._engine.ranking.pairwise_wins
    micro_wins: float | None  # those of polyroc._engine.ranking.micro_auc (None unless asked for)
    influences: dict  # key -> (estimate, influence), as auc_influences
    class_aucs: np.ndarray | None = None  # (m, 3): each class's OvR AUC, one_vs_rest_variance's variance and df


def ranked_influences(y, scores, weights, keys, *, micro=False, class_aucs=False) -> RankedInfluences:
    """The statistics of ``keys`` (:data:`AUC_KEYS`) and their influences, from one sort per score column.

    The same sorts give the pairwise wins of every column (the point OvR and
    OvO AUCs) and, with ``micro`` or the micro key, the micro-average wins:
    the n m cells are ranked against the sorted true-class cells
    (:class:`polyroc._engine.ranking.Positives`), never sorted. Each column's parts
    are added to the influences in column order, whatever the number of
    threads, so that the results do not depend on it; at most one column per
    thread is held at a time, and above :data:`PARALLEL_MAX_SAMPLES` rows one
    column at a time. With ``class_aucs`` each column's one-vs-rest variance
    (:func:`one_vs_rest_variance`) is taken as the column is done, so that
    the per-class intervals never hold the (m, n) influences.
    """
    n_samples, n_classes = scores.shape
    support = np.bincount(y, weights=weights, minlength=n_classes).astype(np.float64)
    ovo_averages = [average for multi_class, average in keys if multi_class == "ovo"]
    coefficients = {average: _pair_coefficients(support, average) for average in ovo_averages}
    ovr_averages = [average for multi_class, average in keys if multi_class == "ovr" and average != "micro"]
    micro_influence = ("ovr", "micro") in keys
    positives = Positives(y, scores, weights) if micro or micro_influence else None
    codes = y.astype(np.min_scalar_type(n_classes))
    share = _support_shares(support)
    totals = _InfluenceTotals(n_samples, n_classes, ovr_averages, ovo_averages, micro_influence)

    column_ovr = [*ovr_averages, "class variance"] if class_aucs else ovr_averages

    def one_column(k):
        ranked = RankedColumn(k, np.ascontiguousarray(scores[:, k]), codes, weights, n_classes)
        parts = _column_parts(k, ranked, support, coefficients, column_ovr, positives, micro_influence)
        if class_aucs:
            parts["class variance"] = one_vs_rest_variance(parts["ovr"], y, k, weights)
        return ranked.wins, parts

    parallel = PARALLEL_MIN_SAMPLES <= n_samples <= PARALLEL_MAX_SAMPLES
    mapper = partial(chunk_map, ahead=1) if parallel else map
    work = task("AUC influences (score columns)", n_classes)
    wins = np.empty((n_classes, n_classes))
    variances = np.empty((n_classes, 2))
    micro_wins = 0.0
    for k, (wins_row, parts) in enumerate(mapper(one_column, range(n_classes))):
        wins[k] = wins_row
        micro_wins += parts.pop("micro_wins", 0.0)
        variances[k] = parts.pop("class variance", (np.nan, np.nan))
        totals.add(k, parts, share[k])
        work.advance()
    found = totals.finish(wins, support, keys, positives, micro_wins, y, weights)
    per_class = np.column_stack((ovr_auc(wins, support), variances)) if class_aucs else None
    return RankedInfluences(wins, micro_wins if positives is not None else None, found, per_class)


def _support_shares(support):
    """Each class's share of the support among the classes with samples (0 for the others)."""
    present = support > 0
    total = support[present].sum()
    return np.where(present, support / (total if total > 0 else 1.0), 0.0)


class _InfluenceTotals:
    """The influences being summed over the score columns, in row order."""

    def __init__(self, n_samples, n_classes, ovr_averages, ovo_averages, micro):
        self.per_class = np.empty((n_classes, n_samples)) if None in ovr_averages else None
        self.macro = np.zeros(n_samples) if "macro" in ovr_averages else None
        self.weighted = np.zeros(n_samples) if "weighted" in ovr_averages else None
        self.ovo = {average: np.zeros(n_samples) for average in ovo_averages}
        self.micro_rows = np.zeros(n_samples) if micro else None
        self.micro_places = np.zeros(n_samples + 1) if micro else None
        self.n_classes = n_classes

    def add(self, k, parts, share):
        ovr = parts.get("ovr")
        if self.per_class is not None:
            self.per_class[k] = ovr
        if self.macro is not None:
            self.macro += ovr
        if self.weighted is not None and share > 0:
            self.weighted += share * ovr
        for average, part in parts.get("ovo", {}).items():
            self.ovo[average] += part
        if self.micro_rows is not None:
            rows_part, places = parts["micro"]
            self.micro_rows += rows_part
            self.micro_places += places

    def finish(self, wins, support, keys, positives, micro_wins, y, weights):
        """``key -> (estimate, influence)`` of every key."""
        n_samples, n_classes = y.size, support.size
        per_class = ovr_auc(wins, support)
        found = {}
        for key in keys:
            multi_class, average = key
            if multi_class == "ovo":
                estimate = hand_till(wins, support, average)
                influence = self.ovo[average] if np.isfinite(estimate) else np.full(n_samples, np.nan)
                found[key] = (estimate, influence)
            elif average is None:
                found[key] = (per_class, self.per_class)
            elif average == "macro":  # a NaN class makes the mean NaN, as scikit-learn
                found[key] = (float(np.average(per_class)), self.macro / n_classes)
            elif average == "weighted":
                present = support > 0
                share = support[present] / support[present].sum()
                found[key] = (float(share @ per_class[present]), self.weighted)
            else:
                found[key] = self._micro(positives, micro_wins, y, weights)
        return found

    def _micro(self, positives, micro_wins, y, weights):
        """Micro OvR AUC (binarized labels against the raveled scores) and its influence.

        ``T = wins / (W^2 (m - 1))`` over (positive cell, negative cell) pairs,
        the cells of one row included; a row's influence sums the placements
        of its m cells: ``D_s = w_s P_s / (W^2 (m - 1)) - 2 T w_s / W``.
        """
        n_samples = y.size
        total = n_samples if weights is None else weights.sum()
        places = np.cumsum(self.micro_places[:n_samples])
        places *= 0.5
        self.micro_rows[positives.order] += places
        pairs = total * total * (self.n_classes - 1)
        estimate = float(micro_wins / pairs)
        influence = self.micro_rows / pairs
        influence -= 2.0 * estimate / total
        if weights is not None:
            influence *= weights
        return estimate, influence


def _column_parts(k, ranked, support, coefficients, ovr_averages, positives, micro_influence):
    """Column k's parts of the influences, in row order: micro cells, OvR AUC k, Hand & Till's ``A(k|j)`` terms.

    The micro cells come first, so that the sorted scores can be dropped
    before the other parts are made (one column's arrays at a time per thread).
    """
    n_classes = support.size
    parts = {}
    order = ranked.order
    if positives is not None:
        negatives, weight = micro_negatives(ranked)
        above, below, up_to = positives.above(negatives)
        del negatives
        parts["micro_wins"] = float(above.sum() if weight is None else above @ weight)
        if micro_influence:
            places = positives.places(below, up_to, weight)
            del below, up_to
            in_order = np.zeros(order.size)
            in_order[~ranked.is_k] = above
            del above
            parts["micro"] = (_in_rows(order, in_order), places)
            del in_order
    ranked.score = None  # not needed below
    if coefficients:
        below_by_class = ranked.class_weight_below(n_classes)
        parts["ovo"] = {
            average: _in_rows(order, _ovo_part(k, ranked, support, coefficient[k], below_by_class))
            for average, coefficient in coefficients.items()
        }
        del below_by_class
    if ovr_averages:  # last: it makes its part of ranked.k_above in place
        parts["ovr"] = _in_rows(order, _ovr_part(k, ranked, support))
    return parts


def _pair_coefficients(support, average):
    """(m, m) coefficient of each ``A(i|j)`` in Hand & Till's M: half its pair's share (0 for an undefined pair)."""
    present = support > 0
    defined = np.logical_and.outer(present, present)
    np.fill_diagonal(defined, False)
    if average == "weighted":
        shares = np.where(defined, support[:, None] + support[None, :], 0.0)
    else:
        shares = defined.astype(np.float64)
    total = shares.sum()  # every pair counted twice, once per order, as each pair's value is half each order's
    return shares / total if total > 0 else shares


def _ovr_part(k, ranked, support):
    """Influence (sorted order) of the OvR AUC of class k: ``w (placement / (W_k W_rest) - T / W_own)``.

    It is made in place of ``ranked.k_above``, which must not be used after.
    Class-k samples are placed by the weight of the other classes below them
    (plus half the tied), the others by the class-k weight above them (plus
    half the tied), both from cumulative weights at the ends of the runs of ties.
    """
    own_total = support[k]
    others_total = support.sum() - own_total
    if own_total == 0 or others_total == 0:
        return np.full(ranked.order.size, np.nan)
    pairs = own_total * others_total
    estimate = (ranked.wins.sum() - ranked.wins[k]) / pairs
    part = ranked.k_above
    part /= pairs
    part -= estimate / others_total
    at_k = np.flatnonzero(ranked.is_k)
    others_below = ranked.everyone_half_below(at_k) - ranked.half_below(ranked.k_weight, at_k)
    part[at_k] = others_below / pairs - estimate / own_total
    if ranked.weight is not None:
        part *= ranked.weight
    return part


def _ovo_part(k, ranked, support, coefficient, below_by_class):
    """Influence (sorted order) of ``sum_j coefficient[j] A(k|j)``, the part of Hand & Till's M on column k.

    ``dA(k|j)/du_s`` is ``w_s (below_j(s) / (W_k W_j) - A(k|j) / W_k)`` for a
    class-k sample and ``w_s (above_k(s) / (W_k W_j) - A(k|j) / W_j)`` for a
    class-j sample.
    """
    used = coefficient != 0
    if not np.any(used):
        return np.zeros(ranked.order.size)
    scale = np.zeros(support.size)
    scale[used] = coefficient[used] / (support[k] * support[used])
    pairwise = ranked.wins * scale  # coefficient[j] * A(k|j)
    offset = np.zeros(support.size)
    offset[used] = pairwise[used] / support[used]
    part = scale.take(ranked.classes)
    part *= ranked.k_above
    part -= offset.take(ranked.classes)
    part[ranked.is_k] = below_by_class @ scale - pairwise.sum() / support[k]
    if ranked.weight is not None:
        part *= ranked.weight
    return part


def _in_rows(order, sorted_values):
    """Values given in sorted order, put back in row order."""
    values = np.empty_like(sorted_values)
    values[order] = sorted_values
    return values


# --------------------------------------------------------------------------- variances and intervals


def stratified_covariance(influences, y, n_classes, weights=None) -> np.ndarray:
    """Stratified (by class) covariance of statistics from their influences, with DeLong's n/(n-1) factor.

    ``Cov(T_a, T_b) = sum_c n_c / (n_c - 1) sum_{s in c} (D_as - mean_c D_a)(D_bs - mean_c D_b)``
    over the rows of positive weight, ``n_c`` their number in class c.

    Parameters
    ----------
    influences : ndarray of shape (k, n) or (n,)
        Influences of k statistics (as :func:`auc_influences` gives them).
    y : ndarray of shape (n,)
        Class codes 0..n_classes-1.
    n_classes : int
        Number of classes.
    weights : ndarray of shape (n,) or None, default=None
        Sample weights: rows of weight 0 take no part (not in ``n_c``).

    Returns
    -------
    ndarray of shape (k, k)
        The covariance matrix. A class with a single row (of positive
        weight) cannot show its variability: since every AUC of polyroc
        depends on every class with rows (the rest of a one-vs-rest AUC,
        the pairs of Hand & Till's M, the micro cells), the whole matrix is
        then NaN. Classes without rows take no part.

    Examples
    --------
    >>> D = np.array([[0.125, -0.125, -0.125, 0.125]])  # DeLong: S10 / n1 + S01 / n0 = 0.0625 + 0.0625
    >>> stratified_covariance(D, np.array([0, 0, 1, 1]), 2)
    array([[0.125]])
    """
    influences = np.atleast_2d(np.asarray(influences, dtype=np.float64))
    rows = np.arange(y.size) if weights is None else np.flatnonzero(weights > 0)
    by_class = rows[np.argsort(y[rows], kind="stable")]
    bounds = np.concatenate(([0], np.cumsum(np.bincount(y[rows], minlength=n_classes))))
    covariance = np.zeros((influences.shape[0], influences.shape[0]))
    for c in range(n_classes):
        size = bounds[c + 1] - bounds[c]
        if size == 1:
            return np.full_like(covariance, np.nan)
        if size == 0:
            continue
        block = influences[:, by_class[bounds[c] : bounds[c + 1]]]
        centred = block - block.mean(axis=1, keepdims=True)
        covariance += size / (size - 1) * (centred @ centred.T)
    return covariance


def delong_variance(influence, y, n_classes, weights=None) -> tuple[float, float]:
    """Variance of one statistic (as :func:`stratified_covariance`) and its Welch-Satterthwaite degrees of freedom.

    The variance is a sum of per-class parts ``v_c``, each estimated from
    ``n_c - 1`` degrees of freedom; ``df = (sum v_c)^2 / sum v_c^2 / (n_c - 1)``
    (Satterthwaite 1946, doi:10.2307/3002019) is close to ``n_c - 1`` when a
    small class carries most of the variance, and large when the variance is
    spread over large classes. Infinite when the variance is 0; NaN (both)
    when a class has a single row of positive weight.

    Examples
    --------
    >>> D = np.array([0.125, -0.125, -0.125, 0.125])  # DeLong: 0.0625 + 0.0625, one degree of freedom each
    >>> delong_variance(D, np.array([0, 0, 1, 1]), 2)
    (0.125, 2.0)
    """
    influence = np.asarray(influence, dtype=np.float64)
    rows = np.arange(y.size) if weights is None else np.flatnonzero(weights > 0)
    counts = np.bincount(y[rows], minlength=n_classes)
    if np.any(counts == 1):
        return float("nan"), float("nan")
    sums = np.bincount(y[rows], weights=influence[rows], minlength=n_classes)
    means = np.divide(sums, counts, out=np.zeros(n_classes), where=counts > 0)
    squares = np.bincount(y[rows], weights=(influence[rows] - means[y[rows]]) ** 2, minlength=n_classes)
    used = counts >= 2
    parts = squares[used] * counts[used] / (counts[used] - 1)
    variance = float(parts.sum())
    spread = float(np.sum(parts**2 / (counts[used] - 1)))
    return variance, (variance * variance / spread if spread > 0 else float("inf"))


def logit_interval(estimate, variance, confidence, n_min, df=np.inf):
    """Logit-scale interval of an AUC (t quantile with ``df`` degrees of freedom), or the exact bound at 0 or 1.

    ``expit(logit(T) ± q sqrt(Var) / (T (1 - T)))`` with ``q`` the normal
    quantile (``df`` infinite) or Student's t's; at ``T = 1`` the bound
    ``[(alpha/2) ** (1/n_min), 1]`` (``n_min`` disjoint pairs are ranked
    correctly with probability at most ``AUC ** n_min``), mirrored at ``T = 0``.

    Parameters
    ----------
    estimate : float or array-like
        The AUC(s).
    variance : float or array-like
        Their variances (NaN gives NaN bounds).
    confidence : float
        Level of the interval, in (0, 1).
    n_min : int or array-like
        Smallest number of rows of a class the AUC involves (below 1: NaN).
    df : float or array-like, default=inf
        Degrees of freedom of the variance (:func:`delong_variance`).

    Returns
    -------
    low, high : float or ndarray
        The bounds (broadcast shape of the inputs).

    Examples
    --------
    >>> low, high = logit_interval(0.8, 0.0025, 0.95, 20)
    >>> round(low, 4), round(high, 4)
    (0.6843, 0.8807)
    >>> low, high = logit_interval(1.0, 0.0, 0.95, 2)  # low = sqrt(0.025)
    >>> round(low, 6), high
    (0.158114, 1.0)
    """
    estimate, variance, n_min, df = np.broadcast_arrays(
        np.asarray(estimate, dtype=np.float64),
        np.asarray(variance, dtype=np.float64),
        np.asarray(n_min, float),
        np.asarray(df, float),
    )
    alpha = 1.0 - confidence
    with np.errstate(invalid="ignore"):
        z = np.where(np.isinf(df), norm.ppf(1.0 - alpha / 2), student_t.ppf(1.0 - alpha / 2, np.where(df > 0, df, 1)))
    undefined = np.isnan(estimate) | np.isnan(variance) | ~(n_min >= 1) | np.isnan(df)
    with np.errstate(divide="ignore", invalid="ignore"):
        interior = (estimate > 0) & (estimate < 1)
        half_width = z * np.sqrt(variance) / (estimate * (1.0 - estimate))
        centre = logit(np.where(interior, estimate, 0.5))
        low = np.where(interior, expit(centre - half_width), 0.0)
        high = np.where(interior, expit(centre + half_width), 1.0)
        bound = (alpha / 2) ** (1.0 / np.where(n_min >= 1, n_min, 1.0))
    low = np.where(estimate == 1, bound, low)
    high = np.where(estimate == 0, 1.0 - bound, high)
    low, high = np.where(undefined, np.nan, low), np.where(undefined, np.nan, high)
    return finish(low), finish(high)


def auc_difference(estimate_a, influence_a, estimate_b, influence_b, y, n_classes, confidence, weights=None):
    """DeLong's paired comparison of two AUCs on the same rows: normal interval and two-sided test.

    ``Var(T_a - T_b)`` is :func:`stratified_covariance` of the difference of
    the influences (``Var_a + Var_b - 2 Cov_ab``); for a binary AUC this is
    the test of DeLong, DeLong & Clarke-Pearson (1988).

    Parameters
    ----------
    estimate_a, estimate_b : float
        The two AUCs.
    influence_a, influence_b : ndarray of shape (n,)
        Their influences (:func:`auc_influences`) on the same rows.
    y : ndarray of shape (n,)
        Class codes.
    n_classes : int
        Number of classes.
    confidence : float
        Level of the interval, in (0, 1).
    weights : ndarray of shape (n,) or None, default=None
        Sample weights (rows of weight 0 take no part).

    Returns
    -------
    difference, low, high, z, p_value : float
        ``T_a - T_b``, its normal interval, the z statistic and the
        two-sided p-value of no difference (NaN when the variance is). With
        zero variance, z is 0 (p = 1) for no difference and ±inf (p = 0)
        otherwise.

    Examples
    --------
    >>> y = np.array([0, 0, 0, 1, 1, 1])
    >>> def ovr_macro(score):
    ...     P = np.column_stack((1 - np.array(score), score))
    ...     return auc_influences(y, P, None, [("ovr", "macro")])["ovr", "macro"]
    >>> a, b = ovr_macro([.1, .4, .3, .8, .5, .7]), ovr_macro([.2, .7, .4, .6, .5, .9])
    >>> difference, low, high, z, p = auc_difference(*a, *b, y, 2, 0.95)
    >>> round(difference, 4), round(z, 4), round(p, 4)  # pROC's roc.test(method="delong"): z 0.8944, p 0.3711
    (0.2222, 0.8944, 0.3711)
    """
    difference = float(estimate_a) - float(estimate_b)
    influence = np.asarray(influence_a, dtype=np.float64) - np.asarray(influence_b, dtype=np.float64)
    variance = float(stratified_covariance(influence[None, :], y, n_classes, weights)[0, 0])
    standard_error = np.sqrt(variance)
    half_width = norm.ppf(0.5 + confidence / 2) * standard_error
    if np.isnan(variance) or np.isnan(difference):
        return difference, np.nan, np.nan, np.nan, np.nan
    if standard_error == 0:
        z = 0.0 if difference == 0 else np.copysign(np.inf, difference)
    else:
        z = difference / standard_error
    p_value = float(2.0 * norm.sf(abs(z)))
    return difference, float(difference - half_width), float(difference + half_width), float(z), p_value


# --------------------------------------------------------------------------- public interval


@validate_params(
    {
        "multi_class": [Options(tuple(AVERAGE_OPTIONS))],
        "confidence": [CONFIDENCE],
    }
)
def roc_auc_interval(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    multi_class: Literal["ovr", "ovo"] = "ovr",
    average: Literal["macro", "weighted", "micro", None] = "macro",
    sample_weight: ArrayLike | None = None,
    confidence: float = 0.95,
) -> ConfidenceInterval | dict[Any, ConfidenceInterval]:
    """Area under the ROC curve with DeLong's confidence interval (logit scale), binary or multiclass.

    The AUC is that of :func:`polyroc.metrics.roc_auc_score`: binary with
    one score per sample (of the greater label), else one-vs-rest (per-class
    macro or support-weighted mean, or micro) or one-vs-one (Hand & Till's
    M, macro or pair-support weighted). Its variance is DeLong's, extended
    to every multiclass AUC as the stratified infinitesimal jackknife
    conditional on the class counts (the design of polyroc's stratified
    bootstrap); the interval is taken on the logit scale, so that it stays
    within [0, 1] and keeps its coverage near the boundary, with a Student t
    quantile of Welch-Satterthwaite's degrees of freedom,
    which keeps it when a small class carries the variance. At an AUC of
    exactly 1 (or 0), where the variance vanishes although the AUC is not
    determined, it is the exact conservative bound ``[(alpha/2) ** (1/n_min), 1]``
    from ``n_min`` disjoint pairs, ``n_min`` the size of the smallest class.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores of the greater label (binary), or probabilities (rows sum to
        1), one column per class of ``labels`` (default the sorted labels of
        ``y_true``).
    labels : array-like, default=None
        The classes, one per score column (binary 1-D scores: the two
        classes, the second one positive).
    multi_class : {"ovr", "ovo"}, default="ovr"
        One-vs-rest or one-vs-one (Hand & Till); ignored for 1-D scores.
    average : {"macro", "weighted", "micro"} or None, default="macro"
        Mean over classes (OvR) or pairs (OvO), weighted by their support,
        or (OvR only) the AUC of the binarized labels against the raveled
        scores; None (OvR only): one interval per class, each class's AUC
        against the rest with the variance of its own structural components
        (for each class, pROC's ``var(roc(y == k, P[, k]), method = "delong")``);
        ignored for 1-D scores.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights (the influences are weighted; rows of
        weight 0 take no part).
    confidence : float, default=0.95
        Level of the interval, in (0, 1).

    Returns
    -------
    ConfidenceInterval or dict
        The AUC, the bounds, and ``settings["interval_method"]``
        ``"DeLong (logit)"``, or ``"DeLong (exact bound at AUC = 1)"`` (``= 0``)
        at the boundary; ``settings["standard_error"]`` is DeLong's standard
        error on the AUC scale and ``settings["df"]`` the degrees of freedom
        of the t quantile (absent when the variance is 0 and the normal
        quantile is used). With ``average=None``: a dict mapping each class
        (in the order of ``labels``) to its interval, as
        :attr:`polyroc.Evaluation.class_intervals` holds them.

    Raises
    ------
    ValueError
        If ``multi_class`` or ``average`` is not an option (the message lists
        them), ``confidence`` is not in (0, 1), the scores are not finite,
        2-D scores are not probabilities or do not match the classes,
        ``y_score`` is a DataFrame whose column names are some of the
        classes but not all, 1-D scores come with more than two classes, the lengths differ,
        ``sample_weight`` is bad, or fewer than two classes have samples of
        positive weight.
    TypeError
        If ``confidence`` is not a number, ``y_score`` or ``sample_weight``
        is not numeric, or the labels mix strings and numbers.

    Warns
    -----
    polyroc.exceptions.IntervalWarning
        If a class the AUC involves has fewer than 2 rows (of positive
        weight): DeLong's variance needs 2 rows per class, and the bounds
        are NaN. Also if the variance is 0 at an AUC strictly between 0 and
        1 (every score tied): the interval keeps its zero width and its
        method reads ``"DeLong (logit); degenerate (zero width): ..."``.

    See Also
    --------
    polyroc.metrics.roc_auc_score : The AUC alone, as scikit-learn.
    polyroc.comparison.compare_scores : DeLong's test of the difference of two models' AUCs.
    polyroc.evaluate : Every standard AUC with this interval.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the
    areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach. Biometrics 44, 837-845. doi:10.2307/2531595

    Sun, X. & Xu, W. (2014). Fast implementation of DeLong's algorithm for
    comparing the areas under correlated receiver operating characteristic
    curves. IEEE Signal Processing Letters 21, 1389-1393. doi:10.1109/LSP.2014.2337313

    Hand, D. J. & Till, R. J. (2001). A simple generalisation of the area under
    the ROC curve for multiple class classification problems. Machine
    Learning 45, 171-186. doi:10.1023/A:1010920819831

    Examples
    --------
    >>> from polyroc.intervals import roc_auc_interval
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> s = [0.1, 0.3, 0.35, 0.6, 0.4, 0.7, 0.8, 0.9]
    >>> print(roc_auc_interval(y, s))
    0.9375 [95% CI 0.2723, 0.9983; DeLong (logit)]
    >>> print(roc_auc_interval(y, [0.1, 0.2, 0.3, 0.35, 0.4, 0.7, 0.8, 0.9]))
    1.0000 [95% CI 0.3976, 1.0000; DeLong (exact bound at AUC = 1)]

    One interval per class (one-vs-rest), each with its standard error:

    >>> y = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    >>> P = [[.6, .3, .1], [.5, .3, .2], [.3, .4, .3], [.2, .6, .2], [.4, .4, .2],
    ...      [.1, .5, .4], [.2, .2, .6], [.3, .3, .4], [.1, .3, .6]]
    >>> per_class = roc_auc_interval(y, P, average=None)
    >>> {label: round(ci.estimate, 4) for label, ci in per_class.items()}
    {0: 0.9167, 1: 0.9722, 2: 0.9722}
    >>> print(per_class[0])
    0.9167 [95% CI 0.2166, 0.9977; DeLong (logit)]
    >>> round(per_class[0].settings["standard_error"], 4)
    0.1009
    """
    average = check_option(f"average (multi_class={multi_class!r})", average, AVERAGE_OPTIONS[multi_class])
    confidence = float(confidence)
    y, scores, classes, weights, key = _checked_problem(y_true, y_score, labels, sample_weight, multi_class, average)
    check_class_support(y, classes, weights)
    rows = class_rows(y, weights, classes.size)
    involved = np.ones(classes.size, bool) if key in (("ovr", "macro"), ("ovr", None)) else rows > 0
    n_min = smallest_class(rows, classes, involved)
    if key == ("ovr", None):
        table = ranked_influences(y, scores, weights, [], class_aucs=True).class_aucs
        intervals = class_auc_intervals(table, rows, confidence)
        marked = [_marked(interval) for interval in intervals]
        _warn_zero_width(
            [f"class {label!r}" for label, ci, old in zip(classes.tolist(), marked, intervals) if ci is not old]
        )
        return dict(zip(classes.tolist(), marked))
    if key == "binary":
        estimate, influence = _binary_influence(y, scores, weights)
    else:
        estimate, influence = auc_influences(y, scores, weights, [key])[key]
    variance, df = delong_variance(influence, y, classes.size, weights)
    interval = delong_interval(estimate, variance, df, confidence, n_min)
    marked = _marked(interval)
    if marked is not interval:
        _warn_zero_width(["the AUC"])
    return marked


def delong_interval(estimate, variance, df, confidence, n_min, *, method=None) -> ConfidenceInterval:
    """The logit interval of one AUC, with ``settings["standard_error"]`` (AUC scale) and ``settings["df"]``.

    ``df`` is recorded when finite (a t quantile was used); ``method`` is
    appended to the interval method (e.g. how the variance was sampled). An
    interval of zero width is left to the caller to mark (its own warning).
    """
    low, high = logit_interval(estimate, variance, confidence, n_min, df)
    name = delong_method_name(estimate, low) + (method or "")
    interval = ConfidenceInterval.from_bounds(estimate, low, high, confidence=confidence, interval_method=name)
    interval.settings["standard_error"] = float(np.sqrt(variance))
    if np.isfinite(df):
        interval.settings["df"] = float(df)
    return interval


def class_auc_intervals(table, rows, confidence, *, method=None) -> list[ConfidenceInterval]:
    """DeLong's logit interval of each class's one-vs-rest AUC, from ``RankedInfluences.class_aucs``.

    ``table`` (m, 3) holds each class's AUC, variance and degrees of
    freedom (:func:`ranked_influences` with ``class_aucs=True``): class k's
    AUC is a binary AUC of class k against the rest, and its variance is
    DeLong's for that binary problem, the variance of the structural
    components of the class-k rows plus that of the other rows pooled
    (:func:`one_vs_rest_variance`), as pROC's
    ``var(roc(y == k, P[, k]), method = "delong")``; the t quantile takes
    the Welch-Satterthwaite degrees of freedom of those two parts, and the
    exact bound at 0 or 1 the smaller of the two row counts (``rows``, the
    rows of positive weight per class). A class with fewer than 2 rows gets
    NaN bounds.
    """
    intervals = []
    for k, (estimate, variance, df) in enumerate(np.asarray(table, dtype=np.float64)):
        n_min = min(rows[k], rows.sum() - rows[k])
        intervals.append(delong_interval(float(estimate), variance, df, confidence, n_min, method=method))
    return intervals


def one_vs_rest_variance(influence, y, k, weights=None) -> tuple[float, float]:
    """DeLong's variance of class k's one-vs-rest AUC and its degrees of freedom: the rest is one stratum.

    :func:`delong_variance` with two strata, the rows of class k and all
    the others, so that the variance is the binary DeLong variance
    ``S10 / n1 + S01 / n0`` of the one-vs-rest problem (the stratification
    by every class would hold the mix of the other classes fixed).

    Examples
    --------
    >>> y = np.array([0, 0, 1, 1, 2, 2])
    >>> P = np.array([[.6, .2, .2], [.3, .3, .4], [.4, .5, .1], [.2, .2, .6], [.5, .3, .2], [.1, .2, .7]])
    >>> estimates, influences = auc_influences(y, P, None, [("ovr", None)])["ovr", None]
    >>> [round(v, 6) for v in one_vs_rest_variance(influences[0], y, 0)]  # pROC's var(): 0.08333333
    [0.083333, 1.714286]
    """
    return delong_variance(influence, (y == k).astype(np.intp), 2, weights)


def _marked(interval):
    """``interval``, marked degenerate when of zero width (NaN bounds are not; an AUC of 0 or 1 has its bound)."""
    if is_zero_width(interval.low, interval.high):
        return degenerate_interval(interval, DELONG_TIES)
    return interval


def _warn_zero_width(names):
    """One IntervalWarning for the DeLong intervals of zero width (``names``), if any."""
    if names:
        _warnings.warn(
            f"the interval of {', '.join(names)} has zero width: {DELONG_TIES}, which does not make the AUC "
            "known; read it as degenerate, not as exact",
            IntervalWarning,
        )


def delong_method_name(estimate, low):
    """``"DeLong (logit)"``, or the exact bound's name at an AUC of 0 or 1 (when bounded)."""
    if estimate in (0.0, 1.0) and not np.isnan(low):
        return f"DeLong (exact bound at AUC = {estimate:g})"
    return LOGIT_METHOD


def class_rows(y, weights, n_classes) -> np.ndarray:
    """Rows of positive weight of each class (the ``n_c`` of DeLong's variance)."""
    return np.bincount(y if weights is None else y[weights > 0], minlength=n_classes)


def smallest_class(rows, classes, involved=None) -> int:
    """The fewest rows of a class involved (default: every class with rows), warning below 2 rows.

    It is the ``n_min`` of the exact bound of :func:`logit_interval`; a class
    with a single row makes DeLong's variance NaN, which the warning says.
    """
    involved = rows > 0 if involved is None else involved
    few = involved & (rows < 2)
    if np.any(few):
        warn_small_classes(np.asarray(classes, dtype=object)[few], rows[few])
    return int(rows[involved].min())


def warn_small_classes(classes, rows):
    """One IntervalWarning naming the classes with fewer than 2 rows and their row counts."""
    listed = ", ".join(f"{label!r} ({count_noun(count, 'row')})" for label, count in zip(classes.tolist(), rows))
    _warnings.warn(
        f"DeLong's variance needs at least 2 rows (of positive weight) of every class the AUC involves; "
        f"class {listed} has fewer, so the interval is NaN",
        IntervalWarning,
    )


def _checked_problem(y_true, y_score, labels, sample_weight, multi_class, average):
    """Encoded labels, scores, classes, scaled weights and the statistic's key (``"binary"`` for 1-D scores)."""
    if y_score is not None and as_array("y_score", y_score).ndim == 1:
        y, score, classes, weights = _checked_binary(y_true, y_score, labels, sample_weight)
        return y, score, classes, weights, "binary"
    targets = check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight)
    weights = scale_weights(targets.sample_weight).weights
    return targets.y_true, targets.y_score, targets.classes, weights, (multi_class, average)


def _checked_binary(y_true, y_score, labels, sample_weight):
    y_true = check_label_vector("y_true", y_true)
    score = check_real_array("y_score", y_score, ndims=(1,))
    check_same_length(y_true=y_true, y_score=score)
    weights = check_sample_weight(sample_weight, y_true.shape[0])
    classes = resolve_classes(labels, y_true=y_true)
    if classes.size != 2:
        raise ValueError(
            f"y_score is 1-D (one score per sample) but there are {classes.size} classes; "
            "pass one probability column per class for a multiclass AUC"
        )
    return encode_labels(y_true, classes), score, classes, scale_weights(weights).weights


def _binary_influence(y, score, weights):
    """AUC of ``score`` for class 1 against class 0 and its influence (the OvR influence of column 1)."""
    support = np.bincount(y, weights=weights, minlength=2).astype(np.float64)
    ranked = RankedColumn(1, np.asarray(score, dtype=np.float64), y.astype(np.uint8), weights, 2)
    estimate = float(ranked.wins[0] / (support[0] * support[1]))
    return estimate, _in_rows(ranked.order, _ovr_part(1, ranked, support))
