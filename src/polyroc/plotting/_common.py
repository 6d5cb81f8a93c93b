"""Helpers shared by the displays: axes, class colours, keyword checks, chance line, barycentric coordinates."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.lines import Line2D

__all__ = ["class_colors", "short_label", "simplex_to_cartesian"]

#: Cartesian positions of the simplex vertices e_0, e_1, e_2 (an equilateral triangle).
TRIANGLE = np.array([[0.0, 0.0], [1.0, 0.0], [0.5, np.sqrt(3.0) / 2.0]])

#: matplotlib's "tab10" colours (its default property cycle): the first ten classes.
TAB10 = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")

#: Lightness and chroma (CIELAB) of the colours added after tab10: visible on white, not greys.
EXTRA_LIGHTNESS = (35.0, 82.0)
EXTRA_MIN_CHROMA = 25.0

#: Longest class label shown in full in tick labels and panel titles (longer ones end in "…").
LABEL_CHARS = 22

#: Most entries a legend keeps inside its Axes; a longer one goes outside, at the right of the Axes box.
INSIDE_LEGEND_ENTRIES = 6

#: Most rows of a legend outside the Axes; more entries take further columns.
LEGEND_ROWS = 18

#: gid of the chance line, so that several displays on one Axes draw it once.
CHANCE_GID = "polyroc-chance-level"


def _cielab(rgb: np.ndarray) -> np.ndarray:
    """CIELAB (D65) coordinates of sRGB colours in [0, 1], shape (n, 3)."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    to_xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = linear @ to_xyz.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.column_stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])])


@lru_cache(maxsize=8)
def _palette(n_colors: int) -> tuple[str, ...]:
    """tab10, then greedily the sRGB grid colour farthest (CIELAB distance) from every colour chosen so far."""
    from matplotlib.colors import to_hex, to_rgb

    chosen = list(TAB10[:n_colors])
    grid = np.linspace(0.0, 1.0, 16)
    candidates = np.stack(np.meshgrid(grid, grid, grid, indexing="ij"), axis=-1).reshape(-1, 3)
    lab = _cielab(candidates)
    lightness, chroma = lab[:, 0], np.hypot(lab[:, 1], lab[:, 2])
    keep = (lightness >= EXTRA_LIGHTNESS[0]) & (lightness <= EXTRA_LIGHTNESS[1]) & (chroma >= EXTRA_MIN_CHROMA)
    candidates, lab = candidates[keep], lab[keep]
    chosen_lab = _cielab(np.array([to_rgb(color) for color in chosen]))
    distance = np.min(np.linalg.norm(lab[:, None, :] - chosen_lab[None, :, :], axis=-1), axis=1)
    while len(chosen) < n_colors:
        best = int(np.argmax(distance))
        chosen.append(to_hex(candidates[best]))
        distance = np.minimum(distance, np.linalg.norm(lab - lab[best], axis=1))
    return tuple(chosen)


def class_colors(n_classes: int) -> list[str]:
    """Distinguishable colours of ``n_classes`` classes, the same in every display.

    The first ten are matplotlib's ``tab10`` colours (``C0`` ... ``C9`` of the
    default style). Each further colour is the one of a 16-level sRGB grid
    farthest, in CIELAB distance, from all colours before it (a greedy
    max-min design, as in Glasbey, van der Heijden, Toh & Gray (2007),
    doi:10.1002/col.20327), among colours of medium lightness and clear
    chroma, so they show on white and differ from the black and grey lines of
    averages and chance. The sequence does not depend on ``n_classes``: class
    k has the same colour for any number of classes above k. Any two of the
    first 40 colours are at least 25 CIELAB units apart.

    Parameters
    ----------
    n_classes : int
        Number of classes (>= 1).

    Returns
    -------
    list of str
        Hex colours, one per class.

    Raises
    ------
    ValueError
        If ``n_classes`` is not a positive integer.

    See Also
    --------
    RocCurveDisplay : Draws each class in these colours.
    ConfusionMatrixDisplay : Its colours come from a colormap instead.

    References
    ----------
    Glasbey, C., van der Heijden, G., Toh, V. F. K. & Gray, A. (2007). Colour
    displays for categorical images. Color Research & Application 32(4),
    304–309. doi:10.1002/col.20327

    Examples
    --------
    >>> class_colors(3)
    ['#1f77b4', '#ff7f0e', '#2ca02c']
    >>> colors = class_colors(30)
    >>> len(set(colors)), colors[:10] == class_colors(10), colors[:20] == class_colors(20)
    (30, True, True)
    """
    if isinstance(n_classes, bool) or not isinstance(n_classes, (int, np.integer)) or n_classes < 1:
        raise ValueError(f"n_classes must be a positive integer, got {n_classes!r}")
    return list(_palette(int(n_classes)))


def short_label(label: object, max_chars: int = LABEL_CHARS) -> str:
    """``str(label)``, cut to ``max_chars`` characters ending in "…" when longer (tick labels, panel titles).

    >>> short_label("Mycobacterium tuberculosis complex")
    'Mycobacterium tubercu…'
    >>> short_label(3)
    '3'
    """
    text = str(label)
    return text if len(text) <= max_chars else text[: max_chars - 1].rstrip() + "…"


