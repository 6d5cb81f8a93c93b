"""A scikit-learn meta-estimator that tunes the simplex thresholds of a classifier.

:class:`SimplexThresholdClassifier` is the multiclass counterpart of
scikit-learn's binary-only ``TunedThresholdClassifierCV``: it fits a
probabilistic classifier, tunes tau of the rule argmax(p - tau) on held-out
probabilities with :func:`~polyroc.thresholds.tune_thresholds`, and predicts
with the tuned rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import numpy as np
from numpy.typing import ArrayLike
from sklearn import get_config
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.metadata_routing import MetadataRouter, process_routing
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, column_or_1d, indexable

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
from polyroc._validation import THRESHOLD_DOMAINS, check_label_kinds, check_sample_weight
from polyroc._validation._params import ConstraintLike, HasMethods, Interval, Options, check_params
from polyroc.counts import get_metric
from polyroc.thresholds.objectives import check_cost_pairing, is_cost
from polyroc.thresholds.rules import apply_thresholds
from polyroc.thresholds.tuning import SEARCHES, TIE_BREAKS, tune_thresholds

if TYPE_CHECKING:
    from scipy.sparse import sparray, spmatrix

__all__ = ["SimplexThresholdClassifier"]


class SimplexThresholdClassifier(SparseTagsOfEstimator, ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Classifier predicting argmax(p - tau*) with tau* tuned on held-out probabilities.

    The multiclass counterpart of scikit-learn's binary
    :class:`~sklearn.model_selection.TunedThresholdClassifierCV`. ``fit``
    obtains held-out probabilities of ``estimator`` (cross-validated, or from
    an already fitted estimator), tunes the thresholds tau of the natural
    simplex rule with :func:`~polyroc.thresholds.tune_thresholds`, and
    ``predict`` applies argmax(p - tau*) to ``estimator_.predict_proba``. The
    barycentre (plain argmax) is always a candidate, so the tuned score on the
    tuning probabilities is never below the argmax score.

    Parameters
    ----------
    estimator : estimator instance
        A classifier with ``fit`` and ``predict_proba``, fitted when
        ``cv="prefit"``.
    scoring : str or callable, default="f1_macro"
        The metric to maximise: a name known to
        :func:`polyroc.counts.get_metric` (e.g. ``"accuracy"``,
        ``"balanced_accuracy"``, ``"mcc"``) or a callable mapping confusion
        counts of shape (M, m, m) to scores (M,). Higher is better. Or
        ``"expected_cost"`` with ``cost_matrix``: the expected cost to
        minimise (see :func:`~polyroc.thresholds.tune_thresholds`).
    cv : "prefit", int, cross-validation generator or iterable, default=5
        Where the tuning probabilities come from.

        - ``"prefit"``: ``estimator`` is already fitted and used as is
          (``refit`` has no effect); tau is tuned on its probabilities for the
          data given to ``fit``, which should be held out from its training.
          ``clone`` unfits it (as in ``cross_val_score``); wrap it in
          :class:`sklearn.frozen.FrozenEstimator` to keep it fitted there.
        - an int k >= 2 (or None for 5): unshuffled
          :class:`~sklearn.model_selection.StratifiedKFold` with k folds.
        - a splitter (``split(X, y)``) or an iterable of (train, test) index
          pairs. For group-aware splitting pass the splits themselves, or,
          with metadata routing enabled, a group splitter (e.g.
          :class:`~sklearn.model_selection.GroupKFold`) and ``fit(X, y,
          groups=groups)``.

        With cross-validation, a clone of ``estimator`` is fitted on each
        training part and predicts probabilities for its test part; these
        out-of-fold probabilities are **pooled** (concatenated, with their
        labels and weights) and tau is tuned **once** on the pooled set. This
        differs from ``TunedThresholdClassifierCV``, which averages per-fold
        score curves. Pooling scores one confusion matrix, the sum of the
        per-fold counts, so per-fold noise of non-linear metrics (F1, MCC) on
        small folds does not enter the objective, and a lattice is searched
        only once. It assumes the fold models' probabilities are on a
        comparable scale. Classes missing from a training part get
        probability 0 in that fold.
    refit : bool, default=True
        With cross-validation: fit ``estimator_`` on all the data (the
        folds only serve to tune tau). ``refit=False`` needs a single split and keeps the model
        fitted on its training part. Ignored with ``cv="prefit"``.
    search : {"auto", "lattice", "random", "coordinate"}, default="auto"
        How tau is searched; see :func:`~polyroc.thresholds.tune_thresholds`
        (``"auto"``: the lattice for at most 4 classes, an exact coordinate
        ascent from 5 classes on).
    resolution : int, default=None
        Lattice resolution r (default: the largest r <= 200 with at most
        25,000 lattice points; for a coordinate search, its start lattice).
    n_samples : int, default=None
        Number of Monte Carlo thresholds for ``search="random"`` (default
        20,000) or random starts for ``search="coordinate"``.
    domain : {"simplex", "box"}, default="simplex"
        Search tau on the probability simplex or on the box
        {min tau = 0, max tau <= 1}.
    tie_break : {"closest", "first"}, default="closest"
        Among equally scoring thresholds, keep the one closest to the
        barycentre, or the first in sampling order.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the Monte Carlo threshold sampler (the folds of an int ``cv``
        are not shuffled; pass a shuffled splitter for that).
    cost_matrix : array-like or pandas.DataFrame of shape (n_classes, n_classes), default=None
        With ``scoring="expected_cost"`` (and only then): ``cost_matrix[i, j]``
        is the cost of deciding class j when the class is i, rows and columns
        in ``classes_`` order (the sorted labels), finite and non-negative; a
        DataFrame is labelled by the classes on both axes.

    Attributes
    ----------
    estimator_ : estimator instance
        The fitted classifier whose probabilities ``predict`` thresholds
        (``estimator`` itself with ``cv="prefit"``).
    best_threshold_ : ndarray of shape (n_classes,)
        The tuned thresholds tau*, columns in ``classes_`` order.
    best_score_ : float
        Value of ``scoring`` at tau* on the tuning probabilities (for
        ``"expected_cost"`` the expected cost, lower is better:
        ``tuning_result_.greater_is_better`` is False).
    argmax_score_ : float
        Value of ``scoring`` of plain argmax on the tuning probabilities.
    tuning_result_ : TuningResult
        The full result of :func:`~polyroc.thresholds.tune_thresholds`.
    classes_ : ndarray of shape (n_classes,)
        The class labels (``estimator_.classes_``).
    n_features_in_ : int
        Number of features seen during ``fit`` (when ``estimator_`` has it).
    feature_names_in_ : ndarray of shape (``n_features_in_``,)
        Feature names seen during ``fit`` (when ``estimator_`` has them).

    See Also
    --------
    polyroc.thresholds.tune_thresholds : Tune tau on given probabilities.
    polyroc.thresholds.apply_thresholds : Apply a tuned tau.
    sklearn.model_selection.TunedThresholdClassifierCV : The binary analogue.
    sklearn.calibration.CalibratedClassifierCV : Routes its ``fit`` metadata the same way.

    Notes
    -----
    ``predict_proba`` and ``decision_function`` are those of ``estimator_``,
    unchanged, so ``predict`` is in general not their argmax.

    :meth:`score` is accuracy whatever ``scoring`` is, as for every
    scikit-learn classifier; ``scoring`` (an expected cost included) is what
    tau* is tuned for. Score the tuned rule by its cost with
    :func:`polyroc.decisions.expected_cost` on ``predict``.

    ``fit(X, y, sample_weight=w, **fit_params)`` always tunes tau with the
    weights ``w``. With metadata routing
    (``sklearn.set_config(enable_metadata_routing=True)``, see
    :meth:`get_metadata_routing`) it passes to ``estimator.fit`` and to the
    ``split`` of the ``cv`` splitter only the metadata they request, as
    scikit-learn's meta-estimators do, so a
    :class:`~sklearn.pipeline.Pipeline` gets ``sample_weight`` for the steps
    that request it. Without routing, ``sample_weight`` and ``**fit_params``
    all go to ``estimator.fit`` (unless ``cv="prefit"``); a ``Pipeline``
    refuses ``sample_weight`` there, and ``step__sample_weight`` weighs the
    step but not the tuning.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, y = make_classification(n_samples=300, n_classes=3, n_informative=4,
    ...                            weights=[0.6, 0.3, 0.1], random_state=0)
    >>> clf = SimplexThresholdClassifier(
    ...     LogisticRegression(), scoring="balanced_accuracy", cv=5, resolution=30
    ... ).fit(X, y)
    >>> clf.classes_.tolist()
    [0, 1, 2]
    >>> clf.best_threshold_.round(3).tolist()
    [0.7, 0.267, 0.033]
    >>> round(clf.argmax_score_, 4), round(clf.best_score_, 4)
    (0.6234, 0.7117)
    >>> clf.predict(X[:5]).tolist()
    [1, 0, 0, 2, 1]

    Weighted, around a pipeline, with metadata routing: the weights reach the
    steps that request them and always weigh the tuning.

    >>> import numpy as np
    >>> import sklearn
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> w = np.where(y == 2, 3.0, 1.0)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     pipe = make_pipeline(
    ...         StandardScaler().set_fit_request(sample_weight=False),
    ...         LogisticRegression().set_fit_request(sample_weight=True),
    ...     )
    ...     weighted = SimplexThresholdClassifier(pipe, scoring="balanced_accuracy", resolution=30)
    ...     weighted = weighted.fit(X, y, sample_weight=w)
    >>> weighted.best_threshold_.round(3).tolist()
    [0.567, 0.333, 0.1]

    Tuned for the least expected cost, where missing class 2 costs 10:

    >>> costs = [[0, 1, 1], [1, 0, 1], [10, 10, 0]]
    >>> cheap = SimplexThresholdClassifier(
    ...     LogisticRegression(), scoring="expected_cost", cost_matrix=costs, resolution=30
    ... ).fit(X, y)
    >>> cheap.best_score_ <= cheap.argmax_score_, cheap.tuning_result_.greater_is_better
    (True, False)
    """

    #: The fitted classifier, of the type ``estimator`` has (its optional methods are offered when it has them).
    estimator_: Any

    def __init__(
        self,
        estimator: ProbabilisticClassifier,
        *,
        scoring: str | Callable = "f1_macro",
        cv: int | Literal["prefit"] | Splitter | Iterable[tuple[ArrayLike, ArrayLike]] = 5,
        refit: bool = True,
        search: str = "auto",
        resolution: int | None = None,
        n_samples: int | None = None,
        domain: str = "simplex",
        tie_break: str = "closest",
        random_state: int | np.random.Generator | None = None,
        cost_matrix: ArrayLike | None = None,
    ) -> None:
        self.estimator = estimator
        self.scoring = scoring
        self.cv = cv
        self.refit = refit
        self.search = search
        self.resolution = resolution
        self.n_samples = n_samples
        self.domain = domain
        self.tie_break = tie_break
        self.random_state = random_state
        self.cost_matrix = cost_matrix

    #: The declared constraints of the parameters, checked when fitting, before any fit.
    _fit_param_constraints: ClassVar[dict[str, list[ConstraintLike]]] = {
        "estimator": [HasMethods(("fit", "predict_proba"))],
        "refit": ["boolean"],
        "search": [Options(SEARCHES)],
        "resolution": [None, Interval("integer", 1, None, closed="left")],
        "n_samples": [None, Interval("integer", 1, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
        "tie_break": [Options(TIE_BREAKS)],
        "random_state": ["random_state"],
    }

    def _check_params(self, y):
        """Validate the parameters before any fitting; return the checked cv."""
        check_params(self._fit_param_constraints, self.get_params(deep=False))
        check_cost_pairing(self.scoring, self.cost_matrix, metric_arg="scoring")
        try:
            if not is_cost(self.scoring):
                get_metric(self.scoring)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"invalid scoring={self.scoring!r}: {exc}") from exc
        cv = check_cv_option(self.cv, y)
        if cv == "prefit":
            try:
                check_is_fitted(self.estimator)
            except NotFittedError as exc:
                raise NotFittedError(
                    "cv='prefit' needs a fitted estimator; fit it first or use cross-validation"
                ) from exc
        return cv

    def fit(
        self, X: ArrayLike | spmatrix | sparray, y: ArrayLike, sample_weight: ArrayLike | None = None, **fit_params: Any
    ) -> SimplexThresholdClassifier:
        """Fit the classifier and tune the thresholds tau*.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data (tuning data with ``cv="prefit"``), as accepted by
            ``estimator``.
        y : array-like of shape (n_samples,)
            Class labels (numbers or strings), at least two classes.
        sample_weight : array-like of shape (n_samples,), default=None
            Weights of the tuning metric, always. Without metadata routing
            also passed to ``estimator.fit`` (not with ``cv="prefit"``); with
            routing enabled, only to the children that request them (e.g.
            ``LogisticRegression().set_fit_request(sample_weight=True)``).
        **fit_params : dict
            Without metadata routing: further parameters of ``estimator.fit``
            (ignored with ``cv="prefit"``). With routing enabled: metadata
            routed to ``estimator.fit`` and to the ``split`` of ``cv`` (e.g.
            ``groups``) as they request (see :meth:`get_metadata_routing`).
            Per-sample arrays are subset to each training part.

        Returns
        -------
        self : SimplexThresholdClassifier
            The fitted estimator.

        Raises
        ------
        TypeError
            If ``y`` mixes strings and numbers (scikit-learn's "Mix of label
            input types (string and number)") or holds bytes; if
            ``estimator`` has no ``fit`` or ``predict_proba``, or ``refit``
            is not a bool, ``scoring`` is neither a name nor callable, ``cost_matrix``
            is not numeric, ``cv``
            is a float or a bool, ``resolution`` or ``n_samples`` is neither
            None nor an integer, or ``random_state`` is not None, an integer
            or a Generator (before any fitting, whatever the search); with
            metadata routing enabled, for metadata that no child consumes.
        ValueError
            On an unknown ``scoring``, ``search``, ``domain`` or
            ``tie_break``; ``scoring="expected_cost"`` without
            ``cost_matrix``, or ``cost_matrix`` with another scoring (before
            any fitting), or a ``cost_matrix`` that is not (n_classes,
            n_classes) with finite non-negative entries; a ``resolution`` or ``n_samples`` below 1 or a
            negative ``random_state`` (before any fitting); a bad ``cv``;
            ``refit=False`` with several splits; non-classification targets;
            ``y`` with missing labels (None, NaN in an object array);
            bad ``sample_weight``; and whatever
            :func:`~polyroc.thresholds.tune_thresholds` raises.
        sklearn.exceptions.NotFittedError
            With ``cv="prefit"`` and an unfitted ``estimator``.
        sklearn.exceptions.UnsetMetadataPassedError
            With metadata routing enabled, for metadata passed that a child
            (``estimator``, a step of it, or the splitter) consumes but has
            neither requested nor declined (``set_fit_request``).

        See Also
        --------
        polyroc.thresholds.tune_thresholds : The tuning run on the held-out probabilities.
        predict : Apply the tuned rule to new data.

        Examples
        --------
        Tune on data held out from an already fitted model (``cv="prefit"``):

        >>> from sklearn.datasets import load_iris
        >>> from sklearn.model_selection import train_test_split
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = load_iris(return_X_y=True)
        >>> X_fit, X_tune, y_fit, y_tune = train_test_split(X, y, test_size=0.5, stratify=y, random_state=0)
        >>> model = GaussianNB().fit(X_fit, y_fit)
        >>> clf = SimplexThresholdClassifier(model, scoring="accuracy", cv="prefit", resolution=20)
        >>> clf.fit(X_tune, y_tune).estimator_ is model
        True
        >>> clf.best_threshold_.round(2).tolist(), round(clf.argmax_score_, 4), round(clf.best_score_, 4)
        ([0.3, 0.55, 0.15], 0.9467, 0.96)
        """
        if y is not None:
            check_label_kinds("y", y)  # mixed kinds, bytes, missing labels: named before any fitting
        X, y_indexable = indexable(X, y)
        targets: np.ndarray = column_or_1d(y_indexable, warn=True)
        check_classification_targets(targets)
        cv = self._check_params(targets)
        weights = check_sample_weight(sample_weight, targets.shape[0])
        if get_config()["enable_metadata_routing"]:
            # Each child gets what it requested; the tuning always uses sample_weight.
            routed = process_routing(self, "fit", sample_weight=weights, **fit_params)
            estimator_params, split_params = routed["estimator"]["fit"], routed["splitter"]["split"]
        else:
            # Before metadata routing (and as CalibratedClassifierCV): everything goes to estimator.fit.
            estimator_params = fit_params if weights is None else {**fit_params, "sample_weight": weights}
            split_params = {}
        if cv == "prefit":
            self.estimator_ = self.estimator
            y_tune, proba, w_tune = targets, self.estimator_.predict_proba(X), weights
        else:
            y_tune, proba, w_tune = self._fit_out_of_fold(cv, X, targets, weights, estimator_params, split_params)
        self.tuning_result_ = tune_thresholds(
            y_tune,
            proba,
            metric=self.scoring,
            search=self.search,
            resolution=self.resolution,
            n_samples=self.n_samples,
            domain=self.domain,
            labels=self.estimator_.classes_,
            sample_weight=w_tune,
            tie_break=self.tie_break,
            random_state=self.random_state,
            cost_matrix=self.cost_matrix,
        )
        self.best_threshold_ = self.tuning_result_.best_threshold
        self.best_score_ = self.tuning_result_.best_score
        self.argmax_score_ = self.tuning_result_.argmax_score
        for name in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.estimator_, name):
                setattr(self, name, getattr(self.estimator_, name))
            elif name in vars(self):
                delattr(self, name)
        return self

    def _fit_out_of_fold(self, cv, X, y, weights, fit_params, split_params):
        """Fit a clone per split; set ``estimator_``; return pooled (y, proba, weights) of the test parts."""
        splits = list(cv.split(X, y, **split_params))
        if not self.refit and len(splits) != 1:
            raise ValueError(
                "refit=False needs a single train/test split (the model of that split is kept); "
                f"cv gives {len(splits)} splits"
            )
        parts, model = fold_probabilities(self.estimator, splits, X, y, fit_params)
        self.estimator_ = clone(self.estimator).fit(X, y, **fit_params) if self.refit else model
        return pooled_held_out(parts, self.estimator_.classes_, y, weights)

    def predict(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Predict labels with the tuned rule argmax(p - tau*).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Samples, as accepted by ``estimator_.predict_proba``.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            Labels from ``classes_``; ties go to the first class in order.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            Before :meth:`fit`.
        ValueError
            From ``estimator_.predict_proba``, for ``X`` it does not accept
            (e.g. another number of features).

        See Also
        --------
        fit : Tune tau* first.
        predict_proba : The probabilities of ``estimator_``, not shifted by tau*.
        polyroc.thresholds.apply_thresholds : The rule applied to given probabilities.

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.naive_bayes import GaussianNB
        >>> X, y = load_iris(return_X_y=True)
        >>> clf = SimplexThresholdClassifier(GaussianNB(), scoring="balanced_accuracy", cv=3, resolution=20)
        >>> clf.fit(X, y).best_threshold_.round(2).tolist()
        [0.35, 0.25, 0.4]
        >>> clf.predict(X[[0, 60, 120]]).tolist()
        [0, 1, 2]
        """
        check_is_fitted(self)
        indices = apply_thresholds(
            self.estimator_.predict_proba(X), self.best_threshold_, domain=self.tuning_result_.domain
        )
        return self.classes_.take(indices)

    @available_if(estimator_has("predict_proba"))
    def predict_proba(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Class probabilities of ``estimator_`` (columns in ``classes_`` order)."""
        check_is_fitted(self)
        return self.estimator_.predict_proba(X)

    @available_if(estimator_has("predict_log_proba"))
    def predict_log_proba(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Log class probabilities of ``estimator_``."""
        check_is_fitted(self)
        return self.estimator_.predict_log_proba(X)

    @available_if(estimator_has("decision_function"))
    def decision_function(self, X: ArrayLike | spmatrix | sparray) -> np.ndarray:
        """Decision function of ``estimator_`` (not shifted by tau*)."""
        check_is_fitted(self)
        return self.estimator_.decision_function(X)

    @property
    def classes_(self) -> np.ndarray:
        """The class labels, in the column order of the probabilities and of tau*."""
        return self.estimator_.classes_

    def get_metadata_routing(self) -> MetadataRouter:
        """Get the metadata routing of this object (with ``enable_metadata_routing=True``).

        ``fit`` consumes ``sample_weight`` itself (the tuning weights) and
        routes its metadata to ``estimator.fit`` and to the ``split`` of a
        ``cv`` splitter, each receiving what it requested (for example
        ``set_fit_request(sample_weight=True)``; group splitters request
        ``groups``). See scikit-learn's Metadata Routing User Guide.

        Returns
        -------
        routing : sklearn.utils.metadata_routing.MetadataRouter
            The routing: this object's own request, ``estimator`` (``fit`` to
            ``fit``) and ``splitter`` (``fit`` to ``split``).

        See Also
        --------
        fit : The method whose metadata is routed.
        sklearn.calibration.CalibratedClassifierCV : Routes its ``fit`` metadata the same way.

        Examples
        --------
        >>> import sklearn
        >>> from sklearn.linear_model import LogisticRegression
        >>> from sklearn.model_selection import GroupKFold
        >>> with sklearn.config_context(enable_metadata_routing=True):
        ...     model = LogisticRegression().set_fit_request(sample_weight=True)
        ...     routing = SimplexThresholdClassifier(model, cv=GroupKFold(3)).get_metadata_routing()
        ...     sorted(routing.consumes("fit", ["sample_weight", "groups", "classes"]))
        ['groups', 'sample_weight']
        """
        return fit_routing(self)
