"""EvaluationAccumulator at target priors: the stream reweights its per-class statistics at compute().

The oracle is :func:`polyroc.evaluate` with ``target_priors`` on the same rows, and, for the binned
AUCs, scikit-learn on the bin indices with the rows reweighted by hand (w * pi'_k / pi_k).
"""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as sk

import polyroc
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.streaming import EvaluationAccumulator
from tests.evaluation.checks import COSTS, TARGET, M, assert_same_evaluation
from tests.evaluation.checks import shifted_problem as data


def reweighted(y, weights, priors):
    """The oracle's weights at the target priors: w * priors_k / (W_k / W), by a loop over the classes."""
    w = np.ones(y.size) if weights is None else weights
    totals = np.array([w[y == k].sum() for k in range(M)])
    return w * priors[y] / (totals[y] / totals.sum())


CUTS = (0, 17, 17, 100, 180, 240)


def streamed(y, scores, weights, **options):
    """Accumulators of uneven batches (one empty), two of them merged, the rest updated in turn."""
    parts = [np.arange(a, b) for a, b in itertools.pairwise(CUTS)]
    first, second = (EvaluationAccumulator(np.arange(M), **options) for _ in range(2))
    for i, part in enumerate(parts):
        (first if i % 2 else second).update(y[part], scores[part], None if weights is None else weights[part])
    return first.merge(second)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("costs", [None, COSTS])
def test_a_stream_at_target_priors_equals_evaluate_on_the_same_rows(weighted, costs):
    y, scores, weights = data(21, weighted=weighted)
    expected = polyroc.evaluate(
        y, scores, sample_weight=weights, cost_matrix=costs, target_priors=TARGET, ci="analytic", random_state=3
    )
    found = streamed(y, scores, weights, cost_matrix=costs, target_priors=TARGET).compute(random_state=3)
    assert_same_evaluation(found, expected, delong=False)
    for name, value in expected.scores.items():  # the brief's tolerance, on every score
        assert abs(found.scores[name] - value) <= 1e-10, name
    assert found.settings["target_priors"] == expected.settings["target_priors"]
    for label, share in expected.settings["evaluated_priors"].items():
        assert found.settings["evaluated_priors"][label] == pytest.approx(share, rel=1e-12)


def test_the_scores_that_move_move_and_the_others_stay():
    """Against scikit-learn on rows reweighted by hand: accuracy, micro AUC and the expected cost move; OvO stays."""
    y, scores, weights = data(22, weighted=True)
    found = streamed(y, scores, weights, cost_matrix=COSTS, target_priors=TARGET).compute(n_boot=0)
    plain = streamed(y, scores, weights, cost_matrix=COSTS).compute(n_boot=0)
    w = reweighted(y, weights, TARGET)
    predicted = scores.argmax(axis=1)
    assert found.scores["accuracy"] == pytest.approx(sk.accuracy_score(y, predicted, sample_weight=w), rel=1e-12)
    assert found.scores["roc_auc_ovr_micro"] == pytest.approx(
        sk.roc_auc_score(np.eye(M)[y], scores, average="micro", sample_weight=w), rel=1e-12
    )
    assert found.scores["expected_cost"] == pytest.approx(np.average(COSTS[y, predicted], weights=w), rel=1e-12)
    assert found.scores["roc_auc_ovo_macro"] == pytest.approx(plain.scores["roc_auc_ovo_macro"], rel=1e-12)
    assert found.scores["accuracy"] != pytest.approx(plain.scores["accuracy"], rel=1e-3)


def test_a_zero_prior_warns_and_scores_as_evaluate():
    """A class of prior 0 weighs nothing: its AUC is undefined, with evaluate's warning."""
    y, scores, weights = data(23, weighted=True)
    priors = np.array([0.5, 0.25, 0.0, 0.25])

    def recorded(call):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = call()
        return result, sorted({(w.category.__name__, str(w.message)) for w in caught})

    expected, expected_warnings = recorded(
        lambda: polyroc.evaluate(y, scores, sample_weight=weights, target_priors=priors, n_boot=0)
    )
    found, found_warnings = recorded(lambda: streamed(y, scores, weights, target_priors=priors).compute(n_boot=0))
    assert found_warnings == expected_warnings
    assert any(category == UndefinedMetricWarning.__name__ for category, _ in found_warnings)
    for name, value in expected.scores.items():
        np.testing.assert_allclose(found.scores[name], value, rtol=1e-12, atol=1e-15, equal_nan=True, err_msg=name)


def brute_force_bins(scores, cutpoints):
    return np.searchsorted(np.asarray(cutpoints, dtype=float), scores, side="right")


