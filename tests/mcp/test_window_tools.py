"""``molforma --mcp-gui`` offscreen, driven over stdio only: the 13 window tools.

Each test spawns the real window as a child process (``QT_QPA_PLATFORM=offscreen``,
``MOLFORMA_RENDERER=painter``) and talks JSON-RPC lines to it.
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import (
    FIXTURES,
    GUI_ENV,
    STAND_IN,
    TASK_CAPS,
    TASKS,
    McpProcess,
    run_window_command,
    wait_until,
)

pytest.importorskip("PySide6")

TASK_FORM_CAPS = {"extensions": {TASKS: {}}, "elicitation": {"form": {}}}
NH3 = FIXTURES / "nh3_planar_scf_freq_vib.molden"
_run = run_window_command


def _window(spawn: Any, *args: str, env: dict[str, str] | None = None) -> McpProcess:
    return spawn(*args, env={**GUI_ENV, **(env or {})}, flag="--mcp-gui")


def _node(server: McpProcess, name: str) -> dict[str, Any]:
    nodes = server.ok("get_ui", {"query": name, "includeHidden": True})["nodes"]
    found = [n for n in nodes if n["objectName"] == name]
    assert len(found) == 1, nodes
    return found[0]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _png_distinct_rows(data: bytes) -> int:
    """How many different scanlines the (8-bit RGB/RGBA) image has: 1 means blank."""
    pos, chunks = 8, []
    while pos < len(data):
        length = struct.unpack(">I", data[pos : pos + 4])[0]
        kind = data[pos + 4 : pos + 8]
        if kind == b"IDAT":
            chunks.append(data[pos + 8 : pos + 8 + length])
        pos += 12 + length
    raw = zlib.decompress(b"".join(chunks))
    _width, height = _png_size(data)
    stride = len(raw) // height
    return len({raw[i * stride + 1 : (i + 1) * stride] for i in range(height)})


def test_both_eras_list_the_40_tools_of_the_window(spawn: Any):
    server = _window(spawn)
    modern = {t["name"] for t in server.result("tools/list")["tools"]}
    assert len(modern) == 40
    assert {
        "get_ui",
        "ui_file_dialog",
        "capture_screenshot",
        "chemistry",
        "history_action",
        "view",
        "get_ui_command",
    } <= modern
    server.result(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    legacy = {t["name"] for t in server.result("tools/list", modern=False)["tools"]}
    assert legacy == modern


def test_numeric_text_combo_and_check_box_widgets_commit_like_typing(spawn: Any):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    doc_id, _rev0 = server.doc()
    assert _run(server, "ui_set_value", {"target": "processesSpin", "value": 3})["status"] == "done"
    assert server.project(doc_id)["execution"]["processes"] == 3
    rec = _run(server, "ui_set_value", {"target": "basisCombo", "value": "6-31G*"})
    assert rec["status"] == "done", rec
    assert server.project(doc_id)["calculation"]["basis"].lower() == "6-31g*"
    rec = _run(server, "ui_set_value", {"target": "moleculeTitle", "value": "wet"})
    assert rec["status"] == "done", rec
    assert _run(server, "ui_activate", {"target": "moleculeApply"})["status"] == "done"
    assert server.project(doc_id)["document"]["title"] == "wet"
    before = _node(server, "advancedToggle")
    rec = _run(
        server,
        "ui_set_value",
        {"target": "advancedToggle", "value": not before.get("value", False)},
    )
    assert rec["status"] == "done", rec
    assert _node(server, "advancedToggle")["value"] is (not before.get("value", False))
    # A value outside the spin box's range is refused with the range, nothing changes.
    rec = _run(server, "ui_set_value", {"target": "processesSpin", "value": 99999})
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_bad_value"
    assert server.project(doc_id)["execution"]["processes"] == 3


def test_edits_by_window_commands_are_mcp_edits_and_never_trusted(spawn: Any):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    doc_id, _ = server.doc()
    _run(server, "ui_set_value", {"target": "processesSpin", "value": 2})
    policy = server.ok("get_execution", {"documentId": doc_id})["policy"]
    assert "trusted" in policy


def test_table_cells_and_selections_are_driven(spawn: Any):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    doc_id, _ = server.doc()
    table = server.ok("get_ui_item", {"target": "coordinateTable"})
    assert table["rowCount"] == 3 and table["rows"][0]["cellRects"]
    assert table["rows"][0]["parentRows"] == []
    rec = _run(
        server,
        "ui_edit_cell",
        {"target": "coordinateTable", "row": 1, "column": 2, "value": "1.25"},
    )
    assert rec["status"] == "done", rec
    atoms = server.project(doc_id)["document"]["atoms"]
    assert abs(atoms[1]["x"] - 1.25) < 1e-9
    rec = _run(server, "ui_select", {"target": "mainTabs", "index": 2})
    assert rec["status"] == "done"
    assert server.ok("get_ui", {"query": "mainTabs"})["currentTab"] == "execution"
    ids = [a["id"] for a in atoms[:2]]
    rec = _run(server, "ui_select", {"target": "moleculeView", "atomIds": ids})
    assert rec["status"] == "done", rec
    assert sorted(rec["result"]["selection"]) == sorted(ids)
    rec = _run(server, "ui_select", {"target": "moleculeView", "atomIds": ["a999"]})
    assert rec["status"] == "failed" and rec["error"]["code"] == "unknown_atom"
    assert rec["error"]["message"] == "No atom with id a999 in the document."


def test_stale_revision_expired_id_and_unknown_names_are_refused(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    err = server.err(
        "ui_set_value",
        {"documentId": doc_id, "expectedRevision": "r0", "target": "processesSpin", "value": 2},
    )
    assert err["code"] == "stale_revision"
    # Unknown names fail when the command runs, with similar names.
    rec = _run(server, "ui_activate", {"target": "procesesSpin"})
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_not_found"
    assert "processesSpin" in rec["error"]["details"]["similar"]
    # An id of a dialog that closed expires.
    server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
    )
    modal = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    ok_id = next(iter(modal["buttonIds"].values()))
    rec = _run(server, "ui_activate", {"target": ok_id})
    assert rec["status"] == "done"
    wait_until(lambda: server.ok("get_ui", {})["activeModal"] is None)
    rec = _run(server, "ui_activate", {"target": ok_id})
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_expired"
    err = server.err("get_ui_item", {"target": ok_id})
    assert err["code"] == "ui_expired"


def test_every_blocked_widget_is_listed_and_refuses_every_action(spawn: Any):
    server = _window(spawn)
    assert server.ok("get_ui", {"includeHidden": True}).get("blocked") is None  # when asked
    ui = server.ok("get_ui", {"includeHidden": True, "includeBlocked": True})
    names = {b["objectName"] for b in ui["blocked"]}
    blocked = {
        "executableEdit",
        "executableBrowse",
        "launcherEdit",
        "launcherBrowse",
        "environmentTable",
        "environmentAdd",
        "environmentRemove",
        "extraInputEdit",
        "extraTasksEdit",
        "applyExtraInputButton",
        "schedulerCombo",
        "accountEdit",
        "batchDirectivesEdit",
    }
    assert blocked <= names
    assert all(b["message"] and b["ids"] for b in ui["blocked"])
    for name in sorted(blocked):
        for tool, extra in (
            ("ui_activate", {}),
            ("ui_set_value", {"value": "x"}),
            ("ui_select", {"index": 0}),
            ("ui_input", {"x": 1, "y": 1}),
        ):
            rec = _run(server, tool, {"target": name, **extra})
            assert rec["status"] == "failed", (name, tool, rec)
            assert rec["error"]["code"].startswith("blocked_"), (name, tool, rec)
    rec = _run(
        server,
        "ui_edit_cell",
        {"target": "environmentTable", "row": 0, "column": 0, "value": "LD_PRELOAD"},
    )
    assert rec["error"]["code"] == "blocked_execution_setting"
    rec = _run(server, "ui_activate", {"target": "molforma.edit.preferences"})
    assert rec["error"]["code"] == "blocked_preferences"


def test_a_message_box_is_answered_through_ui_activate_and_edits_behind_it_are_refused(spawn: Any):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    doc_id, rev = server.doc()
    opened = server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
    )
    modal = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    assert "MolForma" in modal["text"] and modal["buttons"]
    assert server.ok("get_ui_command", {"commandId": opened["commandId"]})["status"] == "running"
    state = server.ok("get_app_state", {})
    assert [d["dialogId"] for d in state["dialogs"]] == [modal["dialogId"]]
    assert state["pendingGuiCommands"][0]["commandId"] == opened["commandId"]
    # A document edit behind the dialog is refused; the dialog's button is accepted.
    rec = _run(server, "ui_set_value", {"target": "processesSpin", "value": 4})
    assert rec["status"] == "failed" and rec["error"]["code"] == "modal_dialog_open"
    rec = _run(server, "ui_activate", {"target": modal["buttonIds"][modal["buttons"][0]]})
    assert rec["status"] == "done"
    done = wait_until(
        lambda: (
            (r := server.ok("get_ui_command", {"commandId": opened["commandId"]}))["status"]
            == "done"
            and r
        )
    )
    assert modal["dialogId"] in done["dialogs"] or done["status"] == "done"
    assert server.project(doc_id)["execution"]["processes"] != 4


def test_a_message_box_of_a_task_is_an_elicitation_answered_with_tasks_update(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
        caps=TASK_FORM_CAPS,
    )
    assert res["resultType"] == "task"
    task_id = res["taskId"]
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": task_id}, caps=TASK_FORM_CAPS))["status"]
            == "input_required"
            and x
        )
    )
    ((key, ask),) = t["inputRequests"].items()
    assert ask["method"] == "elicitation/create" and ask["params"]["mode"] == "form"
    choices = ask["params"]["requestedSchema"]["properties"]["choice"]["enum"]
    assert "MolForma" in ask["params"]["message"]
    # Without elicitation on the poll the task is working, with how to answer.
    plain = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
    assert plain["status"] == "working" and "ui_activate" in plain["statusMessage"]
    server.result(
        "tasks/update",
        {
            "taskId": task_id,
            "inputResponses": {key: {"action": "accept", "content": {"choice": choices[0]}}},
        },
        caps=TASK_FORM_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        )
    )
    assert t["result"]["isError"] is False
    assert t["result"]["structuredContent"]["status"] == "done"
    assert server.ok("get_ui", {})["activeModal"] is None


def test_a_failed_window_action_completes_its_task_with_an_error_result(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "noSuchWidget"},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        )
    )
    assert t["result"]["isError"] is True
    assert t["result"]["structuredContent"]["code"] == "ui_not_found"


def test_the_17th_pending_command_is_refused(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
    )
    wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    # Camera moves wait behind the dialog: 1 running + 15 waiting = 16 pending.
    for _ in range(15):
        server.ok(
            "view", {"documentId": doc_id, "expectedRevision": rev, "action": "rotate", "dx": 5}
        )
    err = server.err("view", {"documentId": doc_id, "expectedRevision": rev, "action": "fit"})
    assert err["code"] == "gui_queue_full" and err["details"]["limit"] == 16
    assert len(server.ok("get_app_state", {})["pendingGuiCommands"]) == 16
    # The queue is full, the dialog stays: closing stdin still ends the window at once.
    t0 = time.monotonic()
    assert server.close(15) == 0
    assert time.monotonic() - t0 < 3


def test_get_ui_pages_by_size_and_offset(spawn: Any):
    server = _window(spawn)
    first = server.ok("get_ui", {"includeHidden": True})
    assert first["total"] > len(first["nodes"]) or first["nextOffset"] is None
    assert len(json.dumps(first["nodes"])) <= 45 * 1024
    page = server.ok("get_ui", {"includeHidden": True, "limit": 5})
    assert len(page["nodes"]) == 5 and page["nextOffset"] == 5
    nxt = server.ok("get_ui", {"includeHidden": True, "offset": 5, "limit": 5})
    assert nxt["nodes"][0]["id"] != page["nodes"][0]["id"]
    everything: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        p = server.ok("get_ui", {"includeHidden": True, "offset": offset})
        everything += p["nodes"]
        offset = p["nextOffset"]
    assert len(everything) == first["total"]
    assert len({n["id"] for n in everything}) == len(everything)


def test_screenshot_is_a_png_image_content_and_saved_inside_allowed_dirs(
    spawn: Any, tmp_path: Path
):
    allowed = tmp_path / "shots"
    allowed.mkdir()
    server = _window(spawn, "--mcp-allow-dir", str(allowed), env={})
    res = server.call("capture_screenshot", {"path": str(allowed / "win.png")})
    assert res["isError"] is False
    image = next(c for c in res["content"] if c["type"] == "image")
    assert image["mimeType"] == "image/png"
    data = base64.b64decode(image["data"])
    w, h = _png_size(data)
    assert (w, h) == (res["structuredContent"]["width"], res["structuredContent"]["height"])
    assert 400 <= w <= 4096 and h >= 300
    assert _png_distinct_rows(data) > 20  # not a blank image
    assert (allowed / "win.png").read_bytes() == data
    err = server.err("capture_screenshot", {"path": str(tmp_path / "outside.png")})
    assert err["code"] == "path_not_allowed"
    assert not (tmp_path / "outside.png").exists()
    res = server.call("capture_screenshot", {"target": "mainTabs"})
    assert res["structuredContent"]["width"] < w + 1


def test_nh3_molden_modes_are_read_played_and_stopped(spawn: Any):
    server = _window(spawn, str(NH3))
    doc_id, rev = server.doc()
    wait_until(lambda: server.ok("get_app_state", {})["results"][doc_id]["source"])
    modes = server.ok("get_results", {"documentId": doc_id, "section": "modes"})
    items = modes["items"]
    imaginary = [m for m in items if m["frequency"] < 0]
    assert imaginary
    played = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "play_mode",
            "index": imaginary[0]["index"],
        },
    )
    assert played["status"] == "completed" and played["command"]["result"]["playing"] is True
    real = next(m for m in items if m["frequency"] > 0)
    played = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "play_mode",
            "index": real["index"],
        },
    )
    assert played["command"]["result"]["playing"] is True
    label = server.ok("get_ui_item", {"target": "trajectoryLabel"})
    assert "Mode" in label["text"]
    shown = server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "show_structure", "index": 0},
    )
    assert shown["command"]["result"]["playing"] is False
    assert "1/" in server.ok("get_ui_item", {"target": "trajectoryLabel"})["text"]
    server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "play_mode",
            "index": real["index"],
        },
    )
    stopped = server.ok(
        "results_action", {"documentId": doc_id, "expectedRevision": rev, "action": "stop"}
    )
    assert stopped["command"]["result"]["playing"] is False
    err = server.err(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "play_mode", "index": 999},
    )
    assert err["code"] == "results_bad_mode"


def test_a_smiles_candidate_is_made_in_the_worker_and_confirmed(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    res = server.call(
        "chemistry",
        {"documentId": doc_id, "expectedRevision": rev, "action": "smiles", "smiles": "CCO"},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        ),
        120,
    )
    sc = t["result"]["structuredContent"]
    assert sc["status"] == "done" and sc["app"]["documents"][0]["hasCandidate"] is True
    d = server.ok("get_document", {"documentId": doc_id, "include": []})
    assert d["hasCandidate"] is True
    rec = _run(server, "ui_activate", {"target": "confirmButton"})
    assert rec["status"] == "done", rec
    d = server.ok("get_document", {"documentId": doc_id, "include": []})
    assert d["hasCandidate"] is False and d["formula"] == "C2H6O"


def test_a_file_dialog_is_driven_inside_and_refused_outside_the_allowed_dirs(
    spawn: Any, tmp_path: Path
):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    src = allowed / "w.xyz"
    src.write_text((FIXTURES / "water_opt-000.xyz").read_text())
    outside = tmp_path / "o.xyz"
    outside.write_text(src.read_text())
    server = _window(spawn, "--mcp-allow-dir", str(allowed))
    doc_id, rev = server.doc()
    opened = server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.file.open"},
    )
    dialog = wait_until(
        lambda: [d for d in server.ok("get_app_state", {})["dialogs"] if d["kind"] == "file"]
    )
    assert dialog[0]["mode"] == "open"
    rec = _run(server, "ui_file_dialog", {"action": "accept", "fileName": str(outside)})
    assert rec["status"] == "failed" and rec["error"]["code"] == "path_not_allowed"
    assert server.ok("get_app_state", {})["dialogs"]  # still open
    rec = _run(
        server,
        "ui_file_dialog",
        {"action": "accept", "directory": str(allowed), "fileName": "w.xyz"},
    )
    assert rec["status"] == "done", rec
    wait_until(
        lambda: server.ok("get_ui_command", {"commandId": opened["commandId"]})["status"] == "done"
    )
    assert server.ok("get_document", {"documentId": doc_id, "include": []})["formula"] == "H2O"
    # Cancel leaves the document as it is.
    server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": server.doc()[1], "target": "molforma.file.open"},
    )
    wait_until(lambda: server.ok("get_app_state", {})["dialogs"])
    rec = _run(server, "ui_file_dialog", {"action": "cancel"})
    assert rec["status"] == "done"
    wait_until(lambda: not server.ok("get_app_state", {})["dialogs"])


def test_eof_ends_the_window_process_within_seconds(spawn: Any):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    server.ok("get_ui", {})
    t0 = time.monotonic()
    assert server.close(15) == 0
    assert time.monotonic() - t0 < 3


def _stand_in_env(mcp_env: dict[str, str], mode: str) -> dict[str, str]:
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    exe = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"
    (cfg / "preferences.json").write_text(json.dumps({"executable": exe}))
    return {"FAKE_NWCHEM_MODE": mode, "FAKE_NWCHEM_DELAY": "0.05"}


def _scf_window(spawn: Any, env: dict[str, str], tmp_path: Path) -> tuple[McpProcess, str]:
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"), env=env)
    doc_id, rev = server.doc()
    s = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )
    root = tmp_path / "jobs"
    root.mkdir(exist_ok=True)
    server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": s["revision"],
            "preview": False,
            "values": {"job_root": str(root)},
        },
    )
    return server, doc_id


def test_a_run_nwchem_fails_ends_the_window_task_with_its_error(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
):
    """Run pressed as a task: the task waits for the calculation, and a run NWChem ended
    with an error is an error result with NWChem's line, not a success."""
    server, doc_id = _scf_window(spawn, _stand_in_env(mcp_env, "crash"), tmp_path)
    rev = server.doc()[1]
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "runButton"},
        caps=TASK_CAPS,
    )
    task = wait_until(
        lambda: (
            (t := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and t
        ),
        60,
    )
    assert task["result"]["isError"] is True, task
    err = task["result"]["structuredContent"]
    assert err["code"] == "calculation_failed" and err["details"]["status"] == "failed"
    assert server.ok("get_app_state", {})["calculation"]["status"] == "failed"


def test_a_stand_in_run_started_from_the_window_is_followed_and_cancelled(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
):
    server, doc_id = _scf_window(spawn, _stand_in_env(mcp_env, "hang"), tmp_path)
    rev = server.doc()[1]
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "runButton"},
        caps=TASK_CAPS,
    )
    task_id = res["taskId"]
    app = wait_until(lambda: (a := server.ok("get_app_state", {}))["calculation"] and a, 30)
    folder = Path(app["calculation"]["jobDirectory"])
    wait_until((folder / "fake_nwchem.child").exists, 30)
    assert any(w["kind"] == "calculation" for w in server.ok("get_app_state", {})["workers"])
    t = server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)
    assert t["status"] == "working"
    server.result("tasks/cancel", {"taskId": task_id}, caps=TASK_CAPS)
    assert server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)["status"] == "cancelled"
    wait_until(lambda: server.ok("get_app_state", {})["calculation"]["status"] == "cancelled", 20)
    status = server.ok("get_ui_item", {"target": "jobStatusLabel"})
    assert status["text"]


