"""``polyroc.dask.evaluate``: the :class:`~polyroc.Evaluation` of a dask DataFrame, exact and partition-free."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from polyroc._engine.progress import task
from polyroc._validation import check_option, check_positive_int, check_random_state, check_real, check_weight_total
from polyroc.dask._delong import PlacementPlan, delong_intervals
from polyroc.dask._ranking import (
    Axis,
    Replicates,
    cell_offsets,
    cell_wins,
    combine_cells,
    quantile_edges,
    sample_values,
    split_by_cell,
)
from polyroc.dask._rows import FrameColumns, PartitionRows, frame_columns, partition_rows
from polyroc.evaluation import AUC_SCORES, Evaluation, evaluation_of_statistics
from polyroc.evaluation._calibration import eces_of_sums
from polyroc.evaluation._costs import row_costs
from polyroc.evaluation._plan import QUANTITY_METHODS, CiChoice, planned_intervals
from polyroc.evaluation._priors import Deployment, prior_factors
from polyroc.evaluation._summary import (
    SummaryStatistics,
    class_scores,
    counts_scores,
    row_losses,
)
from polyroc.metrics._scores import machine_epsilon
from polyroc.streaming import aucs_of_wins

if TYPE_CHECKING:
    import dask.dataframe as dd
    from numpy.typing import ArrayLike

__all__ = ["POISSON_BOOTSTRAP", "evaluate"]

POISSON_BOOTSTRAP = "Poisson bootstrap (percentile)"

#: Scores of each ranking sampled for its cut points, in all (spread over the partitions) ...
SAMPLE_SIZE = 200_000

#: ... but at least this many from each partition.
PARTITION_SAMPLE = 1_000


def _is_dask_frame(frame) -> bool:
    return all(hasattr(frame, name) for name in ("to_delayed", "npartitions", "columns", "map_partitions"))


def evaluate(
    frame: dd.DataFrame,
    *,
    label_col: str = "label",
    score_cols: list[str] | None = None,
    sample_weight_col: str | None = None,
    row_id_col: str | None = None,
    normalize_rows: bool = False,
    from_logits: bool = False,
    ci: CiChoice | Mapping[str, str] = "auto",
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    digits: int = 3,
    rows_per_sort: int = 2_000_000,
    rows_per_pass: int = 250_000_000,
    cost_matrix: ArrayLike | None = None,
    target_priors: ArrayLike | Mapping[Any, float] | None = None,
) -> Evaluation:
    """Evaluate the scores of a dask DataFrame exactly, without gathering its rows.

    Every number equals that of :func:`polyroc.evaluate` on the concatenated
    rows (up to the rounding of sums in another order), whatever the
    partitioning: the confusion counts, weight and loss moments are summed
    over partitions (:class:`polyroc.evaluation._summary.SummaryStatistics`), and the
    AUCs come from exact pairwise wins, each score column (and the raveled
    cells, for the micro average) being cut into score ranges at sample
    quantiles, its rows moved to one task per range and sorted there
    (:mod:`polyroc.dask._ranking`). The frame is read once for the counts,
    once per pass of the rankings (a pass moves at most ``rows_per_pass``
    entries) and, when intervals are asked for, once for the partitions'
    lengths; persist it first if it fits in the cluster's memory.

    It runs on the current dask scheduler: a ``distributed.Client`` if one
    is active, else dask's default. A worker lost during the computation
    changes nothing: the scheduler recomputes the lost pieces from the
    frame.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        One row per sample (see :func:`polyroc.dask.read_score_files`).
    label_col : str, default="label"
        Column of true labels, each equal to a score column's name (compared
        as text, so a label 2 matches a column "2").
    score_cols : list of str, default=None
        The score columns, in class order; their names are the classes.
        Default: every column but the label, weight and row-id columns.
    sample_weight_col : str, default=None
        Column of non-negative sample weights.
    row_id_col : str, default=None
        Column of distinct non-negative integer row ids, which key the
        Poisson bootstrap. Default: the row's position in the frame (the
        partitions' lengths are counted first), which does not change when
        the same rows are split differently.
    normalize_rows : bool, default=False
        Rescale rows to sum 1 before evaluating.
    from_logits : bool, default=False
        Map the rows (logits) through softmax before evaluating.
    ci : {"auto", "analytic", "bayes", "bootstrap", "none"} or mapping, default="auto"
        As in :func:`polyroc.evaluate` (``"none"``: no interval at all, as
        ``n_boot=0``), with two differences. DeLong's
        variance takes the exact placement of every row, but for a class of
        more than 100,000 rows the spread of its rows' influences is
        estimated from a sample of 100,000 of them (chosen by a hash of the
        row id; the interval's method says so); up to that size the
        intervals are those of :func:`polyroc.evaluate`. The bootstrap is the
        Poisson bootstrap (each row enters each replicate a Poisson(1) number
        of times, drawn from its id and the seed; not stratified by class);
        for the AUCs it sorts each range of rows with a batch of replicate
        weights, so its cost grows as rows x classes x ``n_boot``.
    n_boot : int, default=1000
        Replicates of the bootstrap and draws of the posterior; 0 for no
        interval.
    confidence : float, default=0.95
        Level of the two-sided intervals, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap and of the posterior draws.
    digits : int, default=3
        Digits of the text report.
    rows_per_sort : int, default=2_000_000
        Target number of entries per range of a ranking (the rows one task
        sorts; bounds a task's memory).
    rows_per_pass : int, default=250_000_000
        Largest number of entries of one ranking moved between workers at a
        time; a longer ranking is done in several passes over the frame.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        As :func:`polyroc.evaluate`'s (``scores["expected_cost"]``), in the
        order of the score columns.
    target_priors : array-like of shape (m,), mapping or pandas.Series, default=None
        As :func:`polyroc.evaluate`'s: every quantity at these class priors.
        The frame is then read once more first, for the classes' weights.

    Returns
    -------
    Evaluation
        As :func:`polyroc.evaluate`'s; ``settings["engine"]`` is ``"dask"``
        and ``settings["partitions"]`` the number of partitions.

    Raises
    ------
    TypeError
        If ``frame`` is not a dask DataFrame, a column role is not a string,
        a score or weight column is not numeric (naming the partition),
        ``normalize_rows`` or ``from_logits`` is an array or a list, or
        another option has the wrong type.
    ValueError
        If a named column is missing, a column has two roles, there are fewer
        than 2 score columns, a label is not a score column's name, a score
        is negative, NaN or infinite or a row is off the simplex, a weight is
        negative or not finite (each naming the partition and row), no row
        has weight, the weights sum past the float64 range, ``normalize_rows`` or ``from_logits`` is not True or
        False (checked before the frame is read, as in
        :func:`polyroc.evaluate`), both are True, ``ci`` names an unknown
        family, quantity or method (the message lists the families, "none"
        among them), an option is out of range, ``cost_matrix`` or
        ``target_priors`` is invalid (as in :func:`polyroc.evaluate`), or
        ``target_priors`` gives a positive prior to a class without rows.

    Warns
    -----
    polyroc.exceptions.IntervalWarning
        As :func:`polyroc.evaluate`, for a class with fewer than 2 rows and
        for intervals of zero width (marked degenerate in their method).

    See Also
    --------
    polyroc.evaluate : The same of rows held in memory.
    read_score_files : Read score files into a dask DataFrame.
    polyroc.streaming.EvaluationAccumulator : The same for rows that arrive in batches.
    sample_rows : A stratified sample of the rows, for the other sections of a report.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988). Comparing the
    areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach. Biometrics 44, 837–845. doi:10.2307/2531595

    Sun, X. & Xu, W. (2014). Fast implementation of DeLong's algorithm for
    comparing the areas under correlated receiver operating characteristic
    curves. IEEE Signal Processing Letters 21, 1389–1393.
    doi:10.1109/LSP.2014.2337313

    Hand, D. J. & Till, R. J. (2001). A simple generalisation of the area under
    the ROC curve for multiple class classification problems. Machine Learning
    45, 171–186. doi:10.1023/A:1010920819831

    Examples
    --------
    >>> import pandas as pd, dask.dataframe as dd
    >>> table = pd.DataFrame({"a": [.8, .3, .4, .1], "b": [.2, .7, .6, .9], "label": ["a", "b", "a", "b"]})
    >>> result = evaluate(dd.from_pandas(table, npartitions=2), n_boot=0)
    >>> result.scores["accuracy"], result.scores["roc_auc_ovr_macro"]
    (0.75, 1.0)
    """
    if not _is_dask_frame(frame):
        raise TypeError(f"frame must be a dask DataFrame, got {type(frame).__name__}")
    check_option("normalize_rows", normalize_rows, (True, False))
    check_option("from_logits", from_logits, (True, False))
    n_boot = check_positive_int("n_boot", n_boot, minimum=0)
    confidence = check_real("confidence", confidence, low=0.0, high=1.0)
    digits = check_positive_int("digits", digits, minimum=0)
    rows_per_sort = check_positive_int("rows_per_sort", rows_per_sort)
    rows_per_pass = check_positive_int("rows_per_pass", rows_per_pass)
    rng = check_random_state(random_state)
    plan, n_boot = planned_intervals(ci, n_boot, tuple(QUANTITY_METHODS))
    columns = frame_columns(frame.columns, label_col, score_cols, sample_weight_col, row_id_col)
    deployment = Deployment.of(columns.classes, cost_matrix, target_priors)
    frame = frame[columns.read]
    m = columns.n_classes
    plan = {name: method for name, method in plan.items() if m > 2 or name != "top_2_accuracy"}
    resampled = sorted(name for name, method in plan.items() if method == "bootstrap") if n_boot else []
    replicates = Replicates(int(rng.integers(2**63)), np.arange(n_boot)) if resampled else None
    if normalize_rows and from_logits:
        raise ValueError("normalize_rows=True and from_logits=True are exclusive; choose one")
    transform = {"normalize_rows": bool(normalize_rows), "from_logits": bool(from_logits), "transform_options": True}
    offsets = _row_offsets(frame, columns) if n_boot else None
    parts = _Partitions(frame, columns, offsets, transform)
    if deployment.priors is not None:
        totals = np.sum(parts.compute(_class_totals), axis=0)
        parts.factors, shares = prior_factors(totals, deployment.priors, columns.classes)
        deployment = Deployment(deployment.classes, deployment.costs, deployment.priors, shares)

    summaries = parts.compute(_summarise, replicates if resampled else None, parts.sample_size, deployment.costs)
    summary = summaries[0]["summary"]
    for other in summaries[1:]:
        summary = summary.merged(other["summary"])
    if summary.counts.sum() == 0:
        raise ValueError("no row of the frame has weight: the scores are undefined")
    with np.errstate(over="ignore"):
        check_weight_total(f"sample_weight_col {columns.weight_col!r}", summary.counts.sum())
    axes = [Axis(column, m) for column in range(m)] + [Axis(None, m)]
    auc_replicates = replicates if any(name in AUC_SCORES for name in resampled) else None
    placements = None
    if n_boot and any(plan[name] == "delong" for name in AUC_SCORES):
        moments = summary.class_moments
        placements = PlacementPlan.of(moments.weight, moments.rows, seed=int(rng.integers(2**63)))
    rankings, sampled = _rankings(parts, axes, summaries, rows_per_sort, rows_per_pass, None, placements)
    aucs = _aucs(rankings, m)
    wins = np.array([ranking[0] for ranking in rankings[:m]])

    def delong(names):
        found = delong_intervals(
            sampled,
            placements,
            wins,
            aucs,
            summary.class_moments.rows.astype(np.int64),
            columns.classes.tolist(),
            confidence=confidence,
        )
        return {name: found[name] for name in names}

    def drawn():
        return _replicate_scores(parts, summaries, axes, rows_per_sort, rows_per_pass, auc_replicates, n_boot)

    return evaluation_of_statistics(
        summary,
        columns.classes,
        {name: float(aucs[name]) for name in AUC_SCORES},
        plan=plan,
        n_boot=n_boot,
        confidence=confidence,
        rng=rng,
        replicates=drawn,
        bootstrap_method=POISSON_BOOTSTRAP,
        delong=delong,
        digits=digits,
        settings={
            "random_state": random_state,
            "ci": ci if isinstance(ci, str) else dict(ci),
            "normalize_rows": normalize_rows,
            "from_logits": from_logits,
            "engine": "dask",
            "partitions": int(frame.npartitions),
            **deployment.settings(),
        },
    )


def _row_offsets(frame, columns: FrameColumns):
    """Global id of each partition's first row (positions in the frame), or None when a row-id column is named."""
    if columns.row_id_col is not None:
        return None
    lengths = frame[columns.label_col].map_partitions(len).compute()
    return np.concatenate(([0], np.cumsum(np.asarray(lengths, dtype=np.int64))[:-1]))


class _Partitions:
    """The frame's partitions as checked rows, and one dask computation per step over all of them."""

    def __init__(self, frame, columns: FrameColumns, offsets, transform=None):
        self.frame = frame
        self.columns = columns
        self.offsets = offsets
        self.transform = transform
        self.factors: np.ndarray | None = None  # each class's weight factor at the target priors

    @property
    def sample_size(self) -> int:
        """Scores of each ranking sampled from each partition for the cut points."""
        return max(PARTITION_SAMPLE, SAMPLE_SIZE // self.frame.npartitions)

    def rows(self, validate: bool = False):
        """One delayed :class:`PartitionRows` per partition (checked with ``validate``, else taken as checked)."""
        import dask

        load = dask.delayed(_load, pure=True)
        offsets = self.offsets if self.offsets is not None else [None] * self.frame.npartitions
        return [
            load(part, self.columns, i, offsets[i], self.transform, validate, self.factors)
            for i, part in enumerate(self.frame.to_delayed())
        ]

    def compute(self, function, *args):
        """``function(rows, *args)`` of every partition, its rows checked, computed."""
        import dask

        work = dask.delayed(function, pure=True)
        return list(dask.compute(*[work(rows, *args) for rows in self.rows(validate=True)]))


def _load(part, columns: FrameColumns, index: int, offset, transform, validate, factors=None) -> PartitionRows:
    rows = partition_rows(part, columns, f"partition {index}", transform, validate)
    if factors is not None:  # the weights at the target priors
        weights = factors[rows.codes] if rows.weights is None else rows.weights * factors[rows.codes]
        rows = PartitionRows(rows.codes, rows.scores, weights, rows.row_ids, rows.score_dtype)
    if offset is not None:
        ids = np.arange(offset, offset + rows.size, dtype=np.uint64)
        rows = PartitionRows(rows.codes, rows.scores, rows.weights, ids, rows.score_dtype)
    return rows


def _class_totals(rows: PartitionRows) -> np.ndarray:
    """A partition's weight of each class."""
    return np.bincount(rows.codes, weights=rows.weights, minlength=rows.scores.shape[1])


def _summarise(rows: PartitionRows, replicates, sample_size: int, costs=None) -> dict:
    """A partition's summary statistics, ranking samples and (with replicates) replicate counts and losses."""
    losses = row_losses(rows.codes, rows.scores, machine_epsilon(rows.score_dtype))
    losses.update(row_costs(rows.codes, rows.scores, costs))
    summary = SummaryStatistics.of(rows.codes, rows.scores, rows.weights, losses)  # an empty partition too
    found = {"summary": summary, **ranking_samples(rows, sample_size)}
    if replicates is not None:
        found["replicates"] = _replicate_sums(rows, losses, replicates)
    return found


def ranking_samples(rows: PartitionRows, sample_size: int) -> dict:
    """A partition's size and a sample of each ranking's scores (the score columns, then the raveled cells)."""
    m = rows.scores.shape[1]
    axes = [Axis(column, m) for column in [*range(m), None]]
    return {"samples": [sample_values(axis.entries(rows)[0], sample_size) for axis in axes], "size": rows.size}


def _replicate_sums(rows: PartitionRows, losses, replicates: Replicates) -> dict:
    """Per replicate: confusion counts (b, m, m), loss sums (b, n_losses) and weight totals (b,)."""
    from polyroc._engine.counts import replicate_confusion_counts
    from polyroc.dask._ranking import _weight_batch
    from polyroc.evaluation._calibration import ECE_BINS, ReplicateBins

    m = rows.scores.shape[1]
    b = replicates.numbers.size
    counts, sums, totals = np.zeros((b, m, m)), np.zeros((b, len(losses))), np.zeros(b)
    bins = np.zeros((b, 3, m + 1, ECE_BINS))
    if rows.size:
        predicted = np.argmax(rows.scores, axis=1)
        table = np.column_stack(list(losses.values()))
        binned = ReplicateBins(rows.codes, rows.scores)
        step = max(1, 2**23 // rows.size)
        for start in range(0, b, step):
            chunk = Replicates(replicates.seed, replicates.numbers[start : start + step])
            batch = _weight_batch(rows.weights, rows.row_ids, chunk).T  # (b, n)
            counts[start : start + step] = replicate_confusion_counts(rows.codes, predicted, m, batch)
            sums[start : start + step] = batch @ table
            totals[start : start + step] = batch.sum(axis=1)
            bins[start : start + step] = binned.sums(batch)
    return {"counts": counts, "sums": sums, "totals": totals, "names": tuple(losses), "bins": bins}


@dataclass(frozen=True)
class _Job:
    """The open cells ``groups`` of one ranking (and, from group 0, its point cells), moved in one pass."""

    axis: Axis
    edges: np.ndarray
    groups: range


def _ranking_jobs(axes, summaries, rows_per_sort, rows_per_pass):
    """The jobs of every ranking, packed into passes of at most ``rows_per_pass`` entries (a list of job lists)."""
    jobs = []
    sizes = sum(found["size"] for found in summaries)
    for index, axis in enumerate(axes):
        sample = np.concatenate([found["samples"][index] for found in summaries])
        entries = sizes * (axis.n_classes if axis.column is None else 1)
        edges = quantile_edges(sample, math.ceil(entries / rows_per_sort))
        n_groups = edges.size + 1
        n_jobs = min(n_groups, math.ceil(entries / rows_per_pass))
        bounds = np.linspace(0, n_groups, n_jobs + 1).astype(int)
        share = entries / n_groups
        jobs.extend((_Job(axis, edges, range(int(a), int(b))), (b - a) * share) for a, b in itertools.pairwise(bounds))
    passes, current, load = [], [], 0.0
    for job, entries in jobs:
        if current and load + entries > rows_per_pass:
            passes.append(current)
            current, load = [], 0.0
        current.append(job)
        load += entries
    return [*passes, current] if current else passes


def _split_jobs(rows: PartitionRows, jobs, replicates, placements):
    """A partition's share of every job of a pass."""
    return [split_by_cell(rows, job.axis, job.edges, job.groups, replicates, placements) for job in jobs]


@dataclass
class _CellResults:
    """What the passes over the frame found, per ranking: cell weights, open-cell results, edges, sampled ties."""

    totals: dict
    cells: dict
    edges: dict
    tied: dict


def _cell_passes(parts, axes, summaries, rows_per_sort, rows_per_pass, reduce, replicates=None, placements=None):
    """``reduce(pieces, axis, replicates, placements, below)`` of every open cell of every ranking, pass by pass.

    ``below`` is the weight of each code in the cells below the open cell
    (given only with ``placements``). The frame is read once per pass.
    """
    import dask

    split = dask.delayed(_split_jobs, pure=True)
    combine = dask.delayed(reduce, pure=True)
    offsets_of = dask.delayed(cell_offsets, pure=True)
    found = _CellResults({}, {axis: [] for axis in axes}, {}, {})
    passes = _ranking_jobs(axes, summaries, rows_per_sort, rows_per_pass)
    work = task("passes over the frame", len(passes))
    for jobs in passes:
        shares = [split(rows, jobs, replicates, placements) for rows in parts.rows()]
        pass_totals, pass_tied, tasks = {}, {}, []
        for j, job in enumerate(jobs):
            found.edges[job.axis] = job.edges
            job_totals = [share[j][0] for share in shares]
            if replicates is None or job.groups.start == 0:
                pass_totals[job.axis] = job_totals
            if placements is not None and job.groups.start == 0:
                pass_tied[job.axis] = [share[j][2] for share in shares]
            below = offsets_of(job_totals) if placements is not None else None
            pieces = [share[j][1] for share in shares]
            tasks.append(
                [
                    combine(
                        [piece[g] for piece in pieces],
                        job.axis,
                        replicates,
                        placements,
                        None if below is None else below[2 * (job.groups.start + g)],
                    )
                    for g in range(len(job.groups))
                ]
            )
        found_totals, found_tied, found_cells = dask.compute(pass_totals, pass_tied, tasks)
        for axis, partition_totals in found_totals.items():
            found.totals[axis] = np.sum(partition_totals, axis=0)
        found.tied.update(found_tied)
        for job, job_cells in zip(jobs, found_cells):
            found.cells[job.axis].extend(job_cells)
        work.advance()
    return found


def _rankings(parts, axes, summaries, rows_per_sort, rows_per_pass, replicates, placements=None):
    """(wins, class weights) of every ranking, and DeLong's sampled terms."""
    found = _cell_passes(parts, axes, summaries, rows_per_sort, rows_per_pass, cell_wins, replicates, placements)
    rankings = [combine_cells(found.cells[axis], found.totals[axis], axis) for axis in axes]
    sampled = [cell[2] for axis in axes for cell in found.cells[axis] if cell[2] is not None]
    for axis, shares in found.tied.items():
        sampled.extend(_tied_terms(placements, axis, shares, found.totals[axis]))
    return rankings, sampled


def _tied_terms(placements, axis, shares, totals):
    """DeLong terms of the sampled entries on an edge (each partition's), from the weights of every cell."""
    below = np.cumsum(totals, axis=0) - totals
    found = []
    for edges, ids, codes, weights in shares:
        for edge in np.unique(edges):
            at = edges == edge
            cell = 2 * int(edge) + 1
            found.append(
                placements.point_terms(
                    axis, ids[at], codes[at], None if weights is None else weights[at], below[cell], totals[cell]
                )
            )
    return found


def _aucs(rankings, m) -> dict:
    """The AUCs from the wins of each score column and of the raveled cells."""
    wins = np.array([ranking[0] for ranking in rankings[:m]])
    support = rankings[0][1]
    total = support.sum()
    micro_wins = rankings[m][0][0]
    return aucs_of_wins(wins, support, micro_wins, total * total * (m - 1))


def _replicate_scores(parts, summaries, axes, rows_per_sort, rows_per_pass, replicates, n_boot) -> dict:
    """Every score (B,) and per-class score (B, m) of the Poisson bootstrap replicates."""
    sums = [found["replicates"] for found in summaries]
    counts = np.sum([found["counts"] for found in sums], axis=0)
    loss_sums = np.sum([found["sums"] for found in sums], axis=0)
    totals = np.sum([found["totals"] for found in sums], axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = loss_sums / totals[:, None]
    scores = {
        **counts_scores(counts),
        **dict(zip(sums[0]["names"], means.T)),
        **eces_of_sums(np.sum([found["bins"] for found in sums], axis=0)),
        **class_scores(counts),
    }
    m = axes[0].n_classes
    if replicates is not None:
        rankings, _ = _rankings(parts, axes, summaries, rows_per_sort, rows_per_pass, replicates)
        per_replicate = [
            _aucs([(wins[..., r], support[..., r]) for wins, support in rankings], m) for r in range(n_boot)
        ]
        scores.update({name: np.array([found[name] for found in per_replicate]) for name in AUC_SCORES})
    else:
        scores.update({name: np.full(n_boot, np.nan) for name in AUC_SCORES})
    return scores
