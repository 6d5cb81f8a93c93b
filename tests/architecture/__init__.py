"""Tests of the package as a whole: its import graph, docstrings, docs, result protocol and public API."""
