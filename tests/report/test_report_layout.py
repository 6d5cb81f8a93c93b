"""The report at many classes: number formatting, legible figures, collapsible sections, truthful readings."""

import base64
import io
import pickle
import re
import struct
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from sklearn.metrics import accuracy_score, f1_score, roc_auc_score

from polyroc.plotting import ConfusionMatrixDisplay
from polyroc.plotting._confusion_matrix import MIN_FONTSIZE
from polyroc.report import build_report
from polyroc.report._readings import model_readings
from polyroc.report._wording import format_number

pytestmark = pytest.mark.slow  # builds whole reports and figures: not in the quick run (-m "not slow")


def _dirichlet_scores(rng, y, m, strength):
    raw = rng.dirichlet(np.ones(m), y.size) + strength * np.eye(m)[y]
    return raw / raw.sum(axis=1, keepdims=True)


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("value", [-0.0, -1e-12, -0.0004, -0.00049])
def test_a_negative_number_that_rounds_to_zero_is_written_zero(value):
    assert format_number(value) == "0.000"
    assert format_number(value, 2) == "0.00"


@pytest.mark.parametrize("value, digits", [(-0.0006, 3), (0.1234, 2), (-2.5, 1), (12.0, 0)])
def test_other_numbers_are_python_fixed_point(value, digits):
    assert format_number(value, digits) == f"{value:.{digits}f}"


# --------------------------------------------------------------------------- confusion matrix


def _confusion(m, rng):
    matrix = rng.integers(0, 40, (m, m))
    matrix[np.diag_indices(m)] += 400  # three-digit counts on the diagonal
    return matrix


def _text_fits_its_cell(display, figure):
    """Every annotation's drawn box lies inside its cell (pixels, after layout)."""
    renderer = FigureCanvasAgg(figure).get_renderer()
    transform = display.ax_.transData
    for (row, column), text in np.ndenumerate(display.text_):
        box = text.get_window_extent(renderer)
        (left, top), (right, bottom) = transform.transform([[column - 0.5, row - 0.5], [column + 0.5, row + 0.5]])
        low, high = min(top, bottom), max(top, bottom)
        if not (left <= box.x0 and box.x1 <= right and low <= box.y0 and box.y1 <= high):
            return False
    return True


@pytest.mark.parametrize("m", [3, 8, 12, 30])
def test_cells_are_annotated_while_their_values_fit_and_coloured_only_beyond(m):
    figure = Figure(figsize=(6, 6), dpi=100, layout="constrained")
    ax = figure.subplots()
    display = ConfusionMatrixDisplay(_confusion(m, np.random.default_rng(m))).plot(ax=ax)
    FigureCanvasAgg(figure).draw()
    if m <= 8:
        assert display.text_ is not None and display.text_.shape == (m, m)
        assert _text_fits_its_cell(display, figure)
        sizes = {text.get_fontsize() for text in display.text_.ravel()}
        assert min(sizes) >= 6
    if m == 30:  # 3-digit values in cells of about 8 points: colours and the colour bar only
        assert display.text_ is None and display.colorbar_ is not None
    if display.text_ is not None:  # whatever m, an annotation is never drawn outside its cell
        assert _text_fits_its_cell(display, figure)


def test_values_are_written_when_asked_even_in_small_cells():
    figure = Figure(figsize=(6, 6), layout="constrained")
    display = ConfusionMatrixDisplay(_confusion(30, np.random.default_rng(0))).plot(
        ax=figure.subplots(), include_values=True
    )
    assert display.text_.shape == (30, 30)


def test_long_labels_end_in_an_ellipsis_and_turn_vertical():
    labels = ["Mycobacterium tuberculosis complex", "Escherichia coli", "Candida auris"]
    figure = Figure(figsize=(6, 6), layout="constrained")
    display = ConfusionMatrixDisplay(np.eye(3, dtype=int) * 5, display_labels=labels).plot(ax=figure.subplots())
    ticks = [label.get_text() for label in display.ax_.get_xticklabels()]
    assert ticks == ["Mycobacterium tubercu…", "Escherichia coli", "Candida auris"]
    assert all(label.get_rotation() == 90 for label in display.ax_.get_xticklabels())


