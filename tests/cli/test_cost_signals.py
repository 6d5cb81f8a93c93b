"""A stop signal during the decisions of ``polyroc report --cost-matrix`` (reading the cost file, the decisions
step, the EM estimate of the priors) stops the command with one line and leaves the earlier report as it was."""

import json
import os
import shutil
import signal

import pytest

from polyroc.cli import main
from tests.cli.signal_driver import DRIVER, VERBS, leftovers, one_line, run_python, scores_csv_text

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs POSIX signals"),
    pytest.mark.slow,  # whole reports in subprocesses: not in the quick run (-m "not slow")
]

COSTS = "true,a,b,c\na,0,1,1\nb,5,0,1\nc,2,1,0\n"
REPORT = ["report", "--scores", "scores.csv", "--val", "val.csv", "--cost-matrix", "costs.csv"]


@pytest.fixture(scope="module")
def earlier(tmp_path_factory):
    """Scores, validation scores, a cost file and a report with its decisions section, written by polyroc."""
    root = tmp_path_factory.mktemp("earlier")
    (root / "scores.csv").write_text(scores_csv_text(0))
    (root / "val.csv").write_text(scores_csv_text(1))
    (root / "costs.csv").write_text(COSTS)
    argv = [*REPORT, "--n-boot", "5", "--no-progress", "--out", str(root / "report")]
    cwd = os.getcwd()
    os.chdir(root)
    try:
        assert main(argv) == 0
    finally:
        os.chdir(cwd)
    return root


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


POINTS = [
    ("polyroc.io.read_cost_matrix", 1, "SIGINT"),
    ("polyroc.report._analysis.decision_analysis", 1, "SIGTERM"),
    ("polyroc.report._decisions.estimate_priors", 1, "SIGHUP"),
]


@pytest.mark.parametrize("target, call, name", POINTS)
def test_report_with_costs_stopped_during_the_decisions(earlier, tmp_path, target, call, name):
    work = tmp_path / "w"
    shutil.copytree(earlier, work)
    before = _tree(work / "report")
    assert json.loads((work / "report" / "results.json").read_text())["models"]["scores"]["decisions"]
    argv = [*REPORT, "--target-priors", "estimate", "--n-boot", "6", "--no-progress", "--out", "report"]
    result = run_python(["-c", DRIVER, target, str(call), name, *argv], work)
    assert result.returncode == 128 + getattr(signal, name)
    assert one_line(result.stderr) == f"polyroc report: {VERBS[name]} by {name}; --out report left as it was"
    assert leftovers(work) == []
    assert _tree(work / "report") == before
