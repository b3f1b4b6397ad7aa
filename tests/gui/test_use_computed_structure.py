"""Results "Use this structure" and History's final geometry, after a real NWChem optimisation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QPushButton, QSlider, QTableWidget

from molforma.app import ops

WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.0]},
    {"element": "H", "position": [0.0, 0.9, 0.55]},
    {"element": "H", "position": [0.0, -0.9, 0.55]},
]


def xyz(project: dict[str, Any]) -> np.ndarray:
    return np.array([[a["x"], a["y"], a["z"]] for a in project["document"]["atoms"]])


@pytest.fixture
def optimised(make_main_window: Any, qtbot: Any, tmp_path: Path) -> Any:
    """A window that ran a real water SCF/STO-3G optimisation and shows its results."""
    window = make_main_window()
    doc = window.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g", "task": "optimize"}, preview=False)
    ops.set_execution(doc, {"job_root": str(tmp_path / "jobs")}, preview=False)
    execution = window.panels["execution"]
    with qtbot.waitSignal(execution.jobFinished, timeout=120000):
        qtbot.mouseClick(window.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    assert execution.job.status == "finished"
    results = window.panels["results"]
    qtbot.waitUntil(
        lambda: results.results is not None and len(results.results.structures) > 2, timeout=30000
    )
    return window


def test_use_this_structure_makes_the_final_geometry_a_candidate_with_the_same_ids(
    optimised: Any, qtbot: Any
) -> None:
    window = optimised
    doc = window.ctx.document
    ids = [a["id"] for a in doc.project["document"]["atoms"]]
    before = xyz(doc.project)
    window.show_tab("results")
    button = window.findChild(QPushButton, "useStructureButton")
    assert button.isEnabled() and button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    final = window.panels["results"].results.structures[-1]
    assert doc.candidate is not None
    assert [a["id"] for a in doc.candidate["document"]["atoms"]] == ids
    assert xyz(doc.candidate) == pytest.approx(np.array(final.coordinates))
    assert xyz(doc.project) == pytest.approx(before)  # only a candidate so far
    assert window.tabs.currentWidget().objectName() == "moleculeTab"
    # The person's own candidate: their Confirm applies it as one undo step.
    window.actions_by_id["molforma.edit.confirm"].trigger()
    assert doc.candidate is None
    assert xyz(doc.project) == pytest.approx(np.array(final.coordinates))
    assert doc.undo_labels[-1] == "Use computed structure"


def test_the_structure_chosen_on_the_slider_is_the_one_used(optimised: Any, qtbot: Any) -> None:
    window = optimised
    window.show_tab("results")
    slider = window.findChild(QSlider, "trajectorySlider")
    assert slider.value() == slider.maximum()  # the final structure by default
    slider.setValue(1)
    qtbot.mouseClick(window.findChild(QPushButton, "useStructureButton"), Qt.MouseButton.LeftButton)
    chosen = window.panels["results"].results.structures[1]
    assert xyz(window.ctx.document.candidate) == pytest.approx(np.array(chosen.coordinates))


def _history_row(window: Any, qtbot: Any) -> Any:
    history = window.panels["history"]
    with qtbot.waitSignal(history.scanFinished, timeout=20000):
        window.show_tab("history")
        qtbot.mouseClick(window.findChild(QPushButton, "historyScan"), Qt.MouseButton.LeftButton)
    table = window.findChild(QTableWidget, "historyTable")
    table.selectRow(0)
    return history


def test_history_reuse_offers_the_final_geometry(optimised: Any, qtbot: Any) -> None:
    window = optimised
    doc = window.ctx.document
    start = xyz(doc.project)
    final = np.array(window.panels["results"].results.structures[-1].coordinates)
    _history_row(window, qtbot)
    combo = window.findChild(QComboBox, "historyReuseGeometry")
    assert [combo.itemText(i) for i in range(combo.count())] == [
        "with the input geometry",
        "with the final geometry",
    ]
    assert combo.toolTip()
    combo.setCurrentIndex(combo.findData("final"))
    qtbot.mouseClick(window.findChild(QPushButton, "historyReuse"), Qt.MouseButton.LeftButton)
    assert xyz(doc.project) == pytest.approx(final)
    assert doc.project["calculation"]["task"] == "optimize"
    combo.setCurrentIndex(combo.findData("input"))
    qtbot.mouseClick(window.findChild(QPushButton, "historyReuse"), Qt.MouseButton.LeftButton)
    assert xyz(doc.project) == pytest.approx(start)


def test_history_use_final_structure_makes_a_candidate(optimised: Any, qtbot: Any) -> None:
    window = optimised
    doc = window.ctx.document
    ids = [a["id"] for a in doc.project["document"]["atoms"]]
    final = np.array(window.panels["results"].results.structures[-1].coordinates)
    _history_row(window, qtbot)
    button = window.findChild(QPushButton, "historyUseFinalButton")
    assert button.isEnabled() and button.toolTip()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert doc.candidate is not None
    assert [a["id"] for a in doc.candidate["document"]["atoms"]] == ids
    assert xyz(doc.candidate) == pytest.approx(final)
    # A second use while the candidate is open is refused with a message, nothing changes.
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert "Cannot use the structure" in window.panels["history"].status_label.text()
