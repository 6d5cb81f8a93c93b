"""Every public name and parameter of polyroc 1.4.0 is still there, from the same import path.

``api_1.4.0.json`` was written by ``api_snapshot.py`` from the 1.4.0 release (its docstring says what counts
as public). New modules, names, members and parameters are allowed; a parameter added to a function must
have a default, so that the calls 1.4.0 accepted still work.
"""

import importlib
import json

import pytest

from tests.architecture.api_snapshot import SNAPSHOT, describe

SNAPSHOT_1_4 = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
RECORDED = SNAPSHOT_1_4["modules"]


def parameter_changes(before, after):
    """How the parameters ``after`` break the calls the parameters ``before`` accepted ([] when none)."""
    if before is None:
        return []
    if after is None:
        return ["the signature can no longer be read"]
    changes = []
    now = {name: (kind, default) for name, kind, default in after}
    for name, kind, default in before:
        if name not in now:
            changes.append(f"parameter {name!r} removed")
        elif now[name] != (kind, default):
            changes.append(f"parameter {name!r}: {kind} default {default!r} became {now[name][0]} {now[name][1]!r}")
    positional = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")
    order_before = [name for name, kind, _ in before if kind in positional]
    order_after = [name for name, kind, _ in after if kind in positional]
    if order_after[: len(order_before)] != order_before:
        changes.append(f"positional order {order_before} became {order_after}")
    old = {name for name, _, _ in before}
    for name, kind, default in after:
        if name not in old and default == "" and kind not in ("VAR_POSITIONAL", "VAR_KEYWORD"):
            changes.append(f"new parameter {name!r} has no default")
    return changes


def entry_changes(before, after):
    """How the API entry ``after`` differs incompatibly from the 1.4.0 entry ``before``."""
    if after["kind"] != before["kind"]:
        return [f"was a {before['kind']}, is a {after['kind']}"]
    changes = parameter_changes(before.get("parameters"), after.get("parameters"))
    if before["kind"] == "value" and after["type"] != before["type"]:
        changes.append(f"was a {before['type']}, is a {after['type']}")
    if before["kind"] == "class":
        lost = [ancestor for ancestor in before["ancestors"] if ancestor not in after["ancestors"]]
        if lost:
            changes.append(f"no longer derives from {lost}")
        for name, member in before["members"].items():
            if name not in after["members"]:
                changes.append(f"member {name!r} removed")
            else:
                changes += [f"member {name!r}: {change}" for change in entry_changes(member, after["members"][name])]
    return changes


@pytest.mark.parametrize("module", sorted(RECORDED))
def test_public_module_keeps_its_1_4_api(module):
    # each name is looked up where 1.4.0 users import it from, however the module now defines or re-exports it
    try:
        imported = importlib.import_module(module)
    except ImportError as error:
        pytest.fail(f"public module {module} is gone: {error}")
    problems = []
    for name, before in RECORDED[module].items():
        if not hasattr(imported, name):
            problems.append(f"{module}.{name} is gone")
        else:
            problems += [
                f"{module}.{name}: {change}" for change in entry_changes(before, describe(getattr(imported, name)))
            ]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("module", sorted(SNAPSHOT_1_4["star_exports"]))
def test_star_import_keeps_its_1_4_names(module):
    exported = getattr(importlib.import_module(module), "__all__", [])
    assert sorted(set(SNAPSHOT_1_4["star_exports"][module]) - set(exported)) == []


def test_the_checks_see_a_removed_or_renamed_parameter():
    before = [["y_true", "POSITIONAL_OR_KEYWORD", ""], ["average", "KEYWORD_ONLY", "'macro'"]]
    assert parameter_changes(before, [*before, ["new", "KEYWORD_ONLY", "None"]]) == []
    assert parameter_changes(before, [["y", "POSITIONAL_OR_KEYWORD", ""], before[1]]) == [
        "parameter 'y_true' removed",
        "positional order ['y_true'] became ['y']",
        "new parameter 'y' has no default",
    ]
    assert parameter_changes(before, [before[0], ["average", "KEYWORD_ONLY", "'micro'"]]) == [
        "parameter 'average': KEYWORD_ONLY default \"'macro'\" became KEYWORD_ONLY \"'micro'\""
    ]
