"""ReliabilityDisplay: the drawn points, bars, panels, legend and histograms against the curve and brute force."""

import inspect
import itertools

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from matplotlib.colors import to_rgb
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.linear_model import LogisticRegression

from polyroc.calibration import calibration_error, reliability_curve
from polyroc.curves import ovr_roc_curve
from polyroc.plotting import ReliabilityDisplay, class_colors


@pytest.fixture(autouse=True)
def _close_figures(monkeypatch):
    def refuse_show(*args, **kwargs):
        raise AssertionError("plotting code must never call plt.show()")

    monkeypatch.setattr(plt, "show", refuse_show)
    yield
    plt.close("all")


def _scores(n=400, m=4, seed=0):
    rng = np.random.default_rng(seed)
    proba = rng.dirichlet(np.ones(m), size=n)
    y = np.array([rng.choice(m, p=row) for row in proba])
    return y, proba


def _brute_top_label(y, proba, n_bins):
    """Per uniform bin of the top probability: count, mean top probability, hit frequency (plain loops)."""
    top = proba.max(axis=1)
    hit = proba.argmax(axis=1) == y
    rows = []
    for b in range(n_bins):
        low, high = b / n_bins, (b + 1) / n_bins
        inside = [i for i in range(y.size) if low <= top[i] < high or (b == n_bins - 1 and top[i] == 1.0)]
        if inside:
            rows.append((b, len(inside), np.mean(top[inside]), np.mean(hit[inside]), int(hit[inside].sum())))
    return rows


def test_points_and_bars_are_the_curves_bins_and_match_brute_force():
    y, proba = _scores()
    disp = ReliabilityDisplay.from_predictions(y, proba, n_bins=10)
    frame = reliability_curve(y, proba, n_bins=10).to_frame()
    filled = frame[frame["count"] > 0]
    np.testing.assert_allclose(disp.lines_[0].get_xdata(), filled["mean_score"])
    np.testing.assert_allclose(disp.lines_[0].get_ydata(), filled["observed"])
    segments = np.array(disp.errorbars_[0].lines[2][0].get_segments())
    np.testing.assert_allclose(segments[:, 0, 1], filled["observed_low"])
    np.testing.assert_allclose(segments[:, 1, 1], filled["observed_high"])
    brute = _brute_top_label(y, proba, 10)
    assert [row[0] for row in brute] == filled["bin"].tolist()
    np.testing.assert_allclose(disp.lines_[0].get_xdata(), [row[2] for row in brute])
    np.testing.assert_allclose(disp.lines_[0].get_ydata(), [row[3] for row in brute])
    for (_, count, _, _, hits), segment in zip(brute, segments):  # scipy's exact (Clopper-Pearson) interval
        ci = stats.binomtest(hits, count).proportion_ci(confidence_level=0.95, method="exact")
        np.testing.assert_allclose(segment[:, 1], [ci.low, ci.high], atol=1e-9)


def test_histogram_counts_the_rows_of_each_bin():
    y, proba = _scores()
    disp = ReliabilityDisplay.from_predictions(y, proba, n_bins=8)
    values, edges = disp.hists_[0].get_data()[:2]
    top = proba.max(axis=1)
    np.testing.assert_array_equal(values, np.histogram(top, bins=np.linspace(0, 1, 9))[0])
    np.testing.assert_allclose(edges, np.linspace(0, 1, 9))
    assert disp.hist_axes_[0] in disp.figure_.axes
    assert disp.hist_axes_[0] in disp.ax_.get_shared_x_axes().get_siblings(disp.ax_)


def test_empty_bins_are_skipped():
    y = np.array([0, 1, 1, 0])
    proba = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4], [0.9, 0.1]])
    # top scores 0.6 (miss), 0.7 (hit), 0.8 and 0.9 (hits): bins 0 and 1 are empty
    disp = ReliabilityDisplay.from_predictions(y, proba, n_bins=4)
    assert disp.lines_[0].get_xdata().tolist() == pytest.approx([0.65, 0.85])
    assert disp.lines_[0].get_ydata().tolist() == pytest.approx([0.5, 1.0])


def test_legend_names_the_model_the_ece_and_the_interval():
    y, proba = _scores()
    disp = ReliabilityDisplay.from_predictions(y, proba, n_bins=10, interval="wilson", confidence=0.9, name="net")
    brute = _brute_top_label(y, proba, 10)
    ece = sum(count * abs(mean - freq) for _, count, mean, freq, _ in brute) / y.size
    texts = [text.get_text() for text in disp.ax_.get_legend().get_texts()]
    assert texts == ["perfect calibration", f"net (ECE = {ece:.3f}; 90% Wilson score interval)"]


