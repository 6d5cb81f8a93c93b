"""One-vs-rest ROC and precision-recall curves of multiclass scores, and their macro average.

The scalar areas (``roc_auc_score``, ``average_precision_score``) and the binary
curves with scikit-learn's signatures live in :mod:`polyroc.metrics`.

Everything here is rank based: each score column is sorted once and the
weighted counts of positives and negatives above every distinct score come from
cumulative sums; nothing loops over thresholds.

Conventions shared by every function of this module:

- **Scores** may be any finite real numbers (probabilities, logits, decision
  values): these quantities depend only on the order of the values within each
  column. Unlike scikit-learn's multiclass ``roc_auc_score``, rows need not sum
  to 1; transform the scores first (e.g. softmax) if you want the AUC of
  another score.
- **Curves and per-class values** are those of scikit-learn's binary functions
  applied to ``y_true == k`` against ``y_score[:, k]``: same arrays, same
  handling of ties and of sample weights (samples of zero weight are dropped).
- **A class without samples** of positive weight in ``y_true`` (possible when
  ``labels`` names it) has no positives, so its ROC curve, AUC and average
  precision are undefined: they are NaN and an
  :class:`~polyroc.exceptions.UndefinedMetricWarning` is issued.
- ``y_true`` with fewer than two classes of positive weight raises ``ValueError``.
- **Sample weights** mean relative importance: multiplying them all by a
  constant changes nothing, however small or large the constant (they are
  scaled by a power of two before any sum is taken).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._engine.ranking import (
    class_counts,
    micro_counts,
    pr_points,
    roc_points,
    step_area,
    trapezoid_area,
    vertical_average,
)
from polyroc._results import Drawable
from polyroc._validation import (
    check_class_support,
    check_scores,
    describe,
    scale_weights,
)
from polyroc._validation._params import Options, validate_params
from polyroc.exceptions import UndefinedMetricWarning

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

__all__ = [
    "OvrPrecisionRecallCurves",
    "OvrRocCurves",
    "macro_roc_curve",
    "ovr_precision_recall_curve",
    "ovr_roc_curve",
]


#: True or False, compared with ``==``: 0 and 1 pass too, which ``"boolean"`` would refuse.
_TRUTH = Options((True, False))


def _by_class(classes: np.ndarray, per_class: tuple, micro: np.ndarray | None) -> dict:
    """``{label: array}`` over the classes (Python scalars as keys), plus ``"micro"`` when computed."""
    arrays = {label.item() if hasattr(label, "item") else label: array for label, array in zip(classes, per_class)}
    if micro is not None:
        arrays["micro"] = micro
    return arrays


@dataclass(frozen=True, eq=False, repr=False)
class OvrRocCurves(Drawable):
    """One-vs-rest ROC curve of each class, and the micro-average ROC curve.

    Unpacks like scikit-learn's ``roc_curve``: ``fpr, tpr, thresholds =
    ovr_roc_curve(...)`` gives three dicts keyed by class label, plus
    ``"micro"`` when the micro-average curve was computed. ``to_frame()`` has
    one row per class (and one for the micro average) with its AUC;
    ``plot()`` draws the curves.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in the order of the score columns.
    fpr, tpr, thresholds : tuple of ndarray
        One array per class, equal to those of
        ``sklearn.metrics.roc_curve(y_true == k, y_score[:, k])``: the curve
        starts at (0, 0) with ``thresholds[0] = inf``; point ``i`` classifies
        as positive the samples with score ``>= thresholds[i]``.
    auc : ndarray of shape (n_classes,)
        Area under each curve (trapezoid rule); NaN for a class without samples.
    micro_fpr, micro_tpr, micro_thresholds : ndarray or None
        The curve of every (sample, class) cell of the binarized labels against
        the raveled scores; None when computed with ``micro=False``.
    micro_auc : float
        Area under the micro-average curve (NaN with ``micro=False``).
    drop_intermediate : bool
        Whether collinear points were dropped.
    settings : dict
        The options that produced the curves (none of the shared keys apply;
        empty).

    See Also
    --------
    ovr_roc_curve : Compute the curves.
    macro_roc_curve : The macro-average curve of the classes.
    polyroc.metrics.roc_curve : The binary curve of one class, as scikit-learn.
    polyroc.plotting.RocCurveDisplay : Draw the curves.

    Examples
    --------
    >>> y = ["cat", "cat", "dog", "dog", "fox"]
    >>> scores = [[.6, .3, .1], [.3, .5, .2], [.2, .7, .1], [.4, .4, .2], [.1, .2, .7]]
    >>> curves = ovr_roc_curve(y, scores)
    >>> fpr, tpr, thresholds = curves
    >>> sorted(fpr), tpr["fox"]
    (['cat', 'dog', 'fox', 'micro'], array([0., 1., 1.]))
    >>> curves.to_frame().round(4)
       class     auc  n_points
    0    cat  0.8333         5
    1    dog  0.8333         5
    2    fox  1.0000         3
    3  micro  0.9200         7
    """

    classes: np.ndarray
    fpr: tuple
    tpr: tuple
    thresholds: tuple
    auc: np.ndarray
    micro_fpr: np.ndarray | None
    micro_tpr: np.ndarray | None
    micro_thresholds: np.ndarray | None
    micro_auc: float
    drop_intermediate: bool
    settings: dict = field(default_factory=dict)

    def __iter__(self):
        """Yield the dicts ``fpr``, ``tpr`` and ``thresholds`` keyed by class label (and ``"micro"``)."""
        yield _by_class(self.classes, self.fpr, self.micro_fpr)
        yield _by_class(self.classes, self.tpr, self.micro_tpr)
        yield _by_class(self.classes, self.thresholds, self.micro_thresholds)

    def _frame_rows(self) -> list[dict[str, Any]]:
        rows = [
            {"class": label, "auc": float(auc), "n_points": int(fpr.size)}
            for label, auc, fpr in zip(self.classes.tolist(), self.auc, self.fpr)
        ]
        if self.micro_fpr is not None:
            rows.append({"class": "micro", "auc": float(self.micro_auc), "n_points": int(self.micro_fpr.size)})
        return rows

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the curves with :class:`polyroc.plotting.RocCurveDisplay` (returned).

        The same as ``RocCurveDisplay.from_result(self, ax=ax, **kwargs)``:
        one curve per class, the micro- and macro-average curves and the
        chance line, each labelled with its AUC. ``plt.show()`` is not called.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default the Axes of a new figure.
        **kwargs
            Passed to :meth:`polyroc.plotting.RocCurveDisplay.plot`:
            ``name``, ``curve_kwargs``, ``plot_chance_level``,
            ``chance_level_kw``, ``show_classes``, ``micro`` and ``macro``.

        Returns
        -------
        polyroc.plotting.RocCurveDisplay
            The display, with the Axes ``ax_`` and Figure ``figure_`` it drew on.

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string,
            ``curve_kwargs`` or ``chance_level_kw`` is not a dict (or, for
            ``curve_kwargs``, a list of dicts), or a keyword is not one of
            those listed.
        ValueError
            If ``curve_kwargs`` is a list whose length is not the number of
            classes.
        AttributeError
            From matplotlib, if ``curve_kwargs`` or ``chance_level_kw`` holds
            a keyword that a matplotlib ``Line2D`` does not take.

        See Also
        --------
        polyroc.plotting.RocCurveDisplay.from_predictions : Compute the curves and draw them in one call.
        macro_roc_curve : The macro-average curve that is drawn.

        Examples
        --------
        >>> curves = ovr_roc_curve([0, 1, 2, 2], [[.5, .3, .2], [.2, .6, .2], [.1, .3, .6], [.3, .3, .4]])
        >>> display = curves.plot(name="model")
        >>> type(display).__name__, display.ax_.get_title()
        ('RocCurveDisplay', 'model: one-vs-rest ROC curves')
        >>> import matplotlib.pyplot as plt; plt.close(display.figure_)
        """
        return super().plot(ax, **kwargs)


