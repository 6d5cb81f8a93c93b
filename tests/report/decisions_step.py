"""The report's decisions step of one model alone, for the tests of its tables, readings and figure."""

from polyroc.report._analysis import ModelAnalysis, analysis_steps
from polyroc.report._inputs import check_report_inputs
from polyroc.report._results import results_document


def run_decisions_step(
    y, scores, *, costs, y_val=None, val_scores=None, target_priors=None, sample_weight=None, n_boot=30
):
    """The inputs, the decisions analysis and the results document of one model named "model" (no figures)."""
    inputs = check_report_inputs(
        y,
        {"model": scores},
        y_val=y_val,
        val_scores=None if val_scores is None else {"model": val_scores},
        sample_weight=sample_weight,
        n_boot=n_boot,
        random_state=0,
        cost_matrix=costs,
        target_priors=target_priors,
    )
    analyses = [ModelAnalysis("model")]
    for description, step in analysis_steps(inputs, analyses):
        if "decisions" in description:
            step()
    return inputs, analyses[0], results_document(inputs, analyses, None, title="t", source="s", notes=())
