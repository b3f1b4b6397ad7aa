"""Open shells and levels in the Results tab: spin populations as atom labels, HOMO/LUMO
per spin in the summary, the same LUMO in the Orbitals tab, the energy-level diagram,
density / spin density / ESP surfaces drawn from a MOLDEN file, and the SCF dipole of an
MP2 job labelled as such (painter renderer, offscreen)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QCheckBox

from tests.gui.test_panels_results import _open
from tests.paths import NWCHEM_DATA

CH3_OUT = NWCHEM_DATA / "ch3_udft_molden.out"
CH3_MOLDEN = NWCHEM_DATA / "ch3_udft_molden.molden"
METHANE = NWCHEM_DATA / "methane_b3lyp_molden.molden"
MP2_OUT = NWCHEM_DATA / "water_mp2_property.out"


@pytest.fixture
def results(qtbot: Any, make_main_window: Any) -> Any:
    win = make_main_window()
    win.show_tab("results")
    return win.panels["results"]


def _summary(panel: Any) -> str:
    return panel.findChild(object, "resultsSummary").toPlainText()


def test_spin_populations_label_the_atoms_in_their_own_colour_and_replace_charges(
    results: Any, qtbot: Any
) -> None:
    _open(qtbot, results, CH3_OUT)
    spins = results.findChild(QCheckBox, "showSpinsCheck")
    charges = results.findChild(QCheckBox, "showChargesCheck")
    assert spins.isEnabled() and charges.isEnabled()
    assert results.label_overlay.labels() == []
    spins.setChecked(True)
    # NWChem's "Atomic spin population": C 1.15533, H -0.05178
    assert results.label_overlay.labels() == ["+1.16", "-0.05", "-0.05", "-0.05"]
    from molforma.gui.view3d.labels import LABEL_COLOUR, SPIN_LABEL_COLOUR

    assert results.label_overlay.colour() == SPIN_LABEL_COLOUR
    charges.setChecked(True)  # one number per label: charges take over
    assert not spins.isChecked()
    assert results.label_overlay.labels()[0] == f"{6.0 - 6.48854:+.2f}"
    assert results.label_overlay.colour() == LABEL_COLOUR
    charges.setChecked(False)
    assert results.label_overlay.labels() == []


def test_a_closed_shell_has_no_spin_labels_to_offer(results: Any, qtbot: Any) -> None:
    _open(qtbot, results, MP2_OUT)
    assert results.findChild(QCheckBox, "showChargesCheck").isEnabled()
    assert not results.findChild(QCheckBox, "showSpinsCheck").isEnabled()


def test_the_summary_states_homo_lumo_and_gap_for_each_spin_apart(results: Any, qtbot: Any) -> None:
    _open(qtbot, results, CH3_OUT)
    lines = _summary(results).splitlines()
    alpha = [ln for ln in lines if ln.startswith("α (alpha): HOMO")]
    beta = [ln for ln in lines if ln.startswith("β (beta): HOMO")]
    assert alpha == ["α (alpha): HOMO -0.22425 Eh, LUMO 0.11596 Eh, gap 9.258 eV"]
    assert beta == ["β (beta): HOMO -0.40753 Eh, LUMO -0.04800 Eh, gap 9.783 eV"]
    # No unlabelled pair mixing the channels (alpha HOMO with beta LUMO: gap 4.79 eV).
    assert not [ln for ln in lines if ln.startswith("HOMO")]
    assert "4.795" not in _summary(results)


def test_the_orbital_table_marks_each_spins_homo_and_lumo_as_the_summary_does(
    results: Any, qtbot: Any
) -> None:
    _open(qtbot, results, CH3_OUT)
    table = results.orbitals_table
    marked = {}
    for row in range(table.rowCount()):
        text = table.item(row, 0).text()
        if "HOMO" in text or "LUMO" in text:
            key = (table.item(row, 1).text(), text.split()[1])
            marked[key] = float(table.item(row, 2).text())
    assert marked == pytest.approx(
        {
            ("alpha", "HOMO"): -0.2242485,
            ("alpha", "LUMO"): 0.115963,
            ("beta", "HOMO"): -0.4075285,
            ("beta", "LUMO"): -0.0479971,
        },
        abs=1e-6,
    )


def test_an_mp2_result_labels_its_dipole_and_orbitals_as_the_scfs(results: Any, qtbot: Any) -> None:
    _open(qtbot, results, MP2_OUT)
    text = _summary(results)
    assert "Final energy: -76.19902659 Eh (Total MP2 energy)" in text
    assert "SCF dipole: 2.2260 D (property)" in text
    assert "Orbitals and charges: the SCF wavefunction's (the final energy is MP2)" in text
    assert "\nDipole:" not in text


def test_a_dft_result_keeps_the_plain_dipole_label(results: Any, qtbot: Any) -> None:
    _open(qtbot, results, CH3_OUT)
    text = _summary(results)
    assert "Dipole: 0.0000 D (property)" in text and "SCF dipole" not in text


def test_the_level_diagram_shows_alpha_beside_beta_with_each_frontier_labelled(
    results: Any, qtbot: Any
) -> None:
    _open(qtbot, results, CH3_OUT)
    diagram = results.orbital_panel.diagram
    results.plots.setCurrentWidget(results.orbital_panel)
    qtbot.waitUntil(lambda: diagram._plot is not None, timeout=10000)
    assert diagram.columns == ["alpha", "beta"]
    labelled = {
        (lv.spin, lv.label): round(lv.energy_ev / 27.211386245988, 7)
        for lv in diagram.levels
        if lv.label
    }
    assert labelled == {
        ("alpha", "HOMO"): -0.2242485,
        ("alpha", "LUMO"): 0.115963,
        ("beta", "HOMO"): -0.4075285,
        ("beta", "LUMO"): -0.0479971,
    }
    assert sum(lv.occupied for lv in diagram.levels if lv.spin == "alpha") == 5
    assert sum(lv.occupied for lv in diagram.levels if lv.spin == "beta") == 4
    assert all(lv.x1 <= 1.0 for lv in diagram.levels if lv.spin == "alpha")
    assert all(lv.x0 >= 1.0 for lv in diagram.levels if lv.spin == "beta")
    # The degenerate beta pair sits side by side, not on top of each other.
    pair = [lv for lv in diagram.levels if lv.spin == "beta" and lv.occupied][2:4]
    assert pair[0].x1 <= pair[1].x0
    assert pair[0].frontier and pair[1].frontier  # both drawn as the HOMO, one labelled
    texts = [i for i in diagram._plot.getPlotItem().items if type(i).__name__ == "TextItem"]
    assert sorted(t.toPlainText().split()[0] for t in texts) == ["HOMO", "HOMO", "LUMO", "LUMO"]


def test_a_closed_shell_diagram_has_one_column(results: Any, qtbot: Any) -> None:
    _open(qtbot, results, METHANE)
    assert results.orbital_panel.diagram.columns == ["restricted"]
    assert [lv.label for lv in results.orbital_panel.diagram.levels if lv.label] == ["HOMO", "LUMO"]


def _loaded(qtbot: Any, results: Any, path: Any) -> Any:
    _open(qtbot, results, path)
    panel = results.orbital_panel
    qtbot.waitUntil(lambda: panel.orbitals is not None, timeout=60000)
    return panel


def test_homo_and_lumo_buttons_draw_the_chosen_spins_frontier_the_summary_names(
    results: Any, qtbot: Any
) -> None:
    panel = _loaded(qtbot, results, CH3_MOLDEN)
    frontier = {f.spin: f for f in results.results.summary.frontier}
    assert panel.spin_combo.isEnabled()
    # The Orbitals tab's list names the rows the summary names.
    marked = {
        r: panel.table.item(r, 0).text().split()[1]
        for r in range(panel.table.rowCount())
        if len(panel.table.item(r, 0).text().split()) > 1
    }
    assert marked == {
        frontier["alpha"].homoIndex: "HOMO",
        frontier["alpha"].lumoIndex: "LUMO",
        frontier["beta"].homoIndex: "HOMO",
        frontier["beta"].lumoIndex: "LUMO",
    }
    assert panel.table.item(frontier["beta"].lumoIndex, 1).text() == "beta"
    panel.show_frontier("lumo", "beta")
    qtbot.waitUntil(lambda: panel.shown == frontier["beta"].lumoIndex, timeout=60000)
    assert panel.orbitals.orbitals[panel.shown].spin == "beta"
    assert panel.orbitals.orbitals[panel.shown].energy == pytest.approx(frontier["beta"].lumo)
    panel.spin_combo.setCurrentIndex(0)
    panel.lumo_button.click()
    qtbot.waitUntil(lambda: panel.shown == frontier["alpha"].lumoIndex, timeout=60000)


def _coloured_pixels(results: Any) -> tuple[int, int]:
    from molforma.gui.view3d.painter import render_scene

    view = results.view
    img = QImage(view.size(), QImage.Format.Format_RGB32)
    painter = QPainter(img)
    render_scene(painter, view, view.width(), view.height())
    painter.end()
    blue = red = 0
    for x in range(0, img.width(), 3):
        for y in range(0, img.height(), 3):
            c = img.pixelColor(x, y)
            blue += c.blue() > c.red() + 30 and c.blue() > c.green() + 15
            red += c.red() > c.blue() + 30 and c.red() > c.green() + 20
    return blue, red


def test_the_spin_density_of_a_radical_is_drawn_and_integrates_to_2s(
    results: Any, qtbot: Any, tmp_path: Path
) -> None:
    panel = _loaded(qtbot, results, CH3_MOLDEN)
    panel.set_surface_kind("spin")
    assert panel.isovalue.text() == "0.005"
    panel.show_button.click()
    qtbot.waitUntil(lambda: panel.shown_kind == "spin", timeout=60000)
    plus, minus = results.view.surfaces
    assert len(plus.faces) > 100  # the alpha excess on carbon's p orbital
    assert len(minus.faces) > 0  # the small beta excess at the hydrogens
    assert panel.integral == pytest.approx(1.0, abs=0.02)
    assert "2S = 1" in panel.message.text()
    blue, _red = _coloured_pixels(results)
    assert blue > 100
    # The spin density's grid exports as a cube file that integrates to 2S as well.
    out = panel.export_cube(str(tmp_path / "spin.cube"))
    assert out is not None
    from molforma.results.orbitals import read_cube

    cube = read_cube(Path(out).read_text())
    assert cube.numbers == [6, 1, 1, 1]
    step = float(np.diag(cube.axes)[0])
    assert float(cube.values.sum()) * step**3 == pytest.approx(1.0, abs=0.02)
    panel.hide_button.click()
    assert results.view.surfaces == [] and panel.shown_kind is None


def test_the_total_density_integrates_to_the_electron_count(results: Any, qtbot: Any) -> None:
    panel = _loaded(qtbot, results, CH3_MOLDEN)
    # As ui_set_value does it: the combo's index alone, then the Show button.
    panel.surface_combo.setCurrentIndex(panel.surface_combo.findData("density"))
    assert panel.isovalue.text() == "0.002"
    panel.show_button.click()
    qtbot.waitUntil(lambda: panel.shown_kind == "density", timeout=60000)
    [surface] = results.view.surfaces
    assert len(surface.faces) > 1000 and surface.colours is None
    assert panel.integral == pytest.approx(9.0, rel=0.02)
    # A higher isovalue gives a smaller surface without evaluating the density again.
    before = len(surface.faces)
    panel.isovalue.setText("0.02")
    panel.isovalue.editingFinished.emit()
    assert 0 < len(results.view.surfaces[0].faces) < before


def test_the_esp_colours_the_density_surface_red_to_blue(results: Any, qtbot: Any) -> None:
    from molforma.results import orbitals as orb

    panel = _loaded(qtbot, results, CH3_MOLDEN)
    panel.show_density("esp")
    qtbot.waitUntil(lambda: panel.shown_kind == "esp", timeout=120000)
    [surface] = results.view.surfaces
    assert surface.colours is not None and surface.colours.shape == (len(surface.vertices), 4)
    esp = panel.esp_values
    assert esp.shape == (len(surface.vertices),)
    sample = slice(None, None, 700)
    assert esp[sample] == pytest.approx(
        orb.potential_at(panel.orbitals, surface.vertices[sample] / orb.BOHR)
    )
    # Positive vertices are bluer than they are red, negative ones redder.
    pos, neg = surface.colours[esp > 0.005], surface.colours[esp < -0.005]
    assert len(pos) and len(neg)
    assert np.all(pos[:, 2] > pos[:, 0]) and np.all(neg[:, 0] > neg[:, 2])
    assert panel.esp_range[0] < 0 < panel.esp_range[1]
    assert "hartree/e" in panel.message.text()
    blue, red = _coloured_pixels(results)
    assert blue > 50 and red > 50


def test_a_closed_shell_refuses_the_spin_density_with_the_reason(results: Any, qtbot: Any) -> None:
    panel = _loaded(qtbot, results, METHANE)
    panel.show_density("spin")
    assert "closed shell" in panel.message.text()
    assert results.view.surfaces == [] and panel.shown_kind is None


def test_opengl_under_xvfb_colours_the_esp_surface_vertex_by_vertex() -> None:
    from tests.gui.helpers import run_gl_script

    proc = run_gl_script(
        "from PySide6.QtWidgets import QApplication\n"
        "app = QApplication([])\n"
        "import numpy as np\n"
        "from molforma.gui.view3d import create_view\n"
        "from molforma.gui.view3d.surfaces import POSITIVE, Surface, esp_colours\n"
        "from molforma.results import orbitals as orb\n"
        "from molforma.results.reader import read_results\n"
        f"path = {str(CH3_MOLDEN)!r}\n"
        "st = read_results(path).structures[-1]\n"
        "atoms = [{'id': f'a{i}', 'element': s, 'x': c[0], 'y': c[1], 'z': c[2]}\n"
        "         for i, (s, c) in enumerate(zip(st.symbols, st.coordinates))]\n"
        "v = create_view(); v.resize(500, 400); v.show()\n"
        "v.set_molecule(atoms, [])\n"
        "o = orb.load_orbitals(path); g = orb.grid_around(o.coordinates, spacing=0.3)\n"
        "m = orb.density_surface(orb.density_values(o, g), g, 0.002)\n"
        "x = m.vertices[:, 0]\n"
        "fake = np.where(x > np.median(x), 0.03, -0.03)  # one half blue, the other red\n"
        "v.set_surfaces([Surface(m.vertices, m.faces, m.normals, POSITIVE,\n"
        "                        esp_colours(fake, 0.03))])\n"
        "v.zoom_by(0.6)\n"
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


def test_a_click_on_a_level_draws_that_orbital(results: Any, qtbot: Any) -> None:
    panel = _loaded(qtbot, results, CH3_MOLDEN)
    beta_lumo = next(f for f in results.results.summary.frontier if f.spin == "beta")
    panel.set_surface_kind("density")
    panel.diagram.levelClicked.emit(beta_lumo.lumoIndex)
    qtbot.waitUntil(lambda: panel.shown == beta_lumo.lumoIndex, timeout=60000)
    assert panel.surface_kind == "orbital" and panel.shown_kind == "orbital"
    assert {i.row() for i in panel.table.selectedIndexes()} == {beta_lumo.lumoIndex}


def test_an_isovalue_above_every_value_says_so_instead_of_drawing_nothing(
    results: Any, qtbot: Any
) -> None:
    panel = _loaded(qtbot, results, CH3_MOLDEN)
    panel.set_surface_kind("spin")
    panel.isovalue.setText("5")
    panel.show_current()
    qtbot.waitUntil(lambda: panel.shown_kind == "spin", timeout=60000)
    assert results.view.surfaces == []
    assert "No surface at the isovalue 5" in panel.message.text()
    panel.isovalue.setText("0.005")  # a usable value draws it at once
    panel.isovalue.editingFinished.emit()
    assert sum(len(s.faces) for s in results.view.surfaces) > 100


def test_a_file_without_occupations_refuses_densities_with_the_reason(
    results: Any, qtbot: Any, tmp_path: Path
) -> None:
    import re

    empty = tmp_path / "no_occupations.molden"
    empty.write_text(re.sub(r"Occup=\s*\S+", "Occup= 0.0", METHANE.read_text()))
    panel = _loaded(qtbot, results, empty)
    panel.show_density("density")
    assert "no density to draw" in panel.message.text()
    assert results.view.surfaces == [] and panel.shown_kind is None


def test_the_open_shell_and_level_lines_follow_a_switch_to_japanese(
    make_main_window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui.app import set_language

    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    win = make_main_window()
    panel = win.panels["results"]
    win.show_tab("results")
    _open(qtbot, panel, CH3_OUT)
    set_language("ja", win.ctx)
    try:
        qtbot.waitUntil(lambda: "α スピン" in _summary(panel), timeout=5000)
        text = _summary(panel)
        assert "α スピン: HOMO -0.22425 Eh、LUMO 0.11596 Eh、ギャップ 9.258 eV" in text
        assert "β スピン: HOMO -0.40753 Eh" in text
        assert panel.findChild(QCheckBox, "showSpinsCheck").text() == "スピンを表示"
        assert panel.orbital_panel.diagram._column_name("beta") == "β スピン"
        assert panel.orbital_panel.surface_combo.itemText(2) == "スピン密度（α − β）"
        _open(qtbot, panel, MP2_OUT)
        text = _summary(panel)
        assert "SCF の双極子: 2.2260 D（property）" in text
        assert "軌道と電荷: SCF の波動関数によるもの（最終エネルギーは MP2）" in text
    finally:
        set_language("en", win.ctx)


def test_the_energy_plot_of_an_mp2_job_draws_one_level_not_scf_and_mp2_as_steps(
    results: Any, qtbot: Any
) -> None:
    _open(qtbot, results, MP2_OUT)
    plot = results.findChild(object, "resultsEnergyPlot")
    # SCF -76.0105, MP2 -76.1990, the property task's SCF -76.0105: only the MP2 is drawn.
    assert plot.energies() == pytest.approx([-76.199026586480])
    _open(qtbot, results, NWCHEM_DATA / "water_mp2_freq.out")
    # Numerical frequencies: the displaced geometries' energies are no steps.
    assert plot.energies() == pytest.approx([-74.998568775084])


def test_homo_and_lumo_keep_the_isovalue_the_person_set_for_orbitals(
    results: Any, qtbot: Any
) -> None:
    panel = _loaded(qtbot, results, METHANE)
    panel.isovalue.setText("0.03")
    panel.isovalue.editingFinished.emit()
    panel.lumo_button.click()
    qtbot.waitUntil(lambda: panel.shown == 5, timeout=60000)
    assert panel.isovalue.text() == "0.03"
    panel.set_surface_kind("density")  # another kind: its own usual value
    assert panel.isovalue.text() == "0.002"
