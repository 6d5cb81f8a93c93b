"""``polyroc calibrate``: a calibration map fitted on a score file and written as JSON.

Oracles: the temperature minimising the log loss written here (scipy's bounded
scalar search), scikit-learn's ``CalibratedClassifierCV(FrozenEstimator,
method="temperature")`` and ``IsotonicRegression``, ``fit_calibrator`` in
process on the arrays numpy reads from the same file, and fits on repeated
rows for integer weights.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.special import logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.calibration import CalibratedClassifierCV
from sklearn.frozen import FrozenEstimator
from sklearn.isotonic import IsotonicRegression

from polyroc.calibration import fit_calibrator
from polyroc.cli import main
from polyroc.io import read_calibrator

CLASSES = ["cat", "dog", "eel"]


def _scores(seed, n=300, scale=3.0):
    """Labels drawn from softmax(z), scores softmax(scale * z): over-confident for scale > 1."""
    rng = np.random.default_rng(seed)
    z = 1.5 * rng.normal(size=(n, 3))
    y = (rng.random(n)[:, None] > np.cumsum(softmax(z, axis=1), axis=1)).sum(axis=1)
    return np.array(CLASSES)[y], softmax(scale * z, axis=1)


def _read_back(path):
    """Labels and scores of a file written by ``write_scores``, read with numpy alone."""
    table = np.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8")
    return table["label"].astype(str), np.column_stack([table[c] for c in CLASSES]).astype(np.float64)


def _temperature_oracle(y, P):
    """argmin over T of the mean log loss of softmax(log p / T), by scipy's bounded search in log T."""
    codes = np.searchsorted(CLASSES, y)
    z = np.log(P)

    def loss(log_t):
        logits = z / np.exp(log_t)
        return float(np.mean(logsumexp(logits, axis=1) - logits[np.arange(y.size), codes]))

    return float(np.exp(minimize_scalar(loss, bounds=(-5, 5), method="bounded", options={"xatol": 1e-10}).x))


