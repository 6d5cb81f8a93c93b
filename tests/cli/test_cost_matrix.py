"""Cost matrix files (``polyroc.io.read_cost_matrix``) and the commands that take them: ``apply --cost-matrix``
(Bayes decisions, brute force on the same probabilities) and ``report --cost-matrix`` (costs equal
``expected_cost`` of the decisions recomputed here), with integer class names past 10 matched by name."""

import json

import numpy as np
import pandas as pd
import pytest

from polyroc.cli import main
from polyroc.decisions import expected_cost
from polyroc.io import read_cost_matrix

M = 12
NAMES = [str(k) for k in range(M)]


def _costs():
    """A triage-like matrix: missing class 0 costs 8, deciding 0 wrongly 2, other mistakes 1."""
    C = 1.0 - np.eye(M)
    C[1:, 0] = 2.0
    C[0, 1:] = 8.0
    return C


def _write_costs(path, C, rows, columns):
    """Write C (in class order 0..M-1) with its rows and columns in the given orders of class indices."""
    frame = pd.DataFrame(C[np.ix_(rows, columns)], index=[NAMES[k] for k in rows], columns=[NAMES[k] for k in columns])
    frame.index.name = "true\\decided"
    frame.to_csv(path)
    return path


def _scores(seed, n):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, M, n)
    P = rng.dirichlet(np.ones(M), n)
    P[np.arange(n), y] += rng.uniform(0, 0.6, n)
    return y, P / P.sum(axis=1, keepdims=True)


def _write_scores(path, y, P, order):
    """Score columns in the given order of class indices (text order puts "10" before "2")."""
    frame = pd.DataFrame(P[:, order], columns=[NAMES[k] for k in order])
    frame["label"] = y
    frame.to_csv(path)
    return path


def test_read_cost_matrix_matches_integer_names_by_name_not_position(tmp_path):
    C = _costs()
    rows, columns = np.random.default_rng(0).permutation(M), np.argsort(NAMES)  # columns in text order
    frame = read_cost_matrix(_write_costs(tmp_path / "c.csv", C, rows, columns))
    assert frame.index.tolist() == list(range(M)) and frame.columns.tolist() == list(range(M))
    np.testing.assert_array_equal(frame.to_numpy(), C)
    again = read_cost_matrix(tmp_path / "c.csv", classes=["3", "11", "0", "1", "2", "4", "5", "6", "7", "8", "9", "10"])
    assert again.loc["11", "0"] == C[11, 0] and again.loc["0", "11"] == C[0, 11]


