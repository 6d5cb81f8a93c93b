"""The shared bootstrap: strata preserved, seeded, chunking-independent, right distribution; paired rule scores."""

import warnings
from math import comb

import numpy as np
import pytest

from polyroc.exceptions import IntervalWarning
from polyroc.resampling import bootstrap_multiplicities, paired_rule_scores, percentile_interval


def _all(y, n_boot, **kwargs):
    return np.vstack(list(bootstrap_multiplicities(y, n_boot, **kwargs)))


def test_stratified_replicates_keep_class_sizes():
    y = np.repeat([0, 1, 2], [5, 3, 9])
    reps = _all(y, 50, random_state=1)
    for c in range(3):
        assert np.all(reps[:, y == c].sum(axis=1) == np.sum(y == c))


def test_unstratified_replicates_sum_to_n_and_vary_class_sizes():
    y = np.repeat([0, 1], [10, 10])
    reps = _all(y, 200, stratify=False, random_state=2)
    assert np.all(reps.sum(axis=1) == 20)
    assert len(set(reps[:, :10].sum(axis=1).tolist())) > 1


def test_same_seed_same_replicates_whatever_the_chunking():
    y = np.arange(30) % 3
    a = _all(y, 23, random_state=7, chunk_size=4)
    b = _all(y, 23, random_state=7, chunk_size=100)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, _all(y, 23, random_state=8))


def test_multiplicities_have_the_bootstrap_distribution():
    # each count is Binomial(n, 1/n): mean 1, variance 1 - 1/n
    y = np.zeros(40, dtype=int)
    reps = _all(y, 4000, random_state=3)
    assert reps.mean() == pytest.approx(1.0, abs=0.01)
    assert reps.var() == pytest.approx(1 - 1 / 40, abs=0.03)


def test_percentile_interval_matches_numpy_quantiles():
    values = np.random.default_rng(0).normal(size=(500, 3))
    low, high = percentile_interval(values, confidence=0.9)
    np.testing.assert_allclose(low, np.quantile(values, 0.05, axis=0))
    np.testing.assert_allclose(high, np.quantile(values, 0.95, axis=0))


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: _all([0, 1], 0), ValueError, r"^n_boot must be an int in \[1, inf\); got 0$"),
        (lambda: _all([0, 1], 2.5), TypeError, r"^n_boot must be an int in \[1, inf\); got float 2.5$"),
        (
            lambda: _all([0, 1], 2, chunk_size=0),
            ValueError,
            r"^chunk_size must be None or an int in \[1, inf\); got 0$",
        ),
        (
            lambda: _all([0, 1], 2, random_state="seed"),
            TypeError,
            r"^random_state must be None, an int in \[0, inf\) or a",
        ),
        (
            lambda: percentile_interval([1.0, 2.0], confidence=1.0),
            ValueError,
            r"^confidence must be a real number in \(0, 1\); got 1.0$",
        ),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize(
    "arguments, kwargs, error, match",
    [
        (([0, 1], 0), {}, ValueError, r"^n_boot must be an int in \[1, inf\); got 0$"),
        (([[0, 1], [1, 0]], 2), {}, ValueError, r"y must be 1-D"),
        (([0, 1], 2), {"chunk_size": 0}, ValueError, r"^chunk_size must be None or an int in \[1, inf\); got 0$"),
        (([0, 1], 2), {"random_state": -1}, ValueError, r"^random_state must be None, an int in \[0, inf\) or a"),
        (([0, 1], 2), {"stratify": "yes"}, ValueError, "stratify must be one of True, False"),
        (([0, 1], 2), {"stratify": np.array([0, 1])}, TypeError, "stratify must be one of True, False"),
        (([0, 1], 2), {"stratify": [0, 1]}, TypeError, "stratify must be one of True, False"),
    ],
)
def test_bootstrap_multiplicities_checks_its_arguments_at_the_call(arguments, kwargs, error, match):
    """Not when the first chunk is drawn: the call itself raises, nothing is iterated."""
    with pytest.raises(error, match=match):
        bootstrap_multiplicities(*arguments, **kwargs)


