"""Confusion counts for a whole sample of thresholds, streamed in chunks.

Every search (lattice or Monte Carlo, simplex or box) goes through
:func:`threshold_batches`, which yields ``(thresholds, counts)`` pairs. Tuning
takes the argmax of a metric over them; ROC clouds and DFP read per-class rates
from the same counts. The lattice uses dominance counting when it is cheaper
than the brute force; every path gives the counts of the float64 rule
argmax(p - tau) at the yielded tau exactly, tied scores included (see
:func:`polyroc._engine.counts.lattice_threshold_counts`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numpy.typing import ArrayLike

from polyroc._engine.counts import (
    CHUNK_BYTES,
    chunk_length,
    confusion_counts,
    dominance_is_faster,
    lattice_threshold_counts,
    score_columns,
    threshold_counts,
)
from polyroc._engine.parallel import chunk_map
from polyroc._engine.progress import task
from polyroc._validation import THRESHOLD_DOMAINS, check_positive_int, check_scores
from polyroc._validation._params import Interval, Options, validate_params
from polyroc.thresholds.samplers import (
    barycentre,
    iter_lattice,
    iter_random_thresholds,
    lattice_size,
)

#: Largest lattice (or number of random thresholds) searched; beyond it a ValueError
#: gives the size and suggests another search.
MAX_LATTICE_POINTS = 2_000_000

#: Lattice size aimed at when no resolution is given.
DEFAULT_LATTICE_POINTS = 25_000

#: Highest resolution chosen automatically (the paper's r for m = 3).
DEFAULT_MAX_RESOLUTION = 200

#: Number of Monte Carlo thresholds when none is given.
DEFAULT_N_SAMPLES = 20_000

#: The searches that sample a whole set of thresholds (coordinate search starts from one of them).
SAMPLED_SEARCHES = ("lattice", "random")

#: ``search="auto"`` searches the lattice up to this many classes (its default resolution is
#: fine there: r = 200 for m = 3, r = 51 for m = 4, counted by dominance in O(n m^2 + cells)).
AUTO_LATTICE_MAX_CLASSES = 4

#: Largest brute-force cost (thresholds x rows x classes) of the lattice a coordinate search
#: starts from when no start is given.
COORDINATE_START_COST = 5 * 10**7

__all__ = ["coordinate_start_resolution", "default_resolution", "threshold_batches"]


@validate_params({"n_classes": [Interval("integer", 2, None, closed="left")], "domain": [Options(THRESHOLD_DOMAINS)]})
def default_resolution(n_classes: int, *, domain: str = "simplex") -> int:
    """Largest resolution r <= 200 whose lattice has at most 25,000 points (at least 1).

    Parameters
    ----------
    n_classes : int
        Number of classes m (>= 2).
    domain : {"simplex", "box"}, default="simplex"
        The lattice's domain.

    Returns
    -------
    resolution : int
        The lattice resolution r, between 1 and 200.

    Raises
    ------
    ValueError
        If m < 2 or the domain is unknown.
    TypeError
        If ``n_classes`` is not an integer.

    See Also
    --------
    polyroc.thresholds.lattice_size : The number of points of a lattice.
    coordinate_start_resolution : The start lattice of a coordinate search.
    polyroc.thresholds.tune_thresholds : Searches this lattice by default for m <= 4.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1, step 3 (thresholds on a uniform grid of the simplex).

    Examples
    --------
    >>> default_resolution(3), default_resolution(4), default_resolution(10)
    (200, 51, 8)
    """
    n_classes = int(n_classes)
    resolution = 1
    while (
        resolution < DEFAULT_MAX_RESOLUTION
        and lattice_size(n_classes, resolution + 1, domain=domain) <= DEFAULT_LATTICE_POINTS
    ):
        resolution += 1
    return resolution


@validate_params(
    {
        "n_samples": [Interval("integer", 1, None, closed="left")],
        "n_classes": [Interval("integer", 2, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
    }
)
def coordinate_start_resolution(n_samples: int, n_classes: int, *, domain: str = "simplex") -> int | None:
    """Resolution of the lattice a coordinate search starts from by default (None: the barycentre only).

    The largest r <= :func:`default_resolution` whose lattice costs at most
    5 * 10^7 rule evaluations (points x rows x classes) to score by brute
    force; None when even r = 1 costs more, and the search starts from the
    barycentre alone (plain argmax), which is always a candidate.

    Parameters
    ----------
    n_samples : int
        Number of rows n of the tuning data (>= 1).
    n_classes : int
        Number of classes m (>= 2).
    domain : {"simplex", "box"}, default="simplex"
        The lattice's domain.

    Returns
    -------
    resolution : int or None
        The start resolution, or None for the barycentre alone.

    Raises
    ------
    ValueError
        If ``n_samples`` is below 1, m < 2 or the domain is unknown.
    TypeError
        If ``n_samples`` or ``n_classes`` is not an integer (a bool
        included).

    See Also
    --------
    default_resolution : The cap on the resolution.
    polyroc.thresholds.tune_thresholds : ``search="coordinate"`` starts from this lattice.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1 on a coarse lattice, as the start of the coordinate search.

    Examples
    --------
    >>> coordinate_start_resolution(10_000, 10), coordinate_start_resolution(10**6, 10)
    (3, None)
    """
    n_samples = int(n_samples)
    cap = default_resolution(n_classes, domain=domain)
    best = None
    for resolution in range(1, cap + 1):
        if lattice_size(n_classes, resolution, domain=domain) * n_samples * n_classes > COORDINATE_START_COST:
            break
        best = resolution
    return best


def check_lattice_size(n_classes, resolution, domain):
    """Return the lattice size, raising if it exceeds :data:`MAX_LATTICE_POINTS`."""
    size = lattice_size(n_classes, resolution, domain=domain)
    if size > MAX_LATTICE_POINTS:
        raise ValueError(
            f"a {domain} lattice with m={n_classes} classes and resolution r={resolution} has "
            f"{size:,} points, more than the limit of {MAX_LATTICE_POINTS:,}; use "
            "search='random' (with n_samples) or search='coordinate', or a smaller resolution"
        )
    return size


@validate_params(
    {
        "search": [Options(SAMPLED_SEARCHES)],
        "resolution": [None, Interval("integer", 1, None, closed="left")],
        "n_samples": [None, Interval("integer", 1, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
        "random_state": ["random_state"],
    }
)
def threshold_batches(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    search: str = "lattice",
    resolution: int | None = None,
    n_samples: int | None = None,
    domain: str = "simplex",
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    random_state: int | np.random.Generator | None = None,
    include_barycentre: bool = True,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Yield ``(thresholds, counts)`` for every sampled threshold, chunk by chunk.

    Arguments are validated at the call; the work happens while iterating, and
    memory stays bounded by a chunk whatever the number of thresholds.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, n_classes)
        Probability scores, columns in the class order.
    search : {"lattice", "random"}, default="lattice"
        Uniform lattice tau = c / r, or uniform Monte Carlo (Dirichlet(1) on
        the simplex, uniform on the box).
    resolution : int, default=None
        Lattice resolution r; default :func:`default_resolution`. Lattice only.
    n_samples : int, default=None
        Number of Monte Carlo thresholds; default 20,000. Random only.
    domain : {"simplex", "box"}, default="simplex"
        Sample tau on the probability simplex or on the box
        {min tau = 0, max tau <= 1}.
    labels : array-like, default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples (weighted counts are float64).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the Monte Carlo thresholds (``search="random"``). Checked
        whatever the search, but not read by the lattice.
    include_barycentre : bool, default=True
        Add the barycentre (plain argmax, with exact argmax counts) as a last
        batch when it is not already a lattice point.

    Returns
    -------
    batches : iterator of (ndarray (k, m), ndarray (k, m, m))
        Thresholds and their confusion counts ``counts[k, true, predicted]``
        (int64, or float64 with weights).

    Raises
    ------
    ValueError
        On invalid scores, labels or weights (rows off the simplex, NaN, a
        column count that differs from the classes, mismatched lengths,
        negative weights), ``y_score`` is a DataFrame whose column names are
        some of the classes but not all, an unknown search or domain, an option that does
        not apply to the search (``n_samples`` with the lattice,
        ``resolution`` with random search), a resolution or ``n_samples``
        below 1, a lattice (or random sample) larger than 2,000,000
        thresholds, or a negative ``random_state`` (whatever the search).
    TypeError
        On non-numeric scores or weights, labels mixing strings and numbers,
        a non-integer ``resolution`` or ``n_samples``, or a ``random_state``
        that is not None, an integer or a Generator (whatever the search).

    See Also
    --------
    polyroc.thresholds.tune_thresholds : The argmax of a metric over these batches.
    polyroc.thresholds.roc_cloud : ROC clouds and DFP from the same counts.
    polyroc.thresholds.iter_lattice : The lattice points alone.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1, steps 3-5 and Algorithm 2, steps 3-6: the confusion
    counts of sampled thresholds.

    Examples
    --------
    >>> y = [0, 1, 2, 1]
    >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]]
    >>> batches = list(threshold_batches(y, P, resolution=2))
    >>> [thresholds.shape for thresholds, counts in batches]
    [(6, 3), (1, 3)]
    >>> batches[1][0].round(3).tolist(), int(np.trace(batches[1][1][0]))
    ([[0.333, 0.333, 0.333]], 3)
    """
    targets = check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight)
    resolution, n_samples = resolve_search(search, resolution, n_samples, targets.classes.size, domain)
    rng = np.random.default_rng(random_state)  # declared for the lattice too, which does not read it
    return iter_batches(
        targets, search, resolution, n_samples, domain, rng if search == "random" else None, include_barycentre
    )


