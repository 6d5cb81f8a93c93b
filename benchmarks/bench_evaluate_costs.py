"""Costs of ``evaluate`` and the rank and label metrics against their floors and other libraries, in one run.

Every ratio is measured in this process, the two sides interleaved, best of
``--repeat`` (the machine may be shared: only ratios from one run mean anything).

1. ``floor``: ``polyroc.evaluate(y, P)`` with its default intervals (DeLong for
   the AUCs) on Dirichlet-like scores (n x m) against the floor of one stable
   argsort per score column, ``np.argsort(P[:, j], kind="stable")`` for every
   j (target: ratio <= 4).
2. ``ties``: OvR macro ROC AUC and macro average precision on scores with few
   distinct values (probabilities on a grid of 1/100: integer rows summing to
   100, divided by 100) against scikit-learn and torchmetrics' exact
   ``multiclass_auroc`` / ``multiclass_average_precision`` (``thresholds=None``;
   skipped with a note when torchmetrics is not installed). Targets: <= 0.6 x
   scikit-learn, <= 0.8 x torchmetrics. The values must equal scikit-learn's.
3. ``labels``: each label metric on (y_true, y_pred) against scikit-learn.
4. ``import``: a fresh interpreter importing the metrics and calling
   ``f1_score`` once on numpy arrays, against the same with scikit-learn; and
   whether pandas was imported.
5. ``memory``: peak resident memory of ``evaluate`` on ``--memory-size``
   (default 1e7x10) in a fresh subprocess, as a multiple of the score matrix's
   bytes: the whole process's peak, and the peak above the resident memory
   just before the call (the matrix is built in blocks of rows, so that
   building it adds little). Run it alone on a shared machine.

Run: python benchmarks/bench_evaluate_costs.py [--parts floor,ties,labels,import,memory]
     [--n 1000000] [--m 10] [--repeat 3] [--memory-size 1e7x10]
"""

import argparse
import json
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

import numpy as np
from _common import dirichlet_problem
from sklearn import metrics as skm

import polyroc
from polyroc import metrics

HERE = Path(__file__).resolve().parent


def interleaved(first, second, repeat):
    """Best times of two functions called alternately, and their last results."""
    best = [np.inf, np.inf]
    results = [None, None]
    for _ in range(repeat):
        for side, function in enumerate((first, second)):
            start = time.perf_counter()
            results[side] = function()
            best[side] = min(best[side], time.perf_counter() - start)
    return best, results


def grid_problem(n, m, steps=100, seed=0):
    """Uniform labels and probability rows on a grid of 1/steps (integer rows summing to ``steps``)."""
    y, P = dirichlet_problem(n, m, seed=seed)
    counts = np.floor(P * steps).astype(np.int64)
    short = steps - counts.sum(axis=1)
    order = np.argsort(counts - P * steps, axis=1)  # the largest remainders first get the missing units
    counts[np.arange(n)[:, None], order] += np.arange(m)[None, :] < short[:, None]
    return y, counts / steps


def part_floor(args):
    y, P = dirichlet_problem(args.n, args.m, seed=0)
    polyroc.evaluate(y[:1000], P[:1000], random_state=0)  # imports and first calls out of the timing

    def floor():
        return [np.argsort(P[:, j], kind="stable") for j in range(P.shape[1])]

    (t_eval, t_floor), _ = interleaved(lambda: polyroc.evaluate(y, P, random_state=0), floor, args.repeat)
    print(f"1. evaluate with default intervals, n = {args.n:,}, m = {args.m}, best of {args.repeat}")
    print(f"   evaluate {t_eval:.3f} s; floor (one stable argsort per column) {t_floor:.3f} s;")
    print(f"   ratio evaluate / floor = {t_eval / t_floor:.2f}  (target <= 4)")


def part_ties(args):
    y, P = grid_problem(args.n, args.m)
    distinct = max(np.unique(P[:, j]).size for j in range(args.m))
    print(f"2. scores on a grid of 1/100 (at most {distinct} distinct values a column), n = {args.n:,}, m = {args.m}")
    labels = np.arange(args.m)
    cases = {
        "OvR macro ROC AUC": (
            lambda: metrics.roc_auc_score(y, P, multi_class="ovr", average="macro"),
            lambda: skm.roc_auc_score(y, P, multi_class="ovr", average="macro"),
        ),
        "macro average precision": (
            lambda: metrics.average_precision_score(y, P, average="macro"),
            lambda: skm.average_precision_score(y, P, average="macro"),
        ),
    }
    torch_cases = _torchmetrics_cases(y, P, args.m)
    print(f"   {'case':<26}{'polyroc s':>10}{'sklearn s':>10}{'ratio':>7}{'torchm. s':>10}{'ratio':>7}  equal")
    for name, (ours, theirs) in cases.items():
        (t_ours, t_theirs), (v_ours, v_theirs) = interleaved(ours, theirs, args.repeat)
        equal = abs(v_ours - v_theirs) <= 1e-12
        torch_text = "   (torchmetrics not installed: pip install torch torchmetrics)"
        if torch_cases is not None:
            (t_ours2, t_torch), (_, v_torch) = interleaved(ours, torch_cases[name], args.repeat)
            t_ours = min(t_ours, t_ours2)
            torch_text = f"{t_torch:>10.3f}{t_ours / t_torch:>7.2f}"
            equal = equal and abs(v_torch - v_ours) < 1e-5  # torchmetrics computes in float32
        print(f"   {name:<26}{t_ours:>10.3f}{t_theirs:>10.3f}{t_ours / t_theirs:>7.2f}{torch_text}  {equal}")
    print("   targets: ratio to scikit-learn <= 0.6, to torchmetrics <= 0.8")
    del labels


