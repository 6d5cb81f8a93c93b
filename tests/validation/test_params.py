"""The declared parameter constraints of :mod:`polyroc._validation._params`, against brute-force expectations."""

from __future__ import annotations

import inspect
import itertools
import math
import re
import timeit
from fractions import Fraction

import numpy as np
import pytest

from polyroc._validation._params import (
    ArrayLikes,
    Booleans,
    Callables,
    HasMethods,
    InstancesOf,
    Interval,
    NoneValue,
    Options,
    RandomStates,
    check_params,
    make_constraint,
    validate_params,
)

CLOSED = ("left", "right", "both", "neither")
PROBES = [-3, -1, 0, 1, 2, 3, 5, -0.5, 0.0, 0.5, 1.0, 1.5, 2.5, 3.0, 4.999, Fraction(1, 2)]
NOT_NUMBERS = [None, "1", b"1", [1], (1,), np.array(1), np.array([1.0]), {1}, object()]


def _expected(value, number, low, high, closed):
    """Membership written out case by case, for comparison with :class:`Interval`."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if number == "integer" and not isinstance(value, (int, np.integer)):
        return False
    if not isinstance(value, (int, float, np.integer, np.floating, Fraction)):
        return False
    x = float(value)
    if math.isnan(x) or math.isinf(x):
        return False
    left_ok = low is None or x > low or (x == low and closed in ("left", "both"))
    right_ok = high is None or x < high or (x == high and closed in ("right", "both"))
    return left_ok and right_ok


def _bounds():
    for low, high in [(0, 1), (1, 3), (-1, None), (None, 2), (2, None), (None, None)]:
        for closed in CLOSED:
            if (low is None and closed in ("left", "both")) or (high is None and closed in ("right", "both")):
                continue
            yield low, high, closed


@pytest.mark.parametrize("number", ["integer", "real"])
def test_interval_membership_matches_brute_force(number):
    extra = [np.int64(2), np.int8(-1), np.uint16(3), np.float32(0.5), np.float64(1.0), np.nan, np.inf, -np.inf]
    extra += [True, False, np.True_, *NOT_NUMBERS]
    for (low, high, closed), value in itertools.product(_bounds(), PROBES + extra):
        constraint = Interval(number, low, high, closed=closed)
        assert constraint.is_satisfied_by(value) == _expected(value, number, low, high, closed), (
            constraint,
            value,
        )


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (("integer", 1, None, "left"), "an int in [1, inf)"),
        (("integer", None, 0, "right"), "an int in (-inf, 0]"),
        (("real", 0, 1, "both"), "a real number in [0, 1]"),
        (("real", 0, 0.5, "neither"), "a real number in (0, 0.5)"),
        (("real", 0, None, "neither"), "a real number in (0, inf)"),
    ],
)
def test_interval_text(args, text):
    number, low, high, closed = args
    assert str(Interval(number, low, high, closed=closed)) == text


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("count", 0, 1, "both"), ValueError),
        (("real", 0, 1, "open"), ValueError),
        (("real", None, 1, "both"), ValueError),
        (("real", 0, None, "right"), ValueError),
        (("real", 1, 1, "both"), ValueError),
        (("real", 2, 1, "neither"), ValueError),
    ],
)
def test_interval_refuses_bad_definitions(args, error):
    number, low, high, closed = args
    with pytest.raises(error):
        Interval(number, low, high, closed=closed)


def test_options_any_hashable_outside_is_a_value_error_and_unhashable_a_type_error():
    @validate_params({"domain": [Options(("simplex", "box"))]})
    def f(domain="simplex"):
        return domain

    assert f("box") == "box"
    assert f(np.str_("simplex")) == "simplex"
    for value in ("cube", 3, 1.5, None, ("simplex",)):
        with pytest.raises(ValueError, match=r"^domain must be one of 'simplex', 'box'; got ") as caught:
            f(value)
        assert not isinstance(caught.value, TypeError)
        assert caught.value.args[0].endswith(repr(value))
    for value in (["box"], np.array(["box"]), {"box": 1}):
        with pytest.raises(TypeError, match=r"^domain must be one of 'simplex', 'box'; got "):
            f(value)


def test_booleans_refuse_zero_and_one():
    constraint = Booleans()
    assert [constraint.is_satisfied_by(v) for v in (True, False, np.True_, np.False_)] == [True] * 4
    assert not any(constraint.is_satisfied_by(v) for v in (0, 1, 0.0, "True", None, np.array(True)))
    with pytest.raises(TypeError, match=r"^refit must be a bool; got int 1$"):
        check_params({"refit": ["boolean"]}, {"refit": 1})


def test_random_states():
    constraint = RandomStates()
    admitted = [None, 0, 1, 2**40, np.int64(7), np.uint8(3), np.random.default_rng(0)]
    refused = [-1, np.int64(-2), 1.0, True, "0", np.random.RandomState(0), np.array([1])]
    assert all(constraint.is_satisfied_by(v) for v in admitted)
    assert not any(constraint.is_satisfied_by(v) for v in refused)
    rule = {"random_state": ["random_state"]}
    text = "random_state must be None, an int in [0, inf) or a numpy.random.Generator; got "
    with pytest.raises(ValueError, match=r"^" + re.escape(text) + "-1$"):
        check_params(rule, {"random_state": -1})
    for value in (1.0, True, np.random.RandomState(0)):
        with pytest.raises(TypeError, match="random_state must be None"):
            check_params(rule, {"random_state": value})


def test_the_other_kinds():
    assert NoneValue().is_satisfied_by(None) and not NoneValue().is_satisfied_by(0)
    assert Callables().is_satisfied_by(len) and not Callables().is_satisfied_by("len")
    arrays = ArrayLikes()
    assert all(arrays.is_satisfied_by(v) for v in ([1], (1, 2), np.zeros(3), np.zeros((2, 2)), range(3)))
    assert not any(arrays.is_satisfied_by(v) for v in ("ab", b"ab", 1, 1.5, None, {1}, {"a": 1}, np.float64(1)))
    has = HasMethods(("fit", "predict_proba"))
    assert str(has) == "an object with methods 'fit' and 'predict_proba'"
    assert str(HasMethods(("fit",))) == "an object with method 'fit'"

    class Model:
        def fit(self):
            return self

        def predict_proba(self):
            return None

    assert has.is_satisfied_by(Model()) and not has.is_satisfied_by(object())
    assert str(InstancesOf(np.random.Generator)) == "a numpy.random.Generator"
    assert str(InstancesOf(str)) == "a str" and str(InstancesOf(int)) == "an int"
    assert isinstance(make_constraint(None), NoneValue)
    assert isinstance(make_constraint(str), InstancesOf)
    assert isinstance(make_constraint("boolean"), Booleans)
    with pytest.raises(ValueError, match="unknown constraint name 'bool'"):
        make_constraint("bool")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        make_constraint(3)  # type: ignore[arg-type]


@validate_params(
    {
        "n_boot": [Interval("integer", 1, None, closed="left")],
        "grid": [None, Interval("integer", 2, None, closed="left")],
        "confidence": [Interval("real", 0, 1, closed="neither")],
        "metric": [str, "callable"],
    }
)
def _declared(y, n_boot=10, *, grid=None, confidence=0.95, metric="accuracy"):
    """Return its arguments."""
    return y, n_boot, grid, confidence, metric


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n_boot": 0}, ValueError, "n_boot must be an int in [1, inf); got 0"),
        ({"n_boot": np.int64(-3)}, ValueError, "n_boot must be an int in [1, inf); got np.int64(-3)"),
        ({"n_boot": 2.0}, TypeError, "n_boot must be an int in [1, inf); got float 2.0"),
        ({"n_boot": True}, TypeError, "n_boot must be an int in [1, inf); got bool True"),
        ({"grid": 1}, ValueError, "grid must be None or an int in [2, inf); got 1"),
        ({"grid": "9"}, TypeError, "grid must be None or an int in [2, inf); got str '9'"),
        ({"confidence": 1}, ValueError, "confidence must be a real number in (0, 1); got 1"),
        ({"confidence": np.nan}, ValueError, "confidence must be a real number in (0, 1); got nan"),
        ({"confidence": None}, TypeError, "confidence must be a real number in (0, 1); got NoneType None"),
        ({"metric": 3}, TypeError, "metric must be a str or a callable; got int 3"),
    ],
)
def test_messages_name_the_parameter_the_set_and_the_value(kwargs, error, message):
    with pytest.raises(error) as caught:
        _declared([1], **kwargs)
    assert str(caught.value) == message
    assert type(caught.value) is error


def test_admitted_values_pass_through_unchanged():
    value = np.int64(5)
    assert _declared("y", value, grid=np.int32(2), confidence=np.float32(0.5), metric=len)[1] is value
    assert _declared("y", 3)[1:4] == (3, None, 0.95)
    assert _declared(y="y", n_boot=1)[1] == 1


def test_long_values_are_cut_in_messages():
    with pytest.raises(TypeError) as caught:
        _declared("y", n_boot=np.arange(10_000.0))
    assert len(str(caught.value)) < 200


def test_the_wrapper_keeps_signature_docstring_and_wrapped():
    assert _declared.__doc__ == "Return its arguments."
    assert _declared.__name__ == "_declared"
    assert str(inspect.signature(_declared)) == "(y, n_boot=10, *, grid=None, confidence=0.95, metric='accuracy')"
    assert _declared.__wrapped__("y", n_boot=0)[1] == 0  # type: ignore[attr-defined]


def test_binding_errors_stay_those_of_python():
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'y'"):
        _declared()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword"):
        _declared([1], sizes=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values for argument 'n_boot'"):
        _declared([1], 0, n_boot=0)  # type: ignore[misc]


def test_positional_only_and_keyword_only_parameters():
    @validate_params({"a": [Interval("integer", 0, None, closed="left")], "c": [Options(("x", "y"))]})
    def f(a, /, b=1, *, c="x", **extra):
        return a, b, c, extra

    assert f(1, c="y", a=-5) == (1, 1, "y", {"a": -5})  # the keyword a lands in extra, unchecked
    with pytest.raises(ValueError, match=r"^a must be an int in \[0, inf\); got -1$"):
        f(-1)
    with pytest.raises(ValueError, match=r"^c must be one of 'x', 'y'; got 'z'$"):
        f(0, 2, c="z")
    with pytest.raises(ValueError, match="has no parameter 'extra'"):
        validate_params({"extra": [None]})(f)


def test_declarations_are_checked_when_decorating():
    with pytest.raises(ValueError, match="has no parameter 'n'"):
        validate_params({"n": [None]})(lambda m=None: m)
    with pytest.raises(ValueError, match="n must be an int in"):
        validate_params({"n": [Interval("integer", 1, None, closed="left")]})(lambda n=0: n)
    with pytest.raises(TypeError, match="non-empty list"):
        validate_params({"n": []})(lambda n=1: n)


def test_methods_are_checked_too():
    class Curve:
        @validate_params({"tolerance": [Interval("real", 0, 0.5, closed="both")]})
        def within(self, tolerance=0.1):
            return tolerance

    assert Curve().within(0.5) == 0.5
    with pytest.raises(ValueError, match=r"tolerance must be a real number in \[0, 0.5\]; got 0.6"):
        Curve().within(0.6)


def test_checking_costs_microseconds():
    n = 2000
    seconds = min(timeit.repeat(lambda: _declared([1], 5, grid=3, confidence=0.5), number=n, repeat=3)) / n
    assert seconds < 50e-6
