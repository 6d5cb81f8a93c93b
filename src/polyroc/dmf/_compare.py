"""Ranking several models by ROC-DMF's D with paired bootstrap replicates (the paper's Table 1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.parallel import single_blas_thread
from polyroc._results import Result
from polyroc._validation import check_model_scores
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.dmf._bootstrap import replicate_fits, summarise
from polyroc.dmf._model import SHARED_CONSTRAINTS, check_bootstrap_size, fit_point, make_settings, settings_record
from polyroc.dmf._rates import prepare_problem
from polyroc.dmf._roc import assemble, warn_if_reversed, warn_if_small_classes, warn_if_unconverged


@dataclass(frozen=True, eq=False, repr=False)
class ModelComparison(Result):
    """ROC-DMF of several models on the same labels, with ranking probabilities.

    Attributes
    ----------
    names : tuple of str
        Model names, in the order given.
    results : dict
        Name -> :class:`DmfRoc`, each with its bootstrap.
    D : ndarray of shape (G,)
        D of each model.
    replicates : ndarray of shape (n_boot, G)
        D of each model in each (paired) replicate.
    ranking_probabilities : dict
        Ordering (tuple of names, best first) -> share of the replicates in
        which ``D`` ranks the models that way. Only orderings that occur are
        listed, most probable first; the values sum to 1.
    pairwise : ndarray of shape (G, G)
        ``pairwise[a, b]`` is the share of replicates with ``D_a > D_b``.
    settings : dict
        The options, as :attr:`DmfRoc.settings` (``bootstrap``, ``n_boot``,
        ``confidence``, ``random_state``, ``cutoff_grid`` ...).

    See Also
    --------
    compare_models : Makes this result.
    DmfRoc : The result of each model, in ``results``.
    polyroc.plotting.DmfRocDisplay : ``from_results(comparison.results)`` draws the curves together.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> y = np.repeat([0, 1, 2], 30)
    >>> good = rng.dirichlet(np.ones(3), size=90) + np.eye(3)[y]
    >>> poor = rng.dirichlet(np.ones(3), size=90) + 0.2 * np.eye(3)[y]
    >>> cmp = compare_models(y, {"good": good, "poor": poor}, n_levels=9,
    ...                      bootstrap="stratified", n_boot=20, random_state=0)
    >>> cmp.names, cmp.D.round(2).tolist(), cmp.replicates.shape
    (('good', 'poor'), [0.97, 0.68], (20, 2))
    >>> cmp.ranking_probabilities
    {('good', 'poor'): 1.0}
    >>> cmp.to_frame().columns.tolist()
    ['model', 'D', 'D_low', 'D_high', 'confidence', 'probability_best']
    """

    names: tuple
    results: dict
    D: np.ndarray
    replicates: np.ndarray
    ranking_probabilities: dict
    pairwise: np.ndarray
    settings: dict

    def probability(self, ordering: Sequence[str]) -> float:
        """P(the models' D rank as ``ordering``, best first); 0 for orderings never seen.

        Parameters
        ----------
        ordering : sequence of str
            Every model name once, best first.

        Returns
        -------
        float

        Raises
        ------
        TypeError
            If ``ordering`` is a string or not a sequence.
        ValueError
            If ``ordering`` does not name every model exactly once.

        See Also
        --------
        probability_best : The probability that each model ranks first.
        ranking_probabilities : Every ordering that occurs, with its probability.

        Examples
        --------
        >>> cmp = ModelComparison(("a", "b"), {}, np.array([0.9, 0.8]), np.zeros((4, 2)),
        ...                       {("a", "b"): 0.75, ("b", "a"): 0.25}, np.zeros((2, 2)), {})
        >>> cmp.probability(["b", "a"])
        0.25
        """
        if isinstance(ordering, str) or not hasattr(ordering, "__iter__"):
            raise TypeError(f"ordering must be a sequence of model names, got {type(ordering).__name__}")
        ordering = tuple(ordering)
        named = all(isinstance(name, str) and name in self.names for name in ordering)
        if not named or len(set(ordering)) != len(ordering) or len(ordering) != len(self.names):
            raise ValueError(f"ordering must name every model once, {self.names}; got {ordering}")
        return self.ranking_probabilities.get(ordering, 0.0)

    def probability_best(self) -> dict[str, float]:
        """Share of the replicates in which each model has the largest D (name -> probability).

        Returns
        -------
        dict
            Model name -> probability; the values sum to 1.

        See Also
        --------
        probability : The probability of a whole ordering.
        to_frame : These probabilities with D and its interval, one row per model.

        Examples
        --------
        >>> cmp = ModelComparison(("a", "b", "c"), {}, np.array([0.9, 0.8, 0.7]), np.zeros((4, 3)),
        ...                       {("a", "b", "c"): 0.5, ("a", "c", "b"): 0.25, ("b", "a", "c"): 0.25},
        ...                       np.zeros((3, 3)), {})
        >>> cmp.probability_best()
        {'a': 0.75, 'b': 0.25, 'c': 0.0}
        """
        best = {name: 0.0 for name in self.names}
        for ordering, share in self.ranking_probabilities.items():
            best[ordering[0]] += share
        return best

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready data; the orderings of ``ranking_probabilities`` as lists.

        Returns
        -------
        dict
            As :meth:`polyroc._results.Result.to_dict`, with
            ``ranking_probabilities`` a list of ``{"ordering": [...], "probability": p}``.

        See Also
        --------
        to_frame : One row per model as a pandas DataFrame.
        DmfRoc.to_dict : The record of each model, nested under ``results``.

        Examples
        --------
        >>> cmp = ModelComparison(("a", "b"), {}, np.array([0.9, 0.8]), np.zeros((4, 2)),
        ...                       {("a", "b"): 0.75, ("b", "a"): 0.25}, np.zeros((2, 2)), {})
        >>> record = cmp.to_dict()
        >>> record["type"], record["names"], record["D"]
        ('ModelComparison', ['a', 'b'], [0.9, 0.8])
        >>> record["ranking_probabilities"][0]
        {'ordering': ['a', 'b'], 'probability': 0.75}
        """
        record = super().to_dict()
        record["ranking_probabilities"] = [
            {"ordering": list(ordering), "probability": share} for ordering, share in self.ranking_probabilities.items()
        ]
        return record

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per model: D, its interval and the probability that it ranks first."""
        best = self.probability_best()
        rows = []
        for name, area in zip(self.names, self.D):
            ci = self.results[name].ci
            rows.append(
                {
                    "model": name,
                    "D": float(area),
                    "D_low": ci.low,
                    "D_high": ci.high,
                    "confidence": ci.confidence,
                    "probability_best": best[name],
                }
            )
        return rows


@validate_params(
    {
        **SHARED_CONSTRAINTS,
        "bootstrap": [Options(("parametric", "stratified"))],
        "n_boot": [Interval("integer", 1, None, closed="left")],
    }
)
def compare_models(
    y_true: ArrayLike,
    scores: Mapping[str, ArrayLike],
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    levels: ArrayLike | None = None,
    n_levels: int = 99,
    cutoff_grid: str = "pooled",
    method: str = "intercept",
    weighting: str | ArrayLike = "unweighted",
    trials: str = "pairs",
    monotone: bool = False,
    bootstrap: str = "parametric",
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    tol: float = 1e-8,
    max_iter: int = 200,
    correction: float = 0.5,
) -> ModelComparison:
    """Bootstrap the ROC-DMF area D of several models and the probability of each ranking.

    Every model is fitted as by :func:`roc_dmf` and bootstrapped with replicate
    indices paired across models: ``"stratified"`` resamples the same
    observations for every model (a paired comparison); ``"parametric"``
    (Table 1 of Wang & Carvalho (2024), arXiv:2404.13147) simulates each model
    from its own fit with independent streams, so only the replicate index is
    shared.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, shared by the models.
    scores : mapping of str to array-like of shape (n, k)
        Each model's scores; at least 2 models.
    labels : array-like of shape (k,), optional
        Class order, as in :func:`roc_dmf`.
    sample_weight : array-like of shape (n,), optional
        Weights of relative importance of the samples, shared by the models
        (see :func:`roc_dmf`).
    levels : array-like of shape (T,), optional
        Increasing quantile levels in (0, 1), as in :func:`roc_dmf`.
    n_levels : int, default=99
        T when ``levels`` is None.
    cutoff_grid : {"pooled", "column", "balanced"}, default="pooled"
        The cut-off pool of each pair, as in :func:`roc_dmf`.
    method : {"intercept", "algorithm1"}, default="intercept"
        The factorization, as in :func:`roc_dmf`.
    weighting : {"unweighted", "weighted"} or array-like, default="unweighted"
        Fit weights, or the paper's costs Q, as in :func:`roc_dmf`.
    trials : {"pairs", "marginal"}, default="pairs"
        Binomial trials N, as in :func:`roc_dmf`.
    monotone : bool, default=False
        Integrate the running maximum of each curve.
    bootstrap : {"parametric", "stratified"}, default="parametric"
        How the replicates are drawn (see :func:`roc_dmf`).
    n_boot : int, default=1000
        Replicates (the paper uses 100).
    confidence : float, default=0.95
        Level of the percentile intervals of D.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap.
    tol : float, default=1e-8
        Convergence tolerance on the relative change of deviance.
    max_iter : int, default=200
        Largest number of iterations of a fit.
    correction : float, default=0.5
        Pseudo-count c > 0 of the empirical-logit rates (n M + c)/(n + 2c)
        fitted with three or more classes: 0.5 is Haldane's (1956) correction
        (also Firth's (1993) bias-reduced estimate of a single binomial logit);
        about 1/6 is the median of the Jeffreys Beta(½, ½) posterior (Kerman
        (2011) approximation). Smaller values pull D less towards ½ on small
        classes but let a rate of 0 or 1 weigh more in a row's mean of logits;
        see the ``docs/dmf.md`` small-sample study. Unused with two classes.

    Returns
    -------
    ModelComparison
        D of each model with its interval, the paired replicates and the
        probability of each ranking.

    Raises
    ------
    ValueError
        As :func:`roc_dmf`; also for fewer than 2 models or ``bootstrap=None``.
    TypeError
        As :func:`roc_dmf`; also for ``scores`` that is not a mapping or a
        model name that is not a string.

    Warns
    -----
    UndefinedMetricWarning, NonMonotoneCurveWarning
        As :func:`roc_dmf`, for each model.
    ConvergenceWarning
        At most one per call, naming the models whose fit reached ``max_iter``
        and counting the bootstrap refits that did.
    SmallClassWarning
        Once per call, as :func:`roc_dmf`.

    See Also
    --------
    roc_dmf : ROC-DMF of one model.
    ModelComparison.probability : The probability of a given ranking.
    polyroc.comparison.compare_scores : Paired comparisons of AUCs and metrics of models on the same rows.

    References
    ----------
    Wang, L. & Carvalho, L. (2024). Multiclass ROC. arXiv:2404.13147.
    Section 3.6 (bootstrap) and Section 5.4, Table 1 (probability of each
    ranking of the models).

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> y = np.repeat([0, 1, 2], 30)
    >>> good = rng.dirichlet(np.ones(3), size=90) + np.eye(3)[y]
    >>> poor = rng.dirichlet(np.ones(3), size=90) + 0.2 * np.eye(3)[y]
    >>> cmp = compare_models(y, {"good": good, "poor": poor}, n_levels=9,
    ...                      bootstrap="stratified", n_boot=20, random_state=0)
    >>> cmp.probability(("good", "poor")), float(cmp.pairwise[0, 1])
    (1.0, 1.0)
    >>> cmp.probability_best()
    {'good': 1.0, 'poor': 0.0}
    """
    names = check_model_scores(scores)
    settings = make_settings(
        method=method,
        weighting=weighting,
        trials=trials,
        monotone=monotone,
        tol=tol,
        max_iter=max_iter,
        bootstrap=bootstrap,
        n_boot=n_boot,
        confidence=confidence,
        random_state=random_state,
        correction=correction,
    )
    problems = [
        prepare_problem(
            y_true,
            scores[name],
            labels=labels,
            sample_weight=sample_weight,
            levels=levels,
            n_levels=n_levels,
            cutoff_grid=cutoff_grid,
            one_binary_pair=True,
        )
        for name in names
    ]
    for problem in problems:
        check_bootstrap_size(problem, settings)
    warn_if_small_classes(problems[0], settings)  # the models share the labels
    with single_blas_thread():
        points = [fit_point(problem, settings) for problem in problems]
    for point in points:
        warn_if_reversed(point, settings)
    replicates = replicate_fits(problems, points, settings)
    warn_if_unconverged(points, settings, replicates, names)
    results = {
        name: assemble(problem, point, settings, summarise(reps, point, settings))
        for name, problem, point, reps in zip(names, problems, points, replicates)
    }
    areas = np.column_stack([reps.area for reps in replicates])
    return ModelComparison(
        names=names,
        results=results,
        D=np.array([point.area for point in points]),
        replicates=areas,
        ranking_probabilities=ranking_probabilities(areas, names),
        pairwise=(areas[:, :, None] > areas[:, None, :]).mean(axis=0),
        settings=settings_record(problems[0], settings),
    )


def ranking_probabilities(replicates, names):
    """Share of the rows of ``replicates`` (B, G) ranking the columns in each order, best first.

    >>> ranking_probabilities(np.array([[0.9, 0.8], [0.7, 0.8], [0.9, 0.1]]), ("a", "b"))
    {('a', 'b'): 0.6666666666666666, ('b', 'a'): 0.3333333333333333}
    """
    orders = np.argsort(-replicates, axis=1, kind="stable")
    unique, counts = np.unique(orders, axis=0, return_counts=True)
    ranked = sorted(zip(counts.tolist(), unique.tolist()), key=lambda item: -item[0])
    total = replicates.shape[0]
    return {tuple(names[i] for i in order): count / total for count, order in ranked}
