"""``python -m polyroc.cli``: the ``polyroc`` command."""

import sys

from polyroc.cli._main import main

if __name__ == "__main__":
    sys.exit(main())
