"""History of calculations: scan job folders into rows, preview one, reuse it (no Qt).

The job folders under the job root (and the reference directory) are the truth:
there is no separate database to drift out of date. A *job folder* is a directory
holding ``job.json`` (the record the job runner writes) and/or NWChem files
(``input.nw``, ``output.out``, any ``*.nw`` / ``*.out``) or a project snapshot
``project.molforma.json``. :func:`scan` looks at each root and at its direct
sub-directories (one level deep); symlinked sub-directories are skipped so that a
scan never wanders outside the checked roots. Likewise every file of a job folder is
read only when it is the folder's own regular file, never through a link
(:mod:`molforma.history.jobdir`): the rows, the preview and Reuse show nothing from
outside the folder, whoever asks, since what the window shows an MCP client can read.

Status column. A folder with ``job.json`` shows the record's status, one of the
documented values (docs/reference/jobs.md, States) ``queued``, ``running``, ``finished``, ``failed``, ``cancelled``,
``timed_out``, with three additions made here:

* ``interrupted``: the record says ``queued``/``running`` but the job is dead: its
  recorded ``pid`` (on this host) no longer exists or is a zombie, or, with no usable pid, neither
  ``job.json`` nor the output changed for :data:`STALE_RUNNING_SECONDS`.
* ``saved``: a "Save input set" folder (``savedOnly``) that was never run.
* ``unknown``: the record holds a value this version does not know.

A folder without ``job.json`` (a plain NWChem run, typically in the reference
directory) reads its status from the end of its output: ``finished`` ("Total
times"), ``failed`` (NWChem's error banner, ARMCI/MPI aborts) or ``unknown``.
"""

from __future__ import annotations

import contextlib
import math
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from molforma.background import BackgroundHandle
from molforma.errors import MolFormaError
from molforma.formula import hill_formula
from molforma.history import nwfiles
from molforma.history.jobdir import JobDir, read_quietly
from molforma.history.records import (
    JOB_RECORD,
    PROJECT_SNAPSHOT,
    is_job_folder,
    read_record,
)

# Preview and reuse of one row live in molforma.history.reuse; re-exported here, where
# callers have always found them.
from molforma.history.reuse import final_structure as final_structure
from molforma.history.reuse import job_folder_listing as job_folder_listing
from molforma.history.reuse import open_job_folder as open_job_folder
from molforma.history.reuse import preview as preview
from molforma.history.reuse import reuse as reuse
from molforma.i18n import register
from molforma.jobs import STATUSES

STALE_RUNNING_SECONDS = 6 * 3600.0
SPEC_STATUSES = STATUSES
EXTRA_STATUSES = ("interrupted", "saved", "unknown")
PROGRESS_EVERY = 25  # folders between two progress callbacks

register(
    {
        "history_scan_cancelled": {
            "en": "The history scan was cancelled.",
            "ja": "履歴の走査を取り消しました。",
        },
    }
)


class ScanCancelledError(MolFormaError):
    """The scan was cancelled before it finished."""

    code = "history_scan_cancelled"


