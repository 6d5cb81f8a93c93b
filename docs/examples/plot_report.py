"""
An HTML report of two models
============================

:func:`polyroc.build_report` runs every evaluation of polyroc on the test scores of one or more
models and collects the results in one self-contained page: metrics with intervals, one-vs-rest
ROC and precision-recall curves, thresholds tuned on validation scores and checked on test, ROC
clouds, ROC-DMF with a ranking of the models, the Gini-weighted ROC, paired tests between the
models, and a reading in plain words of each. The page embeds its figures and loads no scripts, so
it can be mailed or archived as it is; ``results.json`` next to it holds the same numbers for a
program.

Here a logistic regression and a random forest are fitted on half of the bundled glass data (6
imbalanced classes); a quarter of the rows is kept for validation (threshold tuning) and a quarter
for test.
"""

import json
import tempfile
import textwrap
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc import build_report
from polyroc.datasets import load_glass

glass = load_glass()
X_train, X_rest, y_train, y_rest = train_test_split(
    glass.data, glass.target, train_size=0.5, stratify=glass.target, random_state=0
)
X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=0.5, stratify=y_rest, random_state=0)
models = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000)),
    "forest": RandomForestClassifier(n_estimators=200, random_state=0),
}
val_scores, test_scores = {}, {}
for name, model in models.items():
    model.fit(X_train, y_train)
    val_scores[name], test_scores[name] = model.predict_proba(X_val), model.predict_proba(X_test)
print(f"{len(y_train)} training, {len(y_val)} validation and {len(y_test)} test rows")

# %%
# Build the report and write it
# -----------------------------
# The scores go in as ``{name: probabilities}``, with the columns in the order of the sorted labels
# (that of ``model.classes_``). ``n_boot`` sets the bootstrap replicates, and the posterior draws,
# behind every interval that uses them: ROC-DMF D, the Gini-weighted AUC, tuned against argmax,
# the paired comparison of macro-F1 and the posterior intervals of balanced accuracy, macro-F1,
# kappa and MCC. These steps take time in proportion to ``n_boot`` (the ROC-DMF bootstrap the
# most), while drawing the figures costs the same whatever it is. The default, 1000, is what a
# report you keep should use; this page uses 200 to build faster. Fewer replicates make the
# interval limits noisier (against 1000, the limits in the table below move by up to 0.025, and
# those of the per-class scores of the smallest classes by more), but change neither the estimates
# nor the analytic intervals (Wilson, DeLong, t). ``random_state`` makes every resampling
# reproducible.
report = build_report(
    y_test,
    test_scores,
    y_val=y_val,
    val_scores=val_scores,
    n_boot=200,
    random_state=0,
    title="Glass: logistic regression against a random forest",
    source="UCI glass (bundled with polyroc), test quarter",
)
with tempfile.TemporaryDirectory() as tmp:
    out = report.write(Path(tmp) / "glass-report")
    for path in sorted(out.rglob("*")):
        if path.is_file():
            print(f"{path.stat().st_size / 1024:8.0f} kB  {path.relative_to(out)}")
    results = json.loads((out / "results.json").read_text())
    dmf_figure = plt.imread(out / "figures" / "all-dmf.png")

# %%
# ``report.html`` is the page to open in a browser; ``figures/`` holds its figures as PNG files
# too (the page embeds copies), and the manifest lists the files polyroc wrote, so that writing a
# new report into the same directory replaces them and nothing else.
#
# Headline numbers
# ----------------
# ``results.json`` (also ``report.results``) holds every number of the page. Each interval is
# stored with its limits and the method that made it.


def interval(record):
    return f"{record['estimate']:.3f} [{record['low']:.3f}, {record['high']:.3f}]"


rows = {}
for name, model in results["models"].items():
    metrics = model["metrics"]["intervals"]
    records = {
        "accuracy": metrics["accuracy"],
        "macro-F1": metrics["f1_macro"],
        "macro OvR AUC": metrics["roc_auc_ovr_macro"],
        "ROC-DMF D": model["dmf"]["ci"],
        "Gini AUC": model["gini"]["bootstrap"]["auc"],
        "tuned - argmax F1": model["tuning"]["test_scores"]["differences"]["tuned"],
    }
    rows[name] = {key: interval(record) for key, record in records.items()}
print(pd.DataFrame(rows).to_string())
print("\nintervals:")
for key, record in records.items():
    print(f"  {key:18s} {record['settings']['interval_method']}")

# %%
# The forest is ahead on every ranking measure, and its ROC-DMF interval does not overlap the
# logistic regression's. The thresholds tuned on validation do not help on test for either model:
# both intervals of tuned minus argmax macro-F1 contain 0. The report also puts its numbers into
# words; here are its readings of the ROC-DMF ranking and of the paired tests between the models:
for key in ("comparison", "paired_tests"):
    print(textwrap.fill(report.readings[key], width=80), end="\n\n")

# %%
# One of the report's figures
# ---------------------------
# The report draws its figures with polyroc's Displays; here is its ROC-DMF figure, read back from
# ``figures/all-dmf.png``. It holds the :class:`~polyroc.plotting.DmfRocDisplay` of each model's
# ROC-DMF result, drawn on one Axes; ``report.analyses`` keeps those results (and the others behind
# the numbers), so ``report.analyses[0].dmf.plot()`` redraws the first model's curve.
height, width = dmf_figure.shape[:2]
fig = plt.figure(figsize=(width / 150, height / 150), dpi=150)
ax = fig.add_axes((0, 0, 1, 1))
ax.imshow(dmf_figure)
ax.set_axis_off()
plt.show()
