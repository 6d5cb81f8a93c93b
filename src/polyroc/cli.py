"""The ``polyroc`` command line.

Errors in the input become one-line messages on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from polyroc.evaluation import evaluate
from polyroc.io import (
    check_output_directory,
    read_scores,
    read_thresholds,
    write_predictions,
    write_thresholds,
)

EXIT_BAD_INPUT = 2


def glass_holdout_scores(random_state=0):
    """Scores of a logistic regression on a stratified 30% test split of the glass data.

    Returns ``(y_test, probabilities, classes)``.
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


def _evaluate(args):
    if args.scores is None:
        y_true, y_score, classes = glass_holdout_scores(args.random_state)
        title = (
            "polyroc evaluate: bundled UCI glass data, logistic regression, "
            f"stratified 70/30 split (random_state={args.random_state}), {len(y_true)} test rows"
        )
    else:
        table = read_scores(args.scores, label_col=args.label_col, id_col=args.id_col)
        y_true, y_score, classes = table.y_true, table.y_score, table.classes
        title = f"polyroc evaluate: {table.source}, {len(y_true)} rows, {len(classes)} classes"
    result = evaluate(
        y_true, y_score, labels=classes, normalize=args.normalize, from_logits=args.from_logits
    )
    print(title, end="\n\n")
    print(result.to_text())


def _tune(args):
    from polyroc.thresholds import tune_thresholds

    table = read_scores(args.scores, label_col=args.label_col, id_col=args.id_col)
    result = tune_thresholds(
        table.y_true, table.y_score, metric=args.metric, labels=table.classes, search=args.search,
        resolution=args.resolution, n_samples=args.n_samples, domain=args.domain,
        random_state=args.random_state,
    )
    write_thresholds(args.out, result)
    print(f"tuned {result.metric} on {table.source}: {result.best_score:.6f} "
          f"(argmax {result.argmax_score:.6f}); tau* written to {args.out}")


def _apply(args):
    from polyroc.thresholds import apply_thresholds

    tau = read_thresholds(args.tau)
    table = read_scores(args.scores, label_col=None, id_col=args.id_col,
                        score_columns=tau["classes"])
    predictions = apply_thresholds(table.y_score, tau["threshold"], domain=tau["domain"],
                                   labels=table.classes)
    write_predictions(args.out, predictions, ids=table.ids)
    print(f"{len(predictions)} predictions written to {args.out}")


def _named_paths(option, values):
    """``[NAME=]PATH`` arguments as ``{name: path}``; the name defaults to the file's stem."""
    named = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator:
            name, path = Path(value).stem, value
        if not name or not path:
            raise ValueError(f"{option} {value!r}: expected PATH or NAME=PATH")
        if name in named:
            raise ValueError(f"{option}: model name {name!r} given twice; name the files with NAME=PATH")
        named[name] = path
    return named


def _read_split(option, values, label_col, id_col):
    """Read the score files of one split; return (labels, {name: scores}, classes)."""
    labels, scores, classes = None, {}, None
    for name, path in _named_paths(option, values).items():
        table = read_scores(path, label_col=label_col, id_col=id_col)
        if classes is not None and table.classes != classes:
            raise ValueError(f"{path}: score columns {list(table.classes)} differ from the first "
                             f"{option} file's {list(classes)}")
        if labels is not None and not np.array_equal(table.y_true, labels):
            raise ValueError(f"{path}: its {label_col!r} column differs from the first {option} file's; "
                             "the models of a report must be scored on the same rows")
        labels, classes, scores[name] = table.y_true, table.classes, table.y_score
    return labels, scores, classes


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


def _write_report(args, *, title, source, y_test, test_scores, y_val, val_scores, labels, notes=()):
    from polyroc.report import build_report

    progress, close = _progress_bar(not args.no_progress)
    try:
        report = build_report(
            y_test, test_scores, y_val=y_val, val_scores=val_scores, labels=labels, metric=args.metric,
            n_boot=args.n_boot, random_state=args.random_state, title=title, source=source, notes=notes,
            progress=progress,
        )
        out = report.write(args.out)
    finally:
        close()
    print(f"report written to {out / 'report.html'} (numbers in {out / 'results.json'})")
    for name, model in report.results["models"].items():
        scores = model["metrics"]["scores"]
        line = (f"  {name}: accuracy {scores['accuracy']['estimate']:.3f}, macro-F1 "
                f"{scores['f1_macro']['estimate']:.3f}, D {model['dmf']['D']['estimate']:.3f}")
        if model["tuning"] is not None:
            difference = model["tuning"]["test_difference"]
            line += (f"; tuned - argmax {model['tuning']['metric']} on test {difference['estimate']:+.3f} "
                     f"[{difference['low']:+.3f}, {difference['high']:+.3f}]")
        print(line)


