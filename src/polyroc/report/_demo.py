"""The bundled demonstration: imbalance practice on the UCI glass data, scored for a report."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DemoScores", "glass_demo_scores"]

SPLIT = (0.50, 0.25, 0.25)


@dataclass(frozen=True)
class DemoScores:
    """Validation and test scores of the demo models on shared labels, with notes."""

    classes: np.ndarray
    y_val: np.ndarray
    y_test: np.ndarray
    val_scores: dict[str, np.ndarray]
    test_scores: dict[str, np.ndarray]
    notes: tuple[str, ...]
    source: str


def _smote_pipeline(y_train, random_state):
    """Scaler, SMOTE (k below the smallest class size) and logistic regression; None without imblearn."""
    try:
        from imblearn.over_sampling import SMOTE
        from imblearn.pipeline import make_pipeline as make_imblearn_pipeline
    except ImportError:
        return None
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    smallest = int(np.unique(y_train, return_counts=True)[1].min())
    return make_imblearn_pipeline(
        StandardScaler(),
        SMOTE(k_neighbors=max(1, min(5, smallest - 1)), random_state=random_state),
        LogisticRegression(max_iter=5000),
    )


def glass_demo_scores(random_state: int = 0) -> DemoScores:
    """Fit the demo models on glass and score its validation and test rows.

    The bundled UCI glass data (214 rows, 6 classes from 76 to 9 rows) is split
    50/25/25 into train, validation and test, stratified and seeded. Three
    models follow the usual imbalance practice: a logistic regression, the same
    with balanced class weights, and the same trained on SMOTE-oversampled
    data (imbalanced-learn, an optional extra; skipped with a note when it is
    not installed). SMOTE: Chawla, Bowyer, Hall & Kegelmeyer (2002), JAIR 16,
    doi:10.1613/jair.953.

    Parameters
    ----------
    random_state : int, default=0
        Seed of the split and of SMOTE.

    Returns
    -------
    DemoScores

    Raises
    ------
    ValueError
        As :func:`sklearn.model_selection.train_test_split` for a bad seed.

    Examples
    --------
    >>> demo = glass_demo_scores(random_state=0)
    >>> demo.y_val.size, demo.y_test.size, list(demo.test_scores)[:2]
    (53, 54, ['logistic', 'logistic (class-weighted)'])
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from polyroc.datasets import load_glass

    glass = load_glass()
    train, val, test = SPLIT
    X_train, X_rest, y_train, y_rest = train_test_split(
        glass.data, glass.target, train_size=train, stratify=glass.target, random_state=random_state
    )
    X_val, X_test, y_val, y_test = train_test_split(
        X_rest, y_rest, test_size=test / (val + test), stratify=y_rest, random_state=random_state
    )
    models = {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000)),
        "logistic (class-weighted)": make_pipeline(
            StandardScaler(), LogisticRegression(max_iter=5000, class_weight="balanced")
        ),
    }
    notes = [
        (
            f"Demo: UCI glass ({glass.data.shape[0]} rows), stratified {int(100 * train)}/{int(100 * val)}/"
            f"{int(100 * test)} train/validation/test split (seed {random_state}); models fitted on train, "
            "thresholds tuned on validation, everything below measured on test."
        ),
    ]
    smote = _smote_pipeline(y_train, random_state)
    if smote is None:
        notes.append(
            "The SMOTE model was skipped: imbalanced-learn is not installed (pip install 'polyroc[imbalance]')."
        )
    else:
        models["logistic (SMOTE)"] = smote
    val_scores, test_scores = {}, {}
    for name, model in models.items():
        model.fit(X_train, y_train)
        val_scores[name], test_scores[name] = model.predict_proba(X_val), model.predict_proba(X_test)
    return DemoScores(
        model.classes_,
        y_val,
        y_test,
        val_scores,
        test_scores,
        tuple(notes),
        "UCI glass identification (bundled), test split",
    )
