"""The Execution tab: settings, trust confirmation, Run/Stop/Save input set, live progress."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit, QSpinBox, QTableWidget

from molforma.app import ops
from molforma.app.actor import Actor
from molforma.jobs import TERMINAL
from tests.gui.helpers import execution_panel, water_context

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    yield from water_context(tmp_path / "jobs")


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    return execution_panel(qtbot, ctx, (1100, 700))


def _type(qtbot: Any, edit: QLineEdit, text: str) -> None:
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def _fake_command() -> str:
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"


def _set_env_row(qtbot: Any, table: QTableWidget, panel: Any, name: str, value: str) -> None:
    qtbot.mouseClick(panel.findChild(object, "environmentAdd"), Qt.MouseButton.LeftButton)
    row = table.rowCount() - 1
    table.item(row, 1).setText(value)
    table.item(row, 0).setText(name)


def test_settings_fields_edit_the_execution_block(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    ex = lambda: ctx.document.project["execution"]  # noqa: E731
    panel.findChild(QSpinBox, "processesSpin").setValue(2)
    panel.findChild(QSpinBox, "threadsSpin").setValue(3)
    panel.findChild(object, "timeLimitSpin").setValue(120)
    _type(qtbot, panel.findChild(QLineEdit, "launcherEdit"), "mpirun --allow-run-as-root")
    _type(qtbot, panel.findChild(QLineEdit, "referenceDirEdit"), str(tmp_path / "ref"))
    assert ex()["processes"] == 2
    assert ex()["threads"] == 3
    assert ex()["time_limit"] == 120.0
    assert ex()["launcher"] == "mpirun --allow-run-as-root"
    assert ex()["reference_dir"] == str(tmp_path / "ref")
    assert ctx.document.is_trusted  # the person's own edits are trusted

    table = panel.findChild(QTableWidget, "environmentTable")
    _set_env_row(qtbot, table, panel, "MY_VAR", "42")
    assert ex()["environment"] == {"MY_VAR": "42"}
    table.selectRow(0)
    qtbot.mouseClick(panel.findChild(object, "environmentRemove"), Qt.MouseButton.LeftButton)
    assert ex()["environment"] == {}

    before = ctx.document.revision
    _set_env_row(qtbot, table, panel, "BAD NAME", "1")
    assert ctx.document.revision == before
    assert panel.findChild(object, "environmentMessage").text()

    _type(qtbot, panel.findChild(QLineEdit, "executableEdit"), "")
    assert ex()["executable"] == "nwchem"
    assert panel.findChild(object, "executableMessage").isVisible()
    assert panel.findChild(QLineEdit, "executableEdit").text() == "nwchem"


def test_run_with_untrusted_values_asks_and_no_leaves_everything_as_it_was(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    # Values that did not come from the person (as if an MCP client set them).
    ops.set_execution(
        ctx.document, {"executable": _fake_command()}, preview=False, actor=Actor.MCP_TOOL
    )
    assert not ctx.document.is_trusted
    asked: list[tuple[str, list[str]]] = []

    def answer_no(
        parent: Any,
        title: str,
        text: str,
        buttons: list[str],
        default: Any = None,
        escape: Any = None,
    ) -> str:
        asked.append((text, list(buttons)))
        return buttons[-1]

    monkeypatch.setattr(dialogs, "ask", answer_no)
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert len(asked) == 1
    assert str(FAKE_NWCHEM) in asked[0][0]
    assert panel.job is None
    assert ctx.jobs.jobs() == []
    assert not ctx.document.is_trusted


def test_run_with_untrusted_values_and_yes_trusts_them_and_runs(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    ops.set_execution(
        ctx.document,
        {"executable": _fake_command(), "environment": {"FAKE_NWCHEM_DELAY": "0.01"}},
        preview=False,
        actor=Actor.MCP_TOOL,
    )
    monkeypatch.setattr(dialogs, "ask", lambda parent, title, text, buttons, **kw: buttons[0])
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert ctx.document.is_trusted
    assert panel.job is not None
    qtbot.waitUntil(lambda: panel.job.status in TERMINAL, timeout=20000)
    qtbot.waitUntil(
        lambda: (
            "finished" in panel.findChild(object, "jobStatusLabel").text()
            or "finished" in panel.findChild(object, "progressLabel").text()
        ),
        timeout=5000,
    )
    assert panel.job.status == "finished"


def test_run_shows_live_progress_log_and_energy_plot_then_stop_cancels(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    _type(qtbot, panel.findChild(QLineEdit, "executableEdit"), _fake_command())
    table = panel.findChild(QTableWidget, "environmentTable")
    _set_env_row(qtbot, table, panel, "FAKE_NWCHEM_MODE", "noconverge")
    _set_env_row(qtbot, table, panel, "FAKE_NWCHEM_DELAY", "0.2")
    assert ctx.document.is_trusted
    run = panel.findChild(object, "runButton")
    stop = panel.findChild(object, "stopButton")
    assert not stop.isEnabled()
    qtbot.mouseClick(run, Qt.MouseButton.LeftButton)
    assert panel.job is not None
    assert stop.isEnabled() and not run.isEnabled()
    plot = panel.findChild(object, "energyPlot")
    qtbot.waitUntil(lambda: len(plot.energies()) >= 2, timeout=15000)
    log_view = panel.findChild(object, "executionLog")
    assert "@" in log_view.toPlainText()
    progress = panel.findChild(object, "progressLabel").text()
    assert "running" in progress
    qtbot.mouseClick(stop, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: panel.job.status in TERMINAL, timeout=10000)
    assert panel.job.status == "cancelled"
    qtbot.waitUntil(lambda: run.isEnabled(), timeout=5000)
    assert not stop.isEnabled()


def test_a_refused_run_is_shown_in_red_and_a_saved_input_set_is_not(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    label = panel.findChild(QLabel, "jobStatusLabel")
    ops.set_molecule(ctx.document, multiplicity=2, preview=False)  # water has 10 electrons
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert panel.job is None
    assert label.text().startswith("Cannot run:")
    assert label.property("error") is True and "#d03030" in label.styleSheet()
    ops.set_molecule(ctx.document, multiplicity=1, preview=False)
    qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
    assert "Input set saved" in label.text()
    assert label.property("error") is False and label.styleSheet() == ""


def test_save_input_set_writes_a_job_folder_without_running(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
    folder = Path(panel.last_input_set)
    assert folder.parent == tmp_path / "jobs"
    assert "* library sto-3g" in (folder / "input.nw").read_text()
    record = json.loads((folder / "job.json").read_text())
    assert record["savedOnly"] is True
    assert not (folder / "output.out").exists()
    assert str(folder) in panel.findChild(object, "jobStatusLabel").text()


@pytest.mark.nwchem
@pytest.mark.slow
def test_real_nwchem_water_sto3g_energy_runs_and_shows_results(
    panel: Any, ctx: Any, qtbot: Any
) -> None:
    if shutil.which("nwchem") is None:
        pytest.fail("NWChem is not installed (the nwchem marker needs it)")
    from molforma.gui.widgets.results_panel import ResultsPanel

    results = ResultsPanel(ctx)
    qtbot.addWidget(results)
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert panel.job is not None
    qtbot.waitUntil(lambda: panel.job.status in TERMINAL, timeout=120000)
    assert panel.job.status == "finished", panel.job.snapshot()
    qtbot.waitUntil(lambda: results.results is not None, timeout=20000)
    assert "Total SCF energy" in panel.findChild(object, "executionLog").toPlainText()
    summary = results.results.summary
    assert summary.scfConverged is True
    # RHF/STO-3G water lies near -74.96 hartree.
    assert -75.1 < summary.finalEnergy < -74.8
    assert f"{summary.finalEnergy:.8f}" in results.findChild(object, "resultsSummary").toPlainText()
    assert Path(results.results.source) == panel.job.folder


def test_in_mcp_mode_a_job_root_inside_the_configuration_directory_is_refused_to_mcp(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    from molforma.app.actor import acting_for_mcp
    from molforma.app.policy import Policy

    ctx.policy = Policy()  # --mcp-gui with no --mcp-allow-dir: only the config rule applies
    _type(qtbot, panel.findChild(QLineEdit, "jobRootEdit"), str(tmp_path / "config" / "jobs"))
    with acting_for_mcp():  # Save and Run pressed by window commands of MCP
        qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
        qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert panel.job is None
    assert not (tmp_path / "config" / "jobs").exists()
    assert "configuration directory" in panel.findChild(object, "jobStatusLabel").text()
    _type(qtbot, panel.findChild(QLineEdit, "jobRootEdit"), str(tmp_path / "jobs"))
    with acting_for_mcp():
        qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
    assert Path(panel.last_input_set).parent == tmp_path / "jobs"


def test_allowed_directories_refuse_a_job_root_outside_them_to_mcp_not_to_the_person(
    panel: Any, ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    from molforma.app.actor import acting_for_mcp
    from molforma.app.policy import Policy

    (tmp_path / "allowed").mkdir()
    ctx.policy = Policy(allow_dirs=(str(tmp_path / "allowed"),))
    with acting_for_mcp():
        qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
        qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert panel.job is None
    assert not (tmp_path / "jobs").exists()
    assert str(tmp_path / "jobs") in panel.findChild(object, "jobStatusLabel").text()
    # The person's own Save is not limited by --mcp-allow-dir (docs/reference/safety.md, Allowed directories).
    qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
    assert Path(panel.last_input_set).parent == tmp_path / "jobs"
    _type(qtbot, panel.findChild(QLineEdit, "jobRootEdit"), str(tmp_path / "allowed" / "jobs"))
    with acting_for_mcp():
        qtbot.mouseClick(panel.findChild(object, "saveInputSetButton"), Qt.MouseButton.LeftButton)
    assert Path(panel.last_input_set).parent == tmp_path / "allowed" / "jobs"


def test_the_log_area_has_a_translated_label_whose_buddy_is_the_log(panel: Any, qtbot: Any) -> None:
    from PySide6.QtCore import QCoreApplication, QTranslator

    from tests.paths import REPO

    label = panel.findChild(QLabel, "executionLogLabel")
    log_view = panel.findChild(object, "executionLog")
    assert label is not None and label.isVisible()
    assert label.buddy() is log_view
    assert label.text() == "NWChem output (live log):"
    assert log_view.accessibleName() == "NWChem output (live log)"
    # The label sits right above the log.
    below = log_view.mapTo(panel, log_view.rect().topLeft()).y()
    assert label.mapTo(panel, label.rect().bottomLeft()).y() <= below
    translator = QTranslator()
    assert translator.load(str(REPO / "translations" / "panels_ja.qm"))
    QCoreApplication.installTranslator(translator)
    try:
        qtbot.waitUntil(lambda: label.text() == "NWChem の出力（ライブログ）：", timeout=5000)
        assert log_view.accessibleName() == "NWChem の出力（ライブログ）"
    finally:
        QCoreApplication.removeTranslator(translator)
    qtbot.waitUntil(lambda: label.text() == "NWChem output (live log):", timeout=5000)
