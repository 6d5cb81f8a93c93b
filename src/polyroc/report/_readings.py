"""Short plain-words readings of the report's numbers (computed from ``results.json`` alone)."""

from __future__ import annotations

from typing import Any

import numpy as np

from polyroc._text import class_name, count_noun
from polyroc.report._calibration_readings import calibration_reading, calibration_verdict
from polyroc.report._decision_readings import decisions_reading
from polyroc.report._wording import SIGNIFICANCE, format_number, format_p_value, listed
from polyroc.resampling import FEW_CHANGED_ROWS, supported_sign, too_few_changed_rows

__all__ = [
    "comparison_reading",
    "data_reading",
    "model_readings",
    "omnibus_reading",
    "paired_tests_reading",
    "ranking_values",
    "verdicts",
]

SMALL_CLASS = 10

#: Width from which a small class's recall interval is explained as wide.
WIDE_INTERVAL = 0.25

#: A class whose one-vs-rest AUC is at most this ranks its rows little better than chance (0.5).
NO_RANKING_AUC = 0.6

#: Accuracy from which a chance-level class or a chance-level D contradicts it.
HIGH_ACCURACY = 0.8

#: Gap between D and the OvR macro AUC worth explaining.
D_AUC_GAP = 0.1


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
            f"{lead} scores of {noun} {listed(chance)} carry little or no ranking information (one-vs-rest "
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
        "calibration": lambda: calibration_reading(model),
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
    if "decisions" in model["skipped"]:
        readings["decisions"] = _skipped_reading(model["skipped"]["decisions"])
    elif model.get("decisions") is not None:
        readings["decisions"] = decisions_reading(model["decisions"], results["settings"]["confidence"])
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


def _tested(row: dict[str, Any]) -> str:
    """The quantity of a paired test, with its class for a per-class AUC."""
    return row["quantity"] if row.get("class") is None else f"{row['quantity']} of class {row['class']}"


def paired_tests_reading(results: dict[str, Any]) -> str | None:
    """Which pairs of models differ after Holm's adjustment, per quantity; None for one model."""
    if "paired_tests" in results.get("skipped", {}):
        return _skipped_reading(results["skipped"]["paired_tests"])
    tests = results.get("paired_tests")
    if tests is None:
        return None
    differing = [row for row in tests["comparisons"] if _holds(row)]
    unread = [
        f"{row['model']} − {row['other']} on {_tested(row)} (Holm p {format_p_value(row['p_holm'])}): "
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
        f"{row['other'] if row['difference'] > 0 else row['model']} on {_tested(row)} "
        f"(difference {_number(abs(row['difference']))}, Holm p {format_p_value(row['p_holm'])})"
        for row in differing
    ]
    return (
        f"After Holm's adjustment (level {SIGNIFICANCE:g}) these differences hold: {'; '.join(parts)}. "
        f"The other pairs cannot be told apart on the test data.{caveat}"
    )


#: The quantities of the omnibus line, in words (what the models have, plural).
OMNIBUS_WORDS = {
    "roc_auc_ovr_macro": "one-vs-rest macro AUCs",
    "roc_auc_ovr_weighted": "one-vs-rest weighted AUCs",
    "roc_auc_ovr_micro": "micro-averaged AUCs",
    "roc_auc_ovo_macro": "one-vs-one (Hand & Till) AUCs",
    "roc_auc_ovo_weighted": "weighted one-vs-one AUCs",
    "accuracy": "accuracies",
}

#: How many models, in words, up to ten.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def omnibus_reading(results: dict[str, Any]) -> str | None:
    """The first line of the paired tests: are all the models equal on each quantity that has an omnibus test?

    For each omnibus test with a p-value (DeLong's chi-squared of the AUCs,
    Cochran's Q of accuracy; ``omnibus_tests`` of the paired tests' record),
    the models "differ" when p is below :data:`SIGNIFICANCE`; otherwise the
    test data cannot tell them apart. With two models Cochran's Q is the
    asymptotic McNemar test, and the pair's row already has the exact one:
    it is not read (it could contradict the exact test on few discordant
    rows). None without paired tests or without such a test.
    """
    tests = results.get("paired_tests") or {}
    count = len(tests.get("models", ()))
    rows = [
        row
        for row in tests.get("omnibus_tests", [])
        if row["p_value"] is not None and not (count == 2 and row["quantity"] == "accuracy")
    ]
    if not rows:
        return None
    whose = f"the {NUMBER_WORDS[count] if count < len(NUMBER_WORDS) else count} models'"
    parts = []
    for row in rows:
        symbol = "Cochran's Q" if row["quantity"] == "accuracy" else "DeLong χ²"
        statistic = "∞" if row["statistic"] is None else f"{row['statistic']:.1f}"
        p_text = format_p_value(row["p_value"])
        figures = f"({symbol} = {statistic}, df {row['df']}, p {p_text if p_text.startswith('<') else '= ' + p_text})"
        what = f"{whose} {OMNIBUS_WORDS.get(row['quantity'], row['quantity'])}"
        parts.append(
            f"{what} differ {figures}"
            if row["p_value"] < SIGNIFICANCE
            else f"the test data cannot tell {what} apart {figures}"
        )
    sentence = "; ".join(parts)
    return (
        f"{sentence[0].upper()}{sentence[1:]}. Each of these tests asks whether all the models are equal on its "
        f"quantity (level {SIGNIFICANCE:g}, not adjusted over the quantities); the pairs below say which ones differ."
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
        notes.append(f"scores of {listed(chance)} rank at chance level (one-vs-rest AUC ≤ {NO_RANKING_AUC:g})")
    tuning = _tuning_verdict(model)
    if tuning:
        notes.append(tuning)
    calibration = calibration_verdict(model.get("calibration"))
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
