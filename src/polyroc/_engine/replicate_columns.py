"""Bootstrap multiplicities held sample by sample: the layout in which gathering a column's order is cheap.

A chunk of replicates is drawn as rows (b, n). Gathering one score column's
order out of every row reads each row at random, a cache miss per sample once
a row is larger than the cache. Held sample by sample (n, b), the same gather
moves whole rows of b entries, in order of the samples it reads: several times
faster. The Gini bootstrap puts a chunk into this layout once and gathers
every class's ranking from it; ROC-DMF gathers every score column's class
grouping from it, as 64-bit words of eight byte counts, and takes the running
sums of each class two replicates to a word (:func:`byte_lane_sums`), or,
for wider counts, turns the result back into rows (:func:`gathered_rows`)
and sums along them.

:class:`RunSums` sums runs of a fixed order of samples (a score column's
order cut at the points read) for blocks of 8 replicates held as bytes: the 8
counts of a sample are one 64-bit word, and adding words adds the counts
byte by byte while no sum passes 255, so one sparse product gathers the order
and sums its runs for 8 replicates at once.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import DTypeLike, NDArray
from scipy import sparse

__all__ = ["RunSums", "byte_lane_offsets", "byte_lane_sums", "gathered_rows", "sample_major", "transposed"]

#: Entries of the longer axis per block of :func:`transposed` (a block and its transpose stay in cache).
TRANSPOSE_BLOCK = 4096


def transposed(array: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """A contiguous copy of the transpose of a 2-D array, made a block of the longer axis at a time.

    Several times faster than one strided copy when one side is short (a
    chunk of replicates): each block and its transpose stay in cache.
    ``out``, when given, is a C-contiguous array of the transposed shape that
    receives the copy (a buffer reused from call to call spares the page
    faults of a fresh one).

    >>> transposed(np.arange(6).reshape(2, 3)).tolist()
    [[0, 3], [1, 4], [2, 5]]
    """
    if out is None:
        out = np.empty(array.shape[::-1], dtype=array.dtype)
    if array.shape[0] <= array.shape[1]:
        for start in range(0, array.shape[1], TRANSPOSE_BLOCK):
            out[start : start + TRANSPOSE_BLOCK] = array[:, start : start + TRANSPOSE_BLOCK].T
    else:
        for start in range(0, array.shape[0], TRANSPOSE_BLOCK):
            out[:, start : start + TRANSPOSE_BLOCK] = array[start : start + TRANSPOSE_BLOCK].T
    return out


def sample_major(weight_rows: np.ndarray, dtype: DTypeLike) -> np.ndarray:
    """``weight_rows`` (b, n) cast to ``dtype`` and held sample by sample, (n, b) contiguous.

    Cast first (one contiguous pass), then :func:`transposed`.

    >>> sample_major(np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 2.0]]), np.uint8).tolist()
    [[1, 0], [2, 1], [0, 2]]
    """
    return transposed(weight_rows.astype(dtype, copy=False))


def gathered_rows(columns: np.ndarray, samples: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``columns[samples].T`` (b, len(samples)): a gather of sample-major rows, transposed back.

    ``columns`` (n, b) holds a chunk sample by sample (:func:`sample_major`);
    ``out``, when given, receives the result (see :func:`transposed`). The
    same values as ``np.take(rows, samples, axis=1)`` of the rows (b, n),
    several times faster for large n: the gather moves whole rows of b
    entries, in the order of ``samples``, instead of b scattered reads per sample.

    >>> rows = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.uint8)
    >>> samples = np.array([2, 0, 2])
    >>> gathered_rows(sample_major(rows, np.uint8), samples).tolist() == np.take(rows, samples, axis=1).tolist()
    True
    """
    return transposed(np.take(columns, samples, axis=0), out=out)


#: Bytes p and p + 4 of a 64-bit word: two replicates' counts, one in each 32-bit half.
BYTE_PAIR_MASK = np.uint64(0x000000FF000000FF)


