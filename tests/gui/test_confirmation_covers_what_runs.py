"""The person's confirmation covers exactly what runs, and MCP cannot edit behind a dialog."""

from __future__ import annotations

import os
import shlex
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MOLFORMA_RENDERER", "painter")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from molforma.app import ops
from molforma.app.actor import Actor
from tests.gui.helpers import execution_panel, water_context
from tests.mcp.conftest import meta

FAKE_NWCHEM = Path(__file__).resolve().parents[1] / "stand_in" / "fake_nwchem.py"


def _fake_command(*extra: str) -> str:
    return " ".join(shlex.quote(p) for p in (sys.executable, str(FAKE_NWCHEM), *extra))


@pytest.fixture
def ctx(qtbot: Any, tmp_path: Path) -> Any:
    yield from water_context(tmp_path / "jobs")


@pytest.fixture
def panel(qtbot: Any, ctx: Any) -> Any:
    return execution_panel(qtbot, ctx)


@pytest.mark.parametrize("edit", ["executable", "basis"])
def test_an_edit_landing_while_the_confirmation_is_open_is_neither_trusted_nor_run(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, edit: str
) -> None:
    from molforma.gui import dialogs

    doc = ctx.document
    shown = _fake_command()
    ops.set_execution(doc, {"executable": shown}, preview=False, actor=Actor.MCP_TOOL)
    assert not doc.is_trusted
    sneaked = _fake_command("--other")
    asked: list[str] = []

    def edit_then_yes(parent: Any, title: str, text: str, buttons: list[str], **kw: Any) -> str:
        asked.append(text)
        # What an MCP thread could do while the person reads the box.
        if edit == "executable":
            ops.set_execution(doc, {"executable": sneaked}, preview=False, actor=Actor.MCP_TOOL)
        else:
            ops.set_nwchem(doc, {"basis": "6-31g*"}, preview=False, actor=Actor.MCP_TOOL)
        return buttons[0]

    monkeypatch.setattr(dialogs, "ask", edit_then_yes)
    trusted_before = dict(doc.trusted)
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert len(asked) == 1 and shown in asked[0]
    assert ctx.jobs.jobs() == []
    assert panel.job is None
    assert doc.trusted == trusted_before  # neither the shown nor the sneaked values
    assert not doc.is_trusted
    message = panel.findChild(object, "jobStatusLabel")
    assert "changed while the confirmation was open" in message.text()


def test_yes_without_an_edit_in_between_runs_the_snapshot_that_was_shown(
    panel: Any, ctx: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from molforma.gui import dialogs

    doc = ctx.document
    ops.set_execution(
        doc,
        {"executable": _fake_command(), "environment": {"FAKE_NWCHEM_DELAY": "0.01"}},
        preview=False,
        actor=Actor.MCP_TOOL,
    )
    monkeypatch.setattr(dialogs, "ask", lambda parent, title, text, buttons, **kw: buttons[0])
    qtbot.mouseClick(panel.findChild(object, "runButton"), Qt.MouseButton.LeftButton)
    assert doc.is_trusted
    assert len(ctx.jobs.jobs()) == 1
    assert panel.job.record["command"][:2] == [sys.executable, str(FAKE_NWCHEM)]


def _tool_call(server: Any, name: str, args: dict[str, Any], qtbot: Any) -> dict[str, Any]:
    """``tools/call`` from another thread (as the MCP thread does) while Qt keeps running."""
    out: dict[str, Any] = {}
    msg = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": args, "_meta": meta()},
    }
    t = threading.Thread(target=lambda: out.update(server.handle(msg)))
    t.start()
    qtbot.waitUntil(lambda: not t.is_alive(), timeout=20000)
    return out["result"]


def test_mcp_document_edits_are_refused_while_a_modal_dialog_is_open_and_reads_still_work(
    make_main_window: Any, qtbot: Any
) -> None:
    from molforma.gui.mcp_host import build_services
    from molforma.mcp.server import Server

    window = make_main_window()
    ctx = window.ctx
    server = Server(build_services(ctx, window, [], False), mode="gui")
    doc = ctx.document
    add = {
        "documentId": doc.id,
        "expectedRevision": doc.revision,
        "preview": False,
        "atoms": [{"element": "He", "position": [0.0, 0.0, 0.0]}],
    }

    box = QMessageBox(window)
    box.setWindowTitle("Run with these settings?")
    box.setWindowModality(Qt.WindowModality.ApplicationModal)
    box.show()
    qtbot.waitUntil(lambda: box.isVisible())
    try:
        revision = doc.revision
        res = _tool_call(server, "add_atoms", add, qtbot)
        assert res["isError"] is True
        err = res["structuredContent"]
        assert err["code"] == "modal_dialog_open"
        assert "Run with these settings?" in err["message"]
        assert err["details"]["title"] == "Run with these settings?"
        assert doc.revision == revision and doc.project["document"]["atoms"] == []
        read = _tool_call(server, "get_document", {"documentId": doc.id}, qtbot)
        assert read["isError"] is False
    finally:
        box.close()
    qtbot.waitUntil(lambda: not box.isVisible())
    res = _tool_call(server, "add_atoms", {**add, "expectedRevision": doc.revision}, qtbot)
    assert res["isError"] is False, res
    assert len(doc.project["document"]["atoms"]) == 1


def test_the_modal_refusal_has_a_japanese_message(qtbot: Any) -> None:
    from molforma.errors import MolFormaError
    from molforma.gui import modal_guard

    box = QMessageBox()
    box.setWindowTitle("確認")
    box.setWindowModality(Qt.WindowModality.ApplicationModal)
    qtbot.addWidget(box)
    box.show()
    qtbot.waitUntil(lambda: box.isVisible())
    with pytest.raises(MolFormaError) as info:
        modal_guard.refuse_edits_behind_modal()
    box.close()
    assert "「確認」" in info.value.message("ja")
    modal_guard.refuse_edits_behind_modal()  # closed: nothing to refuse


def test_every_document_changing_tool_is_checked_against_open_dialogs() -> None:
    from molforma.mcp.tool_registry import DOCUMENT_EDIT_TOOLS, load_tools

    editing = {
        name
        for name, spec in load_tools().items()
        if spec.handler.__module__ == "molforma.mcp.tools.document_tools"
        and not spec.read_only
        and name != "save_file"
    }
    assert editing == DOCUMENT_EDIT_TOOLS
