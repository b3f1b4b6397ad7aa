"""Batch jobs: a job folder submitted to a SLURM cluster through PSI/J (no Qt).

The folder is the one a local run makes (``input.nw``, project snapshot, ``job.json``,
``output.out``); PSI/J writes its batch script, exit-code file and launcher copies
in ``<folder>/.psij/``, a work directory of the job's own, so job ids that restart
at 1 on a new cluster can never meet an old job's files, and a later MolForma
finds them from the folder alone. The record adds ``scheduler``, ``nativeId`` (the
cluster's job id), the batch settings and ``queueReason``.

A batch job belongs to the cluster, not to this process: it is never cancelled at
exit (:meth:`JobManager.stop_all <molforma.jobs.manager.JobManager.stop_all>` skips
it) and :func:`reattach` follows it again from its record.

How its state is told. PSI/J polls the queue every second and reports queued,
active and final states. Two signals are quicker and just as true, so they are
watched too: ``output.out`` appears when the batch script starts NWChem (running),
and PSI/J's exit-code file appears when NWChem has ended; the scheduler is then
asked (``scontrol``) for the job's final state. NWChem's own exit code and output
decide ``finished`` versus ``failed`` even when the scheduler says COMPLETED;
the scheduler's TIMEOUT gives ``timed_out``, CANCELLED ``cancelled``.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import json
import logging
import os
import shlex
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from molforma.errors import CalculationError
from molforma.jobs import TERMINAL, cluster
from molforma.jobs.job_setup import (
    OUTPUT_NAME,
    RECORD_NAME,
    _now,
    build_command,
    build_environment,
)
from molforma.jobs.runner import Job
from molforma.nwchem import value_grammar as grammar
from molforma.nwchem.settings import ExecutionSettings

log = logging.getLogger(__name__)

PSIJ_DIR = ".psij"
# The settings a refused submission may be about (named in its message).
BATCH_SETTINGS = (
    "partition",
    "account",
    "qos",
    "nodes",
    "tasksPerNode",
    "threads",
    "time_limit",
    "batch_directives",
)
EXECUTOR = "slurm"
QUEUE_POLL_INTERVAL = 1  # seconds; PSI/J's default of 30 makes a 3 s job look like a 30 s one
WATCH_INTERVAL = 0.1  # how often the output, the exit-code file and a queued job's reason are read
REASON_INTERVAL = 1.0
FINAL_POLL_SLOW = 2.0  # after this many seconds of waiting for the final state, ask less often
FINAL_POLL_INTERVAL = 1.0
LIFETIME_NOTE = (
    "Batch job: it belongs to the cluster. Closing MolForma does not cancel it; "
    "a later MolForma re-attaches to it from this record."
)
# Scheduler states that end a job (scontrol's JobState).
_FINAL_STATES = frozenset(
    {
        "COMPLETED",
        "FAILED",
        "CANCELLED",
        "TIMEOUT",
        "NODE_FAIL",
        "OUT_OF_MEMORY",
        "BOOT_FAIL",
        "DEADLINE",
        "PREEMPTED",
        "SPECIAL_EXIT",
        "REVOKED",
    }
)


def _psij() -> Any:
    try:
        import psij
        from psij.executors.batch.slurm import SlurmExecutorConfig
    except ImportError as exc:
        raise CalculationError("psij_missing", setting="scheduler") from exc
    return psij, SlurmExecutorConfig


def mpi_processes(execution: ExecutionSettings) -> int:
    """MPI processes of a batch job: nodes × tasksPerNode."""
    return int(execution.nodes) * int(execution.tasksPerNode)


def batch_command(execution: ExecutionSettings) -> list[str]:
    """What runs inside the allocation: NWChem alone, or the MPI launcher with N ranks."""
    return build_command(execution.model_copy(update={"processes": mpi_processes(execution)}))


def batch_environment(execution: ExecutionSettings) -> dict[str, str]:
    """The variables the batch script sets on top of the submitting environment."""
    env = build_environment(execution.model_copy(update={"processes": mpi_processes(execution)}))
    return {k: v for k, v in env.items() if os.environ.get(k) != v}


def check_batch_values(execution: ExecutionSettings) -> None:
    """Every execution value that reaches the batch script, checked by its grammar again.

    The settings model checks them when they are set; this check does not trust that (a
    settings object built without validation, a record from elsewhere), so no value that
    could end a script line or a quote is ever handed to PSI/J's template.

    Raises:
        ValidationError: the code of the first value's grammar that fails
            (:mod:`molforma.nwchem.value_grammar`).
    """
    for key, check in grammar.EXECUTION_VALIDATORS.items():
        check(getattr(execution, key))


class BatchPlan:
    """A batch job's settings, checked against the cluster before any file is written."""

    def __init__(self, execution: ExecutionSettings) -> None:
        check_batch_values(execution)
        _psij()
        self.execution = execution
        self.partition = cluster.check_settings(
            execution.partition or None, execution.time_limit, list(execution.batch_directives)
        )
        self.command = batch_command(execution)
        self.env = batch_environment(execution)
        self.directives = [cluster.directive_pair(d) for d in execution.batch_directives]

    def record_fields(self) -> dict[str, Any]:
        """What the job record adds for a batch job."""
        ex = self.execution
        return {
            "scheduler": "slurm",
            "nativeId": None,
            "partition": self.partition,
            "account": ex.account or None,
            "qos": ex.qos or None,
            "nodes": ex.nodes,
            "tasksPerNode": ex.tasksPerNode,
            "batchDirectives": list(ex.batch_directives),
            "processes": mpi_processes(ex),
            "command": list(self.command),
            "queueReason": None,
            "schedulerState": None,
            "survivesExit": True,
            "note": LIFETIME_NOTE,
        }


