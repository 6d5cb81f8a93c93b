"""Warning categories raised by polyroc.

They subclass scikit-learn's categories, so a filter written for scikit-learn's
warnings also catches polyroc's.
"""

from sklearn.exceptions import ConvergenceWarning as _SkConvergenceWarning
from sklearn.exceptions import UndefinedMetricWarning as _SkUndefinedMetricWarning

__all__ = ["ConvergenceWarning", "UndefinedMetricWarning"]


class UndefinedMetricWarning(_SkUndefinedMetricWarning):
    """A metric has a zero denominator and took its ``zero_division`` value."""


class ConvergenceWarning(_SkConvergenceWarning):
    """An iterative fit stopped before meeting its convergence criterion."""
