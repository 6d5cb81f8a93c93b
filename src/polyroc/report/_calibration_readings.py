"""The plain-words reading of a model's calibration section (computed from its ``results.json`` record alone).

It quotes the ECEs with their intervals; says whether the scores lean
over-confident (observed below predicted) or under-confident overall, only
when the mean top-label probability lies outside accuracy's interval; names
the fewest neighbouring bins, gapped the same way, that hold half of the
ECE (:func:`driving_bins`), with a bin whose interval excludes its predicted
value or the remark that none does; reads the debiased squared error as the
check of the ECE on few rows; names the classes the calibration test rejects
after Holm's adjustment (:func:`calibration_rejections`); and reads each
before/after change of the temperature map by its interval: "lowers" or
"raises" only when the interval excludes zero, else "no clear change".
"""

from __future__ import annotations

from typing import Any

from polyroc._text import class_name
from polyroc.report._wording import SIGNIFICANCE, format_number, format_p_value, listed

__all__ = [
    "BIN_ROWS",
    "DRIVING_SHARE",
    "calibration_reading",
    "calibration_rejections",
    "calibration_verdict",
    "driving_bins",
]

#: Fewest rows of a reliability bin whose gap a reading names.
BIN_ROWS = 10

#: Share of the ECE that the bins a reading names as driving it hold together.
DRIVING_SHARE = 0.5


def _share_text(share):
    """A probability or frequency as a rounded percentage: ``61%``."""
    return "undefined" if share is None else f"{100 * share:.0f}%"


def _ece_text(record):
    """``0.041 [0.030, 0.055]`` from an ECE record (the estimate alone when its interval is undefined)."""
    if record.get("low") is None or record.get("high") is None:
        return format_number(record["estimate"])
    return f"{format_number(record['estimate'])} [{format_number(record['low'])}, {format_number(record['high'])}]"


def _bin_rows(bins):
    """The non-empty bins of a curve's ``bins`` record as rows, each with its ``share`` of the rows, ``gap``
    (observed minus mean score) and ``part`` of the ECE (share times absolute gap)."""
    total = sum(bins["count"])
    keys = ("bin", "low_edge", "high_edge", "count", "mean_score", "observed", "observed_low", "observed_high")
    rows = [{key: bins[key][k] for key in keys} for k in range(len(bins["bin"]))]
    for row in rows:
        row["share"] = row["count"] / total
        row["gap"] = row["observed"] - row["mean_score"]
        row["part"] = row["share"] * abs(row["gap"])
    return rows


def _supported(row):
    """The bin's interval excludes its mean score: the gap's direction is not noise at its level."""
    low, high = row["observed_low"], row["observed_high"]
    return low is not None and high is not None and not low <= row["mean_score"] <= high


def _window(rows, parts):
    """A window of neighbouring bins as one: its range, rows, pooled observed and mean score, part of the gap."""
    count = sum(row["count"] for row in rows)
    observed = sum(row["observed"] * row["count"] for row in rows) / count
    mean_score = sum(row["mean_score"] * row["count"] for row in rows) / count
    part = sum(row["part"] for row in rows)
    return {
        "low_edge": rows[0]["low_edge"],
        "high_edge": rows[-1]["high_edge"],
        "count": count,
        "share": sum(row["share"] for row in rows),
        "observed": observed,
        "mean_score": mean_score,
        "gap": observed - mean_score,
        "part": part,
        "of_gap": part / parts,
        "bins": rows,
        "supported": [row for row in rows if _supported(row)],
    }


def driving_bins(bins: dict[str, Any]) -> dict[str, Any] | None:
    """The fewest neighbouring bins, gapped the same way, that hold :data:`DRIVING_SHARE` of a curve's ECE.

    A bin's part of the ECE is its share of the rows times its gap
    ``|observed - mean score|``. Among the windows of consecutive non-empty
    bins whose gaps have one sign, of :data:`BIN_ROWS` rows or more, and
    whose parts sum to at least :data:`DRIVING_SHARE` of the ECE, the one of
    fewest bins is returned (the largest part among those): its range,
    ``share`` of the rows, ``observed`` and ``mean_score`` pooled by rows,
    ``gap``, ``of_gap`` (its part over the sum), its ``bins`` and the
    ``supported`` ones, whose interval excludes their mean score. None when
    no window qualifies (gaps that alternate, bins of few rows) or there is
    no gap.

    >>> bins = {"bin": [0, 8, 9], "low_edge": [0.0, 0.8, 0.9], "high_edge": [0.1, 0.9, 1.0], "count": [5, 40, 55],
    ...         "mean_score": [0.05, 0.85, 0.95], "observed": [0.5, 0.6, 0.7], "observed_low": [0.2, 0.45, 0.6],
    ...         "observed_high": [0.8, 0.74, 0.8]}
    >>> window = driving_bins(bins)
    >>> window["low_edge"], window["high_edge"], window["share"], round(window["gap"], 3), round(window["of_gap"], 2)
    (0.9, 1.0, 0.55, -0.25, 0.53)
    """
    rows = _bin_rows(bins)
    parts = sum(row["part"] for row in rows)
    best = None
    for first in range(len(rows)):
        for last in range(first, len(rows)):
            if (rows[last]["gap"] < 0) != (rows[first]["gap"] < 0):
                break
            window = rows[first : last + 1]
            part = sum(row["part"] for row in window)
            if parts <= 0 or part < DRIVING_SHARE * parts or sum(row["count"] for row in window) < BIN_ROWS:
                continue
            if best is None or (len(window), -part) < (len(best), -sum(row["part"] for row in best)):
                best = window
            break  # a longer window from the same first bin has more bins
    return None if best is None else _window(best, parts)


