"""Fixtures shared by the test modules."""

import pytest


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
