"""Short plain-words readings of the report's numbers (computed from ``results.json`` alone)."""

from __future__ import annotations

from typing import Any

import numpy as np

from polyroc._results import fixed_decimals
from polyroc._text import class_name, count_noun
from polyroc.resampling import FEW_CHANGED_ROWS, supported_sign, too_few_changed_rows

__all__ = [
    "calibration_rejections",
    "comparison_reading",
    "data_reading",
    "driving_bins",
    "format_number",
    "format_p_value",
    "model_readings",
    "paired_tests_reading",
    "ranking_values",
    "verdicts",
]

#: Level below which a Holm-adjusted p-value counts as a difference.
SIGNIFICANCE = 0.05

SMALL_CLASS = 10

#: Width from which a small class's recall interval is explained as wide.
WIDE_INTERVAL = 0.25

#: A class whose one-vs-rest AUC is at most this ranks its rows little better than chance (0.5).
NO_RANKING_AUC = 0.6

#: Accuracy from which a chance-level class or a chance-level D contradicts it.
HIGH_ACCURACY = 0.8

#: Gap between D and the OvR macro AUC worth explaining.
D_AUC_GAP = 0.1

#: Fewest rows of a reliability bin whose gap a reading names.
BIN_ROWS = 10

#: Share of the ECE that the bins a reading names as driving it hold together.
DRIVING_SHARE = 0.5


def format_number(value: float | None, digits: int = 3, missing: str = "undefined") -> str:
    """``value`` with ``digits`` decimals; ``missing`` for None (NaN in ``results.json``); never "-0.000".

    Unlike :func:`polyroc._results.number_text` of the notebook views, it keeps ``digits`` decimals
    for every value (3.1e-09 reads 0.000): the readings quote an estimate beside its interval's bounds at
    one precision, and name an undefined value in words; p-values have :func:`format_p_value`.

    >>> format_number(-0.0001), format_number(0.1234, 2), format_number(None, missing="—")
    ('0.000', '0.12', '—')
    >>> format_number(3.1e-9)
    '0.000'
    """
    return missing if value is None else fixed_decimals(value, digits)


def _number(value, digits=3):
    """A number of ``results.json`` as text (None, i.e. NaN, as "undefined")."""
    return format_number(value, digits)


def _ci(record, digits=3):
    """An interval record of ``results.json`` as ``0.812 (CI 0.750 to 0.870)``."""
    estimate, low, high = (_number(record[key], digits) for key in ("estimate", "low", "high"))
    return f"{estimate} (CI {low} to {high})"


def _percent(confidence):
    return f"{100 * confidence:g}%"


def data_reading(results: dict[str, Any]) -> str:
    """Size, balance and small classes of the test data."""
    test = results["data"]["test"]
    counts = test["class_counts"]
    largest = max(counts, key=counts.get)
    smallest = min((c for c in counts if counts[c] > 0), key=counts.get)
    text = (
        f"The test data has {count_noun(test['n_samples'], 'row')} in {count_noun(len(counts), 'class')}. The largest "
        f"class ({largest}, {count_noun(counts[largest], 'row')}) is {test['imbalance_ratio']:.1f} times the "
        f"smallest ({smallest}, {count_noun(counts[smallest], 'row')})."
    )
    small = [c for c, n in counts.items() if n < SMALL_CLASS]
    if small:
        text += (
            f" {'Class' if len(small) == 1 else 'Classes'} {', '.join(small)} {'has' if len(small) == 1 else 'have'} "
            f"fewer than {SMALL_CLASS} test rows: their per-class "
            "numbers rest on a handful of rows, so read their intervals rather than their values."
        )
    if test["imbalance_ratio"] >= 3:
        text += (
            " With this imbalance, accuracy mostly reflects the large classes; balanced accuracy "
            "and macro-F1 weigh every class equally."
        )
    if test.get("class_weights") is not None:
        text += (
            " The rows carry sample weights: every number below weighs each row by its weight "
            "(the row counts above are unweighted)."
        )
    return text


