"""ROC-DMF bootstrap: thread-count independence, batched replicate rates, one convergence warning, ranking diagnostics.

Oracles: replicate rates against the rates of the data with each row repeated
as often as it was drawn (``np.repeat``); pairwise AUCs against scikit-learn's
``roc_auc_score``; a nearly separable forest against a separable limit.
"""

import warnings

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.ensemble import RandomForestClassifier
from sklearn.metrics import roc_auc_score

from polyroc._engine.progress import listening
from polyroc.dmf import compare_models, pairwise_rates, roc_dmf
from polyroc.dmf._rates import batch_rates, prepare_problem
from polyroc.exceptions import ConvergenceWarning
from polyroc.resampling import bootstrap_multiplicities

matplotlib.use("Agg")


def _scores(n=240, k=4, seed=0, strength=1.0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % k
    P = rng.dirichlet(np.ones(k), size=n) + strength * np.eye(k)[y]
    return y, P / P.sum(axis=1, keepdims=True)


def _forest(seed=0):
    """A random forest on an 11-class problem with ~200 test rows; several classes are perfectly separated."""
    X, y = make_classification(
        n_samples=990, n_features=10, n_informative=8, n_redundant=0, n_classes=11,
        n_clusters_per_class=1, class_sep=5.0, random_state=seed,
    )  # fmt: skip
    model = RandomForestClassifier(n_estimators=50, random_state=seed).fit(X[:792], y[:792])
    return y[792:], model.predict_proba(X[792:])


def test_bootstrap_does_not_depend_on_the_number_of_threads(monkeypatch):
    y, P = _scores()
    runs = []
    for threads in ("1", "2"):
        monkeypatch.setenv("POLYROC_THREADS", threads)
        cmp = compare_models(y, {"a": P, "b": np.roll(P, 1, axis=0)}, n_levels=19, bootstrap="stratified",
                             n_boot=40, random_state=3)  # fmt: skip
        runs.append(cmp)
    np.testing.assert_array_equal(runs[0].replicates, runs[1].replicates)
    for name in ("a", "b"):
        np.testing.assert_array_equal(runs[0].results[name].bootstrap.tpr, runs[1].results[name].bootstrap.tpr)


def test_parametric_bootstrap_does_not_depend_on_the_number_of_threads(monkeypatch):
    y, P = _scores(seed=1)
    areas = []
    for threads in ("1", "2"):
        monkeypatch.setenv("POLYROC_THREADS", threads)
        areas.append(roc_dmf(y, P, n_levels=9, bootstrap="parametric", n_boot=30, random_state=0).bootstrap.D)
    np.testing.assert_array_equal(areas[0], areas[1])


@pytest.mark.parametrize("cutoff_grid", ["pooled", "column", "balanced"])
def test_batched_replicate_rates_equal_the_rates_of_the_repeated_rows(cutoff_grid):
    y, P = _scores(n=90, k=3, seed=2)
    problem = prepare_problem(y, P, labels=None, sample_weight=None, levels=None, n_levels=11,
                              cutoff_grid=cutoff_grid, one_binary_pair=True)  # fmt: skip
    multiplicities = next(bootstrap_multiplicities(y, 6, random_state=0))
    batched = batch_rates(problem.pools, problem.levels, multiplicities)
    for b, counts in enumerate(multiplicities):
        rows = np.repeat(np.arange(y.size), counts)
        direct = pairwise_rates(y[rows], P[rows], n_levels=11, cutoff_grid=cutoff_grid)
        np.testing.assert_allclose(batched.tpr[b], direct.tpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batched.fpr[b], direct.fpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batched.cutoffs[b], direct.cutoffs, rtol=0, atol=1e-12)


def test_bootstrap_reports_its_progress_in_the_calling_thread():
    y, P = _scores()
    events = []
    with listening(lambda name, done, total: events.append((name, done, total))):
        roc_dmf(y, P, n_levels=9, bootstrap="stratified", n_boot=50, random_state=0)
    replicates = [e for e in events if e[0] == "bootstrap replicates"]
    assert replicates[0] == ("bootstrap replicates", 0, 50) and replicates[-1] == ("bootstrap replicates", 50, 50)
    assert [e[1] for e in replicates] == sorted(e[1] for e in replicates)


def test_one_convergence_warning_per_call_counts_the_refits():
    y, P = _scores(seed=4, strength=0.5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cmp = compare_models(y, {"a": P, "b": P[:, ::-1], "c": np.roll(P, 1, axis=0)}, n_levels=9,
                             bootstrap="stratified", n_boot=20, random_state=0, max_iter=1)  # fmt: skip
    convergence = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert len(convergence) == 1
    failed = sum(r.bootstrap.n_unconverged for r in cmp.results.values())
    assert failed > 0 and f"{failed} of 60 bootstrap refits" in str(convergence[0].message)
    assert "'a'" in str(convergence[0].message)


def test_pair_auc_is_the_pairwise_auc_of_scikit_learn_and_flags_constant_columns():
    y, P = _scores(n=200, k=4, seed=5)
    P[:, 3] = 0.25  # class 3's score carries no ranking information
    result = roc_dmf(y, P, n_levels=9)
    for (a, b), auc in zip(result.pairs, result.pair_auc):
        keep = (y == a) | (y == b)
        assert auc == pytest.approx(roc_auc_score(y[keep] == a, P[keep, a]), abs=1e-12)
    expected = [np.mean([roc_auc_score(y[(y == a) | (y == b)] == a, P[(y == a) | (y == b), a])
                         for b in range(4) if b != a]) for a in range(4)]  # fmt: skip
    np.testing.assert_allclose(result.class_auc, expected, atol=1e-12)
    assert result.uninformative_classes() == [3]
    assert result.to_dict()["uninformative_classes"] == [3]
    assert result.uninformative_classes(tolerance=0.5) == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="tolerance"):
        result.uninformative_classes(tolerance=0.7)


def test_nearly_separable_forest_bootstrap_converges_and_matches_its_limit():
    y, P = _forest()
    assert roc_auc_score(y, P, multi_class="ovo") > 0.98
    separated = [a for a in range(11) if roc_auc_score(y == a, P[:, a]) == 1.0]
    assert len(separated) >= 3  # the nearly separable case
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        result = roc_dmf(y, P, bootstrap="stratified", n_boot=50, random_state=0)
    assert result.converged and result.bootstrap.n_unconverged == 0
    assert result.ci.low <= result.D <= result.ci.high
    # the separable limit: a perfect ranking of every pair has D = 1 up to the continuity correction,
    # which moves each rate by at most 1 / (2 (n + 1)) with n the smallest class
    smallest = np.bincount(y).min()
    perfect = np.eye(11)[y] * 0.9 + 0.01
    limit = roc_dmf(y, perfect)
    assert 1 - 1 / (smallest + 1) <= limit.D < 1


def test_several_models_get_distinct_colours_faint_bands_and_a_legend_with_intervals():
    from polyroc.plotting import DmfRocDisplay

    y, P = _scores(seed=6)
    scores = {"strong": P, "weak": 0.5 * P + 0.5 * np.roll(P, 1, axis=0), "third": P[:, [1, 0, 2, 3]]}
    cmp = compare_models(y, scores, n_levels=9, bootstrap="stratified", n_boot=20, random_state=0)
    shown = DmfRocDisplay.from_results(cmp.results)
    colours = [matplotlib.colors.to_hex(d.line_.get_color()) for d in shown]
    assert len(set(colours)) == 3
    assert all(d.band_.get_alpha() <= 0.2 for d in shown)
    legend = [t.get_text() for t in shown[0].ax_.get_legend().get_texts()]
    for name, result in cmp.results.items():
        assert f"{name}: D = {result.D:.3f} [{result.ci.low:.3f}, {result.ci.high:.3f}]" in legend
    assert "typical class pair" in shown[0].ax_.get_xlabel()
    panels = DmfRocDisplay.from_results(cmp.results, panels=True, band_style="outline")
    assert len({id(d.ax_) for d in panels}) == 3
    assert panels[0].figure_.number in plt.get_fignums()  # a pyplot figure, which plt.show() shows
    assert all(d.band_.get_facecolor().size == 0 or d.band_.get_facecolor()[0][3] == 0 for d in panels)


def _tied_scores(n=70, k=4, seed=7):
    """Scores rounded to one decimal (many ties), a column of constant scores and a class of 3 samples."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k - 1, n)
    y[:3] = k - 1
    P = np.round(rng.dirichlet(np.ones(k), size=n) + np.eye(k)[y], 1)
    P[:, 1] = 0.5
    return y, P


def _repeated_rows_quantile_rates(y, P, counts, levels, grid):
    """Brute force on the data with row i repeated counts[i] times: numpy's quantile and counts above it."""
    rows = np.repeat(np.arange(y.size), counts)
    y, P = y[rows], P[rows]
    classes = np.unique(y)
    tpr, fpr = [], []
    for a in classes:
        for b in classes[classes != a]:
            pool = P[(y == a) | (y == b), a] if grid == "pooled" else P[:, a]
            cutoffs = np.quantile(pool, levels[::-1])
            tpr.append([np.mean(P[y == a, a] > c) for c in cutoffs])
            fpr.append([np.mean(P[y == b, a] > c) for c in cutoffs])
    return np.array(tpr).T, np.array(fpr).T


@pytest.mark.parametrize("cutoff_grid", ["pooled", "column"])
def test_replicate_rates_with_ties_and_a_small_class_equal_brute_force(cutoff_grid):
    y, P = _tied_scores()
    levels = np.arange(1, 20) / 20
    problem = prepare_problem(y, P, labels=None, sample_weight=None, levels=levels, n_levels=None,
                              cutoff_grid=cutoff_grid)  # fmt: skip
    multiplicities = next(bootstrap_multiplicities(y, 8, random_state=1))
    batched = batch_rates(problem.pools, problem.levels, multiplicities)
    for b, counts in enumerate(multiplicities):
        tpr, fpr = _repeated_rows_quantile_rates(y, P, counts, levels, cutoff_grid)
        np.testing.assert_allclose(batched.tpr[b], tpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batched.fpr[b], fpr, rtol=0, atol=1e-12)


@pytest.mark.parametrize("cutoff_grid", ["pooled", "column", "balanced"])
def test_large_pools_bisect_to_the_rates_of_the_repeated_rows(cutoff_grid):
    # pools of thousands of samples for few levels: the order statistics are bracketed on a coarse grid first
    rng = np.random.default_rng(8)
    y = rng.integers(0, 3, 3000)
    P = np.round(rng.dirichlet(np.ones(3), size=3000) + np.eye(3)[y], 3)
    problem = prepare_problem(y, P, labels=None, sample_weight=None, levels=None, n_levels=3,
                              cutoff_grid=cutoff_grid)  # fmt: skip
    assert min(pooled.step for pooled in problem.pools.by_column) > 1
    multiplicities = next(bootstrap_multiplicities(y, 3, random_state=2))
    batched = batch_rates(problem.pools, problem.levels, multiplicities)
    for b, counts in enumerate(multiplicities):
        rows = np.repeat(np.arange(y.size), counts)
        direct = pairwise_rates(y[rows], P[rows], n_levels=3, cutoff_grid=cutoff_grid)
        np.testing.assert_array_equal(batched.cutoffs[b], direct.cutoffs)
        np.testing.assert_allclose(batched.tpr[b], direct.tpr, rtol=0, atol=1e-12)
        np.testing.assert_allclose(batched.fpr[b], direct.fpr, rtol=0, atol=1e-12)
        if cutoff_grid != "balanced":
            tpr, fpr = _repeated_rows_quantile_rates(y, P, counts, problem.levels[::-1], cutoff_grid)
            np.testing.assert_allclose(batched.tpr[b], tpr, rtol=0, atol=1e-12)
            np.testing.assert_allclose(batched.fpr[b], fpr, rtol=0, atol=1e-12)


def test_class_by_class_draws_give_the_rates_of_bootstrap_multiplicities():
    # the bootstrap draws each chunk on a worker, laid out class by class: same replicates, same rates
    from polyroc.dmf._bootstrap import _StratifiedDraws
    from polyroc.resampling import stratum_multiplicities

    y, P = _tied_scores(seed=9)
    problem = prepare_problem(y, P, labels=None, sample_weight=None, levels=None, n_levels=9,
                              cutoff_grid="pooled", one_binary_pair=True)  # fmt: skip
    by_sample = next(bootstrap_multiplicities(problem.y, 5, random_state=4))
    draws = _StratifiedDraws(problem.y)
    laid_out = stratum_multiplicities(np.random.default_rng(4).spawn(5), draws.sizes, dtype=np.int32)
    np.testing.assert_array_equal(laid_out[:, draws.positions], by_sample)
    expected = batch_rates(problem.pools, problem.levels, by_sample)
    got = batch_rates(problem.pools, problem.levels, laid_out, positions=draws.positions)
    for a, b in zip(expected, got):
        np.testing.assert_array_equal(a, b)
    weights = np.linspace(0.5, 1.5, y.size)  # real weights take the pool-by-pool path from the same layout
    expected = batch_rates(problem.pools, problem.levels, by_sample, weights=weights)
    got = batch_rates(problem.pools, problem.levels, laid_out, weights=weights, positions=draws.positions)
    for a, b in zip(expected, got):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("cutoff_grid", ["pooled", "column", "balanced"])
@pytest.mark.parametrize("n_boot", [5, 8, 17])
def test_draws_held_sample_by_sample_give_the_rates_of_the_repeated_rows(cutoff_grid, n_boot):
    # the bootstrap's chunks: bytes (n, b) in the class-by-class layout, 8 replicates to a word (padded)
    from polyroc.dmf._bootstrap import _StratifiedDraws
    from polyroc.intervals._resampling import sample_major_multiplicities

    y, P = _tied_scores(n=90, seed=11)
    problem = prepare_problem(y, P, labels=None, sample_weight=None, levels=None, n_levels=7,
                              cutoff_grid=cutoff_grid)  # fmt: skip
    draws = _StratifiedDraws(problem.y)
    held = sample_major_multiplicities(np.random.default_rng(6).spawn(n_boot), draws.sizes)
    assert held.dtype == np.uint8
    counts = held[draws.positions].T  # (b, n) in the order of the samples
    got = batch_rates(problem.pools, problem.levels, held, positions=draws.positions, by_sample=True)
    wide = batch_rates(problem.pools, problem.levels, held.astype(np.int32), positions=draws.positions, by_sample=True)
    for b, row in enumerate(counts):
        rows = np.repeat(np.arange(y.size), row)
        direct = pairwise_rates(y[rows], P[rows], n_levels=7, cutoff_grid=cutoff_grid)
        for result in (got, wide):  # byte counts summed two to a word, and int32 counts summed along rows
            np.testing.assert_array_equal(result.cutoffs[b], direct.cutoffs)
            np.testing.assert_allclose(result.tpr[b], direct.tpr, rtol=0, atol=1e-12)
            np.testing.assert_allclose(result.fpr[b], direct.fpr, rtol=0, atol=1e-12)
    weights = np.linspace(0.5, 1.5, y.size)  # real weights: the pool-by-pool path, from the same draws
    expected = batch_rates(problem.pools, problem.levels, counts, weights=weights)
    got = batch_rates(problem.pools, problem.levels, held, weights=weights, positions=draws.positions, by_sample=True)
    for a, b in zip(expected, got):
        np.testing.assert_array_equal(a, b)
