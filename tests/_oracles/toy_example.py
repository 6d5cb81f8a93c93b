"""The 24-point toy example of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794, and its counts by a loop.

``tests/thresholds/test_toy_example.py`` says how the points were designed and checks the paper's table.
"""

from fractions import Fraction

import numpy as np

# (label, numerators of p over 120, multiplicity)
POINTS = [
    (0, (120, 0, 0), 4),
    (0, (57, 47, 16), 1),
    (0, (54, 32, 34), 1),
    (0, (0, 0, 120), 1),
    (1, (120, 0, 0), 1),
    (1, (54, 32, 34), 1),
    (1, (40, 77, 3), 2),
    (1, (0, 120, 0), 1),
    (1, (5, 81, 34), 1),
    (1, (0, 65, 55), 1),
    (2, (120, 0, 0), 1),
    (2, (54, 32, 34), 1),
    (2, (40, 77, 3), 1),
    (2, (0, 65, 55), 1),
    (2, (0, 0, 120), 6),
]
Y = np.repeat([label for label, _, k in POINTS], [k for _, _, k in POINTS])
P = np.repeat(np.array([p for _, p, _ in POINTS]) / 120, [k for _, _, k in POINTS], axis=0)

F = Fraction
TAUS = [(F(1, 3), F(1, 3), F(1, 3)), (F(1, 2), F(1, 3), F(1, 6)), (F(1, 8), F(3, 4), F(1, 8))]


def exact_counts(tau):
    """Confusion counts of argmax(p - tau), from the dataset, by a plain loop."""
    counts = np.zeros((3, 3), dtype=int)
    for label, p in zip(Y, P):
        counts[label, int(np.argmax(p - np.array([float(t) for t in tau])))] += 1
    return counts
