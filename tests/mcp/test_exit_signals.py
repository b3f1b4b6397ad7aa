"""Stopping MolForma stops its calculations: SIGTERM, SIGINT, SIGHUP, SIGKILL, --mcp-gui.

Each test spawns the real ``molforma`` (``--mcp`` or ``--mcp-gui`` offscreen), starts a
calculation (the stand-in NWChem, or the real ``nwchem`` alone or under
``mpirun -np 2``), records the server's whole process tree from /proc before the
signal, and checks that every process of it is gone soon after, that the exit
status is ``128 + signum`` and that ``job.json`` says ``cancelled``.
"""

from __future__ import annotations

import contextlib
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

from tests.mcp.conftest import STAND_IN, McpProcess, wait_until

GUI_ENV = {"QT_QPA_PLATFORM": "offscreen", "MOLFORMA_RENDERER": "painter"}
# Slow enough to be cancelled while it runs (tens of seconds), small enough to start at once.
SLOW_WATER = {"task": "frequencies", "theory": "scf", "basis": "aug-cc-pvtz"}

needs_nwchem = pytest.mark.skipif(
    shutil.which("nwchem") is None or shutil.which("mpirun") is None,
    reason="NWChem or mpirun is not installed",
)


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, ppid) of a process from /proc, or None when it does not exist."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def _alive(pid: int) -> bool:
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")  # a zombie has ended


def _descendants(root: int) -> dict[int, str]:
    """Every live descendant of ``root`` as pid -> command name."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            st = _stat(int(entry))
            if st is not None and st[0] not in ("Z", "X"):
                children.setdefault(st[1], []).append(int(entry))
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for pid in children.get(todo.pop(), []):
            if pid not in found:
                try:
                    found[pid] = Path(f"/proc/{pid}/comm").read_text().strip()
                except OSError:
                    found[pid] = "?"
                todo.append(pid)
    return found


@contextlib.contextmanager
def _default_exit_signals() -> Iterator[None]:
    """Spawn with SIGINT/SIGHUP not ignored, whatever the shell that started pytest did."""
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGHUP)}
    try:
        for s, h in saved.items():
            if h == signal.SIG_IGN:
                signal.signal(s, signal.SIG_DFL)
        yield
    finally:
        for s, h in saved.items():
            signal.signal(s, h)


def write_preferences(mcp_env: dict[str, str], **values: Any) -> None:
    """Trusted Preferences of a spawned server, written by MolForma's own writer."""
    from molforma.preferences import Preferences, save_preferences

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MOLFORMA_CONFIG_DIR", mcp_env["MOLFORMA_CONFIG_DIR"])
        save_preferences(Preferences(**values))


def _spawn(spawn: Any, mcp_env: dict[str, str], *, fake: bool, gui: bool = False) -> McpProcess:
    env: dict[str, str] = dict(GUI_ENV) if gui else {}
    if fake:
        write_preferences(mcp_env, executable=f"{sys.executable} {STAND_IN / 'fake_nwchem.py'}")
        env.update(FAKE_NWCHEM_MODE="hang", FAKE_NWCHEM_DELAY="0.05")
    else:
        write_preferences(mcp_env, launcher="mpirun --allow-run-as-root")
    with _default_exit_signals():
        return spawn(env=env, flag="--mcp-gui" if gui else "--mcp")  # type: ignore[no-any-return]


def _start(server: McpProcess, *, fake: bool, processes: int = 1) -> Path:
    """Start a calculation of water; returns its job folder once it is really running."""
    doc_id, rev = server.water()
    values = {"task": "energy", "theory": "scf", "basis": "sto-3g"} if fake else SLOW_WATER
    rev = server.ok(
        "set_nwchem",
        {"documentId": doc_id, "expectedRevision": rev, "preview": False, "values": values},
    )["revision"]
    if processes > 1:
        rev = server.ok(
            "set_execution",
            {
                "documentId": doc_id,
                "expectedRevision": rev,
                "preview": False,
                "values": {"processes": processes},
            },
        )["revision"]
    out = server.ok(
        "calculation", {"documentId": doc_id, "expectedRevision": rev, "action": "start"}
    )
    folder = Path(out["jobDirectory"])
    if fake:
        wait_until((folder / "fake_nwchem.child").exists, 30)
    else:
        # NWChem has read its input and is computing (every rank started).
        wait_until(lambda: "NWChem SCF Module" in _text(folder / "output.out"), 60)
        wait_until(
            lambda: sum(n == "nwchem" for n in _descendants(server.proc.pid).values()) >= processes,
            30,
        )
    return folder


