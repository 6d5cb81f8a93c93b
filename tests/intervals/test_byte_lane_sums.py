"""Running sums of byte counts two replicates to a 64-bit word: numpy's cumsum of each replicate as the oracle."""

import itertools

import numpy as np
import pytest

from polyroc._engine.replicate_columns import byte_lane_offsets, byte_lane_sums


def _segment_sums(counts, starts):
    """Brute force: per replicate, each segment's running sum with a leading 0, segments one after another."""
    return np.stack(
        [
            np.concatenate(
                [np.concatenate(([0], np.cumsum(row[a:b], dtype=np.int64))) for a, b in itertools.pairwise(starts)]
            )
            for row in counts.T
        ]
    )


@pytest.mark.parametrize("n_replicates", [1, 7, 8, 9, 24])
@pytest.mark.parametrize("sizes", [[5], [3, 0, 4], [1, 1, 1], [0, 6], [40, 17, 1]])
def test_byte_lane_sums_equal_each_replicates_running_sums(n_replicates, sizes):
    rng = np.random.default_rng(n_replicates * 31 + len(sizes))
    starts = np.concatenate(([0], np.cumsum(sizes))).astype(np.intp)
    n = int(starts[-1])
    counts = rng.integers(0, 256, size=(n, n_replicates)).astype(np.uint8)  # up to the largest byte
    padded = np.zeros((n, -(-n_replicates // 8) * 8), dtype=np.uint8)
    padded[:, :n_replicates] = counts
    table = byte_lane_sums(padded.view(np.uint64), starts)
    assert table.shape == (padded.shape[1] // 2, n + len(sizes)) and table.dtype == np.uint64
    offsets, stride = byte_lane_offsets(n_replicates, table.shape[1])
    got = table.view(np.uint32).ravel()[offsets[:, None] + stride * np.arange(table.shape[1])]
    np.testing.assert_array_equal(got, _segment_sums(counts, starts))


def test_byte_lane_sums_fill_a_given_buffer_and_keep_large_totals_in_their_half():
    # totals near 2**31 in the low half must not carry into the high half
    n = 2**23 + 3
    counts = np.zeros((n, 8), dtype=np.uint8)
    counts[:, 0] = 255
    counts[::2, 4] = 1
    starts = np.array([0, n])
    buffer = np.empty((4, n + 1), dtype=np.uint64)
    assert byte_lane_sums(counts.view(np.uint64), starts, out=buffer) is buffer
    halves = buffer.view(np.uint32).reshape(4, n + 1, 2)
    assert int(halves[0, -1, 0]) == 255 * n
    assert int(halves[0, -1, 1]) == (n + 1) // 2
    assert not halves[1:].any()
