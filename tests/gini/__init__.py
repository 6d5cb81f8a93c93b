"""Tests of the Gini-weighted ROC (polyroc.gini)."""
