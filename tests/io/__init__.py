"""Tests of reading score files and writing outputs (polyroc.io)."""
