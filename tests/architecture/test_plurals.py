"""Messages count in correct English: "1 row", "2 rows", never "1 rows"."""

from __future__ import annotations

import numpy as np
import pytest

from polyroc._text import count_noun
from polyroc._validation import check_min_samples
from polyroc.dmf import roc_dmf
from polyroc.exceptions import IntervalWarning
from polyroc.report._readings import data_reading
from polyroc.resampling import paired_rule_scores


@pytest.mark.parametrize(
    "count, noun, expected",
    [
        (1, "row", "1 row"),
        (0, "row", "0 rows"),
        (2, "class", "2 classes"),
        (1.0, "class", "1.0 class"),
        (3, "box", "3 boxes"),
        (1234, "threshold", "1234 thresholds"),
    ],
)
def test_count_noun(count, noun, expected):
    assert count_noun(count, noun) == expected


def test_one_changed_row_is_one_row():
    y = np.arange(60) % 3
    rule = y.copy()
    rule[0] = (y[0] + 1) % 3  # the rule differs from the baseline (right everywhere) on row 0 only
    with pytest.warns(IntervalWarning) as caught:
        paired_rule_scores(y, {"baseline": y.copy(), "rule": rule}, baseline="baseline", n_boot=20, random_state=0)
    message = str(caught[0].message)
    assert "differently on only 1 row," in message and "of the 1 row where exactly one is right" in message
    assert "1 rows" not in message


def test_too_few_samples_says_one_sample():
    with pytest.raises(ValueError, match=r"^y_score has 1 sample; at least 2 are needed$"):
        check_min_samples("y_score", 1, 2)


def test_the_reading_of_a_class_of_one_row():
    results = {"data": {"test": {"n_samples": 31, "class_counts": {"a": 1, "b": 30}, "imbalance_ratio": 30.0}}}
    text = data_reading(results)
    assert text.startswith("The test data has 31 rows in 2 classes. The largest class (b, 30 rows)")
    assert "the smallest (a, 1 row)." in text and "Class a has fewer than" in text


def test_one_class_of_labels_is_one_class():
    with pytest.raises(ValueError, match=r"y_score has 2 columns but y_true has 1 class \[0\]"):
        roc_dmf([0, 0, 0], [[0.7, 0.3], [0.6, 0.4], [0.9, 0.1]])
