"""Batch jobs on a remote SLURM cluster reached over the system's OpenSSH (no Qt).

A profile whose scheduler is ``pbs`` takes the same path with PBS/Torque's commands
(``qsub``, ``qstat -f``, ``qdel``): only :data:`SYSTEMS` differs between them.

The job folder is made here, as for a local run (``input.nw``, project snapshot,
``job.json``); the job then lives in a folder of its own on the cluster,
``<remote_folder>/<job id>``, where the input and a batch script are copied (scp over
the profile's shared ssh connection, :mod:`molforma.jobs.ssh`) and ``sbatch
--parsable`` submits it. The record keeps ``scheduler: "slurm"``, ``nativeId`` (the
cluster's job id) and ``remote`` (profile, host, remote folder), so a later MolForma
follows the job again from the record alone (:func:`reattach`).

Following: four times a second for the first 30 s, then once a second, one ssh command (a fixed script, the values passed as
its arguments) reads the scheduler's state (``scontrol show job``, else ``sacct``),
the exit code the batch script wrote after NWChem, and what ``output.out`` gained
since the last look. That part is appended to the local ``output.out`` and fed to the
same :class:`~molforma.nwchem.progress.ProgressTracker` as local runs (SCF iteration,
optimisation step, energy). A queued job keeps the scheduler's reason. When the job
ends, its files are copied home (large scratch files stay on the cluster and are
listed in ``remoteOnly``), and the end is judged as for local batch jobs
(:func:`molforma.jobs.batch.judge_end`): NWChem's failure is ``failed`` even when the
scheduler says COMPLETED; TIMEOUT is ``timed_out``; CANCELLED ``cancelled``.

Trust: the profile always comes from the person's Preferences (never from a job
record, which lies in a folder MCP may write): a record naming a profile that is not
there, or a remote folder other than the profile's, is not followed. Every word that
reaches the remote shell is a constant or a value checked by its grammar, quoted with
:func:`shlex.join`.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from molforma.errors import CalculationError
from molforma.fileio import atomic_write_text
from molforma.jobs import TERMINAL
from molforma.jobs.batch import _FINAL_STATES, ClusterJob, _read_record, judge_end
from molforma.jobs.job_setup import INPUT_NAME, OUTPUT_NAME, RECORD_NAME, _now
from molforma.jobs.remote_plan import (
    _FILE_NAME,
    CHUNK,
    REMOTE_NAME_TRIES,
    SYSTEMS,
    RemotePlan,
    _is_job_folder,
    cluster_info,
    find_profile,
    remote_job_folder,
    test_connection,
)
from molforma.jobs.runner import Job
from molforma.jobs.ssh import Ssh, remote_path
from molforma.nwchem.progress import ProgressTracker
from molforma.preferences import ClusterProfile, load_preferences

# The plan, the profile look-up and the connection test live in remote_plan; they are
# named here too, where the job manager, the tools and the Preferences dialog find them.
__all__ = [
    "RemoteJob",
    "RemotePlan",
    "cluster_info",
    "find_profile",
    "reattach",
    "remote_job_folder",
    "test_connection",
]

log = logging.getLogger(__name__)

POLL_INTERVAL = 1.0  # seconds between looks at the cluster while a job lives
QUICK_POLL = 0.25  # seconds between looks in the first QUICK_SPAN s (short jobs end then)
QUICK_SPAN = 30.0
MAX_BACKOFF = 30.0  # seconds between looks while the cluster cannot be reached
LARGE_FILE = 64 * 1024 * 1024  # files larger than this stay on the cluster unless asked
# NWChem's scratch files: integrals and grids, large and of no use at home.
SCRATCH = re.compile(r".*\.(aoints|gridpts)\.\d+$")
_LIST = 'cd -- "$1" || exit 3; find . -maxdepth 1 -type f -printf "%s %f\\n"'


class RemoteJob(ClusterJob):
    """A job on a remote cluster; followed over ssh from this process, owned by the cluster."""

    thread_prefix = "remote"

    def __init__(
        self,
        folder: Path,
        record: dict[str, Any],
        profile: ClusterProfile,
        on_change: Callable[[Job], None] | None = None,
    ) -> None:
        super().__init__(folder, record, {}, on_change)
        self.profile = profile
        self.ssh = Ssh(profile)
        # A re-attached job keeps the folder its submission made (checked by reattach).
        made = (record.get("remote") or {}).get("folder")
        self.remote_folder = str(made) if made else remote_job_folder(profile, self.id)
        self.system = SYSTEMS[profile.scheduler]
        self._wake = threading.Event()
        self._detach = threading.Event()
        self._cancel_sent = False
        self._fetch_lock = threading.Lock()

    # -- starting ------------------------------------------------------------------------
    def submit(self, plan: RemotePlan) -> None:
        """Make the remote folder, copy the input and the batch script, ``sbatch`` it.

        Raises:
            CalculationError: an ssh failure naming the profile, ``remote_submit_refused``
                (the scheduler's words in ``reason``).
        """
        script = self.folder / self.system.script_name
        atomic_write_text(script, plan.script(self.id))
        self.ssh.run(["mkdir", "-p", "--", remote_path(self.profile.remote_folder)])
        where = self._make_remote_folder()
        try:
            self.ssh.upload([self.folder / INPUT_NAME, script], self.remote_folder)
            try:
                res = self.ssh.run(self.system.submit(where, self.system.script_name))
            except CalculationError as exc:
                if exc.code != "remote_command_failed":
                    raise
                raise CalculationError(
                    "remote_submit_refused",
                    profile=self.profile.name,
                    reason=exc.data.get("reason"),
                    settings=[
                        "partition",
                        "account",
                        "qos",
                        "nodes",
                        "tasksPerNode",
                        "threads",
                        "time_limit",
                        "batch_directives",
                    ],
                ) from exc
            answer = res.stdout.decode("utf-8", "replace").strip().splitlines() or [""]
            native = answer[-1].strip().split(";")[0]
            if not self.system.native_id.fullmatch(native):
                raise CalculationError(
                    "remote_submit_refused",
                    profile=self.profile.name,
                    reason=f"the scheduler answered {native[:80]!r}",
                )
        except BaseException:
            # Nothing is left on the cluster either: the folder is the one made above.
            with contextlib.suppress(CalculationError):
                self.ssh.run(["rm", "-rf", "--", where], check=False)
            raise
        remote = {
            "profile": self.profile.name,
            "host": self.profile.host,
            "folder": self.remote_folder,
        }
        self._update(nativeId=native, remote=remote, submittedAt=_now(), notify=False)

    def _make_remote_folder(self) -> str:
        """Make this job's remote folder (mode 700) and return its shell path.

        Without -p: a folder of that name made by another MolForma (another computer, the
        same second and formula) is never written into; the next name is tried.
        """
        for n in range(1, REMOTE_NAME_TRIES + 1):
            folder = remote_job_folder(self.profile, self.id, n)
            try:
                self.ssh.run(["mkdir", "-m", "700", "--", remote_path(folder)])
            except CalculationError as exc:
                if exc.code == "remote_command_failed" and "File exists" in str(
                    exc.data.get("reason")
                ):
                    continue
                raise
            self.remote_folder = folder
            return remote_path(folder)
        raise CalculationError(
            "remote_submit_refused",
            profile=self.profile.name,
            reason=f"{REMOTE_NAME_TRIES} job folders named {self.id} exist already",
            setting="remote_profile",
        )

    # -- public --------------------------------------------------------------------------
    def _send_cancel(self) -> None:
        with self._lock:
            if self._cancel_sent or self.native_id is None:
                return
            self._cancel_sent = True
        try:
            self.ssh.run([self.system.cancel, str(self.native_id)])
        except CalculationError as exc:
            with self._lock:
                self._cancel_sent = False  # asked again at the next look
            self._update(connectionError=exc.message("en"), notify=False)

    def detach(self) -> None:
        """Stop following (this process ends); the job goes on in the cluster."""
        self._detach.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(0.5)

    def _signal(self, sig: int) -> None:
        """A remote job has no local process to signal."""

    def fetch(self, everything: bool = False) -> list[str]:
        """Copy the job's files home now (also while it runs); returns the names copied.

        While the job lives, ``output.out`` is left to the follower (it copies what NWChem
        adds); once it ended, it is copied too. Files larger than 64 MiB and NWChem's
        scratch files stay on the cluster unless ``everything``; they are listed in the
        record's ``remoteOnly``.

        Raises:
            CalculationError: an ssh failure naming the profile.
        """
        return self._fetch(everything, with_output=self.status in TERMINAL)

    def _remote_files(self) -> dict[str, int]:
        res = self.ssh.run(["sh", "-c", _LIST, "sh", remote_path(self.remote_folder)])
        sizes: dict[str, int] = {}
        for line in res.stdout.decode("utf-8", "replace").splitlines():
            size_text, _sep, name = line.partition(" ")
            if size_text.isdigit() and name:
                sizes[name] = int(size_text)
        return sizes

    def _fetch(
        self, everything: bool, with_output: bool, sizes: dict[str, int] | None = None
    ) -> list[str]:
        with self._fetch_lock:
            wanted: list[str] = []
            kept: list[str] = []
            listed = self._remote_files() if sizes is None else sizes
            for name, size in sorted(listed.items()):
                if (
                    name.startswith(".")
                    or name in (INPUT_NAME, self.system.script_name)
                    or (name == OUTPUT_NAME and not with_output)
                ):
                    continue
                if not _FILE_NAME.fullmatch(name):
                    kept.append(name[:120])  # never named to scp: kept there, listed
                elif (size > LARGE_FILE or SCRATCH.fullmatch(name)) and not everything:
                    kept.append(name)
                else:
                    wanted.append(name)
            folder = remote_path(self.remote_folder)
            self.ssh.download([f"{folder}/{n}" for n in wanted], self.folder)
            self._update(remoteOnly=kept, fetchedAt=_now(), notify=False)
            return wanted

    # -- following -----------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._follow()
        except Exception as exc:  # the follower must never die silently with the job live
            log.exception("following remote job %s failed", self.native_id)
            self._finish("failed", None, error=f"lost track of the remote job: {exc}")
        finally:
            self._done.set()

    def _look(self, offset: int) -> tuple[dict[str, str], int | None, bytes]:
        """One look: the scheduler's fields, NWChem's exit code, new output bytes."""
        res = self.ssh.run(
            [
                "sh",
                "-c",
                self.system.poll,
                "sh",
                remote_path(self.remote_folder),
                str(self.native_id),
                str(offset + 1),
            ],
            check=False,
        )
        if res.returncode == 3:
            raise CalculationError(
                "remote_command_failed",
                profile=self.profile.name,
                host=self.profile.host,
                command="cd",
                exitCode=3,
                reason=f"the job folder {self.remote_folder} is missing",
                setting="remote_profile",
            )
        head, _sep, output = res.stdout.partition(b"@@output@@\n")
        text = head.decode("utf-8", "replace")
        state_part, _sep2, exit_part = text.partition("@@exit@@")
        state_part = state_part.split("@@state@@", 1)[-1]
        info = self.system.parse(state_part)
        exit_text = exit_part.strip()
        rc = int(exit_text) if re.fullmatch(r"-?\d+", exit_text) else None
        return info, rc, output

    def _follow(self) -> None:
        out_path = self.folder / OUTPUT_NAME
        out_path.touch(exist_ok=True)
        offset = out_path.stat().st_size
        backoff = POLL_INTERVAL
        pending = b""
        quick_until = time.monotonic() + QUICK_SPAN
        with out_path.open("rb") as reader:
            # A re-attached job: what was copied before is read again for the progress.
            pending = self._read_lines(reader, pending)
            while not self._detach.is_set():
                if self._cancel.is_set() and not self._cancel_sent:
                    self._send_cancel()
                try:
                    info, rc, chunk = self._look(offset)
                except CalculationError as exc:
                    if self._detach.is_set():
                        return  # MolForma ends (its connection went first): nothing to say
                    # The job lives on in the cluster: say why it is not seen, try later.
                    self._update(connectionError=exc.message("en"))
                    self._wake.wait(backoff)
                    self._wake.clear()
                    backoff = min(MAX_BACKOFF, backoff * 2)
                    continue
                backoff = POLL_INTERVAL
                if self._record.get("connectionError"):
                    self._update(connectionError=None, notify=False)
                if chunk:
                    if self.status == "queued":  # NWChem writes: it runs
                        self._update(
                            status="running",
                            startedAt=_now(),
                            queueReason=None,
                            schedulerState="RUNNING",
                        )
                    with out_path.open("ab") as out:
                        out.write(chunk)
                    offset += len(chunk)
                    pending = self._read_lines(reader, pending)
                state = info.get("JobState", "")
                if len(chunk) >= CHUNK:
                    continue  # more output waiting: read on at once
                if state in _FINAL_STATES or (not state and rc is not None):
                    self._settle(info, rc, out_path, reader, pending)
                    return
                self._note_state(info)
                self._wake.wait(QUICK_POLL if time.monotonic() < quick_until else POLL_INTERVAL)
                self._wake.clear()

    def _note_state(self, info: Mapping[str, str]) -> None:
        state = info.get("JobState", "")
        reason = info.get("Reason")
        reason = None if reason in (None, "", "None", "(null)") else reason
        if state == "RUNNING" and self.status == "queued":
            self._update(
                status="running", startedAt=_now(), queueReason=None, schedulerState="RUNNING"
            )
        elif (
            state
            and self.status == "queued"
            and (
                reason != self._record.get("queueReason")
                or state != self._record.get("schedulerState")
            )
        ):
            self._update(queueReason=reason, schedulerState=state)

    def _settle(
        self, info: dict[str, str], rc: int | None, out_path: Path, reader: Any, pending: bytes
    ) -> None:
        """The job has ended: bring the files home, read the last output, judge the end."""
        error_note: str | None = None
        replaced = False
        try:
            replaced = self._bring_home(out_path)
        except CalculationError as exc:
            error_note = exc.message("en")
        if not replaced:
            pending = self._read_lines(reader, pending)
            if pending:
                self._feed(pending)
        sched = info.get("JobState", "")
        status = judge_end(
            sched=sched, rc=rc, nwchem_error=self._tracker.error, cancelled=self._cancel.is_set()
        )
        error = None
        if status == "failed" and rc is None:
            error = self._tracker.error or f"the scheduler ended the job ({sched or '?'})"
        if status == "timed_out":
            error = (
                f"time limit of {self._record.get('timeLimit')} s reached (the "
                "scheduler ended the job)"
            )
        with self._lock:
            self._record["schedulerState"] = sched or None
            self._record["queueReason"] = None
            if error_note:
                self._record["connectionError"] = error_note
        self._finish(status, rc, error=error)

    def _bring_home(self, out_path: Path) -> bool:
        """The other files, and output.out again only when the copy made by following
        differs in size from the cluster's (then the progress is read afresh)."""
        sizes = self._remote_files()
        if sizes.get(OUTPUT_NAME, -1) != out_path.stat().st_size:
            self.ssh.download([f"{remote_path(self.remote_folder)}/{OUTPUT_NAME}"], self.folder)
            self._tracker = ProgressTracker()
            with contextlib.suppress(OSError), out_path.open("rb") as fh:
                for raw in fh.read().split(b"\n"):
                    self._feed(raw)
            self._fetch(everything=False, with_output=False, sizes=sizes)
            return True
        self._fetch(everything=False, with_output=False, sizes=sizes)
        return False


def reattach(
    root: Path, known: set[str], on_change: Callable[[Job], None] | None = None
) -> list[RemoteJob]:
    """Follow again the remote jobs under ``root`` whose records say queued or running.

    The profile is the person's, read from Preferences by the name in the record; a
    record whose profile is not there, or whose remote folder is not that profile's
    folder for the job, is left as it is (a record lies in a folder others may write).
    """
    found: list[RemoteJob] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return found
    prefs = None
    for entry in entries:
        if entry.name in known or not entry.is_dir(follow_symlinks=False):
            continue
        record = _read_record(Path(entry.path) / RECORD_NAME)
        if (
            record is None
            or not isinstance(record.get("remote"), Mapping)
            or record.get("scheduler") != "slurm"
            or not record.get("nativeId")
        ):
            continue
        if record.get("status") in TERMINAL or record.get("savedOnly"):
            continue
        if record.get("id") != entry.name:
            continue
        prefs = prefs or load_preferences()
        remote = record["remote"]
        profile = prefs.profile(str(remote.get("profile")))
        if profile is None:
            log.warning("not re-attaching %s: no profile %r", entry.path, remote.get("profile"))
            continue
        if not SYSTEMS[profile.scheduler].native_id.fullmatch(str(record.get("nativeId"))):
            continue
        try:
            expected = remote_job_folder(profile, entry.name)
        except CalculationError:
            continue
        if (
            not _is_job_folder(profile, entry.name, remote.get("folder"))
            or remote.get("host") != profile.host
        ):
            log.warning("not re-attaching %s: its remote folder is not %s", entry.path, expected)
            continue
        found.append(RemoteJob(Path(entry.path), dict(record), profile, on_change))
    return found
