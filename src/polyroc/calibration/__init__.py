"""Calibration of predicted probabilities: maps fitted on validation data (:func:`fit_calibrator`)."""

from polyroc.calibration._maps import Calibrator, fit_calibrator

__all__ = ["Calibrator", "fit_calibrator"]
