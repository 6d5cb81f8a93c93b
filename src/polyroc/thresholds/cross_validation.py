"""Tuned thresholds across cross-validation folds: how much τ* and its gain move from fold to fold.

The folds are those of :func:`sklearn.model_selection.cross_validate` run with
``return_estimator=True, return_indices=True``: fold k holds a classifier
fitted on its training rows and the indices of its test rows. Its held-out
predictions are that classifier's ``predict_proba`` on its test rows.
:func:`fold_predictions` reads them (the Displays' ``from_cv_results`` use it
too) and :func:`cross_validated_tuning` tunes the rule argmax(p − τ) of
Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794, on each fold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from polyroc._estimators import ProbabilisticClassifier, Splitter
from polyroc._results import Drawable, html_table
from polyroc._validation import THRESHOLD_DOMAINS, check_random_state, check_scores, with_scaled_weights
from polyroc._validation._params import HasMethods, Interval, Options, validate_params
from polyroc.counts import metric_name
from polyroc.thresholds.search import argmax_score, checked_metric, score_at
from polyroc.thresholds.tuning import SEARCHES, tune_thresholds

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

__all__ = ["CrossValidatedTuning", "cross_validated_tuning"]

#: What ``cross_validate`` must be asked for, quoted by every error about a ``cv_results`` it lacks.
CV_RESULTS_HINT = "pass return_estimator=True, return_indices=True to sklearn.model_selection.cross_validate"


class Fold(NamedTuple):
    """The held-out predictions of one cross-validation fold."""

    y_true: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None
    test_indices: np.ndarray


def _checked_folds(cv_results: object) -> tuple[list[Any], list[np.ndarray]]:
    """The estimators and test indices of ``cv_results``; errors name ``cv_results`` and the missing key."""
    if not isinstance(cv_results, Mapping):
        raise TypeError(f"cv_results must be the dict returned by cross_validate, got {type(cv_results).__name__}")
    for key in ("estimator", "indices"):
        if key not in cv_results:
            raise ValueError(f"cv_results has no {key!r} key: {CV_RESULTS_HINT}")
    indices = cv_results["indices"]
    if not isinstance(indices, Mapping) or "test" not in indices:
        raise ValueError(f"cv_results['indices'] has no 'test' key: {CV_RESULTS_HINT}")
    estimators, tests = list(cv_results["estimator"]), [np.asarray(test) for test in indices["test"]]
    if not estimators or len(estimators) != len(tests):
        raise ValueError(
            f"cv_results must hold one estimator per fold and one test index array per fold, "
            f"got {len(estimators)} estimators and {len(tests)} index arrays"
        )
    for k, estimator in enumerate(estimators):
        if not callable(getattr(estimator, "predict_proba", None)):
            raise TypeError(f"cv_results['estimator'][{k}] has no predict_proba: {type(estimator).__name__}")
    for k, test in enumerate(tests):
        if test.ndim != 1 or test.size == 0 or not np.issubdtype(test.dtype, np.integer):
            raise ValueError(f"cv_results['indices']['test'][{k}] must be a non-empty 1-d array of row indices")
    return estimators, tests


def _fold_classes(estimators: list[Any]) -> np.ndarray | None:
    """The ``classes_`` every fold's estimator shares (None when they have none); ValueError if they differ."""
    classes = [getattr(estimator, "classes_", None) for estimator in estimators]
    if classes[0] is None:
        return None
    for k, other in enumerate(classes[1:], start=1):
        if other is None or not np.array_equal(np.asarray(other), np.asarray(classes[0])):
            raise ValueError(
                f"the estimators of cv_results do not share one classes_ (fold 0: {list(classes[0])}, fold {k}: "
                f"{None if other is None else list(other)}); stratify the folds so that every training set holds "
                "every class"
            )
    return np.asarray(classes[0])


def _rows(data: Any, indices: np.ndarray) -> Any:
    """Rows ``indices`` of an array, a list or a DataFrame (scikit-learn's indexing)."""
    from sklearn.utils import _safe_indexing

    return _safe_indexing(data, indices)


