"""Batch jobs over MCP against a real single-node SLURM cluster (tests/slurm_cluster.py).

Each test spawns the real ``molforma --mcp``. The person's trusted choice of the
scheduler (and, where a stand-in replaces NWChem, of the executable) comes from
Preferences, as it does in headless use. The one-minute time-out job is submitted
by a module fixture before the first test, so its minute passes while the others run.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.mcp.conftest import REPO, STAND_IN, TASKS, McpProcess, wait_until

pytestmark = [pytest.mark.slurm, pytest.mark.slow]

TASK_CAPS = {"extensions": {TASKS: {}}}
STAND_IN_EXE = f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}"


def _needs_nwchem() -> None:
    if shutil.which("nwchem") is None:
        pytest.skip("NWChem is not installed")


def _prefs(env: dict[str, str], **prefs: Any) -> None:
    cfg = Path(env["MOLFORMA_CONFIG_DIR"])
    (cfg / "preferences.json").write_text(json.dumps({"scheduler": "slurm", **prefs}))


def _water(
    server: McpProcess, jobs: Path, execution: dict[str, Any] | None = None, **calc: Any
) -> tuple[str, str]:
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g", **calc},
        },
    )["revision"]
    rev = server.ok(
        "set_execution",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"job_root": str(jobs), **(execution or {})},
        },
    )["revision"]
    return doc_id, rev


def _start(server: McpProcess, doc_id: str, rev: str, **kw: Any) -> dict[str, Any]:
    """structuredContent of the start, or the task when ``caps`` declares the extension."""
    args = {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    if "caps" in kw:
        return server.call("calculation", args, **kw)
    return server.ok("calculation", args)


def _calc(server: McpProcess) -> dict[str, Any]:
    return server.ok("get_app_state", {})["calculation"]


def _wait_status(
    server: McpProcess,
    statuses: tuple[str, ...],
    timeout: float = 120,
) -> dict[str, Any]:
    return wait_until(lambda: (c := _calc(server)) and c["status"] in statuses and c, timeout, 0.2)


def _processes_in(folder: Path) -> list[str]:
    """Live processes whose working directory is ``folder`` (NWChem, a stand-in, ranks)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if Path(os.readlink(entry / "cwd")) != folder:
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if state != "Z":
            found.append(f"{entry.name} {cmd}")
    return found


