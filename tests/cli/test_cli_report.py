"""``polyroc report`` and ``polyroc demo``: outputs, one-line errors with exit 2, no partial output."""

import io
import json
import sys
from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.metrics import f1_score

import polyroc.report._document as document_module
from polyroc.cli import main
from polyroc.cli._terminal import _Display, showing_progress
from polyroc.datasets._demo import glass_demo_scores
from polyroc.intervals import proportion_interval

pytestmark = pytest.mark.slow  # whole reports and the demo from the command line: not in the quick run (-m "not slow")

CLASSES = ["ant", "bee", "cow"]


def _split(seed, n, strength=1.0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, n)
    P = rng.dirichlet(np.ones(3), n) + strength * np.eye(3)[y]
    return np.array(CLASSES)[y], P / P.sum(axis=1, keepdims=True)


@pytest.fixture
def files(write_scores):
    y_val, P_val = _split(0, 120)
    y_test, P_test = _split(1, 150)
    return {
        "val": write_scores(y_val, P_val, CLASSES, "val.csv"),
        "test": write_scores(y_test, P_test, CLASSES, "test.csv"),
        "y_test": y_test,
        "P_test": P_test,
    }


def test_report_writes_html_and_json_of_the_score_files(files, tmp_path, capsys):
    out = tmp_path / "report"
    code = main(
        ["report", "--scores", f"mine={files['test']}", "--val", str(files["val"]), "--n-boot", "30", "--out", str(out)]
    )
    assert code == 0
    results = json.loads((out / "results.json").read_text())
    model = results["models"]["mine"]
    predicted = np.array(CLASSES)[files["P_test"].argmax(axis=1)]
    expected = f1_score(files["y_test"], predicted, average="macro")
    assert model["metrics"]["intervals"]["f1_macro"]["estimate"] == pytest.approx(expected, abs=1e-12)
    assert model["tuning"]["comparison"]["metric"] == "f1_macro" and results["settings"]["n_boot"] == 30
    assert results["settings"]["random_state"] == 0  # the command line seeds every report
    assert "<img" in (out / "report.html").read_text()
    printed = capsys.readouterr().out
    expected_line = f"  mine: f1_macro {expected:.3f}, accuracy "
    assert expected_line in printed and "tuned - argmax f1_macro on test" in printed


