"""The ``polyroc`` command line.

Every error in the input or the options is one line on standard error,
``polyroc COMMAND: error: ...`` naming the file (with its line and column where
one applies) or the option, with exit code 2 and nothing written. Outputs
(``--out``) are checked and locked before any work and written as
:mod:`polyroc.io` writes them: never over a file polyroc did not write, always
the complete old or the complete new output. Ctrl-C (SIGINT), SIGTERM and
SIGHUP stop a command with one line and exit code 128 + the signal number
(130, 143, 129), leaving the output as it was (or complete, when the signal came
while it was being written); each distinct warning is one line, shown once.

Progress goes to standard error: on a terminal, a bar per step whose count and
time left follow the work units of the running task (bootstrap replicates,
lattice chunks, ...); elsewhere (a log file, a pipe), ``report`` and ``demo``
write a timestamped line as each step starts and at most one line every ten
seconds within a step. ``--quiet`` leaves standard error to errors alone.

Nothing heavy (numpy, scikit-learn, matplotlib) is imported until a
subcommand runs, so ``polyroc --help`` answers at once.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import re
import signal
import sys
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from polyroc._interval_plan import CI_CHOICES, CI_OPTIONS
from polyroc._stopping import Stopped, disarm, stopping_on_signals
from polyroc._text import count_noun
from polyroc._version import __version__

if TYPE_CHECKING:
    import numpy as np

EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 128 + 13


def _stop_message(stop, outputs):
    """``interrupted by SIGINT; --out r left as it was`` (``outputs``: the OutputFile/OutputDirectory opened)."""
    text = stop.reason
    written = [out.label for out in outputs if out.written]
    untouched = [out.label for out in outputs if not out.written]
    if written:
        text += f" after writing {', '.join(written)}"
    if untouched:
        text += f"; {', '.join(untouched)} left as it was"
    return text


def glass_holdout_scores(random_state: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scores of a logistic regression on a stratified 30% test split of the glass data.

    Parameters
    ----------
    random_state : int, default=0
        Seed of the split (the command line's ``--random-state``).

    Returns
    -------
    y_test : ndarray of shape (65,)
        True labels of the test rows.
    probabilities : ndarray of shape (65, 6)
        The model's probabilities, columns in ``classes`` order.
    classes : ndarray of shape (6,)
        The class labels.

    Raises
    ------
    ValueError, TypeError
        As :func:`sklearn.model_selection.train_test_split` for a bad seed.

    Examples
    --------
    >>> y, P, classes = glass_holdout_scores(0)
    >>> P.shape, classes.tolist()
    ((65, 6), ['1', '2', '3', '5', '6', '7'])
    """
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from polyroc.datasets import load_glass

    glass = load_glass()
    X_train, X_test, y_train, y_test = train_test_split(
        glass.data, glass.target, test_size=0.3, stratify=glass.target, random_state=random_state
    )
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
    model.fit(X_train, y_train)
    return y_test, model.predict_proba(X_test), model.classes_


@contextmanager
def _blamed_on(source):
    """Name ``source`` (the file the data came from) in a ValueError or TypeError of the block."""
    try:
        yield
    except (ValueError, TypeError) as error:
        raise (TypeError if isinstance(error, TypeError) else ValueError)(f"{source}: {error}") from None


def _output(args, output):
    """Record ``output`` (an OutputFile or OutputDirectory, not yet opened) for the closing message; return it."""
    args.outputs.append(output)
    return output


# --------------------------------------------------------------------------- progress


def _clock():
    return time.strftime("%Y-%m-%d %H:%M:%S")


def _duration(seconds):
    """``45 s``, ``3 min 20 s``, ``1 h 05 min``."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class _Display:
    """Progress on standard error: ``"bars"`` (tqdm, on a terminal), ``"lines"`` (timestamped) or ``None``.

    :meth:`step` is the ``progress(description, done, total)`` callback of
    :func:`polyroc.report.build_report`; :meth:`task` is the listener of
    :mod:`polyroc._progress`, called as the library's loops advance.
    """

    #: Seconds between two task lines (the "lines" mode).
    LINE_INTERVAL = 10.0

    def __init__(self, mode, transient=False):
        self.mode = mode
        self.transient = transient
        self.bar = None
        self.label = ""
        self.task_name = None
        self.task_start = 0.0
        self.last_line = 0.0

    def step(self, description, done=None, total=None):
        self.label = description if done is None else f"[{done + 1}/{total}] {description}"
        self.task_name = None
        if self.mode == "bars":
            self._close_bar()
            from tqdm import tqdm

            self.bar = tqdm(
                desc=self.label, total=None, unit="", file=sys.stderr, leave=not self.transient, dynamic_ncols=True
            )
        elif self.mode == "lines":
            self._line(self.label)

    def task(self, name, done, total):
        new = name != self.task_name or (self.bar is not None and done < self.bar.n)
        if new:
            self.task_name, self.task_start = name, time.monotonic()
        if self.mode == "bars" and self.bar is not None:
            if new or self.bar.total != total:
                self.bar.set_postfix_str(name, refresh=False)
                self.bar.reset(total=total)
            self.bar.update(done - self.bar.n)
        elif self.mode == "lines" and 0 < done < total and time.monotonic() - self.last_line >= self.LINE_INTERVAL:
            elapsed = time.monotonic() - self.task_start
            left = elapsed * (total - done) / done
            self._line(f"{self.label}: {name} {done}/{total} ({100 * done // total}%), about {_duration(left)} left")

    def _line(self, text):
        self.last_line = time.monotonic()
        _say(f"{_clock()} {text}")

    def _close_bar(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def write(self, text):
        """Print a line on standard error without breaking a bar."""
        if self.bar is not None:
            self.bar.write(text, file=sys.stderr)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self):
        self._close_bar()


#: The display of the running command (``_say`` prints through it, so a message never cuts a bar in two).
_DISPLAY = None


@contextmanager
def _showing_progress(args, lines=False):
    """Show the progress of the block's work; ``lines``: also when standard error is not a terminal."""
    from polyroc._progress import listening

    global _DISPLAY
    mode = None
    if not args.quiet:
        terminal = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        mode = "bars" if terminal else ("lines" if lines else None)
    display = _Display(mode, transient=not lines)
    _DISPLAY = display
    try:
        with listening(display.task if mode else None):
            yield display
    finally:
        display.close()
        _DISPLAY = None


