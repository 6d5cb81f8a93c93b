"""One-call evaluation of a classifier's scores: the standard multiclass summary.

With ``n_boot > 0`` (the default) every number also gets a confidence
interval, by the method ``ci`` gives its kind of quantity
(:mod:`polyroc.evaluation._plan`): Wilson for proportions, DeLong for AUCs, the
Dirichlet posterior of the confusion matrix for composites of counts, a normal
interval for mean losses (:mod:`polyroc.evaluation._analytic`), draws of the
calibration bins for the ECEs (:mod:`polyroc.evaluation._calibration`), or the
stratified percentile bootstrap. In a bootstrap replicate r, sample s weighs
its multiplicity times its sample weight. The samples are grouped by class once, so that each
replicate's draws fill contiguous rows; chunks of replicates run on every core:
confusion counts (b, m, m) of a chunk feed the vectorised counts metrics,
losses are weighted means, and AUCs come from the positives of each comparison
sorted once (:class:`polyroc._engine.replicates.GroupedRankings`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polyroc._lazy import lazy_attributes

#: Public name -> the module of the package that defines it, imported on first use: the light
#: modules of the package (the interval plan) then import without numpy.
_LOCATIONS = {
    "AUC_SCORES": "polyroc.evaluation._evaluate",
    "DEGENERATE_REASONS": "polyroc.evaluation._evaluate",
    "DELONG_UNAVAILABLE": "polyroc.evaluation._evaluate",
    "RANKING_SCORES": "polyroc.evaluation._evaluate",
    "Evaluation": "polyroc.evaluation._evaluate",
    "evaluate": "polyroc.evaluation._evaluate",
    "evaluation_of_statistics": "polyroc.evaluation._evaluate",
    "QUANTITY_METHODS": "polyroc.evaluation._plan",
    "CLASS_SCORES": "polyroc.evaluation._summary",
    "COUNTS_SCORES": "polyroc.evaluation._summary",
    "DELONG_TIES": "polyroc.intervals._delong",
}

__all__ = [
    "Evaluation",
    "evaluate",
]

__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LOCATIONS)

if TYPE_CHECKING:  # type checkers see the names directly
    from polyroc.evaluation._evaluate import AUC_SCORES as AUC_SCORES
    from polyroc.evaluation._evaluate import DEGENERATE_REASONS as DEGENERATE_REASONS
    from polyroc.evaluation._evaluate import DELONG_UNAVAILABLE as DELONG_UNAVAILABLE
    from polyroc.evaluation._evaluate import RANKING_SCORES as RANKING_SCORES
    from polyroc.evaluation._evaluate import Evaluation as Evaluation
    from polyroc.evaluation._evaluate import evaluate as evaluate
    from polyroc.evaluation._evaluate import evaluation_of_statistics as evaluation_of_statistics
    from polyroc.evaluation._plan import QUANTITY_METHODS as QUANTITY_METHODS
    from polyroc.evaluation._summary import CLASS_SCORES as CLASS_SCORES
    from polyroc.evaluation._summary import COUNTS_SCORES as COUNTS_SCORES
    from polyroc.intervals._delong import DELONG_TIES as DELONG_TIES
