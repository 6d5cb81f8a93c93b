"""``--calibration`` on ``apply``, ``tune`` and ``evaluate``: the score file goes through the map first.

Oracles: the calibrated probabilities ``softmax(log p / T)`` written here
from the temperature in the map file; ``tune`` and ``apply`` run on a file of
those probabilities; ``argmax(q - tau)`` by numpy; scikit-learn's
``log_loss`` of the calibrated probabilities; ``hashlib`` for the recorded
digest.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re

import numpy as np
import pytest
from scipy.special import softmax
from sklearn.metrics import log_loss

from polyroc.cli import main

CLASSES = ["cat", "dog", "eel"]


def _scores(seed, n=240, scale=2.5):
    rng = np.random.default_rng(seed)
    z = 1.5 * rng.normal(size=(n, 3))
    y = (rng.random(n)[:, None] > np.cumsum(softmax(z, axis=1), axis=1)).sum(axis=1)
    return np.array(CLASSES)[y], softmax(scale * z, axis=1)


@pytest.fixture
def files(write_scores, tmp_path):
    """val.csv, test.csv, the temperature map of val.csv (cal.json) and the test file's calibrated probabilities."""
    y_val, P_val = _scores(0)
    y_test, P_test = _scores(1, n=150)
    write_scores(y_val, P_val, CLASSES, name="val.csv")
    write_scores(y_test, P_test, CLASSES, name="test.csv")
    assert main(["calibrate", "--scores", str(tmp_path / "val.csv"), "-q", "--out", str(tmp_path / "cal.json")]) == 0
    temperature = json.loads((tmp_path / "cal.json").read_text())["parameters"]["temperature"]
    calibrated = {
        "val": softmax(np.log(P_val) / temperature, axis=1),
        "test": softmax(np.log(P_test) / temperature, axis=1),
    }
    return tmp_path, {"val": y_val, "test": y_test}, calibrated


def _rows(path):
    with open(path, newline="") as handle:
        return list(csv.DictReader(handle))


def test_tune_on_calibrated_scores_is_tune_on_the_calibrated_file(files, write_scores, capsys):
    tmp_path, y, calibrated = files
    write_scores(y["val"], calibrated["val"], CLASSES, name="calibrated.csv")
    common = ["--resolution", "30", "--metric", "f1_macro", "-q"]
    assert main(["tune", "--scores", str(tmp_path / "val.csv"), "--calibration", str(tmp_path / "cal.json"),
                 *common, "--out", str(tmp_path / "tau.json")]) == 0  # fmt: skip
    assert "calibrated by" in capsys.readouterr().out
    assert (
        main(["tune", "--scores", str(tmp_path / "calibrated.csv"), *common, "--out", str(tmp_path / "ref.json")]) == 0
    )
    tuned = json.loads((tmp_path / "tau.json").read_text())
    reference = json.loads((tmp_path / "ref.json").read_text())
    assert tuned["threshold"] == reference["threshold"]
    assert tuned["best_score"] == pytest.approx(reference["best_score"], abs=1e-12)
    assert tuned["calibration"] == {
        "file": str(tmp_path / "cal.json"),
        "sha256": hashlib.sha256((tmp_path / "cal.json").read_bytes()).hexdigest(),
        "method": "temperature",
    }
    assert "calibration" not in reference


def _tune(tmp_path, *calibration):
    args = ["tune", "--scores", str(tmp_path / "val.csv"), *calibration, "--resolution", "30", "-q"]
    assert main([*args, "--out", str(tmp_path / "tau.json")]) == 0
    return json.loads((tmp_path / "tau.json").read_text())


