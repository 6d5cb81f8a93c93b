"""Scoring single thresholds, exact line search along one coordinate, and coordinate ascent.

The coordinate ascent follows the exact line search of the simplex threshold
framework of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794. These
helpers take validated, encoded inputs (see ``polyroc._validation``) and a
metric on counts ``score_counts(counts (M, m, m)) -> (M,)``
(see :func:`checked_metric`).

Along the line t = tau_j (other thresholds fixed) every sample changes its
prediction at most once, from class j to its runner-up, so the score is
piecewise constant with at most n breakpoints. For the metrics that depend on
the confusion counts only through their diagonal and margins (accuracy, macro
F1, balanced accuracy, macro precision and recall, MCC) the sweep carries the
m true positives and m predicted totals per segment instead of the m x m
counts: O(n log n + K m) per line for K segments. A metric linear in the
counts (minus an expected cost, :class:`LinearForm`) carries one running sum:
O(n log n) per line.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from polyroc._engine.counts import (
    confusion_counts,
    coordinate_breakpoints,
    line_sweep_counts,
    rule_offsets,
    threshold_counts,
)
from polyroc._engine.parallel import chunk_map
from polyroc._engine.progress import task
from polyroc.counts import METRICS, get_metric, metric_name

#: Upper bound on the number of passes over all coordinates (sweeps) of a coordinate ascent.
MAX_SWEEPS = 100

#: Events per block of the margin line sweep; running sums of float parts restart from exact
#: totals at each block, so their rounding error stays that of a sum of this many terms.
LINE_BLOCK = 1024

#: Relative margin by which a line's best score must beat the current score before the move
#: is re-scored (above the rounding of the running sums, below any change one sample makes).
LINE_TOLERANCE = 1e-12


def checked_metric(metric):
    """The counts metric of ``metric``, checked to map counts (M, m, m) to M float scores.

    A callable written for one (m, m) matrix, or returning another shape,
    raises a ValueError naming the metric instead of failing later.
    """
    score_counts, name = get_metric(metric), metric_name(metric)

    def objective(counts):
        try:
            values = np.asarray(score_counts(counts), dtype=np.float64)
        except (IndexError, TypeError, ValueError) as error:
            raise ValueError(
                f"metric {name!r} failed on counts of shape {counts.shape} (a metric callable must map "
                f"counts (M, m, m) to M scores): {type(error).__name__}: {error}"
            ) from error
        if values.shape != (counts.shape[0],):
            raise ValueError(
                f"metric {name!r} must map counts of shape (M, m, m) to M scores; for counts of shape "
                f"{counts.shape} it returned shape {values.shape}"
            )
        return values

    return objective


# A margin form gives a registered metric of polyroc.counts (zero_division=0.0) from the
# per-class true positives tp, predicted totals and true totals, as combine(sum over classes
# of parts(tp, predicted, actual)): a move of one sample changes the parts of two classes only.
# Tests check every form against its counts metric.


def _share(numerator, denominator):
    """numerator / denominator, 0 where the denominator is 0 (the numerator is 0 there too)."""
    return numerator / np.where(denominator == 0, 1.0, denominator)


class MarginForm:
    """A metric as ``combine(sum_c parts(tp_c, predicted_c, actual_c), actual)``."""

    def __init__(self, parts, combine):
        self.parts, self.combine = parts, combine

    def __call__(self, tp, predicted, actual):
        """Scores (K,) of per-class tp and predicted totals (K, m) with true totals (m,)."""
        return self.combine(self.totals(tp, predicted, actual), actual)

    def totals(self, tp, predicted, actual):
        """The class sums of the parts: an array (q, K)."""
        return np.stack([part.sum(axis=-1) for part in self.parts(tp, predicted, actual)])


def _per(totals, count):
    """totals / count, NaN for 0 / 0 (as the counts metrics of empty counts)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return totals / count


def _mcc_combine(totals, actual):
    correct, cross, squares = totals
    total = actual.sum()
    covariance = correct * total - cross
    variances = (total**2 - squares) * (total**2 - (actual**2).sum())
    degenerate = variances == 0
    with np.errstate(invalid="ignore"):  # float weights can leave a variance a rounding error below 0
        return np.where(degenerate, 0.0, covariance / np.sqrt(np.where(degenerate, 1.0, variances)))


