"""Draws kept inside ``shared_draws``: the same counts as drawing again, for every consumer."""

import numpy as np
import pytest

from polyroc.dmf import roc_dmf
from polyroc.gini import gini_roc
from polyroc.intervals import _shared_draws
from polyroc.intervals._resampling import sample_major_multiplicities, stratum_multiplicities
from polyroc.intervals._shared_draws import shared_draws


def _problem(n, m, seed):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    scores = rng.dirichlet(np.ones(m), n) + 0.8 * np.eye(m)[y]
    return y, scores / scores.sum(axis=1, keepdims=True)


def test_kept_blocks_equal_fresh_draws_and_are_read_only():
    sizes = [5, 0, 300, 17]
    with shared_draws():
        first = sample_major_multiplicities(np.random.default_rng(11).spawn(20), sizes)
        store = _shared_draws._ACTIVE[-1]
        assert len(store.blocks) == 3  # blocks of 8, 8 and 4 replicates
        again = sample_major_multiplicities(np.random.default_rng(11).spawn(20), sizes)
        block = sample_major_multiplicities(np.random.default_rng(11).spawn(16)[8:16], sizes)
        assert not block.flags.writeable
        with pytest.raises(ValueError):
            block[0, 0] = 1
    rows = stratum_multiplicities(np.random.default_rng(11).spawn(20), sizes, dtype=np.int64)
    assert np.array_equal(first.T, rows) and np.array_equal(again.T, rows) and np.array_equal(block.T, rows[8:16])
    assert not _shared_draws._ACTIVE  # the block's store is gone


def test_used_or_other_generators_are_never_shared():
    sizes = [40, 60]
    with shared_draws():
        seeds = np.random.default_rng(5).spawn(8)
        sample_major_multiplicities(seeds, sizes)  # these generators have drawn now
        used = sample_major_multiplicities(seeds, sizes)
        other = sample_major_multiplicities([np.random.Generator(np.random.MT19937(1)) for _ in range(3)], sizes)
        assert len(_shared_draws._ACTIVE[-1].blocks) == 1
    fresh = np.random.default_rng(5).spawn(8)
    for seed in fresh:  # advance each as the first call did
        stratum_multiplicities([seed], sizes)
    assert np.array_equal(used.T, stratum_multiplicities(fresh, sizes, dtype=np.int64))
    assert np.array_equal(
        other.T, stratum_multiplicities([np.random.Generator(np.random.MT19937(1)) for _ in range(3)], sizes)
    )


def test_budget_bounds_what_is_kept():
    with shared_draws(budget=150):
        sample_major_multiplicities(np.random.default_rng(2).spawn(24), [10, 10])  # three blocks of 160 bytes
        assert _shared_draws._ACTIVE[-1].blocks == {}
    with shared_draws(budget=320):
        sample_major_multiplicities(np.random.default_rng(2).spawn(24), [10, 10])
        assert _shared_draws._ACTIVE[-1].kept_bytes == 320


@pytest.mark.parametrize("n_boot", [16, 27])
def test_gini_and_dmf_bootstraps_are_unchanged_by_sharing(n_boot):
    y, scores = _problem(600, 4, 3)
    options = {"n_boot": n_boot, "random_state": 9}
    alone_gini, alone_dmf = gini_roc(y, scores, **options), roc_dmf(y, scores, bootstrap="stratified", **options)
    with shared_draws():
        shared_gini = gini_roc(y, scores, **options)
        kept = len(_shared_draws._ACTIVE[-1].blocks)
        shared_dmf = roc_dmf(y, scores, bootstrap="stratified", **options)
        assert kept == -(-n_boot // 8) and len(_shared_draws._ACTIVE[-1].blocks) == kept  # ROC-DMF drew nothing new
    assert np.array_equal(shared_dmf.bootstrap.D, alone_dmf.bootstrap.D)
    assert np.array_equal(shared_dmf.bootstrap.tpr, alone_dmf.bootstrap.tpr)
    assert np.array_equal(shared_gini.bootstrap.tpr_low, alone_gini.bootstrap.tpr_low)
    assert np.array_equal(shared_gini.bootstrap.tpr_high, alone_gini.bootstrap.tpr_high)
    assert (shared_gini.bootstrap.auc.low, shared_gini.bootstrap.auc.high) == (
        alone_gini.bootstrap.auc.low,
        alone_gini.bootstrap.auc.high,
    )
