"""Fixtures shared by the test modules, and the hypothesis profiles.

Under ``CI=true`` property tests are derandomized (the examples follow from each
test's source) and keep no example database, so a CI run never depends on what
an earlier run found; local runs keep exploring new examples.
"""

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")


@pytest.fixture
def write_scores(tmp_path):
    """Write a score CSV (one column per class, then ``label``) into tmp_path; return its path."""

    def write(y, P, classes, name="scores.csv"):
        lines = [",".join([*classes, "label"])]
        lines += [",".join([*(f"{v:.17g}" for v in row), label]) for row, label in zip(P, y)]
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return path

    return write
