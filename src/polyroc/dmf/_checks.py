"""Input checks specific to ROC-DMF (the shared ones are in :mod:`polyroc._validation`)."""

from __future__ import annotations

#: Largest bootstrap: replicates × matrix cells refitted (about an hour at ~0.2 µs per cell refit).
MAX_BOOTSTRAP_CELLS = 2**34
#: Rough cost of refitting one matrix cell in a bootstrap replicate, for the error message.
SECONDS_PER_CELL = 2e-7


def check_bootstrap_work(n_boot, n_cells):
    """Refuse a bootstrap of ``n_boot`` refits of ``n_cells`` cells beyond :data:`MAX_BOOTSTRAP_CELLS`.

    >>> check_bootstrap_work(10**9, 198)  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: n_boot=1,000,000,000 replicates of a 198-cell rate matrix are
    198,000,000,000 cell refits, about 11 hours at ~0.2 µs each; at most
    17,179,869,184 are allowed: use fewer replicates or levels
    """
    work = n_boot * n_cells
    if work > MAX_BOOTSTRAP_CELLS:
        raise ValueError(
            f"n_boot={n_boot:,} replicates of a {n_cells:,}-cell rate matrix are {work:,} cell refits, "
            f"about {_duration(work * SECONDS_PER_CELL)} at ~{SECONDS_PER_CELL * 1e6:.1f} µs each; at most "
            f"{MAX_BOOTSTRAP_CELLS:,} are allowed: use fewer replicates or levels"
        )


def _duration(seconds):
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= 2 * size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"
