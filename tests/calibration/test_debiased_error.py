"""The debiased squared l2 error: unbiased on calibrated scores where the plain one is not, a loop, torchmetrics."""

from __future__ import annotations

import numpy as np
import pytest

from polyroc.calibration import calibration_error, squared_calibration_error
from tests.calibration.cases import dirichlet_problem, skewed_problem


def test_debiased_mean_is_zero_on_calibrated_scores_and_the_plain_mean_is_not():
    # labels drawn from the scores themselves: the true binned calibration error is 0
    draws = 2000
    debiased, plain = np.empty(draws), np.empty(draws)
    for seed in range(draws):
        y, proba = dirichlet_problem(200, 3, seed=seed)
        debiased[seed] = squared_calibration_error(y, proba, n_bins=10)
        plain[seed] = squared_calibration_error(y, proba, n_bins=10, debiased=False)
    standard_error = debiased.std(ddof=1) / np.sqrt(draws)
    assert abs(debiased.mean()) < 3 * standard_error
    assert plain.mean() > 3 * plain.std(ddof=1) / np.sqrt(draws)
    assert plain.mean() - debiased.mean() > 10 * standard_error


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("kind", ["top-label", "classwise"])
def test_debiased_error_is_a_loop_over_the_bins(weighted, kind):
    y, proba = skewed_problem(400, 3, seed=2)
    weights = np.random.default_rng(2).uniform(0.5, 2, 400) if weighted else np.ones(400)
    if kind == "top-label":
        columns = [(proba.max(axis=1), (proba.argmax(axis=1) == y).astype(float))]
    else:
        columns = [(proba[:, k], (y == k).astype(float)) for k in range(3)]
    edges = np.linspace(0, 1, 9)
    values = []
    for scores, hits in columns:
        total = 0.0
        for b in range(8):
            inside = (scores >= edges[b]) & ((scores <= 1) if b == 7 else (scores < edges[b + 1]))
            w = weights[inside]
            if w.sum() == 0:
                continue
            observed, mean = np.dot(w, hits[inside]) / w.sum(), np.dot(w, scores[inside]) / w.sum()
            size = w.sum() ** 2 / (w * w).sum()
            noise = observed * (1 - observed) / (size - 1) if size > 1 else 0.0
            total += w.sum() / weights.sum() * ((observed - mean) ** 2 - noise)
        values.append(total)
    actual = squared_calibration_error(y, proba, kind=kind, n_bins=8, sample_weight=weights if weighted else None)
    assert actual == pytest.approx(np.mean(values), abs=1e-13)


def test_the_plain_estimate_is_the_square_of_the_l2_error():
    y, proba = skewed_problem(300, 4, seed=3)
    for kind in ("top-label", "classwise"):
        plain = squared_calibration_error(y, proba, kind=kind, debiased=False, strategy="quantile")
        root = calibration_error(y, proba, kind=kind, norm="l2", strategy="quantile")
        if kind == "top-label":
            assert plain == pytest.approx(root**2, abs=1e-15)
        else:  # a mean of squares against a mean of roots
            assert plain >= root**2


def test_debiased_equals_torchmetrics_debiased_l2():
    pytest.importorskip("torchmetrics")
    import torch
    from torchmetrics.functional.classification.calibration_error import _ce_compute

    y, proba = skewed_problem(1000, 3, seed=4)
    confidences = torch.tensor(proba.max(axis=1))
    accuracies = torch.tensor(proba.argmax(axis=1) == y)
    expected = float(_ce_compute(confidences, accuracies, 15, norm="l2", debias=True)) ** 2
    assert squared_calibration_error(y, proba) == pytest.approx(expected, abs=1e-12)


def test_debiased_must_be_a_bool():
    y, proba = skewed_problem(20, 3, seed=0)
    with pytest.raises(TypeError, match="debiased must be a bool; got int 1"):
        squared_calibration_error(y, proba, debiased=1)