def _closed(server: McpProcess) -> None:
    """Our ends of the pipes of a server that ended by a signal."""
    if server.proc.stdin is not None:
        with contextlib.suppress(OSError):
            server.proc.stdin.close()
    server.release()


def _text(path: Path) -> str:
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


def _status(folder: Path) -> str:
    return str(json.loads((folder / "job.json").read_text())["status"])


def _signal_and_check(server: McpProcess, folder: Path, sig: int, expect: tuple[str, ...]) -> None:
    tree = _descendants(server.proc.pid)
    for name in expect:
        assert name in tree.values(), tree
    assert _status(folder) == "running"
    t0 = time.monotonic()
    server.proc.send_signal(sig)
    try:
        rc = server.proc.wait(5)
        _closed(server)
    finally:
        leftovers = {p: n for p, n in tree.items() if _alive(p)}
        if leftovers:  # do not leave them to the other tests, then fail below
            time.sleep(2)
            for pid in leftovers:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    elapsed = time.monotonic() - t0
    assert rc == 128 + sig, server.stderr
    assert elapsed < 4.0  # measured 0.3-1.2 s; the margin is for a loaded machine
    assert leftovers == {}
    assert not any(_alive(p) for p in tree)
    assert _status(folder) == "cancelled"
    assert "Traceback" not in server.stderr


@pytest.mark.parametrize(
    "sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["SIGTERM", "SIGINT", "SIGHUP"]
)
def test_an_exit_signal_stops_the_calculation_and_its_children_and_records_cancelled(
    spawn: Any, mcp_env: dict[str, str], sig: int
) -> None:
    server = _spawn(spawn, mcp_env, fake=True)
    folder = _start(server, fake=True)
    _signal_and_check(server, folder, sig, ("python",))
    child = int((folder / "fake_nwchem.child").read_text())
    assert not _alive(child)


@pytest.mark.nwchem
@needs_nwchem
def test_sigterm_stops_a_real_mpirun_job_with_two_nwchem_ranks(
    spawn: Any, mcp_env: dict[str, str]
) -> None:
    server = _spawn(spawn, mcp_env, fake=False)
    folder = _start(server, fake=False, processes=2)
    _signal_and_check(server, folder, signal.SIGTERM, ("mpirun", "nwchem"))


@pytest.mark.nwchem
@needs_nwchem
def test_sigterm_of_the_window_server_stops_a_real_nwchem_and_its_orted_helper(
    spawn: Any, mcp_env: dict[str, str]
) -> None:
    pytest.importorskip("PySide6")
    server = _spawn(spawn, mcp_env, fake=False, gui=True)
    folder = _start(server, fake=False)
    # A single NWChem starts Open MPI's orted helper in a session of its own.
    _signal_and_check(server, folder, signal.SIGTERM, ("nwchem", "orted"))


def test_sigint_of_the_window_server_stops_the_stand_in_job(
    spawn: Any, mcp_env: dict[str, str]
) -> None:
    pytest.importorskip("PySide6")
    server = _spawn(spawn, mcp_env, fake=True, gui=True)
    folder = _start(server, fake=True)
    _signal_and_check(server, folder, signal.SIGINT, ("python",))


@pytest.mark.nwchem
@needs_nwchem
def test_after_sigkill_nwchem_ends_with_molforma_and_history_shows_the_job_interrupted(
    spawn: Any, mcp_env: dict[str, str]
) -> None:
    from molforma.history.folder_scan import scan

    server = _spawn(spawn, mcp_env, fake=False)
    folder = _start(server, fake=False)
    tree = _descendants(server.proc.pid)
    assert "nwchem" in tree.values()
    server.proc.send_signal(signal.SIGKILL)
    assert server.proc.wait(5) == -signal.SIGKILL
    _closed(server)
    try:
        wait_until(lambda: not any(_alive(p) for p in tree), 10)
    finally:
        for pid in tree:
            if _alive(pid):
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
    assert _status(folder) == "running"  # nobody could write the end
    (row,) = [r for r in scan([str(folder.parent)]) if Path(r.folder) == folder]
    assert row.status == "interrupted"
