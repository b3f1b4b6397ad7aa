"""Calculations and results loads headless: tasks, get_app_state, cancel, EOF with no orphans."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import FIXTURES, STAND_IN, TASKS, McpProcess, wait_until

TASK_CAPS = {"extensions": {TASKS: {}}}


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is gone for our purpose.
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def _fake_nwchem_env(mcp_env: dict[str, str], mode: str) -> dict[str, str]:
    """Preferences trusting a stand-in NWChem, and its mode."""
    cfg = Path(mcp_env["MOLFORMA_CONFIG_DIR"])
    exe = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"
    (cfg / "preferences.json").write_text(json.dumps({"executable": exe}))
    return {"FAKE_NWCHEM_MODE": mode, "FAKE_NWCHEM_DELAY": "0.05"}


def _get_task(server: McpProcess, task_id: str) -> dict[str, Any]:
    return server.result("tasks/get", {"taskId": task_id}, caps=TASK_CAPS)


def _wait_task(server: McpProcess, task_id: str, timeout: float = 180) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        t = _get_task(server, task_id)
        return t if t["status"] in ("completed", "failed", "cancelled") else None

    return wait_until(done, timeout, 0.5)


def _water_scf(server: McpProcess, task: str = "optimize") -> tuple[str, str]:
    doc_id, rev = server.water()
    s = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": task, "theory": "scf", "basis": "sto-3g"},
        },
    )
    return doc_id, s["revision"]


@pytest.mark.nwchem
@pytest.mark.slow
def test_real_nwchem_followed_as_a_task_then_results_opened_and_read(server: McpProcess):
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")
    doc_id, rev = _water_scf(server)
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    assert res["resultType"] == "task"
    assert res["status"] == "working" and res["pollIntervalMs"] == 500 and res["ttlMs"] is None
    assert "result" not in res and "requestState" not in res and "task" not in res
    task_id = res["taskId"]
    first = _get_task(server, task_id)  # durable at once
    assert first["resultType"] == "complete" and first["taskId"] == task_id
    app = server.ok("get_app_state", {})
    assert app["calculation"]["status"] in ("queued", "running", "finished")
    final = _wait_task(server, task_id)
    assert final["status"] == "completed"
    result = final["result"]
    assert result["isError"] is False
    sc = result["structuredContent"]
    assert sc["status"] == "finished", sc
    assert sc["app"]["calculation"]["status"] == "finished"
    folder = Path(sc["jobDirectory"])
    assert (folder / "input.nw").is_file() and (folder / "output.out").is_file()
    assert server.ok("get_app_state", {})["calculation"]["status"] == "finished"
    # Open its results as a task as well, then read them.
    _, rev = server.doc()
    load = server.call(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_directory",
            "path": str(folder),
        },
        caps=TASK_CAPS,
    )
    assert load["resultType"] == "task"
    done = _wait_task(server, load["taskId"], 60)
    assert done["status"] == "completed"
    assert done["result"]["structuredContent"]["status"] == "completed"
    assert done["result"]["structuredContent"]["app"]["results"]["source"]
    summary = server.ok("get_results", {"documentId": doc_id, "section": "summary"})
    assert summary["summary"]["finalEnergy"] < -74.0, summary
    energies = server.ok("get_results", {"documentId": doc_id, "section": "energies"})
    assert energies["items"]
    out = server.result(
        "resources/read", {"uri": f"molforma://documents/{doc_id}/calculation/output"}
    )
    assert "NWChem" in out["contents"][0]["text"]
    # The edited document did not change through any of this.
    assert server.doc()[1] == rev


@pytest.mark.nwchem
def test_get_results_after_a_finished_calculation_reads_its_results_loaded_by_themselves(
    server: McpProcess,
):
    doc_id, rev = _water_scf(server, task="energy")
    err = server.err("get_results", {"documentId": doc_id})
    assert err["code"] == "results_none_loaded"
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    done = _wait_task(server, res["taskId"])
    folder = done["result"]["structuredContent"]["jobDirectory"]
    # As in the window, the job's output was loaded when it ended: no open_directory needed.
    page = server.ok("get_results", {"documentId": doc_id, "section": "modes"})
    assert page["source"] == folder and page["items"] == []
    assert server.ok("get_results", {"documentId": doc_id})["source"] == folder


def test_calculation_without_tasks_returns_at_once_and_app_state_shows_the_end(spawn, mcp_env):
    server = spawn(env=_fake_nwchem_env(mcp_env, "converge"))
    doc_id, rev = _water_scf(server)
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert sc["status"] in ("queued", "running")
    assert sc["app"] is None
    app = wait_until(
        lambda: (
            (a := server.ok("get_app_state", {}))["calculation"]["status"] in ("finished", "failed")
            and a
        )
    )
    assert app["calculation"]["status"] == "finished"
    assert app["workers"] == []
    info = json.loads((Path(sc["jobDirectory"]) / "fake_nwchem.info").read_text())
    assert info


def test_tasks_cancel_stops_the_calculation_and_leaves_no_process(spawn, mcp_env):
    server = spawn(env=_fake_nwchem_env(mcp_env, "hang"))
    doc_id, rev = _water_scf(server)
    res = server.call(
        "calculation",
        {"documentId": doc_id, "expectedRevision": rev, "action": "start"},
        caps=TASK_CAPS,
    )
    task_id = res["taskId"]
    folder = Path(server.ok("get_app_state", {})["calculation"]["jobDirectory"])
    child_file = folder / "fake_nwchem.child"
    wait_until(child_file.exists, 30)
    pids = [
        int(json.loads((folder / "fake_nwchem.info").read_text())["pid"]),
        int(child_file.read_text()),
    ]
    assert all(_alive(p) for p in pids)
    assert _get_task(server, task_id)["status"] == "working"
    # Answers for keys the task never asked are ignored: an empty ack, still working.
    upd = server.result(
        "tasks/update",
        {"taskId": task_id, "inputResponses": {"nothing": {"action": "accept", "content": {}}}},
        caps=TASK_CAPS,
    )
    assert upd["resultType"] == "complete" and set(upd) <= {"resultType", "_meta"}
    assert _get_task(server, task_id)["status"] == "working"
    ack = server.result("tasks/cancel", {"taskId": task_id}, caps=TASK_CAPS)
    assert ack["resultType"] == "complete"
    t = _get_task(server, task_id)
    assert t["status"] == "cancelled" and "result" not in t
    wait_until(lambda: not any(_alive(p) for p in pids), 15)
    app = wait_until(
        lambda: (a := server.ok("get_app_state", {}))["calculation"]["status"] == "cancelled" and a,
        15,
    )
    assert app["workers"] == []
    # Cancelling again is an empty ack.
    assert (
        server.result("tasks/cancel", {"taskId": task_id}, caps=TASK_CAPS)["resultType"]
        == "complete"
    )


def test_calculation_cancel_action_stops_a_running_job(spawn, mcp_env):
    server = spawn(env=_fake_nwchem_env(mcp_env, "hang"))
    doc_id, rev = _water_scf(server)
    server.ok("calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"})
    folder = Path(server.ok("get_app_state", {})["calculation"]["jobDirectory"])
    wait_until((folder / "fake_nwchem.child").exists, 30)
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "cancel"}
    )
    assert sc["status"] == "cancelled"
    err = server.err(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "cancel"}
    )
    assert err["code"] == "no_calculation"


def test_eof_with_a_running_calculation_exits_and_leaves_no_orphan(spawn, mcp_env):
    server = spawn(env=_fake_nwchem_env(mcp_env, "hang"))
    doc_id, rev = _water_scf(server)
    server.ok("calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"})
    folder = Path(server.ok("get_app_state", {})["calculation"]["jobDirectory"])
    child_file = folder / "fake_nwchem.child"
    wait_until(child_file.exists, 30)
    pids = [
        int(json.loads((folder / "fake_nwchem.info").read_text())["pid"]),
        int(child_file.read_text()),
    ]
    t0 = time.monotonic()
    assert server.close(15) == 0
    assert time.monotonic() - t0 < 8
    wait_until(lambda: not any(_alive(p) for p in pids), 10)


def test_save_inputs_writes_a_job_folder_without_running(spawn, mcp_env):
    server = spawn()
    doc_id, rev = _water_scf(server, "energy")
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "save_inputs"}
    )
    folder = Path(sc["jobDirectory"])
    assert (folder / "input.nw").is_file()
    assert not (folder / "output.out").exists()
    assert server.ok("get_app_state", {})["calculation"] is None


def test_tasks_methods_need_the_extension_on_the_request(server: McpProcess):
    for method in ("tasks/get", "tasks/cancel", "tasks/update"):
        msg = server.request(method, {"taskId": "x", "inputResponses": {}})
        assert msg["error"]["code"] == -32021
        assert msg["error"]["data"] == {"requiredCapabilities": {"extensions": {TASKS: {}}}}


def test_unknown_task_is_32602(server: McpProcess):
    msg = server.request("tasks/get", {"taskId": "no-such-task"}, caps=TASK_CAPS)
    assert msg["error"]["code"] == -32602
    msg = server.request("tasks/cancel", {"taskId": "no-such-task"}, caps=TASK_CAPS)
    assert msg["error"]["code"] == -32602


def test_results_load_without_tasks_and_a_failed_load_keeps_the_previous(
    server: McpProcess, tmp_path: Path
):
    doc_id, rev = server.doc()
    sc = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_file",
            "path": str(FIXTURES / "water_scf_optfreq.out"),
        },
    )
    assert sc["status"] in ("running", "completed") and sc["app"] is None
    src = wait_until(lambda: server.ok("get_app_state", {})["results"][doc_id]["source"], 60)
    modes = server.ok("get_results", {"documentId": doc_id, "section": "modes"})
    assert modes["items"] and all("frequency" in m for m in modes["items"])
    garbage = tmp_path / "garbage.out"
    garbage.write_bytes(b"\x00\x01 not a result file\n" * 10)
    res = server.call(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_file",
            "path": str(garbage),
        },
        caps=TASK_CAPS,
    )
    done = _wait_task(server, res["taskId"], 60)
    assert done["status"] == "completed"
    out = done["result"]["structuredContent"]
    assert out["status"] == "failed" and out["error"]["code"]
    assert server.ok("get_app_state", {})["results"][doc_id]["source"] == src
    log = server.result("resources/read", {"uri": f"molforma://documents/{doc_id}/results/log"})
    assert "NWChem" in log["contents"][0]["text"]


def test_window_only_results_actions_fail_headless(server: McpProcess):
    doc_id, rev = server.doc()
    err = server.err(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "play_mode", "index": 0},
    )
    assert err["code"] == "window_only_action"


def test_an_animation_group_key_opens_and_reloads(server: McpProcess):
    doc_id, rev = server.doc()
    key = str(FIXTURES / "nh3_planar_scf_freq_anim" / "freq.m-001.s-*.xyz")
    res = server.call(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": key},
        caps=TASK_CAPS,
    )
    done = _wait_task(server, res["taskId"], 60)
    out = done["result"]["structuredContent"]
    assert out["status"] == "completed", out
    assert out["app"]["results"]["kind"] == "animation"
    structures = server.ok("get_results", {"documentId": doc_id, "section": "structures"})
    assert len(structures["items"]) >= 2
    res = server.call(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "reload"},
        caps=TASK_CAPS,
    )
    assert (
        _wait_task(server, res["taskId"], 60)["result"]["structuredContent"]["status"]
        == "completed"
    )


def test_an_animation_group_key_outside_the_allowed_directory_is_refused(spawn, tmp_path):
    server = spawn("--mcp-allow-dir", str(tmp_path))
    doc_id, rev = server.doc()
    key = str(FIXTURES / "nh3_planar_scf_freq_anim" / "freq.m-001.s-*.xyz")
    err = server.err(
        "results_action",
        {"documentId": doc_id, "expectedRevision": rev, "action": "open_file", "path": key},
    )
    assert err["code"] == "path_not_allowed"