def _note(args, text):
    """A remark about the input, on standard error unless ``--quiet``."""
    if not args.quiet:
        _say(f"polyroc {args.command}: note: {text}")


# --------------------------------------------------------------------------- reading scores


def _read_table(args, path, *, classes=None, label_col="option", display=None):
    """The score file ``path`` read with the column options; ``classes``: the score columns the file must have."""
    from polyroc.io import read_scores

    if display is not None:
        display.step(f"reading {path}")
    table = read_scores(
        path,
        label_col=args.label_col if label_col == "option" else label_col,
        id_col=args.id_col or None,  # --id-col "": no id column, an unnamed first column is still no score
        weight_col=getattr(args, "weight_col", None),
        score_columns=classes if classes is not None else args.score_cols,
        score_prefix=args.score_prefix,
    )
    if table.ignored_columns:
        _note(
            args,
            f"{path}: columns {list(table.ignored_columns)} (named by no label of column {args.label_col!r}, "
            "holding text or distinct whole numbers) were not read as scores; --id-col names an id column, "
            "--score-cols lists the score columns",
        )
    return table


_PROBABILITY_HINTS = (
    (
        "pass normalize_rows=True to rescale them or from_logits=True for logits",
        "add --normalize to rescale them (e.g. rounded probabilities) or --from-logits if they are logits",
    ),
    ("(pass from_logits=True for logits)", "(add --from-logits if they are logits)"),
    ("(normalize_rows=True)", "(--normalize)"),
    ("y_score", "the scores"),
)


def _probabilities(args, table):
    """The scores of ``table`` as probabilities (``--normalize``, ``--from-logits``); errors name the flags."""
    from polyroc._validation import check_score_matrix

    try:
        return check_score_matrix(
            table.y_score, normalize_rows=args.normalize, from_logits=args.from_logits, transform_options=True
        )
    except ValueError as error:
        text = str(error)
        for python, flags in _PROBABILITY_HINTS:
            text = text.replace(python, flags)
        text = re.sub(r"\brow (\d+)", lambda match: table.where(int(match.group(1))), text)
        if table.ignored_columns and "sum to 1" in text:
            text += (
                f"; columns {list(table.ignored_columns)} were not read as scores: if they are "
                "classes, list every score column with --score-cols"
            )
        raise ValueError(f"{table.source}: {text}") from None


# --------------------------------------------------------------------------- evaluate, tune, apply, metrics


def _evaluate(args):
    from polyroc.evaluation import evaluate

    if args.engine == "dask":
        return _evaluate_on_dask(args)
    if args.scheduler is not None or args.workers is not None:
        raise ValueError("--scheduler and --workers need --engine dask")
    with _showing_progress(args) as display:
        if args.scores is None:
            display.step("fitting the glass model")
            y_true, y_score, classes = glass_holdout_scores(args.random_state)
            sample_weight = None
            source = "the bundled glass data"
            title = (
                "polyroc evaluate: bundled UCI glass data, logistic regression, "
                f"stratified 70/30 split (random_state={args.random_state}), {len(y_true)} test rows"
            )
        else:
            table = _read_table(args, args.scores, display=display)
            source, sample_weight = table.source, table.sample_weight
            classes, y_true, (y_score,) = _in_class_order(table.classes, table.y_true, [_probabilities(args, table)])
            title = f"polyroc evaluate: {table.source}, {len(y_true)} rows, {len(classes)} classes"
        display.step("evaluating")
        with _blamed_on(source):
            result = evaluate(
                y_true,
                y_score,
                labels=classes,
                sample_weight=sample_weight,
                ci=args.ci,
                n_boot=args.n_boot,
                random_state=args.random_state,
            )
    print(title, end="\n\n")
    print(result.to_text())


def _dask_modules():
    try:
        import distributed

        import polyroc.dask
    except ImportError:
        raise ValueError("--engine dask needs dask: pip install 'polyroc[dask]'") from None
    return distributed, polyroc.dask


@contextmanager
def _dask_cluster(args):
    """A client of the --scheduler, or of a local cluster of --workers processes closed afterwards."""
    import logging

    distributed, _ = _dask_modules()
    if args.scheduler is not None and args.workers is not None:
        raise ValueError("--workers sizes a local cluster; it cannot be given with --scheduler")
    with contextlib.ExitStack() as stack:
        if args.scheduler is not None:
            stack.enter_context(distributed.Client(args.scheduler))
        else:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=args.workers or os.cpu_count() or 1,
                    threads_per_worker=1,
                    dashboard_address=":0",
                    silence_logs=logging.ERROR,
                )
            )
            stack.enter_context(distributed.Client(cluster))
        yield


def _score_frame(args, pattern):
    """The files of ``pattern`` as a dask frame, and its score columns (every column but the roles)."""
    if args.score_prefix is not None:
        raise ValueError("--score-prefix is not supported with --engine dask; list the columns with --score-cols")
    _, dask_api = _dask_modules()
    text_cols = (args.id_col,) if args.id_col else ()
    frame = dask_api.read_score_files(pattern, label_col=args.label_col, text_cols=text_cols)
    roles = {args.label_col, getattr(args, "weight_col", None), args.id_col}
    return frame, args.score_cols or [name for name in frame.columns if name not in roles]


