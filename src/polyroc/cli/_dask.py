"""``--engine dask``: ``evaluate`` and ``report`` on score files read and evaluated on a dask cluster."""

from __future__ import annotations

import contextlib
import os
from contextlib import contextmanager

from polyroc._text import count_noun
from polyroc.cli._scores import named_paths, paired_models
from polyroc.cli._terminal import showing_progress


def dask_modules():
    try:
        import distributed

        import polyroc.dask
    except ImportError:
        raise ValueError("--engine dask needs dask: pip install 'polyroc[dask]'") from None
    return distributed, polyroc.dask


@contextmanager
def dask_cluster(args):
    """A client of the --scheduler, or of a local cluster of --workers processes closed afterwards."""
    import logging

    distributed, _ = dask_modules()
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
    _, dask_api = dask_modules()
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


def _sample_columns(options):
    return {key: options[key] for key in ("label_col", "score_cols", "sample_weight_col")}


def evaluate_on_dask(args):
    """``polyroc evaluate --engine dask``: the score files (a glob) evaluated on a dask cluster."""
    _, dask_api = dask_modules()
    if args.scores is None:
        raise ValueError("--engine dask needs --scores: a score file or a glob of them (e.g. 'parts/*.parquet')")
    frame, score_cols = _score_frame(args, args.scores)
    with dask_cluster(args), showing_progress(args) as display:
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


def report_on_dask(args, display):
    """``polyroc report --engine dask``: exact metrics of every row, the other sections on a stratified sample."""
    import numpy as np

    _, dask_api = dask_modules()
    if args.id_col:
        raise ValueError(
            '--id-col NAME is not supported with --engine dask, which matches no ids: pass --id-col "" to pair '
            "the rows of the models' files by position (they must hold the same rows in the same order)"
        )
    for option in ("--scores", "--val"):
        if args.id_col is None and len(named_paths(option, getattr(args, option[2:]) or [])) > 1:
            raise ValueError(
                f'{option}: --engine dask pairs the rows of several models\' files by position; pass --id-col "" '
                "to say so (the files must hold the same rows in the same order), or use the in-memory engine, "
                "which matches rows by the index pandas writes or by --id-col NAME"
            )
    sample_options = {"rows_per_class": args.sample_rows, "seed": args.random_state}
    evaluations, samples, val_samples = {}, {}, {}
    with dask_cluster(args):
        for name, pattern in named_paths("--scores", args.scores).items():
            frame, score_cols = _score_frame(args, pattern)
            display.step(f"{name}: exact metrics on dask ({count_noun(frame.npartitions, 'file')})")
            options = _dask_options(args, score_cols)
            evaluations[name] = dask_api.evaluate(
                frame, **options, ci=args.ci, n_boot=args.n_boot, random_state=args.random_state
            )
            display.step(f"{name}: gathering a sample of the rows")
            samples[name] = dask_api.sample_rows(frame, **_sample_columns(options), **sample_options)
        for name, pattern in named_paths("--val", args.val or []).items():
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
        else paired_models({name: sample.y_score for name, sample in val_samples.items()}, samples),
        "labels": first.classes,
        "sample_weight": first.sample_weight,
        "val_sample_weight": None if val is None else val.sample_weight,
        "evaluations": evaluations,
        "population": population,
        "notes": [note],
    }
