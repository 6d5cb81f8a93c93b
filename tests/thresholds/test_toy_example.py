"""The toy example of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794.

The example (Figs. 1-2 of the paper) is checked with exact fractions.

The point coordinates are not published; this 24-point dataset was designed
(by an integer program) so that the natural rule reproduces every row of the
table: class sizes (7, 7, 10), TP, FP and the misclassification counts 7/8/10.
Every point is at least 1/60 away from a region boundary for the three taus.
"""

from fractions import Fraction

import numpy as np
import pytest

from polyroc.counts import get_metric
from polyroc.thresholds import predict, tune_thresholds
from tests._oracles.toy_example import TAUS, P, Y, exact_counts

F = Fraction

# rows of the table: fpr, tpr, TP, FP, errors
TABLE = [
    ((F(4, 17), F(2, 17), F(1, 14)), (F(6, 7), F(5, 7), F(6, 10)), (6, 5, 6), (4, 2, 1), 7),
    ((F(2, 17), F(2, 17), F(4, 14)), (F(4, 7), F(4, 7), F(8, 10)), (4, 4, 8), (2, 2, 4), 8),
    ((F(7, 17), F(0), F(3, 14)), (F(6, 7), F(1, 7), F(7, 10)), (6, 1, 7), (7, 0, 3), 10),
]
ACCURACY = [F(17, 24), F(2, 3), F(7, 12)]
MACRO_F1 = [F(253, 357), F(280, 429), F(31, 60)]


def ovr(counts):
    tp = [int(counts[j, j]) for j in range(3)]
    fp = [int(counts[:, j].sum()) - tp[j] for j in range(3)]
    fn = [int(counts[j].sum()) - tp[j] for j in range(3)]
    tn = [24 - tp[j] - fp[j] - fn[j] for j in range(3)]
    return tp, fp, fn, tn


def test_dataset_has_the_paper_class_sizes():
    assert len(Y) == 24
    assert np.bincount(Y).tolist() == [7, 7, 10]
    assert np.allclose(P.sum(axis=1), 1.0)


@pytest.mark.parametrize("row", range(3))
def test_counts_and_rates_match_the_table(row):
    tau = np.array([float(t) for t in TAUS[row]])
    counts = exact_counts(TAUS[row])
    assert np.array_equal(np.bincount(Y * 3 + predict(P, tau), minlength=9).reshape(3, 3), counts)
    fpr, tpr, table_tp, table_fp, errors = TABLE[row]
    tp, fp, fn, tn = ovr(counts)
    assert tuple(tp) == table_tp and tuple(fp) == table_fp
    assert tuple(F(fp[j], fp[j] + tn[j]) for j in range(3)) == fpr
    assert tuple(F(tp[j], tp[j] + fn[j]) for j in range(3)) == tpr
    assert sum(fp) == sum(fn) == errors == 24 - sum(tp)
    assert sum(tp) + sum(fp) == 24


@pytest.mark.parametrize("row", range(3))
def test_accuracy_and_macro_f1_are_the_exact_fractions(row):
    tp, fp, fn, _ = ovr(exact_counts(TAUS[row]))
    assert F(sum(tp), 24) == ACCURACY[row]
    assert sum(F(2 * tp[j], 2 * tp[j] + fp[j] + fn[j]) for j in range(3)) / 3 == MACRO_F1[row]


def test_dfp_over_the_three_taus():
    rates = [(np.array(fpr), np.array(tpr)) for fpr, tpr, *_ in TABLE]
    dfp = [sum(fpr[j] + 1 - tpr[j] for fpr, tpr in rates) / 3 for j in range(3)]
    assert dfp == [F(176, 357), F(215, 357), F(103, 210)]
    assert sum(dfp) / 3 == F(37, 70)


def test_lattice_search_scores_the_three_taus_exactly():
    # r = 24 holds all three taus (1/3, 1/2, 1/6, 1/8, 3/4 are multiples of 1/24)
    for metric, expected in (("accuracy", ACCURACY), ("f1_macro", MACRO_F1)):
        result = tune_thresholds(Y, P, metric=metric, resolution=24, return_surface=True)
        for tau, value in zip(TAUS, expected):
            row = np.flatnonzero(np.all(np.isclose(result.thresholds, [float(t) for t in tau]), axis=1))[0]
            assert result.scores[row] == pytest.approx(float(value), abs=1e-12)
        assert result.argmax_score == pytest.approx(float(expected[0]), abs=1e-12)
        assert result.best_score >= result.argmax_score
        assert float(get_metric(metric)(exact_counts(TAUS[0])[None])[0]) == pytest.approx(float(expected[0]))
