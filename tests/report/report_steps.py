"""Some of the report's steps of one model alone, for the tests of their tables, readings and figures."""

from polyroc.report._analysis import ModelAnalysis, analysis_steps
from polyroc.report._inputs import check_report_inputs
from polyroc.report._results import results_document


def run_report_steps(y, scores, *, steps, y_val=None, val_scores=None, sample_weight=None, n_boot=30, **options):
    """The inputs, the analysis and the results document of one model named "model" (no figures).

    Only the steps whose description contains one of the words of ``steps`` run;
    ``options`` go to the report's input checks (``cost_matrix``, ``target_priors``).
    """
    inputs = check_report_inputs(
        y,
        {"model": scores},
        y_val=y_val,
        val_scores=None if val_scores is None else {"model": val_scores},
        sample_weight=sample_weight,
        n_boot=n_boot,
        random_state=0,
        **options,
    )
    analyses = [ModelAnalysis("model")]
    for description, step in analysis_steps(inputs, analyses):
        if description.startswith("model: ") and any(word in description for word in steps):
            step()
    return inputs, analyses[0], results_document(inputs, analyses, None, title="t", source="s", notes=())


def run_decisions_step(y, scores, *, costs, target_priors=None, **options):
    """:func:`run_report_steps` of the decisions step under the cost matrix ``costs``."""
    return run_report_steps(y, scores, steps=("decisions",), cost_matrix=costs, target_priors=target_priors, **options)