def _dask_options(args, score_cols):
    return {
        "label_col": args.label_col,
        "score_cols": score_cols,
        "sample_weight_col": getattr(args, "weight_col", None),
        "normalize_rows": args.normalize,
        "from_logits": args.from_logits,
    }


def _evaluate_on_dask(args):
    """``polyroc evaluate --engine dask``: the score files (a glob) evaluated on a dask cluster."""
    _, dask_api = _dask_modules()
    if args.scores is None:
        raise ValueError("--engine dask needs --scores: a score file or a glob of them (e.g. 'parts/*.parquet')")
    frame, score_cols = _score_frame(args, args.scores)
    with _dask_cluster(args), _showing_progress(args) as display:
        display.step(f"evaluating {count_noun(frame.npartitions, 'file')} on dask")
        result = dask_api.evaluate(
            frame,
            **_dask_options(args, score_cols),
            ci=args.ci,
            n_boot=args.n_boot,
            random_state=args.random_state,
        )
    print(
        f"polyroc evaluate: {args.scores}, {count_noun(frame.npartitions, 'file')}, "
        f"{count_noun(len(score_cols), 'class')}, engine dask"
    )
    print()
    print(result.to_text())


def _report_on_dask(args, display):
    """``polyroc report --engine dask``: exact metrics of every row, the other sections on a stratified sample."""
    import numpy as np

    _, dask_api = _dask_modules()
    if args.id_col:
        raise ValueError(
            '--id-col NAME is not supported with --engine dask, which matches no ids: pass --id-col "" to pair '
            "the rows of the models' files by position (they must hold the same rows in the same order)"
        )
    for option in ("--scores", "--val"):
        if args.id_col is None and len(_named_paths(option, getattr(args, option[2:]) or [])) > 1:
            raise ValueError(
                f'{option}: --engine dask pairs the rows of several models\' files by position; pass --id-col "" '
                "to say so (the files must hold the same rows in the same order), or use the in-memory engine, "
                "which matches rows by the index pandas writes or by --id-col NAME"
            )
    sample_options = {"rows_per_class": args.sample_rows, "seed": args.random_state}
    evaluations, samples, val_samples = {}, {}, {}
    with _dask_cluster(args):
        for name, pattern in _named_paths("--scores", args.scores).items():
            frame, score_cols = _score_frame(args, pattern)
            display.step(f"{name}: exact metrics on dask ({count_noun(frame.npartitions, 'file')})")
            options = _dask_options(args, score_cols)
            evaluations[name] = dask_api.evaluate(
                frame, **options, ci=args.ci, n_boot=args.n_boot, random_state=args.random_state
            )
            display.step(f"{name}: gathering a sample of the rows")
            samples[name] = dask_api.sample_rows(frame, **_sample_columns(options), **sample_options)
        for name, pattern in _named_paths("--val", args.val or []).items():
            frame, score_cols = _score_frame(args, pattern)
            display.step(f"{name}: gathering a sample of the validation rows")
            val_samples[name] = dask_api.sample_rows(
                frame, **_sample_columns(_dask_options(args, score_cols)), **sample_options
            )
    first = next(iter(samples.values()))
    for name, sample in [*samples.items(), *val_samples.items()]:
        reference = first if name in samples else next(iter(val_samples.values()))
        if not np.array_equal(sample.row_ids, reference.row_ids) or not np.array_equal(sample.y_true, reference.y_true):
            raise ValueError(f"{name}: its labels differ from the first model's; the models must score the same rows")
    exact = next(iter(evaluations.values()))
    population = {
        "n_samples": int(first.class_rows.sum()),
        "class_counts": {str(c): int(n) for c, n in zip(first.classes, first.class_rows)},
        "class_weights": None
        if getattr(args, "weight_col", None) is None
        else {str(c): float(exact.report[str(c)]["support"]) for c in first.classes},
    }
    note = (
        f"The metrics (and their intervals) cover all {population['n_samples']:,} test rows, computed exactly on "
        f"dask. Every other section uses a class-stratified sample of {first.y_true.size:,} rows (up to "
        f"{args.sample_rows:,} per class, every row of a smaller class), each row weighted by the inverse of its "
        "class's sampling rate."
    )
    val = next(iter(val_samples.values()), None)
    return {
        "y_true": first.y_true,
        "y_score": {name: sample.y_score for name, sample in samples.items()},
        "y_val": None if val is None else val.y_true,
        "val_scores": None
        if val is None
        else _paired_models({name: sample.y_score for name, sample in val_samples.items()}, samples),
        "labels": first.classes,
        "sample_weight": first.sample_weight,
        "val_sample_weight": None if val is None else val.sample_weight,
        "evaluations": evaluations,
        "population": population,
        "notes": [note],
    }


def _sample_columns(options):
    return {key: options[key] for key in ("label_col", "score_cols", "sample_weight_col")}


def _in_class_order(names, labels, score_matrices):
    """Classes typed and ordered by the class-name rule, ``labels`` as those classes, columns in their order."""
    from polyroc._class_names import class_order

    rule = class_order(names)
    labels = None if labels is None else rule.labels(labels)
    return rule.classes, labels, [scores[:, rule.order] for scores in score_matrices]


def _equals_argmax(result):
    """Whether tau* is the argmax rule (``TuningResult.equals_argmax``; equal thresholds are)."""
    known = getattr(result, "equals_argmax", None)
    if known is not None:
        return bool(known)
    threshold = [float(t) for t in result.best_threshold]
    return max(threshold) == min(threshold)