def test_report_compares_several_models(files, write_scores, tmp_path):
    y_test, P_weak = _split(1, 150, strength=0.3)
    weak = write_scores(y_test, P_weak, CLASSES, "weak.csv")
    out = tmp_path / "report"
    assert (
        main(
            [
                "report",
                "--scores",
                f"strong={files['test']}",
                "--scores",
                f"weak={weak}",
                "--id-col",
                "",  # files without ids, of the same rows in the same order: paired by position, as said
                "--n-boot",
                "20",
                "--metric",
                "accuracy",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    results = json.loads((out / "results.json").read_text())
    assert list(results["models"]) == ["strong", "weak"]
    assert results["model_comparison"]["names"] == ["strong", "weak"]
    assert results["model_comparison"]["pairwise"][0][1] > 0.9


def test_printed_model_lines_lead_with_the_tuning_metric_of_the_headline(files, write_scores, tmp_path, capsys):
    from sklearn.metrics import accuracy_score, balanced_accuracy_score

    y_test, P_weak = _split(1, 150, strength=0.3)
    scores = {"strong": files["P_test"], "weak": P_weak}
    weak = write_scores(y_test, P_weak, CLASSES, "weak.csv")
    common = ["--id-col", "", "--n-boot", "20", "--metric", "balanced_accuracy", "--out", str(tmp_path / "r")]
    assert main(["report", "--scores", f"strong={files['test']}", "--scores", f"weak={weak}", *common]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert len(lines) == 2
    for line, (name, P) in zip(lines, scores.items()):
        predicted = np.array(CLASSES)[P.argmax(axis=1)]
        balanced = balanced_accuracy_score(y_test, predicted)
        accuracy = accuracy_score(y_test, predicted)
        assert line.startswith(f"  {name}: balanced_accuracy {balanced:.3f}, accuracy {accuracy:.3f}, macro-F1 ")
        assert ", D " in line
    common[common.index("balanced_accuracy")] = "accuracy"  # the tuning metric is not repeated
    assert main(["report", "--scores", f"strong={files['test']}", "--scores", f"weak={weak}", *common]) == 0
    strong = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("  strong:"))
    predicted = np.array(CLASSES)[files["P_test"].argmax(axis=1)]
    assert strong.startswith(f"  strong: accuracy {accuracy_score(y_test, predicted):.3f}, macro-F1 ")
    assert strong.count("accuracy") == 1


def test_report_weight_column_weighs_every_row(files, tmp_path):
    weights = np.random.default_rng(3).integers(0, 4, 150)
    for split in ("test", "val"):
        lines = files[split].read_text().splitlines()
        column = weights if split == "test" else np.ones(len(lines) - 1, dtype=int)
        lines = [lines[0] + ",w"] + [f"{line},{w}" for line, w in zip(lines[1:], column)]
        files[split].write_text("\n".join(lines) + "\n")
    out = tmp_path / "report"
    assert (
        main(
            [
                "report",
                "--scores",
                f"mine={files['test']}",
                "--val",
                str(files["val"]),
                "--weight-col",
                "w",
                "--n-boot",
                "10",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    results = json.loads((out / "results.json").read_text())
    predicted = np.array(CLASSES)[files["P_test"].argmax(axis=1)]
    expected = f1_score(files["y_test"], predicted, average="macro", sample_weight=weights)
    assert results["models"]["mine"]["metrics"]["scores"]["f1_macro"] == pytest.approx(expected, abs=1e-12)
    assert results["settings"]["weighted"] and "w" not in results["data"]["classes"]


@pytest.mark.parametrize(
    "text, message",
    [
        ("ant,bee,cow\n0.2,0.3,0.5\n", "no label column 'label'"),
        ("ant,bee,cow,label\n0.2,x,0.5,bee\n", "non-numeric score 'x'"),
        ("ant,bee,cow,label\n0.2,0.3,0.9,ant\n", "rows of the scores must sum to 1"),
    ],
)
def test_report_bad_test_file_exits_2_and_writes_nothing(tmp_path, capsys, text, message):
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    out = tmp_path / "report"
    assert main(["report", "--scores", str(bad), "--quiet", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("polyroc report: error:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.csv"]


def test_report_unknown_label_in_validation_exits_2(files, tmp_path, capsys):
    lines = files["val"].read_text().splitlines()
    lines[1] = lines[1].rsplit(",", 1)[0] + ",eel"
    files["val"].write_text("\n".join(lines) + "\n")
    assert (
        main(
            [
                "report",
                "--scores",
                str(files["test"]),
                "--val",
                str(files["val"]),
                "-q",
                "--out",
                str(tmp_path / "report"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "eel" in err and err.count("\n") == 1
    assert not (tmp_path / "report").exists()


def test_report_refuses_a_foreign_output_directory(files, tmp_path, capsys):
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    assert main(["report", "--scores", str(files["test"]), "--out", str(tmp_path / "busy")]) == 2
    assert "is not an earlier polyroc output" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / "busy").iterdir()] == ["notes.txt"]


def test_interrupted_report_leaves_no_partial_output(files, tmp_path, monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(document_module, "comparison_figures", interrupted)
    before = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "r"
    assert main(["report", "--scores", str(files["test"]), "--n-boot", "10", "--quiet", "--out", str(out)]) == 130
    assert capsys.readouterr().err == f"polyroc report: interrupted by SIGINT; --out {out} left as it was\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_failure_while_writing_keeps_the_earlier_report(files, tmp_path, monkeypatch):
    out = tmp_path / "r"
    assert main(["report", "--scores", str(files["test"]), "--n-boot", "10", "--out", str(out)]) == 0
    earlier = (out / "results.json").read_text()

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(document_module.json, "dumps", broken)
    assert main(["report", "--scores", str(files["test"]), "--n-boot", "10", "--out", str(out)]) == 2
    assert (out / "results.json").read_text() == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["r", "val.csv", "test.csv"])


def test_demo_reports_three_imbalance_models_on_glass(tmp_path, capsys):
    pytest.importorskip("imblearn")
    out = tmp_path / "demo"
    assert main(["demo", "--n-boot", "20", "--out", str(out)]) == 0
    results = json.loads((out / "results.json").read_text())
    assert list(results["models"]) == ["logistic", "logistic (class-weighted)", "logistic (SMOTE)"]
    demo = glass_demo_scores(0)
    counts = {c: int(np.sum(demo.y_test == c)) for c in demo.classes}
    assert results["data"]["test"]["class_counts"] == counts
    for name, scores in demo.test_scores.items():
        predicted = demo.classes[scores.argmax(axis=1)]
        expected = f1_score(demo.y_test, predicted, average="macro", zero_division=0)
        assert results["models"][name]["metrics"]["intervals"]["f1_macro"]["estimate"] == pytest.approx(expected)
    assert "report written to" in capsys.readouterr().out
    assert _zero_width_intervals(results) == []  # the glass test split has classes of 3 and 4 rows
    recall = results["models"]["logistic"]["metrics"]["class_intervals"]["recall"]
    for label, record in recall.items():
        hits, size = _found(demo, demo.test_scores["logistic"], label)
        low, high = proportion_interval(hits, size)  # Wilson's interval of the hits among the class's rows
        assert (record["low"], record["high"]) == pytest.approx((float(low), float(high)), abs=1e-12), label


def _found(demo, scores, label):
    """Rows of class ``label`` the argmax rule finds, and the class's rows."""
    rows = demo.y_test == label
    return int(np.sum(demo.classes[scores[rows].argmax(axis=1)] == label)), int(rows.sum())


def _zero_width_intervals(document, path="results"):
    """Paths of the interval records of ``results.json`` whose bounds are equal or missing."""
    found = []
    if isinstance(document, dict):
        if {"estimate", "low", "high", "settings"} <= set(document):
            low, high = document["low"], document["high"]
            if low is None or high is None or not high > low:
                found.append(path)
        for key, value in document.items():
            found += _zero_width_intervals(value, f"{path}/{key}")
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _zero_width_intervals(value, f"{path}[{index}]")
    return found


def test_demo_without_imbalanced_learn_skips_smote_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "imblearn", None)
    monkeypatch.setitem(sys.modules, "imblearn.over_sampling", None)
    demo = glass_demo_scores(0)
    assert list(demo.test_scores) == ["logistic", "logistic (class-weighted)"]
    assert any("imbalanced-learn is not installed" in note for note in demo.notes)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_bars_draw_only_on_a_terminal(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with showing_progress(SimpleNamespace(quiet=False), lines=True) as display:
        assert display.mode == "bars"
        display.step("logistic: ROC clouds", 3, 17)
        display.task("bootstrap replicates", 0, 40)
        display.task("bootstrap replicates", 40, 40)
    text = terminal.getvalue()
    assert "[4/17] logistic: ROC clouds" in text and "40/40" in text and "bootstrap replicates" in text
    with showing_progress(SimpleNamespace(quiet=True)) as display:
        assert display.mode is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with showing_progress(SimpleNamespace(quiet=False)) as display:
        assert display.mode is None  # short commands: bars on a terminal only
    with showing_progress(SimpleNamespace(quiet=False), lines=True) as display:
        assert display.mode == "lines"
    assert isinstance(display, _Display)


def test_printed_estimates_are_written_as_the_report_writes_them():
    from polyroc.cli._report import _estimate

    assert _estimate({"ci": {"estimate": None}}, ("ci",)) == "undefined"  # NaN in results.json
    assert _estimate({"ci": {"estimate": -1e-5}}, ("ci",)) == "0.000"
    assert _estimate({"ci": {"estimate": 0.81149}}, ("ci",)) == "0.811"
    assert _estimate({"intervals": None}, ("intervals", "accuracy")) == "-"