_MARGIN_FORMS = {
    "accuracy": MarginForm(lambda tp, p, a: (tp,), lambda t, a: _per(t[0], a.sum())),
    "f1_macro": MarginForm(lambda tp, p, a: (_share(2.0 * tp, a + p),), lambda t, a: t[0] / a.size),
    "recall_macro": MarginForm(lambda tp, p, a: (_share(tp, a + 0 * tp),), lambda t, a: t[0] / a.size),
    "precision_macro": MarginForm(lambda tp, p, a: (_share(tp, p),), lambda t, a: t[0] / a.size),
    "balanced_accuracy": MarginForm(lambda tp, p, a: (_share(tp, a + 0 * tp),), lambda t, a: _per(t[0], (a > 0).sum())),
    "matthews_corrcoef": MarginForm(lambda tp, p, a: (tp, p * a, p * p), _mcc_combine),
}
_MARGIN_FORMS["mcc"] = _MARGIN_FORMS["matthews_corrcoef"]


def margin_metric(metric):
    """The :class:`MarginForm` of a metric, or None.

    Defined for the registered metrics that depend on the counts only through
    their diagonal and margins, given by name or as the registered callable.

    Examples
    --------
    >>> counts = np.array([[8, 1, 1], [2, 6, 0], [1, 1, 7]])
    >>> form = margin_metric("f1_macro")
    >>> value = form(np.diag(counts)[None] * 1.0, counts.sum(axis=0)[None] * 1.0, counts.sum(axis=1) * 1.0)
    >>> value.round(6), round(get_metric("f1_macro")(counts), 6)
    (array([0.778478]), 0.778478)
    >>> margin_metric("cohen_kappa_linear") is None
    True
    """
    if isinstance(metric, str):
        return _MARGIN_FORMS.get(metric)
    for name, form in _MARGIN_FORMS.items():
        if METRICS[name] is metric:
            return form
    return None


def score_at(targets, thresholds, score_counts):
    """Metric value of the rule argmax(p - tau) for one threshold vector (brute force)."""
    y_true, scores, _, weights = targets
    return float(score_counts(threshold_counts(y_true, scores, thresholds[None, :], weights))[0])


def argmax_score(targets, score_counts):
    """Metric value of plain argmax (first index on ties) on validated targets."""
    y_true, scores, _, weights = targets
    counts = confusion_counts(y_true, np.argmax(scores, axis=1), scores.shape[1], weights)
    return float(score_counts(counts[None])[0])


def coordinate_bounds(thresholds, coordinate, domain):
    """Interval of t = tau_j (others fixed) whose re-centred vector stays in the domain.

    Simplex: tau has a simplex representative iff sum_k (tau_k - min tau) <= 1,
    which for t gives [(R - 1)/(m - 1), 1 - R + m a] with R and a the sum and
    the minimum of the other coordinates. Box: max - min <= 1.

    Examples
    --------
    >>> coordinate_bounds(np.array([0.5, 0.3, 0.2]), 0, "simplex")
    (-0.25, 1.1)
    >>> coordinate_bounds(np.array([0.0, 0.5, 1.0]), 1, "box")
    (0.0, 1.0)
    """
    others = np.delete(thresholds, coordinate)
    n_classes = thresholds.size
    if domain == "simplex":
        total = others.sum()
        return float((total - 1.0) / (n_classes - 1)), float(1.0 - total + n_classes * others.min())
    return float(others.max() - 1.0), float(others.min() + 1.0)


def recentre(thresholds, domain):
    """The representative of tau (mod constants) in the domain: sum 1 (simplex) or min 0 (box).

    Examples
    --------
    >>> recentre(np.array([0.8, 0.3, 0.2]), "simplex").round(6).tolist()
    [0.7, 0.2, 0.1]
    """
    if domain == "simplex":
        shifted = thresholds - (thresholds.sum() - 1.0) / thresholds.size
        return np.maximum(shifted, 0.0)
    return thresholds - thresholds.min()


