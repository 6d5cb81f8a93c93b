"""Brute-force label metrics: each class's 2x2 table by a loop over samples, top-k accuracy by sorting each row."""

import numpy as np


def brute_top_k(y_true, scores, k, weights):
    """Rank the classes of each sample by (score, index) descending, as scikit-learn's ties do."""
    weights = np.ones(len(y_true)) if weights is None else weights
    hits = 0.0
    for true, row, weight in zip(y_true, scores, weights):
        ranking = sorted(range(len(row)), key=lambda j: (row[j], j), reverse=True)
        hits += weight * (true in ranking[:k])
    return hits / weights.sum()


def brute_tables(y_true, y_pred, labels, weights):
    """TP, FP, FN, TN of each class, by a loop over samples."""
    weights = np.ones(len(y_true)) if weights is None else weights
    tables = {label: [0.0, 0.0, 0.0, 0.0] for label in labels}
    for true, pred, weight in zip(y_true, y_pred, weights):
        for label, table in tables.items():
            cell = {(True, True): 0, (False, True): 1, (True, False): 2, (False, False): 3}
            table[cell[(true == label, pred == label)]] += weight
    return [tables[label] for label in labels]


def brute_specificity(tp, fp, fn, tn):
    return tn / (tn + fp) if tn + fp else None


def brute_recall(tp, fp, fn, tn):
    return tp / (tp + fn) if tp + fn else None


def brute_youden(*table):
    r, s = brute_recall(*table), brute_specificity(*table)
    return None if r is None or s is None else r + s - 1


def brute_heidke(tp, fp, fn, tn):
    denominator = (tp + fn) * (fn + tn) + (tp + fp) * (fp + tn)
    return 2 * (tp * tn - fp * fn) / denominator if denominator else None


def brute_score(metric, tables, average, zero_division):
    fill = 0.0 if zero_division == "warn" else zero_division
    if average == "micro":
        value = metric(*np.sum(tables, axis=0))
        return fill if value is None else value
    values = np.array([fill if (v := metric(*t)) is None else v for t in tables], float)
    if average is None:
        return values
    supports = np.array([t[0] + t[2] for t in tables])
    keep = ~np.isnan(values)
    if not keep.any():
        return np.nan
    if average == "weighted" and supports[keep].sum() > 0:
        return np.sum(values[keep] * supports[keep]) / supports[keep].sum()
    return values[keep].mean()
