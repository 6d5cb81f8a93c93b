"""``polyroc metrics``: the metric names ``--metric`` accepts, one line on each."""

from __future__ import annotations

DEFAULT_METRIC = "f1_macro"


_AVERAGES = {
    "macro": "plain mean over classes",
    "micro": "from the counts pooled over classes",
    "weighted": "mean over classes weighted by their support",
}


_FAMILIES = {
    "precision": "precision (positive predictive value), one-vs-rest",
    "recall": "recall (sensitivity, true positive rate), one-vs-rest",
    "f1": "F1 score, the harmonic mean of precision and recall, one-vs-rest",
    "specificity": "specificity (true negative rate), one-vs-rest",
    "youden": "Youden's J = recall + specificity - 1, one-vs-rest",
    "heidke_skill": "Heidke skill score, one-vs-rest",
}


_SINGLE = {
    "accuracy": "fraction of correct predictions",
    "balanced_accuracy": "mean recall over classes",
    "cohen_kappa": "Cohen's kappa: agreement beyond chance",
    "cohen_kappa_linear": "Cohen's kappa with linear disagreement weights (ordered classes)",
    "cohen_kappa_quadratic": "Cohen's kappa with quadratic disagreement weights (ordered classes)",
    "matthews_corrcoef": "multiclass Matthews correlation coefficient",
}


def metrics_command(args):
    from polyroc.counts import METRICS

    width = max(map(len, METRICS))
    print(f"metrics for --metric (tune, report; default {DEFAULT_METRIC}); higher is better:")
    for name in METRICS:
        print(f"  {name:{width}s}  {_metric_description(name, METRICS)}".rstrip())


def _metric_description(name, metrics):
    """One line describing the metric ``name`` (an alias, the same object in ``metrics``, names its full name)."""
    if name in _SINGLE:
        return _SINGLE[name]
    family, _, average = name.rpartition("_")
    if family in _FAMILIES and average in _AVERAGES:
        return f"{_FAMILIES[family]}; {_AVERAGES[average]}"
    twins = [other for other, metric in metrics.items() if other != name and metric is metrics[name]]
    if twins:
        full = max(twins, key=len)
        return f"= {full}: {_metric_description(full, {})}"
    return ""