def fold_predictions(
    cv_results: Mapping[str, Any], X: ArrayLike, y: ArrayLike, *, sample_weight: ArrayLike | None = None
) -> tuple[list[Fold], np.ndarray | None]:
    """Each fold's held-out labels, scores and weights, from the output of ``cross_validate``.

    Parameters
    ----------
    cv_results : dict
        The dict of :func:`sklearn.model_selection.cross_validate` run with
        ``return_estimator=True`` and ``return_indices=True`` (keys
        ``"estimator"`` and ``"indices"``).
    X : array-like of shape (n_samples, n_features)
        The data ``cross_validate`` was run on.
    y : array-like of shape (n_samples,)
        Its labels.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows, split by fold as ``X``.

    Returns
    -------
    folds : list of Fold
        Per fold: ``y_true`` and ``y_score`` (``predict_proba`` of its
        estimator) of its test rows, their weights and the row indices.
    classes : ndarray or None
        The ``classes_`` of the estimators, the class order of the score
        columns (None for estimators without ``classes_``).

    Raises
    ------
    ValueError
        ``cv_results`` lacks the key ``"estimator"`` or ``"indices"`` (pass
        ``return_estimator=True, return_indices=True``), its folds disagree in
        number or classes, an index is out of range, or ``X``, ``y`` and
        ``sample_weight`` differ in length.
    TypeError
        ``cv_results`` is not a dict, or an estimator has no ``predict_proba``.

    See Also
    --------
    cross_validated_tuning : Tunes τ on each fold's predictions.
    polyroc.plotting.RocCurveDisplay.from_cv_results : Draws each fold's curves.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_validate
    >>> X, y = load_iris(return_X_y=True)
    >>> cv_results = cross_validate(LogisticRegression(max_iter=500), X, y, cv=3,
    ...                             return_estimator=True, return_indices=True)
    >>> folds, classes = fold_predictions(cv_results, X, y)
    >>> len(folds), folds[0].y_score.shape, classes.tolist()
    (3, (50, 3), [0, 1, 2])
    >>> fold_predictions({"estimator": cv_results["estimator"]}, X, y)
    Traceback (most recent call last):
    ...
    ValueError: cv_results has no 'indices' key: pass return_estimator=True, return_indices=True to \
sklearn.model_selection.cross_validate
    """
    estimators, tests = _checked_folds(cv_results)
    n_rows = np.shape(X)[0] if np.ndim(X) else 0
    n_labels = np.shape(y)[0] if np.ndim(y) else 0
    n_weights = n_rows if sample_weight is None else (np.shape(sample_weight)[0] if np.ndim(sample_weight) else 0)
    if n_labels != n_rows or n_weights != n_rows:
        weights = "" if sample_weight is None else f", sample_weight {n_weights}"
        raise ValueError(f"X, y and sample_weight must have one row per sample: X {n_rows}, y {n_labels}{weights}")
    for k, test in enumerate(tests):
        if test.min() < -n_rows or test.max() >= n_rows:
            raise ValueError(f"cv_results['indices']['test'][{k}] indexes rows outside X ({n_rows} rows)")
    classes = _fold_classes(estimators)
    folds = []
    for estimator, test in zip(estimators, tests):
        fold_weights = None if sample_weight is None else np.asarray(_rows(sample_weight, test), dtype=np.float64)
        scores = np.asarray(estimator.predict_proba(_rows(X, test)), dtype=np.float64)
        folds.append(Fold(np.asarray(_rows(y, test)), scores, fold_weights, test))
    return folds, classes


