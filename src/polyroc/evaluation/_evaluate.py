"""The :class:`Evaluation` result and :func:`evaluate` (public path: :mod:`polyroc.evaluation`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from polyroc import _warnings
from polyroc._results import Drawable, frame, html_table, interval_cells, interval_table
from polyroc._results import interval_method_text as _method_text
from polyroc._validation import (
    as_array,
    check_scores,
    scale_weights,
    score_column_names,
)
from polyroc._validation._params import ConstraintLike, Interval, Options, validate_params
from polyroc.evaluation._analytic import ScoredSample, analytic_intervals, delong_intervals
from polyroc.evaluation._calibration import ece_intervals
from polyroc.evaluation._class_auc import CLASS_AUC, class_auc_intervals_of, wants_class_aucs
from polyroc.evaluation._plan import QUANTITY_METHODS, CiChoice, planned_intervals
from polyroc.evaluation._priors import Deployment
from polyroc.evaluation._replicates import bootstrap_replicates as _bootstrap_replicates
from polyroc.evaluation._replicates import ranking_name as _ranking_name
from polyroc.evaluation._summary import (
    CLASS_SCORES,
    COUNTS_SCORES,
    SummaryStatistics,
    class_scores,
    evaluation_fields,
    row_losses,
    summary_values,
)
from polyroc.exceptions import IntervalWarning
from polyroc.intervals._calibration_draws import ECE_METHOD, ECE_SCORES
from polyroc.intervals._delong import DELONG_TIES, ranked_influences
from polyroc.intervals._resampling import (
    CONFIDENCE,
    ConfidenceInterval,
    degenerate_interval,
    is_zero_width,
)
from polyroc.metrics import roc_auc_score
from polyroc.metrics._ranking import encoded_ranking_scores
from polyroc.metrics._scores import machine_epsilon

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from polyroc.plotting import Display

__all__ = ["Evaluation", "evaluate"]

#: The AUCs of the summary: (multi_class, average).
RANKING_SCORES = (("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovo", "macro"))

#: Their names in :attr:`Evaluation.scores`.
AUC_SCORES = tuple(f"roc_auc_{multi_class}_{average}" for multi_class, average in RANKING_SCORES)

#: The method of an AUC interval that the statistics of an evaluation without its rows cannot give.
DELONG_UNAVAILABLE = "none: DeLong's variance needs each row's scores together, which a stream does not keep"


@dataclass(frozen=True, eq=False, repr=False)
class Evaluation(Drawable):
    """Standard metrics of a score matrix, its argmax predictions and its rankings.

    Attributes
    ----------
    classes : tuple
        The class labels, in the order of the score columns.
    confusion_matrix : ndarray of shape (m, m)
        Sums of sample weights of (true, argmax-predicted) classes.
    report : dict
        :func:`polyroc.metrics.classification_report` of the argmax
        predictions (``output_dict=True``).
    report_text : str
        The same report as text.
    scores : dict
        Score name -> value: accuracy, balanced accuracy, macro-F1, Cohen's
        kappa, MCC, OvR macro/weighted/micro and OvO (Hand & Till) macro ROC
        AUC, log loss, Brier score, (m > 2) top-2 accuracy, and the binned
        calibration errors ``"ece_top_label"`` and ``"ece_classwise"``
        (:func:`polyroc.calibration.calibration_error`, l1, 15 uniform bins);
        with a cost matrix, ``"expected_cost"`` (lower is better).
    intervals : dict
        Each name of ``scores`` -> its
        :class:`~polyroc.resampling.ConfidenceInterval`, which names its
        method; empty when ``n_boot=0``.
    class_intervals : dict
        "precision", "recall" and "f1-score" -> class label -> its
        :class:`~polyroc.resampling.ConfidenceInterval`; empty when
        ``n_boot=0``. When DeLong bounds the AUCs, also ``"roc_auc"``: each
        class's one-vs-rest AUC with DeLong's logit interval of that binary
        problem (as :func:`polyroc.intervals.roc_auc_interval` with
        ``average=None``; not from a stream or a cluster, which keep no rows).
    settings : dict
        ``"n_boot"``, ``"confidence"``, ``"random_state"`` (as given),
        ``"ci"`` (as given), ``"interval_methods"`` (score name -> how its
        interval was made; empty without intervals), ``"normalize_rows"``
        and ``"from_logits"``; with a cost matrix ``"cost_matrix"``, with
        target priors ``"target_priors"`` and ``"evaluated_priors"`` (class ->
        prior).

    See Also
    --------
    evaluate : Make an Evaluation from labels and a score matrix.
    polyroc.resampling.ConfidenceInterval : The type of every interval.
    polyroc.comparison.compare_scores : Compare several models on the same rows.

    Notes
    -----
    :meth:`to_frame` gives one row per score (``score``, ``estimate``,
    ``low``, ``high``, ``method``); ``to_frame(per_class=True)`` one row per
    class (``class``, ``support``, then each per-class score with its
    ``_low`` and ``_high`` bounds). Without intervals the bounds are NaN.

    Examples
    --------
    >>> y = ["a", "b", "c", "c"]
    >>> P = [[.8, .1, .1], [.2, .7, .1], [.1, .2, .7], [.5, .1, .4]]
    >>> result = evaluate(y, P, n_boot=0)
    >>> result.classes
    ('a', 'b', 'c')
    >>> result.confusion_matrix
    array([[1, 0, 0],
           [0, 1, 0],
           [1, 0, 1]])
    >>> result.report["c"]["recall"], {name: round(value, 4) for name, value in result.scores.items() if "ovr" in name}
    (0.5, {'roc_auc_ovr_macro': 1.0, 'roc_auc_ovr_weighted': 1.0, 'roc_auc_ovr_micro': 0.9688})
    """

    classes: tuple
    confusion_matrix: np.ndarray
    report: dict[str, Any]
    report_text: str
    scores: dict[str, float]
    intervals: dict[str, ConfidenceInterval] = field(default_factory=dict)
    class_intervals: dict[str, dict[Any, ConfidenceInterval]] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)

    def to_frame(self, *, per_class: bool = False) -> pd.DataFrame:
        """The scores (or, with ``per_class=True``, the per-class scores) as a pandas DataFrame.

        Parameters
        ----------
        per_class : bool, default=False
            False: one row per score with its estimate, interval bounds and
            interval method. True: one row per class with its support and its
            precision, recall and F1 (argmax predictions), each with its bounds,
            and with DeLong's per-class intervals its one-vs-rest AUC
            (``roc_auc``, ``roc_auc_low``, ``roc_auc_high``).

        Returns
        -------
        pandas.DataFrame

        Raises
        ------
        ImportError
            If pandas is not installed (``pip install pandas``).

        See Also
        --------
        to_text : The same numbers as plain text.
        polyroc.resampling.ConfidenceInterval : The intervals whose bounds fill the ``low`` and ``high`` columns.

        Examples
        --------
        >>> result = evaluate([0, 1, 1, 0], [[.7, .3], [.4, .6], [.2, .8], [.6, .4]], n_boot=0)
        >>> result.to_frame().loc[0, "score"], float(result.to_frame().loc[0, "estimate"])
        ('accuracy', 1.0)
        >>> result.to_frame(per_class=True)[["class", "support", "recall"]]
           class  support  recall
        0      0      2.0     1.0
        1      1      2.0     1.0
        """
        if not per_class:
            return super().to_frame()
        return frame(self._class_rows(), "Evaluation.to_frame")

    def _frame_rows(self) -> list[dict[str, Any]]:
        """One row per score: its estimate, interval bounds and interval method."""
        rows = []
        for name, value in self.scores.items():
            interval = self.intervals.get(name)
            rows.append(
                {
                    "score": name,
                    "estimate": value,
                    **_bounds(interval),
                    "method": None if interval is None else interval.method,
                }
            )
        return rows

    def _class_rows(self) -> list[dict[str, Any]]:
        """One row per class: its support, and each per-class score with its bounds."""
        rows = []
        for label in self.classes:
            entry = self.report[str(label)]
            row = {"class": label, "support": float(entry["support"])}
            for name in CLASS_SCORES:
                interval = self.class_intervals.get(name, {}).get(label)
                bounds = _bounds(interval)
                row.update({name: float(entry[name]), f"{name}_low": bounds["low"], f"{name}_high": bounds["high"]})
            if CLASS_AUC in self.class_intervals:  # DeLong's per-class AUCs
                interval = self.class_intervals[CLASS_AUC][label]
                low_high = {f"{CLASS_AUC}_{side}": bound for side, bound in _bounds(interval).items()}
                row.update({CLASS_AUC: interval.estimate, **low_high})
            rows.append(row)
        return rows

    def _summary(self) -> dict[str, Any]:
        """The classes and every score, for ``_repr_html_``."""
        return {"classes": list(self.classes), **self.scores}

    def _view_sections(self) -> list[str]:
        """The scores with their intervals and methods, the per-class table, the confusion matrix."""
        rows = [(name, value, self.intervals.get(name)) for name, value in self.scores.items()]
        extra = [CLASS_AUC] if CLASS_AUC in self.class_intervals else []
        class_header = ["class", "support", *CLASS_SCORES, *extra]
        class_rows = []
        for label in self.classes:
            entry = self.report[str(label)]
            cells = []
            for name in CLASS_SCORES:
                interval = self.class_intervals.get(name, {}).get(label)
                cells.append(entry[name] if interval is None else " ".join(interval_cells(interval)[:2]))
            cells += [" ".join(interval_cells(self.class_intervals[name][label])[:2]) for name in extra]
            class_rows.append([label, f"{entry['support']:g}", *cells])
        methods = dict.fromkeys(
            f"{name}: {_method_text(i)}" for name, by_class in self.class_intervals.items() for i in by_class.values()
        )
        class_note = f"Estimate [{self._percent()} CI]; " + "; ".join(methods) if methods else None
        matrix_rows = [[label, *row] for label, row in zip(self.classes, self.confusion_matrix)]
        return [
            interval_table(rows, "Scores", "score", why="none (n_boot=0)"),
            html_table(class_rows, class_header, "Per class (argmax predictions)", note=class_note),
            html_table(matrix_rows, ["true \\ predicted", *self.classes], "Confusion matrix"),
        ]

    def _view_notes(self) -> list[str]:
        if self.intervals:
            return []
        return ["No intervals: made with n_boot=0 or ci='none' (evaluate(..., n_boot=1000) gives them)."]

    def plot(self, ax: Axes | None = None, **kwargs: Any) -> Display:
        """Draw the confusion matrix of the argmax predictions (:class:`polyroc.plotting.ConfusionMatrixDisplay`).

        The evaluation keeps the counts, not the scores: the curves are drawn
        from the data (:func:`polyroc.curves.ovr_roc_curve` and its ``plot``).

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            Where to draw; default a new figure.
        **kwargs
            Passed to :meth:`polyroc.plotting.ConfusionMatrixDisplay.plot` (``name=``, ``cmap=`` ...).

        Returns
        -------
        polyroc.plotting.ConfusionMatrixDisplay

        Raises
        ------
        TypeError
            If ``ax`` is not a matplotlib Axes, ``name`` is not a string, or a
            keyword is not an option of ``ConfusionMatrixDisplay.plot``.

        See Also
        --------
        polyroc.plotting.ConfusionMatrixDisplay : The Display it builds.
        polyroc.plotting.RocCurveDisplay.from_predictions : The one-vs-rest ROC curves of the same scores.

        Examples
        --------
        >>> display = evaluate([0, 1, 1], [[.8, .2], [.3, .7], [.6, .4]], n_boot=0).plot()
        >>> display.im_.get_array().tolist()
        [[1, 0], [1, 1]]
        >>> import matplotlib.pyplot as plt; plt.close(display.figure_)
        """
        return super().plot(ax, **kwargs)

    def to_text(self) -> str:
        """Render the evaluation as plain text (report, scores, confusion matrix).

        With bootstrap intervals each score reads ``estimate [low, high]``, and
        a table of the per-class intervals follows the scores.

        Returns
        -------
        str

        See Also
        --------
        to_frame : The scores and their bounds as a DataFrame.
        polyroc.metrics.classification_report : The report that opens the text.
        polyroc.report.build_report : An HTML report of the same evaluation, with curves.

        Examples
        --------
        >>> print(evaluate([0, 1], [[.8, .2], [.3, .7]], n_boot=0).to_text().splitlines()[0])
        Classification report (argmax predictions)
        """
        return "\n".join(
            [
                "Classification report (argmax predictions)",
                "",
                self.report_text.rstrip(),
                "",
                *self._score_lines(),
                "",
                *self._class_interval_lines(),
                "Confusion matrix (rows: true, columns: predicted)",
                "",
                *self._matrix_lines(),
            ]
        )

    def _score_lines(self) -> list[str]:
        name_width = max(len(name) for name in self.scores)
        if not self.intervals:
            return ["Scores", "", *(f"{name.ljust(name_width)}  {value:.4f}" for name, value in self.scores.items())]
        texts = {name: _interval_text(self.intervals[name]) for name in self.scores}
        text_width = max(len(text) for text in texts.values())
        return [
            f"Scores: estimate [{self._percent()} CI], interval method",
            "",
            *(
                f"{name.ljust(name_width)}  {texts[name].ljust(text_width)}  {_method_text(self.intervals[name])}"
                for name in self.scores
            ),
        ]

    def _class_interval_lines(self) -> list[str]:
        if not self.class_intervals:
            return []
        first = max(len("class"), *(len(str(c)) for c in self.classes)) + 2
        texts = [
            [_interval_text(by_class[label]) for by_class in self.class_intervals.values()] for label in self.classes
        ]
        cell = max(len(text) for row in texts for text in row) + 2
        header = "class".ljust(first) + "".join(name.rjust(cell) for name in self.class_intervals)
        rows = [
            str(label).ljust(first) + "".join(text.rjust(cell) for text in row)
            for label, row in zip(self.classes, texts)
        ]
        methods = []
        for name, by_class in self.class_intervals.items():
            # method -> its classes: a degenerate interval's method differs from the others'
            classes_of: dict[str, list[str]] = {}
            for label, interval in by_class.items():
                classes_of.setdefault(_method_text(interval), []).append(str(label))
            if len(classes_of) == 1:
                methods.append(f"  {name}: {next(iter(classes_of))}")
                continue
            methods += [f"  {name} (class {', '.join(labels)}): {method}" for method, labels in classes_of.items()]
        return [f"Per-class scores: estimate [{self._percent()} CI]", "", header, *rows, "", *methods, ""]

    def _percent(self) -> str:
        return f"{100 * next(iter(self.intervals.values())).confidence:g}%"

    def _matrix_lines(self) -> list[str]:
        corner = "true\\pred"
        first = max(len(corner), *(len(str(c)) for c in self.classes)) + 2
        cell = max(len(str(c)) for c in self.classes) + 2
        cell = max(cell, len(f"{self.confusion_matrix.max():g}") + 2)
        header = corner.ljust(first) + "".join(str(c).rjust(cell) for c in self.classes)
        return [header] + [
            str(c).ljust(first) + "".join(f"{v:g}".rjust(cell) for v in row)
            for c, row in zip(self.classes, self.confusion_matrix)
        ]


def _bounds(interval: ConfidenceInterval | None) -> dict[str, float]:
    """``{"low", "high"}`` of an interval; NaN without one."""
    if interval is None:
        return {"low": float("nan"), "high": float("nan")}
    return {"low": interval.low, "high": interval.high}


def _interval_text(interval: ConfidenceInterval) -> str:
    return f"{interval.estimate:.4f} [{interval.low:.4f}, {interval.high:.4f}]"


#: The declared constraints of :func:`evaluate`'s options.
EVALUATE_PARAMS: dict[str, list[ConstraintLike]] = {
    "normalize_rows": [Options((True, False))],
    "from_logits": [Options((True, False))],
    "digits": [Interval("integer", 0, None, closed="left")],
    "n_boot": [Interval("integer", 0, None, closed="left")],
    "confidence": [CONFIDENCE],
    "random_state": ["random_state"],
}


@validate_params(EVALUATE_PARAMS)
def evaluate(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize_rows: bool = False,
    from_logits: bool = False,
    digits: int = 3,
    ci: CiChoice | Mapping[str, str] = "auto",
    n_boot: int = 1000,
    confidence: float = 0.95,
    random_state: int | np.random.Generator | None = None,
    cost_matrix: ArrayLike | None = None,
    target_priors: ArrayLike | Mapping[Any, float] | None = None,
) -> Evaluation:
    """Evaluate a score matrix: argmax report, confusion matrix and ranking AUCs, with intervals.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (numbers or strings).
    y_score : array-like of shape (n_samples, n_classes)
        Class probabilities, columns in the order of ``labels``. A pandas
        DataFrame whose column names are the class labels (in any order) has
        each column taken by its name; other column names pair the columns
        with the classes by position.
    labels : array-like, default=None
        Class order of the columns (any order); default the sorted unique
        values of ``y_true``. The results list the classes in this order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative weights of relative importance: multiplying them all by
        a constant changes no score.
    normalize_rows : bool, default=False
        Rescale rows to sum 1 before evaluating.
    from_logits : bool, default=False
        Map the rows (logits) through softmax before evaluating.
    digits : int, default=3
        Digits of the text report.
    ci : {"auto", "analytic", "bayes", "bootstrap", "none"} or mapping, default="auto"
        How each interval is made. ``"auto"``: per kind of quantity the
        method that keeps its coverage (the coverage study in the
        documentation): the Wilson score interval for accuracy, top-2
        accuracy and per-class recall (Kish's effective sample size under
        sample weights); the Dirichlet posterior over the rows of the
        confusion matrix for precision, F1, macro-F1, balanced accuracy,
        kappa and MCC; DeLong's variance on the logit scale for the AUCs; a
        Student t interval from the stratified variance for log loss and Brier
        score, from the plain variance for the expected cost; for the two ECEs, draws of their calibration bins
        (``"bin-draws"``: each bin's gap around its binomial spread, the
        bins' shares from a Dirichlet, Kish's effective sizes), read as the
        basic interval (its upper end taking back half its bias correction)
        joined with the test inversion along the debiased gaps, which keeps
        its coverage where the model is calibrated and the ECE's upward bias
        is largest (the documentation's intervals page).
        ``"analytic"`` is the same choice; ``"bayes"`` also takes the
        posterior for accuracy and recall; ``"bootstrap"``: the stratified
        percentile bootstrap for everything. A mapping gives quantities
        (score names, or ``"precision"``, ``"recall"``, ``"f1-score"``) their
        method: ``"wilson"``, ``"clopper-pearson"``, ``"bayes"``,
        ``"delong"``, ``"t"``, ``"bin-draws"`` or ``"bootstrap"``; the others take the
        ``"auto"`` choice. Each interval names its method. ``"none"``: no
        interval at all, as ``n_boot=0`` (the command line's ``--ci none``).
    n_boot : int, default=1000
        Bootstrap replicates, and draws of the posterior and of the
        calibration bins, for the intervals that use them; 0 computes no
        interval at all. Replicates are drawn
        within each class (:func:`polyroc.resampling.bootstrap_multiplicities`)
        and weight each sample by its multiplicity times its sample weight.
    confidence : float, default=0.95
        Level of the two-sided intervals, in (0, 1).
    random_state : None, int or numpy.random.Generator, default=None
        Seed of the bootstrap and of the posterior draws; the same seed gives
        the same intervals.
    cost_matrix : array-like or pandas.DataFrame of shape (m, m), default=None
        ``cost_matrix[i, j]``: the cost of deciding class j when the class is
        i (rows and columns in class order, or a DataFrame labelled by the
        classes); finite and non-negative. Adds ``scores["expected_cost"]``,
        the weighted mean of ``cost_matrix[true, argmax]`` (lower is better;
        :func:`polyroc.decisions.expected_cost` of the argmax decisions), with
        the t interval of its plain variance (``"t"``, ``"t interval (plain
        variance)"``: all rows one stratum, s^2 / n without weights, as the
        rows are an i.i.d. sample whose class counts vary too; at
        ``target_priors``, which fix the class shares, the stratified
        variance), or ``"bootstrap"`` (the stratified percentile bootstrap,
        conditional on the class counts like the other bootstrap intervals,
        and narrower than the t interval when costs differ much between
        classes).
    target_priors : array-like of shape (m,), mapping or pandas.Series, default=None
        Class priors of deployment (a distribution, in class order or keyed by
        the classes): every quantity is evaluated at them, each row of class
        k weighted by ``target_priors[k] / share_k`` (``share_k`` the weighted
        share of class k in the rows) on top of its sample weight. Per-class
        recall and per-class mean losses do not change; accuracy becomes
        ``sum_k target_priors[k] * recall_k``; precision, F1, kappa, MCC, the
        expected cost, the ECEs and the one-vs-rest and micro AUCs move; the
        one-vs-one AUCs do not. The intervals are those of the reweighted
        rows, conditional on the class totals like every interval here.
        The confusion matrix and the report's supports then hold reweighted
        weights.

    Returns
    -------
    Evaluation
        Its ``confusion_matrix`` and the supports of its ``report`` hold
        sums of sample weights, as scikit-learn's. Its ``scores`` end with
        ``"ece_top_label"`` and ``"ece_classwise"``, equal to
        ``calibration_error(y_true, y_score, kind="top-label")`` and
        ``kind="classwise"`` on the same rows and weights. With ``intervals`` for
        every score and ``class_intervals`` for the per-class precision,
        recall and F1 when ``n_boot > 0`` (and each class's one-vs-rest
        AUC, ``"roc_auc"``, when DeLong bounds the AUCs). A replicate
        where a ratio is 0/0 counts it as 0, as the report does; replicates
        where an AUC is undefined are left out of its interval.

    Raises
    ------
    ValueError
        If ``y_true`` and ``y_score`` differ in length or are empty;
        ``y_score`` is not 2-D with at least 2 columns, holds NaN or
        infinity, or (without ``normalize_rows`` or ``from_logits``) has
        negative values or rows that do not sum to 1; a row sums to 0 with
        ``normalize_rows=True``; both ``normalize_rows`` and
        ``from_logits`` are True; the column count differs from the number
        of classes (those of ``labels``, else of ``y_true``); ``y_true``
        holds missing values or a label outside ``labels``; ``labels``
        repeats a label or names fewer than 2; ``cost_matrix`` is not (m, m),
        holds NaN, infinity or negative entries, or (a DataFrame) is not
        labelled by the classes; ``target_priors`` is not a distribution over
        the classes (wrong length, NaN, negative, not summing to 1, keys other
        than the classes) or gives a positive prior to a class without rows
        of positive weight; ``y_score`` is a DataFrame
        whose column names are some of the classes but not all; ``sample_weight`` has the
        wrong length, holds negative or non-finite values or sums past the
        float64 range; ``n_boot`` or
        ``digits`` is negative; ``normalize_rows`` or ``from_logits`` is not
        True or False; ``confidence`` is not in (0, 1); ``random_state`` is a
        negative integer; or ``ci`` names an unknown family (the message
        lists the families and ``"none"``), quantity or method, or a method
        that does not apply to its quantity (the message lists those that do).
    TypeError
        If ``y_score`` or ``sample_weight`` is not numeric, the labels mix
        strings and numbers, ``cost_matrix`` or ``target_priors`` is not
        numeric, ``n_boot`` or ``digits`` is not an integer (a
        bool is not one), ``normalize_rows`` or ``from_logits`` is an array
        or a list, ``confidence`` not a real number, ``ci`` neither a string
        nor a mapping, or ``random_state`` not None, an integer or a
        Generator.

    Warns
    -----
    sklearn.exceptions.DataConversionWarning
        If ``y_true`` is a column vector (n, 1); it is raveled.
    polyroc.exceptions.IntervalWarning
        If a class has fewer than 2 rows: DeLong's variance needs 2 rows of
        every class (those AUC intervals are NaN), and a stratified bootstrap
        never varies a single row (its intervals understate the
        uncertainty). Also, once, naming every interval of zero width: its
        method found no spread in the rows (losses equal within each class,
        e.g. perfect one-hot scores; tied scores for DeLong; bootstrap
        replicates that never differ from the data), which does not make the
        value known. Such an interval keeps its bounds and its method reads
        ``"...; degenerate (zero width): <why>"``.

    See Also
    --------
    Evaluation : The result, with ``to_text`` and ``to_frame``.
    polyroc.comparison.compare_scores : Compare several models scored on the same rows.
    polyroc.intervals.roc_auc_interval : One AUC with DeLong's interval.
    polyroc.report.build_report : An HTML report with this evaluation, curves and tuned thresholds.

    Examples
    --------
    >>> result = evaluate([0, 1, 2, 2], [[.8, .1, .1], [.2, .7, .1], [.1, .2, .7], [.5, .1, .4]], n_boot=0)
    >>> round(result.scores["accuracy"], 2), round(result.scores["roc_auc_ovr_macro"], 4)
    (0.75, 1.0)

    With intervals, each named by its method (48 of 60 rows right: Wilson's
    interval; 16 of the 20 rows of class 0 found):

    >>> y = np.repeat([0, 1, 2], 20)
    >>> P = np.full((60, 3), 0.2) + 0.4 * np.eye(3)[(y + (np.arange(60) % 5 == 0)) % 3]
    >>> result = evaluate(y, P, random_state=0)
    >>> print(result.intervals["accuracy"])
    0.8000 [95% CI 0.6822, 0.8817; Wilson score interval]
    >>> print(result.class_intervals["recall"][0])
    0.8000 [95% CI 0.5840, 0.9193; Wilson score interval]
    >>> result.intervals["f1_macro"].method, result.intervals["roc_auc_ovo_macro"].method
    ('Dirichlet posterior (diagonal-jeffreys prior)', 'DeLong (logit)')

    The stratified percentile bootstrap for everything:

    >>> result = evaluate(y, P, ci="bootstrap", n_boot=200, random_state=0)
    >>> print(result.intervals["accuracy"])
    0.8000 [95% CI 0.7000, 0.9000; stratified percentile bootstrap, B=200]
    >>> result.to_frame().loc[0, ["score", "low", "high"]].tolist()
    ['accuracy', np.float64(0.7), np.float64(0.9)]

    Under costs, at deployment priors (accuracy there is the priors' mix of
    the recalls, 0.8 each):

    >>> result = evaluate(y, P, cost_matrix=1 - np.eye(3), target_priors=[0.6, 0.3, 0.1], random_state=0)
    >>> print(result.intervals["expected_cost"])
    0.2000 [95% CI 0.0754, 0.3246; t interval (stratified variance)]
    >>> round(result.scores["accuracy"], 12), round(result.report["0"]["precision"], 4)
    (0.8, 0.96)
    """
    digits, n_boot, confidence = int(digits), int(n_boot), float(confidence)
    rng = np.random.default_rng(random_state)
    plan, n_boot = planned_intervals(ci, n_boot, tuple(QUANTITY_METHODS))
    columns = score_column_names(y_score)
    score_array = as_array("y_score", y_score)
    y_idx, scores, classes, given_weights = check_scores(
        y_true,
        score_array,
        columns=columns,
        labels=labels,
        sample_weight=sample_weight,
        normalize_rows=normalize_rows,
        transform_options=True,
        from_logits=from_logits,
    )
    deployment, given_weights = Deployment.of(classes, cost_matrix, target_priors).weighted(y_idx, given_weights)
    scale = scale_weights(given_weights)  # every score is scale-free; counts are scaled back
    weights = scale.weights
    delong_keys = [key for key in RANKING_SCORES if n_boot and plan[_ranking_name(key)] == "delong"]
    class_aucs = wants_class_aucs(plan, n_boot)
    aucs, influences, class_table = _ranking_scores(  # first: the largest arrays
        y_idx, scores, classes, weights, delong_keys, class_aucs
    )
    losses = deployment.losses(row_losses(y_idx, scores, machine_epsilon(score_array.dtype)), y_idx, scores)
    summary = SummaryStatistics.of(y_idx, scores, weights, losses)
    ranking = {_ranking_name(key): value for key, value in aucs.items()}
    sample = ScoredSample(y=y_idx, scores=scores, weights=weights)
    return evaluation_of_statistics(
        summary,
        classes,
        ranking,
        plan=plan,
        n_boot=n_boot,
        confidence=confidence,
        rng=rng,
        replicates=lambda: _bootstrap_replicates(y_idx, scores, weights, losses, n_boot, rng),
        bootstrap_method=None,
        delong=lambda names: delong_intervals(
            names, sample, ranking, classes.tolist(), confidence=confidence, influences=influences
        ),
        class_delong=(
            (lambda: class_auc_intervals_of(sample, classes.tolist(), confidence=confidence, table=class_table))
            if class_aucs
            else None
        ),
        digits=digits,
        restore=scale.restore,
        settings={
            "random_state": random_state,
            "ci": ci if isinstance(ci, str) else dict(ci),
            "normalize_rows": normalize_rows,
            "from_logits": from_logits,
            **deployment.settings(),
        },
    )


def _scores(summary: SummaryStatistics, aucs: dict[str, float]) -> dict[str, float]:
    """Every score of the summary, in :attr:`Evaluation.scores` order: counts metrics, AUCs, losses, ECEs."""
    found = summary_values(summary)
    return {
        **{name: found[name] for name in COUNTS_SCORES},
        **{name: float(aucs[name]) for name in AUC_SCORES},
        **{name: found[name] for name in summary.losses},
        **{name: found[name] for name in ECE_SCORES},
    }


def evaluation_of_statistics(
    summary: SummaryStatistics,
    classes: np.ndarray,
    aucs: dict[str, float],
    *,
    plan: dict[str, str],
    n_boot: int,
    confidence: float,
    rng: np.random.Generator,
    replicates,
    bootstrap_method: str | None,
    digits: int,
    settings: dict[str, Any],
    delong=None,
    restore=None,
    class_delong=None,
) -> Evaluation:
    """The :class:`Evaluation` of rows known by their summary statistics and AUCs (a stream, a cluster).

    The intervals are those of :func:`evaluate` for the quantities whose
    method rests on the statistics. DeLong's intervals come from
    ``delong(names)`` when given; without it (the rows are gone) the AUCs
    take NaN bounds named :data:`DELONG_UNAVAILABLE`. ``class_delong()``,
    when given, gives the per-class AUCs' intervals (``"roc_auc"`` of the
    class intervals; left out without it). The bootstrap's
    replicates come from ``replicates()`` (named ``bootstrap_method``; None
    for the stratified percentile bootstrap). ``restore`` maps the counts
    of ``summary`` (of weights scaled by a power of two, so that no product
    of counts leaves the float range) back to the given weights for the
    confusion matrix and the report. ``settings`` adds to the usual ones;
    with ``"target_priors"`` in it (the class shares fixed) every mean loss,
    the expected cost too, takes the stratified variance.
    """

    def unavailable(names):
        return {
            name: ConfidenceInterval.from_bounds(
                values[name], np.nan, np.nan, confidence=confidence, interval_method=DELONG_UNAVAILABLE
            )
            for name in names
        }

    values = _scores(summary, aucs)
    intervals, class_intervals = {}, {}
    if n_boot:
        intervals, class_intervals = _intervals(
            {name: plan[name] for name in (*values, *CLASS_SCORES)},
            summary,
            values,
            classes.tolist(),
            confidence=confidence,
            n_boot=n_boot,
            rng=rng,
            random_state=settings.get("random_state"),
            replicates=replicates,
            delong=unavailable if delong is None else delong,
            bootstrap_method=bootstrap_method,
            class_delong=class_delong,
            fixed_shares="target_priors" in settings,
        )
    settings = {
        "n_boot": n_boot,
        "confidence": confidence,
        "interval_methods": {name: interval.method for name, interval in intervals.items()},
        **settings,
    }
    return Evaluation(
        **evaluation_fields(
            summary, classes, values, intervals, class_intervals, settings=settings, digits=digits, restore=restore
        )
    )


def _intervals(
    plan,
    summary,
    values,
    classes,
    *,
    confidence,
    n_boot,
    rng,
    random_state,
    replicates,
    delong,
    bootstrap_method=None,
    class_delong=None,
    fixed_shares=False,
):
    """Every score's interval and every per-class score's, each by its method in ``plan``.

    ``replicates()`` gives every score's (B,) and per-class score's (B, m)
    bootstrap replicates, and runs only when some quantity takes the
    bootstrap (named ``bootstrap_method``, default the stratified percentile
    bootstrap); ``delong(names)`` gives the DeLong intervals of AUCs. The
    posterior draws come from a later child of ``rng`` than the bootstrap's.
    """
    _warn_single_rows(plan, summary.class_moments.rows, classes)
    class_values = class_scores(summary.counts)
    intervals, class_intervals = {}, {}
    resampled = [name for name, method in plan.items() if method == "bootstrap"]
    if resampled:
        drawn = replicates()
        options = {"confidence": confidence, "n_boot": n_boot, "random_state": random_state}
        if bootstrap_method is not None:
            options["interval_method"] = bootstrap_method
        for name in resampled:
            if name in class_values:
                class_intervals[name] = {
                    label: ConfidenceInterval.from_replicates(class_values[name][k], drawn[name][:, k], **options)
                    for k, label in enumerate(classes)
                }
            else:
                intervals[name] = ConfidenceInterval.from_replicates(values[name], drawn[name], **options)
    (posterior_rng,) = rng.spawn(1)
    found, class_found = analytic_intervals(
        {name: method for name, method in plan.items() if method != "bootstrap"},
        summary,
        values,
        class_values,
        classes,
        confidence=confidence,
        n_draws=n_boot,
        rng=posterior_rng,
        random_state=random_state,
        delong=delong,
        fixed_shares=fixed_shares,
    )
    intervals.update(found)
    class_intervals.update(class_found)
    if class_delong is not None:
        class_intervals[CLASS_AUC] = class_delong()
    binned = [name for name, method in plan.items() if method == ECE_METHOD]
    if binned:
        (calibration_rng,) = rng.spawn(1)  # after the posterior's: the other intervals do not change
        intervals.update(
            ece_intervals(
                binned,
                summary.calibration_bins,
                values,
                confidence=confidence,
                n_draws=n_boot,
                rng=calibration_rng,
                random_state=random_state,
            )
        )
    return _marked_degenerate(
        {**plan, CLASS_AUC: "delong"},
        {name: intervals[name] for name in values},
        {name: class_intervals[name] for name in (*CLASS_SCORES, CLASS_AUC) if name in class_intervals},
    )


#: Interval method (a key of ``plan``) -> why it gives zero width on data that do not determine the value.
DEGENERATE_REASONS = {
    "t": "no class has two rows whose losses differ, so their spread cannot be estimated",
    "bootstrap": "no replicate differs from the data",
    "delong": DELONG_TIES,
    "bayes": "every posterior draw gives the same value",
    "wilson": "the proportion's interval has zero width",
    "clopper-pearson": "the proportion's interval has zero width",
    ECE_METHOD: "every draw of the bins gives the same calibration error",
}


def _marked_degenerate(plan, intervals, class_intervals):
    """The intervals, those of zero width marked degenerate in their method, with one IntervalWarning naming them.

    A zero width says that the interval's source of spread (the losses'
    variance, the replicates, DeLong's variance, the posterior draws) is 0 on
    these rows, not that the rows determine the value: a perfect one-hot
    score matrix has log loss 0 on every row, yet the mean loss of the
    population is not known to be 0. The bounds stay as the method gives them;
    the method says ``"degenerate"`` and why.
    """
    flagged = []

    def marked(name, interval, quantity=None):
        if not is_zero_width(interval.low, interval.high):
            return interval
        flagged.append(name)
        return degenerate_interval(interval, DEGENERATE_REASONS[plan[quantity or name]])

    intervals = {name: marked(name, interval) for name, interval in intervals.items()}
    class_intervals = {
        name: {label: marked(f"{name} of class {label!r}", interval, name) for label, interval in by_class.items()}
        for name, by_class in class_intervals.items()
    }
    if flagged:
        _warnings.warn(
            (
                f"the interval of {flagged[0]} has zero width: its method finds"
                if len(flagged) == 1
                else f"the intervals of {', '.join(flagged)} have zero width: their method finds"
            )
            + " no spread in these rows, which does not make the value known (the interval method says why); "
            "read " + ("it" if len(flagged) == 1 else "them") + " as degenerate, not as exact",
            IntervalWarning,
        )
    return intervals, class_intervals


def _warn_single_rows(plan, class_rows, classes):
    """Warn when a class has a single row and a bootstrap interval depends on it."""
    single = [classes[k] for k in np.flatnonzero(class_rows == 1)]
    if single and "bootstrap" in plan.values():
        _warnings.warn(
            f"class {', '.join(map(str, single))} has a single row, which a stratified bootstrap never varies: "
            "the bootstrap intervals understate the uncertainty of every quantity that rests on it",
            IntervalWarning,
        )


def _ranking_scores(y, scores, classes, weights, delong_keys, class_aucs=False):
    """Each AUC of :data:`RANKING_SCORES`, as :func:`polyroc.metrics.roc_auc_score` gives it, and the influences.

    With more than two classes every score column is sorted once for all of
    the AUCs and for the DeLong influences of ``delong_keys``
    (:func:`polyroc.intervals._delong.ranked_influences`); the influences are then
    returned (key -> (estimate, influence)), else None; with ``class_aucs``
    also each class's AUC, variance and degrees of freedom
    (``RankedInfluences.class_aucs``), else None.
    """
    if classes.size > 2:
        ranked = ranked_influences(y, scores, weights, delong_keys, micro=True, class_aucs=class_aucs)
        aucs = encoded_ranking_scores(y, scores, classes, weights, RANKING_SCORES, (ranked.wins, ranked.micro_wins))
        return aucs, ranked.influences, ranked.class_aucs
    options = {"labels": classes, "sample_weight": weights}
    y_labels = classes[y]
    aucs = {
        key: roc_auc_score(y_labels, scores, multi_class=key[0], average=key[1], **options) for key in RANKING_SCORES
    }
    return aucs, None, None
