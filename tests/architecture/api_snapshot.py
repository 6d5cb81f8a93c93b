"""The description of polyroc's public API that ``test_public_api.py`` checks, and the script that writes it.

``python tests/architecture/api_snapshot.py`` writes ``api_1.4.0.json`` next to this file from the polyroc
on ``sys.path``; it was run once on the 1.4.0 release, and the snapshot is kept as that release's record.

What counts as public:

- a module is public when no part of its dotted path starts with an underscore (``polyroc.thresholds.tuning``
  is, ``polyroc.gini._roc`` is not);
- a module's public names are its ``__all__`` (recorded apart too, as what ``from module import *`` gives);
  a public module without ``__all__`` exposes the names it
  defines at its top level (functions, classes, assignments) that do not start with an underscore — the
  names it merely imports are not its own API;
- a function's or class's API is its parameters (name, kind, default ``repr``; annotations are left out, so
  that typing them more precisely is not a change); a class adds its ancestors (polyroc's by name, others by
  dotted path), its public members defined in polyroc (methods with their parameters, properties, other
  attributes) and its dataclass fields.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import json
import pkgutil
import re
import sys
from pathlib import Path
from typing import Any

SNAPSHOT = Path(__file__).with_name("api_1.4.0.json")

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def public_modules() -> list[str]:
    """Every importable public module of polyroc, sorted."""
    import polyroc

    names = ["polyroc"] + [info.name for info in pkgutil.walk_packages(polyroc.__path__, "polyroc.")]
    return sorted(name for name in names if not any(part.startswith("_") for part in name.split(".")))


def _defined_names(module: Any) -> list[str]:
    """The public names a module without ``__all__`` defines at its top level."""
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(target.id for target in node.targets if isinstance(target, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return sorted(name for name in names if not name.startswith("_"))


def _parameters(obj: Any) -> list[list[str]] | None:
    """``[name, kind, default repr]`` for each parameter, or None when Python cannot tell the signature."""
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [
        [
            parameter.name,
            parameter.kind.name,
            "" if parameter.default is inspect.Parameter.empty else _ADDRESS.sub("", repr(parameter.default)),
        ]
        for parameter in signature.parameters.values()
    ]


def _member(cls: type, name: str) -> dict[str, Any] | None:
    """One public member of a class, when a polyroc class defines it."""
    for owner in cls.__mro__:
        if name in vars(owner):
            break
    else:
        return None
    if not owner.__module__.startswith("polyroc"):
        return None
    raw = vars(owner)[name]
    if isinstance(raw, property):
        return {"kind": "property"}
    if isinstance(raw, (staticmethod, classmethod)) or inspect.isfunction(raw):
        return {"kind": "method", "parameters": _parameters(getattr(cls, name))}
    return {"kind": "attribute"}


def _describe_class(cls: type) -> dict[str, Any]:
    members = {}
    for name in dir(cls):
        if name.startswith("_"):
            continue
        member = _member(cls, name)
        if member is not None:
            members[name] = member
    if dataclasses.is_dataclass(cls):
        for field in dataclasses.fields(cls):
            if not field.name.startswith("_"):
                members.setdefault(field.name, {"kind": "field"})
    ancestors = [
        ancestor.__qualname__
        if ancestor.__module__.startswith("polyroc")
        else f"{ancestor.__module__}.{ancestor.__qualname__}"
        for ancestor in cls.__mro__[1:]
    ]
    return {
        "kind": "class",
        "ancestors": ancestors,
        "parameters": _parameters(cls),
        "members": dict(sorted(members.items())),
    }


def describe(obj: Any) -> dict[str, Any]:
    """The API entry of one public object."""
    if inspect.ismodule(obj):
        return {"kind": "module"}
    if inspect.isclass(obj):
        return _describe_class(obj)
    if callable(obj):
        return {"kind": "function", "parameters": _parameters(obj)}
    return {"kind": "value", "type": type(obj).__name__}


def describe_api() -> dict[str, dict[str, Any]]:
    """``{module: {name: entry}}`` for every public module of the polyroc on ``sys.path``."""
    api = {}
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        exported = getattr(module, "__all__", None)
        names = sorted(exported) if exported is not None else _defined_names(module)
        api[module_name] = {name: describe(getattr(module, name)) for name in names}
    return api


def star_exports() -> dict[str, list[str]]:
    """``{module: sorted __all__}`` for every public module that has an ``__all__``."""
    exports = {}
    for module_name in public_modules():
        exported = getattr(importlib.import_module(module_name), "__all__", None)
        if exported is not None:
            exports[module_name] = sorted(exported)
    return exports


def main() -> None:
    import polyroc

    snapshot = {"version": polyroc.__version__, "modules": describe_api(), "star_exports": star_exports()}
    SNAPSHOT.write_text(json.dumps(snapshot, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT} ({sum(map(len, snapshot['modules'].values()))} names)", file=sys.stderr)


if __name__ == "__main__":
    main()
