"""Tests of polyroc.plotting: the drawn data against scikit-learn and independent re-derivations."""

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from matplotlib.path import Path
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

from polyroc.curves import ovr_roc_curve
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.plotting import (
    ConfusionMatrixDisplay,
    DecisionRegionsDisplay,
    PrecisionRecallDisplay,
    RocCloudDisplay,
    RocCurveDisplay,
    SimplexHeatmapDisplay,
    TuningProfileDisplay,
    simplex_to_cartesian,
)
from polyroc.thresholds import coordinate_profile, predict, roc_cloud, tune_thresholds

#: The barycentric triangle, written out independently of the library.
VERTICES = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3) / 2]])

#: matplotlib's tab10 colours, the class colours of up to 10 classes.
TAB10 = [tuple(color) for color in matplotlib.colormaps["tab10"].colors]


@pytest.fixture(autouse=True)
def _close_figures(monkeypatch):
    def refuse_show(*args, **kwargs):
        raise AssertionError("plotting code must never call plt.show()")

    monkeypatch.setattr(plt, "show", refuse_show)
    yield
    plt.close("all")


def _data(n_classes, n_samples=120, seed=0, noise=0.5):
    """Labels drawn from Dirichlet probabilities, scores = those probabilities blurred."""
    rng = np.random.default_rng(seed)
    truth = rng.dirichlet(np.ones(n_classes), n_samples)
    y = np.array([rng.choice(n_classes, p=p) for p in truth])
    scores = (1 - noise) * truth + noise * rng.dirichlet(np.ones(n_classes), n_samples)
    return y, scores


def _cartesian(points):
    """Barycentric -> Cartesian for points summing to 1."""
    return np.asarray(points) @ VERTICES


# --------------------------------------------------------------------------- import hygiene


@pytest.mark.slow
def test_core_never_imports_plotting_and_plotting_imports_pyplot_lazily():
    code = """
import importlib, pkgutil, sys
import polyroc

def walk(package):
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.name == "polyroc.plotting":
            continue
        module = importlib.import_module(info.name)
        if info.ispkg:
            walk(module)

walk(polyroc)
assert "polyroc.plotting" not in sys.modules, "a core module imports polyroc.plotting"
import polyroc.plotting
assert "matplotlib.pyplot" not in sys.modules, "importing polyroc.plotting imported pyplot"
"""
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- confusion matrix


def test_confusion_matrix_counts_texts_and_labels_equal_sklearn():
    rng = np.random.default_rng(1)
    classes = np.array(["cat", "dog", "owl"])
    y_true, y_pred = rng.choice(classes, 60), rng.choice(classes, 60)
    disp = ConfusionMatrixDisplay.from_predictions(y_true, y_pred)
    expected = skm.confusion_matrix(y_true, y_pred, labels=classes)
    np.testing.assert_array_equal(disp.im_.get_array(), expected)
    assert [[text.get_text() for text in row] for row in disp.text_] == expected.astype(str).tolist()
    assert [label.get_text() for label in disp.ax_.get_xticklabels()] == classes.tolist()
    assert [label.get_text() for label in disp.ax_.get_yticklabels()] == classes.tolist()
    assert (disp.ax_.get_xlabel(), disp.ax_.get_ylabel()) == ("Predicted label", "True label")
    # each text sits on its cell: column = predicted (x), row = true (y)
    assert disp.text_[0, 2].get_position() == (2, 0)


@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_confusion_matrix_normalised_equals_sklearn(normalize):
    rng = np.random.default_rng(2)
    y_true, y_pred = rng.integers(0, 4, 80), rng.integers(0, 4, 80)
    weights = rng.uniform(0.5, 2.0, 80)
    disp = ConfusionMatrixDisplay.from_predictions(y_true, y_pred, normalize=normalize, sample_weight=weights)
    expected = skm.confusion_matrix(y_true, y_pred, normalize=normalize, sample_weight=weights)
    np.testing.assert_allclose(disp.im_.get_array(), expected)
    assert disp.text_[1, 2].get_text() == f"{expected[1, 2]:.2f}"
    assert normalize in disp.ax_.get_title()