def _report(args):
    _check_output_directory(args.out)
    y_test, test_scores, classes = _read_split("--scores", args.scores, args.label_col, args.id_col)
    y_val = val_scores = None
    if args.val:
        y_val, val_scores, val_classes = _read_split("--val", args.val, args.label_col, args.id_col)
        if val_classes != classes:
            raise ValueError(f"--val score columns {list(val_classes)} differ from --scores columns {list(classes)}")
        if set(val_scores) != set(test_scores):
            if len(val_scores) != len(test_scores):
                raise ValueError(f"--val names models {sorted(val_scores)} but --scores names {sorted(test_scores)}")
            val_scores = dict(zip(test_scores, val_scores.values()))
    sources = ", ".join(args.scores)
    _write_report(args, title="polyroc report", source=sources, y_test=y_test, test_scores=test_scores,
                  y_val=y_val, val_scores=val_scores, labels=classes)


def _demo(args):
    from polyroc.report._demo import glass_demo_scores

    _check_output_directory(args.out)
    demo = glass_demo_scores(args.random_state)
    _write_report(args, title="polyroc demo: imbalanced glass identification", source=demo.source,
                  y_test=demo.y_test, test_scores=demo.test_scores, y_val=demo.y_val,
                  val_scores=demo.val_scores, labels=demo.classes, notes=demo.notes)


def _check_output_directory(out):
    """Fail before any work when the report could not be written to ``out``."""
    from polyroc.report import is_report_directory

    check_output_directory(out, replace_if=is_report_directory)


def _add_report_options(parser, out_default=None):
    parser.add_argument("--out", metavar="DIR", required=out_default is None, default=out_default,
                        help="directory to write report.html, results.json and figures/ into"
                        + (f" (default {out_default})" if out_default else ""))
    parser.add_argument("--metric", default="f1_macro",
                        help="threshold tuning metric from polyroc.metrics.COUNTS_METRICS (default f1_macro)")
    parser.add_argument("--n-boot", type=int, default=500, help="bootstrap replicates of every interval")
    parser.add_argument("--random-state", type=int, default=0, help="seed of every resampling")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar, even on a terminal")


def _add_input_options(parser):
    parser.add_argument("--label-col", default="label", help="name of the true-label column")
    parser.add_argument("--id-col", default=None, help="name of an id column")


def build_parser():
    """The argument parser of the ``polyroc`` command."""
    parser = argparse.ArgumentParser(
        prog="polyroc",
        description="Evaluate multiclass classifiers from their predicted scores.",
    )
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
    ev.add_argument("--scores", metavar="FILE", help="CSV of per-class scores and true labels")
    _add_input_options(ev)
    transform = ev.add_mutually_exclusive_group()
    transform.add_argument("--normalize", action="store_true", help="rescale rows to sum to 1")
    transform.add_argument("--from-logits", action="store_true", help="scores are logits")
    ev.add_argument("--random-state", type=int, default=0, help="seed of the demo split")
    ev.set_defaults(run=_evaluate)

    tune = commands.add_parser(
        "tune",
        help="tune simplex thresholds tau on validation scores and write them as JSON",
        description="Tune the rule argmax(p - tau) on validation scores for a metric.",
    )
    tune.add_argument("--scores", metavar="FILE", required=True, help="validation score file")
    _add_input_options(tune)
    tune.add_argument("--metric", default="accuracy",
                      help="metric name from polyroc.metrics.COUNTS_METRICS (e.g. f1_macro)")
    tune.add_argument("--search", default="lattice", choices=["lattice", "random", "coordinate"])
    tune.add_argument("--resolution", type=int, default=None, help="lattice resolution r")
    tune.add_argument("--n-samples", type=int, default=None, help="random thresholds to draw")
    tune.add_argument("--domain", default="simplex", choices=["simplex", "box"])
    tune.add_argument("--random-state", type=int, default=0, help="seed of random search")
    tune.add_argument("--out", metavar="JSON", required=True, help="where to write tau*")
    tune.set_defaults(run=_tune)

    apply = commands.add_parser(
        "apply",
        help="apply tuned thresholds to a score file and write the predictions as CSV",
        description="Predict argmax(p - tau*) for every row; the output has the id column "
        "(if --id-col is given) and a prediction column.",
    )
    apply.add_argument("--scores", metavar="FILE", required=True, help="score file to predict")
    apply.add_argument("--id-col", default=None, help="name of an id column kept in the output")
    apply.add_argument("--tau", metavar="JSON", required=True, help="thresholds from polyroc tune")
    apply.add_argument("--out", metavar="CSV", required=True, help="where to write predictions")
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
    report.add_argument("--scores", metavar="[NAME=]FILE", action="append", required=True,
                        help="test score file of a model (repeat for several models)")
    report.add_argument("--val", metavar="[NAME=]FILE", action="append", default=[],
                        help="validation score file of a model, for threshold tuning")
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


def main(argv=None):
    """Run the ``polyroc`` command; return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (ValueError, TypeError, OSError) as error:
        print(f"polyroc {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    sys.exit(main())
