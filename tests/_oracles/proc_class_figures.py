"""Two models' tied scores on scikit-learn's wine data and pROC's per-class DeLong figures (R 4.2.2, pROC 1.18.0).

The scores are out-of-fold class probabilities (5-fold ``cross_val_predict``)
of scikit-learn's logistic regression on alcohol and malic acid (model A)
and Gaussian naive Bayes on alcohol and colour intensity (model B), on the
178 rows of ``sklearn.datasets.load_wine`` (classes of 59, 71 and 48 rows),
rounded to tenths so that many scores tie: the first two columns in tenths
(one hexadecimal digit per row, ``a`` for 10), the third the rest of 10.
They are stored, not refitted, so that the figures do not depend on the
version of scikit-learn.

For each class k, pROC's one-vs-rest figures of each model, and its paired
DeLong test of the two, were printed by this R script (Robin et al. 2011,
doi:10.1186/1471-2105-12-77)::

    library(pROC)
    digits <- function(s) strtoi(strsplit(s, "")[[1]], 16L)
    y <- digits(paste0("00000000000000000000000000000000000000000000000000000000000111111111111111111111111111111",
                    "11111111111111111111111111111111111111111222222222222222222222222222222222222222222222222"))
    a0 <- digits(paste0("96494999a9998a979895918373658987887754447181346899488887958112910171800983004011020102000",
                     "00010010010010010020001000001100000001000422111003124410210314142103097041161215102812145"))
    a1 <- digits(paste0("02201000000000010000021514230011111234401101400000410111021997099929199014aa4993a691a79aa",
                     "99977a89997988a87979a979a9aa925aa10399992545487520431105101111542800602513210131065000020"))
    b0 <- digits(paste0("9776889997999a76982993814164998779676219869549a991297897967003900070600981005000000500000",
                     "00000000000000000000000000000000000000000354421028548890491102030122000083418002110043001"))
    b1 <- digits(paste0("01000000000000000000041847140000101015700102200000000000000aa009a8082aa008aa3aaaa9a2aaaaa",
                     "aaa9aaaaa8aaaaaaaa9aaaaaaaaaa9aa4a8aa9aaa600210a40140000400000000000000001100000030000000"))
    A <- cbind(a0, a1, 10 - a0 - a1) / 10
    B <- cbind(b0, b1, 10 - b0 - b1) / 10
    for (k in 0:2) {
      ra <- roc(as.integer(y == k), A[, k + 1], levels = c(0, 1), direction = "<", quiet = TRUE)
      rb <- roc(as.integer(y == k), B[, k + 1], levels = c(0, 1), direction = "<", quiet = TRUE)
      t <- roc.test(ra, rb, method = "delong", paired = TRUE)
      cat(k, format(c(auc(ra), var(ra, method = "delong"), auc(rb), var(rb, method = "delong"),
                      t$statistic, t$p.value), digits = 17), "\\n")
    }
"""

import numpy as np

Y = (
    "00000000000000000000000000000000000000000000000000000000000111111111111111111111111111111"
    "11111111111111111111111111111111111111111222222222222222222222222222222222222222222222222"
)
A0 = (
    "96494999a9998a979895918373658987887754447181346899488887958112910171800983004011020102000"
    "00010010010010010020001000001100000001000422111003124410210314142103097041161215102812145"
)
A1 = (
    "02201000000000010000021514230011111234401101400000410111021997099929199014aa4993a691a79aa"
    "99977a89997988a87979a979a9aa925aa10399992545487520431105101111542800602513210131065000020"
)
B0 = (
    "9776889997999a76982993814164998779676219869549a991297897967003900070600981005000000500000"
    "00000000000000000000000000000000000000000354421028548890491102030122000083418002110043001"
)
B1 = (
    "01000000000000000000041847140000101015700102200000000000000aa009a8082aa008aa3aaaa9a2aaaaa"
    "aaa9aaaaa8aaaaaaaa9aaaaaaaaaa9aa4a8aa9aaa600210a40140000400000000000000001100000030000000"
)

#: Per class: each model's AUC and DeLong variance, and the paired test's z and two-sided p-value.
PROC_CLASS_FIGURES = [
    {
        "auc_a": 0.92536675687224045905,
        "var_a": 0.00038442628062260783,
        "auc_b": 0.91283292978208230295,
        "var_b": 0.00042124893379018769,
        "z": 0.59155549983526256597,
        "p": 0.55414828016195383231,
    },
    {
        "auc_a": 0.90970119784125313966,
        "var_a": 0.00061476987114892885,
        "auc_b": 0.94412268000526522460,
        "var_b": 0.00040067917164839198,
        "z": -1.62723898338447603429,
        "p": 0.10368635123416264365,
    },
    {
        "auc_a": 0.85528846153846160849,
        "var_a": 0.00094634450090562352,
        "auc_b": 0.90288461538461539657,
        "var_b": 0.00071944866456312385,
        "z": -1.15098110901774197679,
        "p": 0.24974000735616702640,
    },
]


def wine_scores():
    """The class codes (178,) and each model's (178, 3) probabilities in tenths."""

    def codes(text):
        return np.array([int(c, 16) for c in text])

    def probabilities(first, second):
        tenths = np.column_stack((codes(first), codes(second)))
        return np.column_stack((tenths, 10 - tenths.sum(axis=1))) / 10

    return codes(Y), {"A": probabilities(A0, A1), "B": probabilities(B0, B1)}
