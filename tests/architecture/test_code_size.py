"""Every source file of polyroc is short enough to read: at most 1,000 lines a file, 100 code lines a function.

Code lines are the lines of a function's body after its docstring that are neither blank nor comments,
counted from the source with ``ast`` (nested functions count towards their parent too).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "polyroc"
SOURCES = sorted(PACKAGE.rglob("*.py"))
MAX_FILE_LINES = 1000
MAX_FUNCTION_CODE_LINES = 100


def code_lines(function: ast.FunctionDef | ast.AsyncFunctionDef, lines: list[str]) -> int:
    body = function.body
    if len(body) > 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring is not code
    first, last = body[0].lineno, function.end_lineno or body[-1].lineno
    return sum(1 for line in lines[first - 1 : last] if line.strip() and not line.strip().startswith("#"))


def test_the_sources_are_found():
    assert len(SOURCES) > 50
    assert PACKAGE / "__init__.py" in SOURCES


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_file_length(path: Path):
    n_lines = len(path.read_text(encoding="utf-8").splitlines())
    assert n_lines <= MAX_FILE_LINES, f"{path.relative_to(PACKAGE)} has {n_lines} lines (at most {MAX_FILE_LINES})"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_function_length(path: Path):
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    too_long = [
        f"{node.name} (line {node.lineno}): {n} code lines"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (n := code_lines(node, lines)) > MAX_FUNCTION_CODE_LINES
    ]
    assert not too_long, f"{path.relative_to(PACKAGE)}: " + "; ".join(too_long)


def test_code_lines_counts_what_it_says():
    source = 'def f(x):\n    """Doc."""\n    # a comment\n\n    y = x\n    return y\n'
    function = ast.parse(source).body[0]
    assert isinstance(function, ast.FunctionDef)
    assert code_lines(function, source.splitlines()) == 2
