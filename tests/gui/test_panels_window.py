"""The panels inside the main window: menus, undo, tab switching and Preferences."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QTableWidget

from molforma.app import ops
from tests.paths import NWCHEM_DATA

NW = NWCHEM_DATA
WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


def test_the_window_holds_the_four_panels_with_their_tab_names(make_main_window: Any) -> None:
    win = make_main_window()
    names = [win.tabs.widget(i).objectName() for i in range(win.tabs.count())]
    assert names == ["moleculeTab", "calculationTab", "executionTab", "resultsTab", "historyTab"]
    for key in ("calculation", "execution", "results", "history"):
        assert not win.panels[key].property("placeholder"), key


def test_a_calculation_edit_is_undone_by_the_window_undo_action(
    make_main_window: Any, qtbot: Any
) -> None:
    win = make_main_window()
    ops.add_atoms(win.ctx.document, WATER, preview=False)
    win.tabs.setCurrentWidget(win.panels["calculation"])
    theory = win.panels["calculation"].findChild(QComboBox, "theoryCombo")
    theory.setCurrentIndex(theory.findData("mp2"))
    preview = win.panels["calculation"].findChild(object, "inputPreview")
    assert "task mp2 energy" in preview.toPlainText()
    win.actions_by_id["molforma.edit.undo"].trigger()
    assert win.ctx.document.project["calculation"]["theory"] == "scf"
    assert theory.currentData() == "scf"
    assert "task scf energy" in preview.toPlainText()


def test_history_open_in_results_viewer_switches_to_the_results_tab(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    win = make_main_window()
    ref = tmp_path / "ref" / "nh3"
    ref.mkdir(parents=True)
    shutil.copy(NW / "nh3_planar_scf_freq.out", ref / "output.out")
    ops.set_execution(
        win.ctx.document,
        {"job_root": str(tmp_path / "jobs"), "reference_dir": str(tmp_path / "ref")},
        preview=False,
    )
    history = win.panels["history"]
    with qtbot.waitSignal(history.scanFinished, timeout=20000):
        win.tabs.setCurrentWidget(history)  # showing the tab lists the jobs
    table = history.findChild(QTableWidget, "historyTable")
    assert table.rowCount() == 1
    table.selectRow(0)
    qtbot.mouseClick(history.findChild(object, "historyOpenResults"), Qt.MouseButton.LeftButton)
    assert win.tabs.currentWidget() is win.panels["results"]
    results = win.panels["results"]
    qtbot.waitUntil(
        lambda: results.findChild(QTableWidget, "modesTable").rowCount() == 12, timeout=20000
    )


def test_edit_preferences_opens_the_preferences_dialog(
    make_main_window: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    shown: list[Any] = []
    monkeypatch.setattr(
        dialogs, "run_dialog", lambda dlg, private=False: shown.append((dlg, private)) or 0
    )
    win = make_main_window()
    win.actions_by_id["molforma.edit.preferences"].trigger()
    assert len(shown) == 1
    assert shown[0][1] is True  # the person's alone: never listed or driven by MCP
    shown = [dlg for dlg, _private in shown]
    assert shown[0].objectName() == "preferencesDialog"
    assert shown[0].findChild(QComboBox, "languageCombo") is not None
