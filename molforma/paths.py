"""Where MolForma's data folders are: ``resources/`` and ``translations/`` (no Qt).

In a source checkout (and an editable install) they sit beside the package, as
the repository's layout has them (docs/reference/index.md, Stack); an installed wheel puts them under
``<base>/share/molforma/`` of the scheme it was installed with (a venv's prefix,
``~/.local`` for ``--user``, ``/usr/local`` for Debian's system pip); the Linux bundle (``scripts/build_bundle.sh``, made
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
    here = Path(__file__).resolve()
    beside = here.parent.parent / name
    if beside.is_dir():
        return beside
    # A wheel's data files go to the install base of the scheme pip used: the package
    # sits in <base>/lib/pythonX.Y/site-packages/molforma/, so <base> is four folders up.
    # That is sys.prefix for a venv, but ~/.local for `pip install --user` and /usr/local
    # for Debian's system pip, neither of which sys.prefix names.
    installed = Path(sys.prefix) / "share" / "molforma" / name
    if len(here.parents) > 4:
        base = here.parents[4] / "share" / "molforma" / name
        if base.is_dir() and not installed.is_dir():
            return base
    return installed
