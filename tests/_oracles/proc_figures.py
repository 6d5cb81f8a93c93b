"""A pair of binary scores on shared rows and pROC's DeLong figures for them (R 4, pROC 1.18.0).

``tests/intervals/test_delong_reference.py`` gives the R script that printed the figures.
"""

import numpy as np

Y = np.array([0] * 12 + [1] * 9)
SCORE_A = np.array(
    [0.0, 0.3, -0.3, -0.9, -0.5, -1.0, 0.1, 1.3, -0.5, -0.6, 0.5, 0.4, 1.3, 0.3, 1.2, 1.9, -0.1, 0.7, -0.7, -0.1, -0.6]
)
SCORE_B = np.array(
    [
        -0.2,
        -0.8,
        0.0,
        -0.4,
        -0.4,
        -2.6,
        -0.4,
        0.7,
        -0.2,
        -1.6,
        -0.1,
        -0.5,
        0.4,
        1.3,
        0.4,
        1.4,
        0.9,
        0.3,
        -0.2,
        0.3,
        -0.0,
    ]
)
PROC_PAIR = {
    "auc_a": 0.65277777777777779,
    "auc_b": 0.91203703703703698,
    "var_a": 0.016818941732136175,
    "var_b": 0.0041931662302032669,
    "cov": 0.004695391414141414,
    "z": -2.4049522058755315,
    "p": 0.016174580998930294,
}