#: Rows of the scores shifted at a time by :class:`TopTwo`.
TOP_TWO_ROWS = 1 << 14


class TopTwo:
    """The rule's prediction and the two best classes of each row of p - tau, for line searches.

    Rows are shifted by :func:`polyroc._engine.counts.rule_offsets` (tau - min tau),
    the float64 form of the rule, so ``first`` is exactly the prediction of
    :func:`polyroc.thresholds.apply_thresholds` (first index on ties). Along
    the line of coordinate j the runner-up of a sample is its best class
    other than j: ``first`` unless that is j, then ``second``. Computed once
    per threshold vector in O(n m) and shared by the m lines through it.
    """

    def __init__(self, targets, thresholds):
        scores = targets.y_score
        n_samples = scores.shape[0]
        self.minimum = float(thresholds.min())
        offsets = rule_offsets(thresholds)
        self.first, self.second = np.empty(n_samples, dtype=np.intp), np.empty(n_samples, dtype=np.intp)
        self.first_value, self.second_value = np.empty(n_samples), np.empty(n_samples)
        blocks = (slice(start, start + TOP_TWO_ROWS) for start in range(0, n_samples, TOP_TWO_ROWS))
        for _ in chunk_map(partial(self._fill, scores, offsets), blocks):  # on threads: numpy releases the GIL
            pass
        self.counts = confusion_counts(targets.y_true, self.first, scores.shape[1], targets.sample_weight)

    def _fill(self, scores, offsets, block):
        """The top two of the rows of ``block`` (a slice), whose shifted scores stay in cache."""
        shifted = scores[block] - offsets
        flat, starts = shifted.reshape(-1), np.arange(0, shifted.size, shifted.shape[1])  # row i at starts[i]
        first = self.first[block] = np.argmax(shifted, axis=1)
        self.first_value[block] = flat.take(starts + first)
        flat[starts + first] = -np.inf
        second = self.second[block] = np.argmax(shifted, axis=1)
        self.second_value[block] = flat.take(starts + second)

    def breakpoints(self, scores, coordinate):
        """As :func:`polyroc._engine.counts.coordinate_breakpoints`: (breakpoints, runner_up)."""
        is_first = self.first == coordinate
        runner_up = np.where(is_first, self.second, self.first)
        level = np.where(is_first, self.second_value, self.first_value) - self.minimum
        return scores[:, coordinate] - level, runner_up


def _group_cumsums(groups, n_groups, *values):
    """Running sums of each of ``values`` within each group, in the original order (exact for integers)."""
    # the same stable order; numpy sorts keys of 16 bits or fewer by radix, in O(n)
    keys = groups.astype(np.min_scalar_type(n_groups - 1)) if 0 < n_groups <= 2**16 else groups
    order = np.argsort(keys, kind="stable")
    starts = np.searchsorted(groups[order], np.arange(n_groups))[groups[order]]
    sums = []
    for value in values:
        running = np.cumsum(value[order])
        out = np.empty_like(running)
        out[order] = running - np.concatenate(([0], running))[starts]
        sums.append(out)
    return sums


