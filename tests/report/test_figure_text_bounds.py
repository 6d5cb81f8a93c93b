"""Every figure of a report keeps its text on the canvas, names its classes, and its tables fit, at 3 to 20 classes.

Each text is measured as it is drawn into the report's PNG (``Text.draw``
wrapped while the report is built), with the renderer of that very
``savefig``: after the layout engine has run and at the PNG's resolution, the
drawn box of every visible text must lie inside the canvas (1 px tolerance).
"""

from html.parser import HTMLParser

import numpy as np
import pytest
from matplotlib.text import Text

import polyroc.report._figures as report_figures
from polyroc.datasets._demo import glass_demo_scores
from polyroc.report import build_report

pytestmark = pytest.mark.slow  # builds whole reports and figures: not in the quick run (-m "not slow")

TOLERANCE = 1.0  # pixels


def _record_report(build):
    """Run ``build()``; return {figure key: (figure, [(text, drawn box, (width, height), is title)])} of every figure.

    Figures are keyed by their report key and the order they were made in
    (``"confusion#0"``: the first model's confusion matrix).
    """
    drawn, figures, current = {}, {}, []
    original_draw, original_render = Text.draw, report_figures._render

    def draw(self, renderer):
        original_draw(self, renderer)
        if renderer is None or not current or not self.get_visible() or not self.get_text().strip():
            return
        box = self.get_window_extent(renderer)
        is_title = any(self is ax.title for ax in self.figure.axes)
        drawn[current[-1]][id(self)] = (self.get_text(), box, (renderer.width, renderer.height), is_title)

    def render(key, caption, draw_figure, **kwargs):
        name = f"{key}#{sum(name.startswith(key + '#') for name in drawn)}"
        current.append(name)
        drawn[name] = {}  # id of a Text -> its last drawing (the layout engine may draw a figure more than once)

        def keep(figure, axes):
            figures[name] = figure
            draw_figure(figure, axes)

        try:
            return original_render(key, caption, keep, **kwargs)
        finally:
            current.pop()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Text, "draw", draw)
        patch.setattr(report_figures, "_render", render)
        report = build()
    return report, {name: (figures[name], list(texts.values())) for name, texts in drawn.items()}


def _synthetic(m, long_names=False, seed=0):
    """Labels and two-split scores of ``m`` classes, 12 to 30 rows each, one model."""
    rng = np.random.default_rng(seed)
    stems = ("Streptococcus pneumoniae", "Klebsiella", "Escherichia coli, resistant")
    names = np.array([f"type {k}: {stems[k % 3]}" if long_names else f"class {k:02d}" for k in range(m)])

    def split():
        y = np.repeat(np.arange(m), rng.integers(12, 30, m))
        raw = rng.dirichlet(np.ones(m), y.size) + 1.2 * np.eye(m)[y]
        return names[y], raw / raw.sum(axis=1, keepdims=True)

    (y_test, test), (y_val, val) = split(), split()
    return names, lambda: build_report(
        y_test, {"model": test}, y_val=y_val, val_scores={"model": val}, labels=names, n_boot=20, random_state=0
    )


def _demo():
    """The report ``polyroc demo`` writes (same data, models and options; fewer resamples)."""
    demo = glass_demo_scores(0)
    return demo.classes, lambda: build_report(
        demo.y_test,
        demo.test_scores,
        y_val=demo.y_val,
        val_scores=demo.val_scores,
        labels=demo.classes,
        notes=demo.notes,
        source=demo.source,
        n_boot=20,
        random_state=0,
    )


CASES = {
    "demo": _demo,
    "3 classes": lambda: _synthetic(3),
    "11 classes, long names": lambda: _synthetic(11, long_names=True),
    "20 classes": lambda: _synthetic(20),
}


@pytest.fixture(scope="module", params=list(CASES))
def recorded(request):
    classes, build = CASES[request.param]()
    report, figures = _record_report(build)
    return request.param, classes, report, figures


def _outside(box, size):
    width, height = size
    return box.x0 < -TOLERANCE or box.y0 < -TOLERANCE or box.x1 > width + TOLERANCE or box.y1 > height + TOLERANCE


