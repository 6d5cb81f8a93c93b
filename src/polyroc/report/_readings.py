"""Short plain-words readings of the report's numbers (computed from ``results.json`` alone)."""

from __future__ import annotations

from typing import Any

__all__ = ["comparison_reading", "data_reading", "model_readings"]

SMALL_CLASS = 10


def _number(value, digits=3):
    """A number of ``results.json`` as text (None, i.e. NaN, as "undefined")."""
    return "undefined" if value is None else f"{value:.{digits}f}"


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
        f"The test data has {test['n_samples']} rows in {len(counts)} classes. The largest class "
        f"({largest}, {counts[largest]} rows) is {test['imbalance_ratio']:.1f} times the smallest "
        f"({smallest}, {counts[smallest]} rows)."
    )
    small = [c for c, n in counts.items() if n < SMALL_CLASS]
    if small:
        text += (
            f" Classes {', '.join(small)} have fewer than {SMALL_CLASS} test rows: their per-class "
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
        f"Accuracy is {_ci(accuracy)}, a {confidence} stratified bootstrap interval over the test "
        f"rows; balanced accuracy is {_ci(balanced)}."
    )
    if balanced["estimate"] < accuracy["estimate"] - 0.05:
        text += " The gap means the model does worse on the small classes than on the large ones."
    per_class_f1 = metrics["class_intervals"].get("f1-score", {})
    if per_class_f1:
        worst = min(per_class_f1, key=lambda c: per_class_f1[c]["estimate"])
        text += f" The weakest class by F1 is {worst} ({_ci(per_class_f1[worst], 2)})."
    auc = intervals["roc_auc_ovr_macro"]
    text += (
        f" The one-vs-rest macro ROC AUC, {_ci(auc)}, measures ranking rather than decisions: "
        "it is the chance that a random row of a class gets a higher score for that class than "
        "a random row of another class."
    )
    return text


def _tuning_reading(model):
    comparison, test_scores = model["tuning"]["comparison"], model["tuning"]["test_scores"]
    tuning, difference = comparison["tuning"], test_scores["differences"]["tuned"]
    text = (
        f"Thresholds tuned for {comparison['metric']} on validation move it from "
        f"{tuning['argmax_score']:.3f} (argmax) to {tuning['best_score']:.3f}. "
        f"On test, tuned minus argmax is {_ci(difference)}."
    )
    if difference["low"] > 0:
        text += " The interval is above zero: the tuned rule is better on new data too."
    elif difference["high"] < 0:
        text += " The interval is below zero: the tuning overfitted the validation data; keep argmax."
    else:
        text += (
            " The interval includes zero: the test data cannot tell the tuned rule from argmax; "
            "the validation gain may be noise."
        )
    return text


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
            f" Class {best} stays closest to the perfect corner ({dfp[best]:.3f}); class {worst} is "
            f"furthest ({dfp[worst]:.3f}). DFP depends on how thresholds were sampled "
            f"({cloud['settings']['search']}, {cloud['n_thresholds']} thresholds)."
        )
    return text


def _dmf_reading(model):
    dmf = model["dmf"]
    text = (
        f"ROC-DMF area D is {_ci(dmf['ci'])}: one curve summarising how well each class's score "
        f"separates it from each other class, over {len(dmf['pairs'])} ordered class pairs; 0.5 is chance."
    )
    if not dmf["converged"]:
        text += " The factorization did not converge; treat D with caution."
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
        "tuning": lambda: _tuning_reading(model),
        "roc_cloud": lambda: _cloud_reading(model, results["data"]["classes"]),
        "dmf": lambda: _dmf_reading(model),
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
