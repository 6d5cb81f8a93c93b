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

#: Rows per block of :func:`coordinate_breakpoints` (the block's shifted scores stay in cache).
BREAKPOINT_BLOCK_ROWS = 1 << 14


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
        out[start : start + rows] = np.bincount(flat.ravel(), weights=weights, minlength=rows * cells).reshape(
            rows, cells
        )
    return out.reshape(n_rules, n_classes, n_classes)


def replicate_confusion_counts(y_true, y_pred, n_classes, replicate_weights):
    """Confusion counts (b, m, m) of one prediction under b rows of sample weights (b, n).

    Row r of ``replicate_weights`` weights every sample (e.g. bootstrap
    multiplicities times sample weights); one sparse product gives all rows.

    >>> replicate_confusion_counts(np.array([0, 1, 1]), np.array([0, 0, 1]), 2, np.array([[1, 2, 0]]))
    array([[[1., 0.],
            [2., 0.]]])
    """
    cells = confusion_cells(y_true, y_pred, n_classes)
    counts = (cells @ np.asarray(replicate_weights, dtype=np.float64).T).T
    return counts.reshape(-1, n_classes, n_classes)


def confusion_cells(y_true, y_pred, n_classes):
    """Sparse indicator (m * m, n) of each sample's (true, predicted) cell: counts = cells @ weight columns.

    >>> confusion_cells(np.array([0, 1]), np.array([1, 1]), 2).toarray()
    array([[0., 0.],
           [1., 0.],
           [0., 0.],
           [0., 1.]])
    """
    from scipy import sparse

    n_samples = y_true.shape[0]
    return sparse.csr_matrix(
        (np.ones(n_samples), (y_true * n_classes + y_pred, np.arange(n_samples))),
        shape=(n_classes * n_classes, n_samples),
    )


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


def argmax_shifted(y_score, thresholds, columns=None):
    """Predictions argmax(p - tau) for a batch of thresholds (first index wins ties).

    ``y_score`` is (n, m) and ``thresholds`` (M, m); the result is (M, n).
    ``columns``, when given, is :func:`score_columns` of ``y_score`` (made
    once by a caller that counts many batches).
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
    if columns is None:
        columns = score_columns(y_score)
    out = np.empty((thresholds.shape[0], n_samples), dtype=np.intp)
    step = chunk_length(n_samples * 8, budget=ARGMAX_BLOCK_BYTES)
    # with more samples than a buffer holds, one threshold at a time over blocks of samples that stay in cache
    span = max(1, n_samples) if step > 1 else max(1, ARGMAX_BLOCK_BYTES // 16)
    best = np.empty((min(step, thresholds.shape[0]), min(span, n_samples)))
    shifted = np.empty_like(best)
    larger = np.empty(best.shape, dtype=bool)
    for start in range(0, thresholds.shape[0], step):
        block = thresholds[start : start + step]
        rows = block.shape[0]
        for first in range(0, n_samples, span):
            width = min(span, n_samples - first)
            samples = slice(first, first + width)
            block_best, block_shifted = best[:rows, :width], shifted[:rows, :width]
            block_larger, block_out = larger[:rows, :width], out[start : start + rows, samples]
            np.subtract(columns[0, samples], block[:, :1], out=block_best)
            block_out.fill(0)
            for predicted in range(1, n_classes):
                np.subtract(columns[predicted, samples], block[:, predicted : predicted + 1], out=block_shifted)
                np.greater(block_shifted, block_best, out=block_larger)
                np.maximum(block_best, block_shifted, out=block_best)
                np.copyto(block_out, predicted, where=block_larger)
    return out


def score_columns(y_score):
    """The score columns (m, n), contiguous float64: what :func:`argmax_shifted` reads."""
    return np.ascontiguousarray(y_score.T, dtype=np.float64)


def threshold_counts(y_true, y_score, thresholds, sample_weight=None, columns=None):
    """Confusion counts (M, m, m) of the rule argmax(p - tau) for each tau in ``thresholds``.

    The plain (chunked) brute force: every fast path for many thresholds must
    return exactly these counts. Memory stays bounded by working on chunks of
    thresholds. ``columns``: :func:`score_columns` of ``y_score``, made once
    by a caller that counts many batches (made here when None).

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
    if columns is None:
        columns = score_columns(y_score)
    for start in range(0, thresholds.shape[0], step):
        block = thresholds[start : start + step]
        predictions = argmax_shifted(y_score, block, columns)
        out[start : start + block.shape[0]] = batch_confusion_counts(y_true, predictions, n_classes, sample_weight)
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

#: Row-point pairs corrected at a time by :func:`_correct_breakpoint_ties`.
CORRECTION_CHUNK = 2**18