def _metrics_reading(model, results):
    metrics = model["metrics"]
    intervals = metrics["intervals"]
    confidence = _percent(results["settings"]["confidence"])
    accuracy, balanced = intervals["accuracy"], intervals["balanced_accuracy"]
    text = (
        f"Accuracy is {_ci(accuracy)}, a {confidence} {_method(accuracy)} over the test rows; "
        f"balanced accuracy is {_ci(balanced)}."
    )
    if balanced["estimate"] < accuracy["estimate"] - 0.05:
        text += " The gap means the model does worse on the small classes than on the large ones."
    per_class_f1 = metrics["class_intervals"].get("f1-score", {})
    if per_class_f1:
        worst = min(per_class_f1, key=lambda c: per_class_f1[c]["estimate"])
        text += f" The weakest class by F1 is {worst}: F1 {_ci(per_class_f1[worst], 2)}."
    text += _small_class_recalls(metrics)
    auc = intervals["roc_auc_ovr_macro"]
    text += (
        f" The one-vs-rest macro ROC AUC, {_ci(auc)}, measures ranking rather than decisions: "
        "it is the chance that a random row of a class gets a higher score for that class than "
        "a random row of another class."
    )
    return text


def _method(record):
    """The method of an interval record, in words: "Wilson score interval"."""
    method = record["settings"]["interval_method"]
    return method if "interval" in method else f"{method} interval"


def _small_class_recalls(metrics, most=3):
    """Why the recall intervals of the smallest classes are wide: "0 of 4 rows of class 3 were found; ..."."""
    recall = metrics["class_intervals"].get("recall", {})
    counts = metrics["confusion_matrix"]
    sizes = {c: sum(row) for c, row in zip(recall, counts)}
    small = sorted((c for c in recall if 0 < sizes[c] < SMALL_CLASS), key=lambda c: sizes[c])[:most]
    sentences = []
    for k, c in enumerate(recall):
        record = recall[c]
        if c in small and record["low"] is not None and record["high"] - record["low"] >= WIDE_INTERVAL:
            bounds = f"[{_number(record['low'], 2)}, {_number(record['high'], 2)}]"
            sentences.append(
                f"{_count(counts[k][k])} of {_count(sizes[c])} rows of {class_name(c)} were found; "
                f"its recall interval {bounds} is wide because the class is tiny"
            )
    return "" if not sentences else " " + "; ".join(sentences) + "."


def _count(value):
    """A (possibly weighted) count as text: whole numbers without decimals."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.1f}"


def _equals_argmax(tuning):
    """τ* is plain argmax: every component equal (the rule argmax(p − τ) is then argmax(p))."""
    if "equals_argmax" in tuning:
        return bool(tuning["equals_argmax"])
    threshold = tuning["best_threshold"]
    return max(threshold) - min(threshold) <= 1e-12


def _search_words(tuning):
    """``lattice search at resolution 51 (24805 thresholds on the simplex)``, from the tuning's settings."""
    settings = tuning.get("settings", {})
    search = settings.get("search", "the")
    resolution = settings.get("resolution")
    at = f" at resolution {resolution}" if resolution is not None else ""
    count = tuning.get("n_thresholds")
    where = f" on the {settings['domain']}" if settings.get("domain") else ""
    return f"{search} search{at}" + (f" ({count} thresholds{where})" if count else "")


def _tuning_reading(model):
    comparison, test_scores = model["tuning"]["comparison"], model["tuning"]["test_scores"]
    tuning, difference = comparison["tuning"], test_scores["differences"]["tuned"]
    metric = comparison["metric"]
    searched = f"Thresholds were tuned for {metric} on validation by {_search_words(tuning)}."
    if _equals_argmax(tuning):
        return (
            f"{searched} The best threshold has all components equal, which is plain argmax: no "
            f"threshold of the search beat argmax's validation {metric} ({_number(tuning['argmax_score'])}). "
            "The tuned rule is argmax, so keep argmax; there is no difference to test."
        )
    text = (
        f"{searched} The best threshold τ* raises validation {metric} from "
        f"{_number(tuning['argmax_score'])} (argmax) to {_number(tuning['best_score'])}. "
        f"On test, tuned minus argmax is {_ci(difference)}."
    )
    sign, reason = _tuned_sign(test_scores)
    if sign > 0:
        text += " The interval is above zero: the tuned rule is better on new data too."
    elif sign < 0:
        text += " The interval is below zero: the tuning overfitted the validation data; keep argmax."
    elif reason:
        text += f" {reason[0].upper()}{reason[1:]}: the test data cannot tell the tuned rule from argmax."
    else:
        text += (
            " The interval includes zero: the test data cannot tell the tuned rule from argmax; "
            "the validation gain may be noise."
        )
    return text


