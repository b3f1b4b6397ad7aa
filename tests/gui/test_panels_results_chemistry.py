"""The Results tab on TDDFT, radical and property outputs: UV-Vis plot, orbitals, charges."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.paths import NWCHEM_DATA

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QTableWidget

TDDFT_OUT = NWCHEM_DATA / "water_b3lyp_tddft.out"
OH_OUT = NWCHEM_DATA / "oh_uhf.out"
DIPOLE_OUT = NWCHEM_DATA / "water_scf_dipole.out"


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    from molforma.gui.context import AppContext

    context = AppContext.create()
    yield context
    context.close()


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    from molforma.gui.widgets.results_panel import ResultsPanel

    w = ResultsPanel(ctx)
    qtbot.addWidget(w)
    w.resize(1200, 750)
    w.show()
    return w


def _open(qtbot: Any, panel: Any, path: Path) -> None:
    handle = panel.open_path(str(path))
    qtbot.waitUntil(lambda: handle.done, timeout=20000)
    assert handle.status == "completed"
    qtbot.waitUntil(lambda: panel.results is handle.result, timeout=5000)


def test_a_tddft_output_shows_a_uv_vis_spectrum_whose_width_can_change_and_exports(
    panel: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import numpy as np

    from molforma.gui import dialogs

    _open(qtbot, panel, TDDFT_OUT)
    uv = panel.findChild(object, "uvvisPanel")
    assert panel.plots.currentWidget() is uv  # no steps, no modes: the spectrum is shown
    sticks = uv.sticks()
    assert len(sticks) == 6
    assert sticks[0] == (pytest.approx(154.533, abs=0.01), pytest.approx(0.0143853823))
    assert [f for _nm, f in sticks[3:]] == [0.0, 0.0, 0.0]  # triplets: spin forbidden
    x1, y1 = uv.broadened()
    assert np.all(np.diff(x1) > 0)
    panel.findChild(object, "uvvisWidthSpin").setValue(1.5)
    x2, y2 = uv.broadened()
    peak = 1239.84198 / 10.54  # the strongest root, 0.0929
    assert np.interp(peak, x1, y1) == pytest.approx(0.0929, abs=0.01)
    assert y2.max() > 0 and not np.allclose(np.interp(x1, x2, y2), y1)

    png, csv = tmp_path / "uv.png", tmp_path / "uv.csv"
    paths = iter([str(png), str(csv)])
    monkeypatch.setattr(dialogs, "get_save_path", lambda *a, **k: next(paths))
    qtbot.mouseClick(panel.findChild(object, "uvvisExportPng"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.findChild(object, "uvvisExportCsv"), Qt.MouseButton.LeftButton)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = csv.read_text().splitlines()
    assert lines[0] == "# fwhm_eV,1.500"
    assert lines[1] == "wavelength_nm,broadened_intensity,oscillator_strength"
    assert any(line.startswith("154.53") and line.endswith("0.0143854") for line in lines)


def test_the_orbital_list_shows_energies_per_spin_and_marks_homo_and_lumo(
    panel: Any, qtbot: Any
) -> None:
    _open(qtbot, panel, OH_OUT)
    table = panel.findChild(QTableWidget, "orbitalsTable")
    res = panel.results
    assert table.rowCount() == len(res.orbitals) == 30
    spins = {table.item(r, 1).text() for r in range(table.rowCount())}
    assert spins == {"alpha", "beta"}
    marks = [table.item(r, 0).text() for r in range(table.rowCount())]
    # One HOMO and one LUMO per spin channel (the summary's frontier), each in its channel.
    for spin in ("alpha", "beta"):
        rows = [r for r, m in enumerate(marks) if table.item(r, 1).text() == spin]
        assert sum("HOMO" in marks[r] for r in rows) == 1
        assert sum("LUMO" in marks[r] for r in rows) == 1
    homo_row = next(r for r, m in enumerate(marks) if "HOMO" in m)
    assert table.item(homo_row, 1).text() == "alpha"
    assert float(table.item(homo_row, 2).text()) == pytest.approx(res.summary.homo, abs=1e-6)
    text = panel.summary.toPlainText()
    assert "multiplicity: 2" in text and "<S²>: 0.7553" in text and "HOMO" in text


def test_charges_appear_as_atom_labels_only_while_the_box_is_checked(
    panel: Any, qtbot: Any
) -> None:
    _open(qtbot, panel, DIPOLE_OUT)
    box = panel.findChild(QCheckBox, "showChargesCheck")
    overlay = panel.findChild(object, "atomLabelOverlay")
    assert box.isEnabled() and not box.isChecked()
    assert overlay.labels() == []
    before = panel.view.grab().toImage()
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert box.isChecked()
    expected = [f"{q.mulliken:+.2f}" for q in panel.results.charges]
    assert overlay.labels() == expected and expected[0].startswith("-0.8")
    qtbot.wait(50)
    after = panel.view.grab().toImage()
    assert after != before  # the labels are drawn over the atoms
    qtbot.mouseClick(box, Qt.MouseButton.LeftButton)
    assert overlay.labels() == []
    assert "Dipole: 2.2260 D (property)" in panel.summary.toPlainText()


def test_without_charges_the_box_is_disabled(panel: Any, qtbot: Any) -> None:
    _open(qtbot, panel, TDDFT_OUT)  # DFT prints no Mulliken analysis by default
    box = panel.findChild(QCheckBox, "showChargesCheck")
    assert not box.isEnabled()
    box.setChecked(True)
    assert panel.findChild(object, "atomLabelOverlay").labels() == []
