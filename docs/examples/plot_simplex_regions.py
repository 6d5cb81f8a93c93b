"""
Decision regions and score heat maps on the probability simplex
===============================================================

A classifier of three classes outputs a probability vector p = (p_0, p_1, p_2), a point of a
triangle, the probability simplex. Plain argmax cuts the triangle into three regions that meet at
its centre, the barycentre (1/3, 1/3, 1/3). The rule argmax(p − τ) moves that meeting point to
any threshold τ on the simplex: raising τ_k shrinks the region of class k and grows the others.
Tuning τ on validation data to maximise a metric is the multiclass analogue of moving the cut-off
of a binary classifier (Legnaro, Guastavino & Marchetti 2025, arXiv:2511.21794).

This example redraws the paper's first three figures on real scores: the regions of
argmax(p − τ) for three thresholds (Fig. 1), the overlapping one-vs-rest regions behind the usual
OvR ROC curves (Fig. 2), and the accuracy and macro-F1 heat maps over a lattice of thresholds,
with the best τ* marked (Fig. 3).

The data are the three window-glass types of the bundled glass data: building windows that are
float processed ("float", 70 samples) or not ("non-float", 76), and float-processed vehicle
windows ("vehicle", 17), the rare class. A logistic regression is fitted on half of the samples;
the other half is the validation set whose probabilities are drawn and scored.
"""

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.lines import Line2D
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.datasets import load_glass
from polyroc.plotting import DecisionRegionsDisplay, SimplexHeatmapDisplay, class_colors, simplex_to_cartesian
from polyroc.thresholds import apply_thresholds, barycentre, ovr_assign, tune_thresholds

glass = load_glass()
names = {"1": "float", "2": "non-float", "3": "vehicle"}
window = np.isin(glass.target, list(names))
X = glass.data[window]
y = np.array([names[label] for label in glass.target[window]])

X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
classes = model.classes_
val_scores = model.predict_proba(X_val)
print("classes (columns of p):", classes.tolist())
print("validation samples per class:", {str(c): int(np.sum(y_val == c)) for c in classes})


def errors_and_predictions(tau):
    """Errors of argmax(p - tau) on the validation set, and how many samples each class receives."""
    y_pred = apply_thresholds(val_scores, tau, labels=classes)
    return {"errors": int(np.sum(y_pred != y_val))} | {f"→ {c}": int(np.sum(y_pred == c)) for c in classes}


# %%
# The regions of argmax(p − τ) (Fig. 1)
# -------------------------------------
# The three thresholds of the paper's Fig. 1: the barycentre (plain argmax), τ = (1/2, 1/3, 1/6)
# and τ = (1/8, 3/4, 1/8). :class:`~polyroc.plotting.DecisionRegionsDisplay` fills each region
# with the colour of the class it predicts and marks τ, where the three regions meet, with a
# white star. Each dot is a validation sample at its probability vector, coloured by its true
# class; a dot in a region of another colour is an error.
thresholds = {
    "argmax, τ = (1/3, 1/3, 1/3)": barycentre(3),
    "τ = (1/2, 1/3, 1/6)": np.array([1 / 2, 1 / 3, 1 / 6]),
    "τ = (1/8, 3/4, 1/8)": np.array([1 / 8, 3 / 4, 1 / 8]),
}
fig, axes = plt.subplots(2, 2, figsize=(7.2, 7.2), layout="constrained", gridspec_kw={"wspace": 0.12})
outcomes = {}
for ax, (title, tau) in zip(axes.flat, thresholds.items()):
    display = DecisionRegionsDisplay.from_predictions(y_val, val_scores, threshold=tau, labels=classes, ax=ax)
    outcomes[title] = errors_and_predictions(tau)
    ax.set_title(f"{title}\n{outcomes[title]['errors']} errors of {y_val.size}", pad=22)
    ax.get_legend().remove()
handles = [region for region in display.regions_ if region is not None] + display.scatters_
labels = [handle.get_label() for handle in handles]
star = dict(linestyle="none", marker="*", markersize=12, markerfacecolor="white", markeredgecolor="black")
axes[1, 1].set_axis_off()  # the fourth cell holds the legend
axes[1, 1].legend([*handles, Line2D([], [], **star)], [*labels, "τ"], loc="center")
plt.show()
print(f"errors of {y_val.size} validation samples, and samples predicted as each class (→):")
print(pd.DataFrame(outcomes).T.to_string())

