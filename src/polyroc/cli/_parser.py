"""The argument parser of the ``polyroc`` command: one function adding each subcommand, and the shared options.

Errors of the options are one line with exit code 2; every option's help ends
with its default; an option given twice is refused.
"""

from __future__ import annotations

import argparse
import functools

from polyroc._version import __version__
from polyroc.cli._apply import apply_command
from polyroc.cli._calibrate import calibrate_command
from polyroc.cli._evaluate import evaluate_command
from polyroc.cli._metrics import DEFAULT_METRIC, metrics_command
from polyroc.cli._report import demo_command, report_command
from polyroc.cli._terminal import EXIT_BAD_INPUT
from polyroc.cli._tune import tune_command
from polyroc.evaluation._plan import CI_CHOICES, CI_OPTIONS


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``polyroc`` command.

    Returns
    -------
    argparse.ArgumentParser
        Subcommands ``evaluate``, ``tune``, ``calibrate``, ``apply``, ``report``, ``demo`` and ``metrics``.

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
    for add in (
        _add_evaluate_command,
        _add_tune_command,
        _add_calibrate_command,
        _add_apply_command,
        _add_report_command,
        _add_demo_command,
        _add_metrics_command,
    ):
        add(command)
    return parser


def _add_evaluate_command(command):
    """Add ``polyroc evaluate``: a score file (or the glass demo) evaluated."""
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
    _add_calibration_option(ev, "evaluate the scores it calibrates")
    _add_interval_options(ev, allow_none=True)
    _add_engine_options(ev)
    ev.add_argument(
        "--random-state", action=_Once, type=_seed, default=0, help="seed of the demo split and of the intervals"
    )
    _add_quiet_option(ev)
    ev.set_defaults(run=evaluate_command)


def _add_tune_command(command):
    """Add ``polyroc tune``: thresholds tuned on validation scores."""
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
    _add_calibration_option(tune, "tune on the scores it calibrates; tau* records the map (file and SHA-256)")
    _add_metric_option(tune, "metric to maximise")
    tune.add_argument(
        "--cost-matrix",
        metavar="CSV",
        action=_Once,
        type=_path,
        default=None,
        help="tune for least expected cost under this cost matrix instead of a --metric (header: a corner cell, "
        "then the decisions; each line: a true class, then its costs; matched to the score classes by name) "
        "(default: none, tune --metric)",
    )
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
    tune.set_defaults(run=tune_command)


