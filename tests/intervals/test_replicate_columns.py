"""The sample-major layout of replicate multiplicities: numpy's transpose as the oracle, around the block size."""

import numpy as np
import pytest

from polyroc._engine.replicate_columns import TRANSPOSE_BLOCK, gathered_rows, sample_major, transposed


@pytest.mark.parametrize("rows", [0, 1, 3, 33])
@pytest.mark.parametrize("samples", [0, 1, TRANSPOSE_BLOCK - 1, TRANSPOSE_BLOCK, 2 * TRANSPOSE_BLOCK + 5])
def test_transposed_and_sample_major_equal_numpy_transposes(rows, samples):
    values = np.random.default_rng(rows + samples).integers(0, 7, size=(rows, samples))
    for array in (values, values.T):
        result = transposed(array)
        assert result.flags.c_contiguous and result.dtype == array.dtype
        np.testing.assert_array_equal(result, array.T)
    result = sample_major(values.astype(np.float64), np.uint8)
    assert result.dtype == np.uint8 and result.flags.c_contiguous
    np.testing.assert_array_equal(result, values.T)


@pytest.mark.parametrize("rows", [1, 3, 16])
@pytest.mark.parametrize("samples", [1, TRANSPOSE_BLOCK + 7])
def test_transposed_into_a_buffer_and_gathered_rows_equal_numpy(rows, samples):
    rng = np.random.default_rng(rows * samples)
    values = rng.integers(0, 250, size=(rows, samples)).astype(np.uint8)
    buffer = np.full((samples, rows), 99, dtype=np.uint8)
    assert transposed(values, out=buffer) is buffer
    np.testing.assert_array_equal(buffer, values.T)
    chosen = rng.integers(0, samples, size=2 * samples)  # repeats, any order
    out = np.empty((rows, chosen.size), dtype=np.uint8)
    for target in (None, out):
        result = gathered_rows(sample_major(values, np.uint8), chosen, out=target)
        assert result.flags.c_contiguous and result.dtype == np.uint8
        np.testing.assert_array_equal(result, values[:, chosen])
    assert gathered_rows(sample_major(values, np.uint8), chosen, out=out) is out
