"""The notebook views lead with the result, and the API, the command line and the README agree.

Each ``_repr_html_`` shows the estimates with their intervals and interval
methods (and the per-class table, τ* with its classes, the differences with
their p-values) before the settings, which it folds in ``<details>``; an odd
state gets one plain sentence. The claim under test is that the view SHOWS
the result's numbers, so the expected text is the result's own values,
formatted here independently (four decimals); the confusion matrix is checked
against scikit-learn's.
"""

from __future__ import annotations

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest
from sklearn.metrics import accuracy_score, confusion_matrix, f1_score

import polyroc
from polyroc.report import build_report


def _problem(n=300, m=3, seed=0, strength=1.5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, m, n)
    logits = rng.normal(size=(n, m)) + strength * np.eye(m)[y]
    return y, np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)


def _four(value):
    """A number as a reader sees it: four decimals, or four significant digits where a non-zero would read 0.0000."""
    return f"{value:.4f}" if abs(value) >= 5e-5 or value == 0 else f"{value:.4g}"


def _bounds(low, high):
    return f"[{_four(low)}, {_four(high)}]"


def _row(view, heading):
    """The cells of the first table row headed ``heading``, and where it starts."""
    start = view.index(f"<tr><th>{heading}</th>")
    return view[start : view.index("</tr>", start)], start


def _folded(view):
    return view.index("<details><summary>settings</summary>")


def test_evaluation_view_shows_each_interval_and_method_the_classes_and_the_matrix():
    y, P = _problem()
    result = polyroc.evaluate(y, P, n_boot=50, random_state=0)
    view = result._repr_html_()
    folded = _folded(view)
    for name, interval in result.intervals.items():
        cells, start = _row(view, name)
        assert start < folded
        assert f"<td>{_four(interval.estimate)}</td><td>{_bounds(interval.low, interval.high)}</td>" in cells
        assert interval.method in cells
    for by_class in result.class_intervals.values():
        for interval in by_class.values():
            assert f"{_four(interval.estimate)} {_bounds(interval.low, interval.high)}" in view[:folded]
    expected = confusion_matrix(y, P.argmax(axis=1))
    for label, counts in zip(result.classes, expected):
        assert f"<tr><th>{label}</th>" + "".join(f"<td>{count}</td>" for count in counts) + "</tr>" in view[:folded]
    assert view.index("<th>random_state</th>") > folded


def test_evaluation_view_without_intervals_says_so():
    y, P = _problem(n=60)
    view = polyroc.evaluate(y, P, n_boot=0)._repr_html_()
    assert "No intervals" in view[: _folded(view)]
    cells, _ = _row(view, "accuracy")
    assert f"<td>{_four(accuracy_score(y, P.argmax(axis=1)))}</td>" in cells


def test_evaluate_accepts_ci_none_as_the_command_line_does():
    y, P = _problem(n=80)
    result = polyroc.evaluate(y, P, ci="none", random_state=0)
    assert result.intervals == {} and result.class_intervals == {}
    assert result.settings["ci"] == "none"
    assert result.scores["accuracy"] == pytest.approx(accuracy_score(y, P.argmax(axis=1)))
    assert "[95% CI" not in result.to_text()


def test_score_comparison_view_shows_differences_intervals_and_p_values():
    y, P = _problem(seed=1)
    _, Q = _problem(seed=2, strength=1.0)
    result = polyroc.compare_scores(y, {"strong": P, "weak": Q}, n_boot=50, random_state=0)
    view = result._repr_html_()
    folded = _folded(view)
    for row in result.comparisons:
        expected = (
            f"<td>{row['model']} − {row['other']}</td><td>{_four(row['difference'])}</td>"
            f"<td>{_bounds(row['low'], row['high'])}</td><td>{_four(row['p_value'])}</td>"
            f"<td>{_four(row['p_holm'])}</td><td>{row['method']}</td>"
        )
        assert 0 <= view.index(expected) < folded
    assert view.index("<th>n_boot</th>") > folded


def test_tuning_view_shows_tau_with_its_classes_first():
    y, P = _problem(n=200, seed=3)
    labels = np.array(["ant", "bee", "cow"])
    result = polyroc.tune_thresholds(labels[y], P)
    view = result._repr_html_()
    folded = _folded(view)
    for label, tau in zip(labels, result.best_threshold):
        assert 0 <= view.index(f"<tr><th>{label}</th><td>{_four(tau)}</td></tr>") < folded
    assert f"<td>{_four(result.best_score)}</td>" in view[:folded]
    assert f"<td>{_four(result.argmax_score)}</td>" in view[:folded]
    assert view.index("<th>search</th>") > folded


def test_tuning_view_explains_a_tau_equal_to_argmax():
    y = np.array([0, 1, 2] * 4)
    result = polyroc.tune_thresholds(y, np.eye(3)[y] * 0.8 + 0.2 / 3, resolution=6)
    assert result.equals_argmax
    assert "τ* is the barycentre" in result._repr_html_()


