"""Helpers shared by the displays: axes creation, class colours, barycentric coordinates."""

from __future__ import annotations

import numpy as np

#: Cartesian positions of the simplex vertices e_0, e_1, e_2 (an equilateral triangle).
TRIANGLE = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3.0) / 2.0]])


def new_axes(ax, **subplots_kw):
    """``ax`` if given, else the Axes of a new figure (``plt.subplots``)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    return plt.subplots(**subplots_kw)[1]


def class_color(index):
    """Colour of class ``index`` in every display: the property cycle colour ``C{index}``."""
    return f"C{index % 10}"


def simplex_to_cartesian(points):
    """Cartesian coordinates of 3-class points in the barycentric triangle.

    Class 0 sits at (0, 0), class 1 at (1, 0) and class 2 at (0.5, √3/2), so a
    point p maps to ``p_1 (1, 0) + p_2 (0.5, √3/2)``. Points are first shifted
    by a constant to sum 1; this changes nothing for probability vectors, and
    maps a threshold vector τ to the representative of its rule
    argmax(p − τ) (which lies outside the triangle for some thresholds of the
    ``"box"`` domain).

    Parameters
    ----------
    points : array-like of shape (..., 3)
        Probability vectors or thresholds.

    Returns
    -------
    ndarray of shape (..., 2)
        The (x, y) positions.

    Raises
    ------
    ValueError
        If the last axis does not have length 3 or a value is not finite.

    Examples
    --------
    >>> simplex_to_cartesian([[1, 0, 0], [0, 1, 0], [1/3, 1/3, 1/3]]).round(4).tolist()
    [[0.0, 0.0], [1.0, 0.0], [0.5, 0.2887]]
    """
    points = np.asarray(points, dtype=np.float64)
    if points.ndim == 0 or points.shape[-1] != 3:
        raise ValueError(f"points must have 3 coordinates (last axis), got shape {points.shape}")
    if not np.all(np.isfinite(points)):
        raise ValueError("points must be finite")
    centred = points - (points.sum(axis=-1, keepdims=True) - 1.0) / 3.0
    return centred @ TRIANGLE


def check_three_classes(display, n_classes):
    """Refuse a simplex display for anything but 3 classes, pointing to the alternatives."""
    if n_classes != 3:
        raise ValueError(
            f"{display} draws the 2-D probability simplex of exactly 3 classes, got {n_classes} "
            "classes; use TuningProfileDisplay (score along each threshold coordinate) "
            "or RocCloudDisplay for other numbers of classes"
        )


def draw_triangle(ax, classes):
    """Outline of the simplex with each vertex labelled by its class; equal aspect, no axis."""
    outline = np.vstack([TRIANGLE, TRIANGLE[:1]])
    ax.plot(outline[:, 0], outline[:, 1], color="black", linewidth=1)
    offsets = [(-0.04, -0.04, "right", "top"), (0.04, -0.04, "left", "top"), (0.0, 0.04, "center", "bottom")]
    for label, (x, y), (dx, dy, ha, va) in zip(classes, TRIANGLE, offsets):
        ax.text(x + dx, y + dy, str(label), ha=ha, va=va)
    ax.set_aspect("equal")
    ax.set_axis_off()
