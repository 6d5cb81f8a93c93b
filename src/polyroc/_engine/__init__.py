"""The kernels: fast computations on inputs already checked, which never validate and never warn about input.

- :mod:`~polyroc._engine.counts`: confusion counts of one rule, of batches of
  threshold rules and of bootstrap replicates (``bincount`` on combined codes).
- :mod:`~polyroc._engine.ranking`: one sort per score column; binary curve
  counts, pairwise and micro-average wins, every point AUC.
- :mod:`~polyroc._engine.score_orders`: one stable sort per score column,
  shared by the steps of a report.
- :mod:`~polyroc._engine.replicates`: AUCs of many bootstrap replicates from
  one sort (grouped rankings, integer-weight sums).
- :mod:`~polyroc._engine.replicate_columns`: the sample-major layout of
  replicate weights.
- :mod:`~polyroc._engine.sorted_runs`: sorted runs that merge exactly, for
  streaming AUCs.
- :mod:`~polyroc._engine.binning`: calibration columns, their bins, per-bin
  totals and binned calibration errors.
- :mod:`~polyroc._engine.effective_sizes`: Kish's effective sample sizes.
- :mod:`~polyroc._engine.numeric`: division with a zero-division value and
  NaN-aware means.
- :mod:`~polyroc._engine.parallel`, :mod:`~polyroc._engine.progress`,
  :mod:`~polyroc._engine.stopping`: both cores for chunked work, progress
  announcements and stop requests (signals) checked between chunks.
"""
