"""ROC-DMF: one multiclass ROC curve from a binomial factorization of the pairwise rates.

Wang & Carvalho (2024), "Multiclass ROC", arXiv:2404.13147. For every ordered class pair the TPR and
FPR at T quantile thresholds form two T × K matrices (:func:`pairwise_rates`);
a weighted binomial rank-one factorization of them (:func:`roc_dmf`) gives one
curve and its area D, with a parametric or stratified bootstrap for its
uncertainty and for ranking several models (:func:`compare_models`).

Modules: ``_rates`` (pairwise matrices), ``_factorization`` (batched IRLS),
``_weights`` (trials and fit weights), ``_curve`` (curve and D), ``_model``
(one fit), ``_bootstrap``, ``_roc`` (entry point and result), ``_compare``.
"""

from polyroc.dmf._bootstrap import DmfBootstrap
from polyroc.dmf._compare import ModelComparison, compare_models
from polyroc.dmf._rates import PairwiseRates, pairwise_rates
from polyroc.dmf._roc import DmfRoc, roc_dmf
from polyroc.dmf._weights import majority_cost_weights
from polyroc.exceptions import NonMonotoneCurveWarning, SmallClassWarning

__all__ = [
    "DmfBootstrap",
    "DmfRoc",
    "ModelComparison",
    "NonMonotoneCurveWarning",
    "PairwiseRates",
    "SmallClassWarning",
    "compare_models",
    "majority_cost_weights",
    "pairwise_rates",
    "roc_dmf",
]
