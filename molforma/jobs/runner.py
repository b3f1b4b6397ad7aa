"""NWChem jobs: running, live progress, cancel and time limit (no Qt).

A job folder (docs/reference/jobs.md, Job folders; made by :mod:`molforma.jobs.job_setup`) holds ``input.nw``, the project snapshot
``project.molforma.json``, the job record ``job.json`` and, once run,
``output.out`` (NWChem's stdout, written straight to the file so it survives us)
and ``error.err``. The child runs in its own session, so cancelling, a time
limit and :meth:`JobManager.stop_all` can end the whole process group (the MPI
launcher and every rank): SIGTERM first, SIGKILL after a grace period.

Status: ``queued`` → ``running`` → ``finished`` | ``failed`` | ``cancelled`` |
``timed_out``. ``finished`` means the program ended by itself with exit code 0;
whether SCF and the optimisation converged is in ``scfConverged`` and
``optimizationConverged``, read from the output, because exit code 0 alone proves
nothing (NWChem itself exits 255 when the optimiser runs out of steps, which is
``failed``). Folders written by "Save input set" keep ``queued`` with
``savedOnly: true``.
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import logging
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from molforma.errors import MolFormaError
from molforma.fileio import atomic_write_text, read_text_limited
from molforma.i18n import register
from molforma.jobs import STATUSES, TERMINAL
from molforma.jobs.job_setup import (
    ERROR_NAME,
    INPUT_NAME,
    OUTPUT_NAME,
    RECORD_NAME,
    SNAPSHOT_NAME,
    _check_runnable,
    _dump,
    _now,
    _Prepared,
    _task_slug,
    build_command,
    build_environment,
    job_root,
)
from molforma.jobs.processes import _END_WITH_US, _exited, _process_table
from molforma.lazy import lazy_import
from molforma.nwchem.output_patterns import DEGENERATE_SYMMETRY_HINT
from molforma.nwchem.progress import ProgressTracker
from molforma.results.limits import MAX_FILE_BYTES

if TYPE_CHECKING:
    from molforma.nwchem import parser
else:  # imported when a run ends (start-up time): molforma.lazy
    parser = lazy_import("molforma.nwchem.parser")

# The job folder's names and the command a job runs are read from this module too (the
# tests, the window): they are defined in molforma.jobs.job_setup.
__all__ = [
    "ERROR_NAME",
    "INPUT_NAME",
    "OUTPUT_NAME",
    "RECORD_NAME",
    "SNAPSHOT_NAME",
    "STATUSES",
    "TERMINAL",
    "Job",
    "_Prepared",
    "_check_runnable",
    "_now",
    "_task_slug",
    "build_command",
    "build_environment",
    "job_root",
    "stop_running_jobs",
]

log = logging.getLogger(__name__)

KILL_GRACE = 3.0  # seconds between SIGTERM and SIGKILL
POLL_INTERVAL = 0.1
RECORD_WRITE_INTERVAL = 2.0
FAMILY_SCAN_INTERVAL = 0.5  # how often the job's descendants are looked up
# The longest a cancel waits: the grace period, then SIGKILL until everything ended.
CANCEL_WAIT = KILL_GRACE + 12.0

register(
    {
        "job_running": {
            "en": "A calculation is already running in {folder}. Stop it or wait for it to end.",
            "ja": "計算がすでに {folder} で実行中です。停止するか終了を待ってください。",
        },
        "shutting_down": {
            "en": "MolForma is closing; no new calculation can start.",
            "ja": "MolForma を終了中のため、新しい計算は開始できません。",
        },
    }
)


class Job:
    """One calculation in its folder. Thread-safe; its work runs in a background thread.

    A local job (``is_batch`` False) is a child process of this program and ends with
    it; a batch job (:class:`molforma.jobs.batch.BatchJob`) belongs to the cluster.
    """

    is_batch = False

    def __init__(
        self,
        folder: Path,
        record: dict[str, Any],
        env: dict[str, str],
        on_change: Callable[[Job], None] | None = None,
    ) -> None:
        self.id: str = record["id"]
        self.folder: Path = folder
        self._record = record
        self._env = env
        self._on_change = on_change
        self._lock = threading.RLock()
        self._cancel = threading.Event()
        self._done = threading.Event()
        self._proc: subprocess.Popen[bytes] | None = None
        self._reaped = False
        self._family: dict[int, str] = {}  # descendants seen: pid -> start time
        self._tracker = ProgressTracker()
        self._thread: threading.Thread | None = None
        self._last_record_write = 0.0

    # -- public --------------------------------------------------------------

    @property
    def status(self) -> str:
        """The current status (one of :data:`STATUSES`)."""
        with self._lock:
            return str(self._record["status"])

    @property
    def record(self) -> dict[str, Any]:
        """A copy of the job record (same as :meth:`snapshot`)."""
        return self.snapshot()

    def snapshot(self) -> dict[str, Any]:
        """A copy of the job record, live progress included."""
        with self._lock:
            return copy.deepcopy(self._record)

    def cancel(self) -> None:
        """Stop the job: SIGTERM to its process group now, SIGKILL after a grace period.

        Returns at once; :meth:`cancel_and_wait` also waits for the end.
        """
        self._cancel.set()
        self._signal(signal.SIGTERM)

    def cancel_and_wait(self, timeout: float = CANCEL_WAIT) -> bool:
        """Cancel and return once every process of the job is gone and the record written.

        What MCP's cancel answers use: when this returns True the status, the record
        on disk and :meth:`JobManager.start`'s "one job at a time" check all agree
        that the job has ended, so a start sent right after the answer is accepted.
        Returns False only if a process outlived SIGKILL for ``timeout`` seconds.
        """
        self.cancel()
        return self.wait(timeout)

    def _signal(self, sig: int) -> None:
        """Signal the job's process group, session and every descendant seen so far.

        Until the runner thread reaps the leader, its pid (= the session and group
        id) cannot be reused, so the signal cannot reach an unrelated process.
        Wider than the group: Open MPI puts each rank in a group of its own, and a
        single NWChem process starts an ``orted`` helper in a new session of its own.
        """
        with self._lock:
            if self._proc is None or self._reaped:
                return
            leader = self._proc.pid
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(leader, sig)
            for pid in self._leftovers():
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, sig)

    def _leftovers(self) -> list[int]:
        """Live processes of the job other than its leader (refreshes what is known)."""
        if self._proc is None:
            return []
        leader = self._proc.pid
        table = _process_table()
        with self._lock:
            family = self._family
            # Children of the leader and of known members, found before the leader ends.
            changed = True
            while changed:
                changed = False
                for pid, (_state, ppid, _sid, start) in table.items():
                    if pid not in family and (ppid == leader or ppid in family):
                        family[pid] = start
                        changed = True
            alive = []
            for pid, (state, _ppid, sid, start) in table.items():
                if pid == leader or state == "Z":
                    continue
                if sid == leader or family.get(pid) == start:
                    alive.append(pid)
            return alive

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job has ended; True when it has."""
        return self._done.wait(timeout)

    def output_tail(self, chars: int = 100_000) -> str:
        """The last ``chars`` characters of ``output.out`` ("" before it exists)."""
        path = self.folder / OUTPUT_NAME
        try:
            with path.open("rb") as fh:
                fh.seek(0, os.SEEK_END)
                size = fh.tell()
                fh.seek(max(0, size - chars * 4))
                data = fh.read()
        except OSError:
            return ""
        return data.decode("utf-8", errors="replace")[-chars:]

    # -- running -------------------------------------------------------------

    def _start_thread(self) -> None:
        with _ACTIVE_LOCK:
            _ACTIVE.add(self)
        self._thread = threading.Thread(target=self._run, name=f"job-{self.id}", daemon=True)
        self._thread.start()

    def _update(self, write: bool = True, notify: bool = True, **changes: Any) -> None:
        with self._lock:
            self._record.update(changes)
            text = _dump(self._record)
        if write:
            self._write_record(text)
        if notify:
            self._notify()

    def _write_record(self, text: str) -> None:
        try:
            atomic_write_text(self.folder / RECORD_NAME, text)
        except MolFormaError as exc:
            # A full disk must not stop the job from being followed and ended.
            log.warning("cannot write the job record of %s: %s", self.id, exc)
        self._last_record_write = time.monotonic()

    def _notify(self) -> None:
        if self._on_change is None:
            return
        try:
            self._on_change(self)
        except Exception:
            log.exception("job change listener failed")

    def _run(self) -> None:
        try:
            self._run_process()
        finally:
            self._done.set()
            with _ACTIVE_LOCK:
                _ACTIVE.discard(self)

    def _run_process(self) -> None:
        out_path = self.folder / OUTPUT_NAME
        err_path = self.folder / ERROR_NAME
        start_error: str | None = None
        # The lock makes "cancelled before start" and "started" exclusive; listeners are
        # called only after it is released (a GUI listener may wait for its own thread).
        with self._lock:
            if not self._cancel.is_set():
                try:
                    with out_path.open("wb") as out, err_path.open("wb") as err:
                        self._proc = subprocess.Popen(
                            self._record["command"],
                            cwd=self.folder,
                            env=self._env,
                            stdin=subprocess.DEVNULL,
                            stdout=out,
                            stderr=err,
                            start_new_session=True,
                            preexec_fn=_END_WITH_US,
                        )
                except OSError as exc:
                    start_error = f"cannot start: {exc.strerror or exc}"
            proc = self._proc
        if proc is None:
            if start_error is not None:
                self._finish("failed", None, error=start_error)
            else:
                self._finish("cancelled", None)
            return
        # pid and host let History tell a job that died with its program from a live one
        self._update(status="running", startedAt=_now(), pid=proc.pid, host=socket.gethostname())
        limit = self._record.get("timeLimit")
        started = time.monotonic()
        reason: str | None = None
        next_scan = time.monotonic() + 0.2
        with out_path.open("rb") as reader:
            pending = b""
            while True:
                pending = self._read_lines(reader, pending)
                if _exited(proc.pid):
                    break
                if time.monotonic() >= next_scan:
                    self._leftovers()
                    next_scan = time.monotonic() + FAMILY_SCAN_INTERVAL
                if reason is None and self._cancel.is_set():
                    reason = "cancelled"
                elif reason is None and limit and time.monotonic() - started > float(limit):
                    reason = "timed_out"
                if reason is not None:
                    self._stop(proc)
                    break
                time.sleep(POLL_INTERVAL)
            # Ranks or helpers left behind by the leader are ended too, before the
            # leader is reaped (its pid keeps the session id reserved). They usually
            # leave by themselves as soon as the leader has gone.
            deadline = time.monotonic() + 1.0
            while self._leftovers() and time.monotonic() < deadline:
                time.sleep(0.02)
            if self._leftovers():
                self._stop(proc)
            with self._lock:
                proc.wait()
                self._reaped = True
            pending = self._read_lines(reader, pending)
            if pending:
                self._feed(pending)
        if reason is None and self._cancel.is_set():
            reason = "cancelled"
        rc = proc.returncode
        status = reason or ("finished" if rc == 0 else "failed")
        self._finish(status, rc)

    def _stop(self, proc: subprocess.Popen[bytes]) -> None:
        """SIGTERM to the session, SIGKILL after the grace period; returns when all ended."""
        pid = proc.pid

        def ended() -> bool:
            return _exited(pid) and not self._leftovers()

        self._signal(signal.SIGTERM)
        deadline = time.monotonic() + KILL_GRACE
        while not ended():
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        else:
            return
        hard_deadline = time.monotonic() + 10.0
        while not ended() and time.monotonic() < hard_deadline:
            self._signal(signal.SIGKILL)
            time.sleep(0.02)

    def _read_lines(self, reader: Any, pending: bytes) -> bytes:
        chunk = reader.read()
        if not chunk:
            return pending
        data: bytes = pending + chunk
        lines = data.split(b"\n")
        changed = False
        for raw in lines[:-1]:
            changed |= self._feed(raw)
        if changed:
            with self._lock:
                self._record["progress"] = self._tracker.to_dict()
                text = _dump(self._record)
            if time.monotonic() - self._last_record_write >= RECORD_WRITE_INTERVAL:
                self._write_record(text)
            self._notify()
        return lines[-1]

    def _feed(self, raw: bytes) -> bool:
        return self._tracker.feed(raw.decode("utf-8", errors="replace"))

    def _finish(self, status: str, rc: int | None, error: str | None = None) -> None:
        t = self._tracker
        task = str(self._record.get("task", ""))
        opt: bool | None = None
        if "optimize" in task and status != "queued":
            opt = bool(t.optimization_converged)
        if error is None:
            error = self._error_text(status, rc, opt)
        self._update(
            notify=False,
            status=status,
            exitCode=rc,
            finishedAt=_now(),
            scfConverged=t.scf_converged,
            optimizationConverged=opt,
            finalEnergy=self._final_energy(),
            progress=t.to_dict(),
            error=error,
        )
        # Ended before listeners hear of it, so one may start the next job at once.
        self._done.set()
        self._notify()

    def _final_energy(self) -> float | None:
        """The final energy as the results reader reads it, so record and results agree.

        The live tracker only sees the rounded ``@`` step lines; the reader knows which
        energy is final (the highest level, the reference geometry of a frequency run).
        """
        fallback = self._tracker.final_energy(str(self._record.get("theory", "")))
        try:
            text = read_text_limited(self.folder / OUTPUT_NAME, MAX_FILE_BYTES)
            energy = parser.parse_nwchem_output(text, source=str(self.folder)).summary.finalEnergy
        except (MolFormaError, OSError, ValueError):
            return fallback
        return fallback if energy is None else energy

    def _error_text(self, status: str, rc: int | None, opt: bool | None) -> str | None:
        t = self._tracker
        if status == "cancelled":
            return "cancelled"
        if status == "timed_out":
            return f"time limit of {self._record.get('timeLimit')} s reached"
        if status == "failed":
            error = t.error or _stderr_error(self.folder / ERROR_NAME) or f"exit code {rc}"
            # The line NWChem ends with ("dft optimize failed") does not say why; this does.
            return f"{error}. {DEGENERATE_SYMMETRY_HINT}" if t.degenerate_symmetry else error
        if t.scf_converged is False:
            return "SCF did not converge"
        if opt is False:
            return "optimization did not converge"
        return None


