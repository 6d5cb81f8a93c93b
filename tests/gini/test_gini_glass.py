"""Real data: Gini-weighted AUC of three scikit-learn models on the bundled glass data."""

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from polyroc.datasets import load_glass
from polyroc.gini import WhiteningWarning, gini_roc

MODELS = {
    "logistic": lambda: make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
    "forest": lambda: RandomForestClassifier(n_estimators=50, random_state=0),
    "knn": lambda: make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=7)),
}


@pytest.fixture(scope="module")
def glass_split():
    glass = load_glass()
    return train_test_split(glass.data, glass.target, test_size=0.3, stratify=glass.target, random_state=0)


@pytest.mark.parametrize("name", MODELS)
def test_gini_auc_on_glass_sits_among_the_class_aucs(glass_split, name):
    X_train, X_test, y_train, y_test = glass_split
    model = MODELS[name]().fit(X_train, y_train)
    P = model.predict_proba(X_test)
    with warnings.catch_warnings():
        warnings.simplefilter("error", WhiteningWarning)  # probability rows: the expected singularity is silent
        result = gini_roc(y_test, P, labels=model.classes_, n_boot=100, random_state=0)
    assert result.settings["whitening"] == "limit" and result.degenerate
    per_class = [roc_auc_score(y_test == c, P[:, i]) for i, c in enumerate(model.classes_)]
    np.testing.assert_allclose(result.class_auc, per_class, atol=1e-12)
    assert result.auc_agg == pytest.approx(np.dot(result.weights, per_class), abs=1e-12)
    assert min(per_class) <= result.auc_agg <= max(per_class)
    sigma = P.std(axis=0, ddof=1)
    np.testing.assert_allclose(result.weights, sigma / sigma.sum(), rtol=1e-9)
    ci = result.bootstrap.auc
    assert ci.low <= result.auc_agg <= ci.high
    macro = roc_auc_score(y_test, P, multi_class="ovr", labels=model.classes_)
    assert abs(result.auc_agg - macro) < 0.05  # weights near uniform: σ of the columns are alike

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the reference pipeline is silent
        reference = gini_roc(
            y_test,
            P,
            labels=model.classes_,
            reference_scores=model.predict_proba(X_train),
            compat="reference",
            random_state=0,
            n_boot=0,
        )
    assert 0.5 < reference.auc_theory < 0.53  # ≈ 0.5 + 1/(12k), whatever the model


@pytest.mark.slow
def test_docs_tables_are_what_the_benchmark_prints():
    """docs/gini.md pastes the output of benchmarks/gini_glass_table.py (defaults): no drift."""
    root = Path(__file__).resolve().parents[2]
    printed = subprocess.run(
        [sys.executable, str(root / "benchmarks" / "gini_glass_table.py")],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    docs = (root / "docs" / "gini.md").read_text(encoding="utf-8")
    lines = [line for line in printed.splitlines() if line.strip()]
    assert len(lines) >= 10 and [line for line in lines if line not in docs] == []