def test_bootstrap_multiplicities_draws_lazily():
    rng = np.random.default_rng(5)
    chunks = bootstrap_multiplicities([0, 1, 1], 3, random_state=rng)
    assert rng.bit_generator.seed_seq.n_children_spawned == 0
    first = next(chunks)
    assert first.shape == (3, 3) and rng.bit_generator.seed_seq.n_children_spawned == 3


def test_paired_rule_scores_equal_a_scikit_learn_loop_over_the_same_replicates():
    from sklearn.metrics import f1_score

    from polyroc.resampling import paired_rule_scores

    rng = np.random.default_rng(4)
    y = rng.integers(0, 3, 80)
    rules = {
        "a": np.where(rng.random(80) < 0.7, y, rng.integers(0, 3, 80)),
        "b": np.where(rng.random(80) < 0.6, y, rng.integers(0, 3, 80)),
    }
    weights = rng.random(80)
    result = paired_rule_scores(
        y, rules, metric="f1_macro", baseline="a", sample_weight=weights, n_boot=40, confidence=0.9, random_state=5
    )
    replicates = _all(y, 40, random_state=5)
    loop = {
        name: np.array(
            [
                f1_score(y, pred, average="macro", labels=[0, 1, 2], zero_division=0, sample_weight=row * weights)
                for row in replicates
            ]
        )
        for name, pred in rules.items()
    }
    for name, pred in rules.items():
        low, high = np.quantile(loop[name], [0.05, 0.95])
        assert (result.scores[name].low, result.scores[name].high) == pytest.approx((low, high), abs=1e-12)
        assert result.scores[name].estimate == pytest.approx(
            f1_score(y, pred, average="macro", sample_weight=weights), abs=1e-12
        )
    low, high = np.quantile(loop["b"] - loop["a"], [0.05, 0.95])
    assert (result.differences["b"].low, result.differences["b"].high) == pytest.approx((low, high), abs=1e-12)
    assert list(result.differences) == ["b"]
    assert result.settings == {
        "metric": "f1_macro",
        "n_boot": 40,
        "confidence": 0.9,
        "random_state": 5,
        "interval_method": "paired stratified percentile bootstrap",
    }
    frame = result.to_frame()
    assert frame["rule"].tolist() == ["a", "b"]
    assert frame["low"].tolist() == pytest.approx([np.quantile(loop[name], 0.05) for name in rules], abs=1e-12)
    assert np.isnan(frame.loc[0, "difference"])
    assert frame.loc[1, "difference_high"] == pytest.approx(high, abs=1e-12)


def test_confidence_interval_is_a_result_with_its_settings():
    import json

    from polyroc.resampling import ConfidenceInterval

    ci = ConfidenceInterval.from_replicates(
        2.0, [np.nan, *np.arange(1.0, 102.0)], confidence=0.8, random_state=3, n_boot=102
    )
    low, high = np.quantile(np.arange(1.0, 102.0), [0.1, 0.9])  # NaN replicates are left out
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((2.0, low, high), abs=1e-12)
    low, high = ci.low, ci.high
    assert (ci.confidence, ci.n_boot, ci.random_state, ci.method) == (0.8, 102, 3, "stratified percentile bootstrap")
    document = json.loads(json.dumps(ci.to_dict(), allow_nan=False))
    assert document == {
        "type": "ConfidenceInterval",
        "estimate": 2.0,
        "low": low,
        "high": high,
        "settings": {
            "confidence": 0.8,
            "n_boot": 102,
            "random_state": 3,
            "interval_method": "stratified percentile bootstrap",
        },
    }
    assert ci.to_frame().loc[0, ["low", "high"]].tolist() == [low, high]
    assert str(ci) == f"2.0000 [80% CI {low:.4f}, {high:.4f}; stratified percentile bootstrap, B=102]"
    with pytest.raises(ValueError, match="confidence"):
        ConfidenceInterval.from_replicates(1.0, [1.0, 2.0], confidence=1.0)


