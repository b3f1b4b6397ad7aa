"""A window command's record says what the window did (the real ``molforma --mcp-gui``).

``done`` only when the window did what was asked; ``failed`` with the message the window
showed the person when it refused or nothing happened — never a success with the reason
left in a label.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import (
    FIXTURES,
    GUI_ENV,
    TASK_CAPS,
    McpProcess,
    run_window_command,
    wait_until,
)

pytest.importorskip("PySide6")

WATER = str(FIXTURES / "water_opt-000.xyz")
_run = run_window_command


def _window(spawn: Any, *args: str) -> McpProcess:
    return spawn(*args, env=GUI_ENV, flag="--mcp-gui")


def test_a_smiles_the_window_refuses_fails_with_its_message(spawn: Any) -> None:
    server = _window(spawn, WATER)
    doc_id, rev = server.doc()
    rec = _run(server, "chemistry", {"action": "smiles", "smiles": "C1CC1(("})
    assert rec["status"] == "failed", rec
    assert rec["error"]["code"] == "smiles_invalid"
    assert "C1CC1((" in rec["error"]["message"]
    assert server.doc()[1] == rev
    assert server.ok("get_document", {"documentId": doc_id, "include": []})["hasCandidate"] is False


def test_a_smiles_build_is_done_once_its_candidate_exists(spawn: Any) -> None:
    server = _window(spawn, WATER)
    doc_id, _rev = server.doc()
    rec = _run(server, "chemistry", {"action": "smiles", "smiles": "CCO"}, timeout=120)
    assert rec["status"] == "done", rec
    assert rec["work"]["status"] == "finished"
    d = server.ok("get_document", {"documentId": doc_id, "include": []})
    assert d["hasCandidate"] is True and rec["result"]["revision"] == d["revision"]


def test_a_cleanup_with_nothing_to_change_fails_and_says_so(spawn: Any) -> None:
    server = _window(spawn, WATER)
    first = _run(server, "chemistry", {"action": "cleanup"}, timeout=120)
    assert first["status"] == "done", first
    assert _run(server, "ui_activate", {"target": "confirmButton"})["status"] == "done"
    rev = server.doc()[1]
    again = _run(server, "chemistry", {"action": "cleanup"}, timeout=120)
    assert again["status"] == "failed", again
    assert again["error"]["code"] == "window_no_change"
    assert "already clean" in again["error"]["message"]
    assert server.doc()[1] == rev
    # As a task, the same outcome is an error result.
    doc_id, rev = server.doc()
    res = server.call(
        "chemistry",
        {"documentId": doc_id, "expectedRevision": rev, "action": "cleanup"},
        caps=TASK_CAPS,
    )
    task = wait_until(
        lambda: (
            (t := server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS))["status"]
            == "completed"
            and t
        ),
        120,
    )
    assert task["result"]["isError"] is True
    assert task["result"]["structuredContent"]["code"] == "window_no_change"


def test_run_with_a_job_root_outside_the_allowed_dirs_fails_with_the_reason(
    spawn: Any, tmp_path: Path
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    outside = tmp_path / "outside-jobs"
    seed = _window(spawn, WATER)
    doc_id, rev = seed.doc()
    project = tmp_path / "allowed" / "w.molforma.json"
    seed.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(outside)},
        },
    )
    seed.ok("save_file", {"documentId": doc_id, "path": str(project)})
    seed.close()
    server = _window(spawn, str(project), "--mcp-allow-dir", str(allowed))
    rec = _run(server, "ui_activate", {"target": "runButton"})
    assert rec["status"] == "failed", rec
    assert str(outside) in rec["error"]["message"]
    assert server.ok("get_app_state", {})["calculation"] is None
    assert not outside.exists()


@pytest.mark.parametrize(
    ("target", "value", "code"),
    [
        ("jobRootEdit", "jobs", "job_root_relative"),
        ("qosEdit", "normal\ntouch /tmp/x", "bad_slurm_name"),
        ("processesSpin", 100_000, "ui_bad_value"),
        ("moleculeTitle", "wet\u0000", "bad_title"),
    ],
)
def test_a_value_the_window_does_not_keep_fails_with_the_reason(
    spawn: Any, target: str, value: Any, code: str
) -> None:
    server = _window(spawn, WATER)
    doc_id, rev = server.doc()
    before = server.project(doc_id)
    rec = _run(server, "ui_set_value", {"target": target, "value": value})
    assert rec["status"] == "failed", rec
    assert rec["error"]["code"] == code, rec
    assert server.doc()[1] == rev and server.project(doc_id) == before


def test_a_value_that_is_kept_is_done_and_read_back(spawn: Any, tmp_path: Path) -> None:
    server = _window(spawn, WATER)
    doc_id, _rev = server.doc()
    jobs = tmp_path / "jobs"
    rec = _run(server, "ui_set_value", {"target": "jobRootEdit", "value": str(jobs)})
    assert rec["status"] == "done", rec
    assert rec["result"]["value"] == str(jobs)
    assert server.project(doc_id)["execution"]["job_root"] == str(jobs)


def test_a_tab_page_is_shown_by_activating_it(spawn: Any) -> None:
    server = _window(spawn, WATER)
    for page, key in (
        ("executionTab", "execution"),
        ("historyTab", "history"),
        ("moleculeTab", "molecule"),
    ):
        rec = _run(server, "ui_activate", {"target": page})
        assert rec["status"] == "done", rec
        assert server.ok("get_ui", {"query": "mainTabs"})["currentTab"] == key


def test_a_screenshot_of_the_window_shows_its_open_dialog(spawn: Any) -> None:
    import base64

    server = _window(spawn, WATER)

    def shot() -> bytes:
        res = server.call("capture_screenshot", {})
        image = next(c for c in res["content"] if c["type"] == "image")
        return base64.b64decode(image["data"])

    before = shot()
    doc_id, rev = server.doc()
    server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
    )
    modal = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    during = shot()
    assert during != before
    dialog = server.call("capture_screenshot", {"target": modal["id"]})
    assert dialog["isError"] is False
    _run(server, "ui_activate", {"target": next(iter(modal["buttonIds"].values()))})
    wait_until(lambda: server.ok("get_ui", {})["activeModal"] is None)


def test_a_table_says_which_rows_are_on_screen(spawn: Any) -> None:
    server = _window(spawn, WATER)
    item = server.ok("get_ui_item", {"target": "coordinateTable"})
    assert item["visibleRows"]["first"] == 0 and item["visibleRows"]["last"] >= 0
    on_screen = [r for r in item["rows"] if r["visible"]]
    assert on_screen and all(r["cellRects"][0]["height"] > 0 for r in on_screen)


def test_a_task_cancelled_before_its_command_ran_ends_cancelled(spawn: Any) -> None:
    """Behind an open dialog: a camera command waits and can be cancelled (it never runs);
    an edit is refused at once, and its task says why."""
    server = _window(spawn, WATER)
    doc_id, rev = server.doc()
    server.ok(
        "ui_activate",
        {"documentId": doc_id, "expectedRevision": rev, "target": "molforma.help.about"},
    )
    modal = wait_until(lambda: server.ok("get_ui", {})["activeModal"])
    style = server.ok("get_ui_item", {"target": "moleculeView"})["style"]
    waiting = server.call(
        "view",
        {"documentId": doc_id, "expectedRevision": rev, "action": "style", "style": "sticks"},
        caps=TASK_CAPS,
    )
    assert (
        server.result("tasks/get", {"taskId": waiting["taskId"]}, caps=TASK_CAPS)["status"]
        == "working"
    )
    server.result("tasks/cancel", {"taskId": waiting["taskId"]}, caps=TASK_CAPS)
    assert (
        server.result("tasks/get", {"taskId": waiting["taskId"]}, caps=TASK_CAPS)["status"]
        == "cancelled"
    )
    edit = server.call(
        "ui_set_value",
        {"documentId": doc_id, "expectedRevision": rev, "target": "processesSpin", "value": 3},
        caps=TASK_CAPS,
    )
    done = wait_until(
        lambda: (
            (t := server.result("tasks/get", {"taskId": edit["taskId"]}, caps=TASK_CAPS))["status"]
            != "working"
            and t
        )
    )
    assert done["status"] == "completed" and done["result"]["isError"] is True
    assert done["result"]["structuredContent"]["code"] == "modal_dialog_open"
    _run(server, "ui_activate", {"target": next(iter(modal["buttonIds"].values()))})
    wait_until(lambda: server.ok("get_ui", {})["activeModal"] is None)
    # The cancelled style change never ran; the refused edit changed nothing.
    assert server.ok("get_app_state", {})["pendingGuiCommands"] == []
    assert style != "sticks"
    assert server.ok("get_ui_item", {"target": "moleculeView"})["style"] == style
    assert server.project(doc_id)["execution"]["processes"] == 1


def test_the_window_start_document_job_root_is_inside_the_allowed_dir(
    spawn: Any, tmp_path: Path
) -> None:
    """A first run works: the window's start document runs its jobs where MCP may write."""
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    server = _window(spawn, "--mcp-allow-dir", str(allowed))
    doc_id, _rev = server.doc()
    root = server.ok("get_execution", {"documentId": doc_id})["execution"]["job_root"]
    assert Path(root).expanduser().resolve().is_relative_to(allowed.resolve()), root
    findings = server.ok("validate_document", {"documentId": doc_id})
    assert "job_root_not_allowed" not in str(findings)
