"""Declared parameter constraints: the :func:`validate_params` decorator and the constraint kinds.

A function declares, per parameter, the list of values it admits; the
decorator binds each call's arguments to the signature and checks every
declared one before the function runs. A value is admitted when it satisfies
any constraint of its list. Otherwise the error is a ``ValueError`` when the
value is of a kind the list speaks of (an int outside its interval, a string
that is not an option) and a ``TypeError`` when it is not (a float for an int,
an array for an option), with one message form::

    <name> must be <the admitted values>; got <the value>

The constraint kinds follow scikit-learn's parameter validation, with the
rules polyroc has always applied to its own arguments: a bool is not a number
(``True`` is not the int 1), an interval refuses NaN and is open at infinity,
any hashable value not among the options is a ``ValueError``, and a
``random_state`` is None, a non-negative integer seed or a
``numpy.random.Generator``. numpy scalars count as the Python numbers they
stand for (``np.int64(3)`` is an int, ``np.float32(0.5)`` a real number).

A list entry is a :class:`Constraint` or a shorthand: ``None`` (the value
None), a type (its instances), or one of the strings ``"boolean"``,
``"callable"``, ``"array-like"`` and ``"random_state"``.

Examples
--------
>>> from polyroc._validation._params import Interval, Options, validate_params
>>> @validate_params({"n_boot": [Interval("integer", 1, None, closed="left")], "kind": [Options(("a", "b"))]})
... def draw(n_boot, kind="a"):
...     return n_boot, kind
>>> draw(3, kind="b")
(3, 'b')
>>> draw(0)
Traceback (most recent call last):
...
ValueError: n_boot must be an int in [1, inf); got 0
>>> draw(2.5)
Traceback (most recent call last):
...
TypeError: n_boot must be an int in [1, inf); got float 2.5
>>> draw(1, kind="c")
Traceback (most recent call last):
...
ValueError: kind must be one of 'a', 'b'; got 'c'
"""

from __future__ import annotations

import abc
import functools
import inspect
import math
import numbers
import reprlib
import sys
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Literal, ParamSpec, TypeAlias, TypeVar

import numpy as np

__all__ = [
    "ArrayLikes",
    "Booleans",
    "Callables",
    "Constraint",
    "ConstraintLike",
    "HasMethods",
    "InstancesOf",
    "Interval",
    "NoneValue",
    "Options",
    "RandomStates",
    "check_params",
    "validate_params",
]

P = ParamSpec("P")
R = TypeVar("R")

Closed: TypeAlias = Literal["left", "right", "both", "neither"]

_REPR = reprlib.Repr()
_REPR.maxstring = 60
_REPR.maxother = 60


def _shown(value: object) -> str:
    """A short repr of a received value (long strings, arrays and containers are cut)."""
    return _REPR.repr(value)


class Constraint(abc.ABC):
    """A set of admissible values of one parameter.

    :meth:`is_satisfied_by` says whether a value is in the set,
    :meth:`speaks_of` whether it is of the kind the set is made of (a value
    of that kind outside the set is a ``ValueError``, any other a
    ``TypeError``), and ``str()`` describes the set in an error message.
    """

    __slots__ = ()

    @abc.abstractmethod
    def is_satisfied_by(self, value: object) -> bool:
        """Whether ``value`` is admitted."""

    def speaks_of(self, value: object) -> bool:
        """Whether ``value`` is of this constraint's kind, admitted or not."""
        return self.is_satisfied_by(value)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}: {self}>"


def _is_number(value: object, kind: type) -> bool:
    return isinstance(value, kind) and not isinstance(value, (bool, np.bool_))


