"""``polyroc apply``: tuned thresholds and/or a calibration map applied to a score file, the predictions written as CSV.

With ``--calibration``, the scores go through the map first and the CSV holds
the calibrated probabilities too, one column per class after ``prediction``;
without ``--tau`` the prediction is the argmax of the calibrated
probabilities.
"""

from __future__ import annotations

from polyroc.cli._calibrate import check_map_classes, read_calibration, scores_of
from polyroc.cli._scores import blamed_on, read_table
from polyroc.cli._terminal import record_output, showing_progress


def apply_command(args):
    from polyroc.io import OutputFile, read_thresholds, write_predictions

    _check_rule_options(args)
    inputs = {"--scores": args.scores, "--tau": args.tau, "--calibration": args.calibration}
    if args.cost_matrix is not None:
        inputs["--cost-matrix"] = args.cost_matrix
    with record_output(args, OutputFile(args.out, inputs=inputs, option="--out")) as out:
        tau = None if args.tau is None else read_thresholds(args.tau)
        calibration = read_calibration(args)
        classes = _checked_classes(args, tau, calibration)
        costs = _cost_matrix(args, classes)
        if costs is not None:
            classes = [str(c) for c in costs.index.tolist()]
        taken = sorted({"id", "prediction", "label"} & set(classes)) if calibration is not None else []
        if taken:
            raise ValueError(
                f"--calibration {args.calibration}: classes named {taken} cannot be columns of the predictions "
                "beside their id and prediction columns"
            )
        with showing_progress(args) as display:
            table = _read_labelled_if_possible(args, classes, display, _classes_source(args, tau, calibration))
            y_score = scores_of(args, table, calibration)
        with blamed_on(table.source):
            if costs is None:
                predictions, scores = _predictions(table, y_score, tau)
            else:
                predictions, scores = _bayes_predictions(args, table, y_score, costs), None
        columns = None if calibration is None else {str(c): y_score[:, j] for j, c in enumerate(table.classes)}
        write_predictions(out, predictions, ids=table.ids, columns=columns)
    calibrated = "" if calibration is None else f", with the probabilities calibrated by {args.calibration}"
    print(f"{len(predictions)} predictions written to {args.out}{calibrated}")
    if scores is not None:
        print(f"  {tau['metric']} on {table.source}: {scores[0]:.6f} (argmax {scores[1]:.6f})")
    if costs is not None:
        _print_costs(args, table, y_score, costs, predictions)


def _check_rule_options(args):
    """One rule at least (thresholds, a map's argmax or Bayes decisions), and thresholds and costs not together."""
    if args.tau is None and args.calibration is None and args.cost_matrix is None:
        raise ValueError(
            "give --tau (thresholds from polyroc tune), --calibration (a map from polyroc calibrate), "
            "--cost-matrix (Bayes decisions under costs) or --calibration with one of the others"
        )
    if args.tau is not None and args.cost_matrix is not None:
        raise ValueError(
            "--tau and --cost-matrix are two rules (tuned thresholds, Bayes decisions under costs): give one; "
            "to tune thresholds for least cost, use polyroc tune --cost-matrix"
        )
    if args.reject_cost is not None and args.cost_matrix is None:
        raise ValueError("--reject-cost is the cost of abstaining under --cost-matrix: give it with --cost-matrix")


def _cost_matrix(args, classes):
    """The --cost-matrix file as a DataFrame of the classes (those of --calibration when given), or None."""
    if args.cost_matrix is None:
        return None
    from polyroc.io import read_cost_matrix

    costs = read_cost_matrix(args.cost_matrix, classes=classes)
    names = [str(c) for c in costs.index.tolist()]  # matched to the score columns by name
    return costs.set_axis(names, axis=0).set_axis(names, axis=1)


def _classes_source(args, tau, calibration):
    """What names the score columns apply reads: --tau, --cost-matrix or --calibration."""
    if tau is not None:
        return f"--tau {args.tau}"
    if calibration is None:
        return f"--cost-matrix {args.cost_matrix}"
    return None


def _bayes_predictions(args, table, y_score, costs):
    """The Bayes decision of each row under ``costs`` (columns in the table's order); ``reject`` for a rejection."""
    import numpy as np

    from polyroc.decisions import bayes_decision

    classes = [str(c) for c in table.classes]
    if args.reject_cost is not None and "reject" in classes:
        raise ValueError("a class is named 'reject', the prediction written for a rejected row; rename that class")
    matrix = costs.loc[classes, classes].to_numpy()
    return bayes_decision(
        y_score, cost_matrix=matrix, labels=np.asarray(classes), reject_cost=args.reject_cost, reject_label="reject"
    )


