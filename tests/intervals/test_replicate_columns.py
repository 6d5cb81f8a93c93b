"""The sample-major layout of replicate multiplicities: numpy's transpose as the oracle, around the block size."""

import numpy as np
import pytest

from polyroc._engine.replicate_columns import TRANSPOSE_BLOCK, sample_major, transposed


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
