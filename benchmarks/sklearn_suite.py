"""scikit-learn's own metric tests, run with ``polyroc.metrics`` in place of ``sklearn.metrics``.

``polyroc.metrics`` is meant as a drop-in for ``sklearn.metrics``. This script
takes the test files that ship in the installed scikit-learn wheel
(``sklearn/metrics/tests/test_classification.py``, ``test_ranking.py`` and
``test_common.py``), copies them into a temporary directory and rewrites their
``from sklearn.metrics import (...)`` statements: every name that
``polyroc.metrics`` provides (its ``__all__``) is imported from
``polyroc.metrics``, the names polyroc lacks stay scikit-learn's, and the
private ``sklearn.metrics._x`` helpers (``_check_targets`` and the like) are
left alone. Then it runs pytest on the copies (with scikit-learn's own
``conftest`` as a plugin, for its fixtures) and prints, per file, the tests
passed / failed / errors / skipped, and each failure classified:

- **wording only**: the test failed in a ``pytest.raises(match=...)`` or
  ``pytest.warns(match=...)`` message match and nowhere else. Detected from the
  failure text: the exception or warning had the expected class but its
  message did not match ("Regex pattern did not match ..."; the copies' string
  patterns are compiled so that pytest reports them in that form). To make sure
  the message was the only difference, each such test is run a second time
  with the ``match=`` arguments ignored (expected class still required); only
  if it then passes is it wording only.
- **real**: everything else (wrong value, wrong exception or warning class,
  an exception the test did not expect, a failure after the message match).

With ``--replace-sklearn`` polyroc's functions are also assigned into
``sklearn.metrics`` before the tests run (as a user might, to make scorers and
other scikit-learn code use them), which checks that polyroc's hand-offs to
scikit-learn (multilabel targets, ``average="samples"``) still reach
scikit-learn's own functions.

Nothing is downloaded: tests that need a data set fetched from the network are
skipped by scikit-learn's conftest when it is not cached.

Run: ``python benchmarks/sklearn_suite.py [--replace-sklearn]`` (``-v`` lists
every failure's first line; ``--keep`` keeps the temporary directory and
prints its path).
"""

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import sklearn

import polyroc.metrics

FILES = ("test_classification.py", "test_ranking.py", "test_common.py")
TEST_DIR = Path(sklearn.__file__).parent / "metrics" / "tests"
PROVIDED = frozenset(polyroc.metrics.__all__)
WORDING = re.compile(r"Regex pattern did not match")

# Loaded by the copies' conftest: scikit-learn's fixtures, a record of every
# test report, and (for the second run) ``match=`` ignored.
CONFTEST = """
import json
import os
import re

import pytest

pytest_plugins = ["sklearn.conftest"]

_raises, _warns = pytest.raises, pytest.warns


def _pattern(match):
    # a compiled pattern makes pytest word a mismatch "Regex pattern did not match"
    return re.compile(match) if isinstance(match, str) else match


def raises(*args, match=None, **kwargs):
    if match is not None and not os.environ.get("SUITE_IGNORE_MATCH"):
        kwargs["match"] = _pattern(match)
    return _raises(*args, **kwargs)


def warns(*args, match=None, **kwargs):
    if match is not None and not os.environ.get("SUITE_IGNORE_MATCH"):
        kwargs["match"] = _pattern(match)
    return _warns(*args, **kwargs)


pytest.raises, pytest.warns = raises, warns

if os.environ.get("SUITE_REPLACE_SKLEARN"):
    import sklearn.metrics

    import polyroc.metrics

    for name in polyroc.metrics.__all__:
        if hasattr(sklearn.metrics, name):
            setattr(sklearn.metrics, name, getattr(polyroc.metrics, name))


def pytest_collection_modifyitems(config, items):
    selected = os.environ.get("SUITE_SELECT")
    if selected:
        with open(selected) as handle:
            wanted = set(json.load(handle))
        items[:] = [item for item in items if item.nodeid in wanted]


def pytest_runtest_logreport(report):
    with open(os.environ["SUITE_RECORD"], "a") as handle:
        text = report.longreprtext if report.failed else ""
        row = {"nodeid": report.nodeid, "when": report.when, "outcome": report.outcome, "text": text}
        row["xfail"] = hasattr(report, "wasxfail")
        handle.write(json.dumps(row) + "\\n")
"""


def rewrite_imports(source):
    """``source`` with the names polyroc provides imported from ``polyroc.metrics``."""
    lines = source.splitlines(keepends=True)
    nodes = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module == "sklearn.metrics" and node.level == 0
    ]
    moved = []
    for node in sorted(nodes, key=lambda node: node.lineno, reverse=True):
        names = [(alias.name, alias.asname) for alias in node.names]
        ours = [name for name in names if name[0] in PROVIDED]
        theirs = [name for name in names if name[0] not in PROVIDED]
        indent = " " * node.col_offset
        text = ""
        for module, group in (("sklearn.metrics", theirs), ("polyroc.metrics", ours)):
            if group:
                listed = ", ".join(name if alias is None else f"{name} as {alias}" for name, alias in group)
                text += f"{indent}from {module} import ({listed})\n"
        lines[node.lineno - 1 : node.end_lineno] = [text]
        moved += [name for name, _ in ours]
    return "".join(lines), sorted(set(moved))


