"""Ranking several models by ROC-DMF's D with paired bootstrap replicates (the paper's Table 1)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._validation import check_model_scores
from polyroc.dmf._bootstrap import replicate_fits, summarise
from polyroc.dmf._model import check_bootstrap_size, check_settings, fit_point
from polyroc.dmf._rates import prepare_problem
from polyroc.dmf._roc import assemble, warn_if_reversed, warn_if_unconverged


@dataclass(frozen=True)
class ModelComparison:
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
    bootstrap : str
    n_boot : int
    random_state : object
    """

    names: tuple
    results: dict
    D: np.ndarray
    replicates: np.ndarray
    ranking_probabilities: dict
    pairwise: np.ndarray
    bootstrap: str
    n_boot: int
    random_state: object

    def probability(self, ordering):
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
        """
        if isinstance(ordering, str) or not hasattr(ordering, "__iter__"):
            raise TypeError(f"ordering must be a sequence of model names, got {type(ordering).__name__}")
        ordering = tuple(ordering)
        named = all(isinstance(name, str) and name in self.names for name in ordering)
        if not named or len(set(ordering)) != len(ordering) or len(ordering) != len(self.names):
            raise ValueError(f"ordering must name every model once, {self.names}; got {ordering}")
        return self.ranking_probabilities.get(ordering, 0.0)


def compare_models(
    y_true,
    scores,
    *,
    labels=None,
    levels=None,
    n_levels=99,
    thresholds="pooled",
    method="intercept",
    weighting="unweighted",
    trials="pairs",
    monotone=False,
    bootstrap="parametric",
    n_boot=100,
    confidence=0.95,
    random_state=None,
    tol=1e-8,
    max_iter=200,
):
    """Bootstrap the ROC-DMF area D of several models and the probability of each ranking.

    Every model is fitted as by :func:`roc_dmf` and bootstrapped with replicate
    indices paired across models: ``"stratified"`` resamples the same
    observations for every model (a paired comparison); ``"parametric"`` (the
    paper's Table 1) simulates each model from its own fit with independent
    streams, so only the replicate index is shared.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        True labels, shared by the models.
    scores : mapping of str to array-like of shape (n, k)
        Each model's scores; at least 2 models.
    bootstrap : {"parametric", "stratified"}, default="parametric"
    n_boot : int, default=100
        Replicates (the paper uses 100).
    labels, levels, n_levels, thresholds, method, weighting, trials, monotone, \
confidence, random_state, tol, max_iter
        As in :func:`roc_dmf`.

    Returns
    -------
    ModelComparison

    Raises
    ------
    ValueError, TypeError
        As :func:`roc_dmf`; also for fewer than 2 models, a model name that is
        not a string, or ``bootstrap=None``.

    Warns
    -----
    UndefinedMetricWarning, ConvergenceWarning, NonMonotoneCurveWarning
        As :func:`roc_dmf`, for each model.

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
    """
    names = check_model_scores(scores)
    if bootstrap is None:
        raise ValueError('compare_models needs a bootstrap: "parametric" or "stratified", got None')
    settings = check_settings(
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
    )
    problems = [
        prepare_problem(
            y_true, scores[name], labels=labels, levels=levels, n_levels=n_levels, thresholds=thresholds,
            one_binary_pair=True,
        )
        for name in names
    ]
    for problem in problems:
        check_bootstrap_size(problem, settings)
    points = [fit_point(problem, settings) for problem in problems]
    for point in points:
        warn_if_unconverged(point, settings)
        warn_if_reversed(point, settings)
    replicates = replicate_fits(problems, points, settings)
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
        bootstrap=settings.bootstrap,
        n_boot=settings.n_boot,
        random_state=settings.random_state,
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
