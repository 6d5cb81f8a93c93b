"""Matplotlib drawing of a :class:`~polyroc.gini.GiniRoc` (imported only when plotting)."""

from __future__ import annotations

import numpy as np


def plot_gini_roc(result, ax=None, *, show_classes=True, show_dispersion=True):
    """Draw the aggregated curve between the per-class curves, with the chance diagonal."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots()
    if show_classes:
        _draw_classes(result, ax)
    if show_dispersion:
        ax.fill_between(
            result.fpr, np.clip(result.tpr - result.dispersion, 0, 1),
            np.clip(result.tpr + result.dispersion, 0, 1), color="C0", alpha=0.15, linewidth=0,
            label="between-class dispersion (±1 weighted SD, not a confidence band)",
        )
    if result.bootstrap is not None:
        boot = result.bootstrap
        ax.fill_between(
            boot.fpr, boot.tpr_low, boot.tpr_high, color="C1", alpha=0.25, linewidth=0,
            label=f"{100 * boot.auc.confidence:g}% stratified bootstrap band (B={boot.auc.n_boot})",
        )
    ax.plot(result.fpr, result.tpr, color="C0", linewidth=2.5,
            label=f"Gini-weighted ROC (AUC = {result.auc_agg:.3f})")
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="chance (AUC = 0.5)")
    if result.settings.get("compat") == "reference":
        k = result.classes.size
        ax.plot([0, 1], [0, 1 / k], color="grey", linestyle=":", linewidth=1,
                label=f"reference code's baseline y = x/{k} (area 1/(2k) = {1 / (2 * k):.3f})")
    ax.set(xlim=(0, 1), ylim=(0, 1.01), xlabel="False positive rate", ylabel="True positive rate",
           title="Gini-weighted multiclass ROC")
    ax.legend(loc="lower right", fontsize="small")
    return ax


def _draw_classes(result, ax):
    for label, fpr, tpr, weight, auc in zip(
        result.classes, result.class_fpr, result.class_tpr, result.weights, result.class_auc
    ):
        if not np.isnan(auc):
            share = "" if np.isnan(weight) else f"w = {weight:.3f}, "  # NaN: constant scores
            ax.plot(fpr, tpr, linewidth=0.8, alpha=0.7, label=f"class {label} ({share}AUC = {auc:.3f})")
