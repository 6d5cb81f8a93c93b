"""Tests of polyroc.calibration: calibration errors, the smooth ECE and reliability curves."""