def _tuned_sign(test_scores):
    """(+1, -1 or 0, why not) for tuned − argmax on test: :func:`polyroc.resampling.supported_sign` of its record.

    The reason is "" when the interval simply holds zero; else it says why
    the interval cannot be read (few differing rows, with the exact sign
    test of the rows where exactly one rule is right, or zero width).
    """
    difference = test_scores["differences"]["tuned"]
    changed = (test_scores.get("changed_rows") or {}).get("tuned")
    rows = None if changed is None else changed["rows"]
    low, high = (float("nan") if difference[key] is None else difference[key] for key in ("low", "high"))
    sign = supported_sign(low, high, rows)
    if sign or not (low > 0 or high < 0):
        return sign, ""
    if rows is not None and too_few_changed_rows(rows):
        return 0, (
            f"the rules differ on only {_count(rows)} test row{'s' if rows != 1 else ''}, fewer than the "
            f"{FEW_CHANGED_ROWS} a bootstrap interval needs to mean anything; exact sign test of the rows where "
            f"exactly one is right p = {format_p_value(changed['sign_test_p'])}"
        )
    return 0, "the bootstrap interval has zero width: the rows where the rules differ cannot vary between replicates"


def _cloud_reading(model, classes):
    cloud = model["roc_cloud"]
    dfp = {c: v for c, v in zip(classes, cloud["dfp"]) if v is not None}
    text = (
        f"DFP (one minus the mean Youden index over the sampled thresholds; 0 is perfect, 1 is chance) "
        f"is {_number(cloud['dfp_overall'])} overall."
    )
    if dfp:
        best, worst = min(dfp, key=dfp.get), max(dfp, key=dfp.get)
        text += (
            f" C{class_name(best)[1:]} stays closest to the perfect corner ({_number(dfp[best])}); "
            f"{class_name(worst)} is "
            f"furthest ({_number(dfp[worst])}). DFP depends on how thresholds were sampled "
            f"({cloud['settings']['search']}, {cloud['n_thresholds']} thresholds)."
        )
    return text


def _class_auc(model: dict[str, Any], classes: list[str]) -> dict[str, float]:
    """Per-class one-vs-rest ROC AUC of a model's test scores (classes without rows left out)."""
    if model.get("roc_cloud") and "ovr_auc" in model["roc_cloud"]:
        values = model["roc_cloud"]["ovr_auc"]
    elif model.get("gini") and len(model["gini"].get("class_auc", [])) == len(classes):
        values = model["gini"]["class_auc"]
    else:
        return {}
    return {c: v for c, v in zip(classes, values) if v is not None}


def _chance_classes(model, classes):
    """Classes whose scores rank their rows at most a little better than chance: {class: AUC}."""
    return {c: auc for c, auc in _class_auc(model, classes).items() if auc <= NO_RANKING_AUC}