def check_folder(folder: Path) -> None:
    """Refuse a folder path PSI/J's batch script would break (it is not quoted everywhere).

    Raises:
        CalculationError: ``slurm_unsafe_path``.
    """
    text = str(folder)
    if shlex.quote(text) != text:
        raise CalculationError("slurm_unsafe_path", path=text, setting="job_root")


def _executor(folder: Path) -> Any:
    psij, config_cls = _psij()
    config = config_cls(
        work_directory=folder / PSIJ_DIR,
        queue_polling_interval=QUEUE_POLL_INTERVAL,
        initial_queue_polling_delay=0,
        keep_files=True,
    )
    return psij.JobExecutor.get_instance(EXECUTOR, config=config)


class ClusterJob(Job):
    """A job the cluster owns and this process follows: its scheduler id and cancel.

    Subclasses send the cancel (``_send_cancel``) and name their follower thread.
    """

    is_batch = True
    thread_prefix = "cluster"
    _wake: threading.Event  # what wakes the follower early (a status, a cancel)

    def _start_thread(self) -> None:
        # Not in runner._ACTIVE: the exit safety net must leave cluster jobs to the cluster.
        self._thread = threading.Thread(
            target=self._run, name=f"{self.thread_prefix}-{self.id}", daemon=True
        )
        self._thread.start()

    @property
    def native_id(self) -> str | None:
        """The cluster's job id."""
        with self._lock:
            value = self._record.get("nativeId")
        return str(value) if value is not None else None

    def cancel(self) -> None:
        """Ask the scheduler to cancel the job; the follower records the end."""
        self._cancel.set()
        self._send_cancel()
        self._wake.set()

    def submit(self, plan: Any) -> None:
        """Stage and submit the job as ``plan`` (each cluster path its own plan)."""
        raise NotImplementedError

    def _send_cancel(self) -> None:
        raise NotImplementedError


