"""``polyroc calibrate``: a calibration map fitted on validation scores and written as JSON; ``--calibration``.

The map file (:func:`polyroc.io.write_calibrator`) is read by ``apply``,
``tune`` and ``evaluate`` with ``--calibration``: the scores of their file go
through the map before anything else. A map fitted with ``--from-logits``
takes logits, so those commands need ``--from-logits`` too; a map fitted on
probabilities takes the file's scores as probabilities (after
``--normalize``, or softmax with ``--from-logits``).
"""

from __future__ import annotations

from polyroc._text import count_noun
from polyroc.cli._scores import blamed_on, in_class_order, probabilities, read_table
from polyroc.cli._terminal import record_output, showing_progress


def calibrate_command(args):
    from polyroc.calibration import fit_calibrator
    from polyroc.io import OutputFile, write_calibrator

    with record_output(args, OutputFile(args.out, inputs={"--scores": args.scores}, option="--out")) as out:
        with showing_progress(args) as display:
            table = read_table(args, args.scores, display=display)
            scores = _raw_logits(table) if args.from_logits else probabilities(args, table)
            classes, y_true, (scores,) = in_class_order(table.classes, table.y_true, [scores])
            display.step(f"fitting the {args.method} map")
            with blamed_on(table.source):
                calibrator = fit_calibrator(
                    y_true,
                    scores,
                    method=args.method,
                    labels=classes,
                    from_logits=args.from_logits,
                    sample_weight=table.sample_weight,
                )
        write_calibrator(out, calibrator)
    print(
        f"calibrated {table.source} by {calibrator.method}: {_parameters_text(calibrator)}; validation log loss "
        f"{calibrator.loss_before:.6f} before, {calibrator.loss_after:.6f} after; map written to {args.out}"
    )
    if not calibrator.converged:
        print("  the fit did not converge: the loss keeps falling at the end of the search (see the map's to_text)")


def _raw_logits(table):
    """The scores of ``table`` as given (logits), float64; checked by the map that takes them."""
    import numpy as np

    return np.asarray(table.y_score, dtype=np.float64)


def _numbers_text(values):
    return "[" + ", ".join(f"{value:.4g}" for value in values) + "]"


def _parameters_text(calibrator):
    """The map's parameters in a few words: T, the scales and intercepts, W's diagonal, or the knots."""
    if calibrator.method == "temperature":
        return f"T = {calibrator.temperature:.6g}"
    if calibrator.method == "isotonic":
        knots = sum(x.size for x in calibrator.knots)
        return f"{count_noun(knots, 'knot')} over {count_noun(len(calibrator.knots), 'class')}"
    scales = _numbers_text(calibrator.coef.diagonal())
    intercepts = _numbers_text(calibrator.intercept)
    if calibrator.method == "vector":
        return f"scales {scales}, intercepts {intercepts}"
    return f"{calibrator.classes.size}x{calibrator.classes.size} W with diagonal {scales}, intercepts {intercepts}"


def read_calibration(args):
    """``(Calibrator, sha256)`` of the file of ``--calibration``, or None without the option."""
    if getattr(args, "calibration", None) is None:
        return None
    from polyroc.io._calibrators import calibrator_file

    return calibrator_file(args.calibration)


def calibration_record(args, calibration):
    """What a thresholds file records of the map its scores went through: file, SHA-256 and method."""
    if calibration is None:
        return None
    calibrator, digest = calibration
    return {"file": str(args.calibration), "sha256": digest, "method": calibrator.method}


def check_map_classes(args, calibrator, names, source):
    """Refuse a map whose classes are not the classes ``names`` of ``source`` (a score or thresholds file)."""
    from polyroc._class_names import same_classes

    mapped = [str(label) for label in calibrator.classes.tolist()]
    if not same_classes(list(names), mapped):
        raise ValueError(
            f"--calibration {args.calibration}: the map's classes {mapped} differ from the classes of {source} "
            f"{[str(name) for name in names]}"
        )


def scores_of(args, table, calibration):
    """The scores of ``table`` as probabilities, columns in its order: through the map of ``--calibration`` if given.

    Without a map, as :func:`polyroc.cli._scores.probabilities`. With one, its
    classes must be the file's; a map fitted on logits needs ``--from-logits``
    and takes the scores as given, a map fitted on probabilities takes them
    after ``--normalize`` or softmax (``--from-logits``).
    """
    if calibration is None:
        return probabilities(args, table)
    from polyroc._class_names import column_order

    calibrator = calibration[0]
    check_map_classes(args, calibrator, table.classes, table.source)
    takes_logits = bool(calibrator.settings["from_logits"])
    if takes_logits and not args.from_logits:
        raise ValueError(
            f"--calibration {args.calibration} takes logits (it was fitted with --from-logits); "
            f"add --from-logits for the logits of {table.source}"
        )
    scores = _raw_logits(table) if takes_logits else probabilities(args, table)
    mapped = calibrator.classes.tolist()
    with blamed_on(table.source):
        calibrated = calibrator.transform(scores[:, column_order(table.classes, mapped)])
    return calibrated[:, column_order(mapped, table.classes)]
