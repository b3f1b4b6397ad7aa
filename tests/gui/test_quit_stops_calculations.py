"""Quit during a run: the window closes and its calculation ends ``cancelled``, no process left."""

from __future__ import annotations

import json
import os
import shlex
import signal
import sys
import threading
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

import pytest

from molforma.app import ops
from tests.gui.helpers import WATER

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def _run_stand_in(window: Any, qtbot: Any, tmp_path: Path) -> tuple[Any, list[int]]:
    """Start a long stand-in calculation from the Execution tab; (job, its pids)."""
    doc = window.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False)
    exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
    ops.set_execution(
        doc,
        {
            "executable": exe,
            "job_root": str(tmp_path / "jobs"),
            "environment": {"FAKE_NWCHEM_MODE": "hang"},
        },
        preview=False,
    )
    assert doc.is_trusted
    window.panels["execution"].run()
    job = window.panels["execution"].job
    assert job is not None
    child = job.folder / "fake_nwchem.child"
    qtbot.waitUntil(child.exists, timeout=20000)
    pids = [
        json.loads((job.folder / "fake_nwchem.info").read_text())["pid"],
        int(child.read_text()),
    ]
    assert all(_alive(p) for p in pids)
    return job, pids


def test_quit_during_a_run_stops_the_calculation_and_records_cancelled(
    make_main_window: Any, qtbot: Any, tmp_path: Path, dialog_log: Any
) -> None:
    window = make_main_window()
    job, pids = _run_stand_in(window, qtbot, tmp_path)
    window._confirm_discard = lambda: True  # asking before quitting is not what is tested
    dialog_log.answers.append("Stop and quit")  # the question about the running job
    window.actions_by_id["molforma.file.quit"].trigger()
    assert dialog_log.names() == ["ask"]
    assert not window.isVisible()
    assert job.status == "cancelled"
    assert json.loads((job.folder / "job.json").read_text())["status"] == "cancelled"
    assert not any(_alive(p) for p in pids)


def test_an_exit_signal_stops_the_window_run_then_quits_with_128_plus_signum(
    make_main_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QApplication

    from molforma import exit_signals
    from molforma.gui.exit_on_signal import connect_exit_signals

    window = make_main_window()
    job, pids = _run_stand_in(window, qtbot, tmp_path)
    exits: list[int] = []
    monkeypatch.setattr(QApplication, "exit", staticmethod(lambda status=0: exits.append(status)))
    monkeypatch.setattr(exit_signals, "_handler", None)
    connect_exit_signals(window)  # what launch_window does for the plain window
    handler = exit_signals._handler
    assert handler is not None
    # The signal watcher thread runs the handler while Qt's loop goes on.
    watcher = threading.Thread(target=handler, args=(int(signal.SIGTERM),))
    watcher.start()
    qtbot.waitUntil(lambda: exits == [128 + signal.SIGTERM], timeout=15000)
    watcher.join(5)
    assert job.status == "cancelled"
    assert json.loads((job.folder / "job.json").read_text())["status"] == "cancelled"
    assert not any(_alive(p) for p in pids)
    assert window.ctx.mcp_mode  # no question about unsaved work on the way out