class Interval(Constraint):
    """Integers (``"integer"``) or real numbers (``"real"``) between ``low`` and ``high``.

    ``None`` leaves an end unbounded; ``closed`` says which finite ends
    belong to the interval: ``"left"``, ``"right"``, ``"both"`` or
    ``"neither"``. NaN and infinities are never admitted, nor bools.

    >>> Interval("real", 0, 1, closed="right")
    <Interval: a real number in (0, 1]>
    >>> [Interval("integer", 2, None, closed="left").is_satisfied_by(v) for v in (1, 2, np.int64(9), 2.0, True)]
    [False, True, True, False, False]
    """

    __slots__ = ("_kind", "closed", "high", "low", "number")

    def __init__(
        self,
        number: Literal["integer", "real"],
        low: float | None,
        high: float | None,
        *,
        closed: Closed,
    ) -> None:
        if number not in ("integer", "real"):
            raise ValueError(f"number must be 'integer' or 'real'; got {number!r}")
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError(f"closed must be one of 'left', 'right', 'both', 'neither'; got {closed!r}")
        if (low is None and closed in ("left", "both")) or (high is None and closed in ("right", "both")):
            raise ValueError("an unbounded end cannot be closed")
        if low is not None and high is not None and not low < high:
            raise ValueError(f"low must be below high; got {low} and {high}")
        self.number = number
        self.low = low
        self.high = high
        self.closed = closed
        self._kind: type = numbers.Integral if number == "integer" else numbers.Real

    def speaks_of(self, value: object) -> bool:
        return _is_number(value, self._kind)

    def is_satisfied_by(self, value: object) -> bool:
        if isinstance(value, (bool, np.bool_)):
            return False
        if isinstance(value, float):  # float and numpy.float64: no ABC check on the common path
            if self.number == "integer" or not math.isfinite(value):
                return False
        elif not isinstance(value, int):
            if not isinstance(value, self._kind) or not isinstance(value, numbers.Real) or not math.isfinite(value):
                return False
        return self._within(value)

    def _within(self, value: numbers.Real | float) -> bool:
        low, high, closed = self.low, self.high, self.closed
        if low is not None and (value < low or (value == low and closed in ("right", "neither"))):
            return False
        return high is None or value < high or (value == high and closed in ("right", "both"))

    def __str__(self) -> str:
        left = "(-inf" if self.low is None else ("[" if self.closed in ("left", "both") else "(") + f"{self.low:g}"
        right = "inf)" if self.high is None else f"{self.high:g}" + ("]" if self.closed in ("right", "both") else ")")
        noun = "an int" if self.number == "integer" else "a real number"
        return f"{noun} in {left}, {right}"


class Options(Constraint):
    """One of the given hashable values; any other hashable value is a ``ValueError``.

    >>> str(Options(("simplex", "box")))
    "one of 'simplex', 'box'"
    """

    __slots__ = ("options",)

    def __init__(self, options: Iterable[Hashable]) -> None:
        self.options = tuple(options)

    def speaks_of(self, value: object) -> bool:
        return isinstance(value, Hashable)

    def is_satisfied_by(self, value: object) -> bool:
        return (type(value) is str or isinstance(value, Hashable)) and value in self.options

    def __str__(self) -> str:
        return "one of " + ", ".join(repr(option) for option in self.options)


class NoneValue(Constraint):
    """The value None (written ``None`` in a constraint list)."""

    __slots__ = ()

    def is_satisfied_by(self, value: object) -> bool:
        return value is None

    def __str__(self) -> str:
        return "None"


class InstancesOf(Constraint):
    """Instances of a type (written as the type itself in a constraint list).

    >>> str(InstancesOf(np.random.Generator))
    'a numpy.random.Generator'
    """

    __slots__ = ("type",)

    def __init__(self, type_: type) -> None:
        self.type = type_

    def is_satisfied_by(self, value: object) -> bool:
        return isinstance(value, self.type)

    def __str__(self) -> str:
        module = self.type.__module__
        public = ".".join(part for part in module.split(".") if not part.startswith("_"))
        name = self.type.__qualname__ if module == "builtins" else f"{public}.{self.type.__qualname__}"
        article = "an" if name[0].lower() in "aeiou" else "a"
        return f"{article} {name}"


