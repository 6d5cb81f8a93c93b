"""The core of polyroc never imports its drawing, report or command-line layers.

Every import statement of every module is read from the source (``ast``), so
an import inside a function body counts too. The exceptions: the body of a
result's ``plot`` method, which may import :mod:`polyroc.plotting` to hand the
result to its Display, and ``if TYPE_CHECKING:`` blocks, which never run (the
flat namespace names ``build_report`` there for type checkers and imports it
only when it is used).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "polyroc"
OUTER_LAYERS = ("polyroc.plotting", "polyroc.report", "polyroc.cli")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_core(module: str) -> bool:
    return not any(module == layer or module.startswith(layer + ".") for layer in OUTER_LAYERS)


def _imported_names(node: ast.AST, module: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:  # relative import: resolve against the package of ``module``
            base = module.split(".")[: -node.level or None]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        return [prefix] + [f"{prefix}.{alias.name}" for alias in node.names]
    return []


def _imports_outside_plot_methods(tree: ast.AST, module: str):
    """(line, imported name) of every import not inside a method named ``plot``."""
    found = []

    def visit(node, in_plot):
        for child in ast.iter_child_nodes(node):
            if _is_type_checking_block(child):
                continue
            inside = in_plot or (isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and child.name == "plot")
            found.extend((child.lineno, name) for name in _imported_names(child, module) if not inside)
            visit(child, inside)

    visit(tree, False)
    return found


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _plot_method_imports(tree: ast.AST, module: str):
    """(line, imported name) of the imports inside methods named ``plot``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "plot":
            for child in ast.walk(node):
                found.extend((child.lineno, name) for name in _imported_names(child, module))
    return found


CORE_MODULES = sorted(p for p in PACKAGE.rglob("*.py") if _is_core(_module_name(p)))


def test_the_core_is_found():
    names = {_module_name(p) for p in CORE_MODULES}
    assert {"polyroc", "polyroc.metrics", "polyroc.thresholds.tuning", "polyroc.dmf._roc"} <= names
    assert "polyroc.plotting._roc" not in names and "polyroc.cli" not in names


@pytest.mark.parametrize("path", CORE_MODULES, ids=lambda p: _module_name(p))
def test_core_module_does_not_import_outer_layers(path):
    module = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    offending = [
        (line, name)
        for line, name in _imports_outside_plot_methods(tree, module)
        if not _is_core(name) or name.startswith("matplotlib")
    ]
    assert offending == [], f"{module} imports {offending}"


@pytest.mark.parametrize("path", CORE_MODULES, ids=lambda p: _module_name(p))
def test_plot_methods_import_only_plotting(path):
    module = _module_name(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for line, name in _plot_method_imports(tree, module):
        assert name.startswith("polyroc.plotting"), f"{module}:{line} plot() imports {name}"


def test_the_checker_sees_a_function_level_import(tmp_path):
    source = "def helper():\n    from polyroc.plotting import RocCurveDisplay\n"
    found = _imports_outside_plot_methods(ast.parse(source), "polyroc.example")
    assert (2, "polyroc.plotting.RocCurveDisplay") in found


def test_importing_polyroc_imports_no_heavy_dependency():
    code = (
        "import sys, polyroc\n"
        "heavy = [m for m in ('numpy', 'scipy', 'sklearn', 'matplotlib', 'pandas') if m in sys.modules]\n"
        "print(','.join(heavy))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


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
