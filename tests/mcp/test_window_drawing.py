"""The Add-atom tool driven by an agent through the real ``molforma --mcp-gui`` (offscreen,
over stdio): letters sent to the 3D view with ``ui_input`` choose the element (keys the
view handles itself, sent to it alone), a letter that is a window shortcut (F, Fit to
View) is refused, and clicks at an atom and a bond do what a person's clicks do."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, GUI_ENV, McpProcess, run_window_command

pytest.importorskip("PySide6")

WATER = FIXTURES / "water_opt-000.xyz"


def _formula(server: McpProcess) -> str:
    return str(server.ok("list_documents")["documents"][0]["formula"])


def _element_button(server: McpProcess) -> str:
    nodes = server.ok("get_ui", {"query": "elementButton", "includeHidden": True})["nodes"]
    return str(next(n for n in nodes if n["objectName"] == "elementButton")["text"])


def test_an_agent_types_elements_into_the_view_and_draws_with_clicks(spawn: Any) -> None:
    server = spawn(str(WATER), env=GUI_ENV, flag="--mcp-gui")
    assert _formula(server) == "H2O"
    assert run_window_command(server, "ui_activate", {"target": "tool_add"})["status"] == "done"
    rec = run_window_command(
        server, "ui_input", {"target": "moleculeView", "kind": "key", "key": "N"}
    )
    assert rec["status"] == "done", rec
    assert _element_button(server) == "Element: N"
    run_window_command(server, "ui_input", {"target": "moleculeView", "kind": "key", "key": "C"})
    assert _element_button(server) == "Element: C"
    # F is the window's Fit to View shortcut: refused up front, the element stays.
    rec = run_window_command(
        server, "ui_input", {"target": "moleculeView", "kind": "key", "key": "F"}
    )
    assert rec["status"] == "failed" and rec["error"]["code"] == "ui_key_is_shortcut", rec
    assert _element_button(server) == "Element: C"
    # A click on a hydrogen turns it into carbon: water → methanol.
    view = server.ok("get_ui_item", {"target": "moleculeView"})
    at = {a["atomId"]: a for a in view["atoms"]}
    rec = run_window_command(
        server, "ui_input", {"target": "moleculeCanvas", "x": at["a2"]["x"], "y": at["a2"]["y"]}
    )
    assert rec["status"] == "done", rec
    assert _formula(server) == "CH4O"
    # A click on the C–O bond raises its order: formaldehyde.
    view = server.ok("get_ui_item", {"target": "moleculeView"})
    at = {a["atomId"]: a for a in view["atoms"]}
    mid = {"x": (at["a1"]["x"] + at["a2"]["x"]) / 2, "y": (at["a1"]["y"] + at["a2"]["y"]) / 2}
    rec = run_window_command(server, "ui_input", {"target": "moleculeCanvas", **mid})
    assert rec["status"] == "done", rec
    assert _formula(server) == "CH2O"