class HistoryRow(BaseModel):
    """One row of the history table (one job folder)."""

    folder: str = Field(description="Absolute path of the job folder.")
    date: str = Field(description="ISO 8601 local time: job creation, else the files' time.")
    title: str = Field(description="Job or input title; the folder name when there is none.")
    formula: str = Field(description="Hill formula of the molecule ('' when unknown).")
    task: str = Field(description="energy, optimize, frequencies, optimize+frequencies, ...")
    theory: str = Field(description="scf, dft, mp2, ...")
    basis: str = Field(description="Basis set name(s).")
    status: str = Field(
        description="Job status (docs/reference/jobs.md), or interrupted / saved / unknown."
    )
    finalEnergy: float | None = Field(description="Last total energy in hartree, if any.")
    source: Literal["job", "reference"] = Field(
        description="'job' for a folder with a MolForma job record, else 'reference'."
    )
    functional: str = Field("", description="DFT functional ('' for other theories).")
    charge: int | None = Field(None, description="Molecular charge (None when unknown).")
    multiplicity: int | None = Field(None, description="Spin multiplicity (None when unknown).")
    where: Literal["local", "slurm", "remote", ""] = Field(
        "",
        description="Where the job ran: here, the local SLURM, or a remote cluster over "
        "ssh ('' without a job record).",
    )
    profile: str = Field("", description="The cluster profile of a remote job.")
    host: str = Field("", description="The ssh host of that profile.")
    connectionError: str = Field(
        "", description="The last lost connection to the cluster, while it lasted."
    )
    remoteOnly: list[str] = Field(
        default_factory=list, description="Files left on the cluster (not copied home)."
    )

    @property
    def where_text(self) -> str:
        """``where`` as one word for the CSV: local, slurm or remote:<profile>@<host>."""
        if self.where == "remote":
            return f"remote:{self.profile}@{self.host}"
        return self.where


# -- small helpers ------------------------------------------------------------------------


def _local_iso(ts: float) -> str:
    try:
        return datetime.fromtimestamp(ts).astimezone().isoformat(timespec="seconds")
    except (OverflowError, OSError, ValueError):
        return ""  # a record with an absurd date still gets its row


def _parse_date(value: Any) -> float | None:
    """A timestamp from an ISO 8601 string (naive means local time), else None."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        dt = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    try:
        return dt.timestamp()
    except (OverflowError, OSError, ValueError):
        return None


def _pid_alive(pid: int) -> bool | None:
    """True/False for a POSIX pid; None when it cannot be told (Windows, bad pid)."""
    if sys.platform == "win32" or pid <= 0:
        # os.kill on Windows terminates the process instead of probing it.
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # exists, owned by someone else
    except OSError:
        return None
    # A zombie has ended: its parent (MolForma, killed with SIGKILL) is gone, and an
    # init that does not reap (a container's first process) may keep it listed.
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as fh:
            state = fh.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc (BSD, macOS): kill(0) is all we know
    return state not in ("Z", "X")


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    # json.loads accepts NaN/Infinity, which no JSON client or CSV reader should get.
    return float(value) if math.isfinite(value) else None


_SHORT = 200  # characters of a record's text shown (the record may be anyone's)
_REMOTE_ONLY = 100  # names of files left on the cluster shown


def _where(record: dict[str, Any]) -> dict[str, Any]:
    """Where a job ran, from its record: ``remote`` (profile, host), else the scheduler."""
    remote = record.get("remote")
    if isinstance(remote, dict) and _text(remote.get("profile")):
        kept = record.get("remoteOnly")
        return {
            "where": "remote",
            "profile": _text(remote.get("profile"))[:_SHORT],
            "host": _text(remote.get("host"))[:_SHORT],
            "connectionError": _text(record.get("connectionError"))[: _SHORT * 2],
            "remoteOnly": [n[:_SHORT] for n in kept if isinstance(n, str)][:_REMOTE_ONLY]
            if isinstance(kept, list)
            else [],
        }
    return {"where": "slurm" if record.get("scheduler") == "slurm" else "local"}


def _record_status(record: dict[str, Any], folder: JobDir, names: list[str], now: float) -> str:
    status = _text(record.get("status")).lower()
    if record.get("savedOnly") is True and status in ("", "queued", "saved"):
        return "saved"
    if status not in SPEC_STATUSES:
        return "unknown"
    if status not in ("queued", "running"):
        return status
    if record.get("scheduler") not in (None, "", "local"):
        # A batch job lives in the cluster, may wait in its queue for days, and a later
        # MolForma re-attaches to it: its record's word stands.
        return status
    pid = record.get("pid")
    host = record.get("host")
    same_host = not isinstance(host, str) or not host or host == socket.gethostname()
    if isinstance(pid, int) and not isinstance(pid, bool) and same_host:
        alive = _pid_alive(pid)
        if alive is not None:
            return status if alive else "interrupted"
    touched = [
        t
        for t in (folder.mtime(n) for n in names if n in (JOB_RECORD, "output.out"))
        if t is not None
    ]
    if touched and now - max(touched) > STALE_RUNNING_SECONDS:
        return "interrupted"
    return status


class _Folder:
    """Lazy per-folder reads, so a complete job record costs no other file access."""

    def __init__(self, folder: JobDir, names: list[str]) -> None:
        self.dir = folder
        self.folder = folder.path
        self.names = names
        self.nw, self.out = nwfiles.pick_files(names)
        self._summary: nwfiles.InputSummary | None = None
        self._tail: bytes | None = None

    def path(self, name: str) -> str:
        return os.path.join(self.folder, name)

    @property
    def summary(self) -> nwfiles.InputSummary:
        if self._summary is None:
            text = read_quietly(self.dir, self.nw, nwfiles.read_head, "") if self.nw else ""
            self._summary = nwfiles.summarize_input(text)
        return self._summary

    @property
    def tail(self) -> bytes:
        if self._tail is None:
            self._tail = (
                read_quietly(self.dir, self.out, nwfiles.read_tail, b"") if self.out else b""
            )
        return self._tail

    def energy(self) -> float | None:
        if not self.out:
            return None
        if len(self.tail) < nwfiles.TAIL_BYTES:  # the tail is the whole output
            return nwfiles.last_energy_in(self.tail)
        tail = self.tail
        return read_quietly(  # type: ignore[no-any-return]
            self.dir,
            self.out,
            lambda fh: nwfiles.last_energy(fh, tail=tail),
            None,
        )

    def formula(self) -> str:
        return hill_formula(self.summary.elements)

    def files_time(self) -> float:
        times = [t for t in (self.dir.mtime(n) for n in (self.out, self.nw) if n) if t is not None]
        if not times:
            with contextlib.suppress(OSError):
                times = [os.fstat(self.dir.fd).st_mtime]
        if not times:
            times = [0.0]
        return max(times)


def _whole_number(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value


def _snapshot_spin(folder: JobDir) -> tuple[int | None, int | None]:
    """Charge and multiplicity of a job's project snapshot ((None, None) when unreadable)."""
    data = read_record(folder, PROJECT_SNAPSHOT)  # same size limit and tolerance as a record
    doc = data.get("document") if isinstance(data, dict) else None
    if not isinstance(doc, dict):
        return None, None
    return _whole_number(doc.get("charge", 0)), _whole_number(doc.get("multiplicity", 1))


