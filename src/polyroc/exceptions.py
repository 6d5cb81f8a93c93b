"""Warning categories raised by polyroc.

They subclass scikit-learn's categories, so a filter written for scikit-learn's
warnings also catches polyroc's.
"""

from sklearn.exceptions import ConvergenceWarning as _SkConvergenceWarning
from sklearn.exceptions import UndefinedMetricWarning as _SkUndefinedMetricWarning

__all__ = ["ConvergenceWarning", "IntervalWarning", "UndefinedMetricWarning"]


class UndefinedMetricWarning(_SkUndefinedMetricWarning):
    """A metric has a zero denominator and took its ``zero_division`` value."""


class ConvergenceWarning(_SkConvergenceWarning):
    """An iterative fit stopped before meeting its convergence criterion."""


class IntervalWarning(UserWarning):
    """A confidence interval could not be computed by its method, or cannot be trusted.

    The interval is then NaN (no interval rather than a wrong one), or its
    warning says what limits it (e.g. a class with a single row, which a
    stratified bootstrap never varies).
    """
