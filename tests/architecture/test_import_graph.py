"""polyroc imports one way: the core never imports its outer layers, nor an outer layer one above it; no cycle.

Every import statement of every module is read from the source (``ast``), so
an import inside a function body counts too; only ``if TYPE_CHECKING:``
blocks are left out, since they never run. A result's ``plot`` finds its
Display through the registry of :mod:`polyroc._displays`, which
:mod:`polyroc.plotting` fills when it is imported: the core names no Display.

The import graph: ``from a.b import c`` is an edge to ``a.b.c`` when that is
a module, else to ``a.b``; a package's ``__init__`` is the module ``a.b``; the
implicit import of parent packages is no edge. The package root
``polyroc/__init__.py`` is the façade on top of everything and loads its
names on first use, so its own imports are no edges of the graph.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys

import pytest

from tests.architecture.import_graph import (
    MODULES,
    PACKAGE,
    _cycle_text,
    _imports,
    _is_core,
    _is_type_checking_block,
    _module_name,
    cycles,
    import_graph,
)

CORE_MODULES = sorted(path for module, path in MODULES.items() if _is_core(module))


def test_the_core_is_found():
    names = {_module_name(p) for p in CORE_MODULES}
    assert {"polyroc", "polyroc.metrics", "polyroc.thresholds.tuning", "polyroc.dmf._roc"} <= names
    assert "polyroc.plotting._roc" not in names and "polyroc.cli" not in names
    assert "polyroc.dask._evaluate" not in names


@pytest.mark.parametrize("path", CORE_MODULES, ids=lambda p: _module_name(p))
def test_core_module_does_not_import_outer_layers(path):
    module = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    offending = [
        (line, name)
        for line, name in _imports(tree, module, path.name == "__init__.py")
        if not _is_core(name) or name.startswith("matplotlib")
    ]
    assert offending == [], f"{module} imports {offending}"


#: Outer layer -> the outer layers it must not import (the core it may import is checked above).
ABOVE = {
    "polyroc.plotting": ("polyroc.report", "polyroc.io", "polyroc.cli", "polyroc.dask"),
    "polyroc.report": ("polyroc.cli", "polyroc.dask"),
    "polyroc.dask": ("polyroc.plotting", "polyroc.report", "polyroc.io", "polyroc.cli"),
}


@pytest.mark.parametrize("layer", sorted(ABOVE))
def test_an_outer_layer_does_not_import_the_layers_above_it(layer):
    offending = []
    for module, path in MODULES.items():
        if module == layer or module.startswith(layer + "."):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            offending += [
                (module, line, name)
                for line, name in _imports(tree, module, path.name == "__init__.py")
                if any(name == above or name.startswith(above + ".") for above in ABOVE[layer])
            ]
    assert offending == [], f"{layer} imports {offending}"


def test_the_checker_sees_a_function_level_import():
    source = "class Curves:\n    def plot(self):\n        from polyroc.plotting import RocCurveDisplay\n"
    found = _imports(ast.parse(source), "polyroc.example")
    assert (3, "polyroc.plotting.RocCurveDisplay") in found


def test_the_checker_skips_type_checking_blocks_only():
    source = "if TYPE_CHECKING:\n    import polyroc.plotting\nelse:\n    import polyroc.io\nimport polyroc.report\n"
    assert _imports(ast.parse(source), "polyroc.example") == [(4, "polyroc.io"), (5, "polyroc.report")]


def test_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    assert found == [], "import cycles:\n" + "\n".join(_cycle_text(graph, component) for component in found)


def test_the_graph_follows_the_rules_of_its_edges():
    graph = import_graph()
    assert "polyroc.curves" in graph["polyroc.plotting._roc"]  # from polyroc.curves import OvrRocCurves
    assert "polyroc.plotting._roc" in graph["polyroc.plotting"]  # a package's __init__ is the package
    assert "polyroc.dmf._roc" in graph["polyroc.dmf"]
    assert graph["polyroc"] == {}  # the façade is no source of edges


def test_the_cycle_finder_reports_every_module_of_a_cycle():
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 1}, "d": {}, "e": {"e": 1}, "f": {"d": 1}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert "a -> b (line 1)" in _cycle_text(graph, ["a", "b", "c"])


def test_every_drawable_result_has_a_display():
    """Each result with ``plot`` is drawn by a Display that :mod:`polyroc.plotting` registered."""
    from polyroc import _displays
    from polyroc._results import Drawable

    for module in MODULES:
        importlib.import_module(module)
    drawable = set()
    pending = [Drawable]
    while pending:
        kind = pending.pop()
        drawable.update(kind.__subclasses__())
        pending.extend(kind.__subclasses__())
    names = {kind.__name__ for kind in drawable}
    assert {"Evaluation", "OvrRocCurves", "TuningResult", "RocCloud", "DmfRoc", "GiniRoc"} <= names
    for kind in drawable:
        assert callable(_displays.display_for(kind)), kind


def test_the_flat_namespace_has_one_name_table():
    """``__all__``, ``dir()``, the lazy names and the names for type checkers all come from ``_LOCATIONS``."""
    import polyroc

    table = polyroc._LOCATIONS
    assert sorted(polyroc.__all__) == sorted(["__version__", *table])
    assert set(table) <= set(dir(polyroc))
    for name, module in table.items():
        assert getattr(polyroc, name) is getattr(importlib.import_module(module), name), name
    tree = ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8"))
    checked = {
        (alias.name, node.module)
        for block in ast.walk(tree)
        if _is_type_checking_block(block)
        for node in ast.walk(block)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert checked == set(table.items())


def test_an_unknown_name_of_the_flat_namespace_is_an_attribute_error():
    import polyroc

    with pytest.raises(AttributeError, match="module 'polyroc' has no attribute 'nothing'"):
        polyroc.nothing  # noqa: B018


def test_importing_polyroc_imports_no_heavy_dependency():
    code = (
        "import sys, polyroc\n"
        "heavy = [m for m in ('numpy', 'scipy', 'sklearn', 'matplotlib', 'pandas') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_drawing_a_result_imports_plotting_only_then():
    code = (
        "import sys, polyroc\n"
        "curves = polyroc.ovr_roc_curve([0, 1, 2], [[.6, .3, .1], [.2, .5, .3], [.1, .3, .6]])\n"
        "assert 'polyroc.plotting' not in sys.modules and 'matplotlib' not in sys.modules\n"
        "import matplotlib; matplotlib.use('Agg')\n"
        "print(type(curves.plot()).__name__)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "RocCurveDisplay"


@pytest.mark.slow
def test_the_library_imports_with_docstrings_stripped():
    """``python -OO`` drops every docstring; the ones polyroc fills in at import must not be needed."""
    code = (
        "import polyroc, polyroc.metrics, polyroc.comparison, polyroc.evaluation, polyroc.intervals\n"
        "assert polyroc.metrics.precision_score.__doc__ is None\n"
        "print(polyroc.metrics.precision_score([0, 1, 1], [0, 1, 0]))"
    )
    result = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1.0"
