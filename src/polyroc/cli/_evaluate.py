"""``polyroc evaluate``: the classification report, AUCs and confusion matrix of a score file, or of the glass demo."""

from __future__ import annotations

from typing import TYPE_CHECKING

from polyroc.cli._calibrate import read_calibration, scores_of
from polyroc.cli._dask import evaluate_on_dask
from polyroc.cli._scores import blamed_on, in_class_order, read_table
from polyroc.cli._terminal import showing_progress

if TYPE_CHECKING:
    import numpy as np


def glass_holdout_scores(random_state: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores of a logistic regression on a stratified 30% test split of the glass data.

    Parameters
    ----------
    random_state : int, default=0
        Seed of the split (the command line's ``--random-state``).

    Returns
    -------
    y_test : ndarray of shape (65,)
        True labels of the test rows.
    probabilities : ndarray of shape (65, 6)
        The model's probabilities, columns in ``classes`` order.
    classes : ndarray of shape (6,)
        The class labels.

    Raises
    ------
    ValueError, TypeError
        As :func:`sklearn.model_selection.train_test_split` for a bad seed.

    Examples
    --------
    >>> y, P, classes = glass_holdout_scores(0)
    >>> P.shape, classes.tolist()
    ((65, 6), ['1', '2', '3', '5', '6', '7'])
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from polyroc.datasets import load_glass

    glass = load_glass()
    X_train, X_test, y_train, y_test = train_test_split(
        glass.data, glass.target, test_size=0.3, stratify=glass.target, random_state=random_state
    )
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
    model.fit(X_train, y_train)
    return y_test, model.predict_proba(X_test), model.classes_


def evaluate_command(args):
    from polyroc.evaluation import evaluate

    if args.calibration is not None and (args.engine == "dask" or args.scores is None):
        raise ValueError("--calibration needs --scores and --engine memory")
    if args.engine == "dask":
        return evaluate_on_dask(args)
    if args.scheduler is not None or args.workers is not None:
        raise ValueError("--scheduler and --workers need --engine dask")
    with showing_progress(args) as display:
        if args.scores is None:
            display.step("fitting the glass model")
            y_true, y_score, classes = glass_holdout_scores(args.random_state)
            sample_weight = None
            source = "the bundled glass data"
            title = (
                "polyroc evaluate: bundled UCI glass data, logistic regression, "
                f"stratified 70/30 split (random_state={args.random_state}), {len(y_true)} test rows"
            )
        else:
            calibration = read_calibration(args)
            table = read_table(args, args.scores, display=display)
            source, sample_weight = table.source, table.sample_weight
            y_score = scores_of(args, table, calibration)
            classes, y_true, (y_score,) = in_class_order(table.classes, table.y_true, [y_score])
            title = f"polyroc evaluate: {table.source}, {len(y_true)} rows, {len(classes)} classes"
            if calibration is not None:
                title += f", calibrated by {args.calibration} ({calibration[0].method})"
        display.step("evaluating")
        with blamed_on(source):
            result = evaluate(
                y_true,
                y_score,
                labels=classes,
                sample_weight=sample_weight,
                ci=args.ci,
                n_boot=args.n_boot,
                random_state=args.random_state,
            )
    print(title, end="\n\n")
    print(result.to_text())
