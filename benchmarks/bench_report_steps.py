"""The report's steps timed on the same data for a baseline and the current code, interleaved in one process.

Both packages are imported into this process: the baseline from
``--baseline-src`` (a ``src`` directory, e.g. of ``git worktree add
/tmp/perf-orig REV``), the current one from this checkout's ``src``. Each
keeps its own set of ``polyroc`` modules; the set of the code being timed is
put into ``sys.modules`` before each call, so imports made inside functions
(figures) resolve to the same package. Every repeat runs each step with the
baseline, then with the current code, on the same Dirichlet scores (seed 0,
validation seed 1, one model, default report settings); a step's time is the
best of ``--repeat``. The machine may be busy: only the ratio baseline / now
of interleaved runs means anything. Each step's CPU seconds (the process's,
all threads: ``time.process_time``) are printed too, less disturbed by other
work on the machine than the wall times.

Steps (those of :func:`polyroc.report._analysis.analysis_steps`, plus the figures):
metrics, calibration, threshold tuning, ROC clouds, Gini-weighted ROC, ROC-DMF, figures.
With ``--check`` the numbers of the two codes are compared after the runs.

Run: python benchmarks/bench_report_steps.py --baseline-src /tmp/perf-orig/src [--n 200000] [--m 10]
     [--n-boot 1000] [--repeat 3] [--steps gini,dmf] [--check]
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from _common import dirichlet_problem

STEPS = ("metrics", "calibration", "threshold tuning", "ROC clouds", "Gini-weighted ROC", "ROC-DMF", "figures")
SHORT = {
    "metrics": "metrics",
    "calibration": "calibration",
    "tuning": "threshold tuning",
    "clouds": "ROC clouds",
    "gini": "Gini-weighted ROC",
}
SHORT.update({"dmf": "ROC-DMF", "figures": "figures"})


def load(source):
    """Import polyroc from ``source``; return its modules (name -> module), removed again from ``sys.modules``."""
    for name in [name for name in sys.modules if name == "polyroc" or name.startswith("polyroc.")]:
        del sys.modules[name]
    sys.path.insert(0, str(source))
    try:
        for name in ("polyroc", "polyroc.report", "polyroc.report._analysis", "polyroc.report._figures"):
            importlib.import_module(name)
        importlib.import_module("polyroc.report._inputs")
        importlib.import_module("polyroc.plotting")
    finally:
        sys.path.remove(str(source))
    modules = {name: module for name, module in sys.modules.items() if name.split(".")[0] == "polyroc"}
    assert str(Path(modules["polyroc"].__file__).resolve()).startswith(str(Path(source).resolve()))
    return modules


def activate(modules):
    """Make ``modules`` the ``polyroc`` of ``sys.modules``."""
    for name in [name for name in sys.modules if name == "polyroc" or name.startswith("polyroc.")]:
        del sys.modules[name]
    sys.modules.update(modules)


def run_steps(modules, data, n_boot, wanted):
    """Seconds of each wanted step (one run) and the analysis filled by the steps."""
    activate(modules)
    analysis_module = modules["polyroc.report._analysis"]
    figures = modules["polyroc.report._figures"]
    y, scores, y_val, val_scores = data
    inputs = modules["polyroc.report._inputs"].check_report_inputs(
        y, {"model": scores}, y_val=y_val, val_scores={"model": val_scores}, labels=None,
        sample_weight=None, val_sample_weight=None, metric="f1_macro", n_boot=n_boot, confidence=0.95,
        random_state=0, ci="auto",
    )  # fmt: skip
    analysis = analysis_module.ModelAnalysis("model")
    seconds = {}
    for description, step in analysis_module.analysis_steps(inputs, [analysis]):
        key = next((key for key in STEPS if key in description), None)  # e.g. "ROC-DMF with bootstrap"
        if key is None and "DMF" in description:
            key = "ROC-DMF"
        if key not in wanted:
            continue  # steps not timed here (e.g. decisions) are skipped
        start, cpu = time.perf_counter(), time.process_time()
        step()
        seconds[key] = time.perf_counter() - start
        seconds[key + " CPU"] = time.process_time() - cpu
    if "figures" in wanted:
        start = time.perf_counter()
        figures.model_figures(analysis, inputs)
        figures.comparison_figures([analysis])
        seconds["figures"] = time.perf_counter() - start
    return seconds, analysis


def compare(old, new, scores):
    """Largest absolute differences between the numbers of the two analyses (0 where identical)."""
    lines = []
    if old.gini is not None and new.gini is not None:
        b_old, b_new = old.gini.bootstrap, new.gini.bootstrap
        lines.append(("Gini auc_agg", abs(old.gini.auc_agg - new.gini.auc_agg)))
        lines.append(
            ("Gini band", np.max(np.abs(b_old.tpr_low - b_new.tpr_low) + np.abs(b_old.tpr_high - b_new.tpr_high)))
        )
        lines.append(("Gini AUC interval", abs(b_old.auc.low - b_new.auc.low) + abs(b_old.auc.high - b_new.auc.high)))
        lines.append(("Gini AUC standard error", abs(b_old.auc_se - b_new.auc_se)))
        lines.append(
            (
                "Gini weight intervals",
                np.max(np.abs(b_old.weights_low - b_new.weights_low) + np.abs(b_old.weights_high - b_new.weights_high)),
            )
        )
    if old.dmf is not None and new.dmf is not None:
        lines.append(("DMF D", abs(old.dmf.D - new.dmf.D)))
        lines.append(("DMF replicate D", np.max(np.abs(old.dmf.bootstrap.D - new.dmf.bootstrap.D))))
        for name in ("tpr_matrix", "fpr_matrix", "cutoffs", "fpr", "tpr", "intercept", "slope", "pair_effect"):
            lines.append((f"DMF {name}", np.max(np.abs(getattr(old.dmf, name) - getattr(new.dmf, name)))))
        boot_old, boot_new = old.dmf.bootstrap, new.dmf.bootstrap
        for name in ("fpr", "tpr", "band_low", "band_high"):
            lines.append((f"DMF replicate {name}", np.max(np.abs(getattr(boot_old, name) - getattr(boot_new, name)))))
        lines.append(
            ("DMF interval", abs(boot_old.ci.low - boot_new.ci.low) + abs(boot_old.ci.high - boot_new.ci.high))
        )
        lines.append(("DMF replicate iterations differ", float(not np.array_equal(boot_old.n_iter, boot_new.n_iter))))
    if old.cloud is not None and new.cloud is not None:
        for name in ("dfp", "fpr", "tpr"):
            if hasattr(old.cloud, name):
                lines.append(
                    (
                        f"clouds {name}",
                        np.nanmax(np.abs(np.asarray(getattr(old.cloud, name)) - np.asarray(getattr(new.cloud, name)))),
                    )
                )
    if old.calibration is not None and new.calibration is not None:
        c_old, c_new = old.calibration, new.calibration
        if c_old.calibrator is not None and c_new.calibrator is not None:
            t_old, t_new = c_old.calibrator.temperature, c_new.calibrator.temperature
            lines.append(("calibration temperature (relative)", abs(t_old - t_new) / t_old))
            lines.append(("calibration loss after", abs(c_old.calibrator.loss_after - c_new.calibrator.loss_after)))
            lines.append(("calibrated curve", np.nanmax(np.abs(c_old.calibrated.observed - c_new.calibrated.observed))))
            f_old, f_new = c_old.before_after.to_frame(), c_new.before_after.to_frame()
            numbers = f_old.select_dtypes("number").columns
            lines.append(
                (
                    "calibration before/after table",
                    np.nanmax(np.abs(f_old[numbers].to_numpy() - f_new[numbers].to_numpy())),
                )
            )
        lines.append(("calibration ECE", abs(c_old.top_label.calibration_error - c_new.top_label.calibration_error)))
    if old.comparison is not None and new.comparison is not None:
        same = np.array_equal(old.comparison.tuning.predict(scores), new.comparison.tuning.predict(scores))
        lines.append(("tuned predictions differ", float(not same)))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-src", required=True, help="src directory of the baseline")
    parser.add_argument("--n", type=int, default=200_000, help="test rows (validation: the same)")
    parser.add_argument("--m", type=int, default=10, help="classes")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--steps", default=",".join(SHORT), help="comma-separated: " + ",".join(SHORT))
    parser.add_argument("--check", action="store_true", help="compare the numbers of the two codes")
    args = parser.parse_args()
    wanted = [SHORT[name] for name in args.steps.split(",")]
    (y, scores), (y_val, val_scores) = dirichlet_problem(args.n, args.m, seed=0), dirichlet_problem(args.n, args.m, 1)
    data = (y, scores, y_val, val_scores)
    codes = {"baseline": load(Path(args.baseline_src)), "now": load(Path(__file__).resolve().parents[1] / "src")}
    best = {code: {} for code in codes}
    analyses = {}
    warnings.simplefilter("ignore")
    for _ in range(args.repeat):
        for code, modules in codes.items():
            seconds, analyses[code] = run_steps(modules, data, args.n_boot, wanted)
            for key, value in seconds.items():
                best[code][key] = min(best[code].get(key, np.inf), value)
    print(f"{args.n} x {args.m}, n_boot={args.n_boot}: best of {args.repeat} (seconds), interleaved")
    for key in [name for step in wanted for name in (step, step + " CPU") if name in best["now"]]:
        old, new = best["baseline"][key], best["now"][key]
        print(f"  {key:<24} baseline {old:8.2f}   now {new:8.2f}   ratio now/baseline {new / old:5.2f}")
    old_total, new_total = (sum(best[code][key] for key in wanted) for code in ("baseline", "now"))
    ratio = new_total / old_total
    print(f"  {'sum (wall)':<24} baseline {old_total:8.2f}   now {new_total:8.2f}   ratio now/baseline {ratio:5.2f}")
    if args.check:
        for name, difference in compare(analyses["baseline"], analyses["now"], scores):
            print(f"  largest difference, {name}: {difference:.3g}")


if __name__ == "__main__":
    main()
