"""Tests of the label metrics, the counts engine, the curves and input validation (polyroc.metrics, counts, curves)."""
