"""The Results tab on real NWChem files: modes, play/stop, IR spectrum, animations, export."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.paths import NWCHEM_DATA

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget, QTreeWidget

NW = NWCHEM_DATA
NH3_OUT = NW / "nh3_planar_scf_freq.out"
NH3_VIB = NW / "nh3_planar_scf_freq_vib.molden"
NH3_ANIM = NW / "nh3_planar_scf_freq_anim"
WATER_OUT = NW / "water_scf_optfreq.out"


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


def _open(qtbot: Any, panel: Any, path: Path | str) -> Any:
    handle = panel.open_path(str(path))
    qtbot.waitUntil(lambda: handle.done, timeout=20000)
    if handle.status == "completed":
        qtbot.waitUntil(lambda: panel.results is handle.result, timeout=5000)
    return handle


def _select_mode(qtbot: Any, table: QTableWidget, row: int) -> None:
    rect = table.visualItemRect(table.item(row, 1))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())


def test_nwchem_output_lists_modes_marks_the_imaginary_one_and_plays_then_stops(
    panel: Any, qtbot: Any
) -> None:
    _open(qtbot, panel, NH3_OUT)
    table = panel.findChild(QTableWidget, "modesTable")
    assert table.rowCount() == 12
    assert float(table.item(0, 1).text()) == pytest.approx(-880.42)
    assert table.item(0, 3).text() and table.item(0, 4).text()  # imaginary and significant
    real_rows = [r for r in range(12) if float(table.item(r, 1).text()) > 100]
    assert len(real_rows) == 5
    assert all(not table.item(r, 3).text() for r in real_rows)
    summary = panel.findChild(object, "resultsSummary").toPlainText()
    assert "-56.17359" in summary

    play = panel.findChild(object, "playButton")
    stop = panel.findChild(object, "resultsStopButton")
    _select_mode(qtbot, table, 0)
    assert play.isEnabled() and not stop.isEnabled()
    view = panel.findChild(object, "resultsView")
    before = view.grab().toImage()
    qtbot.mouseClick(play, Qt.MouseButton.LeftButton)
    assert panel.playing and view.playing
    assert stop.isEnabled() and not play.isEnabled()
    qtbot.waitUntil(lambda: view.grab().toImage() != before, timeout=5000)  # atoms move
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    assert not panel.playing and not view.playing
    assert play.isEnabled()

    ir = panel.findChild(object, "irPanel")
    assert [round(f) for f, _ in ir.sticks()] == [1758, 1758, 3698, 3905, 3905]


def test_translations_and_rotations_are_greyed_in_the_modes_table(panel: Any, qtbot: Any) -> None:
    _open(qtbot, panel, WATER_OUT)
    table = panel.findChild(QTableWidget, "modesTable")
    assert table.rowCount() == 9
    normal = table.palette().text().color()

    def greyed(row: int) -> bool:
        item = table.item(row, 1)
        return item.foreground().color() != normal and "Translation" in item.toolTip()

    # Water: six zero-frequency rigid motions, then three vibrations.
    assert [greyed(r) for r in range(9)] == [True] * 6 + [False] * 3
    # A significant imaginary mode is never mistaken for a rigid motion.
    _open(qtbot, panel, NH3_OUT)
    assert not greyed(0) and float(table.item(0, 1).text()) < -10


def test_molden_vibrations_play_an_imaginary_and_a_real_mode_with_an_amplitude(
    panel: Any, qtbot: Any
) -> None:
    _open(qtbot, panel, NH3_VIB)
    table = panel.findChild(QTableWidget, "modesTable")
    assert table.rowCount() == 6
    assert float(table.item(0, 1).text()) < -800
    panel.play_mode(0, amplitude=1.2)
    assert panel.playing
    assert panel.findChild(object, "amplitudeSpin").value() == pytest.approx(1.2)
    panel.play_mode(5)
    assert panel.playing
    assert table.selectedItems()[0].row() == 5
    panel.findChild(object, "amplitudeSpin").setValue(0.3)
    assert panel.playing  # a new amplitude keeps the animation going
    panel.stop()
    assert not panel.playing


def test_a_bad_mode_or_amplitude_is_refused(panel: Any, qtbot: Any) -> None:
    from molforma.errors import ResultsError

    _open(qtbot, panel, NH3_VIB)
    with pytest.raises(ResultsError):
        panel.play_mode(99)
    with pytest.raises(ResultsError):
        panel.play_mode(1, amplitude=-1.0)
    assert not panel.playing


def test_animation_folder_groups_step_files_by_mode_and_plays_the_trajectory(
    panel: Any, qtbot: Any
) -> None:
    _open(qtbot, panel, NH3_ANIM)
    files = panel.findChild(QTreeWidget, "resultsFileList")
    group = files.topLevelItem(0)
    assert group.childCount() == 2  # modes 1 and 10, each one entry for its 20 step files
    labels = [group.child(i).text(0) for i in range(2)]
    assert "1" in labels[0] and "20" in labels[0]
    assert "10" in labels[1]
    slider = panel.findChild(object, "trajectorySlider")
    assert slider.maximum() == 19
    slider.setValue(3)
    assert panel.findChild(object, "trajectoryLabel").text().startswith("4/20")

    qtbot.mouseClick(panel.findChild(object, "playButton"), Qt.MouseButton.LeftButton)
    assert panel.playing
    qtbot.waitUntil(lambda: slider.value() != 3, timeout=3000)
    qtbot.mouseClick(panel.findChild(object, "resultsStopButton"), Qt.MouseButton.LeftButton)
    assert not panel.playing

    # Choosing the second mode's entry loads its steps.
    files.setCurrentItem(group.child(1))
    qtbot.waitUntil(
        lambda: panel.results is not None and panel.results.summary.animationMode == 10,
        timeout=10000,
    )


def test_optimisation_energies_are_plotted_per_step(panel: Any, qtbot: Any) -> None:
    _open(qtbot, panel, WATER_OUT)
    plot = panel.findChild(object, "resultsEnergyPlot")
    assert plot.energies() == pytest.approx(
        [-76.01050499, -76.01073828, -76.01074651, -76.01074651]
    )
    slider = panel.findChild(object, "trajectorySlider")
    assert slider.maximum() == 5  # input, steps 0-3, final
    slider.setValue(2)  # "step 1"
    assert plot.marker() == 1
    slider.setValue(0)  # the input orientation has no step energy
    assert plot.marker() is None


def test_the_energy_plot_labels_whole_steps_only(panel: Any, qtbot: Any) -> None:
    _open(qtbot, panel, WATER_OUT)
    plot = panel.findChild(object, "resultsEnergyPlot")
    axis = plot.getAxis("bottom")
    low, high = plot.getViewBox().viewRange()[0]
    ticks = [v for _spacing, values in axis.tickValues(low, high, 400) for v in values]
    assert ticks, "the step axis shows no ticks"
    assert all(float(v).is_integer() for v in ticks), ticks
    # Hundreds of steps keep about ten whole-number ticks, not one per step.
    plot.set_energies([-76.0 - 1e-4 * i for i in range(300)])
    ticks = [v for _spacing, values in axis.tickValues(1, 300, 400) for v in values]
    assert 3 <= len(ticks) <= 20 and all(float(v).is_integer() for v in ticks), ticks


def test_ir_width_changes_the_broadened_curve_and_exports_png_and_csv(
    panel: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    _open(qtbot, panel, WATER_OUT)
    ir = panel.findChild(object, "irPanel")
    width = panel.findChild(object, "irWidthSpin")
    import numpy as np

    x1, y1 = ir.broadened()
    width.setValue(100.0)
    x2, y2 = ir.broadened()
    at = [1826.55, 1826.55 + 80.0]
    narrow, wide = np.interp(at, x1, y1), np.interp(at, x2, y2)
    assert wide[0] == pytest.approx(narrow[0], rel=0.05)  # peak height kept
    assert wide[1] > 2 * narrow[1]  # wider wings

    png, csv = tmp_path / "ir.png", tmp_path / "ir.csv"
    paths = iter([str(png), str(csv)])
    monkeypatch.setattr(dialogs, "get_save_path", lambda *a, **k: next(paths))
    qtbot.mouseClick(panel.findChild(object, "irExportPng"), Qt.MouseButton.LeftButton)
    qtbot.mouseClick(panel.findChild(object, "irExportCsv"), Qt.MouseButton.LeftButton)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = csv.read_text().splitlines()
    assert lines[0].startswith("# fwhm_cm-1,100")
    assert lines[1].startswith("wavenumber_cm-1")
    assert any(line.startswith("1826.5") for line in lines)


def test_a_failed_load_keeps_the_previous_results(panel: Any, qtbot: Any, tmp_path: Path) -> None:
    _open(qtbot, panel, NH3_OUT)
    shown = panel.results
    handle = _open(qtbot, panel, tmp_path / "missing.out")
    assert handle.status == "failed"
    qtbot.waitUntil(lambda: bool(panel.findChild(object, "resultsStatus").text()), timeout=3000)
    assert panel.results is shown
    assert panel.findChild(QTableWidget, "modesTable").rowCount() == 12


def test_results_actions_never_change_the_document(panel: Any, ctx: Any, qtbot: Any) -> None:
    before = ctx.document.revision
    _open(qtbot, panel, NH3_VIB)
    panel.play_mode(0)
    panel.show_structure(0)
    panel.stop()
    assert ctx.document.revision == before


def test_a_mode_without_displacements_can_be_selected_but_not_played(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    from molforma.errors import ResultsError
    from molforma.results.results_model import Results, Structure, Summary, make_mode

    class Session:
        current = Results(
            source="made-up.out",
            kind="nwchem",
            summary=Summary(modeCount=2),
            structures=[
                Structure(
                    index=0,
                    label="input",
                    symbols=["H", "H"],
                    coordinates=[[0.0, 0.0, 0.0], [0.0, 0.0, 0.74]],
                )
            ],
            modes=[make_mode(0, -120.0, 3.0, False), make_mode(1, 4400.0, 0.0, False)],
            modeReferenceStructure=0,
        )

    ctx.results = Session()
    ctx.events.resultsChanged.emit()
    table = panel.findChild(QTableWidget, "modesTable")
    assert table.rowCount() == 2
    assert table.item(0, 3).text() and table.item(0, 4).text()
    assert not table.item(0, 5).text()
    _select_mode(qtbot, table, 0)
    assert table.selectedItems()[0].row() == 0
    assert not panel.findChild(object, "playButton").isEnabled()
    with pytest.raises(ResultsError):
        panel.play_mode(0)
    assert not panel.playing


def test_empty_plots_say_so_instead_of_showing_bare_axes(qtbot: Any, panel: Any) -> None:
    energy, ir = panel.energy_plot, panel.ir.plot
    panel.plots.setCurrentWidget(energy)
    assert energy.empty_label.isVisible() and energy.empty_label.text()
    assert not energy.plot_widget().isVisible()
    _open(qtbot, panel, WATER_OUT)
    assert not energy.empty_label.isVisible() and energy.plot_widget().isVisible()
    panel.plots.setCurrentWidget(panel.ir)
    assert not ir.empty_label.isVisible()
