"""
ROC clouds over the one-vs-rest curves
======================================

Each threshold vector τ on the simplex gives the rule argmax(p − τ) a false- and true-positive
rate for every class. Over a lattice of τ, these points form one *cloud* per class. The one-vs-rest
ROC curve moves one class's cut-off on its own column, while a τ moves every class's boundary at
once and so also uses the other columns: a cloud need not lie on its curve. For calibrated
probabilities it lies on or under the curve (up to sampling noise); for scores whose other columns
say more about a class than its own column, points rise above it, as a large part of the clouds of
the two common classes (1 and 2) do here; the user guide's page on ROC clouds shows both cases.
DFP measures how far a class's cloud stays from the top-left corner (Legnaro, Guastavino &
Marchetti 2025, arXiv:2511.21794, Fig. 4).

Here a logistic regression is fitted on half of the bundled glass data and its held-out
probabilities are scored.
"""

import matplotlib.pyplot as plt
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.datasets import load_glass
from polyroc.thresholds import roc_cloud

glass = load_glass()
X_train, X_test, y_train, y_test = train_test_split(
    glass.data, glass.target, test_size=0.5, stratify=glass.target, random_state=0
)
model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)).fit(X_train, y_train)
probabilities = model.predict_proba(X_test)

cloud = roc_cloud(y_test, probabilities, labels=model.classes_, resolution=20)
print(cloud.to_frame()[["class", "dfp", "ovr_auc"]])

# %%
# The clouds (one colour per class) over the one-vs-rest ROC curves, three classes to a row so
# that each panel stays readable.
fig, axes = plt.subplots(2, 3, figsize=(7.2, 5.4), sharex=True, sharey=True, layout="constrained")
cloud.plot(ax=axes)
for ax in axes.flat[1:]:  # one legend is enough
    ax.get_legend().remove()
plt.show()
