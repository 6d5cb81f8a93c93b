"""``polyroc apply``: tuned thresholds applied to a score file, the predictions written as CSV."""

from __future__ import annotations

from polyroc.cli._scores import blamed_on, probabilities, read_table
from polyroc.cli._terminal import record_output, showing_progress


def apply_command(args):
    from polyroc.io import OutputFile, read_thresholds, write_predictions
    from polyroc.thresholds import apply_thresholds

    inputs = {"--scores": args.scores, "--tau": args.tau}
    with record_output(args, OutputFile(args.out, inputs=inputs, option="--out")) as out:
        tau = read_thresholds(args.tau)
        with showing_progress(args) as display:
            table = _read_labelled_if_possible(args, tau["classes"], display)
            y_score = probabilities(args, table)
        with blamed_on(table.source):
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
        return read_table(args, args.scores, classes=classes, label_col=name, display=display)
    except ValueError as error:
        if args.label_col is not None or f"no label column {name!r}" not in str(error):
            raise
    return read_table(args, args.scores, classes=classes, label_col=None)


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
