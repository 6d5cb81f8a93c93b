"""``polyroc tune``: thresholds tuned on validation scores for a metric, written as JSON."""

from __future__ import annotations

from polyroc._text import count_noun
from polyroc.cli._calibrate import calibration_record, read_calibration, scores_of
from polyroc.cli._scores import blamed_on, in_class_order, read_table
from polyroc.cli._terminal import record_output, showing_progress


def tune_command(args):
    from polyroc.io import OutputFile, write_thresholds
    from polyroc.thresholds import tune_thresholds

    if args.cost_matrix is not None and "metric" in getattr(args, "_given_options", set()):
        raise ValueError(
            "--metric and --cost-matrix are two objectives (a metric to maximise, a cost to minimise): give one"
        )
    inputs = {"--scores": args.scores, "--calibration": args.calibration}
    if args.cost_matrix is not None:
        inputs["--cost-matrix"] = args.cost_matrix
    with record_output(args, OutputFile(args.out, inputs=inputs, option="--out")) as out:
        calibration = read_calibration(args)
        with showing_progress(args) as display:
            table = read_table(args, args.scores, display=display)
            y_score = scores_of(args, table, calibration)
            classes, y_true, (y_score,) = in_class_order(table.classes, table.y_true, [y_score])
            costs = _cost_matrix(args, classes)
            metric = args.metric if costs is None else "expected_cost"
            display.step(f"tuning {metric} by {args.search} search")
            with blamed_on(table.source):
                result = tune_thresholds(
                    y_true,
                    y_score,
                    metric=metric,
                    cost_matrix=costs,
                    labels=classes,
                    search=args.search,
                    resolution=args.resolution,
                    n_samples=args.n_samples,
                    domain=args.domain,
                    sample_weight=table.sample_weight,
                    random_state=args.random_state,
                )
        write_thresholds(out, result, calibration=calibration_record(args, calibration))
    calibrated = "" if calibration is None else f" calibrated by {args.calibration}"
    direction = "" if result.greater_is_better else ", lower is better"
    print(
        f"tuned {result.metric} on {table.source}{calibrated}: {result.best_score:.6f} "
        f"(argmax {result.argmax_score:.6f}{direction}); tau* written to {args.out}"
    )
    for line in _tuning_summary(result):
        print(f"  {line}")


def _cost_matrix(args, classes):
    """The --cost-matrix file as a DataFrame labelled by the score classes (matched by name), or None."""
    if args.cost_matrix is None:
        return None
    from polyroc.io import read_cost_matrix

    return read_cost_matrix(args.cost_matrix, classes=list(classes))


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