@dataclass(frozen=True, eq=False, repr=False)
class CrossValidatedTuning(Drawable):
    """τ* tuned on each cross-validation fold, with its score on that fold and on the other folds.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        The class order of the thresholds.
    thresholds : ndarray of shape (n_folds, n_classes)
        τ*_k, tuned on the held-out predictions of fold k.
    best_scores, argmax_scores : ndarray of shape (n_folds,)
        The metric of τ*_k and of plain argmax on fold k (where τ*_k was
        tuned: ``best_scores - argmax_scores`` is optimistic).
    other_scores, other_argmax_scores : ndarray of shape (n_folds,)
        The same two rules on the pooled held-out predictions of the other
        folds, which did not choose τ*_k (NaN with a single fold).
    metric : str
        The metric's name.
    settings : dict
        The tuning's options and ``"n_folds"``.

    See Also
    --------
    cross_validated_tuning : Makes this result.
    polyroc.plotting.CrossValidatedTuningDisplay : Draws the spread of τ*.
    polyroc.thresholds.TuningResult : One tuning.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> result = cross_validated_tuning(LogisticRegression(max_iter=500), X, y, cv=3, resolution=10)
    >>> result.thresholds.shape, result.other_scores.shape
    ((3, 3), (3,))
    """

    classes: np.ndarray
    thresholds: np.ndarray
    best_scores: np.ndarray
    argmax_scores: np.ndarray
    other_scores: np.ndarray
    other_argmax_scores: np.ndarray
    metric: str
    settings: dict[str, Any]

    @property
    def gains(self) -> np.ndarray:
        """``best_scores - argmax_scores``: each fold's gain where τ*_k was tuned (>= 0, optimistic)."""
        return self.best_scores - self.argmax_scores

    @property
    def other_gains(self) -> np.ndarray:
        """``other_scores - other_argmax_scores``: τ*_k's gain on the folds that did not tune it."""
        return self.other_scores - self.other_argmax_scores

    @property
    def threshold_mean(self) -> np.ndarray:
        """The mean of τ*_k over the folds, per class."""
        return self.thresholds.mean(axis=0)

    @property
    def threshold_std(self) -> np.ndarray:
        """The standard deviation of τ*_k over the folds, per class (``ddof=0``, as scikit-learn's legends)."""
        return self.thresholds.std(axis=0)

    def summary(self) -> dict[str, float]:
        """Mean and standard deviation (``ddof=0``) of the scores and gains over the folds.

        Returns
        -------
        dict
            ``{"<quantity>_mean": ..., "<quantity>_std": ...}`` for
            ``best_score``, ``argmax_score``, ``gain``, ``other_score`` and
            ``other_gain``.

        See Also
        --------
        to_frame : The per-fold values.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> X, y = load_iris(return_X_y=True)
        >>> result = cross_validated_tuning(LogisticRegression(max_iter=500), X, y, cv=3, resolution=10)
        >>> sorted(result.summary())[:3]
        ['argmax_score_mean', 'argmax_score_std', 'best_score_mean']
        """
        quantities = {
            "best_score": self.best_scores,
            "argmax_score": self.argmax_scores,
            "gain": self.gains,
            "other_score": self.other_scores,
            "other_gain": self.other_gains,
        }
        summary = {}
        for name, values in quantities.items():
            finite = values[np.isfinite(values)]
            summary[f"{name}_mean"] = float(finite.mean()) if finite.size else float("nan")
            summary[f"{name}_std"] = float(finite.std()) if finite.size else float("nan")
        return summary

    def _summary(self) -> dict[str, Any]:
        return {"metric": self.metric, "n_folds": int(self.thresholds.shape[0]), **self.summary()}

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per fold: τ*_k per class, then its scores and gains."""
        rows = []
        for k, tau in enumerate(self.thresholds):
            row: dict[str, Any] = {"fold": k}
            row.update({f"threshold_{label}": float(value) for label, value in zip(self.classes.tolist(), tau)})
            row.update(
                best_score=float(self.best_scores[k]),
                argmax_score=float(self.argmax_scores[k]),
                gain=float(self.gains[k]),
                other_score=float(self.other_scores[k]),
                other_argmax_score=float(self.other_argmax_scores[k]),
                other_gain=float(self.other_gains[k]),
            )
            rows.append(row)
        return rows

    def to_text(self) -> str:
        """The per-fold table and the spread over the folds, as plain text.

        Returns
        -------
        str
            One line per fold (τ*, gain on the fold, gain on the other
            folds), then the mean ± sd of each column.

        See Also
        --------
        to_frame : The same numbers as a DataFrame.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> X, y = load_iris(return_X_y=True)
        >>> result = cross_validated_tuning(LogisticRegression(max_iter=500), X, y, cv=3, resolution=10)
        >>> print(result.to_text().splitlines()[0])
        f1_macro: tau* tuned on each of 3 folds
        """
        classes = [str(label) for label in self.classes.tolist()]
        header = ["fold", *[f"tau_{label}" for label in classes], "gain (fold)", "gain (other folds)"]
        rows = [
            [str(k), *[f"{value:.4f}" for value in tau], f"{self.gains[k]:+.4f}", f"{self.other_gains[k]:+.4f}"]
            for k, tau in enumerate(self.thresholds)
        ]
        summary = self.summary()
        rows.append(
            [
                "mean±sd",
                *[f"{mean:.4f}±{std:.4f}" for mean, std in zip(self.threshold_mean, self.threshold_std)],
                f"{summary['gain_mean']:+.4f}±{summary['gain_std']:.4f}",
                f"{summary['other_gain_mean']:+.4f}±{summary['other_gain_std']:.4f}",
            ]
        )
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
        lines = [f"{self.metric}: tau* tuned on each of {self.thresholds.shape[0]} folds"]
        lines += ["  ".join(cell.rjust(width) for cell, width in zip(row, widths)) for row in [header, *rows]]
        return "\n".join(lines)

    def _view_sections(self) -> list[str]:
        rows = [[key, value] for key, value in self._summary().items()]
        frame_rows = self._frame_rows()
        cells = [list(row.values()) for row in frame_rows]
        return [html_table(rows, None, "Over the folds"), html_table(cells, list(frame_rows[0]), "Per fold")]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw τ*_k of each fold (see :class:`polyroc.plotting.CrossValidatedTuningDisplay`).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to ``CrossValidatedTuningDisplay.from_result``.

        Returns
        -------
        display : CrossValidatedTuningDisplay
            The display, drawn.

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes or ``name`` not a string.

        See Also
        --------
        polyroc.plotting.CrossValidatedTuningDisplay : The display drawn here.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.linear_model import LogisticRegression
        >>> X, y = load_iris(return_X_y=True)
        >>> result = cross_validated_tuning(LogisticRegression(max_iter=500), X, y, cv=3, resolution=10)
        >>> type(result.plot()).__name__
        'CrossValidatedTuningDisplay'
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        return super().plot(ax, **kwargs)


def _cv_results(
    estimator_or_cv_results: object, X: ArrayLike, y: ArrayLike, cv: int | Splitter | Iterable[Any]
) -> Mapping[str, Any]:
    """``estimator_or_cv_results`` if it is a dict, else ``cross_validate``'s folds of the estimator."""
    if isinstance(estimator_or_cv_results, Mapping):
        return estimator_or_cv_results
    if not HasMethods(("fit", "predict_proba")).is_satisfied_by(estimator_or_cv_results):
        raise TypeError(
            "estimator_or_cv_results must be the dict of cross_validate or a classifier with fit and "
            f"predict_proba, got {type(estimator_or_cv_results).__name__}"
        )
    from sklearn.model_selection import cross_validate

    return cross_validate(estimator_or_cv_results, X, y, cv=cv, return_estimator=True, return_indices=True)


