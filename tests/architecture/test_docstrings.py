"""Every public name's docstring has the numpydoc sections its reference page shows.

The rule, per kind of object (the canonical objects of the API reference, and the public
methods that classes define themselves):

- a function or method with parameters: Parameters (naming every parameter), Returns (or
  Yields), Raises, See Also and Examples;
- a method without parameters: Returns, See Also and Examples;
- a class: See Also and Examples, and Parameters or Attributes when it takes arguments;
- a warning or exception class: See Also and Examples.

Docstrings cite papers, never files a reader cannot open.
"""

import importlib
import inspect
import sys
from pathlib import Path

import pytest

docscrape = pytest.importorskip("numpydoc.docscrape")

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _modules():
    sys.path.insert(0, str(DOCS))
    try:
        import api_pages
    finally:
        sys.path.remove(str(DOCS))
    return api_pages


def _own_methods(cls):
    for name, member in vars(cls).items():
        if name.startswith("_"):
            continue
        function = member.__func__ if isinstance(member, classmethod | staticmethod) else member
        if inspect.isfunction(function):
            yield name, function


def documented_objects():
    """(dotted name, object, kind) of every public function, class and own public method."""
    api_pages = _modules()
    pages = api_pages.canonical_pages()
    found = []
    for module_name in api_pages.MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            dotted = f"{module_name}.{name}"
            if pages[id(obj)] != dotted:
                continue
            if inspect.isclass(obj):
                kind = "warning" if issubclass(obj, BaseException) else "class"
                found.append((dotted, obj, kind))
                found += [(f"{dotted}.{method}", function, "function") for method, function in _own_methods(obj)]
            elif callable(obj):
                found.append((dotted, obj, "function"))
    return found


def _parameters(function):
    skipped = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    signature = inspect.signature(function)
    return [name for name, p in signature.parameters.items() if name not in ("self", "cls") and p.kind not in skipped]


def missing_sections(obj, kind):
    doc = docscrape.NumpyDocString(inspect.getdoc(obj) or "")
    required = ["See Also", "Examples"]
    missing = [section for section in required if not doc[section]]
    if kind == "function":
        parameters = _parameters(obj)
        if not (doc["Returns"] or doc["Yields"]):
            missing.append("Returns")
        if parameters:
            missing += [section for section in ("Parameters", "Raises") if not doc[section]]
            described = {name.strip() for entry in doc["Parameters"] for name in entry.name.split(",")}
            described = {name.lstrip("*") for name in described}
            missing += [f"parameter {name!r}" for name in parameters if doc["Parameters"] and name not in described]
    elif kind == "class":
        try:
            takes_arguments = bool(_parameters(obj))
        except (TypeError, ValueError):
            takes_arguments = False
        if takes_arguments and not (doc["Parameters"] or doc["Attributes"]):
            missing.append("Parameters or Attributes")
    return missing


OBJECTS = documented_objects()


def test_the_reference_covers_the_public_names():
    assert len(OBJECTS) > 200


@pytest.mark.parametrize(("name", "obj", "kind"), OBJECTS, ids=[name for name, _, _ in OBJECTS])
def test_docstring_has_its_sections(name, obj, kind):
    assert missing_sections(obj, kind) == []


PAPER_MODULES = ("polyroc.thresholds", "polyroc.dmf", "polyroc.gini")


@pytest.mark.parametrize("module_name", PAPER_MODULES)
def test_paper_methods_cite_their_paper_in_references(module_name):
    functions = [
        (name, obj)
        for name, obj, kind in OBJECTS
        if name.startswith(module_name + ".") and kind == "function" and name.count(".") == 2
    ]
    uncited = [
        name
        for name, obj in functions
        if not any("arXiv" in line for line in docscrape.NumpyDocString(inspect.getdoc(obj))["References"])
    ]
    assert functions
    assert uncited == []


@pytest.mark.parametrize(("name", "obj", "kind"), OBJECTS, ids=[name for name, _, _ in OBJECTS])
def test_docstring_cites_no_internal_file(name, obj, kind):
    text = inspect.getdoc(obj) or ""
    for internal in ("specs/", "seeds/", "spec §", ".md§", "the spec"):
        assert internal not in text
