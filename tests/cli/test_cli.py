"""The polyroc command: the evaluate subcommand on the bundled data and on a user file."""

import json
import os

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from polyroc.cli import glass_holdout_scores, main
from polyroc.thresholds import apply_thresholds, tune_thresholds


def test_evaluate_demo_prints_report_aucs_and_matrix(capsys):
    assert main(["evaluate"]) == 0
    out = capsys.readouterr().out
    y, P, classes = glass_holdout_scores(0)
    expected = roc_auc_score(y, P, labels=classes, multi_class="ovo")
    assert "macro avg" in out and "weighted avg" in out
    assert "roc_auc_ovo_macro" in out and f"{expected:.4f}" in out
    assert "Confusion matrix" in out


def test_evaluate_scores_file_matches_sklearn(tmp_path, capsys, write_scores):
    rng = np.random.default_rng(0)
    classes = ["ant", "bee", "cow"]
    y = rng.choice(classes, 200)
    P = rng.dirichlet(np.ones(3), 200)
    assert main(["evaluate", "--scores", str(write_scores(y, P, classes))]) == 0
    out = capsys.readouterr().out
    expected = roc_auc_score(y, P, labels=classes, multi_class="ovr", average="macro")
    line = next(row for row in out.splitlines() if row.startswith("roc_auc_ovr_macro"))
    assert float(line.split()[1]) == pytest.approx(expected, abs=5e-5)
    assert line.endswith("DeLong (logit)")  # every interval names its method


