"""Names of a package imported on first use (PEP 562), from one table of name -> defining module.

The package root and :mod:`polyroc.evaluation` use it: ``import polyroc`` loads
neither numpy nor matplotlib, and the light modules of a package (such as the
interval plan, which the command line reads before it installs its signal
handlers) import without the heavy ones beside them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, MutableMapping
from typing import Any


def lazy_attributes(
    package: str, namespace: MutableMapping[str, Any], locations: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``, whose names live in ``locations``.

    ``namespace`` is the package's ``globals()``; a name is stored there when
    first used, so later lookups are plain attribute reads.

    Examples
    --------
    >>> namespace = {}
    >>> getattr_, dir_ = lazy_attributes("demo", namespace, {"sqrt": "math"})
    >>> getattr_("sqrt")(9.0), "sqrt" in namespace, dir_()
    (3.0, True, ['sqrt'])
    >>> getattr_("cbrt")
    Traceback (most recent call last):
    AttributeError: module 'demo' has no attribute 'cbrt'
    """

    def __getattr__(name: str) -> Any:
        home = locations.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(set(namespace) | set(locations))

    return __getattr__, __dir__
