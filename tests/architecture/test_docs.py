"""The built documentation: a reference page for every public name, and pages that load in a browser.

They read the site that the README's docs command builds into ``docs/_build/html``;
``.ci/run`` builds it first and sets ``POLYROC_REQUIRE_DOCS=1``, which turns a
missing site into a failure instead of a skip.
"""

import importlib
import os
import pkgutil
import sys
from pathlib import Path

import pytest

import polyroc

pytestmark = pytest.mark.slow  # reads the built site, headless Chromium: not in the quick run (-m "not slow")

DOCS = Path(__file__).resolve().parents[2] / "docs"
SITE = DOCS / "_build" / "html"


@pytest.fixture(scope="module")
def site():
    if not (SITE / "index.html").is_file():
        message = f"the documentation is not built ({SITE}); run the README's docs command"
        if os.environ.get("POLYROC_REQUIRE_DOCS") == "1":
            pytest.fail(message + " (POLYROC_REQUIRE_DOCS=1)")
        pytest.skip(message)
    return SITE


def public_modules():
    """polyroc and every module without an underscore in its path that declares ``__all__``."""
    names = ["polyroc"] + [
        info.name
        for info in pkgutil.walk_packages(polyroc.__path__, "polyroc.")
        if not any(part.startswith("_") for part in info.name.split(".")[1:])
    ]
    modules = [importlib.import_module(name) for name in names]
    return [module for module in modules if hasattr(module, "__all__")]


def documented_objects(site):
    """id of each object with a page in the built API reference -> the page."""
    sys.path.insert(0, str(DOCS))
    try:
        import api_pages
    finally:
        sys.path.remove(str(DOCS))
    pages = {}
    for module_name in api_pages.MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            page = site / "api" / "generated" / f"{module_name}.{name}.html"
            if page.is_file():
                pages.setdefault(id(getattr(module, name)), page)
    return pages


def test_every_name_of_every_public_all_has_a_reference_page(site):
    pages = documented_objects(site)
    missing = [
        f"{module.__name__}.{name}"
        for module in public_modules()
        for name in module.__all__
        if not name.startswith("__") and id(getattr(module, name)) not in pages
    ]
    assert missing == []
    assert len(pages) > 150


def test_a_reference_page_shows_the_docstring_sections(site):
    text = (site / "api" / "generated" / "polyroc.metrics.roc_auc_score.html").read_text()
    for section in ("Parameters", "Returns", "Raises", "Examples"):
        assert section in text, section


@pytest.mark.parametrize(
    "page",
    [
        "index.html",
        "api/generated/polyroc.metrics.roc_auc_score.html",
        "intervals.html",
        "ranking.html",
        "report.html",
        "auto_examples/plot_roc_clouds.html",
        "auto_examples/plot_simplex_regions.html",
    ],
)
def test_pages_load_in_chromium_without_console_errors(site, browser, page):
    browser.get((site / page).resolve().as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    assert "polyroc" in browser.title
    images = browser.execute_script("return Array.from(document.images).map(i => [i.complete, i.naturalWidth, i.src])")
    assert all(complete and width > 0 for complete, width, _ in images), images
    if page.startswith("auto_examples"):
        example = Path(page).stem
        assert any(f"sphx_glr_{example}_" in source for _, _, source in images)  # the drawn figure
    errors = [entry for entry in browser.get_log("browser") if entry["level"] == "SEVERE"]
    assert errors == [], errors


def test_math_is_typeset_from_the_site_itself(site, browser):
    """MathJax is served from ``_static`` (no CDN), so formulas render on a machine without internet."""
    html = (site / "ranking.html").read_text()
    assert "cdn.jsdelivr" not in html and "_static/mathjax/" in html
    browser.get((site / "ranking.html").resolve().as_uri())
    typeset = browser.execute_script(
        "return new Promise(done => MathJax.startup.promise.then("
        "() => done(document.querySelectorAll('mjx-container').length)))"
    )
    assert typeset > 10


EXAMPLES = sorted(path.stem for path in (DOCS / "examples").glob("plot_*.py"))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_gallery_example_ran_and_drew_a_figure(site, example):
    page = (site / "auto_examples" / f"{example}.html").read_text()
    figures = sorted((site / "_images").glob(f"sphx_glr_{example}_*.png"))
    assert figures, example
    assert all(figure.name in page for figure in figures if "thumb" not in figure.name)


#: Pages that must keep their printed snippets (a guard against a format change that the regex below would miss).
EXPECTED_SNIPPETS = {"errata.md": 10, "counts.md": 2}


def page_snippets(page):
    """(python code, printed text) of each snippet of a page: a python block and the text block after it."""
    import re

    text = (DOCS / page).read_text()
    within_a_block = r"((?:(?!```).)*?)"  # never crosses a fence, so an unchecked block stays out
    return re.findall(rf"```python\n{within_a_block}```\n\n```text\n{within_a_block}```", text, flags=re.S)


SNIPPETS = [(path.name, *snippet) for path in sorted(DOCS.glob("*.md")) for snippet in page_snippets(path.name)]


@pytest.mark.parametrize("page, code, printed", SNIPPETS)
def test_snippets_print_what_the_page_says(page, code, printed, capsys):
    exec(compile(code, page, "exec"), {})
    assert capsys.readouterr().out == printed


@pytest.mark.parametrize(("page", "expected"), EXPECTED_SNIPPETS.items())
def test_the_checked_pages_have_their_snippets(page, expected):
    assert len(page_snippets(page)) >= expected


@pytest.mark.parametrize("example", EXAMPLES)
def test_gallery_output_holds_no_path_of_the_build_machine(site, example):
    page = (site / "auto_examples" / f"{example}.html").read_text()
    assert str(DOCS.parent) not in page and str(Path.home()) + os.sep not in page


def test_a_reference_page_lists_the_gallery_examples_using_its_object(site):
    """tune_thresholds is used (as ``polyroc.thresholds.tune_thresholds``) by the tuning example."""
    page = (site / "api" / "generated" / "polyroc.thresholds.tune_thresholds.html").read_text()
    assert "Examples in the gallery" in page
    assert "auto_examples/plot_tune_validation_test.html" in page
    assert "sphx-glr-thumbcontainer" in page


def test_code_blocks_have_a_copy_button_that_leaves_prompts_out(site):
    page = (site / "api" / "generated" / "polyroc.thresholds.tune_thresholds.html").read_text()
    assert "copybutton.js" in page
    script = (site / "_static" / "copybutton.js").read_text()
    assert "formatCopyText(text, '>>> |" in script  # the prompt pattern of conf.py, stripped from what is copied
