"""The Display API shared by every display: constructors, axes, names, colours, errors; ROC-DMF and Gini displays."""

import warnings

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from sklearn import metrics as skm
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression

from polyroc.curves import ovr_precision_recall_curve, ovr_roc_curve
from polyroc.dmf import roc_dmf
from polyroc.gini import gini_roc
from polyroc.plotting import (
    ConfusionMatrixDisplay,
    DecisionRegionsDisplay,
    Display,
    DmfRocDisplay,
    GiniRocDisplay,
    PrecisionRecallDisplay,
    RocCloudDisplay,
    RocCurveDisplay,
    SimplexHeatmapDisplay,
    TuningProfileDisplay,
    class_colors,
)
from polyroc.thresholds import coordinate_profile, roc_cloud, tune_thresholds


@pytest.fixture(autouse=True)
def _close_figures(monkeypatch):
    def refuse_show(*args, **kwargs):
        raise AssertionError("plotting code must never call plt.show()")

    monkeypatch.setattr(plt, "show", refuse_show)
    yield
    plt.close("all")


def _data(n_classes=3, n_samples=90, seed=0, strength=0.8, simplex=True):
    """Labels and scores that rank them fairly well (rows on the simplex unless ``simplex=False``)."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(n_classes), n_samples // n_classes)
    scores = rng.dirichlet(np.ones(n_classes), y.size) + strength * np.eye(n_classes)[y]
    return y, scores / scores.sum(axis=1, keepdims=True) if simplex else scores


def _quiet(function, *args, **kwargs):
    """Call ``function`` with warnings silenced (Gini whitening of probability rows warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _legend(ax):
    return [text.get_text() for text in ax.get_legend().get_texts()]


# One builder per display: from_predictions on (y, scores), with the options that keep it fast.
FROM_PREDICTIONS = {
    "roc": lambda y, P, **kw: RocCurveDisplay.from_predictions(y, P, **kw),
    "pr": lambda y, P, **kw: PrecisionRecallDisplay.from_predictions(y, P, **kw),
    "cloud": lambda y, P, **kw: RocCloudDisplay.from_predictions(y, P, resolution=8, layout="overlay", **kw),
    "heatmap": lambda y, P, **kw: SimplexHeatmapDisplay.from_predictions(y, P, resolution=8, **kw),
    "regions": lambda y, P, **kw: DecisionRegionsDisplay.from_predictions(y, P, **kw),
    "profile": lambda y, P, **kw: TuningProfileDisplay.from_predictions(y, P, **kw),
    "dmf": lambda y, P, **kw: DmfRocDisplay.from_predictions(y, P, n_levels=19, **kw),
    "gini": lambda y, P, **kw: _quiet(GiniRocDisplay.from_predictions, y, P, n_boot=0, **kw),
    "confusion": lambda y, P, **kw: ConfusionMatrixDisplay.from_predictions(y, np.argmax(P, axis=1), **kw),
}

# One result per display, and the display that draws it.
RESULTS = {
    "roc": (RocCurveDisplay, lambda y, P: ovr_roc_curve(y, P)),
    "pr": (PrecisionRecallDisplay, lambda y, P: ovr_precision_recall_curve(y, P)),
    "cloud": (RocCloudDisplay, lambda y, P: roc_cloud(y, P, resolution=8)),
    "heatmap": (SimplexHeatmapDisplay, lambda y, P: tune_thresholds(y, P, resolution=8, return_surface=True)),
    "regions": (DecisionRegionsDisplay, lambda y, P: tune_thresholds(y, P, resolution=8)),
    "profile": (TuningProfileDisplay, lambda y, P: coordinate_profile(y, P)),
    "dmf": (DmfRocDisplay, lambda y, P: roc_dmf(y, P, n_levels=19)),
    "gini": (GiniRocDisplay, lambda y, P: _quiet(gini_roc, y, P, n_boot=0)),
}


# --------------------------------------------------------------------------- the shared API


@pytest.mark.parametrize("kind", sorted(FROM_PREDICTIONS))
def test_from_predictions_draws_on_the_given_axes_and_returns_the_display(kind):
    y, P = _data()
    _, ax = plt.subplots()
    display = FROM_PREDICTIONS[kind](y, P, ax=ax, name="model")
    assert isinstance(display, Display)
    assert display.ax_ is ax and display.figure_ is ax.figure
    assert display.name == "model"
    assert ax.get_children()  # something was drawn
    assert "model" in ax.get_title() + " ".join(_legend(ax) if ax.get_legend() else [])
    fresh = FROM_PREDICTIONS[kind](y, P)
    assert fresh.ax_ is not ax and fresh.figure_ is fresh.ax_.figure


@pytest.mark.parametrize("kind", sorted(RESULTS))
def test_from_result_draws_the_result_and_rejects_another_type(kind):
    y, P = _data()
    display_class, compute = RESULTS[kind]
    result = compute(y, P)
    _, ax = plt.subplots()
    display = display_class.from_result(result, ax=ax)
    assert type(display) is display_class and display.ax_ is ax
    if hasattr(result, "plot") and kind != "regions":  # a TuningResult plots its heat map
        assert type(result.plot(ax=ax)) is display_class
    wrong = ovr_precision_recall_curve(y, P) if kind == "roc" else ovr_roc_curve(y, P)
    with pytest.raises(TypeError, match="result"):
        display_class.from_result(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(FROM_PREDICTIONS))
def test_from_estimator_uses_the_fitted_model_and_its_name(kind):
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    builder = {
        "cloud": lambda: RocCloudDisplay.from_estimator(model, X[1::2], y[1::2], resolution=8, layout="overlay"),
        "heatmap": lambda: SimplexHeatmapDisplay.from_estimator(model, X[1::2], y[1::2], resolution=8),
        "dmf": lambda: DmfRocDisplay.from_estimator(model, X[1::2], y[1::2], n_levels=19),
        "gini": lambda: _quiet(GiniRocDisplay.from_estimator, model, X[1::2], y[1::2], n_boot=0),
    }
    display_class = type(FROM_PREDICTIONS[kind](*_data()))
    display = builder[kind]() if kind in builder else display_class.from_estimator(model, X[1::2], y[1::2])
    assert type(display) is display_class and display.name == "LogisticRegression"
    texts = display.ax_.get_title() + " ".join(_legend(display.ax_) if display.ax_.get_legend() else [])
    assert "LogisticRegression" in texts


def test_from_estimator_draws_the_estimators_scores():
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    X_test, y_test = X[1::2], y[1::2]
    roc = RocCurveDisplay.from_estimator(model, X_test, y_test)
    scores = model.predict_proba(X_test)
    for k, line in enumerate(roc.lines_):
        fpr, tpr, _ = skm.roc_curve(y_test == k, scores[:, k])
        np.testing.assert_allclose(line.get_xdata(), fpr)
        np.testing.assert_allclose(line.get_ydata(), tpr)
    confusion = ConfusionMatrixDisplay.from_estimator(model, X_test, y_test)
    np.testing.assert_array_equal(confusion.im_.get_array(), skm.confusion_matrix(y_test, model.predict(X_test)))
    assert confusion.ax_.get_title() == "Confusion matrix (LogisticRegression)"


def test_bad_arguments_raise_clear_errors():
    y, P = _data()
    curves = ovr_roc_curve(y, P)
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        RocCurveDisplay.from_result(curves, ax="left")
    with pytest.raises(TypeError, match="name must be a string"):
        RocCurveDisplay.from_result(curves, name=3)
    with pytest.raises(ValueError, match=r"curve_kwargs .* one dict per curve \(3\), got a list of 2"):
        RocCurveDisplay.from_result(curves, curve_kwargs=[{}, {}])
    with pytest.raises(TypeError, match="curve_kwargs must be a dict"):
        RocCurveDisplay.from_result(curves, curve_kwargs="red")
    with pytest.raises(TypeError, match=r"curve_kwargs\[1\] must be a dict"):
        RocCurveDisplay.from_result(curves, curve_kwargs=[{}, "red", {}])
    with pytest.raises(TypeError, match="chance_level_kw"):
        DmfRocDisplay.from_result(roc_dmf(y, P, n_levels=9), chance_level_kw=["grey"])
    with pytest.raises(TypeError, match="predict_proba"):
        RocCurveDisplay.from_estimator(object(), np.zeros((3, 2)), [0, 1, 2])
    with pytest.raises(TypeError, match="predict"):
        ConfusionMatrixDisplay.from_estimator(object(), np.zeros((3, 2)), [0, 1, 2])
    with pytest.raises(TypeError, match="predict and classes"):
        ConfusionMatrixDisplay.from_result(curves, y, P)
    with pytest.raises(ValueError, match="square"):
        ConfusionMatrixDisplay(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="both y_true and y_score"):
        DecisionRegionsDisplay.from_result(tune_thresholds(y, P, resolution=6), y)
    with pytest.raises(ValueError, match="ncols must be >= 1, got 0"):
        RocCloudDisplay.from_result(roc_cloud(y, P, resolution=4), ncols=0)
    with pytest.raises(ValueError, match="layout"):
        RocCloudDisplay.from_result(roc_cloud(y, P, resolution=4), layout="grid")
    with pytest.raises(TypeError, match="unexpected keyword"):
        RocCurveDisplay.from_result(curves, chance_level=False)  # the old name is gone
    with pytest.raises(ValueError, match="y_score has 3 columns"):
        DmfRocDisplay.from_predictions(y[:60], P[:60])  # two classes in y_true, three columns


def test_a_failed_check_draws_nothing():
    y, P = _data()
    _, ax = plt.subplots()
    with pytest.raises(ValueError):
        RocCurveDisplay.from_result(ovr_roc_curve(y, P), ax=ax, curve_kwargs=[{}])
    assert not ax.lines and not ax.collections


# --------------------------------------------------------------------------- colours and styles


def _cielab(colors):
    """CIELAB (D65) of colours, by the sRGB (IEC 61966-2-1) and CIE 1976 formulas."""
    rgb = np.array([to_rgb(color) for color in colors])
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = linear @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz /= [0.95047, 1.0, 1.08883]
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.column_stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])])


