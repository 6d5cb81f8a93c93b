"""The demonstration models of ``polyroc demo``: imbalance practice on the bundled UCI glass data.

:func:`glass_demo_models` splits the glass data and fits the demo's models once;
:func:`glass_demo_scores` scores them on the validation and test rows, the input of the
demo's report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from sklearn.pipeline import Pipeline

__all__ = ["DemoModels", "DemoScores", "glass_demo_models", "glass_demo_scores"]

SPLIT = (0.50, 0.25, 0.25)

SOURCE = "UCI glass identification (bundled), test split"


@dataclass(frozen=True)
class DemoModels:
    """The demo's validation and test rows of glass, and its models fitted on the training rows, with notes."""

    X_val: np.ndarray
    y_val: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    models: dict[str, Pipeline]
    notes: tuple[str, ...]


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


def _smote_pipeline(y_train: np.ndarray, random_state: int) -> Pipeline | None:
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


def glass_demo_models(random_state: int = 0) -> DemoModels:
    """Split the bundled glass data and fit the demo models on its training rows.

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
    DemoModels

    Raises
    ------
    ValueError
        As :func:`sklearn.model_selection.train_test_split` for a bad seed.

    Examples
    --------
    >>> demo = glass_demo_models(random_state=0)
    >>> demo.y_val.size, demo.y_test.size, list(demo.models)[:2]
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
    for model in models.values():
        model.fit(X_train, y_train)
    return DemoModels(X_val, y_val, X_test, y_test, models, tuple(notes))


def glass_demo_scores(random_state: int = 0) -> DemoScores:
    """The validation and test scores of the models of :func:`glass_demo_models`.

    Parameters
    ----------
    random_state : int, default=0
        Seed of the split and of SMOTE.

    Returns
    -------
    DemoScores
        The classes in the order of the score columns, the labels and each model's
        scores of the validation and test rows, the notes and the source of the test rows.

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
    demo = glass_demo_models(random_state)
    val_scores = {name: model.predict_proba(demo.X_val) for name, model in demo.models.items()}
    test_scores = {name: model.predict_proba(demo.X_test) for name, model in demo.models.items()}
    classes = next(iter(demo.models.values())).classes_
    return DemoScores(classes, demo.y_val, demo.y_test, val_scores, test_scores, demo.notes, SOURCE)
