"""The test suite's own layout: packages throughout, and no test module importing another.

Shared cases, data and oracles live in helper modules (``tests/_oracles``, ``tests/metrics/label_cases.py``,
``tests/evaluation/checks.py``), so that each test module can be run, moved or split on its own.
"""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_every_folder_is_a_package():
    # equal basenames in two folders would otherwise collide in pytest's default import mode
    folders = {path.parent for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts}
    assert sorted(str(folder) for folder in folders if not (folder / "__init__.py").is_file()) == []


def imported_modules(path):
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module


def test_no_test_module_imports_another():
    offenders = {
        path.relative_to(TESTS).as_posix(): imported
        for path in sorted(TESTS.rglob("test_*.py"))
        if (imported := [name for name in imported_modules(path) if name.split(".")[-1].startswith("test_")])
    }
    assert offenders == {}, "move what test modules share to a helper module"
