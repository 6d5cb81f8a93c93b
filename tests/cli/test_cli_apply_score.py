"""``polyroc apply`` on a file with labels prints the score of the metric tau* was tuned for, as ``tune`` does.

Oracles: scikit-learn's metric on the predictions ``apply`` wrote (and on the
argmax predictions), and ``tune``'s own score when applied to its tuning file.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from sklearn.metrics import balanced_accuracy_score, f1_score

from polyroc.cli import main

CLASSES = ["cat", "dog", "eel"]


def _scores(seed, n):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n)
    P[np.arange(n), y] += 0.3
    return np.array(CLASSES)[y], P / P.sum(axis=1, keepdims=True)


def _printed(capsys, metric):
    """(tuned, argmax) from the line ``  METRIC on FILE: X (argmax Y)`` of standard output."""
    out = capsys.readouterr().out
    found = re.findall(rf"^  {metric} on .*: ([0-9.]+) \(argmax ([0-9.]+)\)$", out, flags=re.M)
    return [tuple(map(float, line)) for line in found]


def _predictions(path):
    return np.array(path.read_text().split()[1:])


@pytest.mark.parametrize(
    "metric, sklearn_score",
    [
        ("f1_macro", lambda y, p, w: f1_score(y, p, average="macro", sample_weight=w)),
        ("balanced_accuracy", lambda y, p, w: balanced_accuracy_score(y, p, sample_weight=w)),
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_apply_prints_the_tuned_metric_of_the_applied_predictions(
    write_scores, tmp_path, capsys, metric, sklearn_score, weighted
):
    val = write_scores(*_scores(0, 200), CLASSES, name="val.csv")
    y_test, P_test = _scores(1, 150)
    weights = np.random.default_rng(2).integers(1, 4, y_test.size).astype(float)
    test = write_scores(y_test, P_test, CLASSES, name="test.csv")
    if weighted:  # a weight column after the label
        lines = test.read_text().splitlines()
        test.write_text("\n".join([lines[0] + ",w"] + [f"{row},{w:g}" for row, w in zip(lines[1:], weights)]) + "\n")
    tau = tmp_path / "tau.json"
    assert main(["tune", "--scores", str(val), "--metric", metric, "--out", str(tau), "--resolution", "40"]) == 0
    capsys.readouterr()
    options = ["--weight-col", "w"] if weighted else []
    out = tmp_path / "predictions.csv"
    assert main(["apply", "--scores", str(test), "--tau", str(tau), "--out", str(out), *options]) == 0
    ((tuned, argmax),) = _printed(capsys, metric)
    w = weights if weighted else None
    assert tuned == pytest.approx(sklearn_score(y_test, _predictions(out), w), abs=5e-7)  # printed to 6 decimals
    argmax_predictions = np.array(CLASSES)[np.argmax(P_test, axis=1)]
    assert argmax == pytest.approx(sklearn_score(y_test, argmax_predictions, w), abs=5e-7)


def test_apply_on_the_tuning_file_prints_the_score_tune_found(write_scores, tmp_path, capsys):
    val = write_scores(*_scores(3, 120), CLASSES, name="val.csv")
    tau = tmp_path / "tau.json"
    assert main(["tune", "--scores", str(val), "--out", str(tau), "--resolution", "30"]) == 0
    capsys.readouterr()
    assert main(["apply", "--scores", str(val), "--tau", str(tau), "--out", str(tmp_path / "p.csv")]) == 0
    written = json.loads(tau.read_text())
    assert _printed(capsys, "f1_macro") == [(round(written["best_score"], 6), round(written["argmax_score"], 6))]


def test_apply_without_labels_prints_no_score(tmp_path, write_scores, capsys):
    val = write_scores(*_scores(4, 60), CLASSES, name="val.csv")
    tau = tmp_path / "tau.json"
    assert main(["tune", "--scores", str(val), "--out", str(tau), "--resolution", "10"]) == 0
    unlabelled = tmp_path / "new.csv"
    unlabelled.write_text("cat,dog,eel\n0.2,0.3,0.5\n0.6,0.3,0.1\n")
    capsys.readouterr()
    assert main(["apply", "--scores", str(unlabelled), "--tau", str(tau), "--out", str(tmp_path / "p.csv")]) == 0
    assert capsys.readouterr().out == f"2 predictions written to {tmp_path / 'p.csv'}\n"
