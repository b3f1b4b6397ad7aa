"""``molforma --mcp-gui`` offscreen: the same dispatcher, working on the window's document."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, WATER

pytest.importorskip("PySide6")

GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}


def test_window_server_edits_the_window_document_and_exits_on_eof(spawn: Any):
    server = spawn(str(FIXTURES / "water_opt-000.xyz"), env=GUI_ENV, flag="--mcp-gui")
    assert server.result("server/discover")["supportedVersions"][0] == "2026-07-28"
    docs = server.ok("list_documents")["documents"]
    assert len(docs) == 1 and docs[0]["formula"] == "H2O"
    doc_id, rev = docs[0]["documentId"], docs[0]["revision"]
    s = server.ok(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": [{"element": "He", "position": [5.0, 0, 0]}],
        },
    )
    assert s["candidate"]["formula"] == "H2HeO"
    s = server.ok(
        "history", {"documentId": doc_id, "expectedRevision": s["revision"], "action": "confirm"}
    )
    assert server.ok("get_document", {"documentId": doc_id, "include": []})["atomCount"] == 4
    app = server.ok("get_app_state", {})
    assert app["mode"] == "gui" and app["documents"][0]["atomCount"] == 4
    t0 = time.monotonic()
    assert server.close(15) == 0
    assert time.monotonic() - t0 < 5


def test_window_server_refuses_paths_outside_the_allowed_directory(spawn: Any, tmp_path: Path):
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    server = spawn("--mcp-allow-dir", str(allowed), env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    err = server.err(
        "open_file",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "path": str(FIXTURES / "water_opt-000.xyz"),
        },
    )
    assert err["code"] == "path_not_allowed"
    s = server.ok(
        "add_atoms",
        {"documentId": doc_id, "expectedRevision": rev, "preview": False, "atoms": WATER},
    )
    assert s["project"]["formula"] == "H2O"
