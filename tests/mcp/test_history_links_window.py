"""The real window (``molforma --mcp-gui``, offscreen): History never follows a link.

A job folder under the allowed job root whose ``input.nw``, project snapshot and job
record are links to files outside the allowed directory holding a marker: the
History table, the row preview (read back with ``get_ui_item``) and Reuse through
``history_action`` show and load nothing of them (docs/reference/safety.md, Allowed directories).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import GUI_ENV, TASK_CAPS, McpProcess, run_window_command, wait_until

pytest.importorskip("PySide6")

MARKER = "WINDOW-HISTORY-MARKER-9b07"
INPUT = f"""title "{MARKER}"
geometry
  O 0.0 0.0 0.1173
  H 0.0 0.7572 -0.4692
  H 0.0 -0.7572 -0.4692
end
basis
  * library sto-3g
end
task scf energy
"""
_run = run_window_command


@pytest.fixture
def window(spawn: Any, tmp_path: Path) -> tuple[McpProcess, str]:
    allowed = tmp_path / "allowed"
    outside = tmp_path / "outside"
    jobs = allowed / "jobs"
    job = jobs / "job1"
    job.mkdir(parents=True)
    outside.mkdir()
    (outside / "input.nw").write_text(INPUT, encoding="utf-8")
    project = {
        "format": "molforma-project",
        "version": 1,
        "document": {"title": MARKER, "atoms": [], "bonds": []},
    }
    (outside / "project.molforma.json").write_text(json.dumps(project), encoding="utf-8")
    (outside / "job.json").write_text(
        json.dumps({"title": MARKER, "status": "finished"}), encoding="utf-8"
    )
    for name in ("input.nw", "project.molforma.json", "job.json"):
        (job / name).symlink_to(outside / name)
    server = spawn("--mcp-allow-dir", str(allowed), env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(jobs)},
        },
    )
    return server, doc_id


def test_history_rows_preview_and_reuse_show_nothing_of_files_linked_outside(
    window: tuple[McpProcess, str],
) -> None:
    server, doc_id = window
    res = server.call(
        "history_action",
        {"documentId": doc_id, "expectedRevision": server.doc()[1], "action": "scan"},
        caps=TASK_CAPS,
    )
    wait_until(
        lambda: (
            server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)["status"]
            == "completed"
        ),
        60,
    )
    table = server.ok("get_ui_item", {"target": "historyTable"})
    assert table["rowCount"] == 1, table
    assert MARKER not in json.dumps(table)

    rec = _run(server, "history_action", {"action": "select", "index": 0})
    assert rec["status"] == "done", rec

    def preview_text() -> str | None:
        item = server.ok("get_ui_item", {"target": "historyPreviewInput"})
        text = json.dumps(item)
        return text if "Loading" not in text else None

    assert MARKER not in wait_until(preview_text, 20)
    assert MARKER not in json.dumps(
        server.ok("get_ui", {"query": "history", "includeHidden": True})
    )

    before = server.project(doc_id)
    rec = _run(server, "history_action", {"action": "reuse"})
    assert rec["status"] == "failed", rec  # a refusal is never reported as success
    assert "symbolic link" in json.dumps(rec)
    after = server.project(doc_id)
    assert MARKER not in json.dumps(after)
    assert after == before


def test_open_in_results_from_history_loads_nothing_from_an_output_linked_outside(
    window: tuple[McpProcess, str], tmp_path: Path
) -> None:
    from tests.mcp.conftest import FIXTURES

    server, doc_id = window
    outside = tmp_path / "outside"
    text = (FIXTURES / "water_scf_optfreq.out").read_text(encoding="utf-8")
    (outside / "output.out").write_text(text + f"\n{MARKER}\n", encoding="utf-8")
    (tmp_path / "allowed" / "jobs" / "job1" / "output.out").symlink_to(outside / "output.out")
    res = server.call(
        "history_action",
        {"documentId": doc_id, "expectedRevision": server.doc()[1], "action": "scan"},
        caps=TASK_CAPS,
    )
    wait_until(
        lambda: (
            server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)["status"]
            == "completed"
        ),
        60,
    )
    assert _run(server, "history_action", {"action": "select", "index": 0})["status"] == "done"
    _run(server, "history_action", {"action": "open_results"})

    def ended() -> dict[str, Any] | None:
        state = server.ok("get_app_state", {})["results"].get(doc_id) or {}
        last = state.get("lastLoad") or {}
        return state if last.get("status") in ("completed", "failed", "cancelled") else None

    state = wait_until(ended, 30)
    assert state["lastLoad"]["status"] == "failed", state
    assert state["source"] is None
    log = server.call("get_results", {"documentId": doc_id, "section": "log"})
    assert MARKER not in json.dumps(log)
