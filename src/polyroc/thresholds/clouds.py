"""ROC clouds and the DFP summary (Algorithm 2 of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794).

For every sampled threshold tau and class j, the natural rule argmax(p - tau)
gives one one-vs-rest point (fpr_j, tpr_j). The M points of class j form its
ROC cloud; the classes are coupled because they share tau. DFP_j, the mean L1
distance of the cloud to the perfect corner (0, 1), equals 1 - mean(tpr_j -
fpr_j): 1 for a random classifier, 0 for a perfect one, up to 2.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.counts import confusion_counts, per_class_counts, threshold_counts
from polyroc._results import Drawable
from polyroc._validation import (
    check_counts,
    check_real_array,
    check_scores,
    check_zero_division,
    with_scaled_weights,
)
from polyroc._validation._params import Interval, validate_params
from polyroc.curves import OvrRocCurves, ovr_roc_curve
from polyroc.exceptions import UndefinedMetricWarning
from polyroc.thresholds.batches import AUTO_LATTICE_MAX_CLASSES, resolve_search, threshold_batches

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

#: Cost (thresholds x rows x classes) aimed at by the default number of random thresholds.
CLOUD_COST = 5 * 10**8

#: Bounds of the default number of random thresholds of a cloud.
CLOUD_MIN_SAMPLES, CLOUD_MAX_SAMPLES = 100, 10_000

__all__ = ["RocCloud", "cloud_rates", "default_cloud_samples", "dfp", "roc_cloud"]


@dataclass(frozen=True, eq=False, repr=False)
class RocCloud(Drawable):
    """Per-class ROC clouds of a sample of thresholds, their DFP and the OvR curves.

    Attributes
    ----------
    classes : ndarray of shape (m,)
        Class labels in the order of the score columns.
    thresholds : ndarray of shape (M, m)
        The sampled thresholds tau.
    fpr, tpr : ndarray of shape (M, m)
        One-vs-rest false and true positive rates of each class under
        argmax(p - tau); column j is the cloud of class j.
    dfp : ndarray of shape (m,)
        DFP of each class (NaN for a class whose rates are undefined).
    dfp_overall : float
        Mean DFP over the classes (ignoring NaN).
    ovr_curves : OvrRocCurves
        The standard per-class OvR ROC curves of the same scores, for overlay.
    argmax_fpr, argmax_tpr : ndarray of shape (m,)
        The one-vs-rest rates of plain argmax (the barycentre), whether or not
        it is among the sampled thresholds.
    zero_division : {"nan", "warn", 0.0, 1.0}
        The rate given to a class without positives or negatives
        (``"warn"``: 0.0, with a warning).
    settings : dict
        How the thresholds were sampled: ``"search"`` (``"lattice"``,
        ``"random"``, or None for explicit thresholds; ``"auto"`` is resolved), ``"resolution"``,
        ``"n_samples"``, ``"domain"``, ``"random_state"`` and
        ``"include_barycentre"``.

    See Also
    --------
    roc_cloud : Makes this result.
    polyroc.plotting.RocCloudDisplay : Draws the clouds over the OvR curves.
    polyroc.curves.OvrRocCurves : The one-vs-rest curves held in ``ovr_curves``.

    Examples
    --------
    >>> cloud = roc_cloud([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
    ...                   resolution=6)
    >>> cloud.n_thresholds, cloud.settings["search"], cloud.settings["resolution"]
    (28, 'lattice', 6)
    >>> cloud.to_frame()["dfp"].round(3).tolist()
    [0.702, 0.857, 0.56]
    """

    classes: np.ndarray
    thresholds: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    dfp: np.ndarray
    dfp_overall: float
    ovr_curves: OvrRocCurves
    argmax_fpr: np.ndarray
    argmax_tpr: np.ndarray
    zero_division: str | float = "nan"
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def n_thresholds(self) -> int:
        """Number of thresholds M in the clouds."""
        return int(self.thresholds.shape[0])

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per class: DFP, the cloud's mean rates, plain argmax's rates and the OvR AUC."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # mean of an all-NaN column is NaN
            mean_fpr, mean_tpr = np.nanmean(self.fpr, axis=0), np.nanmean(self.tpr, axis=0)
        return [
            {
                "class": label,
                "dfp": float(self.dfp[j]),
                "mean_fpr": float(mean_fpr[j]),
                "mean_tpr": float(mean_tpr[j]),
                "argmax_fpr": float(self.argmax_fpr[j]),
                "argmax_tpr": float(self.argmax_tpr[j]),
                "ovr_auc": float(self.ovr_curves.auc[j]),
                "n_thresholds": self.n_thresholds,
            }
            for j, label in enumerate(self.classes.tolist())
        ]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the clouds over the OvR curves (:class:`polyroc.plotting.RocCloudDisplay`).

        Parameters
        ----------
        ax : matplotlib Axes or array-like of Axes, default=None
            Where to draw: one Axes per class (one panel each), or a single
            Axes for every class (``layout="overlay"``); default a new figure
            with one panel per class.
        **kwargs
            Passed to ``RocCloudDisplay.from_result`` (``name=``, ``layout=``,
            ``ncols=`` and the other options of ``RocCloudDisplay.plot``).

        Returns
        -------
        display : RocCloudDisplay
            The display, drawn (``display.axes_``, ``display.figure_``).

        Raises
        ------
        TypeError
            If ``ax`` (or an entry of it) is not a matplotlib Axes, or a
            keyword is unknown to ``RocCloudDisplay.plot`` or of the wrong
            type.
        ValueError
            If ``ax`` does not hold one Axes per class (panels), or holds
            several with ``layout="overlay"``; an unknown ``layout``; ``ncols``
            below 1; ``curve_kwargs`` a list without one dict per class.

        See Also
        --------
        polyroc.plotting.RocCloudDisplay : The display drawn here.
        polyroc.thresholds.TuningResult.plot : The score surface of a tuning (m = 3).

        Examples
        --------
        >>> cloud = roc_cloud([0, 1, 2, 1], [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]],
        ...                   resolution=6)
        >>> display = cloud.plot()
        >>> type(display).__name__, len(display.axes_)
        ('RocCloudDisplay', 3)
        >>> import matplotlib.pyplot as plt; plt.close("all")
        """
        return super().plot(ax, **kwargs)


def _rate(numerator, denominator, zero_division):
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = numerator / denominator
    fill = np.nan if zero_division == "nan" else float(zero_division == 1.0)  # "warn" is 0.0
    return np.where(denominator == 0, fill, rate)


def _rates(counts, zero_division, *, warn=True):
    """(fpr, tpr) of validated counts (..., m, m); with ``"warn"`` (and ``warn``), one warning for undefined classes."""
    tp, fp, fn, tn = per_class_counts(counts)
    negatives, positives = fp + tn, tp + fn
    if zero_division == "warn" and warn:
        empty = (negatives == 0) | (positives == 0)
        undefined = np.flatnonzero(empty.reshape(-1, empty.shape[-1]).any(axis=0))
        if undefined.size:
            _warnings.warn(
                f"fpr or tpr is undefined for classes at positions {undefined.tolist()} (no negatives or "
                "no positives); it is set to 0.0 there (pass zero_division to choose the value)",
                UndefinedMetricWarning,
            )
    return _rate(fp, negatives, zero_division), _rate(tp, positives, zero_division)


def cloud_rates(counts: ArrayLike, *, zero_division: str | float = "nan") -> tuple[np.ndarray, np.ndarray]:
    """Per-class (fpr, tpr) of a batch of confusion counts (M, m, m); each (M, m).

    A rate with a zero denominator (a class without positives or negatives)
    takes ``zero_division``: NaN by default, 0.0 as the reference code does
    (``"warn"``: 0.0 with an :class:`~polyroc.exceptions.UndefinedMetricWarning`,
    as elsewhere in polyroc).

    Parameters
    ----------
    counts : array-like of shape (M, m, m)
        Confusion counts ``counts[k, true, predicted]`` of M thresholds.
    zero_division : {"nan", "warn", 0.0, 1.0}, default="nan"
        Rate of a class without positives (tpr) or negatives (fpr);
        ``np.nan`` is ``"nan"``, ``"warn"`` is 0.0 with a warning.

    Returns
    -------
    fpr, tpr : ndarray of shape (M, m)
        One-vs-rest false and true positive rates of each class at each threshold.

    Raises
    ------
    ValueError
        Counts that are not of shape (..., m, m) with m >= 2, negative or
        non-finite; a ``zero_division`` other than "nan", "warn", 0.0, 1.0
        or ``np.nan``.
    TypeError
        Non-numeric counts.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division="warn"``, once for the classes without
        positives or negatives (their rates are set to 0.0).

    See Also
    --------
    dfp : The DFP summary of these rates.
    polyroc.thresholds.threshold_batches : Counts of sampled thresholds.
    roc_cloud : Counts, rates and DFP in one call.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Eq. (7): the map tau -> (fpr(tau), tpr(tau)) of the natural rule.

    Examples
    --------
    >>> fpr, tpr = cloud_rates(np.array([[[3, 1], [0, 2]]]))
    >>> fpr.tolist(), tpr.tolist()
    ([[0.0, 0.25]], [[0.75, 1.0]])
    """
    counts = check_counts(counts)
    zero_division = check_zero_division(zero_division)
    return _rates(counts, zero_division)


def _dfp_from_rates(fpr, tpr):
    per_class = np.mean(fpr + 1.0 - tpr, axis=0)
    defined = ~np.isnan(per_class)
    if not defined.all():
        _warnings.warn(
            f"DFP is undefined for classes at positions {np.flatnonzero(~defined).tolist()} "
            "(no positives or no negatives); they are NaN and left out of the overall DFP",
            UndefinedMetricWarning,
        )
    overall = float(np.mean(per_class[defined])) if defined.any() else np.nan
    return per_class, overall


def dfp(counts: ArrayLike, *, zero_division: str | float = "nan") -> tuple[np.ndarray, float]:
    """DFP of each class and overall, from the counts (M, m, m) of M thresholds.

    ``DFP_j = mean over thresholds of |fpr_j - 0| + |tpr_j - 1|``; the overall DFP
    is the mean over classes with a defined value.

    Parameters
    ----------
    counts : array-like of shape (M, m, m)
        Confusion counts ``counts[k, true, predicted]`` of M thresholds.
    zero_division : {"nan", "warn", 0.0, 1.0}, default="nan"
        Rate of a class without positives or negatives (see :func:`cloud_rates`).

    Returns
    -------
    per_class : ndarray of shape (m,)
        DFP_j of each class: 0 for a perfect classifier, 1 for a random one.
    overall : float
        Mean of the defined DFP_j (NaN when none is defined).

    Raises
    ------
    ValueError
        Counts that are not of shape (..., m, m) with m >= 2, negative or
        non-finite; a ``zero_division`` other than "nan", "warn", 0.0, 1.0
        or ``np.nan``.
    TypeError
        Non-numeric counts.

    Warns
    -----
    UndefinedMetricWarning
        For classes without positives or negatives: with
        ``zero_division="nan"`` (their DFP is NaN) or ``"warn"`` (their
        rates are set to 0.0).

    See Also
    --------
    cloud_rates : The per-class rates DFP averages.
    roc_cloud : Sample thresholds and compute the clouds and DFP.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Eq. (9) and Algorithm 2, step 11 (the mean over classes).

    Examples
    --------
    >>> per_class, overall = dfp(np.array([[[3, 1], [0, 2]], [[2, 2], [1, 1]]]))
    >>> per_class.tolist(), overall
    ([0.625, 0.625], 0.625)
    """
    counts = check_counts(counts)
    zero_division = check_zero_division(zero_division)
    return _dfp_from_rates(*_rates(counts, zero_division))


@validate_params(
    {
        "n_samples": [Interval("integer", 1, None, closed="left")],
        "n_classes": [Interval("integer", 2, None, closed="left")],
    }
)
def default_cloud_samples(n_samples: int, n_classes: int) -> int:
    """Default number of random thresholds of a ROC cloud: about 5 * 10^8 / (n m), within [100, 10,000].

    Each threshold costs one pass of the rule over the n x m scores, so the
    cloud costs about 5 * 10^8 rule evaluations whatever n and m (a few
    seconds), with at least 100 thresholds (a DFP standard error of about
    0.01-0.02) and at most 10,000.

    Parameters
    ----------
    n_samples : int
        Number of rows n (>= 1).
    n_classes : int
        Number of classes m (>= 2).

    Returns
    -------
    n_thresholds : int
        The number of random thresholds, within [100, 10,000].

    Raises
    ------
    ValueError
        If ``n_samples`` is below 1 or ``n_classes`` below 2.
    TypeError
        If ``n_samples`` or ``n_classes`` is not an integer (a bool
        included).

    See Also
    --------
    roc_cloud : Uses this number for ``search="auto"`` with m >= 5 classes.
    polyroc.thresholds.iter_random_thresholds : Draws the thresholds.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Algorithm 2, step 3 (M thresholds sampled on the simplex).

    Examples
    --------
    >>> default_cloud_samples(10_000, 10), default_cloud_samples(100_000, 20), default_cloud_samples(10**6, 10)
    (5000, 250, 100)
    """
    n_samples, n_classes = int(n_samples), int(n_classes)
    return int(min(CLOUD_MAX_SAMPLES, max(CLOUD_MIN_SAMPLES, CLOUD_COST // (n_samples * n_classes))))


def _resolve_cloud_search(search, resolution, n_samples, random_state, shape):
    """(search, n_samples, random_state) with ``"auto"`` resolved (see :func:`roc_cloud`)."""
    if search != "auto":
        return search, n_samples, random_state
    if resolution is not None:
        return "lattice", n_samples, random_state
    if n_samples is None and shape[1] <= AUTO_LATTICE_MAX_CLASSES:
        return "lattice", n_samples, random_state
    if n_samples is None:
        n_samples = default_cloud_samples(*shape)
    return "random", n_samples, 0 if random_state is None else random_state


def roc_cloud(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    thresholds: ArrayLike | None = None,
    search: str = "auto",
    resolution: int | None = None,
    n_samples: int | None = None,
    domain: str = "simplex",
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    random_state: int | np.random.Generator | None = None,
    zero_division: str | float = "nan",
    include_barycentre: bool = False,
) -> RocCloud:
    """ROC clouds of the natural rule over a sample of thresholds, with DFP.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_score : array-like of shape (n_samples, m)
        Probability scores, columns in the class order.
    thresholds : array-like of shape (M, m), default=None
        Explicit thresholds; when given, the search options are ignored.
    search : {"auto", "lattice", "random"}, default="auto"
        Uniform lattice of resolution ``resolution`` or ``n_samples`` uniform
        Monte Carlo thresholds (seeded by ``random_state``). ``"auto"``: the
        lattice if ``resolution`` is given or m <= 4 (default resolution,
        counted exactly by dominance), otherwise random thresholds, by default
        :func:`default_cloud_samples` of them (a cost bounded in n and m) and
        seed 0 when ``random_state`` is None, so that the default cloud is
        reproducible. DFP depends on this sampling measure; it is recorded in
        :attr:`RocCloud.settings`.
    resolution : int, default=None
        Lattice resolution r; default
        :func:`polyroc.thresholds.default_resolution`. Lattice only.
    n_samples : int, default=None
        Number of Monte Carlo thresholds (random search only).
    domain : {"simplex", "box"}, default="simplex"
        Sample tau on the probability simplex or on the box
        {min tau = 0, max tau <= 1}.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the Monte Carlo thresholds (0 when None and ``"auto"``
        chooses random search, see ``search``).
    labels : array-like, default=None
        Class order; default the sorted labels of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Relative importance of the samples (scale-free).
    zero_division : {"nan", "warn", 0.0, 1.0}, default="nan"
        Rate of a class without positives or negatives (``"warn"``: 0.0,
        with a warning; see :func:`cloud_rates`).
    include_barycentre : bool, default=False
        Add the barycentre (plain argmax) to the sample when it is not already
        in it. Off by default, as in Algorithm 2 of Legnaro, Guastavino &
        Marchetti (2025, arXiv:2511.21794): the added point shifts DFP by O(1/M).

    Returns
    -------
    RocCloud
        The clouds (``fpr``, ``tpr``), DFP per class and overall, the OvR
        curves and the rates of plain argmax.

    Raises
    ------
    ValueError, TypeError
        Invalid scores, labels, weights or search options (see
        :func:`polyroc.thresholds.threshold_batches`, which checks
        ``random_state`` for the lattice too); ``y_score`` is a DataFrame
        whose column names are some of the classes but not all
        (ValueError); explicit ``thresholds`` that
        are not a finite (M, m) array; a ``zero_division`` other than
        "nan", "warn", 0.0, 1.0 or ``np.nan`` (ValueError).

    Warns
    -----
    UndefinedMetricWarning
        For classes without positives or negatives: their DFP is undefined
        (``zero_division="nan"``), or their rates are set to 0.0
        (``zero_division="warn"``, one warning for the clouds and plain
        argmax).

    See Also
    --------
    RocCloud.plot : Draw the clouds over the OvR curves.
    dfp : DFP from given confusion counts.
    polyroc.thresholds.tune_thresholds : The best threshold of the same sampling.
    polyroc.curves.ovr_roc_curve : The standard one-vs-rest ROC curves.

    References
    ----------
    Legnaro, E., Guastavino, S. & Marchetti, F. (2025). Multiclass
    threshold-based classification and model evaluation. arXiv:2511.21794.
    Section 4 and Algorithm 2: ROC clouds and DFP, eq. (9).

    Examples
    --------
    >>> y = [0, 1, 2, 1]
    >>> P = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .4, .1]]
    >>> cloud = roc_cloud(y, P, resolution=6)
    >>> cloud.fpr.shape, cloud.n_thresholds
    ((28, 3), 28)
    """
    zero_division = check_zero_division(zero_division)
    targets = with_scaled_weights(check_scores(y_true, y_score, labels=labels, sample_weight=sample_weight))
    n_classes = targets.y_score.shape[1]
    if thresholds is not None:
        taus = check_real_array("thresholds", thresholds, n_columns=n_classes)
        counts = threshold_counts(targets.y_true, targets.y_score, taus, targets.sample_weight)
        settings: dict[str, Any] = {"search": None}
    else:
        search, n_samples, random_state = _resolve_cloud_search(
            search, resolution, n_samples, random_state, targets.y_score.shape
        )
        batches = threshold_batches(
            targets.y_true,
            targets.y_score,
            search=search,
            resolution=resolution,
            n_samples=n_samples,
            domain=domain,
            labels=np.arange(n_classes),
            sample_weight=targets.sample_weight,
            random_state=random_state,
            include_barycentre=include_barycentre,
        )
        taus, counts = (np.concatenate(parts) for parts in zip(*batches))
        resolution, n_samples = resolve_search(search, resolution, n_samples, n_classes, domain)
        settings = {
            "search": search,
            "resolution": resolution,
            "n_samples": n_samples,
            "domain": domain,
            "random_state": random_state,
            "include_barycentre": include_barycentre,
        }
    fpr, tpr = _rates(counts, zero_division)
    per_class, overall = _dfp_from_rates(fpr, tpr)
    argmax_counts = confusion_counts(
        targets.y_true, np.argmax(targets.y_score, axis=1), n_classes, targets.sample_weight
    )
    # A class's positives and negatives do not depend on the rule: plain argmax has the same
    # undefined rates as the clouds, already warned about.
    argmax_fpr, argmax_tpr = _rates(argmax_counts[None], zero_division, warn=False)
    curves = ovr_roc_curve(
        targets.classes[targets.y_true], targets.y_score, labels=targets.classes, sample_weight=targets.sample_weight
    )
    return RocCloud(
        classes=targets.classes,
        thresholds=taus,
        fpr=fpr,
        tpr=tpr,
        dfp=per_class,
        dfp_overall=overall,
        ovr_curves=curves,
        argmax_fpr=argmax_fpr[0],
        argmax_tpr=argmax_tpr[0],
        zero_division=zero_division,
        settings=settings,
    )