def test_every_text_of_every_figure_lies_inside_its_canvas(recorded):
    case, _, report, figures = recorded
    n_figures = sum(len(f) for f in report.figures.values()) + len(report.shared_figures)
    assert len(figures) == n_figures >= 5 and all(texts for _, texts in figures.values())
    clipped = [
        f"{name}: {text!r} at {np.round(box.extents).tolist()} on a {size[0]}x{size[1]} canvas"
        for name, (_, texts) in figures.items()
        for text, box, size, _ in texts
        if _outside(box, size)
    ]
    assert not clipped, f"{case}: text outside the canvas:\n" + "\n".join(clipped)


def test_panel_titles_do_not_overlap(recorded):
    case, _, _, figures = recorded
    for name, (_, texts) in figures.items():
        titles = [(text, box) for text, box, _, is_title in texts if is_title]
        for i, (first, a) in enumerate(titles):
            for second, b in titles[i + 1 :]:
                overlap = min(a.x1, b.x1) - max(a.x0, b.x0) > 0 and min(a.y1, b.y1) - max(a.y0, b.y0) > 0
                assert not overlap, f"{case}, {name}: titles {first!r} and {second!r} overlap"


def test_class_curves_have_a_legend_naming_every_class_off_the_curves(recorded):
    """OvR ROC, PR, the threshold profile and the Gini ROC name every class; a long legend sits beside the Axes."""
    case, classes, _, figures = recorded
    shown = [str(c) for c in classes]
    for name, (figure, _) in figures.items():
        key = name.split("#")[0]
        if key not in ("roc_pr", "tuning", "gini") or (key == "tuning" and len(classes) == 3):
            continue  # 3 classes: tuning is drawn on the simplex, which labels its vertices
        for ax in figure.axes:
            legend = ax.get_legend()
            assert legend is not None, f"{case}, {name}: no legend"
            entries = [text.get_text() for text in legend.get_texts()]
            for label in shown:  # each class, by its (possibly cut) label, as "label (", "class label (" or "τ_label ("
                head = label if len(label) <= 22 else label[:21].rstrip() + "…"
                named = [entry for entry in entries if entry.split(" (")[0] in (head, f"class {head}", f"τ_{head}")]
                assert named, f"{case}, {name}: class {label!r} not in the legend {entries}"
            renderer = figure._get_renderer()
            if len(entries) > 6:
                legend_box, axes_box = legend.get_window_extent(renderer), ax.get_window_extent(renderer)
                assert legend_box.x0 >= axes_box.x1, f"{case}, {name}: a {len(entries)}-entry legend inside the Axes"


# --------------------------------------------------------------------------- HTML tables


