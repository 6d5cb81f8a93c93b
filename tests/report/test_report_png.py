"""The report's PNGs: a faster zlib level than the default, and the same pixels as matplotlib's default PNG."""

import io
import struct

import matplotlib

matplotlib.use("Agg")

import numpy as np
from matplotlib.figure import Figure
from PIL import Image

from polyroc.report import _figures


def _draw(figure, ax):
    rng = np.random.default_rng(0)
    for j in range(4):
        ax.plot(np.sort(rng.uniform(size=300)), np.sort(rng.uniform(size=300)), label=f"class {j}")
    ax.legend(loc="lower right")
    ax.set_title("curves")


def _first_idat(png):
    """The data of the first IDAT chunk (the zlib stream starts there)."""
    position = 8
    while True:
        (length,) = struct.unpack(">I", png[position : position + 4])
        kind = png[position + 4 : position + 8]
        if kind == b"IDAT":
            return png[position + 8 : position + 8 + length]
        position += 12 + length


def test_report_png_is_fast_and_lossless():
    png = _figures._render("key", "caption", _draw).png
    figure = Figure(figsize=(5.2, 4.4), layout="compressed")
    _draw(figure, figure.subplots())
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=_figures.DPI)  # matplotlib's default zlib level (6)
    reference = buffer.getvalue()
    # RFC 1950: bits 6-7 of the second byte (FLEVEL) are 2 for the default level, 0 or 1 for the fast ones
    assert _first_idat(reference)[1] >> 6 == 2
    assert _first_idat(png)[1] >> 6 < 2
    decoded, expected = (np.asarray(Image.open(io.BytesIO(data))) for data in (png, reference))
    assert decoded.shape == expected.shape and decoded.shape[0] > 800
    np.testing.assert_array_equal(decoded, expected)