def _margin_line_values(targets, thresholds, coordinate, bounds, form, top_two=None, exact=False):
    """Edges (K + 1,) and values (K,) along the line from per-class margins, in O(n log n + n q).

    Samples with a breakpoint b in (lo, hi) are events, sorted by b; each moves
    from column j to its runner-up k, changing the margins of j and k only.
    The exact (integer without weights) margins of the two classes around each
    event give the change of the class sums of the form's parts; these are
    summed within blocks of events that restart from exact totals, so float
    drift stays bounded. With ``exact``, the parts are instead summed from the
    exact margins of every class after each event (O(n m)), in the order of
    the counts metrics, so the values are theirs to the last bit. After the
    last event of each distinct b starts a new open segment (the order of
    events with equal b does not matter).
    """
    y_true, scores, _, weights = targets
    lo, hi = bounds
    n_classes = scores.shape[1]
    if top_two is None:
        breakpoints, runner_up = coordinate_breakpoints(scores, thresholds, coordinate)
    else:
        breakpoints, runner_up = top_two.breakpoints(scores, coordinate)
    predicted = np.where(breakpoints > lo, coordinate, runner_up)
    counts = confusion_counts(y_true, predicted, n_classes, weights)
    actual, tp0, predicted0 = counts.sum(axis=1), np.diagonal(counts).copy(), counts.sum(axis=0)
    inside = np.flatnonzero((breakpoints > lo) & (breakpoints < hi))
    inside = inside[np.argsort(breakpoints[inside])]
    event_b, k, y = breakpoints[inside], runner_up[inside], y_true[inside]
    w = np.ones(inside.size, dtype=counts.dtype) if weights is None else weights[inside]
    gain, loss = np.where(y == k, w, 0), np.where(y == coordinate, w, 0)
    # margins of j and of k after each event, and their increments
    predicted_j, tp_j = predicted0[coordinate] - np.cumsum(w), tp0[coordinate] - np.cumsum(loss)
    moved, gained = _group_cumsums(k, n_classes, w, gain)
    predicted_k, tp_k = predicted0[k] + moved, tp0[k] + gained
    if weights is not None:  # float sums of moved weights can dip below 0
        for margin in (predicted_j, tp_j, predicted_k, tp_k):
            np.maximum(margin, 0.0, out=margin)
    actual_j, actual_k = actual[coordinate], actual[k]
    change = np.stack(form.parts(tp_j, predicted_j, actual_j)) - np.stack(
        form.parts(tp_j + loss, predicted_j + w, actual_j)
    )
    change += np.stack(form.parts(tp_k, predicted_k, actual_k)) - np.stack(
        form.parts(tp_k - gain, predicted_k - w, actual_k)
    )
    if exact:
        totals = _exact_totals(form, k, w, gain, loss, coordinate, tp0, predicted0, actual)
    else:
        totals = _blockwise_totals(form, change, k, w, gain, loss, coordinate, tp0, predicted0, actual)
    last_of_value = np.append(event_b[1:] != event_b[:-1], True) if inside.size else np.zeros(0, bool)
    start_value = form(tp0[None].astype(np.float64), predicted0[None].astype(np.float64), actual)
    values = np.concatenate((start_value, form.combine(totals[:, last_of_value], actual)))
    edges = np.concatenate(([lo], event_b[last_of_value], [hi]))
    return edges, values.astype(np.float64)


def _exact_totals(form, k, w, gain, loss, coordinate, tp0, predicted0, actual):
    """Class sums of the parts after each event, from the exact margins of every class, block by block."""
    n_classes = actual.size
    state_tp, state_predicted = tp0, predicted0
    totals = []
    step = LINE_BLOCK * 16
    for start in range(0, k.size, step):
        block = slice(start, start + step)
        rows = np.arange(k[block].size)
        moves = np.zeros((rows.size, n_classes), dtype=np.result_type(predicted0, w))
        moves[rows, k[block]] = w[block]
        moves[:, coordinate] = -w[block]
        predicted = np.cumsum(moves, axis=0) + state_predicted
        moves.fill(0)
        moves[rows, k[block]] = gain[block]
        moves[:, coordinate] = -loss[block]
        tp = np.cumsum(moves, axis=0) + state_tp
        state_tp, state_predicted = tp[-1], predicted[-1]
        if predicted.dtype.kind == "f":
            np.maximum(predicted, 0.0, out=predicted)
            np.maximum(tp, 0.0, out=tp)
        totals.append(form.totals(tp.astype(np.float64), predicted.astype(np.float64), actual))
    return np.concatenate(totals, axis=1) if totals else np.zeros((len(form.parts(tp0, predicted0, actual)), 0))