def pair_bounds(y_score, resolution):
    """Integer bounds of the lattice rule for every ordered pair: (bounds, near), each (n, m, m).

    With x = r (p_j - p_k), row i goes to class j at lattice point c iff
    c_j - c_k <= bounds[i, j, k] for every k != j, where bounds = floor(x) when
    x lies off the integers, and, when x lies within a band of thousands of ulps
    of an integer d (``near``), d - 1 for k < j and d for k > j: the exact
    comparison with ties going to the lowest index. Diagonals are set to r.

    >>> bounds, near = pair_bounds(np.array([[0.6, 0.4], [0.6123, 0.3877]]), 200)
    >>> bounds[:, 0, 1].tolist(), bounds[:, 1, 0].tolist(), near[:, 0, 1].tolist()
    ([40, 44], [-41, -45], [True, False])
    """
    n_samples, n_classes = y_score.shape
    band = BREAKPOINT_BAND * max(1.0, float(np.max(np.abs(y_score)))) * resolution
    bounds = np.full((n_samples, n_classes, n_classes), resolution, dtype=np.int32)
    near = np.zeros((n_samples, n_classes, n_classes), dtype=bool)
    for j in range(n_classes):
        for k in range(j + 1, n_classes):
            scaled = resolution * (y_score[:, j] - y_score[:, k])
            nearest = np.rint(scaled)
            on_breakpoint = np.abs(scaled - nearest) <= band
            bound = np.clip(np.where(on_breakpoint, nearest, np.floor(scaled)), -resolution - 1, resolution)
            bounds[:, j, k] = bound
            bounds[:, k, j] = -bound - 1  # floor(-x) = -floor(x) - 1 off the integers; d - 1 for -d
            near[:, j, k] = near[:, k, j] = on_breakpoint
    return bounds, near


def lattice_threshold_counts(y_true, y_score, points, resolution, sample_weight=None):
    """Confusion counts (M, m, m) of argmax(p - c/r) for integer lattice points c, by dominance.

    ``points`` is (M, m) with integer entries in [0, r] (simplex or box
    lattice). The counts equal :func:`threshold_counts` on ``points / r`` (the
    float64 rule) exactly, tied scores included:

    - every row is counted by the integer rule of :func:`pair_bounds`: for
      each j, one histogram of the bounds per true class, summed over
      dominating cells, gives column j of every lattice point's counts;
    - where a pair of scores lies on a breakpoint (exact ties, rational scores
      whose denominator divides r, as from k-NN, small trees, votes or
      rounding), float64 rounding may decide differently from the integer rule,
      but only at lattice points on that pair's diagonal c_j - c_k = d: there
      the row is re-scored by the float64 rule and the counts corrected.

    Cost O(n m^2 + m^3 (2r+2)^(m-1) + M m^2 + t m^2) for t row-point pairs on
    breakpoint diagonals, instead of O(M n m).

    >>> y = np.array([0, 1, 2, 1])
    >>> P = np.array([[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]])
    >>> points = np.array([[1, 1, 2], [0, 4, 0], [1, 2, 1]])
    >>> np.array_equal(lattice_threshold_counts(y, P, points, 10),
    ...                threshold_counts(y, P, points / 10))
    True
    """
    points = np.asarray(points, dtype=np.intp)
    n_classes = y_score.shape[1]
    bounds, near = pair_bounds(y_score, resolution)
    out = _dominance_counts(y_true, bounds, points, resolution, n_classes, sample_weight)
    rows = np.flatnonzero(near.any(axis=(1, 2)))
    if rows.size:
        rows, row_weights = _distinct_rows(y_true, y_score, sample_weight, rows)
        _correct_breakpoint_ties(out, y_true, y_score, bounds, near, rows, row_weights, points, resolution)
    return out


def _distinct_rows(y_true, y_score, sample_weight, rows):
    """One representative of each distinct (label, scores) among ``rows``, with its total weight.

    Tied scores come from few distinct rows (k-NN shares, votes, rounding), so
    the corrections are made once per distinct row.
    """
    keys = np.column_stack([y_true[rows], y_score[rows]])
    _, first, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    weights = None if sample_weight is None else sample_weight[rows]
    return rows[first], np.bincount(inverse.ravel(), weights=weights, minlength=first.size)


