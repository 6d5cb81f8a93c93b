"""A scikit-learn meta-estimator that decides by least expected cost: :class:`CostSensitiveClassifier`.

It fits a probabilistic classifier and predicts, for each row, the decision
of least expected cost ``argmin_j sum_i p_i C[i, j]`` under a cost matrix C
(Bayes decisions, :func:`~polyroc.decisions.bayes_decision`). Optionally the
probabilities are first recalibrated by a map fitted on out-of-fold
probabilities (:func:`~polyroc.calibration.fit_calibrator`), or the
thresholds tau of the rule argmax(p - tau) are tuned for least cost on them
(:func:`~polyroc.thresholds.tune_thresholds`), as
:class:`~polyroc.thresholds.SimplexThresholdClassifier` tunes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn import get_config
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.metadata_routing import MetadataRouter, process_routing
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, indexable

from polyroc._engine.costs import bayes_codes
from polyroc._estimators import (
    ProbabilisticClassifier,
    SparseTagsOfEstimator,
    Splitter,
    check_cv_option,
    estimator_has,
    fit_routing,
    fold_probabilities,
    pooled_held_out,
)
from polyroc._validation import check_label_kinds, check_sample_weight
from polyroc._validation._costs import check_cost_matrix
from polyroc._validation._params import ConstraintLike, HasMethods, Options, check_params
from polyroc.calibration._maps import METHODS, CalibrationMethod, Calibrator, fit_calibrator
from polyroc.decisions import _costs
from polyroc.thresholds.rules import apply_thresholds
from polyroc.thresholds.tuning import TuningResult, tune_thresholds

if TYPE_CHECKING:
    from scipy.sparse import sparray, spmatrix

__all__ = ["CostSensitiveClassifier"]

#: How ``predict`` decides: the Bayes rule on the probabilities, or argmax(p - tau) with tau tuned for cost.
DECISIONS = ("bayes", "tuned")


class CostSensitiveClassifier(SparseTagsOfEstimator, ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Classifier predicting the decision of least expected cost under a cost matrix.

    ``predict`` takes, for each row, ``argmin_j sum_i p_i C[i, j]`` on the
    probabilities p of the fitted ``estimator`` (the Bayes decision of
    :func:`~polyroc.decisions.bayes_decision`; ties go to the first class).
    It is the rule of least expected cost when p is calibrated; with
    ``calibration`` the probabilities are first recalibrated by a map fitted
    on out-of-fold probabilities. With ``decision="tuned"`` it applies
    instead the rule argmax(p - tau*) of
    :class:`~polyroc.thresholds.SimplexThresholdClassifier`, tau* tuned for
    least cost on the out-of-fold probabilities: for probabilities that are
    not calibrated.

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict_proba``, fitted when
        ``cv="prefit"``.
    cost_matrix : array-like or pandas.DataFrame of shape (n_classes, n_classes), default=None
        ``cost_matrix[i, j]``: the cost of deciding class j when the class is
        i; finite and non-negative. An array is in the order of ``classes_``
        (the sorted labels); a DataFrame is labelled by the classes on both
        axes (rows the true classes, columns the decisions), in any order.
        None: 0-1 costs (1 off the diagonal), under which the Bayes decision
        is exactly the argmax of the probabilities. Checked when fitting.
    calibration : {"temperature", "vector", "matrix", "isotonic"}, default=None
        Recalibrate the probabilities with this map of
        :func:`~polyroc.calibration.fit_calibrator`, fitted on held-out
        probabilities (see ``cv``); None uses them as ``estimator`` gives them.
    decision : {"bayes", "tuned"}, default="bayes"
        ``"bayes"``: the Bayes decision on the (recalibrated) probabilities.
        ``"tuned"``: argmax(p - tau*), tau* tuned on the held-out
        (recalibrated) probabilities to minimise the expected cost with
        :func:`~polyroc.thresholds.tune_thresholds` (the plain argmax is a
        candidate, so its cost there is never above the argmax's).
    cv : "prefit", int, cross-validation generator or iterable, default=5
        Where the held-out probabilities of ``calibration`` and
        ``decision="tuned"`` come from, as in
        :class:`~polyroc.thresholds.SimplexThresholdClassifier`:

        - ``"prefit"``: ``estimator`` is already fitted and used as is; its
          probabilities for the data given to ``fit``, which should be held
          out from its training, are the held-out probabilities.
        - an int k >= 2 (or None for 5): unshuffled
          :class:`~sklearn.model_selection.StratifiedKFold` with k folds.
        - a splitter or an iterable of (train, test) index pairs.

        With cross-validation, a clone of ``estimator`` is fitted on each
        training part and predicts its test part; these out-of-fold
        probabilities are pooled, the map (or tau*) is fitted once on them,
        and ``estimator_`` is then fitted on all the data. Unused (no
        cross-validation is run) with ``calibration=None`` and
        ``decision="bayes"``.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the random starts of the tuning's coordinate search (from 5
        classes on) with ``decision="tuned"``.

    Attributes
    ----------
    estimator_ : estimator instance
        The fitted classifier (``estimator`` itself with ``cv="prefit"``).
    cost_matrix_ : ndarray of shape (n_classes, n_classes)
        The checked cost matrix, rows and columns in ``classes_`` order.
    calibrator_ : Calibrator or None
        The calibration map fitted on the held-out probabilities.
    tuning_result_ : TuningResult or None
        With ``decision="tuned"``: the result of
        :func:`~polyroc.thresholds.tune_thresholds` with
        ``metric="expected_cost"``, whose ``best_score`` is the expected cost
        of tau* on the held-out probabilities.
    best_threshold_ : ndarray of shape (n_classes,) or None
        With ``decision="tuned"``: tau*, in ``classes_`` order.
    classes_ : ndarray of shape (n_classes,)
        The class labels (``estimator_.classes_``).
    n_features_in_ : int
        Number of features seen during ``fit`` (when ``estimator_`` has it).
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Feature names seen during ``fit`` (when ``estimator_`` has them).

    See Also
    --------
    polyroc.decisions.bayes_decision : The Bayes decisions of given probabilities.
    polyroc.thresholds.SimplexThresholdClassifier : Tunes tau for any metric of the counts.
    sklearn.calibration.CalibratedClassifierCV : Calibrates on internal cross-validation too.

    Notes
    -----
    ``score`` is the accuracy (scikit-learn's ``ClassifierMixin``), as for
    every classifier, so that model selection keeps its meaning; the
    expected cost of the decisions is :meth:`expected_cost`. To rank models
    by cost in a grid search, pass ``scoring=make_scorer(expected_cost,
    greater_is_better=False, cost_matrix=C)`` with
    :func:`polyroc.expected_cost`.

    ``predict_proba`` gives the recalibrated probabilities when
    ``calibration`` is set (those ``predict`` decides on), else those of
    ``estimator_``; ``decision_function`` is always that of ``estimator_``.

    ``fit(X, y, sample_weight=w)`` weighs the calibration map and the
    tuning with ``w`` and routes the weights to ``estimator.fit`` as
    :class:`~polyroc.thresholds.SimplexThresholdClassifier` does: without
    metadata routing, ``w`` and ``**fit_params`` go to ``estimator.fit``
    (not with ``cv="prefit"``); with routing enabled, only to the children
    that request them.

    A reject option is not part of ``predict``, whose labels are always
    classes: :func:`~polyroc.decisions.bayes_decision` with ``reject_cost``
    on ``predict_proba`` gives Chow's rule with rejections.

    References
    ----------
    Elkan, C. (2001). The foundations of cost-sensitive learning. Proceedings
    of IJCAI 2001, 973-978.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(n_samples=600, n_classes=3, n_informative=4, class_sep=0.5, random_state=0)
    >>> X_train, X_test, y_train, y_test = X[:300], X[300:], y[:300], y[300:]
    >>> costs = [[0, 1, 1], [5, 0, 5], [1, 1, 0]]  # missing class 1 costs 5
    >>> clf = CostSensitiveClassifier(LogisticRegression(), cost_matrix=costs).fit(X_train, y_train)
    >>> clf.classes_.tolist()
    [0, 1, 2]
    >>> round(clf.expected_cost(X_test, y_test), 3), round(clf.score(X_test, y_test), 3)
    (0.6, 0.467)

    The plain classifier is more accurate, and costlier:

    >>> from polyroc.decisions import expected_cost
    >>> plain = LogisticRegression().fit(X_train, y_train)
    >>> round(expected_cost(y_test, plain.predict(X_test), cost_matrix=costs), 3), round(plain.score(X_test, y_test), 3)
    (1.1, 0.5)
    """

    #: The fitted classifier, of the type ``estimator`` has (its optional methods are offered when it has them).
    estimator_: Any

    def __init__(
        self,
        estimator: ProbabilisticClassifier,
        *,
        cost_matrix: ArrayLike | None = None,
        calibration: CalibrationMethod | None = None,
        decision: Literal["bayes", "tuned"] = "bayes",
        cv: int | Literal["prefit"] | Splitter | Iterable[tuple[ArrayLike, ArrayLike]] = 5,
        random_state: int | np.random.Generator | None = None,
    ) -> None:
        self.estimator = estimator
        self.cost_matrix = cost_matrix
        self.calibration = calibration
        self.decision = decision
        self.cv = cv
        self.random_state = random_state

    #: The declared constraints of the parameters, checked when fitting, before any fit.
    _fit_param_constraints: ClassVar[dict[str, list[ConstraintLike]]] = {
        "estimator": [HasMethods(("fit", "predict_proba"))],
        "calibration": [None, Options(METHODS)],
        "decision": [Options(DECISIONS)],
        "random_state": ["random_state"],
    }

    def _check_params(self, y: np.ndarray) -> Any:
        """Validate the parameters and the cost matrix before any fitting; return the checked cv."""
        check_params(self._fit_param_constraints, self.get_params(deep=False))
        cv = check_cv_option(self.cv, y)
        if cv == "prefit":
            try:
                check_is_fitted(self.estimator)
            except NotFittedError as exc:
                raise NotFittedError(
                    "cv='prefit' needs a fitted estimator; fit it first or use cross-validation"
                ) from exc
            classes = np.asarray(getattr(self.estimator, "classes_"))  # noqa: B009 (not in the protocol)
        else:
            classes = np.unique(y)
        if self.cost_matrix is None:
            self.cost_matrix_ = 1.0 - np.eye(classes.size)
        else:
            self.cost_matrix_ = check_cost_matrix(self.cost_matrix, classes)
        return cv

    def fit(
        self, X: ArrayLike | spmatrix | sparray, y: ArrayLike, sample_weight: ArrayLike | None = None, **fit_params: Any
    ) -> CostSensitiveClassifier:
        """Fit the classifier and, if asked, the calibration map or the thresholds tau*.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data (held-out data with ``cv="prefit"``), as accepted
            by ``estimator``.
        y : array-like of shape (n_samples,)
            Class labels (numbers or strings), at least two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the calibration map and of the tuning, always.
            Without metadata routing also passed to ``estimator.fit`` (not
            with ``cv="prefit"``); with routing enabled, only to the children
            that request them.
        **fit_params : dict
            Without metadata routing: further parameters of ``estimator.fit``
            (ignored with ``cv="prefit"``). With routing enabled: metadata
            routed to ``estimator.fit`` and to the ``split`` of ``cv`` as
            they request. Per-sample arrays are subset to each training part.

        Returns
        -------
        self : CostSensitiveClassifier
            The fitted estimator.

        Raises
        ------
        ValueError
            If ``cost_matrix`` is not (n_classes, n_classes) for the classes
            of ``y`` (of ``estimator.classes_`` with ``cv="prefit"``), holds
            NaN, infinity or negative entries, or (a DataFrame) is not
            labelled by the classes; on an unknown ``calibration`` or
            ``decision``, a negative ``random_state`` or a bad ``cv``; for
            non-classification targets or bad ``sample_weight``; all before
            any fitting. If the fitted ``estimator_.classes_`` are not the
            classes of ``y``.
        TypeError
            If ``y`` mixes strings and numbers; if ``estimator`` has no
            ``fit`` or ``predict_proba``; if ``cost_matrix`` is not numeric,
            ``cv`` is a float or a bool, or ``random_state`` is not None, an
            integer or a Generator (before any fitting).
        sklearn.exceptions.NotFittedError
            With ``cv="prefit"`` and an unfitted ``estimator``.

        See Also
        --------
        predict : The decisions of the fitted rule.
        polyroc.calibration.fit_calibrator : The map fitted with ``calibration``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = load_iris(return_X_y=True)
        >>> names = pd.Series(["setosa", "versicolor", "virginica"])[y].to_numpy()
        >>> costs = pd.DataFrame([[0, 5, 1], [1, 0, 1], [1, 1, 0]],
        ...                      index=["versicolor", "setosa", "virginica"],
        ...                      columns=["versicolor", "setosa", "virginica"])
        >>> clf = CostSensitiveClassifier(GaussianNB(), cost_matrix=costs, calibration="temperature", cv=3)
        >>> clf.fit(X, names).cost_matrix_.tolist()  # reordered to classes_
        [[0.0, 1.0, 1.0], [5.0, 0.0, 1.0], [1.0, 1.0, 0.0]]
        >>> round(clf.calibrator_.temperature, 3)
        1.787
        """
        if y is not None:
            check_label_kinds("y", y)  # mixed kinds, bytes, missing labels: named before any fitting
        X, y_indexable = indexable(X, y)
        targets: np.ndarray = column_or_1d(y_indexable, warn=True)
        check_classification_targets(targets)
        cv = self._check_params(targets)
        weights = check_sample_weight(sample_weight, targets.shape[0])
        if get_config()["enable_metadata_routing"]:
            routed = process_routing(self, "fit", sample_weight=weights, **fit_params)
            estimator_params, split_params = routed["estimator"]["fit"], routed["splitter"]["split"]
        else:
            estimator_params = fit_params if weights is None else {**fit_params, "sample_weight": weights}
            split_params = {}
        held_out = self.calibration is not None or self.decision == "tuned"
        if cv == "prefit":
            self.estimator_ = self.estimator
            held = (targets, self.estimator_.predict_proba(X), weights) if held_out else None
        elif held_out:
            held = self._fit_out_of_fold(cv, X, targets, weights, estimator_params, split_params)
        else:
            self.estimator_ = clone(self.estimator).fit(X, targets, **estimator_params)
            held = None
        if self.estimator_.classes_.shape != (self.cost_matrix_.shape[0],):
            raise ValueError(
                f"the fitted estimator has {len(self.estimator_.classes_)} classes but y has "
                f"{self.cost_matrix_.shape[0]}: cost_matrix cannot be matched to its probability columns"
            )
        self._fit_rule(held)
        for name in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.estimator_, name):
                setattr(self, name, getattr(self.estimator_, name))
            elif name in vars(self):
                delattr(self, name)
        return self

    def _fit_out_of_fold(self, cv, X, y, weights, fit_params, split_params):
        """Fit a clone per split and ``estimator_`` on all rows; return pooled (y, proba, weights) of the test parts."""
        parts, _ = fold_probabilities(self.estimator, cv.split(X, y, **split_params), X, y, fit_params)
        self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
        return pooled_held_out(parts, self.estimator_.classes_, y, weights)

    def _fit_rule(self, held: tuple[np.ndarray, np.ndarray, np.ndarray | None] | None) -> None:
        """Fit the calibration map and tau* on the held-out (labels, probabilities, weights), as asked."""
        self.calibrator_: Calibrator | None = None
        self.tuning_result_: TuningResult | None = None
        self.best_threshold_: np.ndarray | None = None
        if held is None:
            return
        y_held, proba, w_held = held
        classes = self.estimator_.classes_
        if self.calibration is not None:
            self.calibrator_ = fit_calibrator(
                y_held, proba, method=self.calibration, labels=classes, sample_weight=w_held
            )
            proba = self.calibrator_.transform(proba)
        if self.decision == "tuned":
            self.tuning_result_ = tune_thresholds(
                y_held,
                proba,
                metric="expected_cost",
                cost_matrix=self.cost_matrix_,
                labels=classes,
                sample_weight=w_held,
                random_state=self.random_state,
            )
            self.best_threshold_ = self.tuning_result_.best_threshold

    def _probabilities(self, X: ArrayLike | spmatrix | sparray) -> NDArray[np.float64]:
        """The probabilities ``predict`` decides on: of ``estimator_``, recalibrated when ``calibrator_`` is set."""
        check_is_fitted(self)
        proba = np.asarray(self.estimator_.predict_proba(X), dtype=np.float64)
        return proba if self.calibrator_ is None else self.calibrator_.transform(proba)

    def predict(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Predict the decision of least expected cost (or of the tuned rule) for each row.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples, as accepted by ``estimator_.predict_proba``.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``: ``argmin_j sum_i p_i C[i, j]`` with p
            the rows of :meth:`predict_proba` (ties to the first class), or
            argmax(p - tau*) with ``decision="tuned"``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.
        ValueError
            From ``estimator_.predict_proba``, for ``X`` it does not accept.

        See Also
        --------
        polyroc.decisions.bayes_decision : The same decisions of given probabilities.
        expected_cost : Their expected cost on labelled data.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
        >>> y = np.array([0, 0, 0, 1, 1, 1])
        >>> model = GaussianNB()
        >>> model.fit(X, y).predict([[2.4]]).tolist()
        [0]
        >>> CostSensitiveClassifier(model, cost_matrix=[[0, 1], [4, 0]]).fit(X, y).predict([[2.4]]).tolist()
        [1]
        """
        proba = self._probabilities(X)
        if self.best_threshold_ is not None:
            codes = apply_thresholds(proba, self.best_threshold_)
        else:
            codes = bayes_codes(proba, self.cost_matrix_)
        return self.classes_.take(codes)

    def expected_cost(
        self, X: ArrayLike | spmatrix | sparray, y: ArrayLike, sample_weight: ArrayLike | None = None
    ) -> float:
        """Expected cost of the predictions on labelled data: the mean of ``cost_matrix_[y, predict(X)]``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples.
        y : array-like of shape (n_samples,)
            Their true labels, of ``classes_``.
        sample_weight : array-like of shape (n_samples,), default=None
            Row weights.

        Returns
        -------
        float
            :func:`polyroc.expected_cost` of ``predict(X)`` under
            ``cost_matrix_``; lower is better.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.
        ValueError
            If ``y`` is not 1-D of the length of ``X`` or holds labels that
            are not classes, or ``sample_weight`` is not valid.
        TypeError
            If ``y`` mixes kinds or ``sample_weight`` is not numeric.

        See Also
        --------
        score : The accuracy, as for every scikit-learn classifier.
        polyroc.expected_cost : The cost of given decisions.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]])
        >>> y = np.array([0, 0, 0, 1, 1, 1])
        >>> clf = CostSensitiveClassifier(GaussianNB(), cost_matrix=[[0, 1], [4, 0]]).fit(X, y)
        >>> clf.expected_cost([[2.4], [2.6], [0.5]], [0, 1, 0])
        0.3333333333333333
        """
        return _costs.expected_cost(
            y, self.predict(X), cost_matrix=self.cost_matrix_, labels=self.classes_, sample_weight=sample_weight
        )

    @available_if(estimator_has("predict_proba"))
    def predict_proba(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Class probabilities in ``classes_`` order: recalibrated with ``calibration``, else of ``estimator_``."""
        return self._probabilities(X)

    @available_if(estimator_has("predict_log_proba"))
    def predict_log_proba(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Log of :meth:`predict_proba` (``estimator_``'s own without calibration)."""
        check_is_fitted(self)
        if self.calibrator_ is None:
            return self.estimator_.predict_log_proba(X)
        with np.errstate(divide="ignore"):
            return np.log(self._probabilities(X))

    @available_if(estimator_has("decision_function"))
    def decision_function(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Decision function of ``estimator_``, neither recalibrated nor costed."""
        check_is_fitted(self)
        return self.estimator_.decision_function(X)

    @property
    def classes_(self) -> np.ndarray:
        """The class labels, in the order of the probability columns and of ``cost_matrix_``."""
        return self.estimator_.classes_

    def get_metadata_routing(self) -> MetadataRouter:
        """Get the metadata routing of this object (with ``enable_metadata_routing=True``).

        ``fit`` consumes ``sample_weight`` itself (the weights of the
        calibration map and of the tuning) and routes its metadata to
        ``estimator.fit`` and to the ``split`` of a ``cv`` splitter, each
        receiving what it requested.

        Returns
        -------
        routing : sklearn.utils.metadata_routing.MetadataRouter
            The routing: this object's own request, ``estimator`` (``fit`` to
            ``fit``) and ``splitter`` (``fit`` to ``split``).

        See Also
        --------
        fit : The method whose metadata is routed.

        Examples
        --------
        >>> import sklearn
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import GroupKFold
        >>> with sklearn.config_context(enable_metadata_routing=True):
        ...     model = LogisticRegression().set_fit_request(sample_weight=True)
        ...     routing = CostSensitiveClassifier(model, cv=GroupKFold(3)).get_metadata_routing()
        ...     sorted(routing.consumes("fit", ["sample_weight", "groups", "classes"]))
        ['groups', 'sample_weight']
        """
        return fit_routing(self)