# -- the one-minute time limit, running while the other tests do ---------------------------
@pytest.fixture(scope="module", autouse=True)
def timed_job(
    slurm_cluster: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Any]]:
    """A stand-in that never ends, submitted with a 60 s limit before the module's tests."""
    base = tmp_path_factory.mktemp("timed")
    (base / "config").mkdir()
    (base / "home").mkdir()
    env = {
        **os.environ,
        "MOLFORMA_CONFIG_DIR": str(base / "config"),
        "MOLFORMA_LANGUAGE": "en",
        "HOME": str(base / "home"),
        "FAKE_NWCHEM_MODE": "hang",
        "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    _prefs(env, executable=STAND_IN_EXE)
    server = McpProcess([], env, base)
    try:
        doc_id, rev = _water(server, base / "jobs", {"time_limit": 60, "partition": "short"})
        started = _start(server, doc_id, rev)
        yield {"server": server, "started": started, "t0": time.monotonic()}
    finally:
        if server.proc.poll() is None:
            server.close(15)
        server.release()


# -- tests ---------------------------------------------------------------------------------
@pytest.mark.nwchem
def test_water_scf_is_submitted_followed_to_finished_and_its_results_read(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _needs_nwchem()
    _prefs(mcp_env)
    server = spawn()
    doc_id, rev = _water(server, tmp_path / "jobs", {"partition": "debug", "time_limit": 600})
    listed = server.ok("get_execution", {"documentId": doc_id})
    assert listed["execution"]["scheduler"] == "slurm" and listed["trusted"] is True
    assert listed["cluster"]["reachable"] is True
    parts = {p["name"]: p for p in listed["cluster"]["partitions"]}
    assert set(parts) == {"debug", "short"}
    assert parts["debug"]["default"] is True and parts["short"]["maxTime"] == 60.0
    sc = _start(server, doc_id, rev, caps=TASK_CAPS)
    assert sc["resultType"] == "task"
    first = _calc(server)
    assert first["record"]["scheduler"] == "slurm" and first["record"]["nativeId"]
    assert first["status"] in ("queued", "running", "finished")
    final = _wait_status(server, ("finished", "failed"))
    record = final["record"]
    assert final["status"] == "finished", record
    assert record["schedulerState"] == "COMPLETED" and record["exitCode"] == 0
    assert record["finalEnergy"] == pytest.approx(-74.963, abs=1e-2)
    assert record["survivesExit"] is True and "does not cancel" in record["note"]
    assert record["progress"]["scfIteration"] > 0
    folder = Path(final["jobDirectory"])
    for name in ("input.nw", "project.molforma.json", "job.json", "output.out"):
        assert (folder / name).is_file(), name
    on_disk = wait_until(
        lambda: (r := json.loads((folder / "job.json").read_text()))["status"] == "finished" and r,
        5,
    )
    assert on_disk["nativeId"] == record["nativeId"]
    assert slurm_cluster.job_state(record["nativeId"]) == "COMPLETED"
    res = server.ok(
        "results_action",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "action": "open_directory",
            "path": str(folder),
        },
    )
    assert res["status"] in ("completed", "running")
    summary = wait_until(
        lambda: (
            (s := server.call("get_results", {"documentId": doc_id, "section": "summary"}))[
                "isError"
            ]
            is False
            and s
        ),
        30,
    )
    assert summary["structuredContent"]["summary"]["finalEnergy"] == pytest.approx(
        record["finalEnergy"], abs=1e-6
    )


def test_scheduler_account_and_batch_directives_are_refused_through_mcp_and_the_rest_may_change(
    server: McpProcess, tmp_path: Path, slurm_cluster: Any
) -> None:
    doc_id, rev = server.water()
    for values in ({"scheduler": "slurm"}, {"account": "chem"}, {"batch_directives": ["--mem=4G"]}):
        err = server.err(
            "set_execution",
            {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": values},
        )
        assert err["code"] == "protected_setting", err
        assert err["details"]["setting"] == next(iter(values))
    ex = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert ex["scheduler"] == "local" and ex["account"] is None and ex["batch_directives"] == []
    allowed = {
        "partition": "short",
        "qos": "normal",
        "nodes": 1,
        "tasksPerNode": 2,
        "threads": 2,
        "time_limit": 120,
    }
    server.ok(
        "set_execution",
        {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": allowed},
    )
    ex = server.ok("get_execution", {"documentId": doc_id})["execution"]
    assert {k: ex[k] for k in allowed} == allowed
    # The project file stores the batch settings.
    saved = tmp_path / "w.molforma.json"
    server.ok("save_file", {"documentId": doc_id, "path": str(saved)})
    assert json.loads(saved.read_text())["execution"]["tasksPerNode"] == 2


def test_a_running_batch_job_is_cancelled_and_no_nwchem_of_it_remains(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _needs_nwchem()
    _prefs(mcp_env)
    server = spawn()
    doc_id, rev = _water(server, tmp_path / "jobs", task="optimize+frequencies", basis="cc-pvtz")
    _start(server, doc_id, rev)
    running = _wait_status(server, ("running", "finished", "failed"), 60)
    assert running["status"] == "running", running
    folder = Path(running["jobDirectory"])
    wait_until(lambda: _processes_in(folder), 30)
    sc = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "cancel"}
    )
    assert sc["status"] == "cancelled", sc
    assert sc["job"]["schedulerState"] == "CANCELLED"
    assert slurm_cluster.job_state(sc["job"]["nativeId"]) == "CANCELLED"
    wait_until(lambda: not _processes_in(folder), 15)
    wait_until(lambda: json.loads((folder / "job.json").read_text())["status"] == "cancelled", 20)


@pytest.mark.nwchem
def test_an_input_nwchem_rejects_is_failed_although_the_scheduler_says_completed(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _needs_nwchem()
    _prefs(mcp_env)
    server = spawn()
    doc_id, rev = _water(server, tmp_path / "jobs", basis="no-such-basis")
    _start(server, doc_id, rev)
    final = _wait_status(server, ("finished", "failed"))
    record = final["record"]
    assert final["status"] == "failed", record
    assert record["exitCode"] != 0 and record["error"]
    assert slurm_cluster.job_state(record["nativeId"]) == "COMPLETED"


@pytest.mark.nwchem
def test_two_mpi_processes_run_nwchem_inside_the_allocation(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _needs_nwchem()
    _prefs(mcp_env)
    server = spawn()
    doc_id, rev = _water(server, tmp_path / "jobs", {"nodes": 1, "tasksPerNode": 2})
    _start(server, doc_id, rev)
    final = _wait_status(server, ("finished", "failed"))
    assert final["status"] == "finished", final["record"]
    assert final["record"]["processes"] == 2
    assert final["record"]["command"][:3] == ["mpirun", "-np", "2"]
    out = (Path(final["jobDirectory"]) / "output.out").read_text()
    assert any(line.split() == ["nproc", "=", "2"] for line in out.splitlines())
    info = slurm_cluster.run("scontrol", "show", "job", "-o", final["record"]["nativeId"]).stdout
    assert "NumTasks=2" in info


def test_a_held_job_is_queued_with_the_schedulers_reason_then_tasks_cancel_ends_it_in_the_queue(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _prefs(mcp_env, executable=STAND_IN_EXE, batch_directives=["--begin=now+600"])
    server = spawn()
    doc_id, rev = _water(server, tmp_path / "jobs")
    task = _start(server, doc_id, rev, caps=TASK_CAPS)
    assert task["status"] == "working"
    queued = wait_until(lambda: (c := _calc(server))["record"].get("queueReason") and c, 20)
    assert queued["status"] == "queued"
    assert queued["record"]["queueReason"] == "BeginTime"
    assert queued["record"]["batchDirectives"] == ["--begin=now+600"]
    app = server.ok("get_app_state", {})
    assert [w["status"] for w in app["workers"] if w["kind"] == "calculation"] == ["queued"]
    ack = server.result("tasks/cancel", {"taskId": task["taskId"]}, caps=TASK_CAPS)
    assert ack["resultType"] == "complete"
    ended = _wait_status(server, ("cancelled", "finished", "failed"), 20)
    assert ended["status"] == "cancelled"
    assert slurm_cluster.job_state(ended["record"]["nativeId"]) == "CANCELLED"
    assert not (Path(ended["jobDirectory"]) / "output.out").exists()


def test_sigterm_ends_the_server_but_not_its_batch_job(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _prefs(mcp_env, executable=STAND_IN_EXE)
    server = spawn(env={"FAKE_NWCHEM_MODE": "hang"})
    doc_id, rev = _water(server, tmp_path / "jobs")
    _start(server, doc_id, rev, caps=TASK_CAPS)
    running = _wait_status(server, ("running",), 30)
    native = running["record"]["nativeId"]
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(15)
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    server.release()
    try:
        time.sleep(1.0)  # what a cancel would have done by now
        assert slurm_cluster.job_state(native) == "RUNNING"
        record = json.loads((Path(running["jobDirectory"]) / "job.json").read_text())
        assert record["status"] == "running" and record["survivesExit"] is True
    finally:
        slurm_cluster.run("scancel", native, check=False)


@pytest.mark.nwchem
def test_a_restarted_server_reattaches_to_a_running_batch_job_and_follows_it_to_its_end(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _needs_nwchem()
    _prefs(mcp_env)
    first = spawn()
    jobs = tmp_path / "jobs"
    # About 10 s here: long enough to close the first server while it runs.
    doc_id, rev = _water(first, jobs, task="optimize", basis="cc-pvtz")
    _start(first, doc_id, rev, caps=TASK_CAPS)
    running = _wait_status(first, ("running",), 30)
    native = running["record"]["nativeId"]
    assert first.close(15) == 0  # stdin closed: the batch job is not cancelled
    assert slurm_cluster.job_state(native) == "RUNNING"
    folder = Path(running["jobDirectory"])
    assert json.loads((folder / "job.json").read_text())["status"] == "running"

    second = spawn()
    doc2, rev2 = second.doc()
    second.ok(
        "set_execution",
        {
            "documentId": doc2,
            "expectedRevision": rev2,
            "preview": False,
            "values": {"job_root": str(jobs)},
        },
    )
    attached = wait_until(lambda: (c := _calc(second)) and c, 20)
    assert attached["jobDirectory"] == str(folder)
    assert attached["record"]["nativeId"] == native
    assert attached["status"] in ("running", "finished")
    ended = _wait_status(second, ("finished", "failed", "cancelled"), 90)
    assert ended["status"] == "finished", ended["record"]
    assert ended["record"]["optimizationConverged"] is True
    assert len(ended["record"]["progress"]["energies"]) >= 2  # read from output.out anew
    # The record on disk follows the state in memory within moments.
    wait_until(lambda: json.loads((folder / "job.json").read_text())["status"] == "finished", 20)
    rev2 = second.doc()[1]
    second.ok(
        "results_action",
        {
            "documentId": doc2,
            "expectedRevision": rev2,
            "action": "open_directory",
            "path": str(folder),
        },
    )
    summary = wait_until(
        lambda: (
            (s := second.call("get_results", {"documentId": doc2, "section": "summary"}))["isError"]
            is False
            and s
        ),
        30,
    )
    assert summary["structuredContent"]["summary"]["finalEnergy"] == pytest.approx(
        ended["record"]["finalEnergy"], abs=1e-6
    )


def test_cluster_mistakes_are_refused_with_the_setting_to_change_and_no_job_folder(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, slurm_cluster: Any
) -> None:
    _prefs(mcp_env, executable=STAND_IN_EXE)
    server = spawn()
    jobs = tmp_path / "jobs"
    cases = [
        ({"partition": "gpu"}, "slurm_unknown_partition", "partition"),
        ({"partition": "short", "time_limit": 600}, "slurm_time_limit_too_long", "time_limit"),
        ({"partition": "debug", "nodes": 3}, "slurm_submit_refused", "nodes"),
    ]
    doc_id, rev = _water(server, jobs)
    for values, code, setting in cases:
        rev = server.ok(
            "set_execution",
            {
                "documentId": doc_id,
                "expectedRevision": rev,
                "preview": False,
                "values": {"nodes": 1, **values},
            },
        )["revision"]
        err = server.err(
            "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
        )
        assert err["code"] == code, err
        assert setting in (err["details"].get("setting"), *err["details"].get("settings", []))
        assert setting in err["message"]
        assert not jobs.exists() or list(jobs.iterdir()) == [], list(jobs.iterdir())
    # A cluster that does not answer, and one that is not installed.
    down = spawn(env={"SLURM_CONF": str(slurm_cluster.unreachable_conf())})
    doc_id, rev = _water(down, jobs)
    err = down.err(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert err["code"] == "slurm_unreachable" and "scheduler" in err["message"]
    assert down.ok("get_execution", {"documentId": doc_id})["cluster"]["reachable"] is False
    bare = tmp_path / "bin"
    bare.mkdir()
    none = spawn(env={"PATH": str(bare)})
    doc_id, rev = _water(none, jobs)
    err = none.err(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    assert err["code"] == "slurm_not_installed" and "scheduler" in err["message"]
    assert not jobs.exists() or list(jobs.iterdir()) == []


def test_a_one_minute_time_limit_ends_a_longer_job_as_timed_out(
    timed_job: dict[str, Any], slurm_cluster: Any
) -> None:
    server = timed_job["server"]
    started = timed_job["started"]
    folder = Path(started["jobDirectory"])
    final = _wait_status(
        server,
        ("finished", "failed", "cancelled", "timed_out"),
        max(5.0, 150 - (time.monotonic() - timed_job["t0"])),
    )
    assert final["status"] == "timed_out", final["record"]
    assert final["record"]["schedulerState"] == "TIMEOUT"
    assert slurm_cluster.job_state(final["record"]["nativeId"]) == "TIMEOUT"
    assert final["record"]["timeLimit"] == 60
    wait_until(lambda: not _processes_in(folder), 15)
