"""Which interval method bounds which quantity of :func:`polyroc.evaluate`.

Each quantity takes the methods that apply to its kind:

- a proportion with a fixed denominator (accuracy, per-class recall, top-2
  accuracy): the Wilson score or Clopper-Pearson interval, with Kish's
  effective sample size under sample weights; the two counts of the
  confusion matrix also take its Dirichlet posterior;
- a composite of counts (precision, F1, macro-F1, balanced accuracy, kappa,
  MCC): the Dirichlet posterior over the rows of the confusion matrix;
- an AUC: DeLong's variance, logit-transformed;
- a mean loss (log loss, Brier score, expected cost): a Student t interval from its
  stratified variance (the expected cost: its plain variance, all rows one
  stratum, except at target priors);
- a binned calibration error (top-label and classwise ECE): draws of the
  bins' gaps and shares around the debiased gaps
  (:mod:`polyroc.evaluation._calibration`);

and every quantity takes the stratified percentile bootstrap. ``ci`` names a
family (:data:`CI_OPTIONS`), or maps quantities to methods; ``"none"``
(:data:`NO_INTERVALS`) asks for no interval at all (:func:`planned_intervals`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

__all__ = [
    "CI_CHOICES",
    "CI_OPTIONS",
    "INTERVAL_METHODS",
    "NO_INTERVALS",
    "QUANTITY_METHODS",
    "interval_plan",
    "planned_intervals",
]

#: Method name -> what it is, for error messages and documentation.
INTERVAL_METHODS = {
    "wilson": "Wilson score interval",
    "clopper-pearson": "Clopper-Pearson exact interval",
    "bayes": "Dirichlet posterior over the confusion matrix",
    "delong": "DeLong's variance on the logit scale",
    "t": "Student t interval of a mean (plain variance for the expected cost, else stratified)",
    "bootstrap": "stratified percentile bootstrap",
    "bin-draws": (
        "draws of the calibration bins: basic interval, its upper end taking back half its bias correction, "
        "joined with the test inversion"
    ),
}

_PROPORTION_OF_COUNTS = ("wilson", "clopper-pearson", "bayes", "bootstrap")
_COMPOSITE = ("bayes", "bootstrap")
_AUC = ("delong", "bootstrap")
_MEAN = ("t", "bootstrap")
_CALIBRATION = ("bin-draws", "bootstrap")

#: Quantity (a score of :func:`polyroc.evaluate`, or a per-class score) -> the methods that apply to it.
QUANTITY_METHODS = {
    "accuracy": _PROPORTION_OF_COUNTS,
    "balanced_accuracy": _COMPOSITE,
    "f1_macro": _COMPOSITE,
    "cohen_kappa": _COMPOSITE,
    "matthews_corrcoef": _COMPOSITE,
    "roc_auc_ovr_macro": _AUC,
    "roc_auc_ovr_weighted": _AUC,
    "roc_auc_ovr_micro": _AUC,
    "roc_auc_ovo_macro": _AUC,
    "log_loss": _MEAN,
    "brier_score": _MEAN,
    "expected_cost": _MEAN,
    "top_2_accuracy": ("wilson", "clopper-pearson", "bootstrap"),
    "ece_top_label": _CALIBRATION,
    "ece_classwise": _CALIBRATION,
    "precision": _COMPOSITE,
    "recall": _PROPORTION_OF_COUNTS,
    "f1-score": _COMPOSITE,
}

#: Family -> methods in order of preference; a quantity takes the first that applies to it.
_FAMILIES = {
    "auto": ("wilson", "delong", "t", "bayes", "bin-draws"),
    "analytic": ("wilson", "delong", "t", "bayes", "bin-draws"),
    "bayes": ("bayes", "delong", "wilson", "t", "bin-draws"),
    "bootstrap": ("bootstrap",),
}

#: The families ``ci`` names as a string.
CI_OPTIONS = tuple(_FAMILIES)

#: The ``ci`` of no interval at all, as ``n_boot=0``.
NO_INTERVALS = "none"

#: Every string ``ci`` takes: a family or :data:`NO_INTERVALS`.
CI_CHOICES = (*CI_OPTIONS, NO_INTERVALS)

#: The strings of :data:`CI_CHOICES`, as a type.
CiChoice = Literal["auto", "analytic", "bayes", "bootstrap", "none"]


def interval_plan(ci: CiChoice | Mapping[str, str], quantities: list[str] | tuple[str, ...]) -> dict[str, str]:
    """The method of each quantity under ``ci``.

    ``ci`` is a family of :data:`CI_OPTIONS`, or a mapping from quantities to
    method names (quantities it leaves out take the ``"auto"`` choice).
    ``"none"`` has no methods: :func:`planned_intervals` reads it.

    Raises
    ------
    TypeError
        If ``ci`` is neither a string nor a mapping.
    ValueError
        If ``ci`` is ``"none"``, an unknown family, names an unknown quantity
        or method, or gives a quantity a method that does not apply to it
        (the message says which do).

    Examples
    --------
    >>> interval_plan("auto", ["accuracy", "f1_macro", "roc_auc_ovr_macro"])
    {'accuracy': 'wilson', 'f1_macro': 'bayes', 'roc_auc_ovr_macro': 'delong'}
    >>> interval_plan({"accuracy": "bootstrap"}, ["accuracy", "log_loss"])
    {'accuracy': 'bootstrap', 'log_loss': 't'}
    """
    if isinstance(ci, str):
        if ci == NO_INTERVALS:
            raise ValueError(f"ci={ci!r} (no intervals) has no methods; read it with planned_intervals")
        if ci not in _FAMILIES:
            raise ValueError(f"ci must be one of {', '.join(map(repr, CI_CHOICES))} or a mapping; got {ci!r}")
        return {quantity: _preferred(ci, quantity) for quantity in quantities}
    if not isinstance(ci, Mapping):
        raise TypeError(f"ci must be a string or a mapping of quantity to method; got {type(ci).__name__}")
    plan = {quantity: _preferred("auto", quantity) for quantity in quantities}
    for quantity, method in ci.items():
        plan[quantity] = _checked_choice(quantity, method, quantities)
    return plan


def planned_intervals(
    ci: CiChoice | Mapping[str, str], n_boot: int, quantities: list[str] | tuple[str, ...]
) -> tuple[dict[str, str], int]:
    """The methods of ``ci`` and the draws to make: ``"none"`` is no interval at all, as ``n_boot=0``.

    Any other ``ci`` is :func:`interval_plan`'s, with ``n_boot`` as given.

    Raises
    ------
    TypeError, ValueError
        As :func:`interval_plan`, for a ``ci`` other than ``"none"``.

    Examples
    --------
    >>> planned_intervals("none", 1000, ["accuracy"])
    ({'accuracy': 'wilson'}, 0)
    >>> planned_intervals("bootstrap", 200, ["accuracy"])
    ({'accuracy': 'bootstrap'}, 200)
    """
    if isinstance(ci, str) and ci == NO_INTERVALS:
        return interval_plan("auto", quantities), 0
    return interval_plan(ci, quantities), n_boot


def _preferred(family, quantity):
    """The first method of ``family`` that applies to ``quantity``."""
    applicable = QUANTITY_METHODS[quantity]
    return next(method for method in _FAMILIES[family] if method in applicable)


def _checked_choice(quantity, method, quantities):
    if quantity not in quantities:
        raise ValueError(f"ci names an unknown quantity {quantity!r}; the quantities are: {', '.join(quantities)}")
    if method not in INTERVAL_METHODS:
        raise ValueError(
            f"ci[{quantity!r}] is an unknown method {method!r}; methods are: {', '.join(INTERVAL_METHODS)}"
        )
    applicable = QUANTITY_METHODS[quantity]
    if method not in applicable:
        raise ValueError(
            f"method {method!r} does not apply to {quantity!r}; it takes {', '.join(map(repr, applicable))}"
        )
    return method
