"""Warning categories raised by polyroc.

The categories scikit-learn also has (``UndefinedMetricWarning``,
``ConvergenceWarning``) subclass scikit-learn's, so a filter written for
scikit-learn's warnings also catches polyroc's. The warnings of ROC-DMF and
of the Gini ROC are also importable from :mod:`polyroc.dmf` and
:mod:`polyroc.gini`.
"""

from sklearn.exceptions import ConvergenceWarning as _SkConvergenceWarning
from sklearn.exceptions import UndefinedMetricWarning as _SkUndefinedMetricWarning

__all__ = [
    "ConvergenceWarning",
    "IntervalWarning",
    "NonMonotoneCurveWarning",
    "ScoreScaleWarning",
    "SmallClassWarning",
    "UndefinedMetricWarning",
    "WhiteningWarning",
]


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


class NonMonotoneCurveWarning(UserWarning):
    """The fitted ROC-DMF curve decreases somewhere although every pairwise rate column is monotone.

    :func:`~polyroc.dmf.roc_dmf` and :func:`~polyroc.dmf.compare_models` issue it when the fitted FPR or
    TPR drops by more than 0.01 from one row to the next (see
    :attr:`polyroc.dmf.DmfRoc.max_reversal`), typically with tied scores and small
    classes. ``monotone=True`` integrates the curve's running maximum instead.

    See Also
    --------
    polyroc.dmf.roc_dmf : Issues the warning.
    polyroc.dmf.DmfRoc : ``max_reversal`` holds the largest decrease, warned or not.

    Examples
    --------
    Hard votes (one-hot probabilities: every score tied at 0 or 1):

    >>> import warnings
    >>> import numpy as np
    >>> from polyroc.dmf import roc_dmf
    >>> y = np.repeat([0, 1, 2], 25)
    >>> P = np.eye(3)[np.repeat([0, 1, 2, 1, 2], [25, 20, 5, 3, 22])]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warnings.simplefilter("ignore", SmallClassWarning)  # 25 rows a class, see below
    ...     result = roc_dmf(y, P)
    >>> [type(w.message).__name__ for w in caught]
    ['NonMonotoneCurveWarning']
    >>> round(result.max_reversal, 3)
    0.068
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", NonMonotoneCurveWarning)
    ...     smoothed = roc_dmf(y, P, monotone=True)
    >>> bool(np.all(np.diff(smoothed.tpr) >= 0))
    True
    """


class SmallClassWarning(UserWarning):
    """ROC-DMF on a class too small for its continuity-corrected rates: D is biased towards ½.

    With three or more classes the factorization fits the rates
    (n M + c)/(n + 2c) of n samples (``correction=c``, default ½), and the
    curve's points are means of their logits, so D moves towards ½ by about
    2c/n (1/n at the default) for a perfect ranking of n rows a class.
    :func:`~polyroc.dmf.roc_dmf` and :func:`~polyroc.dmf.compare_models` warn
    when a class with samples has fewer than 100 rows (Kish's effective size
    with sample weights). The threshold is the smallest class size at which
    the bias of D stayed within 0.01 for every generating model of the
    small-sample study (``benchmarks/dmf_small_samples.py``, table in the
    ROC-DMF documentation page: binormal, Dirichlet and perfectly ranked
    scores, 3 and 5 classes, the default correction). Hand & Till's M
    (:func:`polyroc.metrics.roc_auc_score`, ``multi_class="ovo"``) needs no
    correction and is the better summary of such small test sets.

    See Also
    --------
    polyroc.dmf.roc_dmf : Issues the warning.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from polyroc.dmf import roc_dmf
    >>> y = np.repeat([0, 1, 2], 20)
    >>> P = np.eye(3)[y] + np.random.default_rng(0).uniform(0, 0.5, (60, 3))  # perfectly ranked
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = roc_dmf(y, P)
    >>> [type(w.message).__name__ for w in caught], round(result.D, 3)
    (['SmallClassWarning'], 0.955)
    """


class ScoreScaleWarning(UserWarning):
    """Threshold averaging on score columns whose ranges differ a lot (no common scale).

    See Also
    --------
    polyroc.gini.gini_roc : Issues it with ``averaging="threshold"``.
    WhiteningWarning : The other warning of :func:`~polyroc.gini.gini_roc`.

    Examples
    --------
    >>> import warnings
    >>> from polyroc.gini import gini_roc
    >>> y = [0, 0, 1, 1, 2, 2]
    >>> S = [[50, .1, .2], [40, .3, .1], [10, .9, .3], [20, .8, .2], [0, .2, .9], [10, .1, .8]]
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = gini_roc(y, S, averaging="threshold", n_boot=0)  # column 0 is on another scale
    >>> [warning.category.__name__ for warning in caught]
    ['ScoreScaleWarning']
    """


class WhiteningWarning(UserWarning):
    """The whitening matrix needed a choice: singular correlation, constant columns, few samples.

    See Also
    --------
    polyroc.gini.zca_cor_whitening : Issues it.
    polyroc.gini.gini_roc : Issues it for the score matrix it whitens.
    ScoreScaleWarning : The other warning of :func:`~polyroc.gini.gini_roc`.

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> from polyroc.gini import zca_cor_whitening
    >>> X = np.array([[1.0, 2.0, 5.0], [2.0, 1.0, 5.0], [3.0, 5.0, 5.0], [4.0, 3.0, 5.0]])
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     w = zca_cor_whitening(X)  # the last column is constant
    >>> caught[0].category.__name__, w.used.tolist()
    ('WhiteningWarning', [True, True, False])
    """