def test_confusion_matrix_options_and_given_axes():
    _, ax = plt.subplots()
    disp = ConfusionMatrixDisplay.from_predictions(
        [0, 1, 1],
        [0, 0, 1],
        labels=[1, 0],
        ax=ax,
        include_values=False,
        colorbar=False,
        display_labels=["one", "zero"],
    )
    assert disp.ax_ is ax and disp.figure_ is ax.figure
    assert disp.text_ is None and disp.colorbar_ is None
    np.testing.assert_array_equal(disp.im_.get_array(), [[1, 1], [0, 1]])
    assert [label.get_text() for label in ax.get_xticklabels()] == ["one", "zero"]
    with pytest.raises(ValueError, match="normalize"):
        ConfusionMatrixDisplay.from_predictions([0, 1], [0, 1], normalize="rows")


def test_confusion_matrix_from_result_is_that_of_the_tuned_rule():
    y, scores = _data(3, seed=3)
    result = tune_thresholds(y, scores, resolution=12)
    disp = ConfusionMatrixDisplay.from_result(result, y, scores)
    expected = skm.confusion_matrix(y, np.argmax(scores - result.best_threshold, axis=1))
    np.testing.assert_array_equal(disp.im_.get_array(), expected)


# --------------------------------------------------------------------------- ROC curves


def test_roc_lines_equal_sklearn_curves_and_auc():
    y, scores = _data(4, seed=4)
    disp = RocCurveDisplay.from_predictions(y, scores)
    legend = [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    for k, line in enumerate(disp.lines_):
        fpr, tpr, _ = skm.roc_curve(y == k, scores[:, k])
        np.testing.assert_allclose(line.get_xdata(), fpr)
        np.testing.assert_allclose(line.get_ydata(), tpr)
        assert legend[k] == f"{k} (AUC = {skm.roc_auc_score(y == k, scores[:, k]):.3f})"
        assert to_rgb(line.get_color()) == TAB10[k]
    fpr, tpr, _ = skm.roc_curve(label_binarize(y, classes=range(4)).ravel(), scores.ravel())
    np.testing.assert_allclose(disp.micro_line_.get_xdata(), fpr)
    np.testing.assert_allclose(disp.micro_line_.get_ydata(), tpr)
    np.testing.assert_array_equal(disp.chance_level_.get_xydata(), [[0, 0], [1, 1]])
    macro = skm.roc_auc_score(y, scores, multi_class="ovr", average="macro")
    assert disp.macro_auc == pytest.approx(macro, abs=1e-12)
    assert f"macro-average (AUC = {macro:.3f})" in legend


def test_macro_curve_is_the_mean_of_the_class_curves():
    y, scores = _data(3, n_samples=60, seed=5)
    scores = np.round(scores, 1)  # ties: vertical and diagonal segments
    disp = RocCurveDisplay.from_predictions(y, scores, drop_intermediate=False)
    fpr, tpr = disp.macro_line_.get_xdata(), disp.macro_line_.get_ydata()
    assert (fpr[0], tpr[0], fpr[-1], tpr[-1]) == (0, 0, 1, 1)
    assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= -1e-12)
    sk_curves = [skm.roc_curve(y == k, scores[:, k], drop_intermediate=False)[:2] for k in range(3)]
    grid = np.unique(np.concatenate([f for f, _ in sk_curves]))
    between = (grid[:-1] + grid[1:]) / 2  # off every breakpoint, each curve is single-valued
    expected = np.mean([np.interp(between, f, t) for f, t in sk_curves], axis=0)
    np.testing.assert_allclose(np.interp(between, fpr, tpr), expected)
    # at a breakpoint where some class is vertical, the curve spans the mean lowest..highest TPR
    k, index = next((k, i) for k, (f, _) in enumerate(sk_curves) for i in range(1, f.size) if f[i] == f[i - 1])
    at = sk_curves[k][0][index]
    lows = [t[f == at].min() if np.any(f == at) else np.interp(at, f, t) for f, t in sk_curves]
    highs = [t[f == at].max() if np.any(f == at) else np.interp(at, f, t) for f, t in sk_curves]
    np.testing.assert_allclose([tpr[fpr == at].min(), tpr[fpr == at].max()], [np.mean(lows), np.mean(highs)])


