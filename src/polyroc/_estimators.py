"""Helpers shared by polyroc's scikit-learn meta-estimators: held-out probabilities, ``cv``, routing and tags.

:class:`~polyroc.thresholds.SimplexThresholdClassifier` and
:class:`~polyroc.decisions.CostSensitiveClassifier` both wrap a
probabilistic classifier, take its probabilities out of fold (or from a
prefit model), route their ``fit`` metadata to the estimator and to the
splitter, and take the sparse-input tag of the estimator; these are the
pieces they share.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterator
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import clone
from sklearn.model_selection import check_cv
from sklearn.utils import _safe_indexing
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping

from polyroc._validation import encode_labels

__all__ = [
    "ProbabilisticClassifier",
    "SparseTagsOfEstimator",
    "Splitter",
    "check_cv_option",
    "estimator_has",
    "fit_routing",
    "fold_probabilities",
    "pooled_held_out",
]


class ProbabilisticClassifier(Protocol):
    """The classifier :class:`SimplexThresholdClassifier` wraps: ``fit(X, y)``, then ``predict_proba(X)``."""

    def fit(self, X: ArrayLike, y: ArrayLike, /) -> object:
        """Fit on the rows ``X`` and their labels ``y``."""
        ...

    def predict_proba(self, X: ArrayLike, /) -> ArrayLike:
        """One score column per class (in ``classes_`` order) for each row of ``X``."""
        ...


class Splitter(Protocol):
    """A cross-validation splitter (``KFold``, ``GroupKFold`` ...): ``split`` yields train and test indices."""

    def split(
        self, X: ArrayLike, y: ArrayLike | None = None, groups: ArrayLike | None = None
    ) -> Iterator[tuple[NDArray[np.intp], NDArray[np.intp]]]:
        """The (train, test) row indices of each fold."""
        ...


def estimator_has(attr):
    """For ``available_if``: the fitted estimator (or else the given one) has ``attr``."""

    def check(self):
        return hasattr(getattr(self, "estimator_", self.estimator), attr)

    return check


def check_cv_option(cv, y):
    """Return ``"prefit"`` or a scikit-learn splitter (an int gives StratifiedKFold)."""
    if isinstance(cv, str):
        if cv != "prefit":
            raise ValueError(f"cv must be 'prefit', an integer >= 2, a splitter or an iterable of splits; got {cv!r}")
        return cv
    if isinstance(cv, bool) or (isinstance(cv, numbers.Real) and not isinstance(cv, numbers.Integral)):
        raise TypeError(f"cv must be 'prefit', an integer >= 2, a splitter or an iterable of splits; got {cv!r}")
    if isinstance(cv, numbers.Integral) and cv < 2:
        raise ValueError(f"cv must be at least 2 folds when an integer, got {cv}")
    return check_cv(cv, y, classifier=True)


def index_params(params, n_samples, indices):
    """The fit parameters of a subset: per-sample arrays indexed, other values as given."""

    def per_sample(value):
        shape = value.shape if hasattr(value, "shape") else np.shape(value)
        return len(shape) >= 1 and shape[0] == n_samples

    return {key: _safe_indexing(value, indices) if per_sample(value) else value for key, value in params.items()}


def fold_probabilities(estimator, splits, X, y, fit_params):
    """Per split, a clone of ``estimator`` fitted on its train part: (test rows, its classes, its probabilities).

    Also returns the last split's model. ``fit_params`` that hold one value
    per row are cut to the train rows.
    """
    n_samples = y.shape[0]
    parts, model = [], None
    for train, test in splits:
        model = clone(estimator).fit(_safe_indexing(X, train), y[train], **index_params(fit_params, n_samples, train))
        parts.append((test, model.classes_, model.predict_proba(_safe_indexing(X, test))))
    return parts, model


def pooled_held_out(parts, classes, y, weights):
    """The test parts of :func:`fold_probabilities` pooled: (labels, probabilities in ``classes`` order, weights)."""
    test = np.concatenate([part[0] for part in parts])
    proba = np.concatenate([align_columns(p, fold_classes, classes) for _, fold_classes, p in parts])
    return y[test], proba, None if weights is None else weights[test]


def align_columns(proba, fold_classes, classes):
    """Put the columns of a fold model's ``proba`` in ``classes`` order (0 for unseen classes)."""
    aligned = np.zeros((proba.shape[0], classes.size), dtype=np.float64)
    aligned[:, encode_labels(fold_classes, classes)] = proba
    return aligned


def fit_routing(meta) -> MetadataRouter:
    """The metadata routing of a meta-estimator's ``fit``: its own request, ``estimator.fit`` and ``cv.split``."""
    return (
        MetadataRouter(owner=meta)
        .add_self_request(meta)
        .add(estimator=meta.estimator, method_mapping=MethodMapping().add(caller="fit", callee="fit"))
        .add(splitter=meta.cv, method_mapping=MethodMapping().add(caller="fit", callee="split"))
    )


class SparseTagsOfEstimator:
    """Mixin: a meta-estimator accepts sparse input when its ``estimator`` does."""

    def __sklearn_tags__(self):
        # Only called by scikit-learn >= 1.6, which is where get_tags exists.
        from sklearn.utils import get_tags

        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = get_tags(self.estimator).input_tags.sparse
        return tags