def _listed(names):
    names = [str(name) for name in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _dmf_contradictions(model, classes):
    """Plain-words flags where D, the OvR AUCs and accuracy tell different stories."""
    flags = []
    dmf, metrics = model["dmf"], model.get("metrics")
    accuracy = metrics["intervals"]["accuracy"]["estimate"] if metrics else None
    chance = _chance_classes(model, classes)
    if chance:
        aucs = ", ".join(_number(auc, 2) for auc in chance.values())
        noun = "class" if len(chance) == 1 else "classes"
        lead = (
            f"Accuracy is high ({_number(accuracy)}) but the"
            if accuracy is not None and accuracy >= HIGH_ACCURACY
            else "The"
        )
        flags.append(
            f"{lead} scores of {noun} {_listed(chance)} carry little or no ranking information (one-vs-rest "
            f"AUC {aucs}; 0.5 is chance): their rows are found by chance, or not at all, and D, the macro "
            "averages and accuracy, pooled over all classes, hide it."
        )
    if accuracy is not None and accuracy >= HIGH_ACCURACY and dmf["D"] is not None and dmf["D"] <= NO_RANKING_AUC:
        flags.append(
            f"Accuracy is high ({_number(accuracy)}) while D ({_number(dmf['D'])}) is near chance: the "
            "argmax decisions are right, but the scores barely order the rows of one class above another's."
        )
    macro = metrics["intervals"]["roc_auc_ovr_macro"]["estimate"] if metrics else None
    if macro is not None and dmf["D"] is not None and abs(dmf["D"] - macro) > D_AUC_GAP:
        flags.append(
            f"D ({_number(dmf['D'])}) and the one-vs-rest macro AUC ({_number(macro)}) differ by more than "
            f"{D_AUC_GAP:g}: D compares each class with each other class separately and fits one curve to all "
            "pairs, so a few badly separated pairs weigh more in it than in the one-vs-rest average."
        )
    return flags


def _dmf_reading(model, classes):
    dmf = model["dmf"]
    text = (
        f"ROC-DMF area D is {_ci(dmf['ci'])}; 0.5 is chance and 1 a perfect ranking. For every ordered pair "
        f"of classes (i, j), {len(dmf['pairs'])} here, and every cut-off level, the true-positive rate is the "
        "share of class-i rows whose class-i score passes the cut-off and the false-positive rate the share of "
        "class-j rows whose class-i score passes it. The figure's axes are these two rates for a typical pair "
        "(the factorization's fit at the average pair effect): false-positive-like across, true-positive-like "
        "up, one point per cut-off level; D is the area under that curve."
    )
    if not dmf["converged"]:
        text += " The factorization did not converge; treat D with caution."
    flags = _dmf_contradictions(model, classes)
    if flags:
        text += " " + " ".join(flags)
    return text


def _gini_reading(model):
    gini = model["gini"]
    auc = gini["bootstrap"]["auc"]
    if any(weight is None for weight in gini["weights"]):
        return (
            f"The Gini-weighted AUC is {_ci(auc)}: the scores are the same on every row, so "
            "every one-vs-rest curve is the chance diagonal, and so is any weighted average of them. "
            "The Gini class weights (each score column's spread over the total spread, here 0/0) "
            "are undefined and not shown."
        )
    text = (
        f"The Gini-weighted AUC is {_ci(auc)}. Its class weights come from the spread of "
        "the scores, not from the labels"
    )
    if gini["degenerate"]:
        text += (
            "; for probability rows the correlation matrix is singular, so the weights are the "
            "limit weights, proportional to each score column's standard deviation"
        )
    return text + "."


def _share_text(share):
    """A probability or frequency as a rounded percentage: ``61%``."""
    return "undefined" if share is None else f"{100 * share:.0f}%"


def _ece_text(record):
    """``0.041 [0.030, 0.055]`` from an ECE record (the estimate alone when its interval is undefined)."""
    if record.get("low") is None or record.get("high") is None:
        return _number(record["estimate"])
    return f"{_number(record['estimate'])} [{_number(record['low'])}, {_number(record['high'])}]"


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
    (0.8, 1.0, 0.95, -0.25, 0.91)
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
    return f"{_number(row['low_edge'], 2)} to {_number(row['high_edge'], 2)}"


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
    text = f"On average the top-label probability is {_number(confidence)} and accuracy {_number(accuracy)}"
    interval = (metrics or {}).get("intervals", {}).get("accuracy")
    low, high = (None, None) if interval is None else (interval["low"], interval["high"])
    if low is None or high is None:
        lean = "below" if confidence > accuracy else "above"
        return text + f": observed {lean} predicted, with no interval of accuracy to tell whether that is noise."
    if low <= confidence <= high:
        return text + f", inside accuracy's interval [{_number(low)}, {_number(high)}]: no overall lean either way."
    if confidence > accuracy:
        return text + ": the scores are over-confident overall (observed below predicted)."
    return text + ": the scores are under-confident overall (observed above predicted)."


def _squared_error_sentence(squared):
    """The debiased squared error as the ECE's check on few rows."""
    debiased, plain = squared["debiased"], squared["plain"]
    text = f"The debiased squared error is {_number(debiased, 4)} (plain {_number(plain, 4)})"
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
        f"which leaves an estimated root-mean-square gap of {_number(debiased**0.5)}."
    )


