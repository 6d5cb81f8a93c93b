"""The ``polyroc`` command line.

Errors in the input become one-line messages on standard error and exit code 2.
"""

from __future__ import annotations

import argparse
import sys

from polyroc.evaluation import evaluate
from polyroc.io import read_scores, read_thresholds, write_predictions, write_thresholds

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
