"""The report opens in a real browser: headless Chromium loads it with every image decoded.

The ``browser`` fixture (``tests/conftest.py``) needs Debian's ``chromium`` and
``chromium-driver`` and the ``selenium`` package. Set ``POLYROC_SCREENSHOT_DIR``
to keep the full-page screenshot.
"""

import os
import shutil
import struct

import numpy as np
import pytest

from polyroc.report import build_report

pytestmark = pytest.mark.slow  # headless Chromium: not in the quick run (-m "not slow")


@pytest.fixture(scope="module")
def written_report(tmp_path_factory):
    """A two-model, three-class report with validation data and a cost matrix at target priors (every figure)."""
    rng = np.random.default_rng(5)

    def scores(y, strength):
        raw = rng.dirichlet(np.ones(3), y.size) + strength * np.eye(3)[y]
        return raw / raw.sum(axis=1, keepdims=True)

    y_val, y_test = rng.integers(0, 3, 150), rng.integers(0, 3, 200)
    names = np.array(["setosa", "versicolor", "virginica"])
    report = build_report(
        names[y_test],
        {"sharp": scores(y_test, 1.5), "blunt": scores(y_test, 0.5)},
        y_val=names[y_val],
        val_scores={"sharp": scores(y_val, 1.5), "blunt": scores(y_val, 0.5)},
        n_boot=50,
        random_state=0,
        cost_matrix=np.array([[0.0, 1.0, 1.0], [5.0, 0.0, 1.0], [2.0, 1.0, 0.0]]),
        target_priors=[0.2, 0.5, 0.3],
    )
    out = report.write(tmp_path_factory.mktemp("browser") / "report")
    return report, out


#: Per model section, the images after its calibration heading and before the next heading: (key, complete, width,
#: height), the key read from the figure's id (``fig-<model id>-<key>``).
CALIBRATION_IMAGES = """
const found = {};
for (const heading of document.querySelectorAll('h3[id^="calibration-"]')) {
  const id = heading.id.slice('calibration-'.length);
  found[id] = [];
  for (let node = heading.nextElementSibling; node && node.tagName !== 'H3'; node = node.nextElementSibling) {
    for (const img of node.querySelectorAll('img')) {
      const key = node.id.slice(('fig-' + id + '-').length);
      found[id].push([key, img.complete, img.naturalWidth, img.naturalHeight]);
    }
  }
}
return found;
"""

#: Per model section, the images after its decisions heading and before the next heading, as CALIBRATION_IMAGES.
DECISIONS_IMAGES = CALIBRATION_IMAGES.replace("calibration-", "decisions-")


def _png_size(path):
    with open(path, "rb") as handle:
        return struct.unpack(">II", handle.read(24)[16:24])


def test_report_loads_in_chromium_with_every_image(browser, written_report, tmp_path):
    report, out = written_report
    n_figures = sum(len(f) for f in report.figures.values()) + len(report.shared_figures)
    browser.get((out / "report.html").resolve().as_uri())

    assert browser.execute_script("return document.readyState") == "complete"
    assert browser.title == "polyroc report"
    images = browser.execute_script(
        "return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.naturalHeight, i.alt])"
    )
    assert len(images) == n_figures == 19
    assert all(complete and width > 0 and height > 0 for complete, width, height, _ in images)
    # each model's calibration figures are on the page, decoded, under the calibration heading
    calibration = browser.execute_script(CALIBRATION_IMAGES)
    captions = {figure.key: figure.caption for figure in report.figures["sharp"]}
    for model_id in ("m1-sharp", "m2-blunt"):
        shown = {key: size for key, *size in calibration[model_id]}
        assert set(shown) == {"reliability", "classwise", "recalibrated"}
        assert all(complete and width > 0 and height > 0 for complete, width, height in shown.values())
    assert {alt for *_, alt in images} >= {captions[key] for key in ("reliability", "classwise", "recalibrated")}
    # and each model's decisions figure under its decisions heading
    decisions = browser.execute_script(DECISIONS_IMAGES)
    for model_id in ("m1-sharp", "m2-blunt"):
        shown = {key: size for key, *size in decisions[model_id]}
        assert set(shown) == {"decisions"}
        assert all(complete and width > 0 and height > 0 for complete, width, height in shown.values())
    assert captions["decisions"] in {alt for *_, alt in images}
    expected_sizes = sorted(_png_size(p) for p in (out / "figures").iterdir())
    assert sorted((w, h) for _, w, h, _ in images) == expected_sizes
    # No resource other than the page itself was requested (images are data URIs).
    resources = browser.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
    assert all(name.startswith("data:") for name in resources)

    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(1200, min(height, 16000))
    screenshot = tmp_path / "report.png"
    assert browser.save_screenshot(str(screenshot))
    from matplotlib.image import imread

    pixels = imread(screenshot)
    assert pixels.shape[0] > 2000 and pixels.std() > 0.05  # a long, drawn page, not a blank one
    keep = os.environ.get("POLYROC_SCREENSHOT_DIR")
    if keep:
        shutil.copy(screenshot, os.path.join(keep, "report-screenshot.png"))


