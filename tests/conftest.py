"""Fixtures shared by the test modules, and the hypothesis profiles.

Under ``CI=true`` property tests are derandomized (the examples follow from each
test's source) and keep no example database, so a CI run never depends on what
an earlier run found; local runs keep exploring new examples.
"""

import os
import shutil

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("dev")
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")


@pytest.fixture
def numpy_call_sizes(monkeypatch):
    """``sizes = numpy_call_sizes("argsort")`` records the size of the first argument of each later call of
    ``numpy.argsort`` in ``sizes``; ``monkeypatch.undo()`` ends the recording."""
    import numpy as np

    def record(name):
        sizes = []
        original = getattr(np, name)

        def counting(values, *args, **kwargs):
            sizes.append(np.size(values))
            return original(values, *args, **kwargs)

        monkeypatch.setattr(np, name, counting)
        return sizes

    return record


@pytest.fixture
def write_scores(tmp_path):
    """Write a score CSV (one column per class, then ``label``) into tmp_path; return its path."""

    def write(y, P, classes, name="scores.csv"):
        lines = [",".join([*classes, "label"])]
        lines += [",".join([*(f"{v:.17g}" for v in row), label]) for row, label in zip(P, y)]
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


# --------------------------------------------------------------------------- headless Chromium

CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)


def _browser_paths():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        selenium_missing = True
    else:
        selenium_missing = False
    missing = [
        name
        for name, absent in (
            ("chromium", chromium is None),
            ("chromedriver", driver is None),
            ("selenium", selenium_missing),
        )
        if absent
    ]
    if missing:
        message = f"browser test needs {', '.join(missing)}"
        if os.environ.get("POLYROC_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " (POLYROC_REQUIRE_BROWSER=1)")
        pytest.skip(message)
    return chromium, driver


@pytest.fixture
def browser(tmp_path):
    """A headless Chromium driver that keeps the console messages; ``.ci/run`` sets
    ``POLYROC_REQUIRE_BROWSER=1``, which turns a missing browser into a failure instead of a skip."""
    chromium, driver_path = _browser_paths()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    options.add_argument("--window-size=1200,900")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})  # console messages, for get_log
    driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


def pytest_collection_modifyitems(config, items):
    """The report's doctests build whole reports, the demo's fit its models: slow, like the report's tests."""
    report = os.path.join("src", "polyroc", "report") + os.sep
    demo = os.path.join("src", "polyroc", "datasets", "_demo.py")
    for item in items:
        if isinstance(item, pytest.DoctestItem) and (report in str(item.path) or str(item.path).endswith(demo)):
            item.add_marker(pytest.mark.slow)