def _stderr_error(path: Path) -> str | None:
    """The ``ARMCI Error`` reason from NWChem's stderr, if any."""
    try:
        with path.open("rb") as fh:
            text = fh.read(65536).decode("utf-8", errors="replace")
    except OSError:
        return None
    for line in text.splitlines():
        if "ARMCI Error" in line:
            return line.split("ARMCI Error:", 1)[-1].strip().lstrip("0:").strip() or None
    return None


# A safety net for an exit that forgot stop_all(): jobs never outlive the program.
_ACTIVE: set[Job] = set()
_ACTIVE_LOCK = threading.Lock()


def stop_running_jobs(timeout: float = KILL_GRACE + 2.0) -> None:
    """Cancel every running job of the process and wait until each has ended.

    The exit paths call it (program exit, SIGTERM/SIGINT/SIGHUP, the window
    closing): a job ends ``cancelled`` in its record, with no process left. Batch
    jobs are never in this set: they belong to the cluster and go on.
    """
    with _ACTIVE_LOCK:
        jobs = list(_ACTIVE)
    for job in jobs:
        job.cancel()
    deadline = time.monotonic() + timeout
    for job in jobs:
        if not job.wait(max(0.0, deadline - time.monotonic())):
            job._signal(signal.SIGKILL)


@atexit.register
def _stop_everything_at_exit() -> None:
    stop_running_jobs()