def _add_apply_command(command):
    """Add ``polyroc apply``: tuned thresholds applied to a score file."""
    apply = command(
        "apply",
        help="apply tuned thresholds and/or a calibration map to a score file and write the predictions as CSV",
        description="Predict argmax(p - tau*) for every row; the output has the id column "
        "(with --id-col, or the unnamed first column pandas writes) and a prediction column. With "
        "--calibration, p are the calibrated probabilities, written as one column per class after the "
        "prediction; with --calibration alone, the prediction is their argmax. With --cost-matrix instead of "
        "--tau, the prediction is the Bayes decision under the costs (with --reject-cost, reject for a row "
        "whose least expected cost exceeds it).",
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
        default=None,
        help="thresholds from polyroc tune (default: none: the argmax of the --calibration map's probabilities; "
        "one of --tau and --calibration is required)",
    )
    _add_calibration_option(
        apply,
        "apply it before the thresholds and write the calibrated probabilities as columns; it must be the map "
        "--tau was tuned with (none if tau was tuned on uncalibrated scores)",
    )
    apply.add_argument(
        "--cost-matrix",
        metavar="CSV",
        action=_Once,
        type=_path,
        default=None,
        help="cost matrix (as polyroc report reads it): predict the Bayes decision, the class of least expected "
        "cost under the probabilities; not with --tau (default: none)",
    )
    apply.add_argument(
        "--reject-cost",
        metavar="COST",
        action=_Once,
        type=_non_negative_float,
        default=None,
        help="with --cost-matrix: the cost of abstaining; a row whose least expected cost exceeds it is "
        "rejected, its prediction written as the word reject (default: never reject)",
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
    apply.set_defaults(run=apply_command, label_col=None, score_cols=None)


def _add_calibrate_command(command):
    """Add ``polyroc calibrate``: a calibration map fitted on validation scores."""
    calibrate = command(
        "calibrate",
        help="fit a calibration map on validation scores and write it as JSON",
        description="Fit a map from scores to calibrated probabilities on validation scores: temperature "
        "(softmax(z / T)), vector (softmax(a * z + b)), matrix (softmax(W z + b), ODIR-penalised) or isotonic "
        "(per class, renormalised); z are the logits, log p of probabilities or the scores with --from-logits. "
        "apply, tune and evaluate use the map with --calibration.",
    )
    calibrate.add_argument(
        "--scores",
        metavar="FILE",
        action=_Once,
        type=_path,
        required=True,
        help="validation score file (default: none, required)",
    )
    _add_input_options(calibrate)
    calibrate.add_argument(
        "--method",
        action=_Once,
        default="temperature",
        choices=["temperature", "vector", "matrix", "isotonic"],
        help="the map, as polyroc.calibration.fit_calibrator fits it",
    )
    calibrate.add_argument(
        "--out",
        metavar="JSON",
        action=_Once,
        type=_path,
        required=True,
        help="where to write the map (a new file, or one polyroc wrote) (default: none, required)",
    )
    _add_quiet_option(calibrate)
    calibrate.set_defaults(run=calibrate_command)


def _add_calibration_option(parser, purpose):
    parser.add_argument(
        "--calibration",
        metavar="JSON",
        action=_Once,
        type=_path,
        default=None,
        help=f"calibration map from polyroc calibrate: {purpose} (default: none, the scores as given)",
    )


def _add_report_command(command):
    """Add ``polyroc report``: score files evaluated as a report."""
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
        "--cost-matrix",
        metavar="CSV",
        action=_Once,
        type=_path,
        default=None,
        help="cost matrix (header: a corner cell, then the decisions; each line: a true class, then its costs), "
        "matched to the score classes by name: adds a decisions section (argmax, Bayes rule and, with --val, "
        "thresholds tuned for least cost) (default: none, no decisions section)",
    )
    report.add_argument(
        "--target-priors",
        metavar="PRIORS",
        action=_Once,
        type=_target_priors,
        default=None,
        help="with --cost-matrix: also cost the rules at these class priors, as CLASS=P,CLASS=P,... or P,P,... in "
        "the report's class order, or 'estimate' for the EM estimate on the test scores (needs --val) "
        "(default: none)",
    )
    report.add_argument(
        "--sample-rows",
        action=_Once,
        type=_positive_int,
        default=20_000,
        help="with --engine dask: rows per class of the sample that every section but the metrics uses",
    )
    report.set_defaults(run=report_command)


def _add_demo_command(command):
    """Add ``polyroc demo``: the glass demo, reported."""
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
    demo.set_defaults(run=demo_command)


def _add_metrics_command(command):
    """Add ``polyroc metrics``: the metric names listed."""
    metrics = command(
        "metrics",
        help="list the metric names --metric accepts",
        description="List the confusion-matrix metrics usable for threshold tuning, with one line on each.",
    )
    metrics.set_defaults(run=metrics_command, quiet=True)


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


def _target_priors(text):
    """``estimate``, ``{class name: prior}`` from ``A=P,B=P`` or the priors ``P,P,...`` in class order."""
    if text.strip() == "estimate":
        return "estimate"
    parts = [part.strip() for part in text.split(",")]
    named = all("=" in part for part in parts)
    if not named and any("=" in part for part in parts):
        raise argparse.ArgumentTypeError(f"expected all of CLASS=P,... or all of P,P,..., got {text!r}")
    try:
        if named:
            pairs = [part.split("=", 1) for part in parts]
            return {name.strip(): float(value) for name, value in pairs}
        return [float(part) for part in parts]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected 'estimate', CLASS=P,CLASS=P,... or P,P,... (numbers), got {text!r}"
        ) from None


def _non_negative_float(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number >= 0, got {text!r}")
    return value


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
        "--metric", action=_Once, type=_metric, default=DEFAULT_METRIC, help=f"{purpose}; see polyroc metrics"
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
