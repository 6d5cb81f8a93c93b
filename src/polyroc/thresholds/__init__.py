"""The simplex threshold framework of Legnaro, Guastavino & Marchetti (2025), arXiv:2511.21794.

Rules: :func:`predict` (argmax(p - tau)), :func:`ovr_assign`,
:func:`apply_thresholds`; competing rules: :func:`frechet_predict`,
:func:`inflated_argmax` and the set metrics; the lattice and Monte Carlo
thresholds tau on the simplex or the box; :func:`threshold_batches` (counts
for a whole sample of thresholds); :func:`tune_thresholds` returning a
:class:`TuningResult`; :func:`coordinate_profile`, the exact score along each
threshold coordinate through tau*; ROC clouds and DFP (:func:`roc_cloud`);
:func:`compare_rules`, tuning on validation data and comparing the rules on
test data; :func:`cross_validated_tuning`, tau* tuned on each cross-validation
fold; and :class:`SimplexThresholdClassifier`, a scikit-learn meta-estimator.
Result objects follow :class:`polyroc._results.Result`.
"""

from polyroc.thresholds.batches import coordinate_start_resolution, default_resolution, threshold_batches
from polyroc.thresholds.clouds import RocCloud, cloud_rates, default_cloud_samples, dfp, roc_cloud
from polyroc.thresholds.compare import RuleComparison, compare_rules
from polyroc.thresholds.competing import (
    accuracy_among_singletons,
    average_set_size,
    coverage,
    embedding_distance,
    frechet_predict,
    inflated_argmax,
    ordinal_distance,
    singleton_correct,
    singleton_rate,
)
from polyroc.thresholds.cross_validation import CrossValidatedTuning, cross_validated_tuning
from polyroc.thresholds.estimator import SimplexThresholdClassifier
from polyroc.thresholds.profile import CoordinateProfile, coordinate_profile
from polyroc.thresholds.rules import apply_thresholds, ovr_assign, predict
from polyroc.thresholds.samplers import barycentre, iter_lattice, iter_random_thresholds, lattice_size
from polyroc.thresholds.tuning import TuningResult, tune_thresholds

__all__ = [
    "CoordinateProfile",
    "CrossValidatedTuning",
    "RocCloud",
    "RuleComparison",
    "SimplexThresholdClassifier",
    "TuningResult",
    "accuracy_among_singletons",
    "apply_thresholds",
    "average_set_size",
    "barycentre",
    "cloud_rates",
    "compare_rules",
    "coordinate_profile",
    "coordinate_start_resolution",
    "coverage",
    "cross_validated_tuning",
    "default_cloud_samples",
    "default_resolution",
    "dfp",
    "embedding_distance",
    "frechet_predict",
    "inflated_argmax",
    "iter_lattice",
    "iter_random_thresholds",
    "lattice_size",
    "ordinal_distance",
    "ovr_assign",
    "predict",
    "roc_cloud",
    "singleton_correct",
    "singleton_rate",
    "threshold_batches",
    "tune_thresholds",
]