def test_classes_can_be_ordered_by_support_or_by_confusion():
    # classes 0 and 3 are confused with each other, and 1 and 2
    matrix = np.array([[50, 1, 0, 20], [0, 30, 15, 1], [1, 12, 40, 0], [18, 0, 1, 10]])
    by_support = ConfusionMatrixDisplay(matrix).plot(order="support", colorbar=False)
    np.testing.assert_array_equal(by_support.order_, [0, 2, 1, 3])  # row sums 71, 46, 53, 29
    np.testing.assert_array_equal(by_support.im_.get_array(), matrix[np.ix_([0, 2, 1, 3], [0, 2, 1, 3])])
    order = list(ConfusionMatrixDisplay(matrix).plot(order="cluster", colorbar=False).order_)
    assert abs(order.index(0) - order.index(3)) == 1 and abs(order.index(1) - order.index(2)) == 1
    given = ConfusionMatrixDisplay(matrix).plot(order=[3, 2, 1, 0], colorbar=False)
    assert given.im_.get_array()[0, 0] == matrix[3, 3]
    with pytest.raises(ValueError, match="permutation"):
        ConfusionMatrixDisplay(matrix).plot(order=[0, 0, 1, 2])
    with pytest.raises(ValueError, match="order"):
        ConfusionMatrixDisplay(matrix).plot(order="alphabetical")
    import matplotlib.pyplot as plt

    plt.close("all")


LONG_LABELS = [
    "Staphylococcus aureus",
    "Escherichia coli",
    "Klebsiella pneumoniae",
    "Pseudomonas aeruginosa",
    "Enterococcus faecalis",
    "Candida albicans",
]


def _grid_of_matrices(**plot_kw):
    """Four 6-class matrices with long labels in a 2 × 2 constrained grid, as a report or a notebook draws them."""
    figure = Figure(figsize=(8, 8), dpi=100, layout="constrained")
    displays = [
        ConfusionMatrixDisplay(_confusion(6, np.random.default_rng(k)), display_labels=LONG_LABELS).plot(
            ax=ax, colorbar=False, **plot_kw
        )
        for k, ax in enumerate(figure.subplots(2, 2).ravel())
    ]
    return figure, displays


def _pixels(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="rgba")
    return buffer.getvalue()


def test_values_fit_or_not_in_the_cells_of_the_final_layout_of_a_grid():
    # before layout each Axes is a quarter of the figure less nothing for the long tick labels; constrained
    # layout then gives the cells about 28 points, room enough for three digits at 10 points
    figure, displays = _grid_of_matrices()
    FigureCanvasAgg(figure).draw()
    for display in displays:
        assert display.text_ is not None and display.text_.shape == (6, 6)
        assert all(text.get_visible() and text.get_fontsize() >= MIN_FONTSIZE for text in display.text_.ravel())
        assert _text_fits_its_cell(display, figure)


def test_values_stay_hidden_in_cells_too_small_after_layout():
    figure = Figure(figsize=(2, 2), dpi=100, layout="constrained")
    display = ConfusionMatrixDisplay(_confusion(40, np.random.default_rng(40))).plot(ax=figure.subplots())
    hidden = _pixels(figure)
    assert display.text_ is None
    assert not any(text.get_visible() for text in display.ax_.texts)
    figure.clear()
    ConfusionMatrixDisplay(_confusion(40, np.random.default_rng(40))).plot(ax=figure.subplots(), include_values=False)
    assert _pixels(figure) == hidden


def test_a_saved_grid_shows_the_values_as_include_values_true_does():
    saved = {}
    for include_values in ("auto", True, False):
        figure, displays = _grid_of_matrices(include_values=include_values)
        saved[include_values] = _pixels(figure)  # savefig is the first draw
        if include_values == "auto":
            assert all(display.text_ is not None for display in displays)
    assert saved["auto"] == saved[True] != saved[False]