@pytest.mark.parametrize(
    "text, message",
    [
        ("t,a,b\na,0,1\n", "not square: 1 rows"),
        ("t,a,b\na,0,1\nc,1,0\n", "must name the same classes"),
        ("t,a,b\na,0,x\nb,1,0\n", "line 2, column 'b': 'x' is not a number"),
        ("t,a,b\na,0,nan\nb,1,0\n", "the cost 'nan' is not finite"),
        ("t,a,b\na,0,-1\nb,1,0\n", "the cost '-1' is negative"),
        ("t,a,b\na,0,1\na,1,0\n", "the true class 'a' has more than one row"),
        ("t,a,a\na,0,1\nb,1,0\n", "appears twice in the header"),
        ("t,a,b\na,0,1,3\nb,1,0\n", "line 2 has 4 cells"),
        ("t,a\na,0\n", "a cost matrix needs 2 classes"),
        ("", "is empty"),
    ],
)
def test_bad_cost_files_are_refused_naming_the_file(tmp_path, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as error:
        read_cost_matrix(path)
    assert str(path) in str(error.value)


def test_a_cost_file_of_other_classes_than_the_scores_is_refused(tmp_path):
    path = tmp_path / "c.csv"
    path.write_text("t,a,b\na,0,1\nb,1,0\n")
    with pytest.raises(ValueError, match=r"lacks the classes \['c'\].*score classes"):
        read_cost_matrix(path, classes=["a", "b", "c"])
    with pytest.raises(FileNotFoundError, match="no such cost matrix file"):
        read_cost_matrix(tmp_path / "missing.csv")


def test_apply_writes_the_brute_force_bayes_decisions_and_rejections(tmp_path, capsys):
    C = _costs()
    y, P = _scores(1, 200)
    order = np.argsort(NAMES)
    scores = _write_scores(tmp_path / "s.csv", y, P, order)
    costs = _write_costs(tmp_path / "c.csv", C, np.random.default_rng(2).permutation(M), np.arange(M)[::-1])
    out = tmp_path / "p.csv"
    assert main(["apply", "--scores", str(scores), "--cost-matrix", str(costs), "--out", str(out), "-q"]) == 0
    written = pd.read_csv(out)["prediction"].to_numpy()
    brute = np.array([min(range(M), key=lambda j: sum(p[i] * C[i, j] for i in range(M))) for p in P])
    np.testing.assert_array_equal(written, brute)
    printed = capsys.readouterr().out
    assert f"expected cost on {scores}: {expected_cost(y, brute, cost_matrix=C, labels=range(M)):.6f}" in printed
    rejected = tmp_path / "r.csv"
    argv = ["apply", "--scores", str(scores), "--cost-matrix", str(costs), "--reject-cost", "0.6", "--out"]
    assert main([*argv, str(rejected), "-q"]) == 0
    least = np.array([min(p @ C[:, j] for j in range(M)) for p in P])
    decided = pd.read_csv(rejected, dtype=str)["prediction"].to_numpy()
    np.testing.assert_array_equal(decided == "reject", least > 0.6)
    np.testing.assert_array_equal(decided[least <= 0.6].astype(int), brute[least <= 0.6])


def test_apply_refuses_thresholds_with_costs_and_a_reject_cost_without_costs(tmp_path, capsys):
    y, P = _scores(3, 30)
    scores = _write_scores(tmp_path / "s.csv", y, P, np.arange(M))
    costs = _write_costs(tmp_path / "c.csv", _costs(), np.arange(M), np.arange(M))
    tau = tmp_path / "tau.json"
    tau.write_text("{}")
    base = ["apply", "--scores", str(scores), "--out", str(tmp_path / "p.csv")]
    assert main([*base, "--cost-matrix", str(costs), "--tau", str(tau)]) == 2
    assert "--tau and --cost-matrix are two rules" in capsys.readouterr().err
    assert main([*base, "--calibration", str(tau), "--reject-cost", "0.5"]) == 2
    assert "--reject-cost" in capsys.readouterr().err
    assert not (tmp_path / "p.csv").exists()


def test_apply_refuses_a_cost_file_of_other_classes(tmp_path, capsys):
    y, P = _scores(4, 30)
    scores = _write_scores(tmp_path / "s.csv", y, P, np.arange(M))
    costs = tmp_path / "c.csv"
    costs.write_text("t,0,1\n0,0,1\n1,1,0\n")
    assert main(["apply", "--scores", str(scores), "--cost-matrix", str(costs), "--out", str(tmp_path / "p.csv")]) == 2
    assert f"(the classes of --cost-matrix {costs})" in capsys.readouterr().err


@pytest.mark.parametrize(
    "priors, message",
    [("0.5,0.5", "gives 2 priors but there are 12 classes"), ("0=1.0", "missing"), ("x", "expected 'estimate'")],
)
def test_report_refuses_bad_target_priors_before_any_work(tmp_path, capsys, priors, message):
    y, P = _scores(5, 60)
    scores = _write_scores(tmp_path / "s.csv", y, P, np.arange(M))
    costs = _write_costs(tmp_path / "c.csv", _costs(), np.arange(M), np.arange(M))
    argv = ["report", "--scores", str(scores), "--cost-matrix", str(costs), "--target-priors", priors]
    assert main([*argv, "--out", str(tmp_path / "r"), "-q"]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "r" / "report.html").exists()


def test_report_refuses_costs_on_the_dask_engine(tmp_path, capsys):
    y, P = _scores(9, 30)
    scores = _write_scores(tmp_path / "s.csv", y, P, np.arange(M))
    costs = _write_costs(tmp_path / "c.csv", _costs(), np.arange(M), np.arange(M))
    argv = ["report", "--scores", str(scores), "--cost-matrix", str(costs), "--engine", "dask"]
    assert main([*argv, "--out", str(tmp_path / "r"), "-q"]) == 2
    assert "--cost-matrix needs --engine memory" in capsys.readouterr().err


@pytest.mark.slow
def test_report_costs_twelve_integer_classes_by_name(tmp_path):
    C = _costs()
    y, P = _scores(6, 240)
    y_val, P_val = _scores(7, 240)
    order = np.argsort(NAMES)  # "0", "1", "10", "11", "2", ...: matched by name
    scores, val = _write_scores(tmp_path / "s.csv", y, P, order), _write_scores(tmp_path / "v.csv", y_val, P_val, order)
    costs = _write_costs(tmp_path / "c.csv", C, np.arange(M)[::-1], np.random.default_rng(8).permutation(M))
    priors = ",".join(f"{k}={0.45 if k == 0 else 0.05}" for k in range(M))
    argv = ["report", "--scores", str(scores), "--val", str(val), "--cost-matrix", str(costs), "--target-priors"]
    assert main([*argv, priors, "--n-boot", "20", "--out", str(tmp_path / "r"), "-q"]) == 0
    results = json.loads((tmp_path / "r" / "results.json").read_text())
    record = results["models"]["s"]["decisions"]
    assert results["settings"]["cost_matrix"]["costs"] == C.tolist()
    brute = np.array([min(range(M), key=lambda j: sum(p[i] * C[i, j] for i in range(M))) for p in P])
    assert record["costs"]["argmax"]["estimate"] == pytest.approx(expected_cost(y, P.argmax(axis=1), cost_matrix=C))
    assert record["costs"]["bayes"]["estimate"] == pytest.approx(expected_cost(y, brute, cost_matrix=C))
    target = np.array([0.45] + [0.05] * (M - 1))
    at = record["at_priors"]["costs"]["bayes"]["estimate"]
    assert at == pytest.approx(expected_cost(y, brute, cost_matrix=C, priors=target))
    html = (tmp_path / "r" / "report.html").read_text()
    assert "Decisions under the cost matrix" in html and 'href="#decisions-m1-s"' in html


def test_tune_for_least_cost_writes_thresholds_whose_cost_is_the_reported_best(tmp_path, capsys):
    y, P = _scores(11, 400)
    order = sorted(range(M), key=str)  # text order: "10" before "2"
    scores = _write_scores(tmp_path / "val.csv", y, P, order)
    costs = _write_costs(tmp_path / "costs.csv", _costs(), order[::-1], order)
    out = tmp_path / "tau.json"
    assert main(["tune", "--scores", str(scores), "--cost-matrix", str(costs), "--out", str(out), "-q"]) == 0
    assert "lower is better" in capsys.readouterr().out
    written = json.loads(out.read_text())
    assert written["metric"] == "expected_cost" and written["greater_is_better"] is False
    tau = np.array([written["threshold"][written["classes"].index(name)] for name in NAMES])
    decided = np.argmax(P - tau, axis=1)
    C = _costs()
    assert written["best_score"] == pytest.approx(C[y, decided].mean(), abs=1e-12)
    assert written["argmax_score"] == pytest.approx(C[y, P.argmax(axis=1)].mean(), abs=1e-12)
    assert written["best_score"] <= written["argmax_score"]


def test_tune_refuses_a_metric_and_a_cost_matrix_together(tmp_path, capsys):
    y, P = _scores(12, 60)
    scores = _write_scores(tmp_path / "val.csv", y, P, list(range(M)))
    costs = _write_costs(tmp_path / "costs.csv", _costs(), list(range(M)), list(range(M)))
    argv = ["tune", "--scores", str(scores), "--cost-matrix", str(costs), "--metric", "accuracy"]
    assert main([*argv, "--out", str(tmp_path / "tau.json")]) == 2
    assert "--metric and --cost-matrix are two objectives" in capsys.readouterr().err
    assert not (tmp_path / "tau.json").exists()