def new_axes(ax: object, **subplots_kw: Any) -> Axes:
    """``ax`` if given (checked to be an Axes), else the Axes of a new figure (``plt.subplots``).

    A new figure has a constrained layout (unless ``subplots_kw`` names
    another), which makes room for a legend outside the Axes (see
    :func:`place_legend`).
    """
    if ax is None:
        import matplotlib.pyplot as plt

        return plt.subplots(**{"layout": "constrained", **subplots_kw})[1]
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise TypeError(f"ax must be a matplotlib Axes or None, got {type(ax).__name__}")
    return ax


def place_legend(ax: Any, loc: str, *, widen: bool = False, **legend_kw: Any) -> Any:
    """The legend of ``ax``: inside at ``loc`` while short, else outside at the right of the Axes box.

    A legend of at most :data:`INSIDE_LEGEND_ENTRIES` entries stays at
    ``loc`` inside the Axes; a longer one (one entry per class, from about
    five classes on) would hide the curves, so it sits beside the Axes, its
    top at the Axes' top, in as many columns of at most :data:`LEGEND_ROWS`
    entries as it needs. A constrained layout (that of the figures the
    displays make) shrinks the Axes to make room for it; with ``widen`` (a
    figure the display made for itself) the figure also grows by the
    legend's width, so that the Axes keep their size. None when ``ax`` has
    nothing to list.
    """
    n_entries = len(ax.get_legend_handles_labels()[0])
    if n_entries == 0:
        return None
    if n_entries <= INSIDE_LEGEND_ENTRIES:
        return ax.legend(**{"loc": loc, "fontsize": "small", **legend_kw})
    outside = {
        "loc": "upper left",
        "bbox_to_anchor": (1.02, 1.0),
        "borderaxespad": 0.0,
        "fontsize": "x-small",
        "ncols": -(-n_entries // LEGEND_ROWS),
    }
    legend = ax.legend(**{**outside, **legend_kw})
    if widen:
        figure = ax.figure
        width, height = figure.get_size_inches()
        figure.set_size_inches(width + legend.get_window_extent().width / figure.dpi + 0.1, height)
    return legend


def check_name(name: object) -> str | None:
    """``name`` if it is a string or None, else a TypeError naming it."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"name must be a string or None, got {type(name).__name__}")
    return name


def check_kwargs(argument: str, kwargs: object) -> dict[str, Any]:
    """A copy of a dict of keyword arguments (``{}`` for None); TypeError naming ``argument`` otherwise."""
    if kwargs is None:
        return {}
    if not isinstance(kwargs, Mapping):
        raise TypeError(f"{argument} must be a dict of keyword arguments or None, got {type(kwargs).__name__}")
    return dict(kwargs)


def curve_kwargs_list(curve_kwargs: object, n_curves: int) -> list[dict[str, Any]]:
    """Keyword arguments of each of ``n_curves`` curves, as in scikit-learn's multi-curve displays.

    None: none; a dict: the same for every curve; a list of ``n_curves``
    dicts: one per curve.
    """
    if curve_kwargs is None or isinstance(curve_kwargs, Mapping):
        return [check_kwargs("curve_kwargs", curve_kwargs) for _ in range(n_curves)]
    if isinstance(curve_kwargs, Sequence) and not isinstance(curve_kwargs, str):
        if len(curve_kwargs) != n_curves:
            raise ValueError(
                f"curve_kwargs must be a dict or a list of one dict per curve ({n_curves}), "
                f"got a list of {len(curve_kwargs)}"
            )
        return [check_kwargs(f"curve_kwargs[{i}]", kwargs) for i, kwargs in enumerate(curve_kwargs)]
    raise TypeError(f"curve_kwargs must be a dict, a list of dicts or None, got {type(curve_kwargs).__name__}")


def draw_chance_level(
    ax: Axes, x: ArrayLike, y: ArrayLike, label: str, chance_level_kw: Mapping[str, Any] | None
) -> Line2D:
    """The chance line from ``x`` to ``y`` (dashed grey); drawn once per Axes when several displays share it."""
    kwargs = {
        "color": "grey",
        "linestyle": "--",
        "linewidth": 1,
        "label": label,
        **check_kwargs("chance_level_kw", chance_level_kw),
    }
    for line in ax.get_lines():
        if line.get_gid() == CHANCE_GID and np.array_equal(line.get_xydata(), np.column_stack([x, y])):
            return line
    (line,) = ax.plot(x, y, **kwargs)
    line.set_gid(CHANCE_GID)
    return line


def draw_steps(ax: Any, values: ArrayLike, edges: ArrayLike, **style: Any) -> Any:
    """``ax.stairs(values, edges, baseline=None, **style)``, with the data limits taken from the vertices at once.

    ``Axes.add_patch`` widens the data limits segment by segment in Python
    (Bézier extrema of each), a cost that grows with the steps drawn; the
    vertices of an open step line are its extrema, so updating the limits with
    them gives the same limits, the same autoscaling and the same picture.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Where to draw.
    values : array-like of shape (n_steps,)
        The level of each step.
    edges : array-like of shape (n_steps + 1,)
        The step edges.
    **style
        Passed to :class:`matplotlib.patches.StepPatch`; with a ``baseline`` or
        ``fill=True`` (a closed patch) ``Axes.stairs`` draws it.

    Returns
    -------
    matplotlib.patches.StepPatch
        The drawn steps.

    Raises
    ------
    ValueError
        ``edges`` is not one longer than ``values`` (from ``StepPatch``).
    """
    from matplotlib.patches import StepPatch

    style = {"baseline": None, "fill": False, **style}
    private = hasattr(StepPatch, "_set_in_autoscale") and hasattr(ax, "_request_autoscale_view")
    if style["baseline"] is not None or style.get("fill") or not private:  # (a matplotlib without them: stairs)
        return ax.stairs(values, edges, **style)
    patch = StepPatch(values, edges, **style)
    ax.add_artist(patch)
    patch._set_in_autoscale(True)  # type: ignore[attr-defined]  # as ``add_patch`` marks it: ``relim`` keeps it
    ax.update_datalim(patch.get_path().vertices)
    ax._request_autoscale_view()  # as ``Axes.stairs`` does
    return patch


def with_name(name: str | None, text: str) -> str:
    """``"name text"``, or ``text`` without a name."""
    return text if not name else f"{name} {text}"


def simplex_to_cartesian(points: ArrayLike) -> np.ndarray:
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

    See Also
    --------
    decision_region : Regions of argmax(p − τ) in p-space, drawn through this map.
    SimplexHeatmapDisplay : Places each sampled τ with it.
    DecisionRegionsDisplay : Places the regions and the samples with it.

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


def n_score_columns(y_score: ArrayLike) -> int | None:
    """Number of score columns, read before any expensive work (validation comes later)."""
    shape = np.shape(y_score)
    return shape[1] if len(shape) == 2 else None


def check_three_classes(display: str, n_classes: int | None) -> None:
    """Refuse a simplex display for anything but 3 classes, pointing to the alternatives."""
    if n_classes is not None and n_classes != 3:
        raise ValueError(
            f"{display} draws the 2-D probability simplex of exactly 3 classes, got {n_classes} "
            "classes; use TuningProfileDisplay (score along each threshold coordinate) "
            "or RocCloudDisplay for other numbers of classes"
        )


#: gid of the invisible stand-ins that keep room for the vertex labels in a constrained layout.
LABEL_ROOM_GID = "polyroc-vertex-label-room"

#: Offsets (data units) and alignment of the labels of the vertices e_0, e_1, e_2, and where the stand-in of
#: each sits against the Axes box (a point in axes fraction, and the side of the stand-in touching it).
VERTEX_LABELS = (
    ((-0.04, -0.04), ("right", "top"), ((0.0, 0.0), "upper right")),
    ((0.04, -0.04), ("left", "top"), ((1.0, 0.0), "upper left")),
    ((0.0, 0.04), ("center", "bottom"), ((0.5, 1.0), "lower center")),
)


def draw_triangle(ax: Axes, classes: Sequence[Any] | np.ndarray) -> list[Any]:
    """Outline of the simplex with each vertex labelled by its class (the Texts, returned); equal aspect, no axis.

    The equal aspect adjusts the data limits, not the Axes box (unless the
    Axes shares both x and y): a box shrunk to the triangle's aspect after a
    constrained layout has placed it would move what is anchored to the box
    (a legend outside it) away from where the layout made room for it. The
    labels stick out of the box by an amount that depends on the data limits,
    which change with the box; so that a constrained layout's two passes
    settle, an invisible copy of each label (gid :data:`LABEL_ROOM_GID`) sits
    just outside the box (left and right of its lower corners, above its top)
    and makes that room whatever the limits.
    """
    from matplotlib.offsetbox import AnchoredOffsetbox, TextArea

    outline = np.vstack([TRIANGLE, TRIANGLE[:1]])
    ax.plot(outline[:, 0], outline[:, 1], color="black", linewidth=1)
    texts = []
    for label, vertex, ((dx, dy), (ha, va), (corner, side)) in zip(classes, TRIANGLE, VERTEX_LABELS):
        text = ax.text(vertex[0] + dx, vertex[1] + dy, str(label), ha=ha, va=va)
        room = AnchoredOffsetbox(
            side,
            child=TextArea(str(label), textprops={"color": "none", "fontsize": text.get_fontsize()}),
            pad=0.0,
            borderpad=0.5,
            frameon=False,
            bbox_to_anchor=corner,
            bbox_transform=ax.transAxes,
        )
        room.set_gid(LABEL_ROOM_GID)
        ax.add_artist(room)
        texts.append(text)
    shares_both = len(ax.get_shared_x_axes().get_siblings(ax)) > 1 and len(ax.get_shared_y_axes().get_siblings(ax)) > 1
    ax.set_aspect("equal", adjustable="box" if shares_both else "datalim")
    ax.set_axis_off()
    return texts