@pytest.mark.parametrize("weighted", [False, True])
def test_binned_aucs_at_target_priors_are_those_of_the_reweighted_bin_indices(weighted):
    y, scores, weights = data(24, weighted=weighted)
    found = streamed(y, scores, weights, cutoffs=8, target_priors=TARGET).compute(n_boot=0)
    w = reweighted(y, weights, TARGET)
    bins = brute_force_bins(scores, np.arange(1, 8) / 8)
    per_class = [sk.roc_auc_score(y == k, bins[:, k], sample_weight=w) for k in range(M)]
    assert found.scores["roc_auc_ovr_macro"] == pytest.approx(np.mean(per_class), rel=1e-12)
    onehot = (y[:, None] == np.arange(M)).ravel()
    micro = sk.roc_auc_score(onehot, bins.ravel(), sample_weight=np.repeat(w, M))
    assert found.scores["roc_auc_ovr_micro"] == pytest.approx(micro, rel=1e-12)
    exact = polyroc.evaluate(y, scores, sample_weight=weights, target_priors=TARGET, n_boot=0).scores
    for name, bound in found.settings["auc_error_bounds"].items():
        assert abs(found.scores[name] - exact[name]) <= bound + 1e-12, name


def test_bad_target_priors_are_refused_as_evaluate_refuses_them():
    with pytest.raises(ValueError, match=r"target_priors must have shape \(4,\)"):
        EvaluationAccumulator(np.arange(M), target_priors=[0.5, 0.5])
    with pytest.raises(ValueError, match="target_priors must be a distribution"):
        EvaluationAccumulator(np.arange(M), target_priors=[0.5, 0.5, 0.5, 0.5])
    with pytest.raises(TypeError, match="target_priors"):
        EvaluationAccumulator(np.arange(M), target_priors=["a", "b", "c", "d"])


def test_a_positive_prior_on_a_class_without_rows_is_refused_at_compute():
    y, scores, _ = data(25)
    kept = y != 2
    acc = EvaluationAccumulator(np.arange(M), target_priors=TARGET).update(y[kept], scores[kept])
    with pytest.raises(ValueError, match=r"target_priors gives class 2 the prior 0\.3, but no evaluated row"):
        acc.compute()
    with pytest.raises(ValueError, match="no weighted rows"):
        EvaluationAccumulator(np.arange(M), target_priors=TARGET).compute()


def test_streams_at_other_priors_do_not_merge():
    first = EvaluationAccumulator(np.arange(M), target_priors=TARGET)
    with pytest.raises(ValueError, match="different target priors"):
        first.merge(EvaluationAccumulator(np.arange(M)))
    with pytest.raises(ValueError, match="different target priors"):
        first.merge(EvaluationAccumulator(np.arange(M), target_priors=TARGET[::-1]))


def test_the_extra_memory_is_that_of_one_summary_per_class():
    """m summaries in place of one: about m times the statistics' bytes, whatever the number of rows (binned)."""
    y, scores, _ = data(26)
    plain = EvaluationAccumulator(np.arange(M), cutoffs=8).update(y, scores)
    shifted = EvaluationAccumulator(np.arange(M), cutoffs=8, target_priors=TARGET).update(y, scores)
    statistics = plain.nbytes - plain.ranking.nbytes
    assert shifted.nbytes - shifted.ranking.nbytes == M * statistics
    assert shifted.update(y, scores).nbytes == shifted.nbytes


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    cuts=st.lists(st.integers(1, 119), max_size=4, unique=True).map(sorted),
    priors=st.lists(st.floats(0.05, 1.0), min_size=M, max_size=M),
    weighted=st.booleans(),
)
def test_any_batching_and_merge_order_gives_evaluates_scores_at_the_priors(seed, cuts, priors, weighted):
    y, scores, weights = data(seed, n=120, weighted=weighted)
    target = np.array(priors) / np.sum(priors)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a class may be missing from a draw: both warn alike (tested above)
        try:
            expected = polyroc.evaluate(
                y, scores, labels=np.arange(M), sample_weight=weights, target_priors=target, n_boot=0
            )
        except ValueError as error:
            expected = error
        parts = [np.arange(a, b) for a, b in itertools.pairwise([0, *cuts, y.size])]
        accumulators = [
            EvaluationAccumulator(np.arange(M), target_priors=target).update(
                y[p], scores[p], None if weights is None else weights[p]
            )
            for p in parts
        ]
        merged = accumulators[-1]
        for accumulator in reversed(accumulators[:-1]):
            merged = accumulator.merge(merged)
        if isinstance(expected, ValueError):
            with pytest.raises(ValueError, match="target_priors gives class"):
                merged.compute(n_boot=0)
            return
        found = merged.compute(n_boot=0)
    for name, value in expected.scores.items():
        np.testing.assert_allclose(found.scores[name], value, rtol=1e-10, atol=1e-12, equal_nan=True, err_msg=name)
