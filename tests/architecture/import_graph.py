"""The import graph of polyroc, read from its source with ``ast`` (imports in function bodies included).

``from a.b import c`` is an edge to ``a.b.c`` when that is a module, else to
``a.b``; a package's ``__init__`` is the module ``a.b``; the implicit import of
parent packages is no edge; ``if TYPE_CHECKING:`` blocks are left out, since
they never run. The package root ``polyroc/__init__.py`` is the façade on top
of everything and loads its names on first use, so its own imports are no
edges of the graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

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