def _range_text(row):
    return f"{format_number(row['low_edge'], 2)} to {format_number(row['high_edge'], 2)}"


def _run_sentence(run):
    """A run's gap in words, with the bin of it that shows its direction best (its interval, or that none does)."""
    confident = "over-confident" if run["gap"] < 0 else "under-confident"
    text = (
        f"top-label probabilities {_range_text(run)} ({_share_text(run['share'])} of rows): "
        f"{_share_text(run['observed'])} observed where {_share_text(run['mean_score'])} was predicted"
    )
    if not run["supported"]:
        return text + (
            f", {confident} in the point values, but no bin's interval there excludes its predicted value, "
            "so this may be noise"
        )
    best = max(run["supported"], key=lambda row: row["part"])
    if len(run["bins"]) == 1:
        return text + (f" [{_share_text(best['observed_low'])}, {_share_text(best['observed_high'])}], {confident}")
    return text + (
        f", {confident} (in the bin {_range_text(best)}: {_share_text(best['observed'])} observed "
        f"[{_share_text(best['observed_low'])}, {_share_text(best['observed_high'])}] where "
        f"{_share_text(best['mean_score'])} was predicted)"
    )


def _overall_confidence(calibration, metrics):
    """Mean top-label probability against accuracy: over- or under-confident when accuracy's interval says so."""
    confidence, accuracy = calibration["mean_confidence"], calibration["accuracy"]
    text = f"On average the top-label probability is {format_number(confidence)} and accuracy {format_number(accuracy)}"
    interval = (metrics or {}).get("intervals", {}).get("accuracy")
    low, high = (None, None) if interval is None else (interval["low"], interval["high"])
    if low is None or high is None:
        lean = "below" if confidence > accuracy else "above"
        return text + f": observed {lean} predicted, with no interval of accuracy to tell whether that is noise."
    if low <= confidence <= high:
        return (
            text
            + f", inside accuracy's interval [{format_number(low)}, {format_number(high)}]: no overall lean either way."
        )
    if confidence > accuracy:
        return text + ": the scores are over-confident overall (observed below predicted)."
    return text + ": the scores are under-confident overall (observed above predicted)."


def _squared_error_sentence(squared):
    """The debiased squared error as the ECE's check on few rows."""
    debiased, plain = squared["debiased"], squared["plain"]
    text = f"The debiased squared error is {format_number(debiased, 4)} (plain {format_number(plain, 4)})"
    if debiased is None or plain is None:
        return text + "."
    if debiased <= 0:
        return (
            text + ": once the noise of the bins' frequencies is taken out nothing is left, so the ECE is about "
            "what calibrated scores would show on this many rows."
        )
    noise = 1 - debiased / plain if plain > 0 else 0.0
    return (
        text + f": about {_share_text(noise)} of the plain squared gap is the noise of the bins' frequencies, "
        f"which leaves an estimated root-mean-square gap of {format_number(debiased**0.5)}."
    )


def _reaching_zero(ece):
    """A sentence when an ECE's interval reaches 0: its binned gap alone does not show miscalibration."""
    reaching = [name for name in ("top_label", "classwise") if ece[name]["low"] is not None and ece[name]["low"] <= 0]
    if not reaching:
        return ""
    which = (
        "Both intervals reach" if len(reaching) == 2 else f"The {reaching[0].replace('_', '-')} ECE's interval reaches"
    )
    return f" {which} 0: by the binned gaps alone, calibrated scores could show this much on this many rows."


