"""``python -m molforma``: the same as the ``molforma`` command."""

from __future__ import annotations

import sys

from molforma.cli import main

if __name__ == "__main__":
    sys.exit(main())
