"""Brute-force and reference computations the tests compare polyroc against; nothing here is part of polyroc."""
