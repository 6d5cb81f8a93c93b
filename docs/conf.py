"""Sphinx configuration of polyroc's documentation (``python -m sphinx -W --keep-going docs docs/_build/html``)."""

import sys
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))

from api_pages import gallery_names, write_api_pages  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

import polyroc  # noqa: E402

# the gallery's models are small: one BLAS/OpenMP thread each avoids oversubscribing the cores
threadpool_limits(1)

project = "polyroc"
author = "The polyroc developers"
copyright = "The polyroc developers"
release = polyroc.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # serves MathJax from the site itself, so math renders offline too
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "sphinx_copybutton",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "examples"]

# the gallery: docs/examples/plot_*.py, run at build time (an error stops the build)
sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "abort_on_example_error": True,
    "download_all_examples": False,
    "image_scrapers": ("matplotlib",),
    "remove_config_comments": True,
    # each API page ends with the gallery examples that use its object (docs/_templates/autosummary)
    "doc_module": ("polyroc",),
    "backreferences_dir": "gen_modules/backreferences",
}
# the copy button of a code block copies the code without its ">>> " / "... " / "$ " prompts and outputs
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
templates_path = ["_templates"]
# the templates' mini-galleries list the examples under every name of the page's object
autosummary_context = {"gallery_names": gallery_names()}

autosummary_generate = True
autodoc_typehints = "none"  # numpydoc's Parameters sections give the types
numpydoc_show_class_members = False
# scikit-learn's generated metadata-routing methods cite its own glossary
autodoc_default_options = {
    "exclude-members": "set_fit_request,set_predict_request,set_score_request,set_predict_proba_request"
}
numpydoc_class_members_toctree = False
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

html_theme = "pydata_sphinx_theme"
html_title = f"polyroc {release}"
html_static_path = ["_static"]
html_css_files = ["polyroc.css"]
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
html_context = {"default_mode": "light"}  # the theme logs an error when no mode is stored yet


def setup(app):
    write_api_pages(HERE / "api")
