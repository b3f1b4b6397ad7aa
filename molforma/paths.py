"""Where MolForma's data folders are: ``resources/`` and ``translations/`` (no Qt).

In a source checkout (and an editable install) they sit beside the package, as
SPEC.md's layout has them; an installed wheel puts them under
``<prefix>/share/molforma/``.
"""

from __future__ import annotations

import sys
from pathlib import Path


def data_dir(name: str) -> Path:
    """The folder ``name`` ("resources" or "translations") of this installation."""
    beside = Path(__file__).resolve().parent.parent / name
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "molforma" / name