def test_roc_display_skips_a_class_without_samples():
    y, scores = _data(3, n_samples=50, seed=6)
    y = np.where(y == 2, 0, y)
    with pytest.warns(UndefinedMetricWarning):
        disp = RocCurveDisplay.from_predictions(y, scores, labels=[0, 1, 2])
    assert disp.lines_[2] is None
    with pytest.warns(UndefinedMetricWarning):
        auc = ovr_roc_curve(y, scores, labels=[0, 1, 2]).auc
    assert disp.macro_auc == pytest.approx(np.mean(auc[:2]))


def test_roc_from_result_options_and_given_axes():
    y, scores = _data(3, seed=7)
    _, ax = plt.subplots()
    disp = RocCurveDisplay.from_result(
        ovr_roc_curve(y, scores), ax=ax, micro=False, macro=False, plot_chance_level=False, show_classes=False
    )
    assert disp.ax_ is ax
    assert disp.lines_ == [None] * 3
    assert disp.micro_line_ is None and disp.macro_line_ is None and disp.chance_level_ is None
    assert ax.get_lines() == []


def test_roc_display_of_curves_without_micro_draws_no_micro_line():
    y, scores = _data(3, seed=8)
    disp = RocCurveDisplay.from_result(ovr_roc_curve(y, scores, micro=False))
    assert disp.micro_line_ is None and disp.macro_line_ is not None
    assert not any(line.get_label().startswith("micro") for line in disp.ax_.get_lines())
    plt.close(disp.figure_)


# --------------------------------------------------------------------------- precision-recall


