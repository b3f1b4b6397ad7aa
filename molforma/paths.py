"""Where MolForma's data folders are: ``resources/`` and ``translations/`` (no Qt).

In a source checkout (and an editable install) they sit beside the package, as
SPEC.md's layout has them; an installed wheel puts them under
``<prefix>/share/molforma/``; the Linux bundle (``scripts/build_bundle.sh``, made
with PyInstaller) keeps them in its ``_internal/`` folder, which PyInstaller names
in ``sys._MEIPASS``.
"""

from __future__ import annotations

import sys
from pathlib import Path


def bundle_dir() -> Path | None:
    """The bundle's data folder (``molforma/_internal``) when this is the frozen bundle."""
    meipass = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and meipass:
        return Path(meipass)
    return None


def data_dir(name: str) -> Path:
    """The folder ``name`` ("resources" or "translations") of this installation."""
    bundled = bundle_dir()
    if bundled is not None:
        return bundled / name
    beside = Path(__file__).resolve().parent.parent / name
    if beside.is_dir():
        return beside
    return Path(sys.prefix) / "share" / "molforma" / name