def _torchmetrics_cases(y, P, m):
    try:
        import torch
        from torchmetrics.functional.classification import multiclass_auroc, multiclass_average_precision
    except ImportError:
        return None
    target, preds = torch.from_numpy(y), torch.from_numpy(P)
    return {
        "OvR macro ROC AUC": lambda: float(multiclass_auroc(preds, target, m, average="macro", thresholds=None)),
        "macro average precision": lambda: float(
            multiclass_average_precision(preds, target, m, average="macro", thresholds=None)
        ),
    }


LABEL_METRICS = {
    "accuracy_score": {},
    "balanced_accuracy_score": {},
    "f1_score": {"average": "macro"},
    "precision_score": {"average": "macro"},
    "recall_score": {"average": "macro"},
    "fbeta_score": {"average": "weighted", "beta": 2.0},
    "precision_recall_fscore_support": {"average": None},
    "cohen_kappa_score": {},
    "matthews_corrcoef": {},
    "confusion_matrix": {},
    "classification_report": {"output_dict": True},
}


def _flat(value):
    """Every number of a metric's value (a float, an array, a tuple of arrays or a nested dict)."""
    if isinstance(value, dict):
        return np.concatenate([_flat(value[key]) for key in sorted(value, key=str)])
    if isinstance(value, tuple):
        return np.concatenate([_flat(part) for part in value])
    return np.ravel(np.asarray(value, dtype=np.float64))


def part_labels(args):
    rng = np.random.default_rng(0)
    y = rng.integers(0, args.m, args.n)
    y_pred = np.where(rng.random(args.n) < 0.7, y, rng.integers(0, args.m, args.n))
    print(f"3. label metrics on (y_true, y_pred), n = {args.n:,}, m = {args.m}, best of {args.repeat}")
    print(f"   {'metric':<34}{'polyroc s':>10}{'sklearn s':>10}{'ratio':>7}  equal")
    for name, options in LABEL_METRICS.items():
        ours, theirs = getattr(metrics, name), getattr(skm, name)
        (t_ours, t_theirs), (v_ours, v_theirs) = interleaved(
            lambda ours=ours, options=options: ours(y, y_pred, **options),
            lambda theirs=theirs, options=options: theirs(y, y_pred, **options),
            args.repeat,
        )
        equal = bool(np.allclose(_flat(v_ours), _flat(v_theirs), rtol=0, atol=1e-12))
        print(f"   {name:<34}{t_ours:>10.4f}{t_theirs:>10.4f}{t_ours / t_theirs:>7.2f}  {equal}")


IMPORT_SCRIPT = """
import sys, time
start = time.perf_counter()
import numpy as np
from {module} import f1_score
y = np.arange(1000) % 4
f1_score(y, y[::-1], average="macro")
print(time.perf_counter() - start, "pandas" in sys.modules, "pyarrow" in sys.modules)
"""


def part_import(args):
    best = {}
    found = {}
    for _ in range(args.repeat):
        for module in ("polyroc.metrics", "sklearn.metrics"):
            out = subprocess.run(
                [sys.executable, "-c", IMPORT_SCRIPT.format(module=module)], capture_output=True, text=True, check=True
            ).stdout.split()
            best[module] = min(best.get(module, np.inf), float(out[0]))
            found[module] = out[1:]
    ours, theirs = best["polyroc.metrics"], best["sklearn.metrics"]
    print("4. fresh interpreter: import + first f1_score on numpy arrays")
    print(f"   polyroc {ours:.3f} s; scikit-learn {theirs:.3f} s; ratio {ours / theirs:.2f}")
    print(f"   polyroc imported pandas: {found['polyroc.metrics'][0]}, pyarrow: {found['polyroc.metrics'][1]}")


MEMORY_SCRIPT = """
import json, resource, sys
import numpy as np
import polyroc

def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024

n, m = {n}, {m}
rng = np.random.default_rng(0)
y = rng.integers(0, m, n)
P = np.empty((n, m))
for start in range(0, n, 1 << 18):
    rows = slice(start, start + (1 << 18))
    alpha = np.ones((y[rows].size, m))
    alpha[np.arange(y[rows].size), y[rows]] += 1.5
    block = rng.gamma(alpha)
    P[rows] = block / block.sum(axis=1, keepdims=True)
del alpha, block
before = rss("VmRSS:")
polyroc.evaluate(y, P, random_state=0)
print(json.dumps({{"matrix": P.nbytes, "before": before, "peak": rss("VmHWM:")}}))
"""


def part_memory(args):
    n, m = (int(float(part)) for part in args.memory_size.lower().split("x"))
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(MEMORY_SCRIPT.format(n=n, m=m))],
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    matrix = found["matrix"]
    print(f"5. peak memory of evaluate (default intervals), n = {n:,}, m = {m}, fresh process")
    print(f"   score matrix {matrix / 2**30:.2f} GiB; resident before the call {found['before'] / 2**30:.2f} GiB;")
    print(f"   peak of the process {found['peak'] / 2**30:.2f} GiB = {found['peak'] / matrix:.2f} x the matrix;")
    print(f"   peak above the resident memory before the call = {(found['peak'] - found['before']) / matrix:.2f} x")
    print("   (target: peak <= 4 x the matrix)")


PARTS = {"floor": part_floor, "ties": part_ties, "labels": part_labels, "import": part_import, "memory": part_memory}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="floor,ties,labels,import")
    parser.add_argument("--n", type=int, default=1_000_000)
    parser.add_argument("--m", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--memory-size", default="1e7x10")
    args = parser.parse_args()
    print(f"polyroc from {Path(polyroc.__file__).parent}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for part in args.parts.split(","):
            PARTS[part](args)


if __name__ == "__main__":
    main()
