"""polyroc: evaluate multiclass classifiers from their predicted scores and tune their decisions."""

from polyroc.exceptions import ConvergenceWarning, UndefinedMetricWarning

__version__ = "0.1.0"

__all__ = ["ConvergenceWarning", "UndefinedMetricWarning", "__version__"]
