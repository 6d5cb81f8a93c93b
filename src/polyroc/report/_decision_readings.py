"""The plain-words reading of a model's decisions section (computed from its ``results.json`` record alone).

It quotes each rule's expected cost on test, then reads each rule's
difference against argmax by its interval: "saves" or "costs more" only when
the interval excludes zero, else "no clear difference"; the same at the
target priors, saying where they come from (given, or estimated with
intervals).
"""

from __future__ import annotations

from typing import Any

from polyroc.report._wording import format_number

__all__ = ["RULE_NAMES", "decisions_reading", "difference_words"]

#: How the readings and the tables name the rules.
RULE_NAMES = {"argmax": "argmax", "bayes": "the Bayes rule", "tuned": "the cost-tuned rule"}


def _bounds(record: dict[str, Any]) -> str:
    return f"[{format_number(record['low'], 2)}, {format_number(record['high'], 2)}]"


def difference_words(row: dict[str, Any], level: str) -> str:
    """One difference (rule − argmax, per case) in words, claiming no more than its interval supports.

    >>> row = {"rule": "bayes", "estimate": -0.21, "low": -0.30, "high": -0.12, "changed_rows": 9}
    >>> difference_words(row, "95%")
    'The Bayes rule saves 0.21 per case against argmax, 95% CI [0.12, 0.30].'
    >>> difference_words({**row, "estimate": -0.05, "low": -0.2, "high": 0.1}, "95%")
    'The Bayes rule and argmax differ by -0.05 per case, 95% CI [-0.20, 0.10]: no clear difference on these rows.'
    """
    name = RULE_NAMES[row["rule"]]
    subject = name[0].upper() + name[1:]
    if row["changed_rows"] == 0:
        return f"{subject} decides every test row as argmax does: the same cost."
    if row["low"] is None or row["high"] is None:
        return f"{subject} minus argmax is {format_number(row['estimate'], 2)} per case (no interval)."
    if row["high"] < 0:
        return (
            f"{subject} saves {format_number(-row['estimate'], 2)} per case against argmax, {level} CI "
            f"[{format_number(-row['high'], 2)}, {format_number(-row['low'], 2)}]."
        )
    if row["low"] > 0:
        return (
            f"{subject} costs {format_number(row['estimate'], 2)} more per case than argmax, {level} CI {_bounds(row)}."
        )
    return (
        f"{subject} and argmax differ by {format_number(row['estimate'], 2)} per case, {level} CI {_bounds(row)}: "
        "no clear difference on these rows."
    )


def decisions_reading(record: dict[str, Any], confidence: float) -> str:
    """The reading of one model's ``decisions`` record."""
    level = f"{100 * confidence:g}%"
    costs = record["costs"]
    quoted = ", ".join(
        f"{RULE_NAMES[rule]} {format_number(costs[rule]['estimate'], 2)} {_bounds(costs[rule])}" for rule in costs
    )
    text = [f"Expected cost per test case under the cost matrix ({level} CI): {quoted}."]
    text += [difference_words(row, level) for row in record["differences"]]
    if "tuned" in costs:
        text.append("The thresholds were tuned on validation for least expected cost, then applied to test.")
    text.append("The Bayes rule is the least expected cost only when the scores are calibrated.")
    at = record.get("at_priors")
    if at is not None:
        priors = ", ".join(f"{name}: {format_number(value, 2)}" for name, value in at["priors"].items())
        if at["prior_intervals"] is not None:
            where = "At the class priors estimated by EM on the test scores"
            widest = max(at["prior_intervals"].values(), key=lambda r: r["high"] - r["low"])
            width = f" (the widest prior interval spans {format_number(widest['high'] - widest['low'], 2)})"
        else:
            where, width = "At the given class priors", ""
        best = min(at["costs"], key=lambda rule: at["costs"][rule]["estimate"])
        text.append(
            f"{where} ({priors}){width}, the lowest expected cost is that of {RULE_NAMES[best]}, "
            f"{format_number(at['costs'][best]['estimate'], 2)} {_bounds(at['costs'][best])}."
        )
        text += [difference_words(row, level)[:-1] + " at these priors." for row in at["differences"]]
    return " ".join(text)
