"""The processes of a local job: ended yet, its family, and ending with MolForma (no Qt).

A job's child runs in its own session; :mod:`molforma.jobs.runner` watches it with
these: whether it has ended (left unreaped, so its pid stays ours), every process of
the machine from ``/proc`` (to find the job's descendants), and the ``preexec_fn``
that makes the child get SIGTERM if MolForma dies without cleaning up (Linux).
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path


def _exited(pid: int) -> bool:
    """True once the child ``pid`` has ended; it is left unreaped (a zombie)."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return True
    return info is not None and info.si_pid == pid


def _end_with_us_hook() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes the job's leader get SIGTERM when MolForma dies.

    SIGKILL of MolForma (or a crash) runs none of our clean-up; Linux then sends
    the leader (NWChem, or mpirun, which passes it to every rank) SIGTERM, so no
    calculation keeps running unwatched and History shows the job ``interrupted``.
    The signal comes when the thread that started the child ends: the job's own
    thread, which lives until the job has ended. Resolved here, in the parent, so
    the child only makes one C call between fork and exec.
    """
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    pr_set_pdeathsig = 1
    sigterm = int(signal.SIGTERM)

    def hook() -> None:
        prctl(pr_set_pdeathsig, sigterm, 0, 0, 0)

    return hook


_END_WITH_US = _end_with_us_hook()


def _process_table() -> dict[int, tuple[str, int, int, str]]:
    """Every process as pid -> (state, ppid, session, start time), read from /proc (Linux)."""
    table: dict[int, tuple[str, int, int, str]] = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return table
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            # After the command name: state, ppid, pgrp, session, ..., starttime (22nd).
            table[int(entry.name)] = (fields[0], int(fields[1]), int(fields[3]), fields[19])
        except (OSError, IndexError, ValueError):
            continue
    return table