class Booleans(Constraint):
    """``True`` or ``False``, as a bool or a numpy bool (the string ``"boolean"``); 0 and 1 are not."""

    __slots__ = ()

    def is_satisfied_by(self, value: object) -> bool:
        return isinstance(value, (bool, np.bool_))

    def __str__(self) -> str:
        return "a bool"


class Callables(Constraint):
    """Any callable (the string ``"callable"``)."""

    __slots__ = ()

    def is_satisfied_by(self, value: object) -> bool:
        return callable(value)

    def __str__(self) -> str:
        return "a callable"


class ArrayLikes(Constraint):
    """An array-like that is not a scalar (the string ``"array-like"``), as scikit-learn tells them.

    Something with a length, a shape or ``__array__`` (a list, a tuple, an
    array, a DataFrame); a string, a number or a set is not one.
    """

    __slots__ = ()

    def is_satisfied_by(self, value: object) -> bool:
        if isinstance(value, (str, bytes, set, frozenset, Mapping)):
            return False
        if isinstance(value, np.ndarray):
            return True
        if not (hasattr(value, "__len__") or hasattr(value, "shape") or hasattr(value, "__array__")):
            return False
        return not np.isscalar(value)

    def __str__(self) -> str:
        return "an array-like"


class HasMethods(Constraint):
    """Objects with every one of the named methods.

    >>> str(HasMethods(("fit", "predict_proba")))
    "an object with methods 'fit' and 'predict_proba'"
    """

    __slots__ = ("methods",)

    def __init__(self, methods: Sequence[str]) -> None:
        self.methods = tuple(methods)

    def is_satisfied_by(self, value: object) -> bool:
        return all(callable(getattr(value, method, None)) for method in self.methods)

    def __str__(self) -> str:
        names = [repr(method) for method in self.methods]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"an object with method{'s' * (len(names) > 1)} {listed}"


class RandomStates(Constraint):
    """A ``random_state`` (the string ``"random_state"``): None, an int seed >= 0 or a ``numpy.random.Generator``.

    polyroc draws from Generators only: a legacy ``RandomState`` is refused,
    and a seed has no upper bound (:func:`numpy.random.default_rng` takes it).
    """

    __slots__ = ()

    _SEED = Interval("integer", 0, None, closed="left")

    def speaks_of(self, value: object) -> bool:
        return self._SEED.speaks_of(value) or self.is_satisfied_by(value)

    def is_satisfied_by(self, value: object) -> bool:
        return value is None or isinstance(value, np.random.Generator) or self._SEED.is_satisfied_by(value)

    def __str__(self) -> str:
        return f"None, {self._SEED} or a numpy.random.Generator"


ConstraintLike: TypeAlias = Constraint | type | Literal["boolean", "callable", "array-like", "random_state"] | None

_NAMED: dict[str, Constraint] = {
    "boolean": Booleans(),
    "callable": Callables(),
    "array-like": ArrayLikes(),
    "random_state": RandomStates(),
}


def make_constraint(spec: ConstraintLike) -> Constraint:
    """The :class:`Constraint` a constraint-list entry stands for."""
    if isinstance(spec, Constraint):
        return spec
    if spec is None:
        return NoneValue()
    if isinstance(spec, str):
        if spec not in _NAMED:
            raise ValueError(f"unknown constraint name {spec!r}; known: {', '.join(map(repr, _NAMED))}")
        return _NAMED[spec]
    if isinstance(spec, type):
        return InstancesOf(spec)
    raise TypeError(f"a constraint is a Constraint, None, a type or a name; got {spec!r}")


