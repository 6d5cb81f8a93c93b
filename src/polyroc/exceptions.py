"""Warning categories raised by polyroc.

They subclass scikit-learn's categories, so a filter written for scikit-learn's
warnings also catches polyroc's.
"""

from sklearn.exceptions import ConvergenceWarning as _SkConvergenceWarning
from sklearn.exceptions import UndefinedMetricWarning as _SkUndefinedMetricWarning

__all__ = ["ConvergenceWarning", "IntervalWarning", "UndefinedMetricWarning"]


class UndefinedMetricWarning(_SkUndefinedMetricWarning):
    """A metric has a zero denominator and took its ``zero_division`` value.

    It subclasses :class:`sklearn.exceptions.UndefinedMetricWarning`, so a
    filter written for scikit-learn's warning also applies to polyroc's.
    Besides 0/0 ratios it marks the other values a metric cannot define: the
    AUC of a class without samples (NaN), a top-k accuracy with k at least
    the number of classes, an undefined Cohen's kappa. Where a function takes
    ``zero_division``, passing 0.0, 1.0 or ``np.nan`` instead of the default
    ``"warn"`` gives that value without a warning.

    See Also
    --------
    polyroc.metrics.precision_score : Warns for a label never predicted.
    polyroc.counts.precision : The same on confusion counts.
    sklearn.exceptions.UndefinedMetricWarning : Its parent class.

    Examples
    --------
    >>> import warnings
    >>> from polyroc.metrics import precision_score
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     precision_score([0, 1, 1], [0, 0, 0])  # class 1 is never predicted: 0/0
    0.0
    >>> [warning.category.__name__ for warning in caught]
    ['UndefinedMetricWarning']
    >>> precision_score([0, 1, 1], [0, 0, 0], zero_division=0.0)  # the same value, silently
    0.0
    """


class ConvergenceWarning(_SkConvergenceWarning):
    """An iterative fit stopped before meeting its convergence criterion.

    Issued by the ROC-DMF fits when they reach ``max_iter`` (at most once per
    call); it subclasses :class:`sklearn.exceptions.ConvergenceWarning`.

    See Also
    --------
    polyroc.dmf.roc_dmf : The fit that issues it; raise ``max_iter`` or ``tol``.
    sklearn.exceptions.ConvergenceWarning : Its parent class.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from polyroc.dmf import roc_dmf
    >>> y = np.repeat([0, 1, 2], 10)
    >>> P = np.random.default_rng(0).dirichlet(np.ones(3), size=30)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("error", ConvergenceWarning)
    ...     try:
    ...         roc_dmf(y, P, n_levels=9, max_iter=1)
    ...     except ConvergenceWarning as warning:
    ...         print(str(warning)[:44])
    ROC-DMF: the fit did not converge within max
    """


class IntervalWarning(UserWarning):
    """A confidence interval could not be computed by its method, or cannot be trusted.

    The interval is then NaN (no interval rather than a wrong one), or its
    warning says what limits it (e.g. a class with a single row, which a
    stratified bootstrap never varies, or an interval of zero width on rows
    that do not determine the value: perfect one-hot scores give every row
    log loss 0, so the t interval is [0, 0], yet the mean loss of the
    population is not known to be 0; :func:`polyroc.evaluate` then marks
    the interval's method ``"degenerate (zero width)"`` and says why).

    See Also
    --------
    polyroc.intervals.roc_auc_interval : NaN bounds when a class has fewer than 2 rows; warns at zero width.
    polyroc.intervals.stratified_mean_interval : Warns for a class with a single row, and at zero width.
    polyroc.evaluate : Warns when its intervals rest on a class with a single row, or have zero width.

    Examples
    --------
    >>> import warnings
    >>> from polyroc.intervals import roc_auc_interval
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     ci = roc_auc_interval([0, 0, 0, 1], [0.1, 0.2, 0.3, 0.9])  # class 1 has one row
    >>> [warning.category.__name__ for warning in caught], ci.estimate, ci.low, ci.high
    (['IntervalWarning'], 1.0, nan, nan)
    """
