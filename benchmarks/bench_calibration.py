"""Calibration benchmark: calibration errors and the reliability curve at 10^6 x 10, against one argsort.

Times, at ``--n`` rows and ``--m`` classes (softmax scores, 4 decimals), the best of ``--repeat`` runs of:
``calibration_error`` top-label and classwise (uniform and quantile bins), ``squared_calibration_error``,
``smooth_calibration_error`` and ``reliability_curve`` (top-label and classwise, Clopper-Pearson intervals),
and prints each time with its ratio to one ``np.argsort`` of one score column. Targets: top-label at most
one argsort, classwise and the curves' intervals at most one argsort per class (ratio <= m).

Run: python benchmarks/bench_calibration.py [--n 1e6] [--m 10] [--repeat 3]
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
    args = parser.parse_args()
    n, m = int(args.n), args.m
    y, P = make_problem(n, m, seed=0)
    column = np.ascontiguousarray(P[:, 0])
    sort_time, _ = best_time(lambda: np.argsort(column), args.repeat)
    print(f"n = {n:,} rows, m = {m} classes; one argsort of one column: {sort_time:.3f} s")
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


if __name__ == "__main__":
    main()
