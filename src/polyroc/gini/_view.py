"""The notebook view of a :class:`~polyroc.gini.GiniRoc`: its areas and weights, and what a singular whitening means."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polyroc._results import bounds_text, html_table, interval_table, number_text

if TYPE_CHECKING:
    from polyroc.gini._roc import GiniRoc

__all__ = ["view_notes", "view_sections", "whitening_notes"]


def view_sections(result: GiniRoc) -> list[str]:
    """The aggregated AUC with its interval, G₁, then each class's weight (with its interval) and AUC."""
    boot = result.bootstrap
    areas = interval_table(
        [
            ("auc_agg", result.auc_agg, boot and boot.auc),
            ("g1", result.g1, None),
            ("auc_theory", result.auc_theory, None),
        ],
        "Gini-weighted ROC",
        why="none (n_boot=0)" if boot is None else "none: a dispersion of the scores, not of their ranking",
    )
    lows, highs = (result.weights, result.weights) if boot is None else (boot.weights_low, boot.weights_high)
    rows = [
        [label, number_text(weight) + ("" if boot is None else f" {bounds_text(low, high)}"), auc]
        for label, weight, auc, low, high in zip(result.classes.tolist(), result.weights, result.class_auc, lows, highs)
    ]
    return [areas, html_table(rows, ["class", "weight [CI]", "one-vs-rest AUC"], "Classes")]


def whitening_notes(applied: str | None, condition: float | None) -> list[str]:
    """One plain sentence on a whitening other than the paper's exact one (none for the exact one).

    >>> whitening_notes("exact", 3.0), len(whitening_notes("limit", float("inf")))
    ([], 1)
    """
    finite = condition is not None and condition < float("inf")
    number = f"condition number {condition:.2g}" if finite else ""
    if applied == "limit":
        return [
            "The score columns are linearly dependent (rows that all sum to 1, as probabilities do, make them so"
            + (f"; {number}" if number else "")
            + "), so the paper's whitening is undefined: the weights are its λ → 0 limit and G₁ = 0 by "
            "construction (auc_theory = 0.5), which says nothing of how well the scores rank."
        ]
    if applied in ("pinv", "ridge", "diagonal"):
        return [
            "The correlation matrix of the scores is singular"
            + (f" ({number})" if number else "")
            + f"; the whitening applied is {applied!r}, not the paper's."
        ]
    return []


def view_notes(result: GiniRoc) -> list[str]:
    """The whitening's note (:func:`whitening_notes`), then one on the classes of weight 0."""
    notes = whitening_notes(result.settings.get("whitening"), result.settings.get("condition_number"))
    if result.degenerate:
        notes[-1] += " auc_agg and the one-vs-rest AUCs measure that."
    return notes + [
        f"Class {', '.join(map(str, result.settings[key]))}: {what}, so weight 0."
        for key, what in (("constant_classes", "constant scores"), ("absent_classes", "no rows"))
        if result.settings.get(key)
    ]
