"""2025-11-25 connections whose client declared elicitation are asked with
``elicitation/create`` (docs/reference/mcp.md, Elicitation): ``save_file`` onto an existing file and
the message boxes of the window's commands. Raw JSON-RPC lines against the real
``molforma --mcp`` / ``--mcp-gui``; the official SDK client in test_sdk_interop.py.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from molforma.mcp.bridge import DialogInfo
from molforma.mcp.client_requests import ClientRequests, DialogElicitor
from tests.mcp.conftest import LEGACY, WATER, WATER_BONDS, McpProcess, wait_until

FORM = {"elicitation": {"form": {}}}
GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}


def _legacy(server: McpProcess, caps: dict[str, Any]) -> None:
    server.result(
        "initialize",
        {
            "protocolVersion": LEGACY,
            "capabilities": caps,
            "clientInfo": {"name": "t", "version": "1"},
        },
        modern=False,
    )
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def _ok(server: McpProcess, name: str, args: dict[str, Any]) -> dict[str, Any]:
    res = server.call(name, args, modern=False)
    assert res["isError"] is False, res
    return res["structuredContent"]


def _water(server: McpProcess) -> tuple[str, str]:
    doc = _ok(server, "list_documents", {})["documents"][0]
    s = _ok(
        server,
        "add_atoms",
        {
            "documentId": doc["documentId"],
            "expectedRevision": doc["revision"],
            "atoms": WATER,
            "bonds": WATER_BONDS,
            "preview": False,
        },
    )
    return doc["documentId"], s["revision"]


def _send_save(server: McpProcess, doc_id: str, target: Path, **extra: Any) -> int:
    rid = server.next_id()
    server.send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {
                "name": "save_file",
                "arguments": {"documentId": doc_id, "path": str(target), **extra},
            },
        }
    )
    return rid


def _answer(server: McpProcess, ask: dict[str, Any], result: dict[str, Any]) -> None:
    server.send({"jsonrpc": "2.0", "id": ask["id"], "result": result})


def _reply(server: McpProcess, rid: int, timeout: float = 30) -> dict[str, Any]:
    msg = server.recv(timeout)
    assert msg.get("id") == rid and "result" in msg, msg
    return msg["result"]


@pytest.fixture
def legacy(spawn: Any, tmp_path: Path) -> tuple[McpProcess, str, Path]:
    """A legacy connection declaring form elicitation, water, and an existing file."""
    server = spawn()
    _legacy(server, FORM)
    doc_id, _ = _water(server)
    target = tmp_path / "water.molforma.json"
    target.write_text("old content\n")
    return server, doc_id, target


def test_the_question_is_an_elicitation_request_and_accept_overwrites(legacy):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    ask = server.recv()
    assert ask["jsonrpc"] == "2.0" and ask["method"] == "elicitation/create"
    assert "id" in ask and ask["id"] != rid and isinstance(ask["id"], str | int)
    params = ask["params"]
    assert params["mode"] == "form" and str(target) in params["message"]
    schema = params["requestedSchema"]
    assert schema["type"] == "object" and schema["required"] == ["overwrite"]
    assert schema["properties"]["overwrite"]["type"] == "boolean"
    assert target.read_text() == "old content\n"  # nothing written before the answer
    _answer(server, ask, {"action": "accept", "content": {"overwrite": True}})
    res = _reply(server, rid)
    assert res["isError"] is False and res["structuredContent"]["overwritten"] is True
    assert json.loads(target.read_text())["format"] == "molforma-project"


def test_a_response_with_an_unknown_id_is_ignored_and_the_call_still_waits(legacy):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    ask = server.recv()
    for other in ("molforma-999", 424242, f"{ask['id']}x"):
        server.send(
            {
                "jsonrpc": "2.0",
                "id": other,
                "result": {"action": "accept", "content": {"overwrite": True}},
            }
        )
    assert server.no_message(0.8)  # neither answered nor taken as the person's yes
    assert target.read_text() == "old content\n"
    # A ping while the call waits for the person is answered at once.
    server.send({"jsonrpc": "2.0", "id": "p1", "method": "ping"})
    assert server.recv() == {"jsonrpc": "2.0", "id": "p1", "result": {}}
    _answer(server, ask, {"action": "decline"})
    res = _reply(server, rid)
    assert res["isError"] is True and res["structuredContent"]["code"] == "overwrite_declined"
    assert target.read_text() == "old content\n"


@pytest.mark.parametrize("action", ["decline", "cancel"])
def test_a_decline_stands_until_the_document_changes(legacy, action: str):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    _answer(server, server.recv(), {"action": action})
    res = _reply(server, rid)
    assert res["isError"] is True and res["structuredContent"]["code"] == "overwrite_declined"
    assert target.read_text() == "old content\n"
    # The agent cannot go around the person with overwrite: true.
    res = server.call(
        "save_file", {"documentId": doc_id, "path": str(target), "overwrite": True}, modern=False
    )
    assert res["isError"] is True and res["structuredContent"]["code"] == "overwrite_declined"
    assert "overwrite: true" in res["structuredContent"]["message"]
    assert target.read_text() == "old content\n"
    # After a change of the document the file may be saved over again.
    rev = _ok(server, "list_documents", {})["documents"][0]["revision"]
    _ok(
        server,
        "set_molecule",
        {"documentId": doc_id, "expectedRevision": rev, "title": "changed", "preview": False},
    )
    done = _ok(server, "save_file", {"documentId": doc_id, "path": str(target), "overwrite": True})
    assert done["overwritten"] is True and "changed" in target.read_text()


def test_after_a_decline_the_person_may_be_asked_again(legacy):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    _answer(server, server.recv(), {"action": "decline"})
    assert _reply(server, rid)["isError"] is True
    rid = _send_save(server, doc_id, target)
    ask = server.recv()
    assert ask["method"] == "elicitation/create"
    _answer(server, ask, {"action": "accept", "content": {"overwrite": True}})
    assert _reply(server, rid)["isError"] is False
    assert json.loads(target.read_text())["format"] == "molforma-project"


@pytest.mark.parametrize(
    "answer",
    [
        {"action": "accept", "content": {"overwrite": False}},
        {"action": "accept", "content": {"overwrite": "true"}},
        {"action": "accept"},
    ],
)
def test_only_an_accept_with_a_real_true_overwrites(legacy, answer: dict[str, Any]):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    _answer(server, server.recv(), answer)
    res = _reply(server, rid)
    assert res["isError"] is True and res["structuredContent"]["code"] == "overwrite_declined"
    assert target.read_text() == "old content\n"


@pytest.mark.parametrize(
    "response",
    [
        {"error": {"code": -32603, "message": "no person here"}},
        {"result": {"action": "maybe"}},
        {"result": "yes"},
    ],
)
def test_an_error_or_a_malformed_answer_writes_nothing(legacy, response: dict[str, Any]):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    ask = server.recv()
    server.send({"jsonrpc": "2.0", "id": ask["id"], **response})
    res = _reply(server, rid)
    assert res["isError"] is True
    assert res["structuredContent"]["code"] == "overwrite_unanswered"
    assert target.read_text() == "old content\n"


def test_eof_while_waiting_for_the_person_ends_the_process_promptly(legacy):
    server, doc_id, target = legacy
    _send_save(server, doc_id, target)
    assert server.recv()["method"] == "elicitation/create"
    t0 = time.monotonic()
    assert server.close(10) == 0
    assert time.monotonic() - t0 < 2.0
    assert target.read_text() == "old content\n"


def test_sigterm_while_waiting_for_the_person_ends_the_process_at_once(legacy):
    server, doc_id, target = legacy
    _send_save(server, doc_id, target)
    assert server.recv()["method"] == "elicitation/create"
    t0 = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(10) == 143
    # Not the exit_signals fallback (1.5 s): the wait itself ended.
    assert time.monotonic() - t0 < 1.2
    assert server.close(5) == 143
    assert target.read_text() == "old content\n"


def test_a_cancelled_call_withdraws_its_question_and_the_server_goes_on(legacy):
    server, doc_id, target = legacy
    rid = _send_save(server, doc_id, target)
    ask = server.recv()
    server.send(
        {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": rid, "reason": "user pressed Esc"},
        }
    )
    withdrawn = server.recv()
    assert withdrawn == {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": ask["id"], "reason": "no longer needed"},
    }
    # A late answer to the withdrawn question changes nothing; the call gets no answer.
    _answer(server, ask, {"action": "accept", "content": {"overwrite": True}})
    assert _ok(server, "list_documents", {})["documents"]
    assert target.read_text() == "old content\n"


@pytest.mark.parametrize("caps", [{}, {"elicitation": {"url": {}}}, {"sampling": {}}])
def test_a_legacy_client_without_form_elicitation_needs_overwrite_true(
    spawn: Any, tmp_path: Path, caps: dict[str, Any]
):
    server = spawn()
    _legacy(server, caps)
    doc_id, _ = _water(server)
    target = tmp_path / "water.molforma.json"
    target.write_text("old\n")
    res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, modern=False)
    assert res["isError"] is True and res["structuredContent"]["code"] == "file_exists"
    assert target.read_text() == "old\n"
    done = _ok(server, "save_file", {"documentId": doc_id, "path": str(target), "overwrite": True})
    assert done["overwritten"] is True


def test_modern_requests_on_a_legacy_process_keep_mrtr(legacy):
    server, doc_id, target = legacy
    res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, caps=FORM)
    assert res["resultType"] == "input_required"
    assert server.no_message(0.3)  # no elicitation/create for a modern request


def test_a_mrtr_decline_also_stands_against_overwrite_true(server: McpProcess, tmp_path: Path):
    doc_id, _ = server.water()
    target = tmp_path / "water.molforma.json"
    target.write_text("old\n")
    res = server.call("save_file", {"documentId": doc_id, "path": str(target)}, caps=FORM)
    done = server.call(
        "save_file",
        {"documentId": doc_id, "path": str(target)},
        caps=FORM,
        extra={
            "requestState": res["requestState"],
            "inputResponses": {"overwrite": {"action": "decline"}},
        },
    )
    assert done["structuredContent"]["code"] == "overwrite_declined"
    err = server.err("save_file", {"documentId": doc_id, "path": str(target), "overwrite": True})
    assert err["code"] == "overwrite_declined"
    assert target.read_text() == "old\n"


# -- the channel itself (in process) ---------------------------------------------------------
def test_a_question_nobody_answers_times_out_and_is_withdrawn():
    sent: list[dict[str, Any]] = []
    channel = ClientRequests(lambda m: sent.append(m) or True)
    t0 = time.monotonic()
    assert channel.ask("elicitation/create", {"message": "?"}, timeout=0.2) is None
    assert 0.15 < time.monotonic() - t0 < 2.0
    assert sent[0]["method"] == "elicitation/create"
    assert sent[1] == {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": sent[0]["id"], "reason": "no longer needed"},
    }
    # Its late answer is not ours any more.
    assert channel.on_response({"jsonrpc": "2.0", "id": sent[0]["id"], "result": {}}) is False


def test_eof_ends_every_wait_at_once_and_nothing_more_is_asked():
    sent: list[dict[str, Any]] = []
    channel = ClientRequests(lambda m: sent.append(m) or True)
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(channel.ask("elicitation/create", {})))
    t.start()
    wait_until(lambda: sent, 5, 0.01)
    channel.close()
    t.join(2)
    assert not t.is_alive() and out == [None]
    assert len(sent) == 1  # no cancellation written after EOF
    assert channel.begin("elicitation/create", {}) is None


class _FakeBridge:
    def __init__(self, dialogs: list[DialogInfo]) -> None:
        self.open = dialogs
        self.pressed: list[tuple[str, str | None]] = []

    def dialogs(self) -> list[DialogInfo]:
        return list(self.open)

    def answer(self, dialog_id: str, button: str | None) -> bool:
        self.pressed.append((dialog_id, button))
        self.open = [d for d in self.open if d.id != dialog_id]
        return True


def test_only_message_boxes_of_this_connections_commands_are_asked():
    sent: list[dict[str, Any]] = []
    channel = ClientRequests(lambda m: sent.append(m) or True)
    box = DialogInfo(
        id="dialog-1",
        kind="message",
        title="Move to trash",
        text="Sure?",
        buttons=("Move to trash", "Cancel"),
        escape="Cancel",
        command_id="cmd-1",
    )
    by_hand = DialogInfo(
        id="dialog-2",
        kind="message",
        title="About",
        text="x",
        buttons=("OK",),
        escape="OK",
        command_id=None,
    )
    other = DialogInfo(
        id="dialog-3",
        kind="message",
        title="Q",
        text="x",
        buttons=("OK",),
        escape="OK",
        command_id="cmd-9",
    )
    files = DialogInfo(id="dialog-4", kind="file", title="Open", text="", command_id="cmd-1")
    bridge = _FakeBridge([box, by_hand, other, files])
    asker = DialogElicitor(channel, bridge)  # type: ignore[arg-type]
    asker._commands.add("cmd-1")
    asker.poll()
    wait_until(lambda: sent, 5, 0.01)
    time.sleep(0.2)
    assert len(sent) == 1
    params = sent[0]["params"]
    assert params["mode"] == "form" and "Sure?" in params["message"]
    assert params["requestedSchema"]["properties"]["choice"]["enum"] == ["Move to trash", "Cancel"]
    channel.on_response({"jsonrpc": "2.0", "id": sent[0]["id"], "result": {"action": "decline"}})
    wait_until(lambda: bridge.pressed, 5, 0.01)
    assert bridge.pressed == [("dialog-1", None)]  # decline presses the Escape button
    channel.close()


# -- the window's registered message boxes -----------------------------------------------------
def _window_command(
    server: McpProcess,
    doc_id: str,
    tool: str,
    args: dict[str, Any],
) -> str:
    rev = _ok(server, "list_documents", {})["documents"][0]["revision"]
    rec = _ok(server, tool, {"documentId": doc_id, "expectedRevision": rev, **args})
    assert rec["status"] == "queued", rec
    return str(rec["commandId"])


def _ended(server: McpProcess, command_id: str) -> dict[str, Any]:
    return wait_until(
        lambda: (
            (r := _ok(server, "get_ui_command", {"commandId": command_id}))["status"]
            in ("done", "failed")
            and r
        ),
        30,
    )


def test_history_move_to_trash_is_asked_through_elicitation_create(spawn: Any, tmp_path: Path):
    pytest.importorskip("PySide6")
    from tests.mcp.conftest import FIXTURES

    server = spawn(
        str(FIXTURES / "water_opt-000.xyz"),
        env={**GUI_ENV, "XDG_DATA_HOME": str(tmp_path / "xdg")},
        flag="--mcp-gui",
    )
    _legacy(server, FORM)
    doc = _ok(server, "list_documents", {})["documents"][0]
    doc_id = doc["documentId"]
    root = tmp_path / "jobs"
    root.mkdir()
    _ok(
        server,
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": doc["revision"],
            "preview": False,
            "values": {"job_root": str(root)},
        },
    )
    rev = _ok(server, "list_documents", {})["documents"][0]["revision"]
    folder = Path(
        _ok(
            server,
            "calculation",
            {"documentId": doc_id, "expectedRevision": rev, "action": "save_inputs"},
        )["jobDirectory"]
    )
    assert folder.is_dir()
    _ended(server, _window_command(server, doc_id, "history_action", {"action": "scan"}))
    wait_until(lambda: _ok(server, "get_ui_item", {"target": "historyTable"})["rowCount"] == 1)
    assert (
        _ended(
            server,
            _window_command(server, doc_id, "history_action", {"action": "select", "index": 0}),
        )["status"]
        == "done"
    )

    # The box "Move to trash" goes to the client; a decline presses its Escape button.
    first = _window_command(server, doc_id, "history_action", {"action": "trash"})
    ask = server.recv(30)
    assert ask["method"] == "elicitation/create" and ask["params"]["mode"] == "form"
    assert str(folder) in ask["params"]["message"]
    choices = ask["params"]["requestedSchema"]["properties"]["choice"]["enum"]
    assert len(choices) == 2
    _answer(server, ask, {"action": "decline"})
    assert _ended(server, first)["status"] in ("done", "failed")
    assert folder.is_dir()
    assert _ok(server, "get_ui", {})["activeModal"] is None

    # Asked again, the person picks the first button: the folder goes to the trash.
    second = _window_command(server, doc_id, "history_action", {"action": "trash"})
    ask = server.recv(30)
    assert ask["method"] == "elicitation/create"
    assert ask["params"]["requestedSchema"]["properties"]["choice"]["enum"] == choices
    _answer(server, ask, {"action": "accept", "content": {"choice": choices[0]}})
    assert _ended(server, second)["status"] == "done"
    assert not folder.exists()
    assert (tmp_path / "xdg" / "Trash" / "files" / folder.name).is_dir()
    assert server.close(15) == 0


def test_a_window_client_without_elicitation_answers_boxes_with_ui_activate(spawn: Any):
    pytest.importorskip("PySide6")
    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    _legacy(server, {})
    doc_id = _ok(server, "list_documents", {})["documents"][0]["documentId"]
    opened = _window_command(server, doc_id, "ui_activate", {"target": "molforma.help.about"})
    modal = wait_until(lambda: _ok(server, "get_ui", {})["activeModal"])
    assert server.no_message(0.5)  # nothing is asked of this client
    _window_command(
        server, doc_id, "ui_activate", {"target": modal["buttonIds"][modal["buttons"][0]]}
    )
    assert _ended(server, opened)["status"] == "done"


def test_a_box_answered_in_the_window_withdraws_its_question(spawn: Any):
    pytest.importorskip("PySide6")
    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    _legacy(server, FORM)
    doc_id = _ok(server, "list_documents", {})["documents"][0]["documentId"]
    opened = _window_command(server, doc_id, "ui_activate", {"target": "molforma.help.about"})
    ask = server.recv(30)
    assert ask["method"] == "elicitation/create" and "MolForma" in ask["params"]["message"]
    modal = _ok(server, "get_ui", {})["activeModal"]
    rev = _ok(server, "list_documents", {})["documents"][0]["revision"]
    rid = server.next_id()
    server.send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {
                "name": "ui_activate",
                "arguments": {
                    "documentId": doc_id,
                    "expectedRevision": rev,
                    "target": modal["buttonIds"][modal["buttons"][0]],
                },
            },
        }
    )
    seen = [server.recv(30), server.recv(30)]
    assert {
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": ask["id"], "reason": "no longer needed"},
    } in seen
    assert any(m.get("id") == rid and "result" in m for m in seen)
    assert _ended(server, opened)["status"] == "done"
    # A late answer to the withdrawn question presses nothing and breaks nothing.
    _answer(server, ask, {"action": "decline"})
    assert _ok(server, "get_ui", {})["activeModal"] is None
