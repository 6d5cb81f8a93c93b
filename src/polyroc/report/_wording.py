"""Numbers, p-values and lists in the words of the report's readings, shared by every section's readings."""

from __future__ import annotations

from typing import Any

from polyroc._results import fixed_decimals

__all__ = ["SIGNIFICANCE", "format_number", "format_p_value", "listed"]

#: Level below which a Holm-adjusted p-value counts as a difference.
SIGNIFICANCE = 0.05


def format_number(value: float | None, digits: int = 3, missing: str = "undefined") -> str:
    """``value`` with ``digits`` decimals; ``missing`` for None (NaN in ``results.json``); never "-0.000".

    Unlike :func:`polyroc._results.number_text` of the notebook views, it keeps ``digits`` decimals
    for every value (3.1e-09 reads 0.000): the readings quote an estimate beside its interval's bounds at
    one precision, and name an undefined value in words; p-values have :func:`format_p_value`.

    >>> format_number(-0.0001), format_number(0.1234, 2), format_number(None, missing="—")
    ('0.000', '0.12', '—')
    >>> format_number(3.1e-9)
    '0.000'
    """
    return missing if value is None else fixed_decimals(value, digits)


def format_p_value(p: float | None) -> str:
    """A p-value as text: three decimals, "< 0.001" below, "—" when undefined (None).

    >>> format_p_value(0.04321), format_p_value(0.00002), format_p_value(None)
    ('0.043', '< 0.001', '—')
    """
    if p is None:
        return "—"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def listed(names: Any) -> str:
    """Names joined in words: ``a``, ``a and b``, ``a, b and c``.

    >>> listed(["a"]), listed(["a", "b", "c"])
    ('a', 'a, b and c')
    """
    names = [str(name) for name in names]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
