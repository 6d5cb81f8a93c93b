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
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "polyroc"
OUTER_LAYERS = ("polyroc.plotting", "polyroc.report", "polyroc.io", "polyroc.cli", "polyroc.dask")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_core(module: str) -> bool:
    return not any(module == layer or module.startswith(layer + ".") for layer in OUTER_LAYERS)


def _is_type_checking_block(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported_names(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The dotted names an import statement reads: ``from a import b`` reads ``a`` and ``a.b``."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:  # relative import: resolve against the package of ``module``
            package = module.split(".") if is_package else module.split(".")[:-1]
            base = package[: len(package) - node.level + 1]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        return [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
    return []


def _imports(tree: ast.AST, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, imported name) of every import statement, at any depth, outside ``if TYPE_CHECKING:`` blocks."""
    found = []

    def visit(nodes) -> None:
        for child in nodes:
            if _is_type_checking_block(child):  # only its ``else:`` runs
                visit(child.orelse)
                continue
            found.extend((child.lineno, name) for name in _imported_names(child, module, is_package))
            visit(ast.iter_child_nodes(child))

    visit(ast.iter_child_nodes(tree))
    return found


def _edges(tree: ast.AST, module: str, is_package: bool, modules) -> dict[str, int]:
    """Imported module -> first line importing it, for the modules of ``modules`` other than ``module``."""
    edges: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix, *names = _imported_names(node, module, is_package)
            targets = [name if name in modules else prefix for name in names]
        else:
            continue
        for target in targets:
            if target in modules and target != module:
                edges.setdefault(target, node.lineno)
    return edges


def _without_type_checking_blocks(tree: ast.AST) -> ast.AST:
    class Strip(ast.NodeTransformer):
        def visit_If(self, node: ast.If) -> ast.AST | list[ast.AST] | None:
            if _is_type_checking_block(node):  # only its ``else:`` runs
                return [self.visit(child) for child in node.orelse] or None
            return self.generic_visit(node)

    return Strip().visit(tree)


def import_graph() -> dict[str, dict[str, int]]:
    """Module -> {imported module: line} of every module of polyroc but the package root (the façade)."""
    graph = {}
    for module, path in MODULES.items():
        tree = _without_type_checking_blocks(ast.parse(path.read_text(encoding="utf-8")))
        graph[module] = {} if module == "polyroc" else _edges(tree, module, path.name == "__init__.py", MODULES)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, {}))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _cycle_text(graph: dict[str, dict[str, int]], component: list[str]) -> str:
    members = set(component)
    lines = [
        f"  {module} -> {target} (line {line})"
        for module in component
        for target, line in sorted(graph[module].items())
        if target in members
    ]
    return f"{len(component)} modules: {', '.join(component)}\n" + "\n".join(lines)


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