def _print_costs(args, table, y_score, costs, predictions):
    """With labels in the file: the expected cost of the Bayes decisions, and of argmax, on it."""
    import numpy as np

    from polyroc.decisions import expected_cost, reject_option_summary

    if table.y_true is None:
        return
    classes = [str(c) for c in table.classes]
    y = np.asarray([str(label) for label in np.asarray(table.y_true).tolist()])
    matrix = costs.loc[classes, classes].to_numpy()
    argmax = np.asarray(classes)[np.argmax(y_score, axis=1)]
    options = {"cost_matrix": matrix, "labels": classes, "sample_weight": table.sample_weight}
    with blamed_on(table.source):
        if args.reject_cost is None:
            cost = f"{expected_cost(y, predictions, **options):.6f}"
        else:
            summary = reject_option_summary(
                y, predictions, reject_cost=args.reject_cost, reject_label="reject", **options
            )
            cost = f"{summary.total_cost:.6f} ({summary.to_text(6)})"
        print(f"  expected cost on {table.source}: {cost} (argmax {expected_cost(y, argmax, **options):.6f})")


def _predictions(table, y_score, tau):
    """The predicted labels (argmax(p - tau), or argmax without ``tau``) and what ``_applied_scores`` gives."""
    import numpy as np

    from polyroc.thresholds import apply_thresholds

    if tau is None:  # ties go to the first class in the order of the map's classes
        return np.asarray(table.classes)[np.argmax(y_score, axis=1)], None
    predictions = apply_thresholds(y_score, tau["threshold"], domain=tau["domain"], labels=table.classes)
    return predictions, _applied_scores(table, y_score, tau)


def _checked_classes(args, tau, calibration):
    """The score columns to read: the classes of ``--tau``, else of the map; the two must agree, as their tuning.

    Thresholds tuned on scores calibrated by a map (recorded with its SHA-256)
    apply only to scores calibrated by the same map, and thresholds tuned on
    uncalibrated scores only to uncalibrated scores: anything else is refused.
    """
    if tau is None:
        return None if calibration is None else [str(label) for label in calibration[0].classes.tolist()]
    recorded = tau.get("calibration")
    if recorded is not None and not (isinstance(recorded, dict) and isinstance(recorded.get("sha256"), str)):
        raise ValueError(f"{args.tau}: 'calibration' must be an object with the map's 'file' and 'sha256'")
    if recorded is not None and calibration is None:
        raise ValueError(
            f"--tau {args.tau} was tuned on scores calibrated by {recorded.get('file')} "
            f"(sha256 {recorded['sha256'][:12]}...); give that map with --calibration"
        )
    if recorded is None and calibration is not None:
        raise ValueError(
            f"--tau {args.tau} was tuned on uncalibrated scores, not on scores calibrated by --calibration "
            f"{args.calibration}; drop --calibration, or tune with --calibration {args.calibration}"
        )
    if calibration is not None:
        if recorded["sha256"] != calibration[1]:
            raise ValueError(
                f"--calibration {args.calibration} is not the map --tau {args.tau} was tuned with "
                f"({recorded.get('file')}, sha256 {recorded['sha256'][:12]}...; this one has {calibration[1][:12]}...)"
            )
        check_map_classes(args, calibration[0], tau["classes"], args.tau)
    return tau["classes"]


def _read_labelled_if_possible(args, classes, display, classes_of=None):
    """The score file of ``apply``, with its labels when it has the label column (``--label-col``, default label).

    Its score columns are ``classes``: those of ``classes_of`` (``--tau`` or ``--cost-matrix``), else of
    ``--calibration``.
    """
    name = args.label_col or "label"
    classes_of = classes_of or f"--calibration {args.calibration}"
    try:
        try:
            return read_table(args, args.scores, classes=classes, label_col=name, display=display)
        except ValueError as error:
            if args.label_col is not None or f"no label column {name!r}" not in str(error):
                raise
        return read_table(args, args.scores, classes=classes, label_col=None)
    except ValueError as error:
        if ("score columns" in str(error) and "not found" in str(error)) or "are not class names" in str(error):
            raise ValueError(f"{error} (the classes of {classes_of})") from None
        raise


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
