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
"""

from __future__ import annotations

import numpy as np
from numpy.typing import DTypeLike

__all__ = ["byte_lane_offsets", "byte_lane_sums", "gathered_rows", "sample_major", "transposed"]

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