def test_values_follow_the_figure_when_it_is_resized():
    figure = Figure(figsize=(2, 2), dpi=100, layout="constrained")
    display = ConfusionMatrixDisplay(_confusion(12, np.random.default_rng(12))).plot(ax=figure.subplots())
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    assert display.text_ is None
    figure.set_size_inches(9, 9)
    canvas.draw()
    assert display.text_ is not None and display.text_.shape == (12, 12)
    assert {text.get_fontsize() for text in display.text_.ravel()} == {10.0}
    assert all(text.get_visible() for text in display.text_.ravel()) and _text_fits_its_cell(display, figure)
    figure.set_size_inches(2, 2)
    canvas.draw()
    assert display.text_ is None and not any(text.get_visible() for text in display.ax_.texts)
    assert len(display.ax_.texts) == 12 * 12  # hidden, not made again
    figure.set_size_inches(9, 9)
    canvas.draw()
    assert display.text_ is not None and len(display.ax_.texts) == 12 * 12


def test_a_font_size_given_in_text_kw_is_kept_when_the_values_fit_after_layout():
    figure, displays = _grid_of_matrices(text_kw={"fontsize": 7})
    FigureCanvasAgg(figure).draw()
    for display in displays:
        assert display.text_ is not None
        assert {text.get_fontsize() for text in display.text_.ravel()} == {7.0}


def test_a_figure_with_cell_values_unpickles_and_draws_in_a_new_process(tmp_path):
    figure, _ = _grid_of_matrices()
    path = tmp_path / "figure.pickle"
    path.write_bytes(pickle.dumps(figure))
    code = (
        "import pickle, sys\n"
        "from matplotlib.backends.backend_agg import FigureCanvasAgg\n"
        "figure = pickle.loads(open(sys.argv[1], 'rb').read())\n"
        "FigureCanvasAgg(figure).draw()\n"
        "print(sum(text.get_visible() for ax in figure.axes for text in ax.texts))"
    )
    result = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(4 * 6 * 6)


# --------------------------------------------------------------------------- the page


@pytest.fixture(scope="module")
def many_classes():
    """12 classes, two models on probability rows (both raise the Gini whitening warning)."""
    rng = np.random.default_rng(2)
    m = 12
    y, y_val = rng.integers(0, m, 360), rng.integers(0, m, 240)
    test = {"first": _dirichlet_scores(rng, y, m, 1.5), "second": _dirichlet_scores(rng, y, m, 0.6)}
    val = {"first": _dirichlet_scores(rng, y_val, m, 1.5), "second": _dirichlet_scores(rng, y_val, m, 0.6)}
    report = build_report(y, test, y_val=y_val, val_scores=val, n_boot=10, random_state=0)
    return report, report.to_html()


def test_each_model_is_a_collapsible_section_after_the_summary_and_the_models_table(many_classes):
    _, html = many_classes
    sections = re.findall(r'<details class="model" id="model-([^"]+)"( open)?>', html)
    assert [name for name, _ in sections] == ["m1-first", "m2-second"]
    assert [bool(is_open) for _, is_open in sections] == [True, False]
    assert html.count("<summary>") == 2 and "<script" not in html.lower()
    assert html.index('id="summary"') < html.index('id="overview"') < html.index('id="data"') < html.index("<details")


