"""DeLong's intervals of the AUCs of a partitioned frame, from exact placements of a class-stratified sample.

DeLong's variance of an AUC is a sum over classes of the spread of the rows'
influences, and a row's influence sums its *placements*: for each score
column, the weight of the rows it beats (half the tied), scaled. A sort task
of :mod:`polyroc.dask._ranking` knows every placement of the rows of its
range exactly, given the weight of each class in the ranges below. It returns
the placement terms of the rows in DeLong's sample, and the driver adds each
row's terms over the columns (rows meet by id) into its influence on each AUC.

The sample holds every row of a class of at most ``cap`` rows, so up to that
size the variance is exactly that of :func:`polyroc.evaluate`. A larger class
is sampled at rate ``cap / n_c`` (a hash of the row id decides, the same in
every pass), and its sum of squared deviations is estimated as
``(n_c - 1) / (s_c - 1)`` times the sample's (s_c rows): the placements stay
exact, only the spread is estimated, with a relative error near
``sqrt(2 / cap)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._engine.ranking import tie_ends
from polyroc.dask._poisson import _GOLDEN, _mix
from polyroc.dask._rows import PartitionRows
from polyroc.intervals._delong import _pair_coefficients, delong_interval, smallest_class
from polyroc.resampling import ConfidenceInterval

#: Rows per class beyond which a class's spread of influences is estimated from a sample of this many.
SAMPLE_CAP = 100_000

#: The AUC names, in the order of the placement terms: OvR macro, OvR weighted, OvO macro, micro.
TERM_NAMES = ("roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovo_macro", "roc_auc_ovr_micro")


def _uniform(seed: int, ids: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        bits = _mix(_mix(ids.astype(np.uint64) * _GOLDEN + np.uint64(seed)))
    return (bits >> np.uint64(11)).astype(np.float64) * 2.0**-53


@dataclass(frozen=True)
class PlacementPlan:
    """Which rows are in DeLong's sample, and the scales of each placement term (from the class weights)."""

    seed: int
    inclusion: np.ndarray  # (m,) probability that a row of class k is sampled
    support: np.ndarray  # (m,) class weights
    ovr_macro: np.ndarray  # (m,) macro coefficient of OvR AUC c over its pairs
    ovr_weighted: np.ndarray  # (m,) weighted coefficient of OvR AUC c over its pairs
    ovo_scale: np.ndarray  # (m, m) Hand & Till coefficient of A(c|j) over W_c W_j
    micro_scale: float

    @classmethod
    def of(cls, support: np.ndarray, rows: np.ndarray, *, cap: int | None = None, seed: int = 0) -> PlacementPlan:
        """The plan for classes of weights ``support`` and ``rows`` rows of positive weight (``cap``: SAMPLE_CAP)."""
        cap = SAMPLE_CAP if cap is None else cap
        m = support.size
        total = support.sum()
        with np.errstate(divide="ignore", invalid="ignore"):
            pairs = support * (total - support)
            ovr_macro = np.where(pairs > 0, 1.0 / m / pairs, np.nan)
            ovr_weighted = np.where(pairs > 0, support / total / pairs, 0.0)
            inclusion = np.where(rows > cap, cap / np.maximum(rows, 1), 1.0)
            ovo_scale = np.nan_to_num(_pair_coefficients(support, "macro") / np.outer(support, support))
        return cls(
            seed=seed,
            inclusion=inclusion,
            support=support,
            ovr_macro=ovr_macro,
            ovr_weighted=ovr_weighted,
            ovo_scale=ovo_scale,
            micro_scale=1.0 / (total * total * (m - 1)),
        )

    @property
    def sampled(self) -> bool:
        """Whether some class is sampled rather than taken whole."""
        return bool(np.any(self.inclusion < 1))

    def sampled_rows(self, rows: PartitionRows) -> np.ndarray:
        """Which rows of a partition are in the sample (row ids required)."""
        keep = self.inclusion[rows.codes] >= 1
        chance = ~keep
        if np.any(chance):
            row_ids = rows.row_ids
            assert row_ids is not None  # a sampled class draws its rows by their ids
            keep[chance] = _uniform(self.seed, row_ids[chance]) < self.inclusion[rows.codes[chance]]
        return keep

    def terms(self, axis, values, codes, weights, positions, ids, below):
        """The placement terms of the sampled entries of one sorted open cell.

        ``positions``: the sampled entries' places in the sorted cell;
        ``below``: the weight of each code in the cells below. Returns
        ``(ids, classes, weights, terms)``: for a score column the classes and
        weights of the rows and terms (s, 3) of the OvR macro, OvR weighted
        and OvO AUCs; for the raveled cells (micro) None, None and terms (s, 1).
        """
        w = np.ones(values.size) if weights is None else weights
        ends = tie_ends(values)
        run = np.searchsorted(ends, positions)
        first = np.concatenate(([0], ends[:-1] + 1))[run]
        last = ends[run] + 1

        def half_below(stream, offset):
            cumulative = np.concatenate(([0.0], np.cumsum(stream)))
            return offset + 0.5 * (cumulative[first] + cumulative[last])

        sampled_codes = codes[positions]
        if axis.column is None:
            positive = codes == 1
            below_by_code = [
                half_below(np.where(positive, 0.0, w), below[0]),
                half_below(np.where(positive, w, 0.0), below[1]),
            ]
            return self._terms(axis, ids, sampled_codes, w[positions], below_by_code)
        c = axis.column
        scale = self.ovo_scale[c]
        own_below = half_below(np.where(codes == c, w, 0.0), below[c])
        everyone_below = half_below(w, below.sum())
        pairs_below = half_below(w * scale[codes], scale @ below)
        return self._terms(axis, ids, sampled_codes, w[positions], [own_below, everyone_below, pairs_below])

    def point_terms(self, axis, ids, codes, weights, below, tied):
        """:meth:`terms` of sampled entries that tie with a whole cell: ``below`` and ``tied`` its codes' weights."""
        w = np.ones(codes.size) if weights is None else weights
        middle = below + 0.5 * tied
        if axis.column is None:
            return self._terms(axis, ids, codes, w, [np.full(codes.size, middle[0]), np.full(codes.size, middle[1])])
        c = axis.column
        placements = [middle[c], middle.sum(), self.ovo_scale[c] @ middle]
        return self._terms(axis, ids, codes, w, [np.full(codes.size, value) for value in placements])

    def _terms(self, axis, ids, codes, weights, below):
        """The terms of entries with these codes and weights, from their weights below (half the tied)."""
        if axis.column is None:
            negatives_below, positives_below = below
            placement = np.where(codes == 1, negatives_below, self.support.sum() - positives_below)
            return ids, None, None, (self.micro_scale * placement)[:, None]
        c = axis.column
        own_below, everyone_below, pairs_below = below
        own_above = self.support[c] - own_below
        own = codes == c
        ovr = np.where(own, everyone_below - own_below, own_above)
        ovo = np.where(own, pairs_below, own_above * self.ovo_scale[c][codes])
        terms = np.column_stack([self.ovr_macro[c] * ovr, self.ovr_weighted[c] * ovr, ovo])
        return ids, codes, weights, terms