def test_a_run_pressed_through_mcp_with_untrusted_settings_runs_nothing(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
):
    server, doc_id = _scf_window(spawn, _stand_in_env(mcp_env, "converge"), tmp_path)
    project = server.project(doc_id)
    project["execution"]["executable"] = "/bin/echo"
    other = tmp_path / "other.molforma.json"
    other.write_text(json.dumps(project))
    rev = server.doc()[1]
    server.ok(
        "open_file",
        {"documentId": doc_id, "expectedRevision": rev, "path": str(other), "preview": False},
    )
    rec = _run(server, "ui_activate", {"target": "runButton"})
    # Nothing ran, and the record says so with the message the window showed.
    assert rec["status"] == "failed" and rec["error"]["code"] == "window_refused", rec
    assert "only you can confirm" in rec["error"]["message"]
    assert server.ok("get_ui", {})["activeModal"] is None
    assert server.ok("get_app_state", {})["calculation"] is None
    assert "only you can confirm" in server.ok("get_ui_item", {"target": "jobStatusLabel"})["text"]
    assert not list((tmp_path / "jobs").iterdir())


def test_history_scan_select_and_csv_export_from_the_window(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
):
    server, doc_id = _scf_window(spawn, _stand_in_env(mcp_env, "converge"), tmp_path)
    rev = server.doc()[1]
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "runButton"},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        ),
        120,
    )
    assert t["result"]["structuredContent"]["app"]["calculation"]["status"] == "finished"
    rev = server.doc()[1]
    res = server.call(
        "history_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "scan"},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        ),
        60,
    )
    assert t["result"]["isError"] is False, t["result"]
    table = server.ok("get_ui_item", {"target": "historyTable"})
    assert table["rowCount"] == 1
    rec = _run(server, "history_action", {"action": "select", "index": 0})
    assert rec["status"] == "done" and rec["result"]["selected"]
    csv_path = tmp_path / "history.csv"
    rec = _run(server, "history_action", {"action": "export_csv", "path": str(csv_path)})
    assert rec["status"] == "done", rec
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and "finished" in lines[1]