def _tuning_summary(result):
    """The search actually run, and whether tau* is argmax, in plain words."""
    settings = getattr(result, "settings", {}) or {}
    search = settings.get("search", getattr(result, "search", None))
    resolution = settings.get("resolution", getattr(result, "resolution", None))
    parts = [f"search {search}"]
    if resolution is not None:
        parts.append(f"resolution {resolution}")
    if getattr(result, "n_samples", None) is not None:
        parts.append(count_noun(result.n_samples, "random threshold"))
    if getattr(result, "n_thresholds", None) is not None:
        parts.append(f"{count_noun(result.n_thresholds, 'threshold')} scored")
    parts.append(f"domain {result.domain}")
    lines = [", ".join(parts)]
    if _equals_argmax(result):
        lines.append("tau* is the argmax rule: no threshold scored better than argmax on these scores")
    return lines


def _tune(args):
    from polyroc._outputs import OutputFile
    from polyroc.io import write_thresholds
    from polyroc.thresholds import tune_thresholds

    with _output(args, OutputFile(args.out, inputs={"--scores": args.scores}, option="--out")) as out:
        with _showing_progress(args) as display:
            table = _read_table(args, args.scores, display=display)
            classes, y_true, (y_score,) = _in_class_order(table.classes, table.y_true, [_probabilities(args, table)])
            display.step(f"tuning {args.metric} by {args.search} search")
            with _blamed_on(table.source):
                result = tune_thresholds(
                    y_true,
                    y_score,
                    metric=args.metric,
                    labels=classes,
                    search=args.search,
                    resolution=args.resolution,
                    n_samples=args.n_samples,
                    domain=args.domain,
                    sample_weight=table.sample_weight,
                    random_state=args.random_state,
                )
        write_thresholds(out, result)
    print(
        f"tuned {result.metric} on {table.source}: {result.best_score:.6f} "
        f"(argmax {result.argmax_score:.6f}); tau* written to {args.out}"
    )
    for line in _tuning_summary(result):
        print(f"  {line}")


def _apply(args):
    from polyroc._outputs import OutputFile
    from polyroc.io import read_thresholds, write_predictions
    from polyroc.thresholds import apply_thresholds

    inputs = {"--scores": args.scores, "--tau": args.tau}
    with _output(args, OutputFile(args.out, inputs=inputs, option="--out")) as out:
        tau = read_thresholds(args.tau)
        with _showing_progress(args) as display:
            table = _read_labelled_if_possible(args, tau["classes"], display)
            y_score = _probabilities(args, table)
        with _blamed_on(table.source):
            predictions = apply_thresholds(y_score, tau["threshold"], domain=tau["domain"], labels=table.classes)
            scores = _applied_scores(table, y_score, tau)
        write_predictions(out, predictions, ids=table.ids)
    print(f"{len(predictions)} predictions written to {args.out}")
    if scores is not None:
        print(f"  {tau['metric']} on {table.source}: {scores[0]:.6f} (argmax {scores[1]:.6f})")


def _read_labelled_if_possible(args, classes, display):
    """The score file of ``apply``, with its labels when it has the label column (``--label-col``, default label)."""
    name = args.label_col or "label"
    try:
        return _read_table(args, args.scores, classes=classes, label_col=name, display=display)
    except ValueError as error:
        if args.label_col is not None or f"no label column {name!r}" not in str(error):
            raise
    return _read_table(args, args.scores, classes=classes, label_col=None)


def _applied_scores(table, y_score, tau):
    """(tuned rule, argmax) scores of the metric ``tau`` was tuned for, as ``tune`` scores them.

    None without labels, or when ``tau`` names no metric of ``polyroc metrics``
    (a custom metric of the library). Labels outside the classes of ``tau``
    are an error, as in ``tune``.
    """
    import numpy as np

    from polyroc._validation import check_scores, with_scaled_weights
    from polyroc.counts import METRICS
    from polyroc.thresholds.search import argmax_score, checked_metric, score_at

    if table.y_true is None or tau.get("metric") not in METRICS:
        return None
    targets = with_scaled_weights(
        check_scores(table.y_true, y_score, labels=list(table.classes), sample_weight=table.sample_weight)
    )
    objective = checked_metric(tau["metric"])
    threshold = np.asarray(tau["threshold"], dtype=np.float64)
    return score_at(targets, threshold, objective), argmax_score(targets, objective)


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


def _metrics(args):
    from polyroc.counts import METRICS

    width = max(map(len, METRICS))
    print(f"metrics for --metric (tune, report; default {_DEFAULT_METRIC}); higher is better:")
    for name in METRICS:
        print(f"  {name:{width}s}  {_metric_description(name, METRICS)}".rstrip())


# --------------------------------------------------------------------------- report, demo


def _named_paths(option, values):
    """``[NAME=]PATH`` arguments as ``{name: path}``; the name defaults to the file's stem.

    A value that is the path of an existing file is a PATH even if it holds ``=``.
    """
    from polyroc.report._inputs import check_model_name

    named = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator or Path(value).is_file():
            name, path = Path(value).stem, value
        if not name or not path:
            raise ValueError(f"{option} {value!r}: expected PATH or NAME=PATH")
        check_model_name(option, name)
        if name in named:
            raise ValueError(f"{option}: model name {name!r} given twice; name the files with NAME=PATH")
        named[name] = path
    return named


def _read_like(args, path, classes, option, display):
    """A score file of the classes ``classes`` (names, in any column order), its columns put in that order."""
    from dataclasses import replace

    from polyroc._class_names import column_order, same_classes

    table = _read_table(args, path, display=display)
    if classes is None or table.classes == tuple(classes):
        return table
    if same_classes(table.classes, classes):
        order = column_order(table.classes, classes)
        return replace(table, y_score=table.y_score[:, order], classes=tuple(classes))
    if set(table.classes) < set(classes) and set(classes) - set(table.classes) <= set(table.ignored_columns):
        return _read_table(args, path, classes=list(classes))  # classes with no row in this file
    first = "--scores" if option == "--val" else f"the first {option} file's"
    raise ValueError(
        f"{path}: {option} score columns {sorted(table.classes)} are not the classes of {first} {sorted(classes)}"
    )