def _class_constants(plan: PlacementPlan, wins: np.ndarray, micro: float) -> np.ndarray:
    """(m, 4): the part of each influence that is the row's weight times a constant of its class."""
    support = plan.support
    total = support.sum()
    m = support.size
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = (wins.sum(axis=1) - np.diag(wins)) / (support * (total - support))
        own = per_class / support
        rest = per_class / (total - support)
        pairwise = np.nan_to_num(wins / np.outer(support, support))  # A(c|j)
        coefficient = _pair_coefficients(support, "macro")
        constants = np.empty((m, 4))
        for k in range(m):
            for index, share in ((0, np.full(m, 1.0 / m)), (1, support / total)):
                parts = np.where(np.arange(m) == k, own, rest) * share
                constants[k, index] = parts[share > 0].sum()
            others = sum(coefficient[c, k] * pairwise[c, k] for c in range(m) if c != k)
            constants[k, 2] = (others + coefficient[k] @ pairwise[k]) / support[k]
        constants[:, 3] = 2.0 * micro / total
    return constants


def delong_intervals(
    sampled_terms, plan: PlacementPlan, wins, values, class_rows, classes, *, confidence
) -> dict[str, ConfidenceInterval]:
    """DeLong's logit interval of each AUC of :data:`TERM_NAMES` from the sort tasks' sampled terms.

    ``sampled_terms`` lists the sort tasks' outputs (score columns and
    micro); ``wins`` (m, m) the pairwise wins; ``values`` the AUC values;
    ``class_rows`` the rows of positive weight per class.
    """
    columns = [found for found in sampled_terms if found[1] is not None]
    micro = [found for found in sampled_terms if found[1] is None]
    ids = np.concatenate([found[0] for found in columns])
    unique, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
    codes = np.concatenate([found[1] for found in columns])[first].astype(np.intp)
    weights = np.concatenate([found[2] for found in columns])[first]
    placements = np.zeros((unique.size, 4))
    column_terms = np.concatenate([found[3] for found in columns])
    for index in range(3):
        placements[:, index] = np.bincount(inverse, weights=column_terms[:, index], minlength=unique.size)
    micro_ids = np.concatenate([found[0] for found in micro])
    micro_terms = np.concatenate([found[3][:, 0] for found in micro])
    placements[:, 3] = np.bincount(np.searchsorted(unique, micro_ids), weights=micro_terms, minlength=unique.size)
    constants = _class_constants(plan, wins, values["roc_auc_ovr_micro"])
    influences = weights[:, None] * (placements - constants[codes])
    n_classes = plan.support.size
    n_min = smallest_class(class_rows, classes)
    found = {}
    for index, name in enumerate(TERM_NAMES):
        variance, df = _sampled_variance(influences[:, index], codes, class_rows, n_classes)
        estimate = values[name]
        sampled = ", spread of the largest classes from a sample of their rows" if plan.sampled else None
        found[name] = delong_interval(estimate, variance, df, confidence, n_min, method=sampled)
    return found


def _sampled_variance(influence, codes, class_rows, n_classes):
    """Stratified variance and Welch–Satterthwaite df, each class's sum of squares scaled from its sample."""
    if np.any(class_rows == 1) or not np.all(np.isfinite(influence)):
        return float("nan"), float("nan")
    sampled = np.bincount(codes, minlength=n_classes)
    sums = np.bincount(codes, weights=influence, minlength=n_classes)
    means = np.divide(sums, sampled, out=np.zeros(n_classes), where=sampled > 0)
    squares = np.bincount(codes, weights=(influence - means[codes]) ** 2, minlength=n_classes)
    used = (class_rows >= 2) & (sampled >= 2)
    parts = squares[used] * class_rows[used] / (sampled[used] - 1)
    variance = float(parts.sum())
    spread = float(np.sum(parts**2 / (class_rows[used] - 1)))
    return variance, (variance * variance / spread if spread > 0 else float("inf"))