@validate_params(
    {
        "search": [Options(SEARCHES)],
        "resolution": [None, Interval("integer", 1, None, closed="left")],
        "n_samples": [None, Interval("integer", 1, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
        "random_state": ["random_state"],
    }
)
def cross_validated_tuning(
    estimator_or_cv_results: Mapping[str, Any] | ProbabilisticClassifier,
    X: ArrayLike,
    y: ArrayLike,
    *,
    metric: str | Callable = "f1_macro",
    cv: int | Splitter | Iterable[tuple[ArrayLike, ArrayLike]] = 5,
    search: str = "auto",
    resolution: int | None = None,
    n_samples: int | None = None,
    domain: str = "simplex",
    sample_weight: ArrayLike | None = None,
    random_state: int | np.random.Generator | None = None,
) -> CrossValidatedTuning:
    """Tune τ of argmax(p − τ) on each fold's held-out predictions, and score it on the other folds.

    Fold k's τ*_k is :func:`tune_thresholds` on the ``predict_proba`` of fold
    k's classifier on fold k's test rows: predictions the classifier did not
    fit, as a held-out validation set would give. The spread of τ*_k over the
    folds shows how much the tuned rule depends on the sample it was tuned
    on. Its gain over argmax on fold k itself is optimistic (τ*_k was chosen
    there); its gain on the pooled held-out predictions of the other folds
    (each row scored by its own fold's classifier) is not, since those rows
    did not choose τ*_k. No inner split is made: the held-out predictions of
    the folds already are validation data, and an inner cross-validation
    would refit every classifier once more per fold.

    Parameters
    ----------
    estimator_or_cv_results : dict or classifier
        The dict of :func:`sklearn.model_selection.cross_validate` run with
        ``return_estimator=True, return_indices=True``, or an unfitted
        classifier with ``fit`` and ``predict_proba``, cross-validated here
        with ``cv``.
    X : array-like of shape (n_samples, n_features)
        The data.
    y : array-like of shape (n_samples,)
        The labels.
    metric : str or callable, default="f1_macro"
        As :func:`tune_thresholds`.
    cv : int, cross-validation generator or iterable, default=5
        The folds, as ``cross_validate``'s ``cv`` (used only with a classifier).
    search, resolution, n_samples, domain
        As :func:`tune_thresholds`, for each fold.
    sample_weight : array-like of shape (n_samples,), default=None
        Weights of the rows in the tuning and the scores (not in the fits).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the random searches (one Generator drawn from fold after fold).

    Returns
    -------
    CrossValidatedTuning
        τ*_k per fold, its scores on its fold and on the other folds.

    Raises
    ------
    ValueError
        A ``cv_results`` without ``"estimator"`` or ``"indices"`` (pass
        ``return_estimator=True, return_indices=True``), an unknown option,
        or labels and scores :func:`tune_thresholds` refuses.
    TypeError
        ``estimator_or_cv_results`` neither a dict nor a classifier with
        ``fit`` and ``predict_proba``.

    See Also
    --------
    tune_thresholds : One tuning.
    polyroc.thresholds.SimplexThresholdClassifier : Tunes once on pooled out-of-fold predictions.
    polyroc.plotting.CrossValidatedTuningDisplay : Draws the spread of τ*.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = load_iris(return_X_y=True)
    >>> result = cross_validated_tuning(LogisticRegression(max_iter=500), X, y, cv=3, resolution=10)
    >>> result.thresholds.shape, result.to_frame().columns.tolist()[:4]
    ((3, 3), ['fold', 'threshold_0', 'threshold_1', 'threshold_2'])
    >>> bool((result.gains >= 0).all())
    True
    """
    objective = checked_metric(metric)
    cv_results = _cv_results(estimator_or_cv_results, X, y, cv)
    folds, classes = fold_predictions(cv_results, X, y, sample_weight=sample_weight)
    rng = check_random_state(random_state)
    tuned = [
        tune_thresholds(
            fold.y_true,
            fold.y_score,
            metric=metric,
            search=search,
            resolution=resolution,
            n_samples=n_samples,
            domain=domain,
            labels=classes,
            sample_weight=fold.sample_weight,
            random_state=rng,
        )
        for fold in folds
    ]
    classes = tuned[0].classes
    other_scores, other_argmax = np.full(len(folds), np.nan), np.full(len(folds), np.nan)
    for k, result in enumerate(tuned):
        others = [fold for j, fold in enumerate(folds) if j != k]
        if not others:
            continue
        weights = None if sample_weight is None else np.concatenate([f.sample_weight for f in others])
        targets = with_scaled_weights(
            check_scores(
                np.concatenate([fold.y_true for fold in others]),
                np.concatenate([fold.y_score for fold in others]),
                labels=classes,
                sample_weight=weights,
            )
        )
        other_scores[k] = score_at(targets, result.best_threshold, objective)
        other_argmax[k] = argmax_score(targets, objective)
    return CrossValidatedTuning(
        classes=classes,
        thresholds=np.array([result.best_threshold for result in tuned]),
        best_scores=np.array([result.best_score for result in tuned]),
        argmax_scores=np.array([result.argmax_score for result in tuned]),
        other_scores=other_scores,
        other_argmax_scores=other_argmax,
        metric=metric_name(metric),
        settings={
            "n_folds": len(folds),
            "search": tuned[0].settings["search"],
            "resolution": tuned[0].settings["resolution"],
            "n_samples": tuned[0].settings["n_samples"],
            "domain": domain,
        },
    )