def test_classwise_draws_one_panel_per_class_in_the_class_colours():
    y, proba = _scores(m=6)
    disp = ReliabilityDisplay.from_predictions(y, proba, kind="classwise", n_bins=5, name="net")
    frame = reliability_curve(y, proba, kind="classwise", n_bins=5).to_frame()
    assert len(disp.ax_) == 6 and len(disp.figure_.axes) == 12  # 6 diagrams, 6 histograms
    assert [panel.get_title() for panel in disp.ax_] == [str(k) for k in range(6)]
    for k, (line, color) in enumerate(zip(disp.lines_, class_colors(6))):
        filled = frame[(frame["class"] == k) & (frame["count"] > 0)]
        np.testing.assert_allclose(line.get_xdata(), filled["mean_score"])
        np.testing.assert_allclose(line.get_ydata(), filled["observed"])
        assert to_rgb(line.get_color()) == to_rgb(color)
        column = proba[:, k]  # brute force: the class's rows per uniform bin
        np.testing.assert_array_equal(disp.hists_[k].get_data()[0], np.histogram(column, np.linspace(0, 1, 6))[0])
    assert disp.figure_.get_suptitle() == "net: classwise reliability diagrams"


def test_several_models_on_one_axes():
    y, proba = _scores()
    sharper = proba**3 / (proba**3).sum(axis=1, keepdims=True)
    first = ReliabilityDisplay.from_predictions(y, proba, name="raw")
    second = ReliabilityDisplay.from_predictions(y, sharper, ax=first.ax_, name="sharpened")
    assert second.ax_ is first.ax_ and second.hist_axes_[0] is first.hist_axes_[0]
    texts = [text.get_text() for text in first.ax_.get_legend().get_texts()]
    assert len(texts) == 3 and texts[1].startswith("raw (ECE") and texts[2].startswith("sharpened (ECE")
    assert first.lines_[0].get_color() != second.lines_[0].get_color()
    assert len(first.hist_axes_[0].patches) == 2 and len(first.figure_.axes) == 2
    assert sum(line.get_gid() == "polyroc-chance-level" for line in first.ax_.get_lines()) == 1


def test_several_models_on_classwise_panels_keep_the_class_colours():
    y, proba = _scores(m=3)
    first = ReliabilityDisplay.from_predictions(y, proba, kind="classwise", name="a")
    second = ReliabilityDisplay.from_predictions(
        y, proba**2 / (proba**2).sum(1, keepdims=True), kind="classwise", ax=first.ax_, name="b"
    )
    assert len(first.figure_.axes) == 6
    (legend,) = first.figure_.legends  # one figure legend, redrawn with the second model
    texts = [text.get_text() for text in legend.get_texts()]
    ece = [calibration_error(y, p, kind="classwise") for p in (proba, proba**2 / (proba**2).sum(1, keepdims=True))]
    assert texts == [
        "perfect calibration",
        f"a (mean classwise ECE = {ece[0]:.3f})\n95% Clopper-Pearson exact interval",
        f"b (mean classwise ECE = {ece[1]:.3f})\n95% Clopper-Pearson exact interval",
    ]
    assert all(panel.get_legend() is None for panel in first.ax_)
    for line_a, line_b in zip(first.lines_, second.lines_):
        assert line_a.get_color() == line_b.get_color() and line_a.get_linestyle() != line_b.get_linestyle()


def test_own_axes_get_an_inset_histogram_or_none():
    y, proba = _scores()
    fig, axes = plt.subplots(1, 2)
    disp = ReliabilityDisplay.from_predictions(y, proba, ax=axes[0])
    assert disp.hist_axes_[0] in axes[0].child_axes and disp.figure_ is fig
    bare = ReliabilityDisplay.from_predictions(y, proba, ax=axes[1], hist=False)
    assert bare.hist_axes_ == [None] and bare.hists_ == [None] and not axes[1].child_axes
    _, grid = plt.subplots(2, 2)  # no constrained layout: the classwise legend is the first panel's
    panels = ReliabilityDisplay.from_predictions(y, proba, kind="classwise", ax=grid, name="net")
    assert not panels.figure_.legends and len(panels.ax_[0].get_legend().get_texts()) == 2
    assert all(panel.get_legend() is None for panel in panels.ax_[1:])


def test_from_estimator_equals_from_predictions():
    X, y = load_iris(return_X_y=True)
    model = LogisticRegression(max_iter=500).fit(X[::2], y[::2])
    by_model = ReliabilityDisplay.from_estimator(model, X[1::2], y[1::2], n_bins=5)
    by_scores = ReliabilityDisplay.from_predictions(
        y[1::2], model.predict_proba(X[1::2]), n_bins=5, labels=model.classes_, name="LogisticRegression"
    )
    np.testing.assert_array_equal(by_model.lines_[0].get_xydata(), by_scores.lines_[0].get_xydata())
    assert by_model.name == "LogisticRegression"
    assert [t.get_text() for t in by_model.ax_.get_legend().get_texts()] == [
        t.get_text() for t in by_scores.ax_.get_legend().get_texts()
    ]