class _GivenProbabilities(ClassifierMixin, BaseEstimator):
    """A classifier whose features are its probabilities, so that scikit-learn calibrates those."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def predict_proba(self, X):
        return np.asarray(X, dtype=np.float64)

    def predict(self, X):
        return self.classes_[np.asarray(X).argmax(axis=1)]


def test_temperature_written_is_the_minimiser_and_scikit_learns(write_scores, tmp_path, capsys):
    val = write_scores(*_scores(0), CLASSES, name="val.csv")
    assert main(["calibrate", "--scores", str(val), "--out", str(tmp_path / "cal.json")]) == 0
    document = json.loads((tmp_path / "cal.json").read_text())
    y, P = _read_back(val)
    temperature = document["parameters"]["temperature"]
    assert temperature == pytest.approx(_temperature_oracle(y, P), rel=1e-6)
    assert temperature == pytest.approx(fit_calibrator(y, P).temperature, rel=1e-12)  # the same fit in process
    model = _GivenProbabilities().fit(P, y)
    reference = CalibratedClassifierCV(FrozenEstimator(model), method="temperature").fit(P, y)
    assert temperature == pytest.approx(1 / reference.calibrated_classifiers_[0].calibrators[0].beta_, rel=1e-5)
    assert 2.0 < temperature < 4.0  # the scores were made over-confident by 3
    out = capsys.readouterr().out
    line = re.fullmatch(
        r"calibrated .*val\.csv by temperature: T = ([0-9.]+); validation log loss ([0-9.]+) before, "
        r"([0-9.]+) after; map written to .*cal\.json\n",
        out,
    )
    assert line is not None, out
    assert float(line.group(1)) == pytest.approx(temperature, rel=1e-5)
    assert float(line.group(2)) > float(line.group(3))


@pytest.mark.parametrize("method", ["vector", "matrix", "isotonic"])
def test_other_maps_are_fit_calibrators(write_scores, tmp_path, method):
    val = write_scores(*_scores(1), CLASSES, name="val.csv")
    assert main(["calibrate", "--scores", str(val), "--method", method, "-q", "--out", str(tmp_path / "c.json")]) == 0
    y, P = _read_back(val)
    expected = fit_calibrator(y, P, method=method)
    _, P_new = _scores(2, n=50)
    # the same fit; the Newton steps' sums may round differently for another memory layout of the scores
    assert read_calibrator(tmp_path / "c.json").transform(P_new) == pytest.approx(expected.transform(P_new), abs=1e-10)


def test_isotonic_map_is_scikit_learns_per_class(write_scores, tmp_path):
    val = write_scores(*_scores(3, n=120), CLASSES, name="val.csv")
    assert main(["calibrate", "--scores", str(val), "--method", "isotonic", "--out", str(tmp_path / "c.json")]) == 0
    y, P = _read_back(val)
    _, P_new = _scores(4, n=60)
    columns = [
        IsotonicRegression(out_of_bounds="clip", y_min=0, y_max=1).fit(P[:, j], y == c).predict(P_new[:, j])
        for j, c in enumerate(CLASSES)
    ]
    expected = np.column_stack(columns)
    expected /= expected.sum(axis=1, keepdims=True)
    assert read_calibrator(tmp_path / "c.json").transform(P_new) == pytest.approx(expected, abs=1e-12)


def test_from_logits_fits_the_logits(tmp_path, capsys):
    rng = np.random.default_rng(5)
    y = rng.integers(0, 3, 200)
    z = 2 * rng.normal(size=(200, 3)) + np.eye(3)[y]
    lines = ["cat,dog,eel,label", *(f"{a!r},{b!r},{c!r},{CLASSES[t]}" for (a, b, c), t in zip(z.tolist(), y))]
    (tmp_path / "logits.csv").write_text("\n".join(lines) + "\n")
    args = ["calibrate", "--scores", str(tmp_path / "logits.csv"), "--from-logits", "--out", str(tmp_path / "c.json")]
    assert main(args) == 0
    read = read_calibrator(tmp_path / "c.json")
    assert read.settings["from_logits"] is True
    assert read.temperature == fit_calibrator(np.array(CLASSES)[y], z, from_logits=True).temperature
    # a map of logits needs --from-logits where it is used
    capsys.readouterr()
    args = ["evaluate", "--scores", str(tmp_path / "logits.csv"), "--calibration", str(tmp_path / "c.json")]
    assert main(args) == 2
    assert "takes logits (it was fitted with --from-logits); add --from-logits" in capsys.readouterr().err


def test_weights_count_as_repeated_rows(tmp_path):
    y, P = _scores(6, n=80)
    weights = np.random.default_rng(6).integers(1, 4, y.size)
    rows = [",".join([*(repr(v) for v in p), label, str(w)]) for p, label, w in zip(P.tolist(), y, weights)]
    (tmp_path / "w.csv").write_text("\n".join(["cat,dog,eel,label,w", *rows]) + "\n")
    args = ["calibrate", "--scores", str(tmp_path / "w.csv"), "--weight-col", "w", "--out", str(tmp_path / "c.json")]
    assert main([*args, "--method", "vector", "-q"]) == 0
    repeated = fit_calibrator(np.repeat(y, weights), np.repeat(P, weights, axis=0), method="vector")
    read = read_calibrator(tmp_path / "c.json")
    assert read.coef == pytest.approx(repeated.coef, abs=1e-6)
    assert read.intercept == pytest.approx(repeated.intercept, abs=1e-6)


def test_refuses_to_overwrite_a_file_it_did_not_write(write_scores, tmp_path, capsys):
    val = write_scores(*_scores(7), CLASSES, name="val.csv")
    (tmp_path / "cal.json").write_text("precious\n")
    assert main(["calibrate", "--scores", str(val), "--out", str(tmp_path / "cal.json")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("polyroc calibrate: error: --out ") and "cal.json" in err and len(err.splitlines()) == 1
    assert (tmp_path / "cal.json").read_text() == "precious\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cal.json", "val.csv"]


def test_replaces_a_map_it_wrote(write_scores, tmp_path):
    val = write_scores(*_scores(8), CLASSES, name="val.csv")
    out = str(tmp_path / "cal.json")
    assert main(["calibrate", "--scores", str(val), "-q", "--out", out]) == 0
    assert main(["calibrate", "--scores", str(val), "--method", "vector", "-q", "--out", out]) == 0
    assert read_calibrator(out).method == "vector"


def test_refuses_its_input_as_output(write_scores, capsys):
    val = write_scores(*_scores(9), CLASSES, name="val.csv")
    before = val.read_bytes()
    assert main(["calibrate", "--scores", str(val), "--out", str(val)]) == 2
    assert "is also the --scores input" in capsys.readouterr().err
    assert val.read_bytes() == before


@pytest.mark.parametrize(
    "options, message",
    [
        (["--method", "platt"], "argument --method: invalid choice: 'platt'"),
        (["--normalize", "--from-logits"], "not allowed with argument"),
    ],
)
def test_bad_options(write_scores, tmp_path, capsys, options, message):
    val = write_scores(*_scores(10), CLASSES, name="val.csv")
    assert main(["calibrate", "--scores", str(val), *options, "--out", str(tmp_path / "c.json")]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "c.json").exists()


def test_scores_that_are_not_probabilities_are_named(tmp_path, capsys):
    (tmp_path / "bad.csv").write_text("cat,dog,eel,label\n0.5,0.9,0.1,cat\n0.2,0.3,0.5,dog\n0.1,0.1,0.8,eel\n")
    assert main(["calibrate", "--scores", str(tmp_path / "bad.csv"), "--out", str(tmp_path / "c.json")]) == 2
    err = capsys.readouterr().err
    assert "bad.csv" in err and "--normalize" in err
    assert not (tmp_path / "c.json").exists()
