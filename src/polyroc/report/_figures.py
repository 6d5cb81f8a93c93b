"""The report's figures, drawn by polyroc's displays on pyplot-free figures and kept as PNG bytes.

Figures are built with :class:`matplotlib.figure.Figure` directly, so making a
report neither needs nor changes a pyplot backend. A skipped section has no
figure.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["ReportFigure", "comparison_figures", "model_figures"]

DPI = 96


@dataclass(frozen=True)
class ReportFigure:
    """One figure of the report: a key, a caption and the PNG image."""

    key: str
    caption: str
    png: bytes


def _render(key, caption, draw, *, figsize=(5.2, 4.4), **subplots_kw):
    """Draw on a new figure's axes with ``draw(figure, axes)`` and encode it as PNG."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=figsize, layout="constrained")
    axes = figure.subplots(**subplots_kw)
    draw(figure, axes)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=DPI)
    return ReportFigure(key, caption, buffer.getvalue())


def _confusion(analysis, inputs):
    from polyroc.plotting import ConfusionMatrixDisplay

    classes = inputs.classes
    predicted = classes[np.argmax(inputs.test[analysis.name], axis=1)]

    def draw(figure, axes):
        for ax, normalize, title in zip(axes, (None, "true"), ("counts", "row-normalised (recall)")):
            ConfusionMatrixDisplay.from_predictions(
                inputs.y_test,
                predicted,
                labels=classes,
                sample_weight=inputs.sample_weight,
                normalize=normalize,
                ax=ax,
                colorbar=False,
            )
            ax.set_title(f"Confusion matrix, {title}")

    return _render(
        "confusion",
        "Confusion matrix of argmax predictions on test: counts and recall per true class.",
        draw,
        figsize=(10, 4.6),
        ncols=2,
    )


def _roc_and_pr(analysis, inputs):
    from polyroc.plotting import PrecisionRecallDisplay, RocCurveDisplay

    y, scores = inputs.y_test, inputs.test[analysis.name]
    options = {"labels": inputs.classes, "sample_weight": inputs.sample_weight}

    def draw(figure, axes):
        if analysis.cloud is not None:  # the same weighted one-vs-rest curves
            RocCurveDisplay.from_result(analysis.cloud.ovr_curves, ax=axes[0])
        else:
            RocCurveDisplay.from_predictions(y, scores, ax=axes[0], **options)
        PrecisionRecallDisplay.from_predictions(y, scores, ax=axes[1], **options)
        for ax in axes:
            ax.legend(loc="lower right" if ax is axes[0] else "lower left", fontsize="x-small")

    return _render(
        "roc_pr",
        "One-vs-rest ROC curves with micro and macro averages (left) and precision-recall curves (right), test scores.",
        draw,
        figsize=(10, 4.8),
        ncols=2,
    )


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

    caption = (
        f"Validation {tuning.metric} along each threshold coordinate through τ* "
        "(the other coordinates rescaled to stay on the simplex)."
    )
    return _render("tuning", caption, draw, figsize=(7, 4.6))


def _clouds(analysis, inputs):
    n_classes = inputs.classes.size
    ncols = min(n_classes, 3)
    nrows = -(-n_classes // ncols)

    def draw(figure, axes):
        axes = np.asarray(axes).ravel()
        for extra in axes[n_classes:]:
            extra.remove()
        analysis.cloud.plot(ax=axes[:n_classes])

    return _render(
        "clouds",
        "ROC clouds on test: (FPR, TPR) of each class under argmax(p − τ) "
        "for every sampled τ, over the class's one-vs-rest ROC curve; × marks argmax.",
        draw,
        figsize=(3.4 * ncols, 3.4 * nrows),
        nrows=nrows,
        ncols=ncols,
        squeeze=False,
    )


def _gini(analysis, inputs):
    return _render(
        "gini",
        "Gini-weighted ROC curve on test with its stratified bootstrap band, over the per-class one-vs-rest curves.",
        lambda figure, ax: analysis.gini.plot(ax=ax),
        figsize=(6.4, 5),
    )


def model_figures(analysis: Any, inputs: Any) -> list[ReportFigure]:
    """The figures of one model's section, in the order they appear (none for a skipped section).

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
    figures = [_confusion(analysis, inputs), _roc_and_pr(analysis, inputs)]
    if analysis.comparison is not None:
        figures.append(_tuning(analysis, inputs))
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
