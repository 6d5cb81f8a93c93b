"""The ``case`` fixture of the metric tests: one random label case per parameter."""

import pytest

from tests.metrics.label_cases import CASES, make_case


@pytest.fixture(params=CASES)
def case(request):
    seed, weighted, strings, absent = request.param
    return make_case(seed, weighted=weighted, strings=strings, absent=absent)