# %%
# Plain argmax predicts "vehicle" for 8 samples. The second threshold lowers τ_vehicle to 1/6 and
# raises τ_float to 1/2: the vehicle region grows (18 predicted) and the float region shrinks
# (24), at the cost of three more errors. The third raises τ_non-float to 3/4 and the non-float
# region shrinks to a corner: only 9 samples are still predicted non-float, and the errors rise
# from 38 to 48.
#
# The one-vs-rest regions (Fig. 2)
# --------------------------------
# A one-vs-rest ROC curve moves a cut-off on p_j alone: a sample counts as class j when
# p_j > τ_j, whatever its other probabilities. On the simplex this region is the triangle at
# vertex j cut off by the line p_j = τ_j. For the same three thresholds, the three triangles
# cover the simplex but overlap, and a sample in the overlap gets two labels: the OvR regions are
# not a decision rule, while the regions of argmax(p − τ) are a partition.
# :func:`~polyroc.thresholds.ovr_assign` gives these memberships. No library display draws these
# regions, so they are filled by hand at the positions given by
# :func:`~polyroc.plotting.simplex_to_cartesian`.
colors = class_colors(3)
corners = np.eye(3)
triangle = simplex_to_cartesian(np.vstack([corners, corners[:1]]))
vertex_text = [(-0.04, -0.04, "right", "top"), (0.04, -0.04, "left", "top"), (0.0, 0.04, "center", "bottom")]
fig, axes = plt.subplots(2, 2, figsize=(7.2, 7.2), layout="constrained", gridspec_kw={"wspace": 0.12})
for ax, (title, tau) in zip(axes.flat, thresholds.items()):
    points = simplex_to_cartesian(val_scores)
    for j, label in enumerate(classes):
        cut = [tau[j] * corners[j] + (1 - tau[j]) * corners[k] for k in range(3) if k != j]
        ax.fill(*simplex_to_cartesian(np.array([corners[j], *cut])).T, color=colors[j], alpha=0.3, linewidth=0)
        mine = y_val == label
        ax.scatter(*points[mine].T, s=18, color=colors[j], edgecolors="black", linewidths=0.4)
    ax.plot(*simplex_to_cartesian(tau), **star)
    ax.plot(*triangle.T, color="black", linewidth=1)
    for (x, y_pos), label, (dx, dy, ha, va) in zip(triangle, classes, vertex_text):
        ax.text(x + dx, y_pos + dy, label, ha=ha, va=va)
    ax.set_aspect("equal")
    ax.set_axis_off()
    n_labels = ovr_assign(val_scores, tau).sum(axis=1)
    several = int(np.sum(n_labels > 1))
    print(f"{title}: {several} of {y_val.size} samples in two OvR regions")
    ax.set_title(f"{title}\n{several} samples with two labels", pad=22)
fill_handles = [plt.Rectangle((0, 0), 1, 1, color=colors[j], alpha=0.3) for j in range(3)]
fill_labels = [f"p({label}) > τ_{j}" for j, label in enumerate(classes)]
axes[1, 1].set_axis_off()
axes[1, 1].legend(fill_handles, fill_labels, loc="center")
plt.show()

# %%
# The score over every threshold (Fig. 3)
# ---------------------------------------
# :func:`~polyroc.thresholds.tune_thresholds` scores every τ of the lattice of step 1/200 on the
# simplex (20,301 points, the grid of the paper's Fig. 3, plus the barycentre, which is not on
# it) and keeps the best one, τ*. With ``return_surface=True`` it also keeps every score, which
# :class:`~polyroc.plotting.SimplexHeatmapDisplay` (what ``TuningResult.plot()`` draws) colours
# over the triangle of thresholds. The white circle is the barycentre, plain argmax; the red star
# is τ*. Near the vertex of class k, τ_k is close to 1 and class k is almost never predicted. The
# paper shows accuracy (left) and macro F1 (right); here they are stacked, accuracy on top.
fig, axes = plt.subplots(2, 1, figsize=(6.4, 9.6), layout="constrained")
tuned = {}
for ax, metric in zip(axes, ["accuracy", "f1_macro"]):
    tuned[metric] = tune_thresholds(y_val, val_scores, metric=metric, labels=classes, return_surface=True)
    SimplexHeatmapDisplay.from_result(tuned[metric], ax=ax)  # the legend goes below the triangle
plt.show()
for metric, result in tuned.items():
    print(f"{metric}: argmax {result.argmax_score:.3f}, tuned {result.best_score:.3f}, ", end="")
    print(f"tau* = {np.round(result.best_threshold, 3).tolist()}")
print(pd.DataFrame({metric: errors_and_predictions(r.best_threshold) for metric, r in tuned.items()}).T.to_string())

# %%
# On these validation scores, tuning raises accuracy from 0.537 to 0.634 and macro F1 from 0.427
# to 0.488. The two metrics want different thresholds. The accuracy optimum,
# τ* = (0.035, 0.08, 0.885), sits next to the vertex of the rare class, as in the paper's Fig. 3
# (τ* = (0.00, 0.06, 0.94) on another data set): "vehicle" is given up entirely (no sample is
# predicted "vehicle") and every sample goes to one of the two large classes. Macro F1 weighs
# the three classes equally; its τ* = (0.54, 0.19, 0.27) keeps the vehicle class (10 samples
# predicted) and shrinks the float region (18 samples predicted, against 32 for argmax) in favour
# of non-float (54). When the classes are imbalanced, tune a metric that counts every class
# (macro F1, balanced accuracy) unless dropping the rare class is acceptable.
#
# These gains are measured on the very data τ* was chosen on, so they are optimistic; the example
# :ref:`sphx_glr_auto_examples_plot_tune_validation_test.py` applies τ* to held-out test data.
# The shape of the bright area also matters: a broad plateau means that many thresholds do about
# as well as τ*, a narrow peak that τ* may fit the noise of 82 validation samples.
#
# Finally, the regions of the macro-F1 τ*, drawn directly from the tuning result with the
# validation samples.
fig, ax = plt.subplots(figsize=(7.2, 4.8), layout="constrained")
DecisionRegionsDisplay.from_result(tuned["f1_macro"], y_val, val_scores, ax=ax)
plt.show()
