"""ROC-DMF on real data (the paper's Sec. 5.4 in spirit): D with bootstrap CIs next to Hand & Till's M.

Data: scikit-learn's iris and digits, and the bundled UCI glass. Models:
multinomial logistic regression, k-NN (k = 5) and a decision tree (depth 5),
fitted on a seeded, stratified 50/50 split and scored on the test half.
D gets a 95% stratified-bootstrap CI (B = 200); the ranking probabilities use
the paper's parametric bootstrap (B = 100, paired by replicate index).
Prints the Markdown tables of docs/dmf.md. Seeds: the split and the tree use
``random_state=0``, every bootstrap ``random_state=0``.
Run: python benchmarks/dmf_real_data.py
"""

import warnings

import numpy as np
from sklearn.datasets import load_digits, load_iris
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from polyroc.datasets import load_glass
from polyroc.dmf import compare_models, roc_dmf

MODELS = {
    "multi": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000)),
    "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(5)),
    "tree": lambda: DecisionTreeClassifier(max_depth=5, random_state=0),
}


def datasets():
    iris, digits, glass = load_iris(), load_digits(), load_glass()
    return {
        "iris": (iris.data, iris.target),
        "digits": (digits.data, digits.target),
        "glass": (glass.data, glass.target),
    }


def test_scores(X, y, seed=0):
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.5, stratify=y, random_state=seed)
    labels = np.unique(y)
    return y_test, labels, {name: make().fit(X_train, y_train).predict_proba(X_test) for name, make in MODELS.items()}


def main():
    print("Stratified 50/50 split (random_state=0); bootstraps random_state=0.\n")
    print("| data | model | D [95% CI, stratified, B = 200] | Hand–Till M |")
    print("|---|---|---|---|")
    rankings = {}
    for data_name, (X, y) in datasets().items():
        y_test, labels, scores = test_scores(X, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for name, P in scores.items():
                result = roc_dmf(y_test, P, labels=labels, bootstrap="stratified", n_boot=200, random_state=0)
                m = roc_auc_score(y_test, P, labels=labels, multi_class="ovo")
                print(
                    f"| {data_name} | {name} | {result.D:.4f} [{result.ci.low:.4f}, {result.ci.high:.4f}] | {m:.4f} |"
                )
            rankings[data_name] = compare_models(y_test, scores, labels=labels, n_boot=100, random_state=0)
    orders = sorted({order for cmp in rankings.values() for order in cmp.ranking_probabilities})
    print('\nRanking probabilities (parametric bootstrap, B = 100; "–" = 0):\n')
    print("| data | " + " | ".join(">".join(o) for o in orders) + " |")
    print("|---|" + "---|" * len(orders))
    for data_name, cmp in rankings.items():
        cells = [f"{cmp.probability(o):.2f}" if cmp.probability(o) else "–" for o in orders]
        print(f"| {data_name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
