"""The window refuses NWChem text that would run a shell: editor, history reuse, launch file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTableWidget

from molforma.app import ops

PADDED = "task \\" + " " * 1018 + "JUNK\n" + 'shell "touch canary"\n'
WATER = [
    {"element": "O", "position": [0.0, 0.0, 0.117]},
    {"element": "H", "position": [0.0, 0.757, -0.469]},
    {"element": "H", "position": [0.0, -0.757, -0.469]},
]


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("MOLFORMA_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("MOLFORMA_LANGUAGE", "en")
    from molforma.gui.context import AppContext

    context = AppContext.create()
    ops.add_atoms(context.document, WATER, preview=False)
    ops.set_execution(context.document, {"job_root": str(tmp_path / "jobs")}, preview=False)
    yield context
    context.close()


def test_the_extra_input_editor_refuses_a_padded_shell_task_and_keeps_the_text(
    ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    from molforma.gui.widgets.calculation_panel import CalculationPanel

    panel = CalculationPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    editor = panel.findChild(object, "extraInputEdit")
    before = ctx.document.revision
    editor.setPlainText(PADDED)
    qtbot.mouseClick(panel.findChild(object, "applyExtraInputButton"), Qt.MouseButton.LeftButton)
    assert ctx.document.revision == before
    assert ctx.document.project["calculation"]["extra_input"] == ""
    message = panel.findChild(object, "calculation_extra_inputMessage")
    assert message.isVisible() and "shell command" in message.text()
    assert editor.toPlainText() == PADDED  # kept so the person can fix it
    assert not (tmp_path / "canary").exists()


def test_reusing_a_job_whose_snapshot_carries_an_include_changes_nothing(
    ctx: Any, qtbot: Any, tmp_path: Path
) -> None:
    from molforma.gui.widgets.history_panel import HistoryPanel
    from molforma.jobs.manager import JobManager

    folder = Path(JobManager().save_input_set(ctx.document.project))
    snap = folder / "project.molforma.json"
    data = json.loads(snap.read_text())
    data["calculation"]["extra_input"] = "include /etc/passwd"
    snap.write_text(json.dumps(data))
    ops.set_molecule(ctx.document, title="current", preview=False)
    before = json.dumps(ctx.document.project, sort_keys=True)

    panel = HistoryPanel(ctx)
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.scanFinished, timeout=20000):
        panel.show()
    table = panel.findChild(QTableWidget, "historyTable")
    assert table.rowCount() == 1
    table.selectRow(0)
    assert panel.reuse_selected() is False
    assert json.dumps(ctx.document.project, sort_keys=True) == before
    status = panel.status_label.text()
    assert "Cannot reuse" in status and "include" in status


def test_a_project_given_at_launch_carrying_a_shell_task_is_not_opened(tmp_path: Path) -> None:
    from molforma.document.envelope import new_atom, new_project

    proj = new_project()
    proj["document"]["atoms"] = [new_atom("a1", "He", 0.0, 0.0, 0.0)]
    proj["document"]["nextAtomId"] = 2
    proj["calculation"]["extra_input"] = PADDED
    trap = tmp_path / "trap.molforma.json"
    trap.write_text(json.dumps(proj))
    shot = tmp_path / "shot.png"
    exe = Path(sys.executable).parent / "molforma"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(
        QT_QPA_PLATFORM="offscreen",
        MOLFORMA_CONFIG_DIR=str(tmp_path / "config"),
        MOLFORMA_LANGUAGE="en",
    )
    proc = subprocess.run(
        [str(exe) if exe.exists() else "molforma", "--screenshot", str(shot), str(trap)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode != 0
    assert "trap.molforma.json" in proc.stderr and "shell command" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not shot.exists() and not (tmp_path / "canary").exists()
