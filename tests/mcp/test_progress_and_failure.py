"""What the server tells while a calculation runs and when NWChem fails (real executable).

- A run NWChem failed ends its task ``completed`` with an ``isError`` result
  (``calculation_failed``, NWChem's own error line, status/folder/exit code), and
  ``get_app_state`` keeps saying ``failed`` with the same error.
- With a ``progressToken`` the task sends ``notifications/progress`` (SCF iteration,
  optimisation step of its maximum, frequency displacement, energy) at most a few times
  a second, the last one always; ``tasks/get`` carries the same text as
  ``statusMessage`` while working. The official SDK client receives progress through
  its progress callback.
- In the window, ``get_app_state`` says which mode the Results tab plays and which
  structure it shows.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import queue
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, STAND_IN, TASKS, McpProcess, meta, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}
GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}


def _stand_in(
    mcp_env: dict[str, str], mode: str, delay: str = "0.05", **extra: str
) -> dict[str, str]:
    """Preferences trusting the stand-in NWChem, and its mode."""
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    exe = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"
    (cfg / "preferences.json").write_text(json.dumps({"executable": exe}))
    return {"FAKE_NWCHEM_MODE": mode, "FAKE_NWCHEM_DELAY": delay, **extra}


def _water(
    server: McpProcess, values: dict[str, Any], advanced: dict[str, Any] | None = None
) -> tuple[str, str]:
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": values},
    )["revision"]
    if advanced:
        rev = server.ok(
            "set_advanced",
            {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": advanced},
        )["revision"]
    return doc_id, rev


def _follow(
    server: McpProcess, doc_id: str, rev: str, token: str | int | None = "p1", timeout: float = 240
) -> dict[str, Any]:
    """Start the calculation as a task and poll it to its end, reading every line.

    Returns the final task, the progress notifications with their arrival times, and
    the status messages ``tasks/get`` gave while working.
    """
    rid = server.next_id()
    params: dict[str, Any] = {
        "name": "calculation",
        "arguments": {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
    }
    params["_meta"] = {**meta(TASK_CAPS), **({"progressToken": token} if token else {})}
    server.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
    notes: list[tuple[float, dict[str, Any]]] = []
    messages: list[str] = []
    task_id: str | None = None
    final: dict[str, Any] | None = None
    last_poll = 0.0
    waiting_poll = False
    end = time.monotonic() + timeout
    while final is None:
        assert time.monotonic() < end, "the task did not end in time"
        if task_id is not None and not waiting_poll and time.monotonic() - last_poll > 0.2:
            server.send(
                {
                    "jsonrpc": "2.0",
                    "id": f"get-{server.next_id()}",
                    "method": "tasks/get",
                    "params": {"taskId": task_id, "_meta": meta(TASK_CAPS)},
                }
            )
            waiting_poll, last_poll = True, time.monotonic()
        try:
            msg = server.recv(0.05)
        except queue.Empty:  # nothing yet
            continue
        if msg.get("method") == "notifications/progress":
            notes.append((time.monotonic(), msg["params"]))
        elif msg.get("id") == rid:
            assert msg["result"]["resultType"] == "task", msg
            task_id = msg["result"]["taskId"]
        elif str(msg.get("id", "")).startswith("get-"):
            waiting_poll = False
            task = msg["result"]
            if task["status"] == "working":
                if task.get("statusMessage"):
                    messages.append(task["statusMessage"])
            else:
                final = task
    # Nothing more for this token once the task ended.
    assert server.no_message(0.6)
    return {"task": final, "notes": notes, "messages": messages}


def _check_notes(notes: list[tuple[float, dict[str, Any]]], token: str | int) -> None:
    assert notes, "no notifications/progress arrived"
    values = [p["progress"] for _, p in notes]
    assert all(p["progressToken"] == token for _, p in notes)
    assert all(b > a for a, b in itertools.pairwise(values)), values
    assert all(isinstance(p.get("message"), str) and p["message"] for _, p in notes)
    last = notes[-1][1]
    assert last["total"] == last["progress"]  # the last one says the work is complete
    # At most 4 a second (the rate limit), with room for the arrival jitter.
    if len(notes) > 2:
        span = notes[-2][0] - notes[0][0]
        assert len(notes) - 2 <= 4 * span + 2, [
            (round(t - notes[0][0], 2), p["message"]) for t, p in notes
        ]


# -- a failed run is an error result --------------------------------------------------------


def test_a_failed_run_ends_the_task_with_an_error_carrying_nwchems_line(spawn, mcp_env):
    server = spawn(env=_stand_in(mcp_env, "crash"))
    doc_id, rev = _water(server, {"task": "energy", "theory": "scf", "basis": "sto-3g"})
    out = _follow(server, doc_id, rev, token=None)
    task = out["task"]
    assert task["status"] == "completed"
    result = task["result"]
    assert result["isError"] is True, result
    err = result["structuredContent"]
    assert err["code"] == "calculation_failed"
    assert "scf energy failed" in err["message"] and "255" in err["message"]
    details = err["details"]
    assert details["status"] == "failed" and details["exitCode"] == 255
    assert details["reason"] == "scf energy failed"
    folder = Path(details["jobDirectory"])
    assert (folder / "output.out").is_file() and details["output"] == str(folder / "output.out")
    assert json.loads(result["content"][0]["text"]) == err
    # get_app_state keeps saying failed, with the same reason.
    calc = server.ok("get_app_state", {})["calculation"]
    assert calc["status"] == "failed" and calc["jobDirectory"] == str(folder)
    assert calc["error"]["code"] == "calculation_failed"
    assert "scf energy failed" in calc["error"]["message"]
    assert "progressMessage" not in calc


def test_a_failed_run_is_reported_in_the_display_language(spawn, mcp_env):
    server = spawn(env={**_stand_in(mcp_env, "crash"), "MOLFORMA_LANGUAGE": "ja"})
    doc_id, rev = _water(server, {"task": "energy", "theory": "scf", "basis": "sto-3g"})
    err = _follow(server, doc_id, rev, token=None)["task"]["result"]["structuredContent"]
    assert err["code"] == "calculation_failed"
    assert "計算が失敗しました" in err["message"] and "scf energy failed" in err["message"]


def test_a_finished_run_stays_a_success_and_cancel_is_not_an_error(spawn, mcp_env):
    server = spawn(env=_stand_in(mcp_env, "converge", "0.01"))
    doc_id, rev = _water(server, {"task": "optimize", "theory": "scf", "basis": "sto-3g"})
    result = _follow(server, doc_id, rev, token=None)["task"]["result"]
    assert result["isError"] is False and result["structuredContent"]["status"] == "finished"
    assert "error" not in server.ok("get_app_state", {})["calculation"]


@pytest.mark.nwchem
def test_real_nwchem_failure_is_an_error_result_with_its_error_line(server: McpProcess):
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    # One SCF iteration cannot converge, and an optimisation stops on it (exit 255).
    doc_id, rev = _water(
        server, {"task": "optimize", "theory": "scf", "basis": "sto-3g"}, {"scf_maxiter": 1}
    )
    out = _follow(server, doc_id, rev, token="fail")
    result = out["task"]["result"]
    assert out["task"]["status"] == "completed" and result["isError"] is True, result
    err = result["structuredContent"]
    assert err["code"] == "calculation_failed"
    line = err["details"]["reason"]
    assert "scf" in line.lower() and "failed" in line.lower(), err
    assert line in err["message"]
    output = Path(err["details"]["output"]).read_text()
    assert line.split(":")[-1].strip() in output  # NWChem's own words, from its output
    assert err["details"]["exitCode"] not in (0, None)
    assert server.ok("get_app_state", {})["calculation"]["status"] == "failed"
    # The last progress note tells the failure too.
    assert out["notes"] and "failed" in out["notes"][-1][1]["message"]


# -- progress ----------------------------------------------------------------------------------


def test_progress_notifications_and_status_message_follow_the_stand_in_run(spawn, mcp_env):
    # Lines come far faster than 4 a second: the notifications must be rate-limited.
    server = spawn(env=_stand_in(mcp_env, "progress", "0.012"))
    doc_id, rev = _water(
        server, {"task": "optimize+frequencies", "theory": "scf", "basis": "sto-3g"}
    )
    out = _follow(server, doc_id, rev, token="tok-7")
    assert out["task"]["result"]["isError"] is False
    notes = out["notes"]
    _check_notes(notes, "tok-7")
    texts = [p["message"] for _, p in notes]
    assert any("SCF iteration" in t for t in texts), texts
    assert any("Optimisation step" in t and "of at most 20" in t for t in texts), texts
    assert any("Eh" in t and "energy -76.0" in t for t in texts), texts
    assert any("frequency displacement" in t and "of 18" in t for t in texts), texts
    assert "finished" in texts[-1]
    # Far fewer notifications than progress lines (about 100 changes).
    assert len(notes) < 40, len(notes)
    # tasks/get carried the same text while working.
    assert out["messages"], "no statusMessage while working"
    assert any(
        m in texts or "SCF iteration" in m or "Optimisation step" in m for m in out["messages"]
    )
    assert any(("SCF iteration" in m or "Optimisation step" in m) for m in out["messages"])


def test_without_a_progress_token_no_notification_is_sent(spawn, mcp_env):
    server = spawn(env=_stand_in(mcp_env, "converge", "0.01"))
    doc_id, rev = _water(server, {"task": "optimize", "theory": "scf", "basis": "sto-3g"})
    out = _follow(server, doc_id, rev, token=None)
    assert out["notes"] == []
    assert out["task"]["result"]["isError"] is False


def test_a_call_without_tasks_sends_its_progress_before_the_answer(spawn, mcp_env):
    """Legacy era (progressToken in params._meta): one note before the immediate answer,
    nothing after it."""
    server = spawn(env=_stand_in(mcp_env, "converge", "0.05"))
    server.send(
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "pytest", "version": "1"},
            },
        }
    )
    assert server.recv()["id"] == 0
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def legacy(name: str, args: dict[str, Any], token: Any = None) -> list[dict[str, Any]]:
        rid = server.next_id()
        params: dict[str, Any] = {"name": name, "arguments": args}
        if token is not None:
            params["_meta"] = {"progressToken": token}
        server.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params})
        got = []
        while True:
            msg = server.recv(30)
            got.append(msg)
            if msg.get("id") == rid:
                return got

    doc_id = legacy("list_documents", {})[-1]["result"]["structuredContent"]["documents"][0][
        "documentId"
    ]
    from tests.mcp.conftest import WATER, WATER_BONDS

    rev = legacy("list_documents", {})[-1]["result"]["structuredContent"]["documents"][0][
        "revision"
    ]
    rev = legacy(
        "add_atoms",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "atoms": WATER,
            "bonds": WATER_BONDS,
            "preview": False,
        },
    )[-1]["result"]["structuredContent"]["revision"]
    got = legacy(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}, token=42
    )
    assert got[-1]["result"]["isError"] is False
    notes = [m for m in got if m.get("method") == "notifications/progress"]
    assert len(notes) == 1 and notes[0]["params"]["progressToken"] == 42
    assert "Calculation" in notes[0]["params"]["message"]
    # Nothing is sent for that request once answered, while the job runs on.
    assert server.no_message(1.0)


def test_a_results_load_task_with_a_progress_token_reports_until_it_ended(server: McpProcess):
    doc_id, rev = server.doc()
    rid = server.next_id()
    server.send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {
                "name": "results_action",
                "arguments": {
                    "documentId": doc_id,
                    "expectedRevision": rev,
                    "action": "open_file",
                    "path": str(FIXTURES / "nh3_planar_scf_freq.out"),
                },
                "_meta": {**meta(TASK_CAPS), "progressToken": "load"},
            },
        }
    )
    notes: list[tuple[float, dict[str, Any]]] = []
    task_id = None
    while task_id is None or not notes or "total" not in notes[-1][1]:
        msg = server.recv(60)
        if msg.get("method") == "notifications/progress":
            notes.append((time.monotonic(), msg["params"]))
        elif msg.get("id") == rid:
            task_id = msg["result"]["taskId"]
    _check_notes(notes, "load")
    assert "Results action" in notes[-1][1]["message"]
    # The last note comes before the task completes (its result follows at once).
    task = wait_until(
        lambda: (
            (t := server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS))["status"]
            != "working"
            and t
        ),
        30,
    )
    assert task["status"] == "completed" and task["result"]["isError"] is False


@pytest.mark.nwchem
@pytest.mark.slow
def test_real_nwchem_water_scf_sends_progress(server: McpProcess):
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    doc_id, rev = _water(server, {"task": "optimize", "theory": "scf", "basis": "sto-3g"})
    out = _follow(server, doc_id, rev, token=99)
    result = out["task"]["result"]
    assert result["isError"] is False and result["structuredContent"]["status"] == "finished"
    _check_notes(out["notes"], 99)
    texts = [p["message"] for _, p in out["notes"]]
    assert any("energy -7" in t and "Eh" in t for t in texts), texts
    assert "finished" in texts[-1] and "energy -74.9" in texts[-1], texts


# -- the official SDK client -----------------------------------------------------------------


async def _sdk_progress(env: dict[str, str], mode: str) -> dict[str, Any]:
    from mcp import Client, StdioServerParameters

    from tests.mcp.conftest import WATER, WATER_BONDS

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "molforma", "--mcp"], env=env
    )
    seen: dict[str, list[tuple[float, float | None, str | None]]] = {"start": [], "cancel": []}

    def collector(key: str) -> Any:
        async def on_progress(progress: float, total: float | None, message: str | None) -> None:
            seen[key].append((progress, total, message))

        return on_progress

    async with Client(params, mode=mode) as client:
        res = await client.call_tool("list_documents", {})
        doc = res.structured_content["documents"][0]
        added = await client.call_tool(
            "add_atoms",
            {
                "documentId": doc["documentId"],
                "expectedRevision": doc["revision"],
                "atoms": WATER,
                "bonds": WATER_BONDS,
                "preview": False,
            },
        )
        rev = added.structured_content["revision"]
        started = await client.call_tool(
            "calculation",
            {"documentId": doc["documentId"], "expectedRevision": rev, "action": "start"},
            progress_callback=collector("start"),
        )
        folder = Path(started.structured_content["jobDirectory"])
        for _ in range(300):  # the stand-in's running child marks it started
            if (folder / "fake_nwchem.child").exists():
                break
            await asyncio.sleep(0.05)
        cancelled = await client.call_tool(
            "calculation",
            {"documentId": doc["documentId"], "expectedRevision": rev, "action": "cancel"},
            progress_callback=collector("cancel"),
        )
        await asyncio.sleep(0.2)  # callbacks run as tasks of the client
    return {"seen": seen, "cancelled": cancelled.structured_content["status"]}


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_sdk_client_receives_progress_through_its_progress_callback(mcp_env, mode: str):
    pytest.importorskip("mcp")
    env = {**mcp_env, **_stand_in(mcp_env, "hang")}
    out = asyncio.run(asyncio.wait_for(_sdk_progress(env, mode), 120))
    assert out["cancelled"] == "cancelled"
    start, cancel = out["seen"]["start"], out["seen"]["cancel"]
    assert start and "Calculation" in (start[0][2] or ""), out
    # The cancel reports the running job, then its end (total == progress).
    assert len(cancel) == 2, out
    assert cancel[1][0] > cancel[0][0]
    assert cancel[1][1] == cancel[1][0] and "cancelled" in (cancel[1][2] or "")


# -- the window's Results tab ----------------------------------------------------------------


@pytest.mark.slow
def test_window_app_state_says_which_mode_plays_and_which_structure_is_shown(spawn):
    pytest.importorskip("PySide6")
    nh3 = FIXTURES / "nh3_planar_scf_freq_vib.molden"
    server = spawn(str(nh3), env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    wait_until(lambda: server.ok("get_app_state", {})["results"][doc_id]["source"], 60)
    results = server.ok("get_app_state", {})["results"][doc_id]
    assert results["playingMode"] is None
    modes = server.ok("get_results", {"documentId": doc_id, "section": "modes"})["items"]
    real = next(m for m in modes if m["frequency"] > 0 and m["hasDisplacements"])
    server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "play_mode",
            "index": real["index"],
        },
    )
    results = server.ok("get_app_state", {})["results"][doc_id]
    assert results["playingMode"] == real["index"] and results["shownStructure"] is None
    server.ok(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "show_structure", "index": 0},
    )
    results = server.ok("get_app_state", {})["results"][doc_id]
    assert results["playingMode"] is None and results["shownStructure"] == 0


@pytest.mark.slow
def test_window_task_with_a_progress_token_reports_until_its_work_ended(spawn):
    """A window command sent as a task with a progressToken (SMILES in the Molecule
    tab's worker) sends notifications/progress; the last one says complete."""
    pytest.importorskip("PySide6")
    server = spawn(env=GUI_ENV, flag="--mcp-gui")
    doc_id, rev = server.doc()
    rid = server.next_id()
    server.send(
        {
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {
                "name": "chemistry",
                "arguments": {
                    "documentId": doc_id,
                    "expectedRevision": rev,
                    "action": "smiles",
                    "smiles": "CCO",
                },
                "_meta": {**meta(TASK_CAPS), "progressToken": "win"},
            },
        }
    )
    notes: list[tuple[float, dict[str, Any]]] = []
    task_id = None
    while task_id is None or not notes or "total" not in notes[-1][1]:
        msg = server.recv(120)
        if msg.get("method") == "notifications/progress":
            notes.append((time.monotonic(), msg["params"]))
        elif msg.get("id") == rid:
            task_id = msg["result"]["taskId"]
    _check_notes(notes, "win")
    task = wait_until(
        lambda: (
            (t := server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS))["status"]
            != "working"
            and t
        ),
        30,
    )
    assert task["status"] == "completed" and task["result"]["isError"] is False, task


def test_a_run_stopped_at_its_time_limit_is_a_timed_out_error(spawn, mcp_env):
    server = spawn(env=_stand_in(mcp_env, "hang"))
    doc_id, rev = _water(server, {"task": "energy", "theory": "scf", "basis": "sto-3g"})
    rev = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"time_limit": 1},
        },
    )["revision"]
    out = _follow(server, doc_id, rev, token="tl")
    result = out["task"]["result"]
    assert result["isError"] is True, result
    err = result["structuredContent"]
    assert err["code"] == "calculation_timed_out" and err["details"]["status"] == "timed_out"
    assert "time limit" in err["message"]
    assert server.ok("get_app_state", {})["calculation"]["error"]["code"] == (
        "calculation_timed_out"
    )
    assert "timed_out" in out["notes"][-1][1]["message"]