def test_class_colors_are_tab10_then_colours_far_apart_in_cielab():
    tab10 = [to_rgb(color) for color in matplotlib.colormaps["tab10"].colors]
    np.testing.assert_allclose([to_rgb(color) for color in class_colors(10)], tab10, atol=1 / 255)
    colors = class_colors(30)
    assert colors[:20] == class_colors(20)  # a class keeps its colour when classes are added
    lab = _cielab(colors)
    distance = np.linalg.norm(lab[:, None] - lab[None], axis=-1)[np.triu_indices(30, 1)]
    assert distance.min() > 20  # CIE76 ΔE; about 2.3 is a just-noticeable difference
    lightness = lab[10:, 0]
    assert lightness.min() >= 30 and lightness.max() <= 85  # visible on a white page
    assert len(set(class_colors(60))) == 60
    with pytest.raises(ValueError, match="n_classes"):
        class_colors(0)


def test_many_classes_get_distinct_colours_in_every_display():
    y, P = _data(n_classes=15, n_samples=450, seed=3, strength=2.0)
    roc = RocCurveDisplay.from_predictions(y, P)
    assert len({to_rgb(line.get_color()) for line in roc.lines_}) == 15
    pr = PrecisionRecallDisplay.from_predictions(y, P)
    assert [to_rgb(line.get_color()) for line in pr.lines_] == [to_rgb(line.get_color()) for line in roc.lines_]
    gini = _quiet(GiniRocDisplay.from_predictions, y, P, n_boot=0)
    assert len({to_rgb(line.get_color()) for line in gini.class_lines_}) == 15


