"""Reading predicted scores and tuned thresholds from files, and writing predictions and thresholds.

Score files (CSV, or Parquet when pyarrow is installed) hold one row per sample:

- one column per class holding that class's score; the column name *is* the
  class label (e.g. ``cat,dog,bird`` or ``0,1,2``), or the label after a
  common prefix (``score_prefix="proba_"``: ``proba_cat,proba_dog``);
- one label column (default name ``label``) holding the true class of each
  row, spelled exactly as one of the score column names (optional where
  labels are not needed, e.g. when applying tuned thresholds);
- optionally an id column (``id_col``), carried into outputs; an unnamed
  first column, the index ``pandas.DataFrame.to_csv`` writes, is the id
  column unless another is named, and never a score (in a Parquet file, the
  unnamed index ``DataFrame.to_parquet`` stores, as a column or as a range);
- optionally a weight column (``weight_col``): a non-negative sample weight
  per row, of relative importance;
- any other column. Which columns are scores: those of ``score_columns`` or
  ``score_prefix`` when given; else the columns named by a label of the label
  column, and those of the other columns that hold numbers (the classes with
  no row in the file) but not distinct whole numbers (an id, a row number);
  columns of text or of distinct whole numbers are left unread and listed in
  :attr:`ScoreTable.ignored_columns`. In a file without labels, every column
  but the id and weight columns is a score column.

CSV files are UTF-8 text (a byte-order mark is skipped), comma-separated,
with quoted fields and any line ends; blank lines are skipped and errors name
the file's line. It is read in chunks of rows into numpy columns, so memory
holds the numbers, not the text. A column name may appear only once in the header; every score
must be a finite number.

NPZ files hold arrays instead: ``scores`` (n, m), ``classes`` (m,), and
optionally ``labels`` (n,), ``ids`` (n,) and a weight array named by ``weight_col``.

Fitted calibration maps are JSON files too (:func:`write_calibrator`,
:func:`read_calibrator`). Cost matrices are CSV tables of the classes
(:func:`read_cost_matrix`).

Outputs (predictions, tuned thresholds, calibration maps) are written through
:class:`polyroc.io.OutputFile`, which never overwrites a file polyroc did
not write; see :mod:`polyroc.io._outputs` for the guarantees.
"""

from __future__ import annotations

from polyroc.io._calibrators import read_calibrator, write_calibrator
from polyroc.io._costs import read_cost_matrix
from polyroc.io._manifests import MANIFEST_NAME
from polyroc.io._outputs import OutputDirectory, OutputFile, directory_refusal
from polyroc.io._scores import ScoreTable, read_scores, write_predictions
from polyroc.io._thresholds import read_thresholds, write_thresholds

__all__ = [
    "MANIFEST_NAME",
    "OutputDirectory",
    "OutputFile",
    "ScoreTable",
    "directory_refusal",
    "read_calibrator",
    "read_cost_matrix",
    "read_scores",
    "read_thresholds",
    "write_calibrator",
    "write_predictions",
    "write_thresholds",
]
