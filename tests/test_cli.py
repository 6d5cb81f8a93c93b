"""The polyroc command: the evaluate subcommand on the bundled data and on a user file."""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from polyroc.cli import glass_holdout_scores, main


def _write_scores(tmp_path, y, P, classes):
    lines = [",".join([*classes, "label"])]
    lines += [",".join([*(f"{v:.17g}" for v in row), label]) for row, label in zip(P, y)]
    path = tmp_path / "scores.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_evaluate_demo_prints_report_aucs_and_matrix(capsys):
    assert main(["evaluate"]) == 0
    out = capsys.readouterr().out
    y, P, classes = glass_holdout_scores(0)
    expected = roc_auc_score(y, P, labels=classes, multi_class="ovo")
    assert "macro avg" in out and "weighted avg" in out
    assert f"roc_auc_ovo_macro" in out and f"{expected:.4f}" in out
    assert "Confusion matrix" in out


def test_evaluate_scores_file_matches_sklearn(tmp_path, capsys):
    rng = np.random.default_rng(0)
    classes = ["ant", "bee", "cow"]
    y = rng.choice(classes, 200)
    P = rng.dirichlet(np.ones(3), 200)
    assert main(["evaluate", "--scores", str(_write_scores(tmp_path, y, P, classes))]) == 0
    out = capsys.readouterr().out
    expected = roc_auc_score(y, P, labels=classes, multi_class="ovr", average="macro")
    line = next(l for l in out.splitlines() if l.startswith("roc_auc_ovr_macro"))
    assert float(line.split()[-1]) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize(
    "text, message",
    [
        ("a,b,label\n0.5,x,a\n", "non-numeric score 'x'"),
        ("a,b,truth\n0.5,0.5,a\n", "no label column 'label'"),
        ("a,b,label\n0.5,0.5,c\n", "are not score column names"),
        ("a,b,label\n0.5,0.7,a\n0.5,0.5,b\n", "rows of y_score must sum to 1"),
    ],
)
def test_evaluate_bad_file_gives_one_line_error_and_exit_2(tmp_path, capsys, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    assert main(["evaluate", "--scores", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("polyroc evaluate: error:")