def test_images_have_twice_the_pixels_of_their_displayed_size(many_classes):
    _, html = many_classes
    images = re.findall(r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*" width="(\d+)" height="(\d+)">', html)
    assert len(images) == 2 * 8 + 1
    for data, width, height in images:
        png = base64.b64decode(data)
        pixels = struct.unpack(">II", png[16:24])
        assert abs(pixels[0] - 2 * int(width)) <= 1 and abs(pixels[1] - 2 * int(height)) <= 1


def test_every_table_sits_in_a_horizontal_scroll_box(many_classes):
    _, html = many_classes
    assert html.count("<table>") == html.count('<div class="table-box"><table>') > 0
    assert re.search(r"\.table-box \{[^}]*overflow-x: auto", html)


def test_no_negative_zero_on_the_page(many_classes):
    _, html = many_classes
    assert not re.search(r"-0\.0+(?!\d*[1-9])\b", html)


def test_a_warning_raised_for_two_models_is_listed_once_with_both(monkeypatch):
    import warnings

    import polyroc.report._analysis as analysis_module

    original = analysis_module.gini_roc

    def warning_gini_roc(y_true, y_score, **options):
        spread = float(np.std(y_score))  # differs by model: the same warning with other numbers
        warnings.warn(f"the scores are nearly collinear (spread {spread:.4g})", RuntimeWarning, stacklevel=2)
        return original(y_true, y_score, **options)

    monkeypatch.setattr(analysis_module, "gini_roc", warning_gini_roc)
    rng = np.random.default_rng(3)
    y = rng.integers(0, 4, 200)
    scores = {"first": _dirichlet_scores(rng, y, 4, 1.5), "second": _dirichlet_scores(rng, y, 4, 0.6)}
    report = build_report(y, scores, n_boot=5, random_state=0)
    html = report.to_html()
    collinear = [w for w in report.results["warnings"] if "nearly collinear" in w["message"]]
    assert len(collinear) == 1 and collinear[0]["models"] == ["first", "second"]
    own = [[w["message"] for w in model["warnings"]] for model in report.results["models"].values()]
    assert collinear[0]["messages"] == {"first": own[0][0], "second": own[1][0]} and own[0] != own[1]
    assert html.count("nearly collinear") == 1 and "(first, second)" in html


# --------------------------------------------------------------------------- readings


def test_a_tuning_that_lands_on_argmax_says_so_plainly():
    rng = np.random.default_rng(4)
    m = 4
    y, y_val = rng.integers(0, m, 200), rng.integers(0, m, 200)
    separable = {"model": np.eye(m)[y] * 0.7 + 0.075}
    val = {"model": np.eye(m)[y_val] * 0.7 + 0.075}
    # argmax is already perfect on validation (sklearn's F1 is 1), so no threshold can beat it
    assert f1_score(y_val, val["model"].argmax(axis=1), average="macro") == 1.0
    report = build_report(y, separable, y_val=y_val, val_scores=val, n_boot=10, random_state=0)
    tuning = report.results["models"]["model"]["tuning"]["comparison"]["tuning"]
    reading = report.readings["model"]["tuning"]
    assert np.ptp(tuning["best_threshold"]) == 0
    assert "plain argmax" in reading and "move it from" not in reading and "may be noise" not in reading
    settings = tuning["settings"]
    assert f"{settings['search']} search at resolution {settings['resolution']}" in reading


def test_a_tuning_away_from_argmax_names_its_search_and_the_test_verdict(many_classes):
    report, _ = many_classes
    model = report.results["models"]["first"]
    comparison = dict(model["tuning"]["comparison"])
    comparison["tuning"] = dict(comparison["tuning"], best_threshold=[0.2] + [0.8 / 11] * 11, equals_argmax=False)
    reading = model_readings(dict(model, tuning=dict(model["tuning"], comparison=comparison)), report.results)
    assert "search at resolution" in reading["tuning"] and "On test, tuned minus argmax is" in reading["tuning"]


def test_a_rare_class_with_noise_scores_contradicts_a_high_accuracy():
    rng = np.random.default_rng(7)
    n, m = 600, 4
    y = rng.choice(m, n, p=[0.33, 0.33, 0.32, 0.02])
    scores = np.full((n, m), 0.05)
    scores[np.arange(n), np.where(y == 3, rng.integers(0, 3, n), y)] = 0.8  # class 3 rows look like another class
    scores[:, 3] = rng.uniform(0.0, 0.04, n)  # the rare class's column is noise
    scores /= scores.sum(axis=1, keepdims=True)
    accuracy = accuracy_score(y, scores.argmax(axis=1))
    rare_auc = roc_auc_score(y == 3, scores[:, 3])
    assert accuracy > 0.95 and abs(rare_auc - 0.5) < 0.15  # the independent facts the reading must state
    names = np.array(["alpha", "beta", "gamma", "rare"])
    report = build_report(names[y], {"model": scores}, n_boot=10, random_state=0)
    reading = report.readings["model"]["dmf"]
    assert f"Accuracy is high ({accuracy:.3f})" in reading
    assert "class rare carry little or no ranking information" in reading
    assert f"{rare_auc:.2f}" in reading
    assert "rare" in " ".join(line for line in report.to_html().split("<li>") if "rank at chance level" in line)
    assert "horizontal" not in reading and "across" in reading  # the axes are defined in words