class _Tables(HTMLParser):
    """Every table of a page as [header cells, [row cells, ...]], plus its class attribute."""

    def __init__(self):
        super().__init__()
        self.tables, self._cell, self._row = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"class": dict(attrs).get("class", ""), "head": [], "rows": []})
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = [tag, ""]

    def handle_data(self, data):
        if self._cell is not None:
            self._cell[1] += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(tuple(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            table = self.tables[-1]
            if all(kind == "th" for kind, _ in self._row):
                table["head"] = [text.strip() for _, text in self._row]
            else:
                table["rows"].append([text.strip() for _, text in self._row])
            self._row = None


def test_a_twenty_class_report_has_per_class_tables_with_one_row_per_class():
    classes, build = _synthetic(20)
    parser = _Tables()
    parser.feed(build().to_html())
    names = {str(c) for c in classes}
    for table in parser.tables:  # no table spreads the classes over its columns
        assert not names.intersection(table["head"]), f"a table has a column per class: {table['head'][:4]}…"
    per_class = [table for table in parser.tables if names <= {row[0] for row in table["rows"] if row}]
    heads = [tuple(table["head"]) for table in per_class]
    # data, per-class metrics, τ*, DFP, Gini: each class on its own row, in class order, every row whole
    for head in [("class", "τ*"), ("class", "DFP"), ("class", "Gini weight", "OvR AUC")]:
        assert head in heads, f"no per-class table {head}; per-class tables: {heads}"
    for table in per_class:
        class_rows = [row for row in table["rows"] if row and row[0] in names]
        assert [row[0] for row in class_rows] == [str(c) for c in classes]
        assert all(len(row) == len(table["head"]) for row in class_rows)


def test_the_data_table_never_shows_a_zero_share_for_a_class_with_rows():
    """Three rows of 5,000: the test share is written 0.0600%, not 0.000 (exact fraction 3/5000)."""
    from fractions import Fraction

    rng = np.random.default_rng(1)
    y = np.array(["big"] * 4997 + ["rare"] * 3)
    scores = rng.dirichlet(np.ones(2), y.size)
    parser = _Tables()
    parser.feed(build_report(y, scores, n_boot=1, random_state=0).to_html())
    data = next(table for table in parser.tables if table["head"][:3] == ["class", "test rows", "test share"])
    shares = {row[0]: row[2] for row in data["rows"] if row[0] in ("big", "rare")}
    assert shares["rare"] == f"{float(Fraction(3, 5000) * 100):.4f}%"
    assert shares["big"] == "99.9%"


def test_rule_table_headers_are_readable_names():
    _, build = _synthetic(3)
    parser = _Tables()
    parser.feed(build().to_html())
    rules = next(table for table in parser.tables if table["head"] and table["head"][0] == "split")
    assert rules["head"] == [
        "split",
        "argmax",
        "tuned τ*",
        "Fréchet",
        "coverage",
        "singleton share",
        "average set size",
    ]


# --------------------------------------------------------------------------- the Displays on their own figures


def _standalone_displays(m):
    """Each class-curve Display, and the confusion matrix, drawn on the new figure it makes, for ``m`` classes."""
    from polyroc.gini import gini_roc
    from polyroc.plotting import (
        ConfusionMatrixDisplay,
        PrecisionRecallDisplay,
        RocCurveDisplay,
        TuningProfileDisplay,
    )

    rng = np.random.default_rng(m)
    y = np.repeat(np.arange(m), 15)
    raw = rng.dirichlet(np.ones(m), y.size) + 1.2 * np.eye(m)[y]
    scores = raw / raw.sum(axis=1, keepdims=True)
    return {
        "roc": RocCurveDisplay.from_predictions(y, scores),
        "pr": PrecisionRecallDisplay.from_predictions(y, scores),
        "profile": TuningProfileDisplay.from_predictions(y, scores),
        "gini": gini_roc(y, scores, n_boot=10, random_state=0).plot(),
        "confusion": ConfusionMatrixDisplay.from_predictions(y, scores.argmax(axis=1), normalize="true"),
    }


@pytest.mark.parametrize("m", [3, 11, 20])
def test_each_display_keeps_its_text_and_class_legend_inside_its_own_figure(m, tmp_path):
    import matplotlib.pyplot as plt

    displays = _standalone_displays(m)
    try:
        for name, display in displays.items():
            figure = display.figure_
            drawn = {}
            original_draw = Text.draw

            def draw(self, renderer, drawn=drawn, original_draw=original_draw):
                original_draw(self, renderer)
                if renderer is not None and self.get_visible() and self.get_text().strip():
                    drawn[id(self)] = (
                        self.get_text(),
                        self.get_window_extent(renderer),
                        (renderer.width, renderer.height),
                    )

            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(Text, "draw", draw)
                figure.savefig(tmp_path / f"{name}.png", dpi=100)
            clipped = [
                (text, np.round(box.extents).tolist()) for text, box, size in drawn.values() if _outside(box, size)
            ]
            assert not clipped, f"{m} classes, {name}: text outside the canvas: {clipped}"
            if name == "confusion":
                continue
            legend = display.ax_.get_legend()
            entries = [text.get_text() for text in legend.get_texts()]
            assert all(any(f"{k} (" in entry for entry in entries) for k in range(m)), f"{name}: a class is missing"
            if len(entries) > 6:  # beside the Axes, off the curves
                renderer = figure.canvas.get_renderer()
                assert legend.get_window_extent(renderer).x0 >= display.ax_.get_window_extent(renderer).x1
    finally:
        for display in displays.values():
            plt.close(display.figure_)


def test_gini_legend_does_not_repeat_the_word_class():
    """Labels that already say "class" are not prefixed again ("class class 00")."""
    import matplotlib.pyplot as plt

    from polyroc.gini import gini_roc
    from polyroc.plotting import GiniRocDisplay

    rng = np.random.default_rng(0)
    y = np.repeat(["class 00", "class 01", "other"], 30)
    P = rng.dirichlet(np.ones(3), size=90) + np.eye(3)[np.repeat([0, 1, 2], 30)]
    display = GiniRocDisplay.from_result(gini_roc(y, P / P.sum(axis=1, keepdims=True), n_boot=0))
    texts = [text.get_text() for text in display.ax_.get_legend().get_texts()]
    plt.close(display.figure_)
    assert [t.split(" (")[0] for t in texts[:3]] == ["class 00", "class 01", "class other"]
