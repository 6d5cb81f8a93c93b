"""The API reference pages, written from the modules' ``__all__`` so that they never drift from the code.

Each public object gets one page, under the first public module of :data:`MODULES` that exports it
(its canonical home); ``polyroc``'s flat namespace lists its names with links to those pages.
"""

import importlib
from pathlib import Path

#: The public modules, most specific first: an object's page is under the first that exports it.
MODULES = (
    "polyroc.metrics",
    "polyroc.counts",
    "polyroc.curves",
    "polyroc.evaluation",
    "polyroc.calibration",
    "polyroc.intervals",
    "polyroc.comparison",
    "polyroc.resampling",
    "polyroc.probability",
    "polyroc.thresholds",
    "polyroc.calibration",
    "polyroc.decisions",
    "polyroc.dmf",
    "polyroc.gini",
    "polyroc.plotting",
    "polyroc.report",
    "polyroc.io",
    "polyroc.datasets",
    "polyroc.streaming",
    "polyroc.dask",
    "polyroc.exceptions",
)

FLAT = "polyroc"


def public_names(module_name: str) -> list[str]:
    return list(importlib.import_module(module_name).__all__)


def canonical_pages() -> dict[int, str]:
    """id of each public object -> the dotted name of its page."""
    pages = {}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in public_names(module_name):
            pages.setdefault(id(getattr(module, name)), f"{module_name}.{name}")
    return pages


def gallery_names() -> dict[str, str]:
    """The dotted name of each object's page -> every name the gallery's code may reach it by, space-separated.

    sphinx-gallery names an object used in an example by the shortest module it is importable from
    (``polyroc.tune_thresholds`` for ``polyroc.thresholds.tune_thresholds``); the mini-gallery of a
    reference page lists the examples under each of those names.
    """
    pages = canonical_pages()
    names: dict[str, list[str]] = {}
    for module_name in (FLAT, *MODULES):
        module = importlib.import_module(module_name)
        for name in public_names(module_name):
            obj = getattr(module, name)
            if id(obj) in pages:
                aliases = names.setdefault(pages[id(obj)], [])
                owner = f"{getattr(obj, '__module__', module_name)}.{getattr(obj, '__qualname__', name)}"
                aliases += [alias for alias in (f"{module_name}.{name}", owner) if alias not in aliases]
    return {page: " ".join(sorted(aliases)) for page, aliases in names.items()}


def _module_page(module_name: str, pages: dict[int, str]) -> str:
    module = importlib.import_module(module_name)
    title = f"``{module_name}``"
    own = [name for name in public_names(module_name) if pages[id(getattr(module, name))] == f"{module_name}.{name}"]
    elsewhere = [name for name in public_names(module_name) if name not in own]
    lines = [
        title,
        "=" * len(title),
        "",
        f".. automodule:: {module_name}",
        "   :no-members:",
        "",
        f".. currentmodule:: {module_name}",
        "",
    ]
    if own:
        lines += [".. autosummary::", "   :toctree: generated", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in own]
        lines.append("")
    if elsewhere:
        lines += ["Also exported here:", ""]
        lines += [f"- :obj:`{name} <{pages[id(getattr(module, name))]}>`" for name in elsewhere]
        lines.append("")
    return "\n".join(lines)


def _flat_page(pages: dict[int, str]) -> str:
    import polyroc

    title = "``polyroc`` (the flat namespace)"
    lines = [title, "=" * len(title), "", "The names ``import polyroc`` gives, each documented in its module:", ""]
    for name in polyroc.__all__:
        page = pages.get(id(getattr(polyroc, name)))
        lines.append(
            f"- :obj:`polyroc.{name} <{page}>`" if page else f"- ``polyroc.{name}`` (``{getattr(polyroc, name)!r}``)"
        )
    return "\n".join(lines) + "\n"


def write_api_pages(folder: Path) -> None:
    """Write ``index.rst`` and one page per module into ``folder`` (only files whose text changed)."""
    folder.mkdir(exist_ok=True)
    pages = canonical_pages()
    texts = {"polyroc.rst": _flat_page(pages)}
    texts.update({f"{name}.rst": _module_page(name, pages) for name in MODULES})
    toctree = ["API reference", "=============", "", ".. toctree::", "   :maxdepth: 1", ""]
    toctree += [f"   {Path(name).stem}" for name in texts]
    texts["index.rst"] = "\n".join(toctree) + "\n"
    for name, text in texts.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