def _rules_differing_on(rows_better, rows_worse, n=60):
    """Labels, a baseline right everywhere but on ``rows_better``, and a rule differing from it on the given rows."""
    y = np.arange(n) % 3
    baseline = y.copy()
    baseline[rows_better] = (y[rows_better] + 1) % 3
    rule = y.copy()
    rule[rows_worse] = (y[rows_worse] + 2) % 3
    return y, {"baseline": baseline, "rule": rule}


def test_few_changed_rows_warn_with_the_exact_sign_test():
    y, rules = _rules_differing_on([0, 1, 2, 3, 4], [10])  # 6 rows differ: the rule is right on 5, wrong on 1
    with pytest.warns(IntervalWarning, match=r"differently on only 6 rows") as caught:
        paired_rule_scores(y, rules, baseline="baseline", n_boot=50, random_state=0)
    exact_p = 2 * sum(comb(6, k) for k in (0, 1)) / 2**6  # two-sided binomial test of 5 of 6, by hand
    assert f"5 favour 'rule': exact sign test p = {exact_p:.3g}" in str(caught[0].message)


def test_enough_changed_rows_or_no_baseline_do_not_warn():
    y, rules = _rules_differing_on(list(range(6)), list(range(10, 14)))  # 10 rows differ
    with warnings.catch_warnings():
        warnings.simplefilter("error", IntervalWarning)
        paired_rule_scores(y, rules, baseline="baseline", n_boot=50, random_state=0)
        paired_rule_scores(y, _rules_differing_on([0], [1])[1], n_boot=50, random_state=0)


def test_rows_of_zero_weight_do_not_count_as_changed():
    y, rules = _rules_differing_on(list(range(12)), [])
    weights = np.ones(y.size)
    weights[:3] = 0.0  # 9 changed rows keep a weight
    with pytest.warns(IntervalWarning, match=r"only 9 rows"):
        paired_rule_scores(y, rules, baseline="baseline", sample_weight=weights, n_boot=50, random_state=0)


def _brute_force_distribution(y, rules, weights):
    """Exact distribution of each rule's weighted accuracy and of their difference under the stratified bootstrap.

    Every sequence of draws with replacement within each class is equally likely; all are enumerated.
    """
    from collections import Counter
    from itertools import product

    strata = [np.flatnonzero(y == c) for c in np.unique(y)]
    outcomes = Counter()
    for draws in product(*(product(members, repeat=members.size) for members in strata)):
        multiplicity = np.bincount(np.concatenate(draws), minlength=y.size) * weights
        accuracy = [multiplicity @ (pred == y) / multiplicity.sum() for pred in rules.values()]
        outcomes[tuple(round(value, 9) for value in (*accuracy, accuracy[1] - accuracy[0]))] += 1
    total = sum(outcomes.values())
    return {outcome: count / total for outcome, count in outcomes.items()}