def _charge_multiplicity(
    f: _Folder, record: dict[str, Any] | None
) -> tuple[int | None, int | None]:
    """From the job record; else the project snapshot (records written before they held
    them); else the NWChem input."""
    if record is not None and "charge" in record and "multiplicity" in record:
        return _whole_number(record.get("charge")), _whole_number(record.get("multiplicity"))
    if PROJECT_SNAPSHOT in f.names:
        charge, mult = _snapshot_spin(f.dir)
        if charge is not None or mult is not None:
            return charge, mult
    if not f.nw:
        return None, None
    return f.summary.charge, f.summary.multiplicity


def _row(job: JobDir, names: list[str], now: float) -> tuple[float, HistoryRow]:
    """The row of one job folder and its sort key (a timestamp)."""
    f = _Folder(job, names)
    folder = job.path
    record = read_record(job) if JOB_RECORD in names else None
    title_fallback = os.path.basename(folder.rstrip(os.sep)) or folder
    charge, multiplicity = _charge_multiplicity(f, record)
    if record is not None:
        ts = None
        for key in ("createdAt", "startedAt", "finishedAt"):
            ts = _parse_date(record.get(key))
            if ts is not None:
                break
        if ts is None:
            ts = job.mtime(JOB_RECORD) or f.files_time()
        status = _record_status(record, job, names, now)
        energy = _number(record.get("finalEnergy"))
        if energy is None and status not in ("queued", "saved"):
            energy = f.energy()
        theory = _text(record.get("theory")) or f.summary.theory
        functional = _text(record.get("functional"))
        if not functional and theory == "dft":
            functional = f.summary.functional
        row = HistoryRow(
            folder=folder,
            date=_local_iso(ts),
            title=_text(record.get("title")) or f.summary.title or title_fallback,
            formula=_text(record.get("formula")) or f.formula(),
            task=_text(record.get("task")) or f.summary.task,
            theory=theory,
            basis=_text(record.get("basis")) or f.summary.basis,
            status=status,
            finalEnergy=energy,
            source="job",
            functional=functional if theory == "dft" else "",
            charge=charge,
            multiplicity=multiplicity,
            **_where(record),
        )
        return ts, row
    ts = f.files_time()
    s = f.summary
    status = nwfiles.status_from_tail(f.tail) if f.out else "unknown"
    row = HistoryRow(
        folder=folder,
        date=_local_iso(ts),
        title=s.title or s.start or (Path(f.nw).stem if f.nw else "") or title_fallback,
        formula=f.formula(),
        task=s.task,
        theory=s.theory,
        basis=s.basis,
        status=status,
        finalEnergy=f.energy(),
        source="reference",
        functional=s.functional if s.theory == "dft" else "",
        charge=charge,
        multiplicity=multiplicity,
    )
    return ts, row