def _calibration_reading(model):
    calibration = model["calibration"]
    ece = calibration["ece"]
    text = (
        f"Top-label ECE {_ece_text(ece['top_label'])}, classwise ECE {_ece_text(ece['classwise'])} on test. "
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
    if calibration["test"] is not None:
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
            f"{family}, rejects calibration for no class nor the top label (level {SIGNIFICANCE:g}); "
            "that does not prove calibration."
        )
    parts = [
        f"{'the top label' if name == 'top-label' else class_name(name)} ({direction}, Holm p {format_p_value(p)})"
        for name, direction, p in rejected
    ]
    return f"{family}, rejects calibration for {_listed(parts)}."


#: The quantities of the before/after comparison, in words.
CALIBRATION_QUANTITY_NAMES = {"log_loss": "log loss", "brier_score": "Brier score", "ece_top_label": "top-label ECE"}


def _change_text(row):
    """A paired difference after − before of a quantity where lower is better, in words true to its interval."""
    name = CALIBRATION_QUANTITY_NAMES.get(row["quantity"], row["quantity"])
    difference, low, high = row["difference"], row["low"], row["high"]
    if low is not None and high is not None and low < high and high < 0:
        return f"lowers {name} by {_number(-difference)} [{_number(-high)}, {_number(-low)}]"
    if low is not None and high is not None and low < high and low > 0:
        return f"raises {name} by {_number(difference)} [{_number(low)}, {_number(high)}]"
    bounds = "no interval" if low is None or high is None else f"[{_number(low)}, {_number(high)}]"
    return f"brings no clear change in {name} ({_number(difference)} {bounds})"


def _temperature_sentence(temperature, before_after):
    """The fitted temperature in words, and what it changes on test (each change as its interval supports)."""
    value = temperature["temperature"]
    effect = "softens the scores" if value > 1 else "sharpens the scores"
    text = (
        f"Temperature T = {_number(value, 2)} fitted on validation {effect} (validation log loss "
        f"{_number(temperature['loss_before'])} to {_number(temperature['loss_after'])})"
    )
    if not temperature["converged"]:
        text += ", at a bound of its search: the validation loss keeps falling beyond it"
    if before_after is not None:
        changes = [_change_text(row) for row in before_after["comparisons"]]
        text += "; on test it " + _listed(changes)
    return text + "."


def _baseline_reading():
    return (
        "This model gives every row the same scores (a constant baseline, such as a class-prior "
        "classifier): it ranks nothing, so its ROC numbers sit at chance (AUC 0.5, DFP 1) and every "
        "row gets the same predicted class. Read it as the floor the other models must beat."
    )


def _skipped_reading(reason):
    return f"This section was skipped: {reason.rstrip('.')}. The other sections were computed as usual."


def model_readings(model: dict[str, Any], results: dict[str, Any]) -> dict[str, str]:
    """Readings of one model's sections, keyed by section (a skipped section's reading gives the reason).

    A model with constant scores also gets a ``"baseline"`` reading.
    """
    readers = {
        "metrics": lambda: _metrics_reading(model, results),
        "calibration": lambda: _calibration_reading(model),
        "tuning": lambda: _tuning_reading(model),
        "roc_cloud": lambda: _cloud_reading(model, results["data"]["classes"]),
        "dmf": lambda: _dmf_reading(model, results["data"]["classes"]),
        "gini": lambda: _gini_reading(model),
    }
    readings = {"baseline": _baseline_reading()} if model["constant_scores"] else {}
    for section, reader in readers.items():
        if section in model["skipped"]:
            readings[section] = _skipped_reading(model["skipped"][section])
        elif model[section] is not None:
            readings[section] = reader()
    return readings


