"""Tests of the HTML report (polyroc.report)."""