def _candidates(
    root: str, cancel: threading.Event | None = None, guard: Any | None = None
) -> Iterator[tuple[JobDir, str, list[str]]]:
    """The root (when it is a job folder) and its job sub-folders, each open.

    Yields ``(folder, real_path, names)``; a yielded folder is closed when the next one
    is asked for. Sub-folders are never symlinks (those are skipped, and each is opened
    relative to the root with ``O_NOFOLLOW``), so their real path is the root's real
    path plus their name. The root itself is opened through ``guard`` when given.
    """
    try:
        top = JobDir(root, guard)
    except (OSError, MolFormaError):
        return
    with top:
        names = top.names()
        if names is None:
            return
        real_root = os.path.realpath(root)
        if is_job_folder(names):
            yield top, real_root, names
        for name in sorted(names):
            _check_cancel(cancel)  # per entry: a root full of other folders stops at once too
            if not top.is_subdir(name):
                continue
            try:
                sub = JobDir.child(top, name)
            except (OSError, MolFormaError):
                continue
            with sub:
                sub_names = sub.names()
                if sub_names is not None and is_job_folder(sub_names):
                    yield sub, os.path.join(real_root, name), sub_names


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise ScanCancelledError()


def scan(
    roots: list[str],
    *,
    cancel: threading.Event | None = None,
    on_progress: Callable[[int], None] | None = None,
    guard: Any | None = None,
) -> list[HistoryRow]:
    """Rows for the job folders under ``roots``, newest first.

    Each root counts itself (when it is a job folder) and its direct sub-folders.
    Missing or unreadable roots give no rows; a folder reached through two roots
    appears once. Paths are taken as given (``~`` expanded): checking them against
    the allowed directories is the caller's business.

    Args:
        roots: The job root and, usually, the reference directory.
        cancel: Set it from another thread to stop the scan.
        on_progress: Called with the number of folders looked at so far, every
            few folders and once at the end.
        guard: Opens each root (``open_directory``), e.g. MCP's path policy, so a root
            swapped for a link after the caller's check is judged where it really is.

    Raises:
        ScanCancelledError: ``cancel`` was set.
    """
    now = time.time()
    keyed: list[tuple[float, str, HistoryRow]] = []
    seen: set[str] = set()
    count = 0
    for root in roots:
        _check_cancel(cancel)
        if not root or not str(root).strip():
            continue  # an unset reference directory must not mean "the working directory"
        top = os.path.abspath(os.path.expanduser(root))
        for job, real, names in _candidates(top, cancel, guard):
            _check_cancel(cancel)
            if real in seen:
                continue
            seen.add(real)
            ts, row = _row(job, names, now)
            keyed.append((ts, job.path, row))
            count += 1
            if on_progress is not None and count % PROGRESS_EVERY == 0:
                on_progress(count)
    if on_progress is not None:
        on_progress(count)
    keyed.sort(key=lambda k: (k[0], k[1]), reverse=True)
    return [row for _, _, row in keyed]