def comparison_reading(results: dict[str, Any]) -> str | None:
    """Which model ranks first by ROC-DMF D and how sure the bootstrap is; None for one model."""
    comparison = results["model_comparison"]
    if "model_comparison" in results.get("skipped", {}):
        return _skipped_reading(results["skipped"]["model_comparison"])
    if comparison is None:
        return None
    top = comparison["ranking_probabilities"][0]
    first = top["ordering"][0]
    p_first = sum(r["probability"] for r in comparison["ranking_probabilities"] if r["ordering"][0] == first)
    text = (
        f"By ROC-DMF D, the most frequent ranking over the paired bootstrap replicates is "
        f"{' > '.join(top['ordering'])} ({100 * top['probability']:.0f}% of replicates); {first} "
        f"ranks first in {100 * p_first:.0f}%."
    )
    if p_first < 0.8:
        text += " That is not a clear winner: the test data does not separate the models' D reliably."
    return text


def paired_tests_reading(results: dict[str, Any]) -> str | None:
    """Which pairs of models differ after Holm's adjustment, per quantity; None for one model."""
    if "paired_tests" in results.get("skipped", {}):
        return _skipped_reading(results["skipped"]["paired_tests"])
    tests = results.get("paired_tests")
    if tests is None:
        return None
    differing = [row for row in tests["comparisons"] if _holds(row)]
    unread = [
        f"{row['model']} − {row['other']} on {row['quantity']} (Holm p {format_p_value(row['p_holm'])}): "
        + _unread_reason(row)
        for row in tests["comparisons"]
        if row["p_holm"] is not None and row["p_holm"] < SIGNIFICANCE and not _holds(row)
    ]
    caveat = f" Not read as differences despite a small p-value: {'; '.join(unread)}." if unread else ""
    if not differing:
        return (
            "No pair of models differs on these quantities once the p-values are adjusted for the number of "
            f"comparisons (Holm, level {SIGNIFICANCE:g}) and the intervals are read by the rule of the warnings: "
            f"the test data cannot tell them apart.{caveat}"
        )
    parts = [
        f"{row['model'] if row['difference'] > 0 else row['other']} over "
        f"{row['other'] if row['difference'] > 0 else row['model']} on {row['quantity']} "
        f"(difference {_number(abs(row['difference']))}, Holm p {format_p_value(row['p_holm'])})"
        for row in differing
    ]
    return (
        f"After Holm's adjustment (level {SIGNIFICANCE:g}) these differences hold: {'; '.join(parts)}. "
        f"The other pairs cannot be told apart on the test data.{caveat}"
    )


def _unread_reason(row):
    """Why a small p-value is not read as a difference (its interval supports no direction)."""
    changed = row.get("changed_rows")
    if changed is not None and too_few_changed_rows(changed):
        return (
            f"the models predict differently on only {changed} row{'s' if changed != 1 else ''}, too few for "
            f"its bootstrap interval (under {FEW_CHANGED_ROWS})"
        )
    if row["low"] is not None and row["high"] is not None and row["low"] <= 0 <= row["high"]:
        return "its interval holds zero"
    return "its interval is undefined or has zero width"


def _holds(row):
    """A paired test's difference holds: Holm p below :data:`SIGNIFICANCE` and an interval with a direction.

    The direction is :func:`polyroc.resampling.supported_sign`'s (the rule of
    the warnings): a bootstrap interval on fewer than ``FEW_CHANGED_ROWS``
    differing rows, or of zero width, has none.
    """
    if row["p_holm"] is None or row["p_holm"] >= SIGNIFICANCE:
        return False
    low, high = (float("nan") if row[key] is None else row[key] for key in ("low", "high"))
    return supported_sign(low, high, row.get("changed_rows")) != 0


