"""The jobs of one MolForma: starts local runs and batch submissions, keeps them (no Qt).

:class:`JobManager` sits above both kinds of job: a local run
(:class:`molforma.jobs.runner.Job`) and a batch job (:mod:`molforma.jobs.batch`, which
builds on the runner; loaded on the first batch job), so neither imports the other back.
"""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from molforma.errors import CalculationError
from molforma.jobs.job_setup import _Prepared
from molforma.jobs.runner import Job
from molforma.lazy import lazy_import

if TYPE_CHECKING:
    from molforma.jobs import batch, remote, ssh
    from molforma.jobs.batch import ClusterJob
else:  # imported on the first batch or remote job (start-up time): molforma.lazy
    batch = lazy_import("molforma.jobs.batch")
    remote = lazy_import("molforma.jobs.remote")
    ssh = lazy_import("molforma.jobs.ssh")


class JobManager:
    """Starts jobs and keeps them; at most one runs at a time.

    ``on_change(job)`` is called from the job's background thread (never under a
    lock) when the status or the live progress changes; a GUI must hand it over to
    its own thread. When a job has ended, ``job.wait(0)`` is already True there.
    """

    def __init__(self, on_change: Callable[[Job], None] | None = None) -> None:
        self._on_change = on_change
        self._lock = threading.Lock()
        self._jobs: list[Job] = []
        # A submission and a re-attach scan exclude each other, so a scan can never take
        # a job being submitted for one left by another process.
        self._batch_lock = threading.Lock()
        self._closed = False

    def close(self) -> None:
        """Refuse every later :meth:`start` (the program is ending); running jobs go on."""
        with self._lock:
            self._closed = True

    def start(self, project: Mapping[str, Any]) -> Job:
        """Write a job folder and run NWChem there in a background thread; returns at once.

        Raises:
            CalculationError: ``input_invalid``, ``job_running``, ``bad_command``,
                ``bad_environment``, ``shutting_down`` (after :meth:`close`).
            ValidationError: the input cannot be generated (e.g. forbidden extra input).
            FileAccessError: the job root or folder cannot be written.
        """
        prepared = _Prepared(project)
        if prepared.execution.remote_profile:
            return self._submit_remote(prepared)
        if prepared.execution.scheduler == "slurm":
            return self._submit(prepared)
        with self._lock:
            if self._closed:
                raise CalculationError("shutting_down")
            running = self._running(local_only=True)
            if running is not None:
                raise CalculationError("job_running", folder=str(running.folder))
            folder, record = prepared.write(saved_only=False)
            job = Job(folder, record, prepared.env, self._on_change)
            self._jobs.append(job)
        job._start_thread()
        return job

    def _submit(self, prepared: _Prepared) -> Job:
        """Check the cluster, write the folder and submit it; nothing is left on a refusal."""
        with self._lock:
            if self._closed:
                raise CalculationError("shutting_down")
        plan = batch.BatchPlan(prepared.execution)
        return self._submit_cluster_job(
            prepared,
            plan,
            lambda folder, record: batch.BatchJob(folder, record, self._on_change),
            check_folder=batch.check_folder,
        )

    def _submit_remote(self, prepared: _Prepared) -> Job:
        """Check the profile and the remote cluster, write the folder, stage and submit it
        over ssh; nothing is left here on a refusal (:mod:`molforma.jobs.remote`)."""
        with self._lock:
            if self._closed:
                raise CalculationError("shutting_down")
        plan = remote.RemotePlan(prepared.execution)
        return self._submit_cluster_job(
            prepared,
            plan,
            lambda folder, record: remote.RemoteJob(folder, record, plan.profile, self._on_change),
        )

    def _submit_cluster_job(
        self,
        prepared: _Prepared,
        plan: Any,
        make_job: Callable[[Path, dict[str, Any]], ClusterJob],
        **write_args: Any,
    ) -> Job:
        """Write the job folder, make the job and submit it; a refusal leaves no folder."""
        with self._batch_lock:
            folder, record = prepared.write(
                saved_only=False, extra=plan.record_fields(), **write_args
            )
            try:
                job = make_job(folder, record)
                job.submit(plan)
            except BaseException:
                shutil.rmtree(folder, ignore_errors=True)
                raise
            with self._lock:
                self._jobs.append(job)
        job._start_thread()
        return job

    def reattach(self, root: str | os.PathLike[str]) -> list[Job]:
        """Follow the batch jobs still queued or running under ``root`` (their records).

        A batch job outlives the MolForma that submitted it; this is how a later one
        picks it up again. Jobs this manager already follows are skipped.
        """
        path = Path(os.path.expanduser(os.fspath(root)))
        with self._batch_lock:
            with self._lock:
                known = {j.id for j in self._jobs}
            found: list[Job] = list(batch.reattach(path, known, self._on_change))
            found += remote.reattach(path, known, self._on_change)
            with self._lock:
                self._jobs.extend(found)
        for job in found:
            job._start_thread()
        return list(found)

    def save_input_set(self, project: Mapping[str, Any]) -> Path:
        """Write a job folder (input, snapshot, record with ``savedOnly``) without running.

        Raises:
            CalculationError, ValidationError, FileAccessError: as :meth:`start`.
        """
        folder, _record = _Prepared(project).write(saved_only=True)
        return folder

    def current(self) -> Job | None:
        """The running job, else the most recent one, else None."""
        with self._lock:
            running = self._running()
            if running is not None:
                return running
            return self._jobs[-1] if self._jobs else None

    def find(self, job_id: str) -> Job | None:
        """The job with id ``job_id`` (its folder name), or None."""
        with self._lock:
            return next((j for j in self._jobs if j.id == job_id), None)

    def jobs(self) -> list[Job]:
        """Every job started by this manager, oldest first."""
        with self._lock:
            return list(self._jobs)

    def stop_all(self, timeout: float = 5.0) -> None:
        """Cancel every local job that has not ended and wait for them (used at exit: no
        orphans). Batch jobs belong to the cluster: they go on, and are only no longer
        followed."""
        remote_jobs = False
        for job in self.jobs():
            if job.is_batch:
                job.detach()  # type: ignore[attr-defined]
                remote_jobs = remote_jobs or hasattr(job, "remote_folder")
        if remote_jobs:
            ssh.close_all()  # the shared connections end with us; the jobs go on
        pending = [j for j in self.jobs() if not j._done.is_set() and not j.is_batch]
        for job in pending:
            job.cancel()
        deadline = time.monotonic() + timeout
        for job in pending:
            job.wait(max(0.0, deadline - time.monotonic()))
            if not job._done.is_set():
                job._signal(signal.SIGKILL)

    def _running(self, local_only: bool = False) -> Job | None:
        for job in reversed(self._jobs):
            if local_only and job.is_batch:
                continue
            if not job._done.is_set():
                return job
        return None
