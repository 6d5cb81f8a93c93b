"""Tuned thresholds as JSON: :func:`write_thresholds` writes a tuning result, :func:`read_thresholds` reads it back.

The floats round-trip exactly; the file read back is checked (classes, thresholds in their domain).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polyroc._validation import check_thresholds
from polyroc.io._outputs import OutputFile, write_to
from polyroc.io._readers import check_unique_names, decoded

if TYPE_CHECKING:
    from polyroc.thresholds import TuningResult

_THRESHOLD_DOMAINS = ("simplex", "box")


def _threshold_classes(value, path):
    if not isinstance(value, list) or len(value) < 2:
        raise ValueError(f"{path}: 'classes' must be a list of at least 2 class names, got {value!r}")
    if not all(isinstance(c, (str, int)) and not isinstance(c, bool) for c in value):
        raise ValueError(f"{path}: 'classes' must hold class names (strings), got {value!r}")
    classes = [str(c) for c in value]
    check_unique_names(classes, path)
    return classes


def _threshold_values(value, n_classes, domain, path):
    if not isinstance(value, list) or not all(
        isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) for t in value
    ):
        raise ValueError(f"{path}: 'threshold' must be a list of finite numbers, got {value!r}")
    if len(value) != n_classes:
        raise ValueError(f"{path}: 'classes' and 'threshold' have different lengths ({n_classes} and {len(value)})")
    try:
        return check_thresholds(value, n_classes, domain=domain).tolist()
    except (ValueError, TypeError) as error:
        raise ValueError(f"{path}: {error}") from None


def read_thresholds(path: str | os.PathLike) -> dict[str, Any]:
    """Read and check a thresholds JSON written by :func:`write_thresholds`; return the document.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file.

    Returns
    -------
    dict
        The document, with ``classes`` as a list of str (numbers written as
        class names become strings) and ``threshold`` as a list of floats;
        other keys (``metric``, ``best_score`` ...) as written.

    Raises
    ------
    TypeError
        Naming the file: it holds JSON but not a JSON object.
    ValueError
        Naming the file: it is not UTF-8 JSON; it lacks
        ``classes``, ``threshold`` or ``domain``; ``classes`` is not a list of
        at least two distinct names; ``threshold`` is not a list of finite
        numbers of the same length; ``domain`` is not ``"simplex"`` or
        ``"box"``; the thresholds lie outside their domain.
    OSError
        If the file cannot be read (e.g. FileNotFoundError).

    See Also
    --------
    write_thresholds : Writes the file.
    polyroc.thresholds.apply_thresholds : Applies the thresholds to scores.

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "tau.json")
    ...     _ = open(path, "w").write('{"classes": ["a", "b"], "threshold": [0.4, 0.6], "domain": "simplex"}')
    ...     read_thresholds(path)["threshold"]
    [0.4, 0.6]
    """
    path = Path(path)
    try:
        document = json.loads(decoded(path))
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{path}: not a thresholds JSON file ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    if not isinstance(document, dict):
        raise TypeError(f"{path}: not a thresholds file: expected a JSON object, got {type(document).__name__}")
    missing = [key for key in ("classes", "threshold", "domain") if key not in document]
    if missing:
        raise ValueError(f"{path}: thresholds file lacks {missing}")
    if document["domain"] not in _THRESHOLD_DOMAINS:
        raise ValueError(f"{path}: 'domain' must be 'simplex' or 'box', got {document['domain']!r}")
    classes = _threshold_classes(document["classes"], path)
    threshold = _threshold_values(document["threshold"], len(classes), document["domain"], path)
    return {**document, "classes": classes, "threshold": threshold}


def write_thresholds(
    path: str | os.PathLike | OutputFile, result: TuningResult, *, calibration: Mapping[str, str] | None = None
) -> None:
    """Write the tuned thresholds of a :class:`~polyroc.thresholds.TuningResult` as JSON.

    The floats round-trip exactly; :func:`read_thresholds` reads the file back.
    Besides the classes, thresholds and domain, the document records the
    metric, ``best_score`` and ``argmax_score`` on the tuning data,
    ``greater_is_better`` (False for ``metric="expected_cost"``, a cost) and
    the search settings.

    Parameters
    ----------
    path : str, Path or OutputFile
        Where to write; a path is written as :class:`OutputFile` writes
        (never over a file polyroc did not write).
    result : TuningResult
        What :func:`polyroc.tune_thresholds` returned.
    calibration : mapping of str to str, default=None
        The calibration map the tuning scores went through, written as the
        document's ``calibration`` (e.g. ``{"file": ..., "sha256": ...,
        "method": ...}``, as ``polyroc tune --calibration`` records it);
        None: the scores were not calibrated, no such key.

    Returns
    -------
    None

    Raises
    ------
    TypeError
        If ``result`` is not a :class:`~polyroc.thresholds.TuningResult`
        (checked before anything is written).
    FileExistsError, OSError
        As :class:`OutputFile`.

    See Also
    --------
    read_thresholds : Reads the file back.
    polyroc.thresholds.tune_thresholds : Makes the result.

    Examples
    --------
    >>> import tempfile, os
    >>> from polyroc.thresholds import tune_thresholds
    >>> result = tune_thresholds(["a", "b", "b"], [[.6, .4], [.55, .45], [.2, .8]], resolution=20)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "tau.json")
    ...     write_thresholds(path, result)
    ...     read_thresholds(path)["threshold"] == result.best_threshold.tolist()
    True
    """
    from polyroc.thresholds import TuningResult  # the tuning layer is loaded only when it is used

    if not isinstance(result, TuningResult):
        raise TypeError(
            f"result must be a TuningResult (what polyroc.tune_thresholds returns), got {type(result).__name__}"
        )
    document = {
        "classes": [str(c) for c in result.classes],
        "threshold": [float(t) for t in result.best_threshold],
        "domain": result.domain,
        "metric": result.metric,
        "best_score": result.best_score,
        "argmax_score": result.argmax_score,
        "greater_is_better": result.greater_is_better,
        "search": result.search,
        "resolution": result.resolution,
        "n_samples": result.n_samples,
        "n_thresholds": result.n_thresholds,
    }
    if calibration is not None:
        document["calibration"] = dict(calibration)
    write_to(path, json.dumps(document, indent=2) + "\n")
