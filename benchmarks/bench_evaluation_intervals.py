"""Bootstrap intervals of ``evaluate``: against the previous engine, and against a scikit-learn loop.

1. Speed-up. Times ``evaluate(y, P, n_boot=B)`` on Dirichlet-like scores (the
   generator of the work item) for several (n, m), against the previous
   replicate engine, copied below (replicates drawn one at a time, the
   batch of weights gathered per sorted column, per-class sums as one-hot
   products, the raveled n * m cells sorted for the micro average), run in
   the same process on the same data. The baseline may be timed on fewer
   replicates (``--baseline-boot``): its replicate time is then scaled to B
   and marked "extrapolated". Both must give the same intervals (checked
   when the baseline runs all B replicates). Prints ratio = new / baseline.
2. Integer multiplicities. Without sample weights the AUCs of a replicate
   take its multiplicities as small integers (uint8) rather than float64
   rows; times ``evaluate`` both ways on the same data in the same process
   (the float64 rows forced by patching
   ``evaluation.integer_weights_are_exact``), checks that every interval is
   bit-identical and prints ratio = integer / float64.
3. Correctness at scale. For one (n, m), the intervals of accuracy and the OvR
   macro AUC equal the quantiles of a loop calling scikit-learn on every
   replicate (weights = multiplicity).

Run: python benchmarks/bench_evaluation_intervals.py [--sizes 10000x10,100000x20] [--n-boot B]
     [--baseline-boot B0] [--check-n N --check-m M]
     [--integer-sizes 100000x10,1000000x10 --integer-boot 1000,200] [--only-integer]
"""

import argparse
import time
from unittest import mock

import numpy as np
from _common import dirichlet_problem
from sklearn import metrics as skm

from polyroc._engine.counts import replicate_confusion_counts
from polyroc._engine.numeric import divide
from polyroc._engine.ranking import average_classes, hand_till, ovr_auc
from polyroc.evaluation import _evaluate as evaluation
from polyroc.evaluation import evaluate
from polyroc.evaluation._summary import class_scores, counts_scores
from polyroc.resampling import bootstrap_multiplicities

# --- the previous replicate engine, verbatim in substance -------------------------------------------------


def old_multiplicities(y, n_boot, rng, chunk_size):
    strata = [np.flatnonzero(y == c) for c in np.unique(y)]
    seeds = rng.spawn(n_boot)
    for start in range(0, n_boot, chunk_size):
        block = seeds[start : start + chunk_size]
        out = np.zeros((len(block), y.size), dtype=np.int64)
        for row, seed in zip(out, block):
            for members in strata:
                draws = seed.integers(0, members.size, members.size)
                row[members] = np.bincount(draws, minlength=members.size)
        yield out


def old_tie_ends(sorted_score):
    return np.append(np.flatnonzero(np.diff(sorted_score)), sorted_score.size - 1)


def old_sum_per_class(values, classes, n_classes):
    if values.ndim == 1:
        return np.bincount(classes, weights=values, minlength=n_classes)
    return (classes == np.arange(n_classes)[:, None]).astype(np.float64) @ values


def old_count_wins(sorted_score, sorted_class, sorted_weight, positive, n_classes):
    positive_at = np.flatnonzero(sorted_class == positive)
    cumulative = np.zeros((positive_at.size + 1, *sorted_weight.shape[1:]))
    np.cumsum(sorted_weight[positive_at], axis=0, out=cumulative[1:])
    ends = old_tie_ends(sorted_score)
    positives_up_to = np.searchsorted(positive_at, ends, side="right")
    positives_below = np.concatenate(([0], positives_up_to[:-1]))
    above_plus_half_tied = cumulative[positives_up_to]
    above_plus_half_tied += cumulative[positives_below]
    above_plus_half_tied *= -0.5
    above_plus_half_tied += cumulative[-1]
    per_sample = np.repeat(above_plus_half_tied, np.diff(ends, prepend=-1), axis=0)
    per_sample *= sorted_weight
    return old_sum_per_class(per_sample, sorted_class, n_classes)


def old_sort(score, codes, sample=None):
    order = np.argsort(score)
    return score[order], codes[order], (order if sample is None else sample[order])


