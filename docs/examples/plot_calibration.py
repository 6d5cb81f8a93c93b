"""
Reliability diagrams before and after a temperature map
=======================================================

A classifier is calibrated when, among the rows it gives a probability p, the event happens with
frequency p. A reliability diagram bins the rows by their score and plots, per bin, the observed
frequency against the mean score: a calibrated model lies on the diagonal. Each bin's frequency
gets a binomial interval (Clopper-Pearson's exact interval by default), which shows how far from
the diagonal a bin may lie by chance alone.

The data are the bundled glass data, six imbalanced glass types, split 50/25/25 into training,
validation and test sets as in :ref:`sphx_glr_auto_examples_plot_tune_validation_test.py`. A
Gaussian naive Bayes model, known to be overconfident when its features are correlated, is fitted
on the training set. A temperature map (Guo, Pleiss, Sun & Weinberger 2017, arXiv:1706.04599) is
fitted on its validation scores by :func:`~polyroc.calibration.fit_calibrator`, and both the raw
and the recalibrated test scores are drawn by :class:`~polyroc.plotting.ReliabilityDisplay`.
"""

import matplotlib.pyplot as plt
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from polyroc.calibration import calibration_error, fit_calibrator
from polyroc.datasets import load_glass
from polyroc.plotting import ReliabilityDisplay

glass = load_glass()
X, y = glass.data, glass.target
X_train, X_rest, y_train, y_rest = train_test_split(X, y, train_size=0.5, stratify=y, random_state=0)
X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=0)
model = GaussianNB().fit(X_train, y_train)
classes, val_scores, test_scores = model.classes_, model.predict_proba(X_val), model.predict_proba(X_test)
print(f"validation: {y_val.size} samples, test: {y_test.size} samples")

# %%
# Fit the temperature on validation, apply it to test
# ---------------------------------------------------
# The temperature map divides the logits ``log p`` by one number T fitted to minimise the
# validation log loss; T > 1 softens overconfident scores. It keeps each row's argmax, so the
# predicted classes and the accuracy do not change: only the probabilities do. The ECE below is the
# top-label expected calibration error on the test set, with 5 bins (54 test rows leave about ten
# per bin).
calibrator = fit_calibrator(y_val, val_scores, method="temperature", labels=classes)
calibrated = calibrator.transform(test_scores)
print(f"temperature T = {calibrator.temperature:.2f}")
for label, scores in [("raw", test_scores), ("temperature", calibrated)]:
    ece = calibration_error(y_test, scores, labels=classes, n_bins=5)
    classwise = calibration_error(y_test, scores, labels=classes, kind="classwise", n_bins=5)
    print(f"{label:<12} top-label ECE {ece:.3f}   classwise ECE {classwise:.3f}")

# %%
# Top-label reliability diagram
# -----------------------------
# The second call draws on the first Display's Axes (``ax=raw.ax_``): both models share the
# diagonal, the legend and the histogram of rows per bin under the diagram.
raw = ReliabilityDisplay.from_predictions(y_test, test_scores, labels=classes, n_bins=5, name="raw")
ReliabilityDisplay.from_predictions(y_test, calibrated, labels=classes, n_bins=5, ax=raw.ax_, name="temperature")

# %%
# The raw naive Bayes scores crowd into the last bin: 48 of the 54 test rows get a top probability
# above 0.8 (0.98 on average), but only 29% of them are right, and that bin's interval, 0.17 to
# 0.44, lies far under the diagonal. The temperature, T = 11.7, spreads the scores over four bins;
# the two lower bins still lie under the diagonal, but every interval, from 5 to 26 rows, covers
# it. With so few rows the binned ECE is itself noisy (and biased upwards): the drop from 0.66 to
# 0.12 is what the diagram shows, not the last digit of either.
#
# Classwise reliability diagrams
# ------------------------------
# ``kind="classwise"`` draws one panel per class: the probability of the class against its
# frequency, in the class colours. Drawn on the same panels, the recalibrated scores keep those
# colours with a dashed line.
panels = ReliabilityDisplay.from_predictions(
    y_test, test_scores, labels=classes, kind="classwise", n_bins=5, name="raw"
)
ReliabilityDisplay.from_predictions(
    y_test, calibrated, labels=classes, kind="classwise", n_bins=5, ax=panels.ax_, name="temperature"
)
panels.figure_.suptitle("Glass types, naive Bayes: raw (solid) and temperature (dashed)")
plt.show()

# %%
# Most rows have a small probability of each class, so the first bin of every panel holds most of
# the test set, and the rare types leave most of their bins empty (only the bins with rows are
# drawn). The raw scores fail most on type 3, vehicle float: 25 test rows get a probability of it
# near 0.98, and 3 of them are of that type. A temperature has one parameter for all classes;
# :func:`~polyroc.calibration.fit_calibrator` also fits vector and matrix maps, with 2m or m² + m
# parameters, which need more validation rows than the 53 here.