def test_curve_kwargs_one_for_all_or_one_per_class():
    y, P = _data()
    disp = RocCurveDisplay.from_predictions(y, P, curve_kwargs={"linestyle": ":", "linewidth": 3})
    assert all(line.get_linestyle() == ":" and line.get_linewidth() == 3 for line in disp.lines_)
    disp = RocCurveDisplay.from_predictions(y, P, curve_kwargs=[{"color": "red"}, {}, {"label": "third"}])
    assert to_rgb(disp.lines_[0].get_color()) == (1.0, 0.0, 0.0)
    assert to_rgb(disp.lines_[1].get_color()) == to_rgb(matplotlib.colormaps["tab10"].colors[1])
    assert disp.lines_[2].get_label() == "third"


def test_chance_line_is_drawn_once_per_axes_and_can_be_styled_or_left_out():
    y, P = _data()
    _, ax = plt.subplots()
    first = RocCurveDisplay.from_predictions(y, P, ax=ax, show_classes=False, micro=False)
    second = DmfRocDisplay.from_predictions(y, P, n_levels=9, ax=ax)
    assert first.chance_level_ is second.chance_level_
    assert sum(np.array_equal(line.get_xydata(), [[0, 0], [1, 1]]) for line in ax.get_lines()) == 1
    styled = RocCurveDisplay.from_predictions(y, P, chance_level_kw={"color": "red", "linestyle": ":"})
    assert to_rgb(styled.chance_level_.get_color()) == (1.0, 0.0, 0.0)
    assert styled.chance_level_.get_linestyle() == ":"
    none = PrecisionRecallDisplay.from_predictions(y, P, plot_chance_level=False)
    assert none.chance_levels_ == [None, None, None]


