"""polyroc's one way to warn: each warning names the user's line that led to it, not a line of polyroc.

``warnings.warn`` attributes a warning to the frame ``stacklevel`` levels up,
which a fixed number gets wrong as soon as a function is reached by another
path (a public function called by another, by a Display or by the command
line). :func:`warn` skips every frame of the polyroc package instead: with
``skip_file_prefixes`` on Python 3.12+, by walking the stack before that.
"""

from __future__ import annotations

import os
import sys
import warnings

#: Every module of the package (subpackages included) has a code file name starting with this prefix.
PACKAGE_PREFIX = os.path.dirname(__file__) + os.sep


def caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside the package, counted from the caller of this function.

    1 is the caller's own line; the stack's top frame is the limit when every
    frame is polyroc's.
    """
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(PACKAGE_PREFIX):
        frame, level = frame.f_back, level + 1
    return level


def warn(message: str, category: type[Warning]) -> None:
    """``warnings.warn(message, category)``, attributed to the user's line that called into polyroc.

    Filters on the user's module (``-W error::UserWarning:__main__``, pytest's
    ``filterwarnings``), ``catch_warnings(record=True)`` records (their
    ``filename`` and ``lineno``) and the default once-per-line display all see
    the user's line.
    """
    if sys.version_info >= (3, 12):
        warnings.warn(message, category, skip_file_prefixes=(PACKAGE_PREFIX,))
    else:
        warnings.warn(message, category, stacklevel=caller_stacklevel())