class BatchJob(ClusterJob):
    """A job run by the cluster's scheduler; followed from this process, owned by the cluster."""

    thread_prefix = "batch"

    def __init__(
        self, folder: Path, record: dict[str, Any], on_change: Callable[[Job], None] | None = None
    ) -> None:
        super().__init__(folder, record, {}, on_change)
        self._wake = threading.Event()
        self._detach = threading.Event()
        self._cancel_sent = False
        self._executor: Any = None
        self._pjob: Any = None

    # -- starting ------------------------------------------------------------------------
    def submit(self, plan: BatchPlan) -> None:
        """Submit the folder through PSI/J; the record gets the cluster's job id.

        Raises:
            CalculationError: ``slurm_submit_refused`` (the scheduler said no; its words
                are in ``reason``), ``slurm_not_installed``.
            ValidationError: a value outside its grammar (:func:`check_batch_values`,
                ``bad_job_name``); nothing is submitted.
        """
        psij, _config = _psij()
        ex = plan.execution
        # Checked again here, where the values meet the template: PSI/J writes each one
        # between double quotes on an #SBATCH line, with shlex quoting only.
        check_batch_values(ex)
        name = grammar.validate_job_name(f"molforma-{self.id}"[:64])
        grammar.validate_partition(plan.partition)
        grammar.validate_environment(plan.env)
        custom: dict[str, object] = {}
        if ex.qos:
            custom["slurm.qos"] = ex.qos
        for key, value in (grammar.directive_parts(d) for d in ex.batch_directives):
            custom[f"slurm.{key}"] = value
        attributes = psij.JobAttributes(
            queue_name=plan.partition, account=ex.account or None, custom_attributes=custom or None
        )
        # No time limit: the partition's default wall time, not PSI/J's own 10 minutes.
        attributes.duration = _dt.timedelta(seconds=float(ex.time_limit)) if ex.time_limit else None
        resources = psij.ResourceSpecV1(
            node_count=ex.nodes,
            processes_per_node=ex.tasksPerNode,
            cpu_cores_per_process=ex.threads,
        )
        spec = psij.JobSpec(
            executable=plan.command[0],
            arguments=plan.command[1:],
            directory=self.folder,
            name=name,
            inherit_environment=True,
            environment=dict(plan.env),
            stdout_path=self.folder / OUTPUT_NAME,
            stderr_path=self.folder / "error.err",
            resources=resources,
            attributes=attributes,
        )
        cluster.which("sbatch")
        self._executor = _executor(self.folder)
        pjob = psij.Job(spec)
        pjob.set_job_status_callback(lambda _job, _status: self._wake.set())
        try:
            self._executor.submit(pjob)
        except psij.SubmitException as exc:
            raise CalculationError(
                "slurm_submit_refused", settings=list(BATCH_SETTINGS), reason=_short(str(exc))
            ) from exc
        except OSError as exc:
            raise CalculationError(
                "slurm_submit_refused",
                settings=list(BATCH_SETTINGS),
                reason=exc.strerror or str(exc),
            ) from exc
        self._pjob = pjob
        self._update(nativeId=str(pjob.native_id), notify=False)

    def attach(self) -> None:
        """Follow the cluster job named in the record again (a later MolForma process)."""
        psij, _config = _psij()
        self._executor = _executor(self.folder)
        pjob = psij.Job()
        pjob.set_job_status_callback(lambda _job, _status: self._wake.set())
        self._executor.attach(pjob, str(self._record["nativeId"]))
        self._pjob = pjob

    # -- public --------------------------------------------------------------------------
    def detach(self) -> None:
        """Stop following (this process ends); the job goes on in the cluster."""
        self._detach.set()
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(0.5)  # exit must stay quick (docs/reference/cli.md: within a second of EOF)
        if thread is None or not thread.is_alive():
            with self._lock:
                # PSI/J's queue-polling thread ends once its executor is no longer used.
                self._pjob = None
                self._executor = None

    def _signal(self, sig: int) -> None:
        """Batch jobs have no local process to signal."""

    def _send_cancel(self) -> None:
        with self._lock:
            if self._cancel_sent or self._pjob is None:
                return
            self._cancel_sent = True
        try:
            self._pjob.cancel()
        except Exception:  # a scancel that fails leaves the job to its end
            log.warning("cannot cancel batch job %s", self.native_id, exc_info=True)
            with contextlib.suppress(CalculationError):
                cluster.run("scancel", str(self.native_id))

    # -- following -----------------------------------------------------------------------
    def _run(self) -> None:
        try:
            self._follow()
        except Exception as exc:  # the follower must never die silently with the job live
            log.exception("following batch job %s failed", self.native_id)
            self._finish("failed", None, error=f"lost track of the batch job: {exc}")
        finally:
            if self.status in TERMINAL:
                # PSI/J's queue-polling thread ends once its executor is no longer used.
                with self._lock:
                    self._pjob = None
                    self._executor = None
            self._done.set()

    def _follow(self) -> None:
        out_path = self.folder / OUTPUT_NAME
        ec_path = self._executor.work_directory / f"{self.native_id}.ec"
        reader: Any = None
        pending = b""
        next_reason = 0.0
        ending_since: float | None = None
        next_final = 0.0
        try:
            while True:
                self._wake.wait(WATCH_INTERVAL)
                self._wake.clear()
                if self._detach.is_set():
                    return
                if reader is None and out_path.exists():
                    reader = out_path.open("rb")
                if reader is not None:
                    pending = self._read_lines(reader, pending)
                if self._cancel.is_set():
                    self._send_cancel()
                state = self._pjob.status.state
                ended = state.final or ec_path.exists() or self._cancel_sent
                if ended:
                    now = time.monotonic()
                    ending_since = now if ending_since is None else ending_since
                    if now < next_final:
                        continue
                    info = self._final_info(state.final)
                    if info is not None:
                        break
                    if now - ending_since > FINAL_POLL_SLOW:
                        # The scheduler is slow to settle (or unreachable): spare it.
                        next_final = now + FINAL_POLL_INTERVAL
                    continue
                if (state.name == "ACTIVE" or reader is not None) and self.status == "queued":
                    self._update(
                        status="running",
                        startedAt=_now(),
                        queueReason=None,
                        schedulerState="RUNNING",
                    )
                elif self.status == "queued" and time.monotonic() >= next_reason:
                    next_reason = time.monotonic() + REASON_INTERVAL
                    self._note_reason()
            if reader is not None:
                pending = self._read_lines(reader, pending)
                if pending:
                    self._feed(pending)
        finally:
            if reader is not None:
                reader.close()
        self._conclude(info, ec_path)

    def _final_info(self, psij_final: bool) -> dict[str, str] | None:
        """The scheduler's record of the job once it is final; None while it is not yet."""
        info = cluster.job_info(str(self.native_id))
        if info is not None and info.get("JobState", "") in _FINAL_STATES:
            return info
        if psij_final:
            message = str(self._pjob.status.message or "")
            if info is None and not message.startswith("Failed to"):
                return {}  # SLURM no longer knows the job: PSI/J's word and the files decide
            if info is not None and info.get("JobState") in ("COMPLETING", "COMPLETED"):
                return None  # settling: the next look gives the final state
            # PSI/J gave up polling (controller unreachable) or its word disagrees with
            # the scheduler's: the job may well live on, so follow it afresh.
            log.warning("re-attaching batch job %s (%s)", self.native_id, message or "-")
            time.sleep(2.0)
            self.attach()
        return None

    def _note_reason(self) -> None:
        info = cluster.job_info(str(self.native_id))
        if not info:
            return
        reason = info.get("Reason")
        reason = None if reason in (None, "None", "(null)") else reason
        if info.get("JobState") == "RUNNING":
            self._update(
                status="running", startedAt=_now(), queueReason=None, schedulerState="RUNNING"
            )
        elif reason != self._record.get("queueReason"):
            self._update(queueReason=reason, schedulerState=info.get("JobState"))

    def _conclude(self, info: dict[str, str] | None, ec_path: Path) -> None:
        info = info or {}
        sched = info.get("JobState", "")
        status_obj = self._pjob.status
        message = str(status_obj.message or "")
        rc = _exit_code(ec_path)
        if rc is None and status_obj.exit_code is not None:
            rc = int(status_obj.exit_code)
        status = judge_end(
            sched=sched,
            rc=rc,
            nwchem_error=self._tracker.error,
            message=message,
            cancelled=self._cancel.is_set() or status_obj.state.name == "CANCELED",
        )
        error = None
        if status == "failed" and rc is None:
            error = self._tracker.error or (
                f"the scheduler ended the job ({sched or message or 'no exit code'})"
            )
        if status == "timed_out":
            error = (
                f"time limit of {self._record.get('timeLimit')} s reached (the scheduler "
                "ended the job)"
            )
        with self._lock:
            self._record["schedulerState"] = sched or None
            self._record["queueReason"] = None
        self._finish(status, rc, error=error)


