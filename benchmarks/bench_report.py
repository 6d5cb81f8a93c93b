"""The main job at real sizes: per-step and total times of a whole report, now against a baseline revision.

Each case builds one report with default settings (``n_boot=1000``, one model
with validation, seed 0) in a fresh process and prints the seconds of every
step (metrics, calibration, threshold tuning, ROC clouds, Gini ROC, ROC-DMF, figures with the results
document, HTML),
its CPU seconds (the process's, all threads: the measure on a shared machine) and the peak RSS.
``--baseline REV`` runs the same cases, in the same run, on
the package as it was at git revision ``REV`` (exported with ``git archive``,
imported through ``PYTHONPATH``), and prints the ratio baseline / now.

Cases:

- ``1e4x10``, ``1e5x10``, ``1e6x10``, ``1e5x20``: Dirichlet scores that favour
  the true class (n rows x m classes; validation of the same size);
- ``vowel``: an 11-class problem of the size of UCI vowel (990 rows, 198 test
  and 198 validation) with three models (logistic regression, a random forest
  that separates some classes completely, k-nearest neighbours).

Baseline runs above ``--baseline-max-rows`` rows are skipped unless the limit
is raised; their lines say so. ``--baseline-src DIR`` takes the baseline from a
``src`` directory (e.g. of a ``git worktree``) instead of a revision.

The floor of a case is the time of one ``argsort`` per score column of the
test scores (best of three, in the same process as the report): every step
that ranks the scores needs at least that. Each step is also printed as a
multiple of the floor. ``--save FILE`` writes the measurements as JSON and
``--baseline-json FILE`` reads baseline measurements saved so (the largest
cases are slow: run them once per revision).

Run: python benchmarks/bench_report.py [--cases 1e4x10,vowel] [--baseline REV | --baseline-src DIR]
     [--n-boot 1000] [--save now.json] [--baseline-json before.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import dirichlet_problem

CASES = ("1e4x10", "1e5x10", "1e5x20", "1e6x10", "vowel")
STEP_KEYS = (
    "metrics",
    "calibration",
    "threshold tuning",
    "ROC clouds",
    "Gini-weighted ROC",
    "ROC-DMF",
    "figures",
    "html",
)


def dirichlet_case(n, m):
    """Test and validation labels and scores of ``dirichlet_problem`` (seeds 0 and 1)."""
    (y, scores), (y_val, val_scores) = dirichlet_problem(n, m, seed=0), dirichlet_problem(n, m, seed=1)
    return y, {"model": scores}, y_val, {"model": val_scores}


def vowel_case(seed=0):
    """Three models on an 11-class, 990-row problem split 594 / 198 / 198 (train / validation / test)."""
    from sklearn.datasets import make_classification
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.neighbors import KNeighborsClassifier

    X, y = make_classification(
        n_samples=990, n_features=10, n_informative=8, n_redundant=0, n_classes=11,
        n_clusters_per_class=1, class_sep=2.0, random_state=seed,
    )  # fmt: skip
    X_train, X_rest, y_train, y_rest = train_test_split(X, y, test_size=396, stratify=y, random_state=seed)
    X_val, X_test, y_val, y_test = train_test_split(X_rest, y_rest, test_size=198, stratify=y_rest, random_state=seed)
    models = {
        "logistic": LogisticRegression(max_iter=2000),
        "forest": RandomForestClassifier(n_estimators=200, random_state=seed),
        "knn": KNeighborsClassifier(n_neighbors=15),
    }
    test, val = {}, {}
    for name, model in models.items():
        model.fit(X_train, y_train)
        test[name], val[name] = model.predict_proba(X_test), model.predict_proba(X_val)
    return y_test, test, y_val, val


def case_data(case):
    if case == "vowel":
        return vowel_case()
    rows, classes = case.split("x")
    return dirichlet_case(int(float(rows)), int(classes))


def step_key(description):
    """The STEP_KEYS entry a progress description belongs to (``model: ROC clouds`` -> ``ROC clouds``).

    The last progress call (``ROC-DMF figure``) is the figures': its time also
    holds the results document and the readings that ``build_report`` makes
    after it.
    """
    if description.endswith(("figure", "figures")):
        return "figures"
    for key in STEP_KEYS:
        if key in description:
            return key
    return description


def argsort_floor(test, repeat=3):
    """Seconds of one stable argsort per score column of every model (best of ``repeat``)."""
    import numpy as np

    columns = [np.ascontiguousarray(scores[:, k]) for scores in test.values() for k in range(scores.shape[1])]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for column in columns:
            np.argsort(column, kind="stable")
        best = min(best, time.perf_counter() - start)
    return best


def run_child(case, n_boot):
    """Build the report of ``case`` in this process; print a JSON line of per-step seconds and the floor."""
    from polyroc.report import build_report

    y, test, y_val, val = case_data(case)
    floor = argsort_floor(test)
    seconds, cpu = {}, {}
    current = [None, time.perf_counter(), time.process_time()]

    def progress(description, done, total):
        now, now_cpu = time.perf_counter(), time.process_time()
        if current[0] is not None:
            key = step_key(current[0])
            seconds[key] = seconds.get(key, 0.0) + now - current[1]
            cpu[key] = cpu.get(key, 0.0) + now_cpu - current[2]
        current[:] = [description, now, now_cpu]

    start, start_cpu = time.perf_counter(), time.process_time()
    report = build_report(y, test, y_val=y_val, val_scores=val, n_boot=n_boot, random_state=0, progress=progress)
    progress(None, 0, 0)
    html_start, html_cpu = time.perf_counter(), time.process_time()
    report.to_html()
    seconds["html"], cpu["html"] = time.perf_counter() - html_start, time.process_time() - html_cpu
    seconds["total"], cpu["total"] = time.perf_counter() - start, time.process_time() - start_cpu
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mib": peak_mib, "floor": floor}))


def measure(case, n_boot, source):
    """Run one case in a fresh process importing polyroc from ``source`` (a ``src`` directory)."""
    env = {**os.environ, "PYTHONPATH": str(source), "PYTHONWARNINGS": "ignore"}
    command = [sys.executable, __file__, "--child", case, "--n-boot", str(n_boot)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"case {case} failed with {source}:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def export_revision(revision, directory):
    """Write the ``src`` tree of git revision ``revision`` into ``directory``; return its ``src`` path."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(root), "archive", revision, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(directory)], input=archive.stdout, check=True)
    return Path(directory) / "src"


