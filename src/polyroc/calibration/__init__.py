"""Calibration of predicted probabilities: calibration errors, reliability curves and calibration maps.

A classifier is calibrated when, among the rows it gives a probability p,
the event happens with frequency p. :func:`calibration_error` measures the
gap over bins of the scores (ECE, l2, maximum; top-label or classwise),
:func:`squared_calibration_error` the squared l2 gap with its noise removed,
:func:`smooth_calibration_error` the gap without bins (smooth ECE), and
:func:`reliability_curve` shows the bins, each frequency with a binomial
interval. :func:`fit_calibrator` fits a map on validation scores
(temperature, vector, matrix or isotonic) whose :meth:`Calibrator.transform`
recalibrates other scores. :func:`calibration_test` tests each class's
probabilities, and the top label's, for calibration (Spiegelhalter's Z or
Hosmer-Lemeshow), with Holm-adjusted p-values.
"""

from __future__ import annotations

from polyroc.calibration._error import calibration_error, squared_calibration_error
from polyroc.calibration._hypothesis import CalibrationTest, calibration_test
from polyroc.calibration._maps import Calibrator, fit_calibrator
from polyroc.calibration._reliability import ReliabilityCurve, reliability_curve
from polyroc.calibration._smooth import smooth_calibration_error

__all__ = [
    "CalibrationTest",
    "Calibrator",
    "ReliabilityCurve",
    "calibration_error",
    "calibration_test",
    "fit_calibrator",
    "reliability_curve",
    "smooth_calibration_error",
    "squared_calibration_error",
]