@pytest.mark.nwchem
def test_real_nwchem_on_water_runs_from_the_window(spawn: Any, tmp_path: Path):
    server, doc_id = _scf_window(spawn, {}, tmp_path)
    rev = server.doc()[1]
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "runButton"},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        ),
        240,
        0.5,
    )
    calc = t["result"]["structuredContent"]["app"]["calculation"]
    assert calc["status"] == "finished", calc
    out = Path(calc["jobDirectory"])
    assert "Total SCF energy" in "".join(p.read_text(errors="replace") for p in out.glob("*.out"))


def test_a_click_on_an_atom_in_the_3d_view_and_on_a_list_item_lands_where_get_ui_item_says(
    spawn: Any,
):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    _run(server, "ui_activate", {"target": "tool_select"})
    canvas = server.ok("get_ui_item", {"target": "moleculeView"})
    atom = next(a for a in canvas["atoms"] if a["x"] is not None)
    rec = _run(server, "ui_input", {"target": "moleculeCanvas", "x": atom["x"], "y": atom["y"]})
    assert rec["status"] == "done", rec
    view = server.ok("get_ui_item", {"target": "moleculeView"})
    assert view["selection"] == [atom["atomId"]]
    rec = _run(server, "ui_input", {"target": "moleculeCanvas", "x": 99999, "y": 1})
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_bad_point"
    # A list item: the modes of the NH3 MOLDEN file, clicked at its cell rectangle.
    server = _window(spawn, str(NH3))
    doc_id, _ = server.doc()
    wait_until(lambda: server.ok("get_app_state", {})["results"][doc_id]["source"])
    table = wait_until(
        lambda: (t := server.ok("get_ui_item", {"target": "modesTable"}))["rowCount"] and t
    )
    cell = table["rows"][2]["cellRects"][0]
    rec = _run(
        server,
        "ui_input",
        {
            "target": "modesTable",
            "x": cell["x"] + cell["width"] / 2,
            "y": cell["y"] + cell["height"] / 2,
        },
    )
    assert rec["status"] == "done", rec
    table = server.ok("get_ui_item", {"target": "modesTable"})
    assert [r["row"] for r in table["rows"] if r["selected"]] == [2]