def resolve_search(search, resolution, n_samples, n_classes, domain):
    """Check the options of a sampled search and fill in defaults; return (resolution, n_samples).

    The option of the other search must be None. A lattice or a random sample
    above :data:`MAX_LATTICE_POINTS` is refused.
    """
    if search == "lattice":
        if n_samples is not None:
            raise ValueError("n_samples applies to search='random', not to the lattice")
        resolution = default_resolution(n_classes, domain=domain) if resolution is None else resolution
        resolution = check_positive_int("resolution", resolution)
        check_lattice_size(n_classes, resolution, domain)
        return resolution, None
    if resolution is not None:
        raise ValueError("resolution applies to the lattice, not to search='random'")
    n_samples = check_positive_int("n_samples", DEFAULT_N_SAMPLES if n_samples is None else n_samples)
    if n_samples > MAX_LATTICE_POINTS:
        raise ValueError(
            f"n_samples={n_samples:,} random thresholds is more than the limit of {MAX_LATTICE_POINTS:,}: "
            f"the thresholds alone would take {n_samples * n_classes * 8 / 2**20:,.0f} MiB and scoring them "
            f"costs n_samples x rows x {n_classes} comparisons; use fewer, or search='coordinate'"
        )
    return None, n_samples


def iter_batches(targets, search, resolution, n_samples, domain, rng, include_barycentre=True):
    """The batches of :func:`threshold_batches` for validated targets and resolved options."""
    n_classes = targets.classes.size
    if search == "lattice":
        batches = _lattice_batches(targets, resolution, domain)
        has_barycentre = domain == "box" or resolution % n_classes == 0
    else:
        batches = _random_batches(targets, n_samples, domain, rng)
        has_barycentre = False
    if include_barycentre and not has_barycentre:
        return _chain(batches, _barycentre_batch(targets, domain))
    return batches