def _aligned(args, tables, option):
    """(labels, scores, weights) of each table, rows in the first table's order (see :mod:`polyroc._row_ids`)."""
    from polyroc._row_ids import row_orders

    orders = row_orders([table.ids for table in tables], [table.source for table in tables], args.id_col, option)
    rows = []
    for table, order in zip(tables, orders):
        scores = _probabilities(args, table)
        labels, weights = table.y_true, table.sample_weight
        if order is not None:
            scores, labels = scores[order], labels[order]
            weights = None if weights is None else weights[order]
        rows.append((labels, scores, weights))
    return rows


def _read_split(args, option, values, display, classes=None):
    """Read the score files of one split; return (labels, {name: scores}, classes, sample weights).

    The files of a split must agree on their classes, labels and weights (the
    models are scored on the same rows); with ``--id-col`` their rows are
    matched by id, else by position.
    """
    import numpy as np

    paths = _named_paths(option, values)
    tables = []
    for path in paths.values():
        table = _read_like(args, path, classes, option, display)
        classes = table.classes if classes is None else tuple(classes)
        tables.append(table)
    labels = weights = None
    scores = {}
    for (name, path), (these_labels, these_scores, these_weights) in zip(paths.items(), _aligned(args, tables, option)):
        for column, first, this in ((args.label_col, labels, these_labels), (args.weight_col, weights, these_weights)):
            if scores and not np.array_equal(first, this):
                raise ValueError(
                    f"{path}: its {column!r} column differs from the first {option} file's; "
                    "the models of a report must be scored on the same rows"
                    + (
                        ' (--id-col "" paired the rows by position; --id-col NAME matches them by id)'
                        if args.id_col == ""
                        else ""
                    )
                )
        labels, weights, scores[name] = these_labels, these_weights, these_scores
    classes, labels, matrices = _in_class_order(classes, labels, list(scores.values()))
    return labels, dict(zip(scores, matrices)), classes, weights


def _report_output(args):
    """The report directory ``--out``, opened (checked and locked) before any work."""
    from polyroc._outputs import OutputDirectory
    from polyroc.report._document import REPORT_PATHS

    return _output(args, OutputDirectory(args.out, reserved=REPORT_PATHS, option="--out"))


def _write_report(args, out, display, *, title, source, notes=(), **inputs):
    from polyroc.report import build_report

    report = build_report(
        **inputs,
        metric=args.metric,
        ci=args.ci,
        n_boot=args.n_boot,
        random_state=args.random_state,
        title=title,
        source=source,
        notes=notes,
        progress=display.step,
    )
    display.step("writing the report")
    report.write(out)
    return report


def _estimate(record, path):
    """``record[path[0]][path[1]]...["estimate"]`` as the report writes it, or "-" where a section was skipped."""
    from polyroc.report._readings import format_number

    for key in path:
        if record is None:
            return "-"
        record = record[key]
    return "-" if record is None else format_number(record["estimate"])


def _print_report_summary(report, out):
    """Where the report went, then a line per model led by the quantity the report's headline ranks by."""
    from polyroc.report._readings import format_number, ranking_values

    print(f"report written to {out / 'report.html'} (numbers in {out / 'results.json'})")
    metric, _, values = ranking_values(report.results)
    for name, model in report.results["models"].items():
        metrics = model["metrics"]
        leading = [f"{metric} {format_number(values[name])}"]
        leading += [
            f"{label} {_estimate(metrics, ('intervals', key))}"
            for key, label in (("accuracy", "accuracy"), ("f1_macro", "macro-F1"))
            if key != metric
        ]
        line = f"  {name}: {', '.join(leading)}, D {_estimate(model['dmf'], ('ci',))}"
        if model["tuning"] is not None:
            difference = model["tuning"]["test_scores"]["differences"]["tuned"]
            line += (
                f"; tuned - argmax {model['tuning']['comparison']['metric']} on test "
                f"{difference['estimate']:+.3f} [{difference['low']:+.3f}, {difference['high']:+.3f}]"
            )
        print(line)


def _paired_models(val_scores, y_score):
    """``val_scores`` keyed by the ``--scores`` model names: by name, else by position (file stems may differ)."""
    if set(val_scores) == set(y_score):
        return val_scores
    if len(val_scores) != len(y_score):
        raise ValueError(f"--val names models {sorted(val_scores)} but --scores names {sorted(y_score)}")
    return dict(zip(y_score, val_scores.values()))


def _report_inputs(args, display):
    """Labels, scores, classes and weights of the --scores (and --val) files, as build_report's arguments."""
    y_true, y_score, classes, sample_weight = _read_split(args, "--scores", args.scores, display)
    y_val = val_scores = val_sample_weight = None
    if args.val:
        names = [str(c) for c in classes]
        y_val, val_scores, _, val_sample_weight = _read_split(args, "--val", args.val, display, names)
        val_scores = _paired_models(val_scores, y_score)
    return {
        "y_true": y_true,
        "y_score": y_score,
        "y_val": y_val,
        "val_scores": val_scores,
        "labels": classes,
        "sample_weight": sample_weight,
        "val_sample_weight": val_sample_weight,
    }


def _report(args):
    if args.engine != "dask" and (args.scheduler is not None or args.workers is not None):
        raise ValueError("--scheduler and --workers need --engine dask")
    with _report_output(args) as out, _showing_progress(args, lines=True) as display:
        inputs = _report_on_dask(args, display) if args.engine == "dask" else _report_inputs(args, display)
        report = _write_report(args, out, display, title="polyroc report", source=", ".join(args.scores), **inputs)
    _print_report_summary(report, out.path)


