"""Tests of the polyroc command line (polyroc.cli)."""
