"""Tests of polyroc.evaluate, the streaming accumulators and compare_scores."""
