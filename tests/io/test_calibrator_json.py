"""Calibration maps as JSON: ``polyroc.io.write_calibrator`` and ``read_calibrator``.

Oracles: the fitted map in memory (a map read back transforms new scores bit
for bit as it does, for every method, on probabilities and on logits); the
document's fields against the fitted map's attributes and the standard
library's ``json``; hand-written files for every read error.
"""

from __future__ import annotations

import hashlib
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import softmax

from polyroc.calibration import fit_calibrator
from polyroc.io import OutputFile, read_calibrator, write_calibrator
from polyroc.io._calibrators import calibrator_file

METHODS = ("temperature", "vector", "matrix", "isotonic")


def _problem(seed, n=200, m=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = 2.0 * rng.normal(size=(n, m)) + np.eye(m)[y]
    return y, logits


def _round_trip(calibrator, path):
    write_calibrator(path, calibrator)
    return read_calibrator(path)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("from_logits", [False, True])
def test_a_map_read_back_transforms_bit_for_bit(tmp_path, method, from_logits):
    y, logits = _problem(1)
    scores = logits if from_logits else softmax(logits, axis=1)
    fitted = fit_calibrator(y[:150], scores[:150], method=method, from_logits=from_logits)
    read = _round_trip(fitted, tmp_path / "cal.json")
    assert np.array_equal(read.transform(scores[150:]), fitted.transform(scores[150:]))
    assert read.method == method and read.settings == fitted.settings
    assert read.classes.tolist() == fitted.classes.tolist()
    assert (read.loss_before, read.loss_after, read.converged) == (
        fitted.loss_before,
        fitted.loss_after,
        fitted.converged,
    )
    assert read.to_text() == fitted.to_text()


def test_the_document_names_its_format_and_parameters(tmp_path):
    y, logits = _problem(2)
    fitted = fit_calibrator(np.array(["b", "c", "a"])[y], softmax(logits, axis=1), method="vector")
    write_calibrator(tmp_path / "cal.json", fitted)
    document = json.loads((tmp_path / "cal.json").read_text())
    assert document["format"] == "polyroc-calibrator" and document["format_version"] == 1
    assert document["polyroc_version"] == __import__("polyroc").__version__
    assert document["method"] == "vector" and document["from_logits"] is False
    assert document["classes"] == ["a", "b", "c"]
    assert document["parameters"]["scale"] == np.diag(fitted.coef).tolist()
    assert document["parameters"]["intercept"] == fitted.intercept.tolist()
    temperature = fit_calibrator(y, logits, from_logits=True)
    write_calibrator(tmp_path / "t.json", temperature)
    document = json.loads((tmp_path / "t.json").read_text())
    assert document["parameters"] == {"temperature": temperature.temperature}
    assert document["from_logits"] is True and document["classes"] == [0, 1, 2]


def test_isotonic_breakpoints_are_lists_per_class(tmp_path):
    y, logits = _problem(3, n=60)
    fitted = fit_calibrator(y, softmax(logits, axis=1), method="isotonic")
    write_calibrator(tmp_path / "cal.json", fitted)
    parameters = json.loads((tmp_path / "cal.json").read_text())["parameters"]
    # every distinct validation score of a column is a knot of its class
    assert [len(x) for x in parameters["knots"]] == [np.unique(softmax(logits, axis=1)[:, j]).size for j in range(3)]
    assert [len(v) for v in parameters["knot_values"]] == [len(x) for x in parameters["knots"]]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    m=st.integers(2, 5),
    method=st.sampled_from(("temperature", "vector", "isotonic")),
    scale=st.floats(0.01, 50.0),
)
def test_round_trip_property(tmp_path_factory, seed, m, method, scale):
    rng = np.random.default_rng(seed)
    y = np.arange(40) % m
    scores = softmax(scale * rng.normal(size=(40, m)), axis=1)
    fitted = fit_calibrator(y, scores, method=method)
    read = _round_trip(fitted, tmp_path_factory.mktemp("cal") / "cal.json")
    new = softmax(scale * rng.normal(size=(25, m)), axis=1)
    assert np.array_equal(read.transform(new), fitted.transform(new))


def test_the_digest_is_that_of_the_file(tmp_path):
    y, logits = _problem(4)
    write_calibrator(tmp_path / "cal.json", fit_calibrator(y, logits, from_logits=True))
    _, digest = calibrator_file(tmp_path / "cal.json")
    assert digest == hashlib.sha256((tmp_path / "cal.json").read_bytes()).hexdigest()


def test_write_refuses_what_is_not_a_calibrator_before_writing(tmp_path):
    with pytest.raises(TypeError, match="calibrator must be a Calibrator"):
        write_calibrator(tmp_path / "cal.json", {"temperature": 2.0})
    assert list(tmp_path.iterdir()) == []