def old_binary_auc_of_columns(ranked, weight_columns):
    score, codes, sample = ranked
    step = max(1, (16 * 2**20) // (sample.size * 8))
    aucs = []
    for start in range(0, weight_columns.shape[1], step):
        sorted_weights = np.take(weight_columns[:, start : start + step], sample, axis=0)
        correct = old_count_wins(score, codes, sorted_weights, 1, 2)[0]
        negative, positive = old_sum_per_class(sorted_weights, codes, 2)
        aucs.append(divide(correct, negative * positive))
    return np.concatenate(aucs)


def old_ranking_aucs(columns, cells, weight_rows, support):
    weight_columns = np.ascontiguousarray(weight_rows.T)
    n_classes = len(columns)
    sorted_weights = np.empty_like(weight_columns)
    wins = np.stack(
        [
            old_count_wins(score, codes, np.take(weight_columns, sample, axis=0, out=sorted_weights), k, n_classes)
            for k, (score, codes, sample) in enumerate(columns)
        ]
    ).transpose(2, 0, 1)
    per_class = ovr_auc(wins, support)
    return {
        ("ovr", "macro"): per_class.mean(axis=-1),
        ("ovr", "weighted"): average_classes(per_class, support, "weighted"),
        ("ovr", "micro"): old_binary_auc_of_columns(cells, weight_columns),
        ("ovo", "macro"): hand_till(wins, support, "macro"),
    }


def old_bootstrap_replicates(y, scores, weights, losses, n_boot, rng):
    """``evaluation._bootstrap_replicates`` before this change."""
    predicted = scores.argmax(axis=1)
    n_samples, n_classes = scores.shape
    codes = y.astype(np.min_scalar_type(n_classes))
    columns = [old_sort(column, codes) for column in scores.T]
    truth = (y[:, None] == np.arange(n_classes)).ravel().view(np.uint8)
    cells = old_sort(scores.ravel(), truth, np.repeat(np.arange(n_samples), n_classes))
    loss_columns = np.column_stack(list(losses.values()))
    chunks = []
    chunk_size = max(1, (16 * 2**20) // (y.size * 8))
    for multiplicities in old_multiplicities(y, n_boot, rng, chunk_size):
        rows = multiplicities.astype(np.float64) if weights is None else multiplicities * weights
        counts = replicate_confusion_counts(y, predicted, n_classes, rows)
        aucs = old_ranking_aucs(columns, cells, rows, counts.sum(axis=-1))
        means = (rows @ loss_columns) / rows.sum(axis=1, keepdims=True)
        chunks.append(
            {
                **counts_scores(counts),
                **{evaluation._ranking_name(key): value for key, value in aucs.items()},
                **dict(zip(losses, means.T)),
                **class_scores(counts),
            }
        )
    return {name: np.concatenate([chunk[name] for chunk in chunks]) for name in chunks[0]}


# --- timing --------------------------------------------------------------------------------------------------


def timed(function):
    start = time.perf_counter()
    result = function()
    return time.perf_counter() - start, result


def bounds(result):
    return np.array([(ci.low, ci.high) for ci in result.intervals.values()])


def compare(n, m, n_boot, baseline_boot):
    y, P = dirichlet_problem(n, m)
    t_fixed, _ = timed(lambda: evaluate(y, P, n_boot=0))
    t_new, new = timed(lambda: evaluate(y, P, n_boot=n_boot, random_state=0))
    with mock.patch.object(evaluation, "_bootstrap_replicates", old_bootstrap_replicates):
        t_old, old = timed(lambda: evaluate(y, P, n_boot=baseline_boot, random_state=0))
    extrapolated = baseline_boot != n_boot
    if extrapolated:
        t_old = t_fixed + (t_old - t_fixed) * n_boot / baseline_boot
        same = "n/a"
    else:
        same = str(bool(np.allclose(bounds(new), bounds(old), rtol=0, atol=1e-12)))
    note = f"extrapolated from B={baseline_boot}" if extrapolated else "measured"
    print(
        f"{n:>9,} {m:>4} {n_boot:>6} {t_old:>12.2f} {t_new:>9.2f} {t_new / t_old:>8.4f}  {same:>5}  {note}", flush=True
    )


def compare_integer_rows(n, m, n_boot):
    y, P = dirichlet_problem(n, m)
    t_integer, integer = timed(lambda: evaluate(y, P, n_boot=n_boot, random_state=0))
    with mock.patch.object(evaluation, "integer_weights_are_exact", lambda n_samples, n_classes: False):
        t_float, floating = timed(lambda: evaluate(y, P, n_boot=n_boot, random_state=0))
    same = _all_bounds(integer) == _all_bounds(floating)
    print(
        f"{n:>9,} {m:>4} {n_boot:>6} {t_float:>10.2f} {t_integer:>10.2f} {t_integer / t_float:>8.4f}  {same}",
        flush=True,
    )


def _all_bounds(result):
    """Every interval's (low, high), per-class ones included, for a bitwise comparison."""
    return [(ci.low, ci.high) for ci in result.intervals.values()] + [
        (ci.low, ci.high) for by_class in result.class_intervals.values() for ci in by_class.values()
    ]


def sklearn_check(n, m, n_boot):
    y, P = dirichlet_problem(n, m, seed=1)
    result = evaluate(y, P, n_boot=n_boot, random_state=0)
    multiplicities = np.vstack(list(bootstrap_multiplicities(y, n_boot, random_state=0)))
    checks = {
        "accuracy": lambda row: skm.accuracy_score(y, P.argmax(axis=1), sample_weight=row),
        "roc_auc_ovr_macro": lambda row: skm.roc_auc_score(y, P, multi_class="ovr", sample_weight=row),
    }
    for name, score in checks.items():
        low, high = np.nanquantile([score(row) for row in multiplicities], [0.025, 0.975])
        interval = result.intervals[name]
        same = bool(np.allclose([interval.low, interval.high], [low, high], rtol=0, atol=1e-12))
        print(f"{name:<18} polyroc [{interval.low:.6f}, {interval.high:.6f}]  sklearn [{low:.6f}, {high:.6f}]  {same}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000x10,100000x10,100000x20,1000000x10", help="n x m, comma separated")
    parser.add_argument("--n-boot", type=int, default=1000)
    parser.add_argument("--baseline-boot", default="1000,1000,1000,50", help="baseline replicates per size")
    parser.add_argument("--check-n", type=int, default=20_000)
    parser.add_argument("--check-m", type=int, default=6)
    parser.add_argument("--check-boot", type=int, default=200)
    parser.add_argument("--integer-sizes", default="100000x10,1000000x10", help="n x m of the integer-rows timing")
    parser.add_argument("--integer-boot", default="1000,200", help="replicates per size of the integer-rows timing")
    parser.add_argument("--only-integer", action="store_true", help="time only the integer against the float64 rows")
    args = parser.parse_args()
    print("evaluate(y, P, n_boot=B): AUCs of float64 weight rows vs integer multiplicities, same process, seconds")
    print(f"{'n':>9} {'m':>4} {'B':>6} {'float64 s':>10} {'integer s':>10} {'ratio':>8}  same bits")
    integer_sizes = [tuple(int(v) for v in size.split("x")) for size in args.integer_sizes.split(",")]
    for (n, m), n_boot in zip(integer_sizes, [int(b) for b in args.integer_boot.split(",")]):
        compare_integer_rows(n, m, n_boot)
    if args.only_integer:
        return
    print()
    sizes = [tuple(int(v) for v in size.split("x")) for size in args.sizes.split(",")]
    baseline = [int(b) for b in args.baseline_boot.split(",")]
    print("evaluate(y, P, n_boot=B): previous engine (baseline) vs now, same process, seconds")
    print(f"{'n':>9} {'m':>4} {'B':>6} {'baseline s':>12} {'new s':>9} {'ratio':>8}  {'same':>5}")
    for (n, m), baseline_boot in zip(sizes, baseline):
        compare(n, m, args.n_boot, min(baseline_boot, args.n_boot))
    print(
        f"\nscikit-learn loop over the same replicates: n = {args.check_n:,}, m = {args.check_m}, B = {args.check_boot}"
    )
    sklearn_check(args.check_n, args.check_m, args.check_boot)


if __name__ == "__main__":
    main()
