"""Refresh the window's Qt translation catalogues and compile them.

``pyside6-lupdate`` reads the window's sources into two catalogues per language —
``molforma_{ja,en}.ts`` (the shell and the Molecule tab) and ``panels_{ja,en}.ts`` (the
other tabs and their dialogs); existing translations are kept, and English, the source
language, keeps plural forms only. ``qt_extra_{lang}.ts`` holds translations of Qt's own
dialogs that Qt's ``qtbase`` catalogue lacks (``QFileDialog``): lupdate never writes it,
it is edited by hand. Every ``.ts`` file is then compiled to ``.qm`` with
``pyside6-lrelease``; the window loads every ``*_{lang}.qm``.

A string lupdate cannot see (a translate call through a helper, a text built at run time)
would be dropped from its catalogue: write ``self.tr("…")``,
``QCoreApplication.translate("Context", "…")`` or ``QT_TRANSLATE_NOOP("Context", "…")``
with the literal text. ``tests/gui/test_translation_script.py`` fails when a run of this
script would lose a translation.

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
    "molforma/gui/actions.py",
    "molforma/gui/app.py",
    "molforma/gui/context.py",
    "molforma/gui/dialogs.py",
    "molforma/gui/launch.py",
    "molforma/gui/main_window.py",
    "molforma/gui/workers.py",
    "molforma/gui/view3d/__init__.py",
    "molforma/gui/view3d/base.py",
    "molforma/gui/window_files.py",
    "molforma/gui/window_panels.py",
    "molforma/gui/view3d/painter.py",
    "molforma/gui/view3d/opengl.py",
    "molforma/gui/view3d/scene.py",
    "molforma/gui/widgets/molecule_tab.py",
    "molforma/gui/widgets/molecule_tab_support.py",
    "molforma/gui/widgets/molecule_texts.py",
    "molforma/gui/widgets/molecule_geometry.py",
    "molforma/gui/widgets/molecule_clicks.py",
    "molforma/gui/widgets/molecule_edits.py",
    "molforma/gui/widgets/molecule_selection.py",
    "molforma/gui/widgets/molecule_context_menu.py",
    "molforma/gui/widgets/molecule_workers.py",
    "molforma/gui/widgets/coordinate_table.py",
    "molforma/gui/widgets/property_panel.py",
    "molforma/gui/widgets/parts_palette.py",
    "molforma/gui/widgets/structure_choice.py",
    "molforma/gui/widgets/constraint_editor.py",
    "molforma/file_formats.py",
    "molforma/gui/widgets/residue_selection.py",
    "molforma/gui/widgets/sdf_record_chooser.py",
]
PANEL_SOURCES = [
    "molforma/gui/widgets/calculation_panel.py",
    "molforma/gui/widgets/execution_panel.py",
    "molforma/gui/widgets/calculation_support.py",
    "molforma/gui/widgets/calculation_edits.py",
    "molforma/gui/widgets/calculation_preview.py",
    "molforma/gui/widgets/execution_settings.py",
    "molforma/gui/widgets/execution_run.py",
    "molforma/gui/widgets/execution_status.py",
    "molforma/gui/widgets/history_panel.py",
    "molforma/gui/widgets/orbital_panel.py",
    "molforma/gui/widgets/history_actions.py",
    "molforma/gui/widgets/history_texts.py",
    "molforma/gui/widgets/orbital_density.py",
    "molforma/gui/widgets/orbital_export.py",
    "molforma/gui/widgets/preferences_fields.py",
    "molforma/gui/widgets/plots.py",
    "molforma/gui/widgets/preferences_dialog.py",
    "molforma/gui/widgets/results_panel.py",
    "molforma/gui/widgets/uvvis_plot.py",
    "molforma/gui/widgets/results_support.py",
    "molforma/gui/widgets/results_loading.py",
    "molforma/gui/widgets/results_summary.py",
    "molforma/gui/widgets/results_tables.py",
    "molforma/gui/widgets/results_player.py",
    "molforma/gui/widgets/panel_workers.py",
    "molforma/gui/widgets/level_diagram.py",
    "molforma/gui/widgets/excitations_view.py",
    "molforma/gui/widgets/scan_view.py",
]
CATALOGUES = {"molforma": G1_SOURCES, "panels": PANEL_SOURCES}
LANGUAGES = {"ja": "ja_JP", "en": "en_US"}


def _tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    found = str(local) if local.exists() else shutil.which(name)
    if not found:
        raise SystemExit(
            f"{name} not found: install PySide6-Essentials (it ships the Linguist tools)"
        )
    return found


def update_sources(ts_dir: Path = TRANSLATIONS) -> None:
    """Run lupdate over the sources into the ``molforma_*`` and ``panels_*`` catalogues of
    ``ts_dir`` (translations already there are kept)."""
    lupdate = _tool("pyside6-lupdate")
    for name, sources in CATALOGUES.items():
        files = [str(ROOT / s) for s in sources]
        for lang, locale in LANGUAGES.items():
            plural = ["-pluralonly"] if lang == "en" else []
            subprocess.run(
                [
                    lupdate,
                    "-silent",
                    "-locations",
                    "none",
                    "-no-obsolete",
                    *plural,
                    "-target-language",
                    locale,
                    *files,
                    "-ts",
                    str(ts_dir / f"{name}_{lang}.ts"),
                ],
                check=True,
            )


def compile_all(ts_dir: Path = TRANSLATIONS) -> list[Path]:
    """Compile every ``.ts`` file of ``ts_dir`` to the ``.qm`` beside it."""
    lrelease = _tool("pyside6-lrelease")
    built = []
    for ts in sorted(ts_dir.glob("*.ts")):
        qm = ts.with_suffix(".qm")
        subprocess.run([lrelease, "-silent", str(ts), "-qm", str(qm)], check=True)
        built.append(qm)
    return built


def main(argv: list[str] | None = None) -> int:
    """Update the .ts files (unless --no-lupdate) and build every .qm file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-lupdate", action="store_true", help="only compile the .ts files")
    args = ap.parse_args(argv)
    TRANSLATIONS.mkdir(exist_ok=True)
    if not args.no_lupdate:
        update_sources()
    compile_all()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
