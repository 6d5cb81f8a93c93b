"""Display objects (matplotlib) for polyroc's results, in scikit-learn's Display pattern.

Each display is built by a classmethod from a result object (``from_result``,
what ``result.plot()`` calls), from the data (``from_predictions``) or from a
fitted estimator (``from_estimator``), draws with ``.plot(ax=None, *, name=None,
...)`` and keeps the matplotlib artists it drew (``ax_``, ``figure_``,
``line_``, ``lines_`` ...). Nothing here calls ``plt.show()``. The core of
polyroc never imports this package: importing it registers which Display
draws each result type (:mod:`polyroc.plotting._registry`), the table a
result's ``plot`` reads. Importing it does not import ``matplotlib.pyplot``
until a display is drawn. Classes get the colours of
:func:`class_colors` (distinct for up to 20 classes) in every display.

- :class:`ConfusionMatrixDisplay`: counts or normalised rates.
- :class:`RocCurveDisplay`: one-vs-rest ROC curves, micro and macro averages.
- :class:`PrecisionRecallDisplay`: one-vs-rest precision-recall curves.
- :class:`RocCloudDisplay`: ROC clouds of sampled thresholds, with DFP.
- :class:`SimplexHeatmapDisplay`: tuning score over the threshold simplex (3 classes).
- :class:`DecisionRegionsDisplay`: regions of argmax(p − τ) on the simplex (3 classes).
- :class:`TuningProfileDisplay`: score along each threshold coordinate through τ* (any m).
- :class:`ThresholdsDisplay`: the tuned thresholds τ* against equal ones (any m, from the result alone).
- :class:`DmfRocDisplay`: the ROC-DMF curve, its bootstrap band and D.
- :class:`GiniRocDisplay`: the Gini-weighted ROC curve between the class curves, with its bands.
- :class:`ReliabilityDisplay`: reliability diagrams (top-label or classwise) with per-bin intervals.
- :class:`CrossValidationDisplay`: each cross-validation fold's curve, their min–max band and mean
  (``from_cv_results`` of the ROC, precision-recall, profile and reliability Displays).
- :class:`CrossValidatedTuningDisplay`: the τ* tuned on each fold (simplex for 3 classes, strips otherwise).
"""

from polyroc.plotting._base import Display
from polyroc.plotting._clouds import RocCloudDisplay
from polyroc.plotting._common import class_colors, simplex_to_cartesian
from polyroc.plotting._confusion_matrix import ConfusionMatrixDisplay
from polyroc.plotting._cv import CrossValidationDisplay
from polyroc.plotting._cv_tuning import CrossValidatedTuningDisplay
from polyroc.plotting._dmf import DmfRocDisplay
from polyroc.plotting._gini import GiniRocDisplay
from polyroc.plotting._precision_recall import PrecisionRecallDisplay
from polyroc.plotting._profile import TuningProfileDisplay
from polyroc.plotting._registry import register_displays
from polyroc.plotting._reliability import ReliabilityDisplay
from polyroc.plotting._roc import RocCurveDisplay
from polyroc.plotting._simplex import DecisionRegionsDisplay, SimplexHeatmapDisplay, decision_region
from polyroc.plotting._thresholds import ThresholdsDisplay

__all__ = [
    "ConfusionMatrixDisplay",
    "CrossValidatedTuningDisplay",
    "CrossValidationDisplay",
    "DecisionRegionsDisplay",
    "Display",
    "DmfRocDisplay",
    "GiniRocDisplay",
    "PrecisionRecallDisplay",
    "ReliabilityDisplay",
    "RocCloudDisplay",
    "RocCurveDisplay",
    "SimplexHeatmapDisplay",
    "ThresholdsDisplay",
    "TuningProfileDisplay",
    "class_colors",
    "decision_region",
    "simplex_to_cartesian",
]

register_displays()