def _demo(args):
    from polyroc.datasets._demo import glass_demo_scores

    with _report_output(args) as out, _showing_progress(args, lines=True) as display:
        display.step("fitting the demo models")
        demo = glass_demo_scores(args.random_state)
        report = _write_report(
            args,
            out,
            display,
            title="polyroc demo: imbalanced glass identification",
            source=demo.source,
            y_true=demo.y_test,
            y_score=demo.test_scores,
            y_val=demo.y_val,
            val_scores=demo.val_scores,
            labels=demo.classes,
            notes=demo.notes,
        )
    _print_report_summary(report, out.path)


# --------------------------------------------------------------------------- the parser

_DEFAULT_METRIC = "f1_macro"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block) and exit code 2."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _HelpFormatter(argparse.HelpFormatter):
    """Every option's help ends with its default: the value, ``off`` for a flag, or words written in the help."""

    def _get_help_string(self, action):
        text = action.help or ""
        if not action.option_strings or action.default is argparse.SUPPRESS or "(default" in text:
            return text
        if action.nargs == 0:
            return f"{text} (default: off)"
        return f"{text} (default: %(default)s)"


class _Once(argparse.Action):
    """Store an option's value, refusing the option a second time (argparse would keep the last)."""

    def __call__(self, parser, namespace, values, option_string=None):
        given = namespace.__dict__.setdefault("_given_options", set())
        if self.dest in given:
            raise argparse.ArgumentError(self, f"given twice (the second time as {values!r}); give it once")
        given.add(self.dest)
        setattr(namespace, self.dest, values)


def _integer_at_least(minimum, expected):
    """An argparse type: an integer >= ``minimum``, else an error saying what was ``expected``."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value}")
        return value

    return parse


_positive_int = _integer_at_least(1, "an integer >= 1")
_seed = _integer_at_least(0, "a non-negative integer seed")


def _metric(text):
    from polyroc.counts import get_metric

    try:
        get_metric(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error} (polyroc metrics lists them)") from None
    return text


def _path(text):
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a path, got an empty string")
    return text


def _column_list(text):
    names = [name.strip() for name in text.split(",")]
    if len(names) < 2 or not all(names):
        raise argparse.ArgumentTypeError(f"expected at least 2 column names separated by commas, got {text!r}")
    return names


def _add_quiet_option(parser):
    parser.add_argument(
        "-q",
        "--quiet",
        "--no-progress",
        dest="quiet",
        action="store_true",
        help="print nothing on standard error but errors: no progress, notes or warnings",
    )


def _add_metric_option(parser, purpose):
    parser.add_argument(
        "--metric", action=_Once, type=_metric, default=_DEFAULT_METRIC, help=f"{purpose}; see polyroc metrics"
    )


def _add_report_options(parser, out_default=None):
    parser.add_argument(
        "--out",
        metavar="DIR",
        action=_Once,
        type=_path,
        required=out_default is None,
        default=out_default,
        help="directory to write report.html, results.json and figures/ into: a new or empty "
        "directory, or one holding an earlier report" + ("" if out_default else " (default: none, required)"),
    )
    _add_metric_option(parser, "metric the thresholds are tuned for")
    _add_interval_options(parser)
    parser.add_argument("--random-state", action=_Once, type=_seed, default=0, help="seed of every resampling")
    _add_quiet_option(parser)


def _add_interval_options(parser, *, allow_none=False):
    """``--ci`` and ``--n-boot``: how the metrics' intervals are made."""
    choices = list(CI_CHOICES if allow_none else CI_OPTIONS)
    parser.add_argument(
        "--ci",
        action=_Once,
        default="auto",
        choices=choices,
        help="how the metrics' intervals are made. auto: Wilson for accuracy and recall, DeLong for AUCs, a "
        "Dirichlet posterior of the confusion matrix for precision, F1, kappa and MCC, a t interval for "
        "log loss and Brier score; analytic: the same; bayes: the posterior for accuracy and recall too; "
        "bootstrap: a stratified percentile bootstrap for all" + ("; none: no intervals" if allow_none else ""),
    )
    parser.add_argument(
        "--n-boot",
        action=_Once,
        type=_positive_int,
        default=1000,
        help="bootstrap replicates (and posterior draws) of the intervals that use them",
    )


def _add_engine_options(parser):
    """``--engine``, ``--scheduler`` and ``--workers``: where the scores are evaluated."""
    parser.add_argument(
        "--engine",
        action=_Once,
        choices=["memory", "dask"],
        default="memory",
        help="memory: read the files into memory; dask: read the files (--scores may be a glob) on a dask "
        "cluster and evaluate them without gathering the rows (needs polyroc[dask])",
    )
    parser.add_argument(
        "--scheduler",
        action=_Once,
        metavar="ADDRESS",
        default=None,
        help="with --engine dask: address of a running dask scheduler (default: start a local cluster)",
    )
    parser.add_argument(
        "--workers",
        action=_Once,
        type=_positive_int,
        default=None,
        help="with --engine dask and no --scheduler: worker processes of the local cluster (default: one per core)",
    )