def case_rows(case):
    return 198 if case == "vowel" else int(float(case.split("x")[0]))


def print_case(case, now, before):
    floor, nan = now["floor"], float("nan")
    print(f"\n{case}: seconds per step (peak RSS {now['peak_mib']:.0f} MiB now; floor {floor:.3f} s)")
    keys = [key for key in (*STEP_KEYS, "total") if key in now["seconds"] or (before and key in before["seconds"])]
    for key in keys:
        after = now["seconds"].get(key, float("nan"))
        line = (
            f"  {key:<20} now {after:8.2f} ({after / floor:6.1f} floors; CPU {now.get('cpu', {}).get(key, nan):8.2f})"
        )
        if before is not None:
            old = before["seconds"].get(key, float("nan"))
            old_floor = before.get("floor", float("nan"))
            line += f"   baseline {old:8.2f} ({old / old_floor:6.1f} floors)   ratio {old / after:6.1f}x"
        print(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated cases (default: all)")
    parser.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates (default: 1000)")
    parser.add_argument("--baseline", help="git revision to compare with (default: none)")
    parser.add_argument("--baseline-src", help="src directory of the baseline (instead of --baseline)")
    parser.add_argument("--baseline-max-rows", type=int, default=100_000, help="largest baseline case (default: 1e5)")
    parser.add_argument("--save", help="write the measurements of this run as JSON")
    parser.add_argument("--baseline-json", help="baseline measurements saved by --save (instead of running them)")
    parser.add_argument("--skip-now", action="store_true", help="run only the baseline (with --save)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        run_child(args.child, args.n_boot)
        return
    source = Path(__file__).resolve().parents[1] / "src"
    saved = json.loads(Path(args.baseline_json).read_text()) if args.baseline_json else {}
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        old_source = Path(args.baseline_src) if args.baseline_src else None
        if args.baseline:
            old_source = export_revision(args.baseline, tmp)
        for case in args.cases.split(","):
            before = saved.get(case, {}).get("now")
            if before is None and old_source is not None and case_rows(case) <= args.baseline_max_rows:
                before = measure(case, args.n_boot, old_source)
            elif before is None and old_source is not None:
                print(f"\n{case}: baseline not run (more than {args.baseline_max_rows} rows)")
            now = before if args.skip_now else measure(case, args.n_boot, source)
            results[case] = {"now": now, "baseline": before}
            if now is not None:
                print_case(case, now, None if args.skip_now else before)
    if args.save:
        Path(args.save).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
