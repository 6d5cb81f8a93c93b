"""The ROC-DMF and Gini plots draw their results' arrays (several models on one Axes too)."""

import contextlib
import warnings

import numpy as np
import pytest
from matplotlib.figure import Figure

from polyroc.dmf import compare_models
from polyroc.gini import WhiteningWarning, gini_roc


@contextlib.contextmanager
def _no_whitening_warning():
    """Probability rows make the whitening singular, as expected: no WhiteningWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)
        yield


def _sample(seed, strength, n=150, k=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    P = rng.dirichlet(np.ones(k), n) + strength * np.eye(k)[y]
    return y, P / P.sum(axis=1, keepdims=True)


def _polygon_vertices(collection):
    """(x, y) vertices of a fill_between band: at each x, its lower and upper edge."""
    return collection.get_paths()[0].vertices


def test_dmf_plots_of_several_models_draw_each_curve_and_band():
    y, strong = _sample(0, 1.0)
    _, weak = _sample(1, 0.2)
    comparison = compare_models(
        y, {"strong": strong, "weak": weak}, bootstrap="stratified", n_boot=30, n_levels=19, random_state=0
    )
    ax = Figure().subplots()
    for name, result in comparison.results.items():
        result.plot(ax=ax, name=name)
    curves = [line for line in ax.get_lines() if "ROC-DMF" in line.get_label()]
    assert [line.get_label() for line in curves] == [
        f"{name} ROC-DMF (D = {comparison.results[name].D:.3f})" for name in ("strong", "weak")
    ]
    for line, result in zip(curves, comparison.results.values()):
        np.testing.assert_array_equal(line.get_xdata(), np.r_[0, result.fpr, 1])
        np.testing.assert_array_equal(line.get_ydata(), np.r_[0, result.tpr, 1])
    assert len(ax.collections) == 2
    for band, result in zip(ax.collections, comparison.results.values()):
        vertices = _polygon_vertices(band)
        boot = result.bootstrap
        for x, low, high in zip(boot.band_fpr, boot.band_low, boot.band_high):
            at_x = vertices[np.isclose(vertices[:, 0], x), 1]
            assert at_x.min() == pytest.approx(low) and at_x.max() == pytest.approx(high)


def test_gini_plot_draws_the_aggregate_the_classes_and_the_bootstrap_band():
    y, P = _sample(2, 0.8)
    with _no_whitening_warning():
        result = gini_roc(y, P, n_boot=25, random_state=0)
    ax = Figure().subplots()
    result.plot(ax=ax)
    lines = {line.get_label(): line for line in ax.get_lines()}
    aggregate = lines[f"Gini-weighted ROC (AUC = {result.auc_agg:.3f})"]
    np.testing.assert_array_equal(aggregate.get_xdata(), result.fpr)
    np.testing.assert_array_equal(aggregate.get_ydata(), result.tpr)
    for label, fpr, tpr, weight, auc in zip(
        result.classes, result.class_fpr, result.class_tpr, result.weights, result.class_auc
    ):
        line = lines[f"class {label} (w = {weight:.3f}, AUC = {auc:.3f})"]
        np.testing.assert_array_equal(line.get_xdata(), fpr)
        np.testing.assert_array_equal(line.get_ydata(), tpr)
    band = next(c for c in ax.collections if "bootstrap band" in c.get_label())
    vertices = _polygon_vertices(band)
    boot = result.bootstrap
    for x, low, high in zip(boot.fpr[::10], boot.tpr_low[::10], boot.tpr_high[::10]):
        at_x = vertices[np.isclose(vertices[:, 0], x), 1]
        assert at_x.min() == pytest.approx(low) and at_x.max() == pytest.approx(high)
