"""Tune on validation, compare decision rules on validation and test (the paper's Tables 3-4).

Rules compared: plain argmax, the tuned simplex rule argmax(p - tau*), the
Fréchet mean rule and the epsilon-inflated argmax (a set-valued rule, reported
through coverage, singleton-correct share and average set size).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from polyroc._counts import confusion_counts
from polyroc._validation import check_positive_float, check_scores, with_scaled_weights
from polyroc.counts import get_metric, metric_name
from polyroc.thresholds.competing import (
    average_set_size,
    coverage,
    frechet_predict,
    inflated_argmax,
    singleton_correct,
)
from polyroc.thresholds.rules import predict
from polyroc.thresholds.tuning import tune_thresholds

__all__ = ["RuleComparison", "compare_rules"]

COLUMNS = ("argmax", "tuned", "frechet", "coverage", "singleton", "avg_set_size")


@dataclass(frozen=True, eq=False)
class RuleComparison:
    """Scores of the competing decision rules on validation and test data.

    Attributes
    ----------
    metric : str
        The metric of the ``argmax``, ``tuned`` and ``frechet`` columns (the
        tuning metric).
    rows : dict
        ``{"validation": {...}, "test": {...}}``, each mapping the column names
        ``argmax``, ``tuned``, ``frechet``, ``coverage``, ``singleton`` (share of
        samples whose inflated-argmax set is exactly {y}) and ``avg_set_size``
        to a float.
    tuning : TuningResult
        The tuning on validation data that produced tau*.
    eps : float
        The inflated-argmax margin.
    """

    metric: str
    rows: dict
    tuning: object
    eps: float

    def to_text(self, digits=4):
        """The table as aligned plain text, one row per data split."""
        width = max(len(c) for c in COLUMNS) + 2
        header = "split".ljust(12) + "".join(c.rjust(width) for c in COLUMNS)
        settings = (f"metric: {self.metric}; tau* = {np.round(self.tuning.best_threshold, 4).tolist()}; "
                    f"inflated argmax eps = {self.eps:g}")
        lines = [settings, header]
        for split, values in self.rows.items():
            lines.append(split.ljust(12) + "".join(f"{values[c]:.{digits}f}".rjust(width) for c in COLUMNS))
        return "\n".join(lines)

    def __str__(self):
        return self.to_text()

    def to_frame(self):
        """The table as a pandas DataFrame (requires pandas)."""
        try:
            import pandas as pd
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError("to_frame() needs pandas; use to_text() or .rows without it") from error
        return pd.DataFrame.from_dict(self.rows, orient="index", columns=list(COLUMNS))


def _rule_row(targets, tau, distances, eps, score_counts):
    y, scores, classes, weights = targets
    m = classes.size

    def score(y_pred):
        return float(score_counts(confusion_counts(y, y_pred, m, weights)[None])[0])

    sets = inflated_argmax(scores, eps)
    options = {"labels": np.arange(m), "sample_weight": weights}
    return {
        "argmax": score(np.argmax(scores, axis=1)),
        "tuned": score(predict(scores, tau)),
        "frechet": score(frechet_predict(scores, distances)),
        "coverage": coverage(y, sets, **options),
        "singleton": singleton_correct(y, sets, **options),
        "avg_set_size": average_set_size(y, sets, **options),
    }


def compare_rules(
    y_val,
    score_val,
    y_test,
    score_test,
    *,
    metric="accuracy",
    labels=None,
    distances=None,
    eps=0.05,
    sample_weight_val=None,
    sample_weight_test=None,
    **tuning_options,
):
    """Tune tau on validation data, then score every rule on validation and test.

    Parameters
    ----------
    y_val, y_test : array-like of shape (n_val,), (n_test,)
        True labels of the validation and test data.
    score_val, score_test : array-like of shape (n_val, m), (n_test, m)
        Probability scores, columns in the class order.
    metric : str or callable, default="accuracy"
        Tuning metric, also used for the argmax, tuned and Fréchet columns
        (see :func:`polyroc.counts.get_metric`).
    labels : array-like of shape (m,), optional
        Class order; default the sorted labels of ``y_val``.
    distances : array-like of shape (m, m), optional
        Label distances of the Fréchet rule; default the complete graph 1 - I,
        for which the Fréchet rule is argmax.
    eps : float, default=0.05
        Margin of the inflated argmax (an assumption: the paper does not report
        it; 0.05 is the value of Soloff et al.'s experiments).
    sample_weight_val, sample_weight_test : array-like, optional
    **tuning_options
        Passed to :func:`polyroc.thresholds.tune_thresholds` (``search``,
        ``resolution``, ``n_samples``, ``domain``, ``random_state``, ...).

    Returns
    -------
    RuleComparison

    Raises
    ------
    ValueError, TypeError
        Invalid labels or scores, test labels outside the validation classes,
        an unknown metric, ``eps <= 0``, ``distances`` not of shape (m, m), or
        invalid tuning options.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, 200)
    >>> P = rng.dirichlet(np.ones(3), 200) * 0.5 + 0.5 * np.eye(3)[y]
    >>> table = compare_rules(y[:100], P[:100], y[100:], P[100:], resolution=30)
    >>> sorted(table.rows), table.rows["validation"]["tuned"] >= table.rows["validation"]["argmax"]
    (['test', 'validation'], True)
    """
    eps = check_positive_float("eps", eps)
    score_counts = get_metric(metric)
    validation = with_scaled_weights(check_scores(y_val, score_val, labels=labels, sample_weight=sample_weight_val))
    test = with_scaled_weights(
        check_scores(y_test, score_test, labels=validation.classes, sample_weight=sample_weight_test)
    )
    m = validation.classes.size
    if distances is not None and np.shape(distances) != (m, m):
        raise ValueError(f"distances must have shape ({m}, {m}), got {np.shape(distances)}")
    tuning = tune_thresholds(
        validation.classes[validation.y_true], validation.y_score, metric=metric,
        labels=validation.classes, sample_weight=validation.sample_weight, **tuning_options,
    )
    rows = {
        split: _rule_row(targets, tuning.best_threshold, distances, eps, score_counts)
        for split, targets in (("validation", validation), ("test", test))
    }
    name = metric_name(metric)
    return RuleComparison(name, rows, tuning, eps)
