"""A hostile MCP client against the window (the real ``molforma --mcp-gui`` over stdio).

Each test is one of the ways in that the security review found open: Preferences by a
shortcut, the insides of Qt's file dialogs, the window storing values its tools refuse,
a click far outside any widget. The proof is the outcome — a Preferences file that does
not change, a trusted executable that stays, files outside the allowed directory that
neither appear, change nor vanish — not only the error code.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, GUI_ENV, McpProcess, run_window_command, wait_until

pytest.importorskip("PySide6")

WATER = str(FIXTURES / "water_opt-000.xyz")
_run = run_window_command


def _window(spawn: Any, *args: str) -> McpProcess:
    return spawn(*args, env=GUI_ENV, flag="--mcp-gui")


def _queue(server: McpProcess, tool: str, args: dict[str, Any]) -> dict[str, Any]:
    doc_id, rev = server.doc()
    return server.ok(tool, {"documentId": doc_id, "expectedRevision": rev, **args})


def _ended(server: McpProcess, rec: dict[str, Any], timeout: float = 30) -> dict[str, Any]:
    return wait_until(
        lambda: (
            (r := server.ok("get_ui_command", {"commandId": rec["commandId"]}))["status"]
            in ("done", "failed")
            and r
        ),
        timeout,
    )


def _all_nodes(server: McpProcess) -> list[dict[str, Any]]:
    """Every node of ``get_ui includeHidden``, page after page."""
    nodes: list[dict[str, Any]] = []
    offset: int | None = 0
    while offset is not None:
        page = server.ok("get_ui", {"includeHidden": True, "offset": offset})
        nodes += page["nodes"]
        offset = page["nextOffset"]
    return nodes


def _failed(rec: dict[str, Any], *codes: str) -> None:
    assert rec["status"] == "failed", rec
    assert rec["error"]["code"] in codes, rec


def test_preferences_cannot_be_reached_by_a_shortcut(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path
) -> None:
    canary = tmp_path / "PWNED"
    evil = tmp_path / "evil-nwchem"
    evil.write_text(f"#!/bin/sh\ntouch {canary}\n")
    evil.chmod(0o755)
    prefs = Path(mcp_env["MOLFORMA_CONFIG_DIR"]) / "preferences.json"
    before = prefs.read_bytes() if prefs.exists() else None
    server = _window(spawn, WATER)
    # Ctrl+, is Edit > Preferences: sent to the window, to the 3D view, to a table.
    _failed(
        _run(server, "ui_input", {"target": "mainWindow", "kind": "key", "key": "Ctrl+,"}),
        "ui_not_drivable",
    )
    for target in ("moleculeCanvas", "coordinateTable"):
        _failed(
            _run(server, "ui_input", {"target": target, "kind": "key", "key": "Ctrl+,"}),
            "ui_key_is_shortcut",
        )
    _failed(
        _run(server, "ui_activate", {"target": "molforma.edit.preferences"}), "blocked_preferences"
    )
    # No Preferences dialog opened: none of its fields is a target, and the window still
    # takes commands (a private dialog would refuse them all).
    for name in ("prefExecutableEdit", "preferencesOk", "preferencesDialog"):
        _failed(_run(server, "ui_set_value", {"target": name, "value": str(evil)}), "ui_not_found")
    assert _run(server, "ui_set_value", {"target": "processesSpin", "value": 2})["status"] == "done"
    assert server.ok("get_ui", {})["activeModal"] is None
    assert server.close() == 0
    assert (prefs.read_bytes() if prefs.exists() else None) == before
    # A later headless server trusts what it trusted before.
    headless = spawn()
    trusted = headless.ok("get_execution", {"documentId": headless.doc()[0]})["policy"]
    assert str(evil) not in str(trusted)
    assert not canary.exists()


def test_the_inside_of_a_file_dialog_is_not_a_way_out(spawn: Any, tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = outside / "keep.txt"
    victim.write_text("mine\n")
    server = _window(spawn, WATER, "--mcp-allow-dir", str(allowed))
    export = _queue(server, "ui_activate", {"target": "molforma.file.export"})
    wait_until(lambda: (server.ok("get_ui", {})["activeModal"] or {}).get("kind") == "file")
    listed = [n for n in _all_nodes(server) if n.get("dialog")]
    assert [n["objectName"] for n in listed] == ["fileDialog"]
    assert listed[0]["drivable"] == []
    dialog_id = listed[0]["id"]
    # What worked before: Qt's own name field, its Save button, keys into the dialog.
    _failed(
        _run(server, "ui_set_value", {"target": "fileNameEdit", "value": str(outside / "new.xyz")}),
        "ui_not_found",
    )
    for key in ("Return", "Delete", "Ctrl+N"):  # accept, delete a file, a new folder
        _failed(
            _run(server, "ui_input", {"target": dialog_id, "kind": "key", "key": key}),
            "ui_not_drivable",
        )
    _failed(_run(server, "ui_activate", {"target": dialog_id}), "ui_not_drivable")
    shot = server.err("capture_screenshot", {"target": dialog_id})
    assert shot["code"] == "blocked_file_dialog"
    # The one way in checks the path: outside refused, the dialog stays open.
    _failed(
        _run(
            server,
            "ui_file_dialog",
            {"action": "accept", "directory": str(outside), "fileName": "new.xyz"},
        ),
        "path_not_allowed",
    )
    _failed(
        _run(server, "ui_file_dialog", {"action": "accept", "fileName": str(outside / "new.xyz")}),
        "path_not_allowed",
    )
    assert server.ok("get_app_state", {})["dialogs"]
    rec = _run(
        server,
        "ui_file_dialog",
        {"action": "accept", "directory": str(allowed), "fileName": "water.xyz"},
    )
    assert rec["status"] == "done", rec
    assert _ended(server, export)["status"] == "done"
    assert (allowed / "water.xyz").read_text().split()[0] == "3"
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert victim.read_text() == "mine\n"


@pytest.mark.parametrize(
    ("target", "value", "setting"),
    [
        ("jobRootEdit", "{outside}/jobs", ("execution", "job_root")),
        ("referenceDirEdit", "{outside}", ("execution", "reference_dir")),
        ("advanced_permanent_dir", "{outside}/perm", ("advanced", "permanent_dir")),
        ("advanced_scratch_dir", "{outside}/scratch", ("advanced", "scratch_dir")),
        ("advanced_input_movecs", "{outside}/in.movecs", ("advanced", "input_movecs")),
        ("advanced_output_movecs", "{outside}/out.movecs", ("advanced", "output_movecs")),
    ],
)
def test_the_window_does_not_store_a_path_the_tools_refuse(
    spawn: Any, tmp_path: Path, target: str, value: str, setting: tuple[str, str]
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    server = _window(spawn, WATER, "--mcp-allow-dir", str(allowed))
    doc_id, rev = server.doc()
    before = server.project(doc_id)
    path = value.format(outside=outside)
    section, key = setting
    tool = "set_execution" if section == "execution" else "set_advanced"
    tool_error = server.err(
        tool,
        {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": {key: path}},
    )
    rec = _run(server, "ui_set_value", {"target": target, "value": path})
    _failed(rec, tool_error["code"])  # one validation, whichever route sets it
    after = server.project(doc_id)
    assert after.get(section, {}).get(key) == before.get(section, {}).get(key)
    assert server.doc()[1] == rev
    assert os.listdir(outside) == []


def test_a_click_far_outside_the_window_is_a_clear_error(spawn: Any) -> None:
    server = _window(spawn, WATER)
    doc_id, rev = server.doc()
    for x in (1e308, -1e308, 1e6):
        res = server.call(
            "ui_input",
            {
                "documentId": doc_id,
                "expectedRevision": rev,
                "target": "moleculeCanvas",
                "x": x,
                "y": 5,
            },
        )
        assert res["isError"] is True, res
        assert res["structuredContent"]["code"] != "internal_error", res
    rec = _run(server, "ui_input", {"target": "moleculeCanvas", "x": 99999, "y": 1})
    _failed(rec, "ui_bad_point")
    for args in ({"action": "zoom", "factor": 1e308}, {"action": "rotate", "dx": 1e308}):
        res = server.call("view", {"documentId": doc_id, "expectedRevision": rev, **args})
        assert res["isError"] is True and res["structuredContent"]["code"] != "internal_error"
    assert server.ok("get_ui", {"query": "moleculeCanvas"})["nodes"]