@pytest.mark.slow
def test_importing_the_displays_does_not_import_pyplot():
    import subprocess
    import sys

    code = (
        "import sys, polyroc.plotting; import polyroc.plotting._gini, polyroc.plotting._dmf; "
        "assert 'matplotlib.pyplot' not in sys.modules"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --------------------------------------------------------------------------- ROC-DMF


def _trapezoid(x, y):
    """Area by trapezoids in the drawn order (the definition of D)."""
    x, y = np.asarray(x), np.asarray(y)
    return float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2))


def test_dmf_display_draws_the_curve_its_endpoints_and_labels_d():
    y, P = _data(n_classes=4, n_samples=160, seed=5)
    result = roc_dmf(y, P, n_levels=29)
    disp = DmfRocDisplay.from_result(result, name="model")
    x, t = disp.line_.get_xdata(), disp.line_.get_ydata()
    np.testing.assert_array_equal(x, np.r_[0.0, result.fpr, 1.0])
    np.testing.assert_array_equal(t, np.r_[0.0, result.tpr, 1.0])
    area = _trapezoid(x, t)
    assert area == pytest.approx(result.D, abs=1e-12)
    assert disp.line_.get_label() == f"model ROC-DMF (D = {area:.3f})"
    assert disp.band_ is None
    assert disp.ax_.get_xlim() == (0, 1)


def test_dmf_display_binary_case_draws_the_binary_roc():
    y, P = _data(n_classes=2, n_samples=200, seed=6, strength=0.6)
    disp = DmfRocDisplay.from_predictions(y, P, n_levels=199)
    auc = skm.roc_auc_score(y, P[:, 1])
    assert _trapezoid(disp.line_.get_xdata(), disp.line_.get_ydata()) == pytest.approx(auc, abs=0.005)


def test_dmf_display_band_follows_the_curve_colour_and_can_be_hidden():
    y, P = _data(seed=7)
    result = roc_dmf(y, P, n_levels=19, bootstrap="stratified", n_boot=25, random_state=0)
    _, ax = plt.subplots()
    disp = DmfRocDisplay.from_result(result, ax=ax, curve_kwargs={"color": "purple", "linestyle": "-."})
    assert disp.line_.get_linestyle() == "-." and to_rgb(disp.line_.get_color()) == to_rgb("purple")
    np.testing.assert_allclose(disp.band_.get_facecolor()[0][:3], to_rgb("purple"))
    vertices = disp.band_.get_paths()[0].vertices
    boot = result.bootstrap
    for x, low, high in zip(boot.band_fpr, boot.band_low, boot.band_high):
        at_x = vertices[np.isclose(vertices[:, 0], x), 1]
        assert at_x.min() == pytest.approx(low) and at_x.max() == pytest.approx(high)
    assert disp.band_.get_label() == "95% stratified bootstrap band"
    hidden = DmfRocDisplay.from_result(result, plot_band=False, plot_chance_level=False)
    assert hidden.band_ is None and hidden.chance_level_ is None and len(hidden.ax_.get_lines()) == 1


def test_dmf_result_plot_returns_the_display():
    y, P = _data(seed=8)
    result = roc_dmf(y, P, n_levels=9)
    _, ax = plt.subplots()
    disp = result.plot(ax=ax, name="m", curve_kwargs={"color": "C3"})
    assert isinstance(disp, DmfRocDisplay) and disp.ax_ is ax
    assert disp.line_.get_label().startswith("m ROC-DMF")


# --------------------------------------------------------------------------- Gini-weighted ROC


