"""Orbitals in the Results tab: the MOLDEN file's MOs listed, HOMO/LUMO one click away,
both lobes drawn in their colours (painter offscreen, OpenGL under Xvfb), cube export."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter

from molforma.results.orbitals import read_cube
from tests.gui.helpers import run_gl_script
from tests.gui.test_panels_results import _open
from tests.paths import NWCHEM_DATA

METHANE = NWCHEM_DATA / "methane_b3lyp_molden.molden"


@pytest.fixture
def results(qtbot: Any, make_main_window: Any) -> Any:
    """The Results tab of a real window (its 3D view is the one that draws orbitals)."""
    win = make_main_window()
    win.show_tab("results")
    return win.panels["results"]


def _lobe_pixels(img: QImage) -> tuple[int, int]:
    """Pixels where the blue (positive) and the red (negative) lobe show."""
    blue = red = 0
    for x in range(0, img.width(), 3):
        for y in range(0, img.height(), 3):
            c = img.pixelColor(x, y)
            blue += c.blue() > c.red() + 30 and c.blue() > c.green() + 15
            red += c.red() > c.blue() + 30 and c.red() > c.green() + 20
    return blue, red


def _draw_homo(qtbot: Any, results: Any) -> Any:
    _open(qtbot, results, METHANE)
    orbitals = results.orbital_panel
    qtbot.waitUntil(lambda: orbitals.orbitals is not None, timeout=60000)
    return orbitals


def test_a_molden_file_lists_its_orbitals_and_homo_draws_both_lobes(
    qtbot: Any, results: Any
) -> None:
    orbitals = _draw_homo(qtbot, results)
    table = orbitals.table
    assert table.rowCount() == 23
    assert table.item(4, 4).text() == "2" and table.item(5, 4).text() == "0"
    assert float(table.item(0, 3).text()) == pytest.approx(-10.16543692 * 27.211386, abs=1e-3)
    view = results.view
    img_before = QImage(view.size(), QImage.Format.Format_RGB32)
    from molforma.gui.view3d.painter import render_scene

    painter = QPainter(img_before)
    render_scene(painter, view, view.width(), view.height())
    painter.end()
    assert _lobe_pixels(img_before) == (0, 0)
    qtbot.mouseClick(orbitals.homo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: orbitals.shown == 4, timeout=60000)
    assert [len(s.faces) > 0 for s in view.surfaces] == [True, True]
    img = QImage(view.size(), QImage.Format.Format_RGB32)
    painter = QPainter(img)
    render_scene(painter, view, view.width(), view.height())
    painter.end()
    blue, red = _lobe_pixels(img)
    assert blue > 100 and red > 100
    # LUMO is one click away too; Hide takes the surfaces away.
    orbitals.lumo_button.click()
    qtbot.waitUntil(lambda: orbitals.shown == 5, timeout=60000)
    orbitals.hide_button.click()
    assert view.surfaces == [] and orbitals.shown is None


def test_the_isovalue_changes_the_surface_and_a_bad_one_is_refused(
    qtbot: Any, results: Any
) -> None:
    orbitals = _draw_homo(qtbot, results)
    orbitals.show_frontier("homo")
    qtbot.waitUntil(lambda: orbitals.shown == 4, timeout=60000)
    wide = sum(len(s.faces) for s in results.view.surfaces)
    orbitals.isovalue.setText("0.02")
    orbitals.isovalue.editingFinished.emit()
    assert sum(len(s.faces) for s in results.view.surfaces) > wide  # a lower value: larger lobes
    orbitals.isovalue.setText("0,02")
    orbitals.isovalue.editingFinished.emit()
    assert orbitals.message.text()


def test_the_drawn_orbital_exports_as_a_cube_file(qtbot: Any, results: Any, tmp_path: Path) -> None:
    orbitals = _draw_homo(qtbot, results)
    orbitals.show_frontier("homo")
    qtbot.waitUntil(lambda: orbitals.shown == 4, timeout=60000)
    out = orbitals.export_cube(str(tmp_path / "homo.cube"))
    assert out is not None
    cube = read_cube(Path(out).read_text())
    assert cube.numbers == [6, 1, 1, 1, 1]
    step = float(np.diag(cube.axes)[0])
    assert float(np.sum(cube.values**2) * step**3) == pytest.approx(1.0, abs=0.02)


def test_opengl_under_xvfb_draws_both_lobes_in_their_colours() -> None:
    proc = run_gl_script(
        "import sys\n"
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "from molforma.gui.view3d import create_view\n"
        "from molforma.gui.view3d.surfaces import NEGATIVE, POSITIVE, Surface\n"
        "from molforma.results import orbitals as orb\n"
        "from molforma.results.reader import read_results\n"
        f"path = {str(METHANE)!r}\n"
        "res = read_results(path)\n"
        "st = res.structures[-1]\n"
        "atoms = [{'id': f'a{i}', 'element': s, 'x': c[0], 'y': c[1], 'z': c[2]}\n"
        "         for i, (s, c) in enumerate(zip(st.symbols, st.coordinates))]\n"
        "v = create_view(); v.resize(500, 400); v.show()\n"
        "v.set_molecule(atoms, [])\n"
        "o = orb.load_orbitals(path); g = orb.grid_around(o.coordinates, spacing=0.3)\n"
        "plus, minus = orb.isosurfaces(orb.orbital_values(o, 4, g), g, 0.05)\n"
        "v.set_surfaces([Surface(m.vertices, m.faces, m.normals, c)\n"
        "                for m, c in ((plus, POSITIVE), (minus, NEGATIVE))])\n"
        "for _ in range(20): app.processEvents()\n"
        "img = v.grab().toImage()\n"
        "blue = red = 0\n"
        "for x in range(0, img.width(), 3):\n"
        "    for y in range(0, img.height(), 3):\n"
        "        c = img.pixelColor(x, y)\n"
        "        blue += c.blue() > c.red() + 30 and c.blue() > c.green() + 15\n"
        "        red += c.red() > c.blue() + 30 and c.red() > c.green() + 20\n"
        "print(v.renderer_name, blue, red)\n",
        timeout=180,
    )
    name, blue, red = proc.stdout.split()[-3:]
    assert name == "opengl"
    assert int(blue) > 100 and int(red) > 100


def test_a_panel_closed_while_its_orbitals_load_reports_nothing_and_warns_nothing(
    qtbot: Any, make_main_window: Any
) -> None:
    import shiboken6

    from molforma.gui.view3d import create_view
    from molforma.gui.widgets.orbital_panel import OrbitalPanel

    view = create_view()
    qtbot.addWidget(view)
    notes: list[str] = []
    panel = OrbitalPanel(view, lambda p: p, notes.append)
    panel.set_source(str(METHANE))
    relay = panel._relay
    panel.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(panel), timeout=5000)
    qtbot.wait(4000)  # the worker finishes meanwhile and emits into nothing
    assert shiboken6.isValid(relay)
    assert notes == []
