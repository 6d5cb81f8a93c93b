"""No public function or method of polyroc is annotated with a bare ``Any``.

The public functions are those of the API snapshot (``api_snapshot.py`` says what counts as public): every
public name of every public module, and the public methods that polyroc's public classes define. A parameter
or a return annotated ``Any`` (or ``Any | None``) says nothing to a reader or to a type checker; an array, a
mapping, an Axes, a Display or a literal option has a precise type. ``ALLOWED`` lists the few places where
``Any`` is the right type, each with its reason.
"""

from __future__ import annotations

import importlib
import inspect
import typing

from tests.architecture.api_snapshot import public_modules

# (qualified name, parameter name or "return"): why ``Any`` is right there
ALLOWED: dict[tuple[str, str], str] = {
    # the base of every Display: each subclass narrows ``result`` to the result type it draws (checked at run time
    # against ``result_type``), which a narrower type here would make an incompatible override
    ("polyroc.plotting._base.Display.from_result", "result"): "each Display narrows it to its result type",
}

_BARE = {"Any", "Any | None", "None | Any", "Optional[Any]", "typing.Any", "t.Any"}


def _is_bare_any(annotation: object) -> bool:
    if isinstance(annotation, str):
        return annotation.replace("typing.", "").strip() in _BARE
    if annotation is typing.Any:
        return True
    arguments = typing.get_args(annotation)
    return typing.get_origin(annotation) in (typing.Union, getattr(__import__("types"), "UnionType", None)) and (
        set(arguments) <= {typing.Any, type(None)}
    )


def _public_names(module):
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return sorted(exported)
    return sorted(
        name
        for name, value in vars(module).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
    )


def _where(function):
    """Where a function is defined (an inherited method is named once, by the class that defines it)."""
    return f"{function.__module__}.{function.__qualname__}"


def public_callables():
    """``{qualified name: function}`` for every public function and method of polyroc's public modules."""
    found = {}
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name in _public_names(module):
            value = getattr(module, name, None)
            if inspect.isclass(value) and value.__module__.startswith("polyroc"):
                for owner in value.__mro__:
                    if not owner.__module__.startswith("polyroc"):
                        continue
                    for member_name, member in vars(owner).items():
                        if member_name.startswith("_") and member_name != "__init__":
                            continue
                        # a classmethod or staticmethod holds its function in __func__, a property in fget,
                        # scikit-learn's available_if in fn
                        function = member.fget if isinstance(member, property) else member
                        function = getattr(function, "__func__", getattr(function, "fn", function))
                        if inspect.isfunction(function):
                            found.setdefault(_where(function), function)
            elif inspect.isfunction(value) and value.__module__.startswith("polyroc"):
                found.setdefault(_where(value), value)
    return found


def bare_any_annotations():
    """``[(qualified name, parameter or "return")]`` annotated with a bare ``Any``, allowed ones left out."""
    found = []
    for qualified, function in sorted(public_callables().items()):
        parameters = inspect.signature(function).parameters
        for name, annotation in inspect.get_annotations(function).items():
            # ``*args: Any`` and ``**kwargs: Any`` pass arguments through (to matplotlib, a Display, an estimator)
            if name in parameters and parameters[name].kind in (
                parameters[name].VAR_POSITIONAL,
                parameters[name].VAR_KEYWORD,
            ):
                continue
            if _is_bare_any(annotation) and (qualified, name) not in ALLOWED:
                found.append((qualified, name))
    return found


def test_public_functions_have_no_bare_any():
    found = bare_any_annotations()
    assert not found, f"{len(found)} public annotations are a bare Any:\n" + "\n".join(
        f"{qualified}: {name}" for qualified, name in found
    )


def test_every_allowed_any_is_still_there():
    # an entry that no longer matches anything is stale and goes
    functions = public_callables()
    stale = [
        key
        for key in ALLOWED
        if key[0] not in functions or not _is_bare_any(inspect.get_annotations(functions[key[0]]).get(key[1]))
    ]
    assert not stale, stale
