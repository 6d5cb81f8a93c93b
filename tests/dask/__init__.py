"""Tests of evaluation on a dask cluster (polyroc.dask)."""