def _add_input_options(parser, labels=True, weights=True):
    """The options naming the columns of a score file, and those turning its scores into probabilities."""
    if labels:
        parser.add_argument("--label-col", action=_Once, default="label", help="name of the true-label column")
    parser.add_argument(
        "--id-col",
        action=_Once,
        default=None,
        help="name of an id column, never a score, by which report matches the rows of several models' files "
        '(default: an unnamed first column, as pandas writes its index); --id-col "": no id column, the rows '
        "of several files are paired by position",
    )
    if weights:
        parser.add_argument(
            "--weight-col",
            action=_Once,
            default=None,
            help="name of a column of sample weights (non-negative, relative importance) (default: unweighted)",
        )
    parser.add_argument(
        "--score-cols",
        metavar="A,B,...",
        action=_Once,
        type=_column_list,
        default=None,
        help="the score columns, one per class, named by the class (default: the columns named by a label of "
        "the label column, and the other numeric columns (classes without rows); text columns and columns of "
        "distinct whole numbers such as ids are not read)"
        if labels
        else "not used: the score columns are the classes of --tau (default: none)",
    )
    parser.add_argument(
        "--score-prefix",
        metavar="PREFIX",
        action=_Once,
        default=None,
        help="score columns are PREFIX + class, e.g. proba_cat for class cat (default: no prefix)",
    )
    transform = parser.add_mutually_exclusive_group()
    transform.add_argument(
        "--normalize",
        "--normalize-rows",
        dest="normalize",
        action="store_true",
        help="divide each row of scores by its sum (e.g. rounded probabilities summing to 1.001)",
    )
    transform.add_argument("--from-logits", action="store_true", help="the scores are logits: apply softmax to rows")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``polyroc`` command.

    Returns
    -------
    argparse.ArgumentParser
        Subcommands ``evaluate``, ``tune``, ``apply``, ``report``, ``demo`` and ``metrics``.

    Examples
    --------
    >>> build_parser().parse_args(["tune", "--scores", "s.csv", "--out", "tau.json"]).metric
    'f1_macro'
    """
    parser = _Parser(
        prog="polyroc",
        description="Evaluate multiclass classifiers from their predicted scores.",
        formatter_class=_HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"polyroc {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    command = functools.partial(commands.add_parser, formatter_class=_HelpFormatter)
    ev = command(
        "evaluate",
        help="classification report, OvR/OvO AUCs and confusion matrix of a score file",
        description=(
            "Evaluate per-class scores. Without --scores, fit a logistic regression on the "
            "bundled glass data and evaluate its held-out scores. A score file is a CSV with "
            "a header: one column per class named by the class label, holding that class's "
            "score, and a label column holding the true class (spelled as a column name)."
        ),
    )
    ev.add_argument(
        "--scores",
        metavar="FILE",
        action=_Once,
        type=_path,
        help="CSV, Parquet or NPZ file of per-class scores and true labels (default: the bundled glass demo)",
    )
    _add_input_options(ev)
    _add_interval_options(ev, allow_none=True)
    _add_engine_options(ev)
    ev.add_argument(
        "--random-state", action=_Once, type=_seed, default=0, help="seed of the demo split and of the intervals"
    )
    _add_quiet_option(ev)
    ev.set_defaults(run=_evaluate)

    tune = command(
        "tune",
        help="tune simplex thresholds tau on validation scores and write them as JSON",
        description="Tune the rule argmax(p - tau) on validation scores for a metric.",
    )
    tune.add_argument(
        "--scores",
        metavar="FILE",
        action=_Once,
        type=_path,
        required=True,
        help="validation score file (default: none, required)",
    )
    _add_input_options(tune)
    _add_metric_option(tune, "metric to maximise")
    tune.add_argument(
        "--search",
        action=_Once,
        default="auto",
        choices=["auto", "lattice", "random", "coordinate"],
        help="auto: lattice up to 4 classes, coordinate beyond (lattice if --resolution is given, random if "
        "--n-samples is); lattice: every point of a regular grid on the simplex (exact over the grid); random: "
        "Monte Carlo thresholds; coordinate: exact coordinate ascent from the best point of a coarse grid",
    )
    tune.add_argument(
        "--resolution",
        action=_Once,
        type=_positive_int,
        default=None,
        help="lattice resolution r, thresholds on the grid of step 1/r (default: the largest r <= 200 with at "
        "most 25,000 grid points)",
    )
    tune.add_argument(
        "--n-samples",
        action=_Once,
        type=_positive_int,
        default=None,
        help="random thresholds to draw (default: 20,000 for --search random)",
    )
    tune.add_argument(
        "--domain",
        action=_Once,
        default="simplex",
        choices=["simplex", "box"],
        help="where tau lies: the probability simplex, or the box {min tau = 0, max tau <= 1}",
    )
    tune.add_argument("--random-state", action=_Once, type=_seed, default=0, help="seed of random search")
    tune.add_argument(
        "--out",
        metavar="JSON",
        action=_Once,
        type=_path,
        required=True,
        help="where to write tau* (a new file, or one polyroc wrote) (default: none, required)",
    )
    _add_quiet_option(tune)
    tune.set_defaults(run=_tune)

    apply = command(
        "apply",
        help="apply tuned thresholds to a score file and write the predictions as CSV",
        description="Predict argmax(p - tau*) for every row; the output has the id column "
        "(with --id-col, or the unnamed first column pandas writes) and a prediction column.",
    )
    apply.add_argument(
        "--scores",
        metavar="FILE",
        action=_Once,
        type=_path,
        required=True,
        help="score file to predict (default: none, required)",
    )
    _add_input_options(apply, labels=False, weights=False)
    apply.add_argument(
        "--label-col",
        action=_Once,
        default=None,
        help="name of the true-label column; when the file has labels, the metric tau* was tuned for is printed "
        "for the tuned rule and argmax on this file (default: label, if the file has that column)",
    )
    apply.add_argument(
        "--weight-col",
        action=_Once,
        default=None,
        help="name of a column of sample weights for that score, as in tune (default: unweighted)",
    )
    apply.add_argument(
        "--tau",
        metavar="JSON",
        action=_Once,
        type=_path,
        required=True,
        help="thresholds from polyroc tune (default: none, required)",
    )
    apply.add_argument(
        "--out",
        metavar="CSV",
        action=_Once,
        type=_path,
        required=True,
        help="where to write predictions (a new file, or one polyroc wrote) (default: none, required)",
    )
    _add_quiet_option(apply)
    apply.set_defaults(run=_apply, label_col=None, score_cols=None)

    report = command(
        "report",
        help="full evaluation of score files as a self-contained HTML report and results.json",
        description=(
            "Evaluate test scores (metrics with intervals, ROC and PR curves, ROC clouds "
            "and DFP, ROC-DMF, Gini-weighted ROC) and, with --val, tune thresholds on validation "
            "scores and compare the rules on test. Give --scores once per model as NAME=PATH (or "
            "PATH: the name is the file stem); --val files are matched to models by name, else by order. "
            "The rows of several models' files are matched by id: by the unnamed first column pandas writes "
            '(its index) when every file has one, else by --id-col NAME; --id-col "" pairs them by position. '
            "Files without ids are otherwise refused, never paired by position silently."
        ),
    )
    report.add_argument(
        "--scores",
        metavar="[NAME=]FILE",
        action="append",
        type=_path,
        required=True,
        help="test score file of a model (repeat for several models) (default: none, required)",
    )
    report.add_argument(
        "--val",
        metavar="[NAME=]FILE",
        action="append",
        type=_path,
        default=[],
        help="validation score file of a model, for threshold tuning (default: none, no tuning)",
    )
    _add_input_options(report)
    _add_report_options(report)
    _add_engine_options(report)
    report.add_argument(
        "--sample-rows",
        action=_Once,
        type=_positive_int,
        default=20_000,
        help="with --engine dask: rows per class of the sample that every section but the metrics uses",
    )
    report.set_defaults(run=_report)

    demo = command(
        "demo",
        help="imbalance practice on the bundled glass data, reported end to end",
        description=(
            "Fit a logistic regression, a class-weighted one and (with imbalanced-learn installed) "
            "one trained on SMOTE data on a stratified 50/25/25 split of the bundled UCI glass data; "
            "tune thresholds on validation and write the full report of the test scores."
        ),
    )
    _add_report_options(demo, out_default="polyroc-demo")
    demo.set_defaults(run=_demo)

    metrics = command(
        "metrics",
        help="list the metric names --metric accepts",
        description="List the confusion-matrix metrics usable for threshold tuning, with one line on each.",
    )
    metrics.set_defaults(run=_metrics, quiet=True)
    return parser


def _say(text):
    """Print one line on standard error (above a progress bar), even if standard error has gone away."""
    try:
        if _DISPLAY is not None:
            _DISPLAY.write(text)
        else:
            print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


#: Keyword arguments of the library named in its errors, and the options of the command line that set them.
_OPTION_OF_KEYWORD = {"score_columns": "--score-cols", "score_prefix": "--score-prefix"}


def _describe(error):
    """One line for an error: ``path: reason`` for an OSError of a file; keywords named as the options."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror if error.filename is None else f"{error.filename}: {error.strerror}"
    text = str(error).replace("\n", " ")
    return re.sub(r"\b(score_columns|score_prefix)\b", lambda match: _OPTION_OF_KEYWORD[match.group(1)], text)