def format_p_value(p: float | None) -> str:
    """A p-value as text: three decimals, "< 0.001" below, "—" when undefined (None).

    >>> format_p_value(0.04321), format_p_value(0.00002), format_p_value(None)
    ('0.043', '< 0.001', '—')
    """
    if p is None:
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def _tuning_verdict(model):
    """One phrase on the tuned thresholds of a model (None without tuning)."""
    tuning = model.get("tuning")
    if not tuning:
        return None
    if _equals_argmax(tuning["comparison"]["tuning"]):
        return "tuning found nothing better than argmax"
    difference = tuning["test_scores"]["differences"]["tuned"]
    metric = tuning["comparison"]["metric"]
    sign, reason = _tuned_sign(tuning["test_scores"])
    if sign > 0:
        return f"tuned thresholds beat argmax on test ({metric} +{_number(difference['estimate'])})"
    if sign < 0:
        return (
            f"tuned thresholds do worse than argmax on test ({metric} {_number(difference['estimate'])}): keep argmax"
        )
    if reason:
        return f"tuned thresholds and argmax cannot be told apart on test: {reason}"
    return "tuned thresholds and argmax cannot be told apart on test"


def _calibration_verdict(calibration):
    """One phrase on calibration: the rows the test rejects, and the temperature's clear effect on test log loss."""
    if not calibration:
        return None
    phrases = []
    rejected = calibration_rejections(calibration["test"]) if calibration["test"] else []
    if rejected:
        names = [("the top label" if name == "top-label" else name) for name, _, _ in rejected]
        phrases.append(f"the calibration test rejects {_listed(names)} (Holm)")
    log_loss = next(
        (row for row in (calibration["before_after"] or {}).get("comparisons", []) if row["quantity"] == "log_loss"),
        None,
    )
    if log_loss is not None and not _change_text(log_loss).startswith("brings no clear change"):
        phrases.append(f"temperature scaling {_change_text(log_loss)} on test")
    return "; ".join(phrases) or None


def _model_verdict(name, model, classes):
    """``name: accuracy 0.912, balanced accuracy 0.870; flags`` in a line."""
    parts = []
    if model.get("metrics"):
        intervals = model["metrics"]["intervals"]
        parts.append(
            f"accuracy {_number(intervals['accuracy']['estimate'])}, "
            f"balanced accuracy {_number(intervals['balanced_accuracy']['estimate'])}"
        )
    text = f"{name}: " + ", ".join(parts) if parts else f"{name}:"
    notes = []
    if model.get("constant_scores"):
        notes.append("a constant baseline (ranks nothing)")
    chance = _chance_classes(model, classes)
    if chance and not model.get("constant_scores"):
        notes.append(f"scores of {_listed(chance)} rank at chance level (one-vs-rest AUC ≤ {NO_RANKING_AUC:g})")
    tuning = _tuning_verdict(model)
    if tuning:
        notes.append(tuning)
    calibration = _calibration_verdict(model.get("calibration"))
    if calibration:
        notes.append(calibration)
    if model.get("skipped"):
        notes.append(f"skipped: {', '.join(sorted(model['skipped']))}")
    return text + ("; " + "; ".join(notes) if notes else "") + "."


def ranking_values(results: dict[str, Any]) -> tuple[str, str, dict[str, float | None]]:
    """``(metric, what, values)`` of the report's ``results.json``: the quantity the models are ranked by on test
    (argmax decisions), why that one, and each model's value of it, in the models' order.

    The tuning metric, as the paired tests estimated it when there are some
    (accuracy when they did not test it); without them (one model, or
    tests that could not be computed) as each model's metrics hold it, else
    as its tuning's test scores of argmax do. A model without it has None.
    """
    metric = results["settings"]["metric"]
    tests = results.get("paired_tests")
    if tests:
        if metric in tests["estimates"]:
            return metric, "the tuning metric", dict(tests["estimates"][metric])
        return "accuracy", "the tuning metric was not tested", dict(tests["estimates"]["accuracy"])
    return metric, "the tuning metric", {name: _own_value(model, metric) for name, model in results["models"].items()}


