"""Tests of ROC-DMF (polyroc.dmf)."""
