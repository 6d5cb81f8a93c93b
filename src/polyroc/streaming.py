"""Streaming accumulators: evaluate scores that arrive in batches, or on many machines.

Each accumulator keeps additive sufficient statistics of the rows it has seen:

- :class:`ConfusionAccumulator`: weighted confusion counts of the argmax rule,
  or of a batch of rules argmax(p - tau);
- :class:`LossAccumulator`: weighted sums of the log loss, the Brier score and
  the top-k hits, and the weight total;
- :class:`EvaluationAccumulator`: all of these, whose ``compute()`` returns the
  :class:`~polyroc.Evaluation` that :func:`polyroc.evaluate` gives;
- :class:`RankingAccumulator`: per score column, sorted runs of the scores
  with each row's class and weight, merged as they grow (exact one-vs-rest,
  one-vs-one and micro AUCs, ties included), or the weight of each class in
  the bins of a fixed grid (the AUCs of the binned scores with a bound on
  their error).

``update(y_true, y_score, sample_weight=None)`` adds a batch (and returns the
accumulator), ``merge(other)`` returns a new accumulator holding both inputs'
rows (e.g. from two workers), ``compute()`` returns the metrics. The class
order ``labels`` is required, since a stream cannot discover classes absent
from its first batches. Accumulators hold numpy arrays only and pickle.
"""

from __future__ import annotations

from polyroc.evaluation._streaming import (
    ConfusionAccumulator,
    EvaluationAccumulator,
    LossAccumulator,
    RankingAccumulator,
)
from polyroc.evaluation._streaming import (
    aucs_of_wins as aucs_of_wins,
)

__all__ = [
    "ConfusionAccumulator",
    "EvaluationAccumulator",
    "LossAccumulator",
    "RankingAccumulator",
]