def byte_lane_sums(words: np.ndarray, starts: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Running sums of sample-major byte counts within each segment, two replicates to a 64-bit word.

    ``words`` (n, w) uint64 holds 8 w replicates sample by sample: the bytes
    of a ``uint8`` array (n, 8 w) (:func:`sample_major`) viewed as words.
    Rows ``starts[c]:starts[c + 1]`` form segment c (e.g. one class in one
    score order). The result (4 w, n + k) ``uint64`` has one lane per pair of
    replicates: lane 4 j + p holds replicate 8 j + p in the low 32 bits of each
    word and replicate 8 j + p + 4 in the high 32 bits, and segment c's sums
    begin at ``base[c] = starts[c] + c`` with a 0, so entry ``base[c] + t``
    is the sum of the segment's first t counts. One running sum of 64-bit
    words adds two replicates at once, in the samples' order, with no
    transposition: each segment's total must stay below 2**32 (n < 2**24
    suffices), so the low half never carries into the high one.
    :func:`byte_lane_offsets` says where each replicate's sums are in the
    ``uint32`` view of the result. ``out``, when given, receives the result.

    >>> counts = np.random.default_rng(0).integers(0, 4, size=(5, 8)).astype(np.uint8)
    >>> table = byte_lane_sums(counts.view(np.uint64), np.array([0, 2, 5]))
    >>> halves = table.view(np.uint32)  # (4, n + k, 2)
    >>> offsets, stride = byte_lane_offsets(8, table.shape[1])
    >>> sums = halves.ravel()[offsets[:, None] + stride * np.arange(7)]
    >>> expected = [np.concatenate(([0], np.cumsum(r[:2]), [0], np.cumsum(r[2:]))) for r in counts.T]
    >>> bool(np.array_equal(sums, expected))
    True
    """
    n, n_words = words.shape
    k = starts.size - 1
    base = starts[:-1] + np.arange(k)
    if out is None:
        out = np.empty((4 * n_words, n + k), dtype=np.uint64)
    lane = np.empty(n, dtype=np.uint64)
    for word in range(n_words):
        for pair in range(4):
            shifted = np.right_shift(words[:, word], np.uint64(8 * pair), out=lane) if pair else words[:, word]
            np.bitwise_and(shifted, BYTE_PAIR_MASK, out=lane)
            row = out[4 * word + pair]
            for c in range(k):
                row[base[c]] = 0
                np.cumsum(
                    lane[starts[c] : starts[c + 1]], out=row[base[c] + 1 : base[c] + 1 + starts[c + 1] - starts[c]]
                )
    return out


def byte_lane_offsets(n_replicates: int, width: int) -> tuple[np.ndarray, int]:
    """Where :func:`byte_lane_sums` puts each replicate: offsets (b,) and the stride of its ``uint32`` view.

    Replicate r's running sum at position t of a table of ``width`` (n + k)
    columns is ``table.view(np.uint32).ravel()[offsets[r] + stride * t]``.

    >>> offsets, stride = byte_lane_offsets(9, 10)
    >>> offsets.tolist(), stride
    ([0, 20, 40, 60, 1, 21, 41, 61, 80], 2)
    """
    replicate = np.arange(n_replicates)
    lane = 4 * (replicate // 8) + replicate % 4
    return 2 * width * lane + (replicate % 8) // 4, 2


#: Longest run of samples summed in one byte lane; with every count of a block at most
#: :data:`LANE_COUNT`, a run's sum stays within a byte (17 * 15 = 255). Longer runs are summed in
#: pieces of this length.
LANE_RUN = 17

#: Largest count for which the byte lanes are exact (see :data:`LANE_RUN`).
LANE_COUNT = np.iinfo(np.uint8).max // LANE_RUN

#: Replicates per 64-bit word of byte lanes.
LANE_WIDTH = 8


class RunSums:
    """Sums of the runs of a fixed order of samples, for replicates held sample by sample (n, b).

    ``order`` lists samples (rows of the sample-major counts) and ``bounds``
    (nondecreasing, from 0 to ``order.size``) cuts it into runs: run i is
    ``order[bounds[i]:bounds[i + 1]]``, possibly empty. Calling it with the
    counts of b replicates (n, b) returns the sums (b, runs), exactly.

    One sparse matrix (a row per run, the order's samples as its columns)
    gathers and sums. Counts held as bytes, 8 replicates, each at most
    :data:`LANE_COUNT`, are summed as 64-bit words of 8 byte lanes, runs
    longer than :data:`LANE_RUN` in pieces added up afterwards; other counts
    are summed as 64-bit integers.

    >>> counts = np.array([[1, 2], [0, 1], [3, 0], [1, 1]], dtype=np.uint8)  # 4 samples, 2 replicates
    >>> sums = RunSums(np.array([2, 0, 3, 1]), np.array([0, 1, 1, 4]), 4)
    >>> sums(counts).tolist()  # runs [2], [], [0, 3, 1]
    [[3, 0, 2], [0, 0, 4]]
    """

    def __init__(self, order: NDArray[np.integer], bounds: NDArray[np.integer], n_samples: int) -> None:
        bounds = np.asarray(bounds, dtype=np.int64)
        lengths = np.diff(bounds)
        self.n_runs = lengths.size
        self.long_runs = np.flatnonzero(lengths > LANE_RUN)
        long = np.zeros(lengths.size, dtype=bool)
        long[self.long_runs] = True
        in_long_run = np.repeat(long, lengths)
        # one row per run (empty for a long run), then the pieces of the long runs, one after another
        main = np.concatenate(([0], np.cumsum(np.where(long, 0, lengths))))
        pieces = -(-lengths[long] // LANE_RUN)
        piece_lengths = np.full(int(pieces.sum()), LANE_RUN, dtype=np.int64)
        piece_lengths[np.cumsum(pieces) - 1] = lengths[long] - LANE_RUN * (pieces - 1)
        ends = np.cumsum(pieces)
        self.piece_bounds = (ends - pieces, ends)  # the pieces of each long run, in the cumulated pieces
        indptr = np.concatenate((main, main[-1] + np.cumsum(piece_lengths)))
        index = np.int32 if n_samples <= np.iinfo(np.int32).max else np.int64
        indices = np.concatenate((order[~in_long_run], order[in_long_run])).astype(index)
        ones = np.ones(indices.size, dtype=np.uint64)
        shape = (indptr.size - 1, n_samples)
        self.matrix = sparse.csr_array((ones, indices, indptr.astype(index)), shape=shape)

    def __call__(self, counts: np.ndarray, largest: int | None = None) -> np.ndarray:
        """Sums (b, runs) of ``counts`` (n, b) over each run; int32 when they fit, else int64.

        ``largest`` bounds every count (computed when None).
        """
        n_samples, width = counts.shape
        largest = int(counts.max(initial=0)) if largest is None else largest
        if counts.dtype == np.uint8 and width <= LANE_WIDTH and largest <= LANE_COUNT:
            if width < LANE_WIDTH or not counts.flags.c_contiguous:
                padded = np.zeros((n_samples, LANE_WIDTH), dtype=np.uint8)
                padded[:, :width] = counts
                counts = padded
            words = counts.view(np.uint64).reshape(n_samples)
            rows = (self.matrix @ words).view(np.uint8).reshape(-1, LANE_WIDTH)[:, :width]
        else:
            rows = self.matrix @ counts.astype(np.uint64)
        exact = np.int32 if n_samples * max(largest, 1) <= np.iinfo(np.int32).max else np.int64
        sums = np.empty((width, self.n_runs), dtype=exact)
        sums[...] = rows[: self.n_runs].T
        if self.long_runs.size:
            pieces = np.zeros((width, rows.shape[0] - self.n_runs + 1), dtype=exact)
            np.cumsum(rows[self.n_runs :].T, axis=1, dtype=exact, out=pieces[:, 1:])
            first, end = self.piece_bounds
            sums[:, self.long_runs] = np.take(pieces, end, axis=1) - np.take(pieces, first, axis=1)
        return sums
