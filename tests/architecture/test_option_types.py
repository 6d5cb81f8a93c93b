"""The Literal types of the string options name exactly the options their checks accept."""

from __future__ import annotations

import inspect
from typing import get_args, get_type_hints

import pytest

from polyroc import counts
from polyroc.dask._tuning import tune_thresholds
from polyroc.evaluation._plan import CI_CHOICES, CiChoice
from polyroc.intervals import _proportions as intervals
from polyroc.intervals._delong import AVERAGE_OPTIONS, roc_auc_interval
from polyroc.intervals._posterior import DEFAULT_PRIOR, PRIORS, PriorName


def test_the_average_of_the_counts_metrics():
    assert set(get_args(counts.Average)) | {None} == set(counts.AVERAGE_OPTIONS)


def test_the_proportion_methods():
    assert set(get_args(intervals.ProportionMethod)) == set(intervals.PROPORTION_METHODS)


def test_the_ci_choices():
    assert get_args(CiChoice) == CI_CHOICES


def test_the_priors():
    assert set(get_args(PriorName)) == set(PRIORS)
    assert DEFAULT_PRIOR in PRIORS


@pytest.mark.parametrize(
    ("parameter", "options"),
    [
        ("multi_class", set(AVERAGE_OPTIONS)),
        ("average", {average for averages in AVERAGE_OPTIONS.values() for average in averages}),
    ],
)
def test_the_roc_auc_interval_options(parameter, options):
    assert set(get_args(get_type_hints(roc_auc_interval)[parameter])) == options


def test_the_searches_of_the_dask_tuning():
    # its frame is typed with dask's DataFrame, imported for type checkers only: evaluate the one annotation
    search = eval(inspect.get_annotations(tune_thresholds)["search"], inspect.getmodule(tune_thresholds).__dict__)
    assert set(get_args(search)) == {"auto", "lattice", "random"}
