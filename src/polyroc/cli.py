"""The ``polyroc`` command line.

Every error in the input or the options is one line on standard error,
``polyroc COMMAND: error: ...`` naming the file (with its line and column where
one applies) or the option, with exit code 2 and nothing written. Outputs
(``--out``) are checked and locked before any work and written as
:mod:`polyroc.io` writes them: never over a file polyroc did not write, always
the complete old or the complete new output. Ctrl-C (SIGINT), SIGTERM and
SIGHUP stop a command with one line and exit code 128 + the signal number
(130, 143, 129), leaving the output as it was (or complete, when the signal came
while it was being written); warnings are one line each.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import warnings
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from polyroc._version import __version__
from polyroc.counts import get_metric
from polyroc.evaluation import evaluate
from polyroc.io import (
    OutputDirectory,
    OutputFile,
    read_scores,
    read_thresholds,
    write_predictions,
    write_thresholds,
)

EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 128 + 13
_STOP_SIGNALS = {
    getattr(signal, name): text
    for name, text in (("SIGINT", "interrupted"), ("SIGTERM", "terminated"), ("SIGHUP", "hung up"))
    if hasattr(signal, name)
}


class Stopped(BaseException):
    """Raised in the main thread when a stop signal (SIGINT, SIGTERM, SIGHUP) arrives."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self):
        return 128 + self.signum

    def describe(self, outputs):
        """``interrupted by SIGINT; --out r was left as it was``."""
        text = f"{_STOP_SIGNALS.get(self.signum, 'stopped')} by {signal.Signals(self.signum).name}"
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


def _read_table(args, path):
    """The score file ``path`` read with the label, id and weight columns of the options."""
    return read_scores(path, label_col=args.label_col, id_col=args.id_col, weight_col=args.weight_col)


def _evaluate(args):
    if args.scores is None:
        y_true, y_score, classes = glass_holdout_scores(args.random_state)
        sample_weight = None
        source = "the bundled glass data"
        title = (
            "polyroc evaluate: bundled UCI glass data, logistic regression, "
            f"stratified 70/30 split (random_state={args.random_state}), {len(y_true)} test rows"
        )
    else:
        table = _read_table(args, args.scores)
        y_true, y_score, classes, source = table.y_true, table.y_score, table.classes, table.source
        sample_weight = table.sample_weight
        title = f"polyroc evaluate: {table.source}, {len(y_true)} rows, {len(classes)} classes"
    with _blamed_on(source):
        result = evaluate(
            y_true,
            y_score,
            labels=classes,
            sample_weight=sample_weight,
            normalize_rows=args.normalize,
            from_logits=args.from_logits,
            n_boot=0,
        )
    print(title, end="\n\n")
    print(result.to_text())