def test_gini_display_draws_the_aggregate_class_curves_and_dispersion():
    y, P = _data(n_classes=4, n_samples=160, seed=9, simplex=False)
    result = _quiet(gini_roc, y, P, n_boot=0)
    disp = GiniRocDisplay.from_result(result, name="model")
    np.testing.assert_array_equal(disp.line_.get_xdata(), result.fpr)
    np.testing.assert_array_equal(disp.line_.get_ydata(), result.tpr)
    area = _trapezoid(result.fpr, result.tpr)
    assert disp.line_.get_label() == f"model Gini-weighted ROC (AUC = {area:.3f})"
    for k, line in enumerate(disp.class_lines_):
        fpr, tpr, _ = skm.roc_curve(y == k, P[:, k])
        np.testing.assert_allclose(line.get_xdata(), fpr)
        np.testing.assert_allclose(line.get_ydata(), tpr)
        auc = skm.roc_auc_score(y == k, P[:, k])
        assert line.get_label() == f"class {k} (w = {result.weights[k]:.3f}, AUC = {auc:.3f})"
    # vertical averaging: the aggregate's area is the weighted mean of the class AUCs
    aucs = [skm.roc_auc_score(y == k, P[:, k]) for k in range(4)]
    assert area == pytest.approx(float(np.dot(result.weights, aucs)), abs=1e-9)
    vertices = disp.dispersion_.get_paths()[0].vertices
    inside = (result.fpr > 0) & (result.fpr < 1) & np.append(np.diff(result.fpr) > 0, False)
    inside &= np.insert(np.diff(result.fpr) > 0, 0, False)  # single-valued there
    for x, t, spread in zip(result.fpr[inside], result.tpr[inside], result.dispersion[inside]):
        at_x = vertices[np.isclose(vertices[:, 0], x), 1]
        assert at_x.min() == pytest.approx(max(t - spread, 0)) and at_x.max() == pytest.approx(min(t + spread, 1))
    assert disp.band_ is None and disp.reference_baseline_ is None


def test_gini_display_options_bootstrap_band_and_reference_baseline():
    y, P = _data(seed=10, simplex=False)
    result = _quiet(gini_roc, y, P, n_boot=30, random_state=0)
    disp = GiniRocDisplay.from_result(result, show_classes=False, show_dispersion=False)
    assert disp.class_lines_ == [None, None, None] and disp.dispersion_ is None
    assert disp.band_.get_label() == "95% stratified bootstrap band (B=30)"
    vertices = disp.band_.get_paths()[0].vertices
    boot = result.bootstrap
    for x, low, high in zip(boot.fpr[::10], boot.tpr_low[::10], boot.tpr_high[::10]):
        at_x = vertices[np.isclose(vertices[:, 0], x), 1]
        assert at_x.min() == pytest.approx(low) and at_x.max() == pytest.approx(high)
    reference = _quiet(gini_roc, y, P, compat="reference", n_boot=0, random_state=0)
    disp = GiniRocDisplay.from_result(reference)
    np.testing.assert_allclose(disp.reference_baseline_.get_xydata(), [[0, 0], [1, 1 / 3]])


def test_gini_result_plot_returns_the_display():
    y, P = _data(seed=11, simplex=False)
    result = _quiet(gini_roc, y, P, n_boot=0)
    _, ax = plt.subplots()
    disp = result.plot(ax=ax, show_classes=False)
    assert isinstance(disp, GiniRocDisplay) and disp.ax_ is ax


# --------------------------------------------------------------------------- simplex displays with data options


def test_decision_regions_marker_areas_follow_the_weights_and_regions_draw_without_data():
    y, P = _data(seed=12)
    weights = np.random.default_rng(12).uniform(0.0, 3.0, y.size)
    disp = DecisionRegionsDisplay.from_predictions(y, P, sample_weight=weights)
    for k, scatter in enumerate(disp.scatters_):
        np.testing.assert_allclose(scatter.get_sizes(), 18 * weights[y == k] / weights.mean())
    result = tune_thresholds(y, P, resolution=10)
    bare = DecisionRegionsDisplay.from_result(result, name="model")
    assert bare.scatters_ == [] and sum(region is not None for region in bare.regions_) == 3
    assert bare.ax_.get_title().startswith("model: ")


def test_confusion_matrix_im_and_text_keywords():
    disp = ConfusionMatrixDisplay.from_predictions(
        [0, 1, 1, 2], [0, 1, 2, 2], im_kw={"cmap": "Greys"}, text_kw={"fontsize": 7}, name="model"
    )
    assert disp.im_.get_cmap().name == "Greys"
    assert all(text.get_fontsize() == 7 for text in disp.text_.ravel())
    assert disp.ax_.get_title() == "Confusion matrix (model)"
