"""Seeded, stratified bootstrap shared by every confidence interval in polyroc.

A bootstrap replicate is represented by its *multiplicities*: how many times
each sample is drawn. Counts-based statistics of a replicate are then the
counts weighted by the multiplicities, so a whole batch of replicates is one
matrix product or one weighted ``bincount`` — no copies of the data.

Intervals are equal-tailed percentile intervals (Efron & Tibshirani (1993),
*An Introduction to the Bootstrap*, Chapman & Hall, doi:10.1201/9780429246593,
chapter 13) of replicates drawn within each class, so that every replicate
keeps the class sizes of the data.
"""

from __future__ import annotations

from polyroc.intervals._resampling import (
    CELL_PROGRESS_STEP as CELL_PROGRESS_STEP,
)
from polyroc.intervals._resampling import (
    FEW_CHANGED_ROWS as FEW_CHANGED_ROWS,
)
from polyroc.intervals._resampling import (
    MAX_CELL_SHARE as MAX_CELL_SHARE,
)
from polyroc.intervals._resampling import (
    PAIRED_STRATIFIED_PERCENTILE as PAIRED_STRATIFIED_PERCENTILE,
)
from polyroc.intervals._resampling import (
    STRATIFIED_PERCENTILE as STRATIFIED_PERCENTILE,
)
from polyroc.intervals._resampling import (
    ZERO_WIDTH as ZERO_WIDTH,
)
from polyroc.intervals._resampling import (
    ConfidenceInterval,
    PairedRuleScores,
    bootstrap_multiplicities,
    paired_rule_scores,
    percentile_interval,
)
from polyroc.intervals._resampling import (
    changed_rows as changed_rows,
)
from polyroc.intervals._resampling import (
    class_strata as class_strata,
)
from polyroc.intervals._resampling import (
    degenerate_interval as degenerate_interval,
)
from polyroc.intervals._resampling import (
    is_zero_width as is_zero_width,
)
from polyroc.intervals._resampling import (
    stratum_multiplicities as stratum_multiplicities,
)
from polyroc.intervals._resampling import (
    supported_sign as supported_sign,
)
from polyroc.intervals._resampling import (
    too_few_changed_rows as too_few_changed_rows,
)

__all__ = [
    "ConfidenceInterval",
    "PairedRuleScores",
    "bootstrap_multiplicities",
    "paired_rule_scores",
    "percentile_interval",
]
