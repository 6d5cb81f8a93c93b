"""Which Display draws each result type: the table :mod:`polyroc.plotting` registers when it is imported.

A result's ``plot(ax, **kwargs)`` calls the drawing function registered for
its type in :mod:`polyroc._displays` (see :mod:`polyroc._results`). Most
results are drawn by a Display's ``from_result``; an
:class:`~polyroc.Evaluation` by the confusion matrix of its counts, and a
tuning by one of three Displays, chosen by its number of classes and whether
it kept its score surface.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polyroc._displays import DrawFunction, register_display
from polyroc.calibration import ReliabilityCurve
from polyroc.curves import OvrPrecisionRecallCurves, OvrRocCurves
from polyroc.dmf import DmfRoc
from polyroc.evaluation import Evaluation
from polyroc.gini import GiniRoc
from polyroc.plotting._base import Display
from polyroc.plotting._clouds import RocCloudDisplay
from polyroc.plotting._confusion_matrix import ConfusionMatrixDisplay
from polyroc.plotting._cv_tuning import CrossValidatedTuningDisplay
from polyroc.plotting._dmf import DmfRocDisplay
from polyroc.plotting._gini import GiniRocDisplay
from polyroc.plotting._precision_recall import PrecisionRecallDisplay
from polyroc.plotting._profile import TuningProfileDisplay
from polyroc.plotting._reliability import ReliabilityDisplay
from polyroc.plotting._roc import RocCurveDisplay
from polyroc.plotting._simplex import DecisionRegionsDisplay, SimplexHeatmapDisplay
from polyroc.plotting._thresholds import ThresholdsDisplay
from polyroc.thresholds.clouds import RocCloud
from polyroc.thresholds.cross_validation import CrossValidatedTuning
from polyroc.thresholds.profile import CoordinateProfile
from polyroc.thresholds.tuning import TuningResult

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["DISPLAYS", "evaluation_display", "register_displays", "tuning_display"]


def evaluation_display(evaluation: Evaluation, ax: Axes | None = None, **kwargs: Any) -> ConfusionMatrixDisplay:
    """The confusion matrix of an evaluation's argmax predictions, drawn (``Evaluation.plot``)."""
    display = ConfusionMatrixDisplay(evaluation.confusion_matrix, display_labels=list(evaluation.classes))
    return display.plot(ax=ax, **kwargs)


def tuning_display(result: TuningResult, ax: Axes | None = None, **kwargs: Any) -> Display:
    """A tuned rule, drawn (``TuningResult.plot``).

    With 3 classes, its score surface on the simplex when it has one, else
    its decision regions; with any other number of classes, its thresholds.
    """
    if result.classes.size != 3:
        return ThresholdsDisplay.from_result(result, ax=ax, **kwargs)
    if result.thresholds is None:
        return DecisionRegionsDisplay.from_result(result, ax=ax, **kwargs)
    return SimplexHeatmapDisplay.from_result(result, ax=ax, **kwargs)


#: Result type -> ``draw(result, ax=None, **kwargs)``, the Display its ``plot`` returns.
DISPLAYS: dict[type, DrawFunction] = {
    Evaluation: evaluation_display,
    OvrRocCurves: RocCurveDisplay.from_result,
    OvrPrecisionRecallCurves: PrecisionRecallDisplay.from_result,
    TuningResult: tuning_display,
    CoordinateProfile: TuningProfileDisplay.from_result,
    RocCloud: RocCloudDisplay.from_result,
    DmfRoc: DmfRocDisplay.from_result,
    GiniRoc: GiniRocDisplay.from_result,
    ReliabilityCurve: ReliabilityDisplay.from_result,
    CrossValidatedTuning: CrossValidatedTuningDisplay.from_result,
}


def register_displays() -> None:
    """Register every entry of :data:`DISPLAYS` with :func:`polyroc._displays.register_display`."""
    for result_type, draw in DISPLAYS.items():
        register_display(result_type, draw)
