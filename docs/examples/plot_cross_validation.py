"""
Curves and tuned thresholds across cross-validation folds
=========================================================

One train/test split gives one ROC curve, one reliability diagram and one tuned τ*; another split
gives other ones. :func:`sklearn.model_selection.cross_validate`, run with
``return_estimator=True, return_indices=True``, keeps each fold's fitted classifier and the indices
of its test rows, and the ``from_cv_results`` class methods of polyroc's Displays draw, from it,
each fold's curve (the curve ``from_predictions`` draws on that fold's held-out predictions), the
pointwise minimum–maximum band of the folds on a common grid and their pointwise mean, with each
fold's AUC, AP or ECE as mean ± sd in the legend, as scikit-learn's binary
``RocCurveDisplay.from_cv_results`` does.

:func:`polyroc.thresholds.cross_validated_tuning` tunes the thresholds τ of the rule
argmax(p − τ) (Legnaro, Guastavino & Marchetti 2025, arXiv:2511.21794) on each fold's held-out
predictions, and scores each fold's τ* on the other folds, which did not choose it.

The data are the bundled glass data (six imbalanced glass types); the model is a standard scaler and
a logistic regression.
"""

import matplotlib.pyplot as plt
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.datasets import load_glass
from polyroc.plotting import (
    CrossValidatedTuningDisplay,
    PrecisionRecallDisplay,
    ReliabilityDisplay,
    RocCurveDisplay,
    TuningProfileDisplay,
)
from polyroc.thresholds import cross_validated_tuning

glass = load_glass()
X, y = glass.data, glass.target
model = make_pipeline(StandardScaler(), LogisticRegression(solver="newton-cholesky"))
folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)  # the rows are sorted by class
cv_results = cross_validate(model, X, y, cv=folds, return_estimator=True, return_indices=True)

# %%
# ROC, precision-recall and reliability across the folds
# ------------------------------------------------------
# Each thin line is one fold's macro-average ROC curve, micro-average precision-recall curve or
# top-label reliability curve; the shaded band spans the lowest and highest fold at each point of
# the grid (all five folds lie inside it: it is not a confidence band), and the bold line is their
# mean. The reliability band covers only the probabilities every fold's bins reach.
fig, axes = plt.subplots(1, 3, figsize=(16, 5), layout="constrained")
roc = RocCurveDisplay.from_cv_results(cv_results, X, y, ax=axes[0], name="logistic")
pr = PrecisionRecallDisplay.from_cv_results(cv_results, X, y, ax=axes[1], name="logistic")
reliability = ReliabilityDisplay.from_cv_results(cv_results, X, y, n_bins=8, ax=axes[2], name="logistic")
print("macro AUC per fold:", roc.scores.round(3).tolist())
print("micro AP per fold: ", pr.scores.round(3).tolist())
print("ECE per fold:      ", reliability.scores.round(3).tolist())

# %%
# The tuning profile across the folds
# -----------------------------------
# Through one τ (by default the τ* tuned on the pooled held-out predictions of all folds), each fold's
# macro-F1 along each threshold coordinate. Where the folds' lines spread, the score of a τ depends
# on the rows it is measured on as much as on τ itself.
profile = TuningProfileDisplay.from_cv_results(cv_results, X, y, metric="f1_macro", name="logistic")
profile.figure_.set_size_inches(10, 5)

# %%
# τ* tuned on each fold
# ---------------------
# Each fold tunes its own τ* on its held-out predictions. Its gain over argmax on that fold is
# optimistic (τ* was chosen there); its gain on the other folds is not.
tuning = cross_validated_tuning(cv_results, X, y, metric="f1_macro")
print(tuning.to_text())
CrossValidatedTuningDisplay(tuning).plot(name="logistic")

# %%
# With three classes, each fold's τ* is a point of the simplex. On the wine data the folds' τ*
# scatter around the barycentre, plain argmax.
from sklearn.datasets import load_wine  # noqa: E402

X_wine, y_wine = load_wine(return_X_y=True)
CrossValidatedTuningDisplay.from_estimator(model, X_wine, y_wine, cv=folds, resolution=60, name="wine")
plt.show()
