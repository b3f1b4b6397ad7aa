"""Job bookkeeping in the window: job root refused or remembered, a scratch folder gone
refused at Run, the progress bar of a real NWChem run, charge and multiplicity in History."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QProgressBar, QPushButton, QTableWidget

from molforma.app import ops
from tests.gui.helpers import WATER


def _type(qtbot: Any, edit: QLineEdit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def _water_window(make_main_window: Any, tmp_path: Path, **calc: Any) -> Any:
    window = make_main_window()
    doc = window.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g", **calc}, preview=False)
    ops.set_execution(doc, {"job_root": str(tmp_path / "jobs")}, preview=False)
    window.show_tab("execution")
    return window


def test_a_relative_job_root_typed_in_the_execution_tab_is_refused_with_a_message(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    window = _water_window(make_main_window, tmp_path)
    before = window.ctx.document.revision
    edit = window.findChild(QLineEdit, "jobRootEdit")
    _type(qtbot, edit, "my-jobs")
    message = window.findChild(QLabel, "job_rootMessage")
    assert message.isVisible()
    assert "my-jobs" in message.text() and "relative" in message.text()
    assert window.ctx.document.revision == before
    assert edit.text() == str(tmp_path / "jobs")


def test_the_job_root_set_by_the_person_is_the_default_of_new_projects(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    from molforma.preferences import load_preferences

    window = _water_window(make_main_window, tmp_path)
    chosen = str(tmp_path / "my jobs")
    _type(qtbot, window.findChild(QLineEdit, "jobRootEdit"), chosen)
    assert window.ctx.document.project["execution"]["job_root"] == chosen
    assert load_preferences().job_root == chosen
    window.ctx.document.modified = False
    window.file_new()
    assert window.ctx.document.project["execution"]["job_root"] == chosen
    again = make_main_window()
    assert again.ctx.document.project["execution"]["job_root"] == chosen
    assert again.findChild(QLineEdit, "jobRootEdit").text() == chosen


def test_in_mcp_mode_a_job_root_edit_is_not_remembered(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    from molforma.preferences import load_preferences

    window = make_main_window(mcp_mode=True)
    window.show_tab("execution")
    _type(qtbot, window.findChild(QLineEdit, "jobRootEdit"), str(tmp_path / "mcp-jobs"))
    assert window.ctx.document.project["execution"]["job_root"] == str(tmp_path / "mcp-jobs")
    assert load_preferences().job_root is None


def test_run_is_refused_naming_a_scratch_folder_that_is_gone(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    window = _water_window(make_main_window, tmp_path)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    ops.set_advanced(window.ctx.document, {"scratch_dir": str(scratch)}, preview=False)
    scratch.rmdir()
    qtbot.mouseClick(window.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    status = window.findChild(QLabel, "jobStatusLabel")
    assert "Cannot run" in status.text() and str(scratch) in status.text()
    assert window.panels["execution"].job is None
    assert not (tmp_path / "jobs").exists()


def test_a_missing_scratch_folder_typed_in_the_advanced_group_is_refused(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    window = _water_window(make_main_window, tmp_path)
    window.show_tab("calculation")
    panel = window.panels["calculation"]
    panel.set_advanced_expanded(True)
    missing = str(tmp_path / "nowhere")
    _type(qtbot, window.findChild(QLineEdit, "advanced_scratch_dir"), missing)
    message = window.findChild(QLabel, "advanced_scratch_dirMessage")
    assert message.isVisible() and missing in message.text()
    assert window.ctx.document.project["advanced"].get("scratch_dir") is None


def _run_and_wait(window: Any, qtbot: Any) -> Any:
    panel = window.panels["execution"]
    with qtbot.waitSignal(panel.jobFinished, timeout=120000):
        qtbot.mouseClick(window.findChild(QPushButton, "runButton"), Qt.MouseButton.LeftButton)
    return panel.job


def test_the_progress_bar_counts_optimisation_steps_of_the_maximum_in_a_real_run(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    window = _water_window(make_main_window, tmp_path, task="optimize")
    ops.set_advanced(window.ctx.document, {"opt_maxiter": 7}, preview=False)
    bar = window.findChild(QProgressBar, "jobProgressBar")
    assert not bar.isVisible()  # nothing runs yet
    assert bar.toolTip()
    job = _run_and_wait(window, qtbot)
    assert job.status == "finished"
    steps = job.snapshot()["progress"]["optimizationStep"]
    assert steps >= 1
    assert bar.isVisible()
    assert (bar.maximum(), bar.value()) == (7, steps)
    assert bar.text() == f"Optimisation step {steps} of 7"
    # The bar has its own row under the progress text, so neither squeezes the other at
    # 1280x800 (the text wraps; the bar keeps the tab's width).
    label = window.findChild(QLabel, "progressLabel")
    assert bar.geometry().top() >= label.geometry().bottom()
    assert bar.geometry().left() == label.geometry().left()


def test_the_progress_bar_counts_scf_cycles_of_nwchem_s_default_maximum(
    make_main_window: Any, qtbot: Any, tmp_path: Path
) -> None:
    window = _water_window(make_main_window, tmp_path, task="energy")
    job = _run_and_wait(window, qtbot)
    assert job.status == "finished"
    cycles = job.snapshot()["progress"]["scfIteration"]
    bar = window.findChild(QProgressBar, "jobProgressBar")
    assert (bar.maximum(), bar.value()) == (30, cycles)
    assert bar.text() == f"SCF cycle {cycles} of 30"


def test_history_shows_charge_and_multiplicity_and_exports_them(
    make_main_window: Any, qtbot: Any, tmp_path: Path, dialog_log: Any
) -> None:
    window = _water_window(make_main_window, tmp_path)
    ops.set_molecule(window.ctx.document, charge=1, multiplicity=2, preview=False)
    qtbot.mouseClick(window.findChild(QPushButton, "saveInputSetButton"), Qt.MouseButton.LeftButton)
    history = window.panels["history"]
    with qtbot.waitSignal(history.scanFinished, timeout=20000):
        window.show_tab("history")
        qtbot.mouseClick(window.findChild(QPushButton, "historyScan"), Qt.MouseButton.LeftButton)
    table = window.findChild(QTableWidget, "historyTable")
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    charge_col, mult_col = headers.index("Charge"), headers.index("Mult.")
    assert table.horizontalHeaderItem(mult_col).toolTip()
    assert (table.item(0, charge_col).text(), table.item(0, mult_col).text()) == ("1", "2")
    out = tmp_path / "history.csv"
    dialog_log.answers.append(str(out))
    qtbot.mouseClick(window.findChild(QPushButton, "historyExportCsv"), Qt.MouseButton.LeftButton)
    with out.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert (rows[0]["charge"], rows[0]["multiplicity"]) == ("1", "2")
