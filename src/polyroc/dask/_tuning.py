"""``polyroc.dask.tune_thresholds``: simplex thresholds tuned on a dask DataFrame from summed confusion counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.counts import confusion_counts, threshold_counts
from polyroc._validation import THRESHOLD_DOMAINS, ScoredTargets, check_option, check_random_state, check_weight_total
from polyroc.dask._evaluate import _is_dask_frame, _Partitions
from polyroc.dask._rows import PartitionRows, frame_columns
from polyroc.thresholds.batches import AUTO_LATTICE_MAX_CLASSES, iter_batches, resolve_search
from polyroc.thresholds.objectives import check_cost_pairing, is_cost, tuning_objective
from polyroc.thresholds.search import checked_metric
from polyroc.thresholds.tuning import (
    TIE_BREAKS,
    TuningResult,
    _search_batches,
    _warn_undefined,
    search_settings,
    tuning_result,
)

if TYPE_CHECKING:
    import dask.dataframe as dd

__all__ = ["tune_thresholds"]

#: Partition results summed by one task of the tree reduction.
FAN_IN = 8


def _candidate_counts(rows: PartitionRows, classes, search, resolution, n_samples, domain, seed):
    """(thresholds, counts) of every candidate on one partition, as the in-memory search counts them."""
    if rows.size == 0:
        return None
    targets = ScoredTargets(rows.codes.astype(np.intp), rows.scores, classes, rows.weights)
    rng = None if seed is None else np.random.default_rng(seed)
    batches = list(iter_batches(targets, search, resolution, n_samples, domain, rng))
    return np.concatenate([t for t, _ in batches]), np.concatenate([c for _, c in batches])


def _rule_counts(rows: PartitionRows, threshold):
    """Confusion counts of argmax and of the rule of ``threshold``, (2, m, m)."""
    m = rows.scores.shape[1]
    if rows.size == 0:
        return np.zeros((2, m, m))
    argmax = confusion_counts(rows.codes, np.argmax(rows.scores, axis=1), m, rows.weights)
    rule = threshold_counts(rows.codes, rows.scores, threshold[None, :], rows.weights)[0]
    return np.stack([argmax, rule]).astype(np.float64)


def _added(found):
    """Sum of partition results, None for an empty partition; a (thresholds, counts) pair keeps its thresholds."""
    found = [item for item in found if item is not None]
    if not found:
        return None
    if isinstance(found[0], tuple):
        return found[0][0], np.sum([item[1] for item in found], axis=0)
    return np.sum(found, axis=0)


def _tree_sum(tasks):
    """One delayed sum of delayed partition results, by a tree of :data:`FAN_IN`-way sums on the workers."""
    import dask

    add = dask.delayed(_added, pure=True)
    while len(tasks) > 1:
        tasks = [add(tasks[start : start + FAN_IN]) for start in range(0, len(tasks), FAN_IN)]
    return tasks[0]


def tune_thresholds(
    frame: dd.DataFrame,
    *,
    label_col: str = "label",
    score_cols: list[str] | None = None,
    sample_weight_col: str | None = None,
    metric: str | Callable = "f1_macro",
    search: Literal["auto", "lattice", "random"] = "auto",
    resolution: int | None = None,
    n_samples: int | None = None,
    domain: str = "simplex",
    tie_break: str = "closest",
    random_state: int | np.random.Generator | None = None,
    return_surface: bool = False,
    cost_matrix: ArrayLike | None = None,
) -> TuningResult:
    """Tune the rule argmax(p - tau) on a dask DataFrame, as :func:`polyroc.thresholds.tune_thresholds` does.

    Every partition counts the candidate thresholds exactly as the in-memory
    search does (the lattice's dominance counting, or the brute force of
    random thresholds drawn from the same seed), and the (candidates, m, m)
    counts are summed over partitions by a tree of sums on the workers, so
    the counts, and the best threshold, are those of the concatenated rows.
    The reported scores are those of the returned rule and of argmax,
    counted in one more pass.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        Scored rows, as :func:`polyroc.dask.evaluate` reads them.
    label_col, score_cols, sample_weight_col
        The columns, as :func:`polyroc.dask.evaluate`.
    metric : str or callable, default="f1_macro"
        As :func:`polyroc.thresholds.tune_thresholds`; ``"expected_cost"``
        (with ``cost_matrix``) minimises the expected cost, a linear function
        of the summed counts, so the threshold and scores are those of the
        in-memory tuning.
    search : {"auto", "lattice", "random"}, default="auto"
        ``"auto"``: the lattice if ``resolution`` is given, random
        thresholds if ``n_samples`` is, else the lattice for at most 4
        classes and random thresholds above. The coordinate ascent is not
        offered: its exact line searches sort every row along each line.
    resolution, n_samples, domain, tie_break, return_surface
        As :func:`polyroc.thresholds.tune_thresholds`.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the random thresholds; an integer draws the same thresholds
        as the in-memory search with that seed.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        With ``metric="expected_cost"`` (and only then): ``cost_matrix[i, j]``
        is the cost of deciding the j-th score column's class when the class
        is the i-th, in the order of the score columns (as
        :func:`polyroc.thresholds.tune_thresholds`).

    Returns
    -------
    TuningResult
        ``settings["engine"]`` is ``"dask"``.

    Raises
    ------
    TypeError, ValueError
        For a bad frame, columns or weights (as :func:`polyroc.dask.evaluate`,
        e.g. weights that sum past the float64 range), an
        unknown option, metric or search (``"coordinate"`` included), a
        ``random_state`` that is not None, a non-negative integer or a
        Generator (whatever the search, before the frame is read),
        ``metric="expected_cost"`` without ``cost_matrix``, a ``cost_matrix``
        with another metric or not of shape (m, m) with finite entries, or
        the option errors of :func:`polyroc.thresholds.tune_thresholds`.

    Warns
    -----
    polyroc.exceptions.UndefinedMetricWarning
        When the metric is NaN at some thresholds.

    See Also
    --------
    polyroc.thresholds.tune_thresholds : The same of rows held in memory.
    evaluate : Metrics of the frame.
    polyroc.io.write_thresholds : Save the tuned thresholds.

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> table = pd.DataFrame({"a": [.5, .4, .3, .2, .3, .2], "b": [.4, .45, .6, .5, .2, .45],
    ...                       "c": [.1, .15, .1, .3, .5, .35], "label": list("aabbcc")})
    >>> result = tune_thresholds(dd.from_pandas(table, npartitions=2), resolution=20)
    >>> result.argmax_score, result.best_score, result.best_threshold.round(2).tolist()
    (0.6666666666666666, 1.0, [0.35, 0.4, 0.25])

    The least expected cost when deciding a for a true c costs 5:

    >>> costs = [[0, 1, 1], [1, 0, 1], [5, 1, 0]]
    >>> cost = tune_thresholds(dd.from_pandas(table, npartitions=2), resolution=20,
    ...                        metric="expected_cost", cost_matrix=costs)
    >>> round(cost.argmax_score, 4), round(cost.best_score, 4), cost.greater_is_better
    (0.3333, 0.0, False)
    """
    import dask

    if not _is_dask_frame(frame):
        raise TypeError(f"frame must be a dask DataFrame, got {type(frame).__name__}")
    check_option("search", search, ("auto", "lattice", "random"))
    check_option("domain", domain, THRESHOLD_DOMAINS)
    check_option("tie_break", tie_break, TIE_BREAKS)
    rng = check_random_state(random_state)  # checked whatever the search, read only by random thresholds
    check_cost_pairing(metric, cost_matrix)
    if not is_cost(metric):
        checked_metric(metric)  # a bad metric is named before the columns are read
    columns = frame_columns(frame.columns, label_col, score_cols, sample_weight_col)
    tuned = tuning_objective(metric, cost_matrix, columns.classes)
    objective = tuned.score
    m = columns.n_classes
    if search == "auto":
        if resolution is not None or n_samples is not None:
            search = "lattice" if resolution is not None else "random"
        else:
            search = "lattice" if m <= AUTO_LATTICE_MAX_CLASSES else "random"
    resolution, n_samples = resolve_search(search, resolution, n_samples, m, domain)
    seed = None
    if search == "random":
        seed = random_state if isinstance(random_state, (int, np.integer)) else int(rng.integers(2**63))
    parts = _Partitions(frame[columns.read], columns, None, {})
    classes = np.arange(m)
    count = dask.delayed(_candidate_counts, pure=True)
    checked = parts.rows(validate=True)
    candidates = [count(rows, classes, search, resolution, n_samples, domain, seed) for rows in checked]
    found = _tree_sum(candidates).compute()
    if found is None:
        raise ValueError("the frame has no rows")
    thresholds, counts = found
    with np.errstate(over="ignore"):
        check_weight_total(f"sample_weight_col {columns.weight_col!r}", counts[0].sum())
    best, n_thresholds, n_nan, surface = _search_batches([(thresholds, counts)], objective, tie_break, return_surface)
    _warn_undefined(tuned.name, n_nan, n_thresholds)
    rules = dask.delayed(_rule_counts, pure=True)
    argmax_counts, rule_counts = _tree_sum([rules(rows, best) for rows in checked]).compute()
    return tuning_result(
        best,
        float(objective(rule_counts[None])[0]),
        float(objective(argmax_counts[None])[0]),
        classes=columns.classes,
        metric=metric,
        n_thresholds=n_thresholds,
        surface=surface,
        settings=search_settings(search, domain, tie_break, resolution, n_samples, random_state, engine="dask"),
        greater_is_better=tuned.greater_is_better,
    )