def _dominance_counts(y_true, bounds, points, resolution, n_classes, sample_weight):
    """Counts of the integer rule of :func:`pair_bounds` at every lattice point, by histograms."""
    side = 2 * resolution + 2
    dims = (side,) * (n_classes - 1)
    cells = side ** (n_classes - 1)
    if sample_weight is None:
        dtype = np.int32 if y_true.size < 2**31 else np.int64
    else:
        dtype = np.float64
    out = np.empty((points.shape[0], n_classes, n_classes), dtype=np.result_type(dtype, np.int64))
    buffer = np.empty((n_classes, *dims), dtype=dtype)
    for predicted in range(n_classes):
        others = np.delete(np.arange(n_classes), predicted)
        reversed_bounds = resolution - bounds[:, predicted, others].astype(np.intp)
        flat = np.ravel_multi_index(reversed_bounds.T, dims)
        dominated = _dominance_histogram(buffer, y_true * cells + flat, sample_weight).reshape(n_classes, cells)
        read = resolution - points[:, [predicted]] + points[:, others]
        out[:, :, predicted] = dominated[:, np.ravel_multi_index(read.T, dims)].T
    return out


def _ragged_arange(starts, lengths):
    """The concatenation of ``arange(start, start + length)`` over the pairs.

    >>> _ragged_arange(np.array([5, 0]), np.array([2, 3])).tolist()
    [5, 6, 0, 1, 2]
    """
    offsets = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    return offsets + np.arange(offsets.size)


def _diagonal_pairs(bounds, near, rows, points):
    """(position in ``rows``, point) pairs whose point lies on a breakpoint diagonal of the row.

    The diagonal of a near pair j < k is c_j - c_k = d, d = bounds[row, j, k];
    a point on several diagonals of a row is listed once (with the first pair).
    """
    local, pair_j, pair_k = np.nonzero(near[rows])
    upper = pair_j < pair_k
    local, pair_j, pair_k = local[upper], pair_j[upper], pair_k[upper]
    positions, point_ids, earlier = [], [], []
    for j, k in sorted(set(zip(pair_j.tolist(), pair_k.tolist()))):
        selected = local[(pair_j == j) & (pair_k == k)]
        differences = points[:, j] - points[:, k]
        order = np.argsort(differences, kind="stable")
        diagonal = bounds[rows[selected], j, k]
        starts = np.searchsorted(differences[order], diagonal, side="left")
        lengths = np.searchsorted(differences[order], diagonal, side="right") - starts
        position, point = np.repeat(selected, lengths), order[_ragged_arange(starts, lengths)]
        row = rows[position]
        for a, b in earlier:
            seen = near[row, a, b] & (points[point, a] - points[point, b] == bounds[row, a, b])
            position, point, row = position[~seen], point[~seen], row[~seen]
        positions.append(position)
        point_ids.append(point)
        earlier.append((j, k))
    return np.concatenate(positions), np.concatenate(point_ids)


def _correct_breakpoint_ties(out, y_true, y_score, bounds, near, rows, row_weights, points, resolution):
    """At each (row, point) on a breakpoint diagonal, replace the integer rule's count by the float rule's."""
    n_classes = y_score.shape[1]
    flat = out.reshape(-1)
    row_weights = row_weights.astype(out.dtype)
    rows_per_chunk = max(1, CORRECTION_CHUNK // max(1, points.shape[0] // (2 * resolution + 1)))
    for start in range(0, rows.size, rows_per_chunk):
        chunk = slice(start, start + rows_per_chunk)
        positions, point_ids = _diagonal_pairs(bounds, near, rows[chunk], points)
        for begin in range(0, positions.size, CORRECTION_CHUNK):
            position = positions[begin : begin + CORRECTION_CHUNK]
            point = point_ids[begin : begin + CORRECTION_CHUNK]
            row, weight = rows[chunk][position], row_weights[chunk][position]
            lattice = points[point]
            float_rule = np.argmax(y_score[row] - rule_offsets(lattice / resolution), axis=1)
            integer_rule = np.all(lattice[:, :, None] - lattice[:, None, :] <= bounds[row], axis=2)
            cell = (point * n_classes + y_true[row]) * n_classes
            counted, column = np.nonzero(integer_rule)
            np.subtract.at(flat, cell[counted] + column, weight[counted])
            np.add.at(flat, cell + float_rule, weight)


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
    n_samples = y_score.shape[0]
    runner_up, level = np.empty(n_samples, dtype=np.intp), np.empty(n_samples)
    for start in range(0, n_samples, BREAKPOINT_BLOCK_ROWS):  # row blocks whose shifted scores stay in cache
        rows = slice(start, start + BREAKPOINT_BLOCK_ROWS)
        shifted = y_score[rows] - thresholds
        shifted[:, coordinate] = -np.inf
        block_runner_up = runner_up[rows] = np.argmax(shifted, axis=1)
        level[rows] = shifted[np.arange(shifted.shape[0]), block_runner_up]
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
