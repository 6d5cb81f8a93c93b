"""Words in messages and labels: ``1 row``, ``2 rows`` (never ``1 rows``); ``class 3`` (never ``class class 03``)."""

from __future__ import annotations


def count_noun(count: float, noun: str, plural: str | None = None, spec: str = "") -> str:
    """``count`` followed by ``noun``, singular for exactly 1, else ``plural`` (default: English ``-s``/``-es``).

    ``spec`` formats the number (``","`` for thousands separators, ``".4g"``).

    >>> count_noun(1, "row"), count_noun(2, "row"), count_noun(1.0, "class"), count_noun(0, "class")
    ('1 row', '2 rows', '1.0 class', '0 classes')
    >>> count_noun(12345, "threshold", spec=","), count_noun(2, "class pair")
    ('12,345 thresholds', '2 class pairs')
    """
    if plural is None:
        plural = noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{count:{spec}} {noun if count == 1 else plural}"


def class_name(label: object) -> str:
    """``class 3``, or a label that already says class (``class 03``) as it is.

    >>> class_name(3), class_name("class 03"), class_name("Class A")
    ('class 3', 'class 03', 'Class A')
    """
    return str(label) if str(label).lower().startswith("class") else f"class {label}"