def _tune(args):
    from polyroc.thresholds import tune_thresholds

    with _output(args, OutputFile(args.out, inputs={"--scores": args.scores}, option="--out")) as out:
        table = _read_table(args, args.scores)
        with _blamed_on(table.source):
            result = tune_thresholds(
                table.y_true,
                table.y_score,
                metric=args.metric,
                labels=table.classes,
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


def _apply(args):
    from polyroc.thresholds import apply_thresholds

    inputs = {"--scores": args.scores, "--tau": args.tau}
    with _output(args, OutputFile(args.out, inputs=inputs, option="--out")) as out:
        tau = read_thresholds(args.tau)
        table = read_scores(args.scores, label_col=None, id_col=args.id_col, score_columns=tau["classes"])
        with _blamed_on(table.source):
            predictions = apply_thresholds(table.y_score, tau["threshold"], domain=tau["domain"], labels=table.classes)
        write_predictions(out, predictions, ids=table.ids)
    print(f"{len(predictions)} predictions written to {args.out}")


def _named_paths(option, values):
    """``[NAME=]PATH`` arguments as ``{name: path}``; the name defaults to the file's stem.

    A value that is the path of an existing file is a PATH even if it holds ``=``.
    """
    named = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator or Path(value).is_file():
            name, path = Path(value).stem, value
        if not name or not path:
            raise ValueError(f"{option} {value!r}: expected PATH or NAME=PATH")
        if name in named:
            raise ValueError(f"{option}: model name {name!r} given twice; name the files with NAME=PATH")
        named[name] = path
    return named


def _read_split(args, option, values):
    """Read the score files of one split; return (labels, {name: scores}, classes, sample weights).

    The files of a split must agree on their classes, labels and weights (the
    models are scored on the same rows).
    """
    labels, scores, classes, weights = None, {}, None, None
    for name, path in _named_paths(option, values).items():
        table = _read_table(args, path)
        if classes is not None and table.classes != classes:
            raise ValueError(
                f"{path}: score columns {list(table.classes)} differ from the first {option} file's {list(classes)}"
            )
        for column, first, this in (
            (args.label_col, labels, table.y_true),
            (args.weight_col, weights, table.sample_weight),
        ):
            if scores and not np.array_equal(first, this):
                raise ValueError(
                    f"{path}: its {column!r} column differs from the first {option} file's; "
                    "the models of a report must be scored on the same rows"
                )
        labels, classes, weights, scores[name] = table.y_true, table.classes, table.sample_weight, table.y_score
    return labels, scores, classes, weights


def _progress_bar(enabled):
    """A ``progress(description, done, total)`` callback drawing a tqdm bar on a terminal, and its closer."""
    if not (enabled and sys.stderr.isatty()):
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=1, unit="step", leave=False, file=sys.stderr)

    def progress(description, done, total):
        bar.total = total
        bar.n = done
        bar.set_description(description)
        bar.refresh()

    return progress, bar.close


def _report_output(args):
    """The report directory ``--out``, opened (checked and locked) before any work."""
    from polyroc.report._document import REPORT_PATHS

    return _output(args, OutputDirectory(args.out, reserved=REPORT_PATHS, option="--out"))


def _write_report(
    args,
    out,
    *,
    title,
    source,
    y_true,
    y_score,
    y_val,
    val_scores,
    labels,
    sample_weight=None,
    val_sample_weight=None,
    notes=(),
):
    from polyroc.report import build_report

    progress, close = _progress_bar(not args.no_progress)
    try:
        report = build_report(
            y_true,
            y_score,
            y_val=y_val,
            val_scores=val_scores,
            labels=labels,
            sample_weight=sample_weight,
            val_sample_weight=val_sample_weight,
            metric=args.metric,
            n_boot=args.n_boot,
            random_state=args.random_state,
            title=title,
            source=source,
            notes=notes,
            progress=progress,
        )
    finally:
        close()
    report.write(out)
    return report


def _estimate(record, path):
    """``record[path[0]][path[1]]...["estimate"]`` formatted, or "-" where a section was skipped."""
    for key in path:
        if record is None:
            return "-"
        record = record[key]
    return "-" if record is None or record["estimate"] is None else f"{record['estimate']:.3f}"


def _print_report_summary(report, out):
    print(f"report written to {out / 'report.html'} (numbers in {out / 'results.json'})")
    for name, model in report.results["models"].items():
        metrics = model["metrics"]
        line = (
            f"  {name}: accuracy {_estimate(metrics, ('intervals', 'accuracy'))}, macro-F1 "
            f"{_estimate(metrics, ('intervals', 'f1_macro'))}, D {_estimate(model['dmf'], ('ci',))}"
        )
        if model["tuning"] is not None:
            difference = model["tuning"]["test_scores"]["differences"]["tuned"]
            line += (
                f"; tuned - argmax {model['tuning']['comparison']['metric']} on test "
                f"{difference['estimate']:+.3f} [{difference['low']:+.3f}, {difference['high']:+.3f}]"
            )
        print(line)