def test_tasks_cancel_drops_a_queued_command(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
    )
    modal = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    res = server.call(
        "view",
        {"documentId": doc_id, "expectedRevision": rev, "action": "zoom", "factor": 2},
        caps=TASK_CAPS,
    )
    assert (
        server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)["status"] == "working"
    )
    server.result("tasks/cancel", {"taskId": res["taskId"]}, caps=TASK_CAPS)
    assert (
        server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)["status"]
        == "cancelled"
    )
    pending = server.ok("get_app_state", {})["pendingGuiCommands"]
    assert [p["tool"] for p in pending] == ["ui_activate"]
    rec = _run(server, "ui_activate", {"target": next(iter(modal["buttonIds"].values()))})
    assert rec["status"] == "done"


def test_saving_onto_an_existing_file_through_the_dialog_needs_overwrite(
    spawn: Any, tmp_path: Path
):
    """Qt's own "replace?" box is the person's: the agent says overwrite: true instead."""
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    target = allowed / "mine.molforma.json"
    target.write_text("old\n")
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"), "--mcp-allow-dir", str(allowed))
    doc_id, rev = server.doc()
    saving = server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.file.save_as"},
    )
    wait_until(lambda: server.ok("get_app_state", {})["dialogs"])
    rec = _run(
        server,
        "ui_file_dialog",
        {"action": "accept", "directory": str(allowed), "fileName": target.name},
    )
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_file_exists", rec
    assert "overwrite: true" in rec["error"]["message"]
    assert target.read_text() == "old\n"
    assert server.ok("get_app_state", {})["dialogs"]  # still open, nothing asked
    assert server.ok("get_ui", {})["activeModal"]["kind"] == "file"
    rec = _run(
        server,
        "ui_file_dialog",
        {"action": "accept", "directory": str(allowed), "fileName": target.name, "overwrite": True},
    )
    assert rec["status"] == "done", rec
    wait_until(
        lambda: server.ok("get_ui_command", {"commandId": saving["commandId"]})["status"] == "done"
    )
    assert json.loads(target.read_text())["format"] == "molforma-project"


