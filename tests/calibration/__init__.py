"""Tests of polyroc.calibration."""
