"""Gini AUC next to macro and micro OvR AUC on the bundled glass data (like the paper's Table 1).

Three scikit-learn models are fitted on a seeded stratified 70/30 split; their
test-set probabilities are scored by ``gini_roc`` (default: exact curve,
limit weights, 1000-replicate stratified bootstrap CI) and by
``compat="reference"`` (the authors' pipeline, whitening fitted on the
training probabilities), and by one-vs-rest macro and micro AUC. Prints a
Markdown table (the one recorded in docs/gini.md).

Run: python benchmarks/gini_glass_table.py [--seed S] [--n-bootstrap B]
"""

import argparse
import warnings

import numpy as np
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.curves import roc_auc
from polyroc.datasets import load_glass
from polyroc.gini import WhiteningWarning, gini_roc


def models(seed):
    return {
        "Logistic regression": make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        "Random forest": RandomForestClassifier(n_estimators=300, random_state=seed),
        "k-NN (k=7)": make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=7)),
    }


def row(name, model, split, n_boot, seed):
    X_train, X_test, y_train, y_test = split
    model.fit(X_train, y_train)
    test, train = model.predict_proba(X_test), model.predict_proba(X_train)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", WhiteningWarning)
        gini = gini_roc(y_test, test, labels=model.classes_, n_boot=n_boot, random_state=seed)
    reference = gini_roc(
        y_test, test, labels=model.classes_, reference_scores=train, compat="reference", random_state=seed
    )
    ci = gini.bootstrap.auc
    return (
        f"| {name} | {gini.auc_agg:.3f} [{ci.low:.3f}, {ci.high:.3f}] | {gini.auc_theory:.3f} "
        f"| {reference.auc_agg:.3f} | {reference.auc_theory:.3f} "
        f"| {roc_auc(y_test, test, labels=model.classes_):.3f} "
        f"| {roc_auc(y_test, test, labels=model.classes_, average='micro'):.3f} "
        f"| {np.nanmin(gini.class_auc):.3f}–{np.nanmax(gini.class_auc):.3f} |"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--n-bootstrap", type=int, default=1000)
    args = parser.parse_args()
    glass = load_glass()
    split = train_test_split(
        glass.data, glass.target, test_size=0.3, stratify=glass.target, random_state=args.seed
    )
    print(
        "| Model | Gini AUC (default) [95% bootstrap CI] | (G1+1)/2 default "
        "| Gini AUC (compat) | (G1+1)/2 compat | Macro OvR AUC | Micro OvR AUC | per-class AUC range |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, model in models(args.seed).items():
        print(row(name, model, split, args.n_boot, args.seed))
    print(f"\nglass: 214 samples, 6 classes; stratified 70/30 split (random_state={args.seed}); "
          f"test n = {len(split[3])}; bootstrap B = {args.n_boot}, random_state={args.seed}.")


if __name__ == "__main__":
    main()
