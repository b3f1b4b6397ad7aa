"""Constraints and scans in the window: the geometry editor's Fix / Scan this coordinate,
refusals in English and Japanese with nothing changed, and the scan profile in Results."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import pytest

from tests.paths import NWCHEM_DATA

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt

SCAN_OUT = NWCHEM_DATA / "ethane_scf_torsion_scan.out"
HCCH = ["a3", "a1", "a2", "a6"]


def ethane_document() -> Any:
    from molforma.document.document import Document
    from tests.core.test_constraints_scan_run import ethane

    doc = Document()
    doc.load(ethane(), label="ethane", preview=False)
    return doc


@pytest.fixture
def window(make_main_window: Any) -> Any:
    return make_main_window(ethane_document())


def click(qtbot: Any, win: Any, name: str) -> None:
    from PySide6.QtWidgets import QPushButton

    button = win.findChild(QPushButton, name)
    assert button is not None and button.isEnabled(), name
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_scan_this_coordinate_sets_a_relaxed_scan_the_input_shows(window: Any, qtbot: Any) -> None:
    tab = window.molecule_tab
    tab.set_selection(HCCH)
    qtbot.waitUntil(lambda: window.findChild(object, "scanCoordinateButton").isEnabled())
    window.findChild(object, "scanEndInput").setText("180")
    window.findChild(object, "scanStepsSpin").setValue(4)
    click(qtbot, window, "scanCoordinateButton")
    calc = window.ctx.document.project["calculation"]
    assert calc["task"] == "optimize"
    assert calc["scan"]["atoms"] == HCCH and calc["scan"]["steps"] == 4
    assert calc["scan"]["start"] == pytest.approx(-60.0, abs=0.01)  # as drawn
    assert calc["scan"]["end"] == 180.0
    summary = window.findChild(object, "constraintSummary").text()
    assert "H3–C1–C2–H6" in summary and "180.000" in summary
    from molforma.nwchem.input import render_input

    text = render_input(window.ctx.document.project)
    assert text.count("task scf optimize") == 5 and "geometry adjust" in text
    # One undo step takes it back.
    window.ctx.document.undo()
    assert window.ctx.document.project["calculation"].get("scan") is None


def test_fix_this_coordinate_holds_the_selected_angle_at_its_value(window: Any, qtbot: Any) -> None:
    tab = window.molecule_tab
    tab.set_selection(["a3", "a1", "a2"])
    qtbot.waitUntil(lambda: window.findChild(object, "fixCoordinateButton").isEnabled())
    click(qtbot, window, "fixCoordinateButton")
    held = window.ctx.document.project["calculation"]["constraints"]
    assert len(held) == 1 and held[0]["kind"] == "angle"
    assert held[0]["atoms"] == ["a3", "a1", "a2"]
    assert 105 < held[0]["value"] < 115
    assert "Fixed: H3–C1–C2" in window.findChild(object, "constraintSummary").text()
    click(qtbot, window, "clearConstraintsButton")
    assert window.ctx.document.project["calculation"]["constraints"] == []


@pytest.mark.parametrize(
    ("lang", "words"), [("en", "is not a number in"), ("ja", "の数値ではありません")]
)
def test_a_bad_scan_end_is_refused_in_the_display_language_with_nothing_changed(
    window: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, lang: str, words: str
) -> None:
    monkeypatch.setenv("MOLFORMA_LANGUAGE", lang)
    doc = window.ctx.document
    before, revision = copy.deepcopy(doc.project), doc.revision
    tab = window.molecule_tab
    tab.set_selection(HCCH)
    qtbot.waitUntil(lambda: window.findChild(object, "scanCoordinateButton").isEnabled())
    window.findChild(object, "scanEndInput").setText("400")  # past the 360° a dihedral spans
    click(qtbot, window, "scanCoordinateButton")
    assert words in tab.message.text()
    assert doc.project == before and doc.revision == revision


def test_a_scan_with_fixed_atoms_is_refused_with_the_reason(window: Any, qtbot: Any) -> None:
    from molforma.app import ops

    doc = window.ctx.document
    ops.set_atom_properties(doc, [{"id": "a8", "fixed": True}], preview=False)
    before = copy.deepcopy(doc.project)
    window.molecule_tab.set_selection(HCCH)
    qtbot.waitUntil(lambda: window.findChild(object, "scanCoordinateButton").isEnabled())
    window.findChild(object, "scanEndInput").setText("120")
    click(qtbot, window, "scanCoordinateButton")
    assert "fixed atoms" in window.molecule_tab.message.text()
    assert doc.project == before


def test_results_plot_and_list_a_scan_and_a_point_shows_its_structure(
    make_main_window: Any, qtbot: Any, dialog_log: Any, tmp_path: Path
) -> None:
    win = make_main_window()
    win.build_panels()
    panel = win.panels["results"]
    handle = panel.open_path(str(SCAN_OUT))
    qtbot.waitUntil(lambda: handle.done, timeout=20000)
    qtbot.waitUntil(lambda: panel.results is handle.result, timeout=5000)
    view = win.findChild(object, "scanPanel")
    assert panel.plots.currentWidget() is view
    rows = view.rows()
    assert [r[1] for r in rows] == ["0.000", "30.000", "60.000", "90.000", "120.000"]
    assert [r[3] for r in rows] == ["2.870", "1.391", "0.000", "1.391", "2.870"]
    assert {r[4] for r in rows} == {"yes"}
    view.table.selectRow(2)
    point = view.profile["points"][2]
    assert panel.trajectory_slider.value() == point["structureIndex"]
    out = tmp_path / "scan.csv"
    dialog_log.answers.append(str(out))
    click(qtbot, win, "scanExportCsv")
    lines = out.read_text().splitlines()
    assert lines[1] == "point,target,value,energy_hartree,relative_kcal_mol,converged"
    assert len(lines) == 7 and lines[4].startswith("3,60.0,")


def test_the_scan_profile_is_worded_in_japanese(make_main_window: Any, qtbot: Any) -> None:
    from molforma.gui.app import install_translators

    win = make_main_window()
    win.build_panels()
    panel = win.panels["results"]
    handle = panel.open_path(str(SCAN_OUT))
    qtbot.waitUntil(lambda: handle.done, timeout=20000)
    view = win.findChild(object, "scanPanel")
    try:
        install_translators("ja")
        qtbot.waitUntil(
            lambda: panel.plots.tabText(panel.plots.indexOf(view)) == "スキャン曲線", timeout=3000
        )
        headers = [view.table.horizontalHeaderItem(c).text() for c in range(5)]
        assert headers == [
            "点",
            "二面角 (°)",
            "エネルギー (Eh)",
            "相対エネルギー ΔE (kcal/mol)",
            "収束",
        ]
        assert {r[4] for r in view.rows()} == {"はい"}
        assert win.findChild(object, "scanCoordinateButton").text() == "この座標をスキャン"
    finally:
        install_translators("en")