def test_curve_plot_returns_the_display():
    y, proba = _scores()
    curve = reliability_curve(y, proba, kind="classwise")
    disp = curve.plot(name="net")
    assert isinstance(disp, ReliabilityDisplay) and disp.curve is curve and len(disp.ax_) == 4


def test_bad_input_names_the_argument():
    y, proba = _scores(m=3)
    _, axes = plt.subplots(1, 2)
    with pytest.raises(TypeError, match="ax must be a single matplotlib Axes"):
        ReliabilityDisplay.from_predictions(y, proba, ax=axes)
    with pytest.raises(ValueError, match=r"one Axes per class \(3\).*got 2"):
        ReliabilityDisplay.from_predictions(y, proba, kind="classwise", ax=axes)
    with pytest.raises(TypeError, match="ax must be a matplotlib Axes"):
        ReliabilityDisplay.from_predictions(y, proba, kind="classwise", ax=[axes[0], axes[1], "x"])
    with pytest.raises(ValueError, match="kind"):
        ReliabilityDisplay.from_predictions(y, proba, kind="per-class")
    with pytest.raises(TypeError, match="hist"):
        ReliabilityDisplay.from_predictions(y, proba, hist="yes")
    with pytest.raises(TypeError, match="curve_kwargs"):
        ReliabilityDisplay.from_predictions(y, proba, curve_kwargs=3)
    with pytest.raises(TypeError, match="name"):
        ReliabilityDisplay.from_predictions(y, proba, name=3)
    with pytest.raises(TypeError, match="draws a ReliabilityCurve; result is a OvrRocCurves"):
        ReliabilityDisplay.from_result(ovr_roc_curve(y, proba))


def test_from_predictions_takes_reliability_curves_parameters_with_its_defaults():
    curve_params = inspect.signature(reliability_curve).parameters
    display_params = inspect.signature(ReliabilityDisplay.from_predictions).parameters
    for name, parameter in curve_params.items():
        assert display_params[name].default == parameter.default, name
        assert display_params[name].kind == parameter.kind, name


def test_weights_and_quantile_bins_reach_the_curve():
    y, proba = _scores(n=300, m=3, seed=3)
    weights = np.random.default_rng(4).uniform(0.0, 2.0, size=y.size)
    disp = ReliabilityDisplay.from_predictions(y, proba, n_bins=6, strategy="quantile", sample_weight=weights)
    assert disp.curve.settings["weighted"] and disp.curve.settings["strategy"] == "quantile"
    top, hit = proba.max(axis=1), proba.argmax(axis=1) == y
    values, edges = disp.hists_[0].get_data()[:2]
    np.testing.assert_allclose(edges, disp.curve.edges[0])
    inside = [(top >= low) & ((top < high) | (b == 5)) for b, (low, high) in enumerate(itertools.pairwise(edges))]
    np.testing.assert_array_equal(values, [int(np.sum(rows & (weights > 0))) for rows in inside])
    np.testing.assert_allclose(  # weighted means of each bin, by brute force
        disp.lines_[0].get_xydata(),
        [
            [np.average(top[rows], weights=weights[rows]), np.average(hit[rows], weights=weights[rows])]
            for rows in inside
        ],
    )


@settings(max_examples=10, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    n=st.integers(5, 60),
    n_bins=st.integers(1, 12),
    kind=st.sampled_from(["top-label", "classwise"]),
)
def test_the_drawn_points_and_bars_are_the_non_empty_bins(seed, n, n_bins, kind):
    y, proba = _scores(n=n, m=3, seed=seed)
    proba = np.round(proba, 2)
    proba[:, 2] = 1.0 - proba[:, 0] - proba[:, 1]  # ties and bin edges hit exactly
    proba = np.clip(proba, 0.0, 1.0)
    proba /= proba.sum(axis=1, keepdims=True)
    disp = ReliabilityDisplay.from_predictions(y, proba, labels=[0, 1, 2], kind=kind, n_bins=n_bins, hist=False)
    curve = disp.curve
    for k, (line, bars) in enumerate(zip(disp.lines_, disp.errorbars_)):
        filled = curve.count[k] > 0
        if not filled.any():
            assert line is None and bars is None
            continue
        np.testing.assert_array_equal(line.get_xdata(), curve.mean_score[k, filled])
        np.testing.assert_array_equal(line.get_ydata(), curve.observed[k, filled])
        segments = np.array(bars.lines[2][0].get_segments())
        np.testing.assert_allclose(segments[:, 0, 1], curve.observed_low[k, filled], rtol=0, atol=1e-12)
        np.testing.assert_allclose(segments[:, 1, 1], curve.observed_high[k, filled], rtol=0, atol=1e-12)
    plt.close("all")