def test_a_cleanup_in_the_worker_is_cancelled_through_chemistry(spawn: Any):
    server = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    doc_id, rev = server.doc()
    res = server.call(
        "chemistry",
        {"documentId": doc_id, "expectedRevision": rev, "action": "cleanup"},
        caps=TASK_CAPS,
    )
    rec = _run(server, "chemistry", {"action": "cancel"})
    assert rec["status"] == "done"
    # Stopped by its own cancel action, the task ends with its real result.
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        ),
        60,
    )
    assert t["result"]["structuredContent"]["work"]["status"] in ("cancelled", "finished")
    assert wait_until(lambda: server.ok("get_app_state", {})["workers"] == [], 30)


def test_save_project_driven_through_mcp_is_refused_outside_the_allowed_dirs(
    spawn: Any, tmp_path: Path
):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    project = tmp_path / "outside.molforma.json"
    seed = _window(spawn, str(FIXTURES / "water_opt-000.xyz"))
    doc_id, _ = seed.doc()
    seed.ok("save_file", {"documentId": doc_id, "path": str(project)})
    seed.close()
    before = project.read_text()
    server = _window(spawn, str(project), "--mcp-allow-dir", str(allowed))
    doc_id, _ = server.doc()
    _run(server, "ui_set_value", {"target": "processesSpin", "value": 2})
    saving = server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": server.doc()[1], "target": "molforma.file.save"},
    )
    box = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    assert "allowed" in box["text"] or "outside" in box["text"], box
    assert project.read_text() == before
    _run(server, "ui_activate", {"target": next(iter(box["buttonIds"].values()))})
    rec = wait_until(
        lambda: (
            (r := server.ok("get_ui_command", {"commandId": saving["commandId"]}))["status"]
            in ("done", "failed")
            and r
        )
    )
    # Nothing was saved: the record says so with the error the box showed.
    assert rec["status"] == "failed" and rec["error"]["code"] == "path_not_allowed", rec
    assert project.read_text() == before


