"""Checks of the inputs of the decisions: cost matrices, class priors and the label of a rejection.

They live in :mod:`polyroc._validation._costs`, below the packages that
also take a cost matrix or priors (:func:`polyroc.evaluate`,
:func:`polyroc.comparison.compare_scores`); this module keeps their import path.
"""

from __future__ import annotations

from polyroc._validation._costs import check_cost_matrix, check_priors, reject_label_for

__all__ = ["check_cost_matrix", "check_priors", "reject_label_for"]
