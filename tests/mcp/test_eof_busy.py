"""stdin closing while a slow request is served stops NWChem and ends the process at once.

A SLURM batch job belongs to the cluster: it keeps running (docs/reference/jobs.md, Batch jobs).

docs/reference/cli.md, stdio in the MCP modes: when stdin closes, the process exits within a second (window mode
included), stopping running calculations. The reader thread sees the end of stdin
even while the dispatcher is inside a long request; it used to queue the end behind
that request (and every request queued after it), so the stand-in NWChem kept running
for as long as the requests took. Here the real ``molforma --mcp`` / ``--mcp-gui``
runs the stand-in NWChem, is handed requests that take seconds each (opening an XYZ file
of more atoms than a document holds, refused only once it has been read), and its stdin is
closed.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from molforma.document.envelope import MAX_ATOMS
from tests.mcp.conftest import McpProcess, meta, wait_until
from tests.mcp.test_calculation import _alive, _fake_nwchem_env
from tests.mcp.test_large_documents import water_box
from tests.mcp.test_slurm import STAND_IN_EXE, TASK_CAPS, _prefs, _start, _wait_status, _water

GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}
SLOW_REQUESTS = 6  # a few seconds each: half a minute of work queued


@pytest.fixture(scope="module")
def big_xyz(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An XYZ file just over the document's atom limit: read whole (seconds), then refused
    for its size, so every request is slow and none leaves a candidate behind."""
    path = tmp_path_factory.mktemp("eof") / "big.xyz"
    path.write_text(water_box(MAX_ATOMS + 30_000))
    return path


def _start_stand_in(server: McpProcess) -> list[int]:
    """Start a calculation with the stand-in NWChem; the pids of its two processes."""
    doc_id, rev = server.water()
    rev = server.ok(
        "set_nwchem",
        {
            "documentId": doc_id,
            "expectedRevision": rev,
            "preview": False,
            "values": {"task": "energy", "theory": "scf", "basis": "sto-3g"},
        },
    )["revision"]
    folder = Path(
        server.ok(
            "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
        )["jobDirectory"]
    )
    child = folder / "fake_nwchem.child"
    wait_until(child.exists, 30)
    pids = [
        int(json.loads((folder / "fake_nwchem.info").read_text())["pid"]),
        int(child.read_text()),
    ]
    assert all(_alive(p) for p in pids)
    return pids


def _queue_slow_requests(server: McpProcess, big_xyz: Path) -> None:
    """Send the slow requests, wait until the first is being served, check none is over."""
    doc_id, rev = server.doc()
    slow = []
    for _ in range(SLOW_REQUESTS):
        rid = server.next_id()
        slow.append(rid)
        server.send(
            {
                "jsonrpc": "2.0",
                "id": rid,
                "method": "tools/call",
                "params": {
                    "name": "open_file",
                    "_meta": meta(),
                    "arguments": {
                        "documentId": doc_id,
                        "expectedRevision": rev,
                        "path": str(big_xyz),
                        "preview": True,
                    },
                },
            }
        )
    time.sleep(1.0)  # the first one is being served
    answered = set()
    while not server.lines.empty():
        line = server.lines.get()
        assert line is not None, server.stderr
        answered.add(json.loads(line).get("id"))
    assert slow[-1] not in answered, "the requests were over before stdin closed"


@pytest.mark.parametrize("gui", [False, True], ids=["headless", "window"])
def test_eof_during_a_slow_request_stops_nwchem_and_exits_within_two_seconds(
    spawn: Any, mcp_env: dict[str, str], big_xyz: Path, gui: bool
) -> None:
    if gui:
        pytest.importorskip("PySide6")
    env = _fake_nwchem_env(mcp_env, "hang")
    if gui:
        env.update(GUI_ENV)
    server = spawn(env=env, flag="--mcp-gui" if gui else "--mcp")
    pids = _start_stand_in(server)
    _queue_slow_requests(server, big_xyz)
    try:
        t0 = time.monotonic()
        rc = server.close(60)
        elapsed = time.monotonic() - t0
        gone = [p for p in pids if not _alive(p)]
    finally:
        for p in pids:
            with contextlib.suppress(OSError):
                os.kill(p, signal.SIGKILL)
    assert rc == 0, server.stderr
    assert elapsed < 2.0, (
        server.stderr
    )  # docs/reference/cli.md: one second; the margin is for a busy machine
    assert gone == pids
    assert "Traceback" not in server.stderr


@pytest.mark.slurm
@pytest.mark.slow
def test_eof_during_a_slow_request_ends_the_process_at_once_and_leaves_the_batch_job_running(
    spawn: Any, mcp_env: dict[str, str], tmp_path: Path, big_xyz: Path, slurm_cluster: Any
) -> None:
    _prefs(mcp_env, executable=STAND_IN_EXE)
    server = spawn(env={"FAKE_NWCHEM_MODE": "hang"})
    doc_id, rev = _water(server, tmp_path / "jobs")
    _start(server, doc_id, rev, caps=TASK_CAPS)
    running = _wait_status(server, ("running",), 30)
    native = running["record"]["nativeId"]
    try:
        _queue_slow_requests(server, big_xyz)
        t0 = time.monotonic()
        assert server.close(60) == 0, server.stderr
        assert time.monotonic() - t0 < 2.0, server.stderr
        time.sleep(1.0)  # what a cancel would have done by now
        assert slurm_cluster.job_state(native) == "RUNNING"
        record = json.loads((Path(running["jobDirectory"]) / "job.json").read_text())
        assert record["status"] == "running" and record["survivesExit"] is True
    finally:
        slurm_cluster.run("scancel", native, check=False)