def test_precision_recall_lines_ap_and_prevalence_equal_sklearn():
    y, scores = _data(3, seed=8)
    weights = np.random.default_rng(8).uniform(0.2, 3.0, y.size)
    disp = PrecisionRecallDisplay.from_predictions(y, scores, sample_weight=weights)
    legend = [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    prevalence = np.bincount(y, weights=weights) / weights.sum()
    for k in range(3):
        precision, recall, _ = skm.precision_recall_curve(y == k, scores[:, k], sample_weight=weights)
        np.testing.assert_allclose(disp.lines_[k].get_xdata(), recall)
        np.testing.assert_allclose(disp.lines_[k].get_ydata(), precision)
        assert disp.lines_[k].get_drawstyle() == "steps-post"
        ap = skm.average_precision_score(y == k, scores[:, k], sample_weight=weights)
        assert legend[k] == f"{k} (AP = {ap:.3f})"
        np.testing.assert_allclose(disp.chance_levels_[k].get_ydata(), [prevalence[k]] * 2)
    np.testing.assert_allclose(disp.prevalence, prevalence)
    binary = label_binarize(y, classes=range(3)).ravel()
    precision, recall, _ = skm.precision_recall_curve(binary, scores.ravel(), sample_weight=np.repeat(weights, 3))
    np.testing.assert_allclose(disp.micro_line_.get_xdata(), recall)
    np.testing.assert_allclose(disp.micro_line_.get_ydata(), precision)


# --------------------------------------------------------------------------- ROC clouds


def _class_rates(y, y_pred, k):
    """(fpr, tpr) of class k one-vs-rest, from sklearn's binary confusion matrix."""
    tn, fp, fn, tp = skm.confusion_matrix(y == k, y_pred == k, labels=[False, True]).ravel()
    return fp / (fp + tn), tp / (tp + fn)


def test_roc_cloud_scatters_curves_titles_and_argmax_points():
    y, scores = _data(3, seed=9)
    cloud = roc_cloud(y, scores, resolution=10)
    disp = RocCloudDisplay.from_result(cloud)
    assert len(disp.axes_) == 3 and len({id(axes) for axes in disp.axes_}) == 3
    for j, axes in enumerate(disp.axes_):
        offsets = np.asarray(disp.scatters_[j].get_offsets())
        np.testing.assert_array_equal(offsets, np.column_stack([cloud.fpr[:, j], cloud.tpr[:, j]]))
        # the rates, re-derived from predict and sklearn at a few sampled thresholds
        for row in (0, 17, cloud.thresholds.shape[0] - 1):
            rates = _class_rates(y, predict(scores, cloud.thresholds[row]), j)
            np.testing.assert_allclose(offsets[row], rates)
        fpr, tpr, _ = skm.roc_curve(y == j, scores[:, j])
        np.testing.assert_allclose(disp.lines_[j].get_xdata(), fpr)
        np.testing.assert_allclose(disp.lines_[j].get_ydata(), tpr)
        dfp = np.mean(offsets[:, 0] + 1 - offsets[:, 1])
        assert axes.get_title() == f"{j}: DFP = {dfp:.3f}"
        np.testing.assert_allclose(disp.argmax_markers_[j].get_xydata()[0], _class_rates(y, scores.argmax(1), j))


def test_roc_cloud_overlay_and_panel_axes():
    y, scores = _data(4, seed=10)
    disp = RocCloudDisplay.from_predictions(y, scores, resolution=5, layout="overlay")
    assert disp.ax_ is disp.axes_[0] and all(axes is disp.ax_ for axes in disp.axes_)
    legend = [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    assert legend[0] == f"0: DFP = {disp.cloud.dfp[0]:.3f}"
    assert f"{disp.cloud.dfp_overall:.3f}" in disp.ax_.get_title()
    for j, scatter in enumerate(disp.scatters_):
        np.testing.assert_allclose(scatter.get_facecolor()[0][:3], TAB10[j])
    panels = RocCloudDisplay.from_result(disp.cloud, ncols=3)
    assert len(panels.figure_.axes) == 4  # 2 x 3 grid, the two spare panels removed
    _, axes = plt.subplots(2, 2)
    assert list(RocCloudDisplay.from_result(disp.cloud, ax=axes).ax_) == list(axes.ravel())
    with pytest.raises(ValueError, match="one Axes per class"):
        RocCloudDisplay.from_result(disp.cloud, ax=axes[0])
    with pytest.raises(ValueError, match="layout"):
        RocCloudDisplay.from_result(disp.cloud, layout="grid")


# --------------------------------------------------------------------------- simplex heat map


def test_simplex_to_cartesian_vertices_and_shift_invariance():
    np.testing.assert_allclose(simplex_to_cartesian(np.eye(3)), VERTICES, atol=1e-15)
    tau = np.array([0.2, 0.5, 0.3])
    np.testing.assert_allclose(simplex_to_cartesian(tau + 0.7), _cartesian(tau))
    with pytest.raises(ValueError, match="3 coordinates"):
        simplex_to_cartesian([0.5, 0.5])


def test_heatmap_vertices_values_and_markers():
    y, scores = _data(3, seed=11)
    result = tune_thresholds(y, scores, metric="f1_macro", resolution=24, return_surface=True)
    disp = SimplexHeatmapDisplay.from_result(result)
    triangulation = disp.triangulation_
    assert triangulation.x.size == result.thresholds.shape[0]
    np.testing.assert_allclose(np.column_stack([triangulation.x, triangulation.y]), _cartesian(result.thresholds))
    values = np.asarray(disp.collection_.get_array())
    np.testing.assert_array_equal(values, result.scores)
    star = disp.best_marker_.get_xydata()[0]
    np.testing.assert_allclose(star, _cartesian(result.best_threshold))
    # the maximum of the drawn surface is at the star, and equals the tuned score
    at_star = np.flatnonzero(np.all(np.isclose(np.column_stack([triangulation.x, triangulation.y]), star), axis=1))
    assert values.max() == pytest.approx(result.best_score)
    assert values[at_star].max() == pytest.approx(values.max())
    # a surface value, re-derived with sklearn at the tuned threshold
    assert skm.f1_score(y, predict(scores, result.best_threshold), average="macro") == pytest.approx(values.max())
    np.testing.assert_allclose(disp.argmax_marker_.get_xydata()[0], [0.5, np.sqrt(3) / 6])
    assert disp.colorbar_.ax.get_ylabel() == "f1_macro"
    assert [text.get_text() for text in disp.ax_.texts] == ["0", "1", "2"]


def test_heatmap_masks_undefined_scores():
    y, scores = _data(3, n_samples=40, seed=12)

    def picky(counts):
        correct = counts[..., 0, 0].astype(float)
        return np.where(correct > 5, correct, np.nan)

    with pytest.warns(UndefinedMetricWarning, match="picky"):
        result = tune_thresholds(y, scores, metric=picky, resolution=10, return_surface=True)
    assert np.isnan(result.scores).any()
    disp = SimplexHeatmapDisplay.from_result(result)
    mask = disp.triangulation_.mask
    triangles = disp.triangulation_.triangles
    np.testing.assert_array_equal(mask, np.isnan(result.scores)[triangles].any(axis=1))


def test_heatmap_refuses_other_than_three_classes_and_a_missing_surface():
    y, scores = _data(4, n_samples=30, seed=13)
    with pytest.raises(ValueError, match="exactly 3 classes, got 4 classes"):
        SimplexHeatmapDisplay.from_predictions(y, scores)
    with pytest.raises(ValueError, match="exactly 3 classes, got 4"):
        SimplexHeatmapDisplay.from_result(tune_thresholds(y, scores, resolution=4, return_surface=True))
    y, scores = _data(3, n_samples=30, seed=13)
    with pytest.raises(ValueError, match="return_surface=True"):
        SimplexHeatmapDisplay.from_result(tune_thresholds(y, scores, resolution=4))


def test_heatmap_from_predictions_on_given_axes():
    y, scores = _data(3, n_samples=40, seed=14)
    _, ax = plt.subplots()
    disp = SimplexHeatmapDisplay.from_predictions(
        y, scores, search="random", n_samples=300, random_state=0, ax=ax, colorbar=False, shading="flat"
    )
    assert disp.ax_ is ax and disp.colorbar_ is None
    assert disp.triangulation_.x.size == 301  # the random sample and the barycentre


# --------------------------------------------------------------------------- decision regions


def _region_at(disp, point):
    """Index of the single drawn region containing a Cartesian point."""
    inside = [
        k
        for k, region in enumerate(disp.regions_)
        if region is not None and Path(region.get_xy()).contains_point(point)
    ]
    assert len(inside) == 1, inside
    return inside[0]


@pytest.mark.parametrize("tau", [[1 / 3, 1 / 3, 1 / 3], [0.5, 0.2, 0.3], [0.05, 0.15, 0.8]])
def test_decision_regions_match_predict(tau):
    y, scores = _data(3, seed=15)
    disp = DecisionRegionsDisplay.from_predictions(y, scores, threshold=tau)
    probes = np.random.default_rng(15).dirichlet(np.ones(3), 200)
    predicted = predict(probes, tau)
    for point, expected in zip(_cartesian(probes), predicted):
        k = _region_at(disp, point)
        assert k == expected
        assert disp.regions_[k].get_facecolor()[:3] == TAB10[expected]
    np.testing.assert_allclose(disp.threshold_marker_.get_xydata()[0], _cartesian(tau))
    for k in range(3):
        np.testing.assert_allclose(disp.scatters_[k].get_offsets(), _cartesian(scores[y == k]))


def test_decision_regions_known_points_and_result():
    disp = DecisionRegionsDisplay.from_predictions([0, 1, 2], np.eye(3))
    assert [_region_at(disp, _cartesian(p)) for p in [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.1, 0.1, 0.8]]] == [0, 1, 2]
    y, scores = _data(3, seed=16)
    result = tune_thresholds(y, scores, resolution=12)
    disp = DecisionRegionsDisplay.from_result(result, y, scores)
    np.testing.assert_allclose(disp.threshold, result.best_threshold)
    points = _cartesian(scores)
    assert [_region_at(disp, point) for point in points] == result.predict(scores).tolist()


def test_decision_regions_refuse_other_than_three_classes():
    y, scores = _data(4, n_samples=20, seed=17)
    with pytest.raises(ValueError, match="exactly 3 classes, got 4"):
        DecisionRegionsDisplay.from_predictions(y, scores)
    with pytest.raises(ValueError, match="exactly 3 classes, got 2"):
        DecisionRegionsDisplay.from_predictions([0, 1], [[0.6, 0.4], [0.3, 0.7]])


# --------------------------------------------------------------------------- simplex layout: legends and labels

#: Class names as long as real ones, for the vertex labels and the legend entries.
WINDOWS = np.array(["building windows float", "non-float", "vehicle windows"])
SHORT_WINDOWS = np.array(["float", "non-float", "vehicle windows"])


def _top_vertex_result(names=WINDOWS):
    """An accuracy surface whose τ* = (0, 0.1, 0.9) is next to the top vertex (class 2 given up)."""
    rng = np.random.default_rng(0)
    y = np.r_[np.zeros(40, int), np.ones(40, int), 2, 2]
    scores = rng.dirichlet([1, 1, 1], y.size) * 0.5 + 0.5 * np.eye(3)[y]
    scores[:10] = rng.dirichlet([0.3, 0.3, 6], 10)  # class-0 samples that look like class 2
    result = tune_thresholds(names[y], scores, metric="accuracy", labels=names, resolution=30, return_surface=True)
    np.testing.assert_allclose(result.best_threshold, [0.0, 0.1, 0.9], atol=1e-12)
    return result, names[y], scores


def _simplex_figure(kind, layout, names):
    """A simplex display drawn on the default figure, a constrained figure of a given size, or the report's layout."""
    from matplotlib.figure import Figure

    result, y, scores = _top_vertex_result(names)
    draw = {
        "heatmap": lambda ax: SimplexHeatmapDisplay.from_result(result, ax=ax),
        "regions": lambda ax: DecisionRegionsDisplay.from_result(result, y, scores, ax=ax),
    }[kind]
    if layout == "default":
        return draw(None)
    if layout == "report":  # the report's tuning figure: both displays side by side on a pyplot-free Figure
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        figure = Figure(figsize=(10, 4.6), layout="constrained")
        FigureCanvasAgg(figure)  # what savefig to PNG draws with
        axes = figure.subplots(ncols=2)
        displays = {"heatmap": SimplexHeatmapDisplay.from_result(result, ax=axes[0])}
        displays["regions"] = DecisionRegionsDisplay.from_result(result, y, scores, ax=axes[1])
        return displays[kind]
    _, ax = plt.subplots(figsize=layout, layout="constrained")
    return draw(ax)


def _inside(extent, bbox):
    return (
        bbox.x0 - 0.5 <= extent.x0
        and extent.x1 <= bbox.x1 + 0.5
        and bbox.y0 - 0.5 <= extent.y0
        and extent.y1 <= bbox.y1 + 0.5
    )


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["default", (6.4, 4.8), (7.2, 4.8), (5.5, 4.0), (9.0, 3.5), (4.5, 6.0), "report"])
@pytest.mark.parametrize("kind", ["heatmap", "regions"])
@pytest.mark.parametrize("names", [WINDOWS, SHORT_WINDOWS], ids=["long", "short"])
def test_simplex_legend_and_vertex_labels_stay_in_the_figure_clear_of_the_triangle(kind, layout, names):
    disp = _simplex_figure(kind, layout, names)
    figure, ax = disp.figure_, disp.ax_
    figure.canvas.draw()  # once, as savefig does
    renderer = figure.canvas.get_renderer()
    legend = ax.get_legend().get_window_extent(renderer)
    assert _inside(legend, figure.bbox), (legend, figure.bbox)
    labels = [text.get_window_extent(renderer) for text in ax.texts]
    assert [text.get_text() for text in ax.texts] == names.tolist()
    for text, extent in zip(ax.texts, labels):
        assert _inside(extent, figure.bbox), (text.get_text(), extent, figure.bbox)
        assert not legend.overlaps(extent), text.get_text()
    triangle = Path(ax.transData.transform(np.vstack([VERTICES, VERTICES[:1]])), closed=True)
    assert not triangle.intersects_bbox(legend, filled=True)
    markers = [disp.best_marker_, disp.argmax_marker_] if kind == "heatmap" else [disp.threshold_marker_]
    for marker in markers:
        x, y = ax.transData.transform(marker.get_xydata())[0]
        radius = marker.get_markersize() / 2 * figure.dpi / 72
        assert not legend.overlaps(
            matplotlib.transforms.Bbox.from_extents(x - radius, y - radius, x + radius, y + radius)
        )


