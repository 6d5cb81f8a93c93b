"""Evaluation of scored rows that do not fit one machine, on Dask (``pip install polyroc[dask]``).

:func:`evaluate` gives the :class:`~polyroc.Evaluation` of a dask DataFrame,
equal to :func:`polyroc.evaluate` on the concatenated rows, without ever
gathering them; :func:`read_score_files` reads a glob of Parquet or CSV
score files into one frame, checking that every file has the same columns.
Nothing in the rest of polyroc imports dask.
"""

from polyroc.dask._curves import ovr_roc_curve
from polyroc.dask._evaluate import evaluate
from polyroc.dask._files import read_score_files
from polyroc.dask._sample import RowSample, sample_rows
from polyroc.dask._tuning import tune_thresholds

__all__ = ["RowSample", "evaluate", "ovr_roc_curve", "read_score_files", "sample_rows", "tune_thresholds"]
