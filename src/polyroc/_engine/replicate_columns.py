"""Bootstrap multiplicities held sample by sample: the layout in which gathering a column's order is cheap.

A chunk of replicates is drawn as rows (b, n). Gathering one score column's
order out of every row reads each row at random, a cache miss per sample once
a row is larger than the cache. Held sample by sample (n, b), the same gather
moves whole rows of b entries, in order of the samples it reads: several times
faster. The Gini bootstrap puts a chunk into this layout once and gathers
every class's ranking from it; ROC-DMF gathers every score column's class
grouping from it and turns the result back into rows (:func:`gathered_rows`),
which its running sums along the rows need.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import DTypeLike

__all__ = ["gathered_rows", "sample_major", "transposed"]

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
