"""Tests of polyroc.calibration: calibration errors, the smooth ECE, reliability curves and calibration maps."""
