"""Every warning polyroc issues names the user's line, however deep in polyroc it is raised.

The oracle is the call site itself: each warning recorded around a public call
must carry this file's name and the line of the call (taken from the source
with ``inspect``), whatever path led inside polyroc to the warning.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import polyroc
from polyroc import metrics
from polyroc.exceptions import IntervalWarning, UndefinedMetricWarning
from polyroc.intervals import roc_auc_interval

Y_ONE_ROW = np.repeat([0, 1, 2], [20, 20, 1])  # DeLong's variance needs 2 rows of each class
P_ONE_ROW = np.random.default_rng(0).dirichlet(np.ones(3), size=Y_ONE_ROW.size)


def _recorded(call):
    """The warnings of ``call()``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return caught


def _line_of(text):
    """The line number of this file's only line containing ``text``."""
    lines = Path(__file__).read_text().splitlines()
    (number,) = [i + 1 for i, line in enumerate(lines) if text in line and "_line_of(" not in line]
    return number


def test_the_readme_evaluate_example_warns_at_the_users_line():
    """README: ``polyroc.evaluate(y_test, P_test, random_state=0)`` on a class of one row warns (DeLong)."""
    caught = _recorded(lambda: polyroc.evaluate(Y_ONE_ROW, P_ONE_ROW, random_state=0, n_boot=50))  # evaluate-call
    intervals = [w for w in caught if issubclass(w.category, IntervalWarning)]
    assert intervals, "a class of one row gets a NaN DeLong interval and a warning"
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, _line_of("# evaluate-call"))}


@pytest.mark.parametrize(
    "call, category",
    [
        (lambda: roc_auc_interval(Y_ONE_ROW, P_ONE_ROW, multi_class="ovo"), IntervalWarning),
        (lambda: metrics.precision_score([0, 1, 2], [0, 0, 0], average="macro"), UndefinedMetricWarning),
        (lambda: metrics.roc_auc_score([1, 1, 1], [0.1, 0.2, 0.3]), UndefinedMetricWarning),
        (lambda: metrics.recall_score([0, 0, 0], [0, 1, 2], average=None), UndefinedMetricWarning),
    ],
    ids=["roc_auc_interval", "precision_score", "roc_auc_score", "recall_score"],
)
def test_public_calls_warn_at_the_users_line(call, category):
    caught = _recorded(call)
    assert any(issubclass(w.category, category) for w in caught)
    assert {w.filename for w in caught} == {__file__}
    assert {w.lineno for w in caught} == {call.__code__.co_firstlineno}


def test_a_filter_on_the_users_module_catches_a_warning_raised_deep_inside_polyroc():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        warnings.filterwarnings("error", category=IntervalWarning, module=__name__)
        with pytest.raises(IntervalWarning, match="DeLong"):
            roc_auc_interval(Y_ONE_ROW, P_ONE_ROW, multi_class="ovo")
