"""A model name holding a comma is refused: the report and the command line list models separated by commas."""

from __future__ import annotations

import numpy as np
import pytest

from polyroc.cli import main
from polyroc.report import build_report


def test_build_report_refuses_a_comma_in_a_model_name():
    y = np.repeat([0, 1, 2], 4)
    P = np.full((12, 3), 1 / 3)
    with pytest.raises(ValueError, match=r"model name 'logistic, balanced' holds a comma"):
        build_report(y, {"logistic, balanced": P, "forest": P})


def test_the_command_line_refuses_a_comma_in_a_model_name_before_any_work(write_scores, tmp_path, capsys):
    y = np.repeat(["a", "b", "c"], 4)
    path = write_scores(y, np.full((12, 3), 1 / 3), ["a", "b", "c"])
    out = tmp_path / "report"
    assert main(["report", "--scores", f"lr, balanced={path}", "--scores", f"rf={path}", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--scores: model name 'lr, balanced' holds a comma" in err and err.count("\n") == 1
    assert not out.exists()