def test_apply_calibrates_then_applies_the_thresholds(files, capsys):
    tmp_path, _, calibrated = files
    tau = _tune(tmp_path, "--calibration", str(tmp_path / "cal.json"))
    capsys.readouterr()
    args = ["apply", "--scores", str(tmp_path / "test.csv"), "--tau", str(tmp_path / "tau.json")]
    assert main([*args, "--calibration", str(tmp_path / "cal.json"), "--out", str(tmp_path / "pred.csv")]) == 0
    assert "with the probabilities calibrated by" in capsys.readouterr().out
    rows = _rows(tmp_path / "pred.csv")
    assert list(rows[0]) == ["prediction", *CLASSES]
    q = calibrated["test"]
    expected = np.array(CLASSES)[np.argmax(q - np.array(tau["threshold"]), axis=1)]
    assert [row["prediction"] for row in rows] == expected.tolist()
    written = np.array([[float(row[c]) for c in CLASSES] for row in rows])
    assert written == pytest.approx(q, abs=1e-12)


def test_apply_with_only_a_map_predicts_the_calibrated_argmax(files):
    tmp_path, _, calibrated = files
    test = tmp_path / "test.csv"
    lines = test.read_text().splitlines()  # an id column first: carried into the predictions
    test.write_text("\n".join([f"row,{lines[0]}", *(f"r{i},{line}" for i, line in enumerate(lines[1:]))]) + "\n")
    args = ["apply", "--scores", str(test), "--id-col", "row", "--calibration", str(tmp_path / "cal.json")]
    assert main([*args, "-q", "--out", str(tmp_path / "pred.csv")]) == 0
    rows = _rows(tmp_path / "pred.csv")
    assert list(rows[0]) == ["id", "prediction", *CLASSES]
    assert [row["id"] for row in rows] == [f"r{i}" for i in range(150)]
    assert [row["prediction"] for row in rows] == np.array(CLASSES)[calibrated["test"].argmax(axis=1)].tolist()


def test_evaluate_evaluates_the_calibrated_scores(files, capsys):
    tmp_path, y, calibrated = files
    args = ["evaluate", "--scores", str(tmp_path / "test.csv"), "--ci", "none"]
    assert main([*args, "--calibration", str(tmp_path / "cal.json")]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].endswith(f"calibrated by {tmp_path / 'cal.json'} (temperature)")
    printed = float(re.search(r"^log_loss\s+([0-9.]+)$", out, flags=re.M).group(1))
    assert printed == pytest.approx(log_loss(y["test"], calibrated["test"], labels=CLASSES), abs=5e-5)
    assert main(args) == 0  # and without the map, the loss of the scores as given
    raw = float(re.search(r"^log_loss\s+([0-9.]+)$", capsys.readouterr().out, flags=re.M).group(1))
    assert raw > printed


@pytest.mark.parametrize(
    "tuned_with, applied_with, message",
    [
        ("cal.json", None, "--tau {tau} was tuned on scores calibrated by {cal} (sha256 "),
        (None, "cal.json", "--tau {tau} was tuned on uncalibrated scores, not on scores calibrated by --calibration"),
        ("cal.json", "other.json", "--calibration {other} is not the map --tau {tau} was tuned with ({cal}, sha256"),
    ],
)
def test_apply_refuses_thresholds_tuned_on_other_scores(files, capsys, tuned_with, applied_with, message):
    tmp_path, _, _ = files
    val = str(tmp_path / "val.csv")
    assert main(["calibrate", "--scores", val, "--method", "vector", "-q", "--out", str(tmp_path / "other.json")]) == 0
    _tune(tmp_path, *(["--calibration", str(tmp_path / tuned_with)] if tuned_with else []))
    capsys.readouterr()
    args = ["apply", "--scores", str(tmp_path / "test.csv"), "--tau", str(tmp_path / "tau.json")]
    args += ["--calibration", str(tmp_path / applied_with)] if applied_with else []
    assert main([*args, "--out", str(tmp_path / "pred.csv")]) == 2
    names = {"tau": tmp_path / "tau.json", "cal": tmp_path / "cal.json", "other": tmp_path / "other.json"}
    err = capsys.readouterr().err
    assert err.startswith("polyroc apply: error: ") and len(err.splitlines()) == 1
    assert message.format(**names) in err
    assert not (tmp_path / "pred.csv").exists()


