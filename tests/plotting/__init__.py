"""Tests of the Displays and drawing helpers (polyroc.plotting)."""
