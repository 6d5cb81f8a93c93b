"""The decisions section's figure shows exactly the expected costs and intervals of the section's table.

The oracle is the results document (``results.json``): the figure's error bars are read back from the Axes
that drew the section's figure and compared with the section's numbers there.
"""

import numpy as np
import pytest
from matplotlib.container import ErrorbarContainer

from polyroc.report import _figures, build_report
from polyroc.report._results import results_document
from tests.report.report_steps import run_decisions_step

COSTS = np.array([[0.0, 1.0, 1.0], [5.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
PRIORS = [0.2, 0.5, 0.3]


def _scores(rng, y, strength):
    raw = rng.dirichlet(np.ones(3), y.size) + strength * np.eye(3)[y]
    return raw / raw.sum(axis=1, keepdims=True)


def _data(seed):
    rng = np.random.default_rng(seed)
    y_val, y_test = rng.integers(0, 3, 150), rng.integers(0, 3, 200)
    return y_test, _scores(rng, y_test, 0.4), y_val, _scores(rng, y_val, 0.4)


def _decisions_figure(monkeypatch, target_priors):
    """The decisions step of one model alone: the Axes its figure was drawn on, the figure, the results document."""
    y, scores, y_val, val_scores = _data(5)
    inputs, analysis, _ = run_decisions_step(
        y, scores, costs=COSTS, y_val=y_val, val_scores=val_scores, target_priors=target_priors, n_boot=20
    )
    drawn = []
    draw = _figures.draw_decisions

    def recording(ax, record):
        draw(ax, record)
        drawn.append(ax)

    monkeypatch.setattr(_figures, "draw_decisions", recording)
    figure = _figures._decisions(analysis, inputs)
    results = results_document(inputs, [analysis], None, title="t", source="s", notes=())
    return drawn, figure, results["models"]["model"]["decisions"]


def _bars(ax):
    """Per marker set (legend label): (estimates, lows, highs) in drawing order, read from the error bars."""
    found = {}
    for container in ax.containers:
        assert isinstance(container, ErrorbarContainer)
        line, _, (segments,) = container.lines
        ends = np.array([[segment[0][0], segment[1][0]] for segment in segments.get_segments()])
        found[container.get_label()] = (np.asarray(line.get_xdata()), ends[:, 0], ends[:, 1])
    return found


@pytest.mark.parametrize("target_priors", [None, PRIORS])
def test_the_figure_plots_the_numbers_of_the_decisions_table(monkeypatch, target_priors):
    drawn, figure, section = _decisions_figure(monkeypatch, target_priors)
    (ax,) = drawn
    tables = {"at the test's class shares": section["costs"]}
    if target_priors is not None:
        tables["at the target priors (given)"] = section["at_priors"]["costs"]
    bars = _bars(ax)
    assert set(bars) == set(tables)
    for label, costs in tables.items():
        estimate, low, high = bars[label]
        rules = list(costs)
        assert rules == ["argmax", "bayes", "tuned"]
        np.testing.assert_allclose(estimate, [costs[r]["estimate"] for r in rules], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(low, [costs[r]["low"] for r in rules], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(high, [costs[r]["high"] for r in rules], rtol=1e-12, atol=1e-15)
    assert [tick.get_text() for tick in ax.get_yticklabels()] == ["argmax", "Bayes rule", "cost-tuned τ"]
    assert ax.get_xlabel() == "expected cost per case (lower is better)"
    assert ax.get_xlim()[0] < 0 < max(high)  # a cost of 0 is drawn inside the Axes
    assert figure.key == "decisions" and figure.png.startswith(b"\x89PNG")
    assert "Lower is better" in figure.caption
    assert ("squares at the target priors" in figure.caption) == (target_priors is not None)


@pytest.mark.slow
def test_the_page_shows_the_figure_in_each_decisions_section(tmp_path):
    y, scores, y_val, val_scores = _data(6)
    report = build_report(
        y,
        {"sharp": scores, "blunt": np.roll(scores, 1, axis=0)},
        y_val=y_val,
        val_scores={"sharp": val_scores, "blunt": val_scores},
        n_boot=20,
        random_state=0,
        cost_matrix=COSTS,
        target_priors=PRIORS,
    )
    page = report.to_html()
    for model_id in ("m1-sharp", "m2-blunt"):
        section = page.split(f'id="decisions-{model_id}"', 1)[1].split("<h3", 1)[0]
        assert f'<figure id="fig-{model_id}-decisions">' in section
        assert 'alt="Expected cost per case on test of each rule' in section
    written = report.write(tmp_path / "report")
    assert (written / "figures" / "m1-sharp-decisions.png").read_bytes().startswith(b"\x89PNG")
    plain = build_report(y, {"model": scores}, n_boot=20, random_state=0)
    assert "decisions" not in [figure.key for figure in plain.figures["model"]]