def calibration_reading(model: dict[str, Any]) -> str:
    """The reading of a model's calibration section, from its record in ``results.json``."""
    calibration = model["calibration"]
    ece = calibration["ece"]
    text = (
        f"Top-label ECE {_ece_text(ece['top_label'])}, classwise ECE {_ece_text(ece['classwise'])} on test."
        + _reaching_zero(ece)
        + " "
        + _overall_confidence(calibration, model.get("metrics"))
    )
    window = driving_bins(calibration["reliability"]["top_label"]["bins"][0])
    if window is not None:
        text += f" {_share_text(window['of_gap'])} of the ECE comes from " + _run_sentence(window) + "."
    else:
        text += (
            f" No neighbouring bins gapped the same way, with {BIN_ROWS} or more rows, hold half of the ECE: "
            "the gap is spread over the scores."
        )
    text += " " + _squared_error_sentence(calibration["squared_error"])
    text += " " + _calibration_test_sentence(calibration["test"])
    if calibration["temperature"] is not None:
        text += " " + _temperature_sentence(calibration["temperature"], calibration["before_after"])
    return text


def calibration_rejections(test: dict[str, Any]) -> list[tuple[str, str, float]]:
    """``(row, direction, Holm p)`` of the rows of a calibration test that reject calibration at
    :data:`SIGNIFICANCE` after Holm's adjustment, the top label last.

    >>> calibration_rejections({"classes": ["a", "b", "top-label"], "p_holm": [0.2, 0.01, None],
    ...                         "direction": ["balanced", "over-confident", "balanced"]})
    [('b', 'over-confident', 0.01)]
    """
    return [
        (str(name), direction, p)
        for name, direction, p in zip(test["classes"], test["direction"], test["p_holm"])
        if p is not None and p < SIGNIFICANCE
    ]


def _calibration_test_sentence(test):
    """Which classes (and whether the top label) the per-class test rejects after Holm, with their direction."""
    rejected = calibration_rejections(test)
    family = f"{test['method']}, per class and of the top label, Holm-adjusted over the {len(test['classes'])} rows"
    if not rejected:
        return (
            f"{family}, rejects calibration for no class and not for the top label (level {SIGNIFICANCE:g}), "
            "which does not prove calibration."
        )
    parts = [
        f"{'the top label' if name == 'top-label' else class_name(name)} ({direction}, Holm p {format_p_value(p)})"
        for name, direction, p in rejected
    ]
    return f"{family}, rejects calibration for {listed(parts)}."


#: The quantities of the before/after comparison, in words.
CALIBRATION_QUANTITY_NAMES = {"log_loss": "log loss", "brier_score": "Brier score", "ece_top_label": "top-label ECE"}


def _change_text(row):
    """A paired difference after − before of a quantity where lower is better, in words true to its interval."""
    name = CALIBRATION_QUANTITY_NAMES.get(row["quantity"], row["quantity"])
    difference, low, high = row["difference"], row["low"], row["high"]
    if low is not None and high is not None and low < high and high < 0:
        return f"lowers {name} by {format_number(-difference)} [{format_number(-high)}, {format_number(-low)}]"
    if low is not None and high is not None and low < high and low > 0:
        return f"raises {name} by {format_number(difference)} [{format_number(low)}, {format_number(high)}]"
    bounds = "no interval" if low is None or high is None else f"[{format_number(low)}, {format_number(high)}]"
    return f"brings no clear change in {name} ({format_number(difference)} {bounds})"


def _temperature_sentence(temperature, before_after):
    """The fitted temperature in words, and what it changes on test (each change as its interval supports)."""
    value = temperature["temperature"]
    effect = "softens the scores" if value > 1 else "sharpens the scores"
    text = (
        f"Temperature T = {format_number(value, 2)} fitted on validation {effect} (validation log loss "
        f"{format_number(temperature['loss_before'])} to {format_number(temperature['loss_after'])})"
    )
    if not temperature["converged"]:
        text += ", at a bound of its search: the validation loss keeps falling beyond it"
    changes = [_change_text(row) for row in before_after["comparisons"]]
    return text + "; on test it " + listed(changes) + "."


def calibration_verdict(calibration: dict[str, Any] | None) -> str | None:
    """One phrase on calibration: the rows the test rejects, and the temperature's clear effect on test log loss."""
    if not calibration:
        return None
    phrases = []
    rejected = calibration_rejections(calibration["test"])
    if rejected:
        names = [("the top label" if name == "top-label" else class_name(name)) for name, _, _ in rejected]
        phrases.append(f"the calibration test rejects {listed(names)} (Holm)")
    if calibration["before_after"] is not None:  # with validation data
        (log_loss,) = [row for row in calibration["before_after"]["comparisons"] if row["quantity"] == "log_loss"]
        if not _change_text(log_loss).startswith("brings no clear change"):
            phrases.append(f"temperature scaling {_change_text(log_loss)} on test")
    return "; ".join(phrases) or None
