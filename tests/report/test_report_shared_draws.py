"""The report keeps its bootstrap draws for its later steps only when a seed makes them the same."""

from contextlib import contextmanager

import numpy as np
import pytest

from polyroc.intervals import _shared_draws
from polyroc.report import _document, build_report


@pytest.mark.parametrize(("random_state", "kept"), [(0, True), (None, False), (np.random.default_rng(0), False)])
def test_draws_are_kept_only_under_an_integer_seed(monkeypatch, random_state, kept):
    stores = []

    @contextmanager
    def recording():
        with _shared_draws.shared_draws():
            stores.append(_shared_draws._ACTIVE[-1])
            yield

    monkeypatch.setattr(_document, "shared_draws", recording)
    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 240)
    scores = rng.dirichlet(np.ones(3), y.size) + np.eye(3)[y]
    scores /= scores.sum(axis=1, keepdims=True)
    build_report(y, {"model": scores}, n_boot=16, random_state=random_state)
    assert len(stores) == int(kept)
    if kept:  # the Gini ROC drew two blocks of 8 replicates, which ROC-DMF then read
        assert len(stores[0].blocks) == 2