@contextmanager
def _one_line_warnings(command, quiet=False):
    """Each distinct warning as one line on standard error, once (none with ``quiet``)."""
    shown = set()
    with warnings.catch_warnings():

        def show(message, category, filename, lineno, file=None, line=None):
            text = f"polyroc {command}: warning: {str(message).replace(chr(10), ' ')} ({category.__name__})"
            if not quiet and text not in shown:
                shown.add(text)
                _say(text)

        warnings.showwarning = show
        yield


def _quiet_stdout():
    """Point standard output at the null device, so that no flush at exit fails on a closed pipe."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main(argv: list[str] | None = None) -> int:
    """Run the ``polyroc`` command; return its exit code.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments after ``polyroc``; default ``sys.argv[1:]``, as the
        program: then a command stopped by a signal ends the process at once
        with its exit code (worker threads still computing are not waited
        for), and signals that come after the outcome are ignored.

    Returns
    -------
    int
        0 on success; 2 for an error in the input or the options (one line
        on standard error); 128 + the signal number when stopped by SIGINT,
        SIGTERM or SIGHUP; 141 when standard output is a closed pipe.

    Raises
    ------
    SystemExit
        Never for errors (they are exit codes); ``--help`` prints and returns 0.

    Examples
    --------
    >>> main(["tune", "--scores", "absent.csv", "--metric", "nope", "--out", "tau.json"])
    2
    """
    outputs = []
    try:
        # first of all, before the options are parsed (which imports numpy): a signal may come at any moment
        with stopping_on_signals(restore=argv is not None):
            code = _run(argv, outputs)
            disarm()  # done: the outcome is decided, a later signal cannot change it
        return code
    except Stopped as stop:
        _say(f"{_command_of(argv)}: {_stop_message(stop, outputs)}")
        if argv is None:
            _end_process(stop.exit_code)
        return stop.exit_code


def _end_process(code):
    """Exit with ``code`` at once: worker threads may still be computing a chunk nobody will use.

    The outputs are already closed (lock removed, nothing half-written); only
    the interpreter's shutdown, which would wait for those threads, is skipped.
    """
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _command_of(argv):
    """``polyroc COMMAND`` of ``argv`` (default ``sys.argv[1:]``), for a message that may come before parsing."""
    words = [word for word in (sys.argv[1:] if argv is None else argv) if not word.startswith("-")]
    return f"polyroc {words[0]}" if words else "polyroc"


def _run(argv, outputs):
    """Parse ``argv`` and run the command; its exit code. ``outputs`` receives the outputs it opens."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code
    args.outputs = outputs
    with _one_line_warnings(args.command, args.quiet):
        try:
            args.run(args)
        except KeyboardInterrupt:  # raised by a library rather than by the signal handler
            raise Stopped(signal.SIGINT) from None
        except BrokenPipeError:
            _quiet_stdout()
            return EXIT_BROKEN_PIPE
        except (ValueError, TypeError, OSError) as error:
            _say(f"polyroc {args.command}: error: {_describe(error)}")
            return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())