def _own_value(model, metric):
    """``metric`` on test by argmax, from the model's metrics or its tuning's test scores; None if absent."""
    record = (model.get("metrics") or {}).get("intervals", {}).get(metric)
    if record is None and model.get("tuning") and model["tuning"]["test_scores"]["metric"] == metric:
        record = model["tuning"]["test_scores"]["scores"]["argmax"]
    return None if record is None else record["estimate"]


def _ranking_verdict(results):
    """The models ranked by the tuning metric on test (by accuracy if it was not tested), with the paired test of
    the first against the second; None for one model.

    The first is said to be ahead only when that test holds (:func:`_holds`:
    Holm p below :data:`SIGNIFICANCE` and an interval with a direction by
    :func:`polyroc.resampling.supported_sign`); otherwise the line says the
    test data cannot tell the two apart.
    """
    if len(results["models"]) < 2:
        return None
    tests = results.get("paired_tests")
    if not tests:
        reason = results.get("skipped", {}).get("paired_tests", "the paired tests were not computed")
        return f"The models are not ranked: {reason.rstrip('.')}."
    metric, what, values = ranking_values(results)
    order = sorted(values, key=lambda name: -np.inf if values[name] is None else values[name], reverse=True)
    ranked = " > ".join(f"{name} {_number(values[name])}" for name in order)
    first, second = order[0], order[1]
    row = next(
        r for r in tests["comparisons"] if r["quantity"] == metric and {r["model"], r["other"]} == {first, second}
    )
    sign = 1 if row["model"] == first else -1  # the row's difference is model − other
    low, high = (None if row[key] is None else sign * row[key] for key in ("low", "high"))
    bounds = (low, high) if sign > 0 else (high, low)
    test = (
        f"{first} − {second} {_number(sign * row['difference'])} "
        f"[{_number(bounds[0])}, {_number(bounds[1])}], Holm p {format_p_value(row['p_holm'])} ({row['method']})"
    )
    if _holds(row) and sign * row["difference"] > 0:
        verdict = f"{first} is ahead of {second}: {test}."
    else:
        verdict = f"the test data cannot tell {first} from {second}: {test}."
    return f"Ranked by {metric} on test ({what}; argmax decisions): {ranked}; {verdict}"


def verdicts(results: dict[str, Any]) -> list[str]:
    """The report's conclusions in a few short lines, for the top of the page.

    One line on the ranking of the models (several models: by the tuning
    metric on test, with the paired test of the first two), one per model
    (headline numbers and what to watch: chance-level classes, the tuning's
    outcome, skipped sections), one on small classes, one on what D and the
    Gini AUC measure and one on warnings.

    Parameters
    ----------
    results : dict
        The report's ``results.json`` document.

    Returns
    -------
    list of str
    """
    lines = []
    ranking = _ranking_verdict(results)
    if ranking:
        lines.append(ranking)
    classes = results["data"]["classes"]
    lines.extend(_model_verdict(name, model, classes) for name, model in results["models"].items())
    counts = results["data"]["test"]["class_counts"]
    small = [c for c, n in counts.items() if n < SMALL_CLASS]
    if small:
        lines.append(
            f"{len(small)} of {count_noun(len(counts), 'class')} {'has' if len(small) == 1 else 'have'} fewer than "
            f"{SMALL_CLASS} test rows: read their intervals, not their values."
        )
    if any(model.get("dmf") or model.get("gini") for model in results["models"].values()):
        lines.append(
            "ROC-DMF D and the Gini AUC (columns of the table below) measure how well the scores rank the rows "
            "of each class above the rows of other classes (0.5 is chance, 1 a perfect ranking), not how often "
            "the decisions are right" + ("; they do not rank the models here." if len(results["models"]) > 1 else ".")
        )
    n_warnings = len(results.get("warnings", []))
    if n_warnings:
        lines.append(f"{count_noun(n_warnings, 'warning')} raised while computing: see Warnings.")
    return lines