@dataclass(frozen=True, eq=False, repr=False)
class OvrPrecisionRecallCurves(Drawable):
    """One-vs-rest precision-recall curve of each class, and the micro-average curve.

    Unpacks like scikit-learn's ``precision_recall_curve``: ``precision,
    recall, thresholds = ovr_precision_recall_curve(...)`` gives three dicts
    keyed by class label, plus ``"micro"``. ``to_frame()`` has one row per
    class (and one for the micro average) with its average precision;
    ``plot()`` draws the curves.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        The class labels, in the order of the score columns.
    precision, recall, thresholds : tuple of ndarray
        One array per class, equal to those of
        ``sklearn.metrics.precision_recall_curve(y_true == k, y_score[:, k])``:
        thresholds increase, recall decreases, and the last point is
        (recall 0, precision 1) without a threshold.
    average_precision : ndarray of shape (n_classes,)
        Average precision of each class; NaN for a class without samples.
    micro_precision, micro_recall, micro_thresholds : ndarray
        The curve of every (sample, class) cell of the binarized labels against
        the raveled scores.
    micro_average_precision : float
        Average precision of the micro-average curve.
    drop_intermediate : bool
        Whether points that do not change the recall were dropped.
    settings : dict
        The options that produced the curves (none of the shared keys apply;
        empty).

    See Also
    --------
    ovr_precision_recall_curve : Compute the curves.
    polyroc.metrics.precision_recall_curve : The binary curve of one class, as scikit-learn.
    polyroc.metrics.average_precision_score : The average precision of binary or multiclass scores.
    polyroc.plotting.PrecisionRecallDisplay : Draw the curves.

    Examples
    --------
    >>> y = ["cat", "cat", "dog", "dog", "fox"]
    >>> scores = [[.6, .3, .1], [.3, .5, .2], [.2, .7, .1], [.4, .4, .2], [.1, .2, .7]]
    >>> curves = ovr_precision_recall_curve(y, scores)
    >>> precision, recall, thresholds = curves
    >>> recall["fox"], precision["fox"].round(4)
    (array([1., 1., 1., 0.]), array([0.2   , 0.3333, 1.    , 1.    ]))
    >>> curves.to_frame().round(4)
       class  average_precision  n_points
    0    cat             0.8333         6
    1    dog             0.8333         6
    2    fox             1.0000         4
    3  micro             0.8583         8
    """

    classes: np.ndarray
    precision: tuple
    recall: tuple
    thresholds: tuple
    average_precision: np.ndarray
    micro_precision: np.ndarray
    micro_recall: np.ndarray
    micro_thresholds: np.ndarray
    micro_average_precision: float
    drop_intermediate: bool
    settings: dict = field(default_factory=dict)

    def __iter__(self):
        """Yield the dicts ``precision``, ``recall`` and ``thresholds`` keyed by class label (and ``"micro"``)."""
        yield _by_class(self.classes, self.precision, self.micro_precision)
        yield _by_class(self.classes, self.recall, self.micro_recall)
        yield _by_class(self.classes, self.thresholds, self.micro_thresholds)

    def _frame_rows(self) -> list[dict[str, Any]]:
        rows = [
            {"class": label, "average_precision": float(value), "n_points": int(precision.size)}
            for label, value, precision in zip(self.classes.tolist(), self.average_precision, self.precision)
        ]
        rows.append(
            {
                "class": "micro",
                "average_precision": float(self.micro_average_precision),
                "n_points": int(self.micro_precision.size),
            }
        )
        return rows

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the curves with :class:`polyroc.plotting.PrecisionRecallDisplay` (returned).

        The same as ``PrecisionRecallDisplay.from_result(self, ax=ax,
        **kwargs)``: one curve per class, the micro-average curve and each
        class's prevalence, labelled with the average precisions.
        ``plt.show()`` is not called.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default the Axes of a new figure.
        **kwargs
            Passed to :meth:`polyroc.plotting.PrecisionRecallDisplay.plot`:
            ``name``, ``curve_kwargs``, ``plot_chance_level``,
            ``chance_level_kw`` and ``micro``.

        Returns
        -------
        polyroc.plotting.PrecisionRecallDisplay
            The display, with the Axes ``ax_`` and Figure ``figure_`` it drew on.

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string,
            ``curve_kwargs`` or ``chance_level_kw`` is not a dict (or, for
            ``curve_kwargs``, a list of dicts), or a keyword is not one of
            those listed.
        ValueError
            If ``curve_kwargs`` is a list whose length is not the number of
            classes.
        AttributeError
            From matplotlib, if ``curve_kwargs`` or ``chance_level_kw`` holds
            a keyword that a matplotlib ``Line2D`` does not take.

        See Also
        --------
        polyroc.plotting.PrecisionRecallDisplay.from_predictions : Compute the curves and draw them in one call.
        OvrRocCurves.plot : Draw the ROC curves of the same scores.

        Examples
        --------
        >>> curves = ovr_precision_recall_curve([0, 1, 2, 2], [[.5, .3, .2], [.2, .6, .2], [.1, .3, .6], [.3, .3, .4]])
        >>> display = curves.plot(name="model")
        >>> type(display).__name__, display.ax_.get_title()
        ('PrecisionRecallDisplay', 'model: one-vs-rest precision-recall curves')
        >>> import matplotlib.pyplot as plt; plt.close(display.figure_)
        """
        return super().plot(ax, **kwargs)


@validate_params({"drop_intermediate": [_TRUTH], "micro": [_TRUTH]})
def ovr_roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = True,
    micro: bool = True,
) -> OvrRocCurves:
    """One-vs-rest ROC curve of every class, plus the micro-average curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; any finite
        real values (see the module notes).
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the columns of ``y_score``. Default: the
        sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=True
        Drop the points that lie on a straight segment between their
        neighbours, as scikit-learn does; they do not change the curve.
    micro : bool, default=True
        Also compute the micro-average curve (one sort of all n × m scores,
        the most expensive part); ``False`` leaves its fields None / NaN.

    Returns
    -------
    OvrRocCurves
        Per-class ``fpr``, ``tpr``, ``thresholds`` and ``auc``, and the
        micro-average curve.

    Raises
    ------
    ValueError
        If ``y_true`` and ``y_score`` differ in length or are empty;
        ``y_score`` is not 2-D or holds NaN or infinity; its column count
        differs from the number of classes (those of ``labels``, else of
        ``y_true``); ``y_score`` is a DataFrame whose column names are some
        of the classes but not all; ``y_true`` holds a label outside
        ``labels``, or ``labels`` repeats a label or names fewer than 2
        classes;
        ``sample_weight`` has the wrong length, holds negative or
        non-finite values or sums past the float64 range; fewer than two classes have samples of positive
        weight in ``y_true``; or ``drop_intermediate`` or ``micro`` is not a
        bool.
    TypeError
        Non-numeric ``y_score`` or ``sample_weight``, or labels of mixed kinds.

    Warns
    -----
    UndefinedMetricWarning
        A class of ``labels`` has no samples; its ``tpr`` and ``auc`` are NaN.

    See Also
    --------
    OvrRocCurves : The result, with its ``to_frame`` and ``plot``.
    macro_roc_curve : The macro-average curve of the classes.
    polyroc.metrics.roc_auc_score : The one-vs-rest or one-vs-one AUC as a number.
    polyroc.intervals.roc_auc_interval : An AUC with DeLong's confidence interval.

    Examples
    --------
    >>> y = ["cat", "cat", "dog", "dog"]
    >>> scores = [[0.9, 0.1], [0.4, 0.6], [0.65, 0.35], [0.2, 0.8]]
    >>> curves = ovr_roc_curve(y, scores)
    >>> curves.fpr[1], curves.tpr[1]
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    >>> curves.thresholds[1]
    array([ inf, 0.8 , 0.6 , 0.35, 0.1 ])
    >>> curves.auc
    array([0.75, 0.75])
    >>> fpr, tpr, thresholds = curves
    >>> sorted(fpr), tpr["dog"]
    (['cat', 'dog', 'micro'], array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    counts = class_counts(y, scores, weights)
    per_class = [roc_points(*class_counts, drop_intermediate) for class_counts in counts]
    micro_curve = roc_points(*micro_counts(y, scores, weights), drop_intermediate) if micro else (None,) * 3
    _warn_undefined(classes, support, "ROC curve")
    return roc_curves_result(classes, per_class, micro_curve, drop_intermediate)


def roc_curves_result(classes, per_class, micro, drop_intermediate, settings=None) -> OvrRocCurves:
    """:class:`OvrRocCurves` of per-class (fpr, tpr, thresholds) and the micro curve (or three None), with areas."""
    fpr, tpr, thresholds = zip(*per_class)
    return OvrRocCurves(
        classes=classes,
        fpr=fpr,
        tpr=tpr,
        thresholds=thresholds,
        auc=np.array([trapezoid_area(f, t) for f, t in zip(fpr, tpr)]),
        micro_fpr=micro[0],
        micro_tpr=micro[1],
        micro_thresholds=micro[2],
        micro_auc=np.nan if micro[0] is None else trapezoid_area(micro[0], micro[1]),
        drop_intermediate=drop_intermediate,
        settings={} if settings is None else settings,
    )


@validate_params({"drop_intermediate": [_TRUTH]})
def ovr_precision_recall_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    drop_intermediate: bool = False,
) -> OvrPrecisionRecallCurves:
    """One-vs-rest precision-recall curve of every class, plus the micro-average curve.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Scores, one column per class in the order of ``labels``; any finite
        real values.
    labels : array-like of shape (n_classes,), default=None
        The classes, in the order of the columns of ``y_score``. Default: the
        sorted unique values of ``y_true``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights.
    drop_intermediate : bool, default=False
        Keep only the first and last point of each run of equal recall, as
        scikit-learn does.

    Returns
    -------
    OvrPrecisionRecallCurves
        Per-class ``precision``, ``recall``, ``thresholds`` and
        ``average_precision``, and the micro-average curve. A point where no
        sample is predicted positive has precision 0, as in scikit-learn.

    Raises
    ------
    ValueError
        Bad ``y_true``, ``y_score``, ``labels`` or ``sample_weight`` (as
        :func:`ovr_roc_curve`); ``y_score`` is a DataFrame whose column
        names are some of the classes but not all; fewer than two classes with samples of
        positive weight in ``y_true``, or ``drop_intermediate`` not a bool.
    TypeError
        Non-numeric ``y_score`` or ``sample_weight``, or labels of mixed kinds.

    Warns
    -----
    UndefinedMetricWarning
        A class of ``labels`` has no samples; its ``recall`` and
        ``average_precision`` are NaN.

    See Also
    --------
    OvrPrecisionRecallCurves : The result, with its ``to_frame`` and ``plot``.
    ovr_roc_curve : The one-vs-rest ROC curves of the same scores.
    polyroc.metrics.average_precision_score : The average precision as a number.

    Examples
    --------
    >>> y = [0, 0, 1, 1]
    >>> scores = [[0.9, 0.1], [0.6, 0.4], [0.65, 0.35], [0.2, 0.8]]
    >>> curves = ovr_precision_recall_curve(y, scores)
    >>> curves.precision[1]
    array([0.5       , 0.66666667, 0.5       , 1.        , 1.        ])
    >>> curves.recall[1]
    array([1. , 1. , 0.5, 0.5, 0. ])
    >>> curves.thresholds[1]
    array([0.1 , 0.35, 0.4 , 0.8 ])
    >>> curves.average_precision
    array([0.83333333, 0.83333333])
    >>> precision, recall, thresholds = curves
    >>> recall[1]
    array([1. , 1. , 0.5, 0.5, 0. ])
    """
    y, scores, classes, weights, support = _checked(y_true, y_score, labels, sample_weight)
    counts = class_counts(y, scores, weights)
    per_class = [pr_points(*class_counts, drop_intermediate) for class_counts in counts]
    micro = pr_points(*micro_counts(y, scores, weights), drop_intermediate)
    _warn_undefined(classes, support, "precision-recall curve")
    precision, recall, thresholds = zip(*per_class)
    return OvrPrecisionRecallCurves(
        classes=classes,
        precision=precision,
        recall=recall,
        thresholds=thresholds,
        average_precision=np.array([step_area(p, r) for p, r in zip(precision, recall)]),
        micro_precision=micro[0],
        micro_recall=micro[1],
        micro_thresholds=micro[2],
        micro_average_precision=step_area(micro[0], micro[1]),
        drop_intermediate=drop_intermediate,
    )