class Rule:
    """The checked constraint list of one parameter."""

    __slots__ = ("constraints", "described", "name")

    def __init__(self, name: str, specs: Sequence[ConstraintLike]) -> None:
        if isinstance(specs, str) or not specs:
            raise TypeError(f"the constraints of {name} must be a non-empty list")
        self.name = name
        self.constraints = tuple(make_constraint(spec) for spec in specs)
        texts = [str(constraint) for constraint in self.constraints]
        self.described = texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]

    def admits(self, value: object) -> bool:
        """Whether ``value`` satisfies one of the constraints."""
        for constraint in self.constraints:
            if constraint.is_satisfied_by(value):
                return True
        return False

    def check(self, value: object) -> None:
        """Raise unless ``value`` satisfies one of the constraints."""
        if self.admits(value):
            return
        if any(constraint.speaks_of(value) for constraint in self.constraints):
            raise ValueError(f"{self.name} must be {self.described}; got {_shown(value)}")
        raise TypeError(f"{self.name} must be {self.described}; got {type(value).__name__} {_shown(value)}")


def _rules(constraints: Mapping[str, Sequence[ConstraintLike]]) -> tuple[Rule, ...]:
    return tuple(Rule(name, specs) for name, specs in constraints.items())


def check_params(constraints: Mapping[str, Sequence[ConstraintLike]], values: Mapping[str, object]) -> None:
    """Check the ``values`` of the parameters named in ``constraints`` (a missing one is not checked).

    For parameters that are not arguments of one call, such as an
    estimator's, checked when it is fitted.

    >>> check_params({"refit": ["boolean"]}, {"refit": 1})
    Traceback (most recent call last):
    ...
    TypeError: refit must be a bool; got int 1
    """
    for rule in _rules(constraints):
        if rule.name in values:
            rule.check(values[rule.name])


def _argument_places(
    qualname: str, signature: inspect.Signature, rules: Sequence[Rule]
) -> tuple[tuple[Rule, int, bool], ...]:
    """Per rule: its position among the positional arguments (a large number for none) and whether a keyword
    can give it; the defaults are checked here, once."""
    places = []
    kinds = inspect.Parameter
    positional = [
        name
        for name, parameter in signature.parameters.items()
        if parameter.kind in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD)
    ]
    for rule in rules:
        parameter = signature.parameters.get(rule.name)
        if parameter is None or parameter.kind in (kinds.VAR_POSITIONAL, kinds.VAR_KEYWORD):
            raise ValueError(f"{qualname} has no parameter {rule.name!r} to constrain")
        if parameter.default is not kinds.empty:
            rule.check(parameter.default)
        position = positional.index(rule.name) if rule.name in positional else sys.maxsize
        places.append((rule, position, parameter.kind is not kinds.POSITIONAL_ONLY))
    return tuple(places)


def validate_params(constraints: Mapping[str, Sequence[ConstraintLike]]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Check the declared arguments of every call of the decorated function before it runs.

    ``constraints`` maps parameter names to lists of admitted values (see the
    module docstring). A call's arguments are bound to the function's
    signature; a parameter left at its default is not checked (the defaults
    are checked once, when the function is decorated). The wrapper keeps the
    function's name, docstring and signature, and ``__wrapped__`` is the
    function itself.

    >>> @validate_params({"seed": ["random_state"]})
    ... def draw(seed=None):
    ...     return seed
    >>> draw(seed=-1)
    Traceback (most recent call last):
    ...
    ValueError: seed must be None, an int in [0, inf) or a numpy.random.Generator; got -1
    >>> draw.__wrapped__(seed=-1)
    -1
    """
    rules = _rules(constraints)

    def decorate(func: Callable[P, R]) -> Callable[P, R]:
        signature = inspect.signature(func)
        places = _argument_places(func.__qualname__, signature, rules)
        bind = signature.bind

        @functools.wraps(func)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            for rule, position, keyword in places:
                if keyword and rule.name in kwargs:
                    value = kwargs[rule.name]
                elif position < len(args):
                    value = args[position]
                else:
                    continue  # left at its default, checked when decorating
                if not rule.admits(value):
                    bind(*args, **kwargs)  # a call that does not fit the signature fails as Python says
                    rule.check(value)
            return func(*args, **kwargs)

        return wrapper

    return decorate
