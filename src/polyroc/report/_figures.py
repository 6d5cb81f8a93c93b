"""The report's figures, drawn by polyroc's displays on pyplot-free figures and kept as PNG bytes.

Figures are built with :class:`matplotlib.figure.Figure` directly, so making a
report neither needs nor changes a pyplot backend. A skipped section has no
figure. PNGs are drawn at :data:`SCALE` times the page's resolution, and
shown at their CSS size (``width``/``height`` attributes of 1/``SCALE`` the
pixels), so they stay sharp on high-density screens. Figures grow with the
number of classes m within limits, and widen for the class legends that
stand beside their Axes once they are long (see
:func:`polyroc.plotting._common.place_legend`); above :data:`MANY_CLASSES`
classes the confusion matrix shows recall colours with classes ordered by
confusion. Every figure uses matplotlib's ``"compressed"`` layout, made for
Axes of fixed aspect (confusion matrices, ROC squares): the ``"constrained"``
layout sizes the grid cells before the equal aspect shrinks the Axes boxes,
and in a figure about as wide as its squares it left titles and axis labels
partly outside the canvas.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from polyroc.report._decimation import decimate_figure

if TYPE_CHECKING:
    from polyroc.report._analysis import ModelAnalysis
    from polyroc.report._inputs import ReportInputs

__all__ = ["ReportFigure", "comparison_figures", "decision_points", "draw_decisions", "model_figures"]

#: CSS pixels per inch, and the pixel density of the PNGs relative to it.
CSS_DPI = 96
SCALE = 2
DPI = CSS_DPI * SCALE

#: zlib level of the PNGs: lossless like any level (the same pixels), about half the encoding time of
#: the default 6 for files about a fifth larger.
PNG_COMPRESS_LEVEL = 3

#: Above this many classes, the confusion matrix is one panel of recalls and the PR curves have no chance lines.
MANY_CLASSES = 10

#: Inches a column of a class legend outside its Axes takes (labels are cut at LABEL_CHARS).
LEGEND_COLUMN_WIDTH = 2.0

#: From this many classes on, the ROC clouds are small multiples (compact grid, shared axes).
COMPACT_PANELS = 7


@dataclass(frozen=True)
class ReportFigure:
    """One figure of the report: a key, a caption and the PNG image."""

    key: str
    caption: str
    png: bytes


def _render(key, caption, draw, *, figsize=(5.2, 4.4), layout="compressed", **subplots_kw):
    """Draw on a new figure's axes with ``draw(figure, axes)`` and encode it as PNG."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=figsize, layout=layout)
    axes = figure.subplots(**subplots_kw)
    draw(figure, axes)
    for ax in figure.axes:  # a fixed-aspect box shrinks, after the layout, towards its cell's top left corner,
        if ax.get_aspect() != "auto":  # so that what the layout placed at its left and top stays where it was put
            ax.set_anchor("NW")
    decimate_figure(figure, DPI)  # long curves through the points that change the picture (results keep all)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI, pil_kwargs={"compress_level": PNG_COMPRESS_LEVEL})
    return ReportFigure(key, caption, buffer.getvalue())


def _grow(n_classes, base, per_class, largest):
    """A figure side (inches) of ``base + per_class * m``, capped at ``largest``."""
    return float(min(largest, base + per_class * n_classes))


def _label_room(classes):
    """Inches that tick labels of the classes take beside a matrix (labels are cut at LABEL_CHARS)."""
    from polyroc.plotting._common import LABEL_CHARS

    longest = min(LABEL_CHARS, max(len(str(c)) for c in classes))
    return max(0.0, (longest - 6) * 0.07)


