"""Tests of the simplex threshold rule (polyroc.thresholds)."""
