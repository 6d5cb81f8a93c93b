"""Confidence intervals made without resampling, beside the bootstrap of :mod:`polyroc.resampling`.

One method per kind of quantity, each the default of :func:`polyroc.evaluate`
for that kind (``ci="auto"``) because it keeps its coverage in the coverage
study of the documentation:

- :func:`proportion_interval` and :func:`weighted_proportion_interval`:
  proportions with a fixed denominator;
- :func:`roc_auc_interval`: binary and multiclass ROC AUCs by DeLong's
  variance (DeLong, DeLong & Clarke-Pearson, 1988, doi:10.2307/2531595),
  computed in O(n log n) (Sun & Xu, 2014, doi:10.1109/LSP.2014.2337313),
  on the logit scale;
- :func:`posterior_interval`: any counts metric (precision, F1, macro-F1,
  balanced accuracy, kappa, MCC ...) from a Dirichlet posterior over the rows
  of the confusion matrix;
- :func:`stratified_mean_interval`: a mean loss (log loss, Brier score);
- :func:`paired_loss_difference`: the difference of two mean losses on the
  same rows (two models' log losses, two decision rules' expected costs) by
  the paired t, of the plain variance (by default) or the stratified one.

Every interval is conditional on the class counts, like polyroc's stratified
bootstrap, except those of expected costs, which take the plain variance of
the per-row costs (all rows one stratum): the rows are an i.i.d. sample whose
class counts vary too, which costs that differ much between classes make
count.

:func:`proportion_interval` bounds a proportion with a fixed denominator (a
per-class recall, a specificity, an accuracy) by the Wilson score interval
(Wilson, 1927, doi:10.1080/01621459.1927.10502953) or the exact
Clopper–Pearson interval (Clopper & Pearson, 1934, doi:10.1093/biomet/26.4.404).
Neither collapses to zero width at 0 or n successes, where a percentile
bootstrap does: 0 hits in 4 trials give [0, 0.49] (Wilson) or [0, 0.60]
(Clopper–Pearson) at 95%.

:func:`weighted_proportion_interval` carries both to sample weights through
Kish's effective sample size ``(sum w)^2 / sum w^2`` (Kish, 1965, *Survey
Sampling*, Wiley; :func:`effective_sample_size`): the interval of the
weighted proportion p is the one of p * n_eff successes in n_eff trials.
"""

from __future__ import annotations

from polyroc.intervals._delong import (
    roc_auc_interval,
)
from polyroc.intervals._paired_losses import (
    paired_loss_difference,
)
from polyroc.intervals._posterior import (
    posterior_interval,
    stratified_mean_interval,
)
from polyroc.intervals._proportions import (
    PROPORTION_METHODS,
    effective_sample_size,
    paired_difference_interval,
    proportion_interval,
    weighted_proportion_interval,
)
from polyroc.intervals._proportions import (
    TANGO_INTERVAL as TANGO_INTERVAL,
)
from polyroc.intervals._proportions import (
    proportion_bounds as proportion_bounds,
)

__all__ = [
    "PROPORTION_METHODS",
    "effective_sample_size",
    "paired_difference_interval",
    "paired_loss_difference",
    "posterior_interval",
    "proportion_interval",
    "roc_auc_interval",
    "stratified_mean_interval",
    "weighted_proportion_interval",
]
