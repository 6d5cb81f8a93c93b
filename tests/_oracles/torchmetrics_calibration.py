"""torchmetrics' multiclass calibration errors of seeded inputs, stored so that the tests need no torch.

Run by hand where torchmetrics (and torch) are installed::

    python tests/_oracles/torchmetrics_calibration.py

It writes ``torchmetrics_calibration.json`` beside this file: for each case its seed, size and classes, the
torchmetrics version and ``multiclass_calibration_error(preds, target, num_classes=m, n_bins=15, norm=norm)``
for ``norm`` in l1, l2 and max. :func:`calibration_case` regenerates the inputs from the seed, so the tests
compare polyroc's values on the same inputs with the stored ones. No score is exactly 1 (softmax of bounded
logits), where torchmetrics opens a bin of its own.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

#: The stored values, beside this file.
ORACLE_FILE = Path(__file__).with_suffix(".json")

#: (seed, rows, classes, logit scale) of each case.
CASES = ((0, 500, 3, 1.0), (1, 2000, 5, 3.0), (2, 1500, 4, 0.3), (3, 97, 10, 5.0))

NORMS = ("l1", "l2", "max")


def calibration_case(seed: int, n: int, m: int, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """Labels (n,) and probabilities (n, m) of one case: a softmax of scaled normal logits nudged to the label."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = scale * rng.normal(size=(n, m)) + np.eye(m)[y]
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return y, exp / exp.sum(axis=1, keepdims=True)


def torchmetrics_errors(y: np.ndarray, proba: np.ndarray) -> dict[str, float]:
    """torchmetrics' top-label errors of 15 uniform bins for each norm (needs torch and torchmetrics)."""
    import torch
    from torchmetrics.functional.classification import multiclass_calibration_error

    preds, target = torch.tensor(proba, dtype=torch.float64), torch.tensor(y)
    return {
        norm: float(multiclass_calibration_error(preds, target, num_classes=proba.shape[1], n_bins=15, norm=norm))
        for norm in NORMS
    }


def main() -> None:
    import torchmetrics

    cases = []
    for seed, n, m, scale in CASES:
        y, proba = calibration_case(seed, n, m, scale)
        cases.append({"seed": seed, "n": n, "m": m, "scale": scale, "errors": torchmetrics_errors(y, proba)})
    document = {"torchmetrics": torchmetrics.__version__, "n_bins": 15, "cases": cases}
    ORACLE_FILE.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