def judge_end(
    *, sched: str, rc: int | None, nwchem_error: str | None, cancelled: bool, message: str = ""
) -> str:
    """A batch job's end status from the scheduler's final state and NWChem's own word.

    Shared by local (PSI/J) and remote (ssh) SLURM jobs: ``sched`` is the scheduler's
    JobState ("" when it no longer knows the job), ``rc`` NWChem's exit code as the batch
    script recorded it, ``nwchem_error`` the error line NWChem printed. COMPLETED is not
    enough: NWChem's failure is ``failed`` whatever the scheduler says.
    """
    if cancelled or sched == "CANCELLED":
        return "cancelled"
    if sched in ("TIMEOUT", "DEADLINE") or "time limit" in message.lower():
        return "timed_out"
    if rc == 0 and nwchem_error is None and sched in ("", "COMPLETED"):
        return "finished"
    return "failed"


def _exit_code(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def _short(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    picked = [ln for ln in lines if "error" in ln.lower()] or lines
    return " ".join(picked)[:500] or "no reason given"


def reattach(
    root: Path, known: set[str], on_change: Callable[[Job], None] | None = None
) -> list[BatchJob]:
    """Follow again the batch jobs under ``root`` whose records say queued or running.

    Folders whose id is in ``known`` are skipped (already followed by this process).
    A folder that cannot be read or attached is left as it is.
    """
    found: list[BatchJob] = []
    try:
        entries = list(os.scandir(root))
    except OSError:
        return found
    for entry in entries:
        if entry.name in known or not entry.is_dir(follow_symlinks=False):
            continue
        record = _read_record(Path(entry.path) / RECORD_NAME)
        if record is None or record.get("scheduler") != "slurm" or not record.get("nativeId"):
            continue
        if record.get("remote") is not None:
            continue  # a remote cluster's job (molforma.jobs.remote), never a local one
        if record.get("status") in TERMINAL or record.get("savedOnly"):
            continue
        job = BatchJob(Path(entry.path), record, on_change)
        try:
            job.attach()
        except CalculationError as exc:
            log.warning("cannot re-attach %s: %s", entry.path, exc)
            continue
        found.append(job)
    return found


def _read_record(path: Path) -> dict[str, Any] | None:
    try:
        if path.stat().st_size > 1024 * 1024:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, Mapping) and data.get("format") == "molforma-job" else None  # type: ignore[return-value]
