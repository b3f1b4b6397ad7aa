"""A 10,000-atom file in ``molforma --mcp-gui`` (offscreen): the 13 window tools answer
within the 100,000-character size hint with their default arguments (docs/reference/mcp.md, Size of results),
like the shared tools do headless (tests/mcp/test_large_documents.py)."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from molforma.mcp.tool_registry import MAX_RESULT_CHARS, load_tools
from tests.mcp.conftest import REPO, McpProcess, wait_until
from tests.mcp.test_large_documents import N_ATOMS, water_box

pytest.importorskip("PySide6")

GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}


def _text_size(result: dict[str, Any]) -> int:
    """Characters of the result a model reads: everything but image data, which
    travels as an MCP image item (its PNG bytes, base64) and is counted apart."""
    shown = dict(result)
    shown["content"] = [
        {k: v for k, v in c.items() if k != "data"} if c.get("type") == "image" else c
        for c in result.get("content", [])
    ]
    return len(json.dumps(shown, ensure_ascii=False))


@pytest.fixture(scope="module")
def big_window(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("bigwin")
    xyz = tmp / "box.xyz"
    xyz.write_text(water_box(N_ATOMS))
    (tmp / "config").mkdir()
    env = dict(
        os.environ,
        MOLFORMA_CONFIG_DIR=str(tmp / "config"),
        MOLFORMA_LANGUAGE="en",
        PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        **GUI_ENV,
    )
    proc = McpProcess([str(xyz)], env, tmp, "--mcp-gui")
    try:
        yield proc
    finally:
        if proc.proc.poll() is None:
            proc.close(15.0)
        proc.release()


def _calls(server: McpProcess) -> list[tuple[str, dict[str, Any]]]:
    doc_id, _rev = server.doc()
    ids = [
        a["id"]
        for a in server.ok("get_document", {"documentId": doc_id, "limit": 3})["project"][
            "document"
        ]["atoms"]
    ]
    return [
        ("get_ui", {}),
        ("get_ui", {"includeHidden": True}),
        ("get_ui_item", {"target": "coordinateTable"}),
        ("get_ui_item", {"target": "moleculeView"}),
        ("capture_screenshot", {}),
        ("ui_activate", {"target": "molforma.view.style_sticks"}),
        ("ui_set_value", {"target": "processesSpin", "value": 2}),
        ("ui_edit_cell", {"target": "coordinateTable", "row": 1, "column": 2, "value": "0.5"}),
        ("ui_select", {"target": "moleculeView", "atomIds": ids}),
        ("ui_input", {"target": "moleculeCanvas", "x": 20, "y": 20}),
        ("ui_file_dialog", {"action": "cancel"}),
        ("chemistry", {"action": "cancel"}),
        ("history_action", {"action": "scan"}),
        ("view", {"action": "fit"}),
    ]


@pytest.mark.slow
def test_every_window_tool_answers_a_10000_atom_window_within_the_size_hint(
    big_window: McpProcess,
) -> None:
    server = big_window
    window_tools = {n for n, t in load_tools().items() if "headless" not in t.modes}
    called: set[str] = set()
    sizes: dict[str, int] = {}
    for name, args in _calls(server):
        if name not in ("get_ui", "get_ui_item", "capture_screenshot"):
            doc_id, rev = server.doc()
            args = {"documentId": doc_id, "expectedRevision": rev, **args}
        result = server.call(name, args, timeout=120)
        called.add(name)
        sizes[name] = max(sizes.get(name, 0), _text_size(result))
        record = result.get("structuredContent") or {}
        if not result["isError"] and "commandId" in record:
            done = wait_until(
                lambda r=record: (
                    (x := server.call("get_ui_command", {"commandId": r["commandId"]}))[
                        "structuredContent"
                    ]["status"]
                    in ("done", "failed")
                    and x
                ),
                120,
            )
            called.add("get_ui_command")
            sizes["get_ui_command"] = max(sizes.get("get_ui_command", 0), _text_size(done))
    assert called == window_tools
    assert max(sizes.values()) < MAX_RESULT_CHARS, sizes


@pytest.mark.slow
def test_the_coordinate_table_of_10000_atoms_is_read_in_pages_under_the_hint(
    big_window: McpProcess,
) -> None:
    first = big_window.call("get_ui_item", {"target": "coordinateTable"})
    assert _text_size(first) < MAX_RESULT_CHARS
    table = first["structuredContent"]
    assert table["rowCount"] == N_ATOMS
    assert 0 < len(table["rows"]) == table["nextOffset"] < N_ATOMS
    second = big_window.ok(
        "get_ui_item", {"target": "coordinateTable", "offset": table["nextOffset"]}
    )
    assert second["rows"] and second["rows"] != table["rows"]


@pytest.mark.slow
def test_screenshot_of_a_10000_atom_window_is_one_image_item(big_window: McpProcess) -> None:
    res = big_window.call("capture_screenshot", {})
    assert res["isError"] is False
    assert [c["type"] for c in res["content"]].count("image") == 1
    assert _text_size(res) < MAX_RESULT_CHARS
