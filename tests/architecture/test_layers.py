"""Data flows one way through polyroc's layers, and its subpackages import each other without a cycle.

:data:`LAYERS` is the architecture of ``docs/architecture.md`` as a table:
each top-level module or subpackage of polyroc has a rank, and a module may
import only modules of its own top-level package or of a lower or equal rank.
The graph of the top-level packages must have no cycle either: importing a
submodule runs its package's ``__init__`` first, so a cycle between two
packages can break an import at run time even when no two modules import
each other. The module graph is the one of ``test_import_graph.py`` (``ast``,
imports in function bodies included, ``if TYPE_CHECKING:`` blocks left out).
"""

from __future__ import annotations

import pytest

from tests.architecture.import_graph import MODULES, cycles, import_graph

#: Top-level module or subpackage of polyroc -> its layer; lower layers never import higher ones.
LAYERS = {
    # foundations: no polyroc import but each other
    "polyroc._version": 0,
    "polyroc._displays": 0,
    "polyroc.exceptions": 0,
    "polyroc._warnings": 0,
    "polyroc._text": 0,
    "polyroc._class_names": 0,
    "polyroc._lazy": 0,
    # the checks of every input and parameter
    "polyroc._validation": 1,
    # kernels on checked inputs, and the result protocol
    "polyroc._engine": 2,
    "polyroc._results": 2,
    "polyroc._estimators": 2,
    # metrics on labels, counts and scores
    "polyroc.counts": 3,
    "polyroc.probability": 3,
    "polyroc.metrics": 3,
    "polyroc.curves": 3,
    # intervals and paired comparisons (resampling and comparison: their 1.4 import paths)
    "polyroc.intervals": 4,
    "polyroc.resampling": 4,
    "polyroc.comparison": 4,
    # the analyses (streaming: the 1.4 import path of the accumulators)
    "polyroc.evaluation": 5,
    "polyroc.streaming": 5,
    "polyroc.thresholds": 5,
    "polyroc.dmf": 5,
    "polyroc.gini": 5,
    "polyroc.calibration": 5,
    "polyroc.decisions": 5,
    # drawing, files and bundled data
    "polyroc.plotting": 6,
    "polyroc.io": 6,
    "polyroc.datasets": 6,
    # the report, the cluster engine and the command line
    "polyroc.report": 7,
    "polyroc.dask": 8,
    "polyroc.cli": 9,
}


def top_level(module: str) -> str:
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """Top-level package -> {top-level package it imports: a line}, the package root left out."""
    packages: dict[str, dict[str, int]] = {}
    for module, targets in graph.items():
        if module == "polyroc":
            continue
        edges = packages.setdefault(top_level(module), {})
        for target, line in targets.items():
            if top_level(target) != top_level(module):
                edges.setdefault(top_level(target), line)
    return packages


GRAPH = import_graph()


def test_every_module_has_a_layer():
    unplaced = sorted({top_level(m) for m in MODULES if m != "polyroc"} - set(LAYERS))
    assert not unplaced, f"give these a layer in LAYERS (and docs/architecture.md): {unplaced}"


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m != "polyroc"))
def test_imports_go_down_the_layers(module):
    rank = LAYERS[top_level(module)]
    upward = [
        f"{module} imports {target} (line {line}): layer {rank} -> {LAYERS[top_level(target)]}"
        for target, line in GRAPH[module].items()
        if target != "polyroc" and top_level(target) != top_level(module) and LAYERS[top_level(target)] > rank
    ]
    assert not upward, "; ".join(upward)


def test_no_module_imports_the_package_root():
    importing = sorted(module for module, targets in GRAPH.items() if "polyroc" in targets)
    assert not importing, f"the package root is the façade on top; these import it: {importing}"


def test_the_packages_import_each_other_without_a_cycle():
    packages = package_graph(GRAPH)
    found = cycles(packages)
    assert not found, f"cycles between top-level packages: {found}"


def test_the_package_cycle_check_can_fail():
    graph = {"polyroc.a.x": {"polyroc.b.y": 3}, "polyroc.b.z": {"polyroc.a": 5}, "polyroc.a": {}, "polyroc.b.y": {}}
    packages = package_graph(graph)
    assert packages["polyroc.a"] == {"polyroc.b": 3} and packages["polyroc.b"] == {"polyroc.a": 5}
    assert [sorted(c) for c in cycles(packages)] == [["polyroc.a", "polyroc.b"]]
