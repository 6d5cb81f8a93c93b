"""Fitted calibration maps as JSON: :func:`write_calibrator` writes a Calibrator, :func:`read_calibrator` reads it.

The document names its format and version and the polyroc version that wrote
it, the method, the classes (in the order of the score columns the map takes),
whether the map takes logits, the validation losses and the parameters:

- ``"temperature"``: ``{"temperature": T}``;
- ``"vector"``: ``{"scale": [a_1, ...], "intercept": [b_1, ...]}``;
- ``"matrix"``: ``{"coef": [[W_11, ...], ...], "intercept": [b_1, ...]}`` (rows: calibrated logits);
- ``"isotonic"``: ``{"knots": [[...], ...], "knot_values": [[...], ...]}``, one list per class.

Floats are written as their shortest round-tripping decimal, so a map read
back transforms scores bit for bit as the fitted one does.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polyroc.io._outputs import OutputFile, write_to
from polyroc.io._readers import check_unique_names

if TYPE_CHECKING:
    from polyroc.calibration import Calibrator

#: The ``format`` of a calibration map file, and the ``format_version`` this polyroc writes and reads.
CALIBRATOR_FORMAT = "polyroc-calibrator"
CALIBRATOR_FORMAT_VERSION = 1

_PARAMETERS = {
    "temperature": ("temperature",),
    "vector": ("scale", "intercept"),
    "matrix": ("coef", "intercept"),
    "isotonic": ("knots", "knot_values"),
}
_FIELDS = ("format_version", "method", "classes", "from_logits", "parameters", "loss_before", "loss_after")


def _number(value: Any, where: str, path: Path) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{path}: {where} must be a finite number, got {value!r}")
    return float(value)


def _numbers(value: Any, length: int | None, where: str, path: Path) -> list[float]:
    if not isinstance(value, list):
        raise ValueError(f"{path}: {where} must be a list of numbers, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise ValueError(f"{path}: {where} must hold {length} numbers (one per class), got {len(value)}")
    return [_number(item, where, path) for item in value]


def _classes(value: Any, path: Path) -> list[Any]:
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError(f"{path}: 'classes' must be a list of at least 2 class labels, got {value!r}")
    if not all(isinstance(c, (str, int, float)) and not isinstance(c, bool) for c in value):
        raise ValueError(f"{path}: 'classes' must hold class labels (strings or numbers), got {value!r}")
    check_unique_names([str(c) for c in value], path)
    return value


def _parameters(method: str, value: Any, m: int, path: Path) -> dict[str, Any]:
    """The map's fields (temperature, coef, intercept, knots, knot_values) from the document's parameters."""
    import numpy as np

    if not isinstance(value, dict):
        raise ValueError(f"{path}: 'parameters' must be a JSON object, got {type(value).__name__}")
    missing = [key for key in _PARAMETERS[method] if key not in value]
    if missing:
        raise ValueError(f"{path}: the parameters of a {method} map lack {missing}")
    fields: dict[str, Any] = {"temperature": None, "coef": None, "intercept": None, "knots": None, "knot_values": None}
    if method == "temperature":
        temperature = _number(value["temperature"], "'temperature'", path)
        if temperature <= 0:
            raise ValueError(f"{path}: 'temperature' must be > 0, got {temperature!r}")
        fields["temperature"] = temperature
        fields["coef"], fields["intercept"] = np.eye(m) / temperature, np.zeros(m)  # as fit_calibrator builds them
    elif method == "vector":
        fields["coef"] = np.diag(np.array(_numbers(value["scale"], m, "'scale'", path)))
    elif method == "matrix":
        rows = value["coef"]
        if not isinstance(rows, list) or len(rows) != m:
            raise ValueError(f"{path}: 'coef' must be a list of {m} rows (one per class), got {rows!r}")
        fields["coef"] = np.array([_numbers(row, m, f"row {j} of 'coef'", path) for j, row in enumerate(rows)])
    if method in ("vector", "matrix"):
        fields["intercept"] = np.array(_numbers(value["intercept"], m, "'intercept'", path))
    if method == "isotonic":
        fields["knots"], fields["knot_values"] = _isotonic_knots(value["knots"], value["knot_values"], m, path)
    return fields


def _isotonic_knots(knots: Any, values: Any, m: int, path: Path) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    import numpy as np

    for name, lists in (("knots", knots), ("knot_values", values)):
        if not isinstance(lists, list) or len(lists) != m:
            raise ValueError(f"{path}: '{name}' must be a list of {m} lists (one per class), got {lists!r}")
    xs, ys = [], []
    for j, (x, y) in enumerate(zip(knots, values)):
        x = np.array(_numbers(x, None, f"'knots' of class {j}", path))
        y = np.array(_numbers(y, x.size, f"'knot_values' of class {j}", path))
        if x.size == 0 or np.any(np.diff(x) <= 0):
            raise ValueError(f"{path}: 'knots' of class {j} must be a non-empty increasing list")
        if np.any(np.diff(y) < 0) or np.any((y < 0) | (y > 1)):
            raise ValueError(f"{path}: 'knot_values' of class {j} must be non-decreasing values in [0, 1]")
        xs.append(x)
        ys.append(y)
    return tuple(xs), tuple(ys)


def _document_of(calibrator: Calibrator) -> dict[str, Any]:
    from polyroc._version import __version__

    if calibrator.method == "temperature":
        parameters: dict[str, Any] = {"temperature": float(calibrator.temperature)}  # type: ignore[arg-type]
    elif calibrator.method == "isotonic":
        assert calibrator.knots is not None and calibrator.knot_values is not None
        parameters = {
            "knots": [x.tolist() for x in calibrator.knots],
            "knot_values": [y.tolist() for y in calibrator.knot_values],
        }
    else:
        assert calibrator.coef is not None and calibrator.intercept is not None
        weights = ("scale", calibrator.coef.diagonal()) if calibrator.method == "vector" else ("coef", calibrator.coef)
        parameters = {weights[0]: weights[1].tolist(), "intercept": calibrator.intercept.tolist()}
    settings = calibrator.settings
    return {
        "format": CALIBRATOR_FORMAT,
        "format_version": CALIBRATOR_FORMAT_VERSION,
        "polyroc_version": __version__,
        "method": calibrator.method,
        "classes": calibrator.classes.tolist(),
        "from_logits": bool(settings["from_logits"]),
        "parameters": parameters,
        "loss_before": float(calibrator.loss_before),
        "loss_after": float(calibrator.loss_after),
        "converged": bool(calibrator.converged),
        "reg_lambda": settings.get("reg_lambda"),
        "reg_mu": settings.get("reg_mu"),
    }


def write_calibrator(path: str | os.PathLike | OutputFile, calibrator: Calibrator) -> None:
    """Write a fitted :class:`~polyroc.calibration.Calibrator` as JSON.

    The floats round-trip exactly: the map :func:`read_calibrator` reads back
    transforms scores bit for bit as ``calibrator`` does.

    Parameters
    ----------
    path : str, Path or OutputFile
        Where to write; a path is written as :class:`OutputFile` writes
        (never over a file polyroc did not write).
    calibrator : Calibrator
        What :func:`polyroc.calibration.fit_calibrator` returned.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If ``calibrator`` is not a :class:`~polyroc.calibration.Calibrator`
        (checked before anything is written).
    FileExistsError, OSError
        As :class:`OutputFile`.

    See Also
    --------
    read_calibrator : Reads the file back.
    polyroc.calibration.fit_calibrator : Fits the map.

    Examples
    --------
    >>> import tempfile, os
    >>> from polyroc.calibration import fit_calibrator
    >>> calibrator = fit_calibrator(["a", "b", "b"], [[0.6, 0.4], [0.3, 0.7], [0.45, 0.55]])
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "cal.json")
    ...     write_calibrator(path, calibrator)
    ...     read_calibrator(path).temperature == calibrator.temperature
    True
    """
    from polyroc.calibration import Calibrator

    if not isinstance(calibrator, Calibrator):
        raise TypeError(
            f"calibrator must be a Calibrator (what polyroc.calibration.fit_calibrator returns), "
            f"got {type(calibrator).__name__}"
        )
    write_to(path, json.dumps(_document_of(calibrator), indent=2, allow_nan=False) + "\n")


def read_calibrator(path: str | os.PathLike) -> Calibrator:
    """Read and check a calibration map written by :func:`write_calibrator`.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file.

    Returns
    -------
    Calibrator
        The map, with the method, classes, parameters, validation losses and
        settings as written; its :meth:`~polyroc.calibration.Calibrator.transform`
        gives the fitted map's probabilities bit for bit.

    Raises
    ------
    ValueError
        Naming the file: it is not UTF-8 JSON, or not a JSON object; its
        ``format`` is not ``"polyroc-calibrator"``; its ``format_version`` is
        not one this polyroc reads; a field is missing; the method is not
        one of the four maps; ``classes`` is not a list of at least two
        distinct labels; a parameter is not finite or has the wrong shape
        for the classes (e.g. a temperature <= 0, knots not increasing).
    OSError
        If the file cannot be read (e.g. FileNotFoundError).

    See Also
    --------
    write_calibrator : Writes the file.
    polyroc.calibration.Calibrator.transform : Applies the map.

    Examples
    --------
    >>> import tempfile, os
    >>> text = ('{"format": "polyroc-calibrator", "format_version": 1, "method": "temperature", '
    ...         '"classes": ["a", "b"], "from_logits": false, "parameters": {"temperature": 2.0}, '
    ...         '"loss_before": 0.7, "loss_after": 0.6}')
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "cal.json")
    ...     _ = open(path, "w").write(text)
    ...     read_calibrator(path).transform([[0.8, 0.2]]).round(3).tolist()
    [[0.667, 0.333]]
    """
    return calibrator_file(path)[0]


def calibrator_file(path: str | os.PathLike) -> tuple[Calibrator, str]:
    """The map of ``path`` (as :func:`read_calibrator`) and the SHA-256 hex digest of the bytes it was read from."""
    path = Path(path)
    data = path.read_bytes()
    return _calibrator_of(data, path), hashlib.sha256(data).hexdigest()


def _json_object(data: bytes, path: Path) -> dict[str, Any]:
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a calibration map file (not UTF-8 text)") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path}: not a calibration map file ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    if not isinstance(document, dict):
        raise ValueError(f"{path}: not a calibration map file: expected a JSON object, got {type(document).__name__}")
    if document.get("format") != CALIBRATOR_FORMAT:
        raise ValueError(
            f"{path}: not a calibration map file: 'format' is {document.get('format')!r}, "
            f"expected {CALIBRATOR_FORMAT!r} (polyroc calibrate writes it)"
        )
    missing = [key for key in _FIELDS if key not in document]
    if missing:
        raise ValueError(f"{path}: calibration map file lacks {missing}")
    if document["format_version"] != CALIBRATOR_FORMAT_VERSION:
        raise ValueError(
            f"{path}: calibration map format version {document['format_version']!r}; this polyroc reads version "
            f"{CALIBRATOR_FORMAT_VERSION} (written by polyroc {document.get('polyroc_version', 'unknown')})"
        )
    return document


def _calibrator_of(data: bytes, path: Path) -> Calibrator:
    import numpy as np

    from polyroc.calibration import Calibrator

    document = _json_object(data, path)
    method = document["method"]
    if method not in _PARAMETERS:
        raise ValueError(f"{path}: 'method' must be one of {list(_PARAMETERS)}, got {method!r}")
    if not isinstance(document["from_logits"], bool):
        raise ValueError(f"{path}: 'from_logits' must be true or false, got {document['from_logits']!r}")
    classes = np.asarray(_classes(document["classes"], path))
    fields = _parameters(method, document["parameters"], classes.size, path)
    regularisation = {key: document.get(key) for key in ("reg_lambda", "reg_mu")}
    for key, value in regularisation.items():
        if value is not None:
            regularisation[key] = _number(value, f"'{key}'", path)
    converged = document.get("converged", True)
    if not isinstance(converged, bool):
        raise ValueError(f"{path}: 'converged' must be true or false, got {converged!r}")
    return Calibrator(
        method=method,
        classes=classes,
        loss_before=_number(document["loss_before"], "'loss_before'", path),
        loss_after=_number(document["loss_after"], "'loss_after'", path),
        converged=converged,
        settings={"method": method, "from_logits": document["from_logits"], **regularisation},
        **fields,
    )
