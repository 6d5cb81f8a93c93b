"""Foundation benchmark: polyroc against scikit-learn on the same inputs, in one run.

For n = 10^6 samples and m = 10 classes it times the full classification
report, the OvR macro ROC AUC, the OvO (Hand & Till) AUC and the per-class OvR
ROC curves (with and without the micro-average curve), checks that both
libraries give the same values, and prints ratio = polyroc time / scikit-learn
time (target: <= 1.0). Run: python benchmarks/bench_foundation.py [--n N] [--m M]
"""

import argparse

import numpy as np
from _common import best_time, make_problem
from sklearn import metrics as skm

from polyroc import curves, metrics


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--m", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    y, P = make_problem(args.n, args.m)
    y_pred = P.argmax(axis=1)
    labels = np.arange(args.m)

    cases = {
        "classification_report": (
            lambda: metrics.classification_report(y, y_pred, labels=labels, output_dict=True),
            lambda: skm.classification_report(y, y_pred, labels=labels, output_dict=True),
        ),
        "roc_auc OvR macro": (
            lambda: metrics.roc_auc_score(y, P, labels=labels, multi_class="ovr", average="macro"),
            lambda: skm.roc_auc_score(y, P, labels=labels, multi_class="ovr", average="macro"),
        ),
        "roc_auc OvO macro": (
            lambda: metrics.roc_auc_score(y, P, labels=labels, multi_class="ovo", average="macro"),
            lambda: skm.roc_auc_score(y, P, labels=labels, multi_class="ovo", average="macro"),
        ),
        "roc_curve per class": (
            lambda: _points(curves.ovr_roc_curve(y, P, labels=labels, micro=False)),
            lambda: _sklearn_points(y, P, labels, micro=False),
        ),
        "roc_curve with micro": (
            lambda: _points(curves.ovr_roc_curve(y, P, labels=labels)),
            lambda: _sklearn_points(y, P, labels, micro=True),
        ),
    }
    print(f"n = {args.n:,}, m = {args.m}, best of {args.repeat}")
    print(f"{'case':<24}{'polyroc s':>11}{'sklearn s':>11}{'ratio':>8}  same values")
    for name, (ours, theirs) in cases.items():
        t_ours, v_ours = best_time(ours, args.repeat)
        t_theirs, v_theirs = best_time(theirs, args.repeat)
        same = _same(v_ours, v_theirs)
        print(f"{name:<24}{t_ours:>11.3f}{t_theirs:>11.3f}{t_ours / t_theirs:>8.2f}  {same}")


def _points(result):
    """Every curve's (fpr, tpr) points of an OvrRocCurves, concatenated."""
    arrays = [*result.fpr, *result.tpr]
    if result.micro_fpr is not None:
        arrays += [result.micro_fpr, result.micro_tpr]
    return np.concatenate(arrays)


def _sklearn_points(y, P, labels, *, micro):
    """The same points from scikit-learn's binary roc_curve, one call per curve."""
    per_class = [skm.roc_curve(y == k, P[:, k])[:2] for k in labels]
    arrays = [fpr for fpr, _ in per_class] + [tpr for _, tpr in per_class]
    if micro:
        arrays += list(skm.roc_curve((y[:, None] == labels).ravel(), P.ravel())[:2])
    return np.concatenate(arrays)


def _same(a, b):
    if isinstance(a, dict):
        return all(_same(a[k], b[k]) for k in b)
    if np.shape(a) != np.shape(b):
        return False
    return bool(np.all(np.isclose(a, b, rtol=0, atol=1e-12)))


if __name__ == "__main__":
    main()
