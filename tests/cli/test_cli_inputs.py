"""The score files people have: id columns, pandas indexes, prefixed columns, logits, rounded probabilities.

Each answer is checked against an independent route: scikit-learn on the same
arrays, or the library on arrays built by hand (softmax with scipy, division by
the row sums with numpy).
"""

import json
import re

import numpy as np
import pytest
from scipy.special import softmax
from sklearn.metrics import f1_score, roc_auc_score

from polyroc.cli import main
from polyroc.counts import METRICS
from polyroc.thresholds import apply_thresholds, tune_thresholds

CLASSES = ["cat", "dog", "bird"]

# the README's example file, as documented
README_FILE = "id,cat,dog,bird,label\n17,0.70,0.20,0.10,cat\n18,0.10,0.30,0.60,bird\n"


def _data(seed=0, n=90):
    rng = np.random.default_rng(seed)
    y = np.array(CLASSES)[np.arange(n) % 3]
    logits = rng.normal(size=(n, 3)) + 2.0 * (y[:, None] == np.array(CLASSES))
    return y, logits


def _csv(path, header, rows):
    path.write_text("\n".join([",".join(header), *(",".join(map(str, row)) for row in rows)]) + "\n")
    return path


def _line(out, name):
    return float(next(line for line in out.splitlines() if line.startswith(name)).split()[1])


@pytest.fixture
def chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_the_readme_example_file_works_as_documented(chdir, capsys):
    (chdir / "predictions.csv").write_text(README_FILE)
    (chdir / "val.csv").write_text(README_FILE)
    (chdir / "test.csv").write_text(README_FILE)
    assert main(["evaluate", "--scores", "predictions.csv", "--label-col", "label"]) == 0
    out, err = capsys.readouterr()
    assert "2 rows, 3 classes" in out and "'id'" in err and "note" in err  # id is named as not read
    assert _line(out, "accuracy") == 1.0
    assert main(["evaluate", "--scores", "predictions.csv", "--id-col", "id"]) == 0
    out, err = capsys.readouterr()
    assert "2 rows, 3 classes" in out and "note" not in err
    assert main(["tune", "--scores", "val.csv", "--metric", "f1_macro", "--out", "tau.json"]) == 0
    tau = json.loads((chdir / "tau.json").read_text())
    assert tau["classes"] == sorted(CLASSES)  # the class order of every output: text order for text names
    assert (
        main(["apply", "--scores", "test.csv", "--tau", "tau.json", "--id-col", "id", "--out", "predictions.out"]) == 0
    )
    P = np.array([[0.70, 0.20, 0.10], [0.10, 0.30, 0.60]])  # columns cat, dog, bird
    expected = apply_thresholds(P[:, [2, 0, 1]], tau["threshold"], labels=sorted(CLASSES))
    assert (chdir / "predictions.out").read_text().splitlines() == [
        "id,prediction",
        *map("{},{}".format, [17, 18], expected),
    ]