def _checked(y_true, y_score, labels, sample_weight):
    """Validated (encoded y_true, scores, classes, weights, weighted support per class).

    The weights are scaled by a power of two (:func:`polyroc._validation.scale_weights`):
    every output of this module is a ratio of weighted counts, unchanged by
    the scaling, and the sums and products of class weights stay finite for
    weights of any scale.
    """
    y, scores, classes, weights = check_scores(
        y_true, y_score, labels=labels, sample_weight=sample_weight, require_simplex=False
    )
    weights = scale_weights(weights).weights
    return y, scores, classes, weights, check_class_support(y, classes, weights)


def _warn_undefined(classes, support, what):
    absent = classes[support == 0]
    if absent.size:
        _warnings.warn(
            f"labels {describe(absent)} have no samples of positive weight in y_true; "
            f"their {what} is undefined (NaN) and left out of averages",
            UndefinedMetricWarning,
        )


@validate_params({"curves": [OvrRocCurves]})
def macro_roc_curve(curves: OvrRocCurves) -> tuple[np.ndarray, np.ndarray, float]:
    """Macro-average ROC curve: the mean TPR of the classes on the union FPR grid.

    The grid is the union of the FPR values of every class with samples. At
    each grid value the curve has two points, the mean over classes of their
    lowest and of their highest TPR there (they differ where some class's
    curve is vertical); in between, each class's curve is linear, so the mean
    is exact (no resampling on a fixed grid) and its area equals the mean of
    the per-class AUCs, i.e. ``roc_auc_score(multi_class="ovr")`` of :mod:`polyroc.metrics`. Classes without
    samples (NaN curve) are left out.

    Parameters
    ----------
    curves : OvrRocCurves
        From :func:`polyroc.curves.ovr_roc_curve`.

    Returns
    -------
    fpr, tpr : ndarray
        The curve, from (0, 0) to (1, 1).
    auc : float
        Its area (trapezoid rule).

    Raises
    ------
    TypeError
        If ``curves`` is not an :class:`OvrRocCurves`.

    See Also
    --------
    ovr_roc_curve : The per-class curves this averages.
    polyroc.metrics.roc_auc_score : ``multi_class="ovr"``, the area of this curve.

    Examples
    --------
    >>> from polyroc.curves import ovr_roc_curve
    >>> curves = ovr_roc_curve([0, 0, 1, 1, 2, 2], [[.6, .3, .1], [.3, .4, .3], [.2, .5, .3],
    ...                                         [.4, .4, .2], [.1, .2, .7], [.3, .3, .4]])
    >>> fpr, tpr, auc = macro_roc_curve(curves)
    >>> round(auc, 6) == round(float(curves.auc.mean()), 6)
    True
    """
    defined = ~np.isnan(curves.auc)
    weights = np.where(defined, 1.0 / defined.sum(), 0.0)
    fpr, tpr, _ = vertical_average(curves.fpr, curves.tpr, weights)
    return fpr, tpr, trapezoid_area(fpr, tpr)
