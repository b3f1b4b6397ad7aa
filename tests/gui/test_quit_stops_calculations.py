"""Quit during a run: the window closes and its calculation ends ``cancelled``, no process left."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from molforma.document import ops
from tests.gui.helpers import WATER

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_quit_during_a_run_stops_the_calculation_and_records_cancelled(
        make_main_window: Any, qtbot: Any, tmp_path: Path) -> None:
    window = make_main_window()
    doc = window.ctx.document
    ops.add_atoms(doc, WATER, preview=False)
    ops.set_nwchem(doc, {"basis": "sto-3g"}, preview=False)
    exe = f"{shlex.quote(sys.executable)} {shlex.quote(str(FAKE_NWCHEM))}"
    ops.set_execution(doc, {"executable": exe, "job_root": str(tmp_path / "jobs"),
                            "environment": {"FAKE_NWCHEM_MODE": "hang"}}, preview=False)
    assert doc.is_trusted
    window.panels["execution"].run()
    job = window.panels["execution"].job
    assert job is not None
    child = job.folder / "fake_nwchem.child"
    qtbot.waitUntil(child.exists, timeout=20000)
    pids = [json.loads((job.folder / "fake_nwchem.info").read_text())["pid"],
            int(child.read_text())]
    assert all(_alive(p) for p in pids)

    window._confirm_discard = lambda: True  # asking before quitting is not what is tested
    window.actions_by_id["molforma.file.quit"].trigger()
    assert not window.isVisible()
    assert job.status == "cancelled"
    assert json.loads((job.folder / "job.json").read_text())["status"] == "cancelled"
    assert not any(_alive(p) for p in pids)