def test_heatmap_legend_clears_a_surface_beyond_the_triangle():
    y, scores = _data(3, n_samples=60, seed=21)
    disp = SimplexHeatmapDisplay.from_predictions(y, scores, domain="box", resolution=8)
    disp.figure_.canvas.draw()
    legend = disp.ax_.get_legend().get_window_extent()
    points = disp.ax_.transData.transform(np.column_stack([disp.triangulation_.x, disp.triangulation_.y]))
    assert points[:, 1].min() < disp.ax_.transData.transform([0.5, 0.0])[1]  # the surface reaches below the base
    assert legend.y1 < points[:, 1].min() and _inside(legend, disp.figure_.bbox)


@pytest.mark.parametrize("kind", ["heatmap", "regions"])
def test_simplex_legend_kw_is_passed_and_a_placement_replaces_the_default(kind):
    result, y, scores = _top_vertex_result()
    draw = {
        "heatmap": lambda **kw: SimplexHeatmapDisplay.from_result(result, **kw),
        "regions": lambda **kw: DecisionRegionsDisplay.from_result(result, y, scores, **kw),
    }[kind]
    default = draw()
    default.figure_.canvas.draw()
    box, legend = default.ax_.get_window_extent(), default.ax_.get_legend().get_window_extent()
    assert legend.y1 < box.y0 if kind == "heatmap" else legend.x0 >= box.x1  # below / right of the Axes box
    # options other than the placement keep it
    styled = draw(legend_kw={"title": "markers", "fontsize": 6, "frameon": False})
    styled.figure_.canvas.draw()
    styled_legend = styled.ax_.get_legend()
    assert styled_legend.get_title().get_text() == "markers"
    assert {text.get_fontsize() for text in styled_legend.get_texts()} == {6.0}
    assert not styled_legend.get_frame_on()
    box, extent = styled.ax_.get_window_extent(), styled_legend.get_window_extent()
    assert extent.y1 < box.y0 if kind == "heatmap" else extent.x0 >= box.x1
    # a loc replaces the default placement (and the heat map's two columns): in that corner of the Axes box
    placed = draw(legend_kw={"loc": "lower right"})
    placed.figure_.canvas.draw()
    box, extent = placed.ax_.get_window_extent(), placed.ax_.get_legend().get_window_extent()
    assert box.x1 - 20 < extent.x1 <= box.x1 and box.y0 <= extent.y0 < box.y0 + 20
    entries = [text.get_window_extent() for text in placed.ax_.get_legend().get_texts()]
    assert len({round(entry.y0) for entry in entries}) == len(entries)  # one column
    # an explicit anchor is honoured too
    anchored = draw(legend_kw={"loc": "center", "bbox_to_anchor": (0.5, 0.5)})
    anchored.figure_.canvas.draw()
    box, extent = anchored.ax_.get_window_extent(), anchored.ax_.get_legend().get_window_extent()
    np.testing.assert_allclose(
        [(extent.x0 + extent.x1) / 2, (extent.y0 + extent.y1) / 2],
        [(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2],
        atol=1,
    )


@pytest.mark.parametrize("legend_kw", [[("loc", "upper left")], "upper left", 3])
def test_simplex_bad_legend_kw_raises_a_type_error_naming_it(legend_kw):
    y, scores = _data(3, n_samples=30, seed=22)
    result = tune_thresholds(y, scores, resolution=4, return_surface=True)
    n_figures = len(plt.get_fignums())
    with pytest.raises(TypeError, match="legend_kw must be a dict of keyword arguments or None"):
        SimplexHeatmapDisplay.from_result(result, legend_kw=legend_kw)
    with pytest.raises(TypeError, match="legend_kw must be a dict"):
        DecisionRegionsDisplay.from_predictions(y, scores, legend_kw=legend_kw)
    assert len(plt.get_fignums()) == n_figures  # refused before any figure is made


def test_simplex_displays_draw_on_axes_sharing_both_x_and_y():
    y, scores = _data(3, n_samples=30, seed=23)
    fig, axes = plt.subplots(1, 2, sharex=True, sharey=True, layout="constrained")
    DecisionRegionsDisplay.from_predictions(y, scores, ax=axes[0])
    SimplexHeatmapDisplay.from_predictions(y, scores, resolution=4, ax=axes[1], colorbar=False)
    fig.canvas.draw()  # an equal aspect that adjusts the data limits is not allowed here; the box is
    assert [ax.get_adjustable() for ax in axes] == ["box", "box"]


# --------------------------------------------------------------------------- tuning profile


def test_profile_maximum_is_at_a_coordinate_optimum_and_values_match_sklearn():
    y, scores = _data(5, n_samples=150, seed=18)
    result = tune_thresholds(y, scores, metric="f1_macro", search="coordinate", resolution=6)
    profile = coordinate_profile(y, scores, result.best_threshold, metric="f1_macro")
    disp = TuningProfileDisplay.from_result(profile)
    tau = result.best_threshold
    tuned = skm.f1_score(y, predict(scores, tau), average="macro")
    np.testing.assert_allclose(disp.best_marker_.get_xydata()[0], [0.0, tuned])
    argmax = skm.f1_score(y, scores.argmax(1), average="macro")
    np.testing.assert_allclose(disp.argmax_line_.get_ydata(), [argmax, argmax])
    rng = np.random.default_rng(18)
    for j, line in enumerate(disp.lines_):
        values, edges, _ = line.get_data()
        np.testing.assert_array_equal(values, profile.values[j])
        np.testing.assert_array_equal(edges, profile.edges[j])
        assert values.max() <= tuned + 1e-12  # no single coordinate move improves τ*
        assert values[np.searchsorted(edges, 0.0) - 1] == pytest.approx(tuned)
        for segment in rng.choice(values.size, 8, replace=False):
            moved = tau.copy()
            moved[j] += (edges[segment] + edges[segment + 1]) / 2
            expected = skm.f1_score(y, predict(scores, moved), average="macro")
            assert values[segment] == pytest.approx(expected)
            recentred = moved - (moved.sum() - 1) / moved.size
            assert recentred.min() >= -1e-9  # the line stays on the simplex once re-centred


def test_profile_from_predictions_threshold_axes_and_errors():
    y, scores = _data(4, n_samples=80, seed=19)
    _, ax = plt.subplots()
    disp = TuningProfileDisplay.from_predictions(y, scores, ax=ax, name="model")
    assert disp.ax_ is ax and len(disp.lines_) == 4
    assert disp.ax_.get_ylabel() == "f1_macro" and disp.ax_.get_title().startswith("model: ")  # the default metric
    tau = np.array([0.1, 0.2, 0.3, 0.4])
    disp = TuningProfileDisplay.from_predictions(
        y, scores, threshold=tau, metric="balanced_accuracy", plot_argmax=False
    )
    expected = skm.balanced_accuracy_score(y, predict(scores, tau))
    assert disp.best_marker_.get_xydata()[0, 1] == pytest.approx(expected)
    assert disp.argmax_line_ is None
    legend = [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    assert legend[:4] == [f"τ_{j} (τ* = {value:.3f})" for j, value in enumerate(tau)]
    with pytest.raises(ValueError, match="simplex"):
        TuningProfileDisplay.from_predictions(y, scores, threshold=[0.5, 0.5, 0.5, 0.5])
    with pytest.raises(TypeError, match=r"CoordinateProfile; result is a TuningResult; for the τ\*"):
        TuningProfileDisplay.from_result(tune_thresholds(y, scores, resolution=4))


def test_result_plot_methods_delegate_to_the_displays():
    from polyroc.thresholds import roc_cloud, tune_thresholds

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 90)
    P = rng.dirichlet(np.ones(3), 90)
    cloud = roc_cloud(y, P, resolution=6)
    display = cloud.plot()
    offsets = display.axes_[0].collections[0].get_offsets()
    np.testing.assert_allclose(np.asarray(offsets), np.column_stack([cloud.fpr[:, 0], cloud.tpr[:, 0]]))
    result = tune_thresholds(y, P, resolution=6, return_surface=True)
    heatmap = result.plot()
    assert type(heatmap).__name__ == "SimplexHeatmapDisplay" and heatmap.ax_ is not None
    regions = tune_thresholds(y, P, resolution=6).plot()  # without the surface: the regions of τ*
    assert type(regions).__name__ == "DecisionRegionsDisplay"
    plt.close("all")


def test_profile_upper_envelope_takes_the_best_score_of_the_steps_in_each_bin():
    from polyroc.plotting._profile import upper_envelope

    rng = np.random.default_rng(0)
    for _ in range(100):
        n_steps = int(rng.integers(5, 60))
        edges = np.sort(rng.uniform(-1, 1, n_steps + 1))
        values = rng.normal(size=n_steps)
        max_steps = int(rng.integers(1, 5))
        envelope, grid = upper_envelope(values, edges, max_steps=max_steps)
        assert grid[0] == edges[0] and grid[-1] == edges[-1] and envelope.size == max_steps
        for b in range(max_steps):  # brute force: every step overlapping the bin
            overlapping = [values[i] for i in range(n_steps) if edges[i] < grid[b + 1] and edges[i + 1] > grid[b]]
            assert envelope[b] == max(overlapping)
    few = np.array([0.2, 0.5])
    assert np.array_equal(upper_envelope(few, np.array([0.0, 1.0, 2.0]))[0], few)
