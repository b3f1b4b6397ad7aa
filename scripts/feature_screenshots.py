"""Screenshots of an orbital, a vibration with arrows (Results) and measurements (Molecule).

Usage (OpenGL under Xvfb, as the other screenshots; MOLFORMA_LANGUAGE picks the language)::

    xvfb-run -a -s '-screen 0 1280x1024x24' env QT_QPA_PLATFORM=xcb MOLFORMA_RENDERER=opengl \\
      MOLFORMA_LANGUAGE=en .venv/bin/python scripts/feature_screenshots.py orbital FILE.molden OUT.png
    ... scripts/feature_screenshots.py measurement FILE.mol2 OUT.png
    ... scripts/feature_screenshots.py vibration OUTPUT.out OUT.png
    ... scripts/feature_screenshots.py spin FILE.molden OUT.png
    ... scripts/feature_screenshots.py esp FILE.molden OUT.png
    ... scripts/feature_screenshots.py drawing - OUT.png
    ... scripts/feature_screenshots.py scan OUTPUT.out OUT.png
    ... scripts/feature_screenshots.py scan_setup FILE.xyz OUT.png
    ... scripts/feature_screenshots.py excited OUTPUT.out OUT.png
    ... scripts/feature_screenshots.py qm_region PROTEIN_LIGAND.pdb OUT.png

``orbital`` opens the MOLDEN file in the Results tab and draws its HOMO; ``measurement``
opens a structure, keeps an angle and a distance and shows atom labels; ``vibration``
opens a frequency output, selects its strongest real IR band with arrows and the
HF/6-31G* scale factor (0.8953); ``spin`` and ``esp`` open an (open-shell) MOLDEN file and
draw its spin density, or the electrostatic potential on its density surface, beside the
energy-level diagram. ``drawing`` builds ethanol with the Add-atom tool's gestures (a drag
from empty space draws C–C, a click on a hydrogen with oxygen makes it O) and is taken
in the middle of the next drag, with the bond being drawn and the hint under the view.
``scan`` opens a relaxed scan's output and shows its energy profile and points (the
staggered minimum chosen); ``scan_setup`` opens ethane and sets a scan of an H-C-C-H
dihedral from the geometry editor ("Scan this coordinate"); ``excited`` opens a TDDFT/CIS
output and shows the UV-Vis spectrum with the table of roots under it. ``qm_region``
opens a protein–ligand PDB (``python tests/protein_ligand.py > complex.pdb``), selects the
ligand (LIG) and everything within 6 Å of it (whole residues) with the "Residues and QM
region" group, extracts the capped region and shows it with its link hydrogens selected.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def _wait(ms: int) -> None:
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def _until(done: Any, timeout_ms: int = 120_000) -> None:
    waited = 0
    while not done() and waited < timeout_ms:
        _wait(50)
        waited += 50


def _orbital(window: Any, source: str) -> None:
    panel = window.panels["results"]
    handle = panel.open_path(source)
    _until(lambda: handle.done)
    window.show_tab("results")
    orbitals = panel.orbital_panel
    panel.plots.setCurrentWidget(orbitals)
    _until(lambda: orbitals.orbitals is not None)
    orbitals.show_frontier("homo")
    _until(lambda: orbitals.shown is not None)


def _density(window: Any, source: str, kind: str) -> None:
    panel = window.panels["results"]
    handle = panel.open_path(source)
    _until(lambda: handle.done)
    window.show_tab("results")
    orbitals = panel.orbital_panel
    panel.plots.setCurrentWidget(orbitals)
    _until(lambda: orbitals.orbitals is not None)
    orbitals.show_density(kind)
    _until(lambda: orbitals.shown_kind == kind)
    panel.view.rotate_by(0.0, -60.0)  # tilted: a planar radical's p lobe seen from the side
    if kind == "esp":
        panel.view.zoom_by(0.6)  # the density surface reaches well beyond the atoms
    panel.view.update()


def _vibration(window: Any, source: str) -> None:
    from molforma.gui.widgets.plots import MIN_REAL_FREQUENCY

    panel = window.panels["results"]
    handle = panel.open_path(source)
    _until(lambda: handle.done and panel.results is not None)
    window.show_tab("results")
    vibrations = [m for m in panel.results.modes if m.frequency >= MIN_REAL_FREQUENCY]
    strongest = max(vibrations, key=lambda m: m.irIntensity or 0.0)
    panel.modes_table.selectRow(panel._row_of_mode(strongest.index))
    panel.plots.setCurrentWidget(panel.ir)
    panel.ir.scale_combo.setCurrentIndex(panel.ir.scale_combo.findData(0.8953))
    panel.ir.set_scale_factor(0.8953)
    panel.arrows_check.setChecked(True)


def _scan(window: Any, source: str) -> None:
    panel = window.panels["results"]
    handle = panel.open_path(source)
    _until(lambda: handle.done and panel.results is not None)
    window.show_tab("results")
    view = panel.scan_view
    panel.plots.setCurrentWidget(view)
    view.table.selectRow(2)  # the staggered minimum, shown in the 3D view


def _scan_setup(window: Any, source: str) -> None:
    window.open_path(source)
    tab = window.molecule_tab
    atoms = [a["id"] for a in window.ctx.document.project["document"]["atoms"]]
    tab.set_selection([atoms[2], atoms[0], atoms[1], atoms[5]])  # H-C-C-H of ethane
    editor = tab.constraint_editor
    editor.end_input.setText("120")
    editor.steps_spin.setValue(4)
    editor.scan_selected()
    tab.set_selection([atoms[2], atoms[0], atoms[1], atoms[5]])
    tab.labels_combo.setCurrentIndex(tab.labels_combo.findData("element_index"))
    window.show_tab("molecule")


def _measurement(window: Any, source: str) -> None:
    window.open_path(source)
    tab = window.molecule_tab
    ids = [a["id"] for a in window.ctx.document.project["document"]["atoms"]]
    heavy = [
        a["id"] for a in window.ctx.document.project["document"]["atoms"] if a["element"] != "H"
    ]
    tab.keep_measurement(heavy[:3])  # an angle along the heavy-atom chain
    tab.keep_measurement([heavy[0], ids[-1]])  # a distance to the last hydrogen
    tab.labels_combo.setCurrentIndex(tab.labels_combo.findData("element_index"))
    window.show_tab("molecule")


def _drawing(window: Any, _source: str) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    window.show_tab("molecule")
    tab = window.molecule_tab
    view, canvas = tab.view, tab.view.canvas
    _wait(300)
    tab.set_element("C")
    w, h = canvas.width(), canvas.height()
    a, b = QPoint(w // 2 - 60, h // 2), QPoint(w // 2 + 40, h // 2 + 20)
    QTest.mousePress(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, a)
    for k in range(1, 6):
        QTest.mouseMove(canvas, a + (b - a) * k / 5)
    QTest.mouseRelease(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, b)
    view.fit()
    _wait(200)
    tab.set_element("O")
    atoms = window.ctx.document.project["document"]["atoms"]
    hydrogen = next(x["id"] for x in atoms if x["element"] == "H")
    p = view.atom_screen_pos(hydrogen).toPoint()
    QTest.mouseClick(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, p)
    view.fit()
    tab.labels_combo.setCurrentIndex(tab.labels_combo.findData("element_index"))
    _wait(200)
    # Hover a hydrogen (the hint says what a click would do), then start a drag from the
    # oxygen, shown half-way.
    tab.set_element("C")
    atoms = window.ctx.document.project["document"]["atoms"]
    oxygen = next(x["id"] for x in atoms if x["element"] == "O")
    h2 = next(x["id"] for x in atoms if x["element"] == "H")
    QTest.mouseMove(canvas, view.atom_screen_pos(h2).toPoint())
    hint = tab.draw_hint.text()
    start = view.atom_screen_pos(oxygen).toPoint()
    QTest.mousePress(canvas, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    for k in range(1, 6):
        QTest.mouseMove(canvas, start + QPoint(16 * k, -10 * k))
    tab.draw_hint.setText(hint)


def _qm_region(window: Any, source: str) -> None:
    from PySide6.QtWidgets import QScrollArea

    window.open_path(source)
    window.show_tab("molecule")
    tab = window.molecule_tab
    part = tab.residue_selection
    atoms = window.ctx.document.project["document"]["atoms"]
    before = {a["id"] for a in atoms}
    part.selecting.set_selection([a["id"] for a in atoms if a.get("residueName") == "LIG"])
    part.radius.setValue(6.0)
    part.fix_caps.setChecked(True)
    part.select_within()
    part.extract_region()
    window.show_tab("molecule")
    tab.view.fit()
    caps = [
        a["id"] for a in window.ctx.document.project["document"]["atoms"] if a["id"] not in before
    ]
    part.selecting.set_selection(caps)  # the link hydrogens, highlighted
    tab.labels_combo.setCurrentIndex(tab.labels_combo.findData("element_index"))
    side = window.findChild(QScrollArea, "moleculeSideScroll")
    if side is not None:
        side.ensureWidgetVisible(part.box)


def _excited(window: Any, source: str) -> None:
    panel = window.panels["results"]
    handle = panel.open_path(source)
    _until(lambda: handle.done and panel.results is not None)
    window.show_tab("results")
    panel.plots.setCurrentWidget(panel.uvvis)
    panel.excitations_table.selectRow(0)


def main(argv: list[str]) -> int:
    """``orbital|measurement|vibration|spin|esp SOURCE OUT.png``: make the screenshot; 0 when
    saved."""
    from PySide6.QtWidgets import QApplication

    from molforma.gui.app import install_translators
    from molforma.gui.context import AppContext
    from molforma.gui.main_window import MainWindow
    from molforma.i18n import display_language

    kind, source, out = argv
    app = QApplication([])
    install_translators(display_language())
    window = MainWindow(AppContext.create())
    window.resize(1280, 820)
    window.show()
    make = {
        "orbital": _orbital,
        "measurement": _measurement,
        "vibration": _vibration,
        "spin": lambda w, s: _density(w, s, "spin"),
        "esp": lambda w, s: _density(w, s, "esp"),
        "drawing": _drawing,
        "scan": _scan,
        "scan_setup": _scan_setup,
        "excited": _excited,
        "qm_region": _qm_region,
    }[kind]
    make(window, str(Path(source).resolve()))
    _wait(800)
    ok = window.grab().save(out, "PNG")
    window.ctx.document.modified = False
    window.close()
    app.processEvents()
    return 0 if ok else 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
