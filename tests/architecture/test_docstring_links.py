"""Reference docstrings link public names only: a private name is no page a reader can open."""

from __future__ import annotations

import importlib
import re

import pytest

from polyroc.thresholds import tune_thresholds

ROLE = re.compile(r":(?:func|class|meth|mod|attr|data):`~?([\w.]+)`")


def _resolve(name, default_module):
    """The object ``name`` stands for: a dotted path from its module, or a name of ``default_module``."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            found = getattr(found, attribute)
        return found
    return getattr(importlib.import_module(default_module), name)


@pytest.mark.parametrize("function", [tune_thresholds])
def test_every_link_of_the_docstring_names_a_public_object(function):
    names = ROLE.findall(function.__doc__)
    assert names, "the docstring links other names"
    private = [name for name in names if any(part.startswith("_") for part in name.split("."))]
    assert private == []
    for name in names:
        assert _resolve(name, "polyroc.thresholds") is not None
