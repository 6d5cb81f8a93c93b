"""Gini-weighted multiclass ROC curve of Giudici, Rosciano, Schrader & Kummerfeld (2025), arXiv:2510.15670.

``gini_roc`` averages the one-vs-rest ROC curves with the class weights of the
multidimensional Gini index (Auricchio, Giudici & Toscani (2024),
arXiv:2409.10119) of the ZCA-cor whitened scores; the building blocks are
public too. The documentation's Gini page explains
the choices (singular correlation, exact grid, vertical or threshold averaging,
bootstrap, ``compat="reference"``).
"""

from polyroc.exceptions import ScoreScaleWarning, WhiteningWarning
from polyroc.gini._dispersion import gini_index, gini_mean_difference
from polyroc.gini._multigini import MultidimensionalGini, multidimensional_gini
from polyroc.gini._roc import GiniBootstrap, GiniRoc, gini_roc
from polyroc.gini._whitening import Whitening, zca_cor_whitening

__all__ = [
    "GiniBootstrap",
    "GiniRoc",
    "MultidimensionalGini",
    "ScoreScaleWarning",
    "Whitening",
    "WhiteningWarning",
    "gini_index",
    "gini_mean_difference",
    "gini_roc",
    "multidimensional_gini",
    "zca_cor_whitening",
]
