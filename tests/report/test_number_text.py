"""Numbers as text: the views' number_text and the report's format_number share one fixed-decimal rule.

Oracle: the exact decimal value of the float (decimal.Decimal), rounded half to even as
Python's formatting rounds it, with the sign of a value that rounds to zero dropped.
"""

from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from polyroc._results import fixed_decimals, number_text
from polyroc.report._wording import format_number


def _rounded(value, digits):
    text = str(Decimal(value).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN))
    return text[1:] if text.startswith("-") and Decimal(text) == 0 else text


@given(st.floats(min_value=-1e5, max_value=1e5, allow_nan=False), st.integers(min_value=0, max_value=6))
def test_both_give_the_exact_value_rounded_where_they_agree(value, digits):
    expected = _rounded(value, digits)
    assert fixed_decimals(value, digits) == format_number(value, digits) == expected
    for number in (value, np.float32(value)):
        if number == 0 or abs(number) >= 0.5 * 10**-digits:
            assert number_text(number, digits) == _rounded(float(number), digits)


def test_they_differ_on_tiny_values_and_on_what_is_missing():
    assert format_number(3.1e-9) == "0.000" and format_number(-3.1e-9) == "0.000"
    assert number_text(3.1e-9, 3) == "3.1e-09"
    assert format_number(None) == "undefined" and number_text(None) == "—" and number_text(float("nan")) == "—"