def _report_inputs(args):
    """Labels, scores, classes and weights of the --scores (and --val) files, as build_report's arguments."""
    y_true, y_score, classes, sample_weight = _read_split(args, "--scores", args.scores)
    y_val = val_scores = val_sample_weight = None
    if args.val:
        y_val, val_scores, val_classes, val_sample_weight = _read_split(args, "--val", args.val)
        if val_classes != classes:
            raise ValueError(f"--val score columns {list(val_classes)} differ from --scores columns {list(classes)}")
        if set(val_scores) != set(y_score):
            if len(val_scores) != len(y_score):
                raise ValueError(f"--val names models {sorted(val_scores)} but --scores names {sorted(y_score)}")
            val_scores = dict(zip(y_score, val_scores.values()))
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
    with _report_output(args) as out:
        inputs = _report_inputs(args)
        report = _write_report(args, out, title="polyroc report", source=", ".join(args.scores), **inputs)
    _print_report_summary(report, out.path)


def _demo(args):
    from polyroc.report._demo import glass_demo_scores

    with _report_output(args) as out:
        demo = glass_demo_scores(args.random_state)
        report = _write_report(
            args,
            out,
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


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage block) and exit code 2."""

    def error(self, message):
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


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
    try:
        get_metric(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _path(text):
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a path, got an empty string")
    return text


def _add_report_options(parser, out_default=None):
    parser.add_argument(
        "--out",
        metavar="DIR",
        action=_Once,
        type=_path,
        required=out_default is None,
        default=out_default,
        help="directory to write report.html, results.json and figures/ into: a new or empty "
        "directory, or one holding an earlier report" + (f" (default {out_default})" if out_default else ""),
    )
    parser.add_argument(
        "--metric",
        action=_Once,
        type=_metric,
        default="f1_macro",
        help="threshold tuning metric from polyroc.counts.METRICS (default f1_macro)",
    )
    parser.add_argument(
        "--n-boot",
        action=_Once,
        type=_positive_int,
        default=1000,
        help="bootstrap replicates of every interval (default 1000)",
    )
    parser.add_argument(
        "--random-state", action=_Once, type=_seed, default=0, help="seed of every resampling (default 0)"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar, even on a terminal")


def _add_input_options(parser):
    parser.add_argument("--label-col", action=_Once, default="label", help="name of the true-label column")
    parser.add_argument("--id-col", action=_Once, default=None, help="name of an id column")
    parser.add_argument(
        "--weight-col",
        action=_Once,
        default=None,
        help="name of a column of sample weights (non-negative, relative importance)",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``polyroc`` command.

    Returns
    -------
    argparse.ArgumentParser
        Subcommands ``evaluate``, ``tune``, ``apply``, ``report`` and ``demo``.

    Examples
    --------
    >>> build_parser().parse_args(["tune", "--scores", "s.csv", "--out", "tau.json"]).metric
    'accuracy'
    """
    parser = _Parser(
        prog="polyroc",
        description="Evaluate multiclass classifiers from their predicted scores.",
    )
    parser.add_argument("--version", action="version", version=f"polyroc {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    ev = commands.add_parser(
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
        "--scores", metavar="FILE", action=_Once, type=_path, help="CSV of per-class scores and true labels"
    )
    _add_input_options(ev)
    transform = ev.add_mutually_exclusive_group()
    transform.add_argument(
        "--normalize", "--normalize-rows", dest="normalize", action="store_true", help="rescale rows to sum to 1"
    )
    transform.add_argument("--from-logits", action="store_true", help="scores are logits")
    ev.add_argument("--random-state", action=_Once, type=_seed, default=0, help="seed of the demo split")
    ev.set_defaults(run=_evaluate)

    tune = commands.add_parser(
        "tune",
        help="tune simplex thresholds tau on validation scores and write them as JSON",
        description="Tune the rule argmax(p - tau) on validation scores for a metric.",
    )
    tune.add_argument("--scores", metavar="FILE", action=_Once, type=_path, required=True, help="validation score file")
    _add_input_options(tune)
    tune.add_argument(
        "--metric",
        action=_Once,
        type=_metric,
        default="accuracy",
        help="metric name from polyroc.counts.METRICS (e.g. f1_macro)",
    )
    tune.add_argument("--search", action=_Once, default="lattice", choices=["lattice", "random", "coordinate"])
    tune.add_argument("--resolution", action=_Once, type=_positive_int, default=None, help="lattice resolution r")
    tune.add_argument("--n-samples", action=_Once, type=_positive_int, default=None, help="random thresholds to draw")
    tune.add_argument("--domain", action=_Once, default="simplex", choices=["simplex", "box"])
    tune.add_argument("--random-state", action=_Once, type=_seed, default=0, help="seed of random search")
    tune.add_argument(
        "--out",
        metavar="JSON",
        action=_Once,
        type=_path,
        required=True,
        help="where to write tau* (a new file, or one polyroc wrote)",
    )
    tune.set_defaults(run=_tune)

    apply = commands.add_parser(
        "apply",
        help="apply tuned thresholds to a score file and write the predictions as CSV",
        description="Predict argmax(p - tau*) for every row; the output has the id column "
        "(if --id-col is given) and a prediction column.",
    )
    apply.add_argument(
        "--scores", metavar="FILE", action=_Once, type=_path, required=True, help="score file to predict"
    )
    apply.add_argument("--id-col", action=_Once, default=None, help="name of an id column kept in the output")
    apply.add_argument(
        "--tau", metavar="JSON", action=_Once, type=_path, required=True, help="thresholds from polyroc tune"
    )
    apply.add_argument(
        "--out",
        metavar="CSV",
        action=_Once,
        type=_path,
        required=True,
        help="where to write predictions (a new file, or one polyroc wrote)",
    )
    apply.set_defaults(run=_apply)

    report = commands.add_parser(
        "report",
        help="full evaluation of score files as a self-contained HTML report and results.json",
        description=(
            "Evaluate test scores (metrics with bootstrap intervals, ROC and PR curves, ROC clouds "
            "and DFP, ROC-DMF, Gini-weighted ROC) and, with --val, tune thresholds on validation "
            "scores and compare the rules on test. Give --scores once per model as NAME=PATH (or "
            "PATH: the name is the file stem); --val files are matched to models by name, else by order."
        ),
    )
    report.add_argument(
        "--scores",
        metavar="[NAME=]FILE",
        action="append",
        type=_path,
        required=True,
        help="test score file of a model (repeat for several models)",
    )
    report.add_argument(
        "--val",
        metavar="[NAME=]FILE",
        action="append",
        type=_path,
        default=[],
        help="validation score file of a model, for threshold tuning",
    )
    _add_input_options(report)
    _add_report_options(report)
    report.set_defaults(run=_report)

    demo = commands.add_parser(
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
    return parser


def _say(text):
    """Print one line on standard error, even if standard error has gone away."""
    try:
        print(text, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass


def _describe(error):
    """One line for an error: ``path: reason`` for an OSError of a file."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror if error.filename is None else f"{error.filename}: {error.strerror}"
    return str(error).replace("\n", " ")


@contextmanager
def _stopping_on_signals():
    """Turn SIGINT, SIGTERM and SIGHUP into :class:`Stopped`; later ones do not cut the cleanup short."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        for other in _STOP_SIGNALS:
            signal.signal(other, signal.SIG_IGN)
        raise Stopped(signum)

    previous = {signum: signal.signal(signum, stop) for signum in _STOP_SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


@contextmanager
def _one_line_warnings(command):
    with warnings.catch_warnings():

        def show(message, category, filename, lineno, file=None, line=None):
            _say(f"polyroc {command}: warning: {str(message).replace(chr(10), ' ')} ({category.__name__})")

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
        The arguments after ``polyroc``; default ``sys.argv[1:]``.

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
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code
    args.outputs = []
    with _stopping_on_signals(), _one_line_warnings(args.command):
        try:
            args.run(args)
        except Stopped as stop:
            _say(f"polyroc {args.command}: {stop.describe(args.outputs)}")
            return stop.exit_code
        except KeyboardInterrupt:
            _say(f"polyroc {args.command}: {Stopped(signal.SIGINT).describe(args.outputs)}")
            return 128 + signal.SIGINT
        except BrokenPipeError:
            _quiet_stdout()
            return EXIT_BROKEN_PIPE
        except (ValueError, TypeError, OSError) as error:
            _say(f"polyroc {args.command}: error: {_describe(error)}")
            return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())
