"""NWChem jobs: job folders, running, live progress, cancel and time limit (no Qt).

A job folder (SPEC.md section 5) holds ``input.nw``, the project snapshot
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
import ctypes
import datetime as _dt
import logging
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from molforma.document.model import formula
from molforma.errors import CalculationError, FileAccessError, MolFormaError
from molforma.fileio import (
    atomic_write_text,
    finite_or_none,
    read_text_limited,
    strict_json_dumps,
)
from molforma.i18n import register
from molforma.jobs import STATUSES as STATUSES  # read as runner.STATUSES too
from molforma.jobs import TERMINAL as TERMINAL  # the end states, read as runner.TERMINAL too
from molforma.nwchem.input import input_errors, render_input
from molforma.nwchem.output_patterns import DEGENERATE_SYMMETRY_HINT
from molforma.nwchem.progress import ProgressTracker
from molforma.nwchem.settings import CalculationSettings, ExecutionSettings
from molforma.results.limits import MAX_FILE_BYTES

log = logging.getLogger(__name__)

INPUT_NAME = "input.nw"
OUTPUT_NAME = "output.out"
ERROR_NAME = "error.err"
RECORD_NAME = "job.json"
SNAPSHOT_NAME = "project.molforma.json"
PREFIX = "molforma"
JOB_FORMAT = "molforma-job"
JOB_VERSION = 1
KILL_GRACE = 3.0  # seconds between SIGTERM and SIGKILL
POLL_INTERVAL = 0.1
RECORD_WRITE_INTERVAL = 2.0
FAMILY_SCAN_INTERVAL = 0.5  # how often the job's descendants are looked up
# The longest a cancel waits: the grace period, then SIGKILL until everything ended.
CANCEL_WAIT = KILL_GRACE + 12.0
_TASK_SLUGS = {"optimize+frequencies": "optfreq"}

register(
    {
        "input_invalid": {
            "en": "The calculation cannot run yet: {summary}",
            "ja": "まだ計算を実行できません: {summary}",
        },
        "job_running": {
            "en": "A calculation is already running in {folder}. Stop it or wait for it to end.",
            "ja": "計算がすでに {folder} で実行中です。停止するか終了を待ってください。",
        },
        "bad_command": {
            "en": "The {setting} command '{value}' cannot be used: {reason}",
            "ja": "{setting} のコマンド「{value}」は使えません: {reason}",
        },
        "bad_environment": {
            "en": "Environment variable '{name}' is not valid.",
            "ja": "環境変数「{name}」は不正です。",
        },
        "shutting_down": {
            "en": "MolForma is closing; no new calculation can start.",
            "ja": "MolForma を終了中のため、新しい計算は開始できません。",
        },
    }
)


def _now() -> str:
    """The current time as an ISO 8601 UTC string."""
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _settings(project: Mapping[str, Any]) -> tuple[CalculationSettings, ExecutionSettings]:
    from pydantic import ValidationError as PydanticError

    try:
        calc = CalculationSettings.model_validate(dict(project.get("calculation") or {}))
        execution = ExecutionSettings.model_validate(dict(project.get("execution") or {}))
    except PydanticError as exc:
        err = exc.errors(include_url=False)[0]
        raise CalculationError(
            "bad_setting", block="calculation/execution",
            key=".".join(str(x) for x in err["loc"]), reason=err["msg"],
        ) from exc
    return calc, execution


def _split(setting: str, value: str) -> list[str]:
    try:
        argv = shlex.split(value)
    except ValueError as exc:
        raise CalculationError("bad_command", setting=setting, value=value, reason=str(exc)) from exc
    if not argv:
        raise CalculationError("bad_command", setting=setting, value=value, reason="empty")
    argv[0] = os.path.expanduser(argv[0])
    return argv


def build_command(execution: ExecutionSettings, input_name: str = INPUT_NAME) -> list[str]:
    """The argv of a job: the executable alone for 1 process, else launcher -np N ….

    Raises:
        CalculationError: ``bad_command`` for an empty or unparsable command string.
    """
    exe = _split("executable", execution.executable)
    if execution.processes <= 1:
        return [*exe, input_name]
    launcher = _split("launcher", execution.launcher)
    # No ARMCI_PROGRESS_THREAD by default: it helps only where MPI offers
    # MPI_THREAD_MULTIPLE, and Debian's NWChem 7.0.2 answers it with "progress thread
    # disabled" on every rank. A person who has such a build sets it in the
    # environment table (Open MPI's mpirun passes the environment on to the ranks).
    return [*launcher, "-np", str(execution.processes), *exe, input_name]


def build_environment(execution: ExecutionSettings) -> dict[str, str]:
    """The child's environment: ours, OMP_NUM_THREADS, Open MPI's root switches, then the user's.

    Raises:
        CalculationError: ``bad_environment`` for a name or value the OS cannot take.
    """
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = str(execution.threads)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        # Open MPI refuses to start as root without these (or --allow-run-as-root).
        env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
        env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    for name, value in execution.environment.items():
        if not name or "=" in name or "\0" in name or "\0" in str(value):
            raise CalculationError("bad_environment", name=name)
        env[name] = str(value)
    return env


def job_root(execution: ExecutionSettings) -> Path:
    """The job root with ``~`` expanded (not created)."""
    return Path(os.path.expanduser(execution.job_root))


def _task_slug(task: str) -> str:
    return _TASK_SLUGS.get(task, task)


def _make_folder(root: Path, formula_text: str, task: str) -> Path:
    """Create ``<root>/<YYYYmmdd-HHMMSS>-<formula>-<task>/``, unique with a -2, -3 … suffix."""
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise FileAccessError(path=str(root), reason=exc.strerror or str(exc)) from exc
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{formula_text or 'empty'}-{_task_slug(task)}"
    for n in range(1, 1000):
        folder = root / (base if n == 1 else f"{base}-{n}")
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        except OSError as exc:
            raise FileAccessError(path=str(folder), reason=exc.strerror or str(exc)) from exc
        return folder
    raise FileAccessError(path=str(root / base), reason="no free folder name")


def _check_runnable(project: Mapping[str, Any]) -> None:
    from molforma.jobs.folders import folder_problems

    problems = input_errors(project) + folder_problems(project)
    if problems:
        summary = "; ".join(p["message"] for p in problems)
        raise CalculationError("input_invalid", summary=summary, problems=problems)


class _Prepared:
    """Everything a job needs, computed before any file is written."""

    def __init__(self, project: Mapping[str, Any]) -> None:
        _check_runnable(project)
        self.calc, self.execution = _settings(project)
        self.project = copy.deepcopy(dict(project))
        self.input_text = render_input(self.project, prefix=PREFIX)
        self.command = build_command(self.execution)
        self.env = build_environment(self.execution)
        doc = self.project.get("document") or {}
        self.formula = formula(doc.get("atoms") or [])
        self.title = str(doc.get("title") or "") or self.formula
        self.charge = int(doc.get("charge", 0) or 0)
        self.multiplicity = int(doc.get("multiplicity", 1) or 1)

    def write(self, *, saved_only: bool, extra: Mapping[str, Any] | None = None,
              check_folder: Callable[[Path], None] | None = None) -> tuple[Path, dict[str, Any]]:
        """Make the folder and write input, snapshot and record; no half-written folder.

        ``extra`` adds record fields (a batch job's); ``check_folder`` may refuse the
        folder made, which is then removed.
        """
        folder = _make_folder(job_root(self.execution), self.formula, self.calc.task)
        record = {
            "format": JOB_FORMAT, "version": JOB_VERSION, "id": folder.name,
            "title": self.title, "formula": self.formula,
            "charge": self.charge, "multiplicity": self.multiplicity, "task": self.calc.task,
            "theory": self.calc.theory, "basis": self.calc.basis,
            "functional": self.calc.functional if self.calc.theory == "dft" else None,
            "status": "queued", "createdAt": _now(), "startedAt": None, "finishedAt": None,
            "exitCode": None, "command": list(self.command),
            "processes": self.execution.processes, "threads": self.execution.threads,
            "timeLimit": self.execution.time_limit, "scfConverged": None,
            "optimizationConverged": None, "finalEnergy": None,
            "progress": ProgressTracker().to_dict(), "error": None, "savedOnly": saved_only,
            "scheduler": self.execution.scheduler,
            **(extra or {}),
        }
        try:
            if check_folder is not None:
                check_folder(folder)
            if not saved_only:
                self._make_work_dirs(folder)
            atomic_write_text(folder / INPUT_NAME, self.input_text)
            atomic_write_text(folder / SNAPSHOT_NAME, strict_json_dumps(
                self.project, "The project", indent=2, ensure_ascii=False))
            atomic_write_text(folder / RECORD_NAME, _dump(record))
        except MolFormaError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return folder, record


    def _make_work_dirs(self, folder: Path) -> None:
        """Create the scratch and permanent directories: NWChem stops when they are missing."""
        advanced = self.project.get("advanced") or {}
        for key in ("scratch_dir", "permanent_dir"):
            value = advanced.get(key)
            if not isinstance(value, str) or not value:
                continue
            path = folder / os.path.expanduser(value)  # a relative path is inside the job
            try:
                path.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise FileAccessError(path=str(path), reason=exc.strerror or str(exc)) from exc


def _dump(record: Mapping[str, Any]) -> str:
    # A record is written while a job runs: a NaN energy that NWChem printed must not
    # stop the job's bookkeeping, so it is written as null (JSON has no NaN).
    return strict_json_dumps(finite_or_none(record), "The job record", indent=2,
                             ensure_ascii=False) + "\n"


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
                            self._record["command"], cwd=self.folder, env=self._env,
                            stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                            start_new_session=True, preexec_fn=_END_WITH_US,
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
            status=status, exitCode=rc, finishedAt=_now(),
            scfConverged=t.scf_converged, optimizationConverged=opt,
            finalEnergy=self._final_energy(),
            progress=t.to_dict(), error=error,
        )
        # Ended before listeners hear of it, so one may start the next job at once.
        self._done.set()
        self._notify()

    def _final_energy(self) -> float | None:
        """The final energy as the results reader reads it, so record and results agree.

        The live tracker only sees the rounded ``@`` step lines; the reader knows which
        energy is final (the highest level, the reference geometry of a frequency run).
        """
        from molforma.nwchem.parser import parse_nwchem_output

        fallback = self._tracker.final_energy(str(self._record.get("theory", "")))
        try:
            text = read_text_limited(self.folder / OUTPUT_NAME, MAX_FILE_BYTES)
            energy = parse_nwchem_output(text, source=str(self.folder)).summary.finalEnergy
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
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                      ctypes.c_ulong]
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
