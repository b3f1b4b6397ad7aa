"""A cancelled job is cancelled everywhere at once: task, get_app_state, job record, next start."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import STAND_IN, TASKS, McpProcess, wait_until
from tests.mcp.test_exit_signals import write_preferences

TASK_CAPS = {"extensions": {TASKS: {}}}
ROUNDS = 4  # the old race showed within one or two rounds


@pytest.fixture
def server(spawn: Any, mcp_env: dict[str, str]) -> McpProcess:
    write_preferences(mcp_env, executable=f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}")
    srv: McpProcess = spawn(env={"FAKE_NWCHEM_MODE": "hang", "FAKE_NWCHEM_DELAY": "0.01"})
    return srv


def _ready(server: McpProcess) -> tuple[str, str]:
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "basis": "sto-3g"},
        },
    )["revision"]
    return doc_id, rev


def _running(server: McpProcess, folder: Path) -> None:
    wait_until((folder / "fake_nwchem.child").exists, 30, 0.02)


def _all_cancelled(server: McpProcess, folder: Path) -> None:
    app = server.ok("get_app_state", {})
    assert app["calculation"]["status"] == "cancelled"
    assert app["calculation"]["jobDirectory"] == str(folder)
    assert app["workers"] == []
    assert json.loads((folder / "job.json").read_text())["status"] == "cancelled"


def test_after_tasks_cancel_everything_says_cancelled_and_a_new_start_is_accepted(
    server: McpProcess,
) -> None:
    doc_id, rev = _ready(server)
    start = {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    for _ in range(ROUNDS):
        res = server.call("calculation", start, caps=TASK_CAPS)
        assert res["resultType"] == "task", res
        folder = Path(server.ok("get_app_state", {})["calculation"]["jobDirectory"])
        _running(server, folder)
        server.result("tasks/cancel", {"taskId": res["taskId"]}, caps=TASK_CAPS)
        _all_cancelled(server, folder)
        task = server.result("tasks/get", {"taskId": res["taskId"]}, caps=TASK_CAPS)
        assert task["status"] == "cancelled"
    # The loop's starts were all accepted; one more shows the last cancel freed the slot.
    assert server.ok("calculation", start)["status"] in ("queued", "running")


def test_after_calculation_cancel_everything_says_cancelled_and_a_new_start_is_accepted(
    server: McpProcess,
) -> None:
    doc_id, rev = _ready(server)
    args = {"documentId": doc_id, "expectedRevision": rev}
    for _ in range(ROUNDS):
        started = server.ok("calculation", {**args, "action": "start"})
        folder = Path(started["jobDirectory"])
        _running(server, folder)
        out = server.ok("calculation", {**args, "action": "cancel"})
        assert out["status"] == "cancelled" and out["job"]["status"] == "cancelled"
        _all_cancelled(server, folder)
