"""Which method bounds which quantity: the families of ``ci`` and per-quantity choices."""

import pytest

from polyroc.evaluation._plan import CI_OPTIONS, INTERVAL_METHODS, QUANTITY_METHODS, interval_plan

QUANTITIES = tuple(QUANTITY_METHODS)
PROPORTIONS = ("accuracy", "recall", "top_2_accuracy")
COMPOSITES = ("balanced_accuracy", "f1_macro", "cohen_kappa", "matthews_corrcoef", "precision", "f1-score")
AUCS = ("roc_auc_ovr_macro", "roc_auc_ovr_weighted", "roc_auc_ovr_micro", "roc_auc_ovo_macro")
MEANS = ("log_loss", "brier_score", "expected_cost")
CALIBRATION = ("ece_top_label", "ece_classwise")


def test_the_kinds_cover_every_quantity_once():
    assert sorted(PROPORTIONS + COMPOSITES + AUCS + MEANS + CALIBRATION) == sorted(QUANTITIES)
    assert all("bootstrap" in methods for methods in QUANTITY_METHODS.values())
    assert set().union(*QUANTITY_METHODS.values()) == set(INTERVAL_METHODS)


@pytest.mark.parametrize("family", ["auto", "analytic"])
def test_auto_and_analytic_take_the_closed_forms_and_the_posterior_for_composites(family):
    plan = interval_plan(family, QUANTITIES)
    assert {plan[q] for q in PROPORTIONS} == {"wilson"}
    assert {plan[q] for q in COMPOSITES} == {"bayes"}
    assert {plan[q] for q in AUCS} == {"delong"}
    assert {plan[q] for q in MEANS} == {"t"}


def test_bayes_takes_the_posterior_wherever_the_confusion_matrix_decides_the_quantity():
    plan = interval_plan("bayes", QUANTITIES)
    assert plan["accuracy"] == plan["recall"] == "bayes"
    assert plan["top_2_accuracy"] == "wilson"  # top-2 hits are not in the confusion matrix
    assert {plan[q] for q in AUCS} == {"delong"}


def test_bootstrap_resamples_everything_and_a_mapping_overrides_auto():
    assert set(interval_plan("bootstrap", QUANTITIES).values()) == {"bootstrap"}
    plan = interval_plan({"accuracy": "clopper-pearson", "roc_auc_ovo_macro": "bootstrap"}, QUANTITIES)
    assert plan == {
        **interval_plan("auto", QUANTITIES),
        "accuracy": "clopper-pearson",
        "roc_auc_ovo_macro": "bootstrap",
    }
    assert CI_OPTIONS == ("auto", "analytic", "bayes", "bootstrap")


@pytest.mark.parametrize(
    ("ci", "error", "message"),
    [
        ("wilson", ValueError, "ci must be one of 'auto', 'analytic', 'bayes', 'bootstrap', 'none' or a mapping"),
        (["auto"], TypeError, "ci must be a string or a mapping"),
        ({"precision": "wilson"}, ValueError, "'wilson' does not apply to 'precision'; it takes 'bayes', 'bootstrap'"),
        ({"roc_auc_ovr_macro": "bayes"}, ValueError, "it takes 'delong', 'bootstrap'"),
        ({"auc": "delong"}, ValueError, "unknown quantity 'auc'"),
        ({"log_loss": "normal"}, ValueError, r"ci\['log_loss'\] is an unknown method 'normal'"),
    ],
)
def test_bad_choices_name_the_quantity_and_the_methods_that_apply(ci, error, message):
    with pytest.raises(error, match=message):
        interval_plan(ci, QUANTITIES)
