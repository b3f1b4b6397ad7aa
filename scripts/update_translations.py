"""Refresh the window's Qt translation catalogues and compile them.

Runs ``pyside6-lupdate`` over the window engineer's sources (the shell and the
Molecule tab) into ``translations/molforma_{ja,en}.ts`` — existing translations are
kept — and compiles them to ``.qm`` with ``pyside6-lrelease``.

Usage: .venv/bin/python scripts/update_translations.py [--no-lupdate]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "translations"
G1_SOURCES = [
    "molforma/gui/actions.py", "molforma/gui/app.py", "molforma/gui/context.py",
    "molforma/gui/dialogs.py", "molforma/gui/launch.py", "molforma/gui/main_window.py",
    "molforma/gui/workers.py", "molforma/gui/view3d/__init__.py", "molforma/gui/view3d/base.py",
    "molforma/gui/view3d/painter.py", "molforma/gui/view3d/opengl.py",
    "molforma/gui/view3d/scene.py", "molforma/gui/widgets/molecule_tab.py",
    "molforma/gui/widgets/coordinate_table.py", "molforma/gui/widgets/property_panel.py",
    "molforma/gui/widgets/parts_palette.py", "molforma/gui/widgets/structure_choice.py",
    "molforma/file_formats.py",
]


def _tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"{name} not found: install PySide6-Essentials (it ships the Linguist tools)")
    return found


def main(argv: list[str] | None = None) -> int:
    """Update the .ts files (unless --no-lupdate) and build every .qm file."""
    args = argparse.ArgumentParser(description=__doc__).parse_known_args(argv)[1]
    TRANSLATIONS.mkdir(exist_ok=True)
    if "--no-lupdate" not in args:
        lupdate = _tool("pyside6-lupdate")
        sources = [str(ROOT / s) for s in G1_SOURCES]
        subprocess.run([lupdate, "-locations", "none", "-no-obsolete", "-target-language", "ja_JP", *sources,
                        "-ts", str(TRANSLATIONS / "molforma_ja.ts")], check=True)
        # English is the source language: only plural forms need an entry.
        subprocess.run([lupdate, "-locations", "none", "-no-obsolete", "-pluralonly", "-target-language",
                        "en_US", *sources, "-ts", str(TRANSLATIONS / "molforma_en.ts")],
                       check=True)
    lrelease = _tool("pyside6-lrelease")
    for ts in sorted(TRANSLATIONS.glob("molforma_*.ts")):
        subprocess.run([lrelease, str(ts), "-qm", str(ts.with_suffix(".qm"))], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