def test_a_pandas_to_csv_file_with_its_index_works(chdir, capsys):
    pandas = pytest.importorskip("pandas")
    y, logits = _data(1)
    P = softmax(logits, axis=1)
    frame = pandas.DataFrame(P, columns=CLASSES, index=np.arange(100, 100 + len(y)))
    frame["label"] = y
    frame.to_csv(chdir / "scores.csv")  # an unnamed first column: the index
    assert main(["evaluate", "--scores", "scores.csv"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and f"{len(y)} rows, 3 classes" in out
    order = np.argsort(CLASSES)  # the metrics take the classes in sorted order
    expected = roc_auc_score(y, P[:, order], labels=sorted(CLASSES), multi_class="ovr", average="macro")
    assert _line(out, "roc_auc_ovr_macro") == pytest.approx(expected, abs=5e-5)
    tau = chdir / "tau.json"
    tau.write_text(json.dumps({"classes": CLASSES, "threshold": [0.3, 0.3, 0.4], "domain": "simplex"}))
    assert main(["apply", "--scores", "scores.csv", "--tau", "tau.json", "--out", "p.csv"]) == 0
    lines = (chdir / "p.csv").read_text().splitlines()
    assert lines[0] == "id,prediction" and lines[1].startswith("100,")


def test_score_prefix_names_the_classes(chdir, capsys):
    y, logits = _data(2)
    P = softmax(logits, axis=1)
    header = ["sample", *(f"proba_{c}" for c in CLASSES), "label"]
    _csv(chdir / "s.csv", header, [[f"s{i}", *p, t] for i, (p, t) in enumerate(zip(P, y))])
    assert main(["tune", "--scores", "s.csv", "--score-prefix", "proba_", "--resolution", "12", "--out", "t.json"]) == 0
    in_order = [CLASSES.index(c) for c in sorted(CLASSES)]  # the columns in the class order (text order)
    expected = tune_thresholds(y, P[:, in_order], metric="f1_macro", resolution=12, labels=sorted(CLASSES))
    tau = json.loads((chdir / "t.json").read_text())
    assert tau["classes"] == sorted(CLASSES) and tau["threshold"] == expected.best_threshold.tolist()
    out = capsys.readouterr().out
    assert "search lattice, resolution 12" in out
    assert main(["apply", "--scores", "s.csv", "--score-prefix", "proba_", "--tau", "t.json", "--out", "p.csv"]) == 0
    predictions = (chdir / "p.csv").read_text().splitlines()[1:]
    assert predictions == apply_thresholds(P[:, in_order], expected.best_threshold, labels=sorted(CLASSES)).tolist()


def test_tune_says_when_tau_is_the_argmax_rule(chdir, capsys):
    P = np.array([[0.9, 0.05, 0.05], [0.05, 0.9, 0.05], [0.05, 0.05, 0.9]] * 4)
    y = np.array(CLASSES * 4)
    _csv(chdir / "s.csv", [*CLASSES, "label"], [[*p, t] for p, t in zip(P, y)])
    assert main(["tune", "--scores", "s.csv", "--resolution", "9", "--out", "t.json"]) == 0
    out = capsys.readouterr().out
    expected = tune_thresholds(y, P, metric="f1_macro", resolution=9, labels=CLASSES)
    assert np.allclose(expected.best_threshold, 1 / 3)  # the barycentre: argmax itself
    assert "tau* is the argmax rule" in out


def _write_logit_and_rounded_files(root):
    y, logits = _data(3)
    _csv(root / "logits.csv", [*CLASSES, "label"], [[*(f"{v:.17g}" for v in row), t] for row, t in zip(logits, y)])
    rounded = np.round(softmax(logits, axis=1), 3)
    rounded[0] = [0.334, 0.334, 0.333]  # sums to 1.001
    _csv(root / "rounded.csv", [*CLASSES, "label"], [[*(f"{v:.3f}" for v in row), t] for row, t in zip(rounded, y)])
    return y, logits, rounded


def _commands(name, flag):
    extra = [flag] if flag else []
    return {
        "evaluate": ["evaluate", "--scores", name, *extra],
        "tune": ["tune", "--scores", name, "--resolution", "6", *extra, "--out", f"tau-{flag}.json"],
        "apply": ["apply", "--scores", name, "--tau", "tau.json", *extra, "--out", f"p-{flag}.csv"],
        "report": ["report", "--scores", name, "--n-boot", "5", "-q", *extra, "--out", f"r-{flag}"],
    }


@pytest.mark.slow
@pytest.mark.parametrize("command", ["evaluate", "tune", "apply", "report"])
@pytest.mark.parametrize("name, flag", [("logits.csv", "--from-logits"), ("rounded.csv", "--normalize")])
def test_logits_and_rounded_probabilities_in_every_command(chdir, capsys, command, name, flag):
    y, logits, rounded = _write_logit_and_rounded_files(chdir)
    (chdir / "tau.json").write_text(json.dumps({"classes": CLASSES, "threshold": [0.3, 0.3, 0.4], "domain": "simplex"}))
    assert main(_commands(name, None)[command]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and flag in err and "=True" not in err, err
    assert main(_commands(name, flag)[command]) == 0
    capsys.readouterr()
    P = softmax(logits, axis=1) if flag == "--from-logits" else rounded / rounded.sum(axis=1, keepdims=True)
    if command == "tune":
        expected = tune_thresholds(y, P, metric="f1_macro", resolution=6, labels=CLASSES)
        assert json.loads((chdir / f"tau-{flag}.json").read_text())["threshold"] == expected.best_threshold.tolist()
    elif command == "apply":
        expected = apply_thresholds(P, [0.3, 0.3, 0.4], labels=CLASSES).tolist()
        assert (chdir / f"p-{flag}.csv").read_text().splitlines()[1:] == expected
    elif command == "report":
        results = json.loads((chdir / f"r-{flag}" / "results.json").read_text())
        predicted = np.array(CLASSES)[P.argmax(axis=1)]
        model = results["models"][name[:-4]]
        assert model["metrics"]["scores"]["f1_macro"] == pytest.approx(f1_score(y, predicted, average="macro"))


def test_rounded_probabilities_error_suggests_normalize(chdir, capsys):
    _write_logit_and_rounded_files(chdir)
    assert main(["evaluate", "--scores", "rounded.csv"]) == 2
    err = capsys.readouterr().err
    assert "rounded.csv: rows of the scores must sum to 1 (line 2 sums to 1.001" in err and "--normalize" in err


def _report_file(path, ids, y, P):
    _csv(path, ["id", *CLASSES, "label"], [[i, *(f"{v:.17g}" for v in p), t] for i, p, t in zip(ids, P, y)])


@pytest.mark.slow
def test_report_joins_models_on_ids(chdir, capsys):
    y, logits = _data(4, 60)
    P = softmax(logits, axis=1)
    Q = softmax(logits[:, ::-1] + 0.5 * logits, axis=1)
    ids = np.array([f"r{i:03d}" for i in range(len(y))])
    order = np.random.default_rng(5).permutation(len(y))
    _report_file(chdir / "a.csv", ids, y, P)
    _report_file(chdir / "b.csv", ids[order], y[order], Q[order])  # the same rows, shuffled
    argv = ["report", "--scores", "a=a.csv", "--scores", "b=b.csv", "--n-boot", "5", "--id-col", "id", "-q"]
    assert main([*argv, "--out", "joined"]) == 0
    assert capsys.readouterr().err == ""
    results = json.loads((chdir / "joined" / "results.json").read_text())
    for name, scores in (("a", P), ("b", Q)):
        predicted = np.array(CLASSES)[scores.argmax(axis=1)]
        expected = f1_score(y, predicted, average="macro")
        assert results["models"][name]["metrics"]["scores"]["f1_macro"] == pytest.approx(expected, abs=1e-12)
    # the aligned file gives the very same numbers (paired bootstrap included)
    _report_file(chdir / "b_aligned.csv", ids, y, Q)
    argv = ["report", "--scores", "a=a.csv", "--scores", "b=b_aligned.csv", "--n-boot", "5", "-q"]
    assert main([*argv, "--id-col", "id", "--out", "same"]) == 0
    aligned = json.loads((chdir / "same" / "results.json").read_text())
    assert aligned["models"] == results["models"]
    # without --id-col files without the index pandas writes are refused, never paired by position silently
    assert main(["report", "--scores", "a=a.csv", "--scores", "b=b.csv", "--n-boot", "5", "-q", "--out", "x"]) == 2
    assert "['a.csv', 'b.csv'] carry no id column" in capsys.readouterr().err
    # --id-col "" pairs them by position, as said: the shuffled labels do not line up
    assert (
        main(
            [
                "report",
                "--scores",
                "a=a.csv",
                "--scores",
                "b=b.csv",
                "--n-boot",
                "5",
                "-q",
                "--id-col",
                "",
                "--out",
                "x",
            ]
        )
        == 2
    )
    assert "'label' column differs" in capsys.readouterr().err


def test_report_lists_missing_ids(chdir, capsys):
    y, logits = _data(6, 30)
    P = softmax(logits, axis=1)
    ids = np.array([f"r{i}" for i in range(len(y))])
    _report_file(chdir / "a.csv", ids, y, P)
    _report_file(chdir / "b.csv", ids[2:], y[2:], P[2:])
    argv = ["report", "--scores", "a.csv", "--scores", "b.csv", "--n-boot", "5", "--id-col", "id", "-q", "--out", "r"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "2 ids of a.csv are missing, e.g. ['r0', 'r1']" in err and "b.csv" in err
    assert not (chdir / "r").exists()


def test_metrics_lists_every_metric_name(capsys):
    assert main(["metrics"]) == 0
    out = capsys.readouterr().out
    listed = {line.split()[0] for line in out.splitlines()[1:]}
    assert listed == set(METRICS)


@pytest.mark.parametrize("command", ["evaluate", "tune", "apply", "report", "demo"])
def test_help_shows_every_default(command, capsys):
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    options = text.split("options:", 1)[1]
    entries = re.split(r"\n  (?=-)", options)[1:]
    for entry in entries:
        if not entry.startswith("-h, --help"):
            assert "(default:" in " ".join(entry.split()), entry


def test_one_default_metric_across_commands():
    from polyroc.cli import build_parser

    parser = build_parser()
    tune = parser.parse_args(["tune", "--scores", "s.csv", "--out", "t.json"])
    report = parser.parse_args(["report", "--scores", "s.csv", "--out", "r"])
    assert tune.metric == report.metric == "f1_macro"


@pytest.mark.slow
def test_report_progress_lines_off_a_terminal_and_quiet(chdir, capsys):
    y, logits = _data(7, 45)
    _report_file(chdir / "t.csv", np.arange(len(y)), y, softmax(logits, axis=1))
    assert main(["report", "--scores", "t.csv", "--n-boot", "5", "--out", "r1"]) == 0
    err = capsys.readouterr().err.splitlines()
    steps = [line for line in err if re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[\d+/\d+\] .+", line)]
    # without validation scores: metrics, calibration, clouds, Gini, ROC-DMF, figures, writing
    assert [line.split("] ", 1)[1] for line in steps[:2]] == ["t: metrics with intervals", "t: calibration"]
    assert steps[0].endswith("[1/7] t: metrics with intervals")
    assert len(err) < 20  # one line per step, no flood
    assert main(["report", "--scores", "t.csv", "--n-boot", "5", "--quiet", "--out", "r2"]) == 0
    assert capsys.readouterr().err == ""