# -- background scanning --------------------------------------------------------------------

ScanStatus = Literal["running", "finished", "cancelled", "failed"]


class ScanHandle(BackgroundHandle):
    """One background scan: its status, progress, rows or error; cancellable."""

    def __init__(
        self,
        roots: list[str],
        on_done: Callable[[ScanHandle], None] | None = None,
        guard: Any | None = None,
    ) -> None:
        self.roots = list(roots)
        self.guard = guard
        self.status: ScanStatus = "running"
        self.rows: list[HistoryRow] = []
        self.progress = 0
        self.error: MolFormaError | None = None
        super().__init__()
        self._on_done = on_done
        self._state_lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="molforma-history-scan", daemon=True)

    def _set_progress(self, n: int) -> None:
        self.progress = n

    def cancel(self) -> None:
        """Stop the scan: it is ``cancelled`` and done when this returns.

        The answer does not wait for the worker, which may be reading one folder: it
        stops at its next check (one per folder entry) and its rows are dropped.
        """
        with self._state_lock:
            self._cancel.set()
            if not self._done.is_set():
                self.status = "cancelled"
                self._done.set()

    def _end(
        self,
        status: ScanStatus,
        rows: list[HistoryRow] | None = None,
        error: MolFormaError | None = None,
    ) -> None:
        with self._state_lock:
            if self._done.is_set():
                return  # cancelled meanwhile: what the worker found is dropped
            self.rows = rows or []
            self.error = error
            self.status = status
            self._done.set()

    def _run(self) -> None:
        try:
            rows = scan(
                self.roots, cancel=self._cancel, on_progress=self._set_progress, guard=self.guard
            )
        except ScanCancelledError:
            self._end("cancelled")
        except MolFormaError as exc:
            self._end("failed", error=exc)
        except Exception as exc:  # noqa: BLE001 - a worker must report, never die silently
            self._end("failed", error=MolFormaError("error", detail=str(exc)))
        else:
            self._end("finished", rows)
        finally:
            self._end("cancelled")  # no-op unless something above did not end it
            if self._on_done is not None:
                with contextlib.suppress(Exception):
                    self._on_done(self)

    def to_dict(self) -> dict[str, Any]:
        """Status, progress and row count (what ``get_app_state`` shows)."""
        out: dict[str, Any] = {
            "status": self.status,
            "progress": self.progress,
            "rowCount": len(self.rows),
            "roots": list(self.roots),
        }
        if self.error is not None:
            out["error"] = self.error.to_dict()
        return out


class HistoryScanner:
    """Runs scans in a background thread; starting a new scan cancels the previous one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: ScanHandle | None = None

    @property
    def current(self) -> ScanHandle | None:
        """The latest scan, running or ended."""
        return self._current

    def start(
        self,
        roots: list[str],
        on_done: Callable[[ScanHandle], None] | None = None,
        guard: Any | None = None,
    ) -> ScanHandle:
        """Start scanning ``roots``; ``on_done(handle)`` runs on the worker thread at the end.

        ``guard`` opens each root (see :func:`scan`).
        """
        with self._lock:
            if self._current is not None and not self._current.done:
                self._current.cancel()
            handle = ScanHandle(roots, on_done, guard)
            self._current = handle
            handle._thread.start()
            return handle

    def cancel(self) -> None:
        """Cancel the running scan, if any."""
        with self._lock:
            if self._current is not None:
                self._current.cancel()
