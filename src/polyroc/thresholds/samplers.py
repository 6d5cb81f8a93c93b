"""Threshold samplers: the uniform lattice and uniform Monte Carlo, on the simplex or the box.

Thresholds tau are rows of an (M, m) array. ``domain="simplex"`` is the
probability simplex (the paper's); ``domain="box"`` is {min tau = 0, max tau <= 1},
which holds one representative of every rule that matters for probability
scores (a larger family than the simplex of Legnaro, Guastavino & Marchetti
(2025), arXiv:2511.21794, for m >= 3). Large samples are produced in chunks by generators, so
memory does not grow with the number of thresholds.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from polyroc._validation import THRESHOLD_DOMAINS
from polyroc._validation._params import Interval, Options, validate_params

#: Default number of thresholds per chunk yielded by the samplers.
CHUNK_POINTS = 2**16

__all__ = [
    "barycentre",
    "iter_lattice",
    "iter_random_thresholds",
    "lattice_size",
]


@validate_params(
    {
        "n_classes": [Interval("integer", 2, None, closed="left")],
        "resolution": [Interval("integer", 1, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
    }
)
def lattice_size(n_classes: int, resolution: int, *, domain: str = "simplex") -> int:
    """Number of points of the uniform lattice of resolution r.

    Simplex: C(r + m - 1, m - 1) count vectors c >= 0 with sum r. Box:
    (r + 1)^m - r^m vectors c in {0..r}^m with min 0.

    Parameters
    ----------
    n_classes : int
        Number of classes m (>= 2).
    resolution : int
        Lattice resolution r (>= 1); thresholds are c / r.
    domain : {"simplex", "box"}, default="simplex"
        The probability simplex or the box {min tau = 0, max tau <= 1}.

    Returns
    -------
    size : int
        Exact number of lattice points (the barycentre not counted).

    Raises
    ------
    ValueError
        If m < 2, r < 1 or the domain is unknown.
    TypeError
        If ``n_classes`` or ``resolution`` is not an integer.

    See Also
    --------
    iter_lattice : The lattice points themselves, in chunks.
    polyroc.thresholds.default_resolution : The resolution chosen when none is given.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1, step 3: thresholds sampled on a uniform grid of the simplex.

    Examples
    --------
    >>> lattice_size(3, 200), lattice_size(4, 50), lattice_size(3, 200, domain="box")
    (20301, 23426, 120601)
    """
    n_classes, resolution = int(n_classes), int(resolution)
    if domain == "simplex":
        return math.comb(resolution + n_classes - 1, n_classes - 1)
    return (resolution + 1) ** n_classes - resolution**n_classes


@validate_params({"n_classes": [Interval("integer", 2, None, closed="left")], "domain": [Options(THRESHOLD_DOMAINS)]})
def barycentre(n_classes: int, *, domain: str = "simplex") -> np.ndarray:
    """The threshold of plain argmax: (1/m, ..., 1/m) on the simplex, 0 in the box.

    Parameters
    ----------
    n_classes : int
        Number of classes m (>= 2).
    domain : {"simplex", "box"}, default="simplex"
        The domain whose representative of the constant vectors is returned.

    Returns
    -------
    threshold : ndarray of shape (m,)
        The constant threshold of the domain.

    Raises
    ------
    ValueError
        If m < 2 or the domain is unknown.
    TypeError
        If ``n_classes`` is not an integer.

    See Also
    --------
    polyroc.thresholds.predict : The rule argmax(p - tau), plain argmax at the barycentre.
    polyroc.thresholds.TuningResult : ``equals_argmax`` tells whether tau* is the barycentre.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 2 (tau_j = 1/m gives the classical argmax) and Section 6 (the
    barycentre is among the candidates of the tuning).

    Examples
    --------
    >>> barycentre(4).tolist(), barycentre(2, domain="box").tolist()
    ([0.25, 0.25, 0.25, 0.25], [0.0, 0.0])
    """
    n_classes = int(n_classes)
    value = 1.0 / n_classes if domain == "simplex" else 0.0
    return np.full(n_classes, value)


@validate_params(
    {
        "n_classes": [Interval("integer", 2, None, closed="left")],
        "resolution": [Interval("integer", 1, int(np.iinfo(np.uint16).max), closed="both")],
        "domain": [Options(THRESHOLD_DOMAINS)],
        "chunk_size": [Interval("integer", 1, None, closed="left")],
    }
)
def iter_lattice(
    n_classes: int, resolution: int, *, domain: str = "simplex", chunk_size: int = CHUNK_POINTS
) -> Iterator[np.ndarray]:
    """Yield the integer lattice points c (thresholds c / r) in chunks of uint16 arrays.

    Simplex points come in decreasing lexicographic order of c (SimplexTools'
    order: e_1 first), generated by vectorised stars-and-bars unranking. Box
    points are grouped by the position of their first zero. The barycentre
    is not added here (see :func:`barycentre`).

    Parameters
    ----------
    n_classes : int
        Number of classes m (>= 2).
    resolution : int
        Lattice resolution r, 1 <= r <= 65535.
    domain : {"simplex", "box"}, default="simplex"
        The probability simplex or the box {min tau = 0, max tau <= 1}.
    chunk_size : int, default=65536
        Maximum number of points per chunk.

    Yields
    ------
    points : ndarray of shape (k, m), dtype uint16
        Integer counts; simplex rows sum to r, box rows have min 0 and max <= r.

    Raises
    ------
    ValueError
        If an argument is out of range (m < 2, r < 1 or r > 65535,
        ``chunk_size`` < 1, an unknown domain) or the lattice has 2**62
        points or more; raised at the call, before any chunk.
    TypeError
        If ``n_classes``, ``resolution`` or ``chunk_size`` is not an integer.

    See Also
    --------
    lattice_size : The number of points, without generating them.
    iter_random_thresholds : Uniform Monte Carlo thresholds instead.
    polyroc.thresholds.threshold_batches : The confusion counts of every lattice point.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1, step 3 (uniform grid of the simplex).

    Examples
    --------
    >>> [chunk.tolist() for chunk in iter_lattice(3, 2, chunk_size=4)]
    [[[2, 0, 0], [1, 1, 0], [1, 0, 1], [0, 2, 0]], [[0, 1, 1], [0, 0, 2]]]
    >>> np.concatenate(list(iter_lattice(2, 2, domain="box"))).tolist()
    [[0, 0], [0, 1], [0, 2], [1, 0], [2, 0]]
    """
    n_classes, resolution, chunk_size = int(n_classes), int(resolution), int(chunk_size)
    size = lattice_size(n_classes, resolution, domain=domain)
    if size >= 2**62:
        raise ValueError(f"the lattice has {size:,} points, too many to enumerate; use random thresholds")
    unrank = _unrank_simplex if domain == "simplex" else _unrank_box
    return (
        unrank(np.arange(start, min(start + chunk_size, size), dtype=np.int64), n_classes, resolution)
        for start in range(0, size, chunk_size)
    )


def _unrank_simplex(ranks, n_classes, resolution):
    """Simplex lattice points of the given ranks (decreasing lexicographic order).

    Among compositions of s into k parts, the first N(k, t) = C(t + k - 1, k - 1)
    have a first part >= s - t, so the first part of rank q is s - t with t the
    smallest value such that N(k, t) > q.
    """
    points = np.empty((ranks.size, n_classes), dtype=np.uint16)
    remaining = np.full(ranks.size, resolution, dtype=np.int64)
    ranks = ranks.copy()
    t_values = np.arange(resolution + 1)
    for position in range(n_classes - 1):
        parts = n_classes - position
        cumulative = np.array([math.comb(t + parts - 1, parts - 1) for t in t_values], dtype=np.int64)
        rest = np.searchsorted(cumulative, ranks, side="right")
        ranks -= np.where(rest > 0, cumulative[rest - 1], 0)
        points[:, position] = remaining - rest
        remaining = rest
    points[:, -1] = remaining
    return points


def _unrank_box(ranks, n_classes, resolution):
    """Box lattice points of the given ranks: grouped by the first zero coordinate z.

    Group z holds r^z (r + 1)^(m - 1 - z) points: coordinates before z in
    1..r, then 0, then 0..r (mixed-radix digits, most significant first).
    """
    group_sizes = np.array(
        [resolution**z * (resolution + 1) ** (n_classes - 1 - z) for z in range(n_classes)],
        dtype=np.int64,
    )
    group_starts = np.concatenate(([0], np.cumsum(group_sizes)))
    first_zero = np.searchsorted(group_starts, ranks, side="right") - 1
    offset = ranks - group_starts[first_zero]
    points = np.zeros((ranks.size, n_classes), dtype=np.uint16)
    for position in range(n_classes - 1, -1, -1):
        before = position < first_zero
        after = position > first_zero
        radix = np.where(before, resolution, resolution + 1)
        digit = np.where(before | after, offset % radix, 0)
        offset = np.where(before | after, offset // radix, offset)
        points[:, position] = digit + before
    return points


@validate_params(
    {
        "n_classes": [Interval("integer", 2, None, closed="left")],
        "n_samples": [Interval("integer", 1, None, closed="left")],
        "domain": [Options(THRESHOLD_DOMAINS)],
        "random_state": ["random_state"],
        "chunk_size": [Interval("integer", 1, None, closed="left")],
    }
)
def iter_random_thresholds(
    n_classes: int,
    n_samples: int,
    *,
    domain: str = "simplex",
    random_state: int | np.random.Generator | None = None,
    chunk_size: int = CHUNK_POINTS,
) -> Iterator[np.ndarray]:
    """Yield thresholds drawn uniformly on the simplex (Dirichlet(1, ..., 1)) or the box.

    Simplex: normalised i.i.d. standard exponentials. Box: uniform on the
    cube [0, 1]^m, then shifted to minimum 0. The draws do not depend on
    ``chunk_size``: the same seed gives the same thresholds. The barycentre
    is not added here (see :func:`barycentre`).

    Parameters
    ----------
    n_classes : int
        Number of classes m (>= 2).
    n_samples : int
        Number of thresholds M (>= 1).
    domain : {"simplex", "box"}, default="simplex"
        The probability simplex or the box {min tau = 0, max tau <= 1}.
    random_state : None, int or numpy.random.Generator, default=None
        Seed or generator; the only source of randomness.
    chunk_size : int, default=65536
        Maximum number of thresholds per chunk.

    Yields
    ------
    thresholds : ndarray of shape (k, m), dtype float64
        The next k thresholds, one per row.

    Raises
    ------
    ValueError
        If an argument is out of range (m < 2, M < 1, ``chunk_size`` < 1, an
        unknown domain, a negative seed); raised at the call.
    TypeError
        If ``n_classes``, ``n_samples`` or ``chunk_size`` is not an integer,
        or ``random_state`` is of the wrong kind.

    See Also
    --------
    iter_lattice : The uniform lattice instead.
    polyroc.thresholds.threshold_batches : The confusion counts of sampled thresholds.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 1, step 3 (thresholds sampled on the simplex).

    Examples
    --------
    >>> chunks = list(iter_random_thresholds(3, 5, random_state=0, chunk_size=2))
    >>> [chunk.shape for chunk in chunks]
    [(2, 3), (2, 3), (1, 3)]
    >>> bool(np.allclose(np.concatenate(chunks).sum(axis=1), 1.0))
    True
    """
    n_classes, n_samples, chunk_size = int(n_classes), int(n_samples), int(chunk_size)
    rng = np.random.default_rng(random_state)
    draw = _draw_simplex if domain == "simplex" else _draw_box
    return (draw(rng, min(chunk_size, n_samples - start), n_classes) for start in range(0, n_samples, chunk_size))


def _draw_simplex(rng, size, n_classes):
    draws = rng.standard_exponential((size, n_classes))
    return draws / draws.sum(axis=1, keepdims=True)


def _draw_box(rng, size, n_classes):
    draws = rng.random((size, n_classes))
    return draws - draws.min(axis=1, keepdims=True)
