"""
Tune the thresholds on validation data, judge them on test data
===============================================================

The rule argmax(p − τ) can be tuned after training: pick the threshold vector τ* that maximises a
metric on validation data (Legnaro, Guastavino & Marchetti 2025, arXiv:2511.21794). On those
validation data the tuned rule can never score below plain argmax, since argmax (the barycentre
τ = (1/m, …, 1/m)) is one of the candidates. That gain is optimistic: τ* was chosen to fit these
very samples, noise included. The honest measure is the gain on a test set that played no part in
the tuning, with an interval telling whether it is distinguishable from noise.

The data are the bundled glass data, six strongly imbalanced glass types (70, 76, 17, 13, 9 and
29 samples), split 50/25/25 into training, validation and test sets. A logistic regression is
fitted on the training set, and τ is tuned on the validation set for balanced accuracy, the mean
of the per-class recalls, which counts the rare types as much as the common ones.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.comparison import compare_scores
from polyroc.datasets import load_glass
from polyroc.metrics import balanced_accuracy_score, recall_score
from polyroc.probability import one_hot
from polyroc.resampling import paired_rule_scores
from polyroc.thresholds import compare_rules, tune_thresholds

glass = load_glass()
names = {
    "1": "building float",
    "2": "building non-float",
    "3": "vehicle float",
    "5": "containers",
    "6": "tableware",
    "7": "headlamps",
}
X, y = glass.data, np.array([names[label] for label in glass.target])


def split_fit_predict(seed):
    """Split 50/25/25 (stratified), fit on the training part, return the classes and (y, p) of the others."""
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, train_size=0.5, stratify=y, random_state=seed)
    X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=seed)
    model = make_pipeline(StandardScaler(), LogisticRegression(solver="newton-cholesky")).fit(X_train, y_train)
    return model.classes_, (y_val, model.predict_proba(X_val)), (y_test, model.predict_proba(X_test))


classes, (y_val, val_scores), (y_test, test_scores) = split_fit_predict(seed=0)
print(f"validation: {y_val.size} samples, test: {y_test.size} samples")
print(pd.Series(y_test).value_counts().reindex(classes).rename("test samples per class").to_string())

# %%
# Tune on validation, score on both
# ---------------------------------
# :func:`~polyroc.thresholds.compare_rules` tunes τ on the validation scores and scores the rules
# on both sets. With six classes its default search is an exact coordinate ascent, started here
# from the best point of a lattice of step 1/16 (20,349 thresholds). It also reports two
# competing rules of the paper, the Fréchet mean rule and the inflated argmax; only plain argmax
# and the tuned rule are kept here.
comparison = compare_rules(
    y_test, test_scores, y_val=y_val, val_scores=val_scores, metric="balanced_accuracy", labels=classes
)
print("tau* =", np.round(comparison.tuning.best_threshold, 3).tolist())
table = comparison.to_frame().query("rule in ['argmax', 'tuned']")[["rule", "validation", "test"]]
print(table.round(3).to_string(index=False))

# %%
# The tuned rule gains 0.110 of balanced accuracy on validation (0.534 to 0.644) and, on this
# split, as much on test (0.440 to 0.550). The validation set has only 53 samples, some classes
# just two or three of them, so how much of this is real?
#
# Is the test gain real?
# ----------------------
# :func:`~polyroc.resampling.paired_rule_scores` scores both rules' test predictions in the same
# stratified bootstrap replicates, so the interval of their difference accounts for the samples
# the two rules agree on (a paired comparison).
y_pred = {
    "argmax": classes[np.argmax(test_scores, axis=1)],
    "tuned": comparison.tuning.predict(test_scores),
}
with warnings.catch_warnings(record=True) as caught:  # few changed samples: polyroc warns, and says why
    warnings.simplefilter("always")
    paired = paired_rule_scores(
        y_test, y_pred, metric="balanced_accuracy", labels=classes, baseline="argmax", n_boot=2000, random_state=0
    )
for warning in caught:
    print(f"{warning.category.__name__}: {warning.message}")
print(paired.to_frame().round(3).to_string(index=False))
right = {rule: prediction == y_test for rule, prediction in y_pred.items()}
print("test samples whose prediction changed:", int(np.sum(y_pred["tuned"] != y_pred["argmax"])))
print("  corrected by tuning:", int(np.sum(right["tuned"] & ~right["argmax"])))
print("  broken by tuning:   ", int(np.sum(right["argmax"] & ~right["tuned"])))

# %%
# The bootstrap interval resamples every class, even those with two test samples. McNemar's exact
# test looks only at the samples where exactly one rule is right. It compares accuracies, and
# :func:`~polyroc.comparison.compare_scores` applies it to the argmax of score matrices: given
# each rule's predictions as one-hot rows (:func:`~polyroc.probability.one_hot`), it tests the
# two rules' accuracies on the same samples (difference: first model minus second).
one_hot_predictions = {rule: one_hot(y_pred[rule], labels=classes) for rule in ["tuned", "argmax"]}
mcnemar = compare_scores(y_test, one_hot_predictions, quantities=["accuracy"], labels=classes)
print(mcnemar.to_frame()[["model", "other", "difference", "low", "high", "p_value", "method"]].round(3).to_string())

# %%
# Tuning changed the prediction of 5 of the 54 test samples: 4 wrong predictions became right and
# none went from right to wrong (the fifth changed from one wrong class to another). No bootstrap
# replicate can then show a loss, and the 95% paired interval of the balanced-accuracy gain, 0.009
# to 0.212, narrowly excludes zero. But the whole gain rests on four samples, and one of them is
# one of the two "tableware" samples of the test set: correcting it doubles the tableware recall
# and alone adds 1/12 ≈ 0.083 to balanced accuracy. A bootstrap that resamples a class of two
# samples describes that uncertainty poorly. McNemar's test, on the same four samples, gives
# p = 0.125 (were each changed sample a coin flip, all four would fall the same way, in either
# direction, one time in eight). Tango's score interval of the accuracy gain beside it, 0.003 to
# 0.176, only just excludes zero: it is an asymptotic interval, and on four discordant samples it
# and the exact test part ways; the exact test is the one to trust (the report's readings say
# "cannot tell" unless both agree). On this split the evidence that tuning helps is weak.
#
# The per-class test recalls show where the two rules differ; balanced accuracy is their mean.
# One more "building float" sample (of 18), two more "building non-float" (of 19) and the second
# "tableware" sample are recognised; the rare "containers" and "vehicle float" are missed by both
# rules.
recalls = {
    rule: recall_score(y_test, prediction, labels=classes, average=None, zero_division=0.0)
    for rule, prediction in y_pred.items()
}
support = [int(np.sum(y_test == label)) for label in classes]
positions = np.arange(classes.size)
fig, ax = plt.subplots(figsize=(7.2, 4.2), layout="constrained")
for offset, (rule, values) in zip([-0.2, 0.2], recalls.items()):
    score = paired.scores[rule].estimate
    ax.bar(positions + offset, values, width=0.4, label=f"{rule} (balanced accuracy {score:.3f})")
tick_labels = [label.replace(" ", "\n") + f"\n(n = {n})" for label, n in zip(classes, support)]
ax.set_xticks(positions, tick_labels)
ax.set_ylabel("recall on the test set")
ax.set_ylim(0, 1.2)
ax.set_title("Per-class test recall: plain argmax and the rule tuned on validation")
ax.legend(loc="upper left", ncols=2)
plt.show()
print(pd.DataFrame(recalls, index=classes).round(3).to_string())

# %%
# One split is one draw
# ---------------------
# With so few samples the answer depends on which samples land in which set. Repeating the whole
# procedure over 30 random splits (the seed 0 above is the first) shows the pattern.
gains = []
for seed in range(30):
    labels, (y_v, p_v), (y_t, p_t) = split_fit_predict(seed)
    tuning = tune_thresholds(y_v, p_v, metric="balanced_accuracy", labels=labels)
    argmax_test = balanced_accuracy_score(y_t, labels[np.argmax(p_t, axis=1)])
    tuned_test = balanced_accuracy_score(y_t, tuning.predict(p_t))
    gains.append({"seed": seed, "validation gain": tuning.improvement, "test gain": tuned_test - argmax_test})
gains = pd.DataFrame(gains)
print(gains[["validation gain", "test gain"]].describe().loc[["mean", "std", "min", "max"]].round(3).to_string())
test_gain, validation_gain = gains["test gain"], gains["validation gain"]
print(f"test gain > 0 in {np.sum(test_gain > 0)} of {len(gains)} splits, < 0 in {np.sum(test_gain < 0)}")
print(f"test gain above the validation gain in {np.sum(test_gain > validation_gain)} splits")

fig, ax = plt.subplots(figsize=(5.6, 5), layout="constrained")
ax.scatter(gains["validation gain"], gains["test gain"], color="C0", edgecolors="black", linewidths=0.4)
ax.scatter(*gains.loc[0, ["validation gain", "test gain"]], s=120, facecolors="none", edgecolors="C3", label="seed 0")
limit = [-0.1, 0.4]
ax.plot(limit, limit, color="grey", linestyle="--", linewidth=1, label="test gain = validation gain")
ax.axhline(0, color="black", linewidth=0.8)
ax.set(xlim=limit, ylim=limit, aspect="equal")
ax.set_xlabel("balanced-accuracy gain on validation")
ax.set_ylabel("balanced-accuracy gain on test")
ax.set_title("Tuned minus argmax, 30 random splits")
ax.legend(loc="upper left")
plt.show()

# %%
# Over the 30 splits, tuning gains 0.176 of balanced accuracy on validation on average but only
# 0.072 on test. The validation gain is never negative, by construction; the test gain is positive
# in 25 splits and negative in 5 (down to −0.064). It exceeds the validation gain in only 3 splits
# (the points above the diagonal), seed 0 among them by a hair (0.1101 against 0.1096). So tuning
# does help this classifier on average, by less than half of what the validation data promise,
# and a single test set of 54 samples can hardly confirm it. On data this small, tune on more
# samples than a single validation split holds, for example the out-of-fold probabilities of a
# cross-validation, as :class:`~polyroc.thresholds.SimplexThresholdClassifier` does (see
# :ref:`sphx_glr_auto_examples_plot_pipeline_cv.py`), and judge the result on held-out data with
# a paired test, as here.
