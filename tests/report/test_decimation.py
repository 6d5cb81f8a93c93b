"""The report's long curves drawn through fewer points: geometry and pixels against the full curves.

Oracles: the brute-force distance from every point of the full polyline to
the decimated one (and back), which must stay within a grid cell's diagonal;
and the pixels of a figure rendered with every point against the same figure
decimated.
"""

import io

import numpy as np
import pytest

from polyroc.report._decimation import CELLS_PER_PIXEL, MIN_POINTS, decimate_figure, kept_points


def _segment_distances(points, polyline):
    """Distance from each point (n, 2) to the polyline (k, 2), by brute force over its segments."""
    if len(polyline) == 1:
        return np.linalg.norm(points - polyline[0], axis=1)
    a, b = polyline[:-1], polyline[1:]
    ab = b - a
    length2 = np.maximum((ab**2).sum(axis=1), 1e-300)
    t = np.clip(((points[:, None, :] - a) * ab).sum(axis=2) / length2, 0.0, 1.0)
    nearest = a + t[:, :, None] * ab
    return np.linalg.norm(points[:, None, :] - nearest, axis=2).min(axis=1)


def _staircase(rng, n):
    steps = rng.random(n) < 0.5
    x, y = np.cumsum(~steps), np.cumsum(steps)
    return np.concatenate(([0.0], x / x[-1])), np.concatenate(([0.0], y / y[-1]))


@pytest.mark.parametrize("shape", ["staircase", "walk"])
@pytest.mark.parametrize("cell", [1e-2, 3e-2])
def test_every_point_stays_within_a_cell_of_the_decimated_line(shape, cell):
    rng = np.random.default_rng(7)
    if shape == "staircase":  # a ROC curve
        x, y = _staircase(rng, 600)
    else:  # not monotone
        x, y = np.cumsum(rng.normal(size=600)) * 1e-3, np.cumsum(rng.normal(size=600)) * 1e-3
    keep = kept_points(x, y, cell, cell)
    assert keep[0] == 0 and keep[-1] == x.size - 1 and np.all(np.diff(keep) > 0)
    assert keep.size < x.size
    full, drawn = np.column_stack([x, y]), np.column_stack([x[keep], y[keep]])
    tolerance = cell * np.sqrt(2) * (1 + 1e-9)
    assert _segment_distances(full, drawn).max() <= tolerance
    # and back: points along the drawn segments lie near the full line
    t = np.linspace(0, 1, 7)[:, None, None]
    along = (drawn[:-1] + t * (drawn[1:] - drawn[:-1])).reshape(-1, 2)
    assert _segment_distances(along, full).max() <= tolerance


def test_breaks_and_non_finite_points_are_kept():
    x = np.linspace(0, 1e-4, 50)
    y = np.zeros(50)
    y[20] = np.nan
    breaks = np.zeros(50, dtype=bool)
    breaks[35] = True
    keep = kept_points(x, y, 1.0, 1.0, breaks)
    assert keep.tolist() == [0, 19, 20, 21, 34, 35, 49]


def _render(curve, *, decimate, linestyle="-"):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5, 4))
    ax = figure.subplots()
    ax.plot(*curve, linewidth=1.5, linestyle=linestyle)
    ax.fill_between(curve[0], np.clip(curve[1] - 0.05, 0, 1), np.clip(curve[1] + 0.05, 0, 1), alpha=0.2)
    ax.set(xlim=(0, 1), ylim=(0, 1.01))
    lines, bands = len(ax.get_lines()[0].get_xdata()), len(ax.collections[0].get_paths()[0].vertices)
    if decimate:
        decimate_figure(figure, 192)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=192)
    from PIL import Image

    buffer.seek(0)
    pixels = np.asarray(Image.open(buffer).convert("RGB")).astype(int)
    drawn = len(ax.get_lines()[0].get_xdata()), len(ax.collections[0].get_paths()[0].vertices)
    return pixels, (lines, bands), drawn


def test_decimated_figure_has_the_pixels_of_the_full_one():
    rng = np.random.default_rng(0)
    x, y = _staircase(rng, 200_000)
    y = np.sqrt(y * (2 - y)) * 0.5 + 0.5 * y  # bowed like a ROC curve
    full, sizes, _ = _render((x, y), decimate=False)
    decimated, _, drawn = _render((x, y), decimate=True)
    assert drawn[0] < sizes[0] / 4 and drawn[1] < sizes[1] / 4
    difference = np.abs(full - decimated).max(axis=2)
    assert np.mean(difference > 0) < 0.01  # antialiased edge pixels only
    assert np.mean(difference > 32) < 0.002
    assert np.mean(full.astype(float)) == pytest.approx(np.mean(decimated.astype(float)), abs=0.1)  # of 255 levels


def test_dashed_and_short_lines_are_drawn_as_they_are():
    from matplotlib.figure import Figure

    figure = Figure(figsize=(5, 4))
    ax = figure.subplots()
    x = np.linspace(0, 1, MIN_POINTS * 2)
    ax.plot(x, x, linestyle="--")
    ax.plot(x[: MIN_POINTS - 1], x[: MIN_POINTS - 1])
    ax.plot(x, x**2, marker=".")
    decimate_figure(figure, 192)
    assert [len(line.get_xdata()) for line in ax.get_lines()] == [x.size, MIN_POINTS - 1, x.size]
    assert CELLS_PER_PIXEL * 1 / 9 > np.sqrt(2)  # a point moves by less than Agg's simplification threshold