def test_write_never_replaces_a_file_polyroc_did_not_write(tmp_path):
    y, logits = _problem(5)
    (tmp_path / "cal.json").write_text("mine\n")
    with pytest.raises(FileExistsError, match=r"cal\.json"):
        write_calibrator(tmp_path / "cal.json", fit_calibrator(y, logits, from_logits=True))
    assert (tmp_path / "cal.json").read_text() == "mine\n"


def test_write_into_an_open_output_file(tmp_path):
    y, logits = _problem(6)
    fitted = fit_calibrator(y, logits, from_logits=True)
    with OutputFile(tmp_path / "cal.json", option="--out") as out:
        write_calibrator(out, fitted)
    assert read_calibrator(tmp_path / "cal.json").temperature == fitted.temperature


VALID = {
    "format": "polyroc-calibrator",
    "format_version": 1,
    "polyroc_version": "1.5.0",
    "method": "temperature",
    "classes": ["a", "b", "c"],
    "from_logits": False,
    "parameters": {"temperature": 1.5},
    "loss_before": 0.9,
    "loss_after": 0.8,
}


def _changed(**fields):
    document = {**VALID, **fields}
    return {key: value for key, value in document.items() if value is not None}


BAD_DOCUMENTS = [
    ("not json", "not a calibration map file (Expecting value at line 1, column 1)"),
    ("[1, 2]", "expected a JSON object, got list"),
    (json.dumps(_changed(format="polyroc-thresholds")), "'format' is 'polyroc-thresholds'"),
    (json.dumps(_changed(format=None)), "'format' is None"),
    (json.dumps(_changed(format_version=2)), "format version 2; this polyroc reads version 1"),
    (json.dumps(_changed(parameters=None)), "lacks ['parameters']"),
    (json.dumps(_changed(method="platt")), "'method' must be one of"),
    (json.dumps(_changed(from_logits="yes")), "'from_logits' must be true or false"),
    (json.dumps(_changed(classes=["a"])), "'classes' must be a list of at least 2"),
    (json.dumps(_changed(classes=["a", "a", "b"])), "appears twice"),
    (json.dumps(_changed(parameters={"temperature": -1.0})), "'temperature' must be > 0"),
    (json.dumps(_changed(parameters={"temperature": "hot"})), "'temperature' must be a finite number"),
    (json.dumps(_changed(parameters={"T": 1.0})), "the parameters of a temperature map lack ['temperature']"),
    (
        json.dumps(_changed(method="vector", parameters={"scale": [1.0, 1.0], "intercept": [0, 0, 0]})),
        "'scale' must hold 3 numbers (one per class), got 2",
    ),
    (
        json.dumps(_changed(method="matrix", parameters={"coef": [[1, 0, 0], [0, 1, 0]], "intercept": [0, 0, 0]})),
        "'coef' must be a list of 3 rows",
    ),
    (
        json.dumps(_changed(method="matrix", parameters={"coef": [[1, 0], [0, 1], [0, 0]], "intercept": [0, 0, 0]})),
        "row 0 of 'coef' must hold 3 numbers",
    ),
    (
        json.dumps(_changed(method="isotonic", parameters={"knots": [[0, 1]] * 3, "knot_values": [[0, 1]] * 2})),
        "'knot_values' must be a list of 3 lists",
    ),
    (
        json.dumps(_changed(method="isotonic", parameters={"knots": [[1, 0]] * 3, "knot_values": [[0, 1]] * 3})),
        "'knots' of class 0 must be a non-empty increasing list",
    ),
    (
        json.dumps(_changed(method="isotonic", parameters={"knots": [[0, 1]] * 3, "knot_values": [[0, 2]] * 3})),
        "'knot_values' of class 0 must be non-decreasing values in [0, 1]",
    ),
    (
        json.dumps(_changed(method="isotonic", parameters={"knots": [[0, 1]] * 3, "knot_values": [[0]] * 3})),
        "'knot_values' of class 0 must hold 2 numbers",
    ),
]


@pytest.mark.parametrize("text, problem", BAD_DOCUMENTS)
def test_read_errors_name_the_file_and_the_problem(tmp_path, text, problem):
    path = tmp_path / "cal.json"
    path.write_text(text)
    with pytest.raises(ValueError) as error:
        read_calibrator(path)
    assert str(error.value).startswith(f"{path}: ")
    assert problem in str(error.value)


def test_read_error_of_a_file_that_is_not_text(tmp_path):
    path = tmp_path / "cal.json"
    path.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(ValueError, match=r"cal\.json: not a calibration map file \(not UTF-8 text\)"):
        read_calibrator(path)


def test_read_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_calibrator(tmp_path / "absent.json")


def test_a_hand_written_map_applies_its_temperature(tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(VALID))
    scores = np.array([[0.7, 0.2, 0.1], [0.2, 0.2, 0.6]])
    expected = softmax(np.log(scores) / 1.5, axis=1)  # softmax(log p / T), written here
    assert read_calibrator(path).transform(scores) == pytest.approx(expected, rel=1e-14)