def test_results_loaded_and_calculations_started_through_mcp_show_in_the_window_tabs(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
):
    server, doc_id = _scf_window(spawn, _stand_in_env(mcp_env, "converge"), tmp_path)
    rev = server.doc()[1]
    res = server.call(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": str(NH3)},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        )
    )
    assert t["result"]["structuredContent"]["app"]["results"]["source"]
    # The Results tab shows the session MCP loaded (one session for both).
    wait_until(lambda: server.ok("get_ui_item", {"target": "modesTable"})["rowCount"] > 0)
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        ),
        120,
    )
    assert t["result"]["structuredContent"]["status"] == "finished"
    # The Execution tab followed the job MCP started, like its own.
    log = wait_until(
        lambda: (x := server.ok("get_ui_item", {"target": "executionLog"}))["value"] and x, 30
    )
    assert "NWChem" in log["value"] or "SCF" in log["value"]


def test_window_errors_follow_the_display_language(spawn: Any):
    server = _window(spawn, env={"MOLFORMA_LANGUAGE": "ja"})
    err = server.err("get_ui_item", {"target": "procesesSpin"})
    assert err["code"] == "ui_not_found" and "ウィジェット" in err["message"]
    blocked = server.ok(
        "get_ui", {"query": "executableEdit", "includeHidden": True, "includeBlocked": True}
    )["blocked"]
    assert any("MCPからは" in b["message"] for b in blocked)


def test_tasks_cancel_leaves_a_showing_dialog_alone_and_the_task_gives_its_real_result(spawn: Any):
    server = _window(spawn)
    doc_id, rev = server.doc()
    res = server.call(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
        caps=TASK_CAPS,
    )
    modal = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    server.result("tasks/cancel", {"taskId": res["taskId"]}, caps=TASK_CAPS)
    assert (
        server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)["status"] == "working"
    )
    assert server.ok("get_ui", {})["activeModal"]["dialogId"] == modal["dialogId"]
    _run(server, "ui_activate", {"target": next(iter(modal["buttonIds"].values()))})
    t = wait_until(
        lambda: (
            (x := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and x
        )
    )
    assert t["result"]["structuredContent"]["status"] == "done"
