"""Coverage study: how often the nominal 95% intervals of ``polyroc.evaluate`` hold the true value.

Data model (benchmarks/_truth.py): m classes with fixed class counts (the
intervals are conditional on the class counts, as the stratified bootstrap
is); a class-c row is Dirichlet(1 + s * one-hot(c)), separation s (default 2).
Scenarios: n in {60, 300, 3000} x m in {3, 10} x {balanced, imbalanced}, the
imbalanced mix geometric with largest:smallest as near 20:1 as a 5-row
smallest class allows. True values: AUCs by numerical integration, the
argmax-rule quantities and the expected losses by Monte Carlo (10^7 rows per
class, seeded, cached in --truth-cache), a counts metric at the metric of the
expected confusion counts.

Each data set (seeded by its scenario and replicate through
numpy.random.SeedSequence) is evaluated once per interval method
(``evaluate(y, P, ci=METHOD, n_boot=B, random_state=seed)``); every interval
is recorded: covered (low <= truth <= high), width, zero width, undefined
(NaN bound, counted as not covered) and the method that made it. Prints a
Markdown table per quantity (coverage % and mean width per method; a bold
coverage misses the target: 93% where every class has >= 10 rows, 90% where
the smallest has 5 to 9) and writes every record to --out.

Data sets run in a pool of --workers processes (POLYROC_THREADS=1 in each).

With --paired it studies instead the interval of a difference of two models'
accuracies on the same rows (``compare_scores(..., quantities=["accuracy"])``):
each data set draws the rows where only model A is right (probability p_A),
only model B is right (p_B) and the rest from a multinomial of n rows, the true
difference being p_A - p_B. Scenarios (PAIRED_SCENARIOS) cover every
discordant row favouring A, 4:1 and 1:1, small and large n and rare
discordance. It prints the coverage of the interval compare_scores uses now
(Tango's score interval, target 93%) beside the exact interval conditional on
the discordant rows that it used before and the paired Wald interval.

With --calibration it studies the intervals of the binned ECEs instead
(benchmarks/coverage_calibration.py, which lists its options).

With --per-class-auc it studies the per-class DeLong interval of each class's
one-vs-rest AUC (``roc_auc_interval(y, P, average=None)``, the ``"roc_auc"``
class intervals of evaluate) in the data model above, n in {100, 1000,
10000} x m in {3, 10} x {balanced, imbalanced}.
With --costs it studies the expected cost (single and paired difference) and
the metrics at target priors instead (benchmarks/coverage_costs.py, which
lists its options).

Run: python benchmarks/coverage.py --paired [--datasets 1000]
     python benchmarks/coverage.py --per-class-auc [--datasets 1000] [--separation 2]
     python benchmarks/coverage.py [--datasets 1000] [--methods bootstrap,auto,analytic,bayes] [--n-boot 1000]
     [--scenarios n60-m3-balanced,...] [--separation 2] [--out DIR] [--workers 2] [--chunk 20]
     [--truth-draws 10000000] [--truth-cache FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from _truth import CLASS_SCORES, SCORES, class_counts, class_moments, class_seed, scenario_truths, separation_alphas
from _truth import simulate as simulate_data_set

from polyroc import evaluate
from polyroc.intervals import paired_difference_interval

METHODS = ("bootstrap", "auto", "analytic", "bayes")
SIZES, CLASS_NUMBERS, MIXES = (60, 300, 3000), (3, 10), ("balanced", "imbalanced")
CONFIDENCE = 0.95
STUDY_ENTROPY = 20_240_601  # seeds of the data sets
TRUTH_ENTROPY = 20_240_602  # seeds of the Monte Carlo truths

#: Quantity groups of the tables, by kind.
GROUPS = {
    "Proportions": ("accuracy", "top_2_accuracy", "recall"),
    "Composites of counts": (
        "balanced_accuracy",
        "f1_macro",
        "cohen_kappa",
        "matthews_corrcoef",
        "precision",
        "f1-score",
    ),
    "AUCs": ("roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovr_micro", "roc_auc_ovo_macro"),
    "Mean losses": ("log_loss", "brier_score"),
}


@dataclass(frozen=True)
class Scenario:
    n: int
    n_classes: int
    mix: str
    counts: tuple[int, ...]

    @property
    def name(self) -> str:
        return f"n{self.n}-m{self.n_classes}-{self.mix}"

    @property
    def smallest_class(self) -> int:
        """The class with the fewest rows (the last among ties)."""
        counts = np.asarray(self.counts)
        return int(np.flatnonzero(counts == counts.min())[-1])

    @property
    def target(self) -> float:
        """Coverage (%) to reach: 93 where every class has 10 rows, 90 where the smallest has fewer."""
        return 93.0 if min(self.counts) >= 10 else 90.0


def scenarios(selected: list[str] | None) -> list[Scenario]:
    every = [
        Scenario(n, m, mix, tuple(class_counts(n, m, mix).tolist()))
        for n in SIZES
        for m in CLASS_NUMBERS
        for mix in MIXES
    ]
    if not selected:
        return every
    unknown = sorted(set(selected) - {scenario.name for scenario in every})
    if unknown:
        raise SystemExit(f"unknown scenarios {unknown}; known: {[scenario.name for scenario in every]}")
    return [scenario for scenario in every if scenario.name in selected]


# --------------------------------------------------------------------------- truths


def truth_seed(n_classes: int, separation: float) -> list[int]:
    return [TRUTH_ENTROPY, n_classes, round(separation * 10**6)]


def _moments_task(args):
    alphas, true_class, draws, seed = args
    moments = class_moments(alphas[true_class], true_class, draws, class_seed(seed, len(alphas), true_class))
    return {key: np.asarray(value).tolist() for key, value in moments.items()}


def load_truths(chosen, separation, draws, cache_path, pool):
    """Truths of every scenario; the Monte Carlo moments come from the cache or are computed (in the pool)."""
    cache = json.loads(cache_path.read_text()) if cache_path.exists() else {}
    keys = {
        m: f"m{m}-s{separation:g}-draws{draws}-seed{truth_seed(m, separation)}"
        for m in sorted({s.n_classes for s in chosen})
    }
    missing = [m for m, key in keys.items() if key not in cache]
    if missing:
        print(f"Monte Carlo truths: {draws:,} rows per class for m = {missing} ...", flush=True)
        start = time.perf_counter()
        tasks = [
            (separation_alphas(m, separation), c, draws, truth_seed(m, separation)) for m in missing for c in range(m)
        ]
        results = pool.map(_moments_task, tasks, chunksize=1)
        for m in missing:
            cache[keys[m]] = [results.pop(0) for _ in range(m)]
        cache_path.write_text(json.dumps(cache))
        print(f"  done in {time.perf_counter() - start:.0f} s, cached in {cache_path}", flush=True)
    else:
        print(f"Monte Carlo truths: from the cache {cache_path}", flush=True)
    truths = {}
    for scenario in chosen:
        moments = [{k: np.asarray(v) for k, v in moment.items()} for moment in cache[keys[scenario.n_classes]]]
        alphas = separation_alphas(scenario.n_classes, separation)
        truths[scenario.name] = scenario_truths(alphas, np.asarray(scenario.counts), moments)
    return truths


# --------------------------------------------------------------------------- one chunk of data sets (in a worker)


def data_set_seeds(scenario: Scenario, replicate: int) -> tuple[np.random.SeedSequence, int]:
    """The data's seed sequence and evaluate's random_state, from (scenario, replicate)."""
    data, intervals = np.random.SeedSequence([STUDY_ENTROPY, zlib.crc32(scenario.name.encode()), replicate]).spawn(2)
    return data, int(intervals.generate_state(1)[0])


def _interval_record(interval, truth):
    low, high = interval.low, interval.high
    undefined = bool(np.isnan(low) or np.isnan(high))
    return {
        "truth": truth,
        "estimate": interval.estimate,
        "low": low,
        "high": high,
        "interval_method": interval.method,
        "covered": bool(low <= truth <= high),
        "width": high - low,
        "zero_width": bool(high - low == 0),
        "undefined": undefined,
    }


def _failed_record(truth, message):
    nan = float("nan")
    return {
        "truth": truth,
        "estimate": nan,
        "low": nan,
        "high": nan,
        "interval_method": message,
        "covered": False,
        "width": nan,
        "zero_width": False,
        "undefined": True,
    }


def evaluate_data_set(scenario, truths, separation, replicate, methods, n_boot):
    """Records of every interval of one data set under every method."""
    data_seed, random_state = data_set_seeds(scenario, replicate)
    alphas = separation_alphas(scenario.n_classes, separation)
    y, P = simulate_data_set(alphas, np.asarray(scenario.counts), np.random.default_rng(data_seed))
    records = []
    for method in methods:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result, failure = evaluate(y, P, ci=method, n_boot=n_boot, random_state=random_state), None
            except Exception as error:  # recorded as undefined intervals, reported at the end
                result, failure = None, f"error: {type(error).__name__}: {error}"
        base = {"scenario": scenario.name, "replicate": replicate, "ci": method, "warnings": len(caught)}
        for name in SCORES:
            truth = truths["scores"][name]
            entry = (
                _failed_record(truth, failure) if result is None else _interval_record(result.intervals[name], truth)
            )
            records.append({**base, "quantity": name, "class": -1, **entry})
        for name in CLASS_SCORES:
            for k in range(scenario.n_classes):
                truth = truths["classes"][name][k]
                interval = None if result is None else result.class_intervals[name][k]
                entry = _failed_record(truth, failure) if result is None else _interval_record(interval, truth)
                records.append({**base, "quantity": name, "class": k, **entry})
    return records


def run_chunk(job):
    """One chunk of data sets of one scenario: (scenario name, data sets, records, worker seconds)."""
    scenario, truths, separation, replicates, methods, n_boot = job
    start = time.perf_counter()
    records = [
        record
        for replicate in replicates
        for record in evaluate_data_set(scenario, truths, separation, replicate, methods, n_boot)
    ]
    return scenario.name, len(replicates), records, time.perf_counter() - start


def _single_threaded_worker():
    os.environ["POLYROC_THREADS"] = "1"


# --------------------------------------------------------------------------- the run


def interleaved_jobs(chosen, truths, args, methods):
    """Chunks of data sets, one chunk of each scenario in turn (so early chunks time every scenario)."""
    per_scenario = [
        [
            (
                scenario,
                truths[scenario.name],
                args.separation,
                range(start, min(start + args.chunk, args.datasets)),
                methods,
                args.n_boot,
            )
            for start in range(0, args.datasets, args.chunk)
        ]
        for scenario in chosen
    ]
    return [job for round_ in zip(*per_scenario) for job in round_]


class Progress:
    """Data sets done, and the expected run time from the worker seconds per data set of each scenario."""

    def __init__(self, chosen, datasets, workers, start):
        self.remaining = {scenario.name: datasets for scenario in chosen}
        self.seconds = {scenario.name: [] for scenario in chosen}
        self.total = datasets * len(chosen)
        self.workers, self.start, self.chunks, self.last_print = workers, start, 0, 0.0

    def update(self, name, count, seconds):
        self.remaining[name] -= count
        self.seconds[name].append(seconds / count)
        self.chunks += 1
        now = time.perf_counter()
        timed_every = all(self.seconds.values())
        if self.chunks == 1 or (timed_every and self.chunks == len(self.seconds)) or now - self.last_print > 30:
            self.last_print = now
            self._print(now, timed_every)

    def _print(self, now, timed_every):
        seen = [np.mean(times) for times in self.seconds.values() if times]
        left = sum(
            count * (np.mean(self.seconds[name]) if self.seconds[name] else np.mean(seen))
            for name, count in self.remaining.items()
        )
        elapsed = now - self.start
        done = self.total - sum(self.remaining.values())
        basis = "every scenario timed" if timed_every else "untimed scenarios at the mean so far"
        print(
            f"  {done:,}/{self.total:,} data sets, {elapsed:,.0f} s elapsed; expected total "
            f"{elapsed + left / self.workers:,.0f} s ({basis})",
            flush=True,
        )


def run_study(chosen, truths, args, methods, pool):
    jobs = interleaved_jobs(chosen, truths, args, methods)
    progress = Progress(chosen, args.datasets, args.workers, time.perf_counter())
    records = []
    for name, count, chunk, seconds in pool.imap_unordered(run_chunk, jobs, chunksize=1):
        records.extend(chunk)
        progress.update(name, count, seconds)
    return pd.DataFrame.from_records(records)


# --------------------------------------------------------------------------- tables


def _cell(rows, target):
    if rows.empty:
        return "–"
    coverage = 100 * rows["covered"].mean()
    text = f"{coverage:.1f}"
    if coverage < target:
        text = f"**{text}**"
    width = rows["width"].mean()  # over the defined intervals
    text += " (–)" if np.isnan(width) else f" ({width:.3f})"
    zero, undefined = int(rows["zero_width"].sum()), int(rows["undefined"].sum())
    if zero:
        text += f" z{zero}"
    if undefined:
        text += f" u{undefined}"
    return text


def quantity_table(records, chosen, methods, quantity, smallest_only=False):
    header = ["scenario", "smallest class", *methods]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] * len(header)) + "|"]
    selected = records[records["quantity"] == quantity]
    for scenario in chosen:
        rows = selected[selected["scenario"] == scenario.name]
        if smallest_only:
            rows = rows[rows["class"] == scenario.smallest_class]
        cells = [_cell(rows[rows["ci"] == method], scenario.target) for method in methods]
        lines.append("| " + " | ".join([scenario.name, str(min(scenario.counts)), *cells]) + " |")
    return lines


def report_lines(records, chosen, methods, args):
    lines = [
        "# Coverage tables",
        "",
        f"Coverage % of nominal {100 * CONFIDENCE:g}% intervals (mean width), {args.datasets:,} data sets per "
        f"scenario; bold: below the target (93% where every class has >= 10 rows, 90% where the smallest has 5-9); "
        "zN: N intervals of zero width; uN: N undefined (a NaN bound or a failed call, counted as not covered).",
        f"Monte Carlo standard error of a 95% coverage with {args.datasets:,} data sets: "
        f"{100 * np.sqrt(CONFIDENCE * (1 - CONFIDENCE) / args.datasets):.2f} points (pooled per-class rows are "
        "not independent: their error is larger than the count of rows suggests).",
        "",
    ]
    for group, quantities in GROUPS.items():
        lines += [f"## {group}", ""]
        for quantity in quantities:
            per_class = quantity in CLASS_SCORES
            title = f"### {quantity}" + (" (per class, pooled over classes)" if per_class else "")
            lines += [title, "", *quantity_table(records, chosen, methods, quantity), ""]
            if per_class:
                lines += [f"### {quantity} (smallest class only)", ""]
                lines += [*quantity_table(records, chosen, methods, quantity, smallest_only=True), ""]
            if quantity == "roc_auc_ovr_micro":
                lines += [
                    "The micro estimator also pairs each row's positive cell with its own negative cells (dependent "
                    "pairs, a share 1/n of all pairs: 1.7% at n = 60); the truth is for cells of distinct rows.",
                    "",
                ]
    return lines


def method_lines(records):
    """Which interval method each requested ``ci`` gave to which quantities."""
    lines = ["## Interval methods by ci", "", "| ci | interval method | quantities |", "|---|---|---|"]
    named = records.assign(interval_method=records["interval_method"].where(~_failed(records), "(failed call)"))
    for (ci, method), rows in named.groupby(["ci", "interval_method"], sort=False):
        lines.append(f"| {ci} | {method} | {', '.join(rows['quantity'].unique())} |")
    return [*lines, ""]


def failure_lines(records):
    """Each distinct error of a failed call to evaluate, with its number of data sets."""
    failed = records[_failed(records)].drop_duplicates(["scenario", "replicate", "ci"])
    counts = failed.groupby(["ci", "interval_method"]).size()
    return [f"Failed calls, ci={ci} ({count} data sets): {message}" for (ci, message), count in counts.items()]


def _failed(records):
    return records["interval_method"].str.startswith("error: ")


def warning_lines(records):
    calls = records.drop_duplicates(["scenario", "replicate", "ci"])
    warned = calls[calls["warnings"] > 0].groupby(["scenario", "ci"]).size()
    if warned.empty:
        return ["No call to evaluate warned.", ""]
    lines = ["## Calls to evaluate that warned", "", "| scenario | ci | data sets |", "|---|---|---|"]
    lines += [f"| {scenario} | {ci} | {count} |" for (scenario, ci), count in warned.items()]
    return [*lines, ""]


def scenario_lines(chosen, truths):
    lines = ["| scenario | class counts | largest:smallest | smallest class |", "|---|---|---|---|"]
    for scenario in chosen:
        counts = scenario.counts
        lines.append(
            f"| {scenario.name} | {'/'.join(map(str, counts))} | {max(counts) / min(counts):.2f} | {min(counts)} |"
        )
    errors = {
        key: max(t["monte_carlo_se"][key] for t in truths.values()) for key in ("pi", "top_2", "log_loss", "brier")
    }
    text = ", ".join(f"{key} {value:.1e}" for key, value in errors.items())
    return [*lines, "", f"Largest Monte Carlo standard error of a truth: {text}.", ""]


def combined_records(paths):
    """The records of several runs; a later run's rows replace an earlier one's of the same ``ci``."""
    combined = pd.DataFrame()
    for path in paths:
        records = pd.read_csv(path)
        kept = combined[~combined["ci"].isin(set(records["ci"]))] if len(combined) else combined
        combined = pd.concat([kept, records], ignore_index=True)
    return combined


# --------------------------------------------------------------------------- paired differences of accuracy

#: (name, n, p_A, p_B): rows where only model A is right with probability p_A, only B with p_B.
PAIRED_SCENARIOS = (
    ("all one way, n=60", 60, 0.10, 0.0),
    ("all one way, n=300", 300, 0.05, 0.0),
    ("all one way, n=14500 (shuttle)", 14500, 0.034, 0.0),
    ("4:1, n=60", 60, 0.08, 0.02),
    ("4:1, n=300", 300, 0.08, 0.02),
    ("4:1, n=3000", 3000, 0.04, 0.01),
    ("1:1, n=60", 60, 0.05, 0.05),
    ("1:1, n=300", 300, 0.05, 0.05),
    ("1:1, n=3000", 3000, 0.02, 0.02),
    ("rare, all one way, n=3000", 3000, 0.001, 0.0),
    ("rare, 1:1, n=3000", 3000, 0.0005, 0.0005),
    ("rare, 4:1, n=14500", 14500, 0.0004, 0.0001),
)
PAIRED_ENTROPY = 20_261_127


def conditional_interval(only_a, only_b, n, confidence=CONFIDENCE):
    """The interval compare_scores used before: Clopper-Pearson of only_a / discordant, scaled by discordant / n."""
    from scipy.stats import beta

    alpha, discordant = 1 - confidence, only_a + only_b
    if discordant == 0:
        most = 1 - (alpha / 2) ** (1 / n)
        return -most, most
    low = beta.ppf(alpha / 2, only_a, only_b + 1) if only_a else 0.0
    high = beta.ppf(1 - alpha / 2, only_a + 1, only_b) if only_b else 1.0
    share = discordant / n
    return share * (2 * low - 1), share * (2 * high - 1)


def wald_interval(only_a, only_b, n, confidence=CONFIDENCE):
    from scipy.stats import norm

    difference = (only_a - only_b) / n
    half = norm.ppf(0.5 + confidence / 2) * np.sqrt(max((only_a + only_b) / n - difference**2, 0.0) / n)
    return difference - half, difference + half


PAIRED_METHODS = {
    "Tango score (now)": paired_difference_interval,
    "conditional exact (before)": conditional_interval,
    "paired Wald": wald_interval,
}


def paired_study(datasets):
    """Markdown lines: coverage (%) and mean width of each method in each paired scenario."""
    header = "| scenario | p_A | p_B | " + " | ".join(f"{name}: coverage / width" for name in PAIRED_METHODS) + " |"
    lines = [header, "|" + "---|" * (3 + len(PAIRED_METHODS))]
    for index, (name, n, p_a, p_b) in enumerate(PAIRED_SCENARIOS):
        rng = np.random.default_rng([PAIRED_ENTROPY, index])
        tables = rng.multinomial(n, [p_a, p_b, 1 - p_a - p_b], size=datasets)[:, :2]
        unique, counts = np.unique(tables, axis=0, return_counts=True)
        cells = []
        for method in PAIRED_METHODS.values():
            bounds = np.array([method(int(a), int(b), n) for a, b in unique])
            covered = (bounds[:, 0] <= p_a - p_b) & (p_a - p_b <= bounds[:, 1])
            coverage = 100 * np.sum(counts * covered) / datasets
            width = np.sum(counts * (bounds[:, 1] - bounds[:, 0])) / datasets
            cells.append(f"{'**' if coverage < 93 else ''}{coverage:.1f}{'**' if coverage < 93 else ''} / {width:.4f}")
        lines.append(f"| {name} | {p_a:g} | {p_b:g} | " + " | ".join(cells) + " |")
    return lines


# --------------------------------------------------------------------------- per-class AUCs

CLASS_AUC_SIZES = (100, 1000, 10_000)
CLASS_AUC_ENTROPY = 20_261_127  # seeds of the per-class AUC data sets


def class_auc_study(datasets, separation=2.0):
    """Markdown lines: coverage (%) of ``roc_auc_interval(y, P, average=None)`` for each class's true OvR AUC.

    The data model of the main study (Dirichlet rows, fixed class counts); the
    true AUC of class k at the class counts is the counts-weighted mean of its
    pairwise AUCs against the other classes (``_truth.auc_truths``). Each
    scenario pools the intervals of every class (m per data set) and shows the
    smallest class's alone; bold: below 93%.
    """
    from _truth import auc_truths

    from polyroc.intervals import roc_auc_interval

    header = (
        "| scenario | rows per class | coverage, all classes | coverage, smallest class | mean width "
        "| NaN or zero width |"
    )
    lines = [header, "|---|---|---|---|---|---|"]
    for index, (n, m, mix) in enumerate((n, m, mix) for n in CLASS_AUC_SIZES for m in CLASS_NUMBERS for mix in MIXES):
        alphas, counts = separation_alphas(m, separation), class_counts(n, m, mix)
        truth = auc_truths(alphas, counts)["ovr_per_class"]
        rng = np.random.default_rng([CLASS_AUC_ENTROPY, index])
        covered, widths, odd = np.zeros((datasets, m), bool), np.zeros((datasets, m)), 0
        for replicate in range(datasets):
            y, P = simulate_data_set(alphas, counts, rng)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                per_class = roc_auc_interval(y, P, average=None)
            for k, interval in per_class.items():
                covered[replicate, k] = interval.low <= truth[k] <= interval.high
                widths[replicate, k] = interval.high - interval.low
                odd += bool(np.isnan(interval.low) or interval.low == interval.high)
        smallest = int(np.argmin(counts))
        cells = [100 * covered.mean(), 100 * covered[:, smallest].mean()]
        shown = [f"**{value:.1f}**" if value < 93 else f"{value:.1f}" for value in cells]
        name = f"n{n}-m{m}-{mix}"
        lines.append(
            f"| {name} | {counts.min()}–{counts.max()} | {shown[0]} | {shown[1]} | {widths.mean():.4f} | {odd} |"
        )
    return lines


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=1000, help="simulated data sets per scenario")
    parser.add_argument(
        "--paired", action="store_true", help="study the interval of a paired difference of accuracies instead"
    )
    parser.add_argument(
        "--per-class-auc", action="store_true", help="study the per-class AUC intervals (roc_auc_interval) instead"
    )
    parser.add_argument("--methods", default=",".join(METHODS), help="values of evaluate's ci, comma separated")
    parser.add_argument("--n-boot", type=int, default=1000, help="bootstrap replicates / posterior draws")
    parser.add_argument("--scenarios", default="", help="names like n60-m3-balanced, comma separated (default all)")
    parser.add_argument("--separation", type=float, default=2.0, help="s in Dirichlet(1 + s * one-hot(class))")
    parser.add_argument("--out", default=None, help="directory of the records (default: a new temporary directory)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes")
    parser.add_argument("--chunk", type=int, default=20, help="data sets per chunk of work")
    parser.add_argument("--truth-draws", type=int, default=10**7, help="Monte Carlo rows per class of the truths")
    parser.add_argument(
        "--records",
        nargs="+",
        default=None,
        help="print the tables of earlier runs' records.csv.gz instead of simulating; a later file's rows replace "
        "an earlier one's of the same ci (e.g. a rerun of auto beside the first run's bootstrap)",
    )
    parser.add_argument(
        "--truth-cache",
        default=str(Path(tempfile.gettempdir()) / "polyroc-coverage-truths.json"),
        help="JSON cache of the Monte Carlo truths",
    )
    return parser.parse_args()


def main():
    if "--calibration" in sys.argv[1:]:  # the ECEs' study: its own options (coverage_calibration.py)
        import coverage_calibration

        return coverage_calibration.main(sys.argv[1:])
    if "--costs" in sys.argv[1:]:  # the expected cost and the metrics at target priors (coverage_costs.py)
        import coverage_costs

        return coverage_costs.main(sys.argv[1:])
    started = time.perf_counter()
    args = parse_arguments()
    if args.paired:
        print(f"# Coverage of the {100 * CONFIDENCE:g}% interval of a paired difference of accuracies")
        print(f"({args.datasets:,} data sets per scenario; bold: below 93%)\n")
        print("\n".join(paired_study(args.datasets)))
        print(f"\nTotal wall time: {time.perf_counter() - started:,.0f} s")
        return 0
    if args.per_class_auc:
        print(f"# Coverage of the {100 * CONFIDENCE:g}% per-class DeLong interval of the one-vs-rest AUC")
        print(f"({args.datasets:,} data sets per scenario, separation s = {args.separation:g}; bold: below 93%)\n")
        print("\n".join(class_auc_study(args.datasets, args.separation)))
        print(f"\nTotal wall time: {time.perf_counter() - started:,.0f} s")
        return 0
    methods = [method.strip() for method in args.methods.split(",") if method.strip()]
    chosen = scenarios([name.strip() for name in args.scenarios.split(",") if name.strip()])
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="polyroc-coverage-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"# Coverage of polyroc.evaluate's intervals (separation s = {args.separation:g}, B = {args.n_boot})\n")
    # worker processes start single-threaded (numpy's BLAS, polyroc's chunk_map); one data set per process at a time
    for variable in ("POLYROC_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    if args.records:
        records = combined_records(args.records)
        methods = [method for method in methods if method in set(records["ci"])]
        lines = [*report_lines(records, chosen, methods, args), *method_lines(records), *warning_lines(records)]
        print("\n".join(lines))
        (out / "summary.md").write_text("\n".join(lines) + "\n")
        return 0
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.workers, initializer=_single_threaded_worker) as pool:
        truths = load_truths(chosen, args.separation, args.truth_draws, Path(args.truth_cache), pool)
        print("", *scenario_lines(chosen, truths), sep="\n")
        print(f"Running {args.datasets:,} data sets x {len(chosen)} scenarios x methods {methods} ...", flush=True)
        records = run_study(chosen, truths, args, methods, pool)
    records.to_csv(out / "records.csv.gz", index=False)
    (out / "truths.json").write_text(json.dumps(truths, indent=1))
    lines = ["", *report_lines(records, chosen, methods, args), *method_lines(records), *warning_lines(records)]
    lines += failure_lines(records)
    print("\n".join(lines))
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    print(f"\nRecords: {out / 'records.csv.gz'} (summary.md, truths.json next to it)")
    print(f"Total wall time: {time.perf_counter() - started:,.0f} s")


if __name__ == "__main__":
    sys.exit(main())
