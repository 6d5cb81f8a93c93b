"""The report's long curves drawn through only the points that change their picture.

At 10^6 rows a one-vs-rest ROC curve has some 10^5 corners, the micro-average
and the Gini-weighted curve over 10^6, and the Gini dispersion band a polygon
of three million vertices; the Axes that show them are a thousand or so pixels
wide. Drawing every point costs seconds (transforms, extents, Agg's
simplification and stroke) and changes nothing the eye can see.

:func:`kept_points` lays a grid of cells :data:`CELLS_PER_PIXEL` times finer
than a pixel over the data and keeps, of each run of consecutive points inside
one cell, its first and last point. The segments between runs are kept as they
are; a run drawn as one segment instead of many stays inside its cell (a cell
is convex), so no drawn point moves by more than a cell's diagonal:
``sqrt(2) / CELLS_PER_PIXEL`` pixels, about Agg's own simplification
threshold (1/9 pixel, ``path.simplify_threshold``), which it applies to every
path it draws anyway. :func:`decimate_figure` applies it to the long lines and
filled polygons of a drawn figure just before it is rendered, with cells sized
from the figure's pixels (an upper bound of any of its Axes' pixels) and each
Axes' view limits. The results document keeps every point.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["CELLS_PER_PIXEL", "MIN_POINTS", "decimate_figure", "kept_points"]

#: Grid cells per pixel along each axis: a drawn point moves by at most sqrt(2) / 13 < 1/9 pixel.
CELLS_PER_PIXEL = 13

#: Lines and polygons with fewer points are drawn as they are.
MIN_POINTS = 4096


def kept_points(
    x: NDArray[np.float64],
    y: NDArray[np.float64],
    cell_x: float,
    cell_y: float,
    breaks: NDArray[np.bool_] | None = None,
) -> NDArray[np.intp]:
    """Indices of the points of the polyline (x, y) to draw: the first and last of each run in one grid cell.

    Cells are ``cell_x`` by ``cell_y`` (data units), aligned on 0. Points
    that are not finite are all kept (they break the line), and so are the
    points where ``breaks`` is True and the points before them (a path's
    moves to a new start and its closings).

    >>> x = np.array([0.0, 0.1, 0.2, 1.5, 1.6, 3.2])
    >>> kept_points(x, np.zeros(6), 1.0, 1.0).tolist()
    [0, 2, 3, 4, 5]
    """
    with np.errstate(invalid="ignore", over="ignore"):
        column = np.floor(np.asarray(x, dtype=np.float64) / cell_x)
        row = np.floor(np.asarray(y, dtype=np.float64) / cell_y)
    if x.size < 3:
        return np.arange(x.size)
    finite = np.isfinite(column) & np.isfinite(row)
    same = (column[1:] == column[:-1]) & (row[1:] == row[:-1]) & finite[1:] & finite[:-1]
    if breaks is not None:
        same &= ~breaks[1:]
    # a point is kept unless it lies in the same cell as both its neighbours
    inner = same[1:] & same[:-1]
    return np.flatnonzero(np.concatenate(([True], ~inner, [True])))


def _cells(ax, figure_pixels):
    """Cell sizes (data units) of ``ax``: its view span over CELLS_PER_PIXEL times the figure's pixels."""
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    width, height = figure_pixels
    return abs(x1 - x0) / (width * CELLS_PER_PIXEL), abs(y1 - y0) / (height * CELLS_PER_PIXEL)


def decimate_figure(figure: Figure, dpi: float) -> None:
    """Draw the long lines and filled polygons of ``figure`` through :func:`kept_points` (in place).

    Only plain lines (no markers, the default draw style, linear axes) of at
    least :data:`MIN_POINTS` points and polygons of as many vertices are
    changed; the cells are sized from the figure's pixels at ``dpi``, which
    bound those of any of its Axes, so a point moves by less than a ninth of
    a pixel whatever the layout does to the Axes.
    """
    from matplotlib.collections import PolyCollection

    pixels = (figure.get_figwidth() * dpi, figure.get_figheight() * dpi)
    for ax in figure.axes:
        if ax.get_xscale() != "linear" or ax.get_yscale() != "linear":
            continue
        cell_x, cell_y = _cells(ax, pixels)
        if not (cell_x > 0 and cell_y > 0):
            continue
        for line in ax.get_lines():
            x, y = line.get_xdata(orig=False), line.get_ydata(orig=False)
            plain = (
                line.get_marker() in (None, "", "None", " ")
                and line.get_drawstyle() == "default"
                and line.get_linestyle() == "-"  # a dash pattern follows the path's length, which decimation changes
            )
            if plain and np.ndim(x) == 1 and np.size(x) >= MIN_POINTS and np.size(y) == np.size(x):
                x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
                keep = kept_points(x, y, cell_x, cell_y)
                line.set_data(x[keep], y[keep])
        for collection in ax.collections:
            if not isinstance(collection, PolyCollection):
                continue
            paths = collection.get_paths()
            if not any(np.shape(path.vertices)[0] >= MIN_POINTS for path in paths):
                continue
            verts, codes = zip(*(_reduced_path(path, cell_x, cell_y) for path in paths))
            collection.set_verts_and_codes(list(verts), list(codes))


def _reduced_path(path, cell_x, cell_y):
    """(vertices, codes) of a polygon's path, through :func:`kept_points` when it has MIN_POINTS vertices."""
    from matplotlib.path import Path

    vertices, codes = np.asarray(path.vertices), path.codes
    if len(vertices) < MIN_POINTS:
        return vertices, codes
    breaks = None if codes is None else codes != Path.LINETO
    keep = kept_points(vertices[:, 0], vertices[:, 1], cell_x, cell_y, breaks)
    return vertices[keep], None if codes is None else codes[keep]
