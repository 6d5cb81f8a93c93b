"""Score files as the commands read them: the column options, probabilities, class order and model names.

Errors name the file (and the row or line) and the command-line flags rather
than the library's keywords.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from pathlib import Path

from polyroc.cli._terminal import note


@contextmanager
def blamed_on(source):
    """Name ``source`` (the file the data came from) in a ValueError or TypeError of the block."""
    try:
        yield
    except (ValueError, TypeError) as error:
        raise (TypeError if isinstance(error, TypeError) else ValueError)(f"{source}: {error}") from None


def read_table(args, path, *, classes=None, label_col="option", display=None):
    """The score file ``path`` read with the column options; ``classes``: the score columns the file must have."""
    from polyroc.io import read_scores

    if display is not None:
        display.step(f"reading {path}")
    table = read_scores(
        path,
        label_col=args.label_col if label_col == "option" else label_col,
        id_col=args.id_col or None,  # --id-col "": no id column, an unnamed first column is still no score
        weight_col=getattr(args, "weight_col", None),
        score_columns=classes if classes is not None else args.score_cols,
        score_prefix=args.score_prefix,
    )
    if table.ignored_columns:
        note(
            args,
            f"{path}: columns {list(table.ignored_columns)} (named by no label of column {args.label_col!r}, "
            "holding text or distinct whole numbers) were not read as scores; --id-col names an id column, "
            "--score-cols lists the score columns",
        )
    return table


_PROBABILITY_HINTS = (
    (
        "pass normalize_rows=True to rescale them or from_logits=True for logits",
        "add --normalize to rescale them (e.g. rounded probabilities) or --from-logits if they are logits",
    ),
    ("(pass from_logits=True for logits)", "(add --from-logits if they are logits)"),
    ("(normalize_rows=True)", "(--normalize)"),
    ("y_score", "the scores"),
)


def probabilities(args, table):
    """The scores of ``table`` as probabilities (``--normalize``, ``--from-logits``); errors name the flags."""
    from polyroc._validation import check_score_matrix

    try:
        return check_score_matrix(
            table.y_score, normalize_rows=args.normalize, from_logits=args.from_logits, transform_options=True
        )
    except ValueError as error:
        text = str(error)
        for python, flags in _PROBABILITY_HINTS:
            text = text.replace(python, flags)
        text = re.sub(r"\brow (\d+)", lambda match: table.where(int(match.group(1))), text)
        if table.ignored_columns and "sum to 1" in text:
            text += (
                f"; columns {list(table.ignored_columns)} were not read as scores: if they are "
                "classes, list every score column with --score-cols"
            )
        raise ValueError(f"{table.source}: {text}") from None


def in_class_order(names, labels, score_matrices):
    """Classes typed and ordered by the class-name rule, ``labels`` as those classes, columns in their order."""
    from polyroc._class_names import class_order

    rule = class_order(names)
    labels = None if labels is None else rule.labels(labels)
    return rule.classes, labels, [scores[:, rule.order] for scores in score_matrices]


def named_paths(option, values):
    """``[NAME=]PATH`` arguments as ``{name: path}``; the name defaults to the file's stem.

    A value that is the path of an existing file is a PATH even if it holds ``=``.
    """
    from polyroc.report._inputs import check_model_name

    named = {}
    for value in values:
        name, separator, path = value.partition("=")
        if not separator or Path(value).is_file():
            name, path = Path(value).stem, value
        if not name or not path:
            raise ValueError(f"{option} {value!r}: expected PATH or NAME=PATH")
        check_model_name(option, name)
        if name in named:
            raise ValueError(f"{option}: model name {name!r} given twice; name the files with NAME=PATH")
        named[name] = path
    return named


def paired_models(val_scores, y_score):
    """``val_scores`` keyed by the ``--scores`` model names: by name, else by position (file stems may differ)."""
    if set(val_scores) == set(y_score):
        return val_scores
    if len(val_scores) != len(y_score):
        raise ValueError(f"--val names models {sorted(val_scores)} but --scores names {sorted(y_score)}")
    return dict(zip(y_score, val_scores.values()))