LONG_LABELS = (
    "Candida auris",
    "Escherichia coli",
    "Klebsiella pneumoniae carbapenemase-producing",
    "Mycobacterium tuberculosis complex",
    "Pseudomonas aeruginosa",
    "Staphylococcus aureus (methicillin-resistant)",
    "Streptococcus pneumoniae",
)


def _gamma_scores(rng, y, m, strength):
    alpha = np.ones((y.size, m))
    alpha[np.arange(y.size), y] += strength
    raw = rng.gamma(alpha)
    return raw / raw.sum(axis=1, keepdims=True)


def _wide_report(names, models, tmp_path_factory, n=400, seed=0):
    rng = np.random.default_rng(seed)
    m = len(names)
    y, y_val = rng.integers(0, m, n), rng.integers(0, m, n // 2)
    names = np.asarray(names)
    report = build_report(
        names[y],
        {name: _gamma_scores(rng, y, m, s) for name, s in models.items()},
        y_val=names[y_val],
        val_scores={name: _gamma_scores(rng, y_val, m, s) for name, s in models.items()},
        n_boot=20,
        random_state=0,
    )
    return report.write(tmp_path_factory.mktemp("wide") / "report")


@pytest.fixture(scope="module")
def twenty_classes(tmp_path_factory):
    return _wide_report([f"class {k:02d}" for k in range(20)], {"gamma": 3.0}, tmp_path_factory)


@pytest.fixture(scope="module")
def long_labels(tmp_path_factory):
    return _wide_report(LONG_LABELS, {"sharp": 2.5, "blunt": 0.8}, tmp_path_factory, n=300, seed=1)


FITS_THE_PAGE = """
const page = document.documentElement.clientWidth;
const boxes = Array.from(document.querySelectorAll('table')).map(t => {
  const box = t.parentElement.getBoundingClientRect();
  const table = t.getBoundingClientRect();
  return [t.parentElement.className, box.left, box.right, t.parentElement.clientWidth, table.left];
});
const figures = Array.from(document.images).map(i => i.getBoundingClientRect().right);
return [document.documentElement.scrollWidth, page, boxes, figures];
"""


@pytest.mark.parametrize("which", ["twenty_classes", "long_labels"])
def test_wide_reports_fit_the_page_with_every_image_loaded(browser, which, request, tmp_path):
    out = request.getfixturevalue(which)
    browser.set_window_size(1000, 900)
    browser.get((out / "report.html").resolve().as_uri())
    browser.execute_script("document.querySelectorAll('details').forEach(d => d.open = true)")
    scroll_width, page, boxes, figures = browser.execute_script(FITS_THE_PAGE)
    assert scroll_width <= page  # nothing sticks out sideways
    for kind, left, right, client_width, table_left in boxes:
        # a table scrolls inside its own box, which stays within the page
        assert kind == "table-box" and 0 <= left and right <= page and client_width <= page and table_left >= left
    assert figures and max(figures) <= page
    images = browser.execute_script(
        "return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.width, i.naturalHeight])"
    )
    assert all(complete and natural > 0 and shown > 0 for complete, natural, shown, _ in images)
    keep = os.environ.get("POLYROC_SCREENSHOT_DIR")
    if keep:
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1000, min(height, 16000))
        browser.save_screenshot(os.path.join(keep, f"report-{which.replace('_', '-')}.png"))