def _chain(*iterators):
    for iterator in iterators:
        yield from iterator


def _chunk_thresholds(targets):
    """Thresholds per chunk for the brute force, so a chunk stays near CHUNK_BYTES."""
    n_samples, n_classes = targets.y_score.shape
    return min(2**16, chunk_length(n_samples * n_classes * 8, budget=CHUNK_BYTES))


def _lattice_batches(targets, resolution, domain):
    """Counts of every lattice point: by dominance when cheaper, else by chunks on the worker threads."""
    y_true, scores, _, weights = targets
    n_samples, n_classes = scores.shape
    size = lattice_size(n_classes, resolution, domain=domain)
    work = task("lattice points", size)
    if dominance_is_faster(n_samples, n_classes, resolution, size):
        points = next(iter_lattice(n_classes, resolution, domain=domain, chunk_size=size))
        counts = lattice_threshold_counts(y_true, scores, points, resolution, weights)
        if weights is not None:  # float weights moved by the tie corrections can leave -1e-16
            np.maximum(counts, 0.0, out=counts)
        work.advance(size)
        yield points / resolution, counts
        return
    chunks = iter_lattice(n_classes, resolution, domain=domain, chunk_size=_chunk_thresholds(targets))
    yield from _counted_chunks(targets, (points / resolution for points in chunks), work)


def _random_batches(targets, n_samples, domain, rng):
    """Counts of random thresholds, drawn in order in this thread and counted on the worker threads."""
    chunks = iter_random_thresholds(
        targets.y_score.shape[1], n_samples, domain=domain, random_state=rng, chunk_size=_chunk_thresholds(targets)
    )
    yield from _counted_chunks(targets, chunks, task("random thresholds", n_samples))


def _counted_chunks(targets, chunks, work):
    """(thresholds, brute-force counts) of each chunk, computed by :func:`polyroc._engine.parallel.chunk_map`.

    Each chunk is counted on its own, so the results do not depend on the
    number of threads; progress advances here, in the calling thread.
    """
    y_true, scores, _, weights = targets
    columns = score_columns(scores)  # once, not per chunk

    def count(thresholds):
        return thresholds, threshold_counts(y_true, scores, thresholds, weights, columns)

    for thresholds, counts in chunk_map(count, chunks):
        work.advance(thresholds.shape[0])
        yield thresholds, counts


def _barycentre_batch(targets, domain):
    y_true, scores, _, weights = targets
    n_classes = scores.shape[1]
    counts = confusion_counts(y_true, np.argmax(scores, axis=1), n_classes, weights)
    yield barycentre(n_classes, domain=domain)[None, :], counts[None]