def test_dmf_view_shows_d_with_its_interval_or_why_there_is_none():
    y, P = _problem(n=240, seed=4)
    with_ci = polyroc.roc_dmf(y, P, n_levels=19, bootstrap="stratified", n_boot=30, random_state=0)
    view = with_ci._repr_html_()
    cells, start = _row(view, "D")
    assert start < _folded(view)
    assert f"<td>{_four(with_ci.D)}</td><td>{_bounds(with_ci.ci.low, with_ci.ci.high)}</td>" in cells
    assert with_ci.ci.method in cells
    cells, _ = _row(polyroc.roc_dmf(y, P, n_levels=19)._repr_html_(), "D")
    assert "no bootstrap" in cells


def test_gini_view_shows_the_interval_and_explains_a_degenerate_whitening():
    y, P = _problem(n=440, m=11, seed=5, strength=4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = polyroc.gini_roc(y, P, n_boot=30, random_state=0)
    assert result.degenerate and result.g1 == 0
    view = result._repr_html_()
    folded = _folded(view)
    interval = result.bootstrap.auc
    cells, start = _row(view, "auc_agg")
    assert start < folded and f"<td>{_bounds(interval.low, interval.high)}</td>" in cells
    assert "G₁ = 0 by construction" in view[:folded]
    condition = result.settings["condition_number"]
    assert "inf" not in view[:folded]
    assert "linearly dependent" in view[:folded]
    assert not np.isfinite(condition) or f"condition number {condition:.2g}" in view[:folded]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        index = polyroc.gini.multidimensional_gini(P)
    assert index.degenerate and "G₁ = 0 by construction" in index._repr_html_()
    for label, weight, low, high in zip(
        result.classes, result.weights, result.bootstrap.weights_low, result.bootstrap.weights_high
    ):
        assert f"<tr><th>{label}</th><td>{_four(weight)} {_bounds(low, high)}</td>" in view[:folded]


@pytest.fixture(scope="module")
def report():
    y, P = _problem(n=150, seed=6)
    _, Q = _problem(n=150, seed=7, strength=0.8)
    return build_report(y, {"first": P, "second": Q}, n_boot=20, random_state=0)


@pytest.mark.slow
def test_report_repr_is_short_and_its_view_embeds_no_image(report, tmp_path):
    text = repr(report)
    assert len(text) < 2000 and "first, second" in text and "150 test rows" in text
    view = report._repr_html_()
    assert "base64" not in view and "data:image" not in view and "<img" not in view
    assert "report.write(directory)" in view
    folded = _folded(view)
    for name, model in report.results["models"].items():
        interval = model["metrics"]["intervals"]["accuracy"]
        cells, start = _row(view, name)
        assert start < folded
        low, high = interval["low"], interval["high"]
        assert f"{interval['estimate']:.3f} [{low:.3f}, {high:.3f}]" in cells  # three decimals, as the page
    for record in report.results["warnings"]:
        assert record["message"].split(":")[0] in view[:folded]
    out = report.write(tmp_path / "report")
    assert str(out / "report.html") in repr(report) and str(out / "report.html") in report._repr_html_()


def test_tuning_plot_draws_a_default_result_of_any_number_of_classes():
    for m, display_type in ((3, "DecisionRegionsDisplay"), (4, "ThresholdsDisplay"), (6, "ThresholdsDisplay")):
        y, P = _problem(n=150, m=m, seed=m)
        result = polyroc.tune_thresholds(y, P)
        display = result.plot()
        try:
            assert type(display).__name__ == display_type
            if display_type == "ThresholdsDisplay":
                heights = [bar.get_height() for bar in display.bars_]
                np.testing.assert_array_equal(heights, result.best_threshold)
        finally:
            plt.close(display.figure_)


def test_evaluation_plot_draws_the_confusion_matrix_of_argmax():
    y, P = _problem(n=120, seed=8)
    display = polyroc.evaluate(y, P, n_boot=0).plot()
    try:
        np.testing.assert_array_equal(display.im_.get_array(), confusion_matrix(y, P.argmax(axis=1)))
    finally:
        plt.close(display.figure_)


def test_a_result_without_its_own_view_shows_its_main_table_before_the_settings():
    y, P = _problem(n=200, seed=9)
    y_val, P_val = _problem(n=200, seed=10)
    view = polyroc.compare_rules(y, P, y_val=y_val, val_scores=P_val)._repr_html_()
    argmax_test_f1 = f1_score(y, P.argmax(axis=1), average="macro")
    cells, start = _row(view, "argmax")
    assert start < _folded(view) and f"<td>{_four(argmax_test_f1)}</td>" in cells

    rates = polyroc.dmf.pairwise_rates(y, P)
    n_rows = len(rates.to_frame())
    view = rates._repr_html_()
    assert n_rows > 25 and view[: _folded(view)].count("<tr><th>") == 26  # the header row and 25 rows
    assert f"… {n_rows - 25} more rows: to_frame() has them all." in view

    interval = polyroc.evaluate(y, P, random_state=0).intervals["accuracy"]
    cells, start = _row(interval._repr_html_(), "estimate")
    assert f"<td>{_bounds(interval.low, interval.high)}</td><td>Wilson score interval</td>" in cells