def _legend_room(n_entries):
    """Inches a legend of ``n_entries`` takes beside its Axes (0 while it stays inside, see ``place_legend``)."""
    from polyroc.plotting._common import INSIDE_LEGEND_ENTRIES, LEGEND_ROWS

    if n_entries <= INSIDE_LEGEND_ENTRIES:
        return 0.0
    return LEGEND_COLUMN_WIDTH * -(-n_entries // LEGEND_ROWS)


def _compact_legend(ax, classes, loc):
    """Place the legend of ``ax`` again (see ``place_legend``) with class labels cut at LABEL_CHARS."""
    from polyroc.plotting._common import place_legend, short_label

    names = {str(c) for c in classes}
    for line in ax.get_lines() + ax.collections + ax.patches:
        label = line.get_label()
        text = label.split(" (", 1)[0]
        head = next((h for h in (text, text.removeprefix("class "), text.removeprefix("τ_")) if h in names), None)
        if head is not None:
            line.set_label(label.replace(head, short_label(head), 1))
    place_legend(ax, loc)


def _confusion(analysis, inputs):
    from polyroc.plotting import ConfusionMatrixDisplay

    classes = inputs.classes
    n_classes = classes.size
    predicted = classes[np.argmax(inputs.test[analysis.name], axis=1)]
    options = {"labels": classes, "sample_weight": inputs.sample_weight}
    if n_classes > MANY_CLASSES:

        def draw_one(figure, ax):
            ConfusionMatrixDisplay.from_predictions(
                inputs.y_test, predicted, normalize="true", ax=ax, order="cluster", values_format=".2f", **options
            )
            ax.set_title("Confusion matrix, row-normalised (recall)")

        side = _grow(n_classes, 3.0, 0.3, 10.0) + _label_room(classes)
        caption = (
            "Confusion matrix of argmax predictions on test, each row divided by its true class's "
            "size (recall on the diagonal); rows and columns are ordered so that classes confused with "
            "each other sit side by side. The per-class table gives the same recalls with intervals."
        )
        return _render("confusion", caption, draw_one, figsize=(side + 1.2, side))

    def draw(figure, axes):
        for ax, normalize, title in zip(axes, (None, "true"), ("Counts", "Recall (row-normalised)")):
            ConfusionMatrixDisplay.from_predictions(
                inputs.y_test, predicted, normalize=normalize, ax=ax, colorbar=False, **options
            )
            ax.set_title(title)

    side = _grow(n_classes, 2.6, 0.25, 5.2) + _label_room(classes)
    return _render(
        "confusion",
        "Confusion matrix of argmax predictions on test: counts and recall per true class.",
        draw,
        figsize=(2 * side + 0.4, side + 0.3),
        ncols=2,
    )


def _roc_and_pr(analysis, inputs):
    from polyroc.plotting import PrecisionRecallDisplay, RocCurveDisplay

    y, scores = inputs.y_test, inputs.test[analysis.name]
    options = {"labels": inputs.classes, "sample_weight": inputs.sample_weight}
    n_classes = inputs.classes.size
    room = _legend_room(n_classes + 3)  # the classes, two averages and chance on the ROC side

    def draw(figure, axes):
        if analysis.cloud is not None:  # the same weighted one-vs-rest curves
            RocCurveDisplay.from_result(analysis.cloud.ovr_curves, ax=axes[0])
        else:
            RocCurveDisplay.from_predictions(y, scores, ax=axes[0], **options)
        PrecisionRecallDisplay.from_predictions(  # dropped points change no drawn step
            y,
            scores,
            ax=axes[1],
            drop_intermediate=True,
            plot_chance_level=n_classes <= MANY_CLASSES,
            **options,
        )
        for ax in axes:
            _compact_legend(ax, inputs.classes, "lower right" if ax is axes[0] else "lower left")

    caption = (
        "One-vs-rest ROC curves with micro and macro averages and precision-recall curves, test scores; "
        "each legend names the classes by colour."
    )
    if room:  # legends beside the panels: the panels one above the other, so the page need not shrink the text
        return _render("roc_pr", caption, draw, figsize=(5.0 + room, 9.6), nrows=2)
    return _render("roc_pr", caption, draw, figsize=(10, 5), ncols=2)


def _tuning(analysis, inputs):
    from polyroc.plotting import (
        DecisionRegionsDisplay,
        SimplexHeatmapDisplay,
        TuningProfileDisplay,
    )

    tuning = analysis.comparison.tuning
    if inputs.classes.size == 3:

        def draw(figure, axes):
            SimplexHeatmapDisplay.from_result(tuning, ax=axes[0])
            DecisionRegionsDisplay.from_result(
                tuning, inputs.y_test, inputs.test[analysis.name], sample_weight=inputs.sample_weight, ax=axes[1]
            )

        caption = (
            f"Left: validation {tuning.metric} over the threshold simplex (star: τ*). "
            "Right: decision regions of τ* with the test samples."
        )
        return _render("tuning", caption, draw, figsize=(10, 4.6), ncols=2)

    def draw(figure, ax):
        TuningProfileDisplay.from_predictions(
            inputs.y_val,
            inputs.validation[analysis.name],
            threshold=tuning.best_threshold,
            metric=tuning.metric,
            labels=tuning.classes,
            sample_weight=inputs.val_sample_weight,
            domain=tuning.domain,
            ax=ax,
        )
        _compact_legend(ax, inputs.classes, "best")

    caption = (
        f"Validation {tuning.metric} along each threshold coordinate through τ* "
        "(the other coordinates rescaled to stay on the simplex)."
    )
    room = _legend_room(inputs.classes.size + 2)  # the classes, argmax and τ*
    return _render("tuning", caption, draw, figsize=(7.5 + room, 4.8 + 0.1 * max(0, inputs.classes.size - 10)))


def _clouds(analysis, inputs):
    n_classes = inputs.classes.size
    compact = n_classes >= COMPACT_PANELS
    ncols = min(n_classes, 5 if compact else 3)
    nrows = -(-n_classes // ncols)
    side = 2.1 if compact else 3.4

    def draw(figure, axes):
        axes = np.asarray(axes).ravel()
        for extra in axes[n_classes:]:
            extra.remove()
        analysis.cloud.plot(ax=axes[:n_classes])
        if compact:  # the bottom panel of a column above a removed panel keeps its tick labels
            for panel in axes[max(0, n_classes - ncols) : n_classes]:
                panel.xaxis.set_tick_params(labelbottom=True)

    return _render(
        "clouds",
        "ROC clouds on test: (FPR, TPR) of each class under argmax(p − τ) "
        "for every sampled τ, over the class's one-vs-rest ROC curve; × marks argmax.",
        draw,
        figsize=(side * ncols, (side + 0.15) * nrows),
        nrows=nrows,
        ncols=ncols,
        squeeze=False,
        sharex=compact,
        sharey=compact,
    )


def _gini(analysis, inputs):
    room = _legend_room(inputs.classes.size + 4)  # the classes, the Gini curve, its dispersion, band and chance
    return _render(
        "gini",
        "Gini-weighted ROC curve on test with its stratified bootstrap band, over the per-class one-vs-rest curves.",
        lambda figure, ax: _gini_draw(analysis, inputs, ax),
        figsize=(5.4 + 1.7 * room, 5.2),  # its band labels are longer than a class label
    )


def _gini_draw(analysis, inputs, ax):
    analysis.gini.plot(ax=ax)
    _compact_legend(ax, inputs.classes, "lower right")


def _reliability(analysis, inputs):
    curve = analysis.calibration.top_label
    caption = (
        f"Top-label reliability diagram on test: per {curve.settings['strategy']} bin of the largest probability, "
        "the share of rows whose top label is right against the mean probability, with the bin's "
        f"{_percent(curve.settings['confidence'])} {curve.interval_method}; below, the rows per bin. "
        "Points under the diagonal are over-confident."
    )

    def draw(figure, ax):
        curve.plot(ax=ax)
        _legend_below(figure, ax)

    return _render("reliability", caption, draw, figsize=(6.0, 6.9), layout="constrained")


def _legend_below(figure, ax):
    """Move the legend of ``ax`` under the figure, one entry a line, so that it hides no bin of the diagram."""
    handles, labels = ax.get_legend_handles_labels()
    ax.get_legend().remove()
    figure.legend(handles, labels, loc="outside lower center", fontsize="small", frameon=False)


def _percent(confidence):
    return f"{100 * confidence:g}%"


def _shown_classes(analysis, n_classes):
    """Indices of the classes with a classwise panel: every class up to MANY_CLASSES, else the MANY_CLASSES
    whose calibration test has the smallest p-values (in class order), and the caption's words for them."""
    if n_classes <= MANY_CLASSES:
        return np.arange(n_classes), "one panel per class"
    p_values = np.nan_to_num(analysis.calibration.test.p_value[:n_classes], nan=np.inf)
    shown = np.sort(np.argsort(p_values, kind="stable")[:MANY_CLASSES])
    return shown, (
        f"the {MANY_CLASSES} of the {n_classes} classes whose calibration test has the smallest p-values "
        "(the least calibrated by the test); results.json holds every class's bins"
    )


def _classwise(analysis, inputs):
    from dataclasses import replace

    curve = analysis.calibration.classwise
    shown, which = _shown_classes(analysis, curve.classes.size)
    arrays = ("classes", "edges", "count", "mean_score", "observed", "observed_low", "observed_high")
    panels_curve = replace(curve, **{name: getattr(curve, name)[shown] for name in arrays})
    n_panels = shown.size
    nrows = -(-n_panels // 5)
    ncols = -(-n_panels // nrows)

    def draw(figure, axes):
        axes = np.asarray(axes).ravel()
        for extra in axes[n_panels:]:
            extra.remove()
        panels_curve.plot(ax=axes[:n_panels])

    caption = (
        f"Classwise reliability diagrams on test, {which}: per bin of the class's probability, the share of rows "
        "of the class against the mean probability, with the bin's interval; below each, the rows per bin."
    )
    return _render(
        "classwise",
        caption,
        draw,
        figsize=(2.9 * ncols, 3.5 * nrows + 0.7),
        layout="constrained",
        nrows=nrows,
        ncols=ncols,
        squeeze=False,
    )


def _recalibrated(analysis, inputs):
    calibration = analysis.calibration
    temperature = calibration.calibrator.temperature

    def draw(figure, ax):
        calibration.top_label.plot(ax=ax, name="as given")
        calibration.calibrated.plot(ax=ax, name=f"temperature-scaled, T = {temperature:.2f}")
        _legend_below(figure, ax)

    caption = (
        "Top-label reliability on test before and after the temperature map fitted on validation, "
        "with each bin's interval; below, the rows per bin of each."
    )
    return _render("recalibrated", caption, draw, figsize=(6.0, 7.2), layout="constrained")


#: The rules of the decisions section, named as its table names them.
RULE_NAMES = {"argmax": "argmax", "bayes": "Bayes rule", "tuned": "cost-tuned τ"}

#: Vertical offsets of the marker sets (the test's shares, the target priors) around each rule's row.
SET_OFFSETS = (-0.15, 0.15)


def decision_points(record: dict[str, Any]) -> list[tuple[str, list[tuple[str, float, float, float]]]]:
    """The marker sets of the decisions figure, from the section's record of ``results.json``.

    One set at the test's class shares, and one at the target priors when
    the section has them: ``(label, [(rule, estimate, low, high), ...])``.
    """
    sets = [("at the test's class shares", record["costs"])]
    if record.get("at_priors") is not None:
        sets.append((f"at the target priors ({record['at_priors']['source']})", record["at_priors"]["costs"]))
    return [
        (label, [(rule, cost["estimate"], cost["low"], cost["high"]) for rule, cost in costs.items()])
        for label, costs in sets
    ]


def draw_decisions(ax, record: dict[str, Any]) -> None:
    """Each rule's expected cost with its interval, one row per rule, one marker set per class mix."""
    sets = decision_points(record)
    rules = list(record["costs"])
    for index, (label, points) in enumerate(sets):
        rows = np.arange(len(points)) + (SET_OFFSETS[index] if len(sets) > 1 else 0.0)
        estimate, low, high = (np.array([point[i] for point in points]) for i in (1, 2, 3))
        ax.errorbar(
            estimate,
            rows,
            xerr=np.vstack([estimate - low, high - estimate]),
            fmt="os"[index],
            color=f"C{index}",
            capsize=4,
            label=label,
        )
        for value, row in zip(estimate, rows):
            ax.annotate(f"{value:.3f}", (value, row), xytext=(0, 5), textcoords="offset points", ha="center")
    ax.set_yticks(np.arange(len(rules)), [RULE_NAMES[rule] for rule in rules])
    ax.set_ylim(len(rules) - 0.5, -0.6)  # the table's order, top to bottom, with room for the values
    largest = max((point[3] for _, points in sets for point in points), default=0.0)
    largest = largest if np.isfinite(largest) and largest > 0 else 1.0
    ax.set_xlim(-0.04 * largest, 1.06 * largest)  # a cost of 0 stays off the axis and its rule's name
    ax.set_xlabel("expected cost per case (lower is better)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title("Expected cost of each rule on test")


def _decisions(analysis, inputs):
    from polyroc.report._decisions import decisions_record

    record = decisions_record(analysis.decisions, inputs.classes)
    with_priors = record["at_priors"] is not None

    def draw(figure, ax):
        draw_decisions(ax, record)
        if with_priors:
            ax.legend()
            _legend_below(figure, ax)

    caption = (
        "Expected cost per case on test of each rule (argmax, the Bayes rule"
        + (", cost-tuned τ" if "tuned" in record["costs"] else "")
        + "), the numbers of the decisions table, with their t intervals"
        + ("; circles at the test's class shares, squares at the target priors" if with_priors else "")
        + ". Lower is better."
    )
    height = 1.6 + 0.55 * len(record["costs"]) * (1.5 if with_priors else 1.0) + (0.5 if with_priors else 0.0)
    return _render("decisions", caption, draw, figsize=(6.4, height), layout="constrained")


def model_figures(analysis: ModelAnalysis, inputs: ReportInputs) -> list[ReportFigure]:
    """The figures of one model's section, in the order they appear (none for a skipped section).

    They are the model's last work: the sorts of its scores that its steps
    shared (``analysis.orders``) are used, then released.

    Parameters
    ----------
    analysis : ModelAnalysis
        The library results of the model.
    inputs : ReportInputs
        The checked inputs (labels, scores, sample weights).

    Returns
    -------
    list of ReportFigure
    """
    from polyroc._engine.score_orders import shared_orders

    with shared_orders(analysis.orders):
        figures = [_confusion(analysis, inputs), _roc_and_pr(analysis, inputs)]
    analysis.orders = None
    if analysis.calibration is not None:
        figures += [_reliability(analysis, inputs), _classwise(analysis, inputs)]
        if analysis.calibration.calibrator is not None:
            figures.append(_recalibrated(analysis, inputs))
    if analysis.comparison is not None:
        figures.append(_tuning(analysis, inputs))
    if analysis.decisions is not None:
        figures.append(_decisions(analysis, inputs))
    if analysis.cloud is not None:
        figures.append(_clouds(analysis, inputs))
    if analysis.gini is not None:
        figures.append(_gini(analysis, inputs))
    return figures


def comparison_figures(analyses: list[Any]) -> list[ReportFigure]:
    """The ROC-DMF curves of every model with one, with their bootstrap bands, on one plot.

    Parameters
    ----------
    analyses : list of ModelAnalysis
        The library results of each model.

    Returns
    -------
    list of ReportFigure
        One figure, or none when no model has a ROC-DMF.
    """
    if all(analysis.dmf is None for analysis in analyses):
        return []

    def draw(figure, ax):
        for index, analysis in enumerate(analyses):
            if analysis.dmf is not None:
                analysis.dmf.plot(
                    ax=ax, name=analysis.name if len(analyses) > 1 else None, curve_kwargs={"color": f"C{index}"}
                )
        ax.set_title("ROC-DMF")

    return [_render("dmf", "ROC-DMF curves on test with stratified bootstrap bands.", draw, figsize=(6.4, 5))]
