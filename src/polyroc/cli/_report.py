"""``polyroc report`` and ``polyroc demo``: the full evaluation of score files (or of the glass demo) as a report."""

from __future__ import annotations

from polyroc.cli._dask import report_on_dask
from polyroc.cli._scores import in_class_order, named_paths, paired_models, probabilities, read_table
from polyroc.cli._terminal import record_output, showing_progress


def report_command(args):
    if args.engine != "dask" and (args.scheduler is not None or args.workers is not None):
        raise ValueError("--scheduler and --workers need --engine dask")
    if args.engine == "dask" and args.cost_matrix is not None:
        raise ValueError(
            "--cost-matrix needs --engine memory: with --engine dask the sections beside the metrics see a "
            "class-stratified sample of the rows, whose class shares are not those of the data"
        )
    with _report_output(args) as out, showing_progress(args, lines=True) as display:
        inputs = report_on_dask(args, display) if args.engine == "dask" else _report_inputs(args, display)
        inputs.update(_decision_inputs(args, inputs["labels"]))
        report = _write_report(args, out, display, title="polyroc report", source=", ".join(args.scores), **inputs)
    _print_report_summary(report, out.path)


def demo_command(args):
    from polyroc.datasets._demo import glass_demo_scores

    with _report_output(args) as out, showing_progress(args, lines=True) as display:
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


def _report_inputs(args, display):
    """Labels, scores, classes and weights of the --scores (and --val) files, as build_report's arguments."""
    y_true, y_score, classes, sample_weight = _read_split(args, "--scores", args.scores, display)
    y_val = val_scores = val_sample_weight = None
    if args.val:
        names = [str(c) for c in classes]
        y_val, val_scores, _, val_sample_weight = _read_split(args, "--val", args.val, display, names)
        val_scores = paired_models(val_scores, y_score)
    return {
        "y_true": y_true,
        "y_score": y_score,
        "y_val": y_val,
        "val_scores": val_scores,
        "labels": classes,
        "sample_weight": sample_weight,
        "val_sample_weight": val_sample_weight,
    }


def _decision_inputs(args, classes):
    """build_report's ``cost_matrix`` and ``target_priors`` from --cost-matrix and --target-priors, by class name."""
    if args.cost_matrix is None:
        if args.target_priors is not None:
            raise ValueError("--target-priors weighs the costs of the rules: give it with --cost-matrix")
        return {}
    from polyroc.io import read_cost_matrix

    costs = read_cost_matrix(args.cost_matrix, classes=list(classes))
    priors = args.target_priors
    names = [str(c) for c in classes]
    if isinstance(priors, dict):
        unknown = sorted(set(priors) - set(names))
        missing = [name for name in names if name not in priors]
        if unknown or missing:
            raise ValueError(
                f"--target-priors must give one prior per class {names}"
                + (f"; unknown classes {unknown}" if unknown else "")
                + (f"; missing {missing}" if missing else "")
            )
        priors = [priors[name] for name in names]
    elif isinstance(priors, list) and len(priors) != len(names):
        raise ValueError(
            f"--target-priors gives {len(priors)} priors but there are {len(names)} classes, in this order: {names}"
        )
    if isinstance(priors, list) and (min(priors) < 0 or abs(sum(priors) - 1.0) > 1e-6):
        raise ValueError(f"--target-priors must be non-negative and sum to 1 over the classes {names}; got {priors}")
    return {"cost_matrix": costs, "target_priors": priors}


def _read_split(args, option, values, display, classes=None):
    """Read the score files of one split; return (labels, {name: scores}, classes, sample weights).

    The files of a split must agree on their classes, labels and weights (the
    models are scored on the same rows); with ``--id-col`` their rows are
    matched by id, else by position.
    """
    import numpy as np

    paths = named_paths(option, values)
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
    classes, labels, matrices = in_class_order(classes, labels, list(scores.values()))
    return labels, dict(zip(scores, matrices)), classes, weights


def _read_like(args, path, classes, option, display):
    """A score file of the classes ``classes`` (names, in any column order), its columns put in that order."""
    from dataclasses import replace

    from polyroc._class_names import column_order, same_classes

    table = read_table(args, path, display=display)
    if classes is None or table.classes == tuple(classes):
        return table
    if same_classes(table.classes, classes):
        order = column_order(table.classes, classes)
        return replace(table, y_score=table.y_score[:, order], classes=tuple(classes))
    if set(table.classes) < set(classes) and set(classes) - set(table.classes) <= set(table.ignored_columns):
        return read_table(args, path, classes=list(classes))  # classes with no row in this file
    first = "--scores" if option == "--val" else f"the first {option} file's"
    raise ValueError(
        f"{path}: {option} score columns {sorted(table.classes)} are not the classes of {first} {sorted(classes)}"
    )


def _aligned(args, tables, option):
    """(labels, scores, weights) of each table, rows in the first table's order (see :mod:`polyroc.io._row_ids`)."""
    from polyroc.io._row_ids import row_orders

    orders = row_orders([table.ids for table in tables], [table.source for table in tables], args.id_col, option)
    rows = []
    for table, order in zip(tables, orders):
        scores = probabilities(args, table)
        labels, weights = table.y_true, table.sample_weight
        if order is not None:
            scores, labels = scores[order], labels[order]
            weights = None if weights is None else weights[order]
        rows.append((labels, scores, weights))
    return rows


def _report_output(args):
    """The report directory ``--out``, opened (checked and locked) before any work."""
    from polyroc.io import OutputDirectory
    from polyroc.report._document import REPORT_PATHS

    return record_output(args, OutputDirectory(args.out, reserved=REPORT_PATHS, option="--out"))


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


def _print_report_summary(report, out):
    """Where the report went, then a line per model led by the quantity the report's headline ranks by."""
    from polyroc.report._readings import ranking_values
    from polyroc.report._wording import format_number

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
        decisions = model.get("decisions")
        if decisions is not None:
            line += "; expected cost " + ", ".join(
                f"{rule} {format_number(record['estimate'])}" for rule, record in decisions["costs"].items()
            )
        print(line)


def _estimate(record, path):
    """``record[path[0]][path[1]]...["estimate"]`` as the report writes it, or "-" where a section was skipped."""
    from polyroc.report._wording import format_number

    for key in path:
        if record is None:
            return "-"
        record = record[key]
    return "-" if record is None else format_number(record["estimate"])
