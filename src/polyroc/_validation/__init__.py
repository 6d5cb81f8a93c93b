"""Every input check of polyroc and its error messages, in one place.

Each check raises a ``ValueError`` (or ``TypeError`` for a wrong kind of object)
naming the argument, what was expected and what was found, before any work is
done. Public functions call these helpers first and document the errors they
can raise.

The checks are grouped by what they check: :mod:`~polyroc._validation._arrays`
(conversion to arrays), :mod:`~polyroc._validation._labels`,
:mod:`~polyroc._validation._scores`, :mod:`~polyroc._validation._weights`,
:mod:`~polyroc._validation._options` (scalar options) and
:mod:`~polyroc._validation._numeric` (other numeric inputs). Where the
scikit-learn-named functions of :mod:`polyroc.metrics` accept what scikit-learn
accepts and polyroc's own functions are stricter, both checks sit side by side
in the same module, the former named ``*_sklearn``.
"""

from polyroc._validation._arrays import as_array, check_same_length, describe
from polyroc._validation._labels import (
    LabelPair,
    check_column_labels_sklearn,
    check_label_input_sklearn,
    check_label_kinds,
    check_label_pair_sklearn,
    check_label_vector,
    check_labels_argument,
    check_labels_argument_sklearn,
    check_positive_label_sklearn,
    check_targets,
    encode_labels,
    encode_labels_allowing_unknown,
    resolve_classes,
    unique_values,
)
from polyroc._validation._numeric import (
    THRESHOLD_DOMAINS,
    check_counts,
    check_distance_matrix,
    check_min_samples,
    check_model_scores,
    check_positive_array,
    check_quantile_levels,
    check_real_array,
    check_thresholds,
)
from polyroc._validation._options import (
    check_boolean,
    check_option,
    check_positive_int,
    check_random_state,
    check_real,
    check_real_or_nan,
    check_zero_division,
)
from polyroc._validation._scores import (
    SIMPLEX_ATOL,
    ScoredTargets,
    check_class_support,
    check_frames_in_one_order,
    check_prediction_sets,
    check_probability_range_sklearn,
    check_score_input_sklearn,
    check_score_matrix,
    check_scores,
    float_scores_sklearn,
    score_column_names,
    warn_column_order,
)
from polyroc._validation._weights import (
    ScaledWeights,
    check_sample_weight,
    check_sample_weight_sklearn,
    check_weight_total,
    scale_weights,
    with_scaled_weights,
)

__all__ = [
    "SIMPLEX_ATOL",
    "THRESHOLD_DOMAINS",
    "LabelPair",
    "ScaledWeights",
    "ScoredTargets",
    "as_array",
    "check_boolean",
    "check_class_support",
    "check_column_labels_sklearn",
    "check_counts",
    "check_distance_matrix",
    "check_frames_in_one_order",
    "check_label_input_sklearn",
    "check_label_kinds",
    "check_label_pair_sklearn",
    "check_label_vector",
    "check_labels_argument",
    "check_labels_argument_sklearn",
    "check_min_samples",
    "check_model_scores",
    "check_option",
    "check_positive_array",
    "check_positive_int",
    "check_positive_label_sklearn",
    "check_prediction_sets",
    "check_probability_range_sklearn",
    "check_quantile_levels",
    "check_random_state",
    "check_real",
    "check_real_array",
    "check_real_or_nan",
    "check_same_length",
    "check_sample_weight",
    "check_sample_weight_sklearn",
    "check_score_input_sklearn",
    "check_score_matrix",
    "check_scores",
    "check_targets",
    "check_thresholds",
    "check_weight_total",
    "check_zero_division",
    "describe",
    "encode_labels",
    "encode_labels_allowing_unknown",
    "float_scores_sklearn",
    "resolve_classes",
    "scale_weights",
    "score_column_names",
    "unique_values",
    "warn_column_order",
    "with_scaled_weights",
]
