"""Paired comparison of several models scored on the same rows.

Each pair of models is compared on each requested quantity, by the test that
fits it:

- an AUC (binary, OvR macro/weighted/micro, Hand & Till's OvO M): DeLong's
  test of the difference, from the covariance of the two models' AUCs, which
  share their rows (DeLong, DeLong & Clarke-Pearson 1988,
  doi:10.2307/2531595), with a normal interval on the difference;
- accuracy without sample weights: McNemar's exact test on the rows where
  exactly one model is right (McNemar 1947, doi:10.1007/BF02295996), with
  Tango's score interval of the difference (Tango 1998,
  doi:10.1002/(SICI)1097-0258(19980430)17:8<891::AID-SIM780>3.0.CO;2-B),
  which does not condition on the number of those rows and so keeps its
  coverage when they all favour one model (an exact interval conditional on
  them covered 14% to 63% of the time there in ``benchmarks/coverage.py
  --paired``);
- every other counts metric, and accuracy under sample weights (Tango's
  interval is defined for counts of rows, not for sums of weights): the paired
  stratified bootstrap, its percentile interval, and the p-value at which that
  interval would first exclude zero.

With more than two models the p-values of each quantity are also adjusted
for the several comparisons by Holm's step-down method (Holm 1979,
https://www.jstor.org/stable/4615733).

Before the pairs, :attr:`ScoreComparison.omnibus` tests whether all the
models are equal on each quantity: DeLong's contrast chi-squared test for an
AUC (whose p-value, for two models, is the paired test's) and Cochran's Q
(Cochran 1950, doi:10.1093/biomet/37.3-4.256; :func:`cochran_q`) for
accuracy.
"""

from __future__ import annotations

from polyroc.intervals._comparison import (
    AUC_QUANTITIES as AUC_QUANTITIES,
)
from polyroc.intervals._comparison import (
    DELONG_TEST as DELONG_TEST,
)
from polyroc.intervals._comparison import (
    MCNEMAR_TEST as MCNEMAR_TEST,
)
from polyroc.intervals._comparison import (
    PAIRED_BOOTSTRAP as PAIRED_BOOTSTRAP,
)
from polyroc.intervals._comparison import (
    ScoreComparison,
    compare_scores,
    holm_adjusted,
)
from polyroc.intervals._omnibus import (
    COCHRAN_Q as COCHRAN_Q,
)
from polyroc.intervals._omnibus import (
    DELONG_OMNIBUS as DELONG_OMNIBUS,
)
from polyroc.intervals._omnibus import (
    CochranQ,
    cochran_q,
)
from polyroc.intervals._proportions import (
    TANGO_INTERVAL as TANGO_INTERVAL,
)

__all__ = [
    "CochranQ",
    "ScoreComparison",
    "cochran_q",
    "compare_scores",
    "holm_adjusted",
]
