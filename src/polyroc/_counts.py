"""The counts engine: weighted confusion counts for one rule or a batch of rules.

Counts have shape (..., m, m) with ``counts[..., true, predicted]``. They are
integers (int64) without sample weights and float64 with them. Everything here
takes labels already encoded as class indices 0..m-1 (see ``_validation``).
Work on a batch is split into chunks so that the temporary memory stays near
:data:`CHUNK_BYTES` whatever the number of rules.
"""

from __future__ import annotations

import numpy as np

#: Target size of the temporary arrays built for one chunk of a batch.
CHUNK_BYTES = 64 * 2**20

#: Size of one running-maximum buffer of :func:`argmax_shifted` (fits in cache).
ARGMAX_BLOCK_BYTES = 2**20


def chunk_length(bytes_per_item, *, budget=CHUNK_BYTES):
    """Number of batch items per chunk so that a chunk uses about ``budget`` bytes."""
    return max(1, int(budget // max(1, bytes_per_item)))


def confusion_counts(y_true, y_pred, n_classes, sample_weight=None):
    """Confusion counts (m, m) of encoded labels.

    >>> confusion_counts(np.array([0, 1, 1]), np.array([0, 0, 1]), 2)
    array([[1, 0],
           [1, 1]])
    """
    flat = y_true * n_classes + y_pred
    counts = np.bincount(flat, weights=sample_weight, minlength=n_classes * n_classes)
    return counts.reshape(n_classes, n_classes)


def batch_confusion_counts(y_true, predictions, n_classes, sample_weight=None):
    """Confusion counts (M, m, m) of a batch of predictions of shape (M, n).

    >>> batch_confusion_counts(np.array([0, 1]), np.array([[0, 1], [1, 1]]), 2)
    array([[[1, 0],
            [0, 1]],
    <BLANKLINE>
           [[0, 1],
            [0, 1]]])
    """
    predictions = np.asarray(predictions)
    n_rules, n_samples = predictions.shape
    cells = n_classes * n_classes
    out = np.zeros((n_rules, cells), dtype=np.float64 if sample_weight is not None else np.int64)
    step = chunk_length(n_samples * 16)
    true_offset = y_true * n_classes
    for start in range(0, n_rules, step):
        block = predictions[start : start + step]
        rows = block.shape[0]
        flat = (np.arange(rows)[:, None] * cells + true_offset) + block
        weights = None if sample_weight is None else np.broadcast_to(sample_weight, block.shape).ravel()
        out[start : start + rows] = np.bincount(
            flat.ravel(), weights=weights, minlength=rows * cells
        ).reshape(rows, cells)
    return out.reshape(n_rules, n_classes, n_classes)


def replicate_confusion_counts(y_true, y_pred, n_classes, replicate_weights):
    """Confusion counts (b, m, m) of one prediction under b rows of sample weights (b, n).

    Row r of ``replicate_weights`` weights every sample (e.g. bootstrap
    multiplicities times sample weights); one sparse product gives all rows.

    >>> replicate_confusion_counts(np.array([0, 1, 1]), np.array([0, 0, 1]), 2, np.array([[1, 2, 0]]))
    array([[[1., 0.],
            [2., 0.]]])
    """
    from scipy import sparse

    n_samples = y_true.shape[0]
    cells = sparse.csr_matrix(
        (np.ones(n_samples), (np.arange(n_samples), y_true * n_classes + y_pred)),
        shape=(n_samples, n_classes * n_classes),
    )
    counts = (cells.T @ np.asarray(replicate_weights, dtype=np.float64).T).T
    return counts.reshape(-1, n_classes, n_classes)


def rule_offsets(thresholds):
    """The thresholds shifted so that each row's smallest entry is 0.

    The rule argmax(p - tau) depends only on the differences tau_j - tau_k, and
    every polyroc path evaluates it in float64 as argmax(p - rule_offsets(tau)).
    With this representative the barycentre (a constant tau) subtracts exact
    zeros, so it is plain ``np.argmax(p)`` to the last bit.

    >>> rule_offsets(np.array([[0.5, 0.25, 0.25], [1/3, 1/3, 1/3]])).tolist()
    [[0.25, 0.0, 0.0], [0.0, 0.0, 0.0]]
    """
    thresholds = np.asarray(thresholds, dtype=np.float64)
    return thresholds - thresholds.min(axis=-1, keepdims=True)


def argmax_shifted(y_score, thresholds):
    """Predictions argmax(p - tau) for a batch of thresholds (first index wins ties).

    ``y_score`` is (n, m) and ``thresholds`` (M, m); the result is (M, n).
    Each tau is used through :func:`rule_offsets`, the one float64 form of the
    rule. Works on small blocks of thresholds with a running maximum over the
    classes (a strict ``>`` keeps the first maximiser, as ``np.argmax``), which
    stays in cache and avoids an (M, n, m) temporary.

    >>> P = np.array([[0.5, 0.3, 0.2], [0.2, 0.4, 0.4]])
    >>> argmax_shifted(P, np.array([[1/3, 1/3, 1/3], [0.6, 0.2, 0.2]]))
    array([[0, 1],
           [1, 1]])
    """
    thresholds = rule_offsets(thresholds)
    n_samples, n_classes = y_score.shape
    columns = np.ascontiguousarray(y_score.T, dtype=np.float64)
    out = np.empty((thresholds.shape[0], n_samples), dtype=np.intp)
    step = chunk_length(n_samples * 8, budget=ARGMAX_BLOCK_BYTES)
    best = np.empty((min(step, thresholds.shape[0]), n_samples))
    shifted = np.empty_like(best)
    larger = np.empty(best.shape, dtype=bool)
    for start in range(0, thresholds.shape[0], step):
        block = thresholds[start : start + step]
        rows = block.shape[0]
        block_best, block_shifted, block_larger = best[:rows], shifted[:rows], larger[:rows]
        block_out = out[start : start + rows]
        np.subtract(columns[0], block[:, :1], out=block_best)
        block_out.fill(0)
        for predicted in range(1, n_classes):
            np.subtract(columns[predicted], block[:, predicted : predicted + 1], out=block_shifted)
            np.greater(block_shifted, block_best, out=block_larger)
            np.maximum(block_best, block_shifted, out=block_best)
            np.putmask(block_out, block_larger, predicted)
    return out


def threshold_counts(y_true, y_score, thresholds, sample_weight=None):
    """Confusion counts (M, m, m) of the rule argmax(p - tau) for each tau in ``thresholds``.

    The plain (chunked) brute force: every fast path for many thresholds must
    return exactly these counts. Memory stays bounded by working on chunks of
    thresholds.

    >>> y = np.array([0, 1, 2])
    >>> P = np.array([[0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.2, 0.3, 0.5]])
    >>> threshold_counts(y, P, np.full((1, 3), 1/3))[0]
    array([[1, 0, 0],
           [0, 1, 0],
           [0, 0, 1]])
    """
    thresholds = np.asarray(thresholds, dtype=np.float64)
    n_samples, n_classes = y_score.shape
    dtype = np.float64 if sample_weight is not None else np.int64
    out = np.empty((thresholds.shape[0], n_classes, n_classes), dtype=dtype)
    step = chunk_length(n_samples * n_classes * 8)
    for start in range(0, thresholds.shape[0], step):
        block = thresholds[start : start + step]
        predictions = argmax_shifted(y_score, block)
        out[start : start + block.shape[0]] = batch_confusion_counts(
            y_true, predictions, n_classes, sample_weight
        )
    return out


def per_class_counts(counts):
    """TP, FP, FN, TN per class from counts (..., m, m); each of shape (..., m).

    >>> tp, fp, fn, tn = per_class_counts(np.array([[8, 1, 1], [2, 6, 0], [1, 1, 7]]))
    >>> tp.tolist(), fp.tolist(), fn.tolist(), tn.tolist()
    ([8, 6, 7], [3, 2, 1], [2, 2, 2], [14, 17, 17])
    """
    counts = np.asarray(counts)
    tp = np.diagonal(counts, axis1=-2, axis2=-1)
    actual = counts.sum(axis=-1)
    fp = counts.sum(axis=-2) - tp
    fn = actual - tp
    # TN as a sum of non-negative terms (each other row minus its cell in column j), so
    # that float counts never give a negative TN and rates stay within [0, 1].
    other_rows = actual[..., :, None] - counts
    np.einsum("...jj->...j", other_rows)[...] = 0
    tn = other_rows.sum(axis=-2)
    return tp, fp, fn, tn


#: Largest dominance histogram (cells per true class) of the lattice fast path.
DOMINANCE_MAX_CELLS = 2**24


def dominance_cells(n_classes, resolution):
    """Cells of one dominance histogram: (2r + 2)^(m - 1).

    >>> dominance_cells(3, 200)
    161604
    """
    return (2 * resolution + 2) ** (n_classes - 1)


def dominance_is_faster(n_samples, n_classes, resolution, n_points):
    """Whether lattice dominance counting beats the chunked brute force (and fits in memory).

    Compares the histogram work m^2 (m - 1) (2r + 2)^(m - 1) with the brute
    force's M n m, and refuses histograms above :data:`DOMINANCE_MAX_CELLS`.

    >>> dominance_is_faster(3000, 3, 200, 20301), dominance_is_faster(50, 10, 5, 2002)
    (True, False)
    """
    cells = dominance_cells(n_classes, resolution)
    if cells > DOMINANCE_MAX_CELLS:
        return False
    return n_classes**2 * (n_classes - 1) * cells < n_points * n_samples * n_classes


def _dominance_bounds(y_score, resolution, predicted):
    """Integer bounds h_ik = floor(r (p_ij - p_ik)) of rows off every breakpoint.

    Such a row goes to ``predicted`` = j iff c_j - c_k <= h_ik for all k != j (no
    tie can occur at a lattice point). Returns (n, m - 1) reversed indices
    r - h in [0, 2r + 1] (2r + 1 means never), so that prefix sums over the
    indices count the samples with h >= c_j - c_k.
    """
    others = np.delete(np.arange(y_score.shape[1]), predicted)
    bounds = np.floor(resolution * (y_score[:, [predicted]] - y_score[:, others]))
    return resolution - np.clip(bounds, -resolution - 1, resolution).astype(np.intp)


def _dominance_histogram(buffer, flat, sample_weight):
    """Fill ``buffer`` (m, side, ..., side) with the sample histogram, then prefix-sum it in place.

    After the sums, a cell holds the count (or weight) of samples whose reversed
    indices are all at most the cell's.
    """
    buffer.fill(0)
    np.add.at(buffer.reshape(-1), flat, 1 if sample_weight is None else sample_weight)
    for axis in range(1, buffer.ndim - 1):
        _cumsum_outer_axis(buffer, axis)
    np.cumsum(buffer, axis=-1, out=buffer)
    return buffer


def _cumsum_outer_axis(array, axis):
    """In-place cumulative sum along a non-last axis, one slice at a time.

    Much faster than ``np.cumsum`` along an outer axis, which walks the
    array with large strides.
    """
    slices = np.moveaxis(array, axis, 0)
    for index in range(1, slices.shape[0]):
        np.add(slices[index], slices[index - 1], out=slices[index])


#: Half-width, in score units per unit of scale, of the band around a lattice breakpoint
#: inside which float64 rounding may decide a comparison (thousands of ulps wide).
BREAKPOINT_BAND = 1e-12


def near_breakpoint(y_score, resolution):
    """Rows with a pair of scores whose difference lies within a band of a multiple of 1/r.

    For such a row the float64 rule argmax(p - tau) at a lattice point may
    differ from the exact comparison r (p_j - p_k) versus c_j - c_k (exactly
    tied scores always do), so the dominance counts leave it to the brute force.

    >>> near_breakpoint(np.array([[0.6, 0.4], [0.6123, 0.3877]]), 200).tolist()
    [True, False]
    """
    scale = max(1.0, float(np.max(np.abs(y_score))))
    band = BREAKPOINT_BAND * scale * resolution
    n_classes = y_score.shape[1]
    near = np.zeros(y_score.shape[0], dtype=bool)
    for j in range(n_classes):
        for k in range(j + 1, n_classes):
            scaled = resolution * (y_score[:, j] - y_score[:, k])
            near |= np.abs(scaled - np.rint(scaled)) <= band
    return near


def _distinct_rows(y_true, y_score, sample_weight):
    """Distinct (label, score row) pairs with their total weight (or multiplicity)."""
    keys = np.column_stack([y_true.astype(np.float64), y_score])
    unique, inverse = np.unique(keys, axis=0, return_inverse=True)
    weights = np.bincount(inverse.ravel(), weights=sample_weight, minlength=unique.shape[0])
    return unique[:, 0].astype(np.intp), unique[:, 1:], weights


def lattice_threshold_counts(y_true, y_score, points, resolution, sample_weight=None):
    """Confusion counts (M, m, m) of argmax(p - c/r) for integer lattice points c, by dominance.

    ``points`` is (M, m) with integer entries in [0, r] (simplex or box
    lattice). The counts equal :func:`threshold_counts` on ``points / r`` (the
    float64 rule) exactly, ties included:

    - a row whose pairwise score differences all lie off the breakpoints
      (farther than a band of thousands of ulps from a multiple of 1/r) goes to
      class j iff c_j - c_k <= floor(r (p_ij - p_ik)) for every k != j, a
      condition on integer differences that float rounding cannot change. For
      each j, one histogram of these bounds per true class, summed over
      dominating cells, gives column j of every lattice point's counts;
    - the other rows (exact ties, rational scores with a denominator dividing
      r, as from k-NN, small trees, votes or rounding) are grouped into distinct
      (label, scores) rows and scored by the brute force with their
      multiplicities as weights.

    Cost O(n m^2 + m^3 (2r+2)^(m-1) + M m^2 + M u m) for u distinct rows near a
    breakpoint, instead of O(M n m).

    >>> y = np.array([0, 1, 2, 1])
    >>> P = np.array([[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]])
    >>> points = np.array([[1, 1, 2], [0, 4, 0], [1, 2, 1]])
    >>> np.array_equal(lattice_threshold_counts(y, P, points, 10),
    ...                threshold_counts(y, P, points / 10))
    True
    """
    points = np.asarray(points, dtype=np.intp)
    n_classes = y_score.shape[1]
    near = near_breakpoint(y_score, resolution)
    clean = ~near
    weights = None if sample_weight is None else sample_weight[clean]
    out = _dominance_counts(y_true[clean], y_score[clean], points, resolution, n_classes, weights)
    if near.any():
        rows_true, rows_score, rows_weight = _distinct_rows(
            y_true[near], y_score[near], None if sample_weight is None else sample_weight[near]
        )
        tied = threshold_counts(rows_true, rows_score, points / resolution, rows_weight)
        out += tied if sample_weight is not None else np.rint(tied).astype(out.dtype)
    return out


def _dominance_counts(y_true, y_score, points, resolution, n_classes, sample_weight):
    """Dominance counts of rows that lie off every breakpoint (see lattice_threshold_counts)."""
    side = 2 * resolution + 2
    dims = (side,) * (n_classes - 1)
    cells = side ** (n_classes - 1)
    if sample_weight is None:
        dtype = np.int32 if y_true.size < 2**31 else np.int64
    else:
        dtype = np.float64
    out = np.zeros((points.shape[0], n_classes, n_classes), dtype=np.result_type(dtype, np.int64))
    if y_true.size == 0:
        return out
    buffer = np.empty((n_classes,) + dims, dtype=dtype)
    for predicted in range(n_classes):
        flat = np.ravel_multi_index(_dominance_bounds(y_score, resolution, predicted).T, dims)
        dominated = _dominance_histogram(buffer, y_true * cells + flat, sample_weight).reshape(n_classes, cells)
        others = np.delete(np.arange(n_classes), predicted)
        read = resolution - points[:, [predicted]] + points[:, others]
        out[:, :, predicted] = dominated[:, np.ravel_multi_index(read.T, dims)].T
    return out


def coordinate_breakpoints(y_score, thresholds, coordinate):
    """Breakpoints of the rule along t = tau_j with the other thresholds fixed.

    Returns ``(breakpoints, runner_up)``: with k*_i = argmax_{k != j} (p_ik - tau_k)
    (first index on ties), sample i is predicted j when t < b_i = p_ij -
    (p_ik* - tau_k*) and k*_i when t > b_i (at t = b_i the tie rule decides).

    >>> P = np.array([[.6, .3, .1], [.2, .5, .3]])
    >>> b, k = coordinate_breakpoints(P, np.array([0., 0., 0.]), 0)
    >>> b.round(2).tolist(), k.tolist()
    ([0.3, -0.3], [1, 1])
    """
    shifted = y_score - thresholds
    shifted[:, coordinate] = -np.inf
    runner_up = np.argmax(shifted, axis=1)
    level = shifted[np.arange(y_score.shape[0]), runner_up]
    return y_score[:, coordinate] - level, runner_up


def line_sweep_counts(y_true, y_score, thresholds, coordinate, bounds, sample_weight=None):
    """Counts on every open segment of t = tau_j in ``bounds`` = (lo, hi), by one sweep.

    The breakpoints inside (lo, hi) cut it into segments on which the
    predictions are constant. Yields ``(left, right, counts)`` in chunks:
    segment edges (K,) each and the counts (K, m, m) on each open segment,
    in increasing t. Each sample moves once, from column j to its runner-up
    column, when t passes its breakpoint; counts are the cumulative sums of
    these moves. Cost O(n m + n log n + K m^2).

    >>> y = np.array([0, 1, 1])
    >>> P = np.array([[.6, .3, .1], [.2, .5, .3], [.5, .4, .1]])
    >>> for left, right, counts in line_sweep_counts(y, P, np.zeros(3), 0, (-1.0, 1.0)):
    ...     print(left.round(2).tolist(), right.round(2).tolist(), counts[:, :, 0].sum(axis=1).tolist())
    [-1.0, -0.3, 0.1, 0.3] [-0.3, 0.1, 0.3, 1.0] [3, 2, 1, 0]
    """
    lo, hi = bounds
    n_classes = y_score.shape[1]
    breakpoints, runner_up = coordinate_breakpoints(y_score, thresholds, coordinate)
    predicted = np.where(breakpoints > lo, coordinate, runner_up)
    counts = confusion_counts(y_true, predicted, n_classes, sample_weight)
    inside = np.flatnonzero((breakpoints > lo) & (breakpoints < hi))
    inside = inside[np.argsort(breakpoints[inside], kind="stable")]
    edges, event_segment = np.unique(breakpoints[inside], return_inverse=True)
    edges = np.concatenate(([lo], edges, [hi]))
    weights = np.ones(inside.size, dtype=counts.dtype) if sample_weight is None else sample_weight[inside]
    cells = n_classes * n_classes
    gain = y_true[inside] * n_classes + runner_up[inside]
    loss = y_true[inside] * n_classes + coordinate
    step = chunk_length(cells * 16)
    n_segments = edges.size - 1
    event_start = 0
    for start in range(0, n_segments, step):
        stop = min(start + step, n_segments)
        event_stop = np.searchsorted(event_segment, stop - 1, side="left")
        rows = event_segment[event_start:event_stop] + 1 - start
        moves = np.zeros((stop - start) * cells, dtype=counts.dtype)
        np.add.at(moves, rows * cells + gain[event_start:event_stop], weights[event_start:event_stop])
        np.subtract.at(moves, rows * cells + loss[event_start:event_stop], weights[event_start:event_stop])
        block = counts.reshape(1, cells) + np.cumsum(moves.reshape(-1, cells), axis=0)
        if sample_weight is not None:
            np.maximum(block, 0.0, out=block)  # float sums of moved weights can dip below 0
        counts = block[-1].reshape(n_classes, n_classes)
        event_start = event_stop
        yield edges[start:stop], edges[start + 1 : stop + 1], block.reshape(-1, n_classes, n_classes)