def _blockwise_totals(form, change, k, w, gain, loss, coordinate, tp0, predicted0, actual):
    """Class sums of the parts after each event: exact totals at block starts plus in-block running sums."""
    n_events = k.size
    n_classes = actual.size
    step = LINE_BLOCK
    n_blocks = -(-n_events // step)
    block = np.arange(n_events) // step
    # exact margins at the start of each block
    dtype = np.result_type(predicted0, w)
    predicted_moves = _cell_sums(block + 1, k, w, n_blocks + 1, n_classes, dtype)
    tp_moves = _cell_sums(block + 1, k, gain, n_blocks + 1, n_classes, dtype)
    # k is never the coordinate (the runner-up is another class): its column is still all zeros
    predicted_moves[:, coordinate] = _cell_sums(block + 1, 0, -w, n_blocks + 1, 1, dtype)[:, 0]
    tp_moves[:, coordinate] = _cell_sums(block + 1, 0, -loss, n_blocks + 1, 1, dtype)[:, 0]
    starts_predicted = predicted0 + np.cumsum(predicted_moves, axis=0)[:n_blocks]
    starts_tp = tp0 + np.cumsum(tp_moves, axis=0)[:n_blocks]
    if starts_predicted.dtype.kind == "f":
        np.maximum(starts_predicted, 0.0, out=starts_predicted)
        np.maximum(starts_tp, 0.0, out=starts_tp)
    start_totals = form.totals(starts_tp.astype(np.float64), starts_predicted.astype(np.float64), actual)
    padded = np.zeros((change.shape[0], n_blocks * step))
    padded[:, :n_events] = change
    running = np.cumsum(padded.reshape(change.shape[0], n_blocks, step), axis=2)
    running += start_totals[:, :, None]
    return running.reshape(change.shape[0], -1)[:, :n_events]


def _cell_sums(rows, columns, values, n_rows, n_columns, dtype):
    """``np.add.at(np.zeros((n_rows, n_columns), dtype), (rows, columns), values)`` by one ``np.bincount``.

    Both add the values of a cell from 0 in the order given, so the sums are
    the same numbers (exact for integer values, as are their float64 sums
    below 2**53).

    >>> rows, columns, values = np.array([0, 2, 0, 2]), np.array([1, 0, 1, 1]), np.array([0.1, 0.2, 0.7, 0.3])
    >>> expected = np.zeros((3, 2))
    >>> np.add.at(expected, (rows, columns), values)
    >>> bool(np.array_equal(_cell_sums(rows, columns, values, 3, 2, np.float64), expected))
    True
    """
    cells = np.bincount(rows * n_columns + columns, weights=values, minlength=n_rows * n_columns)
    return cells.reshape(n_rows, n_columns).astype(dtype, copy=False)


class LinearForm:
    """A metric linear in the counts: ``sum(gains * counts) / sum(counts)`` (e.g. minus an expected cost).

    A move of one sample of class y from decision j to k changes the numerator
    by ``w * (gains[y, k] - gains[y, j])``, so a line sweep carries one
    running sum instead of the m x m counts.
    """

    def __init__(self, gains):
        self.gains = np.asarray(gains, dtype=np.float64)


def _linear_line_values(targets, thresholds, coordinate, bounds, form, top_two=None):
    """Edges (K + 1,) and values (K,) of a :class:`LinearForm` along the line, in O(n log n).

    The numerator after each event is the exact numerator at the start plus
    the running sum of the events' changes (exact for integer counts and
    gains); the total of the counts does not change along the line.
    """
    y_true, scores, _, weights = targets
    lo, hi = bounds
    if top_two is None:
        breakpoints, runner_up = coordinate_breakpoints(scores, thresholds, coordinate)
    else:
        breakpoints, runner_up = top_two.breakpoints(scores, coordinate)
    predicted = np.where(breakpoints > lo, coordinate, runner_up)
    counts = confusion_counts(y_true, predicted, scores.shape[1], weights).astype(np.float64)
    total, start = counts.sum(), (counts * form.gains).sum()
    inside = np.flatnonzero((breakpoints > lo) & (breakpoints < hi))
    inside = inside[np.argsort(breakpoints[inside], kind="stable")]
    event_b, y = breakpoints[inside], y_true[inside]
    w = np.ones(inside.size) if weights is None else weights[inside]
    numerators = start + np.cumsum(w * (form.gains[y, runner_up[inside]] - form.gains[y, coordinate]))
    last_of_value = np.append(event_b[1:] != event_b[:-1], True) if inside.size else np.zeros(0, bool)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = np.concatenate(([start], numerators[last_of_value])) / total
    return np.concatenate(([lo], event_b[last_of_value], [hi])), values


def line_values(targets, thresholds, coordinate, bounds, score_counts, margin_score=None, top_two=None, exact=False):
    """The score on every open segment of t = tau_j in ``bounds``: (edges (K + 1,), values (K,)).

    Segment s is (edges[s], edges[s + 1]); the breakpoints themselves, where a
    sample lies on a region boundary, are the edges. With ``margin_score``
    (see :func:`margin_metric`) the sweep carries only the diagonal and the
    predicted totals, and with a :class:`LinearForm` one running sum (unless
    ``exact``); otherwise the full counts of each segment are scored.
    ``top_two`` (a :class:`TopTwo` of ``thresholds``) saves the O(n m) search
    of the runners-up (margin sweep only). ``exact`` gives the values of the
    counts metric to the last bit (see :func:`_margin_line_values`).
    """
    if isinstance(margin_score, LinearForm) and not exact:
        return _linear_line_values(targets, thresholds, coordinate, bounds, margin_score, top_two)
    if isinstance(margin_score, MarginForm):
        return _margin_line_values(targets, thresholds, coordinate, bounds, margin_score, top_two, exact)
    y_true, scores, _, weights = targets
    lefts, values = [], []
    for left, _right, counts in line_sweep_counts(y_true, scores, thresholds, coordinate, bounds, weights):
        lefts.append(left)
        values.append(np.asarray(score_counts(counts), dtype=np.float64))
    return np.append(np.concatenate(lefts), bounds[1]), np.concatenate(values)


def best_on_line(targets, thresholds, coordinate, bounds, score_counts, margin_score=None, top_two=None):
    """Best open segment of t = tau_j within ``bounds``: returns (midpoint, score).

    Exact over the segments between consecutive breakpoints (the metric is
    constant on each); the breakpoints themselves, where a sample lies on a
    region boundary, are not candidates. The first best segment wins ties;
    NaN scores rank below every number.
    """
    edges, values = line_values(targets, thresholds, coordinate, bounds, score_counts, margin_score, top_two)
    values = np.where(np.isnan(values), -np.inf, values)
    index = int(np.argmax(values))
    if values[index] == -np.inf:
        return None, -np.inf
    return 0.5 * (edges[index] + edges[index + 1]), float(values[index])


def coordinate_ascent(targets, start, score_counts, *, domain, margin_score=None, max_sweeps=MAX_SWEEPS):
    """Cycle exact line searches over the coordinates until no move improves the score.

    Each move is re-scored by the plain rule and kept only if strictly better,
    so the result is never worse than ``start``. Reaches a coordinate-wise
    optimum, not necessarily the global one, within ``max_sweeps`` passes over
    the coordinates (each reported to :func:`polyroc._engine.progress.task` as a
    ``"coordinate sweeps"`` unit). ``margin_score`` (a :class:`MarginForm`, see
    :func:`margin_metric`, or a :class:`LinearForm`) makes each line search
    O(n log n). Returns
    (thresholds, score, number of sweeps).
    """
    current = start.copy()
    state = TopTwo(targets, current)
    current_score = float(score_counts(state.counts[None])[0])
    work = task("coordinate sweeps", max_sweeps)
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        improved = False
        for coordinate in range(current.size):
            lo, hi = coordinate_bounds(current, coordinate, domain)
            if not hi > lo:
                continue
            t, line_score = best_on_line(targets, current, coordinate, (lo, hi), score_counts, margin_score, state)
            if t is None or not line_score > current_score + LINE_TOLERANCE * max(1.0, abs(current_score)):
                continue
            candidate = current.copy()
            candidate[coordinate] = t
            candidate = recentre(candidate, domain)
            candidate_state = TopTwo(targets, candidate)
            candidate_score = float(score_counts(candidate_state.counts[None])[0])
            if candidate_score > current_score:
                current, current_score, state, improved = candidate, candidate_score, candidate_state, True
        work.advance()
        if not improved:
            break
    work.advance(max_sweeps)
    return current, current_score, sweeps