@pytest.fixture
def other_classes(files, write_scores):
    """A score file of other classes (ant, bee, cow) beside the map of cat, dog, eel."""
    y, P = _scores(2, n=60)
    renamed = dict(zip(CLASSES, ["ant", "bee", "cow"]))
    return write_scores([renamed[label] for label in y], P, ["ant", "bee", "cow"], name="other.csv")


@pytest.mark.parametrize("command", ["tune", "evaluate"])
def test_classes_of_the_map_and_the_file_must_agree(files, other_classes, capsys, command):
    tmp_path, _, _ = files
    args = [command, "--scores", str(other_classes), "--calibration", str(tmp_path / "cal.json")]
    assert main(args + (["--out", str(tmp_path / "t.json")] if command == "tune" else [])) == 2
    err = capsys.readouterr().err
    assert (
        f"--calibration {tmp_path / 'cal.json'}: the map's classes ['cat', 'dog', 'eel'] differ from the classes "
        f"of {other_classes} ['ant', 'bee', 'cow']"
    ) in err
    assert not (tmp_path / "t.json").exists()


def test_apply_names_the_map_whose_classes_the_file_lacks(files, other_classes, capsys):
    tmp_path, _, _ = files
    args = ["apply", "--scores", str(other_classes), "--calibration", str(tmp_path / "cal.json")]
    assert main([*args, "--out", str(tmp_path / "pred.csv")]) == 2
    err = capsys.readouterr().err
    assert str(other_classes) in err and f"(the classes of --calibration {tmp_path / 'cal.json'})" in err
    assert not (tmp_path / "pred.csv").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["apply", "--scores", "{test}", "--out", "{out}"], "give --tau (thresholds from polyroc tune), --calibration"),
        (["evaluate", "--calibration", "{cal}"], "--calibration needs --scores and --engine memory"),
        (["evaluate", "--scores", "{test}", "--engine", "dask", "--calibration", "{cal}"], "needs --scores and"),
        (["tune", "--scores", "{test}", "--calibration", "{bad}", "--out", "{out}"], "not a calibration map file"),
        (["evaluate", "--scores", "{test}", "--calibration", "{absent}"], "No such file or directory"),
    ],
)
def test_bad_calibration_options(files, capsys, args, message):
    tmp_path, _, _ = files
    (tmp_path / "bad.json").write_text('{"classes": ["cat", "dog", "eel"], "threshold": [0.3, 0.3, 0.4]}')
    paths = {
        "test": tmp_path / "test.csv",
        "cal": tmp_path / "cal.json",
        "bad": tmp_path / "bad.json",
        "absent": tmp_path / "absent.json",
        "out": tmp_path / "out.file",
    }
    assert main([arg.format(**paths) for arg in args]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out.file").exists()


def test_the_map_may_not_be_the_output(files, capsys):
    tmp_path, _, _ = files
    before = (tmp_path / "cal.json").read_bytes()
    args = ["tune", "--scores", str(tmp_path / "val.csv"), "--calibration", str(tmp_path / "cal.json")]
    assert main([*args, "--out", str(tmp_path / "cal.json")]) == 2
    assert "is also the --calibration input" in capsys.readouterr().err
    assert (tmp_path / "cal.json").read_bytes() == before


def test_apply_refuses_a_class_named_as_an_output_column(write_scores, tmp_path, capsys):
    y, P = _scores(3, n=60)
    names = dict(zip(CLASSES, ["prediction", "x", "y"]))
    val = write_scores([names[label] for label in y], P, list(names.values()), name="val.csv")
    assert main(["calibrate", "--scores", str(val), "-q", "--out", str(tmp_path / "cal.json")]) == 0
    args = ["apply", "--scores", str(val), "--calibration", str(tmp_path / "cal.json")]
    assert main([*args, "--out", str(tmp_path / "pred.csv")]) == 2
    assert "classes named ['prediction'] cannot be columns of the predictions" in capsys.readouterr().err
    assert not (tmp_path / "pred.csv").exists()