def test_evaluate_weight_column_matches_sklearn_with_sample_weight(tmp_path, capsys):
    from sklearn.metrics import accuracy_score

    rng = np.random.default_rng(1)
    y = rng.choice(["ant", "bee", "cow"], 120)
    P = rng.dirichlet(np.ones(3), 120)
    weights = rng.integers(0, 5, 120)
    rows = [f"{w},{a:.17g},{b:.17g},{c:.17g},{label}" for w, (a, b, c), label in zip(weights, P, y)]
    path = tmp_path / "weighted.csv"
    path.write_text("\n".join(["w,ant,bee,cow,label", *rows]) + "\n")
    assert main(["evaluate", "--scores", str(path), "--weight-col", "w"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line.split()[1] for line in out.splitlines() if len(line.split()) > 1}
    expected = roc_auc_score(y, P, labels=["ant", "bee", "cow"], multi_class="ovr", sample_weight=weights)
    assert float(lines["roc_auc_ovr_macro"]) == pytest.approx(expected, abs=5e-5)
    assert float(lines["accuracy"]) == pytest.approx(
        accuracy_score(y, np.array(["ant", "bee", "cow"])[P.argmax(axis=1)], sample_weight=weights), abs=5e-5
    )
    assert "Wilson score interval (Kish effective sample size)" in out
    assert main(["evaluate", "--scores", str(path), "--weight-col", "w", "--ci", "none"]) == 0
    assert "CI" not in capsys.readouterr().out  # point estimates only
    assert main(["evaluate", "--scores", str(path), "--weight-col", "w", "--ci", "bootstrap", "--n-boot", "20"]) == 0
    assert "stratified percentile bootstrap, B=20" in capsys.readouterr().out
    path.write_text("w,ant,bee,cow,label\n1,0.2,0.3,0.5,ant\n-1,0.2,0.3,0.5,bee\n")
    assert main(["evaluate", "--scores", str(path), "--weight-col", "w"]) == 2
    err = capsys.readouterr().err
    assert err == f"polyroc evaluate: error: {path}: weight -1.0 in column 'w', line 3 is not a finite number >= 0\n"


@pytest.mark.parametrize(
    "text, message",
    [
        ("a,b,label\n0.5,x,a\n0.5,0.5,b\n", "non-numeric score 'x'"),
        ("a,b,truth\n0.5,0.5,a\n", "no label column 'label'"),
        ("a,b,label\n0.5,0.5,c\n", "are not class names"),
        ("a,b,label\n0.5,0.7,a\n0.5,0.5,b\n", "rows of the scores must sum to 1 (line 2 sums to 1.2, 1 row off)"),
    ],
)
def test_evaluate_bad_file_gives_one_line_error_and_exit_2(tmp_path, capsys, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    assert main(["evaluate", "--scores", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and err.startswith("polyroc evaluate: error:")


def _labelled_scores(seed=0, n=300):
    rng = np.random.default_rng(seed)
    classes = ["ant", "bee", "cow"]
    y = rng.choice(classes, n)
    P = rng.dirichlet(np.ones(3), n) * 0.6
    P[np.arange(n), [classes.index(v) for v in y]] += 0.4
    return y, P, classes


def test_tune_then_apply_reproduces_the_library(tmp_path, capsys, write_scores):
    y_val, P_val, classes = _labelled_scores(0)
    y_test, P_test, _ = _labelled_scores(1)
    val = write_scores(y_val, P_val, classes, "val.csv")
    test = write_scores(y_test, P_test, classes, "test.csv")
    tau_path, preds_path = tmp_path / "tau.json", tmp_path / "preds.csv"
    assert (
        main(["tune", "--scores", str(val), "--metric", "f1_macro", "--resolution", "30", "--out", str(tau_path)]) == 0
    )
    assert main(["apply", "--scores", str(test), "--tau", str(tau_path), "--out", str(preds_path)]) == 0
    expected = tune_thresholds(y_val, P_val, metric="f1_macro", resolution=30, labels=classes)
    document = json.loads(tau_path.read_text())
    assert document["threshold"] == expected.best_threshold.tolist()
    assert document["best_score"] == expected.best_score
    lines = preds_path.read_text().splitlines()
    assert lines[0] == "prediction"
    assert lines[1:] == apply_thresholds(P_test, expected.best_threshold, labels=classes).tolist()


def test_apply_keeps_ids_and_needs_every_class_column(tmp_path, capsys):
    tau = tmp_path / "tau.json"
    tau.write_text('{"classes": ["a", "b"], "threshold": [0.4, 0.6], "domain": "simplex"}')
    scores = tmp_path / "s.csv"
    scores.write_text("id,a,b\n7,0.5,0.5\n8,0.9,0.1\n")
    out = tmp_path / "p.csv"
    assert main(["apply", "--scores", str(scores), "--tau", str(tau), "--id-col", "id", "--out", str(out)]) == 0
    assert out.read_text().splitlines() == ["id,prediction", "7,a", "8,a"]
    scores.write_text("id,a,c\n7,0.5,0.5\n")
    out.unlink()
    assert main(["apply", "--scores", str(scores), "--tau", str(tau), "--out", str(out)]) == 2
    assert "score columns ['b'] not found" in capsys.readouterr().err
    assert not out.exists()


def test_tune_weight_column_gives_the_weighted_tuning(tmp_path, capsys, write_scores):
    y_val, P_val, classes = _labelled_scores(2)
    weights = np.arange(len(y_val)) % 4
    path = write_scores(y_val, P_val, classes, "val.csv")
    lines = path.read_text().splitlines()
    path.write_text("\n".join([lines[0] + ",w", *(f"{line},{w}" for line, w in zip(lines[1:], weights))]) + "\n")
    tau_path = tmp_path / "tau.json"
    assert (
        main(
            [
                "tune",
                "--scores",
                str(path),
                "--weight-col",
                "w",
                "--metric",
                "accuracy",
                "--resolution",
                "30",
                "--out",
                str(tau_path),
            ]
        )
        == 0
    )
    document = json.loads(tau_path.read_text())
    expected = tune_thresholds(y_val, P_val, metric="accuracy", resolution=30, labels=classes, sample_weight=weights)
    unweighted = tune_thresholds(y_val, P_val, metric="accuracy", resolution=30, labels=classes)
    assert document["classes"] == list(classes)
    assert (document["threshold"], document["best_score"]) == (expected.best_threshold.tolist(), expected.best_score)
    assert document["best_score"] != unweighted.best_score


def test_tune_bad_metric_and_unknown_label_leave_no_output(tmp_path, capsys, write_scores):
    y, P, classes = _labelled_scores(0, 30)
    val = write_scores(y, P, classes)
    out = tmp_path / "tau.json"
    assert main(["tune", "--scores", str(val), "--metric", "nope", "--out", str(out)]) == 2
    assert "nope" in capsys.readouterr().err and not out.exists()
    val.write_text(val.read_text().replace(",ant\n", ",owl\n", 1))
    assert main(["tune", "--scores", str(val), "--out", str(out)]) == 2
    assert "['owl']" in capsys.readouterr().err and not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["scores.csv"]


def test_interrupted_write_leaves_no_partial_output(tmp_path, monkeypatch, capsys, write_scores):
    import polyroc.io._staging

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    y, P, classes = _labelled_scores(0, 30)
    val = write_scores(y, P, classes)
    out = tmp_path / "tau.json"
    monkeypatch.setattr(polyroc.io._staging, "_install", interrupted)
    assert main(["tune", "--scores", str(val), "--resolution", "6", "--out", str(out)]) == 130
    assert capsys.readouterr().err == f"polyroc tune: interrupted by SIGINT; --out {out} left as it was\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv"]


def test_a_failed_write_names_the_users_path_not_a_temporary(tmp_path, monkeypatch, capsys, write_scores):
    import errno

    import polyroc.io._staging

    def full_disk(temporary, data, mode):
        raise OSError(errno.ENOSPC, "No space left on device", str(temporary))

    y, P, classes = _labelled_scores(0, 30)
    val = write_scores(y, P, classes)
    out = tmp_path / "tau.json"
    monkeypatch.setattr(polyroc.io._staging, "_stage_file", full_disk)
    assert main(["tune", "--scores", str(val), "--resolution", "6", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".tmp" not in err
    assert err.startswith(f"polyroc tune: error: --out {out}: cannot write ") and "No space left on device" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scores.csv"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="permissions do not bind root")
def test_an_unwritable_output_directory_is_refused_before_the_work(tmp_path, capsys, write_scores):
    y, P, classes = _labelled_scores(0, 30)
    val = write_scores(y, P, classes)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        assert main(["tune", "--scores", str(val), "--out", str(locked / "tau.json")]) == 2
        err = capsys.readouterr().err
        assert err == (
            f"polyroc tune: error: --out {locked / 'tau.json'}: cannot write into {locked}: Permission denied\n"
        )
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


def test_a_lock_that_cannot_be_created_names_the_directory(tmp_path, monkeypatch, capsys, write_scores):
    import errno

    import polyroc.io._locks

    def denied(lock, token):
        raise PermissionError(errno.EACCES, "Permission denied", str(lock))

    y, P, classes = _labelled_scores(0, 30)
    val = write_scores(y, P, classes)
    monkeypatch.setattr(polyroc.io._locks, "_create_lock", denied)
    assert main(["tune", "--scores", str(val), "--out", str(tmp_path / "tau.json")]) == 2
    assert capsys.readouterr().err == (
        f"polyroc tune: error: --out {tmp_path / 'tau.json'}: cannot write into {tmp_path}: Permission denied\n"
    )


def test_version_prints_the_installed_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"polyroc {version('polyroc')}"


def test_evaluate_ci_none_reaches_evaluate_as_none(monkeypatch, capsys, write_scores):
    import polyroc.evaluation

    original, seen = polyroc.evaluation.evaluate, []

    def recording(*args, **kwargs):
        seen.append(original(*args, **kwargs))
        return seen[-1]

    monkeypatch.setattr(polyroc.evaluation, "evaluate", recording)
    rng = np.random.default_rng(2)
    y = rng.choice(["a", "b", "c"], 60)
    P = rng.dirichlet(np.ones(3), 60)
    assert main(["evaluate", "--scores", str(write_scores(y, P, ["a", "b", "c"])), "--ci", "none"]) == 0
    (result,) = seen
    assert result.settings["ci"] == "none" and result.intervals == {}
    capsys.readouterr()


@pytest.mark.parametrize("replaced_by", [ImportError, ValueError, SystemExit])
def test_a_stop_that_interrupted_code_turns_into_another_error_still_stops(monkeypatch, capsys, replaced_by):
    # an extension module's import (numpy's, while the options are parsed) replaces any exception raised
    # inside it by an ImportError without a cause; argparse turns a type conversion's ValueError into exit 2
    import signal
    import time

    import polyroc.cli._main as cli_main

    parse_and_run = cli_main._run

    def interrupted(argv, outputs):
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises Stopped here
        except BaseException:
            if replaced_by is SystemExit:
                return parse_and_run(["tune", "--no-such-option"], outputs)  # argparse exits 2 inside
            raise replaced_by("the interrupted step failed") from None
        raise AssertionError("the signal never came")

    monkeypatch.setattr(cli_main, "_run", interrupted)
    code = main(["tune", "--scores", "s.csv", "--out", "tau.json"])
    assert code == 128 + signal.SIGTERM
    assert capsys.readouterr().err.splitlines()[-1] == "polyroc tune: terminated by SIGTERM"
