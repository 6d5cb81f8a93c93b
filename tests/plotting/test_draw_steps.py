"""``draw_steps`` draws what ``Axes.stairs`` draws: same vertices, data limits, view limits, legend and pixels."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from polyroc.plotting import TuningProfileDisplay
from polyroc.plotting._common import draw_steps
from polyroc.plotting._profile import upper_envelope
from polyroc.thresholds import coordinate_profile


def _drawn(draw):
    figure = Figure(figsize=(4, 3), dpi=80)
    ax = figure.subplots()
    ax.axhline(0.5, color="grey")
    patch = draw(ax)
    ax.legend()
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    return ax, patch, np.asarray(canvas.buffer_rgba()).copy()


@pytest.mark.parametrize("n_steps", [1, 7, 3000])
def test_draw_steps_same_as_stairs(n_steps):
    rng = np.random.default_rng(n_steps)
    edges = np.sort(rng.normal(size=n_steps + 1)) * 3 + 1
    values = rng.uniform(0.2, 2.5, size=n_steps)
    style = {"color": "C1", "linewidth": 1.5, "label": "steps"}
    ax_ref, ref, pixels_ref = _drawn(lambda ax: ax.stairs(values, edges, baseline=None, **style))
    ax_new, new, pixels_new = _drawn(lambda ax: draw_steps(ax, values, edges, **style))
    np.testing.assert_array_equal(new.get_path().vertices, ref.get_path().vertices)
    np.testing.assert_array_equal(ax_new.dataLim.get_points(), ax_ref.dataLim.get_points())
    assert ax_new.get_xlim() == ax_ref.get_xlim() and ax_new.get_ylim() == ax_ref.get_ylim()
    assert new in ax_new.patches and ax_new.get_legend().get_texts()[-1].get_text() == "steps"
    np.testing.assert_array_equal(pixels_new, pixels_ref)
    ax_new.relim()  # the steps still count once limits are recomputed
    ax_ref.relim()
    np.testing.assert_array_equal(ax_new.dataLim.get_points(), ax_ref.dataLim.get_points())


def test_draw_steps_with_baseline_is_stairs():
    figure = Figure()
    ax = figure.subplots()
    patch = draw_steps(ax, [1.0, 2.0], [0.0, 1.0, 2.0], baseline=0.0, fill=True)
    assert patch.get_fill() and patch.get_data().baseline == 0.0 and 0.0 in patch.sticky_edges.y


def test_tuning_profile_draws_the_envelope_with_stairs_limits():
    rng = np.random.default_rng(0)
    n = 6000  # more profile steps than drawn: the drawn line is the envelope
    y = rng.integers(0, 4, size=n)
    scores = rng.dirichlet(np.ones(4), size=n)
    profile = coordinate_profile(y, scores, [0.25] * 4)
    disp = TuningProfileDisplay(profile).plot()
    reference = Figure().subplots()
    for line, edges, values in zip(disp.lines_, profile.edges, profile.values):
        drawn_values, drawn_edges = upper_envelope(values, edges)
        data = line.get_data()
        np.testing.assert_array_equal(data.values, drawn_values)
        np.testing.assert_array_equal(data.edges, drawn_edges)
        reference.stairs(drawn_values, drawn_edges, baseline=None)
    for artist in (disp.argmax_line_, disp.best_marker_):
        reference.add_line(type(artist)(*artist.get_data()))
    reference.axvline(0.0)
    # the Display's data limits are those ``Axes.stairs`` gives for the same steps and lines
    np.testing.assert_allclose(disp.ax_.dataLim.get_points(), reference.dataLim.get_points(), rtol=0, atol=0)
    plt.close(disp.figure_)