@pytest.mark.slow
@pytest.mark.parametrize("path", ["cells", "rows"])
def test_paired_replicates_have_the_exact_distribution_of_resampled_rows(path, monkeypatch):
    # 3 + 4 rows, weights 1 and 2: the cells (class, both predictions, weight) hold 1 to 2 rows each; both
    # ways of drawing must give the distribution of drawing the rows, enumerated exactly (3^3 * 4^4 sequences)
    from scipy.stats import chisquare

    from polyroc.counts import get_metric
    from polyroc.intervals import _resampling as resampling

    if path == "rows":
        monkeypatch.setattr(resampling, "MAX_CELL_SHARE", 0.0, raising=False)
    y = np.array([0, 0, 0, 1, 1, 1, 1])
    rules = {"a": np.array([0, 0, 1, 1, 1, 0, 1]), "b": np.array([0, 1, 1, 1, 1, 1, 0])}
    weights = np.array([1.0, 2.0, 1.0, 1.0, 2.0, 1.0, 1.0])
    exact = _brute_force_distribution(y, rules, weights)
    n_boot = 20_000
    replicates = resampling._rule_replicates(
        y, rules, 2, weights, get_metric("accuracy"), n_boot, np.random.default_rng(11)
    )
    drawn = np.column_stack([replicates["a"], replicates["b"], replicates["b"] - replicates["a"]]).round(9)
    observed = {}
    for row in map(tuple, drawn.tolist()):
        observed[row] = observed.get(row, 0) + 1
    assert set(observed) <= set(exact)
    outcomes = sorted(exact, key=exact.get)
    expected = np.array([exact[o] for o in outcomes]) * n_boot
    counts = np.array([observed.get(o, 0) for o in outcomes])
    rare = np.cumsum(expected) < 20  # pool the rarest outcomes into one cell of at least 20 expected
    expected = np.append(expected[~rare], expected[rare].sum())
    counts = np.append(counts[~rare], counts[rare].sum())
    assert chisquare(counts, expected).pvalue > 1e-3


def test_paired_bootstrap_of_few_cells_draws_no_row_multiplicities(monkeypatch):
    # a million rows make at most 3 x 3 x 3 x 2 joint cells: the replicates come from the cells, not the rows
    from polyroc.intervals import _resampling as resampling

    def no_rows(*args, **kwargs):
        raise AssertionError("row multiplicities drawn")

    monkeypatch.setattr(resampling, "stratum_multiplicities", no_rows)
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 10**6)
    rules = {"a": np.where(rng.random(y.size) < 0.8, y, 0), "b": np.where(rng.random(y.size) < 0.7, y, 1)}
    hit = (rules["b"] == y).astype(float) - (rules["a"] == y)
    # oracle: the normal approximation of the stratified bootstrap of the accuracy difference
    half_width = 1.96 * np.sqrt(sum(np.sum(y == c) * np.var(hit[y == c]) for c in range(3))) / y.size
    difference = paired_rule_scores(y, rules, baseline="a", n_boot=400, random_state=0).differences["b"]
    assert difference.estimate == pytest.approx(hit.mean(), abs=1e-12)
    assert difference.high - difference.low == pytest.approx(2 * half_width, rel=0.2)
    weights = np.where(y == 2, 2.0, 1.0)
    weighted = paired_rule_scores(y, rules, baseline="a", sample_weight=weights, n_boot=50, random_state=0)
    assert weighted.differences["b"].estimate == pytest.approx(weights @ hit / weights.sum(), abs=1e-12)


class _AllFirst:
    """A stand-in generator whose every draw picks the first member of the stratum."""

    def integers(self, low, high, size):
        return np.zeros(size, dtype=np.int64)


def test_sample_major_draws_equal_the_rows_transposed():
    from polyroc.intervals._resampling import sample_major_multiplicities, stratum_multiplicities

    sizes = [0, 1, 7, 300, 2]
    held = sample_major_multiplicities(np.random.default_rng(3).spawn(5), sizes)
    rows = stratum_multiplicities(np.random.default_rng(3).spawn(5), sizes, dtype=np.int64)
    assert held.dtype == np.uint8 and held.flags.c_contiguous
    assert np.array_equal(held.T, rows)
    # a count above 255 (every draw of a 300-sample stratum on one member) switches to int32, values kept
    held = sample_major_multiplicities([np.random.default_rng(1), _AllFirst(), np.random.default_rng(2)], sizes)
    assert held.dtype == np.int32
    assert held[:9, 1].tolist() == [1, 7, 0, 0, 0, 0, 0, 0, 300] and held[9:308, 1].max() == 0
    assert np.array_equal(held[:, 0], stratum_multiplicities([np.random.default_rng(1)], sizes, dtype=int)[0])
    assert np.array_equal(held[:, 2], stratum_multiplicities([np.random.default_rng(2)], sizes, dtype=int)[0])