def run_pytest(directory, record, select=None, ignore_match=False, replace=False):
    """Run pytest on the copies; the list of test reports it recorded."""
    env = dict(os.environ, SUITE_RECORD=str(record), PYTHONDONTWRITEBYTECODE="1")
    env.pop("SUITE_REPLACE_SKLEARN", None)
    if replace:
        env["SUITE_REPLACE_SKLEARN"] = "1"
    env.pop("SUITE_SELECT", None)
    env.pop("SUITE_IGNORE_MATCH", None)
    if select is not None:
        selection = directory / "selected.json"
        selection.write_text(json.dumps(select))
        env["SUITE_SELECT"] = str(selection)
    if ignore_match:
        env["SUITE_IGNORE_MATCH"] = "1"
    record.unlink(missing_ok=True)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--tb=short", "-o", "addopts="]
    subprocess.run([*command, *FILES], cwd=directory, env=env, capture_output=True, text=True, check=False)
    if not record.exists():
        return []
    return [json.loads(line) for line in record.read_text().splitlines()]


def outcomes(reports):
    """Per test: "passed", "failed", "error", "skipped" or "xfailed", and the failure text."""
    result = {}
    for report in reports:
        nodeid, when, outcome = report["nodeid"], report["when"], report["outcome"]
        status, text = result.get(nodeid, ("passed", ""))
        if outcome == "failed":
            status, text = ("failed" if when == "call" else "error"), text or report["text"]
        elif outcome == "skipped" and status == "passed":
            status = "xfailed" if report["xfail"] else "skipped"
        result[nodeid] = (status, text)
    return result


def first_error_line(text):
    """The first ``E`` line of a pytest failure text (the exception and its message)."""
    for line in text.splitlines():
        if line.startswith("E "):
            return line[1:].strip()
    return text.strip().splitlines()[-1] if text.strip() else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every failure's first line")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument(
        "--replace-sklearn", action="store_true", help="also put polyroc's functions in sklearn.metrics"
    )
    options = parser.parse_args()

    directory = Path(tempfile.mkdtemp(prefix="polyroc-sklearn-suite-"))
    try:
        print(f"scikit-learn {sklearn.__version__} tests from {TEST_DIR}")
        print(f"polyroc {polyroc.__version__} from {Path(polyroc.__file__).parent}")
        for name in FILES:
            source, moved = rewrite_imports((TEST_DIR / name).read_text())
            (directory / name).write_text(source)
            print(f"{name}: from polyroc.metrics: {', '.join(moved)}")
        (directory / "conftest.py").write_text(CONFTEST)
        record = directory / "reports.jsonl"
        replace = options.replace_sklearn
        if replace:
            print("sklearn.metrics holds polyroc's functions of the same names")
        results = outcomes(run_pytest(directory, record, replace=replace))
        if not results:
            raise SystemExit("pytest recorded no test: the copies failed to import or collect")

        candidates = [
            nodeid for nodeid, (status, text) in results.items() if status == "failed" and WORDING.search(text)
        ]
        relaxed = (
            outcomes(run_pytest(directory, record, select=candidates, ignore_match=True, replace=replace))
            if candidates
            else {}
        )
        wording = {nodeid for nodeid in candidates if relaxed.get(nodeid, ("failed",))[0] == "passed"}

        print()
        header = ("file", "passed", "failed", "errors", "skipped", "xfailed", "wording only", "real")
        print("{:<24}{:>8}{:>8}{:>8}{:>9}{:>9}{:>14}{:>6}".format(*header))
        totals = Counter()
        real = []
        for name in FILES:
            counts = Counter()
            for nodeid, (status, text) in results.items():
                if nodeid.split("::")[0] != name:
                    continue
                counts[status] += 1
                if status in ("failed", "error"):
                    if nodeid in wording:
                        counts["wording"] += 1
                    else:
                        counts["real"] += 1
                        real.append((nodeid, first_error_line(text)))
            totals.update(counts)
            row = [counts[key] for key in ("passed", "failed", "error", "skipped", "xfailed", "wording", "real")]
            print("{:<24}{:>8}{:>8}{:>8}{:>9}{:>9}{:>14}{:>6}".format(name, *row))
        row = [totals[key] for key in ("passed", "failed", "error", "skipped", "xfailed", "wording", "real")]
        print("{:<24}{:>8}{:>8}{:>8}{:>9}{:>9}{:>14}{:>6}".format("total", *row))

        print(f"\nreal failures: {len(real)}")
        for nodeid, line in real:
            print(f"  {nodeid}\n      {line[:200]}")
        if options.verbose:
            print(f"\nwording only: {len(wording)}")
            for nodeid in sorted(wording):
                print(f"  {nodeid}\n      {first_error_line(results[nodeid][1])[:200]}")
        if options.keep:
            print(f"\ncopies kept in {directory}")
    finally:
        if not options.keep:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
