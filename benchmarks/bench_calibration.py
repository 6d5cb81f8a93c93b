"""Calibration benchmark: calibration errors and the reliability curve at 10^6 x 10, against one argsort.

Times, at ``--n`` rows and ``--m`` classes (softmax scores, 4 decimals), the best of ``--repeat`` runs of:
``calibration_error`` top-label and classwise (uniform and quantile bins), ``squared_calibration_error``,
``smooth_calibration_error`` and ``reliability_curve`` (top-label and classwise, Clopper-Pearson intervals),
and prints each time with its ratio to one ``np.argsort`` of one score column. Targets: top-label at most
one argsort, classwise and the curves' intervals at most one argsort per class (ratio <= m).

With ``--evaluate`` it times instead the ECEs of ``polyroc.evaluate``: the calibration bins of the rows
(top-label and class columns, with the cross moments of the class columns), the two ECEs and their ``"auto"``
intervals (1000 draws of the bins), against one argsort of one column per class (target: ratio <= 1), and
``evaluate(..., n_boot=0)`` with the ECEs against the same call less the ECE step, timed in the same process.

Run: python benchmarks/bench_calibration.py [--n 1e6] [--m 10] [--repeat 3] [--evaluate]
"""

import argparse

import numpy as np
from _common import best_time, make_problem

from polyroc.calibration import (
    calibration_error,
    reliability_curve,
    smooth_calibration_error,
    squared_calibration_error,
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=float, default=1e6)
    parser.add_argument("--m", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--evaluate", action="store_true", help="time the ECEs of evaluate instead")
    args = parser.parse_args()
    n, m = int(args.n), args.m
    y, P = make_problem(n, m, seed=0)
    column = np.ascontiguousarray(P[:, 0])
    sort_time, _ = best_time(lambda: np.argsort(column), args.repeat)
    print(f"n = {n:,} rows, m = {m} classes; one argsort of one column: {sort_time:.3f} s")
    if args.evaluate:
        evaluate_eces(y, P, sort_time, args.repeat)
        return
    runs = {
        "calibration_error top-label uniform": lambda: calibration_error(y, P),
        "calibration_error top-label quantile": lambda: calibration_error(y, P, strategy="quantile"),
        "calibration_error classwise uniform": lambda: calibration_error(y, P, kind="classwise"),
        "calibration_error classwise quantile": lambda: calibration_error(y, P, kind="classwise", strategy="quantile"),
        "squared_calibration_error top-label": lambda: squared_calibration_error(y, P),
        "smooth_calibration_error top-label": lambda: smooth_calibration_error(y, P),
        "reliability_curve top-label": lambda: reliability_curve(y, P),
        "reliability_curve classwise": lambda: reliability_curve(y, P, kind="classwise"),
    }
    for name, run in runs.items():
        seconds, _ = best_time(run, args.repeat)
        print(f"{name:<40} {seconds:7.3f} s  {seconds / sort_time:6.2f} argsorts")


def evaluate_eces(y, P, sort_time, repeat):
    """The ECE step of evaluate against one argsort per class, and evaluate with and without it."""
    from polyroc import evaluate
    from polyroc.evaluation._calibration import CalibrationBins, ece_intervals

    m = P.shape[1]
    per_class = m * sort_time
    bins_time, bins = best_time(lambda: CalibrationBins.of(y, P, None), repeat)
    values = bins.errors()

    def intervals():
        options = {"confidence": 0.95, "n_draws": 1000, "rng": np.random.default_rng(0), "random_state": 0}
        return ece_intervals(list(values), bins, values, **options)

    interval_time, _ = best_time(intervals, repeat)
    step = bins_time + interval_time
    print(f"one argsort per class ({m}): {per_class:.3f} s")
    for name, seconds in (
        ("bins (rows -> totals, cross moments)", bins_time),
        ("ECE values and auto intervals", interval_time),
        ("ECE step in all", step),
    ):
        print(f"{name:<40} {seconds:7.3f} s  {seconds / per_class:6.2f} x one argsort per class")
    evaluate_time, _ = best_time(lambda: evaluate(y, P, n_boot=0), repeat)
    without = evaluate_time - bins_time  # n_boot=0: the bins and values, no interval
    print(f"evaluate(n_boot=0) with the ECEs: {evaluate_time:.3f} s; less their bins: {without:.3f} s")
    print(f"ratio with / without: {evaluate_time / without:.3f}")


if __name__ == "__main__":
    main()
